//! The marketplace feeds' renderings the state keeps (`AppState::feeds`):
//! the latest plain and gzipped copy of each feed with its content version.
//! The routes that render and serve them are in `http::feeds`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Bytes;

#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Avito = 0,
    Autoru = 1,
    Yandex = 2,
    AutoruNew = 3,
    AutoruUsed = 4,
}

/// One rendering of a feed.
pub(crate) struct Rendered {
    /// The content version it was read at (or an older one).
    pub version: i64,
    pub plain: Bytes,
    pub gzip: Option<Bytes>,
}

/// The latest rendering of each feed; a request for a newer version renders
/// again while the others asking for that feed wait for it.
#[derive(Default)]
pub struct FeedStore {
    feeds: [tokio::sync::Mutex<Option<Arc<Rendered>>>; 5],
    renders: AtomicU64,
}

impl FeedStore {
    /// Feeds rendered so far.
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }

    /// Counts one rendering.
    pub(crate) fn count_render(&self) {
        self.renders.fetch_add(1, Ordering::Relaxed);
    }

    /// The latest rendering of one feed.
    pub(crate) fn slot(&self, kind: Kind) -> &tokio::sync::Mutex<Option<Arc<Rendered>>> {
        &self.feeds[kind as usize]
    }
}
