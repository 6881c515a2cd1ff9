//! A person's requests under 152-FZ (`docs/personal-data.md`, "A person's
//! request"): registered by an owner (to know what is held, or to be
//! forgotten) or made by the withdrawal link of a visitor mail, each with
//! its deadline of 10 working days, shown on the dashboard until answered.
//! The phone and the address are kept only while a request is open.

use chrono::{Datelike, NaiveDate, Weekday};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::person_data::{Subject, SubjectInput};
use super::text_enum;
use crate::error::{AppError, AppResult};

/// Working days a request is answered within (152-FZ art. 14 p. 3, 20, 21).
pub const WORKING_DAYS: u32 = 10;
pub const BAD_RECEIVED_ON: &str = "Дата обращения — не позже сегодняшней и не раньше чем год назад";
pub const NOTE_TOO_LONG: &str = "Не длиннее 2000 символов";
pub const REASON_NEEDED: &str = "Укажите причину отказа";
pub const ALREADY_ANSWERED: &str = "Запрос уже закрыт";
pub const NOT_FOUND: &str = "Запрос не найден";

text_enum!(
    /// What the person asked.
    RequestKind {
        Access = "access",
        Erase = "erase",
        Withdrawal = "withdrawal",
    }
);

text_enum!(
    /// How a request was answered.
    Outcome {
        Provided = "provided",
        Erased = "erased",
        NothingHeld = "nothing_held",
        Refused = "refused",
    }
);

/// A request, as the admin sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataRequest {
    pub id: i64,
    pub kind: RequestKind,
    /// Who: "+79211234567, a@b.ru" while open, masked once answered.
    pub subject: String,
    /// Only while open.
    pub phone: Option<String>,
    /// Only while open.
    pub email: Option<String>,
    /// YYYY-MM-DD.
    pub received_on: String,
    /// YYYY-MM-DD: 10 working days (Monday to Friday) after `receivedOn`.
    pub due_on: String,
    pub answered_at: Option<String>,
    pub outcome: Option<Outcome>,
    pub note: String,
    /// The login that registered it; empty for a withdrawal by link.
    pub created_by: String,
    /// Open, and today (Moscow) is past its day.
    pub overdue: bool,
}

/// A request to register.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewDataRequest {
    /// `access` or `erase`.
    pub kind: RequestKind,
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    /// YYYY-MM-DD, today by default.
    #[serde(default)]
    pub received_on: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

/// How a request is closed by hand (an erasure closes its own).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnswerInput {
    /// `provided`, `nothing_held` or `refused` (with a reason in `note`).
    pub outcome: Outcome,
    #[serde(default)]
    pub note: Option<String>,
}

/// The day `days` working days (Monday to Friday) after `from`. Public
/// holidays are not known here: counting them as working days gives an
/// earlier deadline, never a later one.
pub fn working_days_after(from: NaiveDate, days: u32) -> NaiveDate {
    let mut day = from;
    let mut left = days;
    while left > 0 {
        day = day.succ_opt().unwrap_or(day);
        if !matches!(day.weekday(), Weekday::Sat | Weekday::Sun) {
            left -= 1;
        }
    }
    day
}

fn note(value: Option<String>) -> AppResult<String> {
    let note = value.unwrap_or_default().trim().to_string();
    if note.chars().count() > 2000 {
        return Err(AppError::invalid("note", NOTE_TOO_LONG));
    }
    Ok(note)
}

const SELECT: &str = "SELECT id, kind, subject, phone, email, received_on, due_on, answered_at,
    outcome, note, created_by FROM data_requests";

fn from_row(row: &Row, today: NaiveDate) -> rusqlite::Result<DataRequest> {
    let due_on: String = row.get(6)?;
    let answered_at: Option<String> = row.get(7)?;
    let overdue = answered_at.is_none()
        && NaiveDate::parse_from_str(&due_on, "%Y-%m-%d").is_ok_and(|due| today > due);
    Ok(DataRequest {
        id: row.get(0)?,
        kind: row.get(1)?,
        subject: row.get(2)?,
        phone: row.get(3)?,
        email: row.get(4)?,
        received_on: row.get(5)?,
        due_on,
        answered_at,
        outcome: row.get(8)?,
        note: row.get(9)?,
        created_by: row.get(10)?,
        overdue,
    })
}

pub fn get(conn: &Connection, id: i64, today: NaiveDate) -> AppResult<Option<DataRequest>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE id = ?1"))?
        .query_row([id], |r| from_row(r, today))
        .optional()?)
}

/// Open requests first, the nearest deadline first; then the answered,
/// newest first. At most 200.
pub fn list(conn: &Connection, today: NaiveDate) -> AppResult<Vec<DataRequest>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} ORDER BY answered_at IS NOT NULL, due_on, answered_at DESC, id DESC LIMIT 200"
    ))?;
    let rows = stmt.query_map([], |r| from_row(r, today))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Registers a request. A withdrawal is recorded by [`record_withdrawal`].
