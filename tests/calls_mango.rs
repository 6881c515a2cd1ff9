//! Mango Office (issue 45; `docs/calls-mango.md`) on the real router and a
//! real SQLite file, against a fake VPBX API written from Mango's API
//! documentation: the PBX's signed events at `/hooks/calls/mango/{secret}/…`
//! (a missed and an answered call made leads once each, a call still
//! ringing storing nothing, wrong signatures, keys, secrets and senders
//! refused, bad payloads refused with their field), the callback command
//! (success, the PBX's failure codes, 401, 429 and 5xx), the connection
//! check, and the site's «Перезвоните мне» form ringing the manager in
//! working hours and not after.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;
#[path = "fakes/mango.rs"]
mod mango_fake;

use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use common::time::{msk, set_clock};
use common::{Answer, TestApp};
use dealership::calltracking::clients::CallProviders;
use dealership::calltracking::mango::Mango;
use dealership::clock::Clock;
use dealership::config::{Config, MangoConfig};
use dealership::domain::roles::Role;
use dealership::marketplaces::{MarketError, Patience};
use mango_fake::{FakeMango, Fault, KEY, SALT, State, event, ringing, signed_form, summary};
use serde_json::{Value, json};

/// The secret of the webhook's address in the tests.
const HOOK: &str = "mango-hook-secret-0123456789";
/// The salon's line (Mango's digits) and a caller.
const LINE: &str = "74952129298";
const CALLER: &str = "79991234567";

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

    /// `[mango]` pointing at `fake`, with the tests' key, salt and secret.
    fn mango(&self, fake: &FakeMango, salt: &str) -> MangoConfig {
        MangoConfig {
            api_url: fake.url.clone(),
            api_key_file: self.write("mango-key", KEY),
            api_salt_file: self.write("mango-salt", salt),
            line_number: format!("+{LINE}"),
            default_extension: "101".into(),
            hook_secret_file: self.write("mango-hook", HOOK),
            allow_from: Vec::new(),
        }
    }
}

/// The running test: the app, its clock at noon (Moscow) tomorrow, the
/// fake PBX, an owner and a manager «anna» who gets new leads in turn.
struct Salon {
    app: TestApp,
    clock: Arc<Clock>,
    fake: FakeMango,
    cookie: String,
    anna: String,
    _secrets: Secrets,
}

async fn salon(change: impl FnOnce(&mut MangoConfig)) -> Salon {
    let fake = FakeMango::start(State::default()).await;
    let secrets = Secrets::new();
    let mut mango = secrets.mango(&fake, SALT);
    change(&mut mango);
    let mut clock = None;
    let app = TestApp::with_state(|state| {
        let mut config: Config = (*state.config).clone();
        config.mango = mango;
        state.call_providers = Arc::new(CallProviders::brief(&config));
        state.config = Arc::new(config);
        clock = Some(state.clock.clone());
    });
    let clock = clock.unwrap();
    let tomorrow = clock.moscow_today().succ_opt().unwrap();
    set_clock(&clock, msk(tomorrow, 12, 0));
    app.create_admin();
    app.create_user("anna", Role::Manager);
    let cookie = app.login().await;
    let saved = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"leadAssignment": "round_robin"})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let anna = user_id(&app, "anna");
    Salon {
        app,
        clock,
        fake,
        cookie,
        anna,
        _secrets: secrets,
    }
}

fn user_id(app: &TestApp, login: &str) -> String {
    app.db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM users WHERE username = ?1", [login], |r| {
            r.get(0)
        })
        .unwrap()
}

impl Salon {
    /// Unix seconds `ago` seconds before the app's clock.
    fn ago(&self, ago: i64) -> i64 {
        self.clock.now().timestamp() - ago
    }

