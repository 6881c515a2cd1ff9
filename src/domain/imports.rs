//! Import runs of the inventory parser and what applying one writes
//! (`docs/parser.md`): the preview compares a feed's cars with the catalogue
//! (matched by external id, then VIN); applying writes the same comparison,
//! made again on the current catalogue, in the caller's transaction.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body_types::{self, BodyTypeCreate};
use super::brands::{self, BrandInput};
use super::cars::{
    self, BodyType, Car, CarFilter, CarInput, CarStatus, Drivetrain, FuelType, Transmission,
};
use super::money::Money;
use super::text_enum;
use crate::error::{AppError, AppResult};
use crate::parser::feed::{FeedCar, FeedFormat, RowError};
use crate::parser::mapping;

text_enum!(
    /// manual | schedule
    RunTrigger { Manual = "manual", Schedule = "schedule" }
);
text_enum!(
    /// preview | applied | discarded | failed
    RunStatus { Preview = "preview", Applied = "applied", Discarded = "discarded", Failed = "failed" }
);
text_enum!(
    /// url | file
    SourceKind { Url = "url", File = "file" }
);

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RunSource {
    pub kind: SourceKind,
    /// The URL or the file name.
    pub name: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct RunCounts {
    pub new: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub gone: usize,
    pub errors: usize,
    /// Cars that import with unstated fields.
    #[serde(default)]
    pub warnings: usize,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct PhotoProgress {
    pub total: i64,
    pub done: i64,
    pub failed: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportRunSummary {
    pub id: String,
    pub created_at: String,
    pub finished_at: Option<String>,
    pub trigger: RunTrigger,
    pub source: RunSource,
    pub format: Option<FeedFormat>,
    pub status: RunStatus,
    /// Why the run failed (fetch, size, XML).
    pub error: Option<String>,
    pub counts: RunCounts,
    pub photos: PhotoProgress,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NewCar {
    pub key: String,
    pub external_id: Option<String>,
    pub vin: Option<String>,
    pub title: String,
    pub price: Money,
    pub status: CarStatus,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct FieldChange {
    /// The API's name of the field (`price`, `mileage`, `images`, ...).
    pub field: String,
    /// Its Russian name ("Цена", "Пробег", "Фото").
    pub label: String,
    pub old: String,
    pub new: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ChangedCar {
    pub key: String,
    pub car_id: String,
    pub slug: String,
    pub title: String,
    pub changes: Vec<FieldChange>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UnchangedCar {
    pub key: String,
    pub car_id: String,
    pub slug: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GoneCar {
    pub car_id: String,
    pub slug: String,
    pub title: String,
    pub external_id: Option<String>,
    pub vin: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PhotoError {
    pub car_title: String,
    pub url: String,
    pub error: String,
}

/// A car that imports with a field its feed leaves unstated.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct RowWarning {
    pub row: u32,
    pub line: u32,
    pub key: String,
    pub title: String,
    /// drivetrain | engine | power | trim | vin | discount
    pub field: String,
    pub message: String,
}

/// A body type the feed names that the dealership's list lacks: created on
/// apply.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NewBodyType {
    pub body_type: BodyType,
    pub label_plural: String,
    pub label_single: String,
}

/// What a feed would do to the catalogue.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Report {
    pub new: Vec<NewCar>,
    pub changed: Vec<ChangedCar>,
    pub unchanged: Vec<UnchangedCar>,
    /// Will be unpublished (never deleted).
    pub gone: Vec<GoneCar>,
    pub errors: Vec<RowError>,
    /// Brands the feed names that the catalogue lacks: created on apply.
    pub new_brands: Vec<String>,
    /// Body types the feed names that the list lacks: created on apply.
    pub new_body_types: Vec<NewBodyType>,
    /// Cars that import with unstated fields (not errors).
    pub warnings: Vec<RowWarning>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportRun {
    #[serde(flatten)]
    pub summary: ImportRunSummary,
    #[serde(flatten)]
    pub report: Report,
    pub photo_errors: Vec<PhotoError>,
}

/// A catalogue car as the comparison sees it.
struct Existing {
    car: Car,
    /// The feed's picture URLs it was last given, in order.
    sources: Vec<String>,
    imported: bool,
    unpublished_by_import: bool,
    /// What the feed last wrote (None: never, or before V16).
    base: Option<Values>,
}

/// A car's fields as a feed writes them, as comparable text ("" for none),
/// by the API's field names.
pub type Values = BTreeMap<String, String>;

/// The fields a feed writes, with their Russian names, in the order the
/// preview lists changes.
const FEED_FIELDS: [(&str, &str); 22] = [
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
enum Step {
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

struct Plan {
    report: Report,
    steps: Vec<Step>,
    gone: Vec<String>,
    /// Per car (feed key): what the feed states, stored as the next base.
    stated: HashMap<String, Values>,
}

/// The slug-like key brands are matched by ("LADA (ВАЗ)" and "Лада" are
/// `lada`).
pub fn brand_key(name: &str) -> String {
    let key = super::slug::slugify(name);
    match key.as_str() {
        "vaz" | "lada-vaz" | "vaz-lada" => "lada".into(),
        "mercedes" => "mercedes-benz".into(),
        "vw" => "volkswagen".into(),
        _ => key,
    }
}

fn money_text(m: Option<Money>) -> String {
    m.map_or_else(String::new, |m| m.to_string())
}

fn title_of(car: &Car) -> String {
    format!("{} {} {}", car.brand_name, car.name, car.year)
}

/// Maps a feed's body words to the dealership's body types
/// (`docs/parser.md`, body types): a CSV slug of the list; a word whose
/// first word is a type's label; the marketplaces' spellings; else a new
/// type, listed and created on apply.
struct BodyResolver {
    slugs: HashSet<String>,
    labels: HashMap<String, BodyType>,
    single: HashMap<String, String>,
    new: Vec<NewBodyType>,
}

impl BodyResolver {
    fn load(conn: &Connection) -> AppResult<Self> {
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

    fn add(&mut self, slug: &BodyType, single: &str, plural: &str) {
        self.slugs.insert(slug.as_str().to_string());
        for label in [single, plural] {
            self.labels
                .entry(mapping::body_word(label))
                .or_insert_with(|| slug.clone());
        }
        self.single
            .insert(slug.as_str().to_string(), single.to_string());
    }

    fn resolve(&mut self, word: &str, format: Option<FeedFormat>) -> Option<BodyType> {
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

    fn label(&self, slug: &str) -> String {
        self.single
            .get(slug)
            .cloned()
            .unwrap_or_else(|| slug.to_string())
    }
}

/// What a catalogue car holds of the feed's fields.
fn car_values(car: &Car) -> Values {
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
fn stated_values(feed: &FeedCar, brand_name: &str, body: &BodyType) -> Values {
    let mut values = Values::new();
    let mut put = |k: &str, v: String| {
        values.insert(k.to_string(), v);
    };
    put("brandName", brand_name.to_string());
    put("name", feed.name.clone());
    put("model", feed.model.clone());
    put("year", feed.year.to_string());
    put("price", feed.price.to_string());
    put("status", feed.status.as_str().into());
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
fn merged(current: &Values, base: Option<&Values>, stated: &Values) -> Values {
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
fn shown(field: &str, value: &str, bodies: &BodyResolver) -> String {
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

fn changes_of(current: &Values, target: &Values, bodies: &BodyResolver) -> Vec<FieldChange> {
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
fn plan(
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
                status: feed.status,
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

/// Stores a preview of a parsed feed and gives it back.
#[allow(clippy::too_many_arguments)]
pub fn create_preview(
    conn: &Connection,
    trigger: RunTrigger,
    source: &RunSource,
    format: Option<FeedFormat>,
    rows: &[FeedCar],
    errors: Vec<RowError>,
) -> AppResult<ImportRun> {
    let plan = plan(conn, format, rows, errors)?;
    let id = super::new_ordered_id();
    let report = serde_json::to_string(&plan.report).map_err(internal)?;
    let rows = serde_json::to_string(rows).map_err(internal)?;
    conn.execute(
        "INSERT INTO import_runs (id, created_at, trigger, source_kind, source_name, format,
            status, report, rows)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'preview', ?7, ?8)",
        params![
            id,
            super::now(),
            trigger,
            source.kind,
            source.name,
            format,
            report,
            rows
        ],
    )?;
    get(conn, &id)?.ok_or_else(|| internal("run vanished"))
}

/// Records a run that failed before a preview (fetch, size, broken XML).
pub fn create_failed(
    conn: &Connection,
    trigger: RunTrigger,
    source: &RunSource,
    format: Option<FeedFormat>,
    error: &str,
) -> AppResult<ImportRun> {
    let id = super::new_ordered_id();
    let now = super::now();
    conn.execute(
        "INSERT INTO import_runs (id, created_at, finished_at, trigger, source_kind, source_name,
            format, status, error)
         VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, 'failed', ?7)",
        params![id, now, trigger, source.kind, source.name, format, error],
    )?;
    get(conn, &id)?.ok_or_else(|| internal("run vanished"))
}

fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("import run: {e}"))
}

const RUN_COLUMNS: &str = "id, created_at, finished_at, trigger, source_kind, source_name, format,
    status, error, report, photos_total, photos_done, photos_failed, photo_errors";

fn read_run(row: &rusqlite::Row) -> rusqlite::Result<ImportRun> {
    let report: Report = super::json_column(row.get_ref(9)?.as_str()?);
    let photo_errors: Vec<PhotoError> = super::json_column(row.get_ref(13)?.as_str()?);
    Ok(ImportRun {
        summary: ImportRunSummary {
            id: row.get(0)?,
            created_at: row.get(1)?,
            finished_at: row.get(2)?,
            trigger: row.get(3)?,
            source: RunSource {
                kind: row.get(4)?,
                name: row.get(5)?,
            },
            format: row.get(6)?,
            status: row.get(7)?,
            error: row.get(8)?,
            counts: RunCounts {
                new: report.new.len(),
                changed: report.changed.len(),
                unchanged: report.unchanged.len(),
                gone: report.gone.len(),
                errors: report.errors.len(),
                warnings: report
                    .warnings
                    .iter()
                    .map(|w| w.row)
                    .collect::<HashSet<_>>()
                    .len(),
            },
            photos: PhotoProgress {
                total: row.get(10)?,
                done: row.get(11)?,
                failed: row.get(12)?,
            },
        },
        report,
        photo_errors,
    })
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<ImportRun>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {RUN_COLUMNS} FROM import_runs WHERE id = ?1"
        ))?
        .query_row([id], read_run)
        .optional()?)
}

/// The last 50 runs, newest first.
pub fn list(conn: &Connection) -> AppResult<Vec<ImportRunSummary>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {RUN_COLUMNS} FROM import_runs ORDER BY created_at DESC, id DESC LIMIT 50"
    ))?;
    let rows = stmt.query_map([], read_run)?;
    rows.map(|r| r.map(|run| run.summary).map_err(AppError::from))
        .collect()
}

/// The latest run, when it failed (for the dashboard).
pub fn latest_failed(conn: &Connection) -> AppResult<Option<ImportRunSummary>> {
    let latest = conn
        .prepare_cached(&format!(
            "SELECT {RUN_COLUMNS} FROM import_runs ORDER BY created_at DESC, id DESC LIMIT 1"
        ))?
        .query_row([], read_run)
        .optional()?;
    Ok(latest
        .map(|run| run.summary)
        .filter(|s| s.status == RunStatus::Failed))
}

/// Discards a preview; `Ok(false)` when there is no such run; 409 when it is
/// not a preview.
pub fn discard(conn: &Connection, id: &str) -> AppResult<bool> {
    let Some(run) = get(conn, id)? else {
        return Ok(false);
    };
    if run.summary.status != RunStatus::Preview {
        return Err(not_a_preview(run.summary.status));
    }
    conn.execute(
        "UPDATE import_runs SET status = 'discarded', finished_at = ?2, rows = '[]' WHERE id = ?1",
        params![id, super::now()],
    )?;
    Ok(true)
}

fn not_a_preview(status: RunStatus) -> AppError {
    AppError::conflict(
        None,
        match status {
            RunStatus::Applied => "Импорт уже применён",
            RunStatus::Discarded => "Предпросмотр отменён: запустите импорт заново",
            RunStatus::Failed => "Импорт завершился ошибкой: применять нечего",
            RunStatus::Preview => "Импорт ещё не применён",
        },
    )
}

/// A unique slug for a new car.
fn unique_slug(base: &str, taken: &mut HashSet<String>) -> String {
    let base: String = super::slug::slugify(base).chars().take(200).collect();
    let base = if base.is_empty() { "car".into() } else { base };
    let mut slug = base.clone();
    let mut n = 2;
    while taken.contains(&slug) {
        slug = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(slug.clone());
    slug
}

/// The car an import writes: the fields' values (`merged`, or a new car's
/// stated ones), and for the rest what the car has (`base`) or a new car's
/// defaults.
fn input_for(values: &Values, brand_id: &str, base: Option<&Car>, slug: String) -> CarInput {
    let text = |k: &str| values.get(k).cloned().unwrap_or_default();
    let optional = |k: &str| super::non_empty(values.get(k).cloned());
    let money = |k: &str| optional(k).and_then(|m| Money::parse(&m).ok());
    CarInput {
        brand_id: brand_id.to_string(),
        name: text("name"),
        slug,
        model: text("model"),
        year: text("year").parse().unwrap_or_default(),
        price: money("price").unwrap_or_default(),
        monthly_payment: base.and_then(|c| c.monthly_payment),
        daily_price: base.and_then(|c| c.daily_price),
        status: CarStatus::parse(&text("status")).unwrap_or(CarStatus::Used),
        body_type: BodyType::parse(&text("bodyType")).unwrap_or(BodyType::SEDAN),
        transmission: Transmission::parse(&text("transmission")).unwrap_or(Transmission::Automatic),
        drivetrain: Drivetrain::parse(&text("drivetrain")),
        fuel_type: FuelType::parse(&text("fuelType")).unwrap_or(FuelType::Gasoline),
        engine: text("engine"),
        mileage: text("mileage").parse().unwrap_or_default(),
        main_image: String::new(),
        images: base.map(|c| c.images.clone()).unwrap_or_default(),
        trim_levels: base.map(|c| c.trim_levels.clone()).unwrap_or_default(),
        in_stock: true,
        featured: base.is_some_and(|c| c.featured),
        published: base.is_none_or(|c| c.published),
        vin: optional("vin"),
        color: optional("color"),
        external_id: optional("externalId"),
        credit_discount: money("creditDiscount"),
        tradein_discount: money("tradeinDiscount"),
        insurance_discount: money("insuranceDiscount"),
        max_discount: money("maxDiscount"),
        trim: optional("trim"),
        generation: optional("generation"),
        doors: optional("doors").and_then(|d| d.parse().ok()),
    }
}

/// Gives a car the feed's picture URLs: a position keeps its stored picture
/// while its URL is the same; a new URL waits for the photo fetch. The car's
/// pictures become the stored ones, in order.
fn set_sources(conn: &Connection, car_id: &str, urls: &[String]) -> AppResult<()> {
    let current: Vec<(String, Option<String>)> = conn
        .prepare_cached(
            "SELECT source_url, media_url FROM car_photo_sources WHERE car_id = ?1 ORDER BY position",
        )?
        .query_map([car_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    conn.prepare_cached("DELETE FROM car_photo_sources WHERE car_id = ?1")?
        .execute([car_id])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO car_photo_sources (car_id, position, source_url, media_url)
         VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (position, url) in (0_i64..).zip(urls) {
        let kept = current
            .iter()
            .find(|(source, _)| source == url)
            .and_then(|(_, media)| media.clone());
        insert.execute(params![car_id, position, url, kept])?;
    }
    rebuild_images(conn, car_id)
}

/// A car's pictures from its fetched feed photos, in the feed's order.
pub fn rebuild_images(conn: &Connection, car_id: &str) -> AppResult<()> {
    let urls: Vec<String> = conn
        .prepare_cached(
            "SELECT media_url FROM car_photo_sources
             WHERE car_id = ?1 AND media_url IS NOT NULL ORDER BY position",
        )?
        .query_map([car_id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let current: Vec<String> = conn
        .prepare_cached("SELECT url FROM car_images WHERE car_id = ?1 ORDER BY position")?
        .query_map([car_id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if current != urls {
        cars::set_images(conn, car_id, &urls)?;
        conn.prepare_cached("UPDATE cars SET updated_at = ?2 WHERE id = ?1")?
            .execute(params![car_id, super::now()])?;
    }
    Ok(())
}

/// Applies a preview in the caller's transaction: the comparison is made
/// again on the current catalogue and written. Gives the run as applied.
pub fn apply(conn: &Connection, id: &str, current_year: i32) -> AppResult<Option<ImportRun>> {
    let Some(run) = get(conn, id)? else {
        return Ok(None);
    };
    if run.summary.status != RunStatus::Preview {
        return Err(not_a_preview(run.summary.status));
    }
    let rows_text: String =
        conn.query_row("SELECT rows FROM import_runs WHERE id = ?1", [id], |r| {
            r.get(0)
        })?;
    let rows: Vec<FeedCar> = serde_json::from_str(&rows_text).map_err(internal)?;
    let feed_errors: Vec<RowError> = run
        .report
        .errors
        .iter()
        .filter(|e| !rows.iter().any(|r| r.row == e.row))
        .cloned()
        .collect();
    let plan = plan(conn, run.summary.format, &rows, feed_errors)?;
    for body in &plan.report.new_body_types {
        body_types::create(
            conn,
            &BodyTypeCreate {
                body_type: body.body_type.to_string(),
                label_plural: body.label_plural.clone(),
                label_single: body.label_single.clone(),
                image_url: String::new(),
                image_url_mobile: String::new(),
            },
        )?;
    }

    // Brands: the catalogue's, and the feed's new ones created.
    let mut brand_ids: HashMap<String, String> = brands::list_for_admin(conn)?
        .into_iter()
        .map(|b| (brand_key(&b.name), b.id))
        .collect();
    let mut taken_brand_slugs: HashSet<String> = brands::list_for_admin(conn)?
        .into_iter()
        .map(|b| b.slug)
        .collect();
    for name in &plan.report.new_brands {
        let slug = unique_slug(name, &mut taken_brand_slugs);
        let brand = brands::create(
            conn,
            &BrandInput {
                name: name.clone(),
                slug: slug.chars().take(100).collect(),
                logo: String::new(),
                description: String::new(),
            },
        )?;
        brand_ids.insert(brand_key(name), brand.id);
    }
    let brand_of = |feed: &FeedCar| -> AppResult<String> {
        brand_ids
            .get(&brand_key(&feed.brand))
            .cloned()
            .ok_or_else(|| internal(format!("brand {} missing", feed.brand)))
    };
    let mut taken: HashSet<String> = conn
        .prepare("SELECT slug FROM cars")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut mark = conn.prepare_cached(
        "INSERT INTO imported_cars (car_id, unpublished_by_import, last_run_id, feed_values)
         VALUES (?1, 0, ?2, ?3)
         ON CONFLICT (car_id) DO UPDATE SET unpublished_by_import = 0, last_run_id = ?2,
            feed_values = ?3",
    )?;
    let base_of = |feed: &FeedCar| -> String {
        plan.stated
            .get(&feed.key())
            .and_then(|v| serde_json::to_string(v).ok())
            .unwrap_or_else(|| "{}".into())
    };
    let fail_row = |feed: &FeedCar, err: AppError| -> AppError {
        AppError::conflict(
            None,
            format!("Строка {}: {}: {err}", feed.row, feed.title()),
        )
    };
    for step in &plan.steps {
        match step {
            Step::New { feed, values } => {
                let brand_id = brand_of(feed)?;
                let slug = unique_slug(
                    &format!("{} {} {}", feed.brand, feed.name, feed.year),
                    &mut taken,
                );
                let input = input_for(values, &brand_id, None, slug);
                let car =
                    cars::create(conn, &input, current_year).map_err(|e| fail_row(feed, e))?;
                mark.execute(params![car.id, id, base_of(feed)])?;
                if !feed.photos.is_empty() {
                    set_sources(conn, &car.id, &feed.photos)?;
                }
            }
            Step::Changed {
                feed,
                car_id,
                target,
                photos,
                republish,
            } => {
                if target.is_some() || *republish {
                    let Some(current) = cars::get(conn, car_id, true)? else {
                        continue;
                    };
                    let values = target.clone().unwrap_or_else(|| car_values(&current));
                    let brand_id = if values.get("brandName") == Some(&current.brand_name) {
                        current.brand_id.clone()
                    } else {
                        brand_of(feed)?
                    };
                    let mut input =
                        input_for(&values, &brand_id, Some(&current), current.slug.clone());
                    if *republish {
                        input.published = true;
                    }
                    cars::update(conn, car_id, &input, current_year)
                        .map_err(|e| fail_row(feed, e))?;
                }
                mark.execute(params![car_id, id, base_of(feed)])?;
                if *photos {
                    set_sources(conn, car_id, &feed.photos)?;
                }
            }
            Step::Unchanged { feed, car_id } => {
                mark.execute(params![car_id, id, base_of(feed)])?;
            }
        }
    }
    let now = super::now();
    for car_id in &plan.gone {
        conn.prepare_cached("UPDATE cars SET published = 0, updated_at = ?2 WHERE id = ?1")?
            .execute(params![car_id, now])?;
        conn.prepare_cached(
            "UPDATE imported_cars SET unpublished_by_import = 1, last_run_id = ?2 WHERE car_id = ?1",
        )?
        .execute(params![car_id, id])?;
    }
    let report = serde_json::to_string(&plan.report).map_err(internal)?;
    // Every photo still missing is this run's to fetch, the ones an earlier
    // run failed to get included.
    conn.execute(
        "UPDATE car_photo_sources SET error = NULL WHERE media_url IS NULL AND error IS NOT NULL",
        [],
    )?;
    let pending = pending_photo_count(conn)?;
    conn.execute(
        "UPDATE import_runs SET status = 'applied', finished_at = ?2, report = ?3, rows = '[]',
            photos_total = ?4, photos_done = 0, photos_failed = 0
         WHERE id = ?1",
        params![id, now, report, pending],
    )?;
    get(conn, id)
}

/// One picture still to fetch.
#[derive(Debug, Clone)]
pub struct PendingPhoto {
    pub car_id: String,
    pub position: i64,
    pub source_url: String,
    pub car_title: String,
}

fn pending_photo_count(conn: &Connection) -> AppResult<i64> {
    Ok(conn.query_row(
        "SELECT count(*) FROM car_photo_sources WHERE media_url IS NULL",
        [],
        |r| r.get(0),
    )?)
}

/// The most recently applied run: the one the photos being fetched count in.
pub fn last_applied_run(conn: &Connection) -> AppResult<Option<String>> {
    Ok(conn
        .query_row(
            "SELECT id FROM import_runs WHERE status = 'applied'
             ORDER BY finished_at DESC, rowid DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?)
}

/// Every feed picture not stored and not yet tried since the last apply
/// (which makes the ones that failed before untried again).
pub fn untried_photos(conn: &Connection) -> AppResult<Vec<PendingPhoto>> {
    let mut stmt = conn.prepare(
        "SELECT s.car_id, s.position, s.source_url,
            coalesce(b.name, '') || ' ' || c.name || ' ' || c.year
         FROM car_photo_sources s JOIN cars c ON c.id = s.car_id
         LEFT JOIN brands b ON b.id = c.brand_id
         WHERE s.media_url IS NULL AND s.error IS NULL ORDER BY s.car_id, s.position",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(PendingPhoto {
            car_id: r.get(0)?,
            position: r.get(1)?,
            source_url: r.get(2)?,
            car_title: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Records a fetched picture (when its source is still the same) and
/// counts it in the run.
pub fn photo_stored(
    conn: &Connection,
    run_id: &str,
    photo: &PendingPhoto,
    media_url: &str,
) -> AppResult<()> {
    super::atomically(conn, || {
        conn.prepare_cached(
            "UPDATE car_photo_sources SET media_url = ?4, error = NULL
             WHERE car_id = ?1 AND position = ?2 AND source_url = ?3",
        )?
        .execute(params![
            photo.car_id,
            photo.position,
            photo.source_url,
            media_url
        ])?;
        rebuild_images(conn, &photo.car_id)?;
        conn.prepare_cached("UPDATE import_runs SET photos_done = photos_done + 1 WHERE id = ?1")?
            .execute([run_id])?;
        Ok(())
    })
}

/// Records a picture that could not be fetched: retried on the next run.
pub fn photo_failed(
    conn: &Connection,
    run_id: &str,
    photo: &PendingPhoto,
    error: &str,
) -> AppResult<()> {
    super::atomically(conn, || {
        conn.prepare_cached(
            "UPDATE car_photo_sources SET error = ?4
             WHERE car_id = ?1 AND position = ?2 AND source_url = ?3",
        )?
        .execute(params![
            photo.car_id,
            photo.position,
            photo.source_url,
            error
        ])?;
        let entry = serde_json::to_string(&PhotoError {
            car_title: photo.car_title.clone(),
            url: photo.source_url.clone(),
            error: error.to_string(),
        })
        .map_err(internal)?;
        conn.prepare_cached(
            "UPDATE import_runs SET photos_failed = photos_failed + 1,
                photo_errors = json_insert(photo_errors, '$[#]', json(?2))
             WHERE id = ?1",
        )?
        .execute(params![run_id, entry])?;
        Ok(())
    })
}

/// The schedule of the parser.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub feed_url: Option<String>,
    /// Hours between runs; 0: off.
    pub interval_hours: u32,
    pub last_run_at: Option<String>,
}

pub fn schedule(conn: &Connection) -> AppResult<Schedule> {
    Ok(conn.query_row(
        "SELECT feed_url, interval_hours, last_run_at FROM parser_settings WHERE id = 1",
        [],
        |r| {
            Ok(Schedule {
                feed_url: r.get(0)?,
                interval_hours: r.get(1)?,
                last_run_at: r.get(2)?,
            })
        },
    )?)
}

/// Longest feed URL.
pub const MAX_FEED_URL: usize = 2000;
pub const MAX_INTERVAL_HOURS: u32 = 168;

/// Saves the schedule's URL and interval (validated).
pub fn save_schedule(
    conn: &Connection,
    feed_url: Option<String>,
    interval_hours: u32,
) -> AppResult<Schedule> {
    let feed_url = super::non_empty(feed_url);
    if interval_hours > MAX_INTERVAL_HOURS {
        return Err(AppError::invalid(
            "intervalHours",
            format!("Интервал — от 0 до {MAX_INTERVAL_HOURS} часов (0 — выключено)"),
        ));
    }
    if interval_hours > 0 && feed_url.is_none() {
        return Err(AppError::invalid("feedUrl", "Укажите адрес фида"));
    }
    if let Some(url) = &feed_url {
        super::check_len("feedUrl", "Адрес фида", url, MAX_FEED_URL)?;
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(AppError::invalid(
                "feedUrl",
                "Адрес фида должен начинаться с http:// или https://",
            ));
        }
    }
    conn.execute(
        "UPDATE parser_settings SET feed_url = ?1, interval_hours = ?2, updated_at = ?3 WHERE id = 1",
        params![feed_url, interval_hours, super::now()],
    )?;
    schedule(conn)
}

/// Notes that a scheduled run started now.
pub fn mark_scheduled_run(conn: &Connection) -> AppResult<()> {
    conn.execute(
        "UPDATE parser_settings SET last_run_at = ?1 WHERE id = 1",
        [super::now()],
    )?;
    Ok(())
}
