//! `dealership restore ARCHIVE`: checks an archive of `dealership backup`
//! completely (every checksum of its manifest, SQLite's integrity check,
//! the schema version), then puts it in place of the data directory's
//! database and media folder. The data it replaces is moved, not deleted,
//! into `before-restore-<time>/` in the data directory. A running server
//! holds the data directory's lock file, and restore refuses to run then.
//!
//! A restore killed at any moment leaves a whole database: before the
//! archive is checked completely nothing outside its unpacked folder has
//! changed (the next command removes the folder); after it, the folder is
//! marked ready and the next command (`finish_interrupted`) finishes moving
//! it in. The database itself is replaced by one rename.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, bail};
use flate2::read::GzDecoder;
use rusqlite::{Connection, OpenFlags};

use super::{DB_ENTRY, FORMAT, Hashing, MANIFEST_ENTRY, MEDIA_ENTRY, Manifest, ManifestFile};
use crate::config::Config;
use crate::domain::erasure_ledger::{KEY_FILE, LOG_FILE};
use crate::domain::erasure_reapply::{self, Reapplied};

/// The largest manifest read (a million pictures fit well within it).
const MANIFEST_MAX_BYTES: u64 = 256 * 1024 * 1024;
/// What a restore did.
#[derive(Debug)]
pub struct Restored {
    pub manifest: Manifest,
    /// Where the data that was there before went (None: there was none).
    pub previous: Option<PathBuf>,
    /// Erasures made after the archive, applied to it again.
    pub reapplied: Reapplied,
}

/// Start of the folder a restore unpacks its archive into, in the data
/// directory (`.restore-<stamp>`).
pub(super) const STAGING_PREFIX: &str = ".restore-";
/// Start of the folder the replaced data is moved into.
pub(super) const PREVIOUS_PREFIX: &str = "before-restore-";
/// The mark, in the unpacked folder, that its archive was checked completely
/// and may be put in place: a restore killed after it is finished by the
/// next command; one killed before it changed nothing, and its folder is
/// removed. Archive entries never start with a dot, so it cannot be one.
const READY: &str = ".ready";

/// Restores `archive` into the data directory of `config`.
pub fn restore(config: &Config, archive: &Path) -> anyhow::Result<Restored> {
    let data_dir = &config.data_dir;
    let reader = File::open(archive)
        .with_context(|| format!("cannot open the archive {}", archive.display()))?;
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create the data directory {}", data_dir.display()))?;
    // Held to the end: no server can start on a half-restored directory.
    let _lock = super::lock::lock_data_dir(data_dir).map_err(|err| {
        anyhow::anyhow!(
            "refusing to restore while a server uses the data directory: {err:#}. \
             Stop it (systemctl stop dealership), restore, then start it again"
        )
    })?;
    // Made by root, the lock file would keep the service user's server out.
    give_to_owner(data_dir, &data_dir.join(super::lock::LOCK_FILE))?;
    finish_interrupted_locked(data_dir)?;
    let stamp = free_stamp(data_dir);
    let staging = data_dir.join(format!("{STAGING_PREFIX}{stamp}"));
    std::fs::create_dir(&staging)
        .with_context(|| format!("cannot create {}", staging.display()))?;
    let checked = verify_into(reader, &staging)
        .with_context(|| format!("{} cannot be restored", archive.display()))
        .and_then(|manifest| {
            let reapplied = reapply_erasures(data_dir, &staging, archive.parent())?;
            prepare(data_dir, &staging)?;
            Ok((manifest, reapplied))
        });
    let (manifest, reapplied) = match checked {
        Ok(manifest) => manifest,
        Err(err) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(err);
        }
    };
    // From here on the restore is decided: should this process end before
    // the end, the next command finishes it (`finish_interrupted`).
    pause_for_tests();
    let previous = data_dir.join(format!("{PREVIOUS_PREFIX}{stamp}"));
    put_in_place(data_dir, &staging, &previous).with_context(|| {
        format!(
            "the restore stopped while it put the archive in place; run `dealership restore` \
             again or start the server to finish it ({} holds what is left to move)",
            staging.display()
        )
    })?;
    remove_staging(&staging)?;
    Ok(Restored {
        manifest,
        previous: previous.exists().then_some(previous),
        reapplied,
    })
}

