//! The comparison of a feed with the catalogue (the rules of an import):
//! each feed car matched by external id, then VIN, to new, changed, unchanged
//! or gone, with the fields it changes. Read by the preview and by `apply`.

use super::report::{
    ChangedCar, FieldChange, GoneCar, NewBodyType, NewCar, Report, RowWarning, UnchangedCar,
};
use crate::domain::cars::{
    BodyType, Car, CarFilter, CarStatus, Drivetrain, FuelType, Transmission,
};
use crate::domain::money::Money;
use crate::domain::{body_types, brands, cars};
use crate::error::AppResult;
use crate::parser::feed::{FeedCar, FeedFormat, RowError};
use crate::parser::mapping;
use rusqlite::Connection;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A catalogue car as the comparison sees it.
pub(super) struct Existing {
    pub(super) car: Car,
    /// The feed's picture URLs it was last given, in order.
    pub(super) sources: Vec<String>,
    pub(super) imported: bool,
    pub(super) unpublished_by_import: bool,
    /// What the feed last wrote (None: never, or before V16).
    pub(super) base: Option<Values>,
}

/// A car's fields as a feed writes them, as comparable text ("" for none),
/// by the API's field names.
pub type Values = BTreeMap<String, String>;

/// The fields a feed writes, with their Russian names, in the order the
/// preview lists changes.
pub(super) const FEED_FIELDS: [(&str, &str); 22] = [
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
    ("externalId", "Идентификатор в фиде"),
    ("creditDiscount", "Скидка при кредите"),
    ("tradeinDiscount", "Скидка при трейд-ин"),
    ("insuranceDiscount", "Скидка при страховании"),
    ("maxDiscount", "Максимальная скидка"),
];

/// A car of the catalogue the plan touches.
pub(super) enum Step {
    New {
        feed: FeedCar,
        values: Values,
    },
    Changed {
        feed: FeedCar,
        car_id: String,
        /// The fields' new values, when any changed.
        target: Option<Values>,
        photos: bool,
        republish: bool,
    },
    Unchanged {
        feed: FeedCar,
        car_id: String,
    },
}

pub(super) struct Plan {
    pub(super) report: Report,
    pub(super) steps: Vec<Step>,
    pub(super) gone: Vec<String>,
    /// Per car (feed key): what the feed states, stored as the next base.
    pub(super) stated: HashMap<String, Values>,
}

/// The slug-like key brands are matched by ("LADA (ВАЗ)" and "Лада" are
/// `lada`).
pub fn brand_key(name: &str) -> String {
    let key = crate::domain::slug::slugify(name);
    match key.as_str() {
        "vaz" | "lada-vaz" | "vaz-lada" => "lada".into(),
        "mercedes" => "mercedes-benz".into(),
        "vw" => "volkswagen".into(),
        _ => key,
    }
}

pub(super) fn money_text(m: Option<Money>) -> String {
    m.map_or_else(String::new, |m| m.to_string())
}

pub(super) fn title_of(car: &Car) -> String {
    format!("{} {} {}", car.brand_name, car.name, car.year)
}

/// Maps a feed's body words to the dealership's body types
/// (`docs/parser.md`, body types): a CSV slug of the list; a word whose
/// first word is a type's label; the marketplaces' spellings; else a new
/// type, listed and created on apply.
pub(super) struct BodyResolver {
    pub(super) slugs: HashSet<String>,
    pub(super) labels: HashMap<String, BodyType>,
    pub(super) single: HashMap<String, String>,
    pub(super) new: Vec<NewBodyType>,
}

impl BodyResolver {
    pub(super) fn load(conn: &Connection) -> AppResult<Self> {
        let mut resolver = BodyResolver {
            slugs: HashSet::new(),
            labels: HashMap::new(),
            single: HashMap::new(),
            new: Vec::new(),
        };
        for t in body_types::list(conn)? {
            resolver.add(&t.body_type, &t.label_single, &t.label_plural);
        }
        Ok(resolver)
    }

    pub(super) fn add(&mut self, slug: &BodyType, single: &str, plural: &str) {
        self.slugs.insert(slug.as_str().to_string());
        for label in [single, plural] {
            self.labels
                .entry(mapping::body_word(label))
                .or_insert_with(|| slug.clone());
        }
        self.single
            .insert(slug.as_str().to_string(), single.to_string());
    }

