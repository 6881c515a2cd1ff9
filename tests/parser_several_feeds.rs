//! A dealer's stock from several feeds through the real router on a real
//! SQLite file (`docs/parser.md`, "Several feeds"): feeds side by side each
//! owning its cars, one car in two feeds with the higher feed's values, the
//! condition chosen for a whole preview, and nothing a person did undone by
//! an import or its photo pass, each change in the audit trail.
#![allow(clippy::unwrap_used)]

mod common;
mod parser_support;

use axum::http::{Method, StatusCode};
use common::TestApp;
use dealership::config::Config;
use parser_support::{AdminSession, Files, file_server, png};
use serde_json::{Value, json};

const HEADER: &str = "id;vin;brand;model;trim;year;price;status;body_type;transmission;drivetrain;fuel_type;engine;mileage;color;photos";

fn csv(rows: &[&str]) -> Vec<u8> {
    let mut text = String::from(HEADER);
    for row in rows {
        text.push('\n');
        text.push_str(row);
    }
    text.push('\n');
    text.into_bytes()
}

const JOLION: &str = "N-1;LGWEF6A59NH000001;Haval;Jolion;Elite;2025;2199000;Новый;Кроссовер;Робот;Передний;Бензин;1.5 л, 150 л.с.;0;белый;";
const DARGO: &str = "N-2;LGWEF6A59NH000002;Haval;Dargo;;2025;2999000;Новый;Внедорожник;Робот;Полный;Бензин;2.0 л, 192 л.с.;0;;";
const F7: &str = "U-1;LGWEF6A59NH000003;Haval;F7;;2021;1750000;С пробегом;Внедорожник;Автомат;Полный;Бензин;2.0 л, 190 л.с.;45000;;";
const RIO: &str = "U-2;Z94CB41AAGR000004;Kia;Rio;;2017;1090000;С пробегом;Седан;Автомат;Передний;Бензин;1.6 л, 123 л.с.;87000;;";
/// The same Lexus in both marketplaces' feeds: Auto.ru names its
/// complectation, Avito's row has none and another price.
const GX_AUTORU: &str = "AR-1;JTJBM7FX0L5000005;Lexus;GX;Executive;2023;9000000;С пробегом;Внедорожник;Автомат;Полный;Бензин;4.6 л, 296 л.с.;12000;;";
const GX_AVITO: &str = "AV-77;JTJBM7FX0L5000005;Lexus;GX;;2023;9100000;С пробегом;Внедорожник;Автомат;Полный;Бензин;4.6 л, 296 л.с.;12000;черный;";

fn app() -> TestApp {
    TestApp::with_config(|c| c.parser.allow_private_hosts = true)
}

async fn feed(admin: &AdminSession<'_>, name: &str) -> String {
    let made = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(json!({"name": name, "kind": "file"})),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    made.json()["id"].as_str().unwrap().to_string()
}

