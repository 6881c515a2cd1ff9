//! The SQLite database: a pool of connections that all carry the same
//! PRAGMAs, migrations, online backup, and the helper that runs database work
//! off the async threads.

mod backup;
mod group_commit;
mod migrate;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;

use crate::error::{AppError, AppResult};

pub use backup::backup_to;
pub use migrate::{
    applied_version, known_version, migrate, migrated_by, refuse_newer, settle_free_text_dates,
};

pub type Pool = r2d2::Pool<SqliteConnectionManager>;

/// Who checkpoints the write-ahead log into the database file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checkpoints {
    /// The site alone: a passive checkpoint once the log holds
    /// [`AUTOCHECKPOINT_PAGES`] (SQLite's default), and a TRUNCATE after an
    /// erasure that waits for readers up to the busy timeout.
    Own,
    /// Litestream replicates the log (`src/ops/replica.rs`) and checkpoints
    /// it itself, between two copies, while it holds a read transaction
    /// the rest of the time. As its documentation asks, the site then
    /// leaves checkpoints to it: its own passive checkpoint waits until
    /// the log holds [`REPLICATED_AUTOCHECKPOINT_PAGES`] (a bound for when
    /// Litestream is down; a passive checkpoint never waits and never
    /// passes a reader, so it cannot take a frame Litestream has not
    /// copied), and the TRUNCATE after an erasure is tried without waiting:
    /// waiting for Litestream's read transaction would hold every write,
    /// leads included, for the whole busy timeout and fail anyway.
    LeftToReplication,
}

/// Shared handle to the database.
#[derive(Clone)]
pub struct Db {
    pool: Pool,
    group: Arc<group_commit::GroupCommit>,
    checkpoints: Checkpoints,
}

impl Db {
    /// Opens (creating if needed) the database file and migrates it; the
    /// site checkpoints the log itself.
    pub fn open(path: &Path) -> anyhow::Result<Db> {
        Db::open_with(path, Checkpoints::Own)
    }

