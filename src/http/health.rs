//! `GET /healthz`: 200 while the site can do its work, 503 with the reasons
//! otherwise; never cached. For monitors and the proxy in front; the admin
//! dashboard's system card shows the same report (`docs/operations.md`,
//! "Health"). Unhealthy when:
//!
//! - the database does not answer a read;
//! - it does not take a write: a tiny write through the leads' own writer
//!   (at most one per [`PROBE_FRESH`], the others reuse its answer), or the
//!   latest grouped write failed and none has committed since;
//! - the free space under the data directory is below the configured
//!   threshold (`health.min_free_disk_mb`): a full disk refuses leads;
//! - a background worker is down (`crate::jobs::Workers`), but for the jobs
//!   of replication, which only the system card names.
//!
//! Either way the body says how many log lines were lost (`logLinesLost`:
//! writes that failed, a full queue; `crate::logging`) and the free space.

use std::path::Path;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::held::write_probe::DATABASE_WAIT;
pub use super::held::write_probe::PROBE_FRESH;
use super::state::AppState;

pub const DATABASE_DOWN: &str = "База данных недоступна";

pub fn routes() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz))
}

/// What the site's health is now.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SystemStatus {
    /// Why the site is unhealthy, in Russian; empty when it is well.
    pub problems: Vec<String>,
    /// Free space under the data directory, in megabytes (absent when it
    /// cannot be read).
    pub free_disk_mb: Option<u64>,
    /// The threshold below which free space is a problem; 0: not checked.
    pub min_free_disk_mb: u64,
    /// Log lines lost since the start (failed writes, a full queue).
    pub log_lines_lost: u64,
    /// How replication stands (`[replica]`); null without replication or
    /// before its first look. Its problems are not the site's: they show
    /// here and in the self-checks, never in `/healthz`'s answer.
    #[schema(required = true)]
    pub replication: Option<crate::ops::replica_state::ReplicaStatus>,
}

/// The jobs of replication (`[replica]`). One that is down is on the
/// system card, but `/healthz` stays about serving: a replica that lags or
/// a bucket out of reach does not take the site down (its own self-check,
/// `replication_failing`, turns red).
const REPLICATION_JOBS: [&str; 2] = ["media upload", "replica status"];

/// The site's health now, as the admin's system card shows it.
pub async fn report(state: &AppState) -> SystemStatus {
    report_with(state, true).await
}

/// The site's health now; `replication_jobs`: whether a replication job
/// that is down counts (the card: yes; `/healthz`: no).
async fn report_with(state: &AppState, replication_jobs: bool) -> SystemStatus {
    let mut problems = Vec::new();
    let read = state.db.read(|c| {
        let version: Option<i64> = c.query_row(
            "SELECT max(version) FROM refinery_schema_history",
            [],
            |r| r.get(0),
        )?;
        Ok(version)
    });
    let readable = match tokio::time::timeout(DATABASE_WAIT, read).await {
        Ok(Ok(Some(_))) => true,
        Ok(Ok(None)) => false,
        Ok(Err(err)) => {
            tracing::error!("health check: the database failed: {err}");
            false
        }
        Err(_) => {
            tracing::error!("health check: the database did not answer within {DATABASE_WAIT:?}");
            false
        }
    };
    if !readable {
        problems.push(DATABASE_DOWN.to_string());
    } else if let Some(why) = state.write_probe.failure(&state.db, &state.clock).await {
        tracing::error!("health check: the database refused a write: {why}");
        problems.push(format!("База данных не принимает записи: {why}"));
    } else if let Some(why) = state.db.last_write_failure() {
        problems.push(format!("Последняя запись в базу данных не удалась: {why}"));
    }
    let min = state.config.health.min_free_disk_mb;
    let free_disk_mb = free_megabytes(&state.config.data_dir);
    if let Some(free) = free_disk_mb
        && free < min
    {
        problems.push(format!(
            "Мало места на диске: свободно {free} МБ, нужно не меньше {min} МБ"
        ));
    }
    for (name, why) in state.workers.down_now() {
        if !replication_jobs && REPLICATION_JOBS.contains(&name) {
            continue;
        }
        problems.push(format!(
            "Фоновая задача «{}» не работает: {why}",
            job_title(name)
        ));
    }
    SystemStatus {
        problems,
        free_disk_mb,
        min_free_disk_mb: min,
        log_lines_lost: crate::logging::lost_lines(),
        replication: state.replica.last(),
    }
}

async fn healthz(State(state): State<AppState>) -> Response {
    let status = report_with(&state, false).await;
    let mut body = match status.problems.first() {
        None => json!({"status": "ok"}),
        Some(first) => json!({"error": first, "problems": status.problems}),
    };
    body["freeDiskMb"] = json!(status.free_disk_mb);
    body["logLinesLost"] = json!(status.log_lines_lost);
    let code = if status.problems.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        code,
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        axum::Json(body),
    )
        .into_response()
}

/// Megabytes free for the server under `dir` (what an unprivileged writer
/// may still use).
fn free_megabytes(dir: &Path) -> Option<u64> {
    match rustix::fs::statvfs(dir) {
        Ok(fs) => Some(fs.f_bavail.saturating_mul(fs.f_frsize) / (1024 * 1024)),
        Err(err) => {
            tracing::warn!(
                "health check: cannot read free space of {}: {err}",
                dir.display()
            );
            None
        }
    }
}

/// A background job's name as the dealer reads it.
fn job_title(name: &str) -> &str {
    match name {
        "outbox" => "отправка уведомлений",
        "picture cleanup" => "удаление неиспользуемых изображений",
        "self-checks" => "самопроверки",
        "retention" => "удаление данных по сроку хранения",
        "feed import" => "импорт фида по расписанию",
        "response reminders" => "напоминания о заявках без ответа",
        "saved-search alerts" => "письма по сохранённым поискам",
        "media upload" => "копирование изображений в хранилище реплики",
        "replica status" => "проверка репликации",
        other => other,
    }
}
