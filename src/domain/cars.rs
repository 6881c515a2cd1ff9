//! Cars of the catalogue.

use std::borrow::Cow;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params_from_iter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::money::Money;
use super::text_enum;
use crate::error::{AppError, AppResult};

text_enum!(
    /// new | used | lease
    CarStatus { New = "new", Used = "used", Lease = "lease" }
);
/// A body type's slug (`sedan`, `minivan`): one of the dealership's own
/// list, the `body_types` table (`docs/catalogue.md`). The spec's six are
/// constants; staff and the importer add more. A slug is latin lower-case
/// letters and digits in words joined by single hyphens, at most 50.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = String, pattern = "^[a-z0-9]+(-[a-z0-9]+)*$", example = "sedan")]
pub struct BodyType(Cow<'static, str>);

impl BodyType {
    pub const SEDAN: BodyType = BodyType(Cow::Borrowed("sedan"));
    pub const HATCHBACK: BodyType = BodyType(Cow::Borrowed("hatchback"));
    pub const CROSSOVER: BodyType = BodyType(Cow::Borrowed("crossover"));
    pub const WAGON: BodyType = BodyType(Cow::Borrowed("wagon"));
    /// Shown as 'Внедорожник' (`docs/glossary.md`).
    pub const COUPE: BodyType = BodyType(Cow::Borrowed("coupe"));
    pub const PICKUP: BodyType = BodyType(Cow::Borrowed("pickup"));
    /// The spec's six, seeded and never deleted.
    pub const BUILT_IN: [BodyType; 6] = [
        Self::SEDAN,
        Self::HATCHBACK,
        Self::CROSSOVER,
        Self::WAGON,
        Self::COUPE,
        Self::PICKUP,
    ];
    pub const MAX_LEN: usize = 50;

    /// A slug of the right shape (whether the table has it is the caller's
    /// question).
    pub fn parse(code: &str) -> Option<Self> {
        Self::is_slug(code).then(|| BodyType(Cow::Owned(code.to_string())))
    }

    fn is_slug(code: &str) -> bool {
        !code.is_empty()
            && code.len() <= Self::MAX_LEN
            && code.split('-').all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for BodyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for BodyType {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = Cow::<str>::deserialize(deserializer)?;
        BodyType::parse(&code).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "body type {code:?}: latin letters, digits and hyphens, at most 50"
            ))
        })
    }
}

impl rusqlite::types::ToSql for BodyType {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for BodyType {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        // The six are borrowed: no allocation for the common case.
        Ok(Self::BUILT_IN
            .iter()
            .find(|b| b.as_str() == text)
            .cloned()
            .unwrap_or_else(|| BodyType(Cow::Owned(text.to_string()))))
    }
}

text_enum!(
    Transmission { Manual = "manual", Automatic = "automatic", Cvt = "cvt", Robotic = "robotic" }
);
text_enum!(
    Drivetrain { Front = "front", Rear = "rear", All = "all" }
);
text_enum!(
    FuelType { Gasoline = "gasoline", Diesel = "diesel", Hybrid = "hybrid", Electric = "electric", Gas = "gas" }
);

impl CarStatus {
    /// Badge text of the public site.
    pub fn label(self) -> &'static str {
        match self {
            CarStatus::New => "Новый",
            CarStatus::Used => "С пробегом",
            CarStatus::Lease => "Аренда с выкупом",
        }
    }
}

impl Transmission {
    pub fn label(self) -> &'static str {
        match self {
            Transmission::Manual => "Механика",
            Transmission::Automatic => "Автомат",
            Transmission::Cvt => "Вариатор",
            Transmission::Robotic => "Робот",
        }
    }
}

impl Drivetrain {
    pub fn label(self) -> &'static str {
        match self {
            Drivetrain::Front => "Передний",
            Drivetrain::Rear => "Задний",
            Drivetrain::All => "Полный",
        }
    }
}

