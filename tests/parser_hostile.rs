//! Hostile feeds through the real router (`POST /api/admin/imports` as a
//! multipart file): a car nested deeper than a record may go, nesting
//! outside the records, a wide car, thousands of attributes, huge texts,
//! thousands of photos, a CSV row of megabytes. Each is bounded: a row
//! error naming the car, a warning, or the feed refused with a reason,
//! while the other cars are still previewed (`docs/parser.md`, "Limits and
//! hostile input"). Speed and memory are measured in
//! `bench/hostile_feeds.sh`, not here.
#![allow(clippy::unwrap_used)]

mod common;
mod parser_support;

use axum::http::StatusCode;
use common::TestApp;
use parser_support::AdminSession;
use serde_json::Value;

fn car(id: &str, extra: &str) -> String {
    format!(
        "<car><unique_id>{id}</unique_id><mark_id>Haval</mark_id><folder_id>Jolion</folder_id>\
         <modification_id>1.5 AMT (150 л.с.)</modification_id><body_type>Внедорожник 5 дв.</body_type>\
         <year>2024</year><price>2199000</price>{extra}</car>\n"
    )
}

fn autoru(cars: &[String]) -> Vec<u8> {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<data><cars>\n");
    for car in cars {
        xml.push_str(car);
    }
    xml.push_str("</cars></data>\n");
    xml.into_bytes()
}

async fn preview(admin: &AdminSession<'_>, name: &str, bytes: &[u8]) -> Value {
    let answer = admin.upload(name, bytes).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    answer.json()
}

fn new_keys(run: &Value) -> Vec<String> {
    run["new"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap().to_string())
        .collect()
}

fn nested(levels: usize) -> String {
    let mut deep = String::with_capacity(levels * 7);
    for _ in 0..levels {
        deep.push_str("<a>");
    }
    deep.push('x');
    for _ in 0..levels {
        deep.push_str("</a>");
    }
    deep
}

#[tokio::test]
async fn a_car_nested_50000_deep_is_a_row_error_naming_it_and_the_others_preview() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    // The id comes after the nesting: the car is still named by it.
    let deep = format!(
        "<car><mark_id>Haval</mark_id><description>{}</description><unique_id>D-2</unique_id>\
         <folder_id>F7</folder_id><year>2024</year><price>2500000</price></car>\n",
        nested(50_000)
    );
    let feed = autoru(&[car("D-1", ""), deep, car("D-3", "")]);
    let run = preview(&admin, "deep.xml", &feed).await;
    assert_eq!(run["status"], "preview", "{run}");
    assert_eq!(new_keys(&run), ["D-1", "D-3"]);
    let errors = run["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{run}");
    assert_eq!(errors[0]["row"], 2);
    assert_eq!(errors[0]["field"], "description");
    assert_eq!(
        errors[0]["message"],
        "Автомобиль «D-2»: вложенность элементов глубже 8 уровней — у автомобиля нет таких \
         полей; запись не импортирована"
    );

    // Eight levels are a record's own: the car previews.
    let eight = car("D-4", &format!("<extra>{}</extra>", nested(7)));
    let run = preview(&admin, "deep.xml", &autoru(&[eight])).await;
    assert_eq!(new_keys(&run), ["D-4"], "{run}");

    // Deep content with comments, CDATA and quoted '>' is skipped as a
    // whole; a car without an id is named by its brand and model.
    let tricky = format!(
        "<car><mark_id>Kia</mark_id><folder_id>Rio</folder_id><x>{}<b a='>' c=\"</x>\"><!-- </x> -->\
         <![CDATA[</x></car>]]><?pi </x>?><e/></b>{}</x></car>\n",
        "<a>".repeat(20),
        "</a>".repeat(20)
    );
    let run = preview(&admin, "deep.xml", &autoru(&[tricky, car("D-5", "")])).await;
    assert_eq!(new_keys(&run), ["D-5"], "{run}");
    assert!(
        run["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("Автомобиль «Kia Rio»: вложенность"),
        "{run}"
    );
}

#[tokio::test]
async fn nesting_outside_the_records_is_bounded() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    // Some nesting beside the cars is read past.
    let mut feed = String::from("<data><meta>");
    feed.push_str(&nested(50));
    feed.push_str("</meta><cars>");
    feed.push_str(&car("O-1", ""));
    feed.push_str("</cars></data>");
    let run = preview(&admin, "outside.xml", feed.as_bytes()).await;
    assert_eq!(new_keys(&run), ["O-1"], "{run}");

    // 50,000 levels refuse the whole feed, with the reason.
    let mut feed = String::from("<data><cars>");
    feed.push_str(&car("O-1", ""));
    feed.push_str("</cars>");
    feed.push_str(&nested(50_000));
    feed.push_str("</data>");
    let run = preview(&admin, "outside.xml", feed.as_bytes()).await;
    assert_eq!(run["status"], "failed", "{run}");
    assert!(
        run["error"]
            .as_str()
            .unwrap()
            .contains("элементы вложены глубже 64 уровней"),
        "{run}"
    );
}

