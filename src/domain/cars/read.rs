//! Reading cars from storage: the public filter and sort as SQL, lists,
//! counts, the admin's list and figures, one car by id or slug.

use super::car::{Car, CarBrief, CarFilter, CarSort, CarStatus, MAX_LIMIT};
use super::json::write_json;
use super::row::{BRIEF_SELECT, SELECT, brief_from_row, from_row};
use crate::domain::credit_payment::CreditRule;
use crate::error::AppResult;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params_from_iter};
use serde::Serialize;
use utoipa::ToSchema;

/// How a query may use the price limits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PriceTerms {
    /// As an index range (counts, lists sorted by price).
    Range,
    /// Checked on each row, not as a range: a list in date order then walks
    /// a `cars_newest_*` index (`migrations/V5__car_newest_indexes.sql`)
    /// and stops after its page, instead of sorting every car in the range.
    Checked,
}

/// The WHERE clause and its parameters for a filter.
pub(super) fn where_clause(filter: &CarFilter, prices: PriceTerms) -> (String, Vec<Value>) {
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
    if let Some(salon) = filter.salon {
        match crate::domain::salons::column(salon) {
            Some(id) => {
                clauses.push("c.salon_id = ?".into());
                values.push(Value::Integer(id));
            }
            None => clauses.push("c.salon_id IS NULL".into()),
        }
    }
    let sql = if clauses.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", clauses.join(" AND "))
    };
    (sql, values)
}

/// The SQL of a page of a public list (cards: [`BRIEF_SELECT`]) and its
/// parameters.
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
        "{} WHERE c.rowid IN (SELECT c.rowid FROM cars c{clause} ORDER BY {order} LIMIT ? OFFSET ?)
         ORDER BY {order}",
        *BRIEF_SELECT
    );
    values.push(Value::Integer(limit.min(MAX_LIMIT).into()));
    values.push(Value::Integer(offset.into()));
    (sql, values)
}

/// A page of a public list: the cars' cards, their monthly figures by `rule`.
pub fn list(
    conn: &Connection,
    filter: &CarFilter,
    limit: u32,
    offset: u32,
    rule: &CreditRule,
) -> AppResult<Vec<CarBrief>> {
    let (sql, values) = list_query(filter, limit, offset);
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(values), |row| brief_from_row(row, rule))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The page [`list`] gives, as the JSON array its `Vec<CarBrief>`
/// serializes to, written straight from the rows into one buffer: no
/// `CarBrief` (with its strings) per row, no second pass over the values.
pub fn list_json(
    conn: &Connection,
    filter: &CarFilter,
    limit: u32,
    offset: u32,
    rule: &CreditRule,
) -> AppResult<Vec<u8>> {
    let (sql, values) = list_query(filter, limit, offset);
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query(params_from_iter(values))?;
    // About 1 KB a card.
    let mut out = Vec::with_capacity(limit.min(MAX_LIMIT) as usize * 1024 + 2);
    out.push(b'[');
    while let Some(row) = rows.next()? {
        if out.len() > 1 {
            out.push(b',');
        }
        write_json(row, &mut out, rule)?;
    }
    out.push(b']');
    Ok(out)
}

/// Every car matching the filter, for the admin list and exports.
pub fn list_all(conn: &Connection, filter: &CarFilter) -> AppResult<Vec<Car>> {
    let (clause, values) = where_clause(filter, PriceTerms::Range);
    let sql = format!("{SELECT}{clause} ORDER BY {}", filter.sort.order_by());
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(values), from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The slug and last change (RFC 3339) of every car matching the filter,
/// in its order: the sitemap's cars without reading each whole car (10,000
/// cars read whole took 130-150 ms a sitemap).
pub fn slugs_and_changes(
    conn: &Connection,
    filter: &CarFilter,
) -> AppResult<Vec<(String, String)>> {
    let (clause, values) = where_clause(filter, PriceTerms::Range);
    let sql = format!(
        "SELECT c.slug, c.updated_at FROM cars c{clause} ORDER BY {}",
        filter.sort.order_by()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(values), |r| Ok((r.get(0)?, r.get(1)?)))?;
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

    pub(super) fn where_clause(&self) -> (String, Vec<Value>) {
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
    pub(super) fn tables(&self) -> &'static str {
        if self.words.is_empty() {
            "FROM cars c"
        } else {
            "FROM cars c LEFT JOIN brands b ON b.id = c.brand_id"
        }
    }
}

/// The admin list's order: newest first, or by the last 30 days' views or
/// contacts (all channels, most first; `car_figure_totals`, V35).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AdminCarSort {
    #[default]
    Newest,
    Views,
    Contacts,
}

