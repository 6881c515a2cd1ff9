use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use rusqlite::Connection;
use rusqlite::backup::Backup;

/// Copies a live database to `target` through SQLite's online backup. The
/// copy is taken in one step under a read transaction, so it is consistent
/// even while the server keeps writing (WAL lets the writer go on).
pub fn backup_to(source: &Path, target: &Path) -> anyhow::Result<()> {
    if !source.exists() {
        anyhow::bail!("no database at {}", source.display());
    }
    if target.exists() {
        anyhow::bail!(
            "{} already exists; choose a new file name",
            target.display()
        );
    }
    let src = Connection::open_with_flags(
        source,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("cannot open {}", source.display()))?;
    src.busy_timeout(Duration::from_secs(10))?;
    let partial = target.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    {
        let mut dst = Connection::open(&partial)
            .with_context(|| format!("cannot create {}", partial.display()))?;
        let backup = Backup::new(&src, &mut dst)?;
        backup
            .run_to_completion(i32::MAX, Duration::from_millis(50), None)
            .context("backup failed")?;
        drop(backup);
        // A single self-contained file, not WAL, so it can be copied anywhere.
        dst.pragma_update(None, "journal_mode", "DELETE")?;
    }
    std::fs::rename(&partial, target)
        .with_context(|| format!("cannot write {}", target.display()))?;
    Ok(())
}
