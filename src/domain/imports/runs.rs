//! Import runs in storage: a preview or a failed run written, read back,
//! listed and discarded (the `import_runs` table).

use super::plan::plan;
use super::report::{
    ImportRun, ImportRunSummary, PhotoError, PhotoProgress, Report, RunCounts, RunSource,
    RunStatus, RunTrigger,
};
use crate::error::{AppError, AppResult};
use crate::parser::feed::{FeedCar, FeedFormat, RowError};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashSet;

/// Stores a preview of a parsed feed and gives it back.
#[allow(clippy::too_many_arguments)]
pub fn create_preview(
    conn: &Connection,
    trigger: RunTrigger,
    source: &RunSource,
    format: Option<FeedFormat>,
    rows: &[FeedCar],
    errors: Vec<RowError>,
) -> AppResult<ImportRun> {
    let plan = plan(conn, format, rows, errors)?;
    let id = crate::domain::new_ordered_id();
    let report = serde_json::to_string(&plan.report).map_err(internal)?;
    let rows = serde_json::to_string(rows).map_err(internal)?;
    conn.execute(
        "INSERT INTO import_runs (id, created_at, trigger, source_kind, source_name, format,
            status, report, rows)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'preview', ?7, ?8)",
        params![
            id,
            crate::domain::now(),
            trigger,
            source.kind,
            source.name,
            format,
            report,
            rows
        ],
    )?;
    get(conn, &id)?.ok_or_else(|| internal("run vanished"))
}

/// Records a run that failed before a preview (fetch, size, broken XML).
pub fn create_failed(
    conn: &Connection,
    trigger: RunTrigger,
    source: &RunSource,
    format: Option<FeedFormat>,
    error: &str,
) -> AppResult<ImportRun> {
    let id = crate::domain::new_ordered_id();
    let now = crate::domain::now();
    conn.execute(
        "INSERT INTO import_runs (id, created_at, finished_at, trigger, source_kind, source_name,
            format, status, error)
         VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, 'failed', ?7)",
        params![id, now, trigger, source.kind, source.name, format, error],
    )?;
    get(conn, &id)?.ok_or_else(|| internal("run vanished"))
}

pub(super) fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("import run: {e}"))
}

pub(super) const RUN_COLUMNS: &str =
    "id, created_at, finished_at, trigger, source_kind, source_name, format,
    status, error, report, photos_total, photos_done, photos_failed, photo_errors";

pub(super) fn read_run(row: &rusqlite::Row) -> rusqlite::Result<ImportRun> {
    let report: Report = crate::domain::json_column(row.get_ref(9)?.as_str()?);
    let photo_errors: Vec<PhotoError> = crate::domain::json_column(row.get_ref(13)?.as_str()?);
    Ok(ImportRun {
        summary: ImportRunSummary {
            id: row.get(0)?,
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
        .prepare_cached(&format!(
            "SELECT {RUN_COLUMNS} FROM import_runs WHERE id = ?1"
        ))?
        .query_row([id], read_run)
        .optional()?)
}

/// The last 50 runs, newest first.
pub fn list(conn: &Connection) -> AppResult<Vec<ImportRunSummary>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {RUN_COLUMNS} FROM import_runs ORDER BY created_at DESC, id DESC LIMIT 50"
    ))?;
    let rows = stmt.query_map([], read_run)?;
    rows.map(|r| r.map(|run| run.summary).map_err(AppError::from))
        .collect()
}

/// The latest run, when it failed (for the dashboard).
pub fn latest_failed(conn: &Connection) -> AppResult<Option<ImportRunSummary>> {
    let latest = conn
        .prepare_cached(&format!(
            "SELECT {RUN_COLUMNS} FROM import_runs ORDER BY created_at DESC, id DESC LIMIT 1"
        ))?
        .query_row([], read_run)
        .optional()?;
    Ok(latest
        .map(|run| run.summary)
        .filter(|s| s.status == RunStatus::Failed))
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