    async fn post(&self, path: &str, form: String, peer: &str) -> Answer {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(form))
            .unwrap();
        let peer: SocketAddr = peer.parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(peer));
        self.app.send(request).await
    }

    /// The PBX posting `form` to our URL plus `rest` ("events/summary").
    async fn hook(&self, rest: &str, form: String) -> Answer {
        self.post(
            &format!("/hooks/calls/mango/{HOOK}/{rest}"),
            form,
            "81.88.80.1:40000",
        )
        .await
    }

    /// The leads list as the owner sees it.
    async fn leads(&self) -> Vec<Value> {
        let answer = self
            .app
            .admin_with(&self.cookie, Method::GET, "/api/leads", None)
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        answer.json().as_array().unwrap().clone()
    }

    fn calls(&self) -> i64 {
        self.app
            .count("SELECT count(*) FROM calls WHERE provider = 'mango'")
    }
}

#[tokio::test]
async fn a_missed_call_is_one_assigned_lead_with_a_deadline_and_a_duplicate_changes_nothing() {
    let s = salon(|_| {}).await;
    // The call rings: Mango tells its state; nothing is recorded yet.
    let ring = s
        .hook(
            "events/call",
            event(&ringing("ENTRY-1", CALLER, LINE, s.ago(40))),
        )
        .await;
    assert_eq!(ring.status, StatusCode::OK, "{}", ring.text());
    assert_eq!(ring.json()["calls"], 0);
    assert_eq!((s.calls(), s.leads().await.len()), (0, 0));

    // It ends unanswered after 35 seconds.
    let missed = summary("ENTRY-1", CALLER, LINE, s.ago(40), 35, None);
    let answer = s.hook("events/summary", event(&missed)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["newLeads"], 1);
    let leads = s.leads().await;
    assert_eq!(leads.len(), 1);
    let lead = &leads[0];
    assert_eq!(lead["type"], "missed_call");
    assert_eq!(lead["name"], "Пропущенный звонок");
    assert_eq!(lead["phone"], "+79991234567");
    assert_eq!(lead["status"], "new");
    assert_eq!(lead["assigneeId"], s.anna.as_str());
    let message = lead["message"].as_str().unwrap();
    assert!(message.contains("перезвонить до"), "{message}");

    // Mango repeats the event: the same call, nothing new.
    let again = s.hook("events/summary", event(&missed)).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(again.json()["known"], 1);
    assert_eq!((s.calls(), s.leads().await.len()), (1, 1));
    let (answered, wait): (i64, i64) = s
        .app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT answered, wait_seconds FROM calls WHERE call_id = 'ENTRY-1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((answered, wait), (0, 35));

    // The recording, the connection check, a command's result and an
    // outbound call's summary are answered and record nothing.
    let recording = json!({"recording_id": "MToxMjI3NTM6MzUyODMzNzg4OTow",
        "recording_state": "Completed", "seq": 1, "entry_id": "ENTRY-1",
        "call_id": "ENTRY-1-1", "extension": "101", "timestamp": s.ago(5),
        "completion_code": 1000});
    let mut outbound = summary("ENTRY-2", CALLER, LINE, s.ago(30), 5, Some(20));
    outbound["call_direction"] = json!(2);
    outbound["from"] = json!({"extension": "101", "number": "sip:anna@salon.mangosip.ru"});
    outbound["to"] = json!({"number": CALLER});
    for (rest, json) in [
        ("events/recording", recording),
        (
            "result/callback",
            json!({"command_id": "cb-1", "result": 1000}),
        ),
        ("events/summary", outbound),
        ("ping", json!({})),
    ] {
        let answer = s.hook(rest, event(&json)).await;
        assert_eq!(answer.status, StatusCode::OK, "{rest}: {}", answer.text());
        assert_eq!(answer.json()["calls"], 0, "{rest}");
    }
    assert_eq!((s.calls(), s.leads().await.len()), (1, 1));
}

#[tokio::test]
async fn an_answered_call_from_an_unknown_number_is_a_phone_call_lead_with_its_talk() {
    let s = salon(|_| {}).await;
    let talked = summary("ENTRY-9", "89161112233", LINE, s.ago(300), 12, Some(200));
    let answer = s.hook("events/summary", event(&talked)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["newLeads"], 1);
    let leads = s.leads().await;
    assert_eq!(leads.len(), 1);
    assert_eq!(leads[0]["type"], "phone_call");
    assert_eq!(leads[0]["phone"], "+79161112233");
    assert_eq!(leads[0]["status"], "in_progress");
    let message = leads[0]["message"].as_str().unwrap();
    assert!(message.contains("3 мин 20 с"), "{message}");
    let row: (i64, i64, i64, String) = s
        .app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT answered, talk_seconds, wait_seconds, called FROM calls
             WHERE provider = 'mango' AND call_id = 'ENTRY-9'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(row, (1, 200, 12, "+74952129298".to_string()));
}

