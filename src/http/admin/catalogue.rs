//! Admin calls for cars and brands.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::Datelike;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::brands::{self, Brand, BrandInput};
use crate::domain::cars::{self, AdminCarFilter, Car, CarInput, CarStats, CarStatus};
use crate::error::{AppError, AppResult};
use crate::http::extract::{ApiJson, ApiQuery};
use crate::http::openapi::ApiErrorBody;
use crate::http::public::brands::BRAND_NOT_FOUND;
use crate::http::public::cars::CAR_NOT_FOUND;
use crate::http::state::AppState;

/// Car and brand reads and writes for admins.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_cars))
        .routes(routes!(get_car))
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

/// Query of the admin cars list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AdminCarQuery {
    /// Words to find in the brand's name, the car's name, model or year
    /// (any case, Cyrillic too); every word must be found.
    pub q: Option<String>,
    /// From 1 (the default).
    pub page: Option<u32>,
    /// 1 to 100, default 24.
    pub per_page: Option<u32>,
    /// all (default), new, used or lease.
    pub condition: Option<String>,
    /// all (default), true (published) or false (drafts).
    pub published: Option<String>,
}

pub const DEFAULT_PER_PAGE: u32 = 24;
pub const MAX_PER_PAGE: u32 = 100;

/// One page of the admin cars list.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminCarPage {
    pub items: Vec<Car>,
    /// Cars matching the query.
    pub total: i64,
    pub page: u32,
    pub per_page: u32,
    /// Pages of `perPage` cars for `total`; 0 when nothing matches.
    pub pages: u32,
    /// Counts of all cars, whatever the query.
    pub stats: CarStats,
}

fn parse_condition(code: Option<&str>) -> AppResult<Option<CarStatus>> {
    match code {
        None | Some("") | Some("all") => Ok(None),
        Some(code) => CarStatus::parse(code)
            .map(Some)
            .ok_or_else(|| AppError::BadRequest(format!("Неизвестное значение condition: {code}"))),
    }
}

fn parse_published(code: Option<&str>) -> AppResult<Option<bool>> {
    match code {
        None | Some("") | Some("all") => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(code) => Err(AppError::BadRequest(format!(
            "Неизвестное значение published: {code}"
        ))),
    }
}

/// Cars, drafts included, newest first, searched, filtered and paged on the
/// server, with the counts of all cars. Never cached.
#[utoipa::path(get, path = "/api/admin/cars", tag = "admin", params(AdminCarQuery),
    responses((status = 200, body = AdminCarPage), (status = 400, body = ApiErrorBody),
        (status = 401, body = ApiErrorBody)))]
pub async fn list_cars(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AdminCarQuery>,
) -> AppResult<Json<AdminCarPage>> {
    let filter = AdminCarFilter {
        words: AdminCarFilter::search(query.q.as_deref().unwrap_or_default()),
        status: parse_condition(query.condition.as_deref())?,
        published: parse_published(query.published.as_deref())?,
    };
    let per_page = query
        .per_page
        .unwrap_or(DEFAULT_PER_PAGE)
        .clamp(1, MAX_PER_PAGE);
    let page = query.page.unwrap_or(1).max(1);
    let offset = (page - 1).saturating_mul(per_page);
    let (items, total, stats) = state
        .db
        .call(move |c| {
            let (items, total) = cars::admin_page(c, &filter, per_page, offset)?;
            Ok((items, total, cars::stats(c)?))
        })
        .await?;
    let pages = u32::try_from(total.max(0))
        .unwrap_or(u32::MAX)
        .div_ceil(per_page);
    Ok(Json(AdminCarPage {
        items,
        total,
        page,
        per_page,
        pages,
        stats,
    }))
}

/// A car, draft or published, for the edit dialog.
#[utoipa::path(get, path = "/api/admin/cars/{id}", tag = "admin",
    responses((status = 200, body = Car), (status = 404, body = ApiErrorBody), (status = 401, body = ApiErrorBody)))]
pub async fn get_car(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<Car>> {
    state
        .db
        .call(move |c| cars::get(c, &id, true))
        .await?
        .map(Json)
        .ok_or_else(car_not_found)
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