pub fn create(
    conn: &Connection,
    input: NewDataRequest,
    by: &str,
    today: NaiveDate,
) -> AppResult<DataRequest> {
    if input.kind == RequestKind::Withdrawal {
        return Err(AppError::invalid(
            "kind",
            "Отзыв согласия по ссылке регистрируется сам",
        ));
    }
    let who = SubjectInput {
        phone: input.phone,
        email: input.email,
    }
    .check()?;
    let received = match input.received_on.as_deref().map(str::trim) {
        None | Some("") => today,
        Some(text) => NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .ok()
            .filter(|d| *d <= today && *d >= today - chrono::Duration::days(365))
            .ok_or_else(|| AppError::invalid("receivedOn", BAD_RECEIVED_ON))?,
    };
    let note = note(input.note)?;
    insert(conn, input.kind, &who, received, note, by, None)?;
    let id = conn.last_insert_rowid();
    get(conn, id, today)?.ok_or_else(|| AppError::not_found(NOT_FOUND))
}

fn insert(
    conn: &Connection,
    kind: RequestKind,
    who: &Subject,
    received: NaiveDate,
    note: String,
    by: &str,
    answered: Option<Outcome>,
) -> AppResult<()> {
    let due = working_days_after(received, WORKING_DAYS);
    let now = super::now();
    let (phone, email, subject) = match answered {
        None => (who.phone.clone(), who.email.clone(), who.describe()),
        Some(_) => (None, None, who.masked()),
    };
    conn.prepare_cached(
        "INSERT INTO data_requests (kind, phone, email, subject, received_on, due_on,
            answered_at, outcome, note, created_by, created_at, email_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        kind,
        phone,
        email,
        subject,
        received.format("%Y-%m-%d").to_string(),
        due.format("%Y-%m-%d").to_string(),
        answered.map(|_| now.clone()),
        answered,
        note,
        by,
        now,
        email.as_deref().map(super::email::canonical)
    ])?;
    Ok(())
}

/// A withdrawal by the link of a mail: recorded answered (erased).
pub fn record_withdrawal(conn: &Connection, email: &str, today: NaiveDate) -> AppResult<()> {
    let who = Subject {
        phone: None,
        email: Some(email.to_string()),
    };
    insert(
        conn,
        RequestKind::Withdrawal,
        &who,
        today,
        String::new(),
        "",
        Some(Outcome::Erased),
    )
}

/// Closes an open request: its phone and address go, its subject is
/// masked.
pub fn answer(
    conn: &Connection,
    id: i64,
    outcome: Outcome,
    note_text: Option<String>,
    today: NaiveDate,
) -> AppResult<DataRequest> {
    let current = get(conn, id, today)?.ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    if current.answered_at.is_some() {
        return Err(AppError::conflict(None, ALREADY_ANSWERED));
    }
    let mut note = note(note_text)?;
    if outcome == Outcome::Refused && note.is_empty() {
        return Err(AppError::invalid("note", REASON_NEEDED));
    }
    if note.is_empty() {
        note = current.note.clone();
    }
    let who = Subject {
        phone: current.phone.clone(),
        email: current.email.clone(),
    };
    let subject = if who.phone.is_none() && who.email.is_none() {
        current.subject.clone()
    } else {
        who.masked()
    };
    conn.prepare_cached(
        "UPDATE data_requests SET answered_at = ?2, outcome = ?3, note = ?4, subject = ?5,
            phone = NULL, email = NULL, email_key = NULL WHERE id = ?1",
    )?
    .execute(params![id, super::now(), outcome, note, subject])?;
    get(conn, id, today)?.ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// The subject of an open request (for an erasure that closes it).
pub fn open_subject(conn: &Connection, id: i64, today: NaiveDate) -> AppResult<Subject> {
    let current = get(conn, id, today)?.ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    if current.answered_at.is_some() {
        return Err(AppError::conflict(None, ALREADY_ANSWERED));
    }
    Ok(Subject {
        phone: current.phone,
        email: current.email,
    })
}

/// Open requests and how many of them are past their day.
pub fn open_counts(conn: &Connection, today: NaiveDate) -> AppResult<(i64, i64)> {
    let day = today.format("%Y-%m-%d").to_string();
    Ok(conn.query_row(
        "SELECT count(*), coalesce(sum(due_on < ?1), 0) FROM data_requests
         WHERE answered_at IS NULL",
        [day],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn ten_working_days_skip_weekends() {
        // Thursday 26 November 2026: two weeks on, Thursday 10 December.
        assert_eq!(working_days_after(day("2026-11-26"), 10), day("2026-12-10"));
        // A Saturday's request: the count starts on Monday.
        assert_eq!(working_days_after(day("2026-11-28"), 10), day("2026-12-11"));
        // Friday: the 10th working day is the second Friday after.
        assert_eq!(working_days_after(day("2026-11-27"), 10), day("2026-12-11"));
        assert_eq!(working_days_after(day("2026-11-27"), 1), day("2026-11-30"));
    }
}