impl FuelType {
    pub fn label(self) -> &'static str {
        match self {
            FuelType::Gasoline => "Бензин",
            FuelType::Diesel => "Дизель",
            FuelType::Hybrid => "Гибрид",
            FuelType::Electric => "Электро",
            FuelType::Gas => "Газ",
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct TrimLevel {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub link: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Car {
    pub id: String,
    pub brand_id: String,
    /// The brand's name, 'Unknown' when the brand is missing.
    pub brand_name: String,
    pub brand_slug: String,
    pub name: String,
    pub slug: String,
    pub model: String,
    pub year: i32,
    pub price: Money,
    pub monthly_payment: Option<Money>,
    pub daily_price: Option<Money>,
    pub status: CarStatus,
    pub body_type: BodyType,
    pub transmission: Transmission,
    /// Null: not stated (a feed that names no drive); the car page hides it.
    #[schema(required = true)]
    pub drivetrain: Option<Drivetrain>,
    pub fuel_type: FuelType,
    pub engine: String,
    pub mileage: i64,
    /// URL of the main picture (the 800 px variant); empty when none.
    pub main_image: String,
    /// URLs of all pictures, the main one first.
    pub images: Vec<String>,
    pub has_images: bool,
    pub in_stock: bool,
    pub featured: bool,
    pub trim_levels: Vec<TrimLevel>,
    pub published: bool,
    pub vin: Option<String>,
    pub color: Option<String>,
    pub external_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Off the price with a loan from a partner bank (`docs/pricing.md`).
    pub credit_discount: Option<Money>,
    /// Off the price with a trade-in.
    pub tradein_discount: Option<Money>,
    /// Off the price with an insurance policy bought at the dealership.
    pub insurance_discount: Option<Money>,
    /// Cap on the sum of the discounts above.
    pub max_discount: Option<Money>,
    /// The car's own complectation ("Executive"), as a feed names it.
    #[schema(required = true)]
    pub trim: Option<String>,
    /// The model's generation ("III").
    #[schema(required = true)]
    pub generation: Option<String>,
    #[schema(required = true)]
    pub doors: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
pub enum CarSort {
    #[default]
    #[serde(rename = "newest")]
    Newest,
    #[serde(rename = "price_asc")]
    PriceAsc,
    #[serde(rename = "price_desc")]
    PriceDesc,
}

impl CarSort {
    pub fn parse(code: &str) -> Option<CarSort> {
        match code {
            "newest" => Some(CarSort::Newest),
            "price_asc" => Some(CarSort::PriceAsc),
            "price_desc" => Some(CarSort::PriceDesc),
            _ => None,
        }
    }

    fn order_by(self) -> &'static str {
        match self {
            // rowid breaks ties: unique, and in every index.
            CarSort::Newest => "c.created_at DESC, c.rowid DESC",
            CarSort::PriceAsc => "c.price_kopecks ASC, c.rowid",
            CarSort::PriceDesc => "c.price_kopecks DESC, c.rowid",
        }
    }
}

/// Which cars a list shows. Empty fields do not filter.
#[derive(Debug, Clone, Default)]
pub struct CarFilter {
    pub statuses: Vec<CarStatus>,
    pub brand_id: Option<String>,
    pub body_type: Option<BodyType>,
    pub featured: Option<bool>,
    pub in_stock: Option<bool>,
    pub min_price: Option<Money>,
    pub max_price: Option<Money>,
    pub model: Option<String>,
    /// Admin lists also show drafts.
    pub include_drafts: bool,
    pub sort: CarSort,
}

pub const DEFAULT_LIMIT: u32 = 12;
pub const MAX_LIMIT: u32 = 100;

/// A car with its brand, and its pictures in order (one JSON array per row,
/// built from `car_images` by primary key: a page of cars is one query).
const SELECT: &str = "SELECT c.id, c.brand_id, coalesce(b.name, 'Unknown') AS brand_name,
        coalesce(b.slug, '') AS brand_slug, c.name, c.slug, c.model, c.year, c.price_kopecks,
        c.monthly_payment_kopecks, c.daily_price_kopecks, c.status, c.body_type, c.transmission,
        c.drivetrain, c.fuel_type, c.engine, c.mileage, c.in_stock, c.featured, c.trim_levels,
        c.published, c.vin, c.color, c.external_id, c.created_at, c.updated_at,
        (SELECT json_group_array(i.url ORDER BY i.position) FROM car_images i
            WHERE i.car_id = c.id) AS images,
        c.credit_discount_kopecks, c.tradein_discount_kopecks, c.insurance_discount_kopecks,
        c.max_discount_kopecks, c.trim, c.generation, c.doors
    FROM cars c LEFT JOIN brands b ON b.id = c.brand_id";

// The columns of [`SELECT`] are read by position (a lookup by name costs a
// scan of the names per value); `tests` checks the positions.
fn from_row(row: &Row) -> rusqlite::Result<Car> {
    let images: Vec<String> = super::json_column(text(row, 27)?);
    Ok(Car {
        id: row.get(0)?,
        brand_id: row.get(1)?,
        brand_name: row.get(2)?,
        brand_slug: row.get(3)?,
        name: row.get(4)?,
        slug: row.get(5)?,
        model: row.get(6)?,
        year: row.get(7)?,
        price: row.get(8)?,
        monthly_payment: row.get(9)?,
        daily_price: row.get(10)?,
        status: row.get(11)?,
        body_type: row.get(12)?,
        transmission: row.get(13)?,
        drivetrain: row.get(14)?,
        fuel_type: row.get(15)?,
        engine: row.get(16)?,
        mileage: row.get(17)?,
        main_image: images.first().cloned().unwrap_or_default(),
        has_images: !images.is_empty(),
        images,
        in_stock: row.get(18)?,
        featured: row.get(19)?,
        trim_levels: super::json_column(text(row, 20)?),
        published: row.get(21)?,
        vin: row.get(22)?,
        color: row.get(23)?,
        external_id: row.get(24)?,
        created_at: row.get(25)?,
        updated_at: row.get(26)?,
        credit_discount: row.get(28)?,
        tradein_discount: row.get(29)?,
        insurance_discount: row.get(30)?,
        max_discount: row.get(31)?,
        trim: row.get(32)?,
        generation: row.get(33)?,
        doors: row.get(34)?,
    })
}

/// How a query may use the price limits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PriceTerms {
    /// As an index range (counts, lists sorted by price).
    Range,
    /// Checked on each row, not as a range: a list in date order then walks
    /// a `cars_newest_*` index (`migrations/V5__car_newest_indexes.sql`)
    /// and stops after its page, instead of sorting every car in the range.
    Checked,
}

/// The WHERE clause and its parameters for a filter.
fn where_clause(filter: &CarFilter, prices: PriceTerms) -> (String, Vec<Value>) {
    let mut clauses: Vec<String> = Vec::new();
    let mut values: Vec<Value> = Vec::new();
    if !filter.include_drafts {
        clauses.push("c.published = 1".into());
    }
    if !filter.statuses.is_empty() {
        let marks = vec!["?"; filter.statuses.len()].join(", ");
        clauses.push(format!("c.status IN ({marks})"));
        values.extend(
            filter
                .statuses
                .iter()
                .map(|s| Value::Text(s.as_str().into())),
        );
    }
    if let Some(brand) = &filter.brand_id {
        clauses.push("c.brand_id = ?".into());
        values.push(Value::Text(brand.clone()));
    }
    if let Some(body) = &filter.body_type {
        clauses.push("c.body_type = ?".into());
        values.push(Value::Text(body.as_str().into()));
    }
    if let Some(featured) = filter.featured {
        clauses.push("c.featured = ?".into());
        values.push(Value::Integer(featured.into()));
    }
    if let Some(in_stock) = filter.in_stock {
        clauses.push("c.in_stock = ?".into());
        values.push(Value::Integer(in_stock.into()));
    }
    // A unary plus keeps SQLite from using the column as an index range.
    let price = match prices {
        PriceTerms::Range => "c.price_kopecks",
        PriceTerms::Checked => "+c.price_kopecks",
    };
    if let Some(min) = filter.min_price {
        clauses.push(format!("{price} >= ?"));
        values.push(Value::Integer(min.kopecks()));
    }
    if let Some(max) = filter.max_price {
        clauses.push(format!("{price} <= ?"));
        values.push(Value::Integer(max.kopecks()));
    }
    if let Some(model) = &filter.model {
        clauses.push("c.model = ?".into());
        values.push(Value::Text(model.clone()));
    }
    let sql = if clauses.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", clauses.join(" AND "))
    };
    (sql, values)
}

/// The SQL of a page of a list and its parameters.
pub fn list_query(filter: &CarFilter, limit: u32, offset: u32) -> (String, Vec<Value>) {
    let prices = match filter.sort {
        CarSort::Newest => PriceTerms::Checked,
        CarSort::PriceAsc | CarSort::PriceDesc => PriceTerms::Range,
    };
    let (clause, mut values) = where_clause(filter, prices);
    // The page is chosen from a covering index first, in the list's order;
    // only its rows are then read and joined.
    let order = filter.sort.order_by();
    let sql = format!(
        "{SELECT} WHERE c.rowid IN (SELECT c.rowid FROM cars c{clause} ORDER BY {order} LIMIT ? OFFSET ?)
         ORDER BY {order}"
    );
    values.push(Value::Integer(limit.min(MAX_LIMIT).into()));
    values.push(Value::Integer(offset.into()));
    (sql, values)
}

pub fn list(conn: &Connection, filter: &CarFilter, limit: u32, offset: u32) -> AppResult<Vec<Car>> {
    let (sql, values) = list_query(filter, limit, offset);
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(values), from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The page [`list`] gives, as the JSON array its `Vec<Car>` serializes to,
/// written straight from the rows into one buffer: no `Car` (with its thirty
/// strings) per row, no second pass over the values.
pub fn list_json(
    conn: &Connection,
    filter: &CarFilter,
    limit: u32,
    offset: u32,
) -> AppResult<Vec<u8>> {
    let (sql, values) = list_query(filter, limit, offset);
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query(params_from_iter(values))?;
    // About 1.2 KB a car.
    let mut out = Vec::with_capacity(limit.min(MAX_LIMIT) as usize * 1280 + 2);
    out.push(b'[');
    while let Some(row) = rows.next()? {
        if out.len() > 1 {
            out.push(b',');
        }
        write_json(row, &mut out)?;
    }
    out.push(b']');
    Ok(out)
}

/// One published car as the in-memory catalogue keeps it
/// (`super::car_index`): what the public filters look at, and its JSON.
pub struct RenderedCar {
    pub rowid: i64,
    pub created_at: Box<str>,
    pub price: i64,
    pub status: CarStatus,
    pub body_type: BodyType,
    pub brand_id: Box<str>,
    pub model: Box<str>,
    pub featured: bool,
    pub in_stock: bool,
    /// Exactly what [`list_json`] writes for this car.
    pub json: Box<[u8]>,
}

/// Every published car, newest first (the order of [`CarSort::Newest`]),
/// rendered once; at most `limit` of them (None when there are more).
pub fn published_rendered(conn: &Connection, limit: usize) -> AppResult<Option<Vec<RenderedCar>>> {
    let sql = format!(
        "{} WHERE c.published = 1 ORDER BY {} LIMIT ?1",
        SELECT.replacen("\n    FROM cars c", ", c.rowid\n    FROM cars c", 1),
        CarSort::Newest.order_by()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query([limit as i64 + 1])?;
    let mut cars = Vec::new();
    let mut json = Vec::with_capacity(2048);
    while let Some(row) = rows.next()? {
        if cars.len() == limit {
            return Ok(None);
        }
        json.clear();
        write_json(row, &mut json)?;
        cars.push(RenderedCar {
            rowid: row.get(35)?,
            created_at: text(row, 25)?.into(),
            price: row.get(8)?,
            status: row.get(11)?,
            body_type: row.get(12)?,
            brand_id: text(row, 1)?.into(),
            model: text(row, 6)?.into(),
            featured: row.get(19)?,
            in_stock: row.get(18)?,
            json: json.as_slice().into(),
        });
    }
    Ok(Some(cars))
}

/// Appends one row of [`SELECT`] to `out` as the JSON of its [`Car`].
fn write_json(row: &Row, out: &mut Vec<u8>) -> AppResult<()> {
    // As `json_column`, but borrowing from the row.
    let images: Vec<Text> = serde_json::from_str(text(row, 27)?).unwrap_or_default();
    let trim_levels: Vec<TrimLevelView> = serde_json::from_str(text(row, 20)?).unwrap_or_default();
    let view = CarView {
        id: text(row, 0)?,
        brand_id: text(row, 1)?,
        brand_name: text(row, 2)?,
        brand_slug: text(row, 3)?,
        name: text(row, 4)?,
        slug: text(row, 5)?,
        model: text(row, 6)?,
        year: row.get(7)?,
        price: row.get(8)?,
        monthly_payment: row.get(9)?,
        daily_price: row.get(10)?,
        status: row.get(11)?,
        body_type: row.get(12)?,
        transmission: row.get(13)?,
        drivetrain: row.get(14)?,
        fuel_type: row.get(15)?,
        engine: text(row, 16)?,
        mileage: row.get(17)?,
        main_image: images.first().map_or("", |t| &t.0),
        has_images: !images.is_empty(),
        images: &images,
        in_stock: row.get(18)?,
        featured: row.get(19)?,
        trim_levels: &trim_levels,
        published: row.get(21)?,
        vin: optional_text(row, 22)?,
        color: optional_text(row, 23)?,
        external_id: optional_text(row, 24)?,
        created_at: text(row, 25)?,
        updated_at: text(row, 26)?,
        credit_discount: row.get(28)?,
        tradein_discount: row.get(29)?,
        insurance_discount: row.get(30)?,
        max_discount: row.get(31)?,
        trim: optional_text(row, 32)?,
        generation: optional_text(row, 33)?,
        doors: row.get(34)?,
    };
    serde_json::to_writer(out, &view)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("car JSON: {e}")))?;
    Ok(())
}

fn text<'r>(row: &'r Row, index: usize) -> rusqlite::Result<&'r str> {
    Ok(row.get_ref(index)?.as_str()?)
}

