//! A fake Auto.ru dealer API (axum on 127.0.0.1:0), written from Auto.ru's
//! reference pages (yandex.ru/dev/autoru/doc/ru/…), not from our client:
//! `x-authorization` on every call (concepts/access), `POST /auth/login`
//! `{login, password}` answering `session.id` (reference/auth-login), the
//! session in `x-session-id` on the cabinet's calls, 401 `AUTH_ERROR` /
//! `NO_AUTH` and 404 `OFFER_NOT_FOUND` with `status: ERROR`
//! (concepts/response-codes), 429 past a request rate
//! (concepts/restrictions), `GET /dealer/account` (reference/dealer-account),
//! `GET /feeds/history` and `GET /feeds/history/{task_id}?page&page_size`
//! with at most 100 a page (reference/feeds-history, feeds-history-taskId),
//! `GET /user/offers/{category}/{offerID}/stats?from&to`
//! (reference/user-offers-category-offer-id-stats) and `POST /calltracking`
//! (reference/calltracking). Tests load its stock and its faults, start it,
//! point `autoru.api_url` at `url` and read what it saw.
#![allow(dead_code)] // each test file uses the part it needs

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub at: Instant,
    pub method: String,
    pub path: String,
    pub query: HashMap<String, String>,
    pub session: Option<String>,
    pub dealer: Option<String>,
    pub status: u16,
}

/// A feed task of `GET /feeds/history` and its offers.
#[derive(Debug, Clone)]
pub struct FeedTask {
    pub id: String,
    /// `NEW` or `USED`.
    pub section: String,
    pub created_at: String,
    /// `None`: still running.
    pub finished_at: Option<String>,
    /// `offers[]` items as the task's detail lists them.
    pub offers: Vec<Value>,
}

/// What the fake holds and how it misbehaves.
#[derive(Debug)]
pub struct FakeState {
    pub token: String,
    pub login: String,
    pub password: String,
    pub sessions: HashSet<String>,
    pub logins: u32,
    /// After this many calls carrying a live session, every session expires
    /// (once).
    pub expire_sessions_after: Option<u32>,
    pub session_calls: u32,
    /// The next requests answered 429 with `Retry-After: 1`.
    pub fail_429: u32,
    /// The next requests answered 503 (`u32::MAX`: for ever).
    pub fail_5xx: u32,
    /// A request rate: more than `.1` requests within `.0` answer 429.
    pub window: Option<(Duration, usize)>,
    /// `GET /dealer/account` answers something that is not JSON.
    pub garbage_account: bool,
    pub tasks: Vec<FeedTask>,
    /// Per offer id, its counters (`{date, views, phone_views, phone_calls}`).
    pub stats: HashMap<String, Vec<Value>>,
    /// `calls[]` items of `POST /calltracking`.
    pub calls: Vec<Value>,
    pub seen: Vec<Seen>,
}

impl Default for FakeState {
    fn default() -> Self {
        Self {
            token: "autoru-token-1".into(),
            login: "dealer@salon.example".into(),
            password: "cabinet-password".into(),
            sessions: HashSet::new(),
            logins: 0,
            expire_sessions_after: None,
            session_calls: 0,
            fail_429: 0,
            fail_5xx: 0,
            window: None,
            garbage_account: false,
            tasks: Vec::new(),
            stats: HashMap::new(),
            calls: Vec::new(),
            seen: Vec::new(),
        }
    }
}

pub type Shared = Arc<Mutex<FakeState>>;

/// A running fake: its base address (with the version, as `api_url`).
pub struct FakeAutoru {
    pub url: String,
    pub state: Shared,
}

impl FakeAutoru {
    pub async fn start(state: FakeState) -> FakeAutoru {
        let state = Arc::new(Mutex::new(state));
        let api = Router::new()
            .route("/auth/login", post(login))
            .route("/dealer/account", get(account))
            .route("/feeds/history", get(history))
            .route("/feeds/history/{task_id}", get(task))
            .route("/user/offers/{category}/{offer_id}/stats", get(stats))
            .route("/calltracking", post(calltracking))
            .with_state(state.clone());
        let router = Router::new().nest("/1.0", api);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        FakeAutoru {
            url: format!("http://127.0.0.1:{port}/1.0"),
            state,
        }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }

    pub fn logins(&self) -> u32 {
        self.state.lock().unwrap().logins
    }

    /// The most requests seen within any `window`.
    pub fn busiest(&self, window: Duration) -> usize {
        let seen = self.seen();
        (0..seen.len())
            .map(|i| {
                seen[i..]
                    .iter()
                    .take_while(|s| s.at.duration_since(seen[i].at) < window)
                    .count()
            })
            .max()
            .unwrap_or(0)
    }
}

