//! The marketplace jobs under the server's supervisor (registered by
//! `server::start_jobs`), each off the request path, each run recorded:
//! `marketplace report` hourly, `marketplace stats` once a Moscow day (from
//! 03:00, or at once when the last good run is older than 24 hours; a
//! failed run is tried again the next hour), `marketplace calls` every 15
//! minutes; and the on-demand sync of one channel (report, figures, calls)
//! the admin starts, refused while one of them runs.

use std::time::Duration;

use chrono::Timelike;

use super::clients::MarketSync;
use super::runs::{run_calls, run_report, run_stats};
use crate::domain::marketplace_runs::{self as runs, Job};
use crate::jobs::Supervisor;
use crate::marketplaces::Channel;

pub const REPORT_EVERY: Duration = Duration::from_secs(60 * 60);
/// How often the figures' job looks whether a day is due.
pub const STATS_LOOK_EVERY: Duration = Duration::from_secs(60 * 60);
pub const CALLS_EVERY: Duration = Duration::from_secs(15 * 60);
/// The Moscow hour from which yesterday's figures are read.
pub const STATS_FROM_HOUR: u32 = 3;

/// The refusal of a second sync while one runs.
pub const SYNC_BUSY: &str = "Обновление данных этой площадки уже идёт: дождитесь его конца";

/// Registers the three jobs when a marketplace is ready.
pub fn start(jobs: &mut Supervisor, sync: &MarketSync) {
    if sync.markets.ready().is_empty() {
        return;
    }
    let s = sync.clone();
    jobs.every("marketplace report", REPORT_EVERY, move || {
        let s = s.clone();
        async move { each(&s, Job::Report).await }
    });
    let s = sync.clone();
    jobs.every("marketplace stats", STATS_LOOK_EVERY, move || {
        let s = s.clone();
        async move { each(&s, Job::Stats).await }
    });
    let s = sync.clone();
    jobs.every("marketplace calls", CALLS_EVERY, move || {
        let s = s.clone();
        async move { each(&s, Job::Calls).await }
    });
}

/// One tick of `job` on every ready channel (a channel where it runs now is
/// left for the next tick).
async fn each(sync: &MarketSync, job: Job) -> anyhow::Result<()> {
    for channel in sync.markets.ready() {
        let Some(_taken) = sync.markets.take(channel, &[job]) else {
            continue;
        };
        let outcome = match job {
            Job::Report => run_report(sync, channel).await?,
            Job::Stats => {
                if !stats_due(sync, channel).await? {
                    continue;
                }
                run_stats(sync, channel).await?
            }
            Job::Calls => run_calls(sync, channel).await?,
            Job::Check => continue,
        };
        if let Err(why) = outcome {
            tracing::warn!(channel = channel.as_str(), job = job.as_str(), "{why}");
        }
    }
    Ok(())
}

/// Whether the figures of `channel` are to be read now: not yet recorded
/// through yesterday, and it is past 03:00 in Moscow or the last good run
/// is older than 24 hours (a server started after a pause catches up).
async fn stats_due(sync: &MarketSync, channel: Channel) -> anyhow::Result<bool> {
    let now = sync.clock.now();
    let moscow = sync.clock.moscow_now();
    let yesterday = moscow.date_naive() - chrono::Days::new(1);
    let (through, last_ok) = sync
        .db
        .call(move |c| {
            Ok((
                runs::stats_through(c, channel)?,
                runs::last_ok(c, channel, Job::Stats)?,
            ))
        })
        .await?;
    if through.is_some_and(|day| day >= yesterday) {
        return Ok(false);
    }
    let stale = last_ok
        .and_then(|run| run.finished_at)
        .and_then(|at| chrono::DateTime::parse_from_rfc3339(&at).ok())
        .is_none_or(|at| now - at.to_utc() > chrono::Duration::hours(24));
    Ok(stale || moscow.hour() >= STATS_FROM_HOUR)
}

/// Starts report, figures and calls of `channel` now in the background;
/// false (nothing started) when one of them runs.
pub fn sync_now(sync: &MarketSync, channel: Channel) -> bool {
    let jobs = [Job::Report, Job::Stats, Job::Calls];
    let Some(taken) = sync.markets.take(channel, &jobs) else {
        return false;
    };
    let s = sync.clone();
    tokio::spawn(async move {
        let _taken = taken;
        for job in jobs {
            let ran = match job {
                Job::Report => run_report(&s, channel).await,
                Job::Stats => run_stats(&s, channel).await,
                _ => run_calls(&s, channel).await,
            };
            match ran {
                Ok(Err(why)) => {
                    tracing::warn!(channel = channel.as_str(), job = job.as_str(), "{why}")
                }
                Err(err) => {
                    tracing::error!(channel = channel.as_str(), job = job.as_str(), "{err}")
                }
                Ok(Ok(_)) => {}
            }
        }
    });
    true
}
