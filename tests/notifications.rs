//! Lead notifications on real protocols over loopback: a real SMTP server
//! (Debian's python3-aiosmtpd, `tests/fixtures/smtp_sink.py`), a fake
//! Telegram Bot API and a fake amoCRM (axum), with the outbox worker.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::routing::{get, post};
use common::smtp::{SmtpSink, eventually, free_port};
use common::{TestApp, seed_catalogue};
use dealership::config::Config;
use dealership::http::AppState;
use dealership::jobs::Supervisor;
use serde_json::{Value, json};

/// An app whose config `change` sets, with its outbox worker running.
fn app_with(change: impl FnOnce(&mut Config)) -> (TestApp, Supervisor) {
    let mut captured = None;
    let app = TestApp::with_state(|state| {
        let mut config = (*state.config).clone();
        config.notifications.retry_first_ms = 200;
        config.notifications.retry_max_seconds = 1;
        config.notifications.attempt_timeout_seconds = 5;
        change(&mut config);
        state.config = Arc::new(config);
        state.channels = Arc::new(dealership::notify::Channels::new(
            state.config.clone(),
            state.db.clone(),
        ));
        captured = Some(state.clone());
    });
    let state: AppState = captured.unwrap();
    let jobs = dealership::server::start_jobs(&state);
    (app, jobs)
}

fn smtp_on(port: u16) -> impl FnOnce(&mut Config) {
    move |config: &mut Config| {
        config.smtp.host = "127.0.0.1".into();
        config.smtp.port = port;
        config.smtp.security = "none".into();
    }
}

fn set_email_settings(app: &TestApp, to: &str) {
    let conn = app.db.conn().unwrap();
    let mut settings = dealership::domain::settings::get(&conn).unwrap();
    settings.notification_email = to.into();
    settings.from_email = "robot@salon.example".into();
    settings.public.salon_name = "Автосалон «Тест»".into();
    dealership::domain::settings::save(&conn, &settings).unwrap();
}

fn lead_body(name: &str) -> Value {
    json!({
        "type": "auto_credit",
        "name": name,
        "phone": "8 (999) 123-45-67",
        "consent": true,
    })
}

async fn post_lead(app: &TestApp, body: &Value) -> String {
    let answer = app.post_json("/api/leads", body).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    answer.json()["id"].as_str().unwrap().to_string()
}

