//! Group commit: writes that must be on disk before they are answered (a
//! visitor's lead) and that arrive together share one transaction, so one
//! sync of the write-ahead log covers them all. With `synchronous = FULL`
//! each commit waits for the disk; a lone write still commits at once, and
//! under a burst the writes queued while one commit syncs go into the next.
//!
//! Each write runs inside its own savepoint: a write that fails is rolled back
//! alone and answered with its error, the others of its batch still commit.
//! A write is answered only after its batch's COMMIT returned.

use std::sync::{Arc, Mutex, mpsc};

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::Pool;
use crate::error::{AppError, AppResult};

/// Writes taken into one transaction at most.
const MAX_BATCH: usize = 256;

/// One queued write: runs inside the batch's transaction, then hears how the
/// batch ended.
trait Job: Send {
    fn run(&mut self, conn: &Connection);
    fn finish(self: Box<Self>, committed: Result<(), &str>);
}

struct Pending<T, F> {
    work: Option<F>,
    outcome: Option<AppResult<T>>,
    reply: oneshot::Sender<AppResult<T>>,
}

impl<T, F> Job for Pending<T, F>
where
    T: Send,
    F: FnOnce(&Connection) -> AppResult<T> + Send,
{
    fn run(&mut self, conn: &Connection) {
        let Some(work) = self.work.take() else {
            return;
        };
        let outcome = match conn.execute_batch("SAVEPOINT group_write") {
            Err(e) => Err(e.into()),
            Ok(()) => {
                let outcome = work(conn);
                let close = if outcome.is_ok() {
                    "RELEASE group_write"
                } else {
                    "ROLLBACK TO group_write; RELEASE group_write"
                };
                match conn.execute_batch(close) {
                    Ok(()) => outcome,
                    Err(e) => Err(e.into()),
                }
            }
        };
        self.outcome = Some(outcome);
    }

    fn finish(self: Box<Self>, committed: Result<(), &str>) {
        let answer = match (self.outcome, committed) {
            // A refused write (validation, conflict) is answered as it is.
            (Some(Err(e)), _) => Err(e),
            (Some(Ok(value)), Ok(())) => Ok(value),
            (Some(Ok(_)), Err(why)) | (None, Err(why)) => Err(AppError::Internal(anyhow::anyhow!(
                "group commit failed: {why}"
            ))),
            (None, Ok(())) => Err(AppError::Internal(anyhow::anyhow!(
                "group commit: the write never ran"
            ))),
        };
        // The caller may have gone (client disconnected); the write stands.
        let _ = self.reply.send(answer);
    }
}

/// The queue and its writer thread, started on first use.
pub(crate) struct GroupCommit {
    pool: Pool,
    queue: Mutex<Option<mpsc::Sender<Box<dyn Job>>>>,
}

impl GroupCommit {
    pub(crate) fn new(pool: Pool) -> Arc<GroupCommit> {
        Arc::new(GroupCommit {
            pool,
            queue: Mutex::new(None),
        })
    }

    /// Runs `work` in the next batch and answers once the batch is on disk.
    pub(crate) async fn call<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job: Box<dyn Job> = Box::new(Pending {
            work: Some(work),
            outcome: None,
            reply,
        });
        self.sender()?
            .send(job)
            .map_err(|_| AppError::Internal(anyhow::anyhow!("group commit writer stopped")))?;
        answer
            .await
            .map_err(|_| AppError::Internal(anyhow::anyhow!("group commit writer stopped")))?
    }

    fn sender(&self) -> AppResult<mpsc::Sender<Box<dyn Job>>> {
        let mut queue = self
            .queue
            .lock()
            .map_err(|_| AppError::Internal(anyhow::anyhow!("group commit queue poisoned")))?;
        if let Some(sender) = queue.as_ref() {
            return Ok(sender.clone());
        }
        let (sender, jobs) = mpsc::channel();
        let pool = self.pool.clone();
        std::thread::Builder::new()
            .name("group-commit".into())
            .spawn(move || write_batches(&pool, &jobs))
            .map_err(|e| AppError::Internal(anyhow::anyhow!("cannot start writer: {e}")))?;
        *queue = Some(sender.clone());
        Ok(sender)
    }
}

/// The writer thread: ends when the last handle to the queue is dropped.
fn write_batches(pool: &Pool, jobs: &mpsc::Receiver<Box<dyn Job>>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let committed = match pool.get() {
            Ok(conn) => commit(&conn, &mut batch),
            Err(e) => Err(e.to_string()),
        };
        if let Err(why) = &committed {
            tracing::error!(error = %why, writes = batch.len(), "group commit failed");
        }
        for job in batch {
            job.finish(committed.as_ref().map(|_| ()).map_err(String::as_str));
        }
    }
}

fn commit(conn: &Connection, batch: &mut [Box<dyn Job>]) -> Result<(), String> {
    conn.execute_batch("BEGIN IMMEDIATE")
        .map_err(|e| e.to_string())?;
    for job in batch.iter_mut() {
        job.run(conn);
    }
    conn.execute_batch("COMMIT").map_err(|e| {
        let _ = conn.execute_batch("ROLLBACK");
        e.to_string()
    })
}
