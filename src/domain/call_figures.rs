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

/// The missed calls' leads of a stretch of time, read once for every
/// period of the report (with the period's other leads, `response_times`).
pub struct PhoneRecord {
    pub missed: Vec<MissedLead>,
    pub threshold: i64,
}

/// How many calls began in a range and how many of them were missed, from
/// the index alone (`calls_newest` holds `answered`).
const CALLS_BETWEEN: &str =
    "SELECT count(*), coalesce(sum(answered = 0), 0) FROM calls WHERE at >= ?1 AND at < ?2";

/// The calls of `[from, to)` (stored times as SQL compares them): how many,
/// and how many missed.
pub fn calls_between(
    conn: &Connection,
    from: &str,
    to: &str,
    salon: Option<i64>,
) -> AppResult<(i64, i64)> {
    let read = |r: &rusqlite::Row| Ok((r.get(0)?, r.get(1)?));
    Ok(match salon {
        None => conn
            .prepare_cached(CALLS_BETWEEN)?
            .query_row(params![from, to], read)?,
        Some(salon) => conn
            .prepare_cached(CALLS_BETWEEN_IN_SALON)?
            .query_row(params![from, to, salon], read)?,
    })
}

/// [`CALLS_BETWEEN`] of one salon: the calls about its cars (a call about
/// no car is the main salon's).
const CALLS_BETWEEN_IN_SALON: &str = "SELECT count(*), coalesce(sum(answered = 0), 0) FROM calls
    WHERE at >= ?1 AND at < ?2
      AND coalesce((SELECT c.salon_id FROM cars c WHERE c.id = calls.car_id), 1) = ?3";

impl PhoneRecord {
    /// The figures of the Moscow dates `days`, in all and per user (by
    /// login).
    /// `calls`: the period's calls and missed calls ([`calls_between`]).
    pub fn period(
        &self,
        days: RangeInclusive<NaiveDate>,
        moscow_date: impl Fn(DateTime<Utc>) -> NaiveDate,
        calls: (i64, i64),
    ) -> (PhoneFigures, BTreeMap<String, MissedCallFigures>) {
        let mut all = PhoneFigures {
            calls: calls.0,
            missed_calls: calls.1,
            ..PhoneFigures::default()
        };
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
        let calls = plan(CALLS_BETWEEN);
        assert!(calls.contains("COVERING INDEX calls_newest"), "{calls}");
        assert!(!calls.contains("SCAN calls"), "{calls}");
    }
}
