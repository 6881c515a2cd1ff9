//! Calltouch's calls as leads (issue 45; `docs/calls.md`, "Calltouch"), on
//! the real router and a real SQLite file: its webhook in each documented
//! form (GET query, POST form; the webhook's own parameter names and the
//! journal's) taken at `/hooks/calls/calltouch/{secret}` once each, a missed
//! call made an assigned «Пропущенный звонок» with its call-back deadline,
//! requests and pings answered with nothing recorded, bad and hostile
//! parameters refused with the parameter's name and nothing stored, the
//! secret and the sender network checked; and the calls journal client
//! against a fake written from Calltouch's documentation (pages, 401, 429,
//! 5xx), its poll catching a call the webhook missed and making nothing
//! twice.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

#[path = "fakes/calltouch.rs"]
mod calltouch_fake;
mod common;

use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use calltouch_fake::{FakeCalltouch, Fault, record};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use common::{Answer, TestApp, seed_catalogue};
use dealership::calltracking::Provider;
use dealership::calltracking::calltouch::Calltouch;
use dealership::calltracking::clients::CallProviders;
use dealership::calltracking::jobs::{self, CallSync};
use dealership::config::{CalltouchConfig, Config};
use dealership::domain::roles::Role;
use dealership::marketplaces::{MarketError, Patience};
use serde_json::{Value, json};

const SECRET: &str = "s3cr3t-calltouch-hook-0123456789";
const HOOK: &str = "/hooks/calls/calltouch/s3cr3t-calltouch-hook-0123456789";
/// An address of Calltouch's sender network (92.118.66.0/23).
const CALLTOUCH_PEER: &str = "92.118.67.20:40000";

/// Secret files of mode 600, kept while the test runs.
struct Secrets {
    dir: tempfile::TempDir,
}

impl Secrets {
    fn new() -> Secrets {
        Secrets {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn write(&self, name: &str, text: &str) -> std::path::PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, format!("{text}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        path
    }

    /// `[calltouch]` with its webhook and, when `fake` is given, its journal.
    fn config(&self, fake: Option<&FakeCalltouch>) -> CalltouchConfig {
        let mut config = CalltouchConfig {
            hook_secret_file: self.write("calltouch-hook", SECRET),
            ..CalltouchConfig::default()
        };
        if let Some(fake) = fake {
            let (site, token) = fake.with(|s| (s.site_id.clone(), s.token.clone()));
            config.api_url = format!("{}/", fake.url);
            config.site_id = site;
            config.token_file = self.write("calltouch-token", &token);
        }
        config
    }
}

/// An app whose `[calltouch]` is `calltouch`, with the tests' brief
/// clients; its catalogue seeded, an owner, and the runs' context.
fn app_with(calltouch: CalltouchConfig) -> (TestApp, CallSync) {
    let mut sync = None;
    let app = TestApp::with_state(|state| {
        let mut config: Config = (*state.config).clone();
        config.calltouch = calltouch;
        state.call_providers = Arc::new(CallProviders::brief(&config));
        state.config = Arc::new(config);
        sync = Some(state.call_sync());
    });
    seed_catalogue(&app);
    app.create_admin();
    (app, sync.unwrap())
}

/// A manager at work around the clock, given new leads by turns.
async fn staff(app: &TestApp) -> String {
    app.create_user("anna", Role::Manager);
    let cookie = app.login().await;
    let users = app
        .admin_with(&cookie, Method::GET, "/api/admin/users", None)
        .await
        .json();
    let anna = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["username"] == "anna")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let day = json!({"open": "00:00", "close": "23:59"});
    let answer = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/admin/users/{anna}"),
            Some(json!({"workSchedule": {"days": vec![day; 7]}})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let answer = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"leadAssignment": "round_robin"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    anna
}

/// A webhook as Calltouch sends it: GET with `query`, or POST with `form`
/// (URL-encoded), from `peer`.
async fn hook(app: &TestApp, path: &str, query: &str, form: Option<&str>, peer: &str) -> Answer {
    let uri = if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{query}")
    };
    let mut request = match form {
        None => Request::get(uri).body(Body::empty()).unwrap(),
        Some(form) => Request::post(uri)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(form.to_string()))
            .unwrap(),
    };
    let peer: SocketAddr = peer.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    app.send(request).await
}

