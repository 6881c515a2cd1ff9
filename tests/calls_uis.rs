//! UIS / CoMagic (issue 45; `docs/calls-uis.md`) on the real router and a
//! real SQLite file, against a fake of UIS's Data API and Call API written
//! from UIS's documentation (`tests/fakes/uis.rs`): the notification of a
//! finished or lost call in the documented JSON template, a form and a GET
//! becomes one lead (missed: assigned, with a call-back deadline);
//! duplicates, a poll after a notification and a poll finding a call the
//! notification missed; secrets, senders and bad payloads refused with
//! nothing stored; the client's pages, refusals and retries; and the
//! «Перезвоните мне» form ringing the manager, then the visitor, only in
//! working hours.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;
#[path = "fakes/uis.rs"]
mod uis_fake;

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use chrono::{Days, NaiveDate, Utc};
use common::time::{msk, set_clock};
use common::{Answer, TestApp};
use dealership::calltracking::Provider;
use dealership::calltracking::clients::CallProviders;
use dealership::calltracking::jobs::{self, CallSync};
use dealership::clock::Clock;
use dealership::config::{Config, UisConfig};
use dealership::marketplaces::MarketError;
use serde_json::{Value, json};
use uis_fake::{FakeUis, Fault, State, report_row};

const SECRET: &str = "0123456789abcdef-uis-hook";
const HOOK: &str = "/hooks/calls/uis/0123456789abcdef-uis-hook";

/// The API key, the hook's secret (files of mode 600) and the fake.
struct Uis {
    dir: tempfile::TempDir,
    fake: FakeUis,
}

impl Uis {
    async fn start(state: State) -> Uis {
        Uis {
            dir: tempfile::tempdir().unwrap(),
            fake: FakeUis::start(state).await,
        }
    }

    fn write(&self, name: &str, text: &str) -> std::path::PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, format!("{text}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        path
    }

    fn config(&self, token: &str) -> UisConfig {
        UisConfig {
            api_url: self.fake.data_url(),
            call_api_url: self.fake.call_url(),
            token_file: self.write("uis-token", token),
            virtual_number: "+7 (499) 372-06-92".into(),
            operator_number: "8 (495) 000-11-22".into(),
            hook_secret_file: self.write("uis-hook", SECRET),
            allow_from: Vec::new(),
        }
    }
}

/// An app with `uis` as its `[uis]`, changed by `change`; an owner and a
/// manager to own the leads; the clock and the calls' context.
fn app_with(uis: UisConfig, change: impl FnOnce(&mut Config)) -> (TestApp, CallSync, Arc<Clock>) {
    let mut sync = None;
    let app = TestApp::with_state(|state| {
        let mut config = (*state.config).clone();
        config.uis = uis;
        change(&mut config);
        state.call_providers = Arc::new(CallProviders::brief(&config));
        state.config = Arc::new(config);
        sync = Some(state.call_sync());
    });
    app.create_admin();
    app.create_user("anna", dealership::domain::roles::Role::Manager);
    let sync = sync.unwrap();
    let clock = sync.clock.clone();
    (app, sync, clock)
}

/// The documented «Завершение звонка» template as UIS fills it in.
fn finished(id: u64, contact: &str, talk: u64, lost: bool) -> Value {
    json!({
        "event": "call_finished",
        "call_session_id": id,
        "notification_time": "2026-05-14 10:20:05",
        "start_time": "2026-05-14 10:15:00",
        "direction": "in",
        "is_lost": lost,
        "contact_phone_number": contact,
        "virtual_phone_number": "74993720692",
        "talk_time_duration": talk,
        "total_time_duration": talk + 12,
        "wait_time_duration": 12,
        "file_link": if lost { Value::Null } else { json!("https://app.uiscom.ru/system/media/talk/1/abc/") },
        "utm_source": "yandex",
        "utm_medium": "cpc",
        "utm_campaign": "jolion",
        "ym_client_id": "1700000000123456789",
        "scenario_name": "Отдел продаж",
        "call_source": "va",
        "employee_full_name": if lost { Value::Null } else { json!("Анна") }
    })
}

