//! The team, as the owner manages it in the admin (`docs/admin.md`, "The
//! team"): staff accounts with a name and a role, added with a one-time
//! password or an invitation link, blocked, reset and deleted; the last
//! active owner is kept.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{Duration, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::hours::WorkSchedule;
use super::lead_assignment::schedule_column;
use super::roles::Role;
use super::users;
use crate::error::{AppError, AppResult};

/// How long an invitation link opens the password form.
pub const INVITATION_HOURS: i64 = 24;
pub const LAST_OWNER: &str =
    "Нельзя заблокировать, понизить или удалить последнего действующего владельца";
pub const INVITATION_GONE: &str = "Приглашение недействительно: оно уже использовано или истекло. Попросите владельца прислать новое.";
pub const WRONG_CURRENT_PASSWORD: &str = "Текущий пароль введён неверно";
pub const NO_SUCH_USER: &str = "Пользователь не найден";
const NAME_TOO_LONG: &str = "Имя: не длиннее 100 символов";
const BAD_EMAIL: &str = "Неверный формат email";
/// The refusal of a PBX number.
pub const BAD_PBX_NUMBER: &str = "Номер в АТС: внутренний номер или телефон, только цифры (до 19)";

/// A staff account as the team screen lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffUser {
    pub id: String,
    /// The login.
    pub username: String,
    /// The person's name, for screens and the leads they take.
    pub name: String,
    pub role: Role,
    /// When blocked, RFC 3339 UTC; a blocked user cannot log in.
    pub blocked_at: Option<String>,
    /// Logged in with a one-time password not yet changed.
    pub must_change_password: bool,
    /// The expiry of the invitation not yet used, RFC 3339 UTC; in the past
    /// when it ran out unused (the person never set a password).
    pub invitation_expires_at: Option<String>,
    pub created_at: String,
    /// Their own e-mail, where a lead given to them is announced; empty
    /// when they have none.
    pub email: String,
    /// Their working hours, Moscow time; null: the salon's. A lead is
    /// given out by the rule only to a manager within their hours.
    pub work_schedule: Option<WorkSchedule>,
    /// Their number in the salon's PBX (an extension, or a phone in
    /// digits), which «Перезвоните мне» rings first (`docs/calls.md`);
    /// empty: the PBX section's default.
    pub pbx_number: String,
    /// Leads assigned to them that are new or in progress.
    pub open_leads: i64,
    /// The salons they work in (1: the main; `docs/salons.md`); absent or
    /// empty: every salon.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub salon_ids: Vec<i64>,
}

/// A new staff member: with `password` (a one-time password the person
/// changes at first login) or without (an invitation link is made).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewStaff {
    pub username: String,
    #[serde(default)]
    pub name: String,
    pub role: Role,
    #[serde(default)]
    pub password: Option<String>,
    /// Their own e-mail; may be empty.
    #[serde(default)]
    pub email: String,
    /// Their own working hours; absent or null: the salon's.
    #[serde(default)]
    pub work_schedule: Option<WorkSchedule>,
    /// Their number in the PBX; may be empty.
    #[serde(default)]
    pub pbx_number: String,
    /// The salons they work in; empty: every salon.
    #[serde(default)]
    pub salon_ids: Vec<i64>,
}

/// A change of an account; absent fields stay.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StaffChange {
    pub name: Option<String>,
    pub role: Option<Role>,
    pub blocked: Option<bool>,
    /// Their own e-mail; empty removes it.
    pub email: Option<String>,
    /// Their own working hours; null: the salon's from now on.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<WorkSchedule>, nullable)]
    pub work_schedule: Option<Option<WorkSchedule>>,
    /// Their number in the PBX; empty removes it.
    pub pbx_number: Option<String>,
    /// The salons they work in; empty: every salon.
    pub salon_ids: Option<Vec<i64>>,
}

/// A field that is present, even as null (`Some(None)`), unlike an absent
/// one (`None`, by `default`).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

fn at(offset: Duration) -> String {
    (Utc::now() + offset).to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn check_name(name: &str) -> AppResult<String> {
    let name = name.trim();
    if name.chars().count() > 100 {
        return Err(AppError::invalid("name", NAME_TOO_LONG));
    }
    Ok(name.to_string())
}

/// An extension or a phone number in the PBX: digits (spaces, dashes and
/// brackets dropped), a leading + allowed, at most 20.
fn check_pbx_number(number: &str) -> AppResult<String> {
    let number: String = number
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '(' | ')'))
        .collect();
    let digits = number.strip_prefix('+').unwrap_or(&number);
    let ok = number.is_empty()
        || (!digits.is_empty() && digits.len() <= 19 && digits.chars().all(|c| c.is_ascii_digit()));
    if !ok {
        return Err(AppError::invalid("pbxNumber", BAD_PBX_NUMBER));
    }
    Ok(number)
}

fn check_email(email: &str) -> AppResult<String> {
    let email = email.trim();
    if !email.is_empty() && (email.len() > 255 || !super::leads::is_email(email)) {
        return Err(AppError::invalid("email", BAD_EMAIL));
    }
    Ok(email.to_string())
}

