//! A fake Avito API for business on 127.0.0.1, written from Avito's
//! documentation (developers.avito.ru/api-catalog: auth, autoload v4,
//! item stats, calltracking), not from our client: the token endpoint takes
//! a form and answers `{access_token, expires_in, token_type}`; every other
//! call wants `Authorization: Bearer`; the autoload report serves 20 ads a
//! page with `meta {page, pages, perPage, total}`; stats refuse more than
//! 200 ids or a start more than 270 days back; calls come in pages of at
//! most 1000 with the API's own `error` object. Faults (429 with
//! Retry-After, 5xx) and a token revoked mid-run are set on its state.
//! Included by a test with `#[path = "fakes/avito.rs"] mod avito_fake;`.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State as Shared;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Days, FixedOffset, NaiveDate, Utc};
use serde_json::{Value, json};

/// Ads a page of the autoload report, whatever `perPage` asks.
pub const PAGE: usize = 20;

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
    pub query: HashMap<String, String>,
    /// A JSON body, or a form's pairs as an object.
    pub body: Value,
    pub bearer: Option<String>,
}

/// The account, its data and the faults to play; tests set and read it.
pub struct State {
    pub client_id: String,
    pub client_secret: String,
    pub user_id: u64,
    pub account_name: String,
    pub expires_in: u64,
    pub tokens_issued: u32,
    valid: HashSet<String>,
    /// At this API call (1-based, the token endpoint not counted) every
    /// token issued so far stops being valid: a token ending mid-run.
    pub revoke_at_call: Option<u32>,
    pub api_calls: u32,
    pub faults: VecDeque<Fault>,
    /// Answer every request with this status (an API that is down).
    pub always: Option<u16>,
    /// `GET /autoload/v4/uploads`, newest first.
    pub uploads: Vec<Value>,
    /// The ads of the last successful upload, as the report writes them.
    pub items: Vec<Value>,
    /// Our `Id` → Avito's id (`/autoload/v2/items/avito_ids`).
    pub avito_ids: HashMap<String, u64>,
    /// Avito's id → its days (`{date, uniqViews, uniqContacts, uniqFavorites}`).
    pub stats: BTreeMap<u64, Vec<Value>>,
    /// An ad the stats answer about though nobody asked (an unknown id).
    pub stranger: Option<u64>,
    /// Calls (`{callId, itemId, buyerPhone, …, callTime, …}`).
    pub calls: Vec<Value>,
    /// `getCalls` answers 200 with this in its `error` object (code, message).
    pub calls_error: Option<(i64, String)>,
    pub seen: Vec<Seen>,
}

impl Default for State {
    fn default() -> Self {
        State {
            client_id: "client-1".into(),
            client_secret: "secret-1".into(),
            user_id: 12345,
            account_name: "Автосалон на Садовой".into(),
            expires_in: 86_400,
            tokens_issued: 0,
            valid: HashSet::new(),
            revoke_at_call: None,
            api_calls: 0,
            faults: VecDeque::new(),
            always: None,
            uploads: Vec::new(),
            items: Vec::new(),
            avito_ids: HashMap::new(),
            stats: BTreeMap::new(),
            stranger: None,
            calls: Vec::new(),
            calls_error: None,
            seen: Vec::new(),
        }
    }
}

impl State {
    /// The requests seen on `path`.
    pub fn on(&self, path: &str) -> Vec<Seen> {
        self.seen
            .iter()
            .filter(|s| s.path == path)
            .cloned()
            .collect()
    }
}

/// The fake, listening; `url` is its base (`avito.api_url`).
pub struct FakeAvito {
    pub url: String,
    pub state: Arc<Mutex<State>>,
}

impl FakeAvito {
    pub async fn start(state: State) -> FakeAvito {
        let state = Arc::new(Mutex::new(state));
        let router = axum::Router::new()
            .fallback(handle)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        FakeAvito {
            url: format!("http://127.0.0.1:{port}"),
            state,
        }
    }

    pub fn with<T>(&self, read: impl FnOnce(&mut State) -> T) -> T {
        read(&mut self.state.lock().unwrap())
    }
}

/// Today in Moscow, the calendar Avito's days are in.
pub fn moscow_today() -> NaiveDate {
    let moscow = FixedOffset::east_opt(3 * 3600).unwrap();
    Utc::now().with_timezone(&moscow).date_naive()
}

