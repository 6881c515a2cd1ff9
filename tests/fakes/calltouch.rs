//! A fake Calltouch calls journal API on 127.0.0.1, written from Calltouch's
//! documentation («Выгрузка журнала звонков»,
//! https://www.calltouch.ru/support/api-metod-vygruzki-zhurnala-zvonkov/),
//! not from our client: `GET /calls-service/RestAPI/{siteId}/calls-diary/
//! calls` with the token `clientApiId` in the query, `dateFrom` and
//! `dateTo` as dd/mm/yyyy and the same day (one day a query); asked without
//! `page`, it answers the day's calls as a bare list; with `page` (from 1)
//! and `limit` (at most 1000), `{page, pageTotal, pageSize, recordsTotal,
//! records}`. A record carries the journal's names (`callId`,
//! `callerNumber`, `phoneNumber`, `date` as dd/mm/yyyy hh:mm:ss Moscow,
//! `duration`, `waitingConnect`, `successful`, `callUrl`, `utmSource`…).
//! A wrong token is 401; faults (429 with Retry-After, 5xx) are set on its
//! state. Included by a test with `#[path = "fakes/calltouch.rs"] mod
//! calltouch_fake;`.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::extract::{Path, RawQuery, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde_json::{Value, json};

/// The most calls a page holds, whatever `limit` asks beyond it: refused.
pub const LIMIT_MAX: usize = 1000;

/// What the fake answers next, before looking at the request.
#[derive(Debug, Clone)]
pub enum Fault {
    Status(u16),
    TooMany { retry_after: u64 },
}

/// One request the fake received: its path and query.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub query: HashMap<String, String>,
}

/// The account, its calls and the faults to play; tests set and read it.
pub struct State {
    pub site_id: String,
    pub token: String,
    /// The journal's records, each with its `date` (dd/mm/yyyy hh:mm:ss).
    pub calls: Vec<Value>,
    pub faults: VecDeque<Fault>,
    /// Answer every request with this status (an API that is down).
    pub always: Option<u16>,
    pub seen: Vec<Seen>,
}

impl Default for State {
    fn default() -> Self {
        State {
            site_id: "12345".into(),
            token: "ct-client-api-id-1".into(),
            calls: Vec::new(),
            faults: VecDeque::new(),
            always: None,
            seen: Vec::new(),
        }
    }
}

/// The fake, listening; `url` is its base (`calltouch.api_url`).
pub struct FakeCalltouch {
    pub url: String,
    pub state: Arc<Mutex<State>>,
}

impl FakeCalltouch {
    pub async fn start() -> FakeCalltouch {
        let state = Arc::new(Mutex::new(State::default()));
        let app = axum::Router::new()
            .route(
                "/calls-service/RestAPI/{site}/calls-diary/calls",
                axum::routing::get(calls),
            )
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        FakeCalltouch { url, state }
    }

    pub fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        f(&mut self.state.lock().unwrap())
    }
}

/// A record as the journal writes it: `at` is dd/mm/yyyy hh:mm:ss (Moscow).
pub fn record(
    id: u64,
    caller: &str,
    at: &str,
    duration: u32,
    wait: u32,
    successful: bool,
) -> Value {
    json!({
        "callId": id,
        "callerNumber": caller,
        "phoneNumber": "74951234567",
        "redirectNumber": "74950000001",
        "date": at,
        "duration": duration,
        "waitingConnect": wait,
        "successful": successful,
        "uniqueCall": true,
        "targetCall": successful,
        "uniqTargetCall": successful,
        "callbackCall": false,
        "callphase": "calldisconnected",
        "city": "Москва",
        "source": "yandex",
        "medium": "cpc",
        "keyword": "купить haval jolion",
        "url": "https://salon.example/?utm_source=yandex",
        "callUrl": "https://salon.example/cars",
        "ref": "https://yandex.ru/",
        "hostname": "salon.example",
        "utmSource": "yandex",
        "utmMedium": "cpc",
        "utmCampaign": "spring",
        "utmContent": "<не указано>",
        "utmTerm": "haval",
        "sessionId": 555000 + id,
        "ctCallerId": format!("ct-{id}"),
        "yaClientId": "1715000000123456789",
        "sipCallId": format!("sip-{id}"),
        "attribution": 1,
        "callTags": [],
        "attrs": null,
        "orders": [],
        "manager": null
    })
}

fn answer(status: u16, body: Value) -> Response {
    (
        StatusCode::from_u16(status).unwrap(),
        [(header::CONTENT_TYPE, "application/json;charset=UTF-8")],
        body.to_string(),
    )
        .into_response()
}

async fn calls(
    Shared(state): Shared<Arc<Mutex<State>>>,
    Path(site): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query: HashMap<String, String> =
        form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let mut st = state.lock().unwrap();
    st.seen.push(Seen {
        path: format!("/calls-service/RestAPI/{site}/calls-diary/calls"),
        query: query.clone(),
    });
    if let Some(fault) = st.faults.pop_front() {
        return match fault {
            Fault::Status(code) => answer(code, json!({"message": "fault"})),
            Fault::TooMany { retry_after } => (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, retry_after.to_string())],
                "Too Many Requests",
            )
                .into_response(),
        };
    }
    if let Some(code) = st.always {
        return answer(code, json!({"message": "Internal Server Error"}));
    }
    if query.get("clientApiId") != Some(&st.token) {
        return answer(
            401,
            json!({"status": 401, "message": "Unauthorized: wrong clientApiId"}),
        );
    }
    if site != st.site_id {
        return answer(
            403,
            json!({"status": 403, "message": "Access denied to site"}),
        );
    }
    let day = |key: &str| {
        query
            .get(key)
            .and_then(|d| NaiveDate::parse_from_str(d, "%d/%m/%Y").ok())
            .filter(|_| query[key].len() == 10)
    };
    let (Some(from), Some(to)) = (day("dateFrom"), day("dateTo")) else {
        return answer(
            400,
            json!({"message": "dateFrom and dateTo are dd/mm/yyyy"}),
        );
    };
    if from != to {
        return answer(400, json!({"message": "only one day a query"}));
    }
    let of_day: Vec<Value> = st
        .calls
        .iter()
        .filter(|c| {
            c["date"]
                .as_str()
                .and_then(|d| d.get(..10))
                .and_then(|d| NaiveDate::parse_from_str(d, "%d/%m/%Y").ok())
                == Some(from)
        })
        .cloned()
        .collect();
    if !query.contains_key("page") && !query.contains_key("limit") {
        return answer(200, Value::Array(of_day));
    }
    let page = query.get("page").and_then(|p| p.parse::<usize>().ok());
    let limit = query.get("limit").and_then(|l| l.parse::<usize>().ok());
    let (Some(page), Some(limit)) = (page, limit) else {
        return answer(400, json!({"message": "page and limit are numbers"}));
    };
    if page == 0 || limit == 0 || limit > LIMIT_MAX {
        return answer(400, json!({"message": "page from 1, limit from 1 to 1000"}));
    }
    let total = of_day.len();
    let records: Vec<Value> = of_day
        .into_iter()
        .skip((page - 1) * limit)
        .take(limit)
        .collect();
    answer(
        200,
        json!({
            "page": page,
            "pageTotal": total.div_ceil(limit),
            "pageSize": limit,
            "recordsTotal": total,
            "records": records,
        }),
    )
}
