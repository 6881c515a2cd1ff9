//! Staff roles (issue 25, `docs/admin.md` "Roles"): every admin route of the
//! router is tried by every role, and the answer must be what the permission
//! table says; forged calls change nothing.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::{TestApp, seed_catalogue};
use dealership::domain::roles::{Capability, Role};
use dealership::http::auth::NOT_FOR_YOUR_ROLE;
use dealership::http::permissions;
use serde_json::{Value, json};

/// One staff member per role, logged in: (role, session cookie).
async fn staff(app: &TestApp) -> Vec<(Role, String)> {
    let mut out = Vec::new();
    for role in Role::ALL {
        let name = format!("staff-{}", role.as_str());
        app.create_user(&name, role);
        out.push((role, app.login_as(&name).await));
    }
    out
}

/// The admin routes of the OpenAPI document: those that answer 401 without
/// credentials (the login and the logout are anyone's), as (method, path).
async fn admin_routes(app: &TestApp) -> Vec<(Method, String)> {
    let doc = app.get("/api/openapi.json").await.json();
    let mut routes = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let method: Method = method.to_uppercase().parse().unwrap();
            let answer = app.send(request(&method, path, None)).await;
            if answer.status == StatusCode::UNAUTHORIZED
                && path != "/api/admin/login"
                && path != "/api/admin/logout"
            {
                routes.push((method, path.clone()));
            }
        }
    }
    routes
}

fn concrete(path: &str) -> String {
    path.replace("{id}", "no-such-id")
        .replace("{bodyType}", "no-such-type")
}

fn request(method: &Method, path: &str, cookie: Option<&str>) -> Request<Body> {
    let mut builder = Request::builder()
        .method(method.clone())
        .uri(concrete(path))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ORIGIN, "http://localhost:8080");
    if let Some(cookie) = cookie {
        builder = builder.header(header::COOKIE, cookie);
    }
    builder.body(Body::from("{}")).unwrap()
}

/// Every admin route x every role: refused with 403 and the role's message
/// exactly when the route's capability is not the role's. A route without a
/// decision in `permissions::ROUTES` fails here, and so does a decision for
/// a route the router no longer has.
#[tokio::test]
async fn every_admin_route_answers_each_role_as_the_permission_table_says() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let staff = staff(&app).await;
    let routes = admin_routes(&app).await;
    assert!(
        routes.len() >= 60,
        "only {} admin routes found",
        routes.len()
    );
    for (method, path) in &routes {
        let capability = permissions::required(method, path)
            .unwrap_or_else(|| panic!("{method} {path}: no decision in permissions::ROUTES"));
        for (role, cookie) in &staff {
            let answer = app.send(request(method, path, Some(cookie))).await;
            if role.can(capability) {
                assert_ne!(
                    answer.status,
                    StatusCode::FORBIDDEN,
                    "{role:?} may {method} {path} ({capability:?}): {}",
                    answer.text()
                );
                assert_ne!(answer.status, StatusCode::UNAUTHORIZED, "{method} {path}");
            } else {
                assert_eq!(
                    answer.status,
                    StatusCode::FORBIDDEN,
                    "{role:?} may not {method} {path} ({capability:?}): {}",
                    answer.text()
                );
                assert_eq!(answer.error(), NOT_FOR_YOUR_ROLE);
            }
        }
    }
    for (method, path, _) in permissions::ROUTES {
        assert!(
            routes
                .iter()
                .any(|(m, p)| m.as_str() == *method && p == path),
            "{method} {path} is decided but is no admin route"
        );
    }
    // Nothing a refused call tried was kept.
    assert_eq!(app.count("SELECT count(*) FROM cars"), 7);
}

