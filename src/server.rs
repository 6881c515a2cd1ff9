//! `dealership serve`: lock the data directory, open the database, optionally
//! fill it with demo data, and serve HTTP with the background jobs until
//! Ctrl-C or SIGTERM, which stop both (see [`crate::jobs`]) within a few
//! seconds whatever clients do.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::AbortHandle;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use crate::config::Config;
use crate::db::{Checkpoints, Db};
use crate::http::router::Site;
use crate::http::{AppState, router};
use crate::jobs::Supervisor;
use crate::ops::bucket::Bucket;
use crate::ops::lock::lock_data_dir;
use crate::ops::replica::Replication;

mod trims;

/// Checks that the data directory and its `media/` folder exist (creating
/// them) and can be written; the error names the folder that cannot.
pub fn check_data_dir(config: &Config) -> anyhow::Result<()> {
    let media = config.media_dir();
    std::fs::create_dir_all(&media)
        .with_context(|| format!("cannot create the media folder {}", media.display()))?;
    for (dir, what) in [
        (config.data_dir.as_path(), "the data directory"),
        (media.as_path(), "the media folder"),
    ] {
        let probe = dir.join(format!(".write-test-{}", std::process::id()));
        std::fs::write(&probe, b"ok")
            .with_context(|| format!("{what} {} is not writable", dir.display()))?;
        let _ = std::fs::remove_file(probe);
    }
    Ok(())
}

/// Records in the consent ledger what visitors agree to with this
/// configuration (a processor set up since the last start is a new consent
/// version: `docs/personal-data.md`).
fn record_consent_documents(db: &Db, config: &Config) -> anyhow::Result<()> {
    use crate::domain::{legal, settings};
    let conn = db.conn()?;
    let current = settings::get(&conn)?;
    let processors = legal::processors(config, &current);
    let kept = legal::record(&conn, &current, &processors)?;
    legal::record_salons(&conn, &settings::get(&conn)?, &processors)?;
    if kept.version != current.public.consent_version {
        tracing::info!(
            "the consent texts changed with the set-up processors: consent version {}",
            kept.version
        );
    }
    Ok(())
}

pub fn serve(config: Config, demo: bool) -> anyhow::Result<()> {
    // Before any thread of the server starts (the pool's, the runtime's).
    crate::allocator::tune_allocator();
    let addr = config.listen_addr()?;
    check_data_dir(&config)?;
    let _lock = lock_data_dir(&config.data_dir)?;
    crate::ops::restore::finish_interrupted_locked(&config.data_dir)?;
    // Under replication Litestream checkpoints the log (src/db/mod.rs).
    let checkpoints = if config.replica.is_enabled() {
        Checkpoints::LeftToReplication
    } else {
        Checkpoints::Own
    };
    let db = Db::open_with(&config.database_path(), checkpoints)?;
    if demo {
        let seeded = crate::demo::seed(&db, &config.media_dir())?;
        if seeded {
            tracing::info!("demo data created");
        } else {
            tracing::info!("database already has data; demo data not added");
        }
    }
    warn_of_demo_user(&db)?;
    record_consent_documents(&db, &config)?;
    let max_connections = max_connections(&config, open_file_limit());
    // On a thread of its own: stopped after everything else below.
    let replica_monitor = Arc::new(crate::ops::replica_state::ReplicaMonitor::default());
    let replication = Replication::start(&config, replica_monitor.clone())?;
    // The pictures' copies go to the same bucket (src/media/uploads.rs).
    let bucket = match config.replica.is_enabled() {
        true => Some(Arc::new(Bucket::from_config(&config.replica)?)),
        false => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        tracing::info!(
            "listening on http://{addr} (public URL {}), at most {max_connections} connections at once",
            config.base_url
        );
        let mut state = AppState::new(db, config);
        state.replica = replica_monitor;
        let mut jobs = start_jobs(&state);
        if let Some(bucket) = bucket {
            start_replica_jobs(&state, &mut jobs, bucket);
        }
        let stop = jobs.token();
        tokio::spawn({
            let stop = stop.clone();
            async move {
                tokio::select! {
                    () = shutdown_signal() => stop.cancel(),
                    () = stop.cancelled() => {}
                }
            }
        });
        let (views, db) = (state.site_views.clone(), state.db.clone());
        let app = router(state.clone());
        crate::http::pages_ahead::PagesAhead::new(&state, app.clone()).start(&mut jobs);
        // Open requests and running jobs finish together, each within the bound.
        let jobs_stopped = async {
            stop.cancelled().await;
            jobs.stop(SHUTDOWN_WAIT).await;
        };
        let http_served = async {
            serve_http(listener, app, max_connections, stop.clone()).await;
            // Whatever ended it, the jobs end too.
            stop.cancel();
        };
        tokio::join!(http_served, jobs_stopped);
        // The views of the last requests, after the writer's last write.
        if let Err(err) = views.flush(&db).await {
            tracing::warn!("the last site views were not written: {err}");
        }
        anyhow::Ok(())
    })?;
    // Database work still running on the blocking pool gets a moment too.
    runtime.shutdown_timeout(BLOCKING_WAIT);
    // Last: Litestream syncs what the site wrote up to its end.
    if let Some(replication) = replication {
        replication.stop();
    }
    Ok(())
}

