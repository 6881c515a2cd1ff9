//! The inventory parser (`docs/parser.md`): a dealer's stock comes in from
//! an Auto.ru, Avito or CSV feed (by URL, upload or schedule) as a preview
//! that an admin applies, and goes out again as marketplace feeds.
//!
//! - [`feed`] reads the three formats, [`mapping`] maps their values to ours;
//! - [`fetch`] gets a feed or a photo without reaching private networks;
//! - [`photos`] stores a run's photos after it is applied;
//! - [`export`] writes the site's stock as Avito, Auto.ru and Yandex feeds;
//! - this module ties them: preview, apply, the scheduled run.
//!
//! The SQL lives in `crate::domain::imports`.

pub mod export;
pub mod feed;
pub mod fetch;
pub mod mapping;
pub mod photos;

use std::time::Duration;

use chrono::Datelike;

use crate::config::Config;
use crate::db::Db;
use crate::domain::audit::{self, AuditAction, AuditObject, NewEntry};
use crate::domain::imports::{self, Feed, ImportRun, RunSource, RunTrigger, SourceKind};
use crate::error::{AppError, AppResult};
use fetch::{FetchError, Fetcher};

/// How long fetching a whole feed may take.
pub const FEED_TIMEOUT: Duration = Duration::from_secs(120);

pub fn current_year() -> i32 {
    chrono::Utc::now().year()
}

/// The message of a feed over the size limit.
pub fn too_large_message(config: &Config) -> String {
    format!(
        "Файл фида больше {} МБ: такой фид не загружается (parser.max_feed_bytes)",
        config.parser.max_feed_bytes / (1024 * 1024)
    )
}

/// Fetches a feed by URL within the size limit.
pub async fn fetch_feed(config: &Config, url: &str) -> Result<Vec<u8>, FetchError> {
    let fetcher = Fetcher::new(config.parser.allow_private_hosts, FEED_TIMEOUT);
    let limit = usize::try_from(config.parser.max_feed_bytes).unwrap_or(usize::MAX);
    fetcher.get(url, limit, &too_large_message(config)).await
}

/// Reads a feed and stores its preview as a run of `feed` (or the reason
/// it cannot be read).
pub async fn preview(
    db: &Db,
    trigger: RunTrigger,
    feed: Feed,
    source: RunSource,
    bytes: Vec<u8>,
) -> AppResult<ImportRun> {
    let year = current_year();
    let parsed = tokio::task::spawn_blocking(move || feed::parse(&bytes, year))
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("feed parse task: {e}")))?;
    let run = match parsed {
        Ok(parsed) => {
            db.call(move |c| {
                imports::create_preview(
                    c,
                    trigger,
                    &source,
                    &feed,
                    parsed.format,
                    &parsed.cars,
                    parsed.errors,
                )
            })
            .await
        }
        Err(err) => failed(db, trigger, feed, source, &err.0).await,
    };
    give_memory_back().await;
    run
}

/// A feed's rows and their comparison are many small blocks, freed once
/// the preview or apply is stored: they go back to the system rather than
/// stay in the allocator's arenas (a 50 MB feed left about 30 MB).
pub async fn give_memory_back() {
    let _ = tokio::task::spawn_blocking(crate::allocator::give_memory_back).await;
}

/// Records a run of `feed` that failed before its preview.
pub async fn failed(
    db: &Db,
    trigger: RunTrigger,
    feed: Feed,
    source: RunSource,
    error: &str,
) -> AppResult<ImportRun> {
    let error = error.to_string();
    db.call(move |c| imports::create_failed(c, trigger, &source, &feed, None, &error))
        .await
}

/// Fetches a URL feed and previews it; a fetch that fails is a failed run.
pub async fn preview_url(
    db: &Db,
    config: &Config,
    trigger: RunTrigger,
    feed: Feed,
) -> AppResult<ImportRun> {
    let url = feed.source.clone();
    let source = RunSource {
        kind: SourceKind::Url,
        name: url.chars().take(imports::MAX_FEED_URL).collect(),
    };
    match fetch_feed(config, &url).await {
        Ok(bytes) => preview(db, trigger, feed, source, bytes).await,
        Err(err) => failed(db, trigger, feed, source, &err.to_string()).await,
    }
}

