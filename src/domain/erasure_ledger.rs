//! The erasure ledger (docs/personal-data.md, "Backups and erasures"): every
//! erasure of a person is recorded without personal data, so that a restore
//! of an older copy (a nightly archive, the replica as it was at a moment)
//! erases them again before the site serves.
//!
//! An entry holds the time and the person's identifiers as keyed hashes:
//! HMAC-SHA256, with the site's own key, of the normalised phone
//! (`p:<hex>`) and of the address's comparison key (`e:<hex>`,
//! `email::canonical`); a lead erased alone (a cancelled one past its
//! period) is named by its id (`l:<id>`). Without the key a hash says
//! nothing (a phone number could be guessed from a plain hash).
//!
//! The key is `erasure.key` in the data directory (0600), beside the
//! database and never in it: the replica's bucket holds the hashes, not the
//! key. Each entry is written twice: to the table `erasures` (so the replica
//! and every archive carry it) and to the append-only file `erasures.log`
//! in the data directory (which a restore keeps, and `backup --dir` copies
//! beside the archives with the key). A restore puts together the entries of
//! every source it finds and re-applies each one its copy's table lacks
//! (`erasure_reapply`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult};

/// The site's key of the hashes, in the data directory.
pub const KEY_FILE: &str = "erasure.key";
/// The ledger's file, in the data directory: one JSON entry a line.
pub const LOG_FILE: &str = "erasures.log";

/// One erasure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Random; the same in the table and the file.
    pub id: String,
    /// RFC 3339, UTC.
    pub at: String,
    /// `p:<hmac hex>`, `e:<hmac hex>`, `l:<lead id>`.
    pub identifiers: Vec<String>,
}

/// The data directory of the database `conn` has open (None: in memory).
fn data_dir(conn: &Connection) -> Option<PathBuf> {
    let path = conn.path().filter(|p| !p.is_empty())?;
    Path::new(path).parent().map(Path::to_path_buf)
}

pub(super) fn private_file(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    if append {
        options.append(true).create(true);
    } else {
        options.write(true).create_new(true);
    }
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// The site's key (made once, 32 random bytes, hex, a file of mode 0600).
pub fn key(dir: &Path) -> std::io::Result<Vec<u8>> {
    let path = dir.join(KEY_FILE);
    if !path.exists() {
        match private_file(&path, false) {
            Ok(mut file) => {
                file.write_all(hex::encode(rand::random::<[u8; 32]>()).as_bytes())?;
                file.sync_all()?;
            }
            // Made meanwhile by another writer: read theirs.
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(err) => return Err(err),
        }
    }
    existing_key(&path)?
        .ok_or_else(|| std::io::Error::other(format!("{} is empty", path.display())))
}

/// The key in `path`, when there is one.
pub fn existing_key(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(hex::decode(text.trim()).ok().filter(|k| !k.is_empty())),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// HMAC-SHA256 of `text`, hex.
fn keyed(key: &[u8], text: &str) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key);
    hex::encode(ring::hmac::sign(&key, text.as_bytes()).as_ref())
}

pub(super) fn phone_id(key: &[u8], phone: &str) -> String {
    format!("p:{}", keyed(key, phone))
}

pub(super) fn email_id(key: &[u8], email: &str) -> String {
    format!("e:{}", keyed(key, &super::email::canonical(email)))
}

fn io_error(err: std::io::Error) -> AppError {
    AppError::Internal(anyhow::Error::new(err).context("the erasure ledger"))
}

/// Records the erasure of a person by their phone and their address.
pub fn record_person(conn: &Connection, phone: Option<&str>, email: Option<&str>) -> AppResult<()> {
    let Some(dir) = data_dir(conn) else {
        return Ok(());
    };
    let key = key(&dir).map_err(io_error)?;
    let identifiers = phone
        .iter()
        .map(|p| phone_id(&key, p))
        .chain(email.iter().map(|e| email_id(&key, e)))
        .collect();
    record(conn, &dir, identifiers)
}

/// Records the erasure of one lead alone.
pub fn record_lead(conn: &Connection, lead_id: &str) -> AppResult<()> {
    let Some(dir) = data_dir(conn) else {
        return Ok(());
    };
    record(conn, &dir, vec![format!("l:{lead_id}")])
}

fn record(conn: &Connection, dir: &Path, identifiers: Vec<String>) -> AppResult<()> {
    if identifiers.is_empty() {
        return Ok(());
    }
    let entry = Entry {
        id: hex::encode(rand::random::<[u8; 16]>()),
        at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        identifiers,
    };
    insert(conn, &entry)?;
    append(&dir.join(LOG_FILE), &entry).map_err(io_error)
}

pub(super) fn insert(conn: &Connection, entry: &Entry) -> AppResult<()> {
    conn.prepare_cached(
        "INSERT OR IGNORE INTO erasures (id, at, identifiers) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![entry.id, entry.at, entry.identifiers.join(" ")])?;
    Ok(())
}

/// Appends `entry` to the file, synced (created 0600).
pub fn append(path: &Path, entry: &Entry) -> std::io::Result<()> {
    let mut file = private_file(path, true)?;
    let mut line = serde_json::to_string(entry).map_err(std::io::Error::other)?;
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.sync_data()
}

/// The entries of a ledger file (none when there is no file; a line that
/// cannot be read, such as one cut short by a crash, is skipped).
pub fn read_file(path: &Path) -> std::io::Result<Vec<Entry>> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(err),
    };
    let mut out = Vec::new();
    for line in BufReader::new(file).lines() {
        if let Ok(entry) = serde_json::from_str::<Entry>(&line?) {
            out.push(entry);
        }
    }
    Ok(out)
}

/// The entries of a database's table (none before V30).
pub fn read_table(conn: &Connection) -> rusqlite::Result<Vec<Entry>> {
    let exists = conn
        .query_row(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'erasures'",
            [],
            |_| Ok(()),
        )
        .optional()?
        .is_some();
    if !exists {
        return Ok(Vec::new());
    }
    conn.prepare("SELECT id, at, identifiers FROM erasures ORDER BY at, id")?
        .query_map([], |r| {
            let identifiers: String = r.get(2)?;
            Ok(Entry {
                id: r.get(0)?,
                at: r.get(1)?,
                identifiers: identifiers.split_whitespace().map(String::from).collect(),
            })
        })?
        .collect()
}

/// The entries of the database file `db` (none when there is none, or it
/// cannot be read: a restore goes on with the other sources).
pub fn read_database(db: &Path) -> Vec<Entry> {
    if !db.exists() {
        return Vec::new();
    }
    // Read-write (not created): a database left with its write-ahead log
    // is read with it.
    let read = Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .and_then(|c| read_table(&c));
    match read {
        Ok(entries) => entries,
        Err(err) => {
            tracing::warn!("cannot read the erasures of {}: {err}", db.display());
            Vec::new()
        }
    }
}