/// Serves HTTP/1.1 on `listener` until `stop` is cancelled, then lets open
/// requests finish for at most [`SHUTDOWN_WAIT`] and closes what is left.
///
/// A client must send its request headers within [`HEADER_READ_TIMEOUT`]
/// (an idle kept-alive connection too), and at most `max_connections` are
/// served at once. When all are taken, a new connection closes the oldest
/// one that has not sent a whole request yet (so half-sent requests cannot
/// keep visitors out); when every one is in a request, it waits for one to
/// end. Handlers see the peer as `ConnectInfo<SocketAddr>` (`Site::from_peer`).
pub async fn serve_http(
    listener: TcpListener,
    app: Site,
    max_connections: usize,
    stop: CancellationToken,
) {
    let slots = Arc::new(Semaphore::new(max_connections.max(1)));
    let open = Arc::new(Mutex::new(OpenConnections::default()));
    tokio::spawn(trim_after_closes(open.clone(), stop.clone()));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .max_header_size(MAX_HEADER_BYTES)
        .max_buf_size(MAX_BUFFER_BYTES);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors, or a connection reset before it
                    // was taken: wait a little instead of spinning.
                    tracing::warn!("cannot accept a connection: {err}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = stop.cancelled() => break,
        };
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                let evicted = lock(&open).evict_oldest_waiting();
                if let Some((peer, task)) = evicted {
                    task.abort();
                    tracing::debug!(
                        "all connections taken; closed one without a request from {peer}"
                    );
                }
                let slot = tokio::select! {
                    slot = slots.clone().acquire_owned() => slot,
                    () = stop.cancelled() => break,
                };
                let Ok(slot) = slot else { break };
                slot
            }
        };
        let _ = stream.set_nodelay(true);
        let requested = Arc::new(AtomicBool::new(false));
        let service = app.clone().from_peer(peer).map_request({
            let requested = requested.clone();
            move |request: axum::http::Request<Incoming>| {
                requested.store(true, Ordering::Relaxed);
                request
            }
        });
        // No upgrades: the site has no WebSocket.
        let connection = graceful
            .watch(http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
        // Registered before the task can end and unregister itself.
        let mut registry = lock(&open);
        let id = registry.next_id();
        let forget = Forget {
            open: open.clone(),
            id,
        };
        let task = tokio::spawn(async move {
            let _forget = forget;
            let _slot = slot;
            if let Err(err) = connection.await {
                tracing::debug!("connection from {peer}: {err}");
            }
        });
        registry.add(
            id,
            OpenConnection {
                peer,
                requested,
                task: task.abort_handle(),
            },
        );
    }
    // Nothing new is taken from here on.
    drop(listener);
    let count = graceful.count();
    if tokio::time::timeout(SHUTDOWN_WAIT, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            "connections still open {SHUTDOWN_WAIT:?} after the stop signal \
             ({count} were open then); closing them"
        );
    }
}