fn encode(pairs: &[(&str, String)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// Now in unix seconds, minus `minutes`.
fn unix_ago(minutes: i64) -> String {
    (Utc::now() - Duration::minutes(minutes))
        .timestamp()
        .to_string()
}

/// Now in Moscow as Calltouch writes it, minus `minutes`, kept within the
/// Moscow day: in its first hour the minutes are taken as seconds (and in
/// its first minute as nothing), so a run just after Moscow midnight (21:00
/// UTC) does not put today's calls on yesterday, where a day's journal
/// cannot see them.
fn moscow_ago(minutes: i64) -> String {
    let now = Utc::now().with_timezone(&dealership::clock::moscow());
    let today = now.date_naive();
    let at = [Duration::minutes(minutes), Duration::seconds(minutes)]
        .into_iter()
        .map(|ago| now - ago)
        .find(|at| at.date_naive() == today)
        .unwrap_or(now);
    at.format("%d/%m/%Y %H:%M:%S").to_string()
}

fn today() -> NaiveDate {
    dealership::clock::Clock::default().moscow_today()
}

/// A missed call as the webhook's parameters name it.
fn missed(call_id: &str, caller: &str) -> Vec<(&'static str, String)> {
    vec![
        ("callid", call_id.into()),
        ("callerphone", caller.into()),
        ("phonenumber", "74951234567".into()),
        ("calltime", unix_ago(5)),
        ("duration", "23".into()),
        ("waitingconnect", "23".into()),
        ("successful", "false".into()),
        ("source", "yandex".into()),
        ("medium", "cpc".into()),
        ("utm_source", "yandex".into()),
        ("utm_medium", "cpc".into()),
        ("utm_campaign", "spring".into()),
        ("yaClientId", "1715000000123456789".into()),
        ("siteId", "12345".into()),
        (
            "callUrl",
            "https://salon.example/car/haval-jolion-0?utm_source=yandex".into(),
        ),
    ]
}

fn count(app: &TestApp, sql: &str) -> i64 {
    app.count(sql)
}

fn lead_of(app: &TestApp, phone: &str) -> Value {
    let conn = app.db.conn().unwrap();
    conn.query_row(
        "SELECT type, status, name, message, assignee_id, car_id, utm_source, utm_campaign,
                analytics_client_id, source_url
         FROM leads WHERE phone = ?1",
        [phone],
        |r| {
            Ok(json!({
                "type": r.get::<_, String>(0)?, "status": r.get::<_, String>(1)?,
                "name": r.get::<_, String>(2)?, "message": r.get::<_, Option<String>>(3)?,
                "assignee": r.get::<_, Option<String>>(4)?, "car": r.get::<_, Option<String>>(5)?,
                "utmSource": r.get::<_, Option<String>>(6)?,
                "utmCampaign": r.get::<_, Option<String>>(7)?,
                "clientId": r.get::<_, Option<String>>(8)?,
                "sourceUrl": r.get::<_, Option<String>>(9)?,
            }))
        },
    )
    .unwrap()
}

fn call_row(app: &TestApp, call_id: &str) -> Value {
    let conn = app.db.conn().unwrap();
    conn.query_row(
        "SELECT caller, called, answered, talk_seconds, wait_seconds, duration_seconds,
                record_url, page_url, call_back_by, at, source
         FROM calls WHERE provider = 'calltouch' AND call_id = ?1",
        [call_id],
        |r| {
            Ok(json!({
                "caller": r.get::<_, Option<String>>(0)?, "called": r.get::<_, Option<String>>(1)?,
                "answered": r.get::<_, bool>(2)?, "talk": r.get::<_, u32>(3)?,
                "wait": r.get::<_, u32>(4)?, "duration": r.get::<_, u32>(5)?,
                "record": r.get::<_, Option<String>>(6)?, "page": r.get::<_, Option<String>>(7)?,
                "callBackBy": r.get::<_, Option<String>>(8)?, "at": r.get::<_, String>(9)?,
                "source": r.get::<_, Option<String>>(10)?,
            }))
        },
    )
    .unwrap()
}

#[tokio::test]
async fn a_missed_call_by_get_is_an_assigned_missed_call_lead_with_its_deadline_once() {
    let secrets = Secrets::new();
    let (app, _) = app_with(secrets.config(None));
    let anna = staff(&app).await;
    let query = encode(&missed("4410001", "79051112233"));

    let answer = hook(&app, HOOK, &query, None, CALLTOUCH_PEER).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(
        answer.json(),
        json!({"ok": true, "calls": 1, "newLeads": 1, "joined": 0, "known": 0})
    );
    let lead = lead_of(&app, "+79051112233");
    assert_eq!(lead["type"], "missed_call");
    assert_eq!(lead["status"], "new");
    assert_eq!(lead["name"], "Пропущенный звонок");
    assert_eq!(lead["assignee"], anna.as_str());
    let message = lead["message"].as_str().unwrap();
    assert!(
        message.starts_with("Пропущенный звонок через Calltouch — перезвонить до "),
        "{message}"
    );
    assert!(message.contains("(МСК)"), "{message}");
    assert!(
        message.contains("Haval Jolion"),
        "the car of the page: {message}"
    );
    assert!(lead["car"].is_string(), "the car page's car: {lead}");
    assert_eq!(lead["utmSource"], "yandex");
    assert_eq!(lead["utmCampaign"], "spring");
    assert_eq!(lead["clientId"], "1715000000123456789");
    let call = call_row(&app, "4410001");
    assert_eq!(call["answered"], false);
    assert_eq!(call["called"], "+74951234567");
    assert_eq!(call["wait"], 23);
    assert_eq!(call["talk"], 0);
    assert_eq!(call["source"], "yandex / cpc");
    assert!(call["callBackBy"].is_string(), "{call}");
    assert_eq!(call["record"], Value::Null, "the page is no recording");

    // Sent again (Calltouch retries; the dealer ticked two events): one record.
    let again = hook(&app, HOOK, &query, None, CALLTOUCH_PEER).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(again.json()["known"], 1);
    assert_eq!(again.json()["newLeads"], 0);
    assert_eq!(count(&app, "SELECT count(*) FROM calls"), 1);
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM leads WHERE phone = '+79051112233'"
        ),
        1
    );
}

