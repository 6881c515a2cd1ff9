//! The withdrawal page of the mails without JavaScript
//! (`docs/personal-data.md`, "Withdrawing by a link"): the page says at once
//! whether its link works, and its form, sent as a plain form
//! (`POST /personal-data/forget`), withdraws and answers a drawn page, under
//! the JSON call's limits.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use common::{Answer, TestApp};
use dealership::domain::{settings, withdrawal};
use serde_json::json;

const EMAIL: &str = "Vera.Forget@example.ru";
const MASKED: &str = "V***@example.ru";
const PHONE: &str = "+7 (812) 555-01-02";
const SALON_EMAIL: &str = "privacy@salon.example";
const INVALID: &str = "Ссылка недействительна или устарела";
const BUTTON: &str = "Отозвать согласие и удалить данные";

/// A site with its phone and e-mail set, a lead from `EMAIL` and a mail's
/// withdrawal token for it.
async fn site(change: impl FnOnce(&mut dealership::config::Config)) -> (TestApp, String) {
    let app = TestApp::with_config(change);
    let token = {
        let conn = app.db.conn().unwrap();
        let mut s = settings::get(&conn).unwrap();
        s.public.phone = PHONE.into();
        s.public.email = SALON_EMAIL.into();
        settings::save(&conn, &s).unwrap();
        withdrawal::issue(&conn, EMAIL, "2026-11-28T10:00:00Z").unwrap()
    };
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": "Вера Отзывающая",
                    "phone": "89213334455", "email": EMAIL, "consent": true}),
        )
        .await;
    assert_eq!(lead.status, StatusCode::CREATED, "{}", lead.text());
    (app, token)
}

/// The page's form sent as a browser without JavaScript sends it.
async fn send_form(app: &TestApp, body: &str, peer: &str) -> Answer {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri("/personal-data/forget")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body.to_string()))
        .unwrap();
    let peer: SocketAddr = peer.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    app.send(request).await
}

fn leads_of_vera(app: &TestApp) -> i64 {
    app.count("SELECT count(*) FROM leads WHERE name = 'Вера Отзывающая'")
}

/// The page's text says the link does not work and names the other way.
fn says_invalid_with_the_other_way(page: &Answer) {
    let html = page.text();
    assert!(html.contains(INVALID), "{html}");
    assert!(html.contains(&format!("mailto:{SALON_EMAIL}")), "{html}");
    assert!(html.contains("tel:+78125550102"), "{html}");
    assert!(!html.contains(BUTTON), "no button to press: {html}");
}

#[tokio::test]
async fn the_page_says_when_it_opens_whether_its_link_works() {
    let (app, token) = site(|_| {}).await;
    for path in [
        "/personal-data/forget?token=guessed".to_string(),
        "/personal-data/forget".to_string(),
    ] {
        let page = app.get(&path).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}");
        says_invalid_with_the_other_way(&page);
        assert!(page.text().contains("noindex"));
    }

    let page = app
        .get(&format!("/personal-data/forget?token={token}"))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains(BUTTON), "{html}");
    assert!(
        html.contains(r#"<form method="post" action="/personal-data/forget">"#),
        "a plain form: {html}"
    );
    assert!(
        html.contains(&format!(r#"name="token" value="{token}""#)),
        "{html}"
    );
    assert!(html.contains(MASKED), "the address it is about: {html}");
    assert!(!html.contains(INVALID));
    assert_eq!(page.headers[header::CACHE_CONTROL], "no-store");
    // Opening the link changed nothing (mail scanners open links).
    assert_eq!(leads_of_vera(&app), 1);
    assert_eq!(app.count("SELECT count(*) FROM forget_tokens"), 1);
}

#[tokio::test]
async fn the_form_withdraws_and_answers_a_page_saying_what_was_done() {
    let (app, token) = site(|_| {}).await;
    let done = send_form(&app, &format!("token={token}"), "203.0.113.7:5000").await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text());
    let html = done.text();
    assert!(html.contains("Ваши данные удалены"), "{html}");
    assert!(html.contains("Согласие на обработку персональных данных отозвано"));
    assert!(html.contains(MASKED), "{html}");
    assert_eq!(done.headers[header::CACHE_CONTROL], "no-store");
    assert_eq!(leads_of_vera(&app), 0);
    assert_eq!(app.count("SELECT count(*) FROM forget_tokens"), 0);
    assert_eq!(
        app.count(
            "SELECT count(*) FROM data_requests WHERE kind = 'withdrawal' AND outcome = 'erased'"
        ),
        1
    );
    assert_eq!(
        app.count("SELECT count(*) FROM destruction_acts WHERE reason = 'withdrawal'"),
        1
    );

    // The link is spent: sent again (a reload), and opened again.
    let again = send_form(&app, &format!("token={token}"), "203.0.113.7:5000").await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    says_invalid_with_the_other_way(&again);
    let opened = app
        .get(&format!("/personal-data/forget?token={token}"))
        .await;
    assert_eq!(opened.status, StatusCode::NOT_FOUND);
    says_invalid_with_the_other_way(&opened);
    assert_eq!(
        app.count("SELECT count(*) FROM data_requests WHERE kind = 'withdrawal'"),
        1
    );
}

#[tokio::test]
async fn a_bad_token_sent_by_the_form_erases_nothing() {
    let (app, token) = site(|_| {}).await;
    for body in ["token=guessed", "", "token=", "something=else", "%ZZ"] {
        let refused = send_form(&app, body, "203.0.113.7:5000").await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND, "{body}");
        says_invalid_with_the_other_way(&refused);
    }
    // A token with a neighbour's prefix or padding is not the token.
    let near = send_form(&app, &format!("token={token}x"), "203.0.113.8:5000").await;
    assert_eq!(near.status, StatusCode::NOT_FOUND);
    assert_eq!(leads_of_vera(&app), 1);
    assert_eq!(app.count("SELECT count(*) FROM forget_tokens"), 1);
    assert_eq!(app.count("SELECT count(*) FROM data_requests"), 0);
}

#[tokio::test]
async fn the_form_and_the_json_call_share_one_limit_per_client() {
    let (app, token) = site(|c| c.leads.rate_limit_per_minute = 2).await;
    let peer = "203.0.113.7:5000";
    let json = app
        .post_json_from(
            "/api/personal-data/forget",
            &json!({"token": "guessed"}),
            peer,
        )
        .await;
    assert_eq!(json.status, StatusCode::NOT_FOUND);
    let form = send_form(&app, "token=guessed", peer).await;
    assert_eq!(form.status, StatusCode::NOT_FOUND);

    // The third from that client: refused, the real link kept to send again.
    let refused = send_form(&app, &format!("token={token}"), peer).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = refused.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let html = refused.text();
    assert!(
        html.contains(
            "Слишком много запросов с вашего адреса. Пожалуйста, подождите минуту и попробуйте снова."
        ),
        "{html}"
    );
    assert!(html.contains(">Повторить<"), "{html}");
    assert!(
        html.contains(&format!(r#"name="token" value="{token}""#)),
        "the form to send again: {html}"
    );
    assert_eq!(leads_of_vera(&app), 1, "nothing erased past the limit");
    let json = app
        .post_json_from("/api/personal-data/forget", &json!({"token": token}), peer)
        .await;
    assert_eq!(json.status, StatusCode::TOO_MANY_REQUESTS);

    // Another client is not held up.
    let done = send_form(&app, &format!("token={token}"), "10.9.9.9:5000").await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text());
    assert_eq!(leads_of_vera(&app), 0);
}
