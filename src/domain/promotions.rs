//! Promotions; only active ones are public.

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
    pub valid_until: String,
    pub is_active: bool,
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
    #[serde(default)]
    pub valid_until: String,
    #[serde(default = "yes")]
    pub is_active: bool,
}

fn yes() -> bool {
    true
}

const SELECT: &str = "SELECT id, title, description, image, discount, valid_until, is_active,
    created_at, updated_at FROM promotions";

fn from_row(row: &Row) -> rusqlite::Result<Promotion> {
    Ok(Promotion {
        id: row.get("id")?,
        title: row.get("title")?,
        description: row.get("description")?,
        image: row.get("image")?,
        discount: row.get("discount")?,
        valid_until: row.get("valid_until")?,
        is_active: row.get("is_active")?,
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
    super::check_len("validUntil", "Действует до", &input.valid_until, 100)?;
    super::check_len("image", "Изображение", &input.image, super::MAX_PICTURE_URL)?;
    Ok(())
}

pub fn create(conn: &Connection, input: &PromotionInput) -> AppResult<Promotion> {
    validate(input)?;
    let id = super::new_id();
    let now = super::now();
    conn.execute(
        "INSERT INTO promotions (id, title, description, image, discount, valid_until, is_active,
            created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
        params![
            id,
            input.title.trim(),
            input.description.trim(),
            input.image,
            input.discount.trim(),
            input.valid_until.trim(),
            input.is_active,
            now
        ],
    )?;
    get(conn, &id)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("promotion vanished")))
}

pub fn update(conn: &Connection, id: &str, input: &PromotionInput) -> AppResult<Option<Promotion>> {
    validate(input)?;
    let changed = conn.execute(
        "UPDATE promotions SET title = ?2, description = ?3, image = ?4, discount = ?5,
            valid_until = ?6, is_active = ?7, updated_at = ?8
         WHERE id = ?1",
        params![
            id,
            input.title.trim(),
            input.description.trim(),
            input.image,
            input.discount.trim(),
            input.valid_until.trim(),
            input.is_active,
            super::now()
        ],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    get(conn, id)
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
        ]
    };
}