#[tokio::test]
async fn an_answered_call_posted_as_a_form_is_a_call_lead_with_its_recording_link() {
    let secrets = Secrets::new();
    let (app, _) = app_with(secrets.config(None));
    let at = moscow_ago(30);
    // The journal's spelling this time, as a dealer may tick it, and a
    // number written the way people write it.
    let form = encode(&[
        ("callId", "4410002".into()),
        ("callerNumber", "8 (905) 222-33-44".into()),
        ("phoneNumber", "+7 (495) 123-45-67".into()),
        ("date", at.clone()),
        ("duration", "185".into()),
        ("waitingConnect", "5".into()),
        ("successful", "1".into()),
        ("utmSource", "google".into()),
        ("callUrl", "https://salon.example/cars?sort=price".into()),
        (
            "recordLink",
            "https://api.calltouch.ru/calls-service/RestAPI/12345/calls-diary/calls/4410002/download"
                .into(),
        ),
    ]);
    let answer = hook(&app, HOOK, "", Some(&form), CALLTOUCH_PEER).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["newLeads"], 1);
    let lead = lead_of(&app, "+79052223344");
    assert_eq!(lead["type"], "phone_call");
    assert_eq!(lead["name"], "Звонок");
    assert_eq!(lead["message"], "Звонок через Calltouch: 3 мин");
    assert_eq!(lead["sourceUrl"], "https://salon.example/cars?sort=price");
    let call = call_row(&app, "4410002");
    assert_eq!(call["answered"], true);
    assert_eq!(call["talk"], 180);
    assert_eq!(call["duration"], 185);
    assert_eq!(call["called"], "+74951234567");
    assert_eq!(
        call["record"],
        "https://api.calltouch.ru/calls-service/RestAPI/12345/calls-diary/calls/4410002/download"
    );
    assert_eq!(call["page"], "https://salon.example/cars?sort=price");
    assert_eq!(call["callBackBy"], Value::Null);
    // dd/mm/yyyy hh:mm:ss is Moscow time.
    let stored = DateTime::parse_from_rfc3339(call["at"].as_str().unwrap()).unwrap();
    let moscow = stored.with_timezone(&dealership::clock::moscow());
    assert_eq!(moscow.format("%d/%m/%Y %H:%M:%S").to_string(), at);

    // The caller calls again: the call is noted on their open lead.
    let mut second = missed("4410003", "+79052223344");
    second.retain(|(k, _)| *k != "callUrl");
    let answer = hook(&app, HOOK, &encode(&second), None, CALLTOUCH_PEER).await;
    assert_eq!(answer.json()["joined"], 1, "{}", answer.text());
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM leads WHERE phone = '+79052223344'"
        ),
        1
    );
    assert_eq!(count(&app, "SELECT count(*) FROM calls"), 2);
}

