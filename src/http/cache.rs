//! The answer cache of the public GET routes: each answer is kept in memory
//! with its gzip and brotli forms and an ETag, so a repeated request costs a
//! lookup (and a 304 when the browser already has it).
//!
//! Freshness follows the data, not the requests: triggers bump the one row
//! of `content_version` on every change to a table the public answers show,
//! whoever writes (this server, the CLI, a background job, sqlite3). Each
//! answer carries the version it was computed at; an older one is a miss.
//! The version is read on a dedicated read-only connection, and only when
//! `PRAGMA data_version` says another connection committed something.
//! The cache is bounded by bytes (moka, with TinyLFU admission, so a flood
//! of one-off query strings does not push out the pages people read).
//! See `docs/cache.md`.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rusqlite::{Connection, OpenFlags};
use sha2::{Digest, Sha256};
use tower_http::compression::Predicate;

/// Default bound of the whole cache: bodies, compressed forms and keys.
pub const DEFAULT_CAPACITY_BYTES: u64 = 32 * 1024 * 1024;
/// Answers with a larger body are served but not kept.
pub const MAX_ANSWER_BYTES: usize = 2 * 1024 * 1024;
/// Below this size compression saves nothing worth a header.
const MIN_COMPRESS_BYTES: usize = 256;
/// What an entry costs beyond its bytes (struct, headers, moka's node).
const ENTRY_OVERHEAD_BYTES: usize = 256;
const BROTLI_QUALITY: u32 = 5;
const BROTLI_WINDOW: u32 = 22;

/// One kept answer, in every encoding it is served in.
struct Answer {
    /// The content version it was computed at.
    version: i64,
    content_type: HeaderValue,
    etag: HeaderValue,
    identity: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
}

impl Answer {
    fn new(version: i64, content_type: HeaderValue, body: Bytes) -> Answer {
        let digest = Sha256::digest(&body);
        // Weak: the gzip and brotli forms are the same answer.
        let etag = HeaderValue::from_str(&format!("W/\"{}\"", hex::encode(&digest[..16])))
            .unwrap_or(HeaderValue::from_static("W/\"0\""));
        let (gzip, brotli) = if body.len() >= MIN_COMPRESS_BYTES {
            let smaller = |c: Option<Vec<u8>>| c.filter(|c| c.len() < body.len()).map(Bytes::from);
            (smaller(gzip(&body)), smaller(brotli(&body)))
        } else {
            (None, None)
        };
        Answer {
            version,
            content_type,
            etag,
            identity: body,
            gzip,
            brotli,
        }
    }

    /// The bytes this entry holds, for the cache's bound.
    fn weight(&self, key: &str) -> u32 {
        let bytes = key.len()
            + self.identity.len()
            + self.gzip.as_ref().map_or(0, Bytes::len)
            + self.brotli.as_ref().map_or(0, Bytes::len)
            + ENTRY_OVERHEAD_BYTES;
        u32::try_from(bytes).unwrap_or(u32::MAX)
    }

    fn reply(&self, request_headers: &HeaderMap) -> Response {
        let not_modified = request_headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .any(|tags| etag_matches(tags, &self.etag));
        let mut response = if not_modified {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let (body, encoding) = match preferred_encoding(request_headers) {
                Encoding::Brotli if self.brotli.is_some() => (self.brotli.clone(), Some("br")),
                Encoding::Brotli | Encoding::Gzip if self.gzip.is_some() => {
                    (self.gzip.clone(), Some("gzip"))
                }
                _ => (None, None),
            };
            let mut r = Response::new(Body::from(body.unwrap_or_else(|| self.identity.clone())));
            let headers = r.headers_mut();
            headers.insert(header::CONTENT_TYPE, self.content_type.clone());
            if let Some(encoding) = encoding {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            r
        };
        let headers = response.headers_mut();
        headers.insert(header::ETAG, self.etag.clone());
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        response.extensions_mut().insert(Encoded);
        response
    }
}

fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::default(),
    );
    encoder.write_all(body).ok()?;
    encoder.finish().ok()
}

