//! `dealership backup`: one `.tar.gz` archive holding a consistent copy of
//! the database, the media folder and a manifest with checksums.
//!
//! A picture's files are written (temporary file, then rename) before any
//! row can name them, and never change afterwards (their name is the hash of
//! their source). So the backup first takes a snapshot of the media folder as
//! hard links (in `.backup-*` in the data directory: no bytes copied), then
//! copies the database (SQLite's online backup, one read transaction), then
//! links what appeared meanwhile, and archives the snapshot. Every picture
//! the copy names existed before the copy: either before the snapshot (so it
//! is in it, even if the unused-picture cleanup removes it meanwhile), or it
//! was written during the backup, and the cleanup keeps pictures that young
//! (an hour, `docs/schema.md`). A picture written later is in the archive or
//! not, but the copy does not name it. Where hard links cannot be made, the
//! folder is read directly, and a backup that finds a named picture gone
//! starts again.

use std::collections::{BTreeSet, HashSet};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use flate2::Compression;
use flate2::write::GzEncoder;
use rusqlite::{Connection, OpenFlags};

use super::{DB_ENTRY, FORMAT, Hashing, MANIFEST_ENTRY, MEDIA_ENTRY, Manifest, ManifestFile};
use crate::config::Config;

/// Start of the names `--dir` gives archives.
pub const NAME_PREFIX: &str = "dealership-";
/// End of an archive's name.
pub const NAME_SUFFIX: &str = ".tar.gz";
/// How many times a backup starts again when pictures vanish under it.
const ATTEMPTS: usize = 3;

/// What a backup wrote.
#[derive(Debug)]
pub struct Written {
    pub path: PathBuf,
    pub pictures: usize,
    pub bytes: u64,
    /// Pictures the database names that were not in the media folder even
    /// before the backup began (a problem of the site, not of the backup).
    pub missing: Vec<String>,
    /// The site's retention period in years (`docs/personal-data.md`):
    /// archives older than it are not kept by the rotation.
    pub retention_years: i64,
}

/// The archive name `--dir` uses for a backup made now.
pub fn dated_name() -> String {
    format!("{NAME_PREFIX}{}{NAME_SUFFIX}", super::timestamp())
}

/// Writes the archive `target`, which must not exist yet. Safe while a
/// server runs and writes.
pub fn backup(config: &Config, target: &Path) -> anyhow::Result<Written> {
    let database = config.database_path();
    if !database.exists() {
        bail!(
            "no database at {}; is the data directory ({}) right?",
            database.display(),
            config.data_dir.display()
        );
    }
    if target.exists() {
        bail!(
            "{} already exists; choose a new file name",
            target.display()
        );
    }
    let partial = with_suffix(target, PARTIAL);
    let db_copy = with_suffix(target, DB_PARTIAL);
    remove_killed_partials(target);
    // Locked while this process lives: a later backup leaves it alone.
    let _running = claim(&partial, target)?;
    let result = attempts(config, &database, target, &partial, &db_copy);
    remove_db_copy(&db_copy);
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    let written = result?;
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        keep_ledger_beside(&config.data_dir, dir)?;
    }
    Ok(written)
}

/// Copies the erasure ledger and its key (`erasures.log`, `erasure.key`,
/// docs/personal-data.md "Backups and erasures") beside the archive, each
/// replaced whole (0600), so that a restore on another host still
/// re-applies the erasures made after an archive. The key is kept with the
/// archives only, which hold the data itself; the replica never gets it.
pub fn keep_ledger_beside(data_dir: &Path, dir: &Path) -> anyhow::Result<()> {
    use crate::domain::erasure_ledger::{KEY_FILE, LOG_FILE};
    if std::fs::canonicalize(dir).ok() == std::fs::canonicalize(data_dir).ok() {
        return Ok(());
    }
    for name in [LOG_FILE, KEY_FILE] {
        let from = data_dir.join(name);
        if !from.exists() {
            continue;
        }
        let to = dir.join(name);
        let part = dir.join(format!(".{name}.partial"));
        let _ = std::fs::remove_file(&part);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut out = options
            .open(&part)
            .with_context(|| format!("cannot write {}", part.display()))?;
        io::copy(&mut File::open(&from)?, &mut out)
            .with_context(|| format!("cannot copy {}", from.display()))?;
        out.sync_all()?;
        std::fs::rename(&part, &to).with_context(|| format!("cannot write {}", to.display()))?;
    }
    Ok(())
}