fn optional_text<'r>(row: &'r Row, index: usize) -> rusqlite::Result<Option<&'r str>> {
    Ok(row.get_ref(index)?.as_str_or_null()?)
}

/// A text of a JSON column, borrowed from the row when it has no escapes.
#[derive(Default, Serialize, Deserialize)]
#[serde(transparent)]
struct Text<'a>(#[serde(borrow)] Cow<'a, str>);

/// [`TrimLevel`] borrowed from the row.
#[derive(Default, Serialize, Deserialize)]
struct TrimLevelView<'a> {
    #[serde(default, borrow)]
    name: Text<'a>,
    #[serde(default, borrow)]
    description: Text<'a>,
    #[serde(default, borrow)]
    link: Text<'a>,
}

/// [`Car`] borrowed from a result row: the same fields in the same order,
/// serialized alike (`tests/api_public.rs` compares the bytes of both).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CarView<'a> {
    id: &'a str,
    brand_id: &'a str,
    brand_name: &'a str,
    brand_slug: &'a str,
    name: &'a str,
    slug: &'a str,
    model: &'a str,
    year: i32,
    price: Money,
    monthly_payment: Option<Money>,
    daily_price: Option<Money>,
    status: CarStatus,
    body_type: BodyType,
    transmission: Transmission,
    drivetrain: Option<Drivetrain>,
    fuel_type: FuelType,
    engine: &'a str,
    mileage: i64,
    main_image: &'a str,
    images: &'a [Text<'a>],
    has_images: bool,
    in_stock: bool,
    featured: bool,
    trim_levels: &'a [TrimLevelView<'a>],
    published: bool,
    vin: Option<&'a str>,
    color: Option<&'a str>,
    external_id: Option<&'a str>,
    created_at: &'a str,
    updated_at: &'a str,
    credit_discount: Option<Money>,
    tradein_discount: Option<Money>,
    insurance_discount: Option<Money>,
    max_discount: Option<Money>,
    trim: Option<&'a str>,
    generation: Option<&'a str>,
    doors: Option<i64>,
}

