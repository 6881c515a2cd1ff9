//! Labels and banner images of the six body types.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

use super::cars::BodyType;
use crate::error::AppResult;

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BodyTypeInfo {
    pub id: String,
    pub body_type: BodyType,
    /// 'Седаны'
    pub label_plural: String,
    /// 'Седан'
    pub label_single: String,
    /// Banner image URL (desktop), empty when none.
    pub image_url: String,
    pub image_url_mobile: String,
    /// Published cars of this body type.
    pub car_count: i64,
    pub created_at: String,
    pub updated_at: String,
}

const SELECT: &str = "SELECT t.id, t.body_type, t.label_plural, t.label_single, t.image_url,
    t.image_url_mobile, t.created_at, t.updated_at,
    (SELECT count(*) FROM cars c WHERE c.body_type = t.body_type AND c.published = 1) AS car_count
    FROM body_types t";

fn from_row(row: &Row) -> rusqlite::Result<BodyTypeInfo> {
    Ok(BodyTypeInfo {
        id: row.get("id")?,
        body_type: row.get("body_type")?,
        label_plural: row.get("label_plural")?,
        label_single: row.get("label_single")?,
        image_url: row.get("image_url")?,
        image_url_mobile: row.get("image_url_mobile")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
        car_count: row.get("car_count")?,
    })
}

pub fn list(conn: &Connection) -> AppResult<Vec<BodyTypeInfo>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} ORDER BY t.sort_order"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get(conn: &Connection, body_type: BodyType) -> AppResult<Option<BodyTypeInfo>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE t.body_type = ?1"))?;
    Ok(stmt.query_row([body_type], from_row).optional()?)
}

pub fn set_images(
    conn: &Connection,
    body_type: BodyType,
    image_url: &str,
    image_url_mobile: &str,
) -> AppResult<()> {
    conn.execute(
        "UPDATE body_types SET image_url = ?2, image_url_mobile = ?3, updated_at = ?4
         WHERE body_type = ?1",
        params![body_type, image_url, image_url_mobile, super::now()],
    )?;
    Ok(())
}

#[derive(Debug, Clone, serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BodyTypeInput {
    pub label_plural: Option<String>,
    pub label_single: Option<String>,
    pub image_url: Option<String>,
    pub image_url_mobile: Option<String>,
}

/// Changes the given labels and banners of a body type.
pub fn update(
    conn: &Connection,
    body_type: BodyType,
    input: &BodyTypeInput,
) -> AppResult<Option<BodyTypeInfo>> {
    let Some(current) = get(conn, body_type)? else {
        return Ok(None);
    };
    let pick = |new: &Option<String>, old: String| {
        new.as_ref().map(|v| v.trim().to_string()).unwrap_or(old)
    };
    let plural = pick(&input.label_plural, current.label_plural);
    let single = pick(&input.label_single, current.label_single);
    for (field, value) in [("labelPlural", &plural), ("labelSingle", &single)] {
        if value.is_empty() {
            return Err(crate::error::AppError::invalid(
                field,
                "Название обязательно",
            ));
        }
        super::check_len(field, value, 100)?;
    }
    conn.execute(
        "UPDATE body_types SET label_plural = ?2, label_single = ?3, image_url = ?4,
            image_url_mobile = ?5, updated_at = ?6
         WHERE body_type = ?1",
        params![
            body_type,
            plural,
            single,
            pick(&input.image_url, current.image_url),
            pick(&input.image_url_mobile, current.image_url_mobile),
            super::now()
        ],
    )?;
    get(conn, body_type)
}

impl super::form::Form for BodyTypeInput {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::optional("labelPlural", Kind::Text),
            Field::optional("labelSingle", Kind::Text),
            Field::optional("imageUrl", Kind::Text),
            Field::optional("imageUrlMobile", Kind::Text),
        ]
    };
}