fn brotli(body: &[u8]) -> Option<Vec<u8>> {
    let out = Vec::with_capacity(body.len() / 4);
    let mut encoder = brotli::CompressorWriter::new(out, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
    encoder.write_all(body).ok()?;
    // Finishes the stream.
    Some(encoder.into_inner())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

/// The best encoding the client accepts (highest q; brotli on a tie).
fn preferred_encoding(headers: &HeaderMap) -> Encoding {
    let (mut br, mut gz, mut any) = (None, None, None);
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .map(|q| q.trim().parse::<f32>().unwrap_or(0.0))
                .next()
                .unwrap_or(1.0);
            match name.as_str() {
                "br" => br = Some(q),
                "gzip" | "x-gzip" => gz = Some(q),
                "*" => any = Some(q),
                _ => {}
            }
        }
    }
    let br = br.or(any).unwrap_or(0.0);
    let gz = gz.or(any).unwrap_or(0.0);
    if br > 0.0 && br >= gz {
        Encoding::Brotli
    } else if gz > 0.0 {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

fn etag_matches(if_none_match: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(tags) = if_none_match.to_str() else {
        return false;
    };
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_string();
    let ours = opaque(etag.to_str().unwrap_or_default());
    tags.split(',')
        .any(|t| t.trim() == "*" || opaque(t) == ours)
}

/// Marks an answer the cache has already encoded.
#[derive(Debug, Clone, Copy)]
struct Encoded;

/// For `CompressionLayer::compress_when`: leaves the cache's answers alone
/// (they come in the best encoding the client accepts, or as they are when
/// compressing would not make them smaller).
#[derive(Debug, Clone, Copy, Default)]
pub struct NotFromCache;

impl Predicate for NotFromCache {
    fn should_compress<B: HttpBody>(&self, response: &axum::http::Response<B>) -> bool {
        response.extensions().get::<Encoded>().is_none()
    }
}

/// Reads the content version cheaply: `PRAGMA data_version` changes only
/// when another connection commits; only then is the row read again.
struct VersionReader {
    conn: Connection,
    data_version: Option<i64>,
    content_version: i64,
}

impl VersionReader {
    fn open(path: &Path) -> rusqlite::Result<VersionReader> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut reader = VersionReader {
            conn,
            data_version: None,
            content_version: 0,
        };
        reader.current()?;
        Ok(reader)
    }

    /// The current version, and whether it differs from the last one read.
    fn current(&mut self) -> rusqlite::Result<(i64, bool)> {
        let data_version: i64 = self
            .conn
            .prepare_cached("PRAGMA data_version")?
            .query_row([], |r| r.get(0))?;
        if self.data_version == Some(data_version) {
            return Ok((self.content_version, false));
        }
        let version: i64 = self
            .conn
            .prepare_cached("SELECT version FROM content_version WHERE id = 1")?
            .query_row([], |r| r.get(0))?;
        let changed = version != self.content_version;
        self.data_version = Some(data_version);
        self.content_version = version;
        Ok((version, changed))
    }
}

/// How the cache has answered so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Answered from memory.
    pub hits: u64,
    /// Computed by the handler (absent, or older than the data).
    pub misses: u64,
    /// Computed answers offered to the store (its admission policy may
    /// still turn one away when the cache is full).
    pub stored: u64,
}

pub struct AnswerCache {
    /// None when the version cannot be read: every request is computed.
    version: Option<Mutex<VersionReader>>,
    /// The last version read; only answers computed at it are kept.
    latest: AtomicI64,
    entries: moka::sync::Cache<String, Arc<Answer>>,
    hits: AtomicU64,
    misses: AtomicU64,
    stored: AtomicU64,
    failing: AtomicBool,
}

impl AnswerCache {
    /// A cache over the database file at `path`, holding at most
    /// `capacity_bytes`.
    pub fn open(path: &Path, capacity_bytes: u64) -> AnswerCache {
        let version = match VersionReader::open(path) {
            Ok(reader) => Some(reader),
            Err(err) => {
                tracing::warn!(
                    "answer cache off: cannot read the content version of {}: {err}",
                    path.display()
                );
                None
            }
        };
        let latest = version.as_ref().map_or(0, |v| v.content_version);
        AnswerCache {
            version: version.map(Mutex::new),
            latest: AtomicI64::new(latest),
            entries: moka::sync::Cache::builder()
                .max_capacity(capacity_bytes)
                .weigher(|key: &String, answer: &Arc<Answer>| answer.weight(key))
                .build(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            stored: AtomicU64::new(0),
            failing: AtomicBool::new(false),
        }
    }

    /// The content version now; None when it cannot be read.
    fn current_version(&self) -> Option<i64> {
        let reader = self.version.as_ref()?;
        let mut reader = reader.lock().unwrap_or_else(|e| e.into_inner());
        match reader.current() {
            Ok((version, changed)) => {
                if changed {
                    self.latest.store(version, Ordering::SeqCst);
                    // Older answers can never be served again: free them.
                    self.entries.invalidate_all();
                }
                if self.failing.load(Ordering::Relaxed) {
                    self.failing.store(false, Ordering::Relaxed);
                    tracing::info!("answer cache: content version readable again");
                }
                Some(version)
            }
            Err(err) => {
                if !self.failing.swap(true, Ordering::Relaxed) {
                    tracing::warn!("answer cache bypassed: cannot read the content version: {err}");
                }
                None
            }
        }
    }

    fn get(&self, key: &str, version: i64) -> Option<Arc<Answer>> {
        self.entries.get(key).filter(|a| a.version == version)
    }

    fn put(&self, key: String, answer: Arc<Answer>) {
        // A request has already seen a newer version: this answer could not
        // be served, and must not replace one that could. (An answer whose
        // version moved on unseen is kept, and missed by the next request.)
        if answer.version != self.latest.load(Ordering::SeqCst) {
            return;
        }
        self.entries.insert(key, answer);
        self.stored.fetch_add(1, Ordering::Relaxed);
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            stored: self.stored.load(Ordering::Relaxed),
        }
    }

