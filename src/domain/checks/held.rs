//! The self-checks' last result in memory (`SelfChecks`, kept by the state):
//! run again when the data or the day changed, with replication's problems
//! added.

use super::problem::{CheckKind, ChecksReport, Problem, Severity, problem};
use super::run::run;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::Db;
use crate::error::AppResult;
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use rusqlite::Connection;
use std::sync::{Arc, Mutex};

/// The held report with replication's problems first (they are errors):
/// those are looked at every half minute by `serve`
/// (`crate::ops::replica_state`), not held with the content.
pub fn with_replication(
    report: &ChecksReport,
    replica: Option<&crate::ops::replica_state::ReplicaStatus>,
) -> ChecksReport {
    let mut problems: Vec<Problem> = replica
        .map(|status| {
            status
                .problems
                .iter()
                .map(|why| {
                    problem(
                        CheckKind::ReplicationFailing,
                        "Резервная копия в хранилище не обновляется",
                        format!(
                            "{why}. Сайт работает, но новые заявки и изображения не попадают \
                             в хранилище ({}): проверьте ключ доступа, хранилище и журнал \
                             сервера (journalctl -u dealership | grep replication)",
                            status.target
                        ),
                        "/admin".into(),
                        None,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    problems.extend(report.problems.iter().cloned());
    ChecksReport {
        checked_at: report.checked_at.clone(),
        count: problems.len() as i64,
        problems,
    }
}

/// The last result, kept until the content version, the refused ads or the
/// Moscow date change.
#[derive(Default)]
pub struct SelfChecks {
    /// What is set up (the processors in use); the defaults without one.
    pub(super) config: Arc<Config>,
    pub(super) held: Mutex<Option<Held>>,
    /// The Moscow day the nightly job last logged.
    pub(super) logged: Mutex<Option<NaiveDate>>,
}

pub(super) struct Held {
    pub(super) version: i64,
    /// The refused ads' mark: no marketplace report moves the content
    /// version (`marketplace_ads::refused_mark`).
    pub(super) refused: (i64, Option<String>),
    pub(super) day: NaiveDate,
    pub(super) report: Arc<ChecksReport>,
}

impl SelfChecks {
    /// The checks of a server set up by `config`.
    pub fn for_config(config: Arc<Config>) -> SelfChecks {
        SelfChecks {
            config,
            ..SelfChecks::default()
        }
    }

    /// The result for the content as it is now and the Moscow date, from
    /// the held one when neither changed. Gives whether it was recomputed.
    pub fn current_in(
        &self,
        conn: &mut Connection,
        today: NaiveDate,
        now: DateTime<Utc>,
    ) -> AppResult<(Arc<ChecksReport>, bool)> {
        // One read transaction: the version and the checks see one snapshot.
        let tx = conn.transaction()?;
        let version = crate::db::content_version(&tx)?;
        let refused = crate::domain::marketplace_ads::refused_mark(&tx)?;
        {
            let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(h) = held.as_ref()
                && h.version == version
                && h.refused == refused
                && h.day == today
            {
                return Ok((h.report.clone(), false));
            }
        }
        let problems = run(&tx, today, &self.config)?;
        drop(tx);
        let report = Arc::new(ChecksReport {
            checked_at: now.to_rfc3339_opts(SecondsFormat::Millis, true),
            count: problems.len() as i64,
            problems,
        });
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(Held {
            version,
            refused,
            day: today,
            report: report.clone(),
        });
        Ok((report, true))
    }

    /// [`SelfChecks::current_in`] on the blocking pool, on `clock`'s date.
    pub async fn current(
        self: &Arc<Self>,
        db: &Db,
        clock: &Arc<Clock>,
    ) -> AppResult<Arc<ChecksReport>> {
        let (checks, clock) = (self.clone(), clock.clone());
        let (report, _) = db
            .call(move |c| checks.current_in(c, clock.moscow_today(), clock.now()))
            .await?;
        Ok(report)
    }

    /// The nightly job's run: brings the result up to date and, once per
    /// Moscow day (the first run after midnight, or after a start), logs how
    /// many problems there are. Gives the count when it logged.
    pub async fn nightly(self: &Arc<Self>, db: &Db, clock: &Arc<Clock>) -> AppResult<Option<i64>> {
        let today = clock.moscow_today();
        let report = self.current(db, clock).await?;
        {
            let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
            if *logged == Some(today) {
                return Ok(None);
            }
            *logged = Some(today);
        }
        let errors = report
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count();
        if report.count > 0 {
            let mut kinds: Vec<&str> = report.problems.iter().map(|p| p.check.as_str()).collect();
            kinds.dedup();
            tracing::warn!(
                problems = report.count,
                errors,
                checks = kinds.join(","),
                "self-checks for {today}: {} problems (GET /api/admin/checks)",
                report.count
            );
        } else {
            tracing::info!("self-checks for {today}: no problems");
        }
        Ok(Some(report.count))
    }
}
