//! The comparison of a feed with the catalogue (the rules of an import):
//! each feed car matched by external id, then VIN, to new, changed, unchanged
//! or gone, with the fields it changes. Read by the preview and by `apply`.

use super::feeds::FeedCondition;
use super::report::{
    AlsoIn, ChangedCar, FieldChange, GoneCar, NewBodyType, NewCar, Report, RowWarning, UnchangedCar,
};
use super::values::{FEED_FIELDS, PHOTOS, Values, car_values, merged, stated_values};
use crate::domain::cars::{
    BodyType, Car, CarFilter, CarState, CarStatus, Drivetrain, FuelType, Transmission, Wheel,
};
use crate::domain::{body_types, brands, cars};
use crate::error::AppResult;
use crate::parser::feed::{FeedCar, FeedFormat, RowError};
use crate::parser::mapping;
use rusqlite::Connection;
use std::collections::{HashMap, HashSet};

/// A catalogue car as the comparison sees it.
pub(super) struct Existing {
    pub(super) car: Car,
    /// The feed's picture URLs it was last given, in order.
    pub(super) sources: Vec<String>,
    pub(super) unpublished_by_import: bool,
    /// The feeds that brought it.
    pub(super) feeds: Vec<Membership>,
}

/// A feed's memory of a car (`feed_cars`).
pub(super) struct Membership {
    pub(super) feed_id: String,
    pub(super) feed_name: String,
    /// The feed's place in the list, then its id: the smaller wins.
    pub(super) rank: (i64, String),
    pub(super) key: String,
    pub(super) listed: bool,
    /// What the feed last stated (None: nothing recorded).
    pub(super) base: Option<Values>,
}

/// The run a plan is for: its feed, that feed's place and default
/// condition, and the condition the admin chose for the whole preview.
#[derive(Debug, Clone)]
pub struct RunContext {
    pub feed_id: String,
    pub feed_name: String,
    pub rank: (i64, String),
    pub condition: FeedCondition,
    pub chosen: Option<CarStatus>,
    /// The salon the feed's new cars stand in (None: the main).
    pub salon_id: Option<i64>,
}

/// A car of the catalogue the plan touches: the feed's row it comes from,
/// and what the feed states of it (JSON of [`Values`], stored as the next
/// base; a car is written from it too when it is new).
pub(super) enum Step<'a> {
    New {
        feed: &'a FeedCar,
        stated: String,
    },
    Changed {
        feed: &'a FeedCar,
        stated: String,
        car_id: String,
        /// The fields' new values, when any changed.
        target: Option<Values>,
        photos: bool,
        republish: bool,
    },
    Unchanged {
        feed: &'a FeedCar,
        stated: String,
        car_id: String,
    },
}

/// Whether a plan keeps the steps of its apply or only the report a
/// preview stores: a preview of 20,000 cars needs no steps.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Steps {
    Kept,
    ReportOnly,
}

pub(super) struct Plan<'a> {
    pub(super) report: Report,
    pub(super) steps: Vec<Step<'a>>,
    pub(super) gone: Vec<String>,
}

