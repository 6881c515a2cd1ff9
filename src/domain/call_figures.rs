//! The phone in the response times (`docs/response-times.md`, "Calls"): how
//! many calls came in a period and how many were missed, and of the missed
//! calls' leads (type `missed_call`, each with a call-back deadline) how many
//! were called back, and how many within the deadline: the response
//! threshold in working minutes after the call, the same minutes as a
//! form's response time. In all and per staff user (the lead's assignee; an
//! unassigned lead answered counts for whoever answered it).

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{Connection, params};
use serde::Serialize;
use utoipa::ToSchema;

use super::hours::WorkSchedule;
use crate::error::AppResult;

/// The missed calls' leads of a group and how they were called back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MissedCallFigures {
    /// Missed calls that became leads of their own («Пропущенный звонок»).
    pub missed: i64,
    /// Of them, called back (their first status change recorded).
    pub called_back: i64,
    /// Of them, called back within the deadline (the threshold in working
    /// minutes after the call).
    pub in_time: i64,
}

/// The phone in a period: every call received, and the missed calls'
/// leads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PhoneFigures {
    /// Calls received (call tracking, the PBX and the marketplaces).
    pub calls: i64,
    /// Of them, not taken.
    pub missed_calls: i64,
    #[serde(flatten)]
    pub callbacks: MissedCallFigures,
}

/// A missed call's lead: when it came, whether and how fast it was
/// answered, and whom it counts for.
struct MissedLead {
    arrived: DateTime<Utc>,
    /// Working minutes to the first status change; none: not yet.
    minutes: Option<i64>,
    username: Option<String>,
}

/// The calls and the missed calls' leads of a stretch of time, read once
/// for every period of the report.
pub struct PhoneRecord {
    calls: Vec<(NaiveDate, bool)>,
    missed: Vec<MissedLead>,
    threshold: i64,
}

/// The missed calls' leads that arrived in a range, each with its first
/// status entry when it has one (`leads_type`, `audit_log_object_action`).
const MISSED_LEADS: &str = "SELECT l.created_at, a.at, coalesce(u.username, a.username)
    FROM leads l
    LEFT JOIN audit_log a ON a.id = (
        SELECT f.id FROM audit_log f
        WHERE f.object_type = 'lead' AND f.object_id = l.id AND f.action = 'status'
        ORDER BY f.at, f.id LIMIT 1)
    LEFT JOIN users u ON u.id = l.assignee_id
    WHERE l.type = 'missed_call' AND l.created_at >= ?1 AND l.created_at < ?2";

/// The calls that began in a range (`calls_newest`).
const CALLS: &str = "SELECT at, answered FROM calls WHERE at >= ?1 AND at < ?2";

impl PhoneRecord {
    /// Reads `[from, to)` (stored times as SQL compares them).
    pub fn read(
        conn: &Connection,
        schedule: &WorkSchedule,
        threshold: i64,
        from: &str,
        to: &str,
        moscow_date: impl Fn(DateTime<Utc>) -> NaiveDate,
    ) -> AppResult<PhoneRecord> {
        let parse = |text: &str| {
            DateTime::parse_from_rfc3339(text)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        };
        let mut calls = Vec::new();
        let mut stmt = conn.prepare_cached(CALLS)?;
        let rows = stmt.query_map(params![from, to], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?))
        })?;
        for row in rows {
            let (at, answered) = row?;
            if let Some(at) = parse(&at) {
                calls.push((moscow_date(at), answered));
            }
        }
        let mut missed = Vec::new();
        let mut stmt = conn.prepare_cached(MISSED_LEADS)?;
        let rows = stmt.query_map(params![from, to], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })?;
        for row in rows {
            let (created, answered, username) = row?;
            let Some(arrived) = parse(&created) else {
                continue;
            };
            let minutes = answered
                .as_deref()
                .and_then(parse)
                .map(|at| schedule.working_minutes_between(arrived, at));
            missed.push(MissedLead {
                arrived,
                minutes,
                username,
            });
        }
        Ok(PhoneRecord {
            calls,
            missed,
            threshold,
        })
    }

    /// The figures of the Moscow dates `days`, in all and per user (by
    /// login).
    pub fn period(
        &self,
        days: RangeInclusive<NaiveDate>,
        moscow_date: impl Fn(DateTime<Utc>) -> NaiveDate,
    ) -> (PhoneFigures, BTreeMap<String, MissedCallFigures>) {
        let mut all = PhoneFigures::default();
        for (date, answered) in &self.calls {
            if days.contains(date) {
                all.calls += 1;
                all.missed_calls += i64::from(!answered);
            }
        }
        let mut users: BTreeMap<String, MissedCallFigures> = BTreeMap::new();
        for lead in &self.missed {
            if !days.contains(&moscow_date(lead.arrived)) {
                continue;
            }
            let add = |f: &mut MissedCallFigures| {
                f.missed += 1;
                if let Some(minutes) = lead.minutes {
                    f.called_back += 1;
                    f.in_time += i64::from(minutes <= self.threshold);
                }
            };
            add(&mut all.callbacks);
            if let Some(username) = &lead.username {
                add(users.entry(username.clone()).or_default());
            }
        }
        (all, users)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(sql: &str) -> String {
        let mut conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        crate::db::migrate(&mut conn).unwrap_or_else(|e| panic!("{e}"));
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .and_then(|mut s| {
                s.query_map(["a", "b"], |r| r.get::<_, String>(3))?
                    .collect::<Result<_, _>>()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        plan.join("\n")
    }

    #[test]
    fn the_queries_seek_their_rows() {
        let missed = plan(MISSED_LEADS);
        assert!(missed.contains("leads_type"), "{missed}");
        assert!(missed.contains("audit_log_object_action"), "{missed}");
        assert!(!missed.contains("SCAN"), "{missed}");
        let calls = plan(CALLS);
        assert!(calls.contains("calls_newest"), "{calls}");
        assert!(!calls.contains("SCAN calls"), "{calls}");
    }
}
