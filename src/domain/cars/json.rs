//! Cars written as JSON straight from the rows: the public lists' cards
//! encoded on the database thread, without building a `CarBrief` first, and
//! the catalogue in memory's cars rendered once.

use super::car::{CarSort, CarStatus, Drivetrain, FuelType, MAX_IMAGES, Transmission};
use super::row::{BRIEF_SELECT, optional_text, shown_monthly, text};
use crate::domain::body_types::BodyType;
use crate::domain::credit_payment::CreditRule;
use crate::domain::money::Money;
use crate::error::{AppError, AppResult};
use rusqlite::{Connection, Row};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One published car as the in-memory catalogue keeps it
/// (`crate::domain::car_index`): what the public filters look at, and its JSON.
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
    /// Its salon; none: the main.
    pub salon_id: Option<i64>,
    /// Exactly what [`list_json`] writes for this car.
    pub json: Box<[u8]>,
}

/// Every published car, newest first (the order of [`CarSort::Newest`]),
/// rendered once with its monthly figure by `rule`; at most `limit` of them
/// (None when there are more).
pub fn published_rendered(
    conn: &Connection,
    limit: usize,
    rule: &CreditRule,
) -> AppResult<Option<Vec<RenderedCar>>> {
    let sql = format!(
        "{} WHERE c.published = 1 ORDER BY {} LIMIT ?1",
        BRIEF_SELECT.replacen("\n    FROM cars c", ", c.rowid\n    FROM cars c", 1),
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
        write_json(row, &mut json, rule)?;
        cars.push(RenderedCar {
            // The column added after the SELECT's own.
            rowid: row.get(row.as_ref().column_count() - 1)?,
            created_at: text(row, 25)?.into(),
            price: row.get(8)?,
            status: row.get(11)?,
            body_type: row.get(12)?,
            brand_id: text(row, 1)?.into(),
            model: text(row, 6)?.into(),
            featured: row.get(19)?,
            in_stock: row.get(18)?,
            salon_id: row.get(39)?,
            json: json.as_slice().into(),
        });
    }
    // Held as long as the content version: without the room its growth
    // left (10,000 cars in room for 16,384).
    cars.shrink_to_fit();
    Ok(Some(cars))
}

/// Appends one row of [`BRIEF_SELECT`] to `out` as the JSON of its
/// [`CarBrief`](super::car::CarBrief): a card, never the trim levels, its
/// monthly figure by `rule`.
pub(super) fn write_json(row: &Row, out: &mut Vec<u8>, rule: &CreditRule) -> AppResult<()> {
    // As `brief_from_row`, but borrowing from the row.
    let mut images: Vec<Text> = serde_json::from_str(text(row, 27)?).unwrap_or_default();
    images.truncate(MAX_IMAGES);
    let view = CarBriefView {
        id: text(row, 0)?,
        brand_id: text(row, 1)?,
        brand_name: text(row, 2)?,
        brand_slug: text(row, 3)?,
        name: text(row, 4)?,
        slug: text(row, 5)?,
        model: text(row, 6)?,
        year: row.get(7)?,
        price: row.get(8)?,
        monthly_payment: shown_monthly(row, rule)?,
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
        credit_discount: row.get(28)?,
        tradein_discount: row.get(29)?,
        insurance_discount: row.get(30)?,
        max_discount: row.get(31)?,
        trim: optional_text(row, 32)?,
        generation: optional_text(row, 33)?,
        doors: row.get(34)?,
        color: optional_text(row, 23)?,
        salon_id: row.get(39)?,
    };
    serde_json::to_writer(out, &view)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("car JSON: {e}")))?;
    Ok(())
}

/// A text of a JSON column, borrowed from the row when it has no escapes.
#[derive(Default, Serialize, Deserialize)]
#[serde(transparent)]
pub(super) struct Text<'a>(#[serde(borrow)] Cow<'a, str>);

/// [`CarBrief`](super::car::CarBrief) borrowed from a result row: the same
/// fields in the same order, serialized alike (`tests/api_public.rs`
/// compares the bytes of both).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct CarBriefView<'a> {
    pub(super) id: &'a str,
    pub(super) brand_id: &'a str,
    pub(super) brand_name: &'a str,
    pub(super) brand_slug: &'a str,
    pub(super) name: &'a str,
    pub(super) slug: &'a str,
    pub(super) model: &'a str,
    pub(super) year: i32,
    pub(super) price: Money,
    pub(super) monthly_payment: Option<Money>,
    pub(super) daily_price: Option<Money>,
    pub(super) status: CarStatus,
    pub(super) body_type: BodyType,
    pub(super) transmission: Transmission,
    pub(super) drivetrain: Option<Drivetrain>,
    pub(super) fuel_type: FuelType,
    pub(super) engine: &'a str,
    pub(super) mileage: i64,
    pub(super) main_image: &'a str,
    pub(super) images: &'a [Text<'a>],
    pub(super) has_images: bool,
    pub(super) in_stock: bool,
    pub(super) featured: bool,
    pub(super) credit_discount: Option<Money>,
    pub(super) tradein_discount: Option<Money>,
    pub(super) insurance_discount: Option<Money>,
    pub(super) max_discount: Option<Money>,
    pub(super) trim: Option<&'a str>,
    pub(super) generation: Option<&'a str>,
    pub(super) doors: Option<i64>,
    pub(super) color: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) salon_id: Option<i64>,
}
