//! Credit programmes of the partner banks (`docs/credit.md`): rate and ПСК
//! ranges, terms, the minimum down payment and the dates a programme is
//! valid. The public sees only active programmes of shown banks on the days
//! they are valid (Moscow dates); an expired one disappears by itself.

use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use super::ads::AdMark;
use super::hours::parse_date;
use crate::error::{AppError, AppResult};

/// A programme as admins see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreditProgram {
    pub id: String,
    pub bank_id: String,
    pub bank_name: String,
    /// Logo URL, "" when none.
    pub bank_logo: String,
    /// The bank's offer is an ad: its mark (`docs/advertising.md`), the
    /// advertiser being the bank's name unless the bank names another.
    pub bank_ad: AdMark,
    pub name: String,
    /// Percent a year, up to 3 decimals.
    pub rate_min: f64,
    pub rate_max: f64,
    /// Full cost of credit (ПСК), percent a year.
    pub psk_min: f64,
    pub psk_max: f64,
    pub term_min_months: i64,
    pub term_max_months: i64,
    /// 0..=90.
    pub min_down_payment_percent: i64,
    /// "YYYY-MM-DD", Moscow date.
    pub valid_from: String,
    /// "YYYY-MM-DD", last valid day; null: open-ended.
    pub valid_to: Option<String>,
    /// Every condition that changes the cost, as the page lists it.
    pub conditions: String,
    pub active: bool,
    /// Past its last valid day (Moscow date), so not public.
    pub expired: bool,
    pub created_at: String,
    pub updated_at: String,
}

/// A programme as the public sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicCreditProgram {
    pub id: String,
    pub bank_id: String,
    pub bank_name: String,
    pub bank_logo: String,
    /// The offer's ad mark: `Реклама · {advertiser} · erid: {erid}`.
    pub bank_ad: AdMark,
    pub name: String,
    pub rate_min: f64,
    pub rate_max: f64,
    pub psk_min: f64,
    pub psk_max: f64,
    pub term_min_months: i64,
    pub term_max_months: i64,
    pub min_down_payment_percent: i64,
    pub valid_from: String,
    pub valid_to: Option<String>,
    pub conditions: String,
}

/// The ranges over every valid programme, for texts such as the footer's.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreditSummary {
    pub rate_min: f64,
    pub rate_max: f64,
    pub psk_min: f64,
    pub psk_max: f64,
    pub term_min_months: i64,
    pub term_max_months: i64,
    /// Bank names, each once, by name.
    pub banks: Vec<String>,
}

/// `GET /api/credit-programs`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PublicCreditPrograms {
    pub items: Vec<PublicCreditProgram>,
    /// Null when no programme is valid.
    pub summary: Option<CreditSummary>,
}

/// What the admin form sends.
#[derive(Debug, Clone, Deserialize, ToSchema)]
/// Other fields (a loaded programme's id, bankName, dates) are ignored.
#[serde(rename_all = "camelCase")]
pub struct CreditProgramInput {
    pub bank_id: String,
    pub name: String,
    #[serde(deserialize_with = "percent")]
    #[schema(value_type = f64)]
    pub rate_min: f64,
    #[serde(deserialize_with = "percent")]
    #[schema(value_type = f64)]
    pub rate_max: f64,
    #[serde(deserialize_with = "percent")]
    #[schema(value_type = f64)]
    pub psk_min: f64,
    #[serde(deserialize_with = "percent")]
    #[schema(value_type = f64)]
    pub psk_max: f64,
    pub term_min_months: i64,
    pub term_max_months: i64,
    #[serde(default)]
    pub min_down_payment_percent: i64,
    pub valid_from: String,
    #[serde(default)]
    pub valid_to: Option<String>,
    #[serde(default)]
    pub conditions: String,
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

/// A percentage as a number or a text with a point or a comma ("5,9").
fn percent<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Shape {
        Number(f64),
        Text(String),
    }
    match Shape::deserialize(deserializer)? {
        Shape::Number(n) => Ok(n),
        Shape::Text(t) => t
            .trim()
            .replace(',', ".")
            .parse::<f64>()
            .map_err(serde::de::Error::custom),
    }
}

/// Percent to thousandths of a percent, as stored.
fn milli(percent: f64) -> i64 {
    (percent * 1000.0).round() as i64
}

fn percent_of(milli: i64) -> f64 {
    milli as f64 / 1000.0
}

