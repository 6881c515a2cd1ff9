//! Bounds image work: at most a few pictures are decoded at once, and their
//! decoded pixels together stay within a memory budget. A large picture
//! takes a larger share, so one picture at the size limit is worked on
//! alone while ordinary photos share the budget. A short queue waits for
//! its turn; beyond it an upload is refused at once as busy.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::AppError;

/// Pictures worked on at once at most (the machine's cores are few).
pub const DEFAULT_PERMITS: u32 = 2;
/// Uploads that wait for their turn beyond those being worked on.
pub const DEFAULT_QUEUE: usize = 4;
/// Memory for decoded pixels and variants of all pictures worked on at once.
pub const DEFAULT_BUDGET_BYTES: u64 = 256 * MIB;
/// How long a queued upload waits for its turn before it is refused.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(20);

pub const BUSY: &str =
    "Сервер занят обработкой других изображений. Повторите загрузку через минуту";

const MIB: u64 = 1024 * 1024;

/// The gate all uploads pass.
pub struct Gate {
    /// Memory units (MiB) of the budget.
    memory: Arc<Semaphore>,
    budget_mib: u32,
    /// The smallest share: the budget split between `permits` pictures.
    share_mib: u32,
    /// Places for pictures being worked on and waiting.
    places: Arc<Semaphore>,
    wait: Duration,
}

/// A place in the queue, taken before the upload's body is read.
pub struct Place(OwnedSemaphorePermit);

/// The right to work on one picture; hold it until the work ends.
pub struct Turn {
    _memory: OwnedSemaphorePermit,
    _place: OwnedSemaphorePermit,
}

impl Default for Gate {
    fn default() -> Gate {
        Gate::new(
            DEFAULT_PERMITS,
            DEFAULT_QUEUE,
            DEFAULT_BUDGET_BYTES,
            DEFAULT_WAIT,
        )
    }
}

impl Gate {
    /// `permits` pictures at once at most (at least one), `queue` more
    /// waiting at most `wait`, all within `budget_bytes` (at least 1 MiB
    /// per permit).
    pub fn new(permits: u32, queue: usize, budget_bytes: u64, wait: Duration) -> Gate {
        let permits = permits.max(1);
        let budget_mib = u32::try_from(budget_bytes / MIB)
            .unwrap_or(u32::MAX >> 4)
            .clamp(permits, u32::MAX >> 4);
        Gate {
            memory: Arc::new(Semaphore::new(budget_mib as usize)),
            budget_mib,
            share_mib: budget_mib / permits,
            places: Arc::new(Semaphore::new(permits as usize + queue)),
            wait,
        }
    }

    /// A place in the queue, or busy when the queue is full.
    pub fn enter(&self) -> Result<Place, AppError> {
        self.places
            .clone()
            .try_acquire_owned()
            .map(Place)
            .map_err(|_| busy())
    }

    /// Waits for the turn of a picture whose work takes `working_bytes`
    /// (see `media::working_bytes`); busy after the gate's wait.
    pub async fn turn(&self, place: Place, working_bytes: u64) -> Result<Turn, AppError> {
        let mib = u32::try_from(working_bytes.div_ceil(MIB)).unwrap_or(u32::MAX);
        let units = mib.clamp(self.share_mib, self.budget_mib);
        let memory = tokio::time::timeout(self.wait, self.memory.clone().acquire_many_owned(units))
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        Ok(Turn {
            _memory: memory,
            _place: place.0,
        })
    }
}

fn busy() -> AppError {
    AppError::TooManyRequests(BUSY.into())
}
