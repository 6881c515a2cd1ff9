//! Forgetting on time (`docs/personal-data.md`, "Forgetting on time"): a
//! person's data is erased `retentionYears` after their last contact (their
//! latest lead's last change, their subscriptions' last mail), and a lead
//! closed as cancelled `cancelledRetentionMonths` after it was closed. A
//! person still following a saved search is in contact. Each run that erases
//! anything writes a destruction act.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Months, SecondsFormat, Utc};
use rusqlite::{Connection, params};
use serde::Serialize;
use utoipa::ToSchema;

use super::destruction_acts::{self, ActReason, ActRecord, DestructionAct};
use super::person_data::{self, Erased, Subject};
use super::settings::Settings;
use crate::error::AppResult;

/// What a run would erase now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RetentionDue {
    /// People past the period (all their data), plus cancelled leads'
    /// senders past theirs.
    pub subjects: i64,
    pub leads: i64,
    pub subscriptions: i64,
}

/// What a run did: its act, or none when nothing was due.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RetentionRun {
    pub act: Option<DestructionAct>,
}

/// A person past the period: their phones and addresses.
#[derive(Debug, Default)]
struct Person {
    phones: Vec<String>,
    emails: Vec<String>,
    leads: i64,
    subscriptions: i64,
}

#[derive(Debug, Default)]
struct Plan {
    people: Vec<Person>,
    /// Cancelled leads past their period whose sender is kept otherwise.
    cancelled: Vec<String>,
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn months_before(now: DateTime<Utc>, months: i64) -> String {
    let months = Months::new(u32::try_from(months.max(0)).unwrap_or(0));
    stamp(now.checked_sub_months(months).unwrap_or(now))
}

/// "3 года", "5 лет", "1 год".
fn years_text(n: i64) -> String {
    let word = match (n % 10, n % 100) {
        (1, r) if r != 11 => "год",
        (2..=4, r) if !(12..=14).contains(&r) => "года",
        _ => "лет",
    };
    format!("{n} {word}")
}

/// Why a retention run erased: the settings' periods, in words.
pub fn reason_text(settings: &Settings) -> String {
    format!(
        "Истёк срок хранения: {} после последнего обращения; отменённые заявки — {} мес. после закрытия",
        years_text(settings.retention_years),
        settings.cancelled_retention_months
    )
}

/// Finds the root of `key` (a tiny union-find over "p:phone" and "e:email").
fn root(parent: &mut HashMap<String, String>, key: &str) -> String {
    let mut at = key.to_string();
    while let Some(up) = parent.get(&at).filter(|up| **up != at).cloned() {
        at = up;
    }
    parent.insert(key.to_string(), at.clone());
    at
}

fn join(parent: &mut HashMap<String, String>, a: &str, b: &str) {
    parent.entry(a.to_string()).or_insert_with(|| a.to_string());
    parent.entry(b.to_string()).or_insert_with(|| b.to_string());
    let (ra, rb) = (root(parent, a), root(parent, b));
    if ra != rb {
        parent.insert(ra, rb);
    }
}

fn plan(conn: &Connection, settings: &Settings, now: DateTime<Utc>) -> AppResult<Plan> {
    let cutoff = months_before(now, settings.retention_years * 12);
    let cancelled_cutoff = months_before(now, settings.cancelled_retention_months);
    // Leads not erased yet: id, phone, address, last change, status.
    let leads: Vec<(String, String, Option<String>, String, String)> = conn
        .prepare("SELECT id, phone, coalesce(email_key, lower(email)), updated_at, status FROM leads WHERE phone <> ''")?
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<Result<_, _>>()?;
    // Subscriptions: address, last contact, still followed.
    let subscriptions: Vec<(String, String, bool)> = conn
        .prepare(
            "SELECT coalesce(email_key, lower(email)), max(updated_at, coalesce(last_alert_at, '')),
                    confirmed_at IS NOT NULL AND unsubscribed_at IS NULL
             FROM saved_search_subscriptions",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let mut parent: HashMap<String, String> = HashMap::new();
    for (_, phone, email, _, _) in &leads {
        let p = format!("p:{phone}");
        match email.as_deref().filter(|e| !e.is_empty()) {
            Some(email) => join(&mut parent, &p, &format!("e:{email}")),
            None => join(&mut parent, &p, &p),
        }
    }
    for (email, _, _) in &subscriptions {
        let e = format!("e:{email}");
        join(&mut parent, &e, &e);
    }
    // Per person (by root): last contact, still following, and who.
    #[derive(Default)]
    struct Group {
        last: String,
        following: bool,
        person: Person,
    }
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for (_, phone, email, updated, _) in &leads {
        let key = root(&mut parent, &format!("p:{phone}"));
        let g = groups.entry(key).or_default();
        g.last = g.last.clone().max(updated.clone());
        g.person.leads += 1;
        if !g.person.phones.contains(phone) {
            g.person.phones.push(phone.clone());
        }
        if let Some(email) = email.as_ref().filter(|e| !e.is_empty())
            && !g.person.emails.contains(email)
        {
            g.person.emails.push(email.clone());
        }
    }
    for (email, last, following) in &subscriptions {
        let key = root(&mut parent, &format!("e:{email}"));
        let g = groups.entry(key).or_default();
        g.last = g.last.clone().max(last.clone());
        g.following |= *following;
        g.person.subscriptions += 1;
        if !g.person.emails.contains(email) {
            g.person.emails.push(email.clone());
        }
    }
    let mut out = Plan::default();
    let mut forgotten: Vec<String> = Vec::new();
    for (key, g) in groups {
        if !g.following && g.last < cutoff {
            forgotten.push(key);
            out.people.push(g.person);
        }
    }
    for (id, phone, _, updated, status) in &leads {
        if status == "cancelled" && *updated < cancelled_cutoff {
            let key = root(&mut parent, &format!("p:{phone}"));
            if !forgotten.contains(&key) {
                out.cancelled.push(id.clone());
            }
        }
    }
    Ok(out)
}

/// What a run at `now` would erase.
pub fn due(conn: &Connection, settings: &Settings, now: DateTime<Utc>) -> AppResult<RetentionDue> {
    let plan = plan(conn, settings, now)?;
    Ok(RetentionDue {
        subjects: (plan.people.len() + plan.cancelled.len()) as i64,
        leads: plan.people.iter().map(|p| p.leads).sum::<i64>() + plan.cancelled.len() as i64,
        subscriptions: plan.people.iter().map(|p| p.subscriptions).sum(),
    })
}

fn add(total: &mut Erased, part: &Erased) {
    total.add(part);
}

/// Erases what is due at `now` and writes the act (none when nothing was
/// due). The caller empties the write-ahead log afterwards.
pub fn run(
    conn: &Connection,
    settings: &Settings,
    now: DateTime<Utc>,
    by: &str,
) -> AppResult<Option<DestructionAct>> {
    super::atomically(conn, || {
        // The mail caps' ledger needs no row past its 24 hours (rows left
        // when no visitor wrote since to clear them).
        super::mail_cap::forget_old(conn, now)?;
        let plan = plan(conn, settings, now)?;
        let mut totals = Erased::default();
        let mut records = Vec::new();
        for person in &plan.people {
            let mut erased = Erased::default();
            let subjects = person
                .phones
                .iter()
                .map(|p| Subject {
                    phone: Some(p.clone()),
                    email: None,
                })
                .chain(person.emails.iter().map(|e| Subject {
                    phone: None,
                    email: Some(e.clone()),
                }));
            for who in subjects {
                add(&mut erased, &person_data::erase(conn, &who)?);
            }
            let record = ActRecord::of(&erased);
            if !record.is_empty() {
                records.push(record);
            }
            add(&mut totals, &erased);
        }
        for id in &plan.cancelled {
            let erased = person_data::erase_lead(conn, id)?;
            let record = ActRecord::of(&erased);
            if !record.is_empty() {
                records.push(record);
            }
            add(&mut totals, &erased);
        }
        if records.is_empty() {
            return Ok(None);
        }
        let act = destruction_acts::record(
            conn,
            ActReason::Retention,
            &reason_text(settings),
            by,
            &records,
            &totals,
            now,
        )?;
        Ok(Some(act))
    })
}

/// The nightly run: once per Moscow date, from 03:00. Gives the act when
/// this call ran (and erased something).
pub fn nightly(
    conn: &Connection,
    settings: &Settings,
    now: DateTime<Utc>,
) -> AppResult<Option<Option<DestructionAct>>> {
    let local = now.with_timezone(&crate::clock::moscow());
    if local.format("%H").to_string().as_str() < "03" {
        return Ok(None);
    }
    let day = local.format("%Y-%m-%d").to_string();
    let ran: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM retention_runs WHERE day = ?1)",
        [&day],
        |r| r.get(0),
    )?;
    if ran {
        return Ok(None);
    }
    super::atomically(conn, || {
        let act = run(conn, settings, now, "")?;
        conn.execute(
            "INSERT INTO retention_runs (day, ran_at, act_id) VALUES (?1, ?2, ?3)",
            params![day, stamp(now), act.as_ref().map(|a| a.id)],
        )?;
        Ok(Some(act))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_read_in_russian() {
        assert_eq!(years_text(1), "1 год");
        assert_eq!(years_text(3), "3 года");
        assert_eq!(years_text(5), "5 лет");
        assert_eq!(years_text(10), "10 лет");
        assert_eq!(years_text(11), "11 лет");
        assert_eq!(years_text(21), "21 год");
    }
}
