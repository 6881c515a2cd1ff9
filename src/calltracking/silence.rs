//! A configured provider that has sent nothing for a working day
//! (`docs/calls.md`, "Checks"): its webhook's address changed, its
//! integration was switched off, or the firewall drops it. Silence is
//! counted in working minutes (settings `workSchedule`) from the last call
//! heard, or from when the server first ran with the provider set up.

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, params};

use super::Provider;
use super::jobs::run_of;
use crate::config::Config;
use crate::domain::hours::WorkSchedule;
use crate::error::AppResult;

/// The providers `config` sets up (a webhook or an API).
pub fn configured(config: &Config) -> Vec<Provider> {
    Provider::ALL
        .into_iter()
        .filter(|p| match p {
            Provider::Calltouch => config.calltouch.is_configured(),
            Provider::Uis => config.uis.is_configured(),
            Provider::Mango => config.mango.is_configured(),
        })
        .collect()
}

/// Notes, once, when the server first ran with each configured provider.
pub fn note_configured(c: &Connection, config: &Config, now: DateTime<Utc>) -> AppResult<()> {
    let at = now.to_rfc3339_opts(SecondsFormat::Millis, true);
    for provider in configured(config) {
        c.execute(
            "INSERT INTO call_provider_runs (provider, configured_at) VALUES (?1, ?2)
             ON CONFLICT (provider) DO UPDATE
             SET configured_at = coalesce(configured_at, excluded.configured_at)",
            params![provider.as_str(), at],
        )?;
    }
    Ok(())
}

/// The working minutes of the schedule's longest day: "a working day".
fn day_minutes(schedule: &WorkSchedule) -> i64 {
    let today = Utc::now().date_naive();
    (0..7)
        .filter_map(|d| today.checked_add_days(chrono::Days::new(d)))
        .filter_map(|date| schedule.hours_of(date))
        .map(|(open, close)| (close - open).num_minutes())
        .max()
        .unwrap_or(0)
}

/// The configured providers silent for a working day at `now`, each with
/// the moment it was last heard from (or set up).
pub fn silent(
    c: &Connection,
    config: &Config,
    schedule: &WorkSchedule,
    now: DateTime<Utc>,
) -> AppResult<Vec<(Provider, DateTime<Utc>)>> {
    let day = day_minutes(schedule);
    if day == 0 {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for provider in configured(config) {
        let run = run_of(c, provider)?;
        let Some(since) = run
            .last_heard_at
            .or(run.configured_at)
            .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
            .map(|t| t.to_utc())
        else {
            continue;
        };
        if schedule.working_minutes_between(since, now) >= day {
            out.push((provider, since));
        }
    }
    Ok(out)
}