async fn post_form(app: &TestApp, path: &str, form: &str) -> Answer {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form.to_string()))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(
        "91.217.64.10:5000".parse::<std::net::SocketAddr>().unwrap(),
    ));
    app.send(request).await
}

async fn get_from(app: &TestApp, path: &str) -> Answer {
    let mut request = Request::get(path).body(Body::empty()).unwrap();
    request.extensions_mut().insert(ConnectInfo(
        "91.217.64.10:5000".parse::<std::net::SocketAddr>().unwrap(),
    ));
    app.send(request).await
}

/// The leads of `phone`: (type, assignee, message).
fn leads_of(app: &TestApp, phone: &str) -> Vec<(String, Option<String>, String)> {
    let conn = app.db.conn().unwrap();
    let mut statement = conn
        .prepare(
            "SELECT type, assignee_id, message FROM leads WHERE phone = ?1 ORDER BY created_at",
        )
        .unwrap();
    statement
        .query_map([phone], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get::<_, Option<String>>(2)?.unwrap_or_default(),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn calls(app: &TestApp) -> i64 {
    app.count("SELECT count(*) FROM calls WHERE provider = 'uis'")
}

#[tokio::test]
async fn a_finished_call_in_the_json_template_is_one_lead_with_its_talk_and_record() {
    let uis = Uis::start(State::default()).await;
    let (app, _, _) = app_with(uis.config("uis-key-1"), |_| {});
    let answer = app
        .post_json_from(
            HOOK,
            &finished(3_001, "79051112233", 200, false),
            "91.217.64.10:5000",
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["newLeads"], 1);
    let leads = leads_of(&app, "+79051112233");
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0].0, "phone_call");
    assert!(
        leads[0].2.starts_with("Звонок через UIS: 3 мин 20 с"),
        "{}",
        leads[0].2
    );
    let (talk, record, utm, at): (i64, String, String, String) = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT talk_seconds, record_url, utm_source, at FROM calls WHERE provider = 'uis' AND call_id = '3001'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(talk, 200);
    assert_eq!(record, "https://app.uiscom.ru/system/media/talk/1/abc/");
    assert_eq!(utm, "yandex");
    // 10:15 in Moscow.
    assert!(at.starts_with("2026-05-14T07:15:00"), "{at}");

    // UIS sends it again: one record, one lead.
    let again = app
        .post_json_from(
            HOOK,
            &finished(3_001, "79051112233", 200, false),
            "91.217.64.10:5000",
        )
        .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json()["known"], 1);
    assert_eq!(calls(&app), 1);
    assert_eq!(leads_of(&app, "+79051112233").len(), 1);
}

#[tokio::test]
async fn a_lost_call_is_a_missed_call_lead_assigned_with_a_deadline() {
    let uis = Uis::start(State::default()).await;
    let (app, _, clock) = app_with(uis.config("uis-key-1"), |_| {});
    let anna = anna_takes_leads(&app, &clock).await;
    // «Потерянный звонок»: no is_lost, no talk; numbers as text.
    let lost = json!({
        "notification_name": "Потерянный звонок",
        "call_session_id": "3002",
        "notification_time": "2026-05-14 10:16:00",
        "virtual_phone_number": "+7 (499) 372-06-92",
        "contact_phone_number": "8 (916) 555-00-11",
        "wait_time_duration": "40",
        "scenario_name": "Отдел продаж"
    });
    let answer = app.post_json_from(HOOK, &lost, "91.217.64.10:5000").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let leads = leads_of(&app, "+79165550011");
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0].0, "missed_call");
    assert_eq!(
        leads[0].1.as_deref(),
        Some(anna.as_str()),
        "a missed call has an owner"
    );
    assert!(
        leads[0]
            .2
            .starts_with("Пропущенный звонок через UIS — перезвонить до "),
        "{}",
        leads[0].2
    );
    assert!(leads[0].2.contains("(МСК)"), "{}", leads[0].2);
}

