//! Who a new lead goes to (`docs/leads.md`, "Who answers a lead"): the
//! owner's rule in settings `leadAssignment` gives a lead, as it is stored,
//! to one of the managers who could answer it now, those who are active
//! (not blocked, their own password set) and whose working hours (their
//! own, or the salon's) include the moment; with several salons, among the
//! managers of the lead's salon (those named to it, or to no salon) in its
//! hours. `round_robin` takes them in
//! turn; `least_loaded` takes the one with the fewest open leads (new or in
//! progress), in turn among equals. With nobody at work the lead stays
//! unassigned, where every manager sees it.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};

use super::hours::WorkSchedule;
use super::text_enum;
use crate::error::AppResult;

text_enum!(
    /// How a new lead finds its assignee; `none`: nobody is picked
    /// (managers take leads, the owner gives them).
    AssignmentRule {
        Manual = "none",
        RoundRobin = "round_robin",
        LeastLoaded = "least_loaded",
    }
);

/// The field of the rule in the settings, and its refusal.
pub const FIELD: &str = "leadAssignment";
pub const UNKNOWN_RULE: &str = "Выберите правило распределения заявок из списка";

/// A manager who could be given a lead now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub id: String,
    /// Their name, or login when they have none.
    pub name: String,
    /// Their own e-mail; empty when they have none.
    pub email: String,
    /// Leads assigned to them that are new or in progress.
    pub open_leads: i64,
    /// When the rule last gave them a lead (a rising number); none: never.
    pub turn: Option<i64>,
    /// The order they were added in (the account's rowid).
    pub added: i64,
}

/// A staff member's working hours as stored: their own, or none for the
/// salon's.
pub fn schedule_column(text: Option<String>) -> Option<WorkSchedule> {
    text.and_then(|t| serde_json::from_str(&t).ok())
}

/// The active managers at work at `now`: not blocked, with a password of
/// their own (no unused invitation, no one-time password to change), and
/// within their hours (their own, `salon`'s when they have none).
pub fn candidates(
    conn: &Connection,
    salon_id: i64,
    salon: &WorkSchedule,
    now: DateTime<Utc>,
) -> AppResult<Vec<Candidate>> {
    let mut stmt = conn.prepare_cached(
        "SELECT u.id, CASE WHEN u.display_name <> '' THEN u.display_name ELSE u.username END,
                u.email, u.work_schedule, u.auto_assigned_turn, u.rowid,
                (SELECT count(*) FROM leads l
                 WHERE l.assignee_id = u.id AND l.status IN ('new', 'in_progress'))
         FROM users u
         WHERE u.role = 'manager' AND u.blocked_at IS NULL AND u.must_change_password = 0
           AND NOT EXISTS (SELECT 1 FROM invitations i
                           WHERE i.user_id = u.id AND i.used_at IS NULL)
           AND (NOT EXISTS (SELECT 1 FROM staff_salons s WHERE s.user_id = u.id)
                OR EXISTS (SELECT 1 FROM staff_salons s
                           WHERE s.user_id = u.id AND s.salon_id = ?1))",
    )?;
    let rows = stmt.query_map([salon_id], |r| {
        Ok((
            Candidate {
                id: r.get(0)?,
                name: r.get(1)?,
                email: r.get(2)?,
                turn: r.get(4)?,
                added: r.get(5)?,
                open_leads: r.get(6)?,
            },
            schedule_column(r.get(3)?),
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (candidate, own) = row?;
        if own.as_ref().unwrap_or(salon).is_open_at(&now) {
            out.push(candidate);
        }
    }
    Ok(out)
}

/// The candidate `rule` picks, if any: round-robin the one whose last turn
/// is the oldest (those never given one first, the earliest added first);
/// least-loaded the one with the fewest open leads, in the same order
/// among equals.
pub fn choose(rule: AssignmentRule, candidates: &[Candidate]) -> Option<&Candidate> {
    let in_turn = |c: &&Candidate| (c.turn, c.added);
    match rule {
        AssignmentRule::Manual => None,
        AssignmentRule::RoundRobin => candidates.iter().min_by_key(in_turn),
        AssignmentRule::LeastLoaded => candidates.iter().min_by_key(|c| (c.open_leads, in_turn(c))),
    }
}

/// Gives the just-stored lead `lead_id` to the manager `rule` picks at
/// `now`, and records their turn; gives who it went to (none when the rule
/// is manual or nobody is at work).
pub fn assign_new(
    conn: &Connection,
    lead_id: &str,
    rule: AssignmentRule,
    salon_id: i64,
    salon: &WorkSchedule,
    now: DateTime<Utc>,
) -> AppResult<Option<Candidate>> {
    if rule == AssignmentRule::Manual {
        return Ok(None);
    }
    super::atomically(conn, || {
        let candidates = candidates(conn, salon_id, salon, now)?;
        let Some(chosen) = choose(rule, &candidates).cloned() else {
            return Ok(None);
        };
        conn.execute(
            "UPDATE leads SET assignee_id = ?2, assigned_at = ?3 WHERE id = ?1",
            params![lead_id, chosen.id, super::now()],
        )?;
        conn.execute(
            "UPDATE users SET auto_assigned_turn =
                 (SELECT coalesce(max(auto_assigned_turn), 0) + 1 FROM users)
             WHERE id = ?1",
            [&chosen.id],
        )?;
        Ok(Some(chosen))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(id: &str, open_leads: i64, turn: Option<i64>) -> Candidate {
        Candidate {
            id: id.into(),
            name: id.into(),
            email: String::new(),
            open_leads,
            turn,
            added: id.parse().unwrap_or_default(),
        }
    }

    #[test]
    fn round_robin_takes_the_longest_waiting_turn() {
        let all = [
            candidate("1", 0, Some(5)),
            candidate("2", 9, None),
            candidate("3", 0, Some(4)),
        ];
        assert_eq!(choose(AssignmentRule::RoundRobin, &all).unwrap().id, "2");
        assert_eq!(
            choose(AssignmentRule::RoundRobin, &all[..1]).unwrap().id,
            "1"
        );
        assert_eq!(choose(AssignmentRule::RoundRobin, &[]), None);
    }

    #[test]
    fn least_loaded_takes_the_fewest_open_then_the_turn() {
        let all = [
            candidate("1", 2, Some(1)),
            candidate("2", 1, Some(7)),
            candidate("3", 1, Some(6)),
        ];
        assert_eq!(choose(AssignmentRule::LeastLoaded, &all).unwrap().id, "3");
        assert_eq!(choose(AssignmentRule::Manual, &all), None);
    }
}
