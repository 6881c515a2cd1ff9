//! The admin cars list: searched, filtered and paged on the server.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::{TestApp, car_input, seed_catalogue};
use dealership::domain::brands::{self, BrandInput};
use dealership::domain::cars::{self, CarStatus};
use serde_json::Value;

fn slugs(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["slug"].as_str().unwrap().to_string())
        .collect()
}

/// Adds a Cyrillic brand with two cars.
fn seed_cyrillic(app: &TestApp) {
    let conn = app.db.conn().unwrap();
    let brand = brands::create(
        &conn,
        &BrandInput {
            name: "ГАЗ".into(),
            slug: "gaz".into(),
            logo: String::new(),
            description: String::new(),
        },
    )
    .unwrap()
    .id;
    let mut sobol = car_input(&brand, "gaz-sobol");
    sobol.name = "Соболь Бизнес".into();
    sobol.model = "Соболь".into();
    sobol.year = 2024;
    sobol.status = CarStatus::Used;
    sobol.in_stock = false;
    cars::create(&conn, &sobol, 2026).unwrap();
    let mut gazelle = car_input(&brand, "gaz-gazelle");
    gazelle.name = "Газель Next Ёлка".into();
    gazelle.model = "Газель".into();
    gazelle.year = 2025;
    cars::create(&conn, &gazelle, 2026).unwrap();
}

#[tokio::test]
async fn pages_counts_and_stats() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    let get = |path: String| {
        let cookie = cookie.clone();
        let app = &app;
        async move {
            let answer = app.admin_with(&cookie, Method::GET, &path, None).await;
            assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.text());
            answer.json()
        }
    };
    let first = get("/api/admin/cars".into()).await;
    assert_eq!(first["total"], 7, "drafts included");
    assert_eq!(first["page"], 1);
    assert_eq!(first["perPage"], 24);
    assert_eq!(first["pages"], 1);
    assert_eq!(first["items"].as_array().unwrap().len(), 7);
    // Newest first: the Lada was created last.
    assert_eq!(slugs(&first)[0], "lada-vesta-sw");
    let stats = &first["stats"];
    assert_eq!(
        (
            &stats["all"],
            &stats["new"],
            &stats["used"],
            &stats["lease"],
            &stats["inStock"]
        ),
        (&7.into(), &5.into(), &1.into(), &1.into(), &7.into())
    );

    // Pages of 3: 3 + 3 + 1, in the same order, each car once.
    let mut seen = Vec::new();
    for page in 1..=3 {
        let answer = get(format!("/api/admin/cars?page={page}&perPage=3")).await;
        assert_eq!(answer["pages"], 3);
        assert_eq!(answer["total"], 7);
        seen.extend(slugs(&answer));
    }
    assert_eq!(seen, slugs(&first));
    let beyond = get("/api/admin/cars?page=9&perPage=3".into()).await;
    assert!(slugs(&beyond).is_empty());
    assert_eq!(beyond["total"], 7);
    // perPage outside 1..=100 is refused, as every paging bound (docs/api.md).
    for per_page in ["0", "500"] {
        let path = format!("/api/admin/cars?perPage={per_page}");
        let answer = app.admin_with(&cookie, Method::GET, &path, None).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(
            answer.error(),
            "Неверный параметр запроса «perPage»: ожидается число от 1 до 100"
        );
    }

    // Filters; the stats still count every car.
    let used = get("/api/admin/cars?condition=used".into()).await;
    assert_eq!(slugs(&used), ["haval-f7-used"]);
    assert_eq!(used["stats"]["all"], 7);
    let lease = get("/api/admin/cars?condition=lease&published=all".into()).await;
    assert_eq!(slugs(&lease), ["haval-m6-lease"]);
    let drafts = get("/api/admin/cars?published=false".into()).await;
    assert_eq!(slugs(&drafts), ["haval-h9-draft"]);
    let published = get("/api/admin/cars?published=true&condition=all".into()).await;
    assert_eq!(published["total"], 6);
    let none = get("/api/admin/cars?q=nothing-like-this".into()).await;
    assert_eq!(none["total"], 0);
    assert_eq!(none["pages"], 0);
    assert_eq!(none["stats"]["all"], 7);

    // Unknown filter values are refused with the parameter named.
    for bad in ["condition=old", "published=yes", "page=x"] {
        let answer = app
            .admin_with(
                &cookie,
                Method::GET,
                &format!("/api/admin/cars?{bad}"),
                None,
            )
            .await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
    }
}

#[tokio::test]
async fn search_ignores_case_in_every_script() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    seed_cyrillic(&app);
    let cookie = app.login().await;
    let search = |q: &str| {
        let path = format!(
            "/api/admin/cars?q={}",
            q.bytes().map(|b| format!("%{b:02X}")).collect::<String>()
        );
        let cookie = cookie.clone();
        let app = &app;
        async move {
            let answer = app.admin_with(&cookie, Method::GET, &path, None).await;
            assert_eq!(answer.status, StatusCode::OK, "{path}");
            let mut found = slugs(&answer.json());
            found.sort();
            found
        }
    };
    // The brand's name, in another case.
    assert_eq!(search("газ").await, ["gaz-gazelle", "gaz-sobol"]);
    assert_eq!(search("ГаЗ").await, ["gaz-gazelle", "gaz-sobol"]);
    // The car's name and model.
    assert_eq!(search("СОБОЛЬ").await, ["gaz-sobol"]);
    assert_eq!(search("бизнес").await, ["gaz-sobol"]);
    // 'ё' and 'е' are the same letter to the search.
    assert_eq!(search("елка").await, ["gaz-gazelle"]);
    assert_eq!(search("ЁЛКА").await, ["gaz-gazelle"]);
    // Latin too, and the year.
    assert_eq!(search("VESTA").await, ["lada-vesta-sw"]);
    assert_eq!(search("2021").await, ["haval-f7-used"]);
    // Every word must be found, in any of the fields.
    assert_eq!(search("  газ   2024 ").await, ["gaz-sobol"]);
    assert_eq!(search("haval h9").await, ["haval-h9-draft"]);
    assert!(search("газ vesta").await.is_empty());
    // Characters special to LIKE are plain text.
    assert!(search("%").await.is_empty());
    assert!(search("_").await.is_empty());
    // An empty search shows everything.
    assert_eq!(search("   ").await.len(), 9);
}

#[tokio::test]
async fn one_car_for_the_edit_dialog() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let id: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT id FROM cars WHERE slug = 'haval-h9-draft'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let cookie = app.login().await;
    let answer = app
        .admin_with(&cookie, Method::GET, &format!("/api/admin/cars/{id}"), None)
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["slug"], "haval-h9-draft");
    assert_eq!(answer.json()["published"], false);
    let missing = app
        .admin_with(&cookie, Method::GET, "/api/admin/cars/nope", None)
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.error(), "Автомобиль не найден");
    // Admins only.
    let anonymous = app.get(&format!("/api/admin/cars/{id}")).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.get("/api/admin/cars").await.status,
        StatusCode::UNAUTHORIZED
    );
}