async fn deliveries(app: &TestApp, cookie: &str, lead: &str) -> Vec<Value> {
    let answer = app
        .admin_with(
            cookie,
            Method::GET,
            &format!("/api/admin/leads/{lead}/deliveries"),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    answer.json().as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lead_is_mailed_with_everything_it_holds() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, jobs) = app_with(smtp_on(sink.port));
    app.create_admin();
    set_email_settings(&app, "sales@salon.example, boss@salon.example");
    seed_catalogue(&app);
    let car_id: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT id FROM cars WHERE slug = 'haval-jolion-1'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let started = Instant::now();
    let lead = post_lead(
        &app,
        &json!({
            "type": "trade_in",
            "name": "Иван <script>alert(1)</script>",
            "phone": "+7 999 123-45-67",
            "email": "ivan@example.ru",
            "message": "Хочу обменять\nмашину & доплатить",
            "carBrand": "Lada",
            "carModel": "Granta",
            "carYear": 2015,
            "carMileage": 120000,
            "carId": car_id,
            "carInfo": "Haval Jolion",
            "carPrice": "2 500 000 ₽",
            "carStatus": "new",
            "sourceUrl": "https://salon.example/car/haval-jolion-1",
            "utmSource": "yandex",
            "utmCampaign": "autumn",
            "consent": true,
        }),
    )
    .await;
    let mail = eventually("the mail", Duration::from_secs(10), || {
        sink.messages().into_iter().next()
    })
    .await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        mail["subject"],
        "Новая заявка: Трейд-ин — Иван <script>alert(1)</script>"
    );
    assert_eq!(
        mail["rcpt_tos"],
        json!(["sales@salon.example", "boss@salon.example"])
    );
    assert!(
        mail["from"]
            .as_str()
            .unwrap()
            .contains("robot@salon.example")
    );
    assert_eq!(mail["reply_to"], "ivan@example.ru");
    assert!(mail["message_id"].as_str().unwrap().contains(&lead));
    let text = mail["text"].as_str().unwrap().replace("\r\n", "\n");
    for expected in [
        "Тип заявки: Трейд-ин",
        "Статус: Новый",
        "Телефон: +79991234567",
        "E-mail: ivan@example.ru",
        "Хочу обменять\nмашину & доплатить",
        "Марка автомобиля клиента: Lada",
        "Модель автомобиля клиента: Granta",
        "Год выпуска: 2015",
        "Пробег, км: 120000",
        "Автомобиль: Haval Jolion (http://localhost:8080/car/haval-jolion-1)",
        "Цена: 2 500 000 ₽",
        "Статус автомобиля: Новый",
        "Страница заявки: https://salon.example/car/haval-jolion-1",
        "utm_source: yandex",
        "utm_campaign: autumn",
        "(МСК)",
        &format!("http://localhost:8080/admin/leads?lead={lead}"),
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    let html = mail["html"].as_str().unwrap();
    assert!(
        html.contains("Иван &lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(!html.contains("<script>"));
    assert!(html.contains("<a href=\"tel:+79991234567\">+79991234567</a>"));
    assert!(html.contains("<a href=\"mailto:ivan@example.ru\">"));
    assert!(html.contains("машину &amp; доплатить"));
    assert!(html.contains("<a href=\"http://localhost:8080/car/haval-jolion-1\">Haval Jolion</a>"));

    let cookie = app.login().await;
    eventually("the delivery marked sent", Duration::from_secs(5), || {
        let count = app.count("SELECT count(*) FROM outbox WHERE status = 'sent'");
        (count == 1).then_some(())
    })
    .await;
    let list = deliveries(&app, &cookie, &lead).await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["channel"], "email");
    assert_eq!(list[0]["state"], "sent");
    assert!(list[0]["sentAt"].is_string());
    assert_eq!(list[0]["attempts"], 1);
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_channel_no_delivery_and_email_off_queues_nothing() {
    let (app, jobs) = app_with(smtp_on(free_port()));
    // No notification address yet: nothing to send to.
    post_lead(&app, &lead_body("Без адреса")).await;
    set_email_settings(&app, "sales@salon.example");
    let conn = app.db.conn().unwrap();
    let mut settings = dealership::domain::settings::get(&conn).unwrap();
    settings.email_notifications_enabled = false;
    dealership::domain::settings::save(&conn, &settings).unwrap();
    post_lead(&app, &lead_body("Выключено")).await;
    assert_eq!(app.count("SELECT count(*) FROM outbox"), 0);
    settings.email_notifications_enabled = true;
    dealership::domain::settings::save(&conn, &settings).unwrap();
    post_lead(&app, &lead_body("Включено")).await;
    assert_eq!(
        app.count("SELECT count(*) FROM outbox WHERE channel = 'email'"),
        1
    );
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_down_for_a_while_gets_every_mail_once() {
    let port = free_port();
    let (app, jobs) = app_with(smtp_on(port));
    app.create_admin();
    set_email_settings(&app, "sales@salon.example");
    let mut leads = Vec::new();
    for i in 0..6 {
        leads.push(post_lead(&app, &lead_body(&format!("Клиент {i}"))).await);
    }
    // Tries fail while nothing listens; the errors are kept.
    eventually("failed tries", Duration::from_secs(10), || {
        let tried =
            app.count("SELECT count(*) FROM outbox WHERE attempts >= 1 AND last_error IS NOT NULL");
        (tried == 6).then_some(())
    })
    .await;
    let cookie = app.login().await;
    let list = deliveries(&app, &cookie, &leads[0]).await;
    assert_eq!(list[0]["state"], "queued");
    assert!(
        list[0]["lastError"].as_str().unwrap().contains("SMTP"),
        "{list:?}"
    );
    assert!(list[0]["nextAttemptAt"].is_string());

    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(port, sink_dir.path());
    eventually("every mail", Duration::from_secs(15), || {
        (sink.messages().len() >= 6).then_some(())
    })
    .await;
    // Nothing more comes: each mail arrived once.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mails = sink.messages();
    assert_eq!(mails.len(), 6);
    let mut ids: Vec<String> = mails
        .iter()
        .map(|m| m["message_id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6);
    for lead in &leads {
        assert!(ids.iter().any(|id| id.contains(lead.as_str())));
    }
    assert_eq!(
        app.count("SELECT count(*) FROM outbox WHERE status = 'sent'"),
        6
    );
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_given_up_is_visible_and_can_be_retried() {
    let port = free_port();
    let (app, jobs) = app_with(|config| {
        smtp_on(port)(config);
        config.notifications.give_up_after_minutes = 0;
        // The failure pauses the channel for minutes: the admin's retry
        // goes at once all the same.
        config.notifications.retry_first_ms = 300_000;
        config.notifications.retry_max_seconds = 600;
    });
    app.create_admin();
    set_email_settings(&app, "sales@salon.example");
    let lead = post_lead(&app, &lead_body("Потерянный")).await;
    eventually("the delivery given up", Duration::from_secs(10), || {
        (app.count("SELECT count(*) FROM outbox WHERE status = 'failed'") == 1).then_some(())
    })
    .await;
    let cookie = app.login().await;
    let list = deliveries(&app, &cookie, &lead).await;
    assert_eq!(list[0]["state"], "failed");
    assert!(
        list[0]["lastError"].as_str().unwrap().starts_with("SMTP"),
        "{list:?}"
    );
    assert!(list[0]["nextAttemptAt"].is_null());
    let dashboard = app
        .admin_with(&cookie, Method::GET, "/api/admin/dashboard", None)
        .await;
    assert_eq!(dashboard.json()["deliveriesFailed"], 1);
    let failed = app
        .admin_with(&cookie, Method::GET, "/api/admin/deliveries/failed", None)
        .await
        .json();
    assert_eq!(failed["count"], 1);
    assert_eq!(failed["items"][0]["leadId"], lead.as_str());
    assert_eq!(failed["items"][0]["leadName"], "Потерянный");
    assert_eq!(failed["items"][0]["channel"], "email");

    // The server comes back; the admin retries.
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(port, sink_dir.path());
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            &format!("/api/admin/leads/{lead}/deliveries/retry"),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()[0]["state"], "queued");
    eventually("the retried mail", Duration::from_secs(10), || {
        (sink.messages().len() == 1).then_some(())
    })
    .await;
    eventually("sent", Duration::from_secs(5), || {
        (app.count("SELECT count(*) FROM outbox WHERE status = 'sent'") == 1).then_some(())
    })
    .await;
    let unknown = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/leads/nope/deliveries/retry",
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_test_email_goes_at_once() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, jobs) = app_with(smtp_on(sink.port));
    app.create_admin();
    let cookie = app.login().await;
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/settings/test-email",
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer.json()["field"], "notificationEmail");
    set_email_settings(&app, "sales@salon.example");
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/settings/test-email",
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["success"], true);
    let mails = sink.messages();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0]["subject"], "Проверка уведомлений о заявках");
    drop(sink);
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/settings/test-email",
            None,
        )
        .await;
    assert_eq!(answer.json()["success"], false);
    assert!(
        answer.json()["message"]
            .as_str()
            .unwrap()
            .starts_with("Не удалось отправить письмо")
    );
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

