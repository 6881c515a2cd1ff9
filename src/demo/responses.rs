//! The demo's answers to its requests: each request that is no longer new
//! gets its status changes in the audit trail, the first one a few minutes
//! to a few hours of working time after it came in, by one of two staff
//! users, so a fresh demo shows response times and their chart
//! (`docs/response-times.md`).

use chrono::{DateTime, Duration, NaiveTime, Utc};
use rusqlite::Connection;

use crate::clock::moscow;
use crate::domain::audit::{self, AuditAction, AuditObject, NewEntry};
use crate::domain::hours::{WorkSchedule, moscow_moment};

/// Who answers: the demo's own login and its manager's, both in the team
/// the demo seeds (`STAFF_MANAGER`), so the response-time table names no one
/// the team screen does not list.
const STAFF: [&str; 2] = [super::DEMO_USER, STAFF_MANAGER.0];

/// The demo's manager: login, name, e-mail. Invited (no password anyone
/// knows): the owner may send the link again from the team screen.
pub const STAFF_MANAGER: (&str, &str, &str) =
    ("olga", "Ольга Смирнова", "olga.smirnova@nevsky-avto.ru");
/// Working minutes to the first answer, by request.
const DELAYS: [i64; 12] = [4, 12, 7, 35, 3, 90, 18, 150, 9, 240, 26, 6];
/// The answer when the planned one would still be ahead.
const QUICK: i64 = 3;

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The moment `minutes` working minutes after `from`; none when the
/// schedule has no such time within a month.
pub fn after_working_minutes(
    schedule: &WorkSchedule,
    from: DateTime<Utc>,
    minutes: i64,
) -> Option<DateTime<Utc>> {
    let mut left = minutes;
    let mut local = from.with_timezone(&moscow()).naive_local();
    for _ in 0..31 {
        let date = local.date();
        if let Some((open, close)) = schedule.hours_of(date) {
            let start = date.and_time(open).max(local);
            let end = date.and_time(close);
            if end > start {
                let available = (end - start).num_minutes();
                if available >= left {
                    return moscow_moment(date, (start + Duration::minutes(left)).time());
                }
                left -= available;
            }
        }
        local = date.succ_opt()?.and_time(NaiveTime::MIN);
    }
    None
}

fn label(status: &str) -> &'static str {
    match status {
        "in_progress" => "В работе",
        "completed" => "Завершён",
        "cancelled" => "Отменён",
        _ => "Новый",
    }
}

fn record(
    conn: &Connection,
    at: DateTime<Utc>,
    username: &str,
    lead: (&str, &str),
    from: &str,
    to: &str,
) -> anyhow::Result<()> {
    let (id, name) = lead;
    let summary = format!("Статус заявки «{name}»: {} → {}", label(from), label(to));
    let entry =
        NewEntry::new(AuditAction::Status, AuditObject::Lead, Some(id), summary).with_changes(
            vec![audit::change("status", Some(from.into()), Some(to.into()))],
        );
    audit::record_at(conn, &stamp(at), username, entry)?;
    Ok(())
}

/// Records the status changes of request number `k` (id, name) that came in
/// at `created` and is now `status`, before `now`. Gives the moment of its
/// last change, or none when it has none (still new, or no working time
/// since it came in).
pub fn answer(
    conn: &Connection,
    schedule: &WorkSchedule,
    k: usize,
    lead: (&str, &str),
    status: &str,
    created: DateTime<Utc>,
    now: DateTime<Utc>,
) -> anyhow::Result<Option<DateTime<Utc>>> {
    if status == "new" {
        return Ok(None);
    }
    let due = |minutes| after_working_minutes(schedule, created, minutes).filter(|at| *at < now);
    let Some(first) = due(DELAYS[k % DELAYS.len()]).or_else(|| due(QUICK)) else {
        return Ok(None);
    };
    let user = STAFF[(k / 2) % STAFF.len()];
    if status == "in_progress" {
        record(conn, first, user, lead, "new", status)?;
        return Ok(Some(first));
    }
    record(conn, first, user, lead, "new", "in_progress")?;
    // Closed a day or two later, or just before now.
    let closed = (first + Duration::hours(20 + 7 * (k as i64 % 4))).min(now - Duration::minutes(1));
    if closed <= first {
        return Ok(Some(first));
    }
    record(conn, closed, user, lead, "in_progress", status)?;
    Ok(Some(closed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn working_minutes_are_added_across_the_night() {
        let s = WorkSchedule::default();
        let from = at("2026-11-23T20:55:00+03:00");
        let answered = after_working_minutes(&s, from, 15);
        assert_eq!(answered, Some(at("2026-11-24T09:10:00+03:00")));
        assert_eq!(
            answered.map(|a| s.working_minutes_between(from, a)),
            Some(15)
        );
        // Before opening: counted from the opening.
        assert_eq!(
            after_working_minutes(&s, at("2026-11-24T07:00:00+03:00"), 30),
            Some(at("2026-11-24T09:30:00+03:00"))
        );
        let closed = WorkSchedule {
            days: vec![None; 7],
        };
        assert_eq!(after_working_minutes(&closed, from, 5), None);
    }
}
