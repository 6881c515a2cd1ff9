//! Migrations of the schema (`migrations/`): applied in one transaction and
//! checked, a database of a newer binary refused, and the data step run after
//! them (promotions' free-text last days settled).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use rusqlite::Connection;
use rusqlite::backup::Backup;

use crate::text_dates::last_date_in;

mod embedded {
    refinery::embed_migrations!("migrations");
}

/// Applies pending migrations, all in one transaction: when one fails, the
/// database stays as it was. Refuses a database that a newer binary has
/// migrated past what this one knows, naming both versions.
///
/// Migrations run with foreign keys off: a migration that rebuilds a table
/// (create the new one, copy, drop the old, rename) would otherwise cascade
/// the drop into the tables that reference it. Whatever was applied is then
/// checked with `PRAGMA foreign_key_check`; when that fails, the copy taken
/// before migrating is put back, so the database is again as it was. The
/// connection's setting is restored.
pub fn migrate(conn: &mut Connection) -> anyhow::Result<()> {
    migrate_to(conn, None)
}

/// [`migrate`], stopping at `version` when given (for upgrade tests).
pub(crate) fn migrate_to(conn: &mut Connection, version: Option<i32>) -> anyhow::Result<()> {
    let enforced: bool = conn
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .context("PRAGMA foreign_keys")?;
    conn.pragma_update(None, "foreign_keys", false)
        .context("PRAGMA foreign_keys = OFF")?;
    let result = run_and_check(conn, version);
    conn.pragma_update(None, "foreign_keys", enforced)
        .context("PRAGMA foreign_keys")?;
    result?;
    settle_free_text_dates(conn)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("promotions' free-text last days")?;
    if applied_version(conn)?.is_some_and(|v| v >= 30) {
        crate::domain::email::fill_keys(conn)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .context("the comparison keys of e-mail addresses")?;
    }
    conn.execute_batch("PRAGMA optimize;")
        .context("PRAGMA optimize")?;
    Ok(())
}

/// Promotions saved when the last day was free text ("до 31 декабря 2026",
/// "пока есть автомобили"): a text naming a date keeps that date; a text
/// naming none is kept at the end of the description ("Срок действия: …")
/// and the promotion has no end. Runs after migrations; does nothing once
/// every value is a date.
pub fn settle_free_text_dates(conn: &Connection) -> rusqlite::Result<usize> {
    let texts: Vec<(String, String)> = conn
        .prepare(
            "SELECT id, valid_until FROM promotions WHERE valid_until <> ''
             AND valid_until NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, text) in &texts {
        match last_date_in(text) {
            Some(day) => conn.execute(
                "UPDATE promotions SET valid_until = ?2 WHERE id = ?1",
                rusqlite::params![id, day.to_string()],
            )?,
            None => conn.execute(
                "UPDATE promotions SET valid_until = '',
                    description = description || char(10) || char(10) || 'Срок действия: ' || ?2
                 WHERE id = ?1",
                rusqlite::params![id, text.trim()],
            )?,
        };
    }
    Ok(texts.len())
}

/// The newest schema version this binary knows.
pub fn known_version() -> i32 {
    embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(refinery::Migration::version)
        .max()
        .unwrap_or(0)
}

/// The newest schema version applied to the database; None when it was
/// never migrated.
pub fn applied_version(conn: &Connection) -> anyhow::Result<Option<i32>> {
    let history: bool = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'refinery_schema_history'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .context("cannot read the database's schema")?
        > 0;
    if !history {
        return Ok(None);
    }
    conn.query_row(
        "SELECT max(version) FROM refinery_schema_history",
        [],
        |r| r.get(0),
    )
    .context("cannot read the database's schema version")
}

/// The versions of schema this binary knows.
fn known_versions() -> BTreeSet<i32> {
    embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(refinery::Migration::version)
        .collect()
}

/// The program version that applied the database's newest migration, kept
/// in SQLite's `user_version` (docs/schema.md, "Which program migrated
/// it"); None when it was not recorded (databases migrated before 0.1.0's
/// package, or never migrated).
pub fn migrated_by(conn: &Connection) -> anyhow::Result<Option<String>> {
    let code: i32 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .context("cannot read the database's user_version")?;
    Ok(decode_version(code))
}

/// `major.minor.patch` as one number, `major * 1_000_000 + minor * 1_000 +
/// patch` (a pre-release or build suffix is left out); None when a part is
/// not a number or too large for it.
fn encode_version(version: &str) -> Option<i32> {
    let core = version.split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<i32>().ok());
    let (major, minor, patch) = (parts.next()??, parts.next()??, parts.next()??);
    if parts.next().is_some() || !(0..2000).contains(&major) || minor >= 1000 || patch >= 1000 {
        return None;
    }
    Some(major * 1_000_000 + minor * 1_000 + patch)
}

fn decode_version(code: i32) -> Option<String> {
    (code > 0).then(|| {
        format!(
            "{}.{}.{}",
            code / 1_000_000,
            code / 1_000 % 1_000,
            code % 1_000
        )
    })
}

