//! Car brands.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Brand {
    pub id: String,
    pub name: String,
    pub slug: String,
    /// Logo image URL, empty when the brand has none.
    pub logo: String,
    pub description: String,
    /// Published cars of the brand.
    pub car_count: i64,
    pub created_at: String,
    pub updated_at: String,
}

/// The short form for strips and carousels.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrandBrief {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub logo: String,
    pub car_count: i64,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrandInput {
    pub name: String,
    pub slug: String,
    #[serde(default)]
    pub logo: String,
    #[serde(default)]
    pub description: String,
}

/// Brands with the number of their published cars (what visitors see).
const SELECT: &str =
    "SELECT b.id, b.name, b.slug, b.logo, b.description, b.created_at, b.updated_at,
        (SELECT count(*) FROM cars c WHERE c.brand_id = b.id AND c.published = 1) AS car_count
    FROM brands b";

/// Brands with the number of all their cars, drafts included: a brand with
/// any car cannot be deleted, so the admin sees that count.
const SELECT_ALL_CARS: &str =
    "SELECT b.id, b.name, b.slug, b.logo, b.description, b.created_at, b.updated_at,
        (SELECT count(*) FROM cars c WHERE c.brand_id = b.id) AS car_count
    FROM brands b";

fn from_row(row: &Row) -> rusqlite::Result<Brand> {
    Ok(Brand {
        id: row.get("id")?,
        name: row.get("name")?,
        slug: row.get("slug")?,
        logo: row.get("logo")?,
        description: row.get("description")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
        car_count: row.get("car_count")?,
    })
}

/// Whether a brand is shown on the site: only while it has a published car
/// (`docs/catalogue.md`, "Brands on the site"). Every car write moves the
/// content version, so cached lists follow.
const SHOWN: &str = "EXISTS (SELECT 1 FROM cars s WHERE s.brand_id = b.id AND s.published = 1)";

/// The brands the site shows (each with a published car), by name.
pub fn list(conn: &Connection) -> AppResult<Vec<Brand>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE {SHOWN} ORDER BY b.name COLLATE NOCASE, b.id"
    ))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// All brands by name, each with all its cars counted (drafts too).
pub fn list_for_admin(conn: &Connection) -> AppResult<Vec<Brand>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT_ALL_CARS} ORDER BY b.name COLLATE NOCASE, b.id"
    ))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// How many brands there are, shown or not.
pub fn count(conn: &Connection) -> AppResult<i64> {
    Ok(conn.query_row("SELECT count(*) FROM brands", [], |r| r.get(0))?)
}

/// [`list`] in the short form.
pub fn list_brief(conn: &Connection) -> AppResult<Vec<BrandBrief>> {
    Ok(list(conn)?
        .into_iter()
        .map(|b| BrandBrief {
            id: b.id,
            name: b.name,
            slug: b.slug,
            logo: b.logo,
            car_count: b.car_count,
        })
        .collect())
}

/// [`list_brief`] with the published cars of each brand counted already
/// (`counts`, by brand id: the catalogue in memory): the same brands in the
/// same order, with no count in SQL.
pub fn list_brief_counted(
    conn: &Connection,
    counts: &std::collections::HashMap<Box<str>, i64>,
) -> AppResult<Vec<BrandBrief>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, slug, logo FROM brands ORDER BY name COLLATE NOCASE, id",
    )?;
    let rows = stmt.query_map([], |row| {
        Ok(BrandBrief {
            id: row.get(0)?,
            name: row.get(1)?,
            slug: row.get(2)?,
            logo: row.get(3)?,
            car_count: 0,
        })
    })?;
    let mut shown = Vec::new();
    for brand in rows {
        let mut brand = brand?;
        if let Some(&count) = counts.get(brand.id.as_str()) {
            brand.car_count = count;
            shown.push(brand);
        }
    }
    Ok(shown)
}

/// A brand, shown on the site or not (the admin, a car's reference).
/// Whether a brand of this id exists: a car's check, which never counts the
/// brand's cars (a feed of 20,000 cars of one brand counted them for each).
pub fn exists(conn: &Connection, id: &str) -> AppResult<bool> {
    let mut stmt = conn.prepare_cached("SELECT 1 FROM brands WHERE id = ?1")?;
    Ok(stmt.exists([id])?)
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Brand>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE b.id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// A brand the site shows; `None` while it has no published car.
pub fn shown(conn: &Connection, id: &str) -> AppResult<Option<Brand>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE b.id = ?1 AND {SHOWN}"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// A brand the site shows, by its slug; `None` while it has no published
/// car (its page is then a 404).
pub fn shown_by_slug(conn: &Connection, slug: &str) -> AppResult<Option<Brand>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE b.slug = ?1 AND {SHOWN}"))?;
    Ok(stmt.query_row([slug], from_row).optional()?)
}

pub fn validate(input: &BrandInput) -> AppResult<()> {
    if input.name.trim().is_empty() {
        return Err(AppError::invalid("name", "Название марки обязательно"));
    }
    if input.slug.trim().is_empty() {
        return Err(AppError::invalid("slug", "Slug обязателен"));
    }
    super::check_len("name", "Название", &input.name, 100)?;
    if !super::slug::is_valid(&input.slug) || input.slug.len() > 100 {
        return Err(AppError::invalid(
            "slug",
            "Slug может содержать только латинские буквы, цифры и дефисы",
        ));
    }
    super::check_len("description", "Описание", &input.description, 5000)?;
    super::check_len("logo", "Логотип", &input.logo, super::MAX_PICTURE_URL)?;
    Ok(())
}

/// Runs `sql`, an INSERT or an UPDATE numbering the same columns (`?1` the
/// id), with `input`'s values and `at` as the time: create and update write
/// the same fields.
fn write(conn: &Connection, sql: &str, id: &str, input: &BrandInput, at: &str) -> AppResult<usize> {
    Ok(conn.execute(
        sql,
        params![
            id,
            input.name.trim(),
            input.slug,
            input.logo,
            input.description,
            at,
        ],
    )?)
}

pub fn create(conn: &Connection, input: &BrandInput) -> AppResult<Brand> {
    validate(input)?;
    let id = super::new_id();
    write(
        conn,
        "INSERT INTO brands (id, name, slug, logo, description, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        &id,
        input,
        &super::now(),
    )?;
    get(conn, &id)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("brand vanished")))
}

pub fn update(conn: &Connection, id: &str, input: &BrandInput) -> AppResult<Option<Brand>> {
    validate(input)?;
    let changed = write(
        conn,
        "UPDATE brands SET name = ?2, slug = ?3, logo = ?4, description = ?5, updated_at = ?6
         WHERE id = ?1",
        id,
        input,
        &super::now(),
    )?;
    super::read_again(changed, || get(conn, id))
}

/// Deletes a brand that has no cars (drafts included).
pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    let cars: i64 = conn.query_row("SELECT count(*) FROM cars WHERE brand_id = ?1", [id], |r| {
        r.get(0)
    })?;
    if cars > 0 {
        return Err(AppError::conflict(
            None,
            format!("Нельзя удалить марку, пока у неё есть автомобили ({cars})"),
        ));
    }
    Ok(conn.execute("DELETE FROM brands WHERE id = ?1", [id])? > 0)
}

impl super::form::Form for BrandInput {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::required("name", Kind::Text, "Название марки обязательно"),
            Field::required("slug", Kind::Text, "Slug обязателен"),
            Field::optional("logo", Kind::Text),
            Field::optional("description", Kind::Text),
        ]
    };
}
