//! Partner banks of the auto credit page; only active ones are public.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerBank {
    pub id: String,
    pub name: String,
    pub logo: String,
    pub requirements: String,
    /// Comma-separated, shown as chips.
    pub advantages: String,
    pub active: bool,
    /// The offer's ad token (erid), empty when none: a bank's offer is an
    /// ad (`docs/advertising.md`).
    pub ad_erid: String,
    /// The advertiser as the mark names it; empty: the bank's name.
    pub ad_advertiser: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerBankInput {
    pub name: String,
    #[serde(default)]
    pub logo: String,
    #[serde(default)]
    pub requirements: String,
    #[serde(default)]
    pub advantages: String,
    #[serde(default = "yes")]
    pub active: bool,
    #[serde(default)]
    pub ad_erid: String,
    #[serde(default)]
    pub ad_advertiser: String,
}

fn yes() -> bool {
    true
}

const SELECT: &str =
    "SELECT id, name, logo, requirements, advantages, active, ad_erid, ad_advertiser,
    created_at, updated_at FROM partner_banks";

fn from_row(row: &Row) -> rusqlite::Result<PartnerBank> {
    Ok(PartnerBank {
        id: row.get("id")?,
        name: row.get("name")?,
        logo: row.get("logo")?,
        requirements: row.get("requirements")?,
        advantages: row.get("advantages")?,
        active: row.get("active")?,
        ad_erid: row.get("ad_erid")?,
        ad_advertiser: row.get("ad_advertiser")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
    })
}

pub fn list(conn: &Connection, active_only: bool) -> AppResult<Vec<PartnerBank>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE (active = 1 OR ?1 = 0) ORDER BY name COLLATE NOCASE, id"
    ))?;
    let rows = stmt.query_map([active_only], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<PartnerBank>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

pub fn validate(input: &PartnerBankInput) -> AppResult<()> {
    let required = [
        ("name", input.name.as_str(), "Название банка обязательно"),
        ("logo", input.logo.as_str(), "Логотип обязателен"),
        (
            "requirements",
            input.requirements.as_str(),
            "Требования обязательны",
        ),
        (
            "advantages",
            input.advantages.as_str(),
            "Преимущества обязательны",
        ),
    ];
    for (field, value, message) in required {
        if value.trim().is_empty() {
            return Err(AppError::invalid(field, message));
        }
    }
    super::check_len("name", "Название", &input.name, 255)?;
    super::check_len("requirements", "Требования", &input.requirements, 5000)?;
    super::check_len("advantages", "Преимущества", &input.advantages, 5000)?;
    super::check_len("logo", "Логотип", &input.logo, super::MAX_PICTURE_URL)?;
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
    input: &PartnerBankInput,
    at: &str,
) -> AppResult<usize> {
    Ok(conn.execute(
        sql,
        params![
            id,
            input.name.trim(),
            input.logo,
            input.requirements.trim(),
            input.advantages.trim(),
            input.active,
            at,
            super::ads::check_erid("adErid", &input.ad_erid)?,
            input.ad_advertiser.trim(),
        ],
    )?)
}

pub fn create(conn: &Connection, input: &PartnerBankInput) -> AppResult<PartnerBank> {
    validate(input)?;
    let id = super::new_id();
    write(
        conn,
        "INSERT INTO partner_banks (id, name, logo, requirements, advantages, active, created_at,
            updated_at, ad_erid, ad_advertiser)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9)",
        &id,
        input,
        &super::now(),
    )?;
    get(conn, &id)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("bank vanished")))
}

pub fn update(
    conn: &Connection,
    id: &str,
    input: &PartnerBankInput,
) -> AppResult<Option<PartnerBank>> {
    validate(input)?;
    let changed = write(
        conn,
        "UPDATE partner_banks SET name = ?2, logo = ?3, requirements = ?4, advantages = ?5,
            active = ?6, updated_at = ?7, ad_erid = ?8, ad_advertiser = ?9
         WHERE id = ?1",
        id,
        input,
        &super::now(),
    )?;
    super::read_again(changed, || get(conn, id))
}

/// The show/hide toggle.
pub fn set_active(conn: &Connection, id: &str, active: bool) -> AppResult<Option<PartnerBank>> {
    let changed = conn.execute(
        "UPDATE partner_banks SET active = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, active, super::now()],
    )?;
    super::read_again(changed, || get(conn, id))
}

pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM partner_banks WHERE id = ?1", [id])? > 0)
}

impl super::form::Form for PartnerBankInput {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::required("name", Kind::Text, "Название банка обязательно"),
            Field::required("logo", Kind::Text, "Логотип обязателен"),
            Field::required("requirements", Kind::Text, "Требования обязательны"),
            Field::required("advantages", Kind::Text, "Преимущества обязательны"),
            Field::optional("active", Kind::Bool),
            Field::optional("adErid", Kind::Text),
            Field::optional("adAdvertiser", Kind::Text),
        ]
    };
}