async fn preview(admin: &AdminSession<'_>, feed_id: &str, name: &str, rows: &[&str]) -> Value {
    let answer = admin.upload_to(Some(feed_id), name, &csv(rows)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let run = answer.json();
    assert_eq!(run["status"], "preview", "{run}");
    run
}

async fn import(admin: &AdminSession<'_>, feed_id: &str, name: &str, rows: &[&str]) -> Value {
    let run = preview(admin, feed_id, name, rows).await;
    admin.apply(run["id"].as_str().unwrap()).await
}

fn published(app: &TestApp) -> i64 {
    app.count("SELECT count(*) FROM cars WHERE published = 1")
}

fn car_by_vin(app: &TestApp, vin: &str) -> dealership::domain::cars::Car {
    parser_support::all_cars(app)
        .into_iter()
        .find(|c| c.vin.as_deref() == Some(vin))
        .unwrap()
}

#[tokio::test]
async fn feeds_side_by_side_each_unpublish_only_their_own_cars() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let new_cars = feed(&admin, "Новые").await;
    let used_cars = feed(&admin, "С пробегом").await;

    let run = import(&admin, &new_cars, "new.csv", &[JOLION, DARGO]).await;
    assert_eq!(run["counts"]["new"], 2, "{run}");
    assert_eq!(run["feedName"], "Новые");
    // The second feed's preview takes nothing off the site.
    let run = preview(&admin, &used_cars, "used.csv", &[F7, RIO]).await;
    assert_eq!(run["counts"]["new"], 2, "{run}");
    assert_eq!(run["counts"]["gone"], 0, "{run}");
    assert_eq!(run["gone"], json!([]));
    admin.apply(run["id"].as_str().unwrap()).await;
    assert_eq!(published(&app), 4);

    // The new-car feed drops the Dargo: only the Dargo leaves the site.
    let run = import(&admin, &new_cars, "new.csv", &[JOLION]).await;
    assert_eq!(run["counts"]["gone"], 1, "{run}");
    assert_eq!(run["gone"][0]["vin"], "LGWEF6A59NH000002");
    assert_eq!(published(&app), 3);
    assert!(!car_by_vin(&app, "LGWEF6A59NH000002").published);
    assert!(car_by_vin(&app, "LGWEF6A59NH000003").published);

    // Each feed's history is its own; the list of feeds counts their cars.
    let history = |id: String| {
        let admin = &admin;
        async move {
            admin
                .call(
                    Method::GET,
                    &format!("/api/admin/imports?feedId={id}"),
                    None,
                )
                .await
                .json()["items"]
                .as_array()
                .unwrap()
                .len()
        }
    };
    assert_eq!(history(new_cars.clone()).await, 2);
    assert_eq!(history(used_cars.clone()).await, 1);
    let feeds = admin
        .call(Method::GET, "/api/admin/feeds", None)
        .await
        .json();
    assert_eq!(feeds["items"][0]["name"], "Новые");
    assert_eq!(feeds["items"][0]["cars"], 1);
    assert_eq!(feeds["items"][0]["position"], 1);
    assert_eq!(feeds["items"][1]["cars"], 2);

    // Deleting a feed leaves its cars on the site, now in no feed.
    let deleted = admin
        .call(
            Method::DELETE,
            &format!("/api/admin/feeds/{used_cars}"),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(published(&app), 3);
}

#[tokio::test]
async fn a_car_in_two_feeds_is_one_car_and_the_higher_feed_wins() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let autoru = feed(&admin, "Авто.ру").await;
    let avito = feed(&admin, "Avito").await;

    import(&admin, &autoru, "autoru.csv", &[GX_AUTORU]).await;
    let run = preview(&admin, &avito, "avito.csv", &[GX_AVITO]).await;
    assert_eq!(run["counts"]["new"], 0, "{run}");
    let changed = &run["changed"][0];
    assert_eq!(
        changed["alsoIn"],
        json!([{"feedId": autoru, "feedName": "Авто.ру", "wins": true}])
    );
    // Only what the higher feed leaves unstated: the colour.
    let fields: Vec<&str> = changed["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["color"], "{changed}");
    admin.apply(run["id"].as_str().unwrap()).await;
    assert_eq!(app.count("SELECT count(*) FROM cars"), 1);
    let gx = car_by_vin(&app, "JTJBM7FX0L5000005");
    assert_eq!(gx.name, "GX Executive");
    assert_eq!(gx.price.to_string(), "9000000.00");
    assert_eq!(gx.color.as_deref(), Some("черный"));
    assert_eq!(gx.external_id.as_deref(), Some("AR-1"));

    // Avito's next run finds its car by its own id, and changes nothing.
    let run = preview(&admin, &avito, "avito.csv", &[GX_AVITO]).await;
    assert_eq!(run["counts"]["unchanged"], 1, "{run}");

    // Avito placed first: its price wins from its next run on.
    let order = admin
        .call(
            Method::PUT,
            "/api/admin/feeds/order",
            Some(json!({"ids": [avito, autoru]})),
        )
        .await;
    assert_eq!(order.status, StatusCode::OK, "{}", order.text());
    let refused = admin
        .call(
            Method::PUT,
            "/api/admin/feeds/order",
            Some(json!({"ids": [avito]})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    import(&admin, &avito, "avito.csv", &[GX_AVITO]).await;
    let gx = car_by_vin(&app, "JTJBM7FX0L5000005");
    assert_eq!(gx.price.to_string(), "9100000.00");
    // A name that is only the model does not rename the car.
    assert_eq!(gx.name, "GX Executive");

    // Auto.ru drops it: it leaves that feed but stays on the site.
    let run = import(&admin, &autoru, "autoru.csv", &[]).await;
    assert_eq!(run["counts"]["gone"], 0, "{run}");
    assert_eq!(run["counts"]["left"], 1, "{run}");
    assert_eq!(run["left"][0]["staysIn"], "Avito");
    assert!(car_by_vin(&app, "JTJBM7FX0L5000005").published);
    // Avito drops it too: now it is gone.
    let run = import(&admin, &avito, "avito.csv", &[]).await;
    assert_eq!(run["counts"]["gone"], 1, "{run}");
    assert!(!car_by_vin(&app, "JTJBM7FX0L5000005").published);
}

#[tokio::test]
async fn the_condition_chosen_for_a_preview_is_what_applies() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let stock = feed(&admin, "Склад").await;
    let run = preview(&admin, &stock, "stock.csv", &[JOLION, DARGO]).await;
    let id = run["id"].as_str().unwrap().to_string();
    assert_eq!(run["new"][0]["status"], "new");
    let path = format!("/api/admin/imports/{id}/condition");
    let chosen = admin
        .call(Method::PUT, &path, Some(json!({"condition": "used"})))
        .await;
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.text());
    let run = chosen.json();
    assert_eq!(run["condition"], "used");
    assert_eq!(run["new"][0]["status"], "used");
    assert_eq!(run["new"][1]["status"], "used");
    let refused = admin
        .call(Method::PUT, &path, Some(json!({"condition": "broken"})))
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    admin.apply(&id).await;
    let jolion = car_by_vin(&app, "LGWEF6A59NH000001");
    assert_eq!(jolion.status.as_str(), "used");
    // An applied run's condition is no longer a choice.
    let late = admin
        .call(Method::PUT, &path, Some(json!({"condition": null})))
        .await;
    assert_eq!(late.status, StatusCode::CONFLICT);

    // A lease feed: every car lease-to-own, whatever the record says.
    let made = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(json!({"name": "Аренда", "kind": "file", "condition": "lease"})),
        )
        .await;
    let lease = made.json()["id"].as_str().unwrap().to_string();
    let run = preview(&admin, &lease, "lease.csv", &[RIO]).await;
    assert_eq!(run["new"][0]["status"], "lease", "{run}");
}