/// The connections being served, oldest first.
#[derive(Default)]
struct OpenConnections {
    last_id: u64,
    open: BTreeMap<u64, OpenConnection>,
    /// The most open at once since [`trim_after_closes`] last looked.
    most: usize,
    /// `last_id` when [`trim_after_closes`] last looked.
    looked_at_id: u64,
}

struct OpenConnection {
    peer: SocketAddr,
    /// Whether a whole request head has come on this connection.
    requested: Arc<AtomicBool>,
    task: AbortHandle,
}

impl OpenConnections {
    fn next_id(&mut self) -> u64 {
        self.last_id += 1;
        self.last_id
    }

    fn add(&mut self, id: u64, connection: OpenConnection) {
        self.open.insert(id, connection);
        self.most = self.most.max(self.open.len());
    }

    /// How many fewer are open now than at the most since the last call.
    fn closed_since_last_look(&mut self) -> usize {
        let now = self.open.len();
        let closed = self.most.saturating_sub(now);
        self.most = now;
        closed
    }

    /// Whether a connection was opened since the last call.
    fn opened_since_last_look(&mut self) -> bool {
        let opened = self.last_id != self.looked_at_id;
        self.looked_at_id = self.last_id;
        opened
    }

    /// Takes off the list the oldest connection that has not sent a whole
    /// request yet, and gives its peer and its task to abort.
    fn evict_oldest_waiting(&mut self) -> Option<(SocketAddr, AbortHandle)> {
        let id = self
            .open
            .iter()
            .find(|(_, c)| !c.requested.load(Ordering::Relaxed))
            .map(|(id, _)| *id)?;
        let connection = self.open.remove(&id)?;
        Some((connection.peer, connection.task))
    }
}

/// Takes a connection off the list when its task ends, however it ends.
struct Forget {
    open: Arc<Mutex<OpenConnections>>,
    id: u64,
}

impl Drop for Forget {
    fn drop(&mut self) {
        lock(&self.open).open.remove(&self.id);
    }
}

/// Threads of tokio's blocking pool (its default is 512): database work
/// waits for one of the pool's connections anyway (`db::POOL_SIZE`), and
/// each thread costs its stack and, under glibc, a share of an arena.
/// Compression of kept answers and long jobs (imports, backups) share them.
const MAX_BLOCKING_THREADS: usize = 32;

/// Gives the memory freed after bursts and work back to the system when
/// [`trims::Trims`] says (`docs/operations.md`, "Memory").
async fn trim_after_closes(open: Arc<Mutex<OpenConnections>>, stop: CancellationToken) {
    let budget = &crate::http::held::render::BUDGET;
    let mut trims = trims::Trims::default();
    loop {
        tokio::select! {
            () = tokio::time::sleep(trims::LOOK_EVERY) => {}
            () = stop.cancelled() => return,
        }
        let (closed, opened) = {
            let mut open = lock(&open);
            (open.closed_since_last_look(), open.opened_since_last_look())
        };
        let seen = trims::Seen {
            closed,
            opened,
            budget_peak: budget.take_peak(),
            budget_in_use: budget.in_use_bytes(),
        };
        if trims.look(&seen) {
            let _ = tokio::task::spawn_blocking(crate::allocator::give_memory_back).await;
        }
    }
}

fn lock(open: &Mutex<OpenConnections>) -> std::sync::MutexGuard<'_, OpenConnections> {
    // The list stays usable even if a holder panicked.
    open.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How long a client may take to send its request headers.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Request headers in all (the request line included) beyond which a request
/// is answered 431 at once and its connection closed: a page or an admin
/// call sends 1-3 KB, a browser with many cookies some 8 (nginx allows 8 KB
/// a line and 32 KB in all). hyper's own bound is its 400 KB buffer, which
/// let 1,500 strangers hold 500 MB.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;
/// What one connection's read buffer may grow to (a body is read through
/// it in pieces of at most this).
pub const MAX_BUFFER_BYTES: usize = 64 * 1024;
/// How long open requests and running jobs get to finish after SIGTERM or
/// Ctrl-C.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(3);
/// How long database work still running then gets.
const BLOCKING_WAIT: Duration = Duration::from_secs(1);
/// Open files kept aside from connections: the database pool, logs, the lock.
const FILES_KEPT: u64 = 64;
/// The most connections served at once unless `max_connections` says more.
const DERIVED_CONNECTIONS_CAP: u64 = 2048;