#[tokio::test]
async fn a_status_word_or_the_talk_time_tells_a_missed_call_when_successful_is_not_ticked() {
    let secrets = Secrets::new();
    let (app, _) = app_with(secrets.config(None));
    let by_status = encode(&[
        ("callid", "501".into()),
        ("callerphone", "79053334455".into()),
        ("timestamp", unix_ago(3)),
        ("status", "unsuccessful".into()),
        ("duration", "12".into()),
    ]);
    let answer = hook(&app, HOOK, &by_status, None, CALLTOUCH_PEER).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(lead_of(&app, "+79053334455")["type"], "missed_call");
    let by_time = encode(&[
        ("CALLID", "502".into()),
        ("CallerPhone", "9054445566".into()),
        ("duration", "40".into()),
        ("waitingConnect", "40".into()),
    ]);
    let answer = hook(&app, HOOK, &by_time, None, CALLTOUCH_PEER).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(lead_of(&app, "+79054445566")["type"], "missed_call");
    assert_eq!(call_row(&app, "502")["wait"], 40);
}

#[tokio::test]
async fn requests_deals_rings_and_pings_are_answered_with_nothing_recorded() {
    let secrets = Secrets::new();
    let (app, _) = app_with(secrets.config(None));
    let cases = [
        // A request (заявка) from a site's form.
        encode(&[
            ("leadtype", "request".into()),
            ("requestId", "88001".into()),
            ("phone", "79051112233".into()),
            ("subject", "Заявка с сайта".into()),
        ]),
        // A deal's webhook.
        encode(&[("orderId", "77".into()), ("orderNumber", "CRM-77".into())]),
        // The call's start, before anyone answered.
        encode(&[
            ("callid", "601".into()),
            ("callerphone", "79051112233".into()),
            ("callphase", "callstart".into()),
        ]),
        // A ping with nothing.
        String::new(),
    ];
    for query in cases {
        let answer = hook(&app, HOOK, &query, None, CALLTOUCH_PEER).await;
        assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.text());
        assert_eq!(answer.json(), json!({"ok": true, "calls": 0}), "{query}");
    }
    assert_eq!(count(&app, "SELECT count(*) FROM calls"), 0);
    assert_eq!(count(&app, "SELECT count(*) FROM leads"), 0);
}