/// The compact text a step keeps of the values a feed states.
fn values_text(values: &Values) -> String {
    serde_json::to_string(values).unwrap_or_else(|_| "{}".into())
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

/// A field's value as the preview shows it.
pub(super) fn shown(field: &str, value: &str, bodies: &BodyResolver) -> String {
    let label = match field {
        "status" => CarStatus::parse(value).map(CarStatus::label),
        "transmission" => Transmission::parse(value).map(Transmission::label),
        "drivetrain" if value.is_empty() => Some("не указан"),
        "drivetrain" => Drivetrain::parse(value).map(Drivetrain::label),
        "fuelType" => FuelType::parse(value).map(FuelType::label),
        "owners" | "accident" | "state" if value.is_empty() => Some("не указано"),
        "accident" => Some(if value == "true" { "Да" } else { "Нет" }),
        "state" => CarState::parse(value).map(CarState::label),
        "wheel" => Wheel::parse(value).map(Wheel::label),
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

/// The catalogue as the comparison reads it: every car with its photo
/// sources and the feeds that brought it, oldest first.
fn load_existing(conn: &Connection) -> AppResult<Vec<Existing>> {
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
    let unpublished: HashMap<String, bool> = conn
        .prepare("SELECT car_id, unpublished_by_import FROM imported_cars")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut memberships: HashMap<String, Vec<Membership>> = HashMap::new();
    {
        let mut stmt = conn.prepare(
            "SELECT fc.car_id, fc.feed_id, f.name, f.position, fc.feed_key, fc.listed,
                fc.feed_values
             FROM feed_cars fc JOIN import_feeds f ON f.id = fc.feed_id",
        )?;
        let rows = stmt.query_map([], |r| {
            let feed_id: String = r.get(1)?;
            let values: String = r.get(6)?;
            Ok((
                r.get::<_, String>(0)?,
                Membership {
                    rank: (r.get(3)?, feed_id.clone()),
                    feed_id,
                    feed_name: r.get(2)?,
                    key: r.get(4)?,
                    listed: r.get(5)?,
                    base: serde_json::from_str::<Values>(&values)
                        .ok()
                        .filter(|b| !b.is_empty()),
                },
            ))
        })?;
        for row in rows {
            let (car, membership) = row?;
            memberships.entry(car).or_default().push(membership);
        }
    }
    let mut existing: Vec<Existing> = all
        .into_iter()
        .map(|car| Existing {
            sources: sources.remove(&car.id).unwrap_or_default(),
            unpublished_by_import: unpublished.get(&car.id).copied().unwrap_or(false),
            feeds: memberships.remove(&car.id).unwrap_or_default(),
            car,
        })
        .collect();
    existing.sort_by(|a, b| a.car.created_at.cmp(&b.car.created_at));
    Ok(existing)
}

/// The warnings of a car's condition: it looks used but would be published
/// as new, or it is used and its feed gives no mileage.
fn condition_warnings(feed: &FeedCar, status: CarStatus) -> Vec<(String, String)> {
    let mut found = Vec::new();
    if status == CarStatus::New && !feed.used_signs.is_empty() {
        found.push((
            "status".to_string(),
            format!(
                "Похоже на автомобиль с пробегом ({}), а будет опубликован как новый: \
                 проверьте состояние",
                feed.used_signs.join(", ")
            ),
        ));
    }
    if status == CarStatus::Used && !feed.mileage_stated {
        found.push((
            "mileage".to_string(),
            "Пробег не указан: укажите его у автомобиля после импорта".to_string(),
        ));
    }
    found
}

/// Loads the catalogue and compares one feed's run with it
/// (`docs/parser.md`, "Several feeds"): each row matched to the car this
/// feed brought under the same key, else the car with its VIN, else the
/// car with its id (when the VINs do not differ); the fields a feed higher
/// in the list states left to it; the cars this feed brought and no longer
/// lists unpublished unless another feed lists them.
pub(super) fn plan<'a>(
    conn: &Connection,
    run: &RunContext,
    format: Option<FeedFormat>,
    rows: &'a [FeedCar],
    errors: Vec<RowError>,
    steps_too: Steps,
) -> AppResult<Plan<'a>> {
    let keep = steps_too == Steps::Kept;
    let existing = load_existing(conn)?;
    let mut by_key: HashMap<&str, usize> = HashMap::new();
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    let mut by_vin: HashMap<String, usize> = HashMap::new();
    for (i, e) in existing.iter().enumerate() {
        if let Some(m) = e.feeds.iter().find(|m| m.feed_id == run.feed_id) {
            by_key.insert(m.key.as_str(), i);
        }
        if let Some(id) = &e.car.external_id {
            by_id.insert(id.as_str(), i);
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
    let mut steps = Vec::with_capacity(if keep { rows.len() } else { 0 });
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
        let status = run.condition.of_car(run.chosen, feed.status);
        let mut stated = stated_values(feed, &brand_name, &body, status);
        let title = format!("{brand_name} {} {}", feed.name, feed.year);
        let warnings = feed
            .warnings
            .iter()
            .map(|w| (w.field.clone(), w.message.clone()))
            .chain(condition_warnings(feed, status));
        for (field, message) in warnings {
            report.warnings.push(RowWarning {
                row: feed.row,
                line: feed.line,
                key: feed.key(),
                title: title.clone(),
                field,
                message,
            });
        }
        let vin_differs = |i: usize| {
            matches!((&existing[i].car.vin, &feed.vin),
                (Some(a), Some(b)) if !a.eq_ignore_ascii_case(b))
        };
        let found = by_key
            .get(feed.key().as_str())
            .copied()
            .or_else(|| {
                feed.vin
                    .as_ref()
                    .and_then(|vin| by_vin.get(&vin.to_uppercase()))
                    .copied()
            })
            .or_else(|| {
                feed.external_id
                    .as_deref()
                    .and_then(|id| by_id.get(id))
                    .copied()
                    .filter(|&i| !vin_differs(i))
            })
            .filter(|i| !matched.contains(i));
        let Some(index) = found else {
            report.new.push(NewCar {
                key: feed.key(),
                external_id: feed.external_id.clone(),
                vin: feed.vin.clone(),
                title,
                price: feed.price,
                status,
            });
            if keep {
                steps.push(Step::New {
                    feed,
                    stated: values_text(&stated),
                });
            }
            continue;
        };
        matched.insert(index);
        let e = &existing[index];
        // The fields a feed higher in the list states are that feed's.
        let mut also_in = Vec::new();
        for m in e
            .feeds
            .iter()
            .filter(|m| m.listed && m.feed_id != run.feed_id)
        {
            let wins = m.rank < run.rank;
            if wins {
                for field in m.base.iter().flat_map(|b| b.keys()) {
                    stated.remove(field);
                }
            }
            also_in.push(AlsoIn {
                feed_id: m.feed_id.clone(),
                feed_name: m.feed_name.clone(),
                wins,
            });
        }
        let base = e
            .feeds
            .iter()
            .find(|m| m.feed_id == run.feed_id)
            .and_then(|m| m.base.as_ref());
        let current = car_values(&e.car);
        let target = merged(&current, base, &stated);
        let mut changes = changes_of(&current, &target, &bodies);
        let fields = !changes.is_empty();
        let photos = stated.contains_key(PHOTOS) && feed.photos != e.sources;
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
                also_in,
            });
            if keep {
                steps.push(Step::Unchanged {
                    feed,
                    stated: values_text(&stated),
                    car_id,
                });
            }
        } else {
            report.changed.push(ChangedCar {
                key: feed.key(),
                car_id: car_id.clone(),
                slug: e.car.slug.clone(),
                title: title_of(&e.car),
                changes,
                also_in,
            });
            if keep {
                steps.push(Step::Changed {
                    feed,
                    stated: values_text(&stated),
                    car_id,
                    target: fields.then_some(target),
                    photos,
                    republish,
                });
            }
        }
    }
    let mut gone = Vec::new();
    for (i, e) in existing.iter().enumerate() {
        let mine = e.feeds.iter().any(|m| m.feed_id == run.feed_id && m.listed);
        if !mine || matched.contains(&i) {
            continue;
        }
        let stays_in = e
            .feeds
            .iter()
            .filter(|m| m.listed && m.feed_id != run.feed_id)
            .min_by(|a, b| a.rank.cmp(&b.rank))
            .map(|m| m.feed_name.clone());
        let car = GoneCar {
            car_id: e.car.id.clone(),
            slug: e.car.slug.clone(),
            title: title_of(&e.car),
            external_id: e.car.external_id.clone(),
            vin: e.car.vin.clone(),
            stays_in: stays_in.clone(),
        };
        if stays_in.is_some() {
            report.left.push(car);
        } else if e.car.published {
            report.gone.push(car);
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
    })
}
