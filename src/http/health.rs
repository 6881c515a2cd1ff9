//! `GET /healthz`: 200 while the database answers a query, 503 otherwise;
//! never cached. For monitors and the proxy in front. Either way the body
//! says how many log lines were lost (`logLinesLost`: writes that failed, a
//! full queue; `crate::logging`).

use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use super::state::AppState;

/// How long the database may take to answer before the site counts as down.
const DATABASE_WAIT: Duration = Duration::from_secs(2);

pub const DATABASE_DOWN: &str = "База данных недоступна";

pub fn routes() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz))
}

async fn healthz(State(state): State<AppState>) -> Response {
    let probe = state.db.read(|c| {
        let version: Option<i64> = c.query_row(
            "SELECT max(version) FROM refinery_schema_history",
            [],
            |r| r.get(0),
        )?;
        Ok(version)
    });
    let (status, body) = match tokio::time::timeout(DATABASE_WAIT, probe).await {
        Ok(Ok(Some(_))) => (StatusCode::OK, json!({"status": "ok"})),
        Ok(Ok(None)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"error": DATABASE_DOWN}),
        ),
        Ok(Err(err)) => {
            tracing::error!("health check: the database failed: {err}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                json!({"error": DATABASE_DOWN}),
            )
        }
        Err(_) => {
            tracing::error!("health check: the database did not answer within {DATABASE_WAIT:?}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                json!({"error": DATABASE_DOWN}),
            )
        }
    };
    let mut body = body;
    body["logLinesLost"] = json!(crate::logging::lost_lines());
    (
        status,
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        axum::Json(body),
    )
        .into_response()
}
