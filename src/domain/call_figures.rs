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
pub struct MissedLead {
    pub arrived: DateTime<Utc>,
    /// Working minutes to the first status change; none: not yet.
    pub minutes: Option<i64>,
    pub username: Option<String>,
}

/// The calls and the missed calls' leads of a stretch of time, read once
/// for every period of the report.
pub struct PhoneRecord {
    /// Per Moscow day: the calls, and of them the missed.
    calls: Vec<(NaiveDate, i64, i64)>,
    missed: Vec<MissedLead>,
    threshold: i64,
}

/// The calls that began in a range, counted per Moscow day (UTC+3, no
/// daylight time: `clock::moscow`) from the index alone (`calls_newest`
/// holds `answered`).
const CALLS_BY_DAY: &str = "SELECT substr(datetime(at, '+3 hours'), 1, 10), count(*),
        sum(answered = 0)
    FROM calls WHERE at >= ?1 AND at < ?2 GROUP BY 1";

impl PhoneRecord {
    /// The calls of `[from, to)` (stored times as SQL compares them) and
    /// the missed calls' leads of the same range, read with the others
    /// (`response_times`).
    pub fn read(
        conn: &Connection,
        from: &str,
        to: &str,
        missed: Vec<MissedLead>,
        threshold: i64,
    ) -> AppResult<PhoneRecord> {
        let mut calls = Vec::new();
        let mut stmt = conn.prepare_cached(CALLS_BY_DAY)?;
        let rows = stmt.query_map(params![from, to], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (day, count, missed) = row?;
            if let Ok(day) = NaiveDate::parse_from_str(&day, "%Y-%m-%d") {
                calls.push((day, count, missed));
            }
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
        for (date, calls, missed) in &self.calls {
            if days.contains(date) {
                all.calls += calls;
                all.missed_calls += missed;
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
    fn the_calls_are_counted_from_the_index_alone() {
        let calls = plan(CALLS_BY_DAY);
        assert!(calls.contains("COVERING INDEX calls_newest"), "{calls}");
        assert!(!calls.contains("SCAN calls"), "{calls}");
    }
}
