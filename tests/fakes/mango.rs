//! A fake Mango Office VPBX API on 127.0.0.1, written from Mango's API
//! documentation (VPBX API v1.9 and its integrators' examples: every request
//! a form POST of `vpbx_api_key`, `sign` = hex sha256(key + json + salt)
//! and `json`; `commands/callback` with `command_id`, `from` {extension |
//! number}, `to_number`, `line_number`; answers `{"result": 1000}` or
//! another code of the documentation's table; `config/users/request`
//! answers `{"users": [...]}`), not from our client. It checks the key and
//! the signature (3105, 3102), the method (3101) and the command's
//! parameters (3103, 3104), records every command, and plays faults set on
//! its state. It also builds the PBX's own events (signed forms) for the
//! webhook tests.
//! Included by a test with `#[path = "fakes/mango.rs"] mod mango_fake;`.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State as Shared;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The PBX's key and salt in the tests.
pub const KEY: &str = "k3y0f7h3pbx0123456789abcdef01234";
pub const SALT: &str = "s417f0r7h3s1gn4tur3";

/// The documentation's signature: hex(sha256(key + json + salt)).
pub fn sign(key: &str, json: &str, salt: &str) -> String {
    hex::encode(Sha256::digest(format!("{key}{json}{salt}").as_bytes()))
}

/// A form as the PBX posts it: `vpbx_api_key`, `sign`, `json`.
pub fn signed_form(key: &str, salt: &str, json: &str) -> String {
    form_urlencoded::Serializer::new(String::new())
        .append_pair("vpbx_api_key", key)
        .append_pair("sign", &sign(key, json, salt))
        .append_pair("json", json)
        .finish()
}

/// An event of the tests' PBX, signed with its key and salt.
pub fn event(json: &Value) -> String {
    signed_form(KEY, SALT, &json.to_string())
}

/// `/events/summary` of an inbound call (`call_direction` 1) from `caller`
/// (Mango's "7…" digits) to the line `line`, created at `created` (unix
/// seconds); answered after `wait` seconds and talked `talk` seconds, or
/// missed after ringing `wait` seconds.
pub fn summary(
    entry_id: &str,
    caller: &str,
    line: &str,
    created: i64,
    wait: i64,
    talk: Option<i64>,
) -> Value {
    let (talk_time, end_time, result) = match talk {
        Some(talk) => (created + wait, created + wait + talk, 1),
        None => (0, created + wait, 0),
    };
    json!({
        "entry_id": entry_id,
        "call_direction": 1,
        "from": {"number": caller},
        "to": {"extension": "101", "number": "sip:manager@salon.mangosip.ru"},
        "line_number": line,
        "create_time": created,
        "forward_time": created + 3,
        "talk_time": talk_time,
        "end_time": end_time,
        "entry_result": result,
        "disconnect_reason": if talk.is_some() { 1110 } else { 1111 }
    })
}

/// `/events/call` of a call still ringing (`Appeared`).
pub fn ringing(entry_id: &str, caller: &str, line: &str, at: i64) -> Value {
    json!({
        "entry_id": entry_id,
        "call_id": format!("{entry_id}-1"),
        "timestamp": at,
        "seq": 1,
        "call_state": "Appeared",
        "location": "abonent",
        "from": {"number": caller},
        "to": {"extension": "101", "number": "sip:manager@salon.mangosip.ru", "line_number": line}
    })
}

/// What the fake answers next, before looking at the request.
#[derive(Debug, Clone)]
pub enum Fault {
    Status(u16),
    TooMany { retry_after: u64 },
}

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// The `json` field, parsed (Null when it was not JSON).
    pub json: Value,
    /// Whether the key and the signature were right.
    pub signed: bool,
}

/// The PBX, its employees and the faults to play; tests set and read it.
pub struct State {
    pub key: String,
    pub salt: String,
    /// `config/users/request`'s users.
    pub users: Vec<Value>,
    /// The result code `commands/callback` answers (1000: done).
    pub callback_result: i64,
    pub faults: VecDeque<Fault>,
    pub seen: Vec<Seen>,
}

