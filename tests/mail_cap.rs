//! Mail a stranger can trigger is capped (docs/saved-searches.md, "Mail a
//! stranger can trigger"): at most 3 confirmations per address in any 24
//! hours and the site's daily total (a setting); past them the request is
//! answered as before and nothing is queued; the held mails are counted for
//! the admin; the caps live in the database (a restart keeps them) and hold
//! no address in clear.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use common::scan::anywhere;
use common::{Answer, TestApp};
use dealership::clock::Clock;
use dealership::domain::person_data::{self, Subject};
use dealership::domain::{retention, settings};
use serde_json::{Value, json};

/// An app and its clock.
fn app_with_clock() -> (TestApp, Arc<Clock>) {
    let mut clock = None;
    let app = TestApp::with_state(|state| clock = Some(state.clock.clone()));
    (app, clock.unwrap())
}

/// A request to follow "up to `max_price` rubles" (no brand: the same
/// description in any app).
fn request(email: &str, max_price: i64) -> Value {
    json!({
        "email": email,
        "filter": {"maxPrice": max_price},
        "pageUrl": "/new-cars",
        "consent": true,
        "advertisingConsent": true,
        "website": "",
    })
}

async fn ask(app: &TestApp, body: &Value) -> Answer {
    app.post_json("/api/saved-searches", body).await
}

fn confirmations(app: &TestApp) -> i64 {
    app.count("SELECT count(*) FROM outbox WHERE kind = 'search_confirm'")
}

async fn figures(app: &TestApp) -> Value {
    let answer = app
        .admin(Method::GET, "/api/admin/visitor-mails", None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    answer.json()
}

#[tokio::test]
async fn forty_filters_for_one_address_mail_it_three_times() {
    let (app, clock) = app_with_clock();
    app.create_admin();
    // Another site with no mail sent yet: how an uncapped request is answered.
    let fresh = TestApp::new();
    let victim = "victim@example.ru";
    for i in 0..40 {
        let price = 1_000_000 + i * 10_000;
        // The address in other spellings is the same address.
        let email = match i % 3 {
            0 => victim.to_string(),
            1 => "Victim@Example.RU".to_string(),
            _ => "VICTIM@example.ru".to_string(),
        };
        let capped = ask(&app, &request(&email, price)).await;
        let uncapped = ask(&fresh, &request(&format!("u{i}@example.ru"), price)).await;
        assert_eq!(capped.status, StatusCode::ACCEPTED, "{i}");
        assert_eq!(
            (capped.status, capped.json()),
            (uncapped.status, uncapped.json()),
            "{i}"
        );
        assert_eq!(
            capped.headers.get(header::CONTENT_TYPE),
            uncapped.headers.get(header::CONTENT_TYPE)
        );
    }
    assert_eq!(confirmations(&app), 3);
    assert_eq!(confirmations(&fresh), 40);
    // Each request is stored as asked (a pending subscription), as before.
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_subscriptions"),
        40
    );
    // Only the mailed ones have a confirmation link.
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_tokens WHERE purpose = 'confirm'"),
        3
    );
    assert_eq!(
        figures(&app).await,
        json!({"heldLastDay": 37, "sentLastDay": 3, "dailyLimit": 300, "perAddressLimit": 3})
    );
    // No address in clear in the ledger: only its SHA-256.
    let in_ledger: Vec<String> = anywhere(&app, victim)
        .into_iter()
        .filter(|place| place.starts_with("visitor_mail_ledger"))
        .collect();
    assert_eq!(in_ledger, Vec::<String>::new());
    assert_eq!(
        app.count(
            "SELECT count(DISTINCT address_hash) FROM visitor_mail_ledger
             WHERE length(address_hash) = 64"
        ),
        1
    );

    // Another address is not held up by the victim's cap.
    let other = ask(&app, &request("other@example.ru", 2_000_000)).await;
    assert_eq!(other.status, StatusCode::ACCEPTED);
    assert_eq!(confirmations(&app), 4);

    // A restart: the cap is in the database.
    let mut restarted_clock = None;
    let app = app.restart(|state| restarted_clock = Some(state.clock.clone()));
    drop(clock);
    let clock = restarted_clock.unwrap();
    let after = ask(&app, &request(victim, 3_000_000)).await;
    assert_eq!(after.status, StatusCode::ACCEPTED);
    assert_eq!(confirmations(&app), 4);
    assert_eq!(figures(&app).await["heldLastDay"], 38);

    // 24 hours after the first mails: the address may get mail again, and
    // the old rows are gone from the ledger.
    clock.advance(chrono::Duration::hours(24) + chrono::Duration::minutes(1));
    let next_day = ask(&app, &request(victim, 4_000_000)).await;
    assert_eq!(next_day.status, StatusCode::ACCEPTED);
    assert_eq!(confirmations(&app), 5);
    assert_eq!(
        figures(&app).await,
        json!({"heldLastDay": 0, "sentLastDay": 1, "dailyLimit": 300, "perAddressLimit": 3})
    );
    assert_eq!(app.count("SELECT count(*) FROM visitor_mail_ledger"), 1);
}

