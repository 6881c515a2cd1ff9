//! Background jobs under one supervisor: named periodic tasks (picture
//! cleanup today; the outbox and feed imports later) that stop together.
//!
//! - [`Supervisor::every`] adds a job: one call with a name, a period and an
//!   async function. The first run starts at once, then one per period; a
//!   run that overruns delays the next one instead of piling up runs.
//! - A run that returns an error is logged, and the job keeps its schedule.
//! - A run that panics is logged and the job runs again after a short pause
//!   that doubles with each panic in a row (up to a limit), then keeps its
//!   schedule.
//! - [`Supervisor::token`] is the stop signal shared with the HTTP server:
//!   cancelling it (on SIGTERM or Ctrl-C) stops scheduling new runs, and
//!   [`Supervisor::stop`] waits a bounded time for runs in progress before
//!   aborting them.
//! - [`Workers`] knows which jobs are down: a worker from its failure until
//!   it has run [`HEALTHY_AFTER`] again, a periodic job from a panic until a
//!   run that ends. `/healthz` and the admin's system card show them.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::task::JoinSet;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_util::sync::CancellationToken;
use tokio_util::task::AbortOnDropHandle;

type Run = Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send>>;
type Job = Arc<dyn Fn() -> Run + Send + Sync>;

/// Runs named periodic jobs until its token is cancelled.
pub struct Supervisor {
    token: CancellationToken,
    tasks: JoinSet<&'static str>,
    restart: Restart,
    workers: Arc<Workers>,
}

/// How long a restarted worker must run before it counts as up again (and
/// its restart pause starts over from the first).
pub const HEALTHY_AFTER: Duration = Duration::from_secs(30);

