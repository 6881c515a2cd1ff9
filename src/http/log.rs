//! One log line per request: method, matched route, status and the time to
//! the answer's head, e.g. `POST /api/leads 201 3.2ms`. The route is the
//! pattern (`/api/cars/{id}`), never the path or query a visitor sent, and
//! no header or body is logged: a line carries no personal data.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;

/// Where the lines go (`RUST_LOG=dealership::http=warn` silences them).
pub const TARGET: &str = "dealership::http";

/// The middleware; added with `Router::layer`, it runs after routing, so
/// the matched route is known (`-` when none matched).
pub async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned());
    let started = Instant::now();
    let response = next.run(request).await;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(
        target: TARGET,
        "{method} {} {} {ms:.1}ms",
        route.as_deref().unwrap_or("-"),
        response.status().as_u16()
    );
    response
}
