//! Admin calls for cars and brands.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::Datelike;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::brands::{self, Brand, BrandInput};
use crate::domain::cars::{self, Car, CarFilter, CarInput};
use crate::error::{AppError, AppResult};
use crate::http::extract::ApiJson;
use crate::http::openapi::ApiErrorBody;
use crate::http::public::brands::BRAND_NOT_FOUND;
use crate::http::public::cars::CAR_NOT_FOUND;
use crate::http::state::AppState;

/// Car and brand reads and writes for admins.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_cars))
        .routes(routes!(create_car))
        .routes(routes!(update_car, delete_car))
        .routes(routes!(bulk_prices))
        .routes(routes!(list_brands))
        .routes(routes!(create_brand))
        .routes(routes!(update_brand, delete_brand))
}

fn current_year() -> i32 {
    chrono::Utc::now().year()
}

fn car_not_found() -> AppError {
    AppError::not_found(CAR_NOT_FOUND)
}

fn brand_not_found() -> AppError {
    AppError::not_found(BRAND_NOT_FOUND)
}

/// Every car, drafts included, newest first. Never cached.
#[utoipa::path(get, path = "/api/admin/cars", tag = "admin", responses((status = 200, body = [Car])))]
pub async fn list_cars(State(state): State<AppState>) -> AppResult<Response> {
    let filter = CarFilter {
        include_drafts: true,
        ..CarFilter::default()
    };
    let list = state.db.call(move |c| cars::list_all(c, &filter)).await?;
    let mut response = Json(list).into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-store, no-cache, must-revalidate"),
    );
    Ok(response)
}

#[utoipa::path(post, path = "/api/cars", tag = "admin", request_body = CarInput,
    responses((status = 201, body = Car), (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn create_car(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<CarInput>,
) -> AppResult<(StatusCode, Json<Car>)> {
    let car = state
        .db
        .call(move |c| cars::create(c, &input, current_year()))
        .await?;
    Ok((StatusCode::CREATED, Json(car)))
}

#[utoipa::path(put, path = "/api/cars/{id}", tag = "admin", request_body = CarInput,
    responses((status = 200, body = Car), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_car(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<CarInput>,
) -> AppResult<Json<Car>> {
    state
        .db
        .call(move |c| cars::update(c, &id, &input, current_year()))
        .await?
        .map(Json)
        .ok_or_else(car_not_found)
}

#[utoipa::path(delete, path = "/api/cars/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_car(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    if state.db.call(move |c| cars::delete(c, &id)).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(car_not_found())
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkPriceInput {
    /// 1 + p/100 to raise, 1 - p/100 to lower; a number or a decimal string.
    #[schema(value_type = String, example = "1.05")]
    pub price_multiplier: serde_json::Value,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkPriceAnswer {
    pub updated_count: usize,
}

/// Multiplies every price by an exact decimal factor.
#[utoipa::path(put, path = "/api/cars/prices/bulk", tag = "admin", request_body = BulkPriceInput,
    responses((status = 200, body = BulkPriceAnswer), (status = 422, body = ApiErrorBody)))]
pub async fn bulk_prices(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<BulkPriceInput>,
) -> AppResult<Json<BulkPriceAnswer>> {
    let refused = || AppError::invalid("priceMultiplier", "Введите корректный процент");
    // A JSON number's shortest text is exact for the factors people type.
    let factor = match &input.price_multiplier {
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => s.trim().to_string(),
        _ => return Err(refused()),
    };
    let positive = factor
        .parse::<f64>()
        .is_ok_and(|f| f > 0.0 && f.is_finite());
    if !positive || factor.contains(['e', 'E', '-', '+']) {
        return Err(refused());
    }
    let updated_count = state
        .db
        .call(move |c| cars::scale_prices(c, &factor))
        .await?;
    Ok(Json(BulkPriceAnswer { updated_count }))
}

#[utoipa::path(get, path = "/api/admin/brands", tag = "admin", responses((status = 200, body = [Brand])))]
pub async fn list_brands(State(state): State<AppState>) -> AppResult<Json<Vec<Brand>>> {
    Ok(Json(state.db.call(|c| brands::list(c)).await?))
}

#[utoipa::path(post, path = "/api/brands", tag = "admin", request_body = BrandInput,
    responses((status = 201, body = Brand), (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn create_brand(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<BrandInput>,
) -> AppResult<(StatusCode, Json<Brand>)> {
    let brand = state.db.call(move |c| brands::create(c, &input)).await?;
    Ok((StatusCode::CREATED, Json(brand)))
}

#[utoipa::path(put, path = "/api/brands/{id}", tag = "admin", request_body = BrandInput,
    responses((status = 200, body = Brand), (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody)))]
pub async fn update_brand(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<BrandInput>,
) -> AppResult<Json<Brand>> {
    state
        .db
        .call(move |c| brands::update(c, &id, &input))
        .await?
        .map(Json)
        .ok_or_else(brand_not_found)
}

/// Refused with 409 while the brand has cars.
#[utoipa::path(delete, path = "/api/brands/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody)))]
pub async fn delete_brand(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    if state.db.call(move |c| brands::delete(c, &id)).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(brand_not_found())
    }
}
