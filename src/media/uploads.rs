//! The queue of pictures waiting to be copied to the replica's bucket
//! (`media_uploads`, migrations/V28; docs/operations.md, "Replication
//! (Litestream)", "Pictures").
//!
//! - Every picture is queued when it is recorded, in the same transaction
//!   ([`super::record`]), with or without a replica: the queue is a row a
//!   picture, and it survives restarts.
//! - Under `[replica]`, `serve` runs [`drain`] as a supervised worker. It
//!   first queues every recorded picture again when the bucket is not the
//!   one they were copied to (a replica set up later, another bucket: the
//!   one-off backfill), then copies what is due, a picture at a time, and
//!   deletes its row once its files are in the bucket. A failed copy waits
//!   [`FIRST_RETRY`], doubled per failure, at most [`LONGEST_RETRY`]; the
//!   site goes on meanwhile.
//! - A picture the cleanup removes leaves the queue with its row.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use tokio_util::sync::CancellationToken;

use crate::db::Db;
use crate::error::AppResult;
use crate::ops::bucket::Bucket;

/// The pause after a picture's first failed copy.
pub const FIRST_RETRY: Duration = Duration::from_secs(5);
/// The longest pause between two tries of one picture.
pub const LONGEST_RETRY: Duration = Duration::from_secs(3600);
/// How often the worker looks for due pictures when none was due.
pub const LOOK_EVERY: Duration = Duration::from_secs(2);
/// Pictures taken from the queue at a time.
const BATCH: usize = 32;

/// Queues picture `hash` (recorded at `now`) for the bucket.
pub fn queue(conn: &Connection, hash: &str, now: &str) -> AppResult<()> {
    conn.prepare_cached(
        "INSERT OR IGNORE INTO media_uploads (hash, queued_at, next_attempt_at)
         VALUES (?1, ?2, ?2)",
    )?
    .execute(params![hash, now])?;
    Ok(())
}

/// When the pictures were last copied to another bucket than `target`
/// (or never), queues every recorded picture and remembers `target`.
/// Gives how many were queued.
pub fn backfill_for(conn: &mut Connection, target: &str) -> AppResult<usize> {
    // Immediate: it reads before it writes, and a deferred transaction that
    // finds another writer (Litestream's own rows) has committed since its
    // read fails at once with "database is locked" instead of waiting.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let copied_to: Option<String> = tx
        .query_row("SELECT target FROM media_replica WHERE id = 1", [], |r| {
            r.get(0)
        })
        .optional()?;
    if copied_to.as_deref() == Some(target) {
        return Ok(0);
    }
    let now = crate::domain::now();
    let queued = tx.execute(
        "INSERT OR IGNORE INTO media_uploads (hash, queued_at, next_attempt_at)
         SELECT hash, ?1, ?1 FROM media",
        [&now],
    )?;
    tx.execute(
        "INSERT INTO media_replica (id, target, last_upload_at) VALUES (1, ?1, NULL)
         ON CONFLICT (id) DO UPDATE SET target = excluded.target, last_upload_at = NULL",
        [target],
    )?;
    tx.commit()?;
    Ok(queued)
}