/// Every car matching the filter, for the admin list and exports.
pub fn list_all(conn: &Connection, filter: &CarFilter) -> AppResult<Vec<Car>> {
    let (clause, values) = where_clause(filter, PriceTerms::Range);
    let sql = format!("{SELECT}{clause} ORDER BY {}", filter.sort.order_by());
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(values), from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The SQL of a count and its parameters.
pub fn count_query(filter: &CarFilter) -> (String, Vec<Value>) {
    let (clause, values) = where_clause(filter, PriceTerms::Range);
    (format!("SELECT count(*) FROM cars c{clause}"), values)
}

pub fn count(conn: &Connection, filter: &CarFilter) -> AppResult<i64> {
    let (sql, values) = count_query(filter);
    let mut stmt = conn.prepare_cached(&sql)?;
    Ok(stmt.query_row(params_from_iter(values), |r| r.get(0))?)
}

/// Which cars the admin list shows; empty fields do not filter.
#[derive(Debug, Clone, Default)]
pub struct AdminCarFilter {
    /// Words that must each appear in the brand's name, the car's name,
    /// model or year, in any case and script (`docs/admin.md`).
    pub words: Vec<String>,
    pub status: Option<CarStatus>,
    pub published: Option<bool>,
}

impl AdminCarFilter {
    /// Splits a search box's text into folded words.
    pub fn search(text: &str) -> Vec<String> {
        crate::db::casefold(text)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    fn where_clause(&self) -> (String, Vec<Value>) {
        let mut clauses: Vec<String> = Vec::new();
        let mut values: Vec<Value> = Vec::new();
        for word in &self.words {
            clauses.push(format!(
                "instr({}(coalesce(b.name, '') || ' ' || c.name || ' ' || c.model || ' ' || c.year), ?) > 0",
                crate::db::CASEFOLD
            ));
            values.push(Value::Text(word.clone()));
        }
        if let Some(status) = self.status {
            clauses.push("c.status = ?".into());
            values.push(Value::Text(status.as_str().into()));
        }
        if let Some(published) = self.published {
            clauses.push("c.published = ?".into());
            values.push(Value::Integer(published.into()));
        }
        let sql = if clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", clauses.join(" AND "))
        };
        (sql, values)
    }

    /// The tables, the WHERE clause and its values of the cars this filter
    /// finds (`c` is the cars table).
    pub fn selection(&self) -> (&'static str, String, Vec<Value>) {
        let (clause, values) = self.where_clause();
        (self.tables(), clause, values)
    }

    /// Whether any field filters.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty() && self.status.is_none() && self.published.is_none()
    }

    /// What the filter finds, for people: "поиск «lada», с пробегом,
    /// черновики"; empty for all cars.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.words.is_empty() {
            parts.push(format!("поиск «{}»", self.words.join(" ")));
        }
        if let Some(status) = self.status {
            parts.push(
                match status {
                    CarStatus::New => "новые",
                    CarStatus::Used => "с пробегом",
                    CarStatus::Lease => "аренда с выкупом",
                }
                .to_string(),
            );
        }
        if let Some(published) = self.published {
            parts.push(
                if published {
                    "опубликованные"
                } else {
                    "черновики"
                }
                .to_string(),
            );
        }
        parts.join(", ")
    }

    /// The brands join, needed only to search by the brand's name.
    fn tables(&self) -> &'static str {
        if self.words.is_empty() {
            "FROM cars c"
        } else {
            "FROM cars c LEFT JOIN brands b ON b.id = c.brand_id"
        }
    }
}

