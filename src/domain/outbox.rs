//! The notification outbox: one row per lead and channel, queued in the
//! transaction that stores the lead and worked off by `crate::notify`
//! (docs/notifications.md).

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

use super::text_enum;
use crate::error::AppResult;

text_enum!(
    /// Where a lead is delivered.
    Channel {
        Email = "email",
        Telegram = "telegram",
        Amocrm = "amocrm",
    }
);

text_enum!(
    /// What a row delivers: a new lead to the staff, a reminder of a lead
    /// still new past the response threshold, a saved search's
    /// confirmation or alert to a visitor, or a lead to the staff member
    /// it was given to (docs/notifications.md).
    Kind {
        Lead = "lead",
        Reminder = "reminder",
        SearchConfirm = "search_confirm",
        SearchAlert = "search_alert",
        Assigned = "assigned",
    }
);

text_enum!(
    /// A delivery's state as the admin sees it: `queued` (waiting for its
    /// next try), `sending` (a try is under way), `sent`, `failed` (given up).
    DeliveryState {
        Queued = "queued",
        Sending = "sending",
        Sent = "sent",
        Failed = "failed",
    }
);

/// One channel's delivery of a lead.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: i64,
    pub kind: Kind,
    pub channel: Channel,
    pub state: DeliveryState,
    /// Tries made so far.
    pub attempts: i64,
    pub created_at: String,
    pub sent_at: Option<String>,
    /// What went wrong the last time (no passwords or tokens).
    pub last_error: Option<String>,
    /// When the next try is due (queued deliveries only).
    pub next_attempt_at: Option<String>,
}

/// A failed delivery with its lead, for the dashboard.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedDelivery {
    #[serde(flatten)]
    pub delivery: Delivery,
    pub lead_id: Option<String>,
    /// The lead's name and phone, empty when the lead was deleted.
    pub lead_name: String,
    pub lead_phone: String,
}

/// A row a worker took to deliver.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub id: i64,
    pub kind: Kind,
    pub channel: Channel,
    pub lead_id: Option<String>,
    /// What a row that is not about a lead delivers (a saved search's
    /// subscription); `{}` for leads; a reminder's `{"waitingMinutes": N}`.
    pub payload: serde_json::Value,
    /// Tries including this one.
    pub attempts: i64,
    pub created_at: String,
    pub retry_since: String,
}

/// Queues one delivery of `lead_id` per channel, due at once.
pub fn enqueue(conn: &Connection, lead_id: &str, channels: &[Channel], now: &str) -> AppResult<()> {
    enqueue_kind(
        conn,
        Kind::Lead,
        Some(lead_id),
        &serde_json::Value::Object(Default::default()),
        channels,
        now,
    )
}

/// Queues one delivery of any kind per channel, due at once.
pub fn enqueue_kind(
    conn: &Connection,
    kind: Kind,
    lead_id: Option<&str>,
    payload: &serde_json::Value,
    channels: &[Channel],
    now: &str,
) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO outbox (kind, channel, lead_id, payload, status, attempts, next_attempt_at,
            created_at, retry_since)
         VALUES (?1, ?2, ?3, ?4, 'pending', 0, ?5, ?5, ?5)",
    )?;
    let payload = payload.to_string();
    for channel in channels {
        stmt.execute(params![kind, channel, lead_id, payload, now])?;
    }
    Ok(())
}

/// Makes every row still claimed due at once: run at start-up, when no
/// worker can hold one, so these were interrupted (kill -9, a crash).
pub fn release_interrupted(conn: &Connection, now: &str) -> AppResult<usize> {
    Ok(conn.execute(
        "UPDATE outbox SET claimed_at = NULL, next_attempt_at = ?1
         WHERE status = 'pending' AND claimed_at IS NOT NULL",
        [now],
    )?)
}