#[tokio::test]
async fn me_names_the_role_and_what_it_may_do() {
    let app = TestApp::new();
    let staff = staff(&app).await;
    for (role, cookie) in &staff {
        let me = app
            .admin_with(cookie, Method::GET, "/api/admin/me", None)
            .await
            .json();
        assert_eq!(me["role"], role.as_str());
        let listed: Vec<&str> = me["capabilities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let expected: Vec<String> = role
            .capabilities()
            .iter()
            .map(|c| {
                serde_json::to_value(c)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(listed, expected, "{role:?}");
    }
    let manager = &staff[1];
    assert_eq!(manager.0, Role::Manager);
    let me = app
        .admin_with(&manager.1, Method::GET, "/api/admin/me", None)
        .await
        .json();
    assert_eq!(
        me["capabilities"],
        json!(["staff", "figures", "catalogueRead", "leads"])
    );
}

/// A manager's forged car edit is refused and the car stays as it was; the
/// manager still reads the catalogue.
#[tokio::test]
async fn a_managers_forged_car_edit_is_refused() {
    let app = TestApp::new();
    seed_catalogue(&app);
    app.create_user("ivan", Role::Manager);
    let cookie = app.login_as("ivan").await;
    let cars = app
        .admin_with(&cookie, Method::GET, "/api/admin/cars", None)
        .await;
    assert_eq!(cars.status, StatusCode::OK);
    let first = cars.json()["items"][0].clone();
    let id = first["id"].as_str().unwrap().to_string();
    let mut body: Value = app
        .admin_with(&cookie, Method::GET, &format!("/api/admin/cars/{id}"), None)
        .await
        .json();
    let price_before = body["price"].clone();
    body["price"] = json!("1.00");
    for (method, path) in [
        (Method::PUT, format!("/api/cars/{id}")),
        (Method::DELETE, format!("/api/cars/{id}")),
    ] {
        let answer = app
            .admin_with(&cookie, method.clone(), &path, Some(body.clone()))
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(answer.error(), NOT_FOR_YOUR_ROLE);
    }
    let after = app
        .admin_with(&cookie, Method::GET, &format!("/api/admin/cars/{id}"), None)
        .await
        .json();
    assert_eq!(after["price"], price_before);
    // Basic credentials are the same user with the same role.
    use base64::Engine;
    let credential = base64::engine::general_purpose::STANDARD
        .encode(format!("ivan:{}", common::ADMIN_PASSWORD));
    let basic = app
        .send(
            Request::builder()
                .method(Method::DELETE)
                .uri(format!("/api/cars/{id}"))
                .header(header::AUTHORIZATION, format!("Basic {credential}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(basic.status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("SELECT count(*) FROM cars"), 7);
}

/// An editor changes the page banners but no other setting: a change that
/// mixes a banner with the phone is refused whole.
#[tokio::test]
async fn an_editor_changes_banners_and_nothing_else_of_the_settings() {
    let app = TestApp::new();
    app.create_user("olga", Role::Editor);
    let cookie = app.login_as("olga").await;
    let phone_before = app.get("/api/settings").await.json()["phone"].clone();

    let banner = json!({"homeBanner": "/media/cafe-800.webp"});
    let answer = app
        .admin_with(&cookie, Method::PUT, "/api/settings", Some(banner))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(
        app.get("/api/settings").await.json()["homeBanner"],
        "/media/cafe-800.webp"
    );

    for forged in [
        json!({"phone": "+7 900 000-00-00"}),
        json!({"homeBanner": "/media/beef-800.webp", "phone": "+7 900 000-00-00"}),
    ] {
        let answer = app
            .admin_with(&cookie, Method::PUT, "/api/settings", Some(forged.clone()))
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{forged}");
        assert_eq!(answer.error(), NOT_FOR_YOUR_ROLE);
    }
    let settings = app.get("/api/settings").await.json();
    assert_eq!(settings["phone"], phone_before);
    assert_eq!(settings["homeBanner"], "/media/cafe-800.webp");
    // The whole form is the owner's alone.
    let form = json!({"salonName": "Автомир", "phone": "+7 812 111-22-33", "address": "СПб"});
    let answer = app
        .admin_with(&cookie, Method::POST, "/api/settings", Some(form))
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    // Only the banner change is in the audit trail, under the editor's name.
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE username = 'olga'"),
        1
    );
}

/// What each role sees in answers (issue 42, `docs/admin.md` "What each role
/// sees"): every admin read and the settings write, as every role, compared
/// by what the answers hold. A lead's name, phone and e-mail are in no answer
/// to a role without `leads`; the settings' own values (the notification
/// and sender addresses) in none to a role without `settings`, the settings
/// write's included. The operator's details are public since every page's
/// footer names them (docs/admin.md, "One source per fact"). The owner sees both, so the
/// comparison can fail.
#[tokio::test]
async fn every_read_answers_each_role_only_the_fields_it_may_see() {
    let app = TestApp::new();
    seed_catalogue(&app);
    {
        let conn = app.db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.notification_email = "private-notify@salon.example".into();
        settings.from_email = "private-robot@salon.example".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    }
    let lead = json!({"type": "contact_form", "name": "Зоя Секретова",
        "phone": "+7 921 555-12-34", "email": "zoya.secret@example.ru", "consent": true});
    let answer = app.post_json("/api/leads", &lead).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());

    // What a capability opens, as values the seeding put in.
    let private: [(Capability, &[&str]); 2] = [
        (
            Capability::Leads,
            &["Зоя Секретова", "79215551234", "zoya.secret@example.ru"],
        ),
        (
            Capability::Settings,
            &[
                "private-notify@salon.example",
                "private-robot@salon.example",
            ],
        ),
    ];
    let staff = staff(&app).await;
    let reads: Vec<(Method, String)> = admin_routes(&app)
        .await
        .into_iter()
        .filter(|(method, _)| method == Method::GET)
        .collect();
    let banner = json!({"homeBanner": "/media/cafe-800.webp"});
    for (role, cookie) in &staff {
        let mut seen = String::new();
        for (method, path) in &reads {
            let answer = app.send(request(method, path, Some(cookie))).await;
            if answer.status.is_success() {
                seen.push_str(&format!("\n{method} {path}: {}", answer.text()));
            }
        }
        if role.can(Capability::Banners) {
            let answer = app
                .admin_with(cookie, Method::PUT, "/api/settings", Some(banner.clone()))
                .await;
            assert_eq!(answer.status, StatusCode::OK, "{role:?}: {}", answer.text());
            let fields = answer.json();
            assert_eq!(fields["homeBanner"], "/media/cafe-800.webp", "{role:?}");
            assert_eq!(
                fields.get("notificationEmail").is_some(),
                role.can(Capability::Settings),
                "{role:?}: the settings write's answer {fields}"
            );
            seen.push_str(&format!("\nPUT /api/settings: {fields}"));
        }
        for (capability, values) in &private {
            for value in *values {
                let shown = seen.contains(value);
                if role.can(*capability) {
                    assert!(shown, "{role:?} may see {value} ({capability:?}) somewhere");
                } else {
                    let at = seen
                        .lines()
                        .find(|l| l.contains(value))
                        .map(|l| l.chars().take(160).collect::<String>());
                    assert!(
                        !shown,
                        "{role:?} may not see {value} ({capability:?}): {at:?}"
                    );
                }
            }
        }
    }
}