fn error(status: StatusCode, code: &str, words: &str) -> Response {
    let body = json!({"status": "ERROR", "error": code, "detailed_error": words});
    (status, Json(body)).into_response()
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// What every call goes through: recorded, faults, the token, the session.
#[allow(clippy::result_large_err)] // the refusal is the answer, sent at once
fn gate(
    state: &mut FakeState,
    method: &str,
    path: String,
    query: HashMap<String, String>,
    headers: &HeaderMap,
    needs_session: bool,
) -> Result<(), Response> {
    let now = Instant::now();
    let session = header(headers, "x-session-id");
    let mut seen = Seen {
        at: now,
        method: method.into(),
        path,
        query,
        session: session.clone(),
        dealer: header(headers, "x-dealer-id"),
        status: 200,
    };
    let refusal = (|| {
        if let Some((window, most)) = state.window {
            let recent = state
                .seen
                .iter()
                .filter(|s| now.duration_since(s.at) < window)
                .count();
            if recent >= most {
                return Some(too_many());
            }
        }
        if state.fail_429 > 0 {
            state.fail_429 -= 1;
            return Some(too_many());
        }
        if state.fail_5xx > 0 {
            if state.fail_5xx != u32::MAX {
                state.fail_5xx -= 1;
            }
            return Some(error(
                StatusCode::SERVICE_UNAVAILABLE,
                "INTERNAL SERVER ERROR",
                "Внутренняя ошибка сервера",
            ));
        }
        if header(headers, "x-authorization").as_deref() != Some(state.token.as_str()) {
            return Some(error(
                StatusCode::UNAUTHORIZED,
                "NO_AUTH",
                "Не удалось авторизовать пользователя по переданным данным",
            ));
        }
        if needs_session {
            let live = session.as_ref().is_some_and(|s| state.sessions.contains(s));
            if !live {
                return Some(error(
                    StatusCode::UNAUTHORIZED,
                    "NO_AUTH",
                    "Сессия не найдена или истекла",
                ));
            }
            state.session_calls += 1;
            if state.expire_sessions_after == Some(state.session_calls) {
                state.expire_sessions_after = None;
                state.sessions.clear();
            }
        }
        None
    })();
    if let Some(refusal) = &refusal {
        seen.status = refusal.status().as_u16();
    }
    state.seen.push(seen);
    refusal.map_or(Ok(()), Err)
}

/// A handler's own refusal, recorded as the answer to the last request.
fn refused(state: &mut FakeState, answer: Response) -> Response {
    if let Some(last) = state.seen.last_mut() {
        last.status = answer.status().as_u16();
    }
    answer
}

fn too_many() -> Response {
    let mut answer = error(
        StatusCode::TOO_MANY_REQUESTS,
        "TOO MANY REQUESTS",
        "Превышено ограничение по использованию ресурсов",
    );
    answer
        .headers_mut()
        .insert("retry-after", HeaderValue::from_static("1"));
    answer
}

async fn login(State(fake): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let mut state = fake.lock().unwrap();
    if let Err(refusal) = gate(
        &mut state,
        "POST",
        "/auth/login".into(),
        HashMap::new(),
        &headers,
        false,
    ) {
        return refusal;
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if body["login"] != state.login.as_str() || body["password"] != state.password.as_str() {
        let answer = error(
            StatusCode::UNAUTHORIZED,
            "AUTH_ERROR",
            "Неверный логин или пароль",
        );
        return refused(&mut state, answer);
    }
    state.logins += 1;
    let id = format!("11112233|{}.7776000.session-{}", state.logins, state.logins);
    state.sessions.insert(id.clone());
    Json(json!({
        "session": {
            "id": id,
            "user_id": "11112233",
            "creation_timestamp": "2024-05-28T14:33:39.697Z",
            "expire_timestamp": "2024-08-26T14:33:39.697Z",
            "ttl_sec": 7776000
        },
        "user": {"id": "11112233"}
    }))
    .into_response()
}

async fn account(State(fake): State<Shared>, headers: HeaderMap) -> Response {
    let mut state = fake.lock().unwrap();
    let path = "/dealer/account".to_string();
    if let Err(refusal) = gate(&mut state, "GET", path, HashMap::new(), &headers, true) {
        return refusal;
    }
    if state.garbage_account {
        return (StatusCode::OK, "<html>maintenance</html>").into_response();
    }
    Json(json!({
        "account_id": 20101,
        "balance": 15000,
        "dealer_status": "ACTIVE",
        "average_outcome": 900,
        "rest_days": 16
    }))
    .into_response()
}

async fn history(State(fake): State<Shared>, headers: HeaderMap) -> Response {
    let mut state = fake.lock().unwrap();
    let path = "/feeds/history".to_string();
    if let Err(refusal) = gate(&mut state, "GET", path, HashMap::new(), &headers, true) {
        return refusal;
    }
    let feeds: Vec<Value> = state
        .tasks
        .iter()
        .map(|t| {
            json!({
                "category": {"section": t.section, "category": "CARS"},
                "settings": {"source": "https://salon.example/feeds/autoru.xml",
                             "delete_sale": true, "leave_services": true,
                             "leave_added_images": false, "is_active": true},
                "task": {
                    "id": t.id,
                    "created_at": t.created_at,
                    "finished_at": t.finished_at,
                    "type": "URL",
                    "status": if t.finished_at.is_some() { "FINISHED" } else { "IN_PROGRESS" },
                    "count_offers": t.offers.len(),
                    "count_errors": t.offers.iter()
                        .filter(|o| o["errors"].as_array().is_some_and(|e| !e.is_empty()))
                        .count(),
                }
            })
        })
        .collect();
    Json(json!({"feeds": feeds})).into_response()
}

async fn task(
    State(fake): State<Shared>,
    Path(task_id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let mut state = fake.lock().unwrap();
    let path = format!("/feeds/history/{task_id}");
    if let Err(refusal) = gate(&mut state, "GET", path, query.clone(), &headers, true) {
        return refusal;
    }
    let page: usize = query.get("page").and_then(|p| p.parse().ok()).unwrap_or(1);
    let size: usize = query
        .get("page_size")
        .and_then(|p| p.parse().ok())
        .unwrap_or(10);
    if !(1..=1000).contains(&page) || size == 0 || size > 100 {
        let answer = error(
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "page от 1 до 1000, page_size не больше 100",
        );
        return refused(&mut state, answer);
    }
    let Some(task) = state.tasks.iter().find(|t| t.id == task_id) else {
        let answer = error(StatusCode::NOT_FOUND, "NOT_FOUND", "Задача не найдена");
        return refused(&mut state, answer);
    };
    let offers: Vec<Value> = task
        .offers
        .iter()
        .skip((page - 1) * size)
        .take(size)
        .cloned()
        .collect();
    Json(json!({
        "category": {"section": task.section, "category": "CARS"},
        "task": {"id": task.id, "created_at": task.created_at, "finished_at": task.finished_at},
        "offers": offers,
    }))
    .into_response()
}

async fn stats(
    State(fake): State<Shared>,
    Path((category, offer_id)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let mut state = fake.lock().unwrap();
    let path = format!("/user/offers/{category}/{offer_id}/stats");
    if let Err(refusal) = gate(&mut state, "GET", path, query.clone(), &headers, true) {
        return refusal;
    }
    let (Some(from), Some(to)) = (query.get("from"), query.get("to")) else {
        let answer = error(StatusCode::BAD_REQUEST, "BAD_REQUEST", "нужны from и to");
        return refused(&mut state, answer);
    };
    let known = category == "cars" && state.stats.contains_key(&offer_id);
    if !known {
        let answer = error(
            StatusCode::NOT_FOUND,
            "OFFER_NOT_FOUND",
            "Объявление не найдено",
        );
        return refused(&mut state, answer);
    }
    let counters: Vec<Value> = state.stats[&offer_id]
        .iter()
        .filter(|c| {
            let date = c["date"].as_str().unwrap_or_default();
            date >= from.as_str() && date <= to.as_str()
        })
        .cloned()
        .collect();
    Json(json!({"items": [{"offer_id": offer_id, "counters": counters}]})).into_response()
}

async fn calltracking(State(fake): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let mut state = fake.lock().unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut query = HashMap::new();
    query.insert("body".to_string(), body.to_string());
    if let Err(refusal) = gate(
        &mut state,
        "POST",
        "/calltracking".into(),
        query,
        &headers,
        true,
    ) {
        return refusal;
    }
    let page = body["pagination"]["page"].as_u64().unwrap_or(1).max(1) as usize;
    let size = body["pagination"]["page_size"]
        .as_u64()
        .unwrap_or(10)
        .clamp(1, 100) as usize;
    let period = &body["filter"]["period"];
    let (Some(from), Some(to)) = (period["from"].as_str(), period["to"].as_str()) else {
        let answer = error(
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "нужен filter.period",
        );
        return refused(&mut state, answer);
    };
    let instant = |t: &str| chrono::DateTime::parse_from_rfc3339(t).ok();
    let (Some(from), Some(to)) = (instant(from), instant(to)) else {
        let answer = error(
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "period: не дата и время",
        );
        return refused(&mut state, answer);
    };
    let within: Vec<Value> = state
        .calls
        .iter()
        .filter(|c| {
            let at = c["timestamp"].as_str().and_then(instant);
            at.is_some_and(|at| at >= from && at <= to)
        })
        .cloned()
        .collect();
    let total = within.len();
    let calls: Vec<Value> = within
        .into_iter()
        .skip((page - 1) * size)
        .take(size)
        .collect();
    Json(json!({
        "calls": calls,
        "pagination": {"page": page, "page_size": size, "total_count": total,
                       "total_page_count": total.div_ceil(size)},
    }))
    .into_response()
}
