//! The store of drawn fragments the rendering threads share
//! (`docs/rendering.md`, "Drawn once: fragments"): a component's HTML by a
//! hash of what it was drawn from, bounded in bytes. The HTML is kept
//! deflated (a card's 3 KB in about 1 KB), so the store holds the cards of a
//! whole catalogue of 10,000 cars in its default size ("Cards drawn ahead").

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use sha2::{Digest, Sha256};

/// The store's size unless `[pages] fragment_cache_mb` says.
/// 24 MB: the cards of 10,000 cars drawn ahead (some 1.3 KB each, deflated)
/// fill 13 MB of it, their share of three quarters at most.
pub const FRAGMENTS_BYTES: u64 = 24 * 1024 * 1024;

/// Below this a fragment is kept as it is: deflating saves nothing worth
/// the inflating.
const DEFLATE_FROM_BYTES: usize = 512;

/// A fragment's HTML as kept.
enum Kept {
    Plain(Arc<str>),
    /// Deflated, with the length of the HTML it inflates to.
    Deflated(Box<[u8]>, usize),
}

impl Kept {
    fn of(html: &str) -> Kept {
        if html.len() >= DEFLATE_FROM_BYTES {
            let mut encoder =
                DeflateEncoder::new(Vec::with_capacity(html.len() / 3), Compression::fast());
            if encoder.write_all(html.as_bytes()).is_ok()
                && let Ok(deflated) = encoder.finish()
                && deflated.len() < html.len()
            {
                return Kept::Deflated(deflated.into_boxed_slice(), html.len());
            }
        }
        Kept::Plain(Arc::from(html))
    }

    fn bytes(&self) -> usize {
        match self {
            Kept::Plain(html) => html.len(),
            Kept::Deflated(bytes, _) => bytes.len(),
        }
    }

    /// The HTML; None when the kept bytes do not inflate (never for what
    /// [`Kept::of`] made).
    fn html(&self) -> Option<Arc<str>> {
        match self {
            Kept::Plain(html) => Some(html.clone()),
            Kept::Deflated(bytes, len) => {
                let mut html = String::with_capacity(*len);
                DeflateDecoder::new(&bytes[..])
                    .read_to_string(&mut html)
                    .ok()?;
                Some(Arc::from(html))
            }
        }
    }
}

/// Drawn fragments shared by the rendering threads, keyed by what they were
/// drawn from (the component's name and its props as JSON, hashed), bounded
/// in bytes. A key holds everything its markup depends on, so an entry never
/// goes stale: a changed car has a new key, and its old card ages out.
pub struct Fragments {
    cache: moka::sync::Cache<[u8; 16], Arc<Kept>>,
    capacity: u64,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// What the fragment store holds and how often it answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FragmentStats {
    pub entries: u64,
    pub bytes: u64,
    pub hits: u64,
    pub misses: u64,
}

impl Fragments {
    /// What an entry costs beyond its HTML (key, `Arc`, moka's node).
    const OVERHEAD: usize = 96;

    pub fn new(capacity_bytes: u64) -> Fragments {
        Fragments {
            cache: moka::sync::Cache::builder()
                .max_capacity(capacity_bytes)
                .weigher(|_, kept: &Arc<Kept>| {
                    u32::try_from(kept.bytes() + Self::OVERHEAD).unwrap_or(u32::MAX)
                })
                .build(),
            capacity: capacity_bytes,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn hash(key: &str) -> [u8; 16] {
        let digest = Sha256::digest(key.as_bytes());
        let mut out = [0; 16];
        out.copy_from_slice(&digest[..16]);
        out
    }

    pub fn get(&self, key: &str) -> Option<Arc<str>> {
        let found = self
            .cache
            .get(&Self::hash(key))
            .and_then(|kept| kept.html());
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    pub fn put(&self, key: &str, html: &str) {
        self.cache.insert(Self::hash(key), Arc::new(Kept::of(html)));
    }

    /// Keeps `html` for `key` as it is, not deflated: a page drawing it
    /// keeps it so until it is sent, then [`Fragments::put`]s it (deflating
    /// a grid of twenty cards is no work for the visitor to wait for).
    pub fn put_plain(&self, key: &str, html: Arc<str>) {
        self.cache
            .insert(Self::hash(key), Arc::new(Kept::Plain(html)));
    }

    /// Whether a fragment is kept for `key` (counted as no lookup).
    pub fn contains(&self, key: &str) -> bool {
        self.cache.contains_key(&Self::hash(key))
    }

    /// The store's bound in bytes.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Entries, their weight in bytes (after pending maintenance), lookups.
    pub fn stats(&self) -> FragmentStats {
        self.cache.run_pending_tasks();
        FragmentStats {
            entries: self.cache.entry_count(),
            bytes: self.cache.weighted_size(),
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fragment_comes_back_as_it_was_put_and_large_ones_are_kept_deflated() {
        let store = Fragments::new(1024 * 1024);
        let card = "<article class=\"car-card\">".repeat(100);
        store.put("card", &card);
        store.put("short", "<p>1 500 000 ₽</p>");
        assert_eq!(store.get("card").as_deref(), Some(card.as_str()));
        assert_eq!(store.get("short").as_deref(), Some("<p>1 500 000 ₽</p>"));
        assert_eq!(store.get("other"), None);
        let stats = store.stats();
        assert_eq!((stats.entries, stats.hits, stats.misses), (2, 2, 1));
        // Kept as it is first, deflated later: the same HTML either way.
        store.put_plain("grid", Arc::from(card.as_str()));
        assert_eq!(store.get("grid").as_deref(), Some(card.as_str()));
        store.put("grid", &card);
        assert_eq!(store.get("grid").as_deref(), Some(card.as_str()));
        store.cache.invalidate(&Fragments::hash("grid"));
        assert!(
            stats.bytes < (card.len() / 4) as u64,
            "{} bytes kept for {} of HTML",
            stats.bytes,
            card.len()
        );
    }
}