/// What a fake HTTP service saw.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<(String, HeaderMap, Value)>>>);

async fn serve_fake(router: axum::Router) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_gets_the_lead_after_a_failure() {
    #[derive(Clone, Default)]
    struct Fake {
        seen: Seen,
        calls: Arc<Mutex<u32>>,
    }
    async fn send_message(
        State(fake): State<Fake>,
        uri: axum::http::Uri,
        headers: HeaderMap,
        Json(body): Json<Value>,
    ) -> (StatusCode, Json<Value>) {
        let call = {
            let mut calls = fake.calls.lock().unwrap();
            *calls += 1;
            *calls
        };
        if call == 1 {
            return (
                StatusCode::BAD_GATEWAY,
                Json(json!({"ok": false, "description": "Bad Gateway"})),
            );
        }
        fake.seen
            .0
            .lock()
            .unwrap()
            .push((uri.path().to_string(), headers, body));
        (
            StatusCode::OK,
            Json(json!({"ok": true, "result": {"message_id": 7}})),
        )
    }
    let fake = Fake::default();
    let port = serve_fake(
        axum::Router::new()
            .route("/{bot}/sendMessage", post(send_message))
            .with_state(fake.clone()),
    )
    .await;
    let (app, jobs) = app_with(|config| {
        config.telegram.bot_token = "123456:SECRET-TOKEN".into();
        config.telegram.chat_id = "-100777".into();
        config.telegram.api_url = format!("http://127.0.0.1:{port}");
    });
    app.create_admin();
    let lead = post_lead(&app, &lead_body("Пётр & Ко")).await;
    eventually("the Telegram message", Duration::from_secs(10), || {
        (fake.seen.0.lock().unwrap().len() == 1).then_some(())
    })
    .await;
    let (path, _, body) = fake.seen.0.lock().unwrap()[0].clone();
    assert_eq!(path, "/bot123456:SECRET-TOKEN/sendMessage");
    assert_eq!(body["chat_id"], "-100777");
    assert_eq!(body["parse_mode"], "HTML");
    let text = body["text"].as_str().unwrap();
    assert!(text.contains("Пётр &amp; Ко"), "{text}");
    assert!(text.contains("+79991234567"));
    assert!(text.contains(&format!("/admin/leads?lead={lead}")));
    let cookie = app.login().await;
    eventually("sent", Duration::from_secs(5), || {
        (app.count("SELECT count(*) FROM outbox WHERE status = 'sent'") == 1).then_some(())
    })
    .await;
    let list = deliveries(&app, &cookie, &lead).await;
    assert_eq!(list[0]["channel"], "telegram");
    assert_eq!(list[0]["attempts"], 2);
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

/// A fake amoCRM: the OAuth token endpoint, the account and leads/complex.
#[derive(Clone, Default)]
struct FakeAmo {
    state: Arc<Mutex<AmoState>>,
}

#[derive(Default)]
struct AmoState {
    /// The access token it accepts now, and the refresh token.
    access: String,
    refresh: String,
    issued: u32,
    refreshes: u32,
    /// leads/complex calls to answer 503 before working.
    fail_next: u32,
    /// leads/complex bodies accepted.
    leads: Vec<Value>,
    next_id: i64,
}

impl FakeAmo {
    fn issue(state: &mut AmoState) -> Value {
        state.issued += 1;
        state.access = format!("access-{}", state.issued);
        state.refresh = format!("refresh-{}", state.issued);
        json!({
            "token_type": "Bearer",
            "expires_in": 86400,
            "access_token": state.access,
            "refresh_token": state.refresh,
        })
    }
}

async fn amo_token(
    State(fake): State<FakeAmo>,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let mut state = fake.state.lock().unwrap();
    if body["client_id"] != "client-1" || body["client_secret"] != "amo-secret-xyz" {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"hint": "bad client"})),
        );
    }
    match body["grant_type"].as_str() {
        Some("authorization_code") if body["code"] == "good-code" => {
            (StatusCode::OK, Json(FakeAmo::issue(&mut state)))
        }
        Some("refresh_token") if body["refresh_token"] == state.refresh.as_str() => {
            state.refreshes += 1;
            (StatusCode::OK, Json(FakeAmo::issue(&mut state)))
        }
        _ => (
            StatusCode::BAD_REQUEST,
            Json(json!({"hint": "Authorization code has been revoked", "status": 400})),
        ),
    }
}

