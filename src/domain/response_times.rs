//! How fast the staff answer leads (`docs/response-times.md`): a lead's
//! response time is the working time (settings `workSchedule`, Moscow) from
//! its arrival to its first status change in the audit trail, made by the
//! staff user who answers for it. Median and 90th percentile (nearest rank)
//! for today, this week and last week by the Moscow arrival date, in all and
//! per user, day by day for the last 14 days; the leads still `new` past the
//! threshold (settings `responseThresholdMinutes`), and the reminder each of
//! them gets once through the outbox.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, SecondsFormat, Utc};
use rusqlite::{Connection, params};
use serde::Serialize;
use utoipa::ToSchema;

use super::call_figures::{self, MissedCallFigures, MissedLead, PhoneFigures, PhoneRecord};
use super::hours::WorkSchedule;
use super::leads::LeadType;
use super::outbox::{self, Channel, Kind};
use super::settings::{self, Settings};
use crate::clock::moscow;
use crate::error::AppResult;

/// Days the chart shows, today included.
pub const DAILY_DAYS: i64 = 14;
/// The most overdue leads listed.
pub const OVERDUE_LIMIT: usize = 50;
/// Leads that arrived longer ago than this are never reminded: a lead
/// forgotten for weeks (or older than the reminder itself) gets no mail.
pub const REMIND_WITHIN_DAYS: i64 = 14;
/// The most reminders one run queues; the next run takes the rest.
pub const REMIND_BATCH: usize = 100;

/// Figures of a group of answered leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResponseFigures {
    /// Leads of the group answered (their first status change recorded).
    pub answered: i64,
    /// Median response time in working minutes (nearest rank); null when
    /// none was answered.
    pub median_minutes: Option<i64>,
    /// 90th percentile in working minutes (nearest rank); null when none
    /// was answered.
    pub p90_minutes: Option<i64>,
}

impl ResponseFigures {
    /// The figures of some response times, in any order.
    pub fn of(mut minutes: Vec<i64>) -> ResponseFigures {
        minutes.sort_unstable();
        ResponseFigures {
            answered: minutes.len() as i64,
            median_minutes: nearest_rank(&minutes, 50),
            p90_minutes: nearest_rank(&minutes, 90),
        }
    }
}

/// The `percent` percentile of sorted values by the nearest-rank method:
/// the value at rank ⌈percent × n / 100⌉ (1-based); none of no values.
pub fn nearest_rank(sorted: &[i64], percent: usize) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (percent * sorted.len())
        .div_ceil(100)
        .clamp(1, sorted.len());
    sorted.get(rank - 1).copied()
}

/// One staff user's figures in a period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserResponseFigures {
    /// The login of the leads' assignee (of an unassigned lead: of the
    /// user who made its first status change).
    pub username: String,
    pub answered: i64,
    pub median_minutes: Option<i64>,
    pub p90_minutes: Option<i64>,
    /// The missed calls' leads they answer for, and how they were called
    /// back (`docs/response-times.md`, "Calls").
    pub missed_calls: MissedCallFigures,
}

/// Which period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub enum ResponsePeriodName {
    #[serde(rename = "today")]
    Today,
    /// Monday to Sunday of the current Moscow week.
    #[serde(rename = "thisWeek")]
    ThisWeek,
    /// Monday to Sunday of the week before.
    #[serde(rename = "lastWeek")]
    LastWeek,
}

/// The figures of the leads that arrived in a period (Moscow dates).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResponsePeriod {
    pub period: ResponsePeriodName,
    /// The first day, "YYYY-MM-DD" (Moscow).
    #[schema(example = "2026-11-23")]
    pub from: String,
    /// The last day, included.
    #[schema(example = "2026-11-29")]
    pub to: String,
    pub all: ResponseFigures,
    /// The calls of the period and the missed calls called back.
    pub phone: PhoneFigures,
    /// Each user who answered a lead of the period or has a missed call of
    /// it to call back, most answers first.
    pub users: Vec<UserResponseFigures>,
}

