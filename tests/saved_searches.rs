//! Saved searches with alerts (docs/saved-searches.md): the public form's
//! rules, the double opt-in, alerts on price drops and new cars, the daily
//! cap, unsubscribing, the admin list, and a mail server that is down, with
//! a real SMTP server on loopback (`tests/fixtures/smtp_sink.py`).
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use common::smtp::{SmtpSink, eventually, free_port, mailing_app};
use common::{TestApp, car_input, seed_catalogue};
use dealership::domain::cars;
use dealership::domain::money::Money;
use dealership::http::AppState;
use dealership::jobs::Supervisor;
use serde_json::{Value, json};

/// An app mailing through `127.0.0.1:port`, its jobs (the outbox worker)
/// running, and its state (clock, channels) for the alert run.
fn app_mailing_to(port: u16) -> (TestApp, AppState, Supervisor) {
    mailing_app(port, |app| {
        let conn = app.db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.from_email = "robot@salon.example".into();
        settings.public.salon_name = "Автосалон «Тест»".into();
        // Visitor mails do not follow the staff's switch.
        settings.email_notifications_enabled = false;
        dealership::domain::settings::save(&conn, &settings).unwrap();
    })
}

/// Waits for the sink to hold `n` messages, and a moment more to see no
/// other comes.
async fn mails(sink: &SmtpSink, n: usize) -> Vec<Value> {
    eventually(&format!("{n} mails"), Duration::from_secs(10), || {
        let got = sink.messages();
        (got.len() >= n).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let got = sink.messages();
    assert_eq!(got.len(), n, "{got:#?}");
    got
}

/// The alert run the schedule makes.
async fn run_alerts(state: &AppState) -> usize {
    dealership::notify::saved_search::queue_alerts(
        state.db.clone(),
        state.clock.clone(),
        state.channels.clone(),
        state.wake.clone(),
    )
    .await
    .unwrap()
}

fn request(email: &str, filter: Value) -> Value {
    json!({
        "email": email,
        "filter": filter,
        "pageUrl": "http://localhost:8080/new-cars?brand=haval&price=3000000",
        "consent": true,
        "advertisingConsent": true,
        "website": "",
    })
}

async fn subscribe(app: &TestApp, body: &Value) -> Value {
    let answer = app.post_json("/api/saved-searches", body).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text());
    answer.json()
}

/// The token of a link `…/saved-searches/{page}?token=T` in a text.
fn token_in(text: &str, page: &str) -> String {
    let marker = format!("/saved-searches/{page}?token=");
    let start = text
        .find(&marker)
        .unwrap_or_else(|| panic!("{marker} in {text}"))
        + marker.len();
    text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

fn text_of(mail: &Value) -> String {
    mail["text"].as_str().unwrap().replace("\r\n", "\n")
}

fn set_price(app: &TestApp, slug: &str, rubles: i64) {
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE cars SET price_kopecks = ?2 WHERE slug = ?1",
            rusqlite::params![slug, rubles * 100],
        )
        .unwrap();
}

fn add_car(app: &TestApp, brand: &str, slug: &str, rubles: i64, published: bool) {
    let mut input = car_input(brand, slug);
    input.price = Money::from_rubles(rubles);
    input.published = published;
    cars::create(&app.db.conn().unwrap(), &input, 2026).unwrap();
}

/// A token still in a queued mail's outbox row (`path`: its JSON path).
fn queued_token(app: &TestApp, kind: &str, path: &str) -> String {
    app.db
        .conn()
        .unwrap()
        .query_row(
            &format!(
                "SELECT json_extract(payload, '{path}') FROM outbox WHERE kind = ?1
                 ORDER BY id DESC LIMIT 1"
            ),
            [kind],
            |r| r.get(0),
        )
        .unwrap()
}

#[tokio::test]
async fn every_field_is_checked_and_the_consents_are_recorded() {
    let mut clock = None;
    let app = TestApp::with_state(|state| clock = Some(state.clock.clone()));
    let clock = clock.unwrap();
    let catalogue = seed_catalogue(&app);
    let good = request(
        "Anna@Example.RU",
        json!({"status": "new", "brandId": catalogue.haval, "bodyType": "crossover", "maxPrice": 3_000_000}),
    );
    let with = |change: &dyn Fn(&mut Value)| {
        let mut body = good.clone();
        change(&mut body);
        body
    };
    let long_email = format!("{}@example.ru", "a".repeat(250));
    let long_url = format!("/new-cars?x={}", "a".repeat(2000));
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            with(&|b| b["email"] = json!("")),
            "email",
            "Укажите корректный e-mail",
        ),
        (
            with(&|b| b["email"] = json!("anna@")),
            "email",
            "Укажите корректный e-mail",
        ),
        (
            with(&|b| b["email"] = json!("an na@example.ru")),
            "email",
            "Укажите корректный e-mail",
        ),
        (
            with(&|b| b["email"] = json!(long_email)),
            "email",
            "Поле «E-mail» не должно быть длиннее 255 символов",
        ),
        (
            with(&|b| b["filter"]["status"] = json!("broken")),
            "filter.status",
            "Неизвестное состояние автомобиля",
        ),
        (
            with(&|b| b["filter"]["brandId"] = json!("no-such-brand")),
            "filter.brandId",
            "Такой марки нет в каталоге",
        ),
        (
            with(&|b| b["filter"]["bodyType"] = json!("boat")),
            "filter.bodyType",
            "Неизвестный тип кузова",
        ),
        (
            with(&|b| b["filter"]["maxPrice"] = json!(-1)),
            "filter.maxPrice",
            "Цена — целое число рублей от 0 до 1 000 000 000",
        ),
        (
            with(&|b| b["filter"]["maxPrice"] = json!(1_000_000_001)),
            "filter.maxPrice",
            "Цена — целое число рублей от 0 до 1 000 000 000",
        ),
        (
            with(&|b| b["filter"]["maxPrice"] = json!("дёшево")),
            "filter.maxPrice",
            "Цена — целое число рублей от 0 до 1 000 000 000",
        ),
        (
            with(&|b| b["pageUrl"] = json!("")),
            "pageUrl",
            "Не указана страница каталога",
        ),
        (
            with(&|b| b["pageUrl"] = json!("https://evil.example/new-cars")),
            "pageUrl",
            "Подписаться можно только на страницу каталога этого сайта",
        ),
        (
            with(&|b| b["pageUrl"] = json!("/admin/leads")),
            "pageUrl",
            "Подписаться можно только на страницу каталога этого сайта",
        ),
        (
            with(&|b| b["pageUrl"] = json!(long_url)),
            "pageUrl",
            "Поле «Страница каталога» не должно быть длиннее 2000 символов",
        ),
        (
            with(&|b| b["consent"] = json!(false)),
            "consent",
            "Необходимо согласие на обработку персональных данных",
        ),
        (
            with(&|b| {
                b.as_object_mut().unwrap().remove("advertisingConsent");
            }),
            "advertisingConsent",
            "Необходимо согласие на получение рекламных рассылок",
        ),
    ];
    for (body, field, message) in &cases {
        let answer = app.post_json("/api/saved-searches", body).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer.json()["field"], *field, "{body}");
        assert_eq!(answer.error(), *message, "{body}");
    }
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_subscriptions"),
        0
    );

    // A bot filling the hidden field is answered alike; nothing is stored.
    let bot = with(&|b| b["website"] = json!("http://spam.example"));
    let answer = subscribe(&app, &bot).await;
    assert_eq!(answer["status"], "confirmation_sent");
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_subscriptions"),
        0
    );
    assert_eq!(app.count("SELECT count(*) FROM outbox"), 0);

    let answer = subscribe(&app, &good).await;
    assert_eq!(
        answer,
        json!({"status": "confirmation_sent",
               "description": "Новые · Haval · Кроссовер · до 3 000 000 ₽"})
    );
    let conn = app.db.conn().unwrap();
    let (email, page, version, consent_at, ip, ad, ad_at, confirmed): (
        String,
        String,
        i64,
        String,
        String,
        i64,
        Option<String>,
        Option<String>,
    ) = conn
        .query_row(
            "SELECT email, page_url, consent_version, consent_at, consent_ip,
                advertising_consent, advertising_consent_at, confirmed_at
             FROM saved_search_subscriptions",
            [],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            },
        )
        .unwrap();
    assert_eq!(email, "anna@example.ru");
    assert_eq!(page, "/new-cars?brand=haval&price=3000000");
    let settings = dealership::domain::settings::get(&conn).unwrap();
    assert_eq!(version, settings.public.consent_version);
    assert!(consent_at.ends_with('Z'), "{consent_at}");
    assert_eq!(ip, "203.0.113.7");
    assert_eq!(ad, 1);
    assert_eq!(ad_at.as_deref(), Some(consent_at.as_str()));
    assert_eq!(confirmed, None);
    // The confirmation is queued, to the visitor only, with a token whose
    // hash alone is kept.
    let (kind, channel, lead): (String, String, Option<String>) = conn
        .query_row("SELECT kind, channel, lead_id FROM outbox", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(
        (kind.as_str(), channel.as_str(), lead),
        ("search_confirm", "email", None)
    );
    let token = queued_token(&app, "search_confirm", "$.token");
    assert_eq!(
        app.count(&format!(
            "SELECT count(*) FROM saved_search_tokens WHERE token_hash = '{token}'"
        )),
        0
    );
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_tokens WHERE purpose = 'confirm'"),
        1
    );

    // The same address and filter again (a second click): the same answer,
    // no second mail.
    let again = subscribe(&app, &good).await;
    assert_eq!(again, answer);
    assert_eq!(app.count("SELECT count(*) FROM outbox"), 1);
    assert_eq!(app.count("SELECT count(*) FROM saved_searches"), 1);
    // Later, still unconfirmed: a new confirmation, with the consent given
    // now; the first link is void.
    clock.advance(chrono::Duration::minutes(6));
    assert_eq!(subscribe(&app, &good).await, answer);
    assert_eq!(app.count("SELECT count(*) FROM outbox"), 2);
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_subscriptions"),
        1
    );
    let renewed: String = conn
        .query_row(
            "SELECT consent_at FROM saved_search_subscriptions",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(renewed > consent_at, "{renewed} after {consent_at}");
    let old = app
        .post_json("/api/saved-searches/confirm", &json!({"token": token}))
        .await;
    assert_eq!(old.status, StatusCode::NOT_FOUND);
    let new = queued_token(&app, "search_confirm", "$.token");
    let confirmed = app
        .post_json("/api/saved-searches/confirm", &json!({"token": new}))
        .await;
    assert_eq!(confirmed.status, StatusCode::OK);
    // Following: asking again sends nothing, and says the same.
    clock.advance(chrono::Duration::minutes(6));
    assert_eq!(subscribe(&app, &good).await, answer);
    assert_eq!(app.count("SELECT count(*) FROM outbox"), 2);
    // The confirmation link expires after 7 days.
    let other = request("late@example.ru", json!({}));
    subscribe(&app, &other).await;
    let late = queued_token(&app, "search_confirm", "$.token");
    clock.advance(chrono::Duration::days(7) + chrono::Duration::minutes(1));
    let expired = app
        .post_json("/api/saved-searches/confirm", &json!({"token": late}))
        .await;
    assert_eq!(expired.status, StatusCode::NOT_FOUND);
    assert_eq!(expired.error(), "Ссылка недействительна или устарела");
}

