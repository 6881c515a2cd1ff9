//! Hostile cars: ten cars with the maximum of everything (every text at its
//! longest, in characters that cost the most once escaped, 20 trim levels,
//! 6 pictures) made through the API, then 4,000 trim levels each written
//! behind the API's back, and the size of every page that shows them held to
//! the budgets of `docs/catalogue.md` ("What one car may cost a page").
//! Lists carry cards, never trim levels; the car page and the feeds show at
//! most the limit; a list of more trim levels than the limit is refused.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::TestApp;
use dealership::domain::cars::{
    MAX_IMAGES, MAX_TRIM_DESCRIPTION, MAX_TRIM_LEVELS, MAX_TRIM_LINK, MAX_TRIM_NAME,
};
use dealership::http::pages::Renderer;
use serde_json::{Value, json};

const KB: usize = 1024;
/// docs/catalogue.md: one card in a JSON list answer.
const CARD_JSON_BUDGET: usize = 32 * KB;
/// docs/catalogue.md: what one card adds to a list page's HTML (drawn and
/// embedded).
const CARD_PAGE_BUDGET: usize = 64 * KB;
/// docs/catalogue.md: a car page, whatever the car's data.
const CAR_PAGE_BUDGET: usize = 640 * KB;
/// docs/catalogue.md: what one car adds to a marketplace feed.
const FEED_CAR_BUDGET: usize = 128 * KB;

const CARS: usize = 10;

/// `len` characters that cost the most once written: quotes, angle
/// brackets and ampersands (escaped in JSON, HTML and XML), a control
/// character, Cyrillic and an emoji (two and four bytes).
fn hostile(len: usize) -> String {
    const PATTERN: [char; 8] = ['"', '<', '&', '\u{1}', 'Ж', '😀', '>', '\''];
    (0..len).map(|i| PATTERN[i % PATTERN.len()]).collect()
}

/// A picture address of the longest length a car takes.
fn picture(car: usize, n: usize) -> String {
    let head = format!("https://example.com/{car}/{n}/");
    format!("{head}{}", hostile(500 - head.chars().count()))
}

fn trim_level() -> Value {
    json!({
        "name": hostile(MAX_TRIM_NAME),
        "description": hostile(MAX_TRIM_DESCRIPTION),
        "link": hostile(MAX_TRIM_LINK),
    })
}

/// A car with the most of everything the API takes.
fn hostile_car(brand_id: &str, n: usize) -> Value {
    let slug = format!("hostile-{n:02}-{}", "x".repeat(255 - 11));
    let pictures: Vec<String> = (0..MAX_IMAGES).map(|i| picture(n, i)).collect();
    json!({
        "brandId": brand_id,
        "name": hostile(255),
        "slug": slug,
        "model": hostile(100),
        "year": 2025,
        "price": "9999999999.99",
        "monthlyPayment": "99999999.99",
        "status": "new",
        "bodyType": "crossover",
        "transmission": "automatic",
        "drivetrain": "all",
        "fuelType": "gasoline",
        "engine": hostile(100),
        "mainImage": pictures[0],
        "images": pictures,
        "trimLevels": vec![trim_level(); MAX_TRIM_LEVELS],
        "inStock": true,
        "featured": true,
        "published": true,
        "vin": format!("XTA2121407{n:07}"),
        "color": hostile(50),
        "externalId": format!("{n:02}{}", hostile(98)),
        "creditDiscount": "9999999999.99",
        "tradeinDiscount": "9999999999.99",
        "insuranceDiscount": "9999999999.99",
        "maxDiscount": "9999999999.99",
        "trim": hostile(100),
        "generation": hostile(50),
        "doors": 5,
    })
}

/// The sizes this test measures, in bytes.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    list: usize,
    home: usize,
    new_cars: usize,
    car_page: usize,
    avito: usize,
    autoru: usize,
}

