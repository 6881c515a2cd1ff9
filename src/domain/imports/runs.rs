//! Import runs in storage: a preview or a failed run written, read back,
//! listed and discarded (the `import_runs` table).

use super::feeds::{FEED_NOT_FOUND, Feed};
use super::plan::{Plan, RunContext, Steps, plan};
use super::report::{
    ImportRun, ImportRunSummary, PhotoError, PhotoProgress, Report, RunCounts, RunSource,
    RunStatus, RunTrigger,
};
use crate::domain::cars::CarStatus;
use crate::error::{AppError, AppResult};
use crate::parser::feed::{FeedCar, FeedFormat, RowError};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashSet;

/// A feed's run as the comparison needs it.
pub(super) fn context(feed: &Feed, chosen: Option<CarStatus>) -> RunContext {
    RunContext {
        feed_id: feed.id.clone(),
        feed_name: feed.name.clone(),
        rank: (feed.position - 1, feed.id.clone()),
        condition: feed.condition,
        chosen,
    }
}

/// The context of a stored run: its feed as it is now and the condition
/// chosen for it. A run whose feed was deleted cannot be planned again.
pub(super) fn run_context(conn: &Connection, id: &str) -> AppResult<RunContext> {
    let (feed_id, chosen): (Option<String>, Option<CarStatus>) = conn.query_row(
        "SELECT feed_id, condition FROM import_runs WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let feed = match feed_id {
        Some(feed_id) => super::feeds::get_feed(conn, &feed_id)?,
        None => None,
    };
    let Some(feed) = feed else {
        return Err(AppError::conflict(
            None,
            format!("{FEED_NOT_FOUND}: его удалили. Запустите импорт заново"),
        ));
    };
    Ok(context(&feed, chosen))
}

/// Stores a preview of a parsed feed and gives it back.
#[allow(clippy::too_many_arguments)]
pub fn create_preview(
    conn: &Connection,
    trigger: RunTrigger,
    source: &RunSource,
    feed: &Feed,
    format: Option<FeedFormat>,
    rows: &[FeedCar],
    errors: Vec<RowError>,
) -> AppResult<ImportRun> {
    // Only the report is kept: the plan (and its copies) is gone before the
    // rows are written.
    let report = {
        let plan = plan(
            conn,
            &context(feed, None),
            format,
            rows,
            errors,
            Steps::ReportOnly,
        )?;
        serde_json::to_string(&plan.report).map_err(internal)?
    };
    let id = crate::domain::new_ordered_id();
    let rows = serde_json::to_string(rows).map_err(internal)?;
    conn.execute(
        "INSERT INTO import_runs (id, created_at, trigger, source_kind, source_name, format,
            status, report, rows, feed_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'preview', ?7, ?8, ?9)",
        params![
            id,
            crate::domain::now(),
            trigger,
            source.kind,
            source.name,
            format,
            report,
            rows,
            feed.id
        ],
    )?;
    get(conn, &id)?.ok_or_else(|| internal("run vanished"))
}

/// Sets the condition of every car of a preview (`None`: each car's own)
/// and compares it again; 409 when the run is no longer a preview.
pub fn choose_condition(
    conn: &Connection,
    id: &str,
    chosen: Option<CarStatus>,
) -> AppResult<Option<ImportRun>> {
    let Some(run) = get(conn, id)? else {
        return Ok(None);
    };
    if run.summary.status != RunStatus::Preview {
        return Err(not_a_preview(run.summary.status));
    }
    conn.execute(
        "UPDATE import_runs SET condition = ?2 WHERE id = ?1",
        params![id, chosen],
    )?;
    let (_, plan) = planned_again(conn, &run)?;
    let report = serde_json::to_string(&plan.report).map_err(internal)?;
    conn.execute(
        "UPDATE import_runs SET report = ?2 WHERE id = ?1",
        params![id, report],
    )?;
    get(conn, id)
}

/// A stored preview compared again with the catalogue as it is now: its
/// feed's context and the plan.
pub(super) fn planned_again(conn: &Connection, run: &ImportRun) -> AppResult<(RunContext, Plan)> {
    let id = run.summary.id.as_str();
    let context = run_context(conn, id)?;
    let rows: Vec<FeedCar> = {
        let rows_text: String =
            conn.query_row("SELECT rows FROM import_runs WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        serde_json::from_str(&rows_text).map_err(internal)?
    };
    let plan = plan(
        conn,
        &context,
        run.summary.format,
        &rows,
        feed_errors(&run.report.errors, &rows),
        Steps::Kept,
    )?;
    Ok((context, plan))
}

/// The errors the feed itself gave (not those the comparison added).
pub(super) fn feed_errors(errors: &[RowError], rows: &[FeedCar]) -> Vec<RowError> {
    errors
        .iter()
        .filter(|e| !rows.iter().any(|r| r.row == e.row))
        .cloned()
        .collect()
}

/// Records a run that failed before a preview (fetch, size, broken XML).
pub fn create_failed(
    conn: &Connection,
    trigger: RunTrigger,
    source: &RunSource,
    feed: &Feed,
    format: Option<FeedFormat>,
    error: &str,
) -> AppResult<ImportRun> {
    let id = crate::domain::new_ordered_id();
    let now = crate::domain::now();
    conn.execute(
        "INSERT INTO import_runs (id, created_at, finished_at, trigger, source_kind, source_name,
            format, status, error, feed_id)
         VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, 'failed', ?7, ?8)",
        params![
            id,
            now,
            trigger,
            source.kind,
            source.name,
            format,
            error,
            feed.id
        ],
    )?;
    get(conn, &id)?.ok_or_else(|| internal("run vanished"))
}