#[tokio::test]
async fn signatures_keys_secrets_and_senders_are_checked_before_anything_is_stored() {
    let s = salon(|_| {}).await;
    let json = summary("ENTRY-5", CALLER, LINE, s.ago(60), 20, None).to_string();
    let refused = [
        (signed_form(KEY, "not-the-salt", &json), "подпись"),
        (signed_form("another-pbx-key", SALT, &json), "ключ"),
        (
            form_urlencoded::Serializer::new(String::new())
                .append_pair("vpbx_api_key", KEY)
                .append_pair("json", &json)
                .finish(),
            "подпись",
        ),
        (
            // Signed, then the json changed on the way.
            signed_form(KEY, SALT, &json).replace("ENTRY-5", "ENTRY-6"),
            "подпись",
        ),
        (format!("json={}", urlencode(&json)), "ключ"),
    ];
    for (form, words) in refused {
        let answer = s.hook("events/summary", form.clone()).await;
        assert_eq!(
            answer.status,
            StatusCode::FORBIDDEN,
            "{form}: {}",
            answer.text()
        );
        assert!(answer.error().contains(words), "{}", answer.error());
        assert!(
            answer.error().contains("Mango Office"),
            "{}",
            answer.error()
        );
    }
    // A wrong secret is an address that is not there.
    let lost = s
        .post(
            "/hooks/calls/mango/not-the-secret-at-all-0000/events/summary",
            event(&serde_json::from_str(&json).unwrap()),
            "81.88.80.1:40000",
        )
        .await;
    assert_eq!(lost.status, StatusCode::NOT_FOUND);
    assert_eq!((s.calls(), s.leads().await.len()), (0, 0));
    // The right one is taken.
    let taken = s
        .hook("events/summary", signed_form(KEY, SALT, &json))
        .await;
    assert_eq!(taken.status, StatusCode::OK, "{}", taken.text());
    assert_eq!(s.calls(), 1);

    // Senders limited to Mango's network: anyone else is refused.
    let s = salon(|m| m.allow_from = vec!["81.88.80.0/24".into()]).await;
    let form = signed_form(KEY, SALT, &json);
    let path = format!("/hooks/calls/mango/{HOOK}/events/summary");
    let stranger = s.post(&path, form.clone(), "203.0.113.7:5000").await;
    assert_eq!(
        stranger.status,
        StatusCode::FORBIDDEN,
        "{}",
        stranger.text()
    );
    assert!(
        stranger.error().contains("mango.allow_from"),
        "{}",
        stranger.error()
    );
    assert_eq!(s.calls(), 0);
    let mango = s.post(&path, form, "81.88.80.17:5000").await;
    assert_eq!(mango.status, StatusCode::OK, "{}", mango.text());
    assert_eq!(s.calls(), 1);
}

