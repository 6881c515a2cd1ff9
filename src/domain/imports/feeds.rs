//! A dealer's feeds (`docs/parser.md`, "Several feeds"): each a URL or a
//! file uploaded again and again, with its own schedule and the condition
//! of its cars when a record says nothing, in an order that says whose
//! values win for a car two feeds list. Read, checked, saved, reordered,
//! deleted, and marked when a scheduled run starts.

use super::report::SourceKind;
use crate::domain::cars::CarStatus;
use crate::domain::text_enum;
use crate::error::{AppError, AppResult};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

text_enum!(
    /// What a feed's cars are when a record does not say: `record` (as the
    /// record says, else new), `new` or `used` (when the record does not
    /// say), `lease` (every car of the feed is lease-to-own).
    FeedCondition { Record = "record", New = "new", Used = "used", Lease = "lease" }
);

impl FeedCondition {
    /// A car's condition: the admin's choice for the whole preview, else a
    /// lease feed's, else what the record says, else the feed's default.
    pub fn of_car(self, chosen: Option<CarStatus>, record: Option<CarStatus>) -> CarStatus {
        chosen
            .or((self == FeedCondition::Lease).then_some(CarStatus::Lease))
            .or(record)
            .unwrap_or(match self {
                FeedCondition::Used => CarStatus::Used,
                FeedCondition::Lease => CarStatus::Lease,
                FeedCondition::Record | FeedCondition::New => CarStatus::New,
            })
    }

    pub fn label(self) -> &'static str {
        match self {
            FeedCondition::Record => "по данным фида (без данных — новые)",
            FeedCondition::New => "новые, если фид не говорит иначе",
            FeedCondition::Used => "с пробегом, если фид не говорит иначе",
            FeedCondition::Lease => "все — аренда с выкупом",
        }
    }
}

/// One feed.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Feed {
    pub id: String,
    pub name: String,
    pub kind: SourceKind,
    /// The URL, or the name of the file last uploaded.
    pub source: String,
    /// Hours between scheduled runs; 0: off (always 0 for a file).
    pub interval_hours: u32,
    pub condition: FeedCondition,
    /// 1 = the first: its values win for a car other feeds list too.
    pub position: i64,
    pub last_run_at: Option<String>,
    /// When the schedule runs it next (none: no schedule).
    pub next_run_at: Option<String>,
    /// Cars the feed lists now.
    pub cars: i64,
    /// The salon its new cars stand in (`docs/salons.md`); absent: the
    /// main salon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salon_id: Option<i64>,
}

/// A feed as an admin adds or changes it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FeedInput {
    /// 1 to 100 characters.
    pub name: String,
    pub kind: SourceKind,
    /// The URL (required for `url`); ignored for a file.
    #[serde(default)]
    pub url: Option<String>,
    /// 0 (off) to 168; only for a URL.
    #[serde(default)]
    pub interval_hours: u32,
    #[serde(default = "record")]
    pub condition: FeedCondition,
    /// The salon its new cars stand in; absent or 1: the main salon.
    #[serde(default)]
    pub salon_id: Option<i64>,
}

fn record() -> FeedCondition {
    FeedCondition::Record
}

/// Longest feed URL.
pub const MAX_FEED_URL: usize = 2000;
pub const MAX_INTERVAL_HOURS: u32 = 168;
pub const MAX_FEED_NAME: usize = 100;
/// Feeds one site may have.
pub const MAX_FEEDS: i64 = 50;
pub const FEED_NOT_FOUND: &str = "Фид не найден";

const COLUMNS: &str = "f.id, f.name, f.source_kind, f.source, f.interval_hours, f.condition,
    f.position, f.last_run_at,
    (SELECT count(*) FROM feed_cars fc WHERE fc.feed_id = f.id AND fc.listed = 1), f.salon_id";

fn read(row: &rusqlite::Row) -> rusqlite::Result<Feed> {
    let interval_hours: u32 = row.get(4)?;
    let last_run_at: Option<String> = row.get(7)?;
    let next_run_at =
        (interval_hours > 0).then(|| next_run(last_run_at.as_deref(), interval_hours));
    Ok(Feed {
        id: row.get(0)?,
        name: row.get(1)?,
        kind: row.get(2)?,
        source: row.get(3)?,
        interval_hours,
        condition: row.get(5)?,
        position: row.get::<_, i64>(6)? + 1,
        last_run_at,
        next_run_at,
        cars: row.get(8)?,
        salon_id: row.get(9)?,
    })
}

