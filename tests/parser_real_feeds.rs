//! Feeds in the shapes dealers publish today (`tests/fixtures/feeds/`, written
//! from the marketplaces' format descriptions, not from our export): every
//! car imports with what its feed states, or is a row error naming its row
//! and field; body types beyond the spec's six become the dealership's own;
//! unstated fields are warnings and a self-check; a re-import keeps what
//! staff set (`docs/parser.md`).
#![allow(clippy::unwrap_used)]

mod common;
mod parser_support;

use axum::http::{Method, StatusCode};
use common::TestApp;
use dealership::domain::cars::Car;
use dealership::parser::mapping::engine_figures;
use parser_support::{AdminSession, all_cars};
use serde_json::{Value, json};

const FIXTURES: [&str; 4] = [
    "autoru-new.xml",
    "autoru-used.xml",
    "avito-new.xml",
    "avito-used.xml",
];

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/feeds/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn expected() -> Value {
    serde_json::from_slice(&fixture("expected.json")).unwrap()
}

fn text_or_null(value: Option<&str>) -> Value {
    value.map_or(Value::Null, |v| Value::String(v.into()))
}

/// What the expectations name, read from a stored car.
fn shape_of(car: &Car) -> Value {
    let (volume, power) = engine_figures(&car.engine);
    json!({
        "brand": car.brand_name.to_lowercase(),
        "model": car.model,
        "generation": text_or_null(car.generation.as_deref()),
        "trim": text_or_null(car.trim.as_deref()),
        "name": car.name,
        "year": car.year,
        "price": car.price.rubles().to_string(),
        "status": car.status.as_str(),
        "bodyType": car.body_type.as_str(),
        "transmission": car.transmission.as_str(),
        "drivetrain": car.drivetrain.map(|d| d.as_str()),
        "fuelType": car.fuel_type.as_str(),
        "engineVolume": volume,
        "powerHp": power,
        "doors": car.doors,
        "vin": text_or_null(car.vin.as_deref()),
    })
}

fn expected_shape(case: &Value) -> Value {
    let mut shape = json!({});
    for key in [
        "model",
        "generation",
        "trim",
        "name",
        "year",
        "price",
        "status",
        "bodyType",
        "transmission",
        "drivetrain",
        "fuelType",
        "engineVolume",
        "powerHp",
        "doors",
        "vin",
    ] {
        shape[key] = case.get(key).cloned().unwrap_or(Value::Null);
    }
    shape["brand"] = Value::String(
        case["brand"]
            .as_str()
            .unwrap()
            .trim()
            .to_lowercase()
            .replace("ваз (lada)", "lada (ваз)"),
    );
    shape
}

/// The brand a car was stored under: the catalogue's spelling of the first
/// car of that brand ("LEXUS" joins "Lexus"; "ВАЗ (LADA)" joins "LADA (ВАЗ)").
fn same_brand(stored: &str, expected: &str) -> bool {
    let key = dealership::domain::imports::brand_key;
    key(stored) == key(expected)
}