async fn person_edits(admin: &AdminSession<'_>, id: &str, edit: impl FnOnce(&mut Value)) {
    let car = admin
        .call(Method::GET, &format!("/api/admin/cars/{id}"), None)
        .await
        .json();
    let mut body = json!({});
    for key in [
        "brandId",
        "name",
        "slug",
        "model",
        "year",
        "price",
        "monthlyPayment",
        "dailyPrice",
        "status",
        "bodyType",
        "transmission",
        "drivetrain",
        "fuelType",
        "engine",
        "mileage",
        "images",
        "trimLevels",
        "inStock",
        "featured",
        "published",
        "vin",
        "color",
        "externalId",
        "creditDiscount",
        "tradeinDiscount",
        "insuranceDiscount",
        "maxDiscount",
        "trim",
        "generation",
        "doors",
    ] {
        body[key] = car[key].clone();
    }
    edit(&mut body);
    let saved = admin
        .call(Method::PUT, &format!("/api/cars/{id}"), Some(body))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
}

fn config_of(app: &TestApp) -> std::sync::Arc<Config> {
    let mut config = Config {
        data_dir: app.dir.path().to_path_buf(),
        ..Config::default()
    };
    config.parser.allow_private_hosts = true;
    std::sync::Arc::new(config)
}

async fn audit_of(admin: &AdminSession<'_>, car_id: &str) -> Vec<Value> {
    admin
        .call(
            Method::GET,
            &format!("/api/admin/audit?objectType=car&objectId={car_id}"),
            None,
        )
        .await
        .json()["items"]
        .as_array()
        .unwrap()
        .clone()
}

