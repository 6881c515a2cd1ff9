//! `dealership restore --from-replica [--at TIME] [--force]`: a data
//! directory filled from the replica (docs/operations.md, "Restore from the
//! replica"). With the `[replica]` settings of the lost site it
//!
//! 1. refuses a data directory that holds data (a database with a car or a
//!    lead, or pictures) unless `--force` (then that data is moved into
//!    `before-restore-<time>/`, as `restore ARCHIVE` does), and a directory
//!    a server uses;
//! 2. has Litestream restore the database (the latest, or as it was at
//!    `--at`) into a folder beside the data, `.restore-<time>/`;
//! 3. checks it (SQLite's integrity check, a schema version this program
//!    knows);
//! 4. fetches the pictures the restored database records from the bucket:
//!    an original is fetched and its variants are made again from it,
//!    a picture without one is fetched file by file;
//! 5. puts the database and the pictures in place the way `restore ARCHIVE`
//!    does (a kill meanwhile is finished by the next command), with
//!    Litestream's state of the old database moved aside.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use chrono::{DateTime, FixedOffset, NaiveDateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OpenFlags};

use super::bucket::Bucket;
use super::restore::{
    PREVIOUS_PREFIX, STAGING_PREFIX, free_stamp, give_to_owner, prepare, put_in_place,
    remove_staging,
};
use super::{DB_ENTRY, MEDIA_ENTRY};
use crate::config::Config;
use crate::media::names::ORIGINALS_FOLDER;

/// Pictures fetched at once.
const FETCHES_AT_ONCE: usize = 8;

/// What a restore from the replica did.
#[derive(Debug)]
pub struct RestoredFromReplica {
    /// The moment restored (None: the latest).
    pub at: Option<DateTime<Utc>>,
    /// Rows of the restored `leads` table (a figure to compare).
    pub leads: i64,
    /// Pictures the database records, and of them those made again from
    /// their original.
    pub pictures: usize,
    pub rebuilt: usize,
    /// Pictures the database uses that the bucket lacks (their pages show
    /// no image until they are uploaded again).
    pub missing: Vec<String>,
    /// Where the data that was there went (None: there was none).
    pub previous: Option<PathBuf>,
    /// Erasures made after the restored moment, applied to it again.
    pub reapplied: crate::domain::erasure_reapply::Reapplied,
    pub took: Duration,
}

/// Reads `--at`: `YYYY-MM-DD HH:MM[:SS]` in Moscow time (UTC+3, the site's
/// time; Russia keeps no summer time), or RFC 3339 with its own offset.
pub fn parse_moment(text: &str) -> anyhow::Result<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(moment) = DateTime::parse_from_rfc3339(text) {
        return Ok(moment.with_timezone(&Utc));
    }
    let moscow = FixedOffset::east_opt(3 * 3600).context("the Moscow offset")?;
    for format in ["%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"] {
        if let Ok(local) = NaiveDateTime::parse_from_str(text, format) {
            return local
                .and_local_timezone(moscow)
                .single()
                .map(|moment| moment.with_timezone(&Utc))
                .context("not a moment in Moscow time");
        }
    }
    bail!(
        "--at {text:?}: give the moment as \"YYYY-MM-DD HH:MM\" in Moscow time \
         (e.g. \"2026-11-24 15:00\") or in RFC 3339 (e.g. 2026-11-24T12:00:00Z)"
    )
}

/// Whether the data directory holds data: pictures, or a database with a
/// car or a lead. A new installation's database (the package starts the
/// site at once) holds nothing, and is restored over without `--force`
/// (it is still moved aside, into `before-restore-<time>/`).
fn holds_data(data_dir: &Path) -> bool {
    !super::replica_guard::holds_nothing(&data_dir.join(DB_ENTRY))
        || holds_files(&data_dir.join(MEDIA_ENTRY))
}

/// Whether `dir` or a folder in it holds a file.
fn holds_files(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries.filter_map(Result::ok).any(|entry| {
                let path = entry.path();
                !path.is_dir() || holds_files(&path)
            })
        })
        .unwrap_or(false)
}