/// One page of the admin list, newest first, drafts included, and how many
/// cars match in all. Needs the connection's [`crate::db::CASEFOLD`].
pub fn admin_page(
    conn: &Connection,
    filter: &AdminCarFilter,
    limit: u32,
    offset: u32,
) -> AppResult<(Vec<Car>, i64)> {
    let (clause, mut values) = filter.where_clause();
    let from = filter.tables();
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) {from}{clause}"))?
        .query_row(params_from_iter(values.iter()), |r| r.get(0))?;
    let order = CarSort::Newest.order_by();
    let sql = format!(
        "{SELECT} WHERE c.rowid IN (SELECT c.rowid {from}{clause} ORDER BY {order} LIMIT ? OFFSET ?)
         ORDER BY {order}"
    );
    values.push(Value::Integer(limit.into()));
    values.push(Value::Integer(offset.into()));
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(values), from_row)?;
    Ok((rows.collect::<Result<_, _>>()?, total))
}

/// Counts of all cars, drafts included, for the admin statistics card.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CarStats {
    pub all: i64,
    pub new: i64,
    pub used: i64,
    pub lease: i64,
    pub in_stock: i64,
}

pub fn stats(conn: &Connection) -> AppResult<CarStats> {
    Ok(conn.query_row(
        "SELECT count(*), coalesce(sum(status = 'new'), 0), coalesce(sum(status = 'used'), 0),
            coalesce(sum(status = 'lease'), 0), coalesce(sum(in_stock = 1), 0) FROM cars",
        [],
        |r| {
            Ok(CarStats {
                all: r.get(0)?,
                new: r.get(1)?,
                used: r.get(2)?,
                lease: r.get(3)?,
                in_stock: r.get(4)?,
            })
        },
    )?)
}

/// A car by id; drafts only when `include_drafts`.
pub fn get(conn: &Connection, id: &str, include_drafts: bool) -> AppResult<Option<Car>> {
    let sql = format!("{SELECT} WHERE c.id = ?1 AND (c.published = 1 OR ?2)");
    let mut stmt = conn.prepare_cached(&sql)?;
    Ok(stmt
        .query_row(rusqlite::params![id, include_drafts], from_row)
        .optional()?)
}

pub fn get_by_slug(conn: &Connection, slug: &str, include_drafts: bool) -> AppResult<Option<Car>> {
    let sql = format!("{SELECT} WHERE c.slug = ?1 AND (c.published = 1 OR ?2)");
    let mut stmt = conn.prepare_cached(&sql)?;
    Ok(stmt
        .query_row(rusqlite::params![slug, include_drafts], from_row)
        .optional()?)
}

