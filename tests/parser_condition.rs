//! A car's condition from what its feed record says (`docs/parser.md`,
//! "Condition"), read from the four marketplace fixtures
//! (`tests/fixtures/feeds/`, written from the marketplaces' documentation)
//! and from small records: a stated word wins, decisive used evidence makes
//! a car used, nothing leaves it to the feed's default with the signs
//! listed; Avito's `ComplectationId` with a name is the trim.
#![allow(clippy::unwrap_used)]

use dealership::domain::cars::CarStatus;
use dealership::parser::feed::{FeedCar, Parsed, parse};

/// The year the fixtures are read in (their "old year" signs depend on it).
const YEAR: i32 = 2026;

fn fixture(name: &str) -> Parsed {
    let bytes = std::fs::read(format!(
        "{}/tests/fixtures/feeds/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    parse(&bytes, YEAR).unwrap()
}

fn car<'a>(parsed: &'a Parsed, id: &str) -> &'a FeedCar {
    parsed
        .cars
        .iter()
        .find(|c| c.external_id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("{id} not read: {:?}", parsed.errors))
}

/// One Auto.ru record with the given elements added to a complete car.
fn autoru(extra: &str, year: i32) -> FeedCar {
    let xml = format!(
        r#"<data><cars><car>
  <unique_id>T-1</unique_id><mark_id>Kia</mark_id><folder_id>Rio, IV</folder_id>
  <modification_id>1.6 AT (123 л.с.)</modification_id><body_type>Седан</body_type>
  <year>{year}</year><price>1500000</price><currency>RUR</currency>
  {extra}
</car></cars></data>"#
    );
    let parsed = parse(xml.as_bytes(), YEAR).unwrap();
    assert_eq!(parsed.errors, vec![], "{extra}");
    parsed.cars.into_iter().next().unwrap()
}

/// One Avito ad with the given elements added to a complete car.
fn avito(extra: &str) -> FeedCar {
    let xml = format!(
        r#"<Ads formatVersion="3" target="Avito.ru"><Ad>
  <Id>A-1</Id><Category>Автомобили</Category><Make>Haval</Make><Model>Jolion</Model>
  <Year>2025</Year><Price>2249000</Price><BodyType>Внедорожник</BodyType>
  <FuelType>Бензин</FuelType><Transmission>Робот</Transmission>
  {extra}
</Ad></Ads>"#
    );
    let parsed = parse(xml.as_bytes(), YEAR).unwrap();
    assert_eq!(parsed.errors, vec![], "{extra}");
    parsed.cars.into_iter().next().unwrap()
}

#[test]
fn a_used_feed_without_section_or_run_is_read_used_from_its_owners_state_and_registry() {
    let feed = fixture("autoru-used.xml");
    for car in &feed.cars {
        // The dealer's used feed states no mileage anywhere.
        assert_eq!(
            (car.mileage, car.mileage_stated),
            (0, false),
            "{}",
            car.key()
        );
    }
    // «Два владельца» alone.
    let camry = car(&feed, "AR-U-2202");
    assert_eq!(camry.status, Some(CarStatus::Used));
    assert_eq!(
        camry.used_signs,
        ["владельцев: Два владельца", "2022 год выпуска"]
    );
    // Owners, state and registry year together.
    let rio = car(&feed, "AR-U-2201");
    assert_eq!(rio.status, Some(CarStatus::Used));
    assert_eq!(
        rio.used_signs,
        [
            "владельцев: Один владелец",
            "состояние: Отличное",
            "поставлен на учёт: 2021",
            "2021 год выпуска"
        ]
    );
    // The state alone, the registry year alone, the description alone.
    for (id, sign) in [
        ("AR-U-2204", "состояние: Отличное"),
        ("AR-U-2205", "поставлен на учёт: 2020"),
        ("AR-U-2206", "„с пробегом“ в описании"),
    ] {
        let found = car(&feed, id);
        assert_eq!(found.status, Some(CarStatus::Used), "{id}");
        assert!(
            found.used_signs.iter().any(|s| s == sign),
            "{id}: {:?}",
            found.used_signs
        );
    }
    // A 2007 car with two owners: used, and its year is listed too.
    let cruiser = car(&feed, "AR-U-2215");
    assert_eq!(cruiser.status, Some(CarStatus::Used));
    assert!(
        cruiser
            .used_signs
            .contains(&"владельцев: Два владельца".to_string())
    );
    assert_eq!(cruiser.used_signs.last().unwrap(), "2007 год выпуска");
}

