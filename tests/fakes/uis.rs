//! A fake of UIS's two JSON-RPC 2.0 APIs on 127.0.0.1, written from UIS's
//! documentation (uiscom.ru «Документация API»: Data API `get.account`,
//! `get.calls_report`; Call API `start.simple_call` and its errors;
//! comagic call-api.md), not from our client. The Data API answers at
//! `/data/v2.0`, the Call API at `/call/v4.0`. Every request is a POST of
//! `{"jsonrpc": "2.0", "id", "method", "params"}`; the key is
//! `params.access_token`; an error is `{"error": {"code", "message",
//! "data": {"mnemonic", "field", "value"}}}` with HTTP 200. The report
//! takes `date_from`/`date_till` as "YYYY-MM-DD hh:mm:ss", `fields`,
//! `limit` (at most `State::page_max` rows served) and `offset`, and
//! answers `result.data` with `result.metadata.total_items` and
//! `metadata.limits`. `start.simple_call` wants `first_call`
//! (operator/contact), `virtual_phone_number` of the account, `contact`
//! and `operator` in E.164 without '+', refuses unknown parameters, and
//! answers `result.data.call_session_id`. Faults (HTTP status, 429, a
//! JSON-RPC error) are played from a queue.
//! Included with `#[path = "fakes/uis.rs"] mod uis_fake;`.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State as Shared;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDateTime;
use serde_json::{Map, Value, json};

/// What the fake answers next, before reading the request.
#[derive(Debug, Clone)]
pub enum Fault {
    Status(u16),
    TooMany {
        retry_after: u64,
    },
    /// A JSON-RPC error (code, mnemonic, message) with HTTP 200.
    Rpc(i64, String, String),
}

/// A callback the Call API took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rung {
    pub operator: String,
    pub contact: String,
    pub virtual_number: String,
    pub first_call: String,
}

pub struct State {
    pub token: String,
    pub app_id: u64,
    pub account_name: String,
    /// The account's virtual numbers (E.164 digits).
    pub virtual_numbers: Vec<String>,
    /// The calls report's rows, as the report writes them
    /// (`start_time` "YYYY-MM-DD hh:mm:ss").
    pub calls: Vec<Value>,
    /// The most rows one page serves.
    pub page_max: usize,
    pub faults: VecDeque<Fault>,
    /// Every request's method and params, in order.
    pub seen: Vec<(String, Value)>,
    pub rung: Vec<Rung>,
    pub next_session: u64,
}

impl Default for State {
    fn default() -> Self {
        State {
            token: "uis-key-1".into(),
            app_id: 39_141,
            account_name: "Автосалон «Север»".into(),
            virtual_numbers: vec!["74993720692".into()],
            calls: Vec::new(),
            page_max: 1000,
            faults: VecDeque::new(),
            seen: Vec::new(),
            rung: Vec::new(),
            next_session: 237_859_081,
        }
    }
}

pub struct FakeUis {
    pub url: String,
    pub state: Arc<Mutex<State>>,
}

impl FakeUis {
    pub async fn start(state: State) -> FakeUis {
        let state = Arc::new(Mutex::new(state));
        let router = axum::Router::new()
            .fallback(handle)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        FakeUis {
            url: format!("http://127.0.0.1:{port}"),
            state,
        }
    }

    pub fn data_url(&self) -> String {
        format!("{}/data/v2.0", self.url)
    }

    pub fn call_url(&self) -> String {
        format!("{}/call/v4.0", self.url)
    }

    pub fn with<T>(&self, read: impl FnOnce(&mut State) -> T) -> T {
        read(&mut self.state.lock().unwrap())
    }

    /// How many requests of `method` it took.
    pub fn count(&self, method: &str) -> usize {
        self.with(|s| s.seen.iter().filter(|(m, _)| m == method).count())
    }
}