    pub(super) fn resolve(&mut self, word: &str, format: Option<FeedFormat>) -> Option<BodyType> {
        let exact = word.trim().to_lowercase();
        if format == Some(FeedFormat::Csv) && self.slugs.contains(&exact) {
            return BodyType::parse(&exact);
        }
        if let Some(slug) = self.labels.get(&mapping::body_word(word)) {
            return Some(slug.clone());
        }
        let guess = mapping::body_guess(word)?;
        if !self.slugs.contains(guess.slug.as_str()) {
            self.add(&guess.slug, &guess.single, &guess.plural);
            self.new.push(NewBodyType {
                body_type: guess.slug.clone(),
                label_plural: guess.plural,
                label_single: guess.single,
            });
        }
        Some(guess.slug)
    }

    pub(super) fn label(&self, slug: &str) -> String {
        self.single
            .get(slug)
            .cloned()
            .unwrap_or_else(|| slug.to_string())
    }
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
pub(super) fn stated_values(feed: &FeedCar, brand_name: &str, body: &BodyType) -> Values {
    let mut values = Values::new();
    let mut put = |k: &str, v: String| {
        values.insert(k.to_string(), v);
    };
    put("brandName", brand_name.to_string());
    put("name", feed.name.clone());
    put("model", feed.model.clone());
    put("year", feed.year.to_string());
    put("price", feed.price.to_string());
    put(
        "status",
        feed.status.unwrap_or(CarStatus::New).as_str().into(),
    );
    put("bodyType", body.as_str().into());
    put("transmission", feed.transmission.as_str().into());
    put("fuelType", feed.fuel_type.as_str().into());
    put("mileage", feed.mileage.to_string());
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
    ] {
        if let Some(v) = v {
            put(k, v);
        }
    }
    if let Some(d) = &feed.discounts {
        put("creditDiscount", money_text(d.credit));
        put("tradeinDiscount", money_text(d.tradein));
        put("insuranceDiscount", money_text(d.insurance));
        put("maxDiscount", money_text(d.max));
    }
    values
}

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

/// A field's value as the preview shows it.
pub(super) fn shown(field: &str, value: &str, bodies: &BodyResolver) -> String {
    let label = match field {
        "status" => CarStatus::parse(value).map(CarStatus::label),
        "transmission" => Transmission::parse(value).map(Transmission::label),
        "drivetrain" if value.is_empty() => Some("не указан"),
        "drivetrain" => Drivetrain::parse(value).map(Drivetrain::label),
        "fuelType" => FuelType::parse(value).map(FuelType::label),
        "bodyType" => return bodies.label(value),
        _ => None,
    };
    label.unwrap_or(value).to_string()
}

pub(super) fn changes_of(
    current: &Values,
    target: &Values,
    bodies: &BodyResolver,
) -> Vec<FieldChange> {
    FEED_FIELDS
        .iter()
        .filter_map(|(field, label)| {
            let old = current.get(*field).map_or("", String::as_str);
            let new = target.get(*field).map_or("", String::as_str);
            (old != new).then(|| FieldChange {
                field: (*field).into(),
                label: (*label).into(),
                old: shown(field, old, bodies),
                new: shown(field, new, bodies),
            })
        })
        .collect()
}