#[tokio::test]
async fn a_form_body_and_a_get_query_are_read_too_and_outgoing_calls_are_nothing() {
    let uis = Uis::start(State::default()).await;
    let (app, _, _) = app_with(uis.config("uis-key-1"), |_| {});
    let form = "call_session_id=3003&start_time=2026-05-14+11%3A00%3A00&is_lost=1\
                &contact_phone_number=%2B7+905+222-33-44&direction=in";
    let answer = post_form(&app, HOOK, form).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(leads_of(&app, "+79052223344")[0].0, "missed_call");

    let query = format!(
        "{HOOK}?call_session_id=3004&start_time=2026-05-14%2011:05:00&talk_time_duration=45\
         &contact_phone_number=9053334455"
    );
    let answer = get_from(&app, &query).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let leads = leads_of(&app, "+79053334455");
    assert_eq!(leads[0].0, "phone_call");
    assert!(leads[0].2.contains("45 с"), "{}", leads[0].2);

    // An outgoing call and a call that is only ringing: answered, nothing kept.
    let mut out = finished(3_005, "79054445566", 30, false);
    out["direction"] = json!("out");
    let answer = app.post_json_from(HOOK, &out, "91.217.64.10:5000").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["calls"], 0);
    let ringing = json!({"notification_name": "Входящий звонок на виртуальный номер",
        "call_session_id": 3006, "contact_phone_number": "79054445567"});
    let answer = app
        .post_json_from(HOOK, &ringing, "91.217.64.10:5000")
        .await;
    assert_eq!(answer.json()["calls"], 0);
    assert_eq!(calls(&app), 2);
}

#[tokio::test]
async fn wrong_secrets_other_senders_and_bad_payloads_are_refused_and_nothing_is_stored() {
    let uis = Uis::start(State::default()).await;
    let mut config = uis.config("uis-key-1");
    config.allow_from = vec!["91.217.64.0/24".into()];
    let (app, _, _) = app_with(config, |_| {});
    let call = finished(3_010, "79051112233", 10, false);

    let wrong = app
        .post_json_from(
            "/hooks/calls/uis/0123456789abcdef-other",
            &call,
            "91.217.64.10:5000",
        )
        .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);
    let stranger = app.post_json_from(HOOK, &call, "203.0.113.7:5000").await;
    assert_eq!(stranger.status, StatusCode::FORBIDDEN);
    assert!(
        stranger.error().contains("uis.allow_from"),
        "{}",
        stranger.error()
    );

    let mut no_id = call.clone();
    no_id.as_object_mut().unwrap().remove("call_session_id");
    let mut bad_time = call.clone();
    bad_time["start_time"] = json!("вчера вечером");
    let mut bad_talk = call.clone();
    bad_talk["talk_time_duration"] = json!("три минуты");
    let mut hostile_id = call.clone();
    hostile_id["call_session_id"] = json!("1; DROP TABLE calls");
    let mut bad_flag = call.clone();
    bad_flag["is_lost"] = json!("возможно");
    for (body, field) in [
        (no_id, "call_session_id"),
        (bad_time, "start_time"),
        (bad_talk, "talk_time_duration"),
        (hostile_id, "call_session_id"),
        (bad_flag, "is_lost"),
    ] {
        let answer = app.post_json_from(HOOK, &body, "91.217.64.10:5000").await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {}",
            answer.text()
        );
        assert_eq!(answer.json()["field"], field, "{}", answer.text());
    }
    // A template UIS filled in as broken JSON (a placeholder quoted twice).
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(HOOK)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            r#"{"call_session_id": ""3011"", "is_lost": true}"#,
        ))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(
        "91.217.64.10:5000".parse::<std::net::SocketAddr>().unwrap(),
    ));
    let broken = app.send(request).await;
    assert_eq!(broken.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(broken.json()["field"], "body");
    assert!(broken.error().contains("JSON"), "{}", broken.error());

    assert_eq!(calls(&app), 0);
    assert_eq!(app.count("SELECT count(*) FROM leads"), 0);
}

