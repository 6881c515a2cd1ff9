//! The replica's bucket as the site itself reads and writes it (through the
//! `object_store` crate): the pictures it copies there under
//! `<path>/media/`, and Litestream's files under `<path>/NNNN/` that tell
//! how far replication got (docs/operations.md, "Replication (Litestream)").
//!
//! Layout of the folder `[replica] path` in the bucket:
//!
//! - `0000/ … 0009/`: Litestream's LTX files, one folder per compaction
//!   level, each named `<first TXID>-<last TXID>.ltx` (16 hex digits each);
//!   level 9 holds its snapshots;
//! - `media/originals/<hash>`: a picture as it was uploaded or imported
//!   (its variants are rebuilt from it at a restore);
//! - `media/<file>`: the stored files of a picture that has no original
//!   (drawn demo pictures, a favicon, pictures stored before originals were
//!   kept), as they are in the media folder.
//!
//! The site never deletes from the bucket: a point-in-time restore may
//! name a picture removed since, and pictures are named by their content,
//! so one kept too long costs only its bytes.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, Utc};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as Key;
use object_store::{BackoffConfig, ClientOptions, ObjectStore, PutPayload, RetryConfig};

use crate::config::ReplicaConfig;
use crate::media::names::{ORIGINALS_FOLDER, original_path};

/// The folder of pictures inside the replica's folder.
pub const MEDIA_FOLDER: &str = "media";
/// Litestream's snapshot level.
const SNAPSHOT_LEVEL: u32 = 9;
/// How long one request may take.
const REQUEST_WAIT: Duration = Duration::from_secs(30);
/// How long a connection may take.
const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// The replica's bucket and folder, with the key that may use it.
#[derive(Debug, Clone)]
pub struct Bucket {
    store: Arc<AmazonS3>,
    /// The replica's folder in the bucket (`[replica] path`).
    folder: String,
    /// `endpoint bucket/folder`, for messages and for telling whether the
    /// pictures went to this bucket before.
    target: String,
}

/// One of Litestream's files in the bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LtxFile {
    pub level: u32,
    pub first_txid: u64,
    pub last_txid: u64,
    pub uploaded_at: DateTime<Utc>,
}

/// How far replication got, as the bucket shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Replicated {
    /// The last transaction in the bucket (Litestream's TXID) and when the
    /// file holding it was uploaded; None: nothing replicated yet.
    pub last: Option<(u64, DateTime<Utc>)>,
    /// When the newest snapshot was uploaded, and the TXID it stops at.
    pub snapshot: Option<(u64, DateTime<Utc>)>,
}

impl Bucket {
    /// The bucket `replica` names, used with `secret_access_key`. Plain
    /// `http://` endpoints are allowed (a MinIO on the machine, the tests).
    pub fn open(replica: &ReplicaConfig, secret_access_key: &str) -> anyhow::Result<Bucket> {
        let endpoint = replica.endpoint.trim();
        let region = match replica.region.trim() {
            "" => "us-east-1",
            region => region,
        };
        let options = ClientOptions::new()
            .with_timeout(REQUEST_WAIT)
            .with_connect_timeout(CONNECT_WAIT)
            .with_allow_http(endpoint.starts_with("http://"));
        // A failing bucket is tried again by the callers (the upload queue,
        // the status job); each call gives up soon.
        let retry = RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: 2,
            retry_timeout: Duration::from_secs(20),
        };
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(replica.bucket.trim())
            .with_region(region)
            .with_access_key_id(replica.access_key_id.trim())
            .with_secret_access_key(secret_access_key)
            .with_client_options(options)
            .with_retry(retry);
        if !endpoint.is_empty() {
            // Path-style, as Litestream is told (`force-path-style`).
            builder = builder
                .with_endpoint(endpoint.trim_end_matches('/'))
                .with_virtual_hosted_style_request(false);
        }
        let store = builder
            .build()
            .context("the [replica] settings do not make an S3 client")?;
        let folder = replica.bucket_path().to_string();
        let target = format!(
            "{} {}/{folder}",
            match endpoint {
                "" => "s3",
                endpoint => endpoint,
            },
            replica.bucket.trim()
        );
        Ok(Bucket {
            store: Arc::new(store),
            folder,
            target,
        })
    }

    /// The bucket by `[replica]`, its secret read from its file.
    pub fn from_config(replica: &ReplicaConfig) -> anyhow::Result<Bucket> {
        let secret = read_secret(&replica.secret_access_key_file)?;
        Bucket::open(replica, &secret)
    }

    /// `endpoint bucket/folder`.
    pub fn target(&self) -> &str {
        &self.target
    }

    fn key(&self, relative: &str) -> Key {
        Key::from(format!("{}/{relative}", self.folder))
    }

    /// Copies a picture's files to the bucket: its original when the media
    /// folder keeps one, else every file of the picture (`<hash>*`). Gives
    /// how many files went (0: the media folder has none of it).
    pub async fn put_picture(&self, media_dir: &Path, hash: &str) -> anyhow::Result<usize> {
        let files = picture_files(media_dir, hash)?;
        for (relative, path) in &files {
            let bytes = tokio::fs::read(path)
                .await
                .with_context(|| format!("cannot read {}", path.display()))?;
            self.store
                .put(
                    &self.key(&format!("{MEDIA_FOLDER}/{relative}")),
                    PutPayload::from(bytes),
                )
                .await
                .with_context(|| format!("cannot copy {relative} to {}", self.target))?;
        }
        Ok(files.len())
    }

    /// The pictures' files in the bucket, as paths below `media/`
    /// (`originals/<hash>`, `<hash>-800.webp`, ...).
    pub async fn media_files(&self) -> anyhow::Result<Vec<String>> {
        let mut names = Vec::new();
        for folder in [
            MEDIA_FOLDER.to_string(),
            format!("{MEDIA_FOLDER}/{ORIGINALS_FOLDER}"),
        ] {
            let listed = self
                .store
                .list_with_delimiter(Some(&self.key(&folder)))
                .await
                .with_context(|| format!("cannot list the pictures in {}", self.target))?;
            let below = format!("{}/{MEDIA_FOLDER}/", self.folder);
            names.extend(listed.objects.into_iter().filter_map(|object| {
                object
                    .location
                    .as_ref()
                    .strip_prefix(&below)
                    .map(str::to_string)
            }));
        }
        Ok(names)
    }

    /// The bytes of `media/<relative>`.
    pub async fn get_media(&self, relative: &str) -> anyhow::Result<Vec<u8>> {
        let key = self.key(&format!("{MEDIA_FOLDER}/{relative}"));
        let got = self
            .store
            .get(&key)
            .await
            .with_context(|| format!("cannot fetch {key} from {}", self.target))?;
        let bytes = got
            .bytes()
            .await
            .with_context(|| format!("cannot fetch {key} from {}", self.target))?;
        Ok(bytes.to_vec())
    }

    /// Litestream's files in the bucket, every level.
    pub async fn ltx_files(&self) -> anyhow::Result<Vec<LtxFile>> {
        let top = self
            .store
            .list_with_delimiter(Some(&self.key("")))
            .await
            .with_context(|| format!("cannot list {}", self.target))?;
        let mut files = Vec::new();
        for folder in top.common_prefixes {
            let Some(level) = folder
                .filename()
                .filter(|name| name.len() == 4)
                .and_then(|name| name.parse::<u32>().ok())
            else {
                continue;
            };
            let listed = self
                .store
                .list_with_delimiter(Some(&folder))
                .await
                .with_context(|| format!("cannot list {folder} in {}", self.target))?;
            files.extend(listed.objects.into_iter().filter_map(|object| {
                let (first_txid, last_txid) = ltx_range(object.location.filename()?)?;
                Some(LtxFile {
                    level,
                    first_txid,
                    last_txid,
                    uploaded_at: object.last_modified,
                })
            }));
        }
        Ok(files)
    }

    /// How far replication got.
    pub async fn replicated(&self) -> anyhow::Result<Replicated> {
        Ok(summarize(&self.ltx_files().await?))
    }
}

