//! Bulk price changes: every price of the cars an admin list shows (all
//! cars, or those its search and filters find) scaled by one exact factor,
//! with the prices it replaced kept beside its audit entry so that one click
//! puts them back (`docs/admin.md`, bulk price change).

use rusqlite::{Connection, params, params_from_iter};
use serde::Serialize;
use utoipa::ToSchema;

use super::cars::AdminCarFilter;
use super::money::{MAX_DECIMAL_12_2, Money};
use crate::error::{AppError, AppResult};

pub const BAD_PERCENT: &str = "Введите корректный процент";
pub const ZERO_PERCENT: &str = "Изменение на 0% не меняет цен: укажите другой процент";
pub const TOO_LARGE: &str = "Цена автомобиля стала бы слишком большой";
pub const NOT_FOUND: &str = "Массовое изменение цен не найдено";
pub const ALREADY_UNDONE: &str = "Это изменение цен уже отменено";

/// One car's price before and after a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scaled {
    pub car_id: String,
    pub before: Money,
    pub after: Money,
}

/// Scales the price of every car `filter` finds by `factor` (an exact
/// decimal text, "1.05"), inside the caller's transaction; gives what
/// changed. Cars whose price the factor leaves as it was are not counted.
pub fn scale(conn: &Connection, filter: &AdminCarFilter, factor: &str) -> AppResult<Vec<Scaled>> {
    let (from, clause, values) = filter.selection();
    let prices: Vec<(String, Money)> = conn
        .prepare(&format!("SELECT c.id, c.price_kopecks {from}{clause}"))?
        .query_map(params_from_iter(values), |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut update =
        conn.prepare_cached("UPDATE cars SET price_kopecks = ?2, updated_at = ?3 WHERE id = ?1")?;
    let now = super::now();
    let mut changed = Vec::with_capacity(prices.len());
    for (car_id, before) in prices {
        let after = before
            .scale(factor)
            .map_err(|_| AppError::invalid("priceMultiplier", BAD_PERCENT))?;
        if after > MAX_DECIMAL_12_2 {
            return Err(AppError::invalid("priceMultiplier", TOO_LARGE));
        }
        if after == before {
            continue;
        }
        update.execute(params![car_id, after, now])?;
        changed.push(Scaled {
            car_id,
            before,
            after,
        });
    }
    Ok(changed)
}

/// Keeps what a change replaced, beside its audit entry.
pub fn keep(conn: &Connection, audit_id: i64, changed: &[Scaled]) -> AppResult<()> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO price_change_items (audit_id, car_id, before_kopecks, after_kopecks)
         VALUES (?1, ?2, ?3, ?4)",
    )?;
    for item in changed {
        insert.execute(params![audit_id, item.car_id, item.before, item.after])?;
    }
    Ok(())
}

/// What an undo did.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Undone {
    /// Cars whose price was put back.
    pub restored_count: usize,
    /// Cars whose price was changed again since (by hand, an import, a
    /// later bulk change): left as they are.
    pub skipped_count: usize,
}

/// Puts back the prices change `audit_id` replaced, where the price is
/// still the one it set; the change can be undone once.
pub fn undo(conn: &Connection, audit_id: i64) -> AppResult<Undone> {
    let is_bulk: bool = conn
        .prepare_cached("SELECT count(*) FROM audit_log WHERE id = ?1 AND action = 'bulk_price'")?
        .query_row([audit_id], |r| r.get::<_, i64>(0))?
        > 0;
    if !is_bulk {
        return Err(AppError::not_found(NOT_FOUND));
    }
    let items: Vec<(String, Money, Money)> = conn
        .prepare_cached(
            "SELECT car_id, before_kopecks, after_kopecks FROM price_change_items
             WHERE audit_id = ?1",
        )?
        .query_map([audit_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    if items.is_empty() {
        return Err(AppError::conflict(None, ALREADY_UNDONE));
    }
    let mut restore = conn.prepare_cached(
        "UPDATE cars SET price_kopecks = ?2, updated_at = ?4 WHERE id = ?1 AND price_kopecks = ?3",
    )?;
    let now = super::now();
    let mut restored_count = 0;
    for (car_id, before, after) in &items {
        restored_count += restore.execute(params![car_id, before, after, now])?;
    }
    conn.execute(
        "DELETE FROM price_change_items WHERE audit_id = ?1",
        [audit_id],
    )?;
    Ok(Undone {
        restored_count,
        skipped_count: items.len() - restored_count,
    })
}

/// A bulk change, as the cars screen offers it for undo.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceChange {
    /// The audit entry's id.
    pub id: i64,
    /// When, RFC 3339 UTC.
    pub at: String,
    pub username: String,
    /// The audit entry's summary: the percent, the number of cars and the
    /// search and filters it applied to.
    pub summary: String,
    /// Cars whose earlier price is kept; 0 once undone.
    pub kept_count: i64,
}

/// The latest bulk changes that can still be undone, newest first.
pub fn undoable(conn: &Connection, limit: u32) -> AppResult<Vec<PriceChange>> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.id, a.at, a.username, a.summary, count(*) AS kept
         FROM audit_log a JOIN price_change_items p ON p.audit_id = a.id
         WHERE a.action = 'bulk_price'
         GROUP BY a.id ORDER BY a.at DESC, a.id DESC LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit], |r| {
        Ok(PriceChange {
            id: r.get(0)?,
            at: r.get(1)?,
            username: r.get(2)?,
            summary: r.get(3)?,
            kept_count: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether a decimal text is exactly 1 ("1", "1.0", "01.000"): a 0% change.
pub fn is_one(factor: &str) -> bool {
    let digits = if factor.contains('.') {
        factor.trim_end_matches('0').trim_end_matches('.')
    } else {
        factor
    };
    digits.trim_start_matches('0') == "1"
}

/// The percent a factor stands for, for people: "1.05" is "+5%", "0.9" is
/// "-10%" (the prices themselves are scaled exactly).
pub fn factor_percent(factor: &str) -> String {
    match factor.parse::<f64>() {
        Ok(f) => format!("{:+}%", ((f - 1.0) * 10_000.0).round() / 100.0),
        Err(_) => factor.to_string(),
    }
}

/// "12 автомобилей", "1 автомобиль", "3 автомобиля".
pub fn cars_count(n: usize) -> String {
    let word = match (n % 10, n % 100) {
        (1, 11) => "автомобилей",
        (1, _) => "автомобиль",
        (2..=4, 12..=14) => "автомобилей",
        (2..=4, _) => "автомобиля",
        _ => "автомобилей",
    };
    format!("{n} {word}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_said_in_russian() {
        let said: Vec<String> = [1, 2, 5, 11, 12, 21, 22, 25, 101, 111, 128]
            .into_iter()
            .map(cars_count)
            .collect();
        assert_eq!(
            said,
            [
                "1 автомобиль",
                "2 автомобиля",
                "5 автомобилей",
                "11 автомобилей",
                "12 автомобилей",
                "21 автомобиль",
                "22 автомобиля",
                "25 автомобилей",
                "101 автомобиль",
                "111 автомобилей",
                "128 автомобилей",
            ]
        );
        assert_eq!(factor_percent("1.05"), "+5%");
        assert!(is_one("1") && is_one("1.0") && is_one("01.000"));
        assert!(!is_one("1.0001") && !is_one("10") && !is_one("0.1"));
        assert_eq!(factor_percent("0.9"), "-10%");
    }
}
