//! Admin view of the saved searches: how many people follow each filter,
//! and who (personal data: staff only). Rules in docs/saved-searches.md.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::saved_searches::{self, AdminSavedSearch};
use crate::error::AppResult;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_saved_searches))
}

/// Every followed filter (at least one confirmed or pending subscriber),
/// most followers first, with its subscribers' addresses.
#[utoipa::path(get, path = "/api/admin/saved-searches", tag = "admin",
    responses((status = 200, body = [AdminSavedSearch]),
        (status = 401, body = ApiErrorBody, description = "Not logged in")))]
pub async fn list_saved_searches(
    State(state): State<AppState>,
) -> AppResult<Json<Vec<AdminSavedSearch>>> {
    Ok(Json(
        state.db.call(|c| saved_searches::admin_list(c)).await?,
    ))
}