/// What an admin or an import sends to create or change a car.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CarInput {
    pub brand_id: String,
    pub name: String,
    pub slug: String,
    pub model: String,
    pub year: i32,
    pub price: Money,
    #[serde(default)]
    pub monthly_payment: Option<Money>,
    #[serde(default)]
    pub daily_price: Option<Money>,
    pub status: CarStatus,
    pub body_type: BodyType,
    pub transmission: Transmission,
    /// Null or absent: not stated.
    #[serde(default)]
    pub drivetrain: Option<Drivetrain>,
    pub fuel_type: FuelType,
    pub engine: String,
    #[serde(default)]
    pub mileage: i64,
    #[serde(default)]
    pub main_image: String,
    #[serde(default)]
    pub images: Vec<String>,
    #[serde(default)]
    pub trim_levels: Vec<TrimLevel>,
    #[serde(default = "yes")]
    pub in_stock: bool,
    #[serde(default)]
    pub featured: bool,
    #[serde(default = "yes")]
    pub published: bool,
    #[serde(default)]
    pub vin: Option<String>,
    #[serde(default)]
    pub color: Option<String>,
    #[serde(default)]
    pub external_id: Option<String>,
    #[serde(default)]
    pub credit_discount: Option<Money>,
    #[serde(default)]
    pub tradein_discount: Option<Money>,
    #[serde(default)]
    pub insurance_discount: Option<Money>,
    #[serde(default)]
    pub max_discount: Option<Money>,
    /// The car's complectation ("Executive"), at most 100.
    #[serde(default)]
    pub trim: Option<String>,
    /// The generation ("III"), at most 50.
    #[serde(default)]
    pub generation: Option<String>,
    /// 2 to 5.
    #[serde(default)]
    pub doors: Option<i64>,
}

fn yes() -> bool {
    true
}

pub const MAX_IMAGES: usize = 6;

/// A published car at 0 ₽ would show "0 ₽" to buyers.
pub const PRICE_ZERO: &str = "Укажите цену: автомобиль за 0 ₽ не публикуется";
/// Longest stored picture URL, as `car_images.url` allows.
const MAX_IMAGE_URL: usize = 500;

/// The pictures of a form in their stored order: the main one first (the
/// first listed unless the form names another), then the others, each once.
fn pictures(input: &CarInput) -> Vec<String> {
    let mut list: Vec<String> = Vec::with_capacity(input.images.len() + 1);
    let main = input.main_image.trim();
    for url in std::iter::once(main).chain(input.images.iter().map(|u| u.trim())) {
        if !url.is_empty() && !list.iter().any(|u| u == url) {
            list.push(url.to_string());
        }
    }
    list
}

/// Replaces a car's pictures with `urls`, in that order (the first is the
/// main one). At most [`MAX_IMAGES`]; the caller validates.
pub fn set_images(conn: &Connection, car_id: &str, urls: &[String]) -> AppResult<()> {
    conn.prepare_cached("DELETE FROM car_images WHERE car_id = ?1")?
        .execute([car_id])?;
    let mut insert =
        conn.prepare_cached("INSERT INTO car_images (car_id, position, url) VALUES (?1, ?2, ?3)")?;
    for (position, url) in (0_i64..).zip(urls) {
        insert.execute(rusqlite::params![car_id, position, url])?;
    }
    Ok(())
}

/// The admin car form's rules.
pub fn validate(input: &CarInput, current_year: i32) -> AppResult<()> {
    let required = [
        ("brandId", input.brand_id.as_str(), "Марка обязательна"),
        ("name", input.name.as_str(), "Название обязательно"),
        ("model", input.model.as_str(), "Модель обязательна"),
        ("slug", input.slug.as_str(), "Slug обязателен"),
        ("engine", input.engine.as_str(), "Двигатель обязателен"),
    ];
    for (field, value, message) in required {
        if value.trim().is_empty() {
            return Err(AppError::invalid(field, message));
        }
    }
    super::check_len("name", "Название", &input.name, 255)?;
    super::check_len("model", "Модель", &input.model, 100)?;
    super::check_len("engine", "Двигатель", &input.engine, 100)?;
    if !super::slug::is_valid(&input.slug) {
        return Err(AppError::invalid(
            "slug",
            "Slug может содержать только латинские буквы, цифры и дефисы",
        ));
    }
    if input.year < 1990 || input.year > current_year + 1 {
        return Err(AppError::invalid(
            "year",
            format!("Год должен быть от 1990 до {}", current_year + 1),
        ));
    }
    if input.price > super::money::MAX_DECIMAL_12_2 {
        return Err(AppError::invalid("price", "Цена слишком большая"));
    }
    if input.published && input.price == Money(0) {
        return Err(AppError::invalid("price", PRICE_ZERO));
    }
    for (field, value) in [
        ("monthlyPayment", input.monthly_payment),
        ("dailyPrice", input.daily_price),
    ] {
        if value.is_some_and(|m| m > super::money::MAX_DECIMAL_10_2) {
            return Err(AppError::invalid(field, "Сумма слишком большая"));
        }
    }
    for (field, value) in [
        ("creditDiscount", input.credit_discount),
        ("tradeinDiscount", input.tradein_discount),
        ("insuranceDiscount", input.insurance_discount),
        ("maxDiscount", input.max_discount),
    ] {
        if value.is_some_and(|m| m > input.price) {
            return Err(AppError::invalid(
                field,
                "Скидка не может быть больше цены автомобиля",
            ));
        }
    }
    if input.mileage < 0 {
        return Err(AppError::invalid(
            "mileage",
            "Пробег не может быть отрицательным",
        ));
    }
    let pictures = pictures(input);
    if pictures.len() > MAX_IMAGES {
        return Err(AppError::invalid(
            "images",
            format!("Максимум {MAX_IMAGES} изображений"),
        ));
    }
    for url in &pictures {
        super::check_len("images", "Фото", url, MAX_IMAGE_URL)?;
    }
    if let Some(vin) = &input.vin
        && !vin.is_empty()
        && (vin.len() != 17 || !vin.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return Err(AppError::invalid(
            "vin",
            "VIN должен содержать 17 латинских букв и цифр",
        ));
    }
    if let Some(color) = &input.color {
        super::check_len("color", "Цвет", color, 50)?;
    }
    if let Some(external) = &input.external_id {
        super::check_len("externalId", "Внешний идентификатор", external, 100)?;
    }
    if input
        .trim
        .as_ref()
        .is_some_and(|t| t.trim().chars().count() > 100)
    {
        return Err(AppError::invalid("trim", "Комплектация — до 100 символов"));
    }
    if input
        .generation
        .as_ref()
        .is_some_and(|t| t.trim().chars().count() > 50)
    {
        return Err(AppError::invalid(
            "generation",
            "Поколение — до 50 символов",
        ));
    }
    if input.doors.is_some_and(|d| !(2..=5).contains(&d)) {
        return Err(AppError::invalid("doors", "Число дверей — от 2 до 5"));
    }
    Ok(())
}