/// Takes up to `limit` due rows of `channel` (oldest due first): counts the
/// try and moves their next try to `lease_until`, so a row whose worker
/// died is tried again then.
pub fn claim(
    conn: &Connection,
    channel: Channel,
    limit: usize,
    now: &str,
    lease_until: &str,
) -> AppResult<Vec<Claimed>> {
    let mut stmt = conn.prepare_cached(
        "UPDATE outbox SET attempts = attempts + 1, claimed_at = ?2, next_attempt_at = ?3
         WHERE id IN (SELECT id FROM outbox
                      WHERE status = 'pending' AND channel = ?1 AND next_attempt_at <= ?2
                      ORDER BY next_attempt_at, id LIMIT ?4)
         RETURNING id, kind, channel, lead_id, payload, attempts, created_at,
            coalesce(retry_since, created_at) AS retry_since",
    )?;
    let rows = stmt.query_map(params![channel, now, lease_until, limit as i64], |r| {
        Ok(Claimed {
            id: r.get("id")?,
            kind: r.get("kind")?,
            channel: r.get("channel")?,
            lead_id: r.get("lead_id")?,
            payload: super::json_column(&r.get::<_, String>("payload")?),
            attempts: r.get("attempts")?,
            created_at: r.get("created_at")?,
            retry_since: r.get("retry_since")?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The earliest time a pending row of `channel` is due, claimed ones included.
pub fn next_due(conn: &Connection, channel: Channel) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending' AND channel = ?1",
        )?
        .query_row([channel], |r| r.get::<_, Option<String>>(0))
        .optional()?
        .flatten())
}

pub fn mark_sent(conn: &Connection, id: i64, now: &str) -> AppResult<()> {
    conn.prepare_cached(
        "UPDATE outbox SET status = 'sent', sent_at = ?2, claimed_at = NULL, last_error = NULL
         WHERE id = ?1",
    )?
    .execute(params![id, now])?;
    Ok(())
}

/// Records a failed try and when the next one is due.
pub fn mark_retry(conn: &Connection, id: i64, error: &str, next_at: &str) -> AppResult<()> {
    conn.prepare_cached(
        "UPDATE outbox SET claimed_at = NULL, last_error = ?2, next_attempt_at = ?3 WHERE id = ?1",
    )?
    .execute(params![id, error, next_at])?;
    Ok(())
}

/// Gives up every queued delivery of `channel` (not claimed ones: their
/// tries record their own outcome). Gives how many.
pub fn fail_pending(conn: &Connection, channel: Channel, error: &str) -> AppResult<usize> {
    Ok(conn
        .prepare_cached(
            "UPDATE outbox SET status = 'failed', last_error = ?2
             WHERE status = 'pending' AND channel = ?1 AND claimed_at IS NULL",
        )?
        .execute(params![channel, error])?)
}

/// Removes a row that has nothing left to deliver.
pub fn delete(conn: &Connection, id: i64) -> AppResult<()> {
    conn.prepare_cached("DELETE FROM outbox WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// Gives a delivery up: it stays visible to the admin as failed.
pub fn mark_failed(conn: &Connection, id: i64, error: &str) -> AppResult<()> {
    conn.prepare_cached(
        "UPDATE outbox SET status = 'failed', claimed_at = NULL, last_error = ?2 WHERE id = ?1",
    )?
    .execute(params![id, error])?;
    Ok(())
}

const SELECT: &str = "SELECT o.id, o.kind, o.channel, o.status, o.attempts, o.created_at,
    o.sent_at, o.last_error, o.next_attempt_at, o.claimed_at, o.lead_id,
    coalesce(l.name, '') AS lead_name, coalesce(l.phone, '') AS lead_phone
    FROM outbox o LEFT JOIN leads l ON l.id = o.lead_id";

fn delivery(row: &Row) -> rusqlite::Result<Delivery> {
    let status: String = row.get("status")?;
    let claimed: Option<String> = row.get("claimed_at")?;
    let state = match status.as_str() {
        "sent" => DeliveryState::Sent,
        "failed" => DeliveryState::Failed,
        _ if claimed.is_some() => DeliveryState::Sending,
        _ => DeliveryState::Queued,
    };
    Ok(Delivery {
        id: row.get("id")?,
        kind: row.get("kind")?,
        channel: row.get("channel")?,
        state,
        attempts: row.get("attempts")?,
        created_at: row.get("created_at")?,
        sent_at: row.get("sent_at")?,
        last_error: row.get("last_error")?,
        next_attempt_at: match state {
            DeliveryState::Queued => Some(row.get("next_attempt_at")?),
            _ => None,
        },
    })
}

/// A lead's deliveries, one per channel, in the order they were queued.
pub fn for_lead(conn: &Connection, lead_id: &str) -> AppResult<Vec<Delivery>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE o.lead_id = ?1 ORDER BY o.id"))?;
    let rows = stmt.query_map([lead_id], delivery)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The visitor mails of a saved-search subscription (their payload names
/// it), oldest first.
pub fn for_subscription(conn: &Connection, subscription_id: &str) -> AppResult<Vec<Delivery>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE o.lead_id IS NULL AND json_extract(o.payload, '$.subscriptionId') = ?1
         ORDER BY o.id"
    ))?;
    let rows = stmt.query_map([subscription_id], delivery)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The visitor mails addressed to `email` in any spelling of it
/// (`email::canonical`; an alert's payload holds its address), oldest
/// first.
pub fn for_address(conn: &Connection, email: &str) -> AppResult<Vec<Delivery>> {
    Ok(addressed(conn, email)?
        .into_iter()
        .map(|(_, d)| d)
        .collect())
}

/// [`for_address`] with each mail's address as its payload spells it.
pub fn addressed(conn: &Connection, email: &str) -> AppResult<Vec<(String, Delivery)>> {
    let key = super::email::canonical(email);
    let columns = SELECT.replacen(
        " FROM outbox",
        ", json_extract(o.payload, '$.email') AS addressed_to FROM outbox",
        1,
    );
    let mut stmt = conn.prepare_cached(&format!(
        "{columns} WHERE o.lead_id IS NULL AND json_extract(o.payload, '$.email') IS NOT NULL
         ORDER BY o.id"
    ))?;
    let rows = stmt.query_map([], |r| {
        let to: String = r.get("addressed_to")?;
        Ok((to, delivery(r)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (to, found) = row?;
        if super::email::canonical(&to) == key {
            out.push((to, found));
        }
    }
    Ok(out)
}

/// Failed deliveries, newest first.
pub fn failed(conn: &Connection, limit: u32) -> AppResult<Vec<FailedDelivery>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE o.status = 'failed' ORDER BY o.id DESC LIMIT ?1"
    ))?;
    let rows = stmt.query_map([limit], |r| {
        Ok(FailedDelivery {
            delivery: delivery(r)?,
            lead_id: r.get("lead_id")?,
            lead_name: r.get("lead_name")?,
            lead_phone: r.get("lead_phone")?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn failed_count(conn: &Connection) -> AppResult<i64> {
    Ok(conn.query_row(
        "SELECT count(*) FROM outbox WHERE status = 'failed'",
        [],
        |r| r.get(0),
    )?)
}

/// Queues a lead's failed deliveries again (all, or one channel's), due at
/// once with a new round of tries. Gives how many.
pub fn retry_lead(
    conn: &Connection,
    lead_id: &str,
    channel: Option<Channel>,
    now: &str,
) -> AppResult<usize> {
    Ok(conn.execute(
        "UPDATE outbox SET status = 'pending', next_attempt_at = ?3, retry_since = ?3,
            claimed_at = NULL
         WHERE lead_id = ?1 AND status = 'failed' AND (?2 IS NULL OR channel = ?2)",
        params![lead_id, channel, now],
    )?)
}
