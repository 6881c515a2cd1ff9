//! Calls taken in (`docs/calls.md`, "Webhooks and polls"): a webhook's or a
//! poll's calls recorded and made leads in one transaction through the
//! group commit (`inbox::take`), and the `calls poll` job under the
//! server's supervisor, every 15 minutes, reading each polled provider's
//! journal from where its last good run got to (at most a week back), so a
//! webhook that never came is caught. Each run is recorded in
//! `call_provider_runs`, with when the provider was last heard from.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Days, NaiveDate, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use super::Provider;
use super::clients::CallProviders;
pub use super::inbox::CallsTaken;
use super::inbox::{self, Origin};
use crate::config::Config;
use crate::domain::calls::Call;
use crate::domain::settings;
use crate::error::AppResult;
use crate::jobs::Supervisor;

pub const POLL_EVERY: Duration = Duration::from_secs(15 * 60);
/// The furthest back a poll reads (a server off for longer loses nothing
/// a webhook brought, and the journals keep more).
pub const POLL_DAYS_BACK: u64 = 7;
/// A time-based poll (UIS) reads again this much before where it got to:
/// a call that ended after the last poll began is not missed.
pub const POLL_OVERLAP: chrono::Duration = chrono::Duration::hours(2);

/// What the call providers' runs reach.
#[derive(Clone)]
pub struct CallSync {
    pub db: crate::db::Db,
    pub clock: Arc<crate::clock::Clock>,
    pub config: Arc<Config>,
    pub providers: Arc<CallProviders>,
    pub wake: crate::notify::Wake,
    pub channels: Arc<crate::notify::Channels>,
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Records `found` (calls of `provider`) and makes or joins their leads in
/// one transaction, noting that the provider was heard from; wakes the
/// outbox when something was queued.
pub async fn take_calls(
    sync: &CallSync,
    provider: Provider,
    found: Vec<Call>,
) -> AppResult<CallsTaken> {
    let config = sync.config.clone();
    let now = sync.clock.now();
    let (taken, queued) = sync
        .db
        .write_grouped(move |c| {
            let settings = settings::get(c)?;
            let origin = Origin::Tracking(provider);
            let (taken, queued) = inbox::take_all(c, &config, &settings, origin, &found, now)?;
            if !found.is_empty() {
                heard(c, provider, now)?;
            }
            Ok((taken, queued))
        })
        .await?;
    if !queued.is_empty() && sync.channels.any_ready(&queued) {
        sync.wake.notify_one();
    }
    Ok(taken)
}

/// Notes that `provider` was heard from at `now` (a webhook, or a poll that
/// found calls).
pub fn heard(c: &Connection, provider: Provider, now: DateTime<Utc>) -> AppResult<()> {
    c.prepare_cached(
        "INSERT INTO call_provider_runs (provider, last_heard_at) VALUES (?1, ?2)
         ON CONFLICT (provider) DO UPDATE SET last_heard_at = excluded.last_heard_at",
    )?
    .execute(params![provider.as_str(), stamp(now)])?;
    Ok(())
}

/// A provider's last run and last word, as the admin and the self-checks
/// see them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderRun {
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub ok: Option<bool>,
    pub message: Option<String>,
    /// How far its poll got (a day, or a time).
    pub through: Option<String>,
    /// When it last sent a call (a webhook or a poll that found calls).
    pub last_heard_at: Option<String>,
    /// When the server first ran with it set up.
    pub configured_at: Option<String>,
}

pub fn run_of(c: &Connection, provider: Provider) -> AppResult<ProviderRun> {
    Ok(c.prepare_cached(
        "SELECT started_at, finished_at, ok, message, through, last_heard_at, configured_at
             FROM call_provider_runs WHERE provider = ?1",
    )?
    .query_row([provider.as_str()], |r| {
        Ok(ProviderRun {
            started_at: r.get(0)?,
            finished_at: r.get(1)?,
            ok: r.get(2)?,
            message: r.get(3)?,
            through: r.get(4)?,
            last_heard_at: r.get(5)?,
            configured_at: r.get(6)?,
        })
    })
    .optional()?
    .unwrap_or_default())
}