/// One day of the chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResponseDay {
    /// "YYYY-MM-DD" (Moscow): the leads that arrived that day.
    #[schema(example = "2026-11-10")]
    pub date: String,
    pub answered: i64,
    pub median_minutes: Option<i64>,
    pub p90_minutes: Option<i64>,
}

/// A lead still `new` past the threshold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverdueLead {
    pub id: String,
    pub name: String,
    pub phone: String,
    #[serde(rename = "type")]
    pub lead_type: LeadType,
    pub created_at: String,
    /// Working minutes since it arrived.
    pub waiting_minutes: i64,
    /// When its reminder was queued; null while not reminded.
    pub reminded_at: Option<String>,
    /// Who it is assigned to; null while unassigned.
    pub assignee_id: Option<String>,
}

/// `GET /api/admin/response-times`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResponseTimes {
    /// Settings `responseThresholdMinutes`.
    pub threshold_minutes: i64,
    /// Today, this week, last week.
    pub periods: Vec<ResponsePeriod>,
    /// The last 14 Moscow days, oldest first, every day present.
    pub daily: Vec<ResponseDay>,
    /// Leads still `new` waiting at least the threshold, longest first, at
    /// most 50.
    pub overdue: Vec<OverdueLead>,
}

/// An answered lead: when it arrived, when and by whom it was answered.
struct Answered {
    arrived: DateTime<Utc>,
    minutes: i64,
    username: String,
}

/// A stored time as SQL compares it: RFC 3339 UTC with milliseconds.
fn stored(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn parse(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Midnight of a Moscow date, in UTC.
fn midnight(date: NaiveDate) -> DateTime<Utc> {
    super::hours::moscow_moment(date, NaiveTime::MIN)
        .unwrap_or_else(|| date.and_time(NaiveTime::MIN).and_utc())
}

fn moscow_date(at: DateTime<Utc>) -> NaiveDate {
    at.with_timezone(&moscow()).date_naive()
}

fn date_text(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// The leads that arrived in a range, each with its first status entry
/// when it has one, and whether it is a missed call's. It counts for the
/// lead's assignee; an unassigned lead for whoever answered it.
/// The leads come from `leads_created` alone (it holds the id, type and
/// assignee); the assignees' logins from a map of the few staff users.
const ANSWERED: &str = "SELECT l.created_at, a.at, a.username, l.assignee_id,
        l.type = 'missed_call'
    FROM leads l
    LEFT JOIN audit_log a ON a.id = (
        SELECT f.id FROM audit_log f
        WHERE f.object_type = 'lead' AND f.object_id = l.id AND f.action = 'status'
        ORDER BY f.at, f.id LIMIT 1)
    WHERE l.created_at >= ?1 AND l.created_at < ?2";

/// [`ANSWERED`] of one salon's leads (`docs/salons.md`): the rows are read,
/// the all-salons report keeps to the index.
const ANSWERED_IN_SALON: &str = "SELECT l.created_at, a.at, a.username, l.assignee_id,
        l.type = 'missed_call'
    FROM leads l
    LEFT JOIN audit_log a ON a.id = (
        SELECT f.id FROM audit_log f
        WHERE f.object_type = 'lead' AND f.object_id = l.id AND f.action = 'status'
        ORDER BY f.at, f.id LIMIT 1)
    WHERE l.created_at >= ?1 AND l.created_at < ?2 AND coalesce(l.salon_id, 1) = ?3";

/// The leads that arrived in `[from, to)` and were answered, with their
/// response time, and the missed calls' leads answered or not: one pass
/// over the period's leads (`leads_created`), each joined with its first
/// status entry (`audit_log_object_action`).
fn answered_between(
    conn: &Connection,
    schedule: &WorkSchedule,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    salon: Option<i64>,
) -> AppResult<(Vec<Answered>, Vec<MissedLead>)> {
    let logins: std::collections::HashMap<String, String> = conn
        .prepare_cached("SELECT id, username FROM users")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let (sql, salon) = match salon {
        Some(id) => (ANSWERED_IN_SALON, id),
        None => (ANSWERED, 0),
    };
    let mut stmt = conn.prepare_cached(sql)?;
    let (from, to) = (stored(from), stored(to));
    let values = if sql == ANSWERED {
        params![from, to].to_vec()
    } else {
        params![from, to, salon].to_vec()
    };
    let rows = stmt.query_map(values.as_slice(), |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<String>>(1)?,
            r.get::<_, Option<String>>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, bool>(4)?,
        ))
    })?;
    let mut answered = Vec::new();
    let mut missed = Vec::new();
    for row in rows {
        let (created, first_status, answered_by, assignee, missed_call) = row?;
        // The assignee's login; an unassigned (or deleted user's) lead counts
        // for whoever answered it.
        let username = assignee
            .and_then(|id| logins.get(&id).cloned())
            .or(answered_by);
        let Some(arrived) = parse(&created) else {
            continue;
        };
        let minutes = first_status
            .as_deref()
            .and_then(parse)
            .map(|at| schedule.working_minutes_between(arrived, at));
        if missed_call {
            missed.push(MissedLead {
                arrived,
                minutes,
                username: username.clone(),
            });
        }
        if let (Some(minutes), Some(username)) = (minutes, username) {
            answered.push(Answered {
                arrived,
                minutes,
                username,
            });
        }
    }
    Ok((answered, missed))
}

