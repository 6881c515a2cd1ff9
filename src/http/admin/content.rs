//! Admin calls for reviews, promotions, partner banks, body types and settings.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::banks::{self, PartnerBank, PartnerBankInput};
use crate::domain::body_types::{self, BodyTypeInfo, BodyTypeInput};
use crate::domain::promotions::{self, Promotion, PromotionInput};
use crate::domain::reviews::{self, Review, ReviewInput};
use crate::domain::settings::{self, Settings, SettingsPatch};
use crate::error::{AppError, AppResult};
use crate::http::extract::{ApiJson, ApiQuery};
use crate::http::openapi::ApiErrorBody;
use crate::http::public::cars::parse_body_type;
use crate::http::state::AppState;

/// Content reads and writes for admins.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_reviews))
        .routes(routes!(create_review))
        .routes(routes!(update_review, delete_review))
        .routes(routes!(approve_review))
        .routes(routes!(list_promotions))
        .routes(routes!(create_promotion))
        .routes(routes!(update_promotion, delete_promotion))
        .routes(routes!(list_banks))
        .routes(routes!(create_bank))
        .routes(routes!(update_bank, delete_bank))
        .routes(routes!(update_body_type))
        .routes(routes!(get_settings))
        .routes(routes!(post_settings, put_settings))
}

fn gone(what: &str) -> AppError {
    AppError::not_found(format!("{what} не найден(а)"))
}

fn deleted(found: bool, what: &str) -> AppResult<StatusCode> {
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(gone(what))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdminReviewQuery {
    /// `true`: approved reviews only; otherwise pending ones too.
    pub approved: Option<bool>,
    /// Page size, default 1000, at most 1000.
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

/// Every review, pending ones included, newest first.
#[utoipa::path(get, path = "/api/admin/reviews", tag = "admin", params(AdminReviewQuery),
    responses((status = 200, body = [Review]), (status = 401, body = ApiErrorBody)))]
pub async fn list_reviews(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AdminReviewQuery>,
) -> AppResult<Json<Vec<Review>>> {
    let approved_only = query.approved == Some(true);
    let limit = query.limit.unwrap_or(1000).clamp(1, 1000);
    let offset = query.offset.unwrap_or(0);
    Ok(Json(
        state
            .db
            .call(move |c| reviews::list(c, approved_only, limit, offset))
            .await?,
    ))
}

#[utoipa::path(post, path = "/api/reviews", tag = "admin", request_body = ReviewInput,
    responses((status = 201, body = Review), (status = 422, body = ApiErrorBody)))]
pub async fn create_review(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<ReviewInput>,
) -> AppResult<(StatusCode, Json<Review>)> {
    let review = state.db.call(move |c| reviews::create(c, &input)).await?;
    Ok((StatusCode::CREATED, Json(review)))
}

#[utoipa::path(put, path = "/api/reviews/{id}", tag = "admin", request_body = ReviewInput,
    responses((status = 200, body = Review), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_review(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<ReviewInput>,
) -> AppResult<Json<Review>> {
    state
        .db
        .call(move |c| reviews::update(c, &id, &input))
        .await?
        .map(Json)
        .ok_or_else(|| gone("Отзыв"))
}

#[utoipa::path(put, path = "/api/reviews/{id}/approve", tag = "admin",
    responses((status = 200, body = Review), (status = 404, body = ApiErrorBody)))]
pub async fn approve_review(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<Review>> {
    state
        .db
        .call(move |c| reviews::approve(c, &id))
        .await?
        .map(Json)
        .ok_or_else(|| gone("Отзыв"))
}

#[utoipa::path(delete, path = "/api/reviews/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_review(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    deleted(
        state.db.call(move |c| reviews::delete(c, &id)).await?,
        "Отзыв",
    )
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdminActiveQuery {
    /// `true`: active items only; otherwise hidden ones too.
    pub active: Option<bool>,
}

/// Every promotion, inactive ones included, newest first.
#[utoipa::path(get, path = "/api/admin/promotions", tag = "admin", params(AdminActiveQuery),
    responses((status = 200, body = [Promotion]), (status = 401, body = ApiErrorBody)))]
pub async fn list_promotions(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AdminActiveQuery>,
) -> AppResult<Json<Vec<Promotion>>> {
    let active_only = query.active == Some(true);
    Ok(Json(
        state
            .db
            .call(move |c| promotions::list(c, active_only))
            .await?,
    ))
}

#[utoipa::path(post, path = "/api/promotions", tag = "admin", request_body = PromotionInput,
    responses((status = 201, body = Promotion), (status = 422, body = ApiErrorBody)))]
pub async fn create_promotion(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<PromotionInput>,
) -> AppResult<(StatusCode, Json<Promotion>)> {
    let promotion = state
        .db
        .call(move |c| promotions::create(c, &input))
        .await?;
    Ok((StatusCode::CREATED, Json(promotion)))
}

