//! The data directory's lock: one server at a time on a data directory, and a
//! restore that refuses to replace what a running server serves.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, bail};

/// The lock file a server holds in its data directory.
pub const LOCK_FILE: &str = "dealership.lock";

/// Takes the data directory for this server: a second server on the same
/// directory would serve stale pages (each keeps its own answer cache), so it
/// is refused. The lock lasts as long as the returned file is open, and the
/// system drops it when the process ends, however it ends. Commands such as
/// `user` and `backup` do not take it.
pub fn lock_data_dir(data_dir: &Path) -> anyhow::Result<Option<File>> {
    let path = data_dir.join(LOCK_FILE);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {
            // The holder's process id, for the message a second server shows.
            file.set_len(0)
                .and_then(|()| writeln!(file, "{}", std::process::id()))
                .with_context(|| format!("cannot write the lock file {}", path.display()))?;
            Ok(Some(file))
        }
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = match holder.trim() {
                "" => String::new(),
                pid => format!(" (process {pid})"),
            };
            bail!(
                "another dealership server{holder} is serving the data directory {}; \
                 stop it first (its lock: {})",
                data_dir.display(),
                path.display()
            )
        }
        Err(TryLockError::Error(err)) => {
            // A file system without locks: serve, but say so.
            tracing::warn!(
                "cannot lock {} ({err}); make sure no other server uses this data directory",
                path.display()
            );
            Ok(None)
        }
    }
}