async fn size(app: &TestApp, path: &str) -> usize {
    let answer = app.get(path).await;
    assert_eq!(answer.status, StatusCode::OK, "{path}");
    answer.body.len()
}

async fn measure(app: &TestApp, car_slug: Option<&str>) -> Sizes {
    Sizes {
        list: size(app, "/api/cars/fast?limit=100").await,
        home: size(app, "/").await,
        new_cars: size(app, "/new-cars").await,
        car_page: match car_slug {
            Some(slug) => size(app, &format!("/car/{slug}")).await,
            None => 0,
        },
        avito: size(app, "/feeds/avito.xml").await,
        autoru: size(app, "/feeds/autoru.xml").await,
    }
}

/// Each figure of `after` against its budget, `before` being the same
/// pages without the hostile cars.
fn check(stage: &str, before: Sizes, after: Sizes) {
    eprintln!("{stage}: without the cars {before:?}");
    eprintln!("{stage}: with the cars    {after:?}");
    let per = |grown: usize, cards: usize| grown / cards;
    let card_json = per(after.list - before.list, CARS);
    assert!(
        card_json <= CARD_JSON_BUDGET,
        "{stage}: a card costs {card_json} bytes of the list answer ({} for {CARS}), budget {CARD_JSON_BUDGET}",
        after.list
    );
    // The home page shows every car twice: 'Popular models' and the catalogue.
    let home_card = per(after.home - before.home, 2 * CARS);
    assert!(
        home_card <= CARD_PAGE_BUDGET,
        "{stage}: a card costs {home_card} bytes of the home page ({} in all, {} without the cars), budget {CARD_PAGE_BUDGET}",
        after.home,
        before.home
    );
    let list_card = per(after.new_cars - before.new_cars, CARS);
    assert!(
        list_card <= CARD_PAGE_BUDGET,
        "{stage}: a card costs {list_card} bytes of /new-cars ({} in all, {} without the cars), budget {CARD_PAGE_BUDGET}",
        after.new_cars,
        before.new_cars
    );
    assert!(
        after.car_page <= CAR_PAGE_BUDGET,
        "{stage}: the car page is {} bytes, budget {CAR_PAGE_BUDGET}",
        after.car_page
    );
    for (name, feed, empty) in [
        ("avito", after.avito, before.avito),
        ("autoru", after.autoru, before.autoru),
    ] {
        let car = per(feed - empty, CARS);
        assert!(
            car <= FEED_CAR_BUDGET,
            "{stage}: a car costs {car} bytes of /feeds/{name}.xml ({feed} in all), budget {FEED_CAR_BUDGET}"
        );
    }
}

/// The cards drawn on the server in a page (a page drawn by the script
/// alone would be small and prove nothing).
fn cards_drawn(html: &str) -> usize {
    html.matches("data-testid=\"car-card\"").count()
}