fn moscow_text(at: chrono::DateTime<Utc>) -> String {
    at.with_timezone(&dealership::clock::moscow())
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

#[tokio::test]
async fn a_poll_adds_only_the_call_the_notification_missed() {
    let uis = Uis::start(State::default()).await;
    let (app, sync, _) = app_with(uis.config("uis-key-1"), |_| {});
    let an_hour_ago = moscow_text(Utc::now() - chrono::Duration::hours(1));
    let half_an_hour_ago = moscow_text(Utc::now() - chrono::Duration::minutes(30));
    uis.fake.with(|s| {
        s.calls = vec![
            report_row(4_001, &an_hour_ago, "79051110001", false, 95),
            report_row(4_002, &half_an_hour_ago, "79051110002", true, 0),
        ];
    });
    // The first came as a notification.
    let mut hooked = finished(4_001, "79051110001", 95, false);
    hooked["start_time"] = json!(an_hour_ago);
    let answer = app.post_json_from(HOOK, &hooked, "91.217.64.10:5000").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());

    let taken = jobs::poll(&sync, Provider::Uis).await.unwrap().unwrap();
    assert_eq!((taken.new_leads, taken.known), (1, 1), "{taken:?}");
    assert_eq!(calls(&app), 2);
    assert_eq!(leads_of(&app, "+79051110001").len(), 1);
    let missed = leads_of(&app, "+79051110002");
    assert_eq!(missed.len(), 1);
    assert_eq!(missed[0].0, "missed_call");
    // The report's recording is a link on UIS's site, never a copy.
    let record: Option<String> = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT record_url FROM calls WHERE call_id = '4001'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(record.is_some());
    // The poll asked for the report with the documented parameters.
    let (_, params) = uis.fake.with(|s| {
        s.seen
            .iter()
            .find(|(m, _)| m == "get.calls_report")
            .cloned()
            .unwrap()
    });
    assert_eq!(params["limit"], 1000);
    assert!(
        params["fields"]
            .as_array()
            .unwrap()
            .contains(&json!("is_lost"))
    );

    // A second poll finds nothing new.
    let again = jobs::poll(&sync, Provider::Uis).await.unwrap().unwrap();
    assert_eq!(again.new_leads, 0);
    assert_eq!(calls(&app), 2);
}

fn client(uis: &Uis, token: &str) -> Arc<dealership::calltracking::uis::Uis> {
    let mut config = Config::default();
    config.uis = uis.config(token);
    CallProviders::brief(&config).uis.ready().unwrap()
}