fn amo_authorized(state: &AmoState, headers: &HeaderMap) -> bool {
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| !state.access.is_empty() && v == format!("Bearer {}", state.access))
}

async fn amo_account(State(fake): State<FakeAmo>, headers: HeaderMap) -> (StatusCode, Json<Value>) {
    let state = fake.state.lock().unwrap();
    if !amo_authorized(&state, &headers) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"title": "Unauthorized"})),
        );
    }
    (StatusCode::OK, Json(json!({"id": 1, "name": "Salon"})))
}

async fn amo_complex(
    State(fake): State<FakeAmo>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let mut state = fake.state.lock().unwrap();
    if !amo_authorized(&state, &headers) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"title": "Unauthorized"})),
        );
    }
    if state.fail_next > 0 {
        state.fail_next -= 1;
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"title": "Unavailable"})),
        );
    }
    state.next_id += 1;
    let id = 1000 + state.next_id;
    state.leads.push(body);
    (
        StatusCode::OK,
        Json(
            json!([{"id": id, "contact_id": 5000 + id, "company_id": null, "request_id": ["0"], "merged": false}]),
        ),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn amocrm_authorises_pushes_and_refreshes() {
    let fake = FakeAmo::default();
    let port = serve_fake(
        axum::Router::new()
            .route("/oauth2/access_token", post(amo_token))
            .route("/api/v4/account", get(amo_account))
            .route("/api/v4/leads/complex", post(amo_complex))
            .with_state(fake.clone()),
    )
    .await;
    let (app, jobs) = app_with(|config| {
        config.amocrm.domain = "salon.amocrm.ru".into();
        config.amocrm.client_id = "client-1".into();
        config.amocrm.client_secret = "amo-secret-xyz".into();
        config.amocrm.redirect_uri = "https://salon.example/amocrm".into();
        config.amocrm.api_url = format!("http://127.0.0.1:{port}");
    });
    app.create_admin();
    let cookie = app.login().await;
    let status = app
        .admin_with(&cookie, Method::GET, "/api/admin/amocrm/status", None)
        .await
        .json();
    assert_eq!(status["configured"], true);
    assert_eq!(status["authorized"], false);
    assert_eq!(status["domain"], "salon.amocrm.ru");
    assert_eq!(status["clientId"], "client-1");
    let url = app
        .admin_with(&cookie, Method::GET, "/api/admin/amocrm/auth-url", None)
        .await
        .json();
    assert!(
        url["authUrl"]
            .as_str()
            .unwrap()
            .contains("client_id=client-1")
    );

    // A lead before the authorisation waits in the queue.
    let waiting = post_lead(&app, &lead_body("Ждёт CRM")).await;
    eventually("a failed try", Duration::from_secs(10), || {
        (app.count("SELECT count(*) FROM outbox WHERE last_error LIKE '%не авторизован%'") == 1)
            .then_some(())
    })
    .await;

    // A bad code.
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/amocrm/callback",
            Some(json!({"code": "bad-code"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    let error = answer.error();
    assert!(error.starts_with("Ошибка авторизации"), "{error}");
    assert!(!error.contains("amo-secret-xyz"));
    // The right one, pasted as the whole redirect URL.
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/amocrm/callback",
            Some(json!({"code": "https://salon.example/amocrm?code=good-code&state=1"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["message"], "Успешная авторизация");
    assert!(!answer.text().contains("access-1"));
    let status = app
        .admin_with(&cookie, Method::GET, "/api/admin/amocrm/status", None)
        .await
        .json();
    assert_eq!(status["authorized"], true);

    // The waiting lead goes (the retry pause is short).
    eventually(
        "the waiting lead in amoCRM",
        Duration::from_secs(10),
        || (fake.state.lock().unwrap().leads.len() == 1).then_some(()),
    )
    .await;
    let body = fake.state.lock().unwrap().leads[0].clone();
    assert_eq!(body[0]["name"], "Заявка на автокредит: Ждёт CRM");
    let contact = &body[0]["_embedded"]["contacts"][0];
    assert_eq!(contact["first_name"], "Ждёт CRM");
    assert_eq!(contact["custom_fields_values"][0]["field_code"], "PHONE");
    assert_eq!(
        contact["custom_fields_values"][0]["values"][0]["value"],
        "+79991234567"
    );
    eventually("the amoCRM id kept", Duration::from_secs(5), || {
        let id = app.count(&format!(
            "SELECT coalesce(amocrm_lead_id, 0) FROM leads WHERE id = '{waiting}'"
        ));
        (id == 1001).then_some(())
    })
    .await;

    // The access token expires: refreshed before the call.
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE amocrm_tokens SET expires_at = '2000-01-01T00:00:00.000Z'",
            [],
        )
        .unwrap();
    let mut body = lead_body("После истечения");
    body["email"] = json!("client@example.ru");
    body["utmSource"] = json!("google");
    post_lead(&app, &body).await;
    eventually("the second lead", Duration::from_secs(10), || {
        (fake.state.lock().unwrap().leads.len() == 2).then_some(())
    })
    .await;
    assert_eq!(fake.state.lock().unwrap().refreshes, 1);
    let body = fake.state.lock().unwrap().leads[1].clone();
    assert_eq!(
        body[0]["_embedded"]["contacts"][0]["custom_fields_values"][1]["values"][0]["value"],
        "client@example.ru"
    );
    assert_eq!(
        body[0]["custom_fields_values"][0]["field_code"],
        "UTM_SOURCE"
    );

    // amoCRM revokes the access token: a 401, a refresh, the call again.
    fake.state.lock().unwrap().access = "revoked-elsewhere".into();
    // (The fake accepts the new token it issues on refresh.)
    post_lead(&app, &lead_body("После 401")).await;
    eventually("the third lead", Duration::from_secs(10), || {
        (fake.state.lock().unwrap().leads.len() == 3).then_some(())
    })
    .await;
    assert_eq!(fake.state.lock().unwrap().refreshes, 2);

    // amoCRM fails for a while (5xx), then recovers: one deal per lead.
    fake.state.lock().unwrap().fail_next = 3;
    let flaky = post_lead(&app, &lead_body("После сбоя")).await;
    eventually("the fourth lead", Duration::from_secs(15), || {
        (fake.state.lock().unwrap().leads.len() == 4).then_some(())
    })
    .await;
    eventually("sent", Duration::from_secs(5), || {
        let sent = app.count("SELECT count(*) FROM outbox WHERE status = 'sent'");
        (sent == 4).then_some(())
    })
    .await;
    let list = deliveries(&app, &cookie, &flaky).await;
    assert_eq!(list[0]["channel"], "amocrm");
    assert_eq!(list[0]["state"], "sent");
    assert_eq!(list[0]["attempts"], 4);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(fake.state.lock().unwrap().leads.len(), 4);

    // The admin's test.
    let answer = app
        .admin_with(&cookie, Method::POST, "/api/admin/amocrm/test", None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["success"], true);
    assert_eq!(answer.json()["amoLeadId"], 1005);
    fake.state.lock().unwrap().fail_next = 1;
    let answer = app
        .admin_with(&cookie, Method::POST, "/api/admin/amocrm/test", None)
        .await;
    assert_eq!(answer.json()["success"], false);
    assert!(
        answer.json()["message"]
            .as_str()
            .unwrap()
            .starts_with("Ошибка подключения к серверу")
    );
    // No error stored anywhere holds a secret.
    let leaked = app.count(
        "SELECT count(*) FROM outbox WHERE last_error LIKE '%amo-secret-xyz%'
            OR last_error LIKE '%access-%' OR last_error LIKE '%refresh-%'",
    );
    assert_eq!(leaked, 0);
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_of_a_channel_taken_out_of_the_config_are_given_up() {
    // A delivery queued while Telegram was set up; then its keys were
    // removed and the server started again with no channel at all.
    let mut captured = None;
    let app = TestApp::with_state(|state| {
        state
            .db
            .conn()
            .unwrap()
            .execute(
                "INSERT INTO outbox (channel, lead_id, status, next_attempt_at, created_at,
                    retry_since)
                 VALUES ('telegram', NULL, 'pending', '2026-01-01T00:00:00.000Z',
                    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                [],
            )
            .unwrap();
        captured = Some(state.clone());
    });
    let jobs = dealership::server::start_jobs(&captured.unwrap());
    assert_eq!(
        app.count(
            "SELECT count(*) FROM outbox WHERE status = 'failed'
             AND last_error = 'Telegram не настроен ([telegram])'"
        ),
        1
    );

    // The admin's retry of such a delivery fails again at once, saying why,
    // instead of waiting in the queue for ever.
    app.create_admin();
    let lead = post_lead(&app, &lead_body("Без Telegram")).await;
    assert_eq!(
        app.count("SELECT count(*) FROM outbox"),
        1,
        "no channel, no delivery"
    );
    app.db
        .conn()
        .unwrap()
        .execute(
            "INSERT INTO outbox (channel, lead_id, status, attempts, next_attempt_at, created_at,
                retry_since, last_error)
             VALUES ('telegram', ?1, 'failed', 3, '2026-01-01T00:00:00.000Z',
                '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'Bad Gateway')",
            [&lead],
        )
        .unwrap();
    let cookie = app.login().await;
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            &format!("/api/admin/leads/{lead}/deliveries/retry"),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let list = answer.json();
    assert_eq!(list[0]["state"], "failed", "{list}");
    assert_eq!(list[0]["lastError"], "Telegram не настроен ([telegram])");
    assert!(jobs.stop(Duration::from_secs(5)).await);
}