/// Registers the poll when a polled provider is ready.
pub fn start(jobs: &mut Supervisor, sync: &CallSync) {
    if sync.providers.calltouch.ready().is_none() && sync.providers.uis.ready().is_none() {
        return;
    }
    let s = sync.clone();
    jobs.every("calls poll", POLL_EVERY, move || {
        let s = s.clone();
        async move {
            for provider in [Provider::Calltouch, Provider::Uis] {
                if let Err(why) = poll(&s, provider).await? {
                    tracing::warn!(provider = provider.as_str(), "calls poll: {why}");
                }
            }
            Ok(())
        }
    });
}

/// One poll of `provider`'s journal: Ok(Err(words)) when the provider
/// failed (recorded on the run), Err when our side did (the database).
/// A provider not polled (not configured) gives Ok(Ok(default)).
pub async fn poll(
    sync: &CallSync,
    provider: Provider,
) -> anyhow::Result<Result<CallsTaken, String>> {
    let now = sync.clock.now();
    let today = sync.clock.moscow_today();
    let started = stamp(now);
    let through = {
        let started = started.clone();
        sync.db
            .write_grouped(move |c| {
                c.execute(
                    "INSERT INTO call_provider_runs (provider, started_at) VALUES (?1, ?2)
                     ON CONFLICT (provider) DO UPDATE SET started_at = excluded.started_at",
                    params![provider.as_str(), started],
                )?;
                Ok(run_of(c, provider)?.through)
            })
            .await?
    };
    let read: Result<(Vec<Call>, String), String> = match provider {
        Provider::Calltouch => match sync.providers.calltouch.ready() {
            None => return Ok(Ok(CallsTaken::default())),
            Some(client) => {
                let earliest = today - Days::new(POLL_DAYS_BACK);
                let from = through
                    .as_deref()
                    .and_then(|t| NaiveDate::parse_from_str(t, "%Y-%m-%d").ok())
                    .and_then(|d| d.succ_opt())
                    .unwrap_or(today - Days::new(1))
                    .clamp(earliest, today);
                let mut calls = Vec::new();
                let mut failed = None;
                let mut day = from;
                while day <= today {
                    match client.calls_of_day(day).await {
                        Ok(found) => calls.extend(found),
                        Err(err) => {
                            failed = Some(err.to_string());
                            break;
                        }
                    }
                    day = day.succ_opt().unwrap_or(today + Days::new(1));
                }
                match failed {
                    Some(words) => Err(words),
                    // Today is not over: the next run reads it again.
                    None => Ok((
                        calls,
                        (today - Days::new(1)).max(from - Days::new(1)).to_string(),
                    )),
                }
            }
        },
        Provider::Uis => match sync.providers.uis.ready() {
            None => return Ok(Ok(CallsTaken::default())),
            Some(client) => {
                let earliest = now - chrono::Duration::days(POLL_DAYS_BACK as i64);
                let from = through
                    .as_deref()
                    .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                    .map(|t| t.to_utc() - POLL_OVERLAP)
                    .unwrap_or(now - chrono::Duration::days(1))
                    .max(earliest);
                client
                    .calls_between(from, now)
                    .await
                    .map(|calls| (calls, stamp(now)))
                    .map_err(|err| err.to_string())
            }
        },
        Provider::Mango => return Ok(Ok(CallsTaken::default())),
    };
    let (outcome, through) = match read {
        Ok((calls, through)) => (
            take_calls(sync, provider, calls)
                .await
                .map_err(|e| e.to_string()),
            Some(through),
        ),
        Err(words) => (Err(words), None),
    };
    let finished = stamp(sync.clock.now());
    let (ok, message) = match &outcome {
        Ok(taken) => (
            true,
            format!(
                "новых лидов: {}, к открытым лидам: {}, уже были: {}",
                taken.new_leads, taken.joined, taken.known
            ),
        ),
        Err(words) => (false, words.clone()),
    };
    let through = through.filter(|_| ok);
    sync.db
        .write_grouped(move |c| {
            c.execute(
                "UPDATE call_provider_runs SET finished_at = ?2, ok = ?3, message = ?4,
                    through = coalesce(?5, through)
                 WHERE provider = ?1",
                params![provider.as_str(), finished, ok, message, through],
            )?;
            Ok(())
        })
        .await?;
    Ok(outcome)
}
