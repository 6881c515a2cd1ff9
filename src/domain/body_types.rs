//! The dealership's own list of body types (`docs/catalogue.md`): the spec's
//! six, seeded and never deleted, and whatever staff or the importer add.
//! Each has a slug (the `/body-type/{slug}` page), two labels and banners.

use std::borrow::Cow;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

/// A body type's slug (`sedan`, `minivan`): one of the dealership's own
/// list, the `body_types` table (`docs/catalogue.md`). The spec's six are
/// constants; staff and the importer add more. A slug is latin lower-case
/// letters and digits in words joined by single hyphens, at most 50.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = String, pattern = "^[a-z0-9]+(-[a-z0-9]+)*$", example = "sedan")]
pub struct BodyType(Cow<'static, str>);

impl BodyType {
    pub const SEDAN: BodyType = BodyType(Cow::Borrowed("sedan"));
    pub const HATCHBACK: BodyType = BodyType(Cow::Borrowed("hatchback"));
    pub const CROSSOVER: BodyType = BodyType(Cow::Borrowed("crossover"));
    pub const WAGON: BodyType = BodyType(Cow::Borrowed("wagon"));
    /// Shown as 'Внедорожник' (`docs/glossary.md`).
    pub const COUPE: BodyType = BodyType(Cow::Borrowed("coupe"));
    pub const PICKUP: BodyType = BodyType(Cow::Borrowed("pickup"));
    /// The spec's six, seeded and never deleted.
    pub const BUILT_IN: [BodyType; 6] = [
        Self::SEDAN,
        Self::HATCHBACK,
        Self::CROSSOVER,
        Self::WAGON,
        Self::COUPE,
        Self::PICKUP,
    ];
    pub const MAX_LEN: usize = 50;

    /// A slug of the right shape (whether the table has it is the caller's
    /// question).
    pub fn parse(code: &str) -> Option<Self> {
        Self::is_slug(code).then(|| BodyType(Cow::Owned(code.to_string())))
    }

    fn is_slug(code: &str) -> bool {
        !code.is_empty()
            && code.len() <= Self::MAX_LEN
            && code.split('-').all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for BodyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for BodyType {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = Cow::<str>::deserialize(deserializer)?;
        BodyType::parse(&code).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "body type {code:?}: latin letters, digits and hyphens, at most 50"
            ))
        })
    }
}

impl rusqlite::types::ToSql for BodyType {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for BodyType {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        // The six are borrowed: no allocation for the common case.
        Ok(Self::BUILT_IN
            .iter()
            .find(|b| b.as_str() == text)
            .cloned()
            .unwrap_or_else(|| BodyType(Cow::Owned(text.to_string()))))
    }
}

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
    /// One of the spec's six: it cannot be deleted.
    pub built_in: bool,
    pub created_at: String,
    pub updated_at: String,
}

const SELECT: &str = "SELECT t.id, t.body_type, t.label_plural, t.label_single, t.image_url,
    t.image_url_mobile, t.created_at, t.updated_at, t.built_in,
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
        built_in: row.get("built_in")?,
    })
}

pub fn list(conn: &Connection) -> AppResult<Vec<BodyTypeInfo>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} ORDER BY t.sort_order"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether the table has this body type.
pub fn exists(conn: &Connection, body_type: &BodyType) -> AppResult<bool> {
    let mut stmt = conn.prepare_cached("SELECT 1 FROM body_types WHERE body_type = ?1")?;
    Ok(stmt.exists([body_type])?)
}

pub fn get(conn: &Connection, body_type: &BodyType) -> AppResult<Option<BodyTypeInfo>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE t.body_type = ?1"))?;
    Ok(stmt.query_row([body_type], from_row).optional()?)
}

pub fn set_images(
    conn: &Connection,
    body_type: &BodyType,
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
    body_type: &BodyType,
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
    check_labels(&plural, &single)?;
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

fn check_labels(plural: &str, single: &str) -> AppResult<()> {
    for (field, label, value) in [
        ("labelPlural", "Название во множественном числе", plural),
        ("labelSingle", "Название в единственном числе", single),
    ] {
        if value.is_empty() {
            return Err(AppError::invalid(field, "Название обязательно"));
        }
        super::check_len(field, label, value, 100)?;
    }
    Ok(())
}

/// `POST /api/body-types`: a new body type of the dealership's list.
#[derive(Debug, Clone, serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BodyTypeCreate {
    /// The slug: latin letters, digits and hyphens ("minivan").
    pub body_type: String,
    pub label_plural: String,
    pub label_single: String,
    #[serde(default)]
    pub image_url: String,
    #[serde(default)]
    pub image_url_mobile: String,
}

/// The message of a slug of the wrong shape.
pub const SLUG_MESSAGE: &str = "Код — латинские буквы, цифры и дефис, до 50 символов";

/// Adds a body type at the end of the list.
pub fn create(conn: &Connection, input: &BodyTypeCreate) -> AppResult<BodyTypeInfo> {
    let code = input.body_type.trim().to_lowercase();
    let Some(body_type) = BodyType::parse(&code) else {
        return Err(AppError::invalid("bodyType", SLUG_MESSAGE));
    };
    let (plural, single) = (input.label_plural.trim(), input.label_single.trim());
    check_labels(plural, single)?;
    super::check_len("imageUrl", "Баннер для компьютера", &input.image_url, 500)?;
    super::check_len(
        "imageUrlMobile",
        "Баннер для телефона",
        &input.image_url_mobile,
        500,
    )?;
    if exists(conn, &body_type)? {
        return Err(AppError::conflict(
            Some("bodyType"),
            "Такой тип кузова уже есть",
        ));
    }
    let now = super::now();
    conn.execute(
        "INSERT INTO body_types (id, body_type, label_plural, label_single, sort_order, image_url,
            image_url_mobile, built_in, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, (SELECT coalesce(max(sort_order), 0) + 1 FROM body_types),
            ?5, ?6, 0, ?7, ?7)",
        params![
            format!("bt-{code}"),
            body_type,
            plural,
            single,
            input.image_url.trim(),
            input.image_url_mobile.trim(),
            now
        ],
    )?;
    get(conn, &body_type)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("body type vanished")))
}

/// Deletes a body type nobody uses: `Ok(false)` when there is none; 409 for
/// one of the six or one that cars have.
pub fn delete(conn: &Connection, body_type: &BodyType) -> AppResult<bool> {
    let Some(info) = get(conn, body_type)? else {
        return Ok(false);
    };
    if info.built_in {
        return Err(AppError::conflict(
            None,
            "Встроенный тип кузова нельзя удалить",
        ));
    }
    let cars: i64 = conn.query_row(
        "SELECT count(*) FROM cars WHERE body_type = ?1",
        [body_type],
        |r| r.get(0),
    )?;
    if cars > 0 {
        return Err(AppError::conflict(
            None,
            format!("Тип кузова нельзя удалить: у него есть автомобили ({cars})"),
        ));
    }
    conn.execute("DELETE FROM body_types WHERE body_type = ?1", [body_type])?;
    Ok(true)
}

impl super::form::Form for BodyTypeCreate {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::required("bodyType", Kind::Text, SLUG_MESSAGE),
            Field::required("labelPlural", Kind::Text, "Название обязательно"),
            Field::required("labelSingle", Kind::Text, "Название обязательно"),
            Field::optional("imageUrl", Kind::Text),
            Field::optional("imageUrlMobile", Kind::Text),
        ]
    };
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
