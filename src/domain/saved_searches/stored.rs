//! A subscription as stored (its row, one by id) and the links' tokens:
//! issued with only their hash kept, and found again.

use super::search::SearchFilter;
use crate::domain::money::Money;
use crate::error::AppResult;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

pub(super) fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub(super) fn random_token() -> String {
    URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>())
}

pub(super) fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Issues a token: stores its hash, gives the token itself (for the mail).
pub(super) fn issue_token(
    conn: &Connection,
    purpose: &str,
    subscription_id: Option<&str>,
    email: &str,
    now: &str,
) -> AppResult<String> {
    let token = random_token();
    conn.prepare_cached(
        "INSERT INTO saved_search_tokens (token_hash, purpose, subscription_id, email, created_at, email_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        hash_token(&token),
        purpose,
        subscription_id,
        email,
        now,
        crate::domain::email::canonical(email)
    ])?;
    Ok(token)
}

/// A subscription with its search, as the mails and links need it.
#[derive(Debug, Clone)]
pub struct Subscription {
    pub id: String,
    pub search_id: String,
    pub email: String,
    pub page_url: String,
    pub description: String,
    pub filter: SearchFilter,
    pub created_at: String,
    pub confirmed_at: Option<String>,
    pub unsubscribed_at: Option<String>,
    pub last_alert_at: Option<String>,
}

impl Subscription {
    /// Confirmed and not unsubscribed: alerts may go.
    pub fn is_active(&self) -> bool {
        self.confirmed_at.is_some() && self.unsubscribed_at.is_none()
    }
}

pub(super) const SELECT_SUBSCRIPTION: &str =
    "SELECT s.id, s.search_id, s.email, s.page_url, q.description,
    q.status, q.brand_id, q.body_type, q.max_price_kopecks, s.created_at, s.confirmed_at,
    s.unsubscribed_at, s.last_alert_at
    FROM saved_search_subscriptions s JOIN saved_searches q ON q.id = s.search_id";

pub(super) fn subscription_row(r: &rusqlite::Row) -> rusqlite::Result<Subscription> {
    Ok(Subscription {
        id: r.get(0)?,
        search_id: r.get(1)?,
        email: r.get(2)?,
        page_url: r.get(3)?,
        description: r.get(4)?,
        filter: SearchFilter {
            status: r.get(5)?,
            brand_id: r.get(6)?,
            body_type: r.get(7)?,
            max_price: r.get::<_, Option<i64>>(8)?.map(|k| Money(k).rubles()),
        },
        created_at: r.get(9)?,
        confirmed_at: r.get(10)?,
        unsubscribed_at: r.get(11)?,
        last_alert_at: r.get(12)?,
    })
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Subscription>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT_SUBSCRIPTION} WHERE s.id = ?1"))?
        .query_row([id], subscription_row)
        .optional()?)
}

/// A token's purpose, subscription, address and time of issue.
pub(super) type TokenRow = (String, Option<String>, String, String);

/// A token's row, when the token is known.
pub(super) fn find_token(conn: &Connection, token: &str) -> AppResult<Option<TokenRow>> {
    if token.is_empty() || token.len() > 200 {
        return Ok(None);
    }
    Ok(conn
        .prepare_cached(
            "SELECT purpose, subscription_id, email, created_at FROM saved_search_tokens
             WHERE token_hash = ?1",
        )?
        .query_row([hash_token(token)], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()?)
}