    /// Opens the database of a site whose log `checkpoints` are made as
    /// said there (`serve` with `[replica]`: [`Checkpoints::LeftToReplication`]).
    pub fn open_with(path: &Path, checkpoints: Checkpoints) -> anyhow::Result<Db> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        {
            // WAL is a property of the file: set it once, before pooling.
            // Migrations run here too, on a connection of their own (they
            // switch foreign keys off while they run).
            let mut conn = Connection::open(path)
                .with_context(|| format!("cannot open database {}", path.display()))?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "FULL")?;
            conn.busy_timeout(BUSY_TIMEOUT)?;
            migrate(&mut conn)?;
        }
        private_files(path);
        // FULL: every commit syncs the WAL, so an acknowledged lead survives
        // a power cut, not only a killed process (docs/schema.md).
        // secure_delete: what is deleted or overwritten is zeroed in the
        // file, not left in free space (docs/personal-data.md, "Erased").
        let manager = SqliteConnectionManager::file(path).with_init(move |c| {
            register_functions(c)?;
            c.wal_hook(Some(match checkpoints {
                Checkpoints::Own => after_commit,
                Checkpoints::LeftToReplication => after_commit_replicated,
            }));
            c.execute_batch(
                "PRAGMA foreign_keys = ON;
                 PRAGMA synchronous = FULL;
                 PRAGMA temp_store = MEMORY;
                 PRAGMA secure_delete = ON;",
            )?;
            c.busy_timeout(BUSY_TIMEOUT)?;
            // Negative: KiB.
            c.pragma_update(None, "cache_size", -PAGE_CACHE_KIB)?;
            statement_settings(c)
        });
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(Duration::from_secs(10))
            .build(manager)
            .context("cannot open database pool")?;
        let group = group_commit::GroupCommit::new(pool.clone(), BUSY_TIMEOUT);
        Ok(Db {
            pool,
            group,
            checkpoints,
        })
    }

    /// Moves what the write-ahead log holds into the database file and
    /// empties the log, so an erased row's old versions are nowhere on disk
    /// (with `secure_delete`). Best effort: a reader still on an older
    /// snapshot keeps the log until the next checkpoint; gives whether the
    /// log was emptied. Under replication it does not wait for readers
    /// ([`Checkpoints::LeftToReplication`]): Litestream's read transaction
    /// usually keeps the log, which its own next checkpoint empties, and
    /// the erased rows' old versions stay in the replica's history until
    /// its retention drops them (docs/personal-data.md).
    pub async fn forget_old_versions(&self) -> AppResult<bool> {
        let checkpoints = self.checkpoints;
        self.call(move |c| {
            if checkpoints == Checkpoints::LeftToReplication {
                c.busy_timeout(Duration::ZERO)?;
            }
            let truncated = c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                r.get::<_, i64>(0)
            });
            if checkpoints == Checkpoints::LeftToReplication {
                c.busy_timeout(BUSY_TIMEOUT)?;
            }
            match truncated {
                Ok(busy) => Ok(busy == 0),
                // Without waiting, a writer or Litestream's own checkpoint
                // in the way is an answer, not a failure.
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::DatabaseBusy =>
                {
                    Ok(false)
                }
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    /// Who checkpoints the log.
    pub fn checkpoints(&self) -> Checkpoints {
        self.checkpoints
    }

    /// A pooled connection for synchronous callers (CLI, tests, start-up).
    pub fn conn(&self) -> AppResult<r2d2::PooledConnection<SqliteConnectionManager>> {
        Ok(self.pool.get()?)
    }

    /// Runs database work on the blocking thread pool.
    pub async fn call<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> AppResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get()?;
            work(&mut conn)
        })
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("database task failed: {e}")))?
    }

    /// Runs a write that must be on disk before it is answered, in one
    /// transaction with the writes that arrive at the same time (one WAL sync
    /// for all of them; `src/db/group_commit.rs`). The write runs in its own
    /// savepoint: its error is answered and rolls back only its own changes.
    pub async fn write_grouped<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        self.group.call(work).await
    }

    /// Why the latest grouped write failed (a full disk, a read-only file),
    /// while none has committed since.
    pub fn last_write_failure(&self) -> Option<String> {
        self.group.last_failure()
    }

    /// Writes one tiny row through the same writer as the leads: fails when
    /// the database cannot take writes (`/healthz`).
    pub async fn probe_write(&self, at: String) -> AppResult<()> {
        self.write_grouped(move |c| {
            c.prepare_cached(
                "INSERT INTO health_probe (id, written_at) VALUES (1, ?1)
                 ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at",
            )?
            .execute([at])?;
            Ok(())
        })
        .await
    }

    /// Runs a short read (a page of a public list, well under a
    /// millisecond) on the calling thread when a connection is free at once,
    /// and on the blocking pool like [`Db::call`] otherwise. Handing the
    /// work to a blocking thread and the answer back costs two thread
    /// wake-ups, more than the read itself: it took a third of the time of
    /// an uncached list. WAL readers never wait for writers, so the read
    /// does not block; when every connection is busy (writes), the read
    /// waits on the blocking pool instead of here.
    pub async fn read<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> AppResult<T> + Send + 'static,
    {
        match self.pool.try_get() {
            Some(mut conn) => work(&mut conn),
            None => self.call(work).await,
        }
    }
}

/// Commits made by this process's pooled connections (of any database),
/// counted once each is visible to readers. The answer cache reads the
/// content version again only when this moved (or another process may have
/// written: `docs/cache.md`).
static COMMITS: AtomicU64 = AtomicU64::new(0);

/// How many commits this process's pooled connections have made so far.
pub fn commits() -> u64 {
    COMMITS.load(Ordering::Acquire)
}

/// How long a statement waits for a lock another connection (or
/// Litestream, during its checkpoint) holds: the 5 seconds Litestream's
/// documentation asks for.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Pages in the write-ahead log past which a commit checkpoints it: what
/// SQLite's automatic checkpoint does, which a WAL hook replaces.
const AUTOCHECKPOINT_PAGES: std::ffi::c_int = 1000;

/// The same under replication ([`Checkpoints::LeftToReplication`]):
/// Litestream checkpoints at 1000 pages (and once a minute), so the site's
/// own comes only when Litestream has not run for a while (about 40 MB of
/// log with 4 KB pages).
const REPLICATED_AUTOCHECKPOINT_PAGES: std::ffi::c_int = 10 * AUTOCHECKPOINT_PAGES;

/// SQLite's WAL hook: runs after each commit, once it is visible.
fn after_commit(wal: &rusqlite::hooks::Wal, pages: std::ffi::c_int) -> rusqlite::Result<()> {
    committed(wal, pages, AUTOCHECKPOINT_PAGES)
}