#[tokio::test]
async fn every_car_of_real_feeds_imports_with_what_its_feed_states_or_names_its_field() {
    let expected = expected();
    for name in FIXTURES {
        let app = TestApp::new();
        let admin = AdminSession::new(&app).await;
        let preview = admin.upload(name, &fixture(name)).await;
        assert_eq!(preview.status, StatusCode::OK, "{name}: {}", preview.text());
        let run = preview.json();
        assert_eq!(run["status"], "preview", "{name}: {run}");
        let cases = expected[name].as_array().unwrap();
        let importing = cases.iter().filter(|c| c["imports"] == true).count();
        assert_eq!(run["counts"]["new"], importing, "{name}: {}", run["errors"]);
        assert_eq!(
            run["counts"]["errors"],
            cases.len() - importing,
            "{name}: {}",
            run["errors"]
        );
        // Each refused car is an error naming its row and the feed's field.
        for case in cases.iter().filter(|c| c["imports"] == false) {
            let row = case["row"].as_u64().unwrap();
            let error = run["errors"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["row"] == row)
                .unwrap_or_else(|| panic!("{name}: {}: no error", case["case"]));
            assert_eq!(
                error["field"], case["errorField"],
                "{name}: {}",
                case["case"]
            );
            assert!(error["line"].as_u64().unwrap() > 1, "{name}: {error}");
        }
        // Warnings are the unstated fields, per row, not errors.
        for case in cases.iter().filter(|c| c["imports"] == true) {
            let row = case["row"].as_u64().unwrap();
            let mut fields: Vec<String> = run["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|w| w["row"] == row)
                .map(|w| w["field"].as_str().unwrap().to_string())
                .collect();
            fields.sort();
            let mut want: Vec<String> = case["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_str().unwrap().to_string())
                .collect();
            want.sort();
            assert_eq!(fields, want, "{name}: {} warnings", case["case"]);
        }
        let with_warnings = cases
            .iter()
            .filter(|c| c["imports"] == true && !c["warnings"].as_array().unwrap().is_empty())
            .count();
        assert_eq!(run["counts"]["warnings"], with_warnings, "{name}");

        admin.apply(run["id"].as_str().unwrap()).await;
        let stored = all_cars(&app);
        assert_eq!(stored.len(), importing, "{name}");
        for case in cases.iter().filter(|c| c["imports"] == true) {
            let vin = case["vin"].as_str();
            let id = case["externalId"].as_str();
            let car = stored
                .iter()
                .find(|c| {
                    (id.is_some() && c.external_id.as_deref() == id)
                        || (vin.is_some() && c.vin.as_deref() == vin)
                })
                .unwrap_or_else(|| panic!("{name}: {} not stored", case["case"]));
            assert!(
                same_brand(&car.brand_name, case["brand"].as_str().unwrap()),
                "{name}: {}: brand {}",
                case["case"],
                car.brand_name
            );
            let mut got = shape_of(car);
            let mut want = expected_shape(case);
            got["brand"] = Value::Null;
            want["brand"] = Value::Null;
            assert_eq!(got, want, "{name}: {}", case["case"]);
            assert!(car.published, "{name}: {}", case["case"]);
        }
    }
}

#[tokio::test]
async fn body_types_beyond_the_six_become_the_dealerships_own() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    let run = admin
        .upload("autoru-new.xml", &fixture("autoru-new.xml"))
        .await
        .json();
    let new_types: Vec<&str> = run["newBodyTypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["bodyType"].as_str().unwrap())
        .collect();
    for slug in ["liftback", "kupe", "cabriolet", "minivan"] {
        assert!(new_types.contains(&slug), "{slug} in {new_types:?}");
    }
    // Each once, however many cars name it.
    let mut unique = new_types.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), new_types.len(), "{new_types:?}");
    // The preview creates nothing.
    assert_eq!(app.count("SELECT count(*) FROM body_types"), 6);
    admin.apply(run["id"].as_str().unwrap()).await;

    let types = app.get("/api/body-types").await.json();
    let minivan = types
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["bodyType"] == "minivan")
        .unwrap();
    assert_eq!(minivan["labelPlural"], "Минивэны");
    assert_eq!(minivan["labelSingle"], "Минивэн");
    assert_eq!(minivan["builtIn"], false);
    assert!(minivan["carCount"].as_i64().unwrap() >= 1);
    // Its page, its list and the sitemap follow the table.
    let page = app.get("/body-type/minivan").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text().contains("<title>Минивэны"), "{}", page.text());
    let list = app.get("/api/cars/fast?bodyType=minivan").await.json();
    assert!(!list.as_array().unwrap().is_empty());
    assert!(
        app.get("/sitemap.xml")
            .await
            .text()
            .contains("/body-type/minivan")
    );
    // A second feed naming the same type by another spelling reuses it.
    let again = admin
        .upload(
            "more.xml",
            br#"<data><cars><car><unique_id>X-1</unique_id><mark_id>Kia</mark_id>
            <folder_id>Carnival, IV</folder_id><modification_id>2.2d AT (199 &#1083;.&#1089;.)</modification_id>
            <body_type>MINIVAN</body_type><year>2024</year><price>5900000</price></car></cars></data>"#,
        )
        .await
        .json();
    assert_eq!(again["newBodyTypes"], json!([]), "{again}");
}

