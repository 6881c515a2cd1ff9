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
//! ([`reapply`]).

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::person_data::{self, Subject};
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

fn private_file(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
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

fn phone_id(key: &[u8], phone: &str) -> String {
    format!("p:{}", keyed(key, phone))
}

fn email_id(key: &[u8], email: &str) -> String {
    format!("e:{}", keyed(key, &super::email::canonical(email)))
}

fn io_error(err: std::io::Error) -> AppError {
    AppError::Internal(anyhow::Error::new(err).context("the erasure ledger"))
}

/// Records the erasure of the person `who` (their phone, their address).
pub fn record_person(conn: &Connection, who: &Subject) -> AppResult<()> {
    let Some(dir) = data_dir(conn) else {
        return Ok(());
    };
    let key = key(&dir).map_err(io_error)?;
    let identifiers = who
        .phone
        .iter()
        .map(|p| phone_id(&key, p))
        .chain(who.email.iter().map(|e| email_id(&key, e)))
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

fn insert(conn: &Connection, entry: &Entry) -> AppResult<()> {
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

/// What a restore re-applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reapplied {
    /// Erasures the copy lacked (made after it), each applied again.
    pub erasures: usize,
    /// Leads of the copy erased again by them.
    pub leads: i64,
    /// Subscriptions of the copy deleted again by them.
    pub subscriptions: i64,
}

/// Re-applies to the (migrated) database `conn` every entry of `entries`
/// its own table lacks, in one transaction, with `key` (None: no key was
/// found, and only the leads erased alone can be recognised), and adds them
/// to its table.
pub fn reapply(conn: &Connection, key: Option<&[u8]>, entries: &[Entry]) -> AppResult<Reapplied> {
    let known: BTreeSet<String> = read_table(conn)?.into_iter().map(|e| e.id).collect();
    let mut missing: Vec<&Entry> = Vec::new();
    for entry in entries {
        if !known.contains(&entry.id) && !missing.iter().any(|m| m.id == entry.id) {
            missing.push(entry);
        }
    }
    missing.sort_by(|a, b| a.at.cmp(&b.at));
    let mut done = Reapplied::default();
    if missing.is_empty() {
        return Ok(done);
    }
    let held = key.map(|key| held_identifiers(conn, key)).transpose()?;
    super::atomically(conn, || {
        for entry in &missing {
            let mut who = Subject {
                phone: None,
                email: None,
            };
            for id in &entry.identifiers {
                if let Some(lead) = id.strip_prefix("l:") {
                    done.leads += person_data::erase_lead_unrecorded(conn, lead)?.leads;
                    continue;
                }
                match held.as_ref().and_then(|h| h.get(id)) {
                    Some(value) if id.starts_with("p:") => who.phone = Some(value.clone()),
                    Some(value) => who.email = Some(value.clone()),
                    None => {}
                }
            }
            if who.phone.is_some() || who.email.is_some() {
                let erased = person_data::erase_unrecorded(conn, &who)?;
                done.leads += erased.leads;
                done.subscriptions += erased.subscriptions;
            }
            insert(conn, entry)?;
            done.erasures += 1;
        }
        Ok(())
    })?;
    Ok(done)
}

/// Every phone and address the database holds, by its keyed hash.
fn held_identifiers(conn: &Connection, key: &[u8]) -> AppResult<HashMap<String, String>> {
    let mut out = HashMap::new();
    let phones: Vec<String> = conn
        .prepare(
            "SELECT phone FROM leads WHERE phone <> ''
             UNION SELECT phone FROM data_requests WHERE phone IS NOT NULL",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for phone in phones {
        out.insert(phone_id(key, &phone), phone);
    }
    let emails: Vec<String> = conn
        .prepare(
            "SELECT email_key FROM leads WHERE email_key IS NOT NULL
             UNION SELECT email_key FROM saved_search_subscriptions WHERE email_key IS NOT NULL
             UNION SELECT email_key FROM saved_search_tokens WHERE email_key IS NOT NULL
             UNION SELECT email_key FROM forget_tokens WHERE email_key IS NOT NULL
             UNION SELECT email_key FROM data_requests WHERE email_key IS NOT NULL",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for email in emails {
        out.insert(email_id(key, &email), email);
    }
    Ok(out)
}

/// What a restore does with the ledger, before the restored database is
/// put in place: opens the unpacked copy `db` as the site does (migrated,
/// `secure_delete`), gathers the entries of `sources` (ledger files and
/// databases: the data directory's, the archive's neighbours) and
/// re-applies the ones the copy lacks, with the key found first in
/// `key_files`. The copy's log is merged into it after.
pub fn reapply_to_copy(
    db: &Path,
    ledger_files: &[PathBuf],
    databases: &[PathBuf],
    key_files: &[PathBuf],
) -> anyhow::Result<Reapplied> {
    let mut entries: Vec<Entry> = Vec::new();
    for file in ledger_files {
        entries.extend(read_file(file).map_err(|e| {
            anyhow::anyhow!("cannot read the erasure ledger {}: {e}", file.display())
        })?);
    }
    for database in databases {
        entries.extend(read_database(database));
    }
    let mut key = None;
    for (n, file) in key_files.iter().enumerate() {
        if let Some(found) = existing_key(file)? {
            // The first is the data directory's: a key found beside the
            // archives is put there, so that later erasures hash alike.
            if n > 0
                && let Some(own) = key_files.first()
            {
                let mut copy = private_file(own, false)?;
                copy.write_all(hex::encode(&found).as_bytes())?;
                copy.sync_all()?;
            }
            key = Some(found);
            break;
        }
    }
    let mut conn = Connection::open(db)?;
    crate::db::migrate(&mut conn)?;
    conn.execute_batch("PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;")?;
    crate::db::register_functions(&conn)?;
    if key.is_none()
        && entries
            .iter()
            .any(|e| !e.identifiers.iter().all(|i| i.starts_with("l:")))
    {
        tracing::warn!(
            "no erasure key ({KEY_FILE}) was found: erasures of people cannot be recognised \
             in the restored copy"
        );
    }
    let done = reapply(&conn, key.as_deref(), &entries).map_err(|e| anyhow::anyhow!("{e}"))?;
    let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
        r.get::<_, i64>(0)
    });
    drop(conn);
    Ok(done)
}
