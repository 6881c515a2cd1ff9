//! A run's report and rows in storage, a line each (`import_run_items`,
//! `import_run_rows`): written a car at a time, the first items of each
//! list read with the run and the rest a page at a time, so a preview of
//! 20,000 cars never builds, parses or sends one document of them all
//! (`docs/parser.md`, "Limits and hostile input").

use super::report::{
    FIRST_ITEMS, ListSizes, PhotoError, Report, ReportList, ReportPage, RunCounts,
};
use crate::error::{AppError, AppResult};
use crate::parser::feed::{FeedCar, RowError};
use rusqlite::{Connection, OptionalExtension, Statement, params};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashSet;

pub(super) fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("import run: {e}"))
}

/// What a run's `report` column keeps: the report's parts that are not per
/// car.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportRest<'a> {
    new_brands: &'a [String],
    new_body_types: &'a [super::report::NewBodyType],
}

/// The counts of a report (a car with several warnings counts once).
pub(super) fn counts_of(report: &Report) -> RunCounts {
    RunCounts {
        new: report.new.len(),
        changed: report.changed.len(),
        unchanged: report.unchanged.len(),
        gone: report.gone.len(),
        left: report.left.len(),
        errors: report.errors.len(),
        warnings: report
            .warnings
            .iter()
            .map(|w| w.row)
            .collect::<HashSet<_>>()
            .len(),
    }
}

/// Writes each item of `items` as the list's next line, one JSON text at a
/// time in a buffer used again.
fn put<T: Serialize>(
    insert: &mut Statement,
    buffer: &mut Vec<u8>,
    run_id: &str,
    list: &str,
    items: &[T],
) -> AppResult<()> {
    for (position, item) in (0_i64..).zip(items) {
        buffer.clear();
        serde_json::to_writer(&mut *buffer, item).map_err(internal)?;
        let text = std::str::from_utf8(buffer).map_err(internal)?;
        insert.execute(params![run_id, list, position, text])?;
    }
    Ok(())
}

/// Stores a run's report in place of the one it had (its photo errors
/// stay): each list a line an item, the counts, the new brands and body
/// types.
pub(super) fn write_report(conn: &Connection, run_id: &str, report: &Report) -> AppResult<()> {
    conn.prepare_cached(
        "DELETE FROM import_run_items WHERE run_id = ?1 AND list != 'photoErrors'",
    )?
    .execute([run_id])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO import_run_items (run_id, list, position, item) VALUES (?1, ?2, ?3, ?4)",
    )?;
    let mut buffer = Vec::new();
    let b = &mut buffer;
    put(&mut insert, b, run_id, "new", &report.new)?;
    put(&mut insert, b, run_id, "changed", &report.changed)?;
    put(&mut insert, b, run_id, "unchanged", &report.unchanged)?;
    put(&mut insert, b, run_id, "gone", &report.gone)?;
    put(&mut insert, b, run_id, "left", &report.left)?;
    put(&mut insert, b, run_id, "errors", &report.errors)?;
    put(&mut insert, b, run_id, "warnings", &report.warnings)?;
    let rest = serde_json::to_string(&ReportRest {
        new_brands: &report.new_brands,
        new_body_types: &report.new_body_types,
    })
    .map_err(internal)?;
    let counts = serde_json::to_string(&counts_of(report)).map_err(internal)?;
    conn.prepare_cached("UPDATE import_runs SET report = ?2, counts = ?3 WHERE id = ?1")?
        .execute(params![run_id, rest, counts])?;
    Ok(())
}

/// Stores a preview's usable rows, a line each.
pub(super) fn write_rows(conn: &Connection, run_id: &str, rows: &[FeedCar]) -> AppResult<()> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO import_run_rows (run_id, position, car) VALUES (?1, ?2, ?3)",
    )?;
    let mut buffer = Vec::new();
    for (position, row) in (0_i64..).zip(rows) {
        buffer.clear();
        serde_json::to_writer(&mut buffer, row).map_err(internal)?;
        let text = std::str::from_utf8(&buffer).map_err(internal)?;
        insert.execute(params![run_id, position, text])?;
    }
    Ok(())
}

/// A preview's usable rows, in the feed's order.
pub(super) fn read_rows(conn: &Connection, run_id: &str) -> AppResult<Vec<FeedCar>> {
    let mut stmt =
        conn.prepare_cached("SELECT car FROM import_run_rows WHERE run_id = ?1 ORDER BY position")?;
    let mut rows = stmt.query([run_id])?;
    let mut cars = Vec::new();
    while let Some(row) = rows.next()? {
        let text = row.get_ref(0)?.as_str().map_err(internal)?;
        cars.push(serde_json::from_str(text).map_err(internal)?);
    }
    Ok(cars)
}

/// Forgets a run's rows (applied or discarded: nothing writes them again).
pub(super) fn clear_rows(conn: &Connection, run_id: &str) -> AppResult<()> {
    conn.prepare_cached("DELETE FROM import_run_rows WHERE run_id = ?1")?
        .execute([run_id])?;
    Ok(())
}

