//! The SQLite database: a pool of connections that all carry the same
//! PRAGMAs, migrations, online backup, and the helper that runs database work
//! off the async threads.

mod backup;
mod migrate;

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;

use crate::error::{AppError, AppResult};

pub use backup::backup_to;
pub use migrate::migrate;

pub type Pool = r2d2::Pool<SqliteConnectionManager>;

/// Shared handle to the database.
#[derive(Clone)]
pub struct Db {
    pool: Pool,
}

impl Db {
    /// Opens (creating if needed) the database file and migrates it.
    pub fn open(path: &Path) -> anyhow::Result<Db> {
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
            conn.busy_timeout(Duration::from_secs(5))?;
            migrate(&mut conn)?;
        }
        // FULL: every commit syncs the WAL, so an acknowledged lead survives
        // a power cut, not only a killed process (docs/schema.md).
        let manager = SqliteConnectionManager::file(path).with_init(|c| {
            register_functions(c)?;
            c.execute_batch(
                "PRAGMA foreign_keys = ON;
                 PRAGMA busy_timeout = 5000;
                 PRAGMA synchronous = FULL;
                 PRAGMA temp_store = MEMORY;
                 PRAGMA cache_size = -16000;",
            )
        });
        let pool = r2d2::Pool::builder()
            .max_size(8)
            .connection_timeout(Duration::from_secs(10))
            .build(manager)
            .context("cannot open database pool")?;
        Ok(Db { pool })
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
