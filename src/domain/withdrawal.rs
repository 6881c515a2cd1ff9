//! The link in every mail a visitor gets (`docs/personal-data.md`,
//! "Withdrawing by a link"): it withdraws the consent and erases what is
//! held about the address, without logging in. A token per mail; only its
//! SHA-256 is kept, and it goes with the person's data.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rusqlite::{Connection, OptionalExtension};
use sha2::{Digest, Sha256};

use crate::error::AppResult;

/// Withdrawals one e-mail address (any spelling) may ask a minute.
pub const PER_ADDRESS_PER_MINUTE: u32 = 3;
/// The answer past a limit (429 with `Retry-After`).
pub const RATE_LIMITED: &str =
    "Слишком много запросов с вашего адреса. Пожалуйста, подождите минуту и попробуйте снова.";

/// The answer to an unknown or spent token.
pub const LINK_INVALID: &str = "Ссылка недействительна или устарела";

fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Issues a token for a mail to `email`: its hash is stored, the token
/// itself goes into the mail.
pub fn issue(conn: &Connection, email: &str, now: &str) -> AppResult<String> {
    let token = URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>());
    conn.prepare_cached(
        "INSERT INTO forget_tokens (token_hash, email, created_at, email_key)
         VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(rusqlite::params![
        hash(&token),
        email.trim(),
        now,
        super::email::canonical(email)
    ])?;
    Ok(token)
}

/// The address a token was issued for, as the mail spelt it, when it is
/// known.
pub fn address(conn: &Connection, token: &str) -> AppResult<Option<String>> {
    let token = token.trim();
    if token.is_empty() || token.len() > 200 {
        return Ok(None);
    }
    Ok(conn
        .prepare_cached("SELECT email FROM forget_tokens WHERE token_hash = ?1")?
        .query_row([hash(token)], |r| r.get(0))
        .optional()?)
}

/// The page a mail links: `{base}/personal-data/forget?token=…`.
pub fn link(base: &str, token: &str) -> String {
    format!("{base}/personal-data/forget?token={token}")
}