fn answer(status: u16, body: Value) -> Response {
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

/// Avito's error object, as its API sections write it.
fn refusal(status: u16, message: &str) -> Response {
    answer(
        status,
        json!({"error": {"code": status, "message": message}}),
    )
}

async fn handle(
    Shared(state): Shared<Arc<Mutex<State>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut state = state.lock().unwrap();
    let query: HashMap<String, String> =
        form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
            .into_owned()
            .collect();
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let parsed = if form {
        Value::Object(
            form_urlencoded::parse(&body)
                .into_owned()
                .map(|(k, v)| (k, Value::String(v)))
                .collect(),
        )
    } else {
        serde_json::from_slice(&body).unwrap_or(Value::Null)
    };
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(String::from);
    let path = uri.path().to_string();
    state.seen.push(Seen {
        method: method.to_string(),
        path: path.clone(),
        query: query.clone(),
        body: parsed.clone(),
        bearer: bearer.clone(),
    });
    if let Some(status) = state.always {
        return refusal(status, "Метод API временно недоступен");
    }
    match state.faults.pop_front() {
        Some(Fault::Status(status)) => return refusal(status, "Внутренняя ошибка метода API"),
        Some(Fault::TooMany { retry_after }) => {
            let mut refused = refusal(429, "Превышен лимит запросов");
            refused.headers_mut().insert(
                header::RETRY_AFTER,
                retry_after.to_string().parse().unwrap(),
            );
            return refused;
        }
        None => {}
    }
    if method == Method::POST && path == "/token" {
        return token(&mut state, form, &parsed);
    }
    state.api_calls += 1;
    if state.revoke_at_call == Some(state.api_calls) {
        state.valid.clear();
    }
    if !bearer.is_some_and(|token| state.valid.contains(&token)) {
        return refusal(401, "Unauthorized");
    }
    let stats_path = format!("/stats/v1/accounts/{}/items", state.user_id);
    match (method.as_str(), path.as_str()) {
        ("GET", "/core/v1/accounts/self") => answer(
            200,
            json!({
                "id": state.user_id,
                "name": state.account_name,
                "email": "salon@example.test",
                "phone": "+79990000000",
                "profile_url": "https://www.avito.ru/user/salon/profile"
            }),
        ),
        ("GET", "/autoload/v4/uploads") => uploads(&state),
        ("GET", "/autoload/v4/uploads/last_successful/items") => items(&state, &query),
        ("GET", "/autoload/v2/items/avito_ids") => avito_ids(&state, &query),
        ("POST", p) if p == stats_path => stats(&state, &parsed),
        ("POST", p) if p.starts_with("/stats/v1/accounts/") => {
            refusal(403, "Доступ к статистике другого аккаунта запрещён")
        }
        ("POST", "/calltracking/v1/getCalls/") => calls(&state, &parsed),
        _ => refusal(404, "Not found"),
    }
}

fn token(state: &mut State, form: bool, body: &Value) -> Response {
    if !form {
        return answer(400, json!({"error": "invalid_request"}));
    }
    if body["grant_type"] != "client_credentials" {
        return answer(400, json!({"error": "unsupported_grant_type"}));
    }
    if body["client_id"] != state.client_id.as_str()
        || body["client_secret"] != state.client_secret.as_str()
    {
        return answer(
            400,
            json!({"error": "invalid_client", "error_description": "Неверный client_id или client_secret"}),
        );
    }
    state.tokens_issued += 1;
    let token = format!("token-{}", state.tokens_issued);
    state.valid.insert(token.clone());
    answer(
        200,
        json!({"access_token": token, "expires_in": state.expires_in, "token_type": "Bearer"}),
    )
}

fn uploads(state: &State) -> Response {
    if state.uploads.is_empty() {
        return refusal(404, "Загрузка не найдена");
    }
    let total = state.uploads.len();
    answer(
        200,
        json!({"uploads": state.uploads, "meta": {"page": 1, "pages": 1, "perPage": total, "total": total}}),
    )
}

fn ids_of(query: &HashMap<String, String>) -> Option<Vec<String>> {
    let text = query.get("query")?;
    Some(
        text.split([',', '|'])
            .map(|id| id.trim().to_string())
            .filter(|id| !id.is_empty())
            .collect(),
    )
}

fn items(state: &State, query: &HashMap<String, String>) -> Response {
    let done = state
        .uploads
        .iter()
        .any(|u| matches!(u["status"].as_str(), Some("success" | "success_warning")));
    if !done {
        return refusal(404, "Загрузка не найдена");
    }
    let page: usize = match query.get("page").map(|p| p.parse()) {
        None => 1,
        Some(Ok(page)) if page >= 1 => page,
        _ => return refusal(400, "Невалидные параметры запроса: page"),
    };
    if let Some(Err(_)) = query.get("perPage").map(|p| p.parse::<usize>()) {
        return refusal(400, "Невалидные параметры запроса: perPage");
    }
    let wanted = ids_of(query);
    let sections: Option<Vec<&str>> = query.get("sections").map(|s| s.split(',').collect());
    let chosen: Vec<&Value> = state
        .items
        .iter()
        .filter(|item| {
            wanted
                .as_ref()
                .is_none_or(|ids| ids.iter().any(|id| item["ad_id"] == id.as_str()))
        })
        .filter(|item| {
            sections
                .as_ref()
                .is_none_or(|s| s.contains(&item["section"]["slug"].as_str().unwrap_or("")))
        })
        .collect();
    let total = chosen.len();
    let pages = total.div_ceil(PAGE).max(1);
    let shown: Vec<&Value> = chosen
        .into_iter()
        .skip((page - 1) * PAGE)
        .take(PAGE)
        .collect();
    answer(
        200,
        json!({"items": shown, "meta": {"page": page, "pages": pages, "perPage": PAGE, "total": total}}),
    )
}

fn avito_ids(state: &State, query: &HashMap<String, String>) -> Response {
    let Some(ids) = ids_of(query).filter(|ids| !ids.is_empty()) else {
        return refusal(400, "Не указан параметр query");
    };
    let items: Vec<Value> = ids
        .iter()
        .filter_map(|id| {
            state
                .avito_ids
                .get(id)
                .map(|avito| json!({"ad_id": id, "avito_id": avito}))
        })
        .collect();
    answer(200, json!({"items": items}))
}

fn stats(state: &State, body: &Value) -> Response {
    let Some(ids) = body["itemIds"].as_array() else {
        return refusal(400, "itemIds: обязательное поле");
    };
    if ids.is_empty() || ids.len() > 200 {
        return refusal(400, "itemIds: от 1 до 200 объявлений");
    }
    let date = |key: &str| {
        body[key]
            .as_str()
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
    };
    let (Some(from), Some(to)) = (date("dateFrom"), date("dateTo")) else {
        return refusal(400, "dateFrom, dateTo: формат YYYY-MM-DD");
    };
    let earliest = moscow_today().checked_sub_days(Days::new(270)).unwrap();
    if from < earliest || from > to {
        return refusal(400, "dateFrom: не далее 270 дней назад");
    }
    let mut items = Vec::new();
    let mut answer_ids: Vec<u64> = ids.iter().filter_map(Value::as_u64).collect();
    answer_ids.extend(state.stranger);
    for id in answer_ids {
        let Some(days) = state.stats.get(&id) else {
            continue;
        };
        let shown: Vec<&Value> = days
            .iter()
            .filter(|day| {
                day["date"]
                    .as_str()
                    .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
                    .is_some_and(|d| d >= from && d <= to)
            })
            .collect();
        items.push(json!({"itemId": id, "stats": shown}));
    }
    answer(200, json!({"result": {"items": items}}))
}

fn calls(state: &State, body: &Value) -> Response {
    let time = |key: &str| {
        body[key]
            .as_str()
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc))
    };
    if let Some((code, message)) = &state.calls_error {
        return answer(
            200,
            json!({"calls": [], "error": {"code": code, "message": message}}),
        );
    }
    let fail = |message: &str| {
        answer(
            400,
            json!({"calls": [], "error": {"code": 400, "message": message}}),
        )
    };
    let Some(from) = time("dateTimeFrom") else {
        return fail("dateTimeFrom: строка в формате RFC3339");
    };
    let to = time("dateTimeTo").unwrap_or(from + chrono::Months::new(1));
    if to > from + chrono::Months::new(3) {
        return fail("dateTimeTo: не позже dateTimeFrom + 3 месяца");
    }
    let (Some(limit), Some(offset)) = (body["limit"].as_u64(), body["offset"].as_u64()) else {
        return fail("limit, offset: обязательные поля");
    };
    if limit == 0 || limit > 1000 {
        return fail("limit: от 1 до 1000");
    }
    let mut chosen: Vec<&Value> = state
        .calls
        .iter()
        .filter(|call| {
            call["callTime"]
                .as_str()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .is_some_and(|t| t >= from && t <= to)
        })
        .collect();
    chosen.sort_by_key(|call| call["callTime"].as_str().unwrap_or("").to_string());
    let page: Vec<&Value> = chosen
        .into_iter()
        .skip(offset as usize)
        .take(limit as usize)
        .collect();
    answer(
        200,
        json!({"calls": page, "error": {"code": 0, "message": ""}}),
    )
}
