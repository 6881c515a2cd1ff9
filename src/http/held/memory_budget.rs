//! The memory budget of the pages and answers in flight (`docs/rendering.md`,
//! "Memory budget"): one process-wide total of bytes, taken before a page is
//! drawn or an answer built and held until it is sent; what does not fit is
//! refused at once (the page's shell, or a 503), never waited for.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context as TaskContext, Poll};

use axum::body::{Body, Bytes, HttpBody};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Bytes the pages and answers in flight may hold at once, across the
/// process: their data, the drawn HTML, the copies the answer cache makes
/// and compresses, and the bodies being sent (`docs/rendering.md`, "Memory
/// budget"). The rendering runtimes' own memory comes on top (each at most
/// `render::MEMORY_LIMIT_BYTES`), as do the answer cache and the fragment store,
/// each bounded by its own bytes.
pub const BUDGET_BYTES: usize = 128 * 1024 * 1024;
/// The one budget of this process.
pub static BUDGET: LazyLock<MemoryBudget> = LazyLock::new(|| MemoryBudget::new(BUDGET_BYTES));

/// A total of bytes shared by everything in flight, counted in KiB (a
/// semaphore's permits). Taking never waits: what does not fit now is
/// refused, and the caller sends something smaller (the page's shell) or
/// a 503.
pub struct MemoryBudget {
    permits: Arc<Semaphore>,
    total_kib: u32,
    /// The most held at once since [`MemoryBudget::take_peak`] last looked.
    peak_kib: AtomicUsize,
}

/// Bytes taken from a [`MemoryBudget`], given back when dropped.
pub struct Held {
    permit: Option<OwnedSemaphorePermit>,
}

impl MemoryBudget {
    pub fn new(bytes: usize) -> MemoryBudget {
        let total_kib = u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX >> 3);
        MemoryBudget {
            permits: Arc::new(Semaphore::new(total_kib as usize)),
            total_kib,
            peak_kib: AtomicUsize::new(0),
        }
    }

    fn kib(bytes: usize) -> u32 {
        u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX)
    }

    /// `bytes` taken, or `None` when they do not fit now (or ever).
    pub fn take(&self, bytes: usize) -> Option<Held> {
        let mut held = Held { permit: None };
        self.grow(&mut held, bytes).then_some(held)
    }

    /// Makes `held` hold at least `bytes` (it never shrinks); false when
    /// the difference does not fit now, and `held` is as it was.
    pub fn grow(&self, held: &mut Held, bytes: usize) -> bool {
        let want = Self::kib(bytes);
        let has = held.permit.as_ref().map_or(0, |p| p.num_permits() as u32);
        if want <= has {
            return true;
        }
        if want > self.total_kib {
            return false;
        }
        let Ok(more) = self.permits.clone().try_acquire_many_owned(want - has) else {
            return false;
        };
        match &mut held.permit {
            Some(permit) => permit.merge(more),
            None => held.permit = Some(more),
        }
        let used = self.in_use_bytes() / 1024;
        self.peak_kib.fetch_max(used, Ordering::Relaxed);
        true
    }

    /// Makes `held` hold `bytes`: gives back what it has beyond them, or
    /// takes what it lacks; false when that does not fit now (and `held`
    /// is as it was).
    pub fn fit(&self, held: &mut Held, bytes: usize) -> bool {
        let want = Self::kib(bytes) as usize;
        if let Some(permit) = &mut held.permit
            && permit.num_permits() > want
        {
            drop(permit.split(permit.num_permits() - want));
            return true;
        }
        self.grow(held, bytes)
    }

    /// Bytes held now.
    pub fn in_use_bytes(&self) -> usize {
        (self.total_kib as usize).saturating_sub(self.permits.available_permits()) * 1024
    }

    /// The most bytes held at once since the last call.
    pub fn take_peak(&self) -> usize {
        let now = self.in_use_bytes() / 1024;
        self.peak_kib.swap(now, Ordering::Relaxed).max(now) * 1024
    }

    /// The budget's size.
    pub fn total_bytes(&self) -> usize {
        self.total_kib as usize * 1024
    }
}

impl Held {
    pub fn bytes(&self) -> usize {
        self.permit.as_ref().map_or(0, |p| p.num_permits() * 1024)
    }

    /// `body`, holding these bytes until it is sent or dropped (a slow
    /// reader keeps them taken).
    pub fn with_body(self, body: Body) -> Body {
        Body::new(Holding { body, _held: self })
    }
}

/// A body and the budget it holds.
struct Holding {
    body: Body,
    _held: Held,
}

impl HttpBody for Holding {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}