#[tokio::test]
async fn the_site_total_holds_and_is_a_bounded_setting() {
    let (app, clock) = app_with_clock();
    app.create_admin();
    let cookie = app.login().await;
    for (body, message) in [
        (
            json!({"visitorMailDailyLimit": 0}),
            "Писем посетителям в сутки — от 1 до 10 000",
        ),
        (
            json!({"visitorMailDailyLimit": 10_001}),
            "Писем посетителям в сутки — от 1 до 10 000",
        ),
        (
            json!({"visitorMailDailyLimit": "много"}),
            "Писем посетителям в сутки — от 1 до 10 000",
        ),
    ] {
        let refused = app
            .admin_with(&cookie, Method::PUT, "/api/settings", Some(body.clone()))
            .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(refused.json()["field"], "visitorMailDailyLimit", "{body}");
        assert_eq!(refused.error(), message, "{body}");
    }
    let settings = app
        .admin_with(&cookie, Method::GET, "/api/admin/settings", None)
        .await
        .json();
    assert_eq!(settings["visitorMailDailyLimit"], 300);
    let saved = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"visitorMailDailyLimit": 5})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert_eq!(saved.json()["visitorMailDailyLimit"], 5);

    // Eight addresses, one request each: five mails, then the site's total.
    for i in 0..8 {
        let answer = ask(&app, &request(&format!("p{i}@example.ru"), 1_000_000)).await;
        assert_eq!(answer.status, StatusCode::ACCEPTED);
        assert_eq!(answer.json()["status"], "confirmation_sent");
    }
    assert_eq!(confirmations(&app), 5);
    let seen = app
        .admin_with(&cookie, Method::GET, "/api/admin/visitor-mails", None)
        .await
        .json();
    assert_eq!(
        seen,
        json!({"heldLastDay": 3, "sentLastDay": 5, "dailyLimit": 5, "perAddressLimit": 3})
    );
    // A second click of a held request later is held again.
    clock.advance(chrono::Duration::minutes(10));
    ask(&app, &request("p7@example.ru", 1_000_000)).await;
    assert_eq!(confirmations(&app), 5);
    // A day later the site mails again.
    clock.advance(chrono::Duration::hours(24));
    ask(&app, &request("p7@example.ru", 1_000_000)).await;
    assert_eq!(confirmations(&app), 6);

    // The figures are the admin's: not for a visitor.
    let anonymous = app.get("/api/admin/visitor-mails").await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn requests_at_once_cannot_all_slip_under_the_cap() {
    let app = TestApp::new();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..24 {
        let router = app.app.clone();
        let body = request("victim@example.ru", 1_000_000 + i * 1_000);
        tasks.spawn(async move {
            let mut request = Request::builder()
                .method(Method::POST)
                .uri("/api/saved-searches")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap();
            let peer: SocketAddr = format!("203.0.113.{}:5000", i + 1).parse().unwrap();
            request.extensions_mut().insert(ConnectInfo(peer));
            tower::ServiceExt::oneshot(router, request)
                .await
                .unwrap()
                .status()
        });
    }
    while let Some(status) = tasks.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::ACCEPTED);
    }
    assert_eq!(confirmations(&app), 3);
    assert_eq!(
        app.count("SELECT count(*) FROM visitor_mail_ledger WHERE held = 1"),
        21
    );
}

#[tokio::test]
async fn erasing_a_person_unlinks_the_ledger_and_keeps_the_figures() {
    let app = TestApp::new();
    app.create_admin();
    for i in 0..5 {
        ask(&app, &request("anna@example.ru", 1_000_000 + i)).await;
    }
    assert_eq!(confirmations(&app), 3);
    let conn = app.db.conn().unwrap();
    let who = Subject {
        phone: None,
        email: Some("anna@example.ru".into()),
    };
    person_data::erase(&conn, &who).unwrap();
    assert_eq!(
        app.count("SELECT count(*) FROM visitor_mail_ledger WHERE address_hash IS NOT NULL"),
        0
    );
    assert_eq!(anywhere(&app, "anna@example.ru"), Vec::<String>::new());
    let seen = figures(&app).await;
    assert_eq!(
        (seen["heldLastDay"].clone(), seen["sentLastDay"].clone()),
        (json!(2), json!(3))
    );
}

#[tokio::test]
async fn the_retention_run_clears_rows_past_the_day() {
    let (app, clock) = app_with_clock();
    ask(&app, &request("anna@example.ru", 1_000_000)).await;
    let conn = app.db.conn().unwrap();
    let settings = settings::get(&conn).unwrap();
    retention::run(&conn, &settings, clock.now(), "").unwrap();
    assert_eq!(app.count("SELECT count(*) FROM visitor_mail_ledger"), 1);
    clock.advance(chrono::Duration::hours(25));
    retention::run(&conn, &settings, clock.now(), "").unwrap();
    assert_eq!(app.count("SELECT count(*) FROM visitor_mail_ledger"), 0);
}