/// Connections served at once: `max_connections` when set, otherwise half of
/// what the open-file limit leaves after [`FILES_KEPT`] (a connection may
/// hold its socket and a picture being sent), at most 2048. An unknown limit
/// counts as 1024, the usual default.
pub fn max_connections(config: &Config, open_files: Option<u64>) -> usize {
    let limit = open_files.unwrap_or(1024);
    let affordable = limit.saturating_sub(FILES_KEPT) / 2;
    let chosen = match u64::from(config.max_connections) {
        0 => affordable.clamp(16, DERIVED_CONNECTIONS_CAP),
        set => {
            if set > affordable {
                tracing::warn!(
                    "max_connections = {set} needs about {} open files but the limit is \
                     {limit}: raise the limit (LimitNOFILE= for systemd) or lower max_connections",
                    set * 2 + FILES_KEPT
                );
            }
            set
        }
    };
    usize::try_from(chosen).unwrap_or(usize::MAX)
}

/// The soft limit of open files, where the system tells it (Linux).
pub fn open_file_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.trim_start_matches("Max open files")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The demo admin's password is public (README): say so while it exists.
fn warn_of_demo_user(db: &Db) -> anyhow::Result<()> {
    let users = crate::domain::users::list(&*db.conn()?).map_err(|e| anyhow::anyhow!("{e}"))?;
    let demo = crate::demo::DEMO_USER;
    if users.iter().any(|u| u.username == demo) {
        tracing::warn!(
            "the demo admin user {demo:?} still exists and its password is public; \
             before the site goes live, create your own user and run `dealership user delete {demo}`"
        );
    }
    Ok(())
}

/// How often unused pictures are looked for.
pub const PICTURE_CLEANUP_EVERY: Duration = Duration::from_secs(30 * 60);
/// How often the self-checks' job looks at the Moscow date and the content
/// version: a promotion that ended at midnight is listed within this time.
pub const SELF_CHECKS_EVERY: Duration = Duration::from_secs(5 * 60);
/// How often leads still new past the response threshold are looked for:
/// a reminder goes out within a minute of the lead reaching it.
pub const REMINDERS_EVERY: Duration = Duration::from_secs(60);
/// How often the retention job looks at the Moscow clock: it erases once
/// a night, from 03:00 (`docs/personal-data.md`, "Forgetting on time").
pub const RETENTION_EVERY: Duration = Duration::from_secs(10 * 60);

/// The nightly retention run: erases the people past their period, writes
/// the act, empties the write-ahead log.
async fn forget_on_time(db: Db, clock: Arc<crate::clock::Clock>) -> anyhow::Result<()> {
    let now = clock.now();
    let ran = db
        .call(move |c| {
            let settings = crate::domain::settings::get(c)?;
            crate::domain::retention::nightly(c, &settings, now)
        })
        .await?;
    if let Some(Some(act)) = ran {
        tracing::info!(
            act = act.id,
            "retention: erased the data of {} people ({} leads, {} subscriptions)",
            act.subjects,
            act.leads,
            act.subscriptions
        );
        db.forget_old_versions().await?;
    }
    Ok(())
}

/// Once per Moscow day (the first look after a start or midnight): the
/// figures' old days pruned, every car's 30-day totals moved to the day.
async fn car_figures_nightly(
    db: Db,
    clock: Arc<crate::clock::Clock>,
    done: Arc<Mutex<Option<chrono::NaiveDate>>>,
) -> anyhow::Result<()> {
    let today = clock.moscow_today();
    if *done.lock().unwrap_or_else(|e| e.into_inner()) == Some(today) {
        return Ok(());
    }
    let pruned = db
        .call(move |c| crate::domain::car_figures::nightly(c, today))
        .await?;
    tracing::info!("car figures for {today}: totals refreshed, {pruned} old days pruned");
    *done.lock().unwrap_or_else(|e| e.into_inner()) = Some(today);
    Ok(())
}

