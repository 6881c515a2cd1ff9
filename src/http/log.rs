//! One log line per request: method, matched route, status and the time to
//! the answer's head, e.g. `POST /api/leads 201 3.2ms`. The route is the
//! pattern (`/api/cars/{id}`), never the path or query a visitor sent, and
//! no header or body is logged: a line carries no personal data.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// Where the lines go (`RUST_LOG=dealership::http=warn` silences them).
pub const TARGET: &str = "dealership::http";

/// The middleware; added with `Router::layer`, it runs after routing, so
/// the matched route is known (`-` when none matched).
pub async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let route = request.extensions().get::<MatchedPath>().cloned();
    let logged = request.extensions().get::<Unlogged>().is_none();
    let started = Instant::now();
    let response = next.run(request).await;
    if logged {
        line(&method, route.as_ref(), response.status(), started);
    }
    response
}

/// Marks a request the server makes of itself (a page drawn ahead,
/// `pages_ahead`): the log's lines are the visitors' requests.
#[derive(Debug, Clone, Copy)]
pub struct Unlogged;

/// Writes the line of one request answered with `status`, begun at `started`.
pub fn line(method: &Method, route: Option<&MatchedPath>, status: StatusCode, started: Instant) {
    // Tenths of a millisecond, in whole numbers: cheaper than a float.
    let tenths = started.elapsed().as_micros() / 100;
    tracing::info!(
        target: TARGET,
        "{method} {} {} {}.{}ms",
        route.map_or("-", MatchedPath::as_str),
        status.as_u16(),
        tenths / 10,
        tenths % 10
    );
}