#[tokio::test]
async fn the_form_is_rate_limited_like_leads() {
    let app = TestApp::with_config(|c| c.leads.rate_limit_per_minute = 3);
    let body = request("anna@example.ru", json!({}));
    for _ in 0..3 {
        subscribe(&app, &body).await;
    }
    let answer = app.post_json("/api/saved-searches", &body).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        answer.error(),
        "Слишком много запросов с вашего адреса. Пожалуйста, подождите минуту и попробуйте снова."
    );
    // Another address is not held up, nor are the leads.
    let other = app
        .post_json_from("/api/saved-searches", &body, "198.51.100.4:1000")
        .await;
    assert_eq!(other.status, StatusCode::ACCEPTED);
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "auto_credit", "name": "Анна", "phone": "+79991234567", "consent": true}),
        )
        .await;
    assert_eq!(lead.status, StatusCode::CREATED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_opt_in_then_an_alert_on_a_drop_and_a_new_car() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, state, jobs) = app_mailing_to(sink.port);
    let catalogue = seed_catalogue(&app);
    // New Haval cars up to 3 mln: haval-jolion-0 (2.1) and -1 (2.5).
    let body = request(
        "anna@example.ru",
        json!({"status": "new", "brandId": catalogue.haval, "maxPrice": 3_000_000}),
    );
    let answer = subscribe(&app, &body).await;
    assert_eq!(answer["description"], "Новые · Haval · до 3 000 000 ₽");
    let confirmation = mails(&sink, 1).await.remove(0);
    assert_eq!(confirmation["rcpt_tos"], json!(["anna@example.ru"]));
    assert!(
        confirmation["from"]
            .as_str()
            .unwrap()
            .contains("robot@salon.example")
    );
    assert_eq!(
        confirmation["subject"],
        "Подтвердите подписку: Новые · Haval · до 3 000 000 ₽"
    );
    let text = text_of(&confirmation);
    assert!(
        text.contains("http://localhost:8080/saved-searches/confirm?token="),
        "{text}"
    );
    assert!(
        text.contains("http://localhost:8080/new-cars?brand=haval&price=3000000"),
        "{text}"
    );
    assert!(
        confirmation["list_unsubscribe"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    let html = confirmation["html"].as_str().unwrap();
    assert!(html.contains("Автосалон «Тест»"), "{html}");
    assert!(html.contains("brand=haval&amp;price=3000000"), "{html}");
    let confirm_token = token_in(&text, "confirm");
    // Once sent, the token is no longer in the outbox row.
    eventually("the token dropped", Duration::from_secs(5), || {
        (app.count(
            "SELECT count(*) FROM outbox WHERE json_extract(payload, '$.token') IS NOT NULL",
        ) == 0)
            .then_some(())
    })
    .await;

    // Nothing is sent before the address is confirmed.
    set_price(&app, "haval-jolion-0", 2_000_000);
    assert_eq!(run_alerts(&state).await, 0);

    let wrong = app
        .post_json("/api/saved-searches/confirm", &json!({"token": "nope"}))
        .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);
    assert_eq!(wrong.error(), "Ссылка недействительна или устарела");
    let confirmed = app
        .post_json(
            "/api/saved-searches/confirm",
            &json!({"token": confirm_token}),
        )
        .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    let expected = json!({
        "description": "Новые · Haval · до 3 000 000 ₽",
        "email": "a***@example.ru",
        "pageUrl": "/new-cars?brand=haval&price=3000000",
    });
    assert_eq!(confirmed.json(), expected);
    let again = app
        .post_json(
            "/api/saved-searches/confirm",
            &json!({"token": confirm_token}),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json(), expected);
    // What matched when confirming is what the subscriber has seen (the
    // drop before it included): no alert.
    assert_eq!(run_alerts(&state).await, 0);

    // A drop, a new matching car; a rise, a non-matching car and a draft.
    set_price(&app, "haval-jolion-1", 2_300_000);
    set_price(&app, "haval-jolion-0", 2_050_000);
    add_car(
        &app,
        &catalogue.haval,
        "haval-jolion-fresh",
        2_200_000,
        true,
    );
    add_car(
        &app,
        &catalogue.haval,
        "haval-jolion-draft",
        2_100_000,
        false,
    );
    add_car(&app, &catalogue.lada, "lada-new-cheap", 1_000_000, true);
    add_car(&app, &catalogue.haval, "haval-jolion-dear", 3_500_000, true);
    assert_eq!(run_alerts(&state).await, 1);
    let alert = mails(&sink, 2).await.remove(1);
    assert_eq!(alert["rcpt_tos"], json!(["anna@example.ru"]));
    assert_eq!(
        alert["subject"],
        "Новое по вашему поиску: Новые · Haval · до 3 000 000 ₽"
    );
    let text = text_of(&alert);
    for expected in [
        "Новинка: Haval Jolion, 2025 — 2 200 000 ₽\n  http://localhost:8080/car/haval-jolion-fresh",
        "Цена снижена: Haval Jolion, 2025 — 2 500 000 ₽ → 2 300 000 ₽\n  http://localhost:8080/car/haval-jolion-1",
        "Все автомобили по поиску: http://localhost:8080/new-cars?brand=haval&price=3000000",
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    for absent in [
        "haval-jolion-0",
        "haval-jolion-draft",
        "lada-new-cheap",
        "haval-jolion-dear",
    ] {
        assert!(!text.contains(absent), "{absent} in {text}");
    }
    let all_token = token_in(
        text.split("Отписаться от всех").nth(1).unwrap(),
        "unsubscribe",
    );
    assert_eq!(
        alert["list_unsubscribe"],
        format!("<http://localhost:8080/api/saved-searches/unsubscribe?token={all_token}>")
    );
    assert_eq!(alert["list_unsubscribe_post"], "List-Unsubscribe=One-Click");
    let html = alert["html"].as_str().unwrap();
    assert!(html.contains("2 500 000 ₽ → 2 300 000 ₽"), "{html}");
    assert!(
        html.contains("href=\"http://localhost:8080/car/haval-jolion-fresh\""),
        "{html}"
    );

    // Told once: the next run finds nothing new even a day later.
    state.clock.advance(chrono::Duration::days(2));
    assert_eq!(run_alerts(&state).await, 0);
    drop(jobs);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_most_one_alert_a_day_per_address_listing_every_search() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, state, jobs) = app_mailing_to(sink.port);
    let catalogue = seed_catalogue(&app);
    let mut lada = request("ivan@example.com", json!({"brandId": catalogue.lada}));
    lada["pageUrl"] = json!("/new-cars?brand=lada");
    subscribe(
        &app,
        &request("ivan@example.com", json!({"brandId": catalogue.haval})),
    )
    .await;
    subscribe(&app, &lada).await;
    for mail in mails(&sink, 2).await {
        let confirmed = app
            .post_json(
                "/api/saved-searches/confirm",
                &json!({"token": token_in(&text_of(&mail), "confirm")}),
            )
            .await;
        assert_eq!(confirmed.status, StatusCode::OK);
    }

    // Changes in both searches: one mail with both.
    set_price(&app, "haval-f7-used", 1_700_000);
    set_price(&app, "lada-vesta-sw", 1_150_000);
    assert_eq!(run_alerts(&state).await, 1);
    let first = mails(&sink, 3).await.remove(2);
    assert_eq!(first["subject"], "Новое по вашим поискам (2)");
    let text = text_of(&first);
    assert!(text.contains("\nHaval\n"), "{text}");
    assert!(text.contains("\nLada\n"), "{text}");
    assert!(text.contains("1 750 000,50 ₽ → 1 700 000 ₽"), "{text}");
    assert!(text.contains("Haval F7, 2021"), "{text}");
    assert!(text.contains("1 200 000 ₽ → 1 150 000 ₽"), "{text}");

    // Another change the same day waits.
    state.clock.advance(chrono::Duration::hours(5));
    add_car(&app, &catalogue.haval, "haval-later", 2_600_000, true);
    assert_eq!(run_alerts(&state).await, 0);
    state.clock.advance(chrono::Duration::hours(18));
    assert_eq!(run_alerts(&state).await, 0);
    mails(&sink, 3).await;
    // A day after the last mail it goes, with only what is new.
    state
        .clock
        .advance(chrono::Duration::hours(1) + chrono::Duration::minutes(1));
    assert_eq!(run_alerts(&state).await, 1);
    let second = mails(&sink, 4).await.remove(3);
    assert_eq!(second["subject"], "Новое по вашему поиску: Haval");
    let text = text_of(&second);
    assert!(
        text.contains("Новинка: Haval Jolion, 2025 — 2 600 000 ₽"),
        "{text}"
    );
    // Not "F7" alone: a random link token may hold those two letters.
    assert!(!text.contains("Haval F7"), "{text}");
    assert!(!text.contains("\nLada\n"), "{text}");
    drop(jobs);
}