#[tokio::test]
async fn the_report_is_read_page_by_page_and_refusals_say_why() {
    let uis = Uis::start(State::default()).await;
    let start = Utc::now() - chrono::Duration::hours(3);
    uis.fake.with(|s| {
        s.calls = (0..2_345u64)
            .map(|i| {
                report_row(
                    10_000 + i,
                    &moscow_text(start + chrono::Duration::seconds(i as i64)),
                    "79051234567",
                    i % 3 == 0,
                    60,
                )
            })
            .collect();
    });
    let client = client(&uis, "uis-key-1");
    let calls = client
        .calls_between(start - chrono::Duration::minutes(1), Utc::now())
        .await
        .unwrap();
    assert_eq!(calls.len(), 2_345);
    assert_eq!(uis.fake.count("get.calls_report"), 3);
    let offsets: Vec<Value> = uis
        .fake
        .with(|s| s.seen.iter().map(|(_, p)| p["offset"].clone()).collect());
    assert_eq!(offsets, vec![json!(0), json!(1000), json!(2000)]);
    assert_eq!(calls.iter().filter(|c| !c.answered).count(), 782);

    // 429 then 502: tried again, then read.
    uis.fake.with(|s| {
        s.faults.push_back(Fault::TooMany { retry_after: 0 });
        s.faults.push_back(Fault::Status(502));
    });
    let words = client.check().await.unwrap();
    assert!(
        words.starts_with("Подключено: аккаунт 39141 (Автосалон «Север»)"),
        "{words}"
    );
    assert!(words.contains("9990 из 10000"), "{words}");

    // Down for good.
    uis.fake
        .with(|s| (0..10).for_each(|_| s.faults.push_back(Fault::Status(503))));
    assert!(matches!(
        client.check().await,
        Err(MarketError::Unavailable(_))
    ));
    uis.fake.with(|s| s.faults.clear());

    // The day's points spent.
    uis.fake.with(|s| {
        s.faults.push_back(Fault::Rpc(
            -32029,
            "limit_exceeded".into(),
            "Limit per day has been exceeded. Value of current limit per day is 10000".into(),
        ))
    });
    let spent = client.calls_between(start, Utc::now()).await.unwrap_err();
    assert!(matches!(spent, MarketError::Unavailable(_)), "{spent}");
    assert!(spent.to_string().contains("limit_exceeded"), "{spent}");

    // A key UIS does not know.
    let wrong = client_of_other_key(&uis).check().await.unwrap_err();
    assert!(matches!(wrong, MarketError::Unauthorized { .. }), "{wrong}");
    assert!(
        wrong.to_string().contains("Access token is invalid"),
        "{wrong}"
    );
}

fn client_of_other_key(uis: &Uis) -> Arc<dealership::calltracking::uis::Uis> {
    client(uis, "revoked-key")
}

#[tokio::test]
async fn the_callback_rings_the_operator_then_the_visitor_or_says_why_not() {
    let uis = Uis::start(State::default()).await;
    let client = client(&uis, "uis-key-1");
    let session = client
        .callback("+79161234567", "+79051112233")
        .await
        .unwrap();
    assert_eq!(session, "237859082");
    let rung = uis.fake.with(|s| s.rung.clone());
    assert_eq!(rung.len(), 1);
    assert_eq!(rung[0].operator, "79161234567");
    assert_eq!(rung[0].contact, "79051112233");
    assert_eq!(rung[0].virtual_number, "74993720692");
    assert_eq!(rung[0].first_call, "operator");

    // A virtual number that is not the account's: UIS's words come back.
    uis.fake
        .with(|s| s.virtual_numbers = vec!["74950000000".into()]);
    let refused = client
        .callback("+79161234567", "+79051112233")
        .await
        .unwrap_err();
    assert!(matches!(refused, MarketError::Answer(_)), "{refused}");
    assert!(
        refused
            .to_string()
            .contains("virtual_phone_number_not_found"),
        "{refused}"
    );
    assert_eq!(uis.fake.with(|s| s.rung.len()), 1);
}

