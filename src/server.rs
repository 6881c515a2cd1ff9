//! `dealership serve`: open the database, optionally fill it with demo data,
//! and serve HTTP until Ctrl-C or SIGTERM.

use std::net::SocketAddr;

use anyhow::Context;

use crate::config::Config;
use crate::db::Db;
use crate::http::{AppState, router};

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
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        tracing::info!(
            "listening on http://{addr} (public URL {})",
            config.base_url
        );
        tokio::spawn(remove_unused_pictures(db.clone(), config.media_dir()));
        let app = router(AppState::new(db, config));
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await
        .context("server failed")
    })
}

/// Every half hour, removes pictures no entity has used for an hour.
async fn remove_unused_pictures(db: Db, media_dir: std::path::PathBuf) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(30 * 60));
    loop {
        tick.tick().await;
        let media_dir = media_dir.clone();
        let result = db
            .call(move |c| {
                crate::media::cleanup::collect_garbage(c, &media_dir, chrono::Duration::hours(1))
            })
            .await;
        match result {
            Ok(0) => {}
            Ok(n) => tracing::info!("removed {n} unused pictures"),
            Err(err) => tracing::warn!("picture cleanup failed: {err}"),
        }
    }
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