/// The jobs that are down now, with why.
#[derive(Debug, Default)]
pub struct Workers(Mutex<BTreeMap<&'static str, String>>);

impl Workers {
    fn down(&self, name: &'static str, why: String) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(name, why);
    }

    fn up(&self, name: &'static str) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(name);
    }

    /// Each job that is down, by name, with why it stopped.
    pub fn down_now(&self) -> Vec<(&'static str, String)> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(name, why)| (*name, why.clone()))
            .collect()
    }
}

/// The pause before a panicked job runs again: `first`, doubled after each
/// panic in a row, at most `max`.
#[derive(Debug, Clone, Copy)]
struct Restart {
    first: Duration,
    max: Duration,
    /// A worker that runs this long after a restart is up again.
    healthy: Duration,
}

impl Default for Supervisor {
    fn default() -> Self {
        Supervisor::new()
    }
}

impl Supervisor {
    /// A supervisor whose panicked jobs run again after 1 s, 2 s, 4 s, …
    /// up to a minute.
    pub fn new() -> Supervisor {
        Supervisor::with_restart_delay(Duration::from_secs(1), Duration::from_secs(60))
    }

    /// A supervisor with its own pause before a panicked job runs again.
    pub fn with_restart_delay(first: Duration, max: Duration) -> Supervisor {
        Supervisor {
            token: CancellationToken::new(),
            tasks: JoinSet::new(),
            restart: Restart {
                first,
                max: max.max(first),
                healthy: HEALTHY_AFTER,
            },
            workers: Arc::default(),
        }
    }

    /// A restarted worker counts as up again after `healthy` of running
    /// (default [`HEALTHY_AFTER`]).
    pub fn up_after(mut self, healthy: Duration) -> Supervisor {
        self.restart.healthy = healthy;
        self
    }

    /// Reports which jobs are down to `workers` (the site's health).
    pub fn reporting_to(mut self, workers: Arc<Workers>) -> Supervisor {
        self.workers = workers;
        self
    }

    /// The stop signal: cancelling it stops every job (and whatever else
    /// waits on it, such as the HTTP server).
    pub fn token(&self) -> CancellationToken {
        self.token.clone()
    }

    /// Adds a job that runs now and then every `period`. Must be called
    /// inside a Tokio runtime.
    pub fn every<F, Fut>(&mut self, name: &'static str, period: Duration, job: F)
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let job: Job = Arc::new(move || Box::pin(job()) as Run);
        let token = self.token.clone();
        let (restart, workers) = (self.restart, self.workers.clone());
        self.tasks
            .spawn(supervise(name, period, job, token, restart, workers));
    }

    /// Adds a long-running job (such as the outbox worker) that gets the
    /// stop signal and must return soon after it. It starts at once; if it
    /// fails or panics it starts again after the restart pause.
    pub fn worker<F, Fut>(&mut self, name: &'static str, job: F)
    where
        F: Fn(CancellationToken) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let token = self.token.clone();
        let (restart, workers) = (self.restart, self.workers.clone());
        self.tasks.spawn(async move {
            let mut failures_in_a_row: u32 = 0;
            while !token.is_cancelled() {
                let mut run = AbortOnDropHandle::new(tokio::spawn(job(token.clone())));
                let ended = tokio::select! {
                    ended = &mut run => ended,
                    () = tokio::time::sleep(restart.healthy) => {
                        // Running well again: up, and a later failure
                        // starts from the first pause.
                        workers.up(name);
                        failures_in_a_row = 0;
                        run.await
                    }
                };
                let failure = match ended {
                    Ok(Ok(())) => None,
                    Ok(Err(err)) => Some(format!("{err:#}")),
                    Err(err) if err.is_panic() => {
                        Some(format!("panicked: {}", panic_message(&*err.into_panic())))
                    }
                    Err(err) => Some(format!("cancelled: {err}")),
                };
                if token.is_cancelled() {
                    break;
                }
                let pause = restart.after(failures_in_a_row);
                failures_in_a_row = failures_in_a_row.saturating_add(1);
                let why = failure.unwrap_or_else(|| "returned".into());
                tracing::error!(
                    job = name,
                    "worker stopped ({why}); starting it again in {pause:?}"
                );
                workers.down(name, why);
                tokio::select! {
                    biased;
                    () = token.cancelled() => break,
                    () = tokio::time::sleep(pause) => {}
                }
            }
            tracing::debug!(job = name, "worker stopped");
            name
        });
    }

    /// How many jobs were added.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Cancels the token and waits up to `wait` for runs in progress to end;
    /// aborts what is still running then. Gives whether all ended in time.
    pub async fn stop(mut self, wait: Duration) -> bool {
        self.token.cancel();
        let tasks = &mut self.tasks;
        let ended = tokio::time::timeout(wait, async {
            while let Some(result) = tasks.join_next().await {
                if let Err(err) = result {
                    tracing::error!("a job supervisor failed: {err}");
                }
            }
        })
        .await
        .is_ok();
        if !ended {
            tracing::warn!(
                "background jobs still running {wait:?} after the stop signal; aborting them"
            );
            self.tasks.shutdown().await;
        }
        ended
    }
}

/// One job's loop: waits for its tick or the stop signal, runs the job as a
/// task of its own (so a panic is caught), and logs what went wrong.
async fn supervise(
    name: &'static str,
    period: Duration,
    job: Job,
    token: CancellationToken,
    restart: Restart,
    workers: Arc<Workers>,
) -> &'static str {
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut panics_in_a_row: u32 = 0;
    loop {
        tokio::select! {
            biased;
            () = token.cancelled() => break,
            _ = tick.tick() => {}
        }
        // Aborted with this loop when the supervisor gives up waiting.
        let job = job.clone();
        let run = AbortOnDropHandle::new(tokio::spawn(async move { job().await }));
        let started = Instant::now();
        match run.await {
            Ok(Ok(())) => {
                panics_in_a_row = 0;
                workers.up(name);
                tracing::debug!(job = name, "job ran in {:.1?}", started.elapsed());
            }
            Ok(Err(err)) => {
                panics_in_a_row = 0;
                workers.up(name);
                tracing::warn!(job = name, "job failed: {err:#}");
            }
            Err(err) if err.is_panic() => {
                let pause = restart.after(panics_in_a_row);
                panics_in_a_row = panics_in_a_row.saturating_add(1);
                let said = panic_message(&*err.into_panic());
                tracing::error!(
                    job = name,
                    "job panicked: {said}; running it again in {pause:?}"
                );
                workers.down(name, format!("panicked: {said}"));
                tokio::select! {
                    biased;
                    () = token.cancelled() => break,
                    () = tokio::time::sleep(pause) => tick.reset_immediately(),
                }
            }
            Err(err) => {
                tracing::warn!(job = name, "job was cancelled: {err}");
            }
        }
    }
    tracing::debug!(job = name, "job stopped");
    name
}

impl Restart {
    fn after(self, panics_in_a_row: u32) -> Duration {
        let factor = 2u32.saturating_pow(panics_in_a_row.min(16));
        self.first.saturating_mul(factor).min(self.max)
    }
}

/// What a panic said, for the log.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restart_pause_doubles_up_to_the_limit() {
        let restart = Restart {
            first: Duration::from_millis(100),
            max: Duration::from_secs(1),
            healthy: HEALTHY_AFTER,
        };
        let pauses: Vec<u128> = (0..6).map(|n| restart.after(n).as_millis()).collect();
        assert_eq!(pauses, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(restart.after(u32::MAX), Duration::from_secs(1));
    }

    #[test]
    fn panic_messages_are_read() {
        assert_eq!(panic_message(&"boom"), "boom");
        assert_eq!(panic_message(&String::from("bang")), "bang");
        assert_eq!(panic_message(&7), "(no message)");
    }
}