/// The audit entry of an applied run.
pub fn audit_entry(run: &ImportRun) -> NewEntry {
    let c = &run.summary.counts;
    let summary = format!(
        "Импорт из фида «{}» ({}): новых {}, изменено {}, без изменений {}, снято с \
         публикации {}, остались в других фидах {}, строк с ошибками {}",
        run.summary.feed_name.as_deref().unwrap_or("без фида"),
        run.summary.source.name,
        c.new,
        c.changed,
        c.unchanged,
        c.gone,
        c.left,
        c.errors
    );
    let count = |field: &str, n: usize| audit::change(field, None, Some(n.to_string()));
    NewEntry::new(
        AuditAction::Import,
        AuditObject::Import,
        Some(&run.summary.id),
        summary,
    )
    .with_changes(vec![
        count("new", c.new),
        count("changed", c.changed),
        count("unchanged", c.unchanged),
        count("gone", c.gone),
        count("errors", c.errors),
    ])
}

/// Starts fetching the applied run's photos in the background, at once.
/// What this task leaves (a restart, a full disk) the job `imported photos`
/// ([`fetch_photos`], every [`PHOTOS_EVERY`]) fetches.
pub fn spawn_photos(db: &Db, config: &Config) -> tokio::task::JoinHandle<()> {
    let (db, media_dir, allow) = (
        db.clone(),
        config.media_dir(),
        config.parser.allow_private_hosts,
    );
    tokio::spawn(async move {
        if let Err(err) = photos::fetch_untried(db, media_dir, allow).await {
            tracing::warn!("imported photos: {err}");
        }
    })
}

/// How often the job `imported photos` looks for photos not yet tried.
pub const PHOTOS_EVERY: Duration = Duration::from_secs(60);

/// The job `imported photos` that `start_jobs` registers: fetches the
/// photos an interrupted or refused fetch left, counted in their run.
pub async fn fetch_photos(db: Db, config: std::sync::Arc<Config>) -> anyhow::Result<()> {
    // A photo the site could not store is logged by the pass and waits for
    // the next one; only a failed pass is the job's failure.
    photos::fetch_untried(db, config.media_dir(), config.parser.allow_private_hosts)
        .await
        .map_err(|e| anyhow::anyhow!("imported photos: {e}"))?;
    Ok(())
}

/// Who a scheduled run is recorded as in the audit trail.
pub const SCHEDULE_USER: &str = "расписание";

/// The scheduled runs that are due (`now`): for each feed whose interval
/// has passed, fetch, preview and apply in one go (rows with errors are
/// skipped and listed), then the photos. Gives the runs made.
pub async fn run_schedule_if_due(
    db: &Db,
    config: &Config,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<Vec<ImportRun>> {
    let due = db.call(move |c| imports::due_feeds(c, now)).await?;
    let mut runs = Vec::new();
    for feed in due {
        let id = feed.id.clone();
        db.call(move |c| imports::mark_scheduled_run(c, &id))
            .await?;
        let run = preview_url(db, config, RunTrigger::Schedule, feed).await?;
        if run.summary.status != imports::RunStatus::Preview {
            runs.push(run);
            continue;
        }
        let id = run.summary.id.clone();
        let year = current_year();
        let applied = db
            .call(move |c| {
                audit::audited(c, SCHEDULE_USER, |tx| {
                    let applied = imports::apply(tx, &id, year, SCHEDULE_USER)?;
                    let entry = applied.as_ref().map(audit_entry);
                    Ok((applied, entry))
                })
            })
            .await?;
        give_memory_back().await;
        if let Some(applied) = applied {
            spawn_photos(db, config);
            runs.push(applied);
        }
    }
    Ok(runs)
}

/// How often the schedule is looked at.
pub const SCHEDULE_TICK: Duration = Duration::from_secs(60);

/// The job `start_jobs` registers.
pub async fn schedule_tick(db: Db, config: std::sync::Arc<Config>) -> anyhow::Result<()> {
    run_schedule_if_due(&db, &config, chrono::Utc::now())
        .await
        .map_err(|e| anyhow::anyhow!("scheduled import: {e}"))?;
    Ok(())
}
