//! GET /api/cars/by-slugs: the cars a visitor keeps in the browser
//! (favourites, compare), with the ones gone named in `missing`.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::StatusCode;
use common::{TestApp, seed_catalogue};

#[tokio::test]
async fn cars_by_slugs_name_the_missing_ones() {
    let app = TestApp::new();
    seed_catalogue(&app);
    // A deleted car.
    let conn = app.db.conn().unwrap();
    conn.execute("DELETE FROM cars WHERE slug = 'haval-m6-lease'", [])
        .unwrap();
    let answer = app
        .get("/api/cars/by-slugs?slugs=lada-vesta-sw,haval-h9-draft,haval-m6-lease,haval-jolion-0,nope,lada-vesta-sw")
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let body = answer.json();
    let slugs: Vec<&str> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["slug"].as_str().unwrap())
        .collect();
    // In the order asked, each once.
    assert_eq!(slugs, ["lada-vesta-sw", "haval-jolion-0"]);
    assert_eq!(body["items"][0]["brandName"], "Lada");
    assert_eq!(body["items"][0]["price"], "1200000.00");
    assert_eq!(
        body["missing"],
        serde_json::json!(["haval-h9-draft", "haval-m6-lease", "nope"])
    );

    // Kept by the answer cache; a publication changes it.
    let hits = app.answers.stats().hits;
    let url = "/api/cars/by-slugs?slugs=haval-h9-draft";
    assert_eq!(app.get(url).await.json()["missing"][0], "haval-h9-draft");
    app.get(url).await;
    assert_eq!(app.answers.stats().hits, hits + 1);
    conn.execute(
        "UPDATE cars SET published = 1 WHERE slug = 'haval-h9-draft'",
        [],
    )
    .unwrap();
    let now = app.get(url).await.json();
    assert_eq!(now["items"][0]["slug"], "haval-h9-draft");
    assert_eq!(now["missing"].as_array().unwrap().len(), 0);

    // 1 to 20 slugs.
    for url in [
        "/api/cars/by-slugs".to_string(),
        "/api/cars/by-slugs?slugs=".to_string(),
        "/api/cars/by-slugs?slugs=,,".to_string(),
        format!(
            "/api/cars/by-slugs?slugs={}",
            (0..21)
                .map(|i| format!("car-{i}"))
                .collect::<Vec<_>>()
                .join(",")
        ),
    ] {
        let answer = app.get(&url).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{url}");
        // The parameter's pattern in the document says 1 to 20 slugs; the
        // refusal names it.
        assert!(
            answer.error().contains("«slugs»"),
            "{url}: {}",
            answer.error()
        );
    }
    let twenty = format!(
        "/api/cars/by-slugs?slugs={}",
        (0..20)
            .map(|i| format!("car-{i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let answer = app.get(&twenty).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["missing"].as_array().unwrap().len(), 20);
    // Undeclared parameters are refused like on every public read.
    let answer = app.get("/api/cars/by-slugs?slugs=a&x=1").await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
}
