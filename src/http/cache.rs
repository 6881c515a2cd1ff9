//! Public GET answers kept in memory with their ETag, so a repeated request
//! costs a hash lookup (and a 304 when the browser has it). Every successful
//! write drops the whole cache: the catalogue is small and writes are rare.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::state::AppState;

/// Entries beyond this many are not kept (query strings are the visitor's).
const MAX_ENTRIES: usize = 4096;
/// Answers larger than this are not kept.
const MAX_BODY: usize = 2 * 1024 * 1024;

#[derive(Clone)]
struct Answer {
    body: Bytes,
    content_type: HeaderValue,
    etag: HeaderValue,
}

pub struct AnswerCache {
    generation: AtomicU64,
    entries: RwLock<HashMap<String, Answer>>,
}

impl Default for AnswerCache {
    fn default() -> Self {
        Self::new()
    }
}

impl AnswerCache {
    pub fn new() -> AnswerCache {
        AnswerCache {
            generation: AtomicU64::new(1),
            entries: RwLock::new(HashMap::new()),
        }
    }

    /// Drops every kept answer.
    pub fn clear(&self) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        self.generation.fetch_add(1, Ordering::SeqCst);
        entries.clear();
    }

    fn get(&self, key: &str) -> Option<Answer> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        entries.get(key).cloned()
    }

    fn put(&self, key: String, answer: Answer, generation: u64) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        // A write since the answer was computed makes it stale.
        if self.generation.load(Ordering::SeqCst) != generation {
            return;
        }
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, answer);
    }

    pub fn len(&self) -> usize {
        self.entries.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn reply(answer: Answer, request_headers: &HeaderMap) -> Response {
    let not_modified = request_headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|tags| etag_matches(tags, &answer.etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(Body::from(answer.body));
        r.headers_mut()
            .insert(header::CONTENT_TYPE, answer.content_type);
        r
    };
    let headers = response.headers_mut();
    headers.insert(header::ETAG, answer.etag);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn etag_matches(if_none_match: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(tags) = if_none_match.to_str() else {
        return false;
    };
    let etag = etag.as_bytes();
    tags.split(',').any(|t| {
        let t = t.trim();
        t == "*" || t.trim_start_matches("W/").as_bytes() == etag
    })
}

/// Middleware for public GET routes: answer from memory or keep the answer.
pub async fn cached(State(state): State<AppState>, request: Request, next: Next) -> Response {
    // Admins may see more than the public: their answers are never kept.
    if request.method() != Method::GET || super::auth::has_credentials(request.headers()) {
        return next.run(request).await;
    }
    let key = request
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    let cache = &state.answers;
    if let Some(answer) = cache.get(&key) {
        return reply(answer, request.headers());
    }
    let generation = cache.generation.load(Ordering::SeqCst);
    let request_headers = request.headers().clone();
    let response = next.run(request).await;
    if response.status() != StatusCode::OK {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .cloned()
        .unwrap_or(HeaderValue::from_static("application/json"));
    let mut hasher = DefaultHasher::new();
    body.hash(&mut hasher);
    let etag = HeaderValue::from_str(&format!("\"{:x}-{:016x}\"", generation, hasher.finish()))
        .unwrap_or(HeaderValue::from_static("\"0\""));
    let answer = Answer {
        body,
        content_type,
        etag,
    };
    cache.put(key, answer.clone(), generation);
    let mut response = reply(answer, &request_headers);
    for (name, value) in parts.headers.iter() {
        if !response.headers().contains_key(name) {
            response.headers_mut().insert(name.clone(), value.clone());
        }
    }
    response
}

/// Middleware for every route: a successful write drops the cache. A new
/// lead changes nothing public, so it keeps the cache.
pub async fn drop_on_write(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let is_write = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
    let is_lead = request.uri().path() == "/api/leads";
    let response = next.run(request).await;
    if is_write
        && !is_lead
        && (response.status().is_success() || response.status().is_redirection())
    {
        state.answers.clear();
    }
    response
}
