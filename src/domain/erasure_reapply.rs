//! A restore applies the erasure ledger again (docs/personal-data.md,
//! "Backups and erasures"): every erasure recorded after the copy was made
//! (`erasure_ledger`) is matched by its keyed hashes against what the
//! restored copy holds, and erased again before the site serves.

use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::erasure_ledger::{
    Entry, KEY_FILE, email_id, existing_key, insert, phone_id, private_file, read_database,
    read_file, read_table,
};
use super::person_data::{self, Subject};
use crate::error::AppResult;

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