/// The figures of the answered leads that arrived on Moscow dates
/// `from..=to`, in all and per user.
fn period(
    name: ResponsePeriodName,
    from: NaiveDate,
    to: NaiveDate,
    answered: &[Answered],
    phone: &PhoneRecord,
    calls: (i64, i64),
) -> ResponsePeriod {
    let within: Vec<&Answered> = answered
        .iter()
        .filter(|a| (from..=to).contains(&moscow_date(a.arrived)))
        .collect();
    let mut by_user: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    for a in &within {
        by_user.entry(&a.username).or_default().push(a.minutes);
    }
    let (phone, missed_calls) = phone.period(from..=to, moscow_date, calls);
    for username in missed_calls.keys() {
        by_user.entry(username).or_default();
    }
    let mut users: Vec<UserResponseFigures> = by_user
        .into_iter()
        .map(|(username, minutes)| {
            let f = ResponseFigures::of(minutes);
            UserResponseFigures {
                username: username.to_string(),
                answered: f.answered,
                median_minutes: f.median_minutes,
                p90_minutes: f.p90_minutes,
                missed_calls: missed_calls.get(username).copied().unwrap_or_default(),
            }
        })
        .collect();
    // Most answers first; the map gave them by name.
    users.sort_by_key(|u| std::cmp::Reverse(u.answered));
    ResponsePeriod {
        period: name,
        from: date_text(from),
        to: date_text(to),
        all: ResponseFigures::of(within.iter().map(|a| a.minutes).collect()),
        phone,
        users,
    }
}