#[utoipa::path(put, path = "/api/promotions/{id}", tag = "admin", request_body = PromotionInput,
    responses((status = 200, body = Promotion), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_promotion(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<PromotionInput>,
) -> AppResult<Json<Promotion>> {
    state
        .db
        .call(move |c| promotions::update(c, &id, &input))
        .await?
        .map(Json)
        .ok_or_else(|| gone("Акция"))
}

#[utoipa::path(delete, path = "/api/promotions/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_promotion(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    deleted(
        state.db.call(move |c| promotions::delete(c, &id)).await?,
        "Акция",
    )
}

/// Every partner bank, hidden ones included, by name.
#[utoipa::path(get, path = "/api/admin/partner-banks", tag = "admin", params(AdminActiveQuery),
    responses((status = 200, body = [PartnerBank]), (status = 401, body = ApiErrorBody)))]
pub async fn list_banks(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AdminActiveQuery>,
) -> AppResult<Json<Vec<PartnerBank>>> {
    let active_only = query.active == Some(true);
    Ok(Json(
        state.db.call(move |c| banks::list(c, active_only)).await?,
    ))
}

#[utoipa::path(post, path = "/api/partner-banks", tag = "admin", request_body = PartnerBankInput,
    responses((status = 201, body = PartnerBank), (status = 422, body = ApiErrorBody)))]
pub async fn create_bank(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<PartnerBankInput>,
) -> AppResult<(StatusCode, Json<PartnerBank>)> {
    let bank = state.db.call(move |c| banks::create(c, &input)).await?;
    Ok((StatusCode::CREATED, Json(bank)))
}

/// The full form, or only `{active}` for the show/hide toggle.
#[utoipa::path(put, path = "/api/partner-banks/{id}", tag = "admin", request_body = PartnerBankInput,
    responses((status = 200, body = PartnerBank), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_bank(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<serde_json::Value>,
) -> AppResult<Json<PartnerBank>> {
    let only_active = body
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get("active"))
        .map(|v| {
            v.as_bool()
                .ok_or_else(|| AppError::invalid("active", "active: true или false"))
        });
    let bank = match only_active {
        Some(active) => {
            let active = active?;
            state
                .db
                .call(move |c| banks::set_active(c, &id, active))
                .await?
        }
        None => {
            let input: PartnerBankInput =
                serde_json::from_value(body).map_err(|e| AppError::Invalid {
                    message: format!("Неверные данные: {e}"),
                    field: None,
                })?;
            state
                .db
                .call(move |c| banks::update(c, &id, &input))
                .await?
        }
    };
    bank.map(Json).ok_or_else(|| gone("Банк"))
}

#[utoipa::path(delete, path = "/api/partner-banks/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_bank(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    deleted(state.db.call(move |c| banks::delete(c, &id)).await?, "Банк")
}

/// Labels and banner images of a body type.
#[utoipa::path(put, path = "/api/body-types/{bodyType}", tag = "admin", request_body = BodyTypeInput,
    responses((status = 200, body = BodyTypeInfo), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_body_type(
    State(state): State<AppState>,
    Path(code): Path<String>,
    ApiJson(input): ApiJson<BodyTypeInput>,
) -> AppResult<Json<BodyTypeInfo>> {
    let body_type = parse_body_type(&code)?;
    state
        .db
        .call(move |c| body_types::update(c, body_type, &input))
        .await?
        .map(Json)
        .ok_or_else(|| gone("Тип кузова"))
}

/// Every setting, e-mail and legal texts included.
#[utoipa::path(get, path = "/api/admin/settings", tag = "admin", responses((status = 200, body = Settings)))]
pub async fn get_settings(State(state): State<AppState>) -> AppResult<Json<Settings>> {
    Ok(Json(state.db.call(|c| settings::get(c)).await?))
}

async fn save_settings(state: &AppState, patch: SettingsPatch) -> AppResult<Json<Settings>> {
    let saved = state
        .db
        .call(move |c| {
            let mut current = settings::get(c)?;
            patch.apply(&mut current)?;
            settings::save(c, &current)
        })
        .await?;
    Ok(Json(saved))
}

/// The company settings form: salon name, phone and address are required.
#[utoipa::path(post, path = "/api/settings", tag = "admin", request_body = SettingsPatch,
    responses((status = 200, body = Settings), (status = 422, body = ApiErrorBody)))]
pub async fn post_settings(
    State(state): State<AppState>,
    ApiJson(patch): ApiJson<SettingsPatch>,
) -> AppResult<Json<Settings>> {
    let missing = [
        (
            "salonName",
            patch.salon_name.as_deref(),
            "Название салона обязательно",
        ),
        ("phone", patch.phone.as_deref(), "Телефон обязателен"),
        ("address", patch.address.as_deref(), "Адрес обязателен"),
    ];
    for (field, value, message) in missing {
        if value.is_none_or(|v| v.trim().is_empty()) {
            return Err(AppError::invalid(field, message));
        }
    }
    save_settings(&state, patch).await
}

/// A partial change: e-mail settings, some banners, the auto-selection banner.
#[utoipa::path(put, path = "/api/settings", tag = "admin", request_body = SettingsPatch,
    responses((status = 200, body = Settings), (status = 422, body = ApiErrorBody)))]
pub async fn put_settings(
    State(state): State<AppState>,
    ApiJson(patch): ApiJson<SettingsPatch>,
) -> AppResult<Json<Settings>> {
    save_settings(&state, patch).await
}