/// Fails when the database holds a migration this binary does not know (a
/// newer program migrated it), naming this program's version, the
/// database's schema version and, when recorded, the program that migrated
/// it.
pub fn refuse_newer(conn: &Connection) -> anyhow::Result<()> {
    if applied_version(conn)?.is_none() {
        return Ok(());
    }
    let applied: Vec<i32> = conn
        .prepare("SELECT version FROM refinery_schema_history ORDER BY version")
        .and_then(|mut stmt| stmt.query_map([], |r| r.get(0))?.collect())
        .context("cannot read the database's schema history")?;
    let known = known_versions();
    let unknown: Vec<i32> = applied
        .iter()
        .copied()
        .filter(|v| !known.contains(v))
        .collect();
    let (Some(&last), Some(&newest_known)) = (applied.last(), known.last()) else {
        return Ok(());
    };
    if unknown.is_empty() {
        return Ok(());
    }
    let by = match migrated_by(conn)? {
        Some(version) => format!(" (migrated by dealership {version})"),
        None => String::new(),
    };
    let this = env!("CARGO_PKG_VERSION");
    if last > newest_known {
        anyhow::bail!(
            "the database is at schema version {last}{by}, but this dealership {this} knows \
             versions up to {newest_known}: it was migrated by a newer version of dealership; \
             install that version (or a newer one) instead of this one"
        );
    }
    let unknown = unknown
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    anyhow::bail!(
        "the database has schema version(s) {unknown} that this dealership {this} does not \
         know (it knows versions up to {newest_known}; the database is at {last}{by}): another \
         version of dealership migrated it; install that version instead of this one"
    )
}

fn run_and_check(conn: &mut Connection, version: Option<i32>) -> anyhow::Result<()> {
    refuse_newer(conn)?;
    let mut runner = embedded::migrations::runner()
        .set_grouped(true)
        .set_abort_missing(true)
        .set_abort_divergent(true);
    if let Some(version) = version {
        runner = runner.set_target(refinery::Target::Version(version));
    }
    let target = version.unwrap_or_else(known_version);
    let saved = match applied_version(conn)? {
        Some(applied) if applied < target => Some(Saved::take(conn)?),
        _ => None,
    };
    let report = runner.run(conn).map_err(|e| {
        let text = e.to_string();
        if text.contains("missing") {
            anyhow::anyhow!(
                "the database was migrated by a newer version of dealership; upgrade the binary ({text})"
            )
        } else {
            anyhow::anyhow!("migration failed: {text}")
        }
    })?;
    if report.applied_migrations().is_empty() {
        return Ok(());
    }
    let broken = broken_references(conn)?;
    if broken.is_empty() {
        // Which program applied the newest migration, for the refusal of an
        // older one (`refuse_newer`).
        if let Some(code) = encode_version(env!("CARGO_PKG_VERSION")) {
            conn.pragma_update(None, "user_version", code)
                .context("PRAGMA user_version")?;
        }
        return Ok(());
    }
    let shown = broken
        .iter()
        .take(10)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let outcome = match &saved {
        Some(saved) => {
            saved
                .put_back(conn)
                .context("cannot put back the database as it was before migrating")?;
            "the database was left as it was before migrating"
        }
        None => "the schema was changed: restore the database from a backup",
    };
    anyhow::bail!(
        "after migrating, {} reference(s) point at missing rows ({shown}); {outcome}",
        broken.len()
    )
}

/// A copy of the database taken before migrating (a file beside it, removed
/// when dropped), put back if the migrated database fails its checks.
struct Saved {
    copy: Connection,
    file: Option<PathBuf>,
}

impl Saved {
    fn take(conn: &Connection) -> anyhow::Result<Saved> {
        let file = conn
            .path()
            .filter(|p| !p.is_empty())
            .map(|p| PathBuf::from(format!("{p}.before-migration")));
        let mut copy = match &file {
            Some(file) => {
                let _ = std::fs::remove_file(file);
                Connection::open(file)
                    .with_context(|| format!("cannot create {}", file.display()))?
            }
            None => Connection::open_in_memory()?,
        };
        Backup::new(conn, &mut copy)?
            .run_to_completion(1024, Duration::ZERO, None)
            .context("cannot copy the database before migrating")?;
        Ok(Saved { copy, file })
    }

    fn put_back(&self, conn: &mut Connection) -> anyhow::Result<()> {
        Backup::new(&self.copy, conn)?.run_to_completion(1024, Duration::ZERO, None)?;
        Ok(())
    }
}

impl Drop for Saved {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// The rows that point at a row that does not exist.
fn broken_references(conn: &Connection) -> anyhow::Result<Vec<String>> {
    let mut stmt = conn.prepare("PRAGMA foreign_key_check")?;
    let broken = stmt
        .query_map([], |r| {
            let table: String = r.get("table")?;
            let rowid: Option<i64> = r.get("rowid")?;
            let parent: String = r.get("parent")?;
            Ok(match rowid {
                Some(rowid) => format!("{table} row {rowid} -> {parent}"),
                None => format!("{table} -> {parent}"),
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(broken)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod upgrade_tests;