/// The pictures due for a try at `now`, oldest first, with their failures
/// so far.
pub fn due(conn: &Connection, now: &str, limit: usize) -> AppResult<Vec<(String, i64)>> {
    Ok(conn
        .prepare_cached(
            "SELECT hash, attempts FROM media_uploads WHERE next_attempt_at <= ?1
             ORDER BY next_attempt_at, queued_at LIMIT ?2",
        )?
        .query_map(params![now, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?)
}

/// Picture `hash` is in the bucket: off the queue.
pub fn copied(conn: &Connection, hash: &str, now: &str) -> AppResult<()> {
    conn.prepare_cached("DELETE FROM media_uploads WHERE hash = ?1")?
        .execute([hash])?;
    conn.prepare_cached("UPDATE media_replica SET last_upload_at = ?1 WHERE id = 1")?
        .execute([now])?;
    Ok(())
}

/// Picture `hash` has nothing to copy: off the queue.
pub fn forget(conn: &Connection, hash: &str) -> AppResult<()> {
    conn.prepare_cached("DELETE FROM media_uploads WHERE hash = ?1")?
        .execute([hash])?;
    Ok(())
}

/// The pause before the next try of a picture that failed `attempts` times
/// (this failure included).
pub fn retry_pause(attempts: i64) -> Duration {
    let doublings = u32::try_from(attempts.saturating_sub(1).clamp(0, 20)).unwrap_or(20);
    FIRST_RETRY
        .saturating_mul(2u32.saturating_pow(doublings))
        .min(LONGEST_RETRY)
}

/// Picture `hash` could not be copied: tried again later.
pub fn failed(conn: &Connection, hash: &str, attempts: i64, why: &str) -> AppResult<()> {
    let next = Utc::now()
        + chrono::Duration::from_std(retry_pause(attempts)).unwrap_or(chrono::Duration::zero());
    conn.prepare_cached(
        "UPDATE media_uploads SET attempts = ?2, next_attempt_at = ?3, last_error = ?4
         WHERE hash = ?1",
    )?
    .execute(params![
        hash,
        attempts,
        next.to_rfc3339_opts(SecondsFormat::Millis, true),
        why
    ])?;
    Ok(())
}

/// What the queue holds, for the system card and `dealership check`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueueState {
    /// Pictures waiting to be copied.
    pub pending: i64,
    /// Of them, those whose last try failed; and the latest failure.
    pub failing: i64,
    pub last_error: Option<String>,
    /// When a picture was last copied (RFC 3339).
    pub last_upload_at: Option<String>,
}

pub fn state(conn: &Connection) -> AppResult<QueueState> {
    let (pending, failing): (i64, i64) = conn.query_row(
        "SELECT count(*), count(last_error) FROM media_uploads",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let last_error: Option<String> = conn
        .query_row(
            "SELECT last_error FROM media_uploads WHERE last_error IS NOT NULL
             ORDER BY next_attempt_at DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let last_upload_at: Option<String> = conn
        .query_row(
            "SELECT last_upload_at FROM media_replica WHERE id = 1",
            [],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    Ok(QueueState {
        pending,
        failing,
        last_error,
        last_upload_at,
    })
}

/// The upload worker: copies queued pictures to `bucket` until `stop`.
/// Only the database failing ends it (the supervisor starts it again); a
/// bucket that fails is tried again later, picture by picture.
pub async fn drain(
    db: Db,
    bucket: Arc<Bucket>,
    media_dir: PathBuf,
    stop: CancellationToken,
) -> anyhow::Result<()> {
    let target = bucket.target().to_string();
    let queued = {
        let target = target.clone();
        db.call(move |c| backfill_for(c, &target)).await?
    };
    if queued > 0 {
        tracing::info!("{queued} picture(s) queued for the replica's bucket {target}");
    }
    while !stop.is_cancelled() {
        let now = crate::domain::now();
        let batch = db.read(move |c| due(c, &now, BATCH)).await?;
        if batch.is_empty() {
            tokio::select! {
                () = tokio::time::sleep(LOOK_EVERY) => {}
                () = stop.cancelled() => break,
            }
            continue;
        }
        for (hash, attempts) in batch {
            if stop.is_cancelled() {
                break;
            }
            let copy = tokio::select! {
                copy = bucket.put_picture(&media_dir, &hash) => copy,
                () = stop.cancelled() => break,
            };
            match copy {
                Ok(0) => {
                    // Its files are gone (lost with a disk, restored without
                    // them): nothing to copy, ever.
                    tracing::warn!(
                        "replication: picture {hash} has no file in the media folder; \
                         not copied to the bucket"
                    );
                    db.call(move |c| forget(c, &hash)).await?;
                }
                Ok(_) => {
                    let now = crate::domain::now();
                    db.call(move |c| copied(c, &hash, &now)).await?;
                }
                Err(err) => {
                    let why = format!("{err:#}");
                    let attempts = attempts + 1;
                    if attempts == 1 {
                        tracing::warn!(
                            "replication: picture {hash} not copied to the bucket ({why}); \
                             trying again in {} s",
                            retry_pause(attempts).as_secs()
                        );
                    }
                    db.call(move |c| failed(c, &hash, attempts, &why)).await?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_doubles_up_to_an_hour() {
        let pauses: Vec<u64> = [1, 2, 3, 4, 12, 100]
            .iter()
            .map(|n| retry_pause(*n).as_secs())
            .collect();
        assert_eq!(pauses, [5, 10, 20, 40, 3600, 3600]);
    }
}