/// How often the site's card views are written (and at shutdown).
pub const SITE_VIEWS_EVERY: Duration = Duration::from_secs(60);
/// How often the car figures' nightly work looks whether the day changed.
pub const CAR_FIGURES_EVERY: Duration = Duration::from_secs(10 * 60);

/// How long an unused picture is kept: a form may still be about to save it.
pub const PICTURE_GRACE: chrono::Duration = chrono::Duration::hours(1);

/// Starts the server's background jobs on the current Tokio runtime. Adding
/// a job is one [`Supervisor::every`] call here. The outbox worker runs when
/// a notification channel is configured (docs/notifications.md).
pub fn start_jobs(state: &AppState) -> Supervisor {
    let mut jobs = Supervisor::new().reporting_to(state.workers.clone());
    let (db, media_dir) = (state.db.clone(), state.config.media_dir());
    jobs.every("picture cleanup", PICTURE_CLEANUP_EVERY, move || {
        remove_unused_pictures(db.clone(), media_dir.clone())
    });
    let (db, checks, clock) = (state.db.clone(), state.checks.clone(), state.clock.clone());
    jobs.every("self-checks", SELF_CHECKS_EVERY, move || {
        let (db, checks, clock) = (db.clone(), checks.clone(), clock.clone());
        async move {
            checks.nightly(&db, &clock).await?;
            Ok(())
        }
    });
    let (db, clock) = (state.db.clone(), state.clock.clone());
    jobs.every("retention", RETENTION_EVERY, move || {
        forget_on_time(db.clone(), clock.clone())
    });
    let (db, views) = (state.db.clone(), state.site_views.clone());
    jobs.worker("site views", move |stop| {
        let (db, views) = (db.clone(), views.clone());
        async move { Ok(views.keep_writing(&db, SITE_VIEWS_EVERY, stop).await?) }
    });
    let (db, clock, done) = (state.db.clone(), state.clock.clone(), Arc::default());
    jobs.every("car figures", CAR_FIGURES_EVERY, move || {
        car_figures_nightly(db.clone(), clock.clone(), Arc::clone(&done))
    });
    // Every car's card drawn before a page shows it (docs/rendering.md).
    crate::http::held::cards_ahead::CardsAhead::new(&state.db, &state.config, &state.clock)
        .start(&mut jobs, &state.renderer);
    crate::marketplaces::sync::start(&mut jobs, &state.market_sync());
    crate::calltracking::jobs::start(&mut jobs, &state.call_sync());
    let (db, config, now) = (state.db.clone(), state.config.clone(), state.clock.now());
    tokio::spawn(async move {
        let noted = db
            .write_grouped(move |c| crate::calltracking::silence::note_configured(c, &config, now))
            .await;
        if let Err(err) = noted {
            tracing::warn!("call providers' set-up time not noted: {err}");
        }
    });
    let (db, config) = (state.db.clone(), state.config.clone());
    jobs.every("feed import", crate::parser::SCHEDULE_TICK, move || {
        crate::parser::schedule_tick(db.clone(), config.clone())
    });
    let (db, config) = (state.db.clone(), state.config.clone());
    jobs.every("imported photos", crate::parser::PHOTOS_EVERY, move || {
        crate::parser::fetch_photos(db.clone(), config.clone())
    });
    let remind = crate::notify::reminder::CHANNELS;
    if remind.iter().any(|c| state.channels.configured(*c)) {
        // Leads still new past the response threshold (docs/response-times.md).
        let reminders = crate::notify::reminder::Reminders::new(
            state.db.clone(),
            state.channels.clone(),
            state.clock.clone(),
            state.wake.clone(),
        );
        jobs.every("response reminders", REMINDERS_EVERY, move || {
            let reminders = reminders.clone();
            async move {
                reminders.run().await?;
                Ok(())
            }
        });
    }
    if state.channels.any_configured() {
        let (db, channels, wake) = (state.db.clone(), state.channels.clone(), state.wake.clone());
        jobs.worker("outbox", move |stop| {
            crate::notify::Worker::new(db.clone(), channels.clone(), wake.clone()).run(stop)
        });
        if state
            .channels
            .configured(crate::domain::outbox::Channel::Email)
        {
            // Saved-search alerts are mailed (docs/saved-searches.md).
            let minutes = state
                .config
                .notifications
                .search_alerts_every_minutes
                .max(1);
            let (db, clock) = (state.db.clone(), state.clock.clone());
            let (channels, wake) = (state.channels.clone(), state.wake.clone());
            jobs.every(
                "saved-search alerts",
                Duration::from_secs(u64::from(minutes) * 60),
                move || {
                    let run = crate::notify::saved_search::queue_alerts(
                        db.clone(),
                        clock.clone(),
                        channels.clone(),
                        wake.clone(),
                    );
                    async move { run.await.map(|_| ()) }
                },
            );
        }
    } else {
        // No worker: what is still queued for a channel whose settings were
        // removed is given up now (the worker does this when it starts).
        let given_up = state
            .db
            .conn()
            .map_err(anyhow::Error::from)
            .and_then(|c| Ok(state.channels.fail_unconfigured(&c)?));
        match given_up {
            Ok(0) => {}
            Ok(n) => tracing::warn!("{n} queued deliveries given up: no channel is configured"),
            Err(err) => tracing::warn!("cannot give up unconfigured deliveries: {err:#}"),
        }
    }
    jobs
}