/// The drill's case: an editor adds a photo to an imported car while the
/// feed's photo downloads fail; the pass ends and her photo is still there.
/// When the feed's photo comes, both are; each change is in the audit trail.
#[tokio::test]
async fn a_photo_pass_never_removes_a_photo_a_person_added() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let files = Files::default();
    let base = file_server(files.clone()).await;
    let config = config_of(&app);
    let stock = feed(&admin, "Склад").await;
    let row = format!(
        "P-1;XW8ZZZ61ZRG000006;Skoda;Octavia;;2024;2600000;Новый;Лифтбек;Робот;Передний;Бензин;1.4 л, 150 л.с.;0;;{base}/p1.png"
    );
    let run = import(&admin, &stock, "stock.csv", &[&row]).await;
    let run_id = run["id"].as_str().unwrap().to_string();
    let car_id = car_by_vin(&app, "XW8ZZZ61ZRG000006").id;

    // The feed's photo is missing: the pass fails it.
    dealership::parser::fetch_photos(app.db.clone(), config.clone())
        .await
        .unwrap();
    let failed = admin
        .call(Method::GET, &format!("/api/admin/imports/{run_id}"), None)
        .await
        .json();
    assert_eq!(failed["photos"]["failed"], 1, "{failed}");

    // A person adds her photo, then the next run and its pass come.
    let hers = admin.picture(&png(800, 600, 40)).await;
    person_edits(&admin, &car_id, |body| body["images"] = json!([hers])).await;
    import(&admin, &stock, "stock.csv", &[&row]).await;
    dealership::parser::fetch_photos(app.db.clone(), config.clone())
        .await
        .unwrap();
    assert_eq!(
        car_by_vin(&app, "XW8ZZZ61ZRG000006").images,
        std::slice::from_ref(&hers)
    );

    // The feed's photo appears: the car has both, the feed's first.
    files.put("/p1.png", "image/png", png(640, 480, 200));
    let run = import(&admin, &stock, "stock.csv", &[&row]).await;
    admin.photos_done(run["id"].as_str().unwrap()).await;
    let images = car_by_vin(&app, "XW8ZZZ61ZRG000006").images;
    assert_eq!(images.len(), 2, "{images:?}");
    assert_eq!(images[1], hers);

    // The trail: the import added the car, the person changed the photos,
    // the photo pass added the feed's.
    let trail = audit_of(&admin, &car_id).await;
    let by = |user: &str, action: &str| {
        trail
            .iter()
            .filter(|e| e["username"] == user && e["action"] == action)
            .count()
    };
    assert_eq!(by("manager", "import"), 1, "{trail:?}");
    assert_eq!(by("manager", "update"), 1, "{trail:?}");
    assert_eq!(by("фото из фида", "import"), 1, "{trail:?}");
    let pass = trail
        .iter()
        .find(|e| e["username"] == "фото из фида")
        .unwrap();
    assert_eq!(
        pass["changes"],
        json!([{"field": "images", "from": "1", "to": "2"}])
    );
}