pub const RATE_RANGE: &str = "Ставка должна быть больше 0 и меньше 100%";
pub const PSK_RANGE: &str = "ПСК должна быть больше 0 и меньше 100%";
pub const TERM_RANGE: &str = "Срок кредита: от 1 до 360 месяцев";
pub const DATE_FORMAT: &str = "Дата указывается как ГГГГ-ММ-ДД";

/// A programme that passed the checks, in stored units.
struct Valid {
    bank_id: String,
    name: String,
    rate_min: i64,
    rate_max: i64,
    psk_min: i64,
    psk_max: i64,
    term_min: i64,
    term_max: i64,
    down_payment: i64,
    valid_from: String,
    valid_to: Option<String>,
    conditions: String,
    active: bool,
}

/// Checks every rule of the form (`docs/credit.md`), field by field.
fn validate(conn: &Connection, input: &CreditProgramInput) -> AppResult<Valid> {
    let bank_id = input.bank_id.trim();
    if bank_id.is_empty() {
        return Err(AppError::invalid("bankId", "Выберите банк"));
    }
    if super::banks::get(conn, bank_id)?.is_none() {
        return Err(AppError::invalid("bankId", "Банк не найден"));
    }
    let name = input.name.trim();
    if name.is_empty() {
        return Err(AppError::invalid("name", "Название программы обязательно"));
    }
    super::check_len("name", "Название программы", name, 255)?;
    let in_range = |p: f64| p.is_finite() && milli(p) > 0 && milli(p) < 100_000;
    if !in_range(input.rate_min) {
        return Err(AppError::invalid("rateMin", RATE_RANGE));
    }
    if !in_range(input.rate_max) {
        return Err(AppError::invalid("rateMax", RATE_RANGE));
    }
    let (rate_min, rate_max) = (milli(input.rate_min), milli(input.rate_max));
    if rate_min > rate_max {
        return Err(AppError::invalid(
            "rateMax",
            "Максимальная ставка не может быть меньше минимальной",
        ));
    }
    if !in_range(input.psk_min) {
        return Err(AppError::invalid("pskMin", PSK_RANGE));
    }
    if !in_range(input.psk_max) {
        return Err(AppError::invalid("pskMax", PSK_RANGE));
    }
    let (psk_min, psk_max) = (milli(input.psk_min), milli(input.psk_max));
    if psk_min < rate_min {
        return Err(AppError::invalid(
            "pskMin",
            "ПСК не может быть меньше минимальной ставки",
        ));
    }
    if psk_min > psk_max {
        return Err(AppError::invalid(
            "pskMax",
            "Максимальная ПСК не может быть меньше минимальной",
        ));
    }
    let term = 1..=360;
    if !term.contains(&input.term_min_months) {
        return Err(AppError::invalid("termMinMonths", TERM_RANGE));
    }
    if !term.contains(&input.term_max_months) {
        return Err(AppError::invalid("termMaxMonths", TERM_RANGE));
    }
    if input.term_min_months > input.term_max_months {
        return Err(AppError::invalid(
            "termMaxMonths",
            "Максимальный срок не может быть меньше минимального",
        ));
    }
    if !(0..=90).contains(&input.min_down_payment_percent) {
        return Err(AppError::invalid(
            "minDownPaymentPercent",
            "Первоначальный взнос: от 0 до 90%",
        ));
    }
    let valid_from = input.valid_from.trim();
    if valid_from.is_empty() {
        return Err(AppError::invalid(
            "validFrom",
            "Укажите дату начала действия программы",
        ));
    }
    let from = parse_date(valid_from).ok_or_else(|| AppError::invalid("validFrom", DATE_FORMAT))?;
    let valid_to = match input.valid_to.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            let to = parse_date(text).ok_or_else(|| AppError::invalid("validTo", DATE_FORMAT))?;
            if to < from {
                return Err(AppError::invalid(
                    "validTo",
                    "Дата окончания не может быть раньше даты начала",
                ));
            }
            Some(text.to_string())
        }
    };
    let conditions = input.conditions.trim();
    super::check_len("conditions", "Условия", conditions, 5000)?;
    Ok(Valid {
        bank_id: bank_id.to_string(),
        name: name.to_string(),
        rate_min,
        rate_max,
        psk_min,
        psk_max,
        term_min: input.term_min_months,
        term_max: input.term_max_months,
        down_payment: input.min_down_payment_percent,
        valid_from: valid_from.to_string(),
        valid_to,
        conditions: conditions.to_string(),
        active: input.active,
    })
}