/// Loads the catalogue and compares the feed with it.
pub(super) fn plan(
    conn: &Connection,
    format: Option<FeedFormat>,
    rows: &[FeedCar],
    errors: Vec<RowError>,
) -> AppResult<Plan> {
    let all = cars::list_all(
        conn,
        &CarFilter {
            include_drafts: true,
            ..CarFilter::default()
        },
    )?;
    let mut sources: HashMap<String, Vec<String>> = HashMap::new();
    {
        let mut stmt = conn.prepare(
            "SELECT car_id, source_url FROM car_photo_sources ORDER BY car_id, position",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            let (car, url) = row?;
            sources.entry(car).or_default().push(url);
        }
    }
    let imported: HashMap<String, (bool, String)> = conn
        .prepare("SELECT car_id, unpublished_by_import, feed_values FROM imported_cars")?
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))?
        .collect::<Result<_, _>>()?;
    let mut existing: Vec<Existing> = all
        .into_iter()
        .map(|car| {
            let record = imported.get(&car.id);
            Existing {
                sources: sources.remove(&car.id).unwrap_or_default(),
                imported: record.is_some(),
                unpublished_by_import: record.is_some_and(|r| r.0),
                base: record
                    .and_then(|r| serde_json::from_str::<Values>(&r.1).ok())
                    .filter(|b| !b.is_empty()),
                car,
            }
        })
        .collect();
    existing.sort_by(|a, b| a.car.created_at.cmp(&b.car.created_at));
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut by_vin: HashMap<String, usize> = HashMap::new();
    for (i, e) in existing.iter().enumerate() {
        if let Some(id) = &e.car.external_id {
            by_id.insert(id.clone(), i);
        }
        if let Some(vin) = &e.car.vin {
            by_vin.entry(vin.to_uppercase()).or_insert(i);
        }
    }
    let brand_names: HashMap<String, String> = brands::list_for_admin(conn)?
        .into_iter()
        .map(|b| (brand_key(&b.name), b.name))
        .collect();
    let mut bodies = BodyResolver::load(conn)?;
    let mut report = Report {
        errors,
        ..Report::default()
    };
    let mut steps = Vec::with_capacity(rows.len());
    let mut stated_by_key = HashMap::with_capacity(rows.len());
    let mut matched: HashSet<usize> = HashSet::new();
    let mut new_brands: Vec<String> = Vec::new();
    for feed in rows {
        let key = brand_key(&feed.brand);
        let brand_name = match brand_names.get(&key) {
            Some(name) => name.clone(),
            None => match new_brands.iter().find(|b| brand_key(b) == key) {
                Some(first) => first.clone(),
                None => {
                    new_brands.push(feed.brand.trim().to_string());
                    feed.brand.trim().to_string()
                }
            },
        };
        let Some(body) = bodies.resolve(&feed.body, format) else {
            report.errors.push(RowError {
                row: feed.row,
                line: feed.line,
                field: Some("body_type".into()),
                message: "Не указано: тип кузова".into(),
            });
            continue;
        };
        let stated = stated_values(feed, &brand_name, &body);
        for w in &feed.warnings {
            report.warnings.push(RowWarning {
                row: feed.row,
                line: feed.line,
                key: feed.key(),
                title: format!("{brand_name} {} {}", feed.name, feed.year),
                field: w.field.clone(),
                message: w.message.clone(),
            });
        }
        let found = feed
            .external_id
            .as_ref()
            .and_then(|id| by_id.get(id))
            .or_else(|| feed.vin.as_ref().and_then(|vin| by_vin.get(vin)))
            .copied()
            .filter(|i| !matched.contains(i));
        stated_by_key.insert(feed.key(), stated.clone());
        let Some(index) = found else {
            report.new.push(NewCar {
                key: feed.key(),
                external_id: feed.external_id.clone(),
                vin: feed.vin.clone(),
                title: format!("{brand_name} {} {}", feed.name, feed.year),
                price: feed.price,
                status: feed.status.unwrap_or(CarStatus::New),
            });
            let mut values = stated;
            values.insert("engine".into(), feed.engine.clone());
            steps.push(Step::New {
                feed: feed.clone(),
                values,
            });
            continue;
        };
        matched.insert(index);
        let e = &existing[index];
        let current = car_values(&e.car);
        let target = merged(&current, e.base.as_ref(), &stated);
        let mut changes = changes_of(&current, &target, &bodies);
        let fields = !changes.is_empty();
        let photos = !feed.photos.is_empty() && feed.photos != e.sources;
        if photos {
            changes.push(FieldChange {
                field: "images".into(),
                label: "Фото".into(),
                old: format!("{} шт.", e.sources.len().max(e.car.images.len())),
                new: format!("{} шт. (новые адреса)", feed.photos.len()),
            });
        }
        let republish = e.unpublished_by_import && !e.car.published;
        if republish {
            changes.push(FieldChange {
                field: "published".into(),
                label: "Публикация".into(),
                old: "снят (пропал из фида)".into(),
                new: "опубликован".into(),
            });
        }
        let car_id = e.car.id.clone();
        if changes.is_empty() {
            report.unchanged.push(UnchangedCar {
                key: feed.key(),
                car_id: car_id.clone(),
                slug: e.car.slug.clone(),
                title: title_of(&e.car),
            });
            steps.push(Step::Unchanged {
                feed: feed.clone(),
                car_id,
            });
        } else {
            report.changed.push(ChangedCar {
                key: feed.key(),
                car_id: car_id.clone(),
                slug: e.car.slug.clone(),
                title: title_of(&e.car),
                changes,
            });
            steps.push(Step::Changed {
                feed: feed.clone(),
                car_id,
                target: fields.then_some(target),
                photos,
                republish,
            });
        }
    }
    let mut gone = Vec::new();
    for (i, e) in existing.iter().enumerate() {
        if e.imported && e.car.published && !matched.contains(&i) {
            report.gone.push(GoneCar {
                car_id: e.car.id.clone(),
                slug: e.car.slug.clone(),
                title: title_of(&e.car),
                external_id: e.car.external_id.clone(),
                vin: e.car.vin.clone(),
            });
            gone.push(e.car.id.clone());
        }
    }
    report.errors.sort_by_key(|e| e.row);
    report.new_brands = new_brands;
    report.new_body_types = bodies.new;
    Ok(Plan {
        report,
        steps,
        gone,
        stated: stated_by_key,
    })
}
