//! Headers that keep answers safe: HSTS when the site is https, and
//! `Cache-Control: no-store` on every answer that carries personal data.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::{ADMIN, ADMIN_PASSWORD, TestApp, seed_catalogue};
use dealership::http::router::STRICT_TRANSPORT_SECURITY;
use serde_json::json;

const PUBLIC_READS: &[&str] = &[
    "/",
    "/api/settings",
    "/api/cars/fast",
    "/api/brands",
    "/api/cars/count",
    "/robots.txt",
];

#[tokio::test]
async fn hsts_only_when_the_site_is_https() {
    let https = TestApp::with_config(|c| c.base_url = "https://auto.example.ru".into());
    let http = TestApp::new();
    seed_catalogue(&https);
    for path in PUBLIC_READS.iter().chain(&["/api/leads", "/no/such/page"]) {
        let answer = https.get(path).await;
        assert_eq!(
            answer.headers[header::STRICT_TRANSPORT_SECURITY],
            STRICT_TRANSPORT_SECURITY,
            "{path}"
        );
        assert_eq!(
            STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains"
        );
        let answer = http.get(path).await;
        assert!(
            !answer
                .headers
                .contains_key(header::STRICT_TRANSPORT_SECURITY),
            "{path}"
        );
    }
}

fn no_store(answer: &common::Answer) -> bool {
    answer.headers.get(header::CACHE_CONTROL).is_some_and(|v| {
        v.to_str()
            .unwrap()
            .split(',')
            .any(|d| d.trim() == "no-store")
    })
}

#[tokio::test]
async fn lead_answers_are_not_stored() {
    let app = TestApp::new();
    let lead = json!({
        "type": "auto_credit",
        "name": "Иван Петров",
        "phone": "+7 (921) 555-12-34",
        "consent": true
    });
    let created = app.post_json("/api/leads", &lead).await;
    assert_eq!(created.status, StatusCode::CREATED);
    assert!(no_store(&created), "{:?}", created.headers);
    let refused = app
        .post_json("/api/leads", &json!({"type": "auto_credit"}))
        .await;
    assert!(refused.status.is_client_error());
    assert!(no_store(&refused), "{:?}", refused.headers);
}

#[tokio::test]
async fn admin_answers_are_not_stored() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let login = app
        .post_json(
            "/api/admin/login",
            &json!({"login": ADMIN, "password": ADMIN_PASSWORD}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK);
    assert!(no_store(&login));
    let wrong = app
        .post_json(
            "/api/admin/login",
            &json!({"login": ADMIN, "password": "wrong-password"}),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(no_store(&wrong));

    let cookie = app.login().await;
    for path in [
        "/api/leads",
        "/api/admin/dashboard",
        "/api/admin/me",
        "/api/admin/cars",
        "/api/admin/settings",
    ] {
        let answer = app.admin_with(&cookie, Method::GET, path, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert!(no_store(&answer), "{path}: {:?}", answer.headers);
    }
    let logout = app
        .admin_with(&cookie, Method::POST, "/api/admin/logout", None)
        .await;
    assert!(logout.status.is_success(), "{}", logout.status);
    assert!(no_store(&logout));
}

/// Every operation of the admin API, answered without credentials, and every
/// public read.
#[tokio::test]
async fn every_admin_route_is_not_stored_and_public_reads_are_cacheable() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let doc = app.get("/api/openapi.json").await.json();
    let mut checked = 0;
    for (path, operations) in doc["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            let tags = operation["tags"].as_array().cloned().unwrap_or_default();
            if !tags.iter().any(|t| t == "admin") {
                continue;
            }
            let uri = path.replace("{id}", "x").replace("{bodyType}", "crossover");
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let request = Request::builder()
                .method(method.clone())
                .uri(&uri)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from("{}"))
                .unwrap();
            let answer = app.send(request).await;
            // Refused without credentials; logging out without a session is fine.
            assert!(
                answer.status.is_client_error() || uri == "/api/admin/logout",
                "{method} {uri}: {}",
                answer.status
            );
            assert!(no_store(&answer), "{method} {uri}: {:?}", answer.headers);
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} admin operations");

    for path in PUBLIC_READS {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert!(!no_store(&answer), "{path}: {:?}", answer.headers);
    }
}
