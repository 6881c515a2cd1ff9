//! How each marketplace job last ran (`marketplace_runs`, V34 and V36): the
//! connection check, the feed's report, the figures and the calls, one row
//! per channel and job with its start, end, outcome and message, and how
//! far the job got (`through`: the figures' last day fully recorded, the
//! newest call seen). `docs/marketplaces.md`, "Jobs and checks".

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::AppResult;
use crate::marketplaces::Channel;

/// A marketplace job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Job {
    Check,
    Report,
    Stats,
    Calls,
}

impl Job {
    pub fn as_str(self) -> &'static str {
        match self {
            Job::Check => "check",
            Job::Report => "report",
            Job::Stats => "stats",
            Job::Calls => "calls",
        }
    }

    fn parse(text: &str) -> Option<Job> {
        [Job::Check, Job::Report, Job::Stats, Job::Calls]
            .into_iter()
            .find(|job| job.as_str() == text)
    }
}

/// A job's last run.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub job: Job,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// None while it runs (or when the server stopped during it).
    pub finished_at: Option<String>,
    /// None while it runs.
    pub ok: Option<bool>,
    /// What it did, or why it failed, in Russian.
    pub message: Option<String>,
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Marks the start of `job` on `channel` (its last outcome cleared, how far
/// it got kept).
pub fn started(conn: &Connection, channel: Channel, job: Job, at: DateTime<Utc>) -> AppResult<()> {
    conn.prepare_cached(
        "INSERT INTO marketplace_runs (channel, job, started_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (channel, job) DO UPDATE SET started_at = excluded.started_at,
            finished_at = NULL, ok = NULL, message = NULL",
    )?
    .execute(params![channel.as_str(), job.as_str(), stamp(at)])?;
    Ok(())
}

/// Records how `job` on `channel` ended.
pub fn finished(
    conn: &Connection,
    channel: Channel,
    job: Job,
    ok: bool,
    message: &str,
    at: DateTime<Utc>,
) -> AppResult<()> {
    conn.prepare_cached(
        "INSERT INTO marketplace_runs (channel, job, started_at, finished_at, ok, message)
         VALUES (?1, ?2, ?3, ?3, ?4, ?5)
         ON CONFLICT (channel, job) DO UPDATE SET finished_at = excluded.finished_at,
            ok = excluded.ok, message = excluded.message",
    )?
    .execute(params![
        channel.as_str(),
        job.as_str(),
        stamp(at),
        ok,
        message
    ])?;
    Ok(())
}

/// Each job's last run on `channel`, in the order check, report, stats, calls.
pub fn runs(conn: &Connection, channel: Channel) -> AppResult<Vec<Run>> {
    let mut stmt = conn.prepare_cached(
        "SELECT job, started_at, finished_at, ok, message FROM marketplace_runs
         WHERE channel = ?1",
    )?;
    let rows = stmt.query_map([channel.as_str()], |r| {
        Ok((
            r.get::<_, String>(0)?,
            Run {
                job: Job::Check,
                started_at: r.get(1)?,
                finished_at: r.get(2)?,
                ok: r.get(3)?,
                message: r.get(4)?,
            },
        ))
    })?;
    let mut runs = Vec::new();
    for row in rows {
        let (job, mut run) = row?;
        if let Some(job) = Job::parse(&job) {
            run.job = job;
            runs.push(run);
        }
    }
    runs.sort_by_key(|run| run.job as u8);
    Ok(runs)
}

/// When `job` on `channel` last ended well.
pub fn last_ok(conn: &Connection, channel: Channel, job: Job) -> AppResult<Option<Run>> {
    Ok(runs(conn, channel)?
        .into_iter()
        .find(|run| run.job == job && run.ok == Some(true)))
}

/// How far `job` on `channel` got (`through`), as stored.
pub fn through(conn: &Connection, channel: Channel, job: Job) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT through FROM marketplace_runs WHERE channel = ?1 AND job = ?2")?
        .query_row([channel.as_str(), job.as_str()], |r| r.get(0))
        .optional()?
        .flatten())
}

/// Moves how far `job` on `channel` got.
pub fn set_through(conn: &Connection, channel: Channel, job: Job, through: &str) -> AppResult<()> {
    conn.prepare_cached(
        "UPDATE marketplace_runs SET through = ?3 WHERE channel = ?1 AND job = ?2",
    )?
    .execute(params![channel.as_str(), job.as_str(), through])?;
    Ok(())
}

/// The last Moscow day whose figures are fully recorded on `channel`.
pub fn stats_through(conn: &Connection, channel: Channel) -> AppResult<Option<NaiveDate>> {
    Ok(through(conn, channel, Job::Stats)?
        .and_then(|day| NaiveDate::parse_from_str(&day, "%Y-%m-%d").ok()))
}

/// The time of the newest call seen on `channel`.
pub fn calls_through(conn: &Connection, channel: Channel) -> AppResult<Option<DateTime<Utc>>> {
    Ok(through(conn, channel, Job::Calls)?
        .and_then(|at| DateTime::parse_from_rfc3339(&at).ok())
        .map(|at| at.to_utc()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_started_finished_and_read_back_with_how_far_it_got() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE marketplace_runs (channel TEXT NOT NULL, job TEXT NOT NULL,
                started_at TEXT NOT NULL, finished_at TEXT, ok INTEGER, message TEXT,
                through TEXT, PRIMARY KEY (channel, job))",
        )
        .unwrap();
        let now = Utc::now();
        started(&conn, Channel::Avito, Job::Stats, now).unwrap();
        set_through(&conn, Channel::Avito, Job::Stats, "2026-05-01").unwrap();
        assert_eq!(runs(&conn, Channel::Avito).unwrap()[0].ok, None);
        finished(&conn, Channel::Avito, Job::Stats, true, "готово", now).unwrap();
        started(&conn, Channel::Avito, Job::Check, now).unwrap();
        let read = runs(&conn, Channel::Avito).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].job, Job::Check);
        assert_eq!(read[1].message.as_deref(), Some("готово"));
        assert!(
            last_ok(&conn, Channel::Avito, Job::Stats)
                .unwrap()
                .is_some()
        );
        assert_eq!(
            stats_through(&conn, Channel::Avito).unwrap(),
            NaiveDate::from_ymd_opt(2026, 5, 1)
        );
        started(&conn, Channel::Avito, Job::Stats, now).unwrap();
        assert_eq!(
            stats_through(&conn, Channel::Avito).unwrap(),
            NaiveDate::from_ymd_opt(2026, 5, 1)
        );
        assert!(runs(&conn, Channel::Autoru).unwrap().is_empty());
    }
}