/// The end of the name an archive is written under before it is complete
/// (renamed to its own name only once it is whole and on disk).
pub const PARTIAL: &str = ".partial";
/// The end of the name of the database copy beside it.
const DB_PARTIAL: &str = ".db.partial";

/// Creates the partial archive and locks it (the lock ends with the
/// process, however it ends).
fn claim(partial: &Path, target: &Path) -> anyhow::Result<File> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(partial)
        .with_context(|| format!("cannot create {}", partial.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "another backup is writing {} now; wait for it or choose another file name",
            target.display()
        ),
        // A file system without locks: go on.
        Err(std::fs::TryLockError::Error(_)) => {}
    }
    file.set_len(0)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    Ok(file)
}

/// The database copy and what SQLite wrote beside it.
fn remove_db_copy(db_copy: &Path) {
    for suffix in ["", "-journal", "-wal", "-shm"] {
        let _ = std::fs::remove_file(with_suffix(db_copy, suffix));
    }
}

/// Removes what killed backups left beside `target`: partial archives no
/// running backup holds (theirs and `--dir`'s `dealership-*` ones) and the
/// database copies beside them.
fn remove_killed_partials(target: &Path) {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let own = target
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| format!("{n}{PARTIAL}"));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        // A database copy whose archive is gone: its backup ended.
        if let Some(archive) = name.strip_suffix(DB_PARTIAL)
            && name.starts_with(NAME_PREFIX)
            && !dir.join(format!("{archive}{PARTIAL}")).exists()
        {
            remove_db_copy(&entry.path());
            continue;
        }
        let Some(archive) = name.strip_suffix(PARTIAL) else {
            continue;
        };
        let ours = Some(&name) == own.as_ref()
            || (name.starts_with(NAME_PREFIX) && archive.ends_with(NAME_SUFFIX));
        if !ours || archive.ends_with(".db") {
            continue;
        }
        let path = entry.path();
        let abandoned = File::open(&path).is_ok_and(|f| f.try_lock().is_ok());
        if abandoned {
            tracing::warn!(
                "removing {}, left by a backup that did not finish",
                path.display()
            );
            let _ = std::fs::remove_file(&path);
            remove_db_copy(&dir.join(format!("{archive}{DB_PARTIAL}")));
        }
    }
}

fn attempts(
    config: &Config,
    database: &Path,
    target: &Path,
    partial: &Path,
    db_copy: &Path,
) -> anyhow::Result<Written> {
    let media_dir = config.media_dir();
    remove_stale_snapshots(&config.data_dir);
    for attempt in 1..=ATTEMPTS {
        let mut snapshot = Snapshot::new(&config.data_dir);
        let before = snapshot.add(&media_dir)?;
        remove_db_copy(db_copy);
        crate::db::backup_to(database, db_copy)?;
        let created_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        snapshot.add(&media_dir)?;
        let (used, schema_version, retention_years) = {
            let copy = Connection::open_with_flags(db_copy, OpenFlags::SQLITE_OPEN_READ_ONLY)
                .context("cannot open the database copy")?;
            let used = crate::media::cleanup::used_hashes(&copy)
                .map_err(|e| anyhow::anyhow!("cannot read the pictures the database uses: {e}"))?;
            let retention_years = crate::domain::settings::get(&copy)
                .map(|s| s.retention_years)
                .unwrap_or(crate::domain::settings::Settings::default().retention_years);
            (used, crate::db::applied_version(&copy)?, retention_years)
        };
        let manifest = Manifest {
            format: FORMAT,
            created_at,
            dealership_version: env!("CARGO_PKG_VERSION").to_string(),
            schema_version,
            files: Vec::new(),
        };
        let source = snapshot.dir().unwrap_or(&media_dir).to_path_buf();
        let written = write_archive(partial, db_copy, &source, manifest);
        drop(snapshot);
        let (manifest, archived) = written?;
        let (archived_hashes, before_hashes) = (hashes_of(&archived), hashes_of(&before));
        let mut lost = Vec::new();
        let mut missing = Vec::new();
        for hash in &used {
            if archived_hashes.contains(hash.as_str()) {
                continue;
            }
            if before_hashes.contains(hash.as_str()) {
                lost.push(hash.clone());
            } else {
                missing.push(hash.clone());
            }
        }
        if !lost.is_empty() {
            // The partial archive stays (locked, `claim`): the next attempt
            // writes it again.
            if attempt < ATTEMPTS {
                tracing::warn!(
                    "{} picture(s) were removed while the backup ran; starting again",
                    lost.len()
                );
                continue;
            }
            bail!(
                "pictures keep being removed while the backup runs ({}); try again later",
                lost.join(", ")
            );
        }
        std::fs::rename(partial, target)
            .with_context(|| format!("cannot write {}", target.display()))?;
        sync_dir(target);
        missing.sort();
        let bytes = std::fs::metadata(target).map(|m| m.len()).unwrap_or(0);
        return Ok(Written {
            path: target.to_path_buf(),
            pictures: manifest.files.len() - 1,
            bytes,
            missing,
            retention_years,
        });
    }
    unreachable!("the last attempt returns")
}

