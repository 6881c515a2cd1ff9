//! Group commit: writes that must be on disk before they are answered (a
//! visitor's lead) and that arrive together share one transaction, so one
//! sync of the write-ahead log covers them all. With `synchronous = FULL`
//! each commit waits for the disk; a lone write still commits at once, and
//! under a burst the writes queued while one commit syncs go into the next.
//!
//! Each write runs inside its own savepoint: a write that fails is rolled back
//! alone and answered with its error, the others of its batch still commit.
//! A write is answered only after its batch's COMMIT returned.
//!
//! The writer thread never dies for good: a batch that panics is rolled back
//! and answered with an error, and should the thread end anyway, the next
//! write starts a new one. A failed batch (a full disk, a read-only file) is
//! remembered until a later one commits: `/healthz` reports it.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;
use tokio::sync::oneshot;

use crate::error::{AppError, AppResult};

/// The pool the writer takes its connection from: the database's own, spelled
/// here so that this piece depends on nothing of its parent.
type Pool = r2d2::Pool<SqliteConnectionManager>;

/// Writes taken into one transaction at most.
const MAX_BATCH: usize = 256;

/// How long a batch waits for the write lock another connection holds
/// before its writes fail: longer than the pool's busy timeout, because a
/// lead must outwait the longest write the site makes itself (an import's
/// apply of a large feed, in one transaction, takes seconds) rather than
/// ask the visitor to send it again; shorter than the request timeout (30 s),
/// so the visitor still hears whether it was stored.
pub(crate) const LOCK_PATIENCE: Duration = Duration::from_secs(20);

/// One queued write: runs inside the batch's transaction, then hears how the
/// batch ended.
trait Job: Send {
    /// Runs the write; gives why when the database failed it (not when the
    /// write was refused for its data).
    fn run(&mut self, conn: &Connection) -> Option<String>;
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
    fn run(&mut self, conn: &Connection) -> Option<String> {
        let work = self.work.take()?;
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
        let failed = match &outcome {
            Err(AppError::Internal(cause)) => Some(format!("{cause:#}")),
            _ => None,
        };
        self.outcome = Some(outcome);
        failed
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
    /// The pool's busy timeout, given back after the lock is taken.
    usual: Duration,
    queue: Mutex<Option<mpsc::Sender<Box<dyn Job>>>>,
    failure: Arc<Failure>,
}

/// Why the latest batch failed, until one commits.
#[derive(Default)]
struct Failure(Mutex<Option<String>>);

impl Failure {
    fn set(&self, why: Option<String>) {
        if let Ok(mut last) = self.0.lock() {
            *last = why;
        }
    }

    fn get(&self) -> Option<String> {
        self.0.lock().ok().and_then(|last| last.clone())
    }
}

impl GroupCommit {
    pub(crate) fn new(pool: Pool, usual: Duration) -> Arc<GroupCommit> {
        Arc::new(GroupCommit {
            pool,
            usual,
            queue: Mutex::new(None),
            failure: Arc::default(),
        })
    }

    /// Why the latest batch of writes failed, while no batch has committed
    /// since.
    pub(crate) fn last_failure(&self) -> Option<String> {
        self.failure.get()
    }

    /// Runs `work` in the next batch and answers once the batch is on disk.
    pub(crate) async fn call<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> AppResult<T> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let mut job: Box<dyn Job> = Box::new(Pending {
            work: Some(work),
            outcome: None,
            reply,
        });
        // A writer thread that ended is replaced once.
        for attempt in 0..2 {
            match self.sender(attempt > 0)?.send(job) {
                Ok(()) => break,
                Err(mpsc::SendError(back)) if attempt == 0 => job = back,
                Err(_) => {
                    return Err(AppError::Internal(anyhow::anyhow!(
                        "group commit writer stopped"
                    )));
                }
            }
        }
        answer
            .await
            .map_err(|_| AppError::Internal(anyhow::anyhow!("group commit writer stopped")))?
    }

    /// The queue of the running writer thread; a new thread (and queue) when
    /// none runs yet or `replace` says the last one ended.
    fn sender(&self, replace: bool) -> AppResult<mpsc::Sender<Box<dyn Job>>> {
        let mut queue = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(sender) = queue.as_ref().filter(|_| !replace) {
            return Ok(sender.clone());
        }
        if replace {
            tracing::error!("the group commit writer had ended; starting a new one");
        }
        let (sender, jobs) = mpsc::channel();
        let (pool, failure, usual) = (self.pool.clone(), self.failure.clone(), self.usual);
        std::thread::Builder::new()
            .name("group-commit".into())
            .spawn(move || write_batches(&pool, usual, &jobs, &failure))
            .map_err(|e| AppError::Internal(anyhow::anyhow!("cannot start writer: {e}")))?;
        *queue = Some(sender.clone());
        Ok(sender)
    }
}

/// The writer thread: ends when the last handle to the queue is dropped.
fn write_batches(
    pool: &Pool,
    usual: Duration,
    jobs: &mpsc::Receiver<Box<dyn Job>>,
    failure: &Failure,
) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let committed = match pool.get() {
            Ok(conn) => {
                // A write that panics fails its batch, not the thread.
                let run =
                    std::panic::catch_unwind(AssertUnwindSafe(|| commit(&conn, &mut batch, usual)));
                run.unwrap_or_else(|panic| {
                    let _ = conn.execute_batch("ROLLBACK");
                    let said = crate::jobs::panic_message(&*panic);
                    Err(format!("a write panicked: {said}"))
                })
            }
            Err(e) => Err(e.to_string()),
        };
        match &committed {
            Ok(None) => failure.set(None),
            Ok(Some(why)) => failure.set(Some(why.clone())),
            Err(why) => {
                tracing::error!(error = %why, writes = batch.len(), "group commit failed");
                failure.set(Some(why.clone()));
            }
        }
        for job in batch {
            job.finish(committed.as_ref().map(|_| ()).map_err(String::as_str));
        }
    }
}

/// Runs the batch in one transaction. `Ok(Some(why))`: it committed, but the
/// database failed one of its writes (a full disk fails the insert itself,
/// the savepoint rolls it back and the empty batch commits).
fn commit(
    conn: &Connection,
    batch: &mut [Box<dyn Job>],
    usual: Duration,
) -> Result<Option<String>, String> {
    // Only taking the lock waits longer; the pool's connection then has its
    // own timeout back for whoever uses it next.
    conn.busy_timeout(LOCK_PATIENCE)
        .map_err(|e| e.to_string())?;
    let begun = conn.execute_batch("BEGIN IMMEDIATE");
    let usual = conn.busy_timeout(usual);
    begun.map_err(|e| e.to_string())?;
    if let Err(e) = usual {
        let _ = conn.execute_batch("ROLLBACK");
        return Err(e.to_string());
    }
    let mut failed = None;
    for job in batch.iter_mut() {
        if let Some(why) = job.run(conn) {
            failed = Some(why);
        }
    }
    conn.execute_batch("COMMIT").map_err(|e| {
        let _ = conn.execute_batch("ROLLBACK");
        e.to_string()
    })?;
    Ok(failed)
}