pub(super) fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("import run: {e}"))
}

pub(super) const RUN_COLUMNS: &str =
    "r.id, r.created_at, r.finished_at, r.trigger, r.source_kind, r.source_name, r.format,
    r.status, r.error, r.report, r.photos_total, r.photos_done, r.photos_failed, r.photo_errors,
    r.feed_id, f.name, r.condition";

/// The runs with their feed's name.
pub(super) const RUNS: &str = "import_runs r LEFT JOIN import_feeds f ON f.id = r.feed_id";

pub(super) fn read_run(row: &rusqlite::Row) -> rusqlite::Result<ImportRun> {
    let report: Report = crate::domain::json_column(row.get_ref(9)?.as_str()?);
    let photo_errors: Vec<PhotoError> = crate::domain::json_column(row.get_ref(13)?.as_str()?);
    Ok(ImportRun {
        summary: ImportRunSummary {
            id: row.get(0)?,
            feed_id: row.get(14)?,
            feed_name: row.get(15)?,
            condition: row.get(16)?,
            created_at: row.get(1)?,
            finished_at: row.get(2)?,
            trigger: row.get(3)?,
            source: RunSource {
                kind: row.get(4)?,
                name: row.get(5)?,
            },
            format: row.get(6)?,
            status: row.get(7)?,
            error: row.get(8)?,
            counts: RunCounts {
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
            },
            photos: PhotoProgress {
                total: row.get(10)?,
                done: row.get(11)?,
                failed: row.get(12)?,
            },
        },
        report,
        photo_errors,
    })
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<ImportRun>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {RUN_COLUMNS} FROM {RUNS} WHERE r.id = ?1"))?
        .query_row([id], read_run)
        .optional()?)
}

/// The last 50 runs (of one feed, or of all), newest first.
pub fn list(conn: &Connection, feed_id: Option<&str>) -> AppResult<Vec<ImportRunSummary>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {RUN_COLUMNS} FROM {RUNS} WHERE ?1 IS NULL OR r.feed_id = ?1
         ORDER BY r.created_at DESC, r.id DESC LIMIT 50"
    ))?;
    let rows = stmt.query_map([feed_id], read_run)?;
    rows.map(|r| r.map(|run| run.summary).map_err(AppError::from))
        .collect()
}

/// The newest run that failed and is its feed's latest (for the
/// dashboard): a feed that failed and has not run well since.
pub fn latest_failed(conn: &Connection) -> AppResult<Option<ImportRunSummary>> {
    let latest = conn
        .prepare_cached(&format!(
            "SELECT {RUN_COLUMNS} FROM {RUNS} WHERE r.status = 'failed'
                AND NOT EXISTS (SELECT 1 FROM import_runs n
                    WHERE n.feed_id IS r.feed_id AND n.status != 'discarded'
                        AND (n.created_at, n.id) > (r.created_at, r.id))
             ORDER BY r.created_at DESC, r.id DESC LIMIT 1"
        ))?
        .query_row([], read_run)
        .optional()?;
    Ok(latest.map(|run| run.summary))
}

/// Discards a preview; `Ok(false)` when there is no such run; 409 when it is
/// not a preview.
pub fn discard(conn: &Connection, id: &str) -> AppResult<bool> {
    let Some(run) = get(conn, id)? else {
        return Ok(false);
    };
    if run.summary.status != RunStatus::Preview {
        return Err(not_a_preview(run.summary.status));
    }
    conn.execute(
        "UPDATE import_runs SET status = 'discarded', finished_at = ?2, rows = '[]' WHERE id = ?1",
        params![id, crate::domain::now()],
    )?;
    Ok(true)
}

pub(super) fn not_a_preview(status: RunStatus) -> AppError {
    AppError::conflict(
        None,
        match status {
            RunStatus::Applied => "Импорт уже применён",
            RunStatus::Discarded => "Предпросмотр отменён: запустите импорт заново",
            RunStatus::Failed => "Импорт завершился ошибкой: применять нечего",
            RunStatus::Preview => "Импорт ещё не применён",
        },
    )
}