impl Default for State {
    fn default() -> Self {
        let user = |name: &str, extension: &str| {
            json!({
                "general": {"name": name, "email": format!("{extension}@salon.example")},
                "telephony": {"extension": extension, "outgoingline": "74952129298",
                    "numbers": [{"number": format!("sip:{extension}@salon.mangosip.ru"),
                        "protocol": "sip", "order": 1, "wait_sec": 20, "status": "on"}]}
            })
        };
        State {
            key: KEY.into(),
            salt: SALT.into(),
            users: vec![
                user("Анна Менеджер", "101"),
                user("Борис Менеджер", "102"),
                user("Ресепшн", "100"),
            ],
            callback_result: 1000,
            faults: VecDeque::new(),
            seen: Vec::new(),
        }
    }
}

impl State {
    /// The commands received on `path` with a right signature.
    pub fn commands(&self, path: &str) -> Vec<Value> {
        self.seen
            .iter()
            .filter(|s| s.path == path && s.signed)
            .map(|s| s.json.clone())
            .collect()
    }
}

/// The fake, listening; `url` is its base (`mango.api_url`).
pub struct FakeMango {
    pub url: String,
    pub state: Arc<Mutex<State>>,
}

impl FakeMango {
    pub async fn start(state: State) -> FakeMango {
        let state = Arc::new(Mutex::new(state));
        let router = axum::Router::new()
            .fallback(handle)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        FakeMango {
            url: format!("http://127.0.0.1:{port}/vpbx"),
            state,
        }
    }

    pub fn with<T>(&self, read: impl FnOnce(&mut State) -> T) -> T {
        read(&mut self.state.lock().unwrap())
    }
}

fn result(status: u16, code: i64) -> Response {
    (
        StatusCode::from_u16(status).unwrap(),
        axum::Json(json!({"result": code})),
    )
        .into_response()
}

async fn handle(
    Shared(state): Shared<Arc<Mutex<State>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut state = state.lock().unwrap();
    let form: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let path = uri.path().trim_start_matches("/vpbx").to_string();
    let json_text = field("json").unwrap_or_default();
    let key_right = field("vpbx_api_key").as_deref() == Some(state.key.as_str());
    let sign_right =
        field("sign").as_deref() == Some(sign(&state.key, &json_text, &state.salt).as_str());
    state.seen.push(Seen {
        method: method.to_string(),
        path: path.clone(),
        json: serde_json::from_str(&json_text).unwrap_or(Value::Null),
        signed: key_right && sign_right,
    });
    match state.faults.pop_front() {
        Some(Fault::Status(status @ (401 | 403))) => return result(status, 3105),
        Some(Fault::Status(status)) => return result(status, 5000),
        Some(Fault::TooMany { retry_after }) => {
            let mut answer = result(429, 5001);
            answer.headers_mut().insert(
                header::RETRY_AFTER,
                retry_after.to_string().parse().unwrap(),
            );
            return answer;
        }
        None => {}
    }
    if method != Method::POST {
        return result(200, 3101);
    }
    let form_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !form_type || field("json").is_none() || field("sign").is_none() {
        return result(200, 3103);
    }
    if !key_right {
        return result(401, 3105);
    }
    if !sign_right {
        return result(200, 3102);
    }
    let Ok(json) = serde_json::from_str::<Value>(&json_text) else {
        return result(200, 3104);
    };
    match path.as_str() {
        "/config/users/request" => axum::Json(json!({"users": state.users})).into_response(),
        "/commands/callback" => {
            let digits = |v: &Value| {
                v.as_str()
                    .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            };
            let from = &json["from"];
            let from_ok = from.is_object()
                && (digits(&from["extension"]) || digits(&from["number"]))
                && from.as_object().unwrap().values().all(digits);
            if json["command_id"].as_str().is_none_or(str::is_empty) || !from.is_object() {
                return result(200, 3103);
            }
            if !from_ok || !digits(&json["to_number"]) {
                return result(200, 3104);
            }
            if !json["line_number"].is_null() && !digits(&json["line_number"]) {
                return result(200, 3104);
            }
            result(200, state.callback_result)
        }
        _ => result(404, 4001),
    }
}