impl AdminCarSort {
    pub fn parse(code: &str) -> Option<AdminCarSort> {
        match code {
            "" | "newest" => Some(AdminCarSort::Newest),
            "views" => Some(AdminCarSort::Views),
            "contacts" => Some(AdminCarSort::Contacts),
            _ => None,
        }
    }
}

/// A row of the admin list: the car and its figures of the last 30 days.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminCar {
    #[serde(flatten)]
    pub car: Car,
    /// Views over the last 30 days, every channel (the site's and the
    /// marketplaces').
    pub views30: i64,
    /// Contacts shown over the last 30 days, every channel.
    pub contacts30: i64,
}

/// [`SELECT`] with the car's 30-day totals (`t`).
static ADMIN_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} LEFT JOIN car_figure_totals t ON t.car_id = c.id",
        SELECT.replacen(
            "\n    FROM cars c",
            ", coalesce(t.views30, 0) AS views30, coalesce(t.contacts30, 0) AS contacts30\n    FROM cars c",
            1
        )
    )
});

/// One page of the admin list in `sort`'s order, drafts included, and how
/// many cars match in all. Needs the connection's [`crate::db::CASEFOLD`].
/// Sorted by figures, the page is picked by walking the totals' index (every
/// car has a totals row) and stops after it.
pub fn admin_page(
    conn: &Connection,
    filter: &AdminCarFilter,
    sort: AdminCarSort,
    limit: u32,
    offset: u32,
) -> AppResult<(Vec<AdminCar>, i64)> {
    let (clause, mut values) = filter.where_clause();
    let from = filter.tables();
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) {from}{clause}"))?
        .query_row(params_from_iter(values.iter()), |r| r.get(0))?;
    let newest = CarSort::Newest.order_by();
    let (from, order, outer) = match sort {
        AdminCarSort::Newest => (from.to_string(), newest.to_string(), newest.to_string()),
        AdminCarSort::Views | AdminCarSort::Contacts => {
            let column = if sort == AdminCarSort::Views {
                "views30"
            } else {
                "contacts30"
            };
            (
                from.replacen(
                    "FROM cars c",
                    "FROM car_figure_totals t CROSS JOIN cars c ON c.id = t.car_id",
                    1,
                ),
                format!("t.{column} DESC, {newest}"),
                format!("{column} DESC, {newest}"),
            )
        }
    };
    let sql = format!(
        "{} WHERE c.rowid IN (SELECT c.rowid {from}{clause} ORDER BY {order} LIMIT ? OFFSET ?)
         ORDER BY {outer}",
        *ADMIN_SELECT
    );
    values.push(Value::Integer(limit.into()));
    values.push(Value::Integer(offset.into()));
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(values), |row| {
        Ok(AdminCar {
            car: from_row(row)?,
            views30: row.get("views30")?,
            contacts30: row.get("contacts30")?,
        })
    })?;
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

/// Distinct models of a brand's published cars, for the brand page's filter.
pub fn models_of_brand(conn: &Connection, brand_id: &str) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT model FROM cars WHERE brand_id = ?1 AND published = 1 ORDER BY model",
    )?;
    let rows = stmt.query_map([brand_id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
