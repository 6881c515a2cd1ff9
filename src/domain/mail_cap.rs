//! Mail a stranger can trigger is capped (docs/saved-searches.md, "Mail a
//! stranger can trigger"). Anyone may type any address into a public form,
//! so each mail a visitor's request would send to that address (today: the
//! saved searches' confirmation) asks [`admit`] first, in the transaction
//! that queues it: at most [`PER_ADDRESS`] such mails per address in any 24
//! hours, and at most the settings' `visitorMailDailyLimit` for the whole
//! site. Past either the request is answered as before and nothing is
//! queued; the held mail is counted for the admin ([`figures`]).
//!
//! The ledger (`visitor_mail_ledger`, V26) holds no address in clear: the
//! SHA-256 of the address's comparison key (`email::canonical`), kept for 24 hours and
//! unlinked when its person is erased ([`forget_address`]).

use chrono::{DateTime, Duration, SecondsFormat, Utc};
use rusqlite::{Connection, params};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::outbox::Kind;
use crate::error::AppResult;

/// Visitor-triggered mails one address may get in any 24 hours.
pub const PER_ADDRESS: i64 = 3;
/// The rolling window of both caps, in hours.
pub const WINDOW_HOURS: i64 = 24;

/// The site's total a day: default and bounds (the settings' field).
pub const DEFAULT_DAILY_LIMIT: i64 = 300;
pub const DAILY_LIMIT_MIN: i64 = 1;
pub const DAILY_LIMIT_MAX: i64 = 10_000;
pub const DAILY_LIMIT_FIELD: &str = "visitorMailDailyLimit";
pub const DAILY_LIMIT_RANGE: &str = "Писем посетителям в сутки — от 1 до 10 000";

/// The ledger's key of an address: SHA-256 (hex) of its comparison key
/// (`email::canonical`), so every spelling of one address counts as one.
pub fn address_hash(email: &str) -> String {
    hex::encode(Sha256::digest(super::email::canonical(email).as_bytes()))
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn window_start(now: DateTime<Utc>) -> String {
    stamp(now - Duration::hours(WINDOW_HOURS))
}

/// Deletes the rows older than the window: nothing needs them.
pub fn forget_old(conn: &Connection, now: DateTime<Utc>) -> AppResult<usize> {
    Ok(conn
        .prepare_cached("DELETE FROM visitor_mail_ledger WHERE at <= ?1")?
        .execute([window_start(now)])?)
}

/// Whether a visitor-triggered mail of `kind` to `email` may be queued now:
/// records it as sent or held. Call it in the transaction that queues the
/// mail, so two requests at once cannot both pass the last free place.
pub fn admit(
    conn: &Connection,
    email: &str,
    kind: Kind,
    daily_limit: i64,
    now: DateTime<Utc>,
) -> AppResult<bool> {
    forget_old(conn, now)?;
    let hash = address_hash(email);
    let since = window_start(now);
    let to_address: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM visitor_mail_ledger
             WHERE address_hash = ?1 AND at > ?2 AND held = 0",
        )?
        .query_row(params![hash, since], |r| r.get(0))?;
    let site: i64 = conn
        .prepare_cached("SELECT count(*) FROM visitor_mail_ledger WHERE at > ?1 AND held = 0")?
        .query_row([&since], |r| r.get(0))?;
    let allowed = to_address < PER_ADDRESS && site < daily_limit;
    conn.prepare_cached(
        "INSERT INTO visitor_mail_ledger (address_hash, kind, at, held) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![hash, kind, stamp(now), !allowed])?;
    if !allowed {
        tracing::info!(
            kind = kind.as_str(),
            per_address = to_address >= PER_ADDRESS,
            "visitor mail held by the cap"
        );
    }
    Ok(allowed)
}

/// Unlinks an erased person's rows from their address: they still count
/// for the site's total and the held figure.
pub fn forget_address(conn: &Connection, email: &str) -> AppResult<usize> {
    Ok(conn
        .prepare_cached(
            "UPDATE visitor_mail_ledger SET address_hash = NULL WHERE address_hash = ?1",
        )?
        .execute([address_hash(email)])?)
}

/// The caps' figures of the last 24 hours, for the admin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VisitorMailFigures {
    /// Mails not queued because of a cap in the last 24 hours.
    pub held_last_day: i64,
    /// Visitor-triggered mails queued in the last 24 hours.
    pub sent_last_day: i64,
    /// The site's total in any 24 hours (the settings' `visitorMailDailyLimit`).
    pub daily_limit: i64,
    /// Mails one address may get in any 24 hours.
    pub per_address_limit: i64,
}

pub fn figures(
    conn: &Connection,
    daily_limit: i64,
    now: DateTime<Utc>,
) -> AppResult<VisitorMailFigures> {
    let (held, sent): (i64, i64) = conn
        .prepare_cached(
            "SELECT coalesce(sum(held), 0), coalesce(sum(1 - held), 0)
             FROM visitor_mail_ledger WHERE at > ?1",
        )?
        .query_row([window_start(now)], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(VisitorMailFigures {
        held_last_day: held,
        sent_last_day: sent,
        daily_limit,
        per_address_limit: PER_ADDRESS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_is_hashed_by_its_comparison_key() {
        assert_eq!(
            address_hash(" Anna@Example.RU "),
            address_hash("anna@example.ru")
        );
        assert_eq!(
            address_hash("Зоя.Тест@Почта.рф"),
            address_hash("зоя.тест@xn--80a1acny.xn--p1ai")
        );
        assert_eq!(address_hash("anna@example.ru").len(), 64);
        assert_ne!(
            address_hash("anna@example.ru"),
            address_hash("anna@example.com")
        );
    }
}