    /// Bytes held now (after moka's pending bookkeeping).
    pub fn weighted_size(&self) -> u64 {
        self.entries.run_pending_tasks();
        self.entries.weighted_size()
    }

    /// Answers held now (after moka's pending bookkeeping).
    pub fn entry_count(&self) -> u64 {
        self.entries.run_pending_tasks();
        self.entries.entry_count()
    }
}

/// Middleware for the public GET routes: answer from memory or keep the
/// answer. Every public route answers the same for everyone, so neither the
/// key nor the answer depends on who asks.
pub async fn cached(
    State(cache): State<Arc<AnswerCache>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::GET {
        return next.run(request).await;
    }
    // Read before computing: a write during the computation makes the
    // answer older than the version, so it is not kept.
    let Some(version) = cache.current_version() else {
        return next.run(request).await;
    };
    let key = request.uri().path_and_query().map_or_else(
        || request.uri().path().to_string(),
        |p| p.as_str().to_string(),
    );
    if let Some(answer) = cache.get(&key, version) {
        cache.hits.fetch_add(1, Ordering::Relaxed);
        return answer.reply(request.headers());
    }
    cache.misses.fetch_add(1, Ordering::Relaxed);
    let request_headers = request.headers().clone();
    let response = next.run(request).await;
    if response.status() != StatusCode::OK
        || response.headers().contains_key(header::CONTENT_ENCODING)
        || response
            .body()
            .size_hint()
            .upper()
            .is_none_or(|n| n > MAX_ANSWER_BYTES as u64)
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(body) = axum::body::to_bytes(body, MAX_ANSWER_BYTES).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .cloned()
        .unwrap_or(HeaderValue::from_static("application/json"));
    let answer =
        match tokio::task::spawn_blocking(move || Answer::new(version, content_type, body)).await {
            Ok(answer) => Arc::new(answer),
            Err(_) => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        };
    cache.put(key, answer.clone());
    answer.reply(&request_headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        h
    }

    #[test]
    fn picks_the_encoding_by_accept_encoding() {
        assert_eq!(preferred_encoding(&HeaderMap::new()), Encoding::Identity);
        assert_eq!(
            preferred_encoding(&accept("gzip, deflate, br, zstd")),
            Encoding::Brotli
        );
        assert_eq!(preferred_encoding(&accept("gzip")), Encoding::Gzip);
        assert_eq!(
            preferred_encoding(&accept("br;q=0.5, gzip;q=0.8")),
            Encoding::Gzip
        );
        assert_eq!(
            preferred_encoding(&accept("br;q=0, gzip;q=0")),
            Encoding::Identity
        );
        assert_eq!(preferred_encoding(&accept("*")), Encoding::Brotli);
        assert_eq!(preferred_encoding(&accept("br;q=0, *")), Encoding::Gzip);
        assert_eq!(preferred_encoding(&accept("identity")), Encoding::Identity);
    }

    #[test]
    fn etags_match_weak_and_strong_forms() {
        let ours = HeaderValue::from_static("W/\"abc\"");
        for sent in ["W/\"abc\"", "\"abc\"", "\"x\", W/\"abc\"", "*"] {
            assert!(
                etag_matches(&HeaderValue::from_str(sent).unwrap(), &ours),
                "{sent}"
            );
        }
        assert!(!etag_matches(&HeaderValue::from_static("\"abd\""), &ours));
    }

    #[test]
    fn the_etag_follows_the_body_only() {
        let body = Bytes::from(vec![b'a'; 1000]);
        let json = HeaderValue::from_static("application/json");
        let a = Answer::new(1, json.clone(), body.clone());
        let b = Answer::new(7, json.clone(), body);
        assert_eq!(a.etag, b.etag);
        assert_ne!(
            a.etag,
            Answer::new(1, json, Bytes::from_static(b"other")).etag
        );
        assert!(a.gzip.as_ref().unwrap().len() < 100);
        assert!(a.brotli.as_ref().unwrap().len() < 100);
        assert!(a.weight("/k") as usize > 1000);
    }
}
