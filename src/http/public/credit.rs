//! GET /api/credit-programs: the credit programmes valid today.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::credit_programs::{self, PublicCreditPrograms};
use crate::error::AppResult;
use crate::http::state::AppState;

/// A cached public read; the cache keeps it for the Moscow day it was
/// computed on only (`docs/cache.md`).
pub fn routes() -> OpenApiRouter<AppState> {
    super::only_declared_params(OpenApiRouter::new().routes(routes!(credit_programs)))
}

/// Programmes valid today (Moscow date): active, of a shown partner bank,
/// `validFrom ≤ today ≤ validTo`, cheapest rate first, with the ranges over
/// all of them (`summary`, null when there are none).
#[utoipa::path(get, path = "/api/credit-programs", tag = "banks",
    responses((status = 200, body = PublicCreditPrograms)))]
pub async fn credit_programs(
    State(state): State<AppState>,
) -> AppResult<Json<PublicCreditPrograms>> {
    let today = state.clock.moscow_today();
    Ok(Json(
        state
            .db
            .call(move |c| credit_programs::public(c, today))
            .await?,
    ))
}
