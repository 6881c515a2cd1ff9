//! What the staff write on a lead (`docs/leads.md`, "Who answers a lead"):
//! notes of a call, an agreed visit, in the order written. A comment keeps
//! its author's name as it was; it goes when the lead is deleted.

use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

/// The longest comment, in characters.
pub const MAX_CHARS: usize = 2000;
/// The most comments a lead lists (the oldest beyond it are not shown).
pub const LIST_LIMIT: u32 = 500;
pub const EMPTY: &str = "Напишите комментарий";
pub const TOO_LONG: &str = "Комментарий: не длиннее 2000 символов";

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadComment {
    pub id: i64,
    pub lead_id: String,
    /// The author's account; null once it was deleted.
    pub author_id: Option<String>,
    /// The author's name (or login) when they wrote it.
    pub author_name: String,
    pub body: String,
    pub created_at: String,
}

/// A new comment.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewComment {
    /// 1 to 2000 characters; spaces around are trimmed.
    #[schema(example = "Перезвонил, договорились о визите в субботу")]
    pub body: String,
}

impl NewComment {
    /// The trimmed text, or the refusal.
    pub fn text(&self) -> AppResult<String> {
        let body = self.body.trim();
        if body.is_empty() {
            return Err(AppError::invalid("body", EMPTY));
        }
        if body.chars().count() > MAX_CHARS {
            return Err(AppError::invalid("body", TOO_LONG));
        }
        Ok(body.to_string())
    }
}

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LeadComment> {
    Ok(LeadComment {
        id: r.get(0)?,
        lead_id: r.get(1)?,
        author_id: r.get(2)?,
        author_name: r.get(3)?,
        body: r.get(4)?,
        created_at: r.get(5)?,
    })
}

/// A lead's comments, oldest first (the newest `LIST_LIMIT`).
pub fn list(conn: &Connection, lead_id: &str) -> AppResult<Vec<LeadComment>> {
    let mut stmt = conn.prepare_cached(
        "SELECT * FROM (
             SELECT id, lead_id, author_id, author_name, body, created_at
             FROM lead_comments WHERE lead_id = ?1 ORDER BY id DESC LIMIT ?2)
         ORDER BY id",
    )?;
    let rows = stmt.query_map(params![lead_id, LIST_LIMIT], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Stores a comment on an existing lead by `author` (id and shown name).
pub fn add(
    conn: &Connection,
    lead_id: &str,
    author: (&str, &str),
    body: &str,
) -> AppResult<LeadComment> {
    let id = conn
        .prepare_cached(
            "INSERT INTO lead_comments (lead_id, author_id, author_name, body, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        )?
        .query_row(
            params![lead_id, author.0, author.1, body, super::now()],
            |r| r.get::<_, i64>(0),
        )?;
    Ok(conn
        .prepare_cached(
            "SELECT id, lead_id, author_id, author_name, body, created_at
             FROM lead_comments WHERE id = ?1",
        )?
        .query_row([id], from_row)?)
}