/// A report row of an incoming call.
pub fn report_row(id: u64, start: &str, contact: &str, lost: bool, talk: u64) -> Value {
    json!({
        "id": id,
        "start_time": start,
        "finish_time": start,
        "direction": "in",
        "is_lost": lost,
        "contact_phone_number": contact,
        "virtual_phone_number": "74993720692",
        "total_duration": talk + 7,
        "wait_duration": 7,
        "talk_duration": talk,
        "call_records": if lost { json!([]) } else { json!(["2e675888ded89ed517d5c60e63a2d8c3"]) },
        "communication_id": id + 1_000_000,
        "communication_page_url": null,
        "campaign_name": "Яндекс Директ",
        "source": "va",
        "utm_source": "yandex",
        "utm_medium": "cpc",
        "utm_campaign": "jolion",
        "utm_term": null,
        "utm_content": null,
        "ua_client_id": null,
        "ym_client_id": "1700000000123456789"
    })
}

fn ok(id: &Value, result: Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
    )
        .into_response()
}

fn rpc_error(
    id: &Value,
    code: i64,
    mnemonic: &str,
    message: &str,
    field: Option<&str>,
) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": code, "message": message,
            "data": {"mnemonic": mnemonic, "field": field, "value": null,
                     "params": {}, "extended_helper": null}
        }})
        .to_string(),
    )
        .into_response()
}

fn limits() -> Value {
    json!({"day_limit": 10000, "day_remaining": 9990, "day_reset": 40000,
           "minute_limit": 100, "minute_remaining": 99, "minute_reset": 30})
}

async fn handle(Shared(state): Shared<Arc<Mutex<State>>>, uri: Uri, body: Bytes) -> Response {
    let mut s = state.lock().unwrap();
    let api = match uri.path() {
        "/data/v2.0" => "data",
        "/call/v4.0" => "call",
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    let Ok(Value::Object(request)) = serde_json::from_slice::<Value>(&body) else {
        return rpc_error(
            &Value::Null,
            -32700,
            "parse_error",
            "Invalid JSON was received by the server.",
            None,
        );
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let method = request
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let params = request.get("params").cloned().unwrap_or(json!({}));
    s.seen.push((method.clone(), params.clone()));
    if let Some(fault) = s.faults.pop_front() {
        return match fault {
            Fault::Status(code) => StatusCode::from_u16(code).unwrap().into_response(),
            Fault::TooMany { retry_after } => (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, retry_after.to_string())],
            )
                .into_response(),
            Fault::Rpc(code, mnemonic, message) => rpc_error(&id, code, &mnemonic, &message, None),
        };
    }
    if request.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || id.is_null() {
        return rpc_error(
            &id,
            -32600,
            "invalid_request",
            "Invalid Request The JSON sent is not a valid Request object",
            None,
        );
    }
    let Some(params) = params.as_object() else {
        return rpc_error(
            &id,
            -32602,
            "data_type_error",
            "Data supplied is of wrong type",
            Some("params"),
        );
    };
    match params.get("access_token").and_then(Value::as_str) {
        None => {
            return rpc_error(
                &id,
                -32602,
                "required_parameter_missed",
                "The required parameter has been missed",
                Some("access_token"),
            );
        }
        Some(token) if token != s.token => {
            return rpc_error(
                &id,
                -32001,
                "access_token_invalid",
                "Access token is invalid",
                None,
            );
        }
        Some(_) => {}
    }
    match (api, method.as_str()) {
        ("data", "get.account") => ok(
            &id,
            json!({"data": [{"app_id": s.app_id, "name": s.account_name, "timezone": "Europe/Moscow"}],
                   "metadata": {"limits": limits()}}),
        ),
        ("data", "get.calls_report") => calls_report(&s, &id, params),
        ("call", "start.simple_call") => simple_call(&mut s, &id, params),
        _ => rpc_error(
            &id,
            -32601,
            "method_not_found",
            "The method does not exist / is not available",
            None,
        ),
    }
}

fn moment(params: &Map<String, Value>, key: &str) -> Option<NaiveDateTime> {
    let text = params.get(key)?.as_str()?;
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S").ok()
}

