//! Publishing and unpublishing the cars chosen in /admin/cars at once
//! (`POST /api/admin/cars/publication`, `docs/admin.md` "Publishing many
//! cars"): all or none, each car changed audited, the site following at
//! once, bounded and guarded like every car write.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::collections::HashMap;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::{Answer, TestApp, car_input, seed_catalogue};
use dealership::domain::cars;
use dealership::domain::money::Money;
use dealership::domain::roles::Role;
use serde_json::{Value, json};

const URL: &str = "/api/admin/cars/publication";

/// Every car's id by slug, drafts too, as the admin list gives them.
async fn ids(app: &TestApp, cookie: &str) -> HashMap<String, String> {
    let page = app
        .admin_with(cookie, Method::GET, "/api/admin/cars?perPage=100", None)
        .await
        .json();
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["slug"].as_str().unwrap().to_string(),
                c["id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

async fn publication(app: &TestApp, cookie: &str, body: Value) -> Answer {
    app.admin_with(cookie, Method::POST, URL, Some(body)).await
}

/// Whether a visitor finds the car.
async fn on_site(app: &TestApp, slug: &str) -> bool {
    let answer = app.get(&format!("/api/cars/slug/{slug}")).await;
    assert!(
        matches!(answer.status, StatusCode::OK | StatusCode::NOT_FOUND),
        "{}",
        answer.status
    );
    answer.status == StatusCode::OK
}

fn audit_count(app: &TestApp) -> i64 {
    app.count("SELECT count(*) FROM audit_log")
}

#[tokio::test]
async fn the_chosen_cars_are_published_and_unpublished_with_an_entry_each() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    let id = ids(&app, &cookie).await;
    let public_count = app.get("/api/cars/count").await.json()["count"].clone();
    assert_eq!(public_count, 6, "the seed publishes six cars");
    let version = app.content_version();
    let before = audit_count(&app);

    // Two published Jolions off the site.
    let answer = publication(
        &app,
        &cookie,
        json!({"ids": [id["haval-jolion-0"], id["haval-jolion-1"]], "published": false}),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(
        answer.json(),
        json!({"changedCount": 2, "unchangedCount": 0})
    );
    assert!(!on_site(&app, "haval-jolion-0").await);
    assert!(!on_site(&app, "haval-jolion-1").await);
    assert!(on_site(&app, "haval-jolion-2").await);
    assert_eq!(app.get("/api/cars/count").await.json()["count"], 4);
    assert!(app.content_version() > version, "the site's answers follow");
    assert_eq!(audit_count(&app), before + 2, "one entry per car");

    // Each car's history tells it, as when its form is saved.
    let history = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!(
                "/api/admin/audit?objectType=car&objectId={}",
                id["haval-jolion-0"]
            ),
            None,
        )
        .await
        .json();
    let entry = &history["items"][0];
    assert_eq!(
        entry["summary"],
        "Снят с публикации автомобиль: Haval Jolion"
    );
    assert_eq!(entry["action"], "update");
    assert_eq!(entry["username"], common::ADMIN);
    assert_eq!(
        entry["changes"],
        json!([{"field": "published", "from": "true", "to": "false"}])
    );

    // A car already off the site is counted apart and not written again.
    let answer = publication(
        &app,
        &cookie,
        json!({"ids": [id["haval-jolion-0"], id["haval-jolion-2"], id["haval-jolion-2"]],
            "published": false}),
    )
    .await;
    assert_eq!(
        answer.json(),
        json!({"changedCount": 1, "unchangedCount": 1})
    );
    assert_eq!(audit_count(&app), before + 3);

    // Back on the site, with the draft the seed had.
    let answer = publication(
        &app,
        &cookie,
        json!({"ids": [id["haval-jolion-0"], id["haval-jolion-1"], id["haval-jolion-2"],
            id["haval-h9-draft"], id["lada-vesta-sw"]], "published": true}),
    )
    .await;
    assert_eq!(
        answer.json(),
        json!({"changedCount": 4, "unchangedCount": 1})
    );
    for slug in ["haval-jolion-0", "haval-jolion-2", "haval-h9-draft"] {
        assert!(on_site(&app, slug).await, "{slug}");
    }
    let published = app
        .admin_with(
            &cookie,
            Method::GET,
            "/api/admin/audit?objectType=car&limit=1",
            None,
        )
        .await
        .json();
    assert_eq!(
        published["items"][0]["summary"]
            .as_str()
            .unwrap()
            .split(':')
            .next(),
        Some("Опубликован автомобиль")
    );
}

#[tokio::test]
async fn a_refused_change_changes_nothing() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    // A draft waiting for its price.
    let mut free = car_input(&cat.lada, "lada-niva-no-price");
    free.name = "Niva".into();
    free.price = Money(0);
    free.published = false;
    cars::create(&app.db.conn().unwrap(), &free, 2026).unwrap();
    let cookie = app.login().await;
    let id = ids(&app, &cookie).await;
    let version = app.content_version();
    let entries = audit_count(&app);

    let refusals = [
        (json!({"ids": [], "published": true}), "Выберите автомобили"),
        (json!({"published": true}), "Выберите автомобили"),
        (
            json!({"ids": vec!["x"; 501], "published": false}),
            "Не больше 500 автомобилей за раз",
        ),
        (
            json!({"ids": [id["haval-jolion-0"], "no-such-car"], "published": false}),
            "Некоторых выбранных автомобилей уже нет: обновите список и выберите снова",
        ),
        (
            json!({"ids": [id["haval-h9-draft"], id["lada-niva-no-price"]], "published": true}),
            "Укажите цену: автомобиль за 0 ₽ не публикуется: Lada Niva",
        ),
        (
            json!({"ids": [id["haval-jolion-0"]]}),
            "Укажите, опубликовать автомобили или снять с публикации",
        ),
    ];
    for (body, message) in refusals {
        let answer = publication(&app, &cookie, body.clone()).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer.error(), message, "{body}");
        let field = if message.starts_with("Укажите, опубликовать") {
            "published"
        } else {
            "ids"
        };
        assert_eq!(answer.json()["field"], field, "{body}");
    }
    let unknown = publication(
        &app,
        &cookie,
        json!({"ids": [id["haval-jolion-0"]], "published": false, "all": true}),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unknown.error(), "Неизвестное поле «all»");

    assert_eq!(app.content_version(), version, "nothing was written");
    assert_eq!(audit_count(&app), entries);
    assert!(on_site(&app, "haval-jolion-0").await);
    assert!(!on_site(&app, "haval-h9-draft").await);

    // Many cars at 0 ₽: the first five named, the rest counted.
    let conn = app.db.conn().unwrap();
    let mut free_ids = vec![id["lada-niva-no-price"].clone()];
    for n in 1..=6 {
        let mut more = car_input(&cat.lada, &format!("lada-niva-{n}"));
        more.name = format!("Niva {n}");
        more.price = Money(0);
        more.published = false;
        free_ids.push(cars::create(&conn, &more, 2026).unwrap().id);
    }
    drop(conn);
    let many = publication(&app, &cookie, json!({"ids": free_ids, "published": true})).await;
    assert_eq!(
        many.error(),
        "Укажите цену: автомобиль за 0 ₽ не публикуется: \
         Lada Niva, Lada Niva 1, Lada Niva 2, Lada Niva 3, Lada Niva 4 и ещё 2"
    );

    // Unpublishing a car at 0 ₽ is no publication: it goes.
    let answer = publication(
        &app,
        &cookie,
        json!({"ids": [id["lada-niva-no-price"]], "published": false}),
    )
    .await;
    assert_eq!(
        answer.json(),
        json!({"changedCount": 0, "unchangedCount": 1})
    );
    // At the bound: 500 ids are read (here one car, said 500 times).
    let answer = publication(
        &app,
        &cookie,
        json!({"ids": vec![id["haval-jolion-1"].clone(); 500], "published": false}),
    )
    .await;
    assert_eq!(
        answer.json(),
        json!({"changedCount": 1, "unchangedCount": 0})
    );
}

#[tokio::test]
async fn guarded_like_every_car_write() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    app.create_user("viewer", Role::Viewer);
    app.create_user("editor", Role::Editor);
    let cookie = app.login().await;
    let id = ids(&app, &cookie).await;
    let body = json!({"ids": [id["lada-vesta-sw"]], "published": false});

    let anonymous = app.post_json(URL, &body).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let viewer = app.login_as("viewer").await;
    let refused = publication(&app, &viewer, body.clone()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    // A session cookie from another site's page: refused (CSRF).
    let forged = app
        .send(
            Request::builder()
                .method(Method::POST)
                .uri(URL)
                .header(header::COOKIE, &cookie)
                .header(header::ORIGIN, "https://evil.example")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert!(on_site(&app, "lada-vesta-sw").await, "nothing changed");

    let editor = app.login_as("editor").await;
    let done = publication(&app, &editor, body).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text());
    assert!(!on_site(&app, "lada-vesta-sw").await);
}