const SELECT: &str = "SELECT p.id, p.bank_id, b.name AS bank_name, b.logo AS bank_logo,
    b.ad_erid AS bank_ad_erid, b.ad_advertiser AS bank_ad_advertiser, p.name,
    p.rate_min_milli, p.rate_max_milli, p.psk_min_milli, p.psk_max_milli, p.term_min_months,
    p.term_max_months, p.min_down_payment_percent, p.valid_from, p.valid_to, p.conditions,
    p.active, p.created_at, p.updated_at
    FROM credit_programs p JOIN partner_banks b ON b.id = p.bank_id";

/// Cheapest first, then by bank and name.
const ORDER: &str = "ORDER BY p.rate_min_milli, b.name COLLATE NOCASE, p.name COLLATE NOCASE, p.id";

fn from_row(row: &Row, today: &str) -> rusqlite::Result<CreditProgram> {
    let valid_to: Option<String> = row.get("valid_to")?;
    Ok(CreditProgram {
        id: row.get("id")?,
        bank_id: row.get("bank_id")?,
        bank_name: row.get("bank_name")?,
        bank_logo: row.get("bank_logo")?,
        bank_ad: {
            let advertiser: String = row.get("bank_ad_advertiser")?;
            AdMark {
                erid: row.get("bank_ad_erid")?,
                advertiser: if advertiser.is_empty() {
                    row.get("bank_name")?
                } else {
                    advertiser
                },
            }
        },
        name: row.get("name")?,
        rate_min: percent_of(row.get("rate_min_milli")?),
        rate_max: percent_of(row.get("rate_max_milli")?),
        psk_min: percent_of(row.get("psk_min_milli")?),
        psk_max: percent_of(row.get("psk_max_milli")?),
        term_min_months: row.get("term_min_months")?,
        term_max_months: row.get("term_max_months")?,
        min_down_payment_percent: row.get("min_down_payment_percent")?,
        valid_from: row.get("valid_from")?,
        expired: valid_to.as_deref().is_some_and(|to| to < today),
        valid_to,
        conditions: row.get("conditions")?,
        active: row.get("active")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
    })
}

fn day(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// Every programme, expired and hidden ones too (admin).
pub fn list(conn: &Connection, today: NaiveDate) -> AppResult<Vec<CreditProgram>> {
    let today = day(today);
    let mut stmt = conn.prepare_cached(&format!("{SELECT} {ORDER}"))?;
    let rows = stmt.query_map([], |r| from_row(r, &today))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get(conn: &Connection, id: &str, today: NaiveDate) -> AppResult<Option<CreditProgram>> {
    let today = day(today);
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE p.id = ?1"))?;
    Ok(stmt.query_row([id], |r| from_row(r, &today)).optional()?)
}

impl From<CreditProgram> for PublicCreditProgram {
    fn from(p: CreditProgram) -> Self {
        PublicCreditProgram {
            id: p.id,
            bank_id: p.bank_id,
            bank_name: p.bank_name,
            bank_logo: p.bank_logo,
            bank_ad: p.bank_ad,
            name: p.name,
            rate_min: p.rate_min,
            rate_max: p.rate_max,
            psk_min: p.psk_min,
            psk_max: p.psk_max,
            term_min_months: p.term_min_months,
            term_max_months: p.term_max_months,
            min_down_payment_percent: p.min_down_payment_percent,
            valid_from: p.valid_from,
            valid_to: p.valid_to,
            conditions: p.conditions,
        }
    }
}

/// The programmes valid on `today` (Moscow date): active, of a shown bank,
/// `validFrom ≤ today ≤ validTo`, with their summary.
pub fn public(conn: &Connection, today: NaiveDate) -> AppResult<PublicCreditPrograms> {
    let today = day(today);
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE p.active = 1 AND b.active = 1 AND p.valid_from <= ?1
            AND (p.valid_to IS NULL OR p.valid_to >= ?1) {ORDER}"
    ))?;
    let rows = stmt.query_map([&today], |r| from_row(r, &today))?;
    let items: Vec<PublicCreditProgram> = rows
        .map(|r| r.map(PublicCreditProgram::from))
        .collect::<Result<_, _>>()?;
    let summary = summary(&items);
    Ok(PublicCreditPrograms { items, summary })
}

