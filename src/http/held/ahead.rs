//! The cards waiting to be drawn ahead (`cards_ahead`), shared by the
//! rendering threads (`render`): one thread at a time draws one batch, and
//! only while no page waits.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// One batch: the answers a card reads besides its car (the settings, as a
/// page embeds them) and the cars (a JSON list, as a page embeds it).
pub struct AheadBatch {
    pub data: Arc<str>,
    pub cars: String,
}

/// The batches waiting to be drawn, shared by the rendering threads.
#[derive(Default)]
pub struct Ahead {
    batches: Mutex<VecDeque<AheadBatch>>,
    /// A thread is drawing a batch: the others stay free for pages.
    drawing: AtomicBool,
    drawn: AtomicU64,
}

impl Ahead {
    /// Puts `batches` before those waiting (a changed car comes before
    /// the rest of a catalogue still being drawn).
    pub(super) fn add(&self, batches: Vec<AheadBatch>) {
        let mut waiting = self.batches.lock().unwrap_or_else(|e| e.into_inner());
        for batch in batches.into_iter().rev() {
            waiting.push_front(batch);
        }
    }

    /// Whether a batch waits and no thread is drawing one.
    pub(super) fn waiting(&self) -> bool {
        !self.drawing.load(Ordering::Acquire)
            && !self
                .batches
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_empty()
    }

    /// The next batch, unless another thread is drawing one; the taker
    /// calls [`Ahead::done`] after it.
    pub(super) fn take(&self) -> Option<AheadBatch> {
        if self.drawing.swap(true, Ordering::AcqRel) {
            return None;
        }
        let next = self
            .batches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        if next.is_none() {
            self.drawing.store(false, Ordering::Release);
        }
        next
    }

    /// Counts a batch drawn; when it was the last waiting, notes in the
    /// log how many cards have been drawn ahead in all.
    pub(super) fn done(&self, drawn: u32) {
        let total = self.drawn.fetch_add(u64::from(drawn), Ordering::AcqRel) + u64::from(drawn);
        let empty = self
            .batches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty();
        self.drawing.store(false, Ordering::Release);
        if empty && drawn > 0 {
            tracing::info!("cards drawn ahead: {total} since the start, none waiting");
        }
    }

    /// Batches waiting or being drawn, cards drawn so far.
    pub(super) fn progress(&self) -> (usize, u64) {
        let drawing = usize::from(self.drawing.load(Ordering::Acquire));
        let waiting = self.batches.lock().unwrap_or_else(|e| e.into_inner()).len();
        (waiting + drawing, self.drawn.load(Ordering::Acquire))
    }
}