#[test]
fn a_record_with_nothing_to_go_on_has_no_status_and_its_old_year_is_a_sign() {
    let feed = fixture("autoru-used.xml");
    let focus = car(&feed, "AR-U-2216");
    assert_eq!(focus.status, None);
    assert_eq!(focus.used_signs, ["2008 год выпуска"]);
    // Last year's stock is not even a sign.
    let fresh = autoru("", YEAR - 1);
    assert_eq!((fresh.status, fresh.used_signs.len()), (None, 0));
}

#[test]
fn a_new_feed_reads_new_and_no_owners_is_not_a_sign() {
    let feed = fixture("autoru-new.xml");
    // The GX as Yandex's example writes a new car: no section, «Не было
    // владельцев»: nothing decides, and a 2024 car is no sign in 2026.
    let gx = car(&feed, "AR-N-10451");
    assert_eq!(gx.status, None);
    assert!(gx.used_signs.is_empty(), "{:?}", gx.used_signs);
    // Delivery mileage is no sign of a used car.
    let octavia = car(&feed, "AR-N-10502");
    assert_eq!((octavia.mileage, octavia.mileage_stated), (12, true));
    assert_eq!(octavia.status, None);
    assert!(octavia.used_signs.is_empty(), "{:?}", octavia.used_signs);
    let jolion = car(&feed, "AR-N-10477");
    assert_eq!(
        (jolion.status, jolion.used_signs.len()),
        (Some(CarStatus::New), 0)
    );
    // A stated section wins; a 2023 car is still listed by its year.
    let mini = car(&feed, "AR-N-10533");
    assert_eq!(mini.status, Some(CarStatus::New));
    assert_eq!(mini.used_signs, ["2023 год выпуска"]);
    let stated = feed
        .cars
        .iter()
        .filter(|c| c.status == Some(CarStatus::New))
        .count();
    assert_eq!(stated, feed.cars.len() - 2);
    assert!(!feed.cars.iter().any(|c| c.status == Some(CarStatus::Used)));
    let avito = fixture("avito-new.xml");
    assert!(
        avito.cars.iter().all(|c| c.status == Some(CarStatus::New)
            && c.used_signs.iter().all(|s| s.ends_with("год выпуска"))),
        "{:?}",
        avito
            .cars
            .iter()
            .map(|c| (&c.external_id, c.status, &c.used_signs))
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_stated_word_wins_over_the_evidence_which_is_still_listed() {
    let car = autoru(
        "<section>new</section><run>45 000 км</run><owners_number>Два владельца</owners_number>",
        2024,
    );
    assert_eq!(car.status, Some(CarStatus::New));
    assert_eq!((car.mileage, car.mileage_stated), (45_000, true));
    assert_eq!(
        car.used_signs,
        ["пробег 45 000 км", "владельцев: Два владельца"]
    );
    for (word, status) in [
        ("NEW", CarStatus::New),
        ("Новый", CarStatus::New),
        ("USED", CarStatus::Used),
        ("б/у", CarStatus::Used),
    ] {
        let car = autoru(&format!("<section>{word}</section>"), 2025);
        assert_eq!(car.status, Some(status), "{word}");
    }
    let used = avito("<CarType>С пробегом</CarType>");
    assert_eq!(used.status, Some(CarStatus::Used));
    let new = avito("<Condition>Новое</Condition>");
    assert_eq!(new.status, Some(CarStatus::New));
}

#[test]
fn mileage_past_delivery_makes_a_car_used() {
    let delivered = autoru("<run>100</run>", 2025);
    assert_eq!(delivered.status, None);
    assert!(delivered.used_signs.is_empty());
    let driven = autoru("<run>101</run>", 2025);
    assert_eq!(driven.status, Some(CarStatus::Used));
    assert_eq!(driven.used_signs, ["пробег 101 км"]);
    let empty = autoru("<run></run>", 2025);
    assert_eq!((empty.mileage, empty.mileage_stated), (0, false));
}

#[test]
fn avito_used_ads_read_used_from_kilometrage_owners_or_their_text() {
    let feed = fixture("avito-used.xml");
    for car in &feed.cars {
        assert_eq!(car.status, Some(CarStatus::Used), "{}", car.key());
    }
    // No CarType: its Kilometrage shows it.
    let creta = car(&feed, "AV-U-5103");
    assert_eq!((creta.mileage, creta.mileage_stated), (47_800, true));
    assert_eq!(creta.used_signs[0], "пробег 47 800 км");
    // Neither CarType nor Kilometrage: owners and the description.
    let leaf = car(&feed, "AV-U-5111");
    assert!(!leaf.mileage_stated);
    assert_eq!(
        leaf.used_signs,
        [
            "владельцев: 2",
            "„с пробегом“ в описании",
            "2019 год выпуска"
        ]
    );
    let titled = avito("<Title>Haval Jolion б/у, один хозяин</Title>");
    assert_eq!(titled.status, Some(CarStatus::Used));
    assert_eq!(titled.used_signs, ["„б/у“ в заголовке"]);
    let no_owners = avito("<Owners>0</Owners>");
    assert_eq!((no_owners.status, no_owners.used_signs.len()), (None, 0));
}

#[test]
fn complectation_id_with_a_name_is_the_trim_and_a_number_is_not() {
    let feed = fixture("avito-new.xml");
    let f7 = car(&feed, "AV-N-3014");
    assert_eq!(f7.trim.as_deref(), Some("Comfort"));
    assert_eq!(f7.name, "F7 Comfort");
    assert!(!f7.warnings.iter().any(|w| w.field == "trim"));
    let c5 = car(&feed, "AV-N-3015");
    assert_eq!(
        (c5.trim.as_deref(), c5.name.as_str()),
        (Some("Direct"), "C5 Direct")
    );
    // A catalogue number is no name: no trim, and the warning says so.
    let jolion = car(&feed, "AV-N-3001");
    assert_eq!(
        (jolion.trim.as_deref(), jolion.name.as_str()),
        (None, "Jolion")
    );
    assert!(jolion.warnings.iter().any(|w| w.field == "trim"));
    // Complectation, when given, wins over the id.
    let both =
        avito("<Complectation>Tech Plus</Complectation><ComplectationId>Comfort</ComplectationId>");
    assert_eq!(both.name, "Jolion Tech Plus");
}

#[test]
fn one_car_in_two_feeds_has_one_vin() {
    let autoru = fixture("autoru-new.xml");
    let avito = fixture("avito-new.xml");
    let gx = car(&autoru, "AR-N-10451");
    let same = car(&avito, "AV-N-3016");
    assert_eq!(gx.vin, same.vin);
    assert_ne!(gx.external_id, same.external_id);
    assert_eq!(
        (gx.name.as_str(), same.name.as_str()),
        ("GX Executive", "GX")
    );
}

#[test]
fn a_csv_row_reads_its_status_then_its_mileage_and_owners() {
    let csv = "id;brand;model;year;price;status;body_type;transmission;fuel_type;mileage;owners\n\
               C-1;Kia;Rio;2025;1500000;;Седан;Автомат;Бензин;;2\n\
               C-2;Kia;Rio;2025;1500000;Б/У;Седан;Автомат;Бензин;0;\n\
               C-3;Kia;Rio;2025;1500000;;Седан;Автомат;Бензин;50;0\n\
               C-4;Kia;Rio;2025;1500000;Новый;Седан;Автомат;Бензин;;\n";
    let parsed = parse(csv.as_bytes(), YEAR).unwrap();
    assert_eq!(parsed.errors, vec![]);
    let owned = car(&parsed, "C-1");
    assert_eq!(owned.status, Some(CarStatus::Used));
    assert_eq!(owned.used_signs, ["владельцев: 2"]);
    assert!(!owned.mileage_stated);
    assert_eq!(car(&parsed, "C-2").status, Some(CarStatus::Used));
    let delivered = car(&parsed, "C-3");
    assert_eq!((delivered.status, delivered.mileage), (None, 50));
    assert!(delivered.mileage_stated && delivered.used_signs.is_empty());
    assert_eq!(car(&parsed, "C-4").status, Some(CarStatus::New));
}
