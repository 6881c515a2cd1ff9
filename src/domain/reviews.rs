//! Customer reviews; only approved ones are public.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    pub id: String,
    pub customer_name: String,
    pub car_id: Option<String>,
    pub car_model: Option<String>,
    pub rating: i32,
    pub text: String,
    pub photo: Option<String>,
    pub approved: bool,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewInput {
    pub customer_name: String,
    #[serde(default)]
    pub car_id: Option<String>,
    #[serde(default)]
    pub car_model: Option<String>,
    #[serde(default = "five")]
    pub rating: i32,
    pub text: String,
    #[serde(default)]
    pub photo: Option<String>,
    #[serde(default)]
    pub approved: bool,
}

fn five() -> i32 {
    5
}

const SELECT: &str = "SELECT id, customer_name, car_id, car_model, rating, text, photo, approved,
    created_at, updated_at FROM reviews";

fn from_row(row: &Row) -> rusqlite::Result<Review> {
    Ok(Review {
        id: row.get("id")?,
        customer_name: row.get("customer_name")?,
        car_id: row.get("car_id")?,
        car_model: row.get("car_model")?,
        rating: row.get("rating")?,
        text: row.get("text")?,
        photo: row.get("photo")?,
        approved: row.get("approved")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
    })
}

/// Reviews, newest first; `approved_only` for the public.
pub fn list(
    conn: &Connection,
    approved_only: bool,
    limit: u32,
    offset: u32,
) -> AppResult<Vec<Review>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE (approved = 1 OR ?1 = 0) ORDER BY created_at DESC, id LIMIT ?2 OFFSET ?3"
    ))?;
    let rows = stmt.query_map(params![approved_only, limit, offset], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Review>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

pub fn validate(input: &ReviewInput) -> AppResult<()> {
    if input.customer_name.trim().is_empty() {
        return Err(AppError::invalid("customerName", "Имя клиента обязательно"));
    }
    if input.text.trim().is_empty() {
        return Err(AppError::invalid("text", "Текст отзыва обязателен"));
    }
    if !(1..=5).contains(&input.rating) {
        return Err(AppError::invalid("rating", "Оценка должна быть от 1 до 5"));
    }
    super::check_len("customerName", "Имя клиента", &input.customer_name, 255)?;
    super::check_len("text", "Текст отзыва", &input.text, 5000)?;
    if let Some(model) = &input.car_model {
        super::check_len("carModel", "Модель автомобиля", model, 255)?;
    }
    if let Some(photo) = &input.photo {
        super::check_len("photo", "Фото", photo, super::MAX_PICTURE_URL)?;
    }
    Ok(())
}

/// Runs `sql`, an INSERT or an UPDATE numbering the same columns (`?1` the
/// id), with `input`'s values and `at` as the time: create and update write
/// the same fields.
fn write(
    conn: &Connection,
    sql: &str,
    id: &str,
    input: &ReviewInput,
    at: &str,
) -> AppResult<usize> {
    Ok(conn.execute(
        sql,
        params![
            id,
            input.customer_name.trim(),
            super::non_empty(input.car_id.clone()),
            super::non_empty(input.car_model.clone()),
            input.rating,
            input.text.trim(),
            super::non_empty(input.photo.clone()),
            input.approved,
            at,
        ],
    )?)
}

pub fn create(conn: &Connection, input: &ReviewInput) -> AppResult<Review> {
    validate(input)?;
    let id = super::new_id();
    write(
        conn,
        "INSERT INTO reviews (id, customer_name, car_id, car_model, rating, text, photo, approved,
            created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
        &id,
        input,
        &super::now(),
    )?;
    get(conn, &id)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("review vanished")))
}

pub fn update(conn: &Connection, id: &str, input: &ReviewInput) -> AppResult<Option<Review>> {
    validate(input)?;
    let changed = write(
        conn,
        "UPDATE reviews SET customer_name = ?2, car_id = ?3, car_model = ?4, rating = ?5,
            text = ?6, photo = ?7, approved = ?8, updated_at = ?9
         WHERE id = ?1",
        id,
        input,
        &super::now(),
    )?;
    super::read_again(changed, || get(conn, id))
}

pub fn approve(conn: &Connection, id: &str) -> AppResult<Option<Review>> {
    let changed = conn.execute(
        "UPDATE reviews SET approved = 1, updated_at = ?2 WHERE id = ?1",
        params![id, super::now()],
    )?;
    super::read_again(changed, || get(conn, id))
}

pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM reviews WHERE id = ?1", [id])? > 0)
}

/// (approved, pending) for the dashboard.
pub fn moderation_counts(conn: &Connection) -> AppResult<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT coalesce(sum(approved = 1), 0), coalesce(sum(approved = 0), 0) FROM reviews",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

impl super::form::Form for ReviewInput {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::required("customerName", Kind::Text, "Имя клиента обязательно"),
            Field::optional("carId", Kind::Text),
            Field::optional("carModel", Kind::Text),
            Field::optional("rating", Kind::Integer).invalid("Оценка должна быть от 1 до 5"),
            Field::required("text", Kind::Text, "Текст отзыва обязателен"),
            Field::optional("photo", Kind::Text),
            Field::optional("approved", Kind::Bool),
        ]
    };
}
