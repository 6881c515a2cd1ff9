//! Public settings, banners, body types, reviews, promotions and banks.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::banks::{self, PartnerBank};
use crate::domain::body_types::{self, BodyTypeInfo};
use crate::domain::legal;
use crate::domain::promotions::{self, Promotion};
use crate::domain::reviews::{self, Review};
use crate::domain::settings::{self, PublicSettings};
use crate::error::{AppError, AppResult};
use crate::http::extract::{ApiQuery, MAX_OFFSET, paging};
use crate::http::openapi::{ApiErrorBody, ImageAnswer};
use crate::http::public::cars::parse_body_type;
use crate::http::state::AppState;

/// Settings, legal texts, body types, reviews, promotions and banks: cached
/// public reads. Admins read everything on `/api/admin/...` instead.
pub fn routes() -> OpenApiRouter<AppState> {
    super::only_declared_params(
        OpenApiRouter::new()
            .routes(routes!(settings))
            .routes(routes!(banner))
            .routes(routes!(legal))
            .routes(routes!(body_types))
            .routes(routes!(body_type))
            .routes(routes!(reviews))
            .routes(routes!(promotions))
            .routes(routes!(promotion_image))
            .routes(routes!(partner_banks)),
    )
}

/// The salon's public data and page banners.
#[utoipa::path(get, path = "/api/settings", tag = "settings",
    responses((status = 200, body = PublicSettings)))]
pub async fn settings(State(state): State<AppState>) -> AppResult<Json<PublicSettings>> {
    let config = state.config.clone();
    Ok(Json(
        state
            .db
            .call(move |c| crate::domain::salons::public_settings(c, &config.call_tracking))
            .await?,
    ))
}

/// One page banner's image URL; a missing mobile banner gives the desktop one.
#[utoipa::path(get, path = "/api/settings/banner/{bannerType}", tag = "settings",
    params(("bannerType" = String, Path, description = "homeBanner, homeBannerMobile, newCarsBanner, ...")),
    responses((status = 200, body = ImageAnswer), (status = 404, body = ApiErrorBody)))]
pub async fn banner(
    State(state): State<AppState>,
    Path(banner_type): Path<String>,
) -> AppResult<Json<ImageAnswer>> {
    let settings = state.db.call(|c| settings::get(c)).await?;
    let url = settings
        .public
        .banners
        .get(&banner_type)
        .ok_or_else(|| AppError::not_found(format!("Неизвестный баннер «{banner_type}»")))?;
    Ok(Json(ImageAnswer {
        image_url: url.to_string(),
    }))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegalDocument {
    pub title: String,
    pub text: String,
    pub version: i64,
}

/// Whose texts: a salon's that is its own company.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LegalQuery {
    /// A salon's id (`docs/salons.md`); absent or 1: the main salon's.
    #[param(minimum = 1, maximum = 2147483647)]
    pub salon: Option<i64>,
}

/// The consent text ('consent') or the privacy policy ('privacy'), of a
/// salon's operator when `salon` names one that is a separate company.
#[utoipa::path(get, path = "/api/legal/{document}", tag = "settings", params(LegalQuery),
    responses((status = 200, body = LegalDocument), (status = 404, body = ApiErrorBody)))]
pub async fn legal(
    State(state): State<AppState>,
    Path(document): Path<String>,
    ApiQuery(query): ApiQuery<LegalQuery>,
) -> AppResult<Json<LegalDocument>> {
    // As the consent ledger keeps them: the operator and processors named.
    let salon =
        crate::domain::salons::checked_salon(query.salon)?.unwrap_or(crate::domain::salons::MAIN);
    let shown = state
        .db
        .call(move |c| legal::current_for(c, &settings::get(c)?, salon))
        .await?;
    let version = shown.version;
    let (title, text) = match document.as_str() {
        "consent" => (
            "Согласие на обработку персональных данных",
            shown.consent_text,
        ),
        "privacy" => (
            "Политика обработки персональных данных",
            shown.privacy_policy,
        ),
        _ => return Err(AppError::not_found("Документ не найден")),
    };
    Ok(Json(LegalDocument {
        title: title.into(),
        text,
        version,
    }))
}

/// The dealership's body types in their order, with labels, banners and car counts.
#[utoipa::path(get, path = "/api/body-types", tag = "cars",
    responses((status = 200, body = [BodyTypeInfo])))]
pub async fn body_types(State(state): State<AppState>) -> AppResult<Json<Vec<BodyTypeInfo>>> {
    Ok(Json(state.db.call(|c| body_types::list(c)).await?))
}

#[utoipa::path(get, path = "/api/body-types/{bodyType}", tag = "cars",
    responses((status = 200, body = BodyTypeInfo), (status = 404, body = ApiErrorBody)))]
pub async fn body_type(
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> AppResult<Json<BodyTypeInfo>> {
    let body_type = parse_body_type(&code)?;
    state
        .db
        .call(move |c| body_types::get(c, &body_type))
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found("Тип кузова не найден"))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReviewQuery {
    /// Accepted for the site's own URLs; the answer holds approved reviews
    /// whatever its value.
    pub approved: Option<bool>,
    /// Page size, default 50, 1 to 100.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
    /// Reviews to skip, default 0.
    #[param(minimum = 0, maximum = 2147483647)]
    pub offset: Option<u32>,
}

/// Approved reviews, newest first.
#[utoipa::path(get, path = "/api/reviews", tag = "reviews", params(ReviewQuery),
    responses((status = 200, body = [Review])))]
pub async fn reviews(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ReviewQuery>,
) -> AppResult<Json<Vec<Review>>> {
    let limit = paging("limit", query.limit, 50, 1..=100)?;
    let offset = paging("offset", query.offset, 0, 0..=MAX_OFFSET)?;
    Ok(Json(
        state
            .db
            .call(move |c| reviews::list(c, true, limit, offset))
            .await?,
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActiveQuery {
    /// Accepted for the site's own URLs; the answer holds active items
    /// whatever its value.
    pub active: Option<bool>,
}

/// Active promotions, newest first.
#[utoipa::path(get, path = "/api/promotions", tag = "promotions", params(ActiveQuery),
    responses((status = 200, body = [Promotion])))]
pub async fn promotions(
    State(state): State<AppState>,
    ApiQuery(_active): ApiQuery<ActiveQuery>,
) -> AppResult<Json<Vec<Promotion>>> {
    let today = state.clock.moscow_today();
    Ok(Json(
        state.db.call(move |c| promotions::public(c, today)).await?,
    ))
}

/// An active promotion's image URL.
#[utoipa::path(get, path = "/api/promotions/{id}/image", tag = "promotions",
    responses((status = 200, body = ImageAnswer), (status = 404, body = ApiErrorBody)))]
pub async fn promotion_image(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<ImageAnswer>> {
    let promotion = state
        .db
        .call(move |c| promotions::get(c, &id))
        .await?
        .filter(|p| promotions::is_shown(p, state.clock.moscow_today()))
        .ok_or_else(|| AppError::not_found("Акция не найдена"))?;
    Ok(Json(ImageAnswer {
        image_url: promotion.image,
    }))
}

/// Active partner banks by name.
#[utoipa::path(get, path = "/api/partner-banks", tag = "banks", params(ActiveQuery),
    responses((status = 200, body = [PartnerBank])))]
pub async fn partner_banks(
    State(state): State<AppState>,
    ApiQuery(_active): ApiQuery<ActiveQuery>,
) -> AppResult<Json<Vec<PartnerBank>>> {
    Ok(Json(state.db.call(|c| banks::list(c, true)).await?))
}