#[tokio::test]
async fn bad_and_hostile_parameters_are_refused_with_their_name_and_nothing_is_stored() {
    let secrets = Secrets::new();
    let (app, _) = app_with(secrets.config(None));
    let with = |changes: &[(&'static str, &str)]| {
        let mut pairs = missed("700", "79051112233");
        for (key, value) in changes {
            pairs.retain(|(k, _)| k != key);
            if !value.is_empty() {
                pairs.push((key, (*value).to_string()));
            }
        }
        encode(&pairs)
    };
    let cases = [
        (
            with(&[("callerphone", "")]),
            "callerphone",
            "нет номера звонившего",
        ),
        (
            with(&[("callerphone", "anonymous")]),
            "callerphone",
            "не читается",
        ),
        (
            with(&[("callid", "")]),
            "callid",
            "нет идентификатора звонка",
        ),
        (
            with(&[("callid", "<script>alert(1)</script>")]),
            "callid",
            "не читается",
        ),
        (
            with(&[("callid", &"9".repeat(101))]),
            "callid",
            "не читается",
        ),
        (
            with(&[("calltime", "31/02/2026 10:00:00")]),
            "calltime",
            "время звонка",
        ),
        (
            with(&[("calltime", "99999999999999999999")]),
            "calltime",
            "время звонка",
        ),
        (with(&[("duration", "-5")]), "duration", "длительность"),
        (
            with(&[("waitingconnect", "1e308")]),
            "waitingconnect",
            "длительность",
        ),
        (with(&[("successful", "perhaps")]), "successful", "признак"),
    ];
    for (query, field, words) in cases {
        let answer = hook(&app, HOOK, &query, None, CALLTOUCH_PEER).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {}",
            answer.text()
        );
        assert_eq!(answer.json()["field"], field, "{query}");
        assert!(
            answer.error().contains(words),
            "{query}: {}",
            answer.error()
        );
    }
    // A JSON body that is not an object.
    let mut request = Request::post(HOOK)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("[1,2,3]"))
        .unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(CALLTOUCH_PEER.parse::<SocketAddr>().unwrap()));
    let answer = app.send(request).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text()
    );
    assert_eq!(answer.json()["field"], "body");
    // Too big a body.
    let big = format!(
        "callid=1&callerphone=79051112233&junk={}",
        "x".repeat(70_000)
    );
    let answer = hook(&app, HOOK, "", Some(&big), CALLTOUCH_PEER).await;
    assert_eq!(
        answer.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        answer.text()
    );
    assert_eq!(count(&app, "SELECT count(*) FROM calls"), 0);
    assert_eq!(count(&app, "SELECT count(*) FROM leads"), 0);
}

#[tokio::test]
async fn a_wrong_secret_is_not_there_and_only_calltouchs_network_may_post_when_listed() {
    let secrets = Secrets::new();
    let mut config = secrets.config(None);
    config.allow_from = vec!["92.118.66.0/23".into()];
    let (app, _) = app_with(config);
    let query = encode(&missed("800", "79051112233"));

    let wrong = hook(
        &app,
        "/hooks/calls/calltouch/not-the-secret-at-all-0000",
        &query,
        None,
        CALLTOUCH_PEER,
    )
    .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);
    let elsewhere = hook(&app, HOOK, &query, None, "203.0.113.7:5000").await;
    assert_eq!(
        elsewhere.status,
        StatusCode::FORBIDDEN,
        "{}",
        elsewhere.text()
    );
    assert!(
        elsewhere.error().contains("calltouch.allow_from"),
        "{}",
        elsewhere.error()
    );
    assert_eq!(count(&app, "SELECT count(*) FROM calls"), 0);

    let from_calltouch = hook(&app, HOOK, &query, None, "92.118.66.1:40000").await;
    assert_eq!(
        from_calltouch.status,
        StatusCode::OK,
        "{}",
        from_calltouch.text()
    );
    assert_eq!(count(&app, "SELECT count(*) FROM calls"), 1);
}

fn client(secrets: &Secrets, fake: &FakeCalltouch) -> Calltouch {
    Calltouch::new(
        &secrets.config(Some(fake)),
        reqwest::Client::new(),
        Patience::brief(),
    )
    .map_err(|e| e.to_string())
    .unwrap()
}

