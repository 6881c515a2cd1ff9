//! A brand is on the site only while it has a published car
//! (`docs/catalogue.md`, "Brands on the site"): in no public list (the
//! brand APIs the carousel, menus and filters read, the pages' embedded
//! lists, the sitemap) and its page a 404 until it has one again. The admin
//! still sees and uses every brand.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode, header};
use common::{TestApp, car_input, seed_catalogue};
use dealership::domain::cars;
use serde_json::{Value, json};

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect()
}

/// What a visitor is shown of Zotye (seeded with no car) and Lada.
async fn shown(app: &TestApp, slug: &str, id: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let name = match slug {
        "zotye" => "Zotye",
        _ => "Lada",
    };
    if names(&app.get("/api/brands/fast").await.json()).contains(&name.to_string()) {
        out.push("fast");
    }
    if names(&app.get("/api/brands").await.json()).contains(&name.to_string()) {
        out.push("list");
    }
    for (what, path) in [
        ("by id", format!("/api/brands/{id}")),
        ("by slug", format!("/api/brands/slug/{slug}")),
        ("logo", format!("/api/brands/{id}/logo")),
    ] {
        let answer = app.get(&path).await;
        match answer.status {
            StatusCode::OK => out.push(what),
            StatusCode::NOT_FOUND => assert_eq!(answer.error(), "Марка не найдена"),
            other => panic!("{path}: {other}"),
        }
    }
    let page = app.get(&format!("/brand/{slug}")).await;
    match page.status {
        StatusCode::OK => out.push("page"),
        StatusCode::NOT_FOUND => {
            let html = page.text();
            assert!(
                html.contains(r#"<meta name="robots" content="noindex"#),
                "not indexed"
            );
            assert!(
                html.contains("<title>Марка не найдена"),
                "the site's not-found page"
            );
        }
        other => panic!("/brand/{slug}: {other}"),
    }
    let home = app.get("/").await.text();
    if home.contains(&format!("\"slug\":\"{slug}\"")) {
        out.push("home");
    }
    let sitemap = app.get("/sitemap.xml").await;
    assert_eq!(
        sitemap.headers[header::CONTENT_TYPE],
        "application/xml; charset=utf-8"
    );
    if sitemap.text().contains(&format!("/brand/{slug}<")) {
        out.push("sitemap");
    }
    out
}

const EVERYWHERE: [&str; 8] = [
    "fast", "list", "by id", "by slug", "logo", "page", "home", "sitemap",
];

#[tokio::test]
async fn a_brand_without_a_published_car_is_in_no_public_list() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    assert_eq!(shown(&app, "lada", &cat.lada).await, EVERYWHERE);
    assert!(shown(&app, "zotye", &cat.empty_brand).await.is_empty());
    assert_eq!(
        names(&app.get("/api/brands/fast").await.json()),
        ["Haval", "Lada"]
    );

    // A draft is not enough.
    let mut draft = car_input(&cat.empty_brand, "zotye-t600");
    draft.published = false;
    let draft = cars::create(&app.db.conn().unwrap(), &draft, 2026).unwrap();
    assert!(shown(&app, "zotye", &cat.empty_brand).await.is_empty());

    // Published: everywhere (the write moved the content version, so no
    // kept answer hides it).
    let publish = |published: bool| json!({"ids": [draft.id], "published": published});
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/cars/publication",
            Some(publish(true)),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(shown(&app, "zotye", &cat.empty_brand).await, EVERYWHERE);

    // Its last car taken off the site: gone from every list again.
    app.admin_with(
        &cookie,
        Method::POST,
        "/api/admin/cars/publication",
        Some(publish(false)),
    )
    .await;
    assert!(shown(&app, "zotye", &cat.empty_brand).await.is_empty());

    // The admin still has it: its list, a car's form, the dashboard count.
    let admin = app
        .admin_with(&cookie, Method::GET, "/api/admin/brands", None)
        .await
        .json();
    assert_eq!(names(&admin), ["Haval", "Lada", "Zotye"]);
    let dashboard = app
        .admin_with(&cookie, Method::GET, "/api/admin/dashboard", None)
        .await
        .json();
    assert_eq!(dashboard["brands"], 3);
}