/// A schedule checked and as stored: JSON, or NULL for the salon's.
fn schedule_text(schedule: Option<&WorkSchedule>) -> AppResult<Option<String>> {
    let Some(schedule) = schedule else {
        return Ok(None);
    };
    schedule.validate()?;
    serde_json::to_string(schedule)
        .map(Some)
        .map_err(|e| AppError::Internal(e.into()))
}

pub fn list(conn: &Connection) -> AppResult<Vec<StaffUser>> {
    let mut stmt = conn.prepare_cached(
        "SELECT u.id, u.username, u.display_name, u.role, u.blocked_at, u.must_change_password,
                (SELECT max(i.expires_at) FROM invitations i
                 WHERE i.user_id = u.id AND i.used_at IS NULL),
                u.created_at, u.email, u.work_schedule, u.pbx_number,
                (SELECT count(*) FROM leads l
                 WHERE l.assignee_id = u.id AND l.status IN ('new', 'in_progress')),
                (SELECT json_group_array(s.salon_id) FROM staff_salons s WHERE s.user_id = u.id)
         FROM users u ORDER BY u.username",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(StaffUser {
            id: r.get(0)?,
            username: r.get(1)?,
            name: r.get(2)?,
            role: r.get(3)?,
            blocked_at: r.get(4)?,
            must_change_password: r.get(5)?,
            invitation_expires_at: r.get(6)?,
            created_at: r.get(7)?,
            email: r.get(8)?,
            work_schedule: schedule_column(r.get(9)?),
            pbx_number: r.get(10)?,
            open_leads: r.get(11)?,
            salon_ids: {
                let mut ids: Vec<i64> = super::json_column(&r.get::<_, String>(12)?);
                ids.sort_unstable();
                ids
            },
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn get(conn: &Connection, id: &str) -> AppResult<StaffUser> {
    list(conn)?
        .into_iter()
        .find(|u| u.id == id)
        .ok_or_else(|| AppError::not_found(NO_SUCH_USER))
}

/// Active owners other than `except`.
fn other_active_owners(conn: &Connection, except: &str) -> AppResult<i64> {
    Ok(conn.query_row(
        "SELECT count(*) FROM users
         WHERE role = 'owner' AND blocked_at IS NULL AND id <> ?1",
        [except],
        |r| r.get(0),
    )?)
}

/// Refuses a change that would leave no active owner.
fn keep_an_owner(conn: &Connection, user: &StaffUser, leaves_owners: bool) -> AppResult<()> {
    let is_active_owner = user.role == Role::Owner && user.blocked_at.is_none();
    if is_active_owner && leaves_owners && other_active_owners(conn, &user.id)? == 0 {
        return Err(AppError::conflict(None, LAST_OWNER));
    }
    Ok(())
}

/// Makes an invitation for `user_id` (earlier unused ones end); gives the
/// token for the link, never stored.
fn invite(conn: &Connection, user_id: &str) -> AppResult<String> {
    conn.execute(
        "DELETE FROM invitations WHERE user_id = ?1 AND used_at IS NULL",
        [user_id],
    )?;
    let token = URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>());
    conn.execute(
        "INSERT INTO invitations (token_hash, user_id, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![
            hash_token(&token),
            user_id,
            super::now(),
            at(Duration::hours(INVITATION_HOURS))
        ],
    )?;
    Ok(token)
}

/// Names the salons `user_id` works in (none: every salon).
fn set_salons(conn: &Connection, user_id: &str, salons: &[i64]) -> AppResult<()> {
    for id in salons {
        if !super::salons::exists(conn, *id)? {
            return Err(AppError::invalid("salonIds", super::salons::NO_SUCH_SALON));
        }
    }
    conn.execute("DELETE FROM staff_salons WHERE user_id = ?1", [user_id])?;
    for id in salons {
        conn.execute(
            "INSERT OR IGNORE INTO staff_salons (user_id, salon_id) VALUES (?1, ?2)",
            params![user_id, id],
        )?;
    }
    Ok(())
}

/// Adds a staff member; gives the account and, without a password, the
/// invitation token.
pub fn add(conn: &Connection, input: NewStaff) -> AppResult<(StaffUser, Option<String>)> {
    let name = check_name(&input.name)?;
    let email = check_email(&input.email)?;
    let schedule = schedule_text(input.work_schedule.as_ref())?;
    let pbx_number = check_pbx_number(&input.pbx_number)?;
    // Invited: a random password nobody knows until the link sets one.
    let password = input
        .password
        .clone()
        .unwrap_or_else(|| URL_SAFE_NO_PAD.encode(rand::random::<[u8; 24]>()));
    let user = users::create(conn, input.username.trim(), &password, input.role)?;
    conn.execute(
        "UPDATE users SET display_name = ?2, must_change_password = ?3, email = ?4,
             work_schedule = ?5, pbx_number = ?6
         WHERE id = ?1",
        params![
            user.id,
            name,
            input.password.is_some(),
            email,
            schedule,
            pbx_number
        ],
    )?;
    set_salons(conn, &user.id, &input.salon_ids)?;
    let token = match input.password {
        Some(_) => None,
        None => Some(invite(conn, &user.id)?),
    };
    Ok((get(conn, &user.id)?, token))
}

