//! `dealership restore ARCHIVE`: checks an archive of `dealership backup`
//! completely (every checksum of its manifest, SQLite's integrity check,
//! the schema version), then puts it in place of the data directory's
//! database and media folder. The data it replaces is moved, not deleted,
//! into `before-restore-<time>/` in the data directory. A running server
//! holds the data directory's lock file, and restore refuses to run then.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, bail};
use flate2::read::GzDecoder;
use rusqlite::{Connection, OpenFlags};

use super::{DB_ENTRY, FORMAT, Hashing, MANIFEST_ENTRY, MEDIA_ENTRY, Manifest, ManifestFile};
use crate::config::Config;

/// The largest manifest read (a million pictures fit well within it).
const MANIFEST_MAX_BYTES: u64 = 256 * 1024 * 1024;
/// The files of a data directory that a restore replaces.
const REPLACED: [&str; 4] = [
    DB_ENTRY,
    "dealership.db-wal",
    "dealership.db-shm",
    MEDIA_ENTRY,
];

/// What a restore did.
#[derive(Debug)]
pub struct Restored {
    pub manifest: Manifest,
    /// Where the data that was there before went (None: there was none).
    pub previous: Option<PathBuf>,
}

/// Restores `archive` into the data directory of `config`.
pub fn restore(config: &Config, archive: &Path) -> anyhow::Result<Restored> {
    let data_dir = &config.data_dir;
    let reader = File::open(archive)
        .with_context(|| format!("cannot open the archive {}", archive.display()))?;
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create the data directory {}", data_dir.display()))?;
    // Held to the end: no server can start on a half-restored directory.
    let _lock = crate::server::lock_data_dir(data_dir).map_err(|err| {
        anyhow::anyhow!(
            "refusing to restore while a server uses the data directory: {err:#}. \
             Stop it (systemctl stop dealership), restore, then start it again"
        )
    })?;
    // Made by root, the lock file would keep the service user's server out.
    give_to_owner(data_dir, &data_dir.join(crate::server::LOCK_FILE))?;
    let stamp = super::timestamp();
    let staging = data_dir.join(format!(".restore-{stamp}"));
    std::fs::create_dir(&staging)
        .with_context(|| format!("cannot create {}", staging.display()))?;
    let result = verify_into(reader, &staging)
        .with_context(|| format!("{} cannot be restored", archive.display()))
        .and_then(|manifest| {
            let previous = swap_in(data_dir, &staging, &stamp)?;
            Ok(Restored { manifest, previous })
        });
    let _ = std::fs::remove_dir_all(&staging);
    result
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

/// Moves the data directory's database and media aside, into
/// `before-restore-<stamp>/`, and the checked copies in.
fn swap_in(data_dir: &Path, staging: &Path, stamp: &str) -> anyhow::Result<Option<PathBuf>> {
    let previous = data_dir.join(format!("before-restore-{stamp}"));
    let mut moved = false;
    for name in REPLACED {
        let path = data_dir.join(name);
        if path.symlink_metadata().is_err() {
            continue;
        }
        if !moved {
            std::fs::create_dir(&previous)
                .with_context(|| format!("cannot create {}", previous.display()))?;
            moved = true;
        }
        std::fs::rename(&path, previous.join(name))
            .with_context(|| format!("cannot move {} aside", path.display()))?;
    }
    let media = staging.join(MEDIA_ENTRY);
    if !media.exists() {
        std::fs::create_dir(&media)?;
    }
    for name in [DB_ENTRY, MEDIA_ENTRY] {
        let to = data_dir.join(name);
        std::fs::rename(staging.join(name), &to)
            .with_context(|| format!("cannot put {} in place", to.display()))?;
        give_to_owner(data_dir, &to)?;
    }
    if moved {
        give_to_owner(data_dir, &previous)?;
    }
    if let Ok(dir) = File::open(data_dir) {
        let _ = dir.sync_all();
    }
    Ok(moved.then_some(previous))
}

/// Files restored by root belong to the data directory's owner (the service
/// user), or the server could not write them.
#[cfg(unix)]
fn give_to_owner(data_dir: &Path, path: &Path) -> anyhow::Result<()> {
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
fn give_to_owner(_data_dir: &Path, _path: &Path) -> anyhow::Result<()> {
    Ok(())
}
