//! Admin users, with argon2id password hashes.

use argon2::password_hash::{Output, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::roles::Role;
use crate::error::{AppError, AppResult};

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: String,
    pub username: String,
    /// The person's name (may be empty: screens then show the login).
    pub name: String,
    pub role: Role,
    pub created_at: String,
    /// Blocked by an owner: cannot log in.
    pub blocked: bool,
    /// Logged in with a one-time password: may do nothing but change it.
    pub must_change_password: bool,
}

/// The columns `User::from_row` reads, in its order.
pub const USER_COLUMNS: &str = "u.id, u.username, u.display_name, u.role, u.created_at, \
     u.blocked_at IS NOT NULL, u.must_change_password";
/// How many they are: the next column of a query is at this index.
pub const USER_COLUMN_COUNT: usize = 7;

impl User {
    /// A user from the first columns of `row` (`USER_COLUMNS`).
    pub fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<User> {
        Ok(User {
            id: row.get(0)?,
            username: row.get(1)?,
            name: row.get(2)?,
            role: row.get(3)?,
            created_at: row.get(4)?,
            blocked: row.get(5)?,
            must_change_password: row.get(6)?,
        })
    }

    /// The name screens show: the person's, or the login.
    pub fn shown_name(&self) -> &str {
        if self.name.is_empty() {
            &self.username
        } else {
            &self.name
        }
    }
}

pub const MIN_PASSWORD_LEN: usize = 8;

pub fn hash_password(password: &str) -> AppResult<String> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>())
        .map_err(|e| AppError::Internal(anyhow::anyhow!("salt: {e}")))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AppError::Internal(anyhow::anyhow!("hash: {e}")))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Checks a password like `verify_password`, with `memory` as argon2's work
/// area (about 19 MiB with the default parameters; grown when a hash needs
/// more). A server that keeps a few such areas and reuses them has a fixed
/// memory bound for password checks, instead of one fresh allocation per check.
pub fn verify_password_in(password: &str, hash: &str, memory: &mut Vec<Block>) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(version)) => version,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let blocks = params.block_count();
    if memory.len() < blocks {
        memory.resize(blocks, Block::default());
    }
    let mut out = vec![0u8; expected.len()];
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut memory[..blocks])
        .is_ok()
        // `Output`'s comparison takes constant time.
        && Output::new(&out).is_ok_and(|computed| computed == expected)
}

fn check_username(username: &str) -> AppResult<()> {
    if username.is_empty() || username.chars().count() > 50 {
        return Err(AppError::invalid(
            "username",
            "Имя пользователя: от 1 до 50 символов",
        ));
    }
    if username
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == ':')
    {
        return Err(AppError::invalid(
            "username",
            "Имя пользователя не должно содержать пробелов и двоеточий",
        ));
    }
    Ok(())
}

fn check_password(password: &str) -> AppResult<()> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(AppError::invalid(
            "password",
            format!("Пароль должен быть не короче {MIN_PASSWORD_LEN} символов"),
        ));
    }
    Ok(())
}

pub fn create(conn: &Connection, username: &str, password: &str, role: Role) -> AppResult<User> {
    check_username(username)?;
    check_password(password)?;
    let user = User {
        id: super::new_id(),
        username: username.to_string(),
        name: String::new(),
        role,
        created_at: super::now(),
        blocked: false,
        must_change_password: false,
    };
    let hash = hash_password(password)?;
    conn.execute(
        "INSERT INTO users (id, username, password_hash, role, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![user.id, user.username, hash, user.role, user.created_at],
    )?;
    Ok(user)
}

/// Stores a new password hash for the user `id`, and nothing else: its
/// sessions are the caller's to end.
pub fn store_password(conn: &Connection, id: &str, password: &str) -> AppResult<()> {
    check_password(password)?;
    let hash = hash_password(password)?;
    conn.execute(
        "UPDATE users SET password_hash = ?2 WHERE id = ?1",
        params![id, hash],
    )?;
    Ok(())
}

pub fn set_password(conn: &Connection, username: &str, password: &str) -> AppResult<bool> {
    check_password(password)?;
    let hash = hash_password(password)?;
    let changed = conn.execute(
        "UPDATE users SET password_hash = ?2 WHERE username = ?1",
        params![username, hash],
    )?;
    if changed > 0 {
        // A new password ends every open session of the user.
        conn.execute(
            "DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = ?1)",
            [username],
        )?;
    }
    Ok(changed > 0)
}

pub fn list(conn: &Connection) -> AppResult<Vec<User>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {USER_COLUMNS} FROM users u ORDER BY u.username"
    ))?;
    let rows = stmt.query_map([], User::from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The user and password hash for a login, if the user exists.
pub fn find_for_login(conn: &Connection, username: &str) -> AppResult<Option<(User, String)>> {
    Ok(conn
        .query_row(
            &format!("SELECT {USER_COLUMNS}, u.password_hash FROM users u WHERE u.username = ?1"),
            [username],
            |r| Ok((User::from_row(r)?, r.get(USER_COLUMN_COUNT)?)),
        )
        .optional()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_with_reused_memory_agree_with_the_crate() {
        let hash = hash_password("correct horse").unwrap();
        let mut memory = Vec::new();
        assert!(verify_password_in("correct horse", &hash, &mut memory));
        let size = memory.len();
        assert_eq!(size, Params::DEFAULT.block_count());
        assert!(!verify_password_in("correct horsf", &hash, &mut memory));
        assert!(!verify_password_in("", &hash, &mut memory));
        assert!(!verify_password_in(
            "correct horse",
            "not a hash",
            &mut memory
        ));
        assert_eq!(memory.len(), size, "the area is reused, not grown");
        // A hash made with other parameters (more memory, two lanes) checks too.
        let params = Params::new(32 * 1024, 1, 2, Some(24)).unwrap();
        let other = Argon2::new(Algorithm::Argon2i, Version::V0x10, params)
            .hash_password(b"other", &SaltString::encode_b64(&[7; 16]).unwrap())
            .unwrap()
            .to_string();
        assert!(verify_password("other", &other));
        assert!(verify_password_in("other", &other, &mut memory));
        assert!(!verify_password_in("otter", &other, &mut memory));
        assert_eq!(memory.len(), 32 * 1024);
    }
}