/// Restores the replica `[replica]` names into the data directory of
/// `config`: the latest state, or the one at `at`.
pub fn restore_from_replica(
    config: &Config,
    at: Option<DateTime<Utc>>,
    force: bool,
) -> anyhow::Result<RestoredFromReplica> {
    let started = Instant::now();
    let replica = &config.replica;
    if !replica.is_enabled() {
        bail!(
            "--from-replica needs the [replica] settings of the site to restore (bucket, \
             endpoint, path, region, access_key_id, secret_access_key_file): set them in the \
             configuration or as DEALERSHIP_REPLICA_*"
        );
    }
    let secret = super::bucket::read_secret(&replica.secret_access_key_file)?;
    let litestream = super::replica::find_litestream(&replica.litestream_bin)?;
    let bucket = Bucket::open(replica, &secret)?;
    let data_dir = std::path::absolute(&config.data_dir).with_context(|| {
        format!(
            "cannot resolve the data directory {}",
            config.data_dir.display()
        )
    })?;
    std::fs::create_dir_all(&data_dir)
        .with_context(|| format!("cannot create the data directory {}", data_dir.display()))?;
    let _lock = super::lock::lock_data_dir(&data_dir).map_err(|err| {
        anyhow::anyhow!(
            "refusing to restore while a server uses the data directory: {err:#}. \
             Stop it (systemctl stop dealership), restore, then start it again"
        )
    })?;
    give_to_owner(&data_dir, &data_dir.join(super::lock::LOCK_FILE))?;
    super::restore::finish_interrupted_locked(&data_dir)?;
    if holds_data(&data_dir) && !force {
        bail!(
            "the data directory {} holds data (a database with cars or leads, or pictures): \
             restore from the replica into an empty one, or add --force to move what is there \
             into {PREVIOUS_PREFIX}<time>/ first",
            data_dir.display()
        );
    }
    let stamp = free_stamp(&data_dir);
    let staging = data_dir.join(format!("{STAGING_PREFIX}{stamp}"));
    std::fs::create_dir(&staging)
        .with_context(|| format!("cannot create {}", staging.display()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start a runtime for the restore")?;
    let filled = runtime.block_on(fill(
        config,
        &litestream,
        &secret,
        Arc::new(bucket),
        &data_dir,
        &staging,
        at,
    ));
    let filled = filled.and_then(|filled| {
        let reapplied = super::restore::reapply_erasures(&data_dir, &staging, None)?;
        prepare(&data_dir, &staging)?;
        Ok((filled, reapplied))
    });
    let ((leads, pictures, rebuilt, missing), reapplied) = match filled {
        Ok(filled) => filled,
        Err(err) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(err);
        }
    };
    let previous = data_dir.join(format!("{PREVIOUS_PREFIX}{stamp}"));
    put_in_place(&data_dir, &staging, &previous).with_context(|| {
        format!(
            "the restore stopped while it put the replica in place; run `dealership restore` \
             again or start the server to finish it ({} holds what is left to move)",
            staging.display()
        )
    })?;
    remove_staging(&staging)?;
    Ok(RestoredFromReplica {
        at,
        leads,
        pictures,
        rebuilt,
        missing,
        previous: previous.exists().then_some(previous),
        reapplied,
        took: started.elapsed(),
    })
}

/// Fills `staging` with the checked database and its pictures. Gives the
/// leads, the pictures, those rebuilt, and the used ones missing.
async fn fill(
    config: &Config,
    litestream: &Path,
    secret: &str,
    bucket: Arc<Bucket>,
    data_dir: &Path,
    staging: &Path,
    at: Option<DateTime<Utc>>,
) -> anyhow::Result<(i64, usize, usize, Vec<String>)> {
    let database = staging.join(DB_ENTRY);
    restore_database(config, litestream, secret, data_dir, staging, &database, at).await?;
    let (recorded, used, leads) = {
        let conn = Connection::open_with_flags(&database, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .context("the restored database cannot be opened")?;
        let problems: Vec<String> = conn
            .prepare("PRAGMA integrity_check")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .context("the restored database cannot be checked")?;
        if problems != ["ok"] {
            bail!("the restored database is damaged: {}", problems.join("; "));
        }
        crate::db::refuse_newer(&conn)?;
        let recorded: Vec<String> = conn
            .prepare("SELECT hash FROM media")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .context("cannot read the restored database's pictures")?;
        let used = crate::media::cleanup::used_hashes(&conn)
            .map_err(|e| anyhow::anyhow!("cannot read the pictures the database uses: {e}"))?;
        let leads: i64 = conn
            .query_row("SELECT count(*) FROM leads", [], |r| r.get(0))
            .context("cannot count the restored leads")?;
        (recorded, used, leads)
    };
    let media_dir = staging.join(MEDIA_ENTRY);
    std::fs::create_dir_all(&media_dir)
        .with_context(|| format!("cannot create {}", media_dir.display()))?;
    let in_bucket: BTreeSet<String> = bucket.media_files().await?.into_iter().collect();
    let mut fetches = tokio::task::JoinSet::new();
    let slots = Arc::new(tokio::sync::Semaphore::new(FETCHES_AT_ONCE));
    for hash in &recorded {
        let original = format!("{ORIGINALS_FOLDER}/{hash}");
        let files: Vec<String> = if in_bucket.contains(&original) {
            vec![original]
        } else {
            in_bucket
                .iter()
                .filter(|name| name.starts_with(hash.as_str()))
                .cloned()
                .collect()
        };
        if files.is_empty() {
            continue;
        }
        let (bucket, media_dir, hash, slots) = (
            bucket.clone(),
            media_dir.clone(),
            hash.clone(),
            slots.clone(),
        );
        fetches.spawn(async move {
            let _slot = slots.acquire_owned().await?;
            fetch_picture(&bucket, &media_dir, &hash, &files).await
        });
    }
    let mut rebuilt = 0;
    while let Some(fetched) = fetches.join_next().await {
        if fetched.context("a picture's fetch failed")?? {
            rebuilt += 1;
        }
    }
    let present: HashSet<String> = std::fs::read_dir(&media_dir)?
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    let mut missing: Vec<String> = used
        .into_iter()
        .filter(|hash| !present.iter().any(|name| name.starts_with(hash.as_str())))
        .collect();
    missing.sort();
    Ok((leads, recorded.len(), rebuilt, missing))
}

/// Fetches one picture's files into `media_dir`; an original has its
/// variants made again. Gives whether it was rebuilt.
async fn fetch_picture(
    bucket: &Bucket,
    media_dir: &Path,
    hash: &str,
    files: &[String],
) -> anyhow::Result<bool> {
    if let [only] = files
        && only.starts_with(ORIGINALS_FOLDER)
    {
        let bytes = bucket.get_media(only).await?;
        let (media_dir, expected) = (media_dir.to_path_buf(), hash.to_string());
        let stored =
            tokio::task::spawn_blocking(move || crate::media::process_image(&media_dir, &bytes))
                .await
                .context("rebuilding a picture failed")?
                .map_err(|e| anyhow::anyhow!("picture {expected}: {e}"))?;
        if stored.hash != hash {
            bail!(
                "picture {hash}: the bucket's original is another picture ({})",
                stored.hash
            );
        }
        return Ok(true);
    }
    for name in files {
        let bytes = bucket.get_media(name).await?;
        let path = media_dir.join(name);
        tokio::fs::write(&path, bytes)
            .await
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(false)
}

/// `litestream restore` of the replica into `database`, with the
/// credentials in its environment and nothing else there.
async fn restore_database(
    config: &Config,
    litestream: &Path,
    secret: &str,
    data_dir: &Path,
    staging: &Path,
    database: &Path,
    at: Option<DateTime<Utc>>,
) -> anyhow::Result<()> {
    let replica = &config.replica;
    // The database as the site names it: the entry Litestream's
    // configuration gives the replica of.
    let source = data_dir.join(DB_ENTRY);
    let restore_config = staging.join("litestream-restore.yml");
    std::fs::write(
        &restore_config,
        super::replica::litestream_config(&source, None, replica),
    )
    .with_context(|| format!("cannot write {}", restore_config.display()))?;
    let mut command = tokio::process::Command::new(litestream);
    command
        .arg("restore")
        .arg("-config")
        .arg(&restore_config)
        .arg("-no-expand-env")
        .arg("-o")
        .arg(database);
    if let Some(at) = at {
        command
            .arg("-timestamp")
            .arg(at.to_rfc3339_opts(SecondsFormat::Secs, true));
    }
    let out = command
        .arg(&source)
        .env_clear()
        .env(
            "PATH",
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
        )
        .env("LITESTREAM_ACCESS_KEY_ID", replica.access_key_id.trim())
        .env("LITESTREAM_SECRET_ACCESS_KEY", secret)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .with_context(|| format!("cannot run {}", litestream.display()))?;
    let _ = std::fs::remove_file(&restore_config);
    if out.status.success() && database.is_file() {
        // It holds personal data (leads): the service user's alone.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(database, std::fs::Permissions::from_mode(0o600))
            .with_context(|| format!("cannot make {} private", database.display()))?;
    }
    if !out.status.success() || !database.is_file() {
        let said = String::from_utf8_lossy(&out.stderr);
        bail!(
            "Litestream could not restore the database from {} {}/{}{}: {}",
            match replica.endpoint.trim() {
                "" => "s3",
                endpoint => endpoint,
            },
            replica.bucket.trim(),
            replica.bucket_path(),
            match at {
                Some(at) => format!(" as it was at {}", at.to_rfc3339()),
                None => String::new(),
            },
            said.trim()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_are_read_in_moscow_time_or_rfc_3339() {
        let utc = |text: &str| parse_moment(text).map(|m| m.to_rfc3339());
        assert_eq!(
            utc("2026-11-24 15:00").ok().as_deref(),
            Some("2026-11-24T12:00:00+00:00")
        );
        assert_eq!(
            utc("2026-11-24 15:00:30").ok().as_deref(),
            Some("2026-11-24T12:00:30+00:00")
        );
        assert_eq!(
            utc("2026-11-24T15:00:00+03:00").ok().as_deref(),
            Some("2026-11-24T12:00:00+00:00")
        );
        assert_eq!(
            utc("2026-11-24T12:00:00Z").ok().as_deref(),
            Some("2026-11-24T12:00:00+00:00")
        );
        let err = parse_moment("24.11.2026 15:00").unwrap_err().to_string();
        assert!(err.contains("Moscow time"), "{err}");
    }
}