/// New leads go round the managers (Anna, the only one, at work every day
/// 09:00–21:00); the clock at tomorrow's noon. Gives Anna's id.
async fn anna_takes_leads(app: &TestApp, clock: &Clock) -> String {
    working_hours(app).await;
    let answer = app
        .admin(
            Method::PUT,
            "/api/settings",
            Some(json!({"leadAssignment": "round_robin"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let conn = app.db.conn().unwrap();
    conn.execute("UPDATE users SET must_change_password = 0", [])
        .unwrap();
    set_clock(clock, msk(tomorrow(), 12, 0));
    conn.query_row("SELECT id FROM users WHERE username = 'anna'", [], |r| {
        r.get(0)
    })
    .unwrap()
}

/// Sets every day 09:00–21:00 through the settings, as staff would.
async fn working_hours(app: &TestApp) {
    let day = json!({"open": "09:00", "close": "21:00"});
    let answer = app
        .admin(
            Method::PUT,
            "/api/settings",
            Some(json!({"workSchedule": {"days": [day, day, day, day, day, day, day]}})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
}

fn tomorrow() -> NaiveDate {
    Clock::default()
        .moscow_today()
        .checked_add_days(Days::new(1))
        .unwrap()
}

async fn callback_form(app: &TestApp) -> Value {
    let answer = app
        .post_json(
            "/api/leads",
            &json!({"type": "callback", "name": "Игорь", "phone": "+7 905 777-66-55", "consent": true}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    answer.json()
}

/// The callback's state of `lead`, once the PBX was asked.
async fn settled(app: &TestApp, lead: &str) -> (String, Option<String>) {
    for _ in 0..200 {
        let (state, detail): (String, Option<String>) = app
            .db
            .conn()
            .unwrap()
            .query_row(
                "SELECT callback_state, callback_detail FROM leads WHERE id = ?1",
                [lead],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        if state != "calling" {
            return (state, detail);
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the callback of {lead} never settled");
}

#[tokio::test]
async fn the_callback_form_rings_the_manager_then_the_visitor_in_working_hours() {
    let uis = Uis::start(State::default()).await;
    let (app, _, clock) = app_with(uis.config("uis-key-1"), |_| {});
    let anna = anna_takes_leads(&app, &clock).await;
    // Anna owns the lead: her PBX number is rung first.
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE users SET pbx_number = '+7 916 123-45-67' WHERE id = ?1",
            [&anna],
        )
        .unwrap();
    let lead = callback_form(&app).await;
    assert_eq!(lead["assigneeId"], anna.as_str(), "{lead}");
    assert_eq!(lead["callbackState"], "calling", "{lead}");
    let (state, detail) = settled(&app, lead["id"].as_str().unwrap()).await;
    assert_eq!(state, "rung", "{detail:?}");
    assert_eq!(detail.as_deref(), Some("команда АТС: 237859082"));
    let rung = uis.fake.with(|s| s.rung.clone());
    assert_eq!(rung.len(), 1);
    assert_eq!(rung[0].operator, "79161234567", "{lead}");
    assert_eq!(rung[0].contact, "79057776655");
    assert_eq!(rung[0].first_call, "operator");
}

#[tokio::test]
async fn the_callback_form_out_of_hours_rings_nobody_and_says_when() {
    let uis = Uis::start(State::default()).await;
    let (app, _, clock) = app_with(uis.config("uis-key-1"), |_| {});
    working_hours(&app).await;
    set_clock(&clock, msk(tomorrow(), 22, 30));
    let lead = callback_form(&app).await;
    assert_eq!(lead["callbackState"], "out_of_hours", "{lead}");
    assert_eq!(lead["callbackDetail"], "завтра в 09:00", "{lead}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(uis.fake.with(|s| s.rung.is_empty()));
    assert_eq!(uis.fake.count("start.simple_call"), 0);
}

#[tokio::test]
async fn a_failed_callback_is_on_the_lead_with_uis_words() {
    let uis = Uis::start(State::default()).await;
    let (app, _, clock) = app_with(uis.config("uis-key-1"), |_| {});
    working_hours(&app).await;
    set_clock(&clock, msk(tomorrow(), 10, 0));
    uis.fake.with(|s| {
        s.faults.push_back(Fault::Rpc(
            -32002,
            "contact_in_blacklist".into(),
            "The contact 79057776655 has been found in the blacklist".into(),
        ))
    });
    let lead = callback_form(&app).await;
    let (state, detail) = settled(&app, lead["id"].as_str().unwrap()).await;
    assert_eq!(state, "failed");
    let detail = detail.unwrap();
    assert!(detail.contains("blacklist"), "{detail}");
    // Nobody owned the lead: the operator's number was asked for.
    let (_, asked) = uis.fake.with(|s| {
        s.seen
            .iter()
            .find(|(m, _)| m == "start.simple_call")
            .cloned()
            .unwrap()
    });
    assert_eq!(asked["operator"], "74950001122");
    assert!(uis.fake.with(|s| s.rung.is_empty()));
}
