//! The limiter of password checks the state keeps (`AppState::password_checks`):
//! how many argon2 checks run at once and how many wait, with their work
//! areas reused. The login rules that use it are in `http::auth`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use argon2::Block;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::db::blocking;
use crate::domain::users;
use crate::error::{AppError, AppResult};

/// Answered when the queue of checks is full.
pub const PASSWORDS_BUSY: &str = "Сервер занят проверкой паролей. Попробуйте войти через минуту.";

/// How many password checks run at once and how many may wait: each argon2
/// check works in about 19 MiB, so a flood of logins must not start one per
/// request. Beyond the queue an attempt is answered at once with 429
/// (`PASSWORDS_BUSY`), without a check and without being recorded.
pub struct PasswordChecks {
    /// Checks running or waiting.
    admission: Arc<Semaphore>,
    /// Checks running.
    running: Arc<Semaphore>,
    /// Checks running or waiting at most.
    admitted: usize,
    /// argon2 work areas, one per running check, reused while other
    /// checks wait; the last check of a burst frees its own, so a flood of
    /// logins leaves no 19 MiB behind (`docs/operations.md`, "Memory").
    memory: Arc<Mutex<Vec<Vec<Block>>>>,
    /// Passwords hashed so far (for tests and benchmarks).
    checked: Arc<AtomicU64>,
}

impl PasswordChecks {
    /// `parallel` checks at once (at least 1), `queue` more waiting.
    pub fn new(parallel: usize, queue: usize) -> PasswordChecks {
        let parallel = parallel.max(1);
        PasswordChecks {
            admission: Arc::new(Semaphore::new(parallel + queue)),
            admitted: parallel + queue,
            running: Arc::new(Semaphore::new(parallel)),
            memory: Arc::new(Mutex::new(Vec::new())),
            checked: Arc::new(AtomicU64::new(0)),
        }
    }

    /// One check per two cores (at least 1, at most 4), so pages keep a core
    /// during a flood of logins; four times as many waiting.
    pub fn for_this_machine() -> PasswordChecks {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let parallel = (cores / 2).clamp(1, 4);
        PasswordChecks::new(parallel, parallel * 4)
    }

    /// How many passwords were hashed.
    pub fn checked(&self) -> u64 {
        self.checked.load(Ordering::Relaxed)
    }

    pub(crate) fn admit(&self) -> AppResult<OwnedSemaphorePermit> {
        self.admission
            .clone()
            .try_acquire_owned()
            .map_err(|_| AppError::TooManyRequests(PASSWORDS_BUSY.into()))
    }

    /// Hashes `password` against `hash` in a reused work area.
    pub(crate) async fn verify(&self, password: String, hash: Option<String>) -> AppResult<bool> {
        let running = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| AppError::Internal(anyhow::anyhow!("password checks: {e}")))?;
        let memory = self.memory.clone();
        let checked = self.checked.clone();
        let (admission, admitted) = (self.admission.clone(), self.admitted);
        // The permit moves into the work: a request dropped by its client
        // still counts until its hash is done.
        blocking(move || {
            let _running = running;
            let mut area = memory
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop()
                .unwrap_or_default();
            let ok = match hash {
                Some(hash) => users::verify_password_in(&password, &hash, &mut area),
                None => {
                    // Same work for an unknown login, so timing tells nothing.
                    users::verify_password_in(&password, &DUMMY_HASH, &mut area);
                    false
                }
            };
            checked.fetch_add(1, Ordering::Relaxed);
            // Kept for the next check only when another one is admitted
            // (this one's caller holds one admission until it answers).
            let others = admitted.saturating_sub(admission.available_permits() + 1);
            if others > 0 {
                memory
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(area);
            }
            Ok(ok)
        })
        .await
    }
}

/// An argon2id hash of a random password, for unknown logins.
static DUMMY_HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    users::hash_password(&uuid::Uuid::new_v4().to_string()).unwrap_or_default()
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dummy_hash_is_a_valid_argon2_hash() {
        assert!(argon2::password_hash::PasswordHash::new(&DUMMY_HASH).is_ok());
    }

    fn areas(checks: &PasswordChecks) -> usize {
        checks.memory.lock().unwrap().len()
    }

    #[tokio::test]
    async fn a_work_area_is_kept_only_while_another_check_is_admitted() {
        let checks = PasswordChecks::new(1, 2);
        let hash = users::hash_password("right").unwrap();
        // Alone: the check frees its 19 MiB when done.
        let one = checks.admit().unwrap();
        assert!(
            checks
                .verify("right".into(), Some(hash.clone()))
                .await
                .unwrap()
        );
        assert_eq!(areas(&checks), 0);
        // Another admitted (waiting): the area stays for it.
        let _two = checks.admit().unwrap();
        assert!(
            !checks
                .verify("wrong".into(), Some(hash.clone()))
                .await
                .unwrap()
        );
        assert_eq!(areas(&checks), 1);
        drop(one);
        // The last of the burst: its area (the kept one) is freed.
        assert!(checks.verify("right".into(), Some(hash)).await.unwrap());
        assert_eq!(areas(&checks), 0);
        assert_eq!(checks.checked(), 3);
    }
}
