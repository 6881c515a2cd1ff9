//! The feeds the marketplaces accept (issue 44, item 0; `docs/parser.md`,
//! "Export"). Every ad of the demo's stock is checked against the rules the
//! marketplaces document, written here from `docs/parser.md`'s rule tables
//! (themselves from Avito's autoload format and Auto.ru's examples), not
//! from the exporter: the elements each requires, the dictionaries' values,
//! the formats of numbers, ids and photos. Two small feeds are compared with
//! golden files (`tests/fixtures/feeds/golden/`; `UPDATE_GOLDEN=1` writes
//! them again). A car the dealer's data cannot complete is left out with its
//! reasons, and comes back once completed.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, HashSet};

use axum::http::StatusCode;
use common::{TestApp, car_input, seed_catalogue};
use dealership::domain::cars::{self, BodyType, CarState, CarStatus};
use dealership::domain::money::Money;
use quick_xml::events::Event;

/// One ad: its elements' texts by name (repeated ones joined by "\n"), and
/// its photos' URLs.
#[derive(Debug, Default)]
struct Ad {
    fields: BTreeMap<String, String>,
    photos: Vec<String>,
}

impl Ad {
    fn get(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

/// The ads of a feed (`record` the element of one ad), and the root's
/// attributes.
fn ads(xml: &str, record: &[u8]) -> (BTreeMap<String, String>, Vec<Ad>) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut root = BTreeMap::new();
    let mut list = Vec::new();
    let mut current: Option<Ad> = None;
    let mut path: Vec<String> = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) | Event::Empty(e) if path.is_empty() && root.is_empty() => {
                for a in e.attributes() {
                    let a = a.unwrap();
                    root.insert(
                        String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                        a.unescape_value().unwrap().to_string(),
                    );
                }
                root.insert(
                    "".into(),
                    String::from_utf8(e.name().as_ref().to_vec()).unwrap(),
                );
                path.push(root[""].clone());
            }
            Event::Start(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                if e.name().as_ref() == record {
                    current = Some(Ad::default());
                }
                path.push(name);
            }
            Event::Empty(e) => {
                if let Some(ad) = current.as_mut()
                    && e.name().as_ref() == b"Image"
                {
                    let url = e.try_get_attribute("url").unwrap().unwrap();
                    ad.photos.push(url.unescape_value().unwrap().to_string());
                }
            }
            Event::Text(t) => {
                if let (Some(ad), Some(name)) = (current.as_mut(), path.last()) {
                    let text = t.decode().unwrap().to_string();
                    let text = quick_xml::escape::unescape(&text).unwrap().to_string();
                    if text.trim().is_empty() {
                        // The indentation between elements.
                    } else if name == "image" {
                        ad.photos.push(text);
                    } else {
                        ad.fields
                            .entry(name.clone())
                            .and_modify(|v| {
                                v.push('\n');
                                v.push_str(&text)
                            })
                            .or_insert(text);
                    }
                }
            }
            Event::GeneralRef(r) => {
                // An entity (&amp; …) inside a text: kept as its character.
                if let (Some(ad), Some(name)) = (current.as_mut(), path.last()) {
                    let ch = match r.decode().unwrap().as_ref() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        other => panic!("entity {other}"),
                    };
                    ad.fields.entry(name.clone()).or_default().push_str(ch);
                }
            }
            Event::End(e) => {
                path.pop();
                if e.name().as_ref() == record {
                    list.push(current.take().unwrap());
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (root, list)
}

fn is_integer(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Avito Autoload, cars (rules A1–A29).
fn avito_refusals(root: &BTreeMap<String, String>, ads: &[Ad]) -> Vec<String> {
    const ELEMENTS: &[&str] = &[
        "Id",
        "Category",
        "CarType",
        "AdType",
        "Address",
        "ContactPhone",
        "ManagerName",
        "Make",
        "Model",
        "Generation",
        "Modification",
        "Complectation",
        "Year",
        "Kilometrage",
        "Accident",
        "Owners",
        "BodyType",
        "Doors",
        "Color",
        "FuelType",
        "EngineSize",
        "Power",
        "Transmission",
        "DriveType",
        "WheelType",
        "VIN",
        "Price",
        "Description",
        "Images",
        "DateBegin",
        "DateEnd",
        "AdStatus",
    ];
    const BODIES: &[&str] = &[
        "Седан",
        "Хетчбэк",
        "Универсал",
        "Внедорожник",
        "Кабриолет",
        "Купе",
        "Лимузин",
        "Минивэн",
        "Пикап",
        "Фургон",
        "Микроавтобус",
    ];
    const COLORS: &[&str] = &[
        "Красный",
        "Коричневый",
        "Оранжевый",
        "Бежевый",
        "Жёлтый",
        "Зелёный",
        "Голубой",
        "Синий",
        "Фиолетовый",
        "Пурпурный",
        "Розовый",
        "Белый",
        "Серый",
        "Чёрный",
        "Золотой",
        "Серебряный",
    ];
    let mut refusals = Vec::new();
    if root.get("").map(String::as_str) != Some("Ads")
        || root.get("formatVersion").map(String::as_str) != Some("3")
        || root.get("target").map(String::as_str) != Some("Avito.ru")
    {
        refusals.push(format!("root {root:?} (A1)"));
    }
    let mut ids = HashSet::new();
    for ad in ads {
        let id = ad.get("Id").unwrap_or_default().to_string();
        let mut refuse = |why: String| refusals.push(format!("Ad {id}: {why}"));
        for name in ad.fields.keys() {
            if !ELEMENTS.contains(&name.as_str()) {
                refuse(format!("element {name} is not in the format"));
            }
        }
        if id.is_empty() || id.chars().count() > 100 || !ids.insert(id.clone()) {
            refuse("Id empty, over 100 or repeated (A2)".into());
        }
        let is = |name: &str, allowed: &[&str]| ad.get(name).is_some_and(|v| allowed.contains(&v));
        if !is("Category", &["Автомобили"]) {
            refuse("Category (A3)".into());
        }
        if !is("CarType", &["С пробегом", "Новые"]) {
            refuse(format!("CarType {:?} (A4)", ad.get("CarType")));
        }
        let used = ad.get("CarType") == Some("С пробегом");
        for name in ["Make", "Model"] {
            if ad.get(name).is_none_or(str::is_empty) {
                refuse(format!("{name} missing (A5)"));
            }
        }
        if !ad
            .get("Year")
            .is_some_and(|y| y.len() == 4 && is_integer(y))
        {
            refuse("Year (A6)".into());
        }
        if used {
            if !ad.get("Kilometrage").is_some_and(is_integer) {
                refuse("Kilometrage (A7)".into());
            }
            if !is("Accident", &["Не битый", "Битый"]) {
                refuse("Accident (A8)".into());
            }
            if !ad.get("Owners").is_some_and(is_integer) {
                refuse("Owners (A19)".into());
            }
            if !is("AdType", &["Автомобиль приобретён на продажу"]) {
                refuse(format!("AdType {:?} (A20)", ad.get("AdType")));
            }
        }
        if !ad
            .get("VIN")
            .is_some_and(|v| v.len() == 17 && v.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            refuse("VIN (A9)".into());
        }
        if !is("BodyType", BODIES) {
            refuse(format!("BodyType {:?} (A10)", ad.get("BodyType")));
        }
        if !is("Color", COLORS) {
            refuse(format!("Color {:?} (A12)", ad.get("Color")));
        }
        if !is(
            "FuelType",
            &["Бензин", "Дизель", "Гибрид", "Электро", "Газ"],
        ) {
            refuse("FuelType (A13)".into());
        }
        if ad.get("FuelType") != Some("Электро")
            && !ad
                .get("EngineSize")
                .is_some_and(|s| s.parse::<f64>().is_ok_and(|v| v > 0.0))
        {
            refuse("EngineSize (A14)".into());
        }
        if !ad.get("Power").is_some_and(is_integer) {
            refuse("Power (A15)".into());
        }
        if !is(
            "Transmission",
            &["Механика", "Автомат", "Робот", "Вариатор"],
        ) {
            refuse("Transmission (A16)".into());
        }
        if ad.get("DriveType").is_some() && !is("DriveType", &["Передний", "Задний", "Полный"])
        {
            refuse("DriveType (A17)".into());
        }
        if !is("WheelType", &["Левый", "Правый"]) {
            refuse("WheelType (A18)".into());
        }
        if !ad.get("Price").is_some_and(is_integer) {
            refuse(format!("Price {:?} (A21)", ad.get("Price")));
        }
        if !ad
            .get("Address")
            .is_some_and(|a| !a.is_empty() && a.chars().count() <= 256)
        {
            refuse("Address (A22)".into());
        }
        let digits: String = ad
            .get("ContactPhone")
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        if digits.len() != 11 || !(digits.starts_with('7') || digits.starts_with('8')) {
            refuse("ContactPhone (A23)".into());
        }
        if ad.get("Description").unwrap_or_default().chars().count() > 3000 {
            refuse("Description over 3000 (A24)".into());
        }
        if ad.photos.len() > 20 {
            refuse("over 20 photos (A26)".into());
        }
        for url in &ad.photos {
            let path = url
                .split('?')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            if !(path.ends_with(".jpg") || path.ends_with(".jpeg") || path.ends_with(".png"))
                || !url.starts_with("http")
            {
                refuse(format!(
                    "photo {url} not an absolute JPEG or PNG (A25, A27)"
                ));
            }
        }
    }
    refusals
}

/// Auto.ru dealer XML, cars (rules R1–R22), for a feed of one section
/// (`used`) or of both (`None`).
fn autoru_refusals(
    root: &BTreeMap<String, String>,
    cars: &[Ad],
    section: Option<bool>,
) -> Vec<String> {
    const ELEMENTS: &[&str] = &[
        "unique_id",
        "mark_id",
        "folder_id",
        "modification_id",
        "complectation_name",
        "body_type",
        "wheel",
        "color",
        "availability",
        "custom",
        "state",
        "owners_number",
        "run",
        "year",
        "registry_year",
        "price",
        "currency",
        "vin",
        "credit_discount",
        "tradein_discount",
        "insurance_discount",
        "max_discount",
        "description",
        "url",
        "images",
        "image",
    ];
    const BODIES: &[&str] = &[
        "Седан",
        "Хэтчбек 3 дв.",
        "Хэтчбек 5 дв.",
        "Лифтбек",
        "Фастбек",
        "Внедорожник 3 дв.",
        "Внедорожник 5 дв.",
        "Универсал 5 дв.",
        "Пикап Одинарная кабина",
        "Пикап Двойная кабина",
        "Минивэн",
        "Компактвэн",
        "Купе",
        "Кабриолет",
        "Родстер",
        "Тарга",
        "Фургон",
        "Микроавтобус",
        "Лимузин",
    ];
    const COLORS: &[&str] = &[
        "бежевый",
        "белый",
        "голубой",
        "жёлтый",
        "зелёный",
        "золотистый",
        "коричневый",
        "красный",
        "оранжевый",
        "пурпурный",
        "розовый",
        "серебристый",
        "серый",
        "синий",
        "фиолетовый",
        "чёрный",
    ];
    let mut refusals = Vec::new();
    if root.get("").map(String::as_str) != Some("data") {
        refusals.push(format!("root {root:?} (R1)"));
    }
    let mut ids = HashSet::new();
    for car in cars {
        let id = car.get("unique_id").unwrap_or_default().to_string();
        let mut refuse = |why: String| refusals.push(format!("car {id}: {why}"));
        for name in car.fields.keys() {
            if !ELEMENTS.contains(&name.as_str()) {
                refuse(format!("element {name} is not in the format"));
            }
        }
        if !(1..=50).contains(&id.len())
            || !id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            || !ids.insert(id.clone())
        {
            refuse("unique_id (R19)".into());
        }
        let is = |name: &str, allowed: &[&str]| car.get(name).is_some_and(|v| allowed.contains(&v));
        for name in ["mark_id", "folder_id", "modification_id"] {
            if car.get(name).is_none_or(str::is_empty) {
                refuse(format!("{name} missing (R2–R4)"));
            }
        }
        if !car
            .get("modification_id")
            .is_some_and(|m| m.contains("л.с.)"))
        {
            refuse("modification_id without the power (R4)".into());
        }
        let owners = car.get("owners_number").unwrap_or_default();
        let new = owners == "Не было владельцев" && car.get("run").is_none();
        if ![
            "Не было владельцев",
            "Один владелец",
            "Два владельца",
            "Три и более",
        ]
        .contains(&owners)
        {
            refuse(format!("owners_number {owners:?} (R12)"));
        }
        let used = car.get("state").is_some() || car.get("run").is_some();
        if let Some(want_used) = section
            && want_used != used
        {
            refuse("a car of the other section (R22)".into());
        }
        if new && car.get("complectation_name").is_none_or(str::is_empty) {
            refuse("complectation_name of a new car (R5)".into());
        }
        if !is("body_type", BODIES) {
            refuse(format!("body_type {:?} (R6)", car.get("body_type")));
        }
        if !is("wheel", &["Левый", "Правый"]) {
            refuse("wheel (R7)".into());
        }
        if !is("color", COLORS) {
            refuse(format!("color {:?} (R8)", car.get("color")));
        }
        if !is("availability", &["в наличии", "на заказ"]) {
            refuse("availability (R9)".into());
        }
        if !is("custom", &["растаможен", "не растаможен"]) {
            refuse("custom (R10)".into());
        }
        if used {
            if !is(
                "state",
                &["отличное", "хорошее", "среднее", "требует ремонта"],
            ) {
                refuse(format!("state {:?} (R11)", car.get("state")));
            }
            if !car.get("run").is_some_and(is_integer) {
                refuse("run (R13)".into());
            }
            if car.get("vin").is_none_or(|v| v.len() != 17) {
                refuse("vin of a used car (R18)".into());
            }
        }
        if !car
            .get("year")
            .is_some_and(|y| y.len() == 4 && is_integer(y))
        {
            refuse("year (R14)".into());
        }
        if !car
            .get("price")
            .is_some_and(|p| is_integer(p) && p.parse::<u64>().is_ok_and(|v| v > 1500))
        {
            refuse(format!("price {:?} (R16)", car.get("price")));
        }
        for name in [
            "credit_discount",
            "tradein_discount",
            "insurance_discount",
            "max_discount",
        ] {
            if car.get(name).is_some_and(|v| !is_integer(v)) {
                refuse(format!("{name} not an integer"));
            }
        }
        if !is("currency", &["RUR", "USD", "EUR"]) {
            refuse("currency (R17)".into());
        }
        if car.get("vin").is_some_and(|v| v.len() != 17) {
            refuse("vin (R18)".into());
        }
        if car.photos.len() > 40 {
            refuse("over 40 images (R20)".into());
        }
        if car.get("description").unwrap_or_default().chars().count() > 30_000 {
            refuse("description over 30 000 (R21)".into());
        }
    }
    refusals
}

#[tokio::test]
async fn every_car_of_the_demo_stock_meets_each_marketplaces_rules() {
    let app = TestApp::new();
    assert!(dealership::demo::seed(&app.db, &app.dir.path().join("media")).unwrap());
    let stock = dealership::parser::export::stock(&app.db.conn().unwrap()).unwrap();
    let used = stock.iter().filter(|c| c.status == CarStatus::Used).count();
    assert!(
        stock.len() > 50 && used > 10,
        "{} cars, {used} used",
        stock.len()
    );

    let (root, avito) = ads(&app.get("/feeds/avito.xml").await.text(), b"Ad");
    assert_eq!(avito_refusals(&root, &avito), Vec::<String>::new());
    assert_eq!(
        avito.len(),
        stock.len(),
        "every car of the stock is on Avito"
    );

    let (root, autoru) = ads(&app.get("/feeds/autoru.xml").await.text(), b"car");
    assert_eq!(autoru_refusals(&root, &autoru, None), Vec::<String>::new());
    assert_eq!(
        autoru.len(),
        stock.len(),
        "every car of the stock is on Auto.ru"
    );
    let (root, new) = ads(&app.get("/feeds/autoru-new.xml").await.text(), b"car");
    assert_eq!(
        autoru_refusals(&root, &new, Some(false)),
        Vec::<String>::new()
    );
    let (root, old) = ads(&app.get("/feeds/autoru-used.xml").await.text(), b"car");
    assert_eq!(
        autoru_refusals(&root, &old, Some(true)),
        Vec::<String>::new()
    );
    assert_eq!((new.len(), old.len()), (stock.len() - used, used));

    // Avito's photos are JPEG copies of the stored pictures, made once.
    let photo = &avito.iter().find(|a| !a.photos.is_empty()).unwrap().photos[0];
    let path = &photo[photo.find("/feeds/photos/").unwrap()..];
    let first = app.get(path).await;
    assert_eq!(first.status, StatusCode::OK, "{path}");
    assert_eq!(first.headers["content-type"], "image/jpeg");
    assert_eq!(&first.body[..3], &[0xFF, 0xD8, 0xFF], "a JPEG file");
    let again = app.get(path).await;
    assert_eq!(again.body, first.body);
    for missing in [
        "/feeds/photos/0123456789abcdef0123456789abcdef.jpg",
        "/feeds/photos/..%2F..%2Fdealership.db",
        "/feeds/photos/abc.jpg",
    ] {
        assert_eq!(
            app.get(missing).await.status,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
}

#[tokio::test]
async fn a_car_the_data_cannot_complete_is_left_out_with_its_reasons_until_completed() {
    let app = TestApp::new();
    let catalogue = seed_catalogue(&app);
    let conn = app.db.conn().unwrap();
    let mut input = car_input(&catalogue.haval, "haval-f7x-used");
    input.status = CarStatus::Used;
    input.mileage = 61_000;
    input.color = Some("Хамелеон".into());
    input.vin = Some("LGWEF6A59MH123456".into());
    let car = cars::create(&conn, &input, 2026).unwrap();
    let settings = dealership::domain::settings::get(&conn).unwrap();
    let labels = dealership::parser::export::body_labels(&conn).unwrap();
    let reasons = |car: &cars::Car| {
        dealership::parser::export::left_out(car, &settings, &labels)
            .into_iter()
            .map(|l| (l.channel.as_str().to_string(), l.reasons))
            .collect::<BTreeMap<_, _>>()
    };
    let got = reasons(&car);
    assert_eq!(
        got["avito"],
        vec![
            "цвет «Хамелеон» не из списка Авито",
            "не указано, был ли автомобиль в ДТП",
            "не указано число владельцев по ПТС",
        ]
    );
    assert_eq!(
        got["autoru"],
        vec![
            "цвет «Хамелеон» не из списка Авто.ру",
            "не указано состояние",
            "не указано число владельцев по ПТС",
        ]
    );
    let in_feed = |xml: &str| xml.contains("haval-f7x-used");
    assert!(!in_feed(&app.get("/feeds/avito.xml").await.text()));
    assert!(!in_feed(&app.get("/feeds/autoru-used.xml").await.text()));

    input.color = Some("Серо-голубой металлик".into());
    input.owners = Some(2);
    input.accident = Some(false);
    input.state = Some(CarState::Good);
    let car = cars::update(&conn, &car.id, &input, 2026).unwrap().unwrap();
    assert!(reasons(&car).is_empty(), "{:?}", reasons(&car));
    let avito = app.get("/feeds/avito.xml").await.text();
    let (_, list) = ads(&avito, b"Ad");
    let ad = list
        .iter()
        .find(|a| a.get("Id") == Some(car.id.as_str()))
        .unwrap();
    assert_eq!(ad.get("Color"), Some("Голубой"));
    assert_eq!(ad.get("Owners"), Some("2"));
    let autoru = app.get("/feeds/autoru-used.xml").await.text();
    assert!(
        autoru.contains("<owners_number>Два владельца</owners_number>"),
        "{autoru}"
    );
    assert!(autoru.contains("<color>голубой</color>"));
}

/// Compares `text` with a golden file, or writes it with `UPDATE_GOLDEN=1`.
fn golden(name: &str, text: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/feeds/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{}: run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(text, want, "{name} differs from its golden file");
}

#[tokio::test]
async fn two_cars_make_the_golden_feeds() {
    let app = TestApp::new();
    let conn = app.db.conn().unwrap();
    let catalogue = seed_catalogue(&app);
    conn.execute_batch("DELETE FROM cars").unwrap();
    let mut new = car_input(&catalogue.haval, "haval-jolion-golden");
    new.external_id = Some("JOL-2025-001".into());
    new.trim = Some("Elite".into());
    new.color = Some("Тёмно-синий".into());
    new.vin = Some("LGWEF6A59SH000001".into());
    new.doors = Some(5);
    new.max_discount = Some(Money::from_rubles(150_000));
    new.images = vec![];
    cars::create(&conn, &new, 2026).unwrap();
    let mut used = car_input(&catalogue.lada, "lada-vesta-golden");
    used.external_id = Some("VESTA-7".into());
    used.name = "Vesta".into();
    used.model = "Vesta".into();
    used.status = CarStatus::Used;
    used.body_type = BodyType::SEDAN;
    used.engine = "1.6 л, 106 л.с.".into();
    used.mileage = 48_500;
    used.year = 2021;
    used.price = Money::parse("1150000.00").unwrap();
    used.color = Some("Серебристый".into());
    used.vin = Some("XTAGFL110MY000007".into());
    used.owners = Some(1);
    used.accident = Some(false);
    used.state = Some(CarState::Excellent);
    used.images = vec![];
    cars::create(&conn, &used, 2026).unwrap();
    golden("avito.xml", &app.get("/feeds/avito.xml").await.text());
    golden(
        "autoru-new.xml",
        &app.get("/feeds/autoru-new.xml").await.text(),
    );
    golden(
        "autoru-used.xml",
        &app.get("/feeds/autoru-used.xml").await.text(),
    );
}

/// Several salons (issue 46, `docs/salons.md` "Feeds"): each Avito ad
/// carries its own salon's address, phone and name, and still meets the
/// rules; each salon has its own Auto.ru feed with its cars only, and the
/// salons' feeds together are the whole stock.
#[tokio::test]
async fn each_salon_has_its_ads_contacts_and_its_own_autoru_feed() {
    use dealership::domain::salons::{self, SalonInput};
    let app = TestApp::new();
    assert!(dealership::demo::seed(&app.db, &app.dir.path().join("media")).unwrap());
    let conn = app.db.conn().unwrap();
    let north = salons::create(
        &conn,
        SalonInput {
            name: "Салон на Выборгской".into(),
            address: "Санкт-Петербург, Выборгское шоссе, 15".into(),
            phone: "+7 (812) 555-44-33".into(),
            ..Default::default()
        },
    )
    .unwrap();
    let stock = dealership::parser::export::stock(&conn).unwrap();
    let moved: Vec<String> = stock.iter().step_by(3).map(|c| c.id.clone()).collect();
    for id in &moved {
        cars::move_to_salon(&conn, id, Some(north.salon.id)).unwrap();
    }
    let feed_ids: HashSet<String> = cars::list_all(&conn, &Default::default())
        .unwrap()
        .iter()
        .filter(|c| moved.contains(&c.id))
        .map(|c| dealership::parser::export::feed_id(c).to_string())
        .collect();
    let (root, avito) = ads(&app.get("/feeds/avito.xml").await.text(), b"Ad");
    assert_eq!(avito_refusals(&root, &avito), Vec::<String>::new());
    assert_eq!(avito.len(), stock.len());
    for ad in &avito {
        let theirs = feed_ids.contains(ad.get("Id").unwrap());
        assert_eq!(
            ad.get("Address") == Some("Санкт-Петербург, Выборгское шоссе, 15"),
            theirs,
            "{ad:?}"
        );
        assert_eq!(ad.get("ContactPhone") == Some("+78125554433"), theirs);
        assert_eq!(ad.get("ManagerName") == Some("Салон на Выборгской"), theirs);
    }
    let (root, second) = ads(&app.get("/feeds/salons/2/autoru.xml").await.text(), b"car");
    assert_eq!(autoru_refusals(&root, &second, None), Vec::<String>::new());
    let (_, main) = ads(&app.get("/feeds/salons/1/autoru.xml").await.text(), b"car");
    assert_eq!(second.len(), moved.len());
    assert_eq!(main.len() + second.len(), stock.len());
    assert_eq!(
        app.get("/feeds/salons/9/autoru.xml").await.status,
        StatusCode::NOT_FOUND
    );
}
