//! A car's row: the SELECT every read of cars shares (and its form for
//! lists, which leaves the trim levels in the table), the row read into a
//! [`Car`] or a [`CarBrief`] by position, and the text of a column borrowed
//! from the row.

use std::sync::LazyLock;

use rusqlite::Row;

use crate::domain::money::Money;

use super::car::{Car, CarBrief, CarStatus, MAX_IMAGES};
use crate::domain::credit_payment::CreditRule;

/// A car with its brand, and its pictures in order (one JSON array per row,
/// built from `car_images` by primary key: a page of cars is one query).
pub(super) const SELECT: &str =
    "SELECT c.id, c.brand_id, coalesce(b.name, 'Unknown') AS brand_name,
        coalesce(b.slug, '') AS brand_slug, c.name, c.slug, c.model, c.year, c.price_kopecks,
        c.monthly_payment_kopecks, c.daily_price_kopecks, c.status, c.body_type, c.transmission,
        c.drivetrain, c.fuel_type, c.engine, c.mileage, c.in_stock, c.featured, c.trim_levels,
        c.published, c.vin, c.color, c.external_id, c.created_at, c.updated_at,
        (SELECT json_group_array(i.url ORDER BY i.position) FROM car_images i
            WHERE i.car_id = c.id) AS images,
        c.credit_discount_kopecks, c.tradein_discount_kopecks, c.insurance_discount_kopecks,
        c.max_discount_kopecks, c.trim, c.generation, c.doors, c.owners, c.accident, c.state,
        c.wheel, c.salon_id
    FROM cars c LEFT JOIN brands b ON b.id = c.brand_id";

/// [`SELECT`] for the lists: the same columns, but the trim levels (a card
/// never shows them, and a row may hold many) are never read from the table.
pub(super) static BRIEF_SELECT: LazyLock<String> =
    LazyLock::new(|| SELECT.replacen("c.trim_levels,", "NULL AS trim_levels,", 1));

/// The monthly figure a public read shows for a row of [`SELECT`]: a lease
/// car's typed payment, else the credit programmes' (`CreditRule::shown`).
pub(super) fn shown_monthly(row: &Row, rule: &CreditRule) -> rusqlite::Result<Option<Money>> {
    let status: CarStatus = row.get(11)?;
    Ok(rule.shown(
        status == CarStatus::Lease,
        row.get(9)?,
        row.get(8)?,
        row.get(28)?,
        row.get(31)?,
    ))
}

/// A row of [`BRIEF_SELECT`] (or [`SELECT`]) as a public card, its monthly
/// figure by `rule`.
pub(super) fn brief_from_row(row: &Row, rule: &CreditRule) -> rusqlite::Result<CarBrief> {
    let mut images: Vec<String> = crate::domain::json_column(text(row, 27)?);
    images.truncate(MAX_IMAGES);
    Ok(CarBrief {
        id: row.get(0)?,
        brand_id: row.get(1)?,
        brand_name: row.get(2)?,
        brand_slug: row.get(3)?,
        name: row.get(4)?,
        slug: row.get(5)?,
        model: row.get(6)?,
        year: row.get(7)?,
        price: row.get(8)?,
        monthly_payment: shown_monthly(row, rule)?,
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
        credit_discount: row.get(28)?,
        tradein_discount: row.get(29)?,
        insurance_discount: row.get(30)?,
        max_discount: row.get(31)?,
        trim: row.get(32)?,
        generation: row.get(33)?,
        doors: row.get(34)?,
        color: row.get(23)?,
        salon_id: row.get(39)?,
    })
}

// The columns of [`SELECT`] are read by position (a lookup by name costs a
// scan of the names per value); `tests` checks the positions. The monthly
// payment is the stored one (what the admin typed): a public read shows
// `Car::shown`.
pub(super) fn from_row(row: &Row) -> rusqlite::Result<Car> {
    let images: Vec<String> = crate::domain::json_column(text(row, 27)?);
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
        trim_levels: crate::domain::json_column(text(row, 20)?),
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
        owners: row.get(35)?,
        accident: row.get(36)?,
        state: row.get(37)?,
        wheel: row.get(38)?,
        salon_id: row.get(39)?,
    })
}

pub(super) fn text<'r>(row: &'r Row, index: usize) -> rusqlite::Result<&'r str> {
    Ok(row.get_ref(index)?.as_str()?)
}

pub(super) fn optional_text<'r>(row: &'r Row, index: usize) -> rusqlite::Result<Option<&'r str>> {
    Ok(row.get_ref(index)?.as_str_or_null()?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use rusqlite::Connection;

    use super::SELECT;

    /// The columns of [`SELECT`] in the order [`from_row`] and [`super::json::CarBriefView`] read them.
    const COLUMNS: [&str; 40] = [
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
        "owners",
        "accident",
        "state",
        "wheel",
        "salon_id",
    ];

    #[test]
    fn from_row_reads_the_columns_of_select_in_order() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        let stmt = conn.prepare(SELECT).unwrap();
        assert_eq!(stmt.column_names(), COLUMNS);
        let brief = conn.prepare(&super::BRIEF_SELECT).unwrap();
        assert_eq!(brief.column_names(), COLUMNS);
        assert!(!super::BRIEF_SELECT.contains("c.trim_levels"));
    }
}