/// Applies to the unpacked copy in `staging`, before it is marked ready,
/// every erasure made after it (docs/personal-data.md, "Backups and
/// erasures"): the entries of the data directory's ledger file and
/// database, and of the ledger beside the archive (`archive_dir`), that
/// the copy's own table lacks. Says how many in the log.
pub(super) fn reapply_erasures(
    data_dir: &Path,
    staging: &Path,
    archive_dir: Option<&Path>,
) -> anyhow::Result<Reapplied> {
    let beside: Vec<&Path> = archive_dir
        .filter(|d| !d.as_os_str().is_empty())
        .into_iter()
        .filter(|d| *d != data_dir)
        .collect();
    let ledgers: Vec<PathBuf> = std::iter::once(data_dir.join(LOG_FILE))
        .chain(beside.iter().map(|d| d.join(LOG_FILE)))
        .collect();
    let keys: Vec<PathBuf> = std::iter::once(data_dir.join(KEY_FILE))
        .chain(beside.iter().map(|d| d.join(KEY_FILE)))
        .collect();
    let done = erasure_reapply::reapply_to_copy(
        &staging.join(DB_ENTRY),
        &ledgers,
        &[data_dir.join(DB_ENTRY)],
        &keys,
    )
    .context("cannot apply the erasures made after the copy")?;
    tracing::info!(
        erasures = done.erasures,
        leads = done.leads,
        subscriptions = done.subscriptions,
        "re-applied the erasures made after the restored copy"
    );
    Ok(done)
}

/// A stamp no earlier restore's folders use (two restores in one second).
pub(super) fn free_stamp(data_dir: &Path) -> String {
    let base = super::timestamp();
    let free = |stamp: &String| {
        !data_dir.join(format!("{STAGING_PREFIX}{stamp}")).exists()
            && !data_dir.join(format!("{PREVIOUS_PREFIX}{stamp}")).exists()
    };
    (1..)
        .map(|n| match n {
            1 => base.clone(),
            n => format!("{base}-{n}"),
        })
        .find(free)
        .unwrap_or(base)
}

/// Finishes a restore that was killed (or failed) after its archive was
/// checked, and removes what one killed before left unpacked. Every command
/// on a data directory calls it first; it does nothing while a server holds
/// the directory (the server did it when it started).
pub fn finish_interrupted(data_dir: &Path) -> anyhow::Result<()> {
    if staging_folders(data_dir).is_empty() {
        return Ok(());
    }
    let Ok(_lock) = super::lock::lock_data_dir(data_dir) else {
        return Ok(());
    };
    finish_interrupted_locked(data_dir)
}

/// [`finish_interrupted`] for a caller that holds the data directory's lock.
pub fn finish_interrupted_locked(data_dir: &Path) -> anyhow::Result<()> {
    for staging in staging_folders(data_dir) {
        if staging.join(READY).exists() {
            let name = staging.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let stamp = name.strip_prefix(STAGING_PREFIX).unwrap_or(name);
            let previous = data_dir.join(format!("{PREVIOUS_PREFIX}{stamp}"));
            put_in_place(data_dir, &staging, &previous).with_context(|| {
                format!(
                    "cannot finish the interrupted restore in {}",
                    staging.display()
                )
            })?;
            remove_staging(&staging)?;
            tracing::warn!(
                "finished a restore that was interrupted: the archive's data is in place{}",
                if previous.exists() {
                    format!(", the data it replaced is in {}", previous.display())
                } else {
                    String::new()
                }
            );
        } else {
            std::fs::remove_dir_all(&staging)
                .with_context(|| format!("cannot remove {}", staging.display()))?;
            tracing::warn!(
                "removed {}, left by a restore interrupted before it changed anything",
                staging.display()
            );
        }
    }
    Ok(())
}