/// The ranges over `items`; `None` when there are none.
pub fn summary(items: &[PublicCreditProgram]) -> Option<CreditSummary> {
    let first = items.first()?;
    let mut s = CreditSummary {
        rate_min: first.rate_min,
        rate_max: first.rate_max,
        psk_min: first.psk_min,
        psk_max: first.psk_max,
        term_min_months: first.term_min_months,
        term_max_months: first.term_max_months,
        banks: Vec::new(),
    };
    for p in items {
        s.rate_min = s.rate_min.min(p.rate_min);
        s.rate_max = s.rate_max.max(p.rate_max);
        s.psk_min = s.psk_min.min(p.psk_min);
        s.psk_max = s.psk_max.max(p.psk_max);
        s.term_min_months = s.term_min_months.min(p.term_min_months);
        s.term_max_months = s.term_max_months.max(p.term_max_months);
        if !s.banks.contains(&p.bank_name) {
            s.banks.push(p.bank_name.clone());
        }
    }
    s.banks.sort_by_key(|b| b.to_lowercase());
    Some(s)
}

/// A percentage as Russian text: "5,9", "19", "27,456".
pub fn percent_text(value: f64) -> String {
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.replace('.', ",")
}

/// Runs `sql`, an INSERT or an UPDATE numbering the same columns (`?1` the
/// id), with a checked programme's values and now as the time: create and
/// update write the same fields.
fn write(conn: &Connection, sql: &str, id: &str, v: &Valid) -> AppResult<usize> {
    Ok(conn.execute(
        sql,
        params![
            id,
            v.bank_id,
            v.name,
            v.rate_min,
            v.rate_max,
            v.psk_min,
            v.psk_max,
            v.term_min,
            v.term_max,
            v.down_payment,
            v.valid_from,
            v.valid_to,
            v.conditions,
            v.active,
            super::now()
        ],
    )?)
}

pub fn create(
    conn: &Connection,
    input: &CreditProgramInput,
    today: NaiveDate,
) -> AppResult<CreditProgram> {
    let v = validate(conn, input)?;
    let id = super::new_id();
    write(
        conn,
        "INSERT INTO credit_programs (id, bank_id, name, rate_min_milli, rate_max_milli,
            psk_min_milli, psk_max_milli, term_min_months, term_max_months,
            min_down_payment_percent, valid_from, valid_to, conditions, active, created_at,
            updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
        &id,
        &v,
    )?;
    get(conn, &id, today)?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("credit programme vanished")))
}

pub fn update(
    conn: &Connection,
    id: &str,
    input: &CreditProgramInput,
    today: NaiveDate,
) -> AppResult<Option<CreditProgram>> {
    let v = validate(conn, input)?;
    let changed = write(
        conn,
        "UPDATE credit_programs SET bank_id = ?2, name = ?3, rate_min_milli = ?4,
            rate_max_milli = ?5, psk_min_milli = ?6, psk_max_milli = ?7, term_min_months = ?8,
            term_max_months = ?9, min_down_payment_percent = ?10, valid_from = ?11,
            valid_to = ?12, conditions = ?13, active = ?14, updated_at = ?15
         WHERE id = ?1",
        id,
        &v,
    )?;
    super::read_again(changed, || get(conn, id, today))
}

pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM credit_programs WHERE id = ?1", [id])? > 0)
}

impl super::form::Form for CreditProgramInput {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::required("bankId", Kind::Text, "Выберите банк"),
            Field::required("name", Kind::Text, "Название программы обязательно"),
            Field::required("rateMin", Kind::Number, "Укажите минимальную ставку")
                .invalid(RATE_RANGE),
            Field::required("rateMax", Kind::Number, "Укажите максимальную ставку")
                .invalid(RATE_RANGE),
            Field::required("pskMin", Kind::Number, "Укажите минимальную ПСК").invalid(PSK_RANGE),
            Field::required("pskMax", Kind::Number, "Укажите максимальную ПСК").invalid(PSK_RANGE),
            Field::required("termMinMonths", Kind::Integer, "Укажите минимальный срок")
                .invalid(TERM_RANGE),
            Field::required("termMaxMonths", Kind::Integer, "Укажите максимальный срок")
                .invalid(TERM_RANGE),
            Field::optional("minDownPaymentPercent", Kind::Integer)
                .invalid("Первоначальный взнос: от 0 до 90%"),
            Field::required(
                "validFrom",
                Kind::Text,
                "Укажите дату начала действия программы",
            ),
            Field::optional("validTo", Kind::Text).invalid(DATE_FORMAT),
            Field::optional("conditions", Kind::Text),
            Field::optional("active", Kind::Bool),
        ]
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percents_as_russian_text() {
        assert_eq!(percent_text(5.9), "5,9");
        assert_eq!(percent_text(19.0), "19");
        assert_eq!(percent_text(27.456), "27,456");
        assert_eq!(milli(5.9), 5900);
        assert_eq!(percent_of(27_456), 27.456);
    }
}