#[tokio::test]
async fn wide_cars_and_many_attributes_keep_what_a_car_needs() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    // 100,000 siblings, half of one name, half each of its own.
    let mut wide = String::new();
    for i in 0..50_000 {
        wide.push_str("<o>1</o>");
        wide.push_str(&format!("<f{i}/>"));
    }
    // Thousands of attributes on one element.
    let mut attributes = String::from("<images");
    for i in 0..5_000 {
        attributes.push_str(&format!(" a{i}=\"{i}\""));
    }
    attributes.push_str("><image>https://example.ru/1.jpg</image></images>");
    let feed = autoru(&[car("W-1", &wide), car("W-2", &attributes), car("W-3", "")]);
    let run = preview(&admin, "wide.xml", &feed).await;
    assert_eq!(new_keys(&run), ["W-1", "W-2", "W-3"], "{run}");
    assert_eq!(run["errors"], serde_json::json!([]));

    // A record over a megabyte is a row error naming the car.
    let mut huge = String::new();
    for _ in 0..200_000 {
        huge.push_str("<o>1</o>");
    }
    let feed = autoru(&[car("W-4", &huge), car("W-5", "")]);
    let run = preview(&admin, "wide.xml", &feed).await;
    assert_eq!(new_keys(&run), ["W-5"], "{run}");
    assert_eq!(
        run["errors"][0]["message"],
        "Автомобиль «W-4»: запись больше 1 МБ; запись не импортирована"
    );
}

#[tokio::test]
async fn huge_texts_are_refused_by_their_limits_and_quoted_short() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    let long = "Ж".repeat(300_000);
    let feed = autoru(&[
        // A 600 KB colour is cut to the catalogue's 50 characters.
        car("T-1", &format!("<color>{long}</color>")),
        // A 600 KB price is not a number, and the error quotes 100 characters.
        car("T-2", "").replace("<price>2199000</price>", &format!("<price>{long}</price>")),
        // A 4 MB description: larger than a record may be.
        car(
            "T-3",
            &format!("<description>{}</description>", long.repeat(7)),
        ),
    ]);
    let run = preview(&admin, "long.xml", &feed).await;
    assert_eq!(new_keys(&run), ["T-1"], "{run}");
    let errors = run["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2, "{run}");
    assert_eq!(errors[0]["field"], "price");
    let message = errors[0]["message"].as_str().unwrap();
    assert_eq!(message, format!("Не число: «{}…»", "Ж".repeat(100)));
    assert_eq!(
        errors[1]["message"],
        "Автомобиль «T-3»: запись больше 1 МБ; запись не импортирована"
    );
}

#[tokio::test]
async fn ten_thousand_photos_keep_six_with_a_warning() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    let mut images = String::from("<images>");
    for i in 0..10_000 {
        images.push_str(&format!("<image>https://example.ru/{i}.jpg</image>"));
    }
    images.push_str("</images>");
    let run = preview(&admin, "photos.xml", &autoru(&[car("P-1", &images)])).await;
    assert_eq!(new_keys(&run), ["P-1"], "{run}");
    let warnings: Vec<&Value> = run["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["field"] == "photos")
        .collect();
    assert_eq!(warnings.len(), 1, "{run}");
    assert_eq!(
        warnings[0]["message"],
        "Фото в фиде больше 6: сохранены первые 6, ещё 9994 отброшено"
    );
    let applied = admin.apply(run["id"].as_str().unwrap()).await;
    assert_eq!(applied["status"], "applied");
    let photos: i64 = app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT count(*) FROM car_photo_sources", [], |r| r.get(0))
        .unwrap_or(-1);
    assert!(photos <= 6, "{photos} photo sources");

    // Avito's `<Image url>` the same way.
    let mut ad = String::from(
        "<Ads><Ad><Id>AV-1</Id><Category>Автомобили</Category><Make>Kia</Make><Model>Rio</Model>\
         <Year>2023</Year><Price>1500000</Price><BodyType>Седан</BodyType>\
         <Transmission>Автомат</Transmission><Images>",
    );
    for i in 0..10_000 {
        ad.push_str(&format!("<Image url=\"https://example.ru/{i}.jpg\"/>"));
    }
    ad.push_str("</Images></Ad></Ads>");
    let run = preview(&admin, "avito.xml", ad.as_bytes()).await;
    assert_eq!(new_keys(&run), ["AV-1"], "{run}");
    assert!(
        run["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["message"] == "Фото в фиде больше 6: сохранены первые 6, ещё 9994 отброшено"),
        "{run}"
    );
}

#[tokio::test]
async fn a_csv_row_of_megabytes_is_a_row_error_naming_the_car() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    let header = "id;brand;model;year;price;body_type;transmission;fuel_type;color\n";
    let row = |id: &str, color: &str| {
        format!("{id};Лада;Веста;2024;1650000;Седан;Механика;Бензин;\"{color}\"\n")
    };
    let mut csv = String::from(header);
    csv.push_str(&row("C-1", "белый"));
    csv.push_str(&row("C-2", &"ж;\n\"\"".repeat(400_000)));
    csv.push_str(&row("C-3", "чёрный"));
    let run = preview(&admin, "stock.csv", csv.as_bytes()).await;
    assert_eq!(run["status"], "preview", "{run}");
    assert_eq!(new_keys(&run), ["C-1", "C-3"], "{run}");
    assert_eq!(
        run["errors"][0]["message"],
        "Автомобиль «C-2»: строка больше 1 МБ; строка не импортирована"
    );
    assert_eq!(run["errors"][0]["line"], 3);
}