fn urlencode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[tokio::test]
async fn bad_and_hostile_payloads_are_refused_with_their_field_and_nothing_is_stored() {
    let s = salon(|_| {}).await;
    let good = summary("ENTRY-7", CALLER, LINE, s.ago(60), 20, None);
    let without = |field: &str| {
        let mut bad = good.clone();
        bad.as_object_mut().unwrap().remove(field);
        bad.to_string()
    };
    let with = |field: &str, value: Value| {
        let mut bad = good.clone();
        bad[field] = value;
        bad.to_string()
    };
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let cases = [
        ("not json at all".to_string(), "json"),
        ("[1, 2]".to_string(), "json"),
        (deep, "json"),
        (String::new(), "json"),
        (without("entry_id"), "entry_id"),
        (without("create_time"), "create_time"),
        (with("create_time", json!("вчера")), "create_time"),
        (with("end_time", json!(-1)), "end_time"),
        (with("entry_id", json!("x".repeat(1000))), "entry_id"),
        (with("entry_result", json!("да")), "entry_result"),
        (
            with("call_direction", json!({"in": true})),
            "call_direction",
        ),
    ];
    for (json, field) in cases {
        let answer = s
            .hook("events/summary", signed_form(KEY, SALT, &json))
            .await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {}",
            answer.text()
        );
        assert_eq!(answer.json()["field"], field, "{}", answer.text());
        assert!(!answer.error().is_empty());
    }
    assert_eq!((s.calls(), s.leads().await.len()), (0, 0));
    let taken = s.hook("events/summary", event(&good)).await;
    assert_eq!(taken.status, StatusCode::OK, "{}", taken.text());
    assert_eq!(s.calls(), 1);
}

fn client(config: &MangoConfig) -> Mango {
    Mango::new(config, reqwest::Client::new(), Patience::brief()).unwrap()
}

#[tokio::test]
async fn the_callback_command_reaches_the_pbx_signed_and_its_failures_are_told() {
    let fake = FakeMango::start(State::default()).await;
    let secrets = Secrets::new();
    let config = secrets.mango(&fake, SALT);
    let mango = client(&config);

    // Success: the extension rung first, then the visitor, from our line.
    let id = mango.callback("102", "+79991234567").await.unwrap();
    let sent = fake.with(|f| f.commands("/commands/callback"));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["command_id"], id.as_str());
    assert_eq!(sent[0]["from"], json!({"extension": "102"}));
    assert_eq!(sent[0]["to_number"], "79991234567");
    assert_eq!(sent[0]["line_number"], LINE);

    // A manager's own phone: rung on behalf of the default extension.
    mango
        .callback("+7 916 000-11-22", "89991234567")
        .await
        .unwrap();
    let sent = fake.with(|f| f.commands("/commands/callback"));
    assert_eq!(
        sent[1]["from"],
        json!({"extension": "101", "number": "79160001122"})
    );
    assert_eq!(sent[1]["to_number"], "79991234567");

    // The PBX refuses: its code and what it means.
    fake.with(|f| f.callback_result = 3330);
    let err = mango.callback("109", "+79991234567").await.unwrap_err();
    assert!(matches!(err, MarketError::Answer(_)), "{err:?}");
    let words = err.to_string();
    assert!(
        words.contains("3330") && words.contains("номер не найден"),
        "{words}"
    );
    fake.with(|f| f.callback_result = 1000);

    // 429 and 5xx are waited out; the command is sent again.
    fake.with(|f| {
        f.faults.push_back(Fault::TooMany { retry_after: 0 });
        f.faults.push_back(Fault::Status(503));
        f.faults.push_back(Fault::Status(500));
    });
    let before = fake.with(|f| f.seen.len());
    mango.callback("101", "+79991234567").await.unwrap();
    assert_eq!(fake.with(|f| f.seen.len()) - before, 4);
    // Down for longer than the patience: unavailable, not a refusal.
    fake.with(|f| {
        for _ in 0..10 {
            f.faults.push_back(Fault::Status(502));
        }
    });
    let err = mango.callback("101", "+79991234567").await.unwrap_err();
    assert!(matches!(err, MarketError::Unavailable(_)), "{err:?}");
    fake.with(|f| f.faults.clear());

    // Keys refused: 401 from the API, or the signature's code.
    fake.with(|f| f.faults.push_back(Fault::Status(401)));
    let err = mango.check().await.unwrap_err();
    assert!(
        matches!(err, MarketError::Unauthorized { status: 401, .. }),
        "{err:?}"
    );
    let wrong_salt = client(&secrets.mango(&fake, "not-the-salt"));
    let err = wrong_salt.check().await.unwrap_err();
    assert!(matches!(err, MarketError::Unauthorized { .. }), "{err:?}");
    assert!(err.to_string().contains("3102"), "{err}");

    // The check lists the PBX's employees.
    let words = mango.check().await.unwrap();
    assert_eq!(words, "Подключено: сотрудников в АТС: 3");
    let mut unknown = secrets.mango(&fake, SALT);
    unknown.default_extension = "555".into();
    let words = client(&unknown).check().await.unwrap();
    assert!(words.contains("добавочного 555 нет"), "{words}");

    // No key file: off, not an error.
    let off = Mango::new(
        &MangoConfig::default(),
        reqwest::Client::new(),
        Patience::brief(),
    );
    assert!(matches!(off, Err(MarketError::NotConfigured(_))));
}