/// Every change an import makes to a car is in the car's audit trail as the
/// import's; a field a person changed stays while the feed repeats itself.
#[tokio::test]
async fn an_import_records_each_change_to_a_car_and_keeps_a_persons_edit() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let stock = feed(&admin, "Склад").await;
    import(&admin, &stock, "stock.csv", &[F7]).await;
    let car_id = car_by_vin(&app, "LGWEF6A59NH000003").id;
    person_edits(&admin, &car_id, |body| {
        body["color"] = json!("серый");
        body["price"] = json!("1700000");
    })
    .await;
    // The feed repeats itself and lowers no price: nothing a person did
    // changes; then it changes the mileage: only that is written.
    import(&admin, &stock, "stock.csv", &[F7]).await;
    let moved = F7.replace(";45000;", ";46000;");
    let run = import(&admin, &stock, "stock.csv", &[&moved]).await;
    assert_eq!(run["counts"]["changed"], 1, "{run}");
    let f7 = car_by_vin(&app, "LGWEF6A59NH000003");
    assert_eq!(f7.price.to_string(), "1700000.00");
    assert_eq!(f7.color.as_deref(), Some("серый"));
    assert_eq!(f7.mileage, 46000);
    assert_eq!(f7.external_id.as_deref(), Some("U-1"));
    let trail = audit_of(&admin, &car_id).await;
    let imported: Vec<&Value> = trail.iter().filter(|e| e["action"] == "import").collect();
    assert_eq!(imported.len(), 2, "{trail:?}");
    let newest = imported[0];
    assert_eq!(
        newest["changes"],
        json!([{"field": "mileage", "from": "45000", "to": "46000"}]),
        "{newest}"
    );
    assert!(
        newest["summary"]
            .as_str()
            .unwrap()
            .starts_with("Импорт из фида «Склад»: изменён"),
        "{newest}"
    );
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/feeds/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The drill's four feeds, in the marketplaces' documented shapes
/// (`tests/fixtures/feeds/README.md`): Auto.ru new and used (the used one
/// with no `<run>` and no `<section>`), Avito new and used. Each feed's
/// apply leaves the others' cars on the site; the used feeds' cars are
/// used; the Lexus both new feeds list is one car named as Auto.ru names it.
#[tokio::test]
async fn the_four_feeds_a_dealer_publishes_put_the_whole_stock_on_the_site() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let mut made = Vec::new();
    for (name, condition, file) in [
        ("Авто.ру, новые", "record", "autoru-new.xml"),
        ("Авто.ру, с пробегом", "used", "autoru-used.xml"),
        ("Avito, новые", "record", "avito-new.xml"),
        ("Avito, с пробегом", "used", "avito-used.xml"),
    ] {
        let feed = admin
            .call(
                Method::POST,
                "/api/admin/feeds",
                Some(json!({"name": name, "kind": "file", "condition": condition})),
            )
            .await
            .json();
        made.push((feed["id"].as_str().unwrap().to_string(), file));
    }
    let mut imported = 0;
    for (feed_id, file) in &made {
        let answer = admin.upload_to(Some(feed_id), file, &fixture(file)).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        let run = answer.json();
        assert_eq!(run["counts"]["gone"], 0, "{file}: {run}");
        // No used car of a used feed would be published as new.
        if file.contains("used") {
            let as_new = run["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|w| w["field"] == "status")
                .count();
            assert_eq!(as_new, 0, "{file}: {run}");
            assert!(
                run["new"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|c| c["status"] == "used"),
                "{file}: {run}"
            );
        }
        let applied = admin.apply(run["id"].as_str().unwrap()).await;
        imported += applied["counts"]["new"].as_i64().unwrap();
    }
    assert!(imported > 30, "{imported}");
    assert_eq!(app.count("SELECT count(*) FROM cars"), imported);
    assert_eq!(published(&app), imported);
    assert_eq!(
        app.count(
            "SELECT count(*) FROM cars c JOIN feed_cars fc ON fc.car_id = c.id
             JOIN import_feeds f ON f.id = fc.feed_id
             WHERE f.condition = 'used' AND c.status != 'used'"
        ),
        0
    );
    // The 2008 Focus whose record says nothing is used by its feed.
    assert_eq!(
        app.count(
            "SELECT count(*) FROM cars WHERE year = 2008 AND model = 'Focus' AND status = 'used'"
        ),
        1
    );
    let gx = car_by_vin(&app, "JTJBA7BX6R5012384");
    assert_eq!(gx.name, "GX Executive");
    assert_eq!(
        app.count("SELECT count(*) FROM feed_cars WHERE car_id = (SELECT id FROM cars WHERE vin = 'JTJBA7BX6R5012384') AND listed = 1"),
        2
    );
}

/// Several salons (issue 46, `docs/salons.md` "Feeds"): each salon's feed
/// brings its new cars into that salon; the same VIN in the other salon's
/// feed is one car, reported in the preview, and stays where it stands.
#[tokio::test]
async fn each_salons_feed_brings_its_cars_to_its_salon() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let salon = admin
        .call(
            Method::POST,
            "/api/admin/salons",
            Some(json!({"name": "Салон на Выборгской"})),
        )
        .await;
    assert_eq!(salon.status, StatusCode::CREATED, "{}", salon.text());
    let main = feed(&admin, "Невский").await;
    let north = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(json!({"name": "Выборгская", "kind": "file", "salonId": 2})),
        )
        .await;
    assert_eq!(north.status, StatusCode::CREATED, "{}", north.text());
    assert_eq!(north.json()["salonId"], 2);
    let north = north.json()["id"].as_str().unwrap().to_string();
    let unknown = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(json!({"name": "Чужой", "kind": "file", "salonId": 9})),
        )
        .await;
    assert_eq!(unknown.json()["field"], "salonId");

    import(&admin, &main, "main.csv", &[JOLION, GX_AUTORU]).await;
    import(&admin, &north, "north.csv", &[F7]).await;
    assert_eq!(car_by_vin(&app, "LGWEF6A59NH000001").salon_id, None);
    assert_eq!(car_by_vin(&app, "LGWEF6A59NH000003").salon_id, Some(2));
    // The Lexus in the second salon's feed too: one car, said so.
    let run = preview(&admin, &north, "north.csv", &[F7, GX_AVITO]).await;
    assert_eq!(run["counts"]["new"], 0, "{run}");
    assert_eq!(run["changed"][0]["alsoIn"][0]["feedName"], "Невский");
    admin.apply(run["id"].as_str().unwrap()).await;
    assert_eq!(app.count("SELECT count(*) FROM cars"), 3);
    assert_eq!(car_by_vin(&app, "JTJBM7FX0L5000005").salon_id, None);
}