/// A feed of one new car, its drive and price as given.
fn one_car(drive: Option<&str>, price: &str) -> Vec<u8> {
    let drive = drive.map_or(String::new(), |d| format!("<drive>{d}</drive>"));
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<data><cars><car>
  <unique_id>GX-1</unique_id>
  <mark_id>Lexus</mark_id>
  <folder_id>GX, III</folder_id>
  <modification_id>550 3.4 AT (354 л.с.)</modification_id>
  <complectation_name>Executive</complectation_name>
  <body_type>Внедорожник 5 дв.</body_type>
  {drive}
  <section>new</section>
  <year>2025</year>
  <price>{price}</price>
  <currency>RUR</currency>
</car></cars></data>"#
    )
    .into_bytes()
}

fn the_car(app: &TestApp) -> Car {
    all_cars(app).into_iter().next().unwrap()
}

fn input_of(car: &Car) -> Value {
    let mut input = serde_json::to_value(car).unwrap();
    input["price"] = Value::String(car.price.to_string());
    input
}

#[tokio::test]
async fn a_reimport_keeps_what_staff_set_unless_the_feed_now_states_it() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    let run = admin.import("gx.xml", &one_car(None, "11990000")).await;
    assert_eq!(run["counts"]["warnings"], 1, "{run}");
    let car = the_car(&app);
    assert_eq!(car.drivetrain, None);
    assert_eq!(car.name, "GX Executive");
    assert_eq!(car.generation.as_deref(), Some("III"));
    assert_eq!(car.engine, "3.4 л, 354 л.с.");

    // The self-check lists the unstated drive, with the car's editor.
    let checks = admin
        .call(Method::GET, "/api/admin/checks", None)
        .await
        .json();
    let unstated: Vec<&Value> = checks["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["check"] == "car_unstated_fields")
        .collect();
    assert_eq!(unstated.len(), 1, "{checks}");
    assert_eq!(unstated[0]["link"], format!("/admin/cars?edit={}", car.id));
    assert!(unstated[0]["detail"].as_str().unwrap().contains("привод"));

    // Staff complete the drive, rename it, feature it and lower the price.
    let mut input = input_of(&car);
    input["drivetrain"] = json!("all");
    input["name"] = json!("GX 550 Executive");
    input["featured"] = json!(true);
    input["price"] = json!("11500000");
    let saved = admin
        .call(Method::PUT, &format!("/api/cars/{}", car.id), Some(input))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let checks = admin
        .call(Method::GET, "/api/admin/checks", None)
        .await
        .json();
    assert!(
        !checks["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["check"] == "car_unstated_fields"),
        "{checks}"
    );

    // The same feed again changes nothing a person set.
    let preview = admin
        .upload("gx.xml", &one_car(None, "11990000"))
        .await
        .json();
    assert_eq!(preview["counts"]["unchanged"], 1, "{preview}");
    admin.apply(preview["id"].as_str().unwrap()).await;
    let car = the_car(&app);
    assert_eq!(car.drivetrain.map(|d| d.as_str()), Some("all"));
    assert_eq!(car.name, "GX 550 Executive");
    assert!(car.featured);
    assert_eq!(car.price.to_string(), "11500000.00");

    // A feed that now states a field writes it: a new price, a drive.
    let preview = admin
        .upload("gx.xml", &one_car(Some("Задний"), "12100000"))
        .await
        .json();
    let changes = &preview["changed"][0]["changes"];
    let fields: Vec<&str> = changes
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["price", "drivetrain"], "{changes}");
    assert_eq!(changes[1]["old"], "Полный");
    assert_eq!(changes[1]["new"], "Задний");
    admin.apply(preview["id"].as_str().unwrap()).await;
    let car = the_car(&app);
    assert_eq!(car.drivetrain.map(|d| d.as_str()), Some("rear"));
    assert_eq!(car.price.to_string(), "12100000.00");
    assert_eq!(
        car.name, "GX 550 Executive",
        "the name the feed did not change"
    );
    assert!(car.featured);
}