/// The unpacked folders of restores in the data directory.
fn staging_folders(data_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(data_dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(STAGING_PREFIX))
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

/// Removes the unpacked folder once everything moved out: its mark first,
/// so that a kill meanwhile leaves a folder the next command just removes.
pub(super) fn remove_staging(staging: &Path) -> anyhow::Result<()> {
    let _ = std::fs::remove_file(staging.join(READY));
    std::fs::remove_dir_all(staging).with_context(|| format!("cannot remove {}", staging.display()))
}

/// In debug builds, `CRASH_TEST_RESTORE_PAUSE_MS` holds the restore this
/// long at each step of putting the archive in place, so that the crash
/// tests (`tests/crashes.rs`) can kill it at each one.
fn pause_for_tests() {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("CRASH_TEST_RESTORE_PAUSE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Unpacks the archive into `staging` and checks everything it holds; gives
/// its manifest. Nothing outside `staging` is touched.
pub fn verify_into(reader: impl Read, staging: &Path) -> anyhow::Result<Manifest> {
    let mut archive = tar::Archive::new(GzDecoder::new(BufReader::new(reader)));
    let mut found: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut manifest: Option<Manifest> = None;
    let entries = archive.entries().map_err(damaged)?;
    for entry in entries {
        let mut entry = entry.map_err(damaged)?;
        let path = entry.path().map_err(damaged)?.into_owned();
        let name = archive_path(&path)?;
        let kind = entry.header().entry_type();
        if kind.is_dir() && (name == MEDIA_ENTRY || name.starts_with("media/")) {
            continue;
        }
        if !kind.is_file() {
            bail!("the archive holds {name}, which is not a file: not a dealership backup");
        }
        if manifest.is_some() {
            bail!("the archive goes on after its manifest: not a dealership backup");
        }
        if name == MANIFEST_ENTRY {
            let mut text = Vec::new();
            (&mut entry)
                .take(MANIFEST_MAX_BYTES)
                .read_to_end(&mut text)
                .map_err(damaged)?;
            manifest = Some(
                serde_json::from_slice(&text)
                    .map_err(|e| anyhow::anyhow!("the manifest cannot be read: {e}"))?,
            );
            continue;
        }
        if name != DB_ENTRY && !name.starts_with("media/") {
            bail!("the archive holds {name}: not a dealership backup");
        }
        let target = staging.join(&name);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let file =
            File::create(&target).with_context(|| format!("cannot write {}", target.display()))?;
        let mut writer = Hashing::new(file);
        io::copy(&mut entry, &mut writer).map_err(damaged)?;
        let (size, sha256) = writer.finish();
        if found.insert(name.clone(), (size, sha256)).is_some() {
            bail!("the archive holds {name} twice: not a dealership backup");
        }
    }
    let Some(manifest) = manifest else {
        bail!("the archive has no manifest: it is cut short or not a dealership backup");
    };
    if manifest.format != FORMAT {
        bail!(
            "the archive is of format {}, this dealership reads format {FORMAT}",
            manifest.format
        );
    }
    compare(&manifest.files, &found)?;

    let db = staging.join(DB_ENTRY);
    let conn = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .context("the database in the archive cannot be opened")?;
    let problems: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .context("the database in the archive cannot be checked")?;
    if problems != ["ok"] {
        bail!(
            "the database in the archive is damaged: {}",
            problems.join("; ")
        );
    }
    crate::db::refuse_newer(&conn)?;
    Ok(manifest)
}

fn damaged(err: io::Error) -> anyhow::Error {
    anyhow::anyhow!("the archive is damaged or cut short ({err})")
}

/// The `/`-separated path of an entry; refuses any that could reach out of
/// the folder it is unpacked into.
fn archive_path(path: &Path) -> anyhow::Result<String> {
    let mut parts = Vec::new();
    for part in path.components() {
        match part {
            Component::Normal(part) => match part.to_str() {
                Some(part) if !part.starts_with('.') => parts.push(part),
                _ => bail!(
                    "the archive holds {}: not a dealership backup",
                    path.display()
                ),
            },
            Component::CurDir => {}
            _ => bail!(
                "the archive holds {}: not a dealership backup",
                path.display()
            ),
        }
    }
    if parts.is_empty() {
        bail!("the archive holds an entry without a name");
    }
    Ok(parts.join("/"))
}

/// Every file the manifest lists is there with its size and checksum, and
/// nothing else is.
fn compare(listed: &[ManifestFile], found: &BTreeMap<String, (u64, String)>) -> anyhow::Result<()> {
    if !listed.iter().any(|f| f.path == DB_ENTRY) {
        bail!("the archive holds no database");
    }
    for file in listed {
        match found.get(&file.path) {
            None => bail!(
                "the archive is damaged: {} is listed in its manifest but missing",
                file.path
            ),
            Some((size, sha256)) if *size != file.size || *sha256 != file.sha256 => bail!(
                "the archive is damaged: {} does not match its checksum",
                file.path
            ),
            Some(_) => {}
        }
    }
    let listed: HashSet<&str> = listed.iter().map(|f| f.path.as_str()).collect();
    if let Some(extra) = found.keys().find(|name| !listed.contains(name.as_str())) {
        bail!("the archive is damaged: {extra} is not in its manifest");
    }
    Ok(())
}

/// Makes the checked copy in `staging` ready to be put in place: the data
/// directory's database gets its write-ahead log merged in (so that the
/// log left beside it holds nothing it lacks), everything unpacked is on
/// disk, then the mark [`READY`] is written.
pub(super) fn prepare(data_dir: &Path, staging: &Path) -> anyhow::Result<()> {
    let live = data_dir.join(DB_ENTRY);
    if live.exists() {
        let merged = Connection::open_with_flags(&live, OpenFlags::SQLITE_OPEN_READ_WRITE)
            .and_then(|c| {
                c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                    r.get::<_, i64>(0)
                })
            });
        if !matches!(merged, Ok(0)) {
            tracing::warn!(
                "the database being replaced could not merge its write-ahead log ({merged:?}); \
                 it is kept with its log"
            );
        }
    }
    let media = staging.join(MEDIA_ENTRY);
    if !media.exists() {
        std::fs::create_dir(&media)?;
    }
    File::open(staging.join(DB_ENTRY))?.sync_all()?;
    sync_tree(&media)?;
    sync_dir(staging);
    let ready = File::create(staging.join(READY))
        .with_context(|| format!("cannot write {}", staging.join(READY).display()))?;
    ready.sync_all()?;
    sync_dir(staging);
    Ok(())
}

/// Moves the data directory's database and media aside, into `previous`,
/// and the checked copies from `staging` in. Each step can be done again
/// after a kill, and what is still in `staging` says what is left: while
/// the unpacked database is there, the data directory's is the old one.
/// The database is replaced by one rename (the old one linked into
/// `previous` first), so the data directory always holds one whole database,
/// the old or the restored.
pub(super) fn put_in_place(data_dir: &Path, staging: &Path, previous: &Path) -> anyhow::Result<()> {
    let staged_db = staging.join(DB_ENTRY);
    let staged_media = staging.join(MEDIA_ENTRY);
    let aside = |name: &str| -> anyhow::Result<()> {
        let path = data_dir.join(name);
        if path.symlink_metadata().is_err() {
            return Ok(());
        }
        std::fs::create_dir_all(previous)
            .with_context(|| format!("cannot create {}", previous.display()))?;
        let to = previous.join(name);
        if to.symlink_metadata().is_ok() {
            bail!("{} is there already; move it away first", to.display());
        }
        std::fs::rename(&path, &to)
            .with_context(|| format!("cannot move {} aside", path.display()))?;
        pause_for_tests();
        Ok(())
    };
    if staged_db.exists() {
        // The old database's log, merged into it before (`prepare`), and its
        // shared memory: a restored database must not start with them. Nor
        // with Litestream's state of the old one (its position in the old
        // database's history): Litestream asks for it to go whenever a
        // database is replaced, and starts afresh without it.
        aside("dealership.db-wal")?;
        aside("dealership.db-shm")?;
        aside(super::LITESTREAM_STATE)?;
        // And the refusal to replicate the old one (`replica_guard`).
        aside(super::replica_guard::REFUSED_FILE)?;
    }
    if staged_media.exists() {
        aside(MEDIA_ENTRY)?;
        let to = data_dir.join(MEDIA_ENTRY);
        std::fs::rename(&staged_media, &to)
            .with_context(|| format!("cannot put {} in place", to.display()))?;
        give_to_owner(data_dir, &to)?;
        pause_for_tests();
    }
    if staged_db.exists() {
        let live = data_dir.join(DB_ENTRY);
        let kept = previous.join(DB_ENTRY);
        if live.exists() && !kept.exists() {
            std::fs::create_dir_all(previous)
                .with_context(|| format!("cannot create {}", previous.display()))?;
            if std::fs::hard_link(&live, &kept).is_err() {
                std::fs::rename(&live, &kept)
                    .with_context(|| format!("cannot move {} aside", live.display()))?;
            }
            pause_for_tests();
        }
        std::fs::rename(&staged_db, &live)
            .with_context(|| format!("cannot put {} in place", live.display()))?;
        give_to_owner(data_dir, &live)?;
    }
    if previous.exists() {
        give_to_owner(data_dir, previous)?;
    }
    sync_dir(data_dir);
    Ok(())
}

/// Makes the files under `dir` durable: on Linux one `syncfs` of its file
/// system (far cheaper than a sync per picture).
#[cfg(target_os = "linux")]
fn sync_tree(dir: &Path) -> anyhow::Result<()> {
    let dir = File::open(dir)?;
    rustix::fs::syncfs(&dir)?;
    Ok(())
}

/// Makes the files under `dir` durable, one by one.
#[cfg(not(target_os = "linux"))]
fn sync_tree(dir: &Path) -> anyhow::Result<()> {
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                dirs.push(entry.path());
            } else {
                File::open(entry.path())?.sync_all()?;
            }
        }
        sync_dir(&dir);
    }
    Ok(())
}

fn sync_dir(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// Files restored by root belong to the data directory's owner (the service
/// user), or the server could not write them.
#[cfg(unix)]
pub(super) fn give_to_owner(data_dir: &Path, path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let owner = std::fs::metadata(data_dir)?;
    let (uid, gid) = (owner.uid(), owner.gid());
    let mut paths = vec![path.to_path_buf()];
    while let Some(path) = paths.pop() {
        let meta = std::fs::symlink_metadata(&path)?;
        if meta.uid() != uid || meta.gid() != gid {
            std::os::unix::fs::chown(&path, Some(uid), Some(gid)).with_context(|| {
                format!(
                    "cannot give {} to the data directory's owner (uid {uid}); \
                     run restore as root or as that user",
                    path.display()
                )
            })?;
        }
        if meta.is_dir() {
            for entry in std::fs::read_dir(&path)? {
                paths.push(entry?.path());
            }
        }
    }
    Ok(())
}

#[cfg(not(unix))]
pub(super) fn give_to_owner(_data_dir: &Path, _path: &Path) -> anyhow::Result<()> {
    Ok(())
}