/// `n` calls of today in the fake, ids from `first`.
fn stock(fake: &FakeCalltouch, first: u64, n: u64) {
    fake.with(|s| {
        for i in 0..n {
            let caller = format!("7905{:07}", first + i);
            let successful = i % 3 != 0;
            s.calls.push(record(
                first + i,
                &caller,
                &moscow_ago(60),
                90,
                10,
                successful,
            ));
        }
    });
}

#[tokio::test]
async fn the_journal_is_read_page_by_page_one_day_a_query() {
    let fake = FakeCalltouch::start().await;
    let secrets = Secrets::new();
    stock(&fake, 1, 2500);
    let calls = client(&secrets, &fake).calls_of_day(today()).await.unwrap();
    assert_eq!(calls.len(), 2500);
    let ids: std::collections::BTreeSet<_> = calls.iter().map(|c| c.call_id.clone()).collect();
    assert_eq!(ids.len(), 2500);
    let first = calls.iter().find(|c| c.call_id == "1").unwrap();
    assert!(!first.answered, "successful=false is missed");
    assert_eq!(first.caller.as_deref(), Some("+79050000001"));
    assert_eq!(first.utm.source.as_deref(), Some("yandex"));
    assert_eq!(
        first.page_url.as_deref(),
        Some("https://salon.example/cars")
    );
    let second = calls.iter().find(|c| c.call_id == "2").unwrap();
    assert!(second.answered);
    assert_eq!(second.talk_seconds, 80);
    let seen = fake.with(|s| s.seen.clone());
    assert_eq!(seen.len(), 3, "three pages of at most 1000");
    let date = today().format("%d/%m/%Y").to_string();
    for (i, s) in seen.iter().enumerate() {
        assert_eq!(s.path, "/calls-service/RestAPI/12345/calls-diary/calls");
        assert_eq!(s.query["dateFrom"], date);
        assert_eq!(s.query["dateTo"], date);
        assert_eq!(s.query["page"], (i + 1).to_string());
        assert_eq!(s.query["limit"], "1000");
        assert_eq!(s.query["clientApiId"], "ct-client-api-id-1");
    }
    // Another day has none of them.
    let yesterday = today() - Duration::days(1);
    assert!(
        client(&secrets, &fake)
            .calls_of_day(yesterday)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn the_check_counts_todays_calls_and_a_refused_token_is_unauthorized_unquoted() {
    let fake = FakeCalltouch::start().await;
    let secrets = Secrets::new();
    stock(&fake, 1, 3);
    let calltouch = client(&secrets, &fake);
    let words = calltouch.check().await.unwrap();
    assert_eq!(words, "сайт 12345: звонков сегодня: 3");
    assert_eq!(fake.with(|s| s.seen[0].query["limit"].clone()), "1");

    // The token was changed in Calltouch.
    fake.with(|s| s.token = "another-token".into());
    let err = calltouch.check().await.unwrap_err();
    assert!(
        matches!(err, MarketError::Unauthorized { status: 401, .. }),
        "{err:?}"
    );
    let words = err.to_string();
    assert!(words.contains("сайта 12345"), "{words}");
    assert!(
        !words.contains("ct-client-api-id-1"),
        "the token is never quoted: {words}"
    );
}

#[tokio::test]
async fn a_rate_limit_and_a_passing_fault_are_waited_out_and_a_dead_api_is_unavailable() {
    let fake = FakeCalltouch::start().await;
    let secrets = Secrets::new();
    stock(&fake, 1, 4);
    fake.with(|s| {
        s.faults.push_back(Fault::TooMany { retry_after: 1 });
        s.faults.push_back(Fault::Status(502));
    });
    let calls = client(&secrets, &fake).calls_of_day(today()).await.unwrap();
    assert_eq!(calls.len(), 4);
    assert_eq!(fake.with(|s| s.seen.len()), 3);

    fake.with(|s| s.always = Some(500));
    let err = client(&secrets, &fake)
        .calls_of_day(today())
        .await
        .unwrap_err();
    assert!(matches!(err, MarketError::Unavailable(_)), "{err:?}");
    assert!(err.to_string().contains("HTTP 500"), "{err}");
}

#[test]
fn the_client_is_off_without_its_keys_and_says_what_is_wrong_with_half_of_them() {
    let http = reqwest::Client::new;
    let off = Calltouch::new(&CalltouchConfig::default(), http(), Patience::brief());
    assert!(matches!(off, Err(MarketError::NotConfigured(_))));
    let secrets = Secrets::new();
    let half = CalltouchConfig {
        site_id: "12345".into(),
        ..CalltouchConfig::default()
    };
    let err = Calltouch::new(&half, http(), Patience::brief())
        .err()
        .unwrap();
    assert!(err.to_string().contains("token_file"), "{err}");
    let wrong_site = CalltouchConfig {
        site_id: "12345/../x".into(),
        token_file: secrets.write("token", "t"),
        ..CalltouchConfig::default()
    };
    let err = Calltouch::new(&wrong_site, http(), Patience::brief())
        .err()
        .unwrap();
    assert!(err.to_string().contains("not a number"), "{err}");
}

#[tokio::test]
async fn a_poll_finds_the_call_a_webhook_missed_and_makes_nothing_twice() {
    let fake = FakeCalltouch::start().await;
    let secrets = Secrets::new();
    let (app, sync) = app_with(secrets.config(Some(&fake)));
    staff(&app).await;
    fake.with(|s| {
        s.calls
            .push(record(9001, "79057770001", &moscow_ago(50), 120, 8, true));
        s.calls
            .push(record(9002, "79057770002", &moscow_ago(40), 25, 25, false));
        s.calls
            .push(record(9003, "", &moscow_ago(30), 25, 25, false));
    });
    // The webhook brought the first call.
    let query = encode(&[
        ("callid", "9001".into()),
        ("callerphone", "79057770001".into()),
        ("successful", "true".into()),
        ("duration", "120".into()),
        ("waitingconnect", "8".into()),
    ]);
    let answer = hook(&app, HOOK, &query, None, CALLTOUCH_PEER).await;
    assert_eq!(answer.json()["newLeads"], 1, "{}", answer.text());

    let taken = jobs::poll(&sync, Provider::Calltouch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(taken.new_leads, 1, "{taken:?}");
    assert_eq!(taken.known, 1, "{taken:?}");
    assert_eq!(
        count(&app, "SELECT count(*) FROM calls"),
        2,
        "a hidden number is left out"
    );
    let lead = lead_of(&app, "+79057770002");
    assert_eq!(lead["type"], "missed_call");
    assert!(lead["assignee"].is_string(), "{lead}");
    assert!(
        lead["message"].as_str().unwrap().contains("перезвонить до"),
        "{lead}"
    );
    let run = jobs::run_of(&app.db.conn().unwrap(), Provider::Calltouch).unwrap();
    assert_eq!(run.ok, Some(true));
    assert_eq!(
        run.message.as_deref(),
        Some("новых лидов: 1, к открытым лидам: 0, уже были: 1")
    );

    // Polled again: nothing new.
    let taken = jobs::poll(&sync, Provider::Calltouch)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(taken.new_leads, 0);
    assert_eq!(count(&app, "SELECT count(*) FROM calls"), 2);
    assert_eq!(count(&app, "SELECT count(*) FROM leads"), 2);

    // A refused token is the run's word, nothing lost.
    fake.with(|s| s.token = "rotated".into());
    let failed = jobs::poll(&sync, Provider::Calltouch).await.unwrap();
    let words = failed.unwrap_err();
    assert!(words.contains("не приняла ключи (401)"), "{words}");
    let run = jobs::run_of(&app.db.conn().unwrap(), Provider::Calltouch).unwrap();
    assert_eq!(run.ok, Some(false));
}