/// Waits (at most five seconds) until the lead's callback is no longer
/// being asked of the PBX; gives its state and detail.
async fn settled(app: &TestApp, lead: &str) -> (String, Option<String>) {
    for _ in 0..250 {
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
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the callback of {lead} is still calling after 5 s");
}

#[tokio::test]
async fn the_sites_callback_form_rings_the_manager_in_hours_and_not_after() {
    let s = salon(|_| {}).await;
    // Open 10:00–19:00 every day.
    let day = json!({"open": "10:00", "close": "19:00"});
    let saved = s
        .app
        .admin_with(
            &s.cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"workSchedule": {"days": vec![day; 7]}})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let form = |phone: &str| json!({"type": "callback", "name": "Иван Петров", "phone": phone, "consent": true});
    let set_pbx = |number: &str| {
        s.app
            .db
            .conn()
            .unwrap()
            .execute(
                "UPDATE users SET pbx_number = ?1 WHERE id = ?2",
                [number, s.anna.as_str()],
            )
            .unwrap();
    };

    // Noon, anna's extension is 102: the PBX rings 102, then the visitor.
    set_pbx("102");
    let answer = s
        .app
        .post_json("/api/leads", &form("+7 (921) 555-12-34"))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let lead = answer.json()["id"].as_str().unwrap().to_string();
    let (state, detail) = settled(&s.app, &lead).await;
    assert_eq!(state, "rung", "{detail:?}");
    let sent = s.fake.with(|f| f.commands("/commands/callback"));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["from"], json!({"extension": "102"}));
    assert_eq!(sent[0]["to_number"], "79215551234");
    let shown = s
        .app
        .admin_with(&s.cookie, Method::GET, &format!("/api/leads/{lead}"), None)
        .await
        .json();
    assert_eq!(shown["callbackState"], "rung");
    assert_eq!(shown["assigneeId"], s.anna.as_str());

    // No PBX number on the manager: the default extension is rung.
    set_pbx("");
    let answer = s.app.post_json("/api/leads", &form("+79215550000")).await;
    let lead = answer.json()["id"].as_str().unwrap().to_string();
    assert_eq!(settled(&s.app, &lead).await.0, "rung");
    let sent = s.fake.with(|f| f.commands("/commands/callback"));
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1]["from"], json!({"extension": "101"}));
    assert_eq!(sent[1]["to_number"], "79215550000");

    // The PBX refuses: the lead says so, with the PBX's words.
    s.fake.with(|f| f.callback_result = 4200);
    let answer = s.app.post_json("/api/leads", &form("+79215550001")).await;
    let lead = answer.json()["id"].as_str().unwrap().to_string();
    let (state, detail) = settled(&s.app, &lead).await;
    assert_eq!(state, "failed");
    assert!(
        detail.as_deref().unwrap_or("").contains("4200"),
        "{detail:?}"
    );
    s.fake.with(|f| f.callback_result = 1000);

    // 20:00, closed: nothing rings; the visitor is told when the salon calls.
    let today = s.clock.moscow_today();
    set_clock(&s.clock, msk(today, 20, 0));
    let before = s.fake.with(|f| f.seen.len());
    let answer = s.app.post_json("/api/leads", &form("+79215550002")).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let late = answer.json();
    assert_eq!(late["callbackState"], "out_of_hours");
    assert_eq!(late["callbackDetail"], "завтра в 10:00");
    let lead = late["id"].as_str().unwrap().to_string();
    assert_eq!(settled(&s.app, &lead).await.0, "out_of_hours");
    assert_eq!(s.fake.with(|f| f.seen.len()), before);
}
