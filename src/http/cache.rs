//! The answer cache of the public GET routes: each answer is kept in memory
//! with its gzip and brotli forms and an ETag, so a repeated request costs a
//! lookup (and a 304 when the browser already has it).
//!
//! Freshness follows the data, not the requests: triggers bump the one row
//! of `content_version` on every change to a table the public answers show,
//! whoever writes (this server, the CLI, a background job, sqlite3). Each
//! answer carries the version it was computed at; an older one is a miss.
//! The version is read on a dedicated read-only connection, and only when
//! one of this process's connections has committed since the last read
//! (`crate::db::commits`), or once per [`OTHER_WRITERS_SEEN_WITHIN`] for
//! the writes of other processes; even then only when `PRAGMA
//! data_version` says some connection committed something. A cached answer
//! touches no SQLite and no lock.
//! An answer also carries the Moscow date it was computed on and is not
//! served on another day, so what depends on the date (credit programmes
//! valid today) changes at midnight by itself.
//! The cache is bounded by bytes (moka, with TinyLFU admission, so a flood
//! of one-off query strings does not push out the pages people read).
//! See `docs/cache.md`.
//!
//! An answer computed here takes its bytes from the process's memory budget
//! (`render::BUDGET`) while it is built and sent: what a route's last answer
//! cost is taken before its handler runs, and the answer's own size after;
//! when either does not fit the visitor gets a 503 with `Retry-After`.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Bytes, HttpBody};
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rusqlite::{Connection, OpenFlags};
use tower_http::compression::Predicate;

use chrono::Datelike;

use crate::clock::Clock;
use crate::http::answer_key::too_long;
pub use crate::http::answer_key::{MAX_URI_BYTES, URI_TOO_LONG, key_for, key_of};
use crate::http::held::render::{BUDGET, Held, MemoryBudget};
pub(crate) use crate::http::kept_answer::gzip;
use crate::http::kept_answer::{Answer, Encoded};
use crate::http::kept_styles;
use crate::http::negotiation::preferred_encoding;
use crate::http::spliced::BrotliForm;

/// The writes of another process (`sqlite3`, the command line) are seen
/// within this; this process's own at once.
pub const OTHER_WRITERS_SEEN_WITHIN: Duration = Duration::from_millis(100);

/// Default bound of the whole cache: bodies, compressed forms and keys.
/// 8 MB: a flood of one-off list URLs fills it, and moka evicts behind its
/// inserts, so at 16 MB the benchmark's uncached lists took the server's
/// peak to 85 MB (`docs/cache.md`, "Bounds").
pub const DEFAULT_CAPACITY_BYTES: u64 = 8 * 1024 * 1024;
/// Answers with a larger body are served but not kept.
pub const MAX_ANSWER_BYTES: usize = 2 * 1024 * 1024;
/// Taken from the memory budget before an answer of a route not seen yet
/// is built: what the largest answer the cache keeps costs to build. A
/// page a visitor opens asks for several routes at once, and a site just
/// started has seen none: a share of the budget as large as a quarter
/// answered the fifth of them 503. Answers are bounded by design (a list
/// carries cards, a car page its limits: `docs/catalogue.md`), and a
/// route's first answer sets what its next ones take.
const BUILD_UNKNOWN_BYTES: usize = MAX_ANSWER_BYTES * BUILD_BYTES_PER_ANSWER_BYTE;
/// Taken before a known route's answer is built, per byte its last answer
/// had: the rows, the values they are encoded from and the encoded body.
const BUILD_BYTES_PER_ANSWER_BYTE: usize = 3;
/// Taken at least before any answer is built.
const BUILD_MIN_BYTES: usize = 32 * 1024;
/// Seconds a visitor is asked to wait when the budget is taken.
pub const BUSY_RETRY_AFTER_SECONDS: u32 = 2;
/// The text of that 503.
pub const BUSY: &str = "Сайт сейчас перегружен, повторите через пару секунд";

