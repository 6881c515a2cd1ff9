//! Admin sessions and login attempts. The cookie carries a random token; the
//! table keeps only its SHA-256, so a copy of the database opens no session.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{Duration, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};

use super::users::{self, User};
use crate::error::AppResult;

/// Failed attempts for one login within the window that lock it (the
/// default of `admin.login_failures_per_login`).
pub const MAX_FAILURES_PER_LOGIN: u32 = 5;
/// Failed attempts from one address within the window that lock it (the
/// default of `admin.login_failures_per_address`).
pub const MAX_FAILURES_PER_ADDRESS: u32 = 20;

/// How many failures lock a login and an address; 0: that lock is off.
#[derive(Debug, Clone, Copy)]
pub struct Lockout {
    pub per_login: u32,
    pub per_address: u32,
}

/// Whether `failures` reach a lock of `limit` (0: never).
fn reaches(failures: i64, limit: u32) -> bool {
    limit > 0 && failures >= i64::from(limit)
}
/// The window and the lockout, in minutes.
pub const LOCKOUT_MINUTES: i64 = 15;

pub struct NewSession {
    /// Goes into the cookie; never stored.
    pub token: String,
    pub csrf_token: String,
}

pub struct Session {
    pub user: User,
    pub csrf_token: String,
}

fn random_token() -> String {
    URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>())
}

fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    hex::encode(digest)
}

fn at(offset: Duration) -> String {
    (Utc::now() + offset).to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub fn create(
    conn: &Connection,
    user_id: &str,
    ip: &str,
    user_agent: &str,
    idle_minutes: u32,
) -> AppResult<NewSession> {
    let session = NewSession {
        token: random_token(),
        csrf_token: random_token(),
    };
    let now = super::now();
    let agent: String = user_agent.chars().take(500).collect();
    conn.execute(
        "INSERT INTO sessions (token_hash, user_id, csrf_token, ip_address, user_agent, created_at,
            last_seen_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)",
        params![
            hash_token(&session.token),
            user_id,
            session.csrf_token,
            ip,
            agent,
            now,
            at(Duration::minutes(idle_minutes.into()))
        ],
    )?;
    // Old sessions are swept now and then.
    conn.execute("DELETE FROM sessions WHERE expires_at < ?1", [now])?;
    Ok(session)
}

/// The live session of a cookie token; each use moves its expiry forward.
pub fn touch(conn: &Connection, token: &str, idle_minutes: u32) -> AppResult<Option<Session>> {
    let hash = hash_token(token);
    let now = super::now();
    let found = conn
        .prepare_cached(&format!(
            "SELECT {}, s.csrf_token, s.last_seen_at
             FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE s.token_hash = ?1 AND s.expires_at > ?2 AND u.blocked_at IS NULL",
            users::USER_COLUMNS
        ))?
        .query_row(params![hash, now], |r| {
            Ok((
                Session {
                    user: User::from_row(r)?,
                    csrf_token: r.get(users::USER_COLUMN_COUNT)?,
                },
                r.get::<_, String>(users::USER_COLUMN_COUNT + 1)?,
            ))
        })
        .optional()?;
    let Some((session, last_seen)) = found else {
        return Ok(None);
    };
    // Write at most once a minute per session.
    if last_seen < at(Duration::minutes(-1)) {
        conn.execute(
            "UPDATE sessions SET last_seen_at = ?2, expires_at = ?3 WHERE token_hash = ?1",
            params![hash, now, at(Duration::minutes(idle_minutes.into()))],
        )?;
    }
    Ok(Some(session))
}

/// Ends every session of `user_id` but the one of `keep` (a cookie token).
pub fn end_others(conn: &Connection, user_id: &str, keep: Option<&str>) -> AppResult<()> {
    let kept = keep.map(hash_token).unwrap_or_default();
    conn.execute(
        "DELETE FROM sessions WHERE user_id = ?1 AND token_hash <> ?2",
        params![user_id, kept],
    )?;
    Ok(())
}

pub fn delete(conn: &Connection, token: &str) -> AppResult<()> {
    conn.execute(
        "DELETE FROM sessions WHERE token_hash = ?1",
        [hash_token(token)],
    )?;
    Ok(())
}

/// A login attempt allowed to check its password.
pub struct Reserved {
    /// The `login_attempts` row, recorded as a failure until `finish_attempt`.
    pub attempt_id: i64,
    /// The user and password hash, if the login exists.
    pub found: Option<(User, String)>,
}

/// Checks the lockout and, when it allows the attempt, records the attempt as
/// a failure, both in one write transaction: parallel attempts are counted
/// one after another, so no more are checked than the limits allow
/// (`docs/admin.md`, lockout). `None`: locked.
///
/// `clean_address_passes`: an address with no failure in the window is not
/// refused by the lock of the login (the address lock still applies), so a
/// stranger who fails with an admin's name cannot keep that admin out.
pub fn reserve_attempt(
    conn: &mut Connection,
    username: &str,
    ip: &str,
    clean_address_passes: bool,
    lockout: Lockout,
) -> AppResult<Option<Reserved>> {
    let username: String = username.chars().take(255).collect();
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let by_address = failures(&tx, "ip_address", ip)?;
    let by_login = failures(&tx, "username", &username)?;
    let login_locked =
        reaches(by_login, lockout.per_login) && !(clean_address_passes && by_address == 0);
    if reaches(by_address, lockout.per_address) || login_locked {
        return Ok(None);
    }
    tx.execute(
        "INSERT INTO login_attempts (username, attempted_at, successful, ip_address)
         VALUES (?1, ?2, 0, ?3)",
        params![username, super::now(), ip],
    )?;
    let attempt_id = tx.last_insert_rowid();
    let found = users::find_for_login(&tx, &username)?;
    tx.commit()?;
    Ok(Some(Reserved { attempt_id, found }))
}

/// Settles a reserved attempt after the password check: a failure stays as
/// recorded; a success is marked, or removed when `keep_success` is false
/// (Basic calls, which would flood the table).
pub fn finish_attempt(
    conn: &Connection,
    attempt_id: i64,
    verified: bool,
    keep_success: bool,
) -> AppResult<()> {
    if !verified {
        return Ok(());
    }
    let sql = if keep_success {
        "UPDATE login_attempts SET successful = 1 WHERE id = ?1"
    } else {
        "DELETE FROM login_attempts WHERE id = ?1"
    };
    conn.execute(sql, [attempt_id])?;
    Ok(())
}

/// Failed (or still pending) attempts in the window for a login or an address.
fn failures(conn: &Connection, column: &str, value: &str) -> AppResult<i64> {
    let since = at(Duration::minutes(-LOCKOUT_MINUTES));
    Ok(conn
        .prepare_cached(&format!(
            "SELECT count(*) FROM login_attempts
             WHERE {column} = ?1 AND successful = 0 AND attempted_at > ?2"
        ))?
        .query_row(params![value, since], |r| r.get(0))?)
}
