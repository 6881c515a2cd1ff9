//! Promotions; only active ones are public, and only until their last day
//! (`validUntil`, a Moscow date): an expired promotion leaves the site by
//! itself at midnight.

use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Promotion {
    pub id: String,
    pub title: String,
    pub description: String,
    /// Image URL, empty when none.
    pub image: String,
    pub discount: String,
    /// The last day it is shown, "YYYY-MM-DD" (Moscow date); empty when it
    /// has no end.
    pub valid_until: String,
    pub is_active: bool,
    /// The ad's token (erid), empty when none (`docs/advertising.md`).
    pub ad_erid: String,
    /// The advertiser, when the promotion is someone else's ad (a maker's
    /// or a bank's campaign); empty for the salon's own.
    pub ad_advertiser: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromotionInput {
    pub title: String,
    pub description: String,
    #[serde(default)]
    pub image: String,
    #[serde(default)]
    pub discount: String,
    /// The last day, "YYYY-MM-DD" (or "31.12.2026"); empty for none.
    #[serde(default)]
    pub valid_until: String,
    #[serde(default = "yes")]
    pub is_active: bool,
    #[serde(default)]
    pub ad_erid: String,
    #[serde(default)]
    pub ad_advertiser: String,
}

fn yes() -> bool {
    true
}

const SELECT: &str = "SELECT id, title, description, image, discount, valid_until, is_active,
    ad_erid, ad_advertiser, created_at, updated_at FROM promotions";

fn from_row(row: &Row) -> rusqlite::Result<Promotion> {
    Ok(Promotion {
        id: row.get("id")?,
        title: row.get("title")?,
        description: row.get("description")?,
        image: row.get("image")?,
        discount: row.get("discount")?,
        valid_until: row.get("valid_until")?,
        is_active: row.get("is_active")?,
        ad_erid: row.get("ad_erid")?,
        ad_advertiser: row.get("ad_advertiser")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
    })
}

pub fn list(conn: &Connection, active_only: bool) -> AppResult<Vec<Promotion>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE (is_active = 1 OR ?1 = 0) ORDER BY created_at DESC, id"
    ))?;
    let rows = stmt.query_map([active_only], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// What the site shows on `today` (a Moscow date): active promotions whose
/// last day has not passed.
pub fn public(conn: &Connection, today: NaiveDate) -> AppResult<Vec<Promotion>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE is_active = 1 AND (valid_until = '' OR valid_until >= ?1)
         ORDER BY created_at DESC, id"
    ))?;
    let rows = stmt.query_map([today.to_string()], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether the site shows `promotion` on `today`.
pub fn is_shown(promotion: &Promotion, today: NaiveDate) -> bool {
    promotion.is_active
        && (promotion.valid_until.is_empty() || promotion.valid_until >= today.to_string())
}

pub const DATE_MESSAGE: &str = "Укажите дату окончания, например 31.12.2026";

/// A last day as people and forms send it: "2026-12-31" (a date input) or
/// "31.12.2026"; empty is none.
pub fn parse_valid_until(text: &str) -> AppResult<Option<NaiveDate>> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(text, "%d.%m.%Y"))
        .ok()
        .filter(|d| (2000..=2100).contains(&chrono::Datelike::year(d)))
        .map(Some)
        .ok_or_else(|| AppError::invalid("validUntil", DATE_MESSAGE))
}

fn stored_valid_until(input: &PromotionInput) -> AppResult<String> {
    Ok(parse_valid_until(&input.valid_until)?
        .map(|d| d.to_string())
        .unwrap_or_default())
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Promotion>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

pub fn validate(input: &PromotionInput) -> AppResult<()> {
    if input.title.trim().is_empty() {
        return Err(AppError::invalid("title", "Название акции обязательно"));
    }
    if input.description.trim().is_empty() {
        return Err(AppError::invalid(
            "description",
            "Описание акции обязательно",
        ));
    }
    super::check_len("title", "Название", &input.title, 255)?;
    super::check_len("description", "Описание", &input.description, 5000)?;
    super::check_len("discount", "Скидка", &input.discount, 100)?;
    parse_valid_until(&input.valid_until)?;
    super::check_len("image", "Изображение", &input.image, super::MAX_PICTURE_URL)?;
    super::ads::check_erid("adErid", &input.ad_erid)?;
    super::ads::check_advertiser("adAdvertiser", &input.ad_advertiser)?;
    Ok(())
}

/// Runs `sql`, an INSERT or an UPDATE numbering the same columns (`?1` the
/// id), with `input`'s values and `at` as the time: create and update write
/// the same fields.
fn write(
    conn: &Connection,
    sql: &str,
    id: &str,
    input: &PromotionInput,
    at: &str,
) -> AppResult<usize> {
    let valid_until = stored_valid_until(input)?;
    Ok(conn.execute(
        sql,
        params![
            id,
            input.title.trim(),
            input.description.trim(),
            input.image,
            input.discount.trim(),
            valid_until,
            input.is_active,
            at,
            super::ads::check_erid("adErid", &input.ad_erid)?,
            input.ad_advertiser.trim(),
        ],
    )?)
}

pub fn create(conn: &Connection, input: &PromotionInput) -> AppResult<Promotion> {
    validate(input)?;
    let id = super::new_id();
    write(
        conn,
        "INSERT INTO promotions (id, title, description, image, discount, valid_until, is_active,
            created_at, updated_at, ad_erid, ad_advertiser)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10)",
        &id,
        input,
        &super::now(),
    )?;
    get(conn, &id)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("promotion vanished")))
}

pub fn update(conn: &Connection, id: &str, input: &PromotionInput) -> AppResult<Option<Promotion>> {
    validate(input)?;
    let changed = write(
        conn,
        "UPDATE promotions SET title = ?2, description = ?3, image = ?4, discount = ?5,
            valid_until = ?6, is_active = ?7, updated_at = ?8, ad_erid = ?9, ad_advertiser = ?10
         WHERE id = ?1",
        id,
        input,
        &super::now(),
    )?;
    super::read_again(changed, || get(conn, id))
}

pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM promotions WHERE id = ?1", [id])? > 0)
}

impl super::form::Form for PromotionInput {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::required("title", Kind::Text, "Название акции обязательно"),
            Field::required("description", Kind::Text, "Описание акции обязательно"),
            Field::optional("image", Kind::Text),
            Field::optional("discount", Kind::Text),
            Field::optional("validUntil", Kind::Text),
            Field::optional("isActive", Kind::Bool),
            Field::optional("adErid", Kind::Text),
            Field::optional("adAdvertiser", Kind::Text),
        ]
    };
}
