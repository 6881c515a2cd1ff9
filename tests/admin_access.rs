//! Admin access: credentials on every admin route, sessions, Basic, CSRF,
//! lockout, and admin answers kept apart from the public cache.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::{ADMIN_PASSWORD, TestApp, seed_catalogue};
use serde_json::{Value, json};

/// Every admin route of the OpenAPI document (and every write but a
/// visitor's lead or saved search)
/// answers 401 without credentials.
#[tokio::test]
async fn every_admin_and_write_route_needs_credentials() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let doc = app.get("/api/openapi.json").await.json();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let is_admin_tag = op["tags"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == "admin"));
            let is_write = method != "get";
            // The visitor's writes: a lead, a saved search and its links,
            // the withdrawal link of a mail (its token is its credential).
            let visitors = path == "/api/leads"
                || path.starts_with("/api/saved-searches")
                || path == "/api/personal-data/forget";
            let open = visitors && method == "post"
                || path == "/api/admin/login"
                || path == "/api/admin/logout"
                // An invitation link is its own credential (docs/admin.md).
                || path.starts_with("/api/invitations/");
            if open || !(is_admin_tag || is_write) {
                continue;
            }
            let concrete = path
                .replace("{id}", "some-id")
                .replace("{bodyType}", "sedan");
            let request = Request::builder()
                .method(method.to_uppercase().as_str())
                .uri(&concrete)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from("{}"))
                .unwrap();
            let answer = app.send(request).await;
            assert_eq!(
                answer.status,
                StatusCode::UNAUTHORIZED,
                "{method} {concrete}"
            );
            assert_eq!(answer.error(), "Требуется вход в панель администратора");
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} routes checked");
    // Nothing was changed.
    assert_eq!(app.count("SELECT count(*) FROM cars"), 7);
    // A session cookie that is not ours does not open anything.
    let answer = app
        .admin_with(
            "dealership_session=forged",
            Method::GET,
            "/api/admin/cars",
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn login_session_and_logout() {
    let app = TestApp::new();
    app.create_admin();
    let login = app
        .post_json(
            "/api/admin/login",
            &json!({"login": "manager", "password": ADMIN_PASSWORD}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK);
    let set_cookie = login.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(set_cookie.starts_with("dealership_session="));
    assert!(set_cookie.contains("HttpOnly"));
    assert!(set_cookie.contains("SameSite=Strict"));
    assert!(
        !set_cookie.contains("Secure"),
        "http base URL: no Secure flag"
    );
    assert_eq!(login.json()["username"], "manager");
    let cookie = set_cookie.split(';').next().unwrap().to_string();
    // The token is not stored as such.
    let token = cookie.split_once('=').unwrap().1.to_string();
    assert_eq!(
        app.count(&format!(
            "SELECT count(*) FROM sessions WHERE token_hash = '{token}'"
        )),
        0
    );
    assert_eq!(app.count("SELECT count(*) FROM sessions"), 1);
    assert_eq!(
        app.count("SELECT count(*) FROM login_attempts WHERE successful = 1"),
        1
    );

    let me = app
        .admin_with(&cookie, Method::GET, "/api/admin/me", None)
        .await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.json()["username"], "manager");
    assert!(me.json()["csrfToken"].as_str().unwrap().len() > 20);

    let logout = app
        .admin_with(&cookie, Method::POST, "/api/admin/logout", None)
        .await;
    assert_eq!(logout.status, StatusCode::NO_CONTENT);
    assert!(
        logout.headers[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    let after = app
        .admin_with(&cookie, Method::GET, "/api/admin/me", None)
        .await;
    assert_eq!(after.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn https_base_url_makes_the_cookie_secure() {
    let app = TestApp::with_config(|c| c.base_url = "https://auto.example.ru".into());
    app.create_admin();
    let login = app
        .post_json(
            "/api/admin/login",
            &json!({"login": "manager", "password": ADMIN_PASSWORD}),
        )
        .await;
    assert!(
        login.headers[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("; Secure")
    );
}

#[tokio::test]
async fn wrong_credentials_and_lockout() {
    let app = TestApp::new();
    app.create_admin();
    for body in [
        json!({"login": "manager", "password": "wrong-password"}),
        json!({"login": "nobody", "password": ADMIN_PASSWORD}),
    ] {
        let answer = app.post_json("/api/admin/login", &body).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        assert_eq!(answer.error(), "Неверный логин или пароль");
    }
    let empty = app
        .post_json("/api/admin/login", &json!({"login": "", "password": ""}))
        .await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(empty.error(), "Введите логин и пароль");

    // Four more failures lock the login (five in all), even for the right password.
    for _ in 0..4 {
        let answer = app
            .post_json(
                "/api/admin/login",
                &json!({"login": "manager", "password": "guess"}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let locked = app
        .post_json(
            "/api/admin/login",
            &json!({"login": "manager", "password": ADMIN_PASSWORD}),
        )
        .await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        locked.error().contains("Слишком много неудачных попыток"),
        "{}",
        locked.error()
    );
    // Basic is locked too.
    let basic = app
        .basic(Method::GET, "/api/admin/cars", ADMIN_PASSWORD, None)
        .await;
    assert_eq!(basic.status, StatusCode::TOO_MANY_REQUESTS);
    // Every attempt was recorded with the address.
    assert_eq!(
        app.count("SELECT count(*) FROM login_attempts WHERE ip_address = '203.0.113.7'"),
        6
    );
}

#[tokio::test]
async fn an_address_with_many_failures_is_locked() {
    let app = TestApp::new();
    app.create_admin();
    for i in 0..20 {
        let answer = app
            .post_json(
                "/api/admin/login",
                &json!({"login": format!("user{i}"), "password": "x"}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let locked = app
        .post_json(
            "/api/admin/login",
            &json!({"login": "manager", "password": ADMIN_PASSWORD}),
        )
        .await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);
    // Another address still gets in.
    let other = app
        .post_json_from(
            "/api/admin/login",
            &json!({"login": "manager", "password": ADMIN_PASSWORD}),
            "198.51.100.9:1",
        )
        .await;
    assert_eq!(other.status, StatusCode::OK);
}

#[tokio::test]
async fn basic_credentials_work_for_scripts() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cars = app
        .basic(Method::GET, "/api/admin/cars", ADMIN_PASSWORD, None)
        .await;
    assert_eq!(cars.status, StatusCode::OK);
    assert_eq!(
        cars.json()["items"].as_array().unwrap().len(),
        7,
        "drafts included"
    );
    assert_eq!(cars.json()["total"], 7);
    assert!(
        cars.headers[header::CACHE_CONTROL]
            .to_str()
            .unwrap()
            .contains("no-store")
    );
    let wrong = app
        .basic(Method::GET, "/api/admin/cars", "wrong", None)
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.error(), "Неверный логин или пароль");
    // Basic writes need no CSRF token: no cookie rides along.
    let brand = app
        .basic(
            Method::POST,
            "/api/brands",
            ADMIN_PASSWORD,
            Some(json!({"name": "Tank", "slug": "tank"})),
        )
        .await;
    assert_eq!(brand.status, StatusCode::CREATED);
}

#[tokio::test]
async fn cookie_writes_from_elsewhere_are_refused() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let write =
        |origin: Option<&'static str>, referer: Option<&'static str>, csrf: Option<String>| {
            let mut builder = Request::builder()
                .method(Method::POST)
                .uri("/api/brands")
                .header(header::COOKIE, &cookie)
                .header(header::CONTENT_TYPE, "application/json");
            if let Some(o) = origin {
                builder = builder.header(header::ORIGIN, o);
            }
            if let Some(r) = referer {
                builder = builder.header(header::REFERER, r);
            }
            if let Some(t) = csrf {
                builder = builder.header("x-csrf-token", t);
            }
            builder
            .body(Body::from(
                json!({"name": "Tank", "slug": format!("tank-{}", uuid::Uuid::new_v4().simple())})
                    .to_string(),
            ))
            .unwrap()
        };
    for (origin, referer) in [
        (Some("https://evil.example"), None),
        (None, Some("https://evil.example/page")),
        (None, None),
        (Some("http://localhost:8080.evil.example"), None),
    ] {
        let answer = app.send(write(origin, referer, None)).await;
        assert_eq!(
            answer.status,
            StatusCode::FORBIDDEN,
            "{origin:?} {referer:?}"
        );
        assert_eq!(
            answer.error(),
            "Запрос отклонён: он пришёл не со страницы сайта"
        );
    }
    let wrong_token = app.send(write(None, None, Some("nope".into()))).await;
    assert_eq!(wrong_token.status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("SELECT count(*) FROM brands"), 0);

    let ok = app
        .send(write(Some("http://localhost:8080"), None, None))
        .await;
    assert_eq!(ok.status, StatusCode::CREATED);
    let ok = app
        .send(write(
            None,
            Some("http://localhost:8080/admin/brands"),
            None,
        ))
        .await;
    assert_eq!(ok.status, StatusCode::CREATED);
    let token = app
        .admin_with(&cookie, Method::GET, "/api/admin/me", None)
        .await
        .json()["csrfToken"]
        .as_str()
        .unwrap()
        .to_string();
    let ok = app.send(write(None, None, Some(token))).await;
    assert_eq!(ok.status, StatusCode::CREATED);
}

#[tokio::test]
async fn admin_answers_are_never_served_to_the_public() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    // The admin reads first (with pending reviews)...
    let admin_view = app
        .admin_with(&cookie, Method::GET, "/api/admin/reviews", None)
        .await
        .json();
    assert_eq!(admin_view.as_array().unwrap().len(), 3);
    // ...and the public still gets only approved ones.
    let public: Value = app.get("/api/reviews").await.json();
    assert_eq!(public.as_array().unwrap().len(), 2);
}

/// Public routes ignore credentials: an admin reading them gets the
/// visitor's answer (and a wrong credential is no error there).
#[tokio::test]
async fn public_routes_answer_admins_as_visitors() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    for (path, public_len) in [
        ("/api/reviews", 2),
        ("/api/reviews?approved=false", 2),
        ("/api/promotions", 1),
        ("/api/promotions?active=false", 1),
        ("/api/partner-banks", 1),
        ("/api/partner-banks?active=false", 1),
    ] {
        let visitor = app.get(path).await;
        let by_cookie = app.admin_with(&cookie, Method::GET, path, None).await;
        let by_basic = app.basic(Method::GET, path, ADMIN_PASSWORD, None).await;
        let by_wrong_password = app.basic(Method::GET, path, "wrong", None).await;
        for answer in [&visitor, &by_cookie, &by_basic, &by_wrong_password] {
            assert_eq!(answer.status, StatusCode::OK, "{path}");
            assert_eq!(
                answer.json().as_array().unwrap().len(),
                public_len,
                "{path}"
            );
            assert_eq!(answer.body, visitor.body, "{path}");
        }
    }
    // Reading public routes with Basic records no login attempt.
    assert_eq!(app.count("SELECT count(*) FROM login_attempts"), 1);
}
