//! Running the site for real: setting up a server (`setup`), backups of the
//! data directory that restore, and the `check` of an installation
//! (`docs/operations.md`).

pub mod backup;
pub mod bucket;
pub mod check;
pub mod litestream_install;
pub mod lock;
pub mod replica;
pub mod replica_guard;
pub mod replica_restore;
pub mod replica_state;
pub mod restore;
pub mod setup;
pub mod setup_config;

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The database's name inside an archive (and in the data directory).
pub const DB_ENTRY: &str = "dealership.db";
/// Litestream's own folder beside the database (its position in the
/// database's history and the files it has not uploaded yet).
pub const LITESTREAM_STATE: &str = ".dealership.db-litestream";
/// The folder of pictures inside an archive (and in the data directory).
pub const MEDIA_ENTRY: &str = "media";
/// The list of files and their checksums, the archive's last entry.
pub const MANIFEST_ENTRY: &str = "manifest.json";
/// The archive format this binary writes and reads.
pub const FORMAT: u32 = 1;

/// What an archive holds, written as `manifest.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    /// When the database was copied (UTC, RFC 3339).
    pub created_at: String,
    /// The dealership version that wrote the archive.
    pub dealership_version: String,
    /// The database's schema version.
    pub schema_version: Option<i32>,
    pub files: Vec<ManifestFile>,
}

/// One file of an archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    /// Path inside the archive, `/`-separated.
    pub path: String,
    pub size: u64,
    /// SHA-256 of the content, hex.
    pub sha256: String,
}

/// Passes bytes through while counting them and hashing them.
struct Hashing<T> {
    inner: T,
    hasher: Sha256,
    size: u64,
}

impl<T> Hashing<T> {
    fn new(inner: T) -> Self {
        Hashing {
            inner,
            hasher: Sha256::new(),
            size: 0,
        }
    }

    fn finish(self) -> (u64, String) {
        (self.size, hex::encode(self.hasher.finalize()))
    }
}

impl<T: Read> Read for Hashing<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }
}

impl<T: Write> Write for Hashing<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A name for files made now: `20261123-175100`, UTC.
pub fn timestamp() -> String {
    chrono::Utc::now().format("%Y%m%d-%H%M%S").to_string()
}