fn next_run(last: Option<&str>, hours: u32) -> String {
    match last.map(chrono::DateTime::parse_from_rfc3339) {
        Some(Ok(last)) => (last + chrono::Duration::hours(i64::from(hours)))
            .with_timezone(&chrono::Utc)
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        _ => crate::domain::now(),
    }
}

/// Every feed, in their order.
pub fn list_feeds(conn: &Connection) -> AppResult<Vec<Feed>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM import_feeds f ORDER BY f.position, f.created_at, f.id"
    ))?;
    let rows = stmt.query_map([], read)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get_feed(conn: &Connection, id: &str) -> AppResult<Option<Feed>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM import_feeds f WHERE f.id = ?1"
        ))?
        .query_row([id], read)
        .optional()?)
}

/// The feed's checked values: its name, source and interval.
fn checked(input: &FeedInput) -> AppResult<(String, Option<String>, u32)> {
    let name = input.name.trim().to_string();
    if name.is_empty() {
        return Err(AppError::invalid("name", "Укажите название фида"));
    }
    crate::domain::check_len("name", "Название фида", &name, MAX_FEED_NAME)?;
    if input.interval_hours > MAX_INTERVAL_HOURS {
        return Err(AppError::invalid(
            "intervalHours",
            format!("Интервал — от 0 до {MAX_INTERVAL_HOURS} часов (0 — выключено)"),
        ));
    }
    match input.kind {
        SourceKind::File => {
            if input.interval_hours > 0 {
                return Err(AppError::invalid(
                    "intervalHours",
                    "Расписание — только для фида по адресу: файл загружают вручную",
                ));
            }
            Ok((name, None, 0))
        }
        SourceKind::Url => {
            let Some(url) = crate::domain::non_empty(input.url.clone()) else {
                return Err(AppError::invalid("url", "Укажите адрес фида"));
            };
            crate::domain::check_len("url", "Адрес фида", &url, MAX_FEED_URL)?;
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(AppError::invalid(
                    "url",
                    "Адрес фида должен начинаться с http:// или https://",
                ));
            }
            Ok((name, Some(url), input.interval_hours))
        }
    }
}

fn url_taken(conn: &Connection, url: &str, except: Option<&str>) -> AppResult<()> {
    let other: Option<String> = conn
        .query_row(
            "SELECT name FROM import_feeds WHERE source_kind = 'url' AND source = ?1
                AND id IS NOT ?2",
            params![url, except],
            |r| r.get(0),
        )
        .optional()?;
    match other {
        Some(name) => Err(AppError::conflict(
            Some("url"),
            format!("Этот адрес уже у фида «{name}»"),
        )),
        None => Ok(()),
    }
}

/// The stored salon of a feed's input (NULL: the main); an unknown salon
/// is refused.
fn feed_salon(conn: &Connection, input: &FeedInput) -> AppResult<Option<i64>> {
    match input.salon_id {
        Some(id) if !crate::domain::salons::exists(conn, id)? => Err(AppError::invalid(
            "salonId",
            crate::domain::salons::NO_SUCH_SALON,
        )),
        Some(id) => Ok(crate::domain::salons::column(id)),
        None => Ok(None),
    }
}

/// Adds a feed at the end of the list.
pub fn create_feed(conn: &Connection, input: &FeedInput) -> AppResult<Feed> {
    let (name, url, interval) = checked(input)?;
    let salon = feed_salon(conn, input)?;
    let count: i64 = conn.query_row("SELECT count(*) FROM import_feeds", [], |r| r.get(0))?;
    if count >= MAX_FEEDS {
        return Err(AppError::conflict(
            None,
            format!("Фидов не может быть больше {MAX_FEEDS}"),
        ));
    }
    if let Some(url) = &url {
        url_taken(conn, url, None)?;
    }
    let id = crate::domain::new_ordered_id();
    let now = crate::domain::now();
    conn.execute(
        "INSERT INTO import_feeds (id, name, source_kind, source, interval_hours, condition,
            position, created_at, updated_at, salon_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6,
            (SELECT coalesce(max(position) + 1, 0) FROM import_feeds), ?7, ?7, ?8)",
        params![
            id,
            name,
            input.kind,
            url.unwrap_or_else(|| name.clone()),
            interval,
            input.condition,
            now,
            salon
        ],
    )?;
    get_feed(conn, &id)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("feed vanished")))
}

