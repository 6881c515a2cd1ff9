//! Import runs in storage: a preview or a failed run written, read back,
//! listed and discarded (the `import_runs` table; its report and rows a
//! line each, `items.rs`).

use super::feeds::{FEED_NOT_FOUND, Feed};
use super::items::{
    clear_rows, feed_errors, first_items, internal, read_rows, sizes, write_report, write_rows,
};
use super::plan::{RunContext, Steps, plan};
use super::report::{
    ImportRun, ImportRunSummary, PhotoProgress, Report, RunCounts, RunSource, RunStatus, RunTrigger,
};
use crate::domain::cars::CarStatus;
use crate::error::{AppError, AppResult};
use crate::parser::feed::{FeedCar, FeedFormat, RowError};
use rusqlite::{Connection, OptionalExtension, params};

/// A feed's run as the comparison needs it.
pub(super) fn context(feed: &Feed, chosen: Option<CarStatus>) -> RunContext {
    RunContext {
        feed_id: feed.id.clone(),
        feed_name: feed.name.clone(),
        rank: (feed.position - 1, feed.id.clone()),
        condition: feed.condition,
        chosen,
        salon_id: feed.salon_id,
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
    // Only the report is kept of the plan, written a line an item, and the
    // rows a line each: no document of every car is ever built. The
    // comparison reads first; the writes are one transaction, so a feed of
    // 20,000 cars costs one commit (one WAL sync), not 40,000 that would
    // keep the leads' writer from its lock for half a minute.
    let plan = plan(
        conn,
        &context(feed, None),
        format,
        rows,
        errors,
        Steps::ReportOnly,
    )?;
    let id = crate::domain::new_ordered_id();
    let tx = conn.unchecked_transaction()?;
    tx.execute(
        "INSERT INTO import_runs (id, created_at, trigger, source_kind, source_name, format,
            status, feed_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'preview', ?7)",
        params![
            id,
            crate::domain::now(),
            trigger,
            source.kind,
            source.name,
            format,
            feed.id
        ],
    )?;
    write_report(&tx, &id, &plan.report)?;
    drop(plan);
    write_rows(&tx, &id, rows)?;
    tx.commit()?;
    get(conn, &id)?.ok_or_else(|| internal("run vanished"))
}

/// Sets the condition of every car of a preview (`None`: each car's own)
/// and compares it again; 409 when the run is no longer a preview.
pub fn choose_condition(
    conn: &Connection,
    id: &str,
    chosen: Option<CarStatus>,
) -> AppResult<Option<ImportRun>> {
    let Some(run) = get_summary(conn, id)? else {
        return Ok(None);
    };
    if run.status != RunStatus::Preview {
        return Err(not_a_preview(run.status));
    }
    conn.execute(
        "UPDATE import_runs SET condition = ?2 WHERE id = ?1",
        params![id, chosen],
    )?;
    let stored = stored(conn, id)?;
    let plan = plan(
        conn,
        &stored.context,
        run.format,
        &stored.rows,
        stored.errors,
        Steps::ReportOnly,
    )?;
    write_report(conn, id, &plan.report)?;
    get(conn, id)
}

/// A stored preview as the comparison reads it again.
pub(super) struct Stored {
    /// Its feed as it is now.
    pub(super) context: RunContext,
    pub(super) rows: Vec<FeedCar>,
    /// The errors the feed itself gave.
    pub(super) errors: Vec<RowError>,
}

/// A stored preview's feed, rows and errors, to compare again with the
/// catalogue as it is now.
pub(super) fn stored(conn: &Connection, id: &str) -> AppResult<Stored> {
    let context = run_context(conn, id)?;
    let rows = read_rows(conn, id)?;
    let errors = feed_errors(conn, id, &rows)?;
    Ok(Stored {
        context,
        rows,
        errors,
    })
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

pub(super) const RUN_COLUMNS: &str =
    "r.id, r.created_at, r.finished_at, r.trigger, r.source_kind, r.source_name, r.format,
    r.status, r.error, r.counts, r.photos_total, r.photos_done, r.photos_failed,
    r.feed_id, f.name, r.condition";

/// The runs with their feed's name.
pub(super) const RUNS: &str = "import_runs r LEFT JOIN import_feeds f ON f.id = r.feed_id";

/// A run's summary: its counts are kept beside it, never counted from its
/// report.
pub(super) fn read_summary(row: &rusqlite::Row) -> rusqlite::Result<ImportRunSummary> {
    let counts: RunCounts = crate::domain::json_column(row.get_ref(9)?.as_str()?);
    Ok(ImportRunSummary {
        id: row.get(0)?,
        feed_id: row.get(13)?,
        feed_name: row.get(14)?,
        condition: row.get(15)?,
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
        counts,
        photos: PhotoProgress {
            total: row.get(10)?,
            done: row.get(11)?,
            failed: row.get(12)?,
        },
    })
}

/// A run's summary, without its report.
pub fn get_summary(conn: &Connection, id: &str) -> AppResult<Option<ImportRunSummary>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {RUN_COLUMNS} FROM {RUNS} WHERE r.id = ?1"))?
        .query_row([id], read_summary)
        .optional()?)
}

/// A run with the first items of each list of its report and their sizes.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<ImportRun>> {
    let Some(summary) = get_summary(conn, id)? else {
        return Ok(None);
    };
    let rest: String = conn
        .prepare_cached("SELECT report FROM import_runs WHERE id = ?1")?
        .query_row([id], |r| r.get(0))?;
    let mut report: Report = crate::domain::json_column(&rest);
    let photo_errors = first_items(conn, id, &mut report)?;
    Ok(Some(ImportRun {
        summary,
        report,
        photo_errors,
        lists: sizes(conn, id)?,
    }))
}

/// The last 50 runs (of one feed, or of all), newest first.
pub fn list(conn: &Connection, feed_id: Option<&str>) -> AppResult<Vec<ImportRunSummary>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {RUN_COLUMNS} FROM {RUNS} WHERE ?1 IS NULL OR r.feed_id = ?1
         ORDER BY r.created_at DESC, r.id DESC LIMIT 50"
    ))?;
    let rows = stmt.query_map([feed_id], read_summary)?;
    rows.map(|r| r.map_err(AppError::from)).collect()
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
        .query_row([], read_summary)
        .optional()?;
    Ok(latest)
}

/// Discards a preview; `Ok(false)` when there is no such run; 409 when it is
/// not a preview.
pub fn discard(conn: &Connection, id: &str) -> AppResult<bool> {
    let Some(run) = get_summary(conn, id)? else {
        return Ok(false);
    };
    if run.status != RunStatus::Preview {
        return Err(not_a_preview(run.status));
    }
    conn.execute(
        "UPDATE import_runs SET status = 'discarded', finished_at = ?2 WHERE id = ?1",
        params![id, crate::domain::now()],
    )?;
    clear_rows(conn, id)?;
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