#[tokio::test]
async fn ten_hostile_cars_make_no_page_larger_than_its_budget() {
    assert!(
        Renderer::available(),
        "ui/dist-server/render.js is missing: run `npm run build` in ui/ first"
    );
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let brand = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/brands",
            Some(json!({
                "name": hostile(100),
                "slug": "b".repeat(100),
                "logo": "",
                "description": hostile(5000),
            })),
        )
        .await;
    assert!(brand.status.is_success(), "{}", brand.text());
    let brand_id = brand.json()["id"].as_str().unwrap().to_string();
    let before = measure(&app, None).await;

    // More trim levels than the limit: refused, naming the field.
    for count in [MAX_TRIM_LEVELS + 1, 4_000] {
        let mut car = hostile_car(&brand_id, 99);
        car["trimLevels"] = (0..count)
            .map(|i| json!({"name": format!("Комплектация {i}"), "description": "", "link": ""}))
            .collect();
        let answer = app
            .admin_with(&cookie, Method::POST, "/api/cars", Some(car))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{count}");
        assert_eq!(answer.json()["field"], "trimLevels", "{count}");
        assert_eq!(answer.error(), "Не больше 20 комплектаций", "{count}");
    }
    // A trim level's text past its length: refused, naming the field.
    let mut long = hostile_car(&brand_id, 99);
    long["trimLevels"][3]["description"] = json!(hostile(MAX_TRIM_DESCRIPTION + 1));
    let answer = app
        .admin_with(&cookie, Method::POST, "/api/cars", Some(long))
        .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer.json()["field"], "trimLevels");
    assert_eq!(
        answer.error(),
        "Поле «Описание комплектации» не должно быть длиннее 500 символов"
    );

    // Ten cars with the most of everything, through the API.
    let mut slugs = Vec::new();
    let mut ids = Vec::new();
    for n in 0..CARS {
        let answer = app
            .admin_with(
                &cookie,
                Method::POST,
                "/api/cars",
                Some(hostile_car(&brand_id, n)),
            )
            .await;
        assert!(answer.status.is_success(), "car {n}: {}", answer.text());
        let car = answer.json();
        assert_eq!(car["trimLevels"].as_array().unwrap().len(), MAX_TRIM_LEVELS);
        slugs.push(car["slug"].as_str().unwrap().to_string());
        ids.push(car["id"].as_str().unwrap().to_string());
    }
    let list = app.get("/api/cars/fast?limit=100").await.json();
    let cards = list.as_array().unwrap();
    assert_eq!(cards.len(), CARS);
    for card in cards {
        assert!(
            card.get("trimLevels").is_none(),
            "a card carries trim levels"
        );
        assert_eq!(card["images"].as_array().unwrap().len(), MAX_IMAGES);
    }
    let home = app.get("/").await.text();
    assert!(
        cards_drawn(&home) >= CARS,
        "the home page's cards are drawn on the server: {}",
        cards_drawn(&home)
    );
    let new_cars = app.get("/new-cars").await.text();
    assert_eq!(cards_drawn(&new_cars), CARS, "/new-cars draws its cards");
    let through_api = measure(&app, Some(&slugs[0])).await;
    check("through the API", before, through_api);

    // 4,000 trim levels each, at their longest, written behind the API's
    // back (a row stored before the limit): the car still reads, and shows
    // at most the limit.
    let many: Vec<Value> = (0..4_000).map(|_| trim_level()).collect();
    let many = serde_json::to_string(&many).unwrap();
    {
        let conn = app.db.conn().unwrap();
        // The table's triggers move the content version: no kept answer stays.
        conn.execute("UPDATE cars SET trim_levels = ?1", [&many])
            .unwrap();
    }
    let car = app.get(&format!("/api/cars/slug/{}", slugs[0])).await;
    assert_eq!(car.status, StatusCode::OK);
    assert_eq!(
        car.json()["trimLevels"].as_array().unwrap().len(),
        MAX_TRIM_LEVELS
    );
    let admin_car = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!("/api/admin/cars/{}", ids[0]),
            None,
        )
        .await;
    assert_eq!(admin_car.status, StatusCode::OK, "the car still reads");
    assert_eq!(
        admin_car.json()["trimLevels"].as_array().unwrap().len(),
        4_000,
        "the admin sees what must be shortened"
    );
    // A change that leaves the trim levels out keeps them, and is refused
    // until they are shortened.
    let mut without_trims = hostile_car(&brand_id, 0);
    without_trims.as_object_mut().unwrap().remove("trimLevels");
    let change = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/cars/{}", ids[0]),
            Some(without_trims),
        )
        .await;
    assert_eq!(change.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(change.json()["field"], "trimLevels");
    let behind_the_api = measure(&app, Some(&slugs[0])).await;
    check("4,000 trim levels behind the API", before, behind_the_api);
    let page = app.get(&format!("/car/{}", slugs[0])).await.text();
    assert!(
        page.matches("\"name\":\"").count() < 200,
        "the car page carries at most the limit of trim levels"
    );
}