/// Under `[replica]`: the worker that copies queued pictures to the bucket,
/// and the look at how replication stands (`crate::ops::replica_state`).
pub fn start_replica_jobs(
    state: &AppState,
    jobs: &mut Supervisor,
    bucket: Arc<crate::ops::bucket::Bucket>,
) {
    let (db, media_dir) = (state.db.clone(), state.config.media_dir());
    let copier = bucket.clone();
    jobs.worker("media upload", move |stop| {
        crate::media::uploads::drain(db.clone(), copier.clone(), media_dir.clone(), stop)
    });
    let (db, monitor, data_dir) = (
        state.db.clone(),
        state.replica.clone(),
        state.config.data_dir.clone(),
    );
    jobs.every(
        "replica status",
        crate::ops::replica_state::LOOK_EVERY,
        move || {
            let (db, monitor, data_dir, bucket) = (
                db.clone(),
                monitor.clone(),
                data_dir.clone(),
                bucket.clone(),
            );
            async move {
                let queue = db.read(|c| crate::media::uploads::state(c)).await?;
                let status = crate::ops::replica_state::look(
                    &bucket,
                    &data_dir,
                    queue,
                    monitor.litestream_down_since(),
                    monitor.refused(),
                )
                .await;
                monitor.set(status);
                Ok(())
            }
        },
    );
}

/// Removes pictures no entity has used for [`PICTURE_GRACE`].
async fn remove_unused_pictures(db: Db, media_dir: PathBuf) -> anyhow::Result<()> {
    let removed = db
        .call(move |c| crate::media::cleanup::collect_garbage(c, &media_dir, PICTURE_GRACE))
        .await
        .context("picture cleanup failed")?;
    if removed > 0 {
        tracing::info!("removed {removed} unused pictures");
    }
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connection(task: &tokio::task::JoinHandle<()>) -> OpenConnection {
        OpenConnection {
            peer: SocketAddr::from(([127, 0, 0, 1], 1)),
            requested: Arc::new(AtomicBool::new(false)),
            task: task.abort_handle(),
        }
    }

    #[tokio::test]
    async fn closes_are_counted_from_the_most_open_since_the_last_look() {
        let task = tokio::spawn(async {});
        let mut open = OpenConnections::default();
        for _ in 0..5 {
            let id = open.next_id();
            open.add(id, connection(&task));
        }
        // Still open at the look: nothing closed yet.
        assert_eq!(open.closed_since_last_look(), 0);
        // Three close, one opens and closes between two looks.
        for id in 1..=3 {
            open.open.remove(&id);
        }
        let id = open.next_id();
        open.add(id, connection(&task));
        open.open.remove(&id);
        assert_eq!(open.closed_since_last_look(), 3);
        assert_eq!(open.closed_since_last_look(), 0);
        // A wave that opens and closes between looks is seen whole.
        for _ in 0..4 {
            let id = open.next_id();
            open.add(id, connection(&task));
        }
        open.open.clear();
        assert_eq!(open.closed_since_last_look(), 6);
    }
}