/// Changes a name, a role or the block; ends the sessions of a blocked user.
pub fn change(conn: &Connection, id: &str, change: StaffChange) -> AppResult<StaffUser> {
    let user = get(conn, id)?;
    let demoted = change.role.is_some_and(|r| r != Role::Owner);
    let blocked = change.blocked == Some(true);
    keep_an_owner(conn, &user, demoted || blocked)?;
    if let Some(name) = &change.name {
        conn.execute(
            "UPDATE users SET display_name = ?2 WHERE id = ?1",
            params![id, check_name(name)?],
        )?;
    }
    if let Some(email) = &change.email {
        conn.execute(
            "UPDATE users SET email = ?2 WHERE id = ?1",
            params![id, check_email(email)?],
        )?;
    }
    if let Some(number) = &change.pbx_number {
        conn.execute(
            "UPDATE users SET pbx_number = ?2 WHERE id = ?1",
            params![id, check_pbx_number(number)?],
        )?;
    }
    if let Some(schedule) = &change.work_schedule {
        conn.execute(
            "UPDATE users SET work_schedule = ?2 WHERE id = ?1",
            params![id, schedule_text(schedule.as_ref())?],
        )?;
    }
    if let Some(salons) = &change.salon_ids {
        set_salons(conn, id, salons)?;
    }
    if let Some(role) = change.role {
        conn.execute(
            "UPDATE users SET role = ?2 WHERE id = ?1",
            params![id, role],
        )?;
    }
    match change.blocked {
        Some(true) if user.blocked_at.is_none() => {
            conn.execute(
                "UPDATE users SET blocked_at = ?2 WHERE id = ?1",
                params![id, super::now()],
            )?;
            conn.execute("DELETE FROM sessions WHERE user_id = ?1", [id])?;
        }
        Some(false) => {
            conn.execute("UPDATE users SET blocked_at = NULL WHERE id = ?1", [id])?;
        }
        _ => {}
    }
    get(conn, id)
}

/// A new password for someone else: a one-time password they change at
/// first login, or (without one) an invitation link. Ends their sessions.
pub fn reset_password(
    conn: &Connection,
    id: &str,
    password: Option<&str>,
) -> AppResult<(StaffUser, Option<String>)> {
    let user = get(conn, id)?;
    let token = match password {
        Some(password) => {
            users::set_password(conn, &user.username, password)?;
            // An invitation sent earlier no longer opens the account.
            conn.execute(
                "DELETE FROM invitations WHERE user_id = ?1 AND used_at IS NULL",
                [id],
            )?;
            conn.execute(
                "UPDATE users SET must_change_password = 1 WHERE id = ?1",
                [id],
            )?;
            None
        }
        None => {
            let unknown = URL_SAFE_NO_PAD.encode(rand::random::<[u8; 24]>());
            users::set_password(conn, &user.username, &unknown)?;
            Some(invite(conn, id)?)
        }
    };
    conn.execute("DELETE FROM sessions WHERE user_id = ?1", [id])?;
    Ok((get(conn, id)?, token))
}

/// Deletes an account (its sessions and invitations go with it; the audit
/// trail keeps its login).
pub fn delete(conn: &Connection, id: &str) -> AppResult<StaffUser> {
    let user = get(conn, id)?;
    keep_an_owner(conn, &user, true)?;
    conn.execute("DELETE FROM users WHERE id = ?1", [id])?;
    Ok(user)
}

/// The account an unused, unexpired invitation is for.
pub fn invitation(conn: &Connection, token: &str) -> AppResult<StaffUser> {
    let user_id: Option<String> = conn
        .query_row(
            "SELECT user_id FROM invitations
             WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2",
            params![hash_token(token), super::now()],
            |r| r.get(0),
        )
        .optional()?;
    match user_id {
        Some(id) => get(conn, &id),
        None => Err(AppError::not_found(INVITATION_GONE)),
    }
}

/// Sets the password an invitation asks for; the link works once.
pub fn accept_invitation(conn: &Connection, token: &str, password: &str) -> AppResult<StaffUser> {
    let user = invitation(conn, token)?;
    users::set_password(conn, &user.username, password)?;
    conn.execute(
        "UPDATE invitations SET used_at = ?2 WHERE token_hash = ?1",
        params![hash_token(token), super::now()],
    )?;
    conn.execute(
        "UPDATE users SET must_change_password = 0 WHERE id = ?1",
        [&user.id],
    )?;
    get(conn, &user.id)
}

/// One's own new password (the current one checked by the caller); the
/// session in use (`keep`, its cookie token) stays, the others end.
pub fn set_own_password(
    conn: &Connection,
    user_id: &str,
    password: &str,
    keep: Option<&str>,
) -> AppResult<()> {
    users::store_password(conn, user_id, password)?;
    conn.execute(
        "UPDATE users SET must_change_password = 0 WHERE id = ?1",
        [user_id],
    )?;
    super::sessions::end_others(conn, user_id, keep)
}