/// The WAL hook under replication.
fn after_commit_replicated(
    wal: &rusqlite::hooks::Wal,
    pages: std::ffi::c_int,
) -> rusqlite::Result<()> {
    committed(wal, pages, REPLICATED_AUTOCHECKPOINT_PAGES)
}

fn committed(
    wal: &rusqlite::hooks::Wal,
    pages: std::ffi::c_int,
    checkpoint_from: std::ffi::c_int,
) -> rusqlite::Result<()> {
    COMMITS.fetch_add(1, Ordering::Release);
    if pages >= checkpoint_from {
        // As SQLite's own: a passive checkpoint, its failure (a reader in
        // the way) left to the next commit.
        let _ = wal.checkpoint();
    }
    Ok(())
}

/// The content version now: moved by every write to what the public site
/// shows (`docs/cache.md`).
pub fn content_version(conn: &rusqlite::Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT version FROM content_version WHERE id = 1")?
        .query_row([], |r| r.get(0))
}

/// Name of the SQL function that folds case in any script, as [`casefold`]
/// does (SQLite's own `lower` and `LIKE` fold ASCII only).
pub const CASEFOLD: &str = "casefold";

/// Lowercases any script and reads 'ё' as 'е', as people type it:
/// `casefold("Ёж ВАЗ") == "еж ваз"`. Searches compare folded texts.
pub fn casefold(text: &str) -> String {
    text.to_lowercase().replace('ё', "е")
}

/// SQL functions every pooled connection has (see [`CASEFOLD`]).
pub fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    use rusqlite::functions::FunctionFlags;
    use rusqlite::types::ValueRef;
    conn.create_scalar_function(
        CASEFOLD,
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            Ok(match ctx.get_raw(0) {
                ValueRef::Text(bytes) => Some(casefold(&String::from_utf8_lossy(bytes))),
                ValueRef::Integer(i) => Some(i.to_string()),
                ValueRef::Real(r) => Some(r.to_string()),
                ValueRef::Null | ValueRef::Blob(_) => None,
            })
        },
    )
}

/// Connections of the pool.
const POOL_SIZE: u32 = 8;

/// Page cache of each connection, in KiB. Each connection keeps its own, so
/// the pool holds up to `POOL_SIZE` times this: a query that reads the whole
/// table (a filter no index serves, the catalogue read into memory, the
/// self-checks) fills the cache of the connection it ran on and keeps it.
/// With 16 MB each, eight connections grew the server by over 100 MB; with
/// 2 MB each the start alone left some 7 MB in them (`docs/operations.md`,
/// "Memory"). The pages a page of a list reads (an index, its rows) fit well
/// within 1 MB; the others come from the operating system's file cache.
const PAGE_CACHE_KIB: i64 = 1024;

/// Prepared statements kept per connection (`prepare_cached`): every shape
/// of the public filters the site asks for, with room to spare.
const STATEMENT_CACHE_CAPACITY: usize = 64;

/// Lets a prepared statement be reused as it is: with the query planner
/// stability guarantee, SQLite plans from the SQL text alone, instead of
/// preparing the statement again on every run whose bound values (a list's
/// `LIMIT ?`) the planner looked at, which cost a quarter of a filtered list's
/// time.
fn statement_settings(c: &mut Connection) -> rusqlite::Result<()> {
    c.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    c.set_prepared_statement_cache_capacity(STATEMENT_CACHE_CAPACITY);
    Ok(())
}

/// Runs CPU-heavy work (password hashing, image resizing) off the async threads.
pub async fn blocking<T, F>(work: F) -> AppResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> AppResult<T> + Send + 'static,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("worker task failed: {e}")))?
}

/// The database, its log and its shared-memory file made private (0600):
/// files of an older version, or made by another program with a looser
/// umask, are narrowed when the database opens (docs/operations.md, "Files
/// are private"). A file another user owns is left as it is and said.
fn private_files(database: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let name = database.as_os_str().to_owned();
    for suffix in ["", "-wal", "-shm"] {
        let mut file = name.clone();
        file.push(suffix);
        let file = Path::new(&file);
        let Ok(meta) = std::fs::metadata(file) else {
            continue;
        };
        if meta.permissions().mode() & 0o077 != 0
            && let Err(e) = std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))
        {
            tracing::warn!(file = %file.display(), "cannot make the file private (0600): {e}");
        }
    }
}