/// The errors the feed itself gave a run (not those the comparison added,
/// which name a usable row).
pub(super) fn feed_errors(
    conn: &Connection,
    run_id: &str,
    rows: &[FeedCar],
) -> AppResult<Vec<RowError>> {
    let usable: HashSet<u32> = rows.iter().map(|r| r.row).collect();
    let errors: Vec<RowError> = items(conn, run_id, ReportList::Errors, 0, usize::MAX)?;
    Ok(errors
        .into_iter()
        .filter(|e| !usable.contains(&e.row))
        .collect())
}

/// Items `offset..offset + limit` of a run's list.
fn items<T: DeserializeOwned>(
    conn: &Connection,
    run_id: &str,
    list: ReportList,
    offset: usize,
    limit: usize,
) -> AppResult<Vec<T>> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let mut stmt = conn.prepare_cached(
        "SELECT item FROM import_run_items WHERE run_id = ?1 AND list = ?2
         ORDER BY position LIMIT ?3 OFFSET ?4",
    )?;
    let mut rows = stmt.query(params![run_id, list, limit, offset])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        let text = row.get_ref(0)?.as_str().map_err(internal)?;
        found.push(serde_json::from_str(text).map_err(internal)?);
    }
    Ok(found)
}

/// How many items each list of a run holds.
pub(super) fn sizes(conn: &Connection, run_id: &str) -> AppResult<ListSizes> {
    let mut sizes = ListSizes::default();
    let mut stmt = conn.prepare_cached(
        "SELECT list, count(*) FROM import_run_items WHERE run_id = ?1 GROUP BY list",
    )?;
    let mut rows = stmt.query([run_id])?;
    while let Some(row) = rows.next()? {
        let list: ReportList = row.get(0)?;
        let size: i64 = row.get(1)?;
        sizes.set(list, usize::try_from(size).unwrap_or_default());
    }
    Ok(sizes)
}

/// The first [`FIRST_ITEMS`] of each list into `report` (which holds the
/// parts not per car), and of the photo errors.
pub(super) fn first_items(
    conn: &Connection,
    run_id: &str,
    report: &mut Report,
) -> AppResult<Vec<PhotoError>> {
    let n = FIRST_ITEMS;
    report.new = items(conn, run_id, ReportList::New, 0, n)?;
    report.changed = items(conn, run_id, ReportList::Changed, 0, n)?;
    report.unchanged = items(conn, run_id, ReportList::Unchanged, 0, n)?;
    report.gone = items(conn, run_id, ReportList::Gone, 0, n)?;
    report.left = items(conn, run_id, ReportList::Left, 0, n)?;
    report.errors = items(conn, run_id, ReportList::Errors, 0, n)?;
    report.warnings = items(conn, run_id, ReportList::Warnings, 0, n)?;
    items(conn, run_id, ReportList::PhotoErrors, 0, n)
}

/// Items `offset..offset + limit` of one list of a run; None when there is
/// no such run.
pub fn report_page(
    conn: &Connection,
    run_id: &str,
    list: ReportList,
    offset: usize,
    limit: usize,
) -> AppResult<Option<ReportPage>> {
    let found: Option<i64> = conn
        .prepare_cached("SELECT 1 FROM import_runs WHERE id = ?1")?
        .query_row([run_id], |r| r.get(0))
        .optional()?;
    if found.is_none() {
        return Ok(None);
    }
    let total = sizes(conn, run_id)?.of(list);
    let mut page = ReportPage::empty(list, offset, total);
    match list {
        ReportList::New => page.new = items(conn, run_id, list, offset, limit)?,
        ReportList::Changed => page.changed = items(conn, run_id, list, offset, limit)?,
        ReportList::Unchanged => page.unchanged = items(conn, run_id, list, offset, limit)?,
        ReportList::Gone => page.gone = items(conn, run_id, list, offset, limit)?,
        ReportList::Left => page.left = items(conn, run_id, list, offset, limit)?,
        ReportList::Errors => page.errors = items(conn, run_id, list, offset, limit)?,
        ReportList::Warnings => page.warnings = items(conn, run_id, list, offset, limit)?,
        ReportList::PhotoErrors => page.photo_errors = items(conn, run_id, list, offset, limit)?,
    }
    Ok(Some(page))
}

/// Adds a photo that could not be fetched to a run's list.
pub(super) fn add_photo_error(
    conn: &Connection,
    run_id: &str,
    error: &PhotoError,
) -> AppResult<()> {
    let item = serde_json::to_string(error).map_err(internal)?;
    conn.prepare_cached(
        "INSERT INTO import_run_items (run_id, list, position, item)
         SELECT r.id, 'photoErrors',
            (SELECT coalesce(max(i.position) + 1, 0) FROM import_run_items i
             WHERE i.run_id = r.id AND i.list = 'photoErrors'), ?2
         FROM import_runs r WHERE r.id = ?1",
    )?
    .execute(params![run_id, item])?;
    Ok(())
}