/// The newest transaction and the newest snapshot among `files`.
pub fn summarize(files: &[LtxFile]) -> Replicated {
    let last = files
        .iter()
        .max_by_key(|f| (f.last_txid, std::cmp::Reverse(f.level)))
        .map(|f| (f.last_txid, f.uploaded_at));
    let snapshot = files
        .iter()
        .filter(|f| f.level == SNAPSHOT_LEVEL)
        .max_by_key(|f| f.last_txid)
        .map(|f| (f.last_txid, f.uploaded_at));
    Replicated { last, snapshot }
}

/// `0000000000000001-000000000000000a.ltx` → (1, 10).
pub fn ltx_range(name: &str) -> Option<(u64, u64)> {
    let (first, last) = name.strip_suffix(".ltx")?.split_once('-')?;
    if first.len() != 16 || last.len() != 16 {
        return None;
    }
    Some((
        u64::from_str_radix(first, 16).ok()?,
        u64::from_str_radix(last, 16).ok()?,
    ))
}

/// The files of picture `hash` to copy, as (path below the media folder,
/// path on disk): its original when kept, else every `<hash>*` file.
pub fn picture_files(media_dir: &Path, hash: &str) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let original = original_path(media_dir, hash);
    if original.is_file() {
        return Ok(vec![(format!("{ORIGINALS_FOLDER}/{hash}"), original)]);
    }
    let mut files = Vec::new();
    let entries = match std::fs::read_dir(media_dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(err) => {
            return Err(err).with_context(|| format!("cannot read {}", media_dir.display()));
        }
    };
    for entry in entries {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.starts_with(hash) && entry.file_type()?.is_file() {
            files.push((name, entry.path()));
        }
    }
    files.sort();
    Ok(files)
}

/// The secret access key from its file, which must belong to the user
/// running the site and be readable by nobody else.
pub fn read_secret(path: &Path) -> anyhow::Result<String> {
    crate::secret_file::read(
        path,
        "replica.secret_access_key_file",
        "the storage's secret key",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ltx_names_are_read() {
        assert_eq!(
            ltx_range("0000000000000001-000000000000000a.ltx"),
            Some((1, 10))
        );
        assert_eq!(ltx_range("1-2.ltx"), None);
        assert_eq!(ltx_range("0000000000000001-000000000000000a.tmp"), None);
    }

    #[test]
    fn the_newest_transaction_and_snapshot_are_found() {
        let at = |s: i64| DateTime::from_timestamp(s, 0).unwrap_or_default();
        let file = |level, first_txid, last_txid, s| LtxFile {
            level,
            first_txid,
            last_txid,
            uploaded_at: at(s),
        };
        let files = [
            file(0, 1, 1, 10),
            file(0, 2, 5, 50),
            file(1, 1, 5, 60),
            file(9, 1, 1, 11),
        ];
        let replicated = summarize(&files);
        assert_eq!(replicated.last, Some((5, at(50))));
        assert_eq!(replicated.snapshot, Some((1, at(11))));
        assert_eq!(summarize(&[]), Replicated::default());
    }
}
