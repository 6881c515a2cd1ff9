//! The parser's schedule: the feed address and the hours between runs, read,
//! checked, saved and marked when a scheduled run starts.

use crate::error::{AppError, AppResult};
use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The schedule of the parser.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub feed_url: Option<String>,
    /// Hours between runs; 0: off.
    pub interval_hours: u32,
    pub last_run_at: Option<String>,
}

pub fn schedule(conn: &Connection) -> AppResult<Schedule> {
    Ok(conn.query_row(
        "SELECT feed_url, interval_hours, last_run_at FROM parser_settings WHERE id = 1",
        [],
        |r| {
            Ok(Schedule {
                feed_url: r.get(0)?,
                interval_hours: r.get(1)?,
                last_run_at: r.get(2)?,
            })
        },
    )?)
}

/// Longest feed URL.
pub const MAX_FEED_URL: usize = 2000;
pub const MAX_INTERVAL_HOURS: u32 = 168;

/// Saves the schedule's URL and interval (validated).
pub fn save_schedule(
    conn: &Connection,
    feed_url: Option<String>,
    interval_hours: u32,
) -> AppResult<Schedule> {
    let feed_url = crate::domain::non_empty(feed_url);
    if interval_hours > MAX_INTERVAL_HOURS {
        return Err(AppError::invalid(
            "intervalHours",
            format!("Интервал — от 0 до {MAX_INTERVAL_HOURS} часов (0 — выключено)"),
        ));
    }
    if interval_hours > 0 && feed_url.is_none() {
        return Err(AppError::invalid("feedUrl", "Укажите адрес фида"));
    }
    if let Some(url) = &feed_url {
        crate::domain::check_len("feedUrl", "Адрес фида", url, MAX_FEED_URL)?;
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(AppError::invalid(
                "feedUrl",
                "Адрес фида должен начинаться с http:// или https://",
            ));
        }
    }
    conn.execute(
        "UPDATE parser_settings SET feed_url = ?1, interval_hours = ?2, updated_at = ?3 WHERE id = 1",
        params![feed_url, interval_hours, crate::domain::now()],
    )?;
    schedule(conn)
}

/// Notes that a scheduled run started now.
pub fn mark_scheduled_run(conn: &Connection) -> AppResult<()> {
    conn.execute(
        "UPDATE parser_settings SET last_run_at = ?1 WHERE id = 1",
        [crate::domain::now()],
    )?;
    Ok(())
}