/// The brand and the body type must exist.
fn check_references(conn: &Connection, input: &CarInput) -> AppResult<()> {
    if super::brands::get(conn, &input.brand_id)?.is_none() {
        return Err(AppError::invalid("brandId", "Марка не найдена"));
    }
    if !super::body_types::exists(conn, &input.body_type)? {
        return Err(AppError::invalid(
            "bodyType",
            "Выберите тип кузова из списка",
        ));
    }
    Ok(())
}

/// Stores a new car and gives it back.
pub fn create(conn: &Connection, input: &CarInput, current_year: i32) -> AppResult<Car> {
    validate(input, current_year)?;
    check_references(conn, input)?;
    let id = super::new_id();
    let now = super::now();
    let marks = vec!["?"; WRITTEN_COLUMNS.len() + 3].join(", ");
    let sql = format!(
        "INSERT INTO cars (id, slug, created_at, {}) VALUES ({marks})",
        WRITTEN_COLUMNS.join(", ")
    );
    let mut values = vec![
        Value::from(id.clone()),
        Value::from(input.slug.clone()),
        Value::from(now.clone()),
    ];
    values.extend(written_values(input, now));
    super::atomically(conn, || {
        conn.execute(&sql, params_from_iter(values))?;
        set_images(conn, &id, &pictures(input))
    })?;
    get(conn, &id, true)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("car vanished")))
}

/// The columns an admin form or an import writes (all but id, slug and
/// created_at), in the order of [`written_values`]. The pictures go to
/// `car_images` ([`set_images`]).
const WRITTEN_COLUMNS: [&str; 29] = [
    "brand_id",
    "name",
    "model",
    "year",
    "price_kopecks",
    "monthly_payment_kopecks",
    "daily_price_kopecks",
    "status",
    "body_type",
    "transmission",
    "drivetrain",
    "fuel_type",
    "engine",
    "mileage",
    "in_stock",
    "featured",
    "trim_levels",
    "published",
    "vin",
    "color",
    "external_id",
    "credit_discount_kopecks",
    "tradein_discount_kopecks",
    "insurance_discount_kopecks",
    "max_discount_kopecks",
    "trim",
    "generation",
    "doors",
    "updated_at",
];

fn written_values(input: &CarInput, now: String) -> Vec<Value> {
    let text = |t: &str| Value::from(t.trim().to_string());
    let optional_text =
        |t: &Option<String>| super::non_empty(t.clone()).map_or(Value::Null, Value::from);
    let money = |m: Option<Money>| m.map_or(Value::Null, |m| Value::Integer(m.kopecks()));
    let json = |v: String| Value::from(v);
    vec![
        text(&input.brand_id),
        text(&input.name),
        text(&input.model),
        Value::Integer(input.year.into()),
        Value::Integer(input.price.kopecks()),
        money(input.monthly_payment),
        money(input.daily_price),
        text(input.status.as_str()),
        text(input.body_type.as_str()),
        text(input.transmission.as_str()),
        input
            .drivetrain
            .map_or(Value::Null, |d| Value::from(d.as_str().to_string())),
        text(input.fuel_type.as_str()),
        text(&input.engine),
        Value::Integer(input.mileage),
        Value::Integer(input.in_stock.into()),
        Value::Integer(input.featured.into()),
        json(serde_json::to_string(&input.trim_levels).unwrap_or_else(|_| "[]".into())),
        Value::Integer(input.published.into()),
        optional_text(&input.vin),
        optional_text(&input.color),
        optional_text(&input.external_id),
        money(input.credit_discount),
        money(input.tradein_discount),
        money(input.insurance_discount),
        money(input.max_discount),
        optional_text(&input.trim),
        optional_text(&input.generation),
        input.doors.map_or(Value::Null, Value::Integer),
        Value::from(now),
    ]
}