/// The whole report at the moment `now` (the server's clock), of every
/// salon or of one (its leads, its cars' calls, its hours).
pub fn report(
    conn: &Connection,
    now: DateTime<Utc>,
    salon: Option<i64>,
) -> AppResult<ResponseTimes> {
    let settings = settings::get(conn)?;
    let schedule = &match salon {
        Some(id) => super::salons::schedule_of(conn, &settings, super::salons::column(id))?,
        None => settings.public.work_schedule.clone(),
    };
    let today = moscow_date(now);
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    let last_monday = monday - Duration::days(7);
    let first_day = today - Duration::days(DAILY_DAYS - 1);
    let from = midnight(first_day.min(last_monday));
    let to = midnight(today + Duration::days(1));
    let (answered, missed) = answered_between(conn, schedule, from, to, salon)?;
    let phone = PhoneRecord {
        missed,
        threshold: settings.response_threshold_minutes,
    };
    // The calls of the Moscow dates `first..=last`.
    let calls = |first: NaiveDate, last: NaiveDate| {
        call_figures::calls_between(
            conn,
            &stored(midnight(first)),
            &stored(midnight(last + Duration::days(1))),
            salon,
        )
    };

    let periods = vec![
        period(
            ResponsePeriodName::Today,
            today,
            today,
            &answered,
            &phone,
            calls(today, today)?,
        ),
        period(
            ResponsePeriodName::ThisWeek,
            monday,
            monday + Duration::days(6),
            &answered,
            &phone,
            calls(monday, monday + Duration::days(6))?,
        ),
        period(
            ResponsePeriodName::LastWeek,
            last_monday,
            monday - Duration::days(1),
            &answered,
            &phone,
            calls(last_monday, monday - Duration::days(1))?,
        ),
    ];
    let mut by_day: BTreeMap<NaiveDate, Vec<i64>> = BTreeMap::new();
    for a in &answered {
        by_day
            .entry(moscow_date(a.arrived))
            .or_default()
            .push(a.minutes);
    }
    let daily = (0..DAILY_DAYS)
        .map(|i| {
            let date = first_day + Duration::days(i);
            let f = ResponseFigures::of(by_day.remove(&date).unwrap_or_default());
            ResponseDay {
                date: date_text(date),
                answered: f.answered,
                median_minutes: f.median_minutes,
                p90_minutes: f.p90_minutes,
            }
        })
        .collect();
    Ok(ResponseTimes {
        threshold_minutes: settings.response_threshold_minutes,
        periods,
        daily,
        overdue: overdue_in(conn, &settings, schedule, now, salon)?,
    })
}

/// Leads still `new` waiting at least the threshold at `now`, longest
/// first, at most [`OVERDUE_LIMIT`]. A lead that arrived earlier has waited
/// at least as many working minutes as a later one, so the oldest new leads
/// are the longest waiting: only they are read.
pub fn overdue(
    conn: &Connection,
    settings: &Settings,
    now: DateTime<Utc>,
) -> AppResult<Vec<OverdueLead>> {
    overdue_in(conn, settings, &settings.public.work_schedule, now, None)
}

/// [`overdue`] of every salon or of one, its waits in `schedule`.
fn overdue_in(
    conn: &Connection,
    settings: &Settings,
    schedule: &WorkSchedule,
    now: DateTime<Utc>,
    salon: Option<i64>,
) -> AppResult<Vec<OverdueLead>> {
    let threshold = settings.response_threshold_minutes;
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, phone, type, created_at, reminded_at, assignee_id FROM leads
         WHERE status = 'new' AND (?2 IS NULL OR coalesce(salon_id, 1) = ?2)
         ORDER BY created_at, id LIMIT ?1",
    )?;
    let rows = stmt.query_map(params![OVERDUE_LIMIT as i64, salon], |r| {
        Ok(OverdueLead {
            id: r.get("id")?,
            name: r.get("name")?,
            phone: r.get("phone")?,
            lead_type: r.get("type")?,
            created_at: r.get("created_at")?,
            waiting_minutes: 0,
            reminded_at: r.get("reminded_at")?,
            assignee_id: r.get("assignee_id")?,
        })
    })?;
    let mut out = Vec::new();
    for row in rows {
        let mut lead = row?;
        let Some(arrived) = parse(&lead.created_at) else {
            continue;
        };
        lead.waiting_minutes = schedule.working_minutes_between(arrived, now);
        if lead.waiting_minutes >= threshold {
            out.push(lead);
        }
    }
    // Stable: equal waits keep the arrival order.
    out.sort_by_key(|l| std::cmp::Reverse(l.waiting_minutes));
    Ok(out)
}

/// A lead whose reminder was queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminded {
    pub lead_id: String,
    pub waiting_minutes: i64,
}

