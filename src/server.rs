//! `dealership serve`: open the database, optionally fill it with demo data,
//! and serve HTTP with the background jobs until Ctrl-C or SIGTERM, which
//! stop both (see [`crate::jobs`]).

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use crate::config::Config;
use crate::db::Db;
use crate::http::{AppState, router};
use crate::jobs::Supervisor;

pub fn check_data_dir(config: &Config) -> anyhow::Result<()> {
    let media = config.media_dir();
    std::fs::create_dir_all(&media)
        .with_context(|| format!("cannot create the media folder {}", media.display()))?;
    let probe = config.data_dir.join(".write-test");
    std::fs::write(&probe, b"ok").with_context(|| {
        format!(
            "the data directory {} is not writable",
            config.data_dir.display()
        )
    })?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

pub fn serve(config: Config, demo: bool) -> anyhow::Result<()> {
    let addr = config.listen_addr()?;
    check_data_dir(&config)?;
    let db = Db::open(&config.database_path())?;
    if demo {
        let seeded = crate::demo::seed(&db, &config.media_dir())?;
        if seeded {
            tracing::info!("demo data created");
        } else {
            tracing::info!("database already has data; demo data not added");
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        tracing::info!(
            "listening on http://{addr} (public URL {})",
            config.base_url
        );
        let jobs = start_jobs(&db, &config);
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
        let app = router(AppState::new(db, config));
        let server = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(stop.clone().cancelled_owned());
        // Open requests may finish after the signal, within a bound.
        let served = tokio::select! {
            result = server.into_future() => result.context("server failed"),
            () = async {
                stop.cancelled().await;
                tokio::time::sleep(SHUTDOWN_WAIT).await;
            } => {
                tracing::warn!("requests still open {SHUTDOWN_WAIT:?} after the stop signal; closing them");
                Ok(())
            }
        };
        jobs.stop(SHUTDOWN_WAIT).await;
        served
    });
    // Database work still running on the blocking pool gets a moment too.
    runtime.shutdown_timeout(SHUTDOWN_WAIT);
    served
}

/// How long open requests and running jobs get to finish after SIGTERM or
/// Ctrl-C.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(10);
/// How often unused pictures are looked for.
pub const PICTURE_CLEANUP_EVERY: Duration = Duration::from_secs(30 * 60);
/// How long an unused picture is kept: a form may still be about to save it.
pub const PICTURE_GRACE: chrono::Duration = chrono::Duration::hours(1);

/// Starts the server's background jobs on the current Tokio runtime. Adding
/// a job is one [`Supervisor::every`] call here.
pub fn start_jobs(db: &Db, config: &Config) -> Supervisor {
    let mut jobs = Supervisor::new();
    let (db, media_dir) = (db.clone(), config.media_dir());
    jobs.every("picture cleanup", PICTURE_CLEANUP_EVERY, move || {
        remove_unused_pictures(db.clone(), media_dir.clone())
    });
    jobs
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