/// Distinct models of a brand's published cars, for the brand page's filter.
pub fn models_of_brand(conn: &Connection, brand_id: &str) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT model FROM cars WHERE brand_id = ?1 AND published = 1 ORDER BY model",
    )?;
    let rows = stmt.query_map([brand_id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Changes a car. The slug is fixed once set: a different one is refused.
pub fn update(
    conn: &Connection,
    id: &str,
    input: &CarInput,
    current_year: i32,
) -> AppResult<Option<Car>> {
    let Some(current) = get(conn, id, true)? else {
        return Ok(None);
    };
    validate(input, current_year)?;
    if current.slug != input.slug {
        return Err(AppError::invalid("slug", "Slug автомобиля нельзя изменить"));
    }
    check_references(conn, input)?;
    let assignments: Vec<String> = WRITTEN_COLUMNS.iter().map(|c| format!("{c} = ?")).collect();
    let sql = format!("UPDATE cars SET {} WHERE id = ?", assignments.join(", "));
    let mut values = written_values(input, super::now());
    values.push(Value::from(id.to_string()));
    super::atomically(conn, || {
        conn.execute(&sql, params_from_iter(values))?;
        set_images(conn, id, &pictures(input))
    })?;
    get(conn, id, true)
}

pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM cars WHERE id = ?1", [id])? > 0)
}

/// Counts for the dashboard: (published, drafts).
pub fn publication_counts(conn: &Connection) -> AppResult<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT coalesce(sum(published = 1), 0), coalesce(sum(published = 0), 0) FROM cars",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

impl super::form::Form for CarInput {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::required("brandId", Kind::Text, "Марка обязательна"),
            Field::required("name", Kind::Text, "Название обязательно"),
            Field::required("model", Kind::Text, "Модель обязательна"),
            Field::required("slug", Kind::Text, "Slug обязателен"),
            Field::required("year", Kind::Integer, "Год обязателен")
                .invalid("Год должен быть числом"),
            Field::required("price", Kind::Money, "Цена обязательна")
                .invalid("Цена должна быть числом"),
            Field::optional("monthlyPayment", Kind::Money)
                .invalid("Ежемесячный платёж должен быть числом"),
            Field::optional("dailyPrice", Kind::Money).invalid("Цена за сутки должна быть числом"),
            Field::required("status", Kind::Code, "Состояние обязательно")
                .invalid("Выберите состояние: новый, с пробегом или аренда"),
            Field::required("bodyType", Kind::Code, "Тип кузова обязателен")
                .invalid("Выберите тип кузова из списка"),
            Field::required("transmission", Kind::Code, "Коробка передач обязательна")
                .invalid("Выберите коробку передач из списка"),
            Field::optional("drivetrain", Kind::Code).invalid("Выберите привод из списка"),
            Field::required("fuelType", Kind::Code, "Тип топлива обязателен")
                .invalid("Выберите тип топлива из списка"),
            Field::required("engine", Kind::Text, "Двигатель обязателен"),
            Field::optional("mileage", Kind::Integer).invalid("Пробег должен быть целым числом"),
            Field::optional("mainImage", Kind::Text),
            Field::optional("images", Kind::Lines)
                .invalid("Изображения: список адресов, по одному в строке"),
            Field::optional("trimLevels", Kind::List)
                .invalid("Комплектации: список с названием, описанием и ссылкой"),
            Field::optional("inStock", Kind::Bool),
            Field::optional("featured", Kind::Bool),
            Field::optional("published", Kind::Bool),
            Field::optional("vin", Kind::Text),
            Field::optional("color", Kind::Text),
            Field::optional("externalId", Kind::Text),
            Field::optional("creditDiscount", Kind::Money)
                .invalid("Скидка при кредите должна быть числом"),
            Field::optional("tradeinDiscount", Kind::Money)
                .invalid("Скидка при трейд-ин должна быть числом"),
            Field::optional("insuranceDiscount", Kind::Money)
                .invalid("Скидка при страховании должна быть числом"),
            Field::optional("maxDiscount", Kind::Money)
                .invalid("Максимальная скидка должна быть числом"),
            Field::optional("trim", Kind::Text),
            Field::optional("generation", Kind::Text),
            Field::optional("doors", Kind::Integer).invalid("Число дверей — от 2 до 5"),
        ]
    };
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The columns of [`SELECT`] in the order [`from_row`] and [`CarView`] read them.
    const COLUMNS: [&str; 35] = [
        "id",
        "brand_id",
        "brand_name",
        "brand_slug",
        "name",
        "slug",
        "model",
        "year",
        "price_kopecks",
        "monthly_payment_kopecks",
        "daily_price_kopecks",
        "status",
        "body_type",
        "transmission",
        "drivetrain",
        "fuel_type",
        "engine",
        "mileage",
        "in_stock",
        "featured",
        "trim_levels",
        "published",
        "vin",
        "color",
        "external_id",
        "created_at",
        "updated_at",
        "images",
        "credit_discount_kopecks",
        "tradein_discount_kopecks",
        "insurance_discount_kopecks",
        "max_discount_kopecks",
        "trim",
        "generation",
        "doors",
    ];

    #[test]
    fn from_row_reads_the_columns_of_select_in_order() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        let stmt = conn.prepare(SELECT).unwrap();
        assert_eq!(stmt.column_names(), COLUMNS);
    }
}