/// Changes a feed; a feed's kind stays what it was.
pub fn update_feed(conn: &Connection, id: &str, input: &FeedInput) -> AppResult<Option<Feed>> {
    let Some(before) = get_feed(conn, id)? else {
        return Ok(None);
    };
    if before.kind != input.kind {
        return Err(AppError::invalid(
            "kind",
            "Вид фида не меняется: добавьте новый фид",
        ));
    }
    let (name, url, interval) = checked(input)?;
    let salon = feed_salon(conn, input)?;
    if let Some(url) = &url {
        url_taken(conn, url, Some(id))?;
    }
    conn.execute(
        "UPDATE import_feeds SET name = ?2, source = coalesce(?3, source), interval_hours = ?4,
            condition = ?5, updated_at = ?6, salon_id = ?7 WHERE id = ?1",
        params![
            id,
            name,
            url,
            interval,
            input.condition,
            crate::domain::now(),
            salon
        ],
    )?;
    get_feed(conn, id)
}

/// Deletes a feed and its memory of its cars; the cars stay as they are
/// (on the site or not), no longer any feed's unless another lists them.
pub fn delete_feed(conn: &Connection, id: &str) -> AppResult<Option<Feed>> {
    let Some(feed) = get_feed(conn, id)? else {
        return Ok(None);
    };
    conn.execute("DELETE FROM import_feeds WHERE id = ?1", [id])?;
    Ok(Some(feed))
}

/// Puts the feeds in the given order (every feed's id, once).
pub fn reorder_feeds(conn: &Connection, ids: &[String]) -> AppResult<Vec<Feed>> {
    let feeds = list_feeds(conn)?;
    let mut given: Vec<&String> = ids.iter().collect();
    given.sort();
    given.dedup();
    let mut all: Vec<&String> = feeds.iter().map(|f| &f.id).collect();
    all.sort();
    if given.len() != ids.len() || given != all {
        return Err(AppError::invalid(
            "ids",
            "Передайте каждый фид ровно один раз, в новом порядке",
        ));
    }
    let mut stmt = conn.prepare_cached("UPDATE import_feeds SET position = ?2 WHERE id = ?1")?;
    for (position, id) in (0_i64..).zip(ids) {
        stmt.execute(params![id, position])?;
    }
    list_feeds(conn)
}

/// The feed of a one-off import: the feed with that URL, or the file feed
/// of that name, made when there is none.
pub fn feed_for_source(conn: &Connection, kind: SourceKind, source: &str) -> AppResult<Feed> {
    let found: Option<String> = conn
        .query_row(
            "SELECT id FROM import_feeds WHERE source_kind = ?1 AND source = ?2
             ORDER BY position LIMIT 1",
            params![kind, source],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(id) = found {
        return get_feed(conn, &id)?
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("feed vanished")));
    }
    let name: String = match kind {
        SourceKind::Url => reqwest::Url::parse(source)
            .ok()
            .and_then(|u| u.host_str().map(|h| format!("{h}{}", u.path())))
            .unwrap_or_else(|| source.to_string()),
        SourceKind::File => source.to_string(),
    }
    .chars()
    .take(MAX_FEED_NAME)
    .collect();
    let feed = create_feed(
        conn,
        &FeedInput {
            name,
            kind,
            url: (kind == SourceKind::Url).then(|| source.to_string()),
            interval_hours: 0,
            condition: FeedCondition::Record,
            salon_id: None,
        },
    )?;
    if kind == SourceKind::File {
        conn.execute(
            "UPDATE import_feeds SET source = ?2 WHERE id = ?1",
            params![feed.id, source],
        )?;
    }
    Ok(feed)
}

/// A file feed remembers the name of the file last uploaded to it.
pub fn note_file(conn: &Connection, id: &str, file_name: &str) -> AppResult<()> {
    conn.execute(
        "UPDATE import_feeds SET source = ?2 WHERE id = ?1 AND source_kind = 'file'",
        params![id, file_name],
    )?;
    Ok(())
}

/// The feeds whose schedule is due at `now`.
pub fn due_feeds(conn: &Connection, now: chrono::DateTime<chrono::Utc>) -> AppResult<Vec<Feed>> {
    Ok(list_feeds(conn)?
        .into_iter()
        .filter(|f| f.kind == SourceKind::Url && f.interval_hours > 0)
        .filter(|f| {
            match f
                .last_run_at
                .as_deref()
                .map(chrono::DateTime::parse_from_rfc3339)
            {
                Some(Ok(last)) => {
                    now.signed_duration_since(last)
                        >= chrono::Duration::hours(i64::from(f.interval_hours))
                }
                _ => true,
            }
        })
        .collect())
}

/// Notes that a feed's scheduled run started now.
pub fn mark_scheduled_run(conn: &Connection, id: &str) -> AppResult<()> {
    conn.execute(
        "UPDATE import_feeds SET last_run_at = ?2 WHERE id = ?1",
        params![id, crate::domain::now()],
    )?;
    Ok(())
}
