//! A car saved from its form keeps what the form does not show
//! (`docs/admin.md`, "The car form's round trip"): `PUT /api/cars/{id}`
//! keeps every optional field the body leaves out (the feed's `externalId`
//! first), and only an explicit `null` clears one.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::{TestApp, seed_catalogue};
use serde_json::{Value, json};

/// An imported car as the API stores it: every optional field filled.
fn imported(brand_id: &str) -> Value {
    json!({
        "brandId": brand_id, "name": "Jolion", "slug": "haval-jolion-feed", "model": "Jolion",
        "year": 2025, "price": "2 300 000", "monthlyPayment": "39900", "dailyPrice": "3500",
        "status": "new", "bodyType": "crossover", "transmission": "robotic",
        "drivetrain": "front", "fuelType": "gasoline", "engine": "1.5 л, 150 л.с.",
        "mileage": 12, "images": ["/media/aaaa-800.webp", "/media/bbbb-800.webp"],
        "trimLevels": [{"name": "Elite", "description": "Кожа", "link": ""}],
        "inStock": true, "featured": true, "published": false,
        "vin": "LGWEF6A54RH123456", "color": "Серый", "externalId": "4741654998",
        "creditDiscount": "100000", "tradeinDiscount": "50000", "insuranceDiscount": "20000",
        "maxDiscount": "150000", "trim": "Elite", "generation": "I", "doors": 5
    })
}

/// What the admin form sends for a new car (`carInput` in
/// `ui/src/admin/carForm.ts`): the fields it shows, the price changed; no
/// `externalId`, no mileage (shown for used cars) and no daily price (shown
/// for leases).
fn form_body(car: &Value, price: &str) -> Value {
    let mut body = json!({});
    for field in [
        "brandId",
        "name",
        "model",
        "slug",
        "year",
        "monthlyPayment",
        "creditDiscount",
        "tradeinDiscount",
        "insuranceDiscount",
        "maxDiscount",
        "status",
        "bodyType",
        "transmission",
        "drivetrain",
        "fuelType",
        "engine",
        "trim",
        "generation",
        "doors",
        "color",
        "vin",
        "mainImage",
        "images",
        "trimLevels",
        "published",
        "inStock",
        "featured",
    ] {
        body[field] = car[field].clone();
    }
    body["price"] = json!(price);
    body
}

/// The car as stored, without the time of its last change.
fn kept(car: &Value) -> Value {
    let mut car = car.clone();
    car.as_object_mut().unwrap().remove("updatedAt");
    car
}

#[tokio::test]
async fn saving_the_form_keeps_the_feed_id_and_every_field_it_does_not_show() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let created = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/cars",
            Some(imported(&cat.haval)),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let car = created.json();
    assert_eq!(car["externalId"], "4741654998");
    let id = car["id"].as_str().unwrap().to_string();
    let path = format!("/api/cars/{id}");

    // The form's save: the price changed, nothing else.
    let saved = app
        .admin_with(
            &cookie,
            Method::PUT,
            &path,
            Some(form_body(&car, "2250000")),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let after = saved.json();
    assert_eq!(after["externalId"], "4741654998");
    assert_eq!(after["mileage"], 12);
    assert_eq!(after["dailyPrice"], "3500.00");
    assert_eq!(after["price"], "2250000.00");
    let mut expected = kept(&car);
    expected["price"] = json!("2250000.00");
    assert_eq!(kept(&after), expected);
    // The audit says the price changed, and only it.
    let history = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!("/api/admin/audit?objectType=car&objectId={id}&limit=1"),
            None,
        )
        .await
        .json();
    let entry = &history["items"][0];
    assert_eq!(entry["summary"], "Изменена цена: Haval Jolion");
    assert_eq!(
        entry["changes"],
        json!([{"field": "price", "from": "2300000.00", "to": "2250000.00"}])
    );

    // The next import finds it by its feed id, which the database still has.
    assert_eq!(
        app.count(&format!(
            "SELECT count(*) FROM cars WHERE id = '{id}' AND external_id = '4741654998'"
        )),
        1
    );

    // Only the required fields: every optional one is kept (a draft stays a
    // draft, the pictures stay, the discounts stay).
    let mut bare = json!({});
    for field in [
        "brandId",
        "name",
        "slug",
        "model",
        "year",
        "price",
        "status",
        "bodyType",
        "transmission",
        "fuelType",
        "engine",
    ] {
        bare[field] = after[field].clone();
    }
    let same = app
        .admin_with(&cookie, Method::PUT, &path, Some(bare.clone()))
        .await;
    assert_eq!(same.status, StatusCode::OK, "{}", same.text());
    assert_eq!(kept(&same.json()), kept(&after));

    // An explicit null clears; an empty list of pictures clears them.
    let mut cleared = bare.clone();
    cleared["externalId"] = Value::Null;
    cleared["vin"] = Value::Null;
    cleared["creditDiscount"] = json!("");
    cleared["images"] = json!([]);
    let changed = app
        .admin_with(&cookie, Method::PUT, &path, Some(cleared))
        .await
        .json();
    assert_eq!(changed["externalId"], Value::Null);
    assert_eq!(changed["vin"], Value::Null);
    assert_eq!(changed["creditDiscount"], Value::Null);
    assert_eq!(changed["images"], json!([]));
    assert_eq!(changed["tradeinDiscount"], "50000.00", "left out: kept");
    let history = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!("/api/admin/audit?objectType=car&objectId={id}&limit=1"),
            None,
        )
        .await
        .json();
    let mut fields: Vec<&str> = history["items"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    fields.sort_unstable();
    assert_eq!(
        fields,
        ["creditDiscount", "externalId", "images", "vin"],
        "{history}"
    );
}

#[tokio::test]
async fn a_new_car_still_takes_its_defaults_and_an_unknown_car_is_404() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let mut body = imported(&cat.lada);
    for field in ["externalId", "published", "mileage", "vin", "images"] {
        body.as_object_mut().unwrap().remove(field);
    }
    let car = app
        .admin_with(&cookie, Method::POST, "/api/cars", Some(body.clone()))
        .await
        .json();
    assert_eq!(car["externalId"], Value::Null);
    assert_eq!(car["published"], true);
    assert_eq!(car["mileage"], 0);
    let gone = app
        .admin_with(&cookie, Method::PUT, "/api/cars/no-such-car", Some(body))
        .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert_eq!(gone.error(), "Автомобиль не найден");
}