/// Queues the reminder of every lead still `new` and not yet reminded whose
/// working wait reached the threshold at `now` (and that arrived within
/// [`REMIND_WITHIN_DAYS`]): in one transaction, each lead's `reminded_at`
/// is set and one outbox row of kind `reminder` per channel queued (due at
/// `queued_at`, the outbox's own time). `channels` gives the channels of
/// the settings read in the transaction; none: nothing is reminded.
pub fn remind_overdue(
    conn: &mut Connection,
    now: DateTime<Utc>,
    queued_at: &str,
    channels: impl FnOnce(&Settings) -> Vec<Channel>,
) -> AppResult<Vec<Reminded>> {
    // Immediate: it reads, then writes (see `audit::audited_at`).
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let settings = settings::get(&tx)?;
    let channels = channels(&settings);
    if channels.is_empty() {
        return Ok(Vec::new());
    }
    let schedule = &settings.public.work_schedule;
    let since = now - Duration::days(REMIND_WITHIN_DAYS);
    let candidates: Vec<(String, String)> = {
        let mut stmt = tx.prepare_cached(
            "SELECT id, created_at FROM leads
             WHERE status = 'new' AND reminded_at IS NULL AND created_at >= ?1
             ORDER BY created_at, id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![stored(since), REMIND_BATCH as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        rows.collect::<Result<_, _>>()?
    };
    let mut reminded = Vec::new();
    for (id, created) in candidates {
        let Some(arrived) = parse(&created) else {
            continue;
        };
        let waiting = schedule.working_minutes_between(arrived, now);
        if waiting < settings.response_threshold_minutes {
            // The later ones have waited no longer.
            break;
        }
        let marked = tx
            .prepare_cached(
                "UPDATE leads SET reminded_at = ?2
                 WHERE id = ?1 AND status = 'new' AND reminded_at IS NULL",
            )?
            .execute(params![id, stored(now)])?;
        if marked == 1 {
            outbox::enqueue_kind(
                &tx,
                Kind::Reminder,
                Some(&id),
                &serde_json::json!({ "waitingMinutes": waiting }),
                &channels,
                queued_at,
            )?;
            reminded.push(Reminded {
                lead_id: id,
                waiting_minutes: waiting,
            });
        }
    }
    tx.commit()?;
    Ok(reminded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(nearest_rank(&[], 50), None);
        assert_eq!(nearest_rank(&[7], 50), Some(7));
        assert_eq!(nearest_rank(&[7], 90), Some(7));
        // n = 4: median rank 2, p90 rank 4.
        assert_eq!(nearest_rank(&[1, 2, 3, 4], 50), Some(2));
        assert_eq!(nearest_rank(&[1, 2, 3, 4], 90), Some(4));
        // n = 10: ranks 5 and 9.
        let ten: Vec<i64> = (1..=10).map(|i| i * 10).collect();
        assert_eq!(nearest_rank(&ten, 50), Some(50));
        assert_eq!(nearest_rank(&ten, 90), Some(90));
        // n = 11: ranks 6 and 10.
        let eleven: Vec<i64> = (1..=11).collect();
        assert_eq!(nearest_rank(&eleven, 50), Some(6));
        assert_eq!(nearest_rank(&eleven, 90), Some(10));
        let f = ResponseFigures::of(vec![30, 5, 10]);
        assert_eq!(
            f,
            ResponseFigures {
                answered: 3,
                median_minutes: Some(10),
                p90_minutes: Some(30)
            }
        );
        assert_eq!(
            ResponseFigures::of(Vec::new()),
            ResponseFigures {
                answered: 0,
                median_minutes: None,
                p90_minutes: None
            }
        );
    }

    #[test]
    fn the_period_query_seeks_its_leads_and_their_first_status() {
        let mut conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        crate::db::migrate(&mut conn).unwrap_or_else(|e| panic!("{e}"));
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {ANSWERED}"))
            .and_then(|mut s| {
                s.query_map(["a", "b"], |r| r.get::<_, String>(3))?
                    .collect::<Result<_, _>>()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        let plan = plan.join("\n");
        assert!(plan.contains("COVERING INDEX leads_created"), "{plan}");
        assert!(plan.contains("audit_log_object_action"), "{plan}");
        assert!(
            !plan.contains("SCAN f") && !plan.contains("SCAN a"),
            "{plan}"
        );
    }
}