/// Start of the names of snapshot folders in the data directory.
const SNAPSHOT_PREFIX: &str = ".backup-";

/// The media folder as hard links in a folder of the data directory (the
/// same file system), removed when dropped. `dir` is None where links
/// cannot be made: then the media folder is read as it is.
struct Snapshot {
    dir: Option<PathBuf>,
    linked: BTreeSet<String>,
    /// Its [`SNAPSHOT_LOCK`], locked while this process lives.
    _lock: Option<File>,
}

/// A file in each snapshot folder, locked by the backup using it: a folder
/// whose lock is free was left by a killed backup.
const SNAPSHOT_LOCK: &str = ".lock";

impl Snapshot {
    fn new(data_dir: &Path) -> Snapshot {
        let dir = data_dir.join(format!(
            "{SNAPSHOT_PREFIX}{}-{}",
            super::timestamp(),
            std::process::id()
        ));
        let dir = match std::fs::create_dir(&dir) {
            Ok(()) => Some(dir),
            Err(err) => {
                tracing::warn!(
                    "cannot create {} ({err}); reading the media folder as it is",
                    dir.display()
                );
                None
            }
        };
        let lock = dir.as_ref().and_then(|dir| {
            let file = File::create(dir.join(SNAPSHOT_LOCK)).ok()?;
            file.try_lock().ok()?;
            Some(file)
        });
        Snapshot {
            dir,
            linked: BTreeSet::new(),
            _lock: lock,
        }
    }

    fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Links the media files not linked yet; gives every name listed.
    fn add(&mut self, media_dir: &Path) -> anyhow::Result<BTreeSet<String>> {
        let names = list_media(media_dir)?;
        let Some(dir) = self.dir.clone() else {
            return Ok(names);
        };
        let new: Vec<&String> = names.iter().filter(|n| !self.linked.contains(*n)).collect();
        for name in new {
            let link = dir.join(name);
            if let Some(parent) = link.parent() {
                std::fs::create_dir_all(parent)?;
            }
            match std::fs::hard_link(media_dir.join(name), &link) {
                Ok(()) => {
                    self.linked.insert(name.clone());
                }
                // Removed since the listing: it is not in the snapshot.
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => {
                    tracing::warn!(
                        "cannot link pictures into {} ({err}); reading the media folder as it is",
                        dir.display()
                    );
                    let _ = std::fs::remove_dir_all(&dir);
                    self.dir = None;
                    break;
                }
            }
        }
        Ok(names)
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Snapshots left by a backup that was killed: their lock is free (or,
/// made without one, they are a day old).
fn remove_stale_snapshots(data_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(data_dir) else {
        return;
    };
    let day = std::time::Duration::from_secs(24 * 3600);
    for entry in entries.filter_map(|e| e.ok()) {
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > day);
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(SNAPSHOT_PREFIX));
        let abandoned = ours
            && File::open(entry.path().join(SNAPSHOT_LOCK)).is_ok_and(|f| f.try_lock().is_ok());
        if ours && (stale || abandoned) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Writes the archive: the database copy, the pictures in `media_dir` (the
/// snapshot), then the manifest. Gives the manifest and the media names
/// archived.
fn write_archive(
    path: &Path,
    db_copy: &Path,
    media_dir: &Path,
    mut manifest: Manifest,
) -> anyhow::Result<(Manifest, BTreeSet<String>)> {
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let gz = GzEncoder::new(BufWriter::new(file), Compression::default());
    let mut tar = tar::Builder::new(gz);
    let mtime = u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0);

    let db = File::open(db_copy).context("cannot read the database copy")?;
    manifest
        .files
        .push(append(&mut tar, DB_ENTRY, db, mtime).context("cannot archive the database")?);

    let mut archived = BTreeSet::new();
    for name in list_media(media_dir)? {
        let file = match File::open(media_dir.join(&name)) {
            Ok(file) => file,
            // Removed since the listing: the check after the archive decides.
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            Err(err) => {
                return Err(err).with_context(|| format!("cannot read picture {name}"));
            }
        };
        let entry = format!("{MEDIA_ENTRY}/{name}");
        manifest.files.push(
            append(&mut tar, &entry, file, mtime)
                .with_context(|| format!("cannot archive picture {name}"))?,
        );
        archived.insert(name);
    }

    let json = serde_json::to_vec_pretty(&manifest)?;
    let mut header = file_header(json.len() as u64, mtime);
    tar.append_data(&mut header, MANIFEST_ENTRY, json.as_slice())?;
    let gz = tar.into_inner()?;
    let file = gz.finish()?.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok((manifest, archived))
}

/// Adds one file and gives its manifest line. The file must not change
/// while it is read (pictures never do; the database is a private copy).
fn append<W: Write>(
    tar: &mut tar::Builder<W>,
    entry: &str,
    file: File,
    mtime: u64,
) -> anyhow::Result<ManifestFile> {
    let size = file.metadata()?.len();
    let mut header = file_header(size, mtime);
    let mut reader = Hashing::new(file.take(size));
    tar.append_data(&mut header, entry, &mut reader)?;
    let (read, sha256) = reader.finish();
    if read != size {
        bail!("{entry} changed size while it was read");
    }
    Ok(ManifestFile {
        path: entry.to_string(),
        size,
        sha256,
    })
}

fn file_header(size: u64, mtime: u64) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Regular);
    header.set_size(size);
    header.set_mode(0o600);
    header.set_mtime(mtime);
    header
}

/// The files of the media folder, as `/`-separated paths below it; names
/// starting with a dot (pictures being written) are left out.
fn list_media(media_dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    if media_dir.exists() {
        walk(media_dir, "", &mut names)
            .with_context(|| format!("cannot read the media folder {}", media_dir.display()))?;
    }
    Ok(names)
}

fn walk(dir: &Path, prefix: &str, names: &mut BTreeSet<String>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&entry.path(), &format!("{prefix}{name}/"), names)?;
        } else if kind.is_file() {
            names.insert(format!("{prefix}{name}"));
        }
    }
    Ok(())
}

/// The picture hashes that start the names of media files (`<hash>-800.webp`).
fn hashes_of(names: &BTreeSet<String>) -> HashSet<&str> {
    names
        .iter()
        .map(|path| {
            let name = path.rsplit('/').next().unwrap_or(path);
            let hex = name
                .find(|c: char| !c.is_ascii_hexdigit())
                .unwrap_or(name.len());
            &name[..hex]
        })
        .collect()
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Makes a rename in `file`'s folder durable.
fn sync_dir(file: &Path) {
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
}

/// Deletes all but the `keep` newest archives `--dir` made in `dir`, and
/// any made before `older_than` (the retention period: a backup must not
/// keep what the site has forgotten); gives the ones deleted. The names
/// carry the time (UTC), so the newest sort last.
pub fn prune(
    dir: &Path,
    keep: usize,
    older_than: Option<chrono::DateTime<chrono::Utc>>,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut archives: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.starts_with(NAME_PREFIX) && name.ends_with(NAME_SUFFIX))
        .collect();
    archives.sort();
    let surplus = archives.len().saturating_sub(keep);
    let limit = older_than.map(|at| format!("{NAME_PREFIX}{}", at.format("%Y%m%d-%H%M%S")));
    let expired = |name: &String| limit.as_ref().is_some_and(|limit| name < limit);
    let mut removed = Vec::new();
    let doomed: Vec<String> = archives
        .iter()
        .enumerate()
        .filter(|(i, name)| *i < surplus || expired(name))
        .map(|(_, name)| name.clone())
        .collect();
    for name in doomed {
        let path = dir.join(name);
        std::fs::remove_file(&path)
            .with_context(|| format!("cannot remove the old backup {}", path.display()))?;
        removed.push(path);
    }
    Ok(removed)
}
