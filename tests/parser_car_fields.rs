//! The marketplaces' car fields (owners by ПТС, accident, state, wheel)
//! through the real router: imports read them from Auto.ru, Avito and CSV
//! feeds (`docs/parser.md`, "The marketplaces' car fields"), a feed that
//! says nothing keeps what a person typed; and the admin is told why a car
//! is left out of a marketplace's feed (`docs/admin.md`, "Why a car is not
//! on a marketplace").
#![allow(clippy::unwrap_used)]

mod common;
mod parser_support;

use axum::http::{Method, StatusCode};
use common::{TestApp, car_input};
use dealership::domain::cars::{self, Car, CarState, CarStatus, Wheel};
use parser_support::{AdminSession, all_cars};
use serde_json::{Value, json};

fn app() -> TestApp {
    TestApp::with_config(|c| c.parser.allow_private_hosts = true)
}

fn car_of(app: &TestApp, external_id: &str) -> Car {
    all_cars(app)
        .into_iter()
        .find(|c| c.external_id.as_deref() == Some(external_id))
        .unwrap_or_else(|| panic!("no car {external_id}"))
}

/// Uploads a feed and applies its preview; gives the preview.
async fn import(admin: &AdminSession<'_>, name: &str, feed: &str) -> Value {
    let answer = admin.upload(name, feed.as_bytes()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let preview = answer.json();
    assert_eq!(preview["counts"]["errors"], 0, "{preview}");
    admin.apply(preview["id"].as_str().unwrap()).await;
    preview
}

fn autoru_car(id: &str, extra: &str) -> String {
    format!(
        r#"<car>
  <unique_id>{id}</unique_id><mark_id>Kia</mark_id><folder_id>Rio, IV</folder_id>
  <modification_id>1.6 AT (123 л.с.)</modification_id><body_type>Седан</body_type>
  <year>2021</year><price>1500000</price><currency>RUR</currency><run>45000</run>
  {extra}
</car>"#
    )
}

fn autoru(cars: &[String]) -> String {
    format!("<data><cars>{}</cars></data>", cars.concat())
}

fn avito(extra: &str) -> String {
    format!(
        r#"<Ads formatVersion="3" target="Avito.ru"><Ad>
  <Id>AV-1</Id><Category>Автомобили</Category><Make>Haval</Make><Model>F7</Model>
  <Year>2020</Year><Price>1749000</Price><BodyType>Внедорожник</BodyType>
  <FuelType>Бензин</FuelType><Transmission>Робот</Transmission>
  <CarType>С пробегом</CarType><Kilometrage>61000</Kilometrage>
  {extra}
</Ad></Ads>"#
    )
}

const CSV_HEAD: &str = "id;brand;model;year;price;status;body_type;transmission;fuel_type;engine;mileage;owners;accident;state;wheel";

#[tokio::test]
async fn each_format_s_owners_accident_state_and_wheel_are_stored() {
    let app = app();
    let admin = AdminSession::new(&app).await;

    let feed = autoru(&[
        autoru_car(
            "R-1",
            "<section>used</section><owners_number>Два владельца</owners_number>\
             <state>ХОРОШЕЕ</state><wheel>RIGHT</wheel>",
        ),
        autoru_car(
            "R-2",
            "<owners_number>Три и более</owners_number><state>требует ремонта</state>\
             <wheel>Левый</wheel>",
        ),
    ]);
    import(&admin, "autoru.xml", &feed).await;
    let r1 = car_of(&app, "R-1");
    assert_eq!(r1.status, CarStatus::Used);
    assert_eq!(
        (r1.owners, r1.accident, r1.state, r1.wheel),
        (Some(2), None, Some(CarState::Good), Wheel::Right)
    );
    let r2 = car_of(&app, "R-2");
    assert_eq!(
        (r2.owners, r2.state, r2.wheel),
        (Some(3), Some(CarState::NeedsRepair), Wheel::Left)
    );

    import(
        &admin,
        "avito.xml",
        &avito("<Owners>1</Owners><Accident>Битый</Accident><WheelType>Правый</WheelType>"),
    )
    .await;
    let av = car_of(&app, "AV-1");
    assert_eq!(
        (av.owners, av.accident, av.state, av.wheel),
        (Some(1), Some(true), None, Wheel::Right)
    );

    let csv = format!(
        "{CSV_HEAD}\nC-1;Lada;Vesta;2019;900000;used;Седан;MT;Бензин;1.6 л, 106 л.с.;88000;4;нет;Среднее;Правый\n"
    );
    import(&admin, "stock.csv", &csv).await;
    let c1 = car_of(&app, "C-1");
    assert_eq!(
        (c1.owners, c1.accident, c1.state, c1.wheel),
        (Some(4), Some(false), Some(CarState::Average), Wheel::Right)
    );
}

#[tokio::test]
async fn a_feed_that_says_nothing_keeps_what_a_person_typed_and_a_new_value_wins() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let bare = autoru(&[autoru_car("R-1", "<section>used</section>")]);
    import(&admin, "autoru.xml", &bare).await;
    let car = car_of(&app, "R-1");
    assert_eq!(
        (car.owners, car.accident, car.state, car.wheel),
        (None, None, None, Wheel::Left)
    );

    // Staff complete the car in the form.
    let saved = admin
        .call(
            Method::PUT,
            &format!("/api/cars/{}", car.id),
            Some(json!({
                "brandId": car.brand_id, "name": car.name, "slug": car.slug,
                "model": car.model, "year": car.year, "price": "1500000",
                "status": "used", "bodyType": car.body_type.as_str(),
                "transmission": "automatic", "fuelType": "gasoline", "engine": car.engine,
                "owners": 1, "accident": false, "state": "excellent", "wheel": "right"
            })),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());

    // The same feed again, and one with a new price: what staff typed stays.
    import(&admin, "autoru.xml", &bare).await;
    let priced = bare.replace("<price>1500000</price>", "<price>1450000</price>");
    let preview = import(&admin, "autoru.xml", &priced).await;
    assert_eq!(preview["counts"]["changed"], 1, "{preview}");
    let kept = car_of(&app, "R-1");
    assert_eq!(kept.price.to_string(), "1450000.00");
    assert_eq!(
        (kept.owners, kept.accident, kept.state, kept.wheel),
        (
            Some(1),
            Some(false),
            Some(CarState::Excellent),
            Wheel::Right
        )
    );

    // The feed states them now: its values win, as a change in the preview.
    let stated = autoru(&[autoru_car(
        "R-1",
        "<section>used</section><owners_number>Два владельца</owners_number>\
         <state>Хорошее</state><wheel>Левый</wheel>",
    )])
    .replace("<price>1500000</price>", "<price>1450000</price>");
    let preview = import(&admin, "autoru.xml", &stated).await;
    let changes = preview["changed"][0]["changes"].as_array().unwrap().clone();
    let shown: Vec<(String, String, String)> = changes
        .iter()
        .map(|c| {
            (
                c["label"].as_str().unwrap().to_string(),
                c["old"].as_str().unwrap().to_string(),
                c["new"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        shown.contains(&("Владельцев по ПТС".into(), "1".into(), "2".into())),
        "{shown:?}"
    );
    assert!(
        shown.contains(&(
            "Оценка состояния".into(),
            "Отличное".into(),
            "Хорошее".into()
        )),
        "{shown:?}"
    );
    assert!(
        shown.contains(&("Руль".into(), "Правый".into(), "Левый".into())),
        "{shown:?}"
    );
    let after = car_of(&app, "R-1");
    assert_eq!(
        (after.owners, after.accident, after.state, after.wheel),
        (Some(2), Some(false), Some(CarState::Good), Wheel::Left)
    );
}

#[tokio::test]
async fn a_value_of_no_meaning_is_a_warning_and_a_new_car_keeps_no_owners() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let csv = format!(
        "{CSV_HEAD}\nC-1;Lada;Vesta;2019;900000;used;Седан;MT;Бензин;1.6 л, 106 л.с.;88000;много;может быть;так себе;сбоку\n\
         C-2;Lada;Vesta;2025;1300000;new;Седан;MT;Бензин;1.6 л, 106 л.с.;0;0;нет;;Левый\n"
    );
    let preview = import(&admin, "stock.csv", &csv).await;
    let fields: Vec<&str> = preview["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["row"] == 2)
        .map(|w| w["field"].as_str().unwrap())
        .collect();
    for field in ["owners", "accident", "state", "wheel"] {
        assert!(fields.contains(&field), "{field}: {preview}");
    }
    let c1 = car_of(&app, "C-1");
    assert_eq!(
        (c1.owners, c1.accident, c1.state, c1.wheel),
        (None, None, None, Wheel::Left)
    );
    // Owners and an accident are a used car's: a new car's are not stored.
    let c2 = car_of(&app, "C-2");
    assert_eq!((c2.owners, c2.accident), (None, None));
}

fn reasons(answer: &Value, channel: &str) -> Vec<String> {
    answer
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["channel"] == channel)
        .map(|l| {
            l["reasons"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

const NO_OWNERS: &str = "не указано число владельцев по ПТС";

#[tokio::test]
async fn the_admin_reads_why_a_car_is_left_out_and_the_feeds_counts() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let (used_id, brand_id) = {
        let conn = app.db.conn().unwrap();
        let brand = dealership::domain::brands::create(
            &conn,
            &dealership::domain::brands::BrandInput {
                name: "Haval".into(),
                slug: "haval".into(),
                logo: String::new(),
                description: String::new(),
            },
        )
        .unwrap();
        let mut used = car_input(&brand.id, "haval-f7-used");
        used.status = CarStatus::Used;
        used.mileage = 45_000;
        used.vin = Some("LGWEF6A59NH000001".into());
        used.color = Some("Белый".into());
        (cars::create(&conn, &used, 2026).unwrap().id, brand.id)
    };

    let answer = admin
        .call(
            Method::GET,
            &format!("/api/admin/cars/{used_id}/left-out"),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let left = answer.json();
    for channel in ["avito", "autoru"] {
        assert!(
            reasons(&left, channel).contains(&NO_OWNERS.to_string()),
            "{left}"
        );
    }
    assert!(reasons(&left, "avito").contains(&"не указано, был ли автомобиль в ДТП".to_string()));
    assert!(reasons(&left, "autoru").contains(&"не указано состояние".to_string()));

    let list = admin
        .call(Method::GET, "/api/admin/feeds/left-out", None)
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
    let list = list.json();
    let listed: Vec<&str> = list["cars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert!(listed.contains(&used_id.as_str()), "{list}");
    assert_eq!(list["total"], listed.len(), "{list}");
    let car = list["cars"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == used_id)
        .unwrap();
    assert_eq!(car["name"], "Haval Jolion 2025");
    assert_eq!(car["slug"], "haval-f7-used");
    assert!(reasons(&car["leftOut"], "avito").contains(&NO_OWNERS.to_string()));
    assert_eq!(list["counts"][0]["channel"], "avito");
    assert_eq!(list["counts"][1]["channel"], "autoru");

    // Staff fill the owners, the accident and the state: those reasons go.
    let saved = admin
        .call(
            Method::PUT,
            &format!("/api/cars/{used_id}"),
            Some(json!({
                "brandId": brand_id, "name": "Jolion", "slug": "haval-f7-used",
                "model": "Jolion", "year": 2025, "price": "2000000", "status": "used",
                "bodyType": "crossover", "transmission": "robotic", "fuelType": "gasoline",
                "engine": "1.5 л, 150 л.с.", "owners": 1, "accident": false, "state": "good"
            })),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let left = admin
        .call(
            Method::GET,
            &format!("/api/admin/cars/{used_id}/left-out"),
            None,
        )
        .await
        .json();
    for channel in ["avito", "autoru"] {
        let reasons = reasons(&left, channel);
        assert!(!reasons.contains(&NO_OWNERS.to_string()), "{left}");
        assert!(
            !reasons.contains(&"не указано состояние".to_string()),
            "{left}"
        );
    }

    let unknown = admin
        .call(Method::GET, "/api/admin/cars/nope/left-out", None)
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    // The parser screen lists Auto.ru's two feeds by section.
    let settings = admin
        .call(Method::GET, "/api/admin/parser/settings", None)
        .await
        .json();
    let urls: Vec<&str> = settings["feeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["url"].as_str().unwrap())
        .collect();
    assert!(
        urls.iter().any(|u| u.ends_with("/feeds/autoru-new.xml")),
        "{settings}"
    );
    assert!(
        urls.iter().any(|u| u.ends_with("/feeds/autoru-used.xml")),
        "{settings}"
    );
}