#[tokio::test]
async fn staff_add_and_delete_body_types_and_cars_take_them() {
    let app = TestApp::new();
    let catalogue = common::seed_catalogue(&app);
    let admin = AdminSession::new(&app).await;
    let add = |body: Value| admin.call(Method::POST, "/api/body-types", Some(body));
    let created =
        add(json!({"bodyType": "minivan", "labelPlural": "Минивэны", "labelSingle": "Минивэн"}))
            .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    assert_eq!(created.json()["builtIn"], false);
    let again =
        add(json!({"bodyType": "minivan", "labelPlural": "Ещё", "labelSingle": "Ещё"})).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.json()["field"], "bodyType");
    assert_eq!(again.json()["error"], "Такой тип кузова уже есть");
    for slug in ["Мини вэн", "-van", "van--x", ""] {
        let bad = add(json!({"bodyType": slug, "labelPlural": "А", "labelSingle": "А"})).await;
        assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{slug}");
        assert_eq!(bad.json()["field"], "bodyType", "{slug}");
    }
    let unnamed =
        add(json!({"bodyType": "van", "labelPlural": " ", "labelSingle": "Фургон"})).await;
    assert_eq!(unnamed.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unnamed.json()["field"], "labelPlural");
    assert_eq!(unnamed.json()["error"], "Название обязательно");

    // A car of the new type; the list and its page show it.
    let mut input = json!({
        "brandId": catalogue.haval, "name": "Odyssey", "slug": "odyssey-1", "model": "Odyssey",
        "year": 2024, "price": "3000000", "status": "new", "bodyType": "minivan",
        "transmission": "cvt", "fuelType": "gasoline", "engine": "2.4 л, 175 л.с."
    });
    let car = admin
        .call(Method::POST, "/api/cars", Some(input.clone()))
        .await;
    assert_eq!(car.status, StatusCode::CREATED, "{}", car.text());
    let car_id = car.json()["id"].as_str().unwrap().to_string();
    assert_eq!(
        app.get("/api/cars/body-type/minivan/fast").await.json()[0]["id"],
        car_id.as_str()
    );
    // An unknown type is refused at its field.
    input["bodyType"] = json!("limousine");
    input["slug"] = json!("odyssey-2");
    let refused = admin.call(Method::POST, "/api/cars", Some(input)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json()["field"], "bodyType");

    // Not while cars have it; never one of the six.
    let busy = admin
        .call(Method::DELETE, "/api/body-types/minivan", None)
        .await;
    assert_eq!(busy.status, StatusCode::CONFLICT);
    assert!(busy.json()["error"].as_str().unwrap().contains("(1)"));
    let built_in = admin
        .call(Method::DELETE, "/api/body-types/sedan", None)
        .await;
    assert_eq!(built_in.status, StatusCode::CONFLICT);
    assert_eq!(
        built_in.json()["error"],
        "Встроенный тип кузова нельзя удалить"
    );
    admin
        .call(Method::DELETE, &format!("/api/cars/{car_id}"), None)
        .await;
    let gone = admin
        .call(Method::DELETE, "/api/body-types/minivan", None)
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    assert_eq!(
        app.get("/body-type/minivan").await.status,
        StatusCode::NOT_FOUND
    );
    // Without a session: refused.
    let anonymous = app
        .post_json(
            "/api/body-types",
            &json!({"bodyType": "van", "labelPlural": "Фургоны", "labelSingle": "Фургон"}),
        )
        .await;
    assert!(
        anonymous.status == StatusCode::UNAUTHORIZED || anonymous.status == StatusCode::FORBIDDEN
    );
}
