//! The exported feeds: published stock only, kept in the answer cache and
//! dropped on a write, and a round trip (the demo stock exported as Auto.ru
//! and Avito XML, imported into an empty database: the same cars, prices
//! and photos).
#![allow(clippy::unwrap_used)]

mod common;
mod parser_support;

use std::collections::BTreeMap;

use axum::ServiceExt;
use axum::http::{Method, StatusCode};
use common::{TestApp, seed_catalogue};
use dealership::domain::cars::{BodyType, Car};
use parser_support::{AdminSession, all_cars, serve};
use serde_json::json;

#[tokio::test]
async fn feeds_list_published_stock_never_drafts_and_are_cached_until_a_write() {
    let app = TestApp::new();
    seed_catalogue(&app);
    complete_for_marketplaces(&app);
    for path in ["/feeds/avito.xml", "/feeds/autoru.xml", "/feeds/yandex.yml"] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert!(
            answer.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/xml")
        );
        let text = answer.text();
        assert!(!text.contains("haval-h9-draft"), "{path} lists a draft");
        assert!(text.contains("+7 (812) 000-00-00"), "{path}: contacts");
    }
    let autoru = app.get("/feeds/autoru.xml").await.text();
    assert!(autoru.contains("<url>http://localhost:8080/car/haval-jolion-0</url>"));
    assert!(autoru.contains("<price>2100000</price>"), "{autoru}");
    // The lease car is not for sale on the marketplaces.
    assert!(!autoru.contains("haval-m6-lease"));
    assert!(autoru.contains("http://localhost:8080/media/aaaa-800.webp"));
    let yandex = app.get("/feeds/yandex.yml").await.text();
    assert!(yandex.contains("<yml_catalog date="));
    assert!(yandex.contains("<set-ids>all</set-ids>"));

    let hits = app.answers.stats().hits;
    app.get("/feeds/avito.xml").await;
    assert_eq!(app.answers.stats().hits, hits + 1, "served from the cache");
    assert_eq!(
        app.get("/feeds/avito.xml?x=1").await.status,
        StatusCode::BAD_REQUEST
    );

    // A write drops it: the new price is in the next answer.
    let admin = AdminSession::new(&app).await;
    let answer = admin
        .call(
            Method::PUT,
            "/api/cars/prices/bulk",
            Some(json!({"priceMultiplier": "2"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let autoru = app.get("/feeds/autoru.xml").await.text();
    assert!(autoru.contains("<price>4200000</price>"), "{autoru}");
}

/// A feed too large for the answer cache (thousands of cars) is still
/// rendered and compressed once per content version, however often it is
/// asked for: here every gzip answer bypasses the answer cache, as a large
/// one would.
#[tokio::test]
async fn a_feed_is_rendered_once_per_version_and_sent_gzipped() {
    let mut store = None;
    let app = TestApp::with_state(|state| store = Some(state.feeds.clone()));
    let store = store.unwrap();
    seed_catalogue(&app);
    complete_for_marketplaces(&app);
    let gunzip = |body: &[u8]| {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(body), &mut text).unwrap();
        text
    };
    for _ in 0..5 {
        let answer = app
            .get_with("/feeds/autoru.xml", "accept-encoding", "gzip, deflate, br")
            .await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.headers["content-encoding"], "gzip");
        assert!(gunzip(&answer.body).contains("<price>2100000</price>"));
    }
    assert_eq!(store.renders(), 1, "one rendering for five requests");

    let admin = AdminSession::new(&app).await;
    admin
        .call(
            Method::PUT,
            "/api/cars/prices/bulk",
            Some(json!({"priceMultiplier": "2"})),
        )
        .await;
    let answer = app
        .get_with("/feeds/autoru.xml", "accept-encoding", "gzip")
        .await;
    assert!(gunzip(&answer.body).contains("<price>4200000</price>"));
    assert_eq!(store.renders(), 2, "a write makes it render again");
    // A client that refuses gzip gets the plain feed.
    let plain = app
        .get_with("/feeds/autoru.xml", "accept-encoding", "gzip;q=0, identity")
        .await;
    assert!(plain.headers.get("content-encoding").is_none());
    assert!(plain.text().contains("<price>4200000</price>"));
}

/// Gives the seeded cars what the marketplaces require of every car (a VIN,
/// a colour of their palettes, a new car's complectation, a used car's
/// owners, accident and state).
fn complete_for_marketplaces(app: &TestApp) {
    app.db
        .conn()
        .unwrap()
        .execute_batch(
            "UPDATE cars SET vin = printf('LVVDB11B0PD%06d', rowid), color = 'Белый',
                owners = 1, accident = 0, state = 'good', trim = coalesce(trim, 'Comfort')",
        )
        .unwrap();
}

/// What a round trip keeps of a car: every field the site shows, as the
/// marketplace's dictionaries write it (a colour by its palette; Auto.ru
/// names only all-wheel drive, in the modification).
fn shape(car: &Car, feed: &str) -> serde_json::Value {
    let autoru = feed.contains("autoru");
    let color = car.color.as_deref().map(|c| {
        if autoru {
            dealership::parser::export::autoru_color(c)
        } else {
            dealership::parser::export::avito_color(c)
        }
        .unwrap_or(c)
        .to_string()
    });
    let drivetrain = car
        .drivetrain
        .filter(|d| !autoru || *d == dealership::domain::cars::Drivetrain::All);
    let body = if car.body_type == BodyType::CROSSOVER {
        // Both marketplaces spell crossovers and SUVs alike (docs/parser.md).
        BodyType::COUPE
    } else {
        car.body_type.clone()
    };
    json!({
        "brand": car.brand_name,
        "name": car.name,
        "model": car.model,
        "trim": car.trim,
        "generation": car.generation,
        "year": car.year,
        "price": car.price.to_string(),
        "status": car.status.as_str(),
        "body": body.as_str(),
        "transmission": car.transmission.as_str(),
        "drivetrain": drivetrain.map(|d| d.as_str()),
        "fuel": car.fuel_type.as_str(),
        "engine": car.engine,
        "mileage": car.mileage,
        "doors": car.doors,
        "vin": car.vin,
        "color": color,
        "photos": car.images.len(),
    })
}

fn stock_by_vin(cars: &[Car]) -> BTreeMap<String, Car> {
    cars.iter()
        .map(|c| {
            let key = c
                .vin
                .clone()
                .or_else(|| c.external_id.clone())
                .unwrap_or_else(|| c.id.clone());
            (key, c.clone())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_stock_goes_out_and_back_in_as_autoru_and_avito() {
    // The source site, served over TCP so its photos can be fetched.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let source = TestApp::with_config(|c| c.base_url = format!("http://{addr}"));
    assert!(dealership::demo::seed(&source.db, &source.dir.path().join("media")).unwrap());
    // One picture a car keeps the test's picture work (each is fetched and
    // resized again on import) to a minute on a small machine.
    source
        .db
        .conn()
        .unwrap()
        .execute("DELETE FROM car_images WHERE position > 0", [])
        .unwrap();
    let tcp = tokio::net::TcpListener::bind(addr).await.unwrap();
    let app = source.app.clone();
    tokio::spawn(async move {
        axum::serve(
            tcp,
            ServiceExt::<axum::extract::Request>::into_make_service_with_connect_info::<
                std::net::SocketAddr,
            >(app),
        )
        .await
        .unwrap();
    });
    let _ = serve; // the helper is for other tests; this one needs a fixed address
    let stock = dealership::parser::export::stock(&source.db.conn().unwrap()).unwrap();
    assert!(stock.len() > 10, "{} cars in stock", stock.len());
    let expected = stock_by_vin(&stock);

    for feed in ["/feeds/autoru.xml", "/feeds/avito.xml"] {
        let xml = source.get(feed).await.text();
        let target = TestApp::with_config(|c| c.parser.allow_private_hosts = true);
        let admin = AdminSession::new(&target).await;
        let preview = admin.upload("feed.xml", xml.as_bytes()).await.json();
        assert_eq!(
            preview["counts"]["errors"], 0,
            "{feed}: {}",
            preview["errors"]
        );
        assert_eq!(preview["counts"]["new"], stock.len(), "{feed}");
        let applied = admin.apply(preview["id"].as_str().unwrap()).await;
        let run = admin.photos_done(applied["id"].as_str().unwrap()).await;
        assert_eq!(run["photos"]["failed"], 0, "{feed}: {}", run["photoErrors"]);

        let imported = stock_by_vin(&all_cars(&target));
        assert_eq!(imported.len(), expected.len(), "{feed}");
        for (key, car) in &expected {
            let back = imported
                .get(key)
                .unwrap_or_else(|| panic!("{feed}: {key} missing"));
            assert_eq!(shape(back, feed), shape(car, feed), "{feed}: {key}");
            if feed.contains("autoru") {
                assert_eq!(back.max_discount, car.max_discount);
                assert_eq!(back.credit_discount, car.credit_discount);
            }
        }
    }
}
