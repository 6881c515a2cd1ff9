//! Admin view of the saved searches: how many people follow each filter,
//! and who (personal data: staff only), and the mails the caps on
//! visitor-triggered mail held. Rules in docs/saved-searches.md.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::mail_cap::{self, VisitorMailFigures};
use crate::domain::saved_searches::{self, AdminSavedSearch};
use crate::domain::settings;
use crate::error::AppResult;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_saved_searches))
        .routes(routes!(visitor_mails))
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

/// The mails visitors triggered in the last 24 hours (saved searches'
/// confirmations): queued, and held by the caps (3 per address, the
/// settings' total for the site), with the caps.
#[utoipa::path(get, path = "/api/admin/visitor-mails", tag = "admin",
    responses((status = 200, body = VisitorMailFigures),
        (status = 401, body = ApiErrorBody, description = "Not logged in")))]
pub async fn visitor_mails(State(state): State<AppState>) -> AppResult<Json<VisitorMailFigures>> {
    let now = state.clock.now();
    Ok(Json(
        state
            .db
            .call(move |c| {
                let limit = settings::get(c)?.visitor_mail_daily_limit;
                mail_cap::figures(c, limit, now)
            })
            .await?,
    ))
}
