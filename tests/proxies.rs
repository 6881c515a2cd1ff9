//! The visitor's address behind reverse proxies (`trusted_proxies`): only a
//! trusted peer's `X-Forwarded-For` is read, from the right, so what a visitor
//! writes there cannot dodge the lead limit, the login lock or forge the
//! consent address.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use common::{ADMIN, TestApp};
use serde_json::{Value, json};

fn lead() -> Value {
    json!({
        "type": "auto_credit",
        "name": "Иван Петров",
        "phone": "+7 (921) 555-12-34",
        "sourceUrl": "https://auto.example.ru/",
        "consent": true
    })
}

/// A POST from the socket peer `peer` carrying `forwarded` as X-Forwarded-For.
async fn post_via(
    app: &TestApp,
    path: &str,
    body: &Value,
    peer: &str,
    forwarded: &[&str],
) -> common::Answer {
    let mut builder = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json");
    for line in forwarded {
        builder = builder.header("x-forwarded-for", *line);
    }
    let mut request = builder.body(Body::from(body.to_string())).unwrap();
    let peer: SocketAddr = peer.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    app.send(request).await
}

fn behind(proxies: &[&str], per_minute: u32) -> TestApp {
    let proxies: Vec<dealership::config::TrustedProxy> =
        proxies.iter().map(|p| p.parse().unwrap()).collect();
    TestApp::with_config(move |c| {
        c.trusted_proxies = proxies;
        c.leads.rate_limit_per_minute = per_minute;
    })
}

fn consent_ips(app: &TestApp) -> Vec<String> {
    let conn = app.db.conn().unwrap();
    let mut stmt = conn
        .prepare("SELECT DISTINCT consent_ip FROM leads ORDER BY consent_ip")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn a_spoofed_forwarded_for_does_not_dodge_the_lead_limit() {
    let app = behind(&["127.0.0.1"], 10);
    let mut statuses = Vec::new();
    for i in 0..15 {
        // The visitor writes an address of its choosing; the proxy appends
        // the one it was called from.
        let spoofed = format!("198.51.100.{i}, 203.0.113.50");
        let answer = post_via(&app, "/api/leads", &lead(), "127.0.0.1:40000", &[&spoofed]).await;
        statuses.push(answer.status);
    }
    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    assert_eq!(created, 10, "{statuses:?}");
    assert!(
        statuses[10..]
            .iter()
            .all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    // The evidence of consent names the real visitor.
    assert_eq!(consent_ips(&app), ["203.0.113.50"]);
    // Another visitor through the same proxy is not held back by the first.
    let other = post_via(
        &app,
        "/api/leads",
        &lead(),
        "127.0.0.1:40001",
        &["203.0.113.51"],
    )
    .await;
    assert_eq!(other.status, StatusCode::CREATED);
}

#[tokio::test]
async fn an_untrusted_peer_cannot_name_another_visitor() {
    let app = behind(&["127.0.0.1"], 3);
    for i in 0..5 {
        let spoofed = format!("198.51.100.{i}");
        let answer = post_via(&app, "/api/leads", &lead(), "192.0.2.77:5000", &[&spoofed]).await;
        let expected = if i < 3 {
            StatusCode::CREATED
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(answer.status, expected, "lead {i}");
    }
    assert_eq!(consent_ips(&app), ["192.0.2.77"]);

    // Without any trusted proxy the header means nothing either.
    let app = behind(&[], 0);
    post_via(
        &app,
        "/api/leads",
        &lead(),
        "127.0.0.1:5000",
        &["198.51.100.1"],
    )
    .await;
    assert_eq!(consent_ips(&app), ["127.0.0.1"]);
}

#[tokio::test]
async fn proxy_ranges_chains_and_ipv6() {
    let app = behind(&["10.0.0.0/8", "fd00::/8", "::1"], 0);
    let cases: &[(&str, &[&str], &str)] = &[
        // A chain of two proxies in the range: the address before them.
        (
            "10.1.2.3:80",
            &["198.51.100.1, 203.0.113.60, 10.9.0.1"],
            "203.0.113.60",
        ),
        // Several header lines count as one list.
        (
            "10.1.2.3:80",
            &["198.51.100.1", "203.0.113.61", "10.9.0.1"],
            "203.0.113.61",
        ),
        // IPv6 proxies and visitors.
        ("[fd12::1]:80", &["2001:db8::7, fd00::2"], "2001:db8::7"),
        ("[::1]:80", &["[2001:db8::8]:5555"], "2001:db8::8"),
        // A peer outside the ranges is the visitor.
        ("[2001:db8::9]:80", &["203.0.113.62"], "2001:db8::9"),
        ("11.0.0.1:80", &["203.0.113.62"], "11.0.0.1"),
    ];
    for (peer, forwarded, _) in cases {
        let answer = post_via(&app, "/api/leads", &lead(), peer, forwarded).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{peer} {forwarded:?}");
    }
    let mut expected: Vec<&str> = cases.iter().map(|(_, _, ip)| *ip).collect();
    expected.sort();
    let stored = consent_ips(&app);
    assert_eq!(stored, expected);
}

#[tokio::test]
async fn spoofed_login_failures_count_against_the_real_visitor() {
    let app = behind(&["127.0.0.1"], 0);
    app.create_admin();
    let mut statuses = Vec::new();
    for i in 0..30 {
        let spoofed = format!("198.51.100.{i}, 203.0.113.70");
        let answer = post_via(
            &app,
            "/api/admin/login",
            &json!({"login": format!("guess{i}"), "password": "x"}),
            "127.0.0.1:40000",
            &[&spoofed],
        )
        .await;
        statuses.push(answer.status);
    }
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "the visitor's address is locked: {statuses:?}"
    );
    assert_eq!(
        app.count("SELECT count(DISTINCT ip_address) FROM login_attempts"),
        1
    );
    assert_eq!(
        app.count("SELECT count(*) FROM login_attempts WHERE ip_address = '203.0.113.70'"),
        app.count("SELECT count(*) FROM login_attempts")
    );
    // Another visitor through the same proxy still gets in.
    let other = post_via(
        &app,
        "/api/admin/login",
        &json!({"login": ADMIN, "password": common::ADMIN_PASSWORD}),
        "127.0.0.1:40001",
        &["203.0.113.71"],
    )
    .await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.text());
}