async fn one_click(app: &TestApp, token: &str) -> common::Answer {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/saved-searches/unsubscribe?token={token}"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from("List-Unsubscribe=One-Click"))
        .unwrap();
    let peer: std::net::SocketAddr = "198.51.100.9:25".parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    app.send(request).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsubscribing_by_link_or_one_click_stops_the_mails() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, state, jobs) = app_mailing_to(sink.port);
    let catalogue = seed_catalogue(&app);
    let filter = json!({"brandId": catalogue.haval});
    subscribe(&app, &request("anna@example.ru", filter.clone())).await;
    subscribe(&app, &request("boris@example.com", filter)).await;
    let mut first_links = Vec::new();
    for mail in mails(&sink, 2).await {
        let token = token_in(&text_of(&mail), "confirm");
        let answer = app
            .post_json("/api/saved-searches/confirm", &json!({"token": token}))
            .await;
        assert_eq!(answer.status, StatusCode::OK);
        first_links.push(token);
    }
    set_price(&app, "haval-jolion-2", 3_800_000);
    assert_eq!(run_alerts(&state).await, 2);
    let alerts = mails(&sink, 4).await;
    let to = |who: &str| {
        alerts[2..]
            .iter()
            .find(|m| m["rcpt_tos"][0] == who)
            .map(text_of)
            .unwrap()
    };
    // Anna follows the link of the search (the page posts its token).
    let anna = token_in(
        to("anna@example.ru").split("этого поиска").nth(1).unwrap(),
        "unsubscribe",
    );
    let answer = app
        .post_json("/api/saved-searches/unsubscribe", &json!({"token": anna}))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let expected = json!({"description": "Haval", "email": "a***@example.ru"});
    assert_eq!(answer.json(), expected);
    let again = app
        .post_json("/api/saved-searches/unsubscribe", &json!({"token": anna}))
        .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json(), expected);
    // Boris's mail program posts the List-Unsubscribe one-click.
    let boris = token_in(
        to("boris@example.com").split("от всех").nth(1).unwrap(),
        "unsubscribe",
    );
    let answer = one_click(&app, &boris).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(
        answer.json(),
        json!({"description": "Haval", "email": "b***@example.com"})
    );
    assert_eq!(one_click(&app, &boris).await.status, StatusCode::OK);

    for bad in [
        app.post_json(
            "/api/saved-searches/unsubscribe",
            &json!({"token": "unknown"}),
        )
        .await,
        app.post_json("/api/saved-searches/unsubscribe", &json!({}))
            .await,
        one_click(&app, "unknown").await,
    ] {
        assert_eq!(bad.status, StatusCode::NOT_FOUND);
        assert_eq!(bad.error(), "Ссылка недействительна или устарела");
    }
    // An unsubscribe token confirms nothing.
    let wrong = app
        .post_json("/api/saved-searches/confirm", &json!({"token": boris}))
        .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);

    state.clock.advance(chrono::Duration::days(2));
    set_price(&app, "haval-jolion-2", 3_700_000);
    add_car(&app, &catalogue.haval, "haval-after", 2_000_000, true);
    assert_eq!(run_alerts(&state).await, 0);
    mails(&sink, 4).await;
    assert_eq!(
        app.count(
            "SELECT count(*) FROM saved_search_subscriptions WHERE unsubscribed_at IS NOT NULL"
        ),
        2
    );
    // What they had seen is forgotten with them.
    assert_eq!(app.count("SELECT count(*) FROM saved_search_seen"), 0);

    // Asking again starts over: pending, a new confirmation.
    subscribe(
        &app,
        &request("anna@example.ru", json!({"brandId": catalogue.haval})),
    )
    .await;
    let mail = mails(&sink, 5).await.remove(4);
    assert!(
        mail["subject"]
            .as_str()
            .unwrap()
            .starts_with("Подтвердите подписку")
    );
    // Only the new link confirms it: the old ones were for the old consent.
    for old in &first_links {
        let answer = app
            .post_json("/api/saved-searches/confirm", &json!({"token": old}))
            .await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND);
    }
    let answer = app
        .post_json(
            "/api/saved-searches/confirm",
            &json!({"token": token_in(&text_of(&mail), "confirm")}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    drop(jobs);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_that_is_down_loses_nothing() {
    let port = free_port();
    let (app, state, jobs) = app_mailing_to(port);
    let catalogue = seed_catalogue(&app);
    let filter = json!({"status": "new", "brandId": catalogue.haval});
    subscribe(&app, &request("anna@example.ru", filter.clone())).await;
    let anna = queued_token(&app, "search_confirm", "$.token");
    subscribe(&app, &request("boris@example.com", filter)).await;
    let boris = queued_token(&app, "search_confirm", "$.token");
    for token in [&anna, &boris] {
        let answer = app
            .post_json("/api/saved-searches/confirm", &json!({"token": token}))
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    }
    set_price(&app, "haval-jolion-0", 2_000_000);
    assert_eq!(run_alerts(&state).await, 2);
    // Boris unsubscribes (by the link of his queued alert) before it goes.
    let boris_all: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT json_extract(payload, '$.unsubscribeAllToken') FROM outbox
             WHERE kind = 'search_alert' AND json_extract(payload, '$.email') = 'boris@example.com'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(one_click(&app, &boris_all).await.status, StatusCode::OK);
    // Tries fail while nothing listens; the alerts stay queued.
    eventually("failed tries", Duration::from_secs(10), || {
        (app.count(
            "SELECT count(*) FROM outbox WHERE kind = 'search_alert' AND status = 'pending'
             AND attempts > 0 AND last_error IS NOT NULL",
        ) >= 1)
            .then_some(())
    })
    .await;

    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(port, sink_dir.path());
    // Only Anna's alert goes: the confirmations are of confirmed addresses,
    // and Boris left.
    let mail = mails(&sink, 1).await.remove(0);
    assert_eq!(mail["rcpt_tos"], json!(["anna@example.ru"]));
    assert!(text_of(&mail).contains("2 100 000 ₽ → 2 000 000 ₽"));
    eventually("every row settled", Duration::from_secs(10), || {
        (app.count("SELECT count(*) FROM outbox WHERE status = 'pending'") == 0).then_some(())
    })
    .await;
    assert_eq!(
        app.count("SELECT count(*) FROM outbox WHERE status = 'sent'"),
        1
    );
    // The confirmations of confirmed addresses and Boris's alert had
    // nothing left to deliver: they are dropped, not shown to the staff as
    // failed deliveries.
    assert_eq!(app.count("SELECT count(*) FROM outbox"), 1);
    assert_eq!(
        app.count("SELECT count(*) FROM outbox WHERE status = 'failed'"),
        0
    );
    drop(jobs);
}

#[tokio::test]
async fn admins_see_who_follows_what() {
    let app = TestApp::new();
    app.create_admin();
    let catalogue = seed_catalogue(&app);
    let anonymous = app.get("/api/admin/saved-searches").await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    let haval = json!({"status": "new", "brandId": catalogue.haval});
    for email in ["a@example.ru", "b@example.ru", "c@example.ru"] {
        subscribe(&app, &request(email, haval.clone())).await;
    }
    subscribe(&app, &request("d@example.ru", json!({"bodyType": "wagon"}))).await;
    subscribe(
        &app,
        &request("e@example.ru", json!({"maxPrice": 1_000_000})),
    )
    .await;
    let tokens: Vec<(String, String)> = app
        .db
        .conn()
        .unwrap()
        .prepare(
            "SELECT s.email, json_extract(o.payload, '$.token') FROM outbox o
             JOIN saved_search_subscriptions s ON s.id = json_extract(o.payload, '$.subscriptionId')",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let token = |who: &str| tokens.iter().find(|(e, _)| e == who).unwrap().1.clone();
    for who in ["a@example.ru", "b@example.ru", "e@example.ru"] {
        let answer = app
            .post_json("/api/saved-searches/confirm", &json!({"token": token(who)}))
            .await;
        assert_eq!(answer.status, StatusCode::OK);
    }
    // E leaves: the filter has no one left.
    let e_id: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT id FROM saved_search_subscriptions WHERE email = 'e@example.ru'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE saved_search_subscriptions SET unsubscribed_at = '2026-01-01T00:00:00.000Z'
             WHERE id = ?1",
            [e_id],
        )
        .unwrap();

    let answer = app
        .admin(Method::GET, "/api/admin/saved-searches", None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.headers[header::CACHE_CONTROL], "no-store");
    let list = answer.json();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2, "{list:#?}");
    let first = &list[0];
    assert_eq!(first["description"], "Новые · Haval");
    assert_eq!(
        first["filter"],
        json!({"status": "new", "brandId": catalogue.haval})
    );
    assert_eq!(first["pageUrl"], "/new-cars?brand=haval&price=3000000");
    assert_eq!(
        (first["followers"].clone(), first["pending"].clone()),
        (json!(2), json!(1))
    );
    let subscribers = first["subscribers"].as_array().unwrap();
    let mut emails: Vec<&str> = subscribers
        .iter()
        .map(|s| s["email"].as_str().unwrap())
        .collect();
    emails.sort();
    assert_eq!(emails, ["a@example.ru", "b@example.ru", "c@example.ru"]);
    let c = subscribers
        .iter()
        .find(|s| s["email"] == "c@example.ru")
        .unwrap();
    assert_eq!(c["confirmedAt"], Value::Null);
    assert_eq!(c["lastAlertAt"], Value::Null);
    assert!(c["createdAt"].as_str().unwrap().ends_with('Z'));
    let a = subscribers
        .iter()
        .find(|s| s["email"] == "a@example.ru")
        .unwrap();
    assert!(a["confirmedAt"].is_string());
    let second = &list[1];
    assert_eq!(second["description"], "Универсал");
    assert_eq!(
        (second["followers"].clone(), second["pending"].clone()),
        (json!(0), json!(1))
    );
    // The addresses never reach a public answer.
    let public = app.get("/api/settings").await;
    assert!(!public.text().contains("example.ru"));
}

#[tokio::test]
async fn the_link_pages_are_shells_not_indexed() {
    let app = TestApp::new();
    for (path, title) in [
        (
            "/saved-searches/confirm?token=SECRET123",
            "Подтверждение подписки",
        ),
        (
            "/saved-searches/unsubscribe?token=SECRET123",
            "Отписка от рассылки",
        ),
    ] {
        let page = app.get(path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        let html = page.text();
        assert!(html.contains(&format!("<title>{title} — ")), "{html}");
        assert!(html.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"));
        assert!(!html.contains("rel=\"canonical\""));
        assert!(
            !html.contains("SECRET123"),
            "the token stays out of the page"
        );
    }
}