fn calls_report(s: &State, id: &Value, params: &Map<String, Value>) -> Response {
    let (Some(from), Some(till)) = (moment(params, "date_from"), moment(params, "date_till"))
    else {
        return rpc_error(
            id,
            -32602,
            "invalid_parameter_value",
            "Invalid parameter value",
            Some("date_from"),
        );
    };
    let limit = params.get("limit").and_then(Value::as_u64).unwrap_or(1000) as usize;
    let offset = params.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize;
    let fields: Option<Vec<String>> = params.get("fields").and_then(Value::as_array).map(|f| {
        f.iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect()
    });
    let mut rows: Vec<&Value> = s
        .calls
        .iter()
        .filter(|row| {
            let start = row["start_time"]
                .as_str()
                .and_then(|t| NaiveDateTime::parse_from_str(t, "%Y-%m-%d %H:%M:%S").ok());
            start.is_some_and(|start| start >= from && start <= till)
        })
        .collect();
    rows.sort_by_key(|row| row["start_time"].as_str().unwrap_or("").to_string());
    let total = rows.len();
    let page: Vec<Value> = rows
        .into_iter()
        .skip(offset)
        .take(limit.min(s.page_max))
        .map(|row| match &fields {
            None => row.clone(),
            Some(fields) => Value::Object(
                fields
                    .iter()
                    .map(|f| (f.clone(), row.get(f).cloned().unwrap_or(Value::Null)))
                    .collect(),
            ),
        })
        .collect();
    ok(
        id,
        json!({"data": page, "metadata": {"total_items": total, "limits": limits()}}),
    )
}

fn simple_call(s: &mut State, id: &Value, params: &Map<String, Value>) -> Response {
    const KNOWN: [&str; 14] = [
        "access_token",
        "first_call",
        "switch_at_once",
        "early_switching",
        "media_file_id",
        "virtual_phone_number",
        "show_virtual_phone_number",
        "contact",
        "external_id",
        "dtmf_string",
        "direction",
        "operator",
        "contact_message",
        "operator_message",
    ];
    if let Some(stranger) = params.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return rpc_error(
            id,
            -32602,
            "unexpected_parameters",
            "Unexpected method parameter(s)",
            Some(stranger),
        );
    }
    for required in ["first_call", "virtual_phone_number", "contact", "operator"] {
        if !params.contains_key(required) {
            return rpc_error(
                id,
                -32602,
                "required_parameter_missed",
                "The required parameter has been missed",
                Some(required),
            );
        }
    }
    let first_call = params["first_call"].as_str().unwrap_or("");
    if first_call != "operator" && first_call != "contact" {
        return rpc_error(
            id,
            -32602,
            "invalid_parameter_value",
            "Invalid parameter value",
            Some("first_call"),
        );
    }
    let e164 = |v: &Value| {
        v.as_str()
            .filter(|t| (11..=15).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()))
            .map(String::from)
    };
    let Some(virtual_number) = e164(&params["virtual_phone_number"]) else {
        return rpc_error(
            id,
            -32602,
            "invalid_parameter_value",
            "Invalid parameter value",
            Some("virtual_phone_number"),
        );
    };
    if !s.virtual_numbers.contains(&virtual_number) {
        return rpc_error(
            id,
            -32007,
            "virtual_phone_number_not_found",
            &format!(
                "Virtual phone number {virtual_number} not found. It is not your virtual phone number."
            ),
            None,
        );
    }
    let Some(contact) = e164(&params["contact"]) else {
        return rpc_error(
            id,
            -32602,
            "invalid_parameter_value",
            "Invalid parameter value",
            Some("contact"),
        );
    };
    let operator = match &params["operator"] {
        Value::Object(o) => o.get("phone_number").and_then(&e164),
        other => e164(other),
    };
    let Some(operator) = operator else {
        return rpc_error(
            id,
            -32602,
            "invalid_parameter_value",
            "Invalid parameter value",
            Some("operator"),
        );
    };
    if s.virtual_numbers.contains(&contact) {
        return rpc_error(
            id,
            -32602,
            "own_virtual_phone_number_not_allowed",
            "Parameter `contact` can not contain own virtual phone number",
            None,
        );
    }
    s.rung.push(Rung {
        operator,
        contact,
        virtual_number,
        first_call: first_call.into(),
    });
    s.next_session += 1;
    ok(id, json!({"data": {"call_session_id": s.next_session}}))
}
