//! The background job supervisor: restarts after panics, keeps schedules
//! after errors, stops promptly; and the server's picture cleanup on it.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dealership::config::Config;
use dealership::db::Db;
use dealership::jobs::{Supervisor, Workers};
#[path = "common/logs.rs"]
mod logs;
use logs::Logs;

const HOUR: Duration = Duration::from_secs(3600);

async fn eventually(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn counter() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

#[tokio::test]
async fn a_panicking_job_is_logged_restarted_and_runs_again() {
    let (logs, _guard) = Logs::capture();
    let mut jobs =
        Supervisor::with_restart_delay(Duration::from_millis(20), Duration::from_secs(1));
    let runs = counter();
    let seen = runs.clone();
    // Runs once at the start; a second run within the hour can only be the
    // restart after its panic.
    jobs.every("fragile", HOUR, move || {
        let run = seen.fetch_add(1, Ordering::SeqCst) + 1;
        async move {
            if run <= 2 {
                panic!("run {run} broke");
            }
            Ok(())
        }
    });
    eventually("three runs", || runs.load(Ordering::SeqCst) >= 3).await;
    let text = logs.text();
    assert!(text.contains("job panicked: run 1 broke"), "{text}");
    assert!(text.contains("job panicked: run 2 broke"), "{text}");
    assert!(text.contains("fragile"), "the job is named: {text}");
    // The pause doubles: 20 ms after the first panic, 40 ms after the second.
    assert!(text.contains("running it again in 20ms"), "{text}");
    assert!(text.contains("running it again in 40ms"), "{text}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(runs.load(Ordering::SeqCst), 3, "then back on its schedule");
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test]
async fn a_failing_job_is_logged_and_keeps_its_schedule() {
    let (logs, _guard) = Logs::capture();
    let mut jobs = Supervisor::new();
    let runs = counter();
    let seen = runs.clone();
    jobs.every("always failing", Duration::from_millis(30), move || {
        seen.fetch_add(1, Ordering::SeqCst);
        async { Err(anyhow::anyhow!("the mail server said no")) }
    });
    let started = Instant::now();
    eventually("four runs", || runs.load(Ordering::SeqCst) >= 4).await;
    // Every 30 ms, not sooner: the first run at once, three periods after.
    assert!(started.elapsed() >= Duration::from_millis(85));
    let text = logs.text();
    assert!(
        text.contains("job failed: the mail server said no"),
        "{text}"
    );
    assert!(text.contains("always failing"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test]
async fn stopping_ends_every_job_promptly() {
    let mut jobs = Supervisor::new();
    let counters: Vec<Arc<AtomicUsize>> = (0..3).map(|_| counter()).collect();
    for (name, runs) in ["one", "two", "three"].into_iter().zip(&counters) {
        let runs = runs.clone();
        jobs.every(name, Duration::from_millis(10), move || {
            runs.fetch_add(1, Ordering::SeqCst);
            async { Ok(()) }
        });
    }
    assert_eq!(jobs.len(), 3);
    let token = jobs.token();
    eventually("every job ran twice", || {
        counters.iter().all(|c| c.load(Ordering::SeqCst) >= 2)
    })
    .await;
    let started = Instant::now();
    assert!(jobs.stop(Duration::from_secs(5)).await, "all ended in time");
    assert!(started.elapsed() < Duration::from_millis(500));
    assert!(token.is_cancelled());
    let after: Vec<usize> = counters.iter().map(|c| c.load(Ordering::SeqCst)).collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let later: Vec<usize> = counters.iter().map(|c| c.load(Ordering::SeqCst)).collect();
    assert_eq!(after, later, "no run after the stop");
}

#[tokio::test]
async fn a_run_that_does_not_end_is_aborted_after_the_wait() {
    let (logs, _guard) = Logs::capture();
    let mut jobs = Supervisor::new();
    let started_runs = counter();
    let ended_runs = counter();
    let (started, ended) = (started_runs.clone(), ended_runs.clone());
    jobs.every("stuck", HOUR, move || {
        started.fetch_add(1, Ordering::SeqCst);
        let ended = ended.clone();
        async move {
            tokio::time::sleep(HOUR).await;
            ended.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }
    });
    eventually("the run started", || {
        started_runs.load(Ordering::SeqCst) == 1
    })
    .await;
    let stopping = Instant::now();
    assert!(
        !jobs.stop(Duration::from_millis(100)).await,
        "the run did not end by itself"
    );
    assert!(stopping.elapsed() < Duration::from_secs(2));
    assert_eq!(ended_runs.load(Ordering::SeqCst), 0);
    assert!(logs.text().contains("aborting them"), "{}", logs.text());
}

#[tokio::test]
async fn cancelling_the_token_stops_scheduling() {
    let mut jobs = Supervisor::new();
    let runs = counter();
    let seen = runs.clone();
    jobs.every("ticker", Duration::from_millis(10), move || {
        seen.fetch_add(1, Ordering::SeqCst);
        async { Ok(()) }
    });
    eventually("a run", || runs.load(Ordering::SeqCst) >= 1).await;
    // What SIGTERM does in `serve`.
    jobs.token().cancel();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let after = runs.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(60)).await;
    assert_eq!(runs.load(Ordering::SeqCst), after);
    assert!(jobs.stop(Duration::from_secs(1)).await);
}

#[tokio::test]
async fn the_server_jobs_remove_unused_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        data_dir: dir.path().to_path_buf(),
        ..Config::default()
    };
    let media = config.media_dir();
    std::fs::create_dir_all(&media).unwrap();
    let db = Db::open(&config.database_path()).unwrap();
    let unused = "0123456789abcdef0123456789abcdef";
    let fresh = "fedcba9876543210fedcba9876543210";
    for (hash, created) in [
        (unused, "2026-01-01T00:00:00.000Z"),
        (fresh, "2999-01-01T00:00:00.000Z"),
    ] {
        db.conn()
            .unwrap()
            .execute(
                "INSERT INTO media (hash, source_mime, width, height, created_at)
                 VALUES (?1, 'image/png', 10, 10, ?2)",
                [hash, created],
            )
            .unwrap();
        for width in [400, 800, 1600] {
            std::fs::write(media.join(format!("{hash}-{width}.webp")), b"webp").unwrap();
        }
    }

    let jobs = dealership::server::start_jobs(&dealership::http::AppState::new(
        db.clone(),
        config.clone(),
    ));
    // The picture cleanup, the feed import schedule and the imported photos
    // (docs/parser.md), the self-checks (docs/self-checks.md), the
    // retention run (docs/personal-data.md), the site's card views, the
    // car figures' nightly work (docs/marketplaces.md) and the cards drawn
    // ahead (docs/rendering.md).
    assert_eq!(jobs.len(), 8);
    let probe = db.clone();
    eventually("the unused picture removed", || {
        probe
            .conn()
            .unwrap()
            .query_row("SELECT count(*) FROM media", [], |r| r.get::<_, i64>(0))
            .unwrap()
            == 1
    })
    .await;
    assert!(jobs.stop(Duration::from_secs(5)).await);
    assert!(!media.join(format!("{unused}-800.webp")).exists());
    assert!(
        media.join(format!("{fresh}-800.webp")).exists(),
        "a fresh upload waits for its form"
    );
}

#[tokio::test]
async fn a_worker_that_fails_is_down_until_it_has_run_again_for_a_while() {
    let workers = Arc::new(Workers::default());
    let mut jobs =
        Supervisor::with_restart_delay(Duration::from_millis(20), Duration::from_millis(20))
            .up_after(Duration::from_millis(300))
            .reporting_to(workers.clone());
    let starts = counter();
    let seen = starts.clone();
    // Fails twice at once (a disk that refuses writes), then keeps running.
    jobs.worker("outbox", move |stop| {
        let start = seen.fetch_add(1, Ordering::SeqCst) + 1;
        async move {
            if start <= 2 {
                anyhow::bail!("database or disk is full");
            }
            stop.cancelled().await;
            Ok(())
        }
    });
    eventually("the restarts", || starts.load(Ordering::SeqCst) >= 3).await;
    assert_eq!(
        workers.down_now(),
        [("outbox", "database or disk is full".to_string())],
        "down while it has not run long enough since"
    );
    eventually("up again", || workers.down_now().is_empty()).await;
    assert!(jobs.stop(Duration::from_secs(5)).await);
}

#[tokio::test]
async fn a_periodic_job_that_panics_is_down_until_a_run_ends() {
    let workers = Arc::new(Workers::default());
    let mut jobs =
        Supervisor::with_restart_delay(Duration::from_millis(200), Duration::from_millis(200))
            .reporting_to(workers.clone());
    let runs = counter();
    let seen = runs.clone();
    jobs.every("self-checks", HOUR, move || {
        let run = seen.fetch_add(1, Ordering::SeqCst) + 1;
        async move {
            assert!(run > 1, "run {run} broke");
            Ok(())
        }
    });
    eventually("the panic", || !workers.down_now().is_empty()).await;
    let (name, why) = workers.down_now().remove(0);
    assert_eq!(name, "self-checks");
    assert!(why.contains("run 1 broke"), "{why}");
    eventually("the second run", || runs.load(Ordering::SeqCst) >= 2).await;
    eventually("up again", || workers.down_now().is_empty()).await;
    assert!(jobs.stop(Duration::from_secs(5)).await);
}