/// The content version the cache read before a public GET was computed,
/// put in the request's extensions for handlers that keep their own
/// in-memory data by version (the catalogue in memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentVersion(pub i64);

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
        let version = crate::db::content_version(&self.conn)?;
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
    /// This process's commits when `latest` was read, and when (in
    /// milliseconds since `opened`): while neither moved on, `latest` is
    /// the version.
    read_at_commits: AtomicU64,
    read_at_ms: AtomicU64,
    opened: Instant,
    entries: moka::sync::Cache<String, Arc<Answer>>,
    hits: AtomicU64,
    misses: AtomicU64,
    stored: AtomicU64,
    failing: AtomicBool,
    /// The size of each route's last answer (by route, so a handful), for
    /// what building its next one takes from the memory budget.
    sizes: Mutex<std::collections::HashMap<String, usize>>,
    /// Visitors answered 503 because the memory budget was taken.
    refused: AtomicU64,
    /// Gives the Moscow date of each answer.
    clock: Arc<Clock>,
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
            // Nothing read yet: the first request reads.
            read_at_commits: AtomicU64::new(u64::MAX),
            read_at_ms: AtomicU64::new(0),
            opened: Instant::now(),
            entries: moka::sync::Cache::builder()
                .max_capacity(capacity_bytes)
                .weigher(|key: &String, answer: &Arc<Answer>| answer.weight(key))
                .build(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            stored: AtomicU64::new(0),
            failing: AtomicBool::new(false),
            sizes: Mutex::default(),
            refused: AtomicU64::new(0),
            clock: Arc::default(),
        }
    }

    /// The cache reading the date from `clock` (the server's, shared with
    /// the handlers).
    pub fn with_clock(mut self, clock: Arc<Clock>) -> AnswerCache {
        self.clock = clock;
        self
    }

    /// Today's Moscow date as a number.
    fn today(&self) -> i32 {
        self.clock.moscow_today().num_days_from_ce()
    }

    /// The content version now; None when it cannot be read.
    /// The content version now, as a request about to be answered reads it
    /// (a page reading the catalogue in memory at it).
    pub fn version_now(&self) -> Option<i64> {
        self.current_version()
    }

    fn current_version(&self) -> Option<i64> {
        let reader = self.version.as_ref()?;
        // Loaded before reading: a commit after this is seen next time.
        let commits = crate::db::commits();
        let now = self.opened.elapsed().as_millis() as u64;
        let other_writers = OTHER_WRITERS_SEEN_WITHIN.as_millis() as u64;
        if commits == self.read_at_commits.load(Ordering::Acquire)
            && now.saturating_sub(self.read_at_ms.load(Ordering::Acquire)) < other_writers
        {
            return Some(self.latest.load(Ordering::SeqCst));
        }
        let mut reader = reader.lock().unwrap_or_else(|e| e.into_inner());
        match reader.current() {
            Ok((version, changed)) => {
                if changed {
                    self.latest.store(version, Ordering::SeqCst);
                    // Older answers can never be served again: free them.
                    self.entries.invalidate_all();
                }
                // After `latest`: whoever sees these sees the version too.
                self.read_at_ms.store(now, Ordering::Release);
                self.read_at_commits.store(commits, Ordering::Release);
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

    /// The form of a page `answer` (kept at `key`) for a browser that keeps
    /// the stylesheets `kept` names: the page with them linked, kept beside
    /// it, when it keeps every sheet the page has inline; otherwise the
    /// answer itself (and the key it is kept at). True when the form is
    /// new (not kept yet).
    fn for_kept(
        &self,
        key: String,
        answer: Arc<Answer>,
        kept: Option<&[String]>,
    ) -> (String, Arc<Answer>, bool) {
        let Some(kept) = kept else {
            return (key, answer, false);
        };
        if !answer.content_type.as_bytes().starts_with(b"text/html") {
            return (key, answer, false);
        }
        let linked_key = linked_key(&key, kept);
        if let Some(linked) = self.get(&linked_key, answer.version, answer.day) {
            return (linked_key, linked, false);
        }
        let Some(body) = kept_styles::linked(&answer.identity, kept) else {
            return (key, answer, false);
        };
        let linked = Answer::new(
            answer.version,
            answer.day,
            answer.content_type.clone(),
            answer.route.clone(),
            Bytes::from(body),
        );
        (linked_key, Arc::new(linked), true)
    }

    fn get(&self, key: &str, version: i64, day: i32) -> Option<Arc<Answer>> {
        self.entries
            .get(key)
            .filter(|a| a.version == version && a.day == day)
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

    /// Visitors answered 503 because the memory budget was taken.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// What building an answer of `route` takes from the budget before it
    /// runs: its last answer's size times [`BUILD_BYTES_PER_ANSWER_BYTE`],
    /// or [`BUILD_UNKNOWN_BYTES`] for a route not seen.
    fn build_cost(&self, budget: &MemoryBudget, route: Option<&str>) -> usize {
        let last = route.and_then(|r| {
            let sizes = self.sizes.lock().unwrap_or_else(|e| e.into_inner());
            sizes.get(r).copied()
        });
        match last {
            Some(bytes) => (bytes * BUILD_BYTES_PER_ANSWER_BYTE).max(BUILD_MIN_BYTES),
            None => BUILD_UNKNOWN_BYTES.min(budget.total_bytes()),
        }
    }

    /// Notes the size of `route`'s answer; a smaller one lowers what is
    /// expected by half the difference, so a route that made a large answer
    /// stays expensive for a few answers more.
    fn learn(&self, route: Option<&str>, bytes: usize) {
        let Some(route) = route else { return };
        let mut sizes = self.sizes.lock().unwrap_or_else(|e| e.into_inner());
        let entry = sizes.entry(route.to_string()).or_insert(bytes);
        *entry = if bytes >= *entry {
            bytes
        } else {
            bytes + (*entry - bytes) / 2
        };
    }

    fn busy(&self) -> Response {
        self.refused.fetch_add(1, Ordering::Relaxed);
        busy()
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

/// Where a page's form linking the stylesheets `kept` names is kept.
fn linked_key(key: &str, kept: &[String]) -> String {
    format!("{key}\u{0}{}={}", kept_styles::COOKIE, kept.join("."))
}

/// Makes the form a client prefers when it is not there yet (on the
/// blocking pool: brotli is CPU work); true when the answer grew.
async fn prepare(answer: &Arc<Answer>, headers: &HeaderMap) -> bool {
    if answer.not_modified(headers) {
        return false;
    }
    let encoding = preferred_encoding(headers);
    if answer.ready(encoding) {
        return false;
    }
    let answer = answer.clone();
    tokio::task::spawn_blocking(move || answer.prepare(encoding))
        .await
        .unwrap_or(false)
}

/// Middleware for the public GET routes: answer from memory or keep the
/// answer. Every public route answers the same for everyone, so neither the
/// key nor the answer depends on who asks.
pub async fn cached(
    State(cache): State<Arc<AnswerCache>>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(refused) = too_long(request.uri()) {
        return refused;
    }
    if request.method() != Method::GET {
        return next.run(request).await;
    }
    // Read before computing: a write during the computation makes the
    // answer older than the version, so it is not kept.
    let Some(version) = cache.current_version() else {
        return next.run(request).await;
    };
    let day = cache.today();
    let key = key_for(request.uri(), request.headers());
    let kept = kept_styles::kept(request.headers());
    if let Some(answer) = cache.get(&key, version, day) {
        cache.hits.fetch_add(1, Ordering::Relaxed);
        let (key, answer, new) = cache.for_kept(key, answer, kept.as_deref());
        if prepare(&answer, request.headers()).await || new {
            // A new form: weigh the entry again.
            cache.put(key, answer.clone());
        }
        return answer.reply(request.headers());
    }
    cache.misses.fetch_add(1, Ordering::Relaxed);
    request.extensions_mut().insert(ContentVersion(version));
    let request_headers = request.headers().clone();
    let route = request.extensions().get::<MatchedPath>().cloned();
    let budget: &MemoryBudget = &BUDGET;
    let Some(mut held) =
        budget.take(cache.build_cost(budget, route.as_ref().map(MatchedPath::as_str)))
    else {
        tracing::warn!(
            "{}: the memory budget is taken ({} of {} MB); answered 503",
            request.uri().path(),
            budget.in_use_bytes() >> 20,
            budget.total_bytes() >> 20
        );
        return cache.busy();
    };
    let response = next.run(request).await;
    let size = response.body().size_hint().upper();
    if let Some(size) = size {
        cache.learn(
            route.as_ref().map(MatchedPath::as_str),
            usize::try_from(size).unwrap_or(usize::MAX),
        );
    }
    if response.status() != StatusCode::OK
        || response.headers().contains_key(header::CONTENT_ENCODING)
        || size.is_none_or(|n| n > MAX_ANSWER_BYTES as u64)
    {
        // Not kept: its body holds the budget until it is sent.
        return hold_body(&cache, budget, held, size, response);
    }
    let (parts, body) = response.into_parts();
    let brotli = parts.extensions.get::<BrotliForm>().cloned();
    let Ok(body) = axum::body::to_bytes(body, MAX_ANSWER_BYTES).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .cloned()
        .unwrap_or(HeaderValue::from_static("application/json"));
    // Only the form this client asks for is made now; the others when a
    // client asks for them. A one-off URL read by a client that takes the
    // plain body (a script, a benchmark) costs no compression at all.
    // Kept in an allocation of its exact size: the handler's buffer may be
    // much larger than its bytes (a list's room for 100 cars holding `[]`),
    // and the cache's bound counts bytes, not capacity.
    let body = Bytes::copy_from_slice(&body);
    let size = body.len();
    let answer = Arc::new(Answer::new(version, day, content_type, route, body));
    if let Some(BrotliForm(brotli)) = brotli {
        answer.keep_brotli(brotli);
    }
    // A browser keeping the page's stylesheets gets the page linking them;
    // both forms are kept.
    let (sent_key, sent, _) = cache.for_kept(key.clone(), answer.clone(), kept.as_deref());
    prepare(&sent, &request_headers).await;
    if sent_key != key {
        cache.put(key, answer);
    }
    cache.put(sent_key, sent.clone());
    let reply = sent.reply(&request_headers);
    drop(sent);
    // Until sent the reply holds its bytes (the cache may turn it away).
    let _ = budget.fit(&mut held, size);
    reply.map(|body| held.with_body(body))
}

/// `response` with its body holding `size` bytes of the budget until it is
/// sent; a 503 when they do not fit.
fn hold_body(
    cache: &AnswerCache,
    budget: &MemoryBudget,
    mut held: Held,
    size: Option<u64>,
    response: Response,
) -> Response {
    let size = size.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
    if !budget.fit(&mut held, size) {
        tracing::warn!(
            "an answer of {} KB does not fit in the memory budget ({} of {} MB taken); answered 503",
            size >> 10,
            budget.in_use_bytes() >> 20,
            budget.total_bytes() >> 20
        );
        return cache.busy();
    }
    response.map(|body| held.with_body(body))
}

/// 503 with `Retry-After`: the memory budget is taken.
pub fn busy() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(
            header::RETRY_AFTER,
            HeaderValue::from(BUSY_RETRY_AFTER_SECONDS),
        )],
        axum::Json(serde_json::json!({"error": BUSY})),
    )
        .into_response()
}

impl AnswerCache {
    /// The kept answer to `request` when one is ready to go as it is: a GET
    /// whose key holds an answer of the current version and day, in the
    /// form the client prefers. Only [`cached`] keeps answers, and only on
    /// the routes it is a layer of after they answered 200, so a key found
    /// here was routed there before; the site serves it without routing it
    /// again (`router::Site`). Anything else, a form still to be made
    /// included, is `None` and goes the usual way. Gives the answer and the
    /// route that made it, for the log line.
    pub fn answer_before_routing<B>(
        &self,
        request: &axum::http::Request<B>,
    ) -> Option<(Response, Option<MatchedPath>)> {
        if request.method() != Method::GET
            || request
                .uri()
                .path_and_query()
                .is_none_or(|p| p.as_str().len() > MAX_URI_BYTES)
        {
            return None;
        }
        let version = self.current_version()?;
        let key = key_for(request.uri(), request.headers());
        let mut answer = self.get(&key, version, self.today())?;
        let headers = request.headers();
        if answer.content_type.as_bytes().starts_with(b"text/html")
            && let Some(kept) = kept_styles::kept(headers)
        {
            // The page's linked form, when it is made (else [`cached`] makes it).
            answer = self.get(&linked_key(&key, &kept), version, self.today())?;
        }
        if !answer.not_modified(headers) && !answer.ready(preferred_encoding(headers)) {
            return None;
        }
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some((answer.reply(headers), answer.route.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::negotiation::Encoding;
    use crate::http::negotiation::accept;
    use axum::body::Body;

    #[test]
    fn small_or_incompressible_bodies_keep_no_forms() {
        let json = HeaderValue::from_static("application/json");
        let small = Answer::new(
            1,
            1,
            json.clone(),
            None,
            Bytes::from_static(b"{\"count\":12}"),
        );
        small.prepare(Encoding::Brotli);
        assert!(small.ready(Encoding::Brotli) && small.ready(Encoding::Gzip));
        assert!(Answer::kept(&small.brotli).is_none() && Answer::kept(&small.gzip).is_none());
        let reply = small.reply(&accept("br, gzip"));
        assert!(!reply.headers().contains_key(header::CONTENT_ENCODING));
    }

    #[tokio::test]
    async fn an_answer_the_budget_cannot_hold_is_a_503_with_retry_after() {
        let dir = tempfile::tempdir().unwrap();
        let cache = AnswerCache::open(&dir.path().join("none.db"), 1 << 20);
        let budget = MemoryBudget::new(1024 * 1024);
        let answer = |bytes: usize| Response::new(Body::from(vec![b'x'; bytes]));
        let held = budget.take(64 * 1024).unwrap();
        // 2 MB do not fit in 1 MB.
        let refused = hold_body(&cache, &budget, held, Some(2 << 20), answer(2 << 20));
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            refused.headers()[header::RETRY_AFTER],
            BUSY_RETRY_AFTER_SECONDS.to_string()
        );
        let text = axum::body::to_bytes(refused.into_body(), 4096)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&text).contains(BUSY));
        assert_eq!(cache.refused(), 1);
        assert_eq!(
            budget.in_use_bytes(),
            0,
            "the refused answer gave its bytes back"
        );
        // 512 KB fit, and stay taken until the body is sent.
        let held = budget.take(64 * 1024).unwrap();
        let sent = hold_body(&cache, &budget, held, Some(512 << 10), answer(512 << 10));
        assert_eq!(sent.status(), StatusCode::OK);
        assert_eq!(budget.in_use_bytes(), 512 << 10);
        let body = axum::body::to_bytes(sent.into_body(), usize::MAX)
            .await
            .unwrap();
        assert_eq!(body.len(), 512 << 10);
        assert_eq!(budget.in_use_bytes(), 0);
    }

    #[test]
    fn a_routes_last_answer_sets_what_its_next_takes() {
        let dir = tempfile::tempdir().unwrap();
        let cache = AnswerCache::open(&dir.path().join("none.db"), 1 << 20);
        let budget = MemoryBudget::new(64 << 20);
        let route = Some("/car/{slug}");
        // Not seen: what the largest kept answer costs.
        assert_eq!(cache.build_cost(&budget, route), 6 << 20);
        cache.learn(route, 10 << 20);
        assert_eq!(cache.build_cost(&budget, route), 30 << 20);
        // A smaller answer lowers it by half the difference.
        cache.learn(route, 0);
        assert_eq!(cache.build_cost(&budget, route), 15 << 20);
        for _ in 0..30 {
            cache.learn(route, 0);
        }
        assert_eq!(cache.build_cost(&budget, route), BUILD_MIN_BYTES);
        // Routes are apart.
        assert_eq!(cache.build_cost(&budget, Some("/")), 6 << 20);
    }

    #[test]
    fn the_etag_follows_the_body_only() {
        let body = Bytes::from(vec![b'a'; 1000]);
        let json = HeaderValue::from_static("application/json");
        let a = Answer::new(1, 1, json.clone(), None, body.clone());
        let b = Answer::new(7, 1, json.clone(), None, body);
        assert_eq!(a.etag, b.etag);
        assert_ne!(
            a.etag,
            Answer::new(1, 1, json, None, Bytes::from_static(b"other")).etag
        );
        // The compressed forms are made when a client first asks for them.
        let plain = a.weight("/k");
        assert!(a.gzip.get().is_none() && a.brotli.get().is_none());
        assert!(a.prepare(Encoding::Gzip));
        assert!(a.prepare(Encoding::Brotli));
        assert!(!a.prepare(Encoding::Brotli), "made once");
        assert!(Answer::kept(&a.gzip).unwrap().len() < 100);
        assert!(Answer::kept(&a.brotli).unwrap().len() < 100);
        assert!(a.weight("/k") as usize > 1000);
        assert!(a.weight("/k") > plain, "the forms are weighed");
    }
}
