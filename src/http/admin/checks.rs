//! The self-checks' admin call (`docs/self-checks.md`): what would embarrass
//! the dealer or get them fined, each with the page that fixes it.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::checks::ChecksReport;
use crate::error::AppResult;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(self_checks))
}

/// The problems the self-checks find now, errors first. The result is kept
/// until the content changes or the Moscow date does; `checkedAt` says when
/// it was computed. Replication's problems (`replication_failing`) come
/// first, from its last look (every 30 s).
#[utoipa::path(get, path = "/api/admin/checks", tag = "admin",
    responses((status = 200, body = ChecksReport), (status = 401, body = ApiErrorBody)))]
pub async fn self_checks(State(state): State<AppState>) -> AppResult<Json<ChecksReport>> {
    let report = state.checks.current(&state.db, &state.clock).await?;
    Ok(Json(crate::domain::checks::with_replication(
        &report,
        state.replica.last().as_ref(),
    )))
}
