//! A car's fields as a feed writes them, as comparable text: what a
//! catalogue car holds of them (`car_values`), what a feed states
//! (`stated_values`), and the two merged by the re-import's rule
//! (`merged`, `docs/parser.md`, "A re-import changes nothing a person set").

use crate::domain::cars::{BodyType, Car, CarStatus};
use crate::domain::money::Money;
use crate::parser::feed::FeedCar;
use std::collections::BTreeMap;

/// A car's fields as a feed writes them, as comparable text ("" for none),
/// by the API's field names.
pub type Values = BTreeMap<String, String>;

/// The fields a feed writes, with their Russian names, in the order the
/// preview lists changes.
pub(super) const FEED_FIELDS: [(&str, &str); 26] = [
    ("brandName", "Марка"),
    ("name", "Название"),
    ("model", "Модель"),
    ("trim", "Комплектация"),
    ("generation", "Поколение"),
    ("doors", "Двери"),
    ("year", "Год"),
    ("price", "Цена"),
    ("status", "Состояние"),
    ("bodyType", "Тип кузова"),
    ("transmission", "Коробка передач"),
    ("drivetrain", "Привод"),
    ("fuelType", "Тип топлива"),
    ("engine", "Двигатель"),
    ("mileage", "Пробег"),
    ("color", "Цвет"),
    ("vin", "VIN"),
    ("owners", "Владельцев по ПТС"),
    ("accident", "Участвовал в ДТП"),
    ("state", "Оценка состояния"),
    ("wheel", "Руль"),
    ("externalId", "Идентификатор в фиде"),
    ("creditDiscount", "Скидка при кредите"),
    ("tradeinDiscount", "Скидка при трейд-ин"),
    ("insuranceDiscount", "Скидка при страховании"),
    ("maxDiscount", "Максимальная скидка"),
];

pub(super) fn money_text(m: Option<Money>) -> String {
    m.map_or_else(String::new, |m| m.to_string())
}

/// What a catalogue car holds of the feed's fields.
pub(super) fn car_values(car: &Car) -> Values {
    let d = |m: Option<Money>| money_text(m);
    [
        ("brandName", car.brand_name.clone()),
        ("name", car.name.clone()),
        ("model", car.model.clone()),
        ("trim", car.trim.clone().unwrap_or_default()),
        ("generation", car.generation.clone().unwrap_or_default()),
        (
            "doors",
            car.doors.map(|d| d.to_string()).unwrap_or_default(),
        ),
        ("year", car.year.to_string()),
        ("price", car.price.to_string()),
        ("status", car.status.as_str().into()),
        ("bodyType", car.body_type.as_str().into()),
        ("transmission", car.transmission.as_str().into()),
        (
            "drivetrain",
            car.drivetrain
                .map(|d| d.as_str().to_string())
                .unwrap_or_default(),
        ),
        ("fuelType", car.fuel_type.as_str().into()),
        ("engine", car.engine.clone()),
        ("mileage", car.mileage.to_string()),
        ("color", car.color.clone().unwrap_or_default()),
        ("vin", car.vin.clone().unwrap_or_default()),
        ("owners", optional_text(car.owners)),
        ("accident", optional_text(car.accident)),
        ("state", optional_text(car.state.map(|s| s.as_str()))),
        ("wheel", car.wheel.as_str().into()),
        ("externalId", car.external_id.clone().unwrap_or_default()),
        ("creditDiscount", d(car.credit_discount)),
        ("tradeinDiscount", d(car.tradein_discount)),
        ("insuranceDiscount", d(car.insurance_discount)),
        ("maxDiscount", d(car.max_discount)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// What the feed states of a car: a field it leaves unstated is absent
/// (the car's own value stays). An engine text built only from the fuel
/// and the gearbox counts as unstated.
pub(super) fn stated_values(
    feed: &FeedCar,
    brand_name: &str,
    body: &BodyType,
    status: CarStatus,
) -> Values {
    let mut values = Values::new();
    let mut put = |k: &str, v: String| {
        values.insert(k.to_string(), v);
    };
    put("brandName", brand_name.to_string());
    // A name that is only the model (the feed gives no complectation) does
    // not rename "GX Executive" to "GX": the name is stated when the feed
    // names the car beyond its model.
    if feed.trim.is_some() || feed.name != feed.model {
        put("name", feed.name.clone());
    }
    put("model", feed.model.clone());
    put("year", feed.year.to_string());
    put("price", feed.price.to_string());
    put("status", status.as_str().into());
    put("bodyType", body.as_str().into());
    put("transmission", feed.transmission.as_str().into());
    put("fuelType", feed.fuel_type.as_str().into());
    if feed.mileage_stated {
        put("mileage", feed.mileage.to_string());
    }
    if !feed.warnings.iter().any(|w| w.field == "engine") {
        put("engine", feed.engine.clone());
    }
    for (k, v) in [
        ("trim", feed.trim.clone()),
        ("generation", feed.generation.clone()),
        ("doors", feed.doors.map(|d| d.to_string())),
        (
            "drivetrain",
            feed.drivetrain.map(|d| d.as_str().to_string()),
        ),
        ("color", feed.color.clone()),
        ("vin", feed.vin.clone()),
        ("externalId", feed.external_id.clone()),
        ("wheel", feed.wheel.map(|w| w.as_str().to_string())),
    ] {
        if let Some(v) = v {
            put(k, v);
        }
    }
    // Owners, an accident and a state are a used car's (the form shows them
    // for used cars only; Auto.ru says «Не было владельцев» of a new one).
    if status == CarStatus::Used {
        for (k, v) in [
            ("owners", feed.owners.map(|n| n.to_string())),
            ("accident", feed.accident.map(|a| a.to_string())),
            ("state", feed.state.map(|s| s.as_str().to_string())),
        ] {
            if let Some(v) = v {
                put(k, v);
            }
        }
    }
    if let Some(d) = &feed.discounts {
        put("creditDiscount", money_text(d.credit));
        put("tradeinDiscount", money_text(d.tradein));
        put("insuranceDiscount", money_text(d.insurance));
        put("maxDiscount", money_text(d.max));
    }
    if !feed.photos.is_empty() {
        put(PHOTOS, feed.photos.join("\n"));
    }
    values
}

/// The key a feed's photo URLs are remembered by among its stated values
/// (no car field: a feed higher in the list that states it keeps the
/// photos its own).
pub(super) const PHOTOS: &str = "photos";

/// The fields' values after the import (`docs/parser.md`, re-import): a
/// field the feed states is written when the feed's value changed since
/// the feed last wrote it (or it never did); otherwise the car keeps its
/// own, whoever set it.
pub(super) fn merged(current: &Values, base: Option<&Values>, stated: &Values) -> Values {
    let mut target = current.clone();
    for (field, value) in stated {
        let unchanged_in_feed = base.and_then(|b| b.get(field)) == Some(value);
        if !unchanged_in_feed {
            target.insert(field.clone(), value.clone());
        }
    }
    target
}

/// An optional value as comparable text ("" for none).
fn optional_text(value: Option<impl ToString>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}
