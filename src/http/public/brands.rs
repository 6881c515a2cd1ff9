//! Public brand reads.

use axum::Json;
use axum::extract::{Path, State};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::brands::{self, Brand, BrandBrief};
use crate::domain::cars;
use crate::error::{AppError, AppResult};
use crate::http::openapi::{ApiErrorBody, ImageAnswer};
use crate::http::state::AppState;

/// 404 text for an unknown brand.
pub const BRAND_NOT_FOUND: &str = "Марка не найдена";

/// The brand lists and a brand's data: cached public reads.
pub fn routes() -> OpenApiRouter<AppState> {
    super::only_declared_params(
        OpenApiRouter::new()
            .routes(routes!(list_fast))
            .routes(routes!(list))
            .routes(routes!(by_id))
            .routes(routes!(by_slug))
            .routes(routes!(models))
            .routes(routes!(logo)),
    )
}

/// Every brand with a published car, short form, by name (a brand without
/// one is in no public list).
#[utoipa::path(get, operation_id = "brands_list_fast", path = "/api/brands/fast", tag = "brands",
    responses((status = 200, body = [BrandBrief])))]
pub async fn list_fast(State(state): State<AppState>) -> AppResult<Json<Vec<BrandBrief>>> {
    Ok(Json(state.db.call(|c| brands::list_brief(c)).await?))
}

/// Every brand with a published car, with its description, by name.
#[utoipa::path(get, operation_id = "brands_list", path = "/api/brands", tag = "brands",
    responses((status = 200, body = [Brand])))]
pub async fn list(State(state): State<AppState>) -> AppResult<Json<Vec<Brand>>> {
    Ok(Json(state.db.call(|c| brands::list(c)).await?))
}

async fn find(state: &AppState, id: String) -> AppResult<Brand> {
    state
        .db
        .call(move |c| brands::shown(c, &id))
        .await?
        .ok_or_else(|| AppError::not_found(BRAND_NOT_FOUND))
}

/// A brand with a published car; 404 for one without.
#[utoipa::path(get, path = "/api/brands/{id}", tag = "brands",
    responses((status = 200, body = Brand), (status = 404, body = ApiErrorBody)))]
pub async fn by_id(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<Brand>> {
    Ok(Json(find(&state, id).await?))
}

/// A brand with a published car, by slug; 404 for one without.
#[utoipa::path(get, operation_id = "brand_by_slug", path = "/api/brands/slug/{slug}", tag = "brands",
    responses((status = 200, body = Brand), (status = 404, body = ApiErrorBody)))]
pub async fn by_slug(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> AppResult<Json<Brand>> {
    state
        .db
        .call(move |c| brands::shown_by_slug(c, &slug))
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(BRAND_NOT_FOUND))
}

/// The brand's logo URL (empty when it has none).
#[utoipa::path(get, path = "/api/brands/{id}/logo", tag = "brands",
    responses((status = 200, body = ImageAnswer), (status = 404, body = ApiErrorBody)))]
pub async fn logo(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<ImageAnswer>> {
    let brand = find(&state, id).await?;
    Ok(Json(ImageAnswer {
        image_url: brand.logo,
    }))
}

/// The models of a brand's published cars, by name: a brand page's model
/// filter; 404 for a brand without a published car.
#[utoipa::path(get, operation_id = "brand_models", path = "/api/brands/{id}/models", tag = "brands",
    responses((status = 200, body = [String]), (status = 404, body = ApiErrorBody)))]
pub async fn models(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<Vec<String>>> {
    state
        .db
        .call(move |c| match brands::shown(c, &id)? {
            Some(brand) => cars::models_of_brand(c, &brand.id).map(Some),
            None => Ok(None),
        })
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(BRAND_NOT_FOUND))
}
