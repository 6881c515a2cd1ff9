//! Admin calls for reviews, promotions, partner banks, body types and settings.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use super::resource::Resource;
use crate::domain::audit::{self, AuditAction, AuditObject, NewEntry};
use crate::domain::banks::{self, PartnerBank, PartnerBankInput};
use crate::domain::body_types::{self, BodyTypeCreate, BodyTypeInfo, BodyTypeInput};
use crate::domain::form::{Field, Form, Kind};
use crate::domain::legal;
use crate::domain::promotions::{self, Promotion, PromotionInput};
use crate::domain::reviews::{self, Review, ReviewInput};
use crate::domain::roles::Capability;
use crate::domain::settings::{self, PublicSettings, Settings, SettingsPatch};
use crate::error::{AppError, AppResult};
use crate::http::auth::{self, Admin};
use crate::http::extract::{ApiQuery, FormJson, MAX_OFFSET, paging};
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
        .routes(routes!(create_body_type))
        .routes(routes!(update_body_type, delete_body_type))
        .routes(routes!(get_settings))
        .routes(routes!(post_settings, put_settings))
}

pub const REVIEW_GONE: &str = "Отзыв не найден";
pub const PROMOTION_GONE: &str = "Акция не найдена";
pub const BANK_GONE: &str = "Банк не найден";
pub const BODY_TYPE_GONE: &str = "Тип кузова не найден";

const REVIEWS: Resource<Review, ReviewInput> = Resource {
    object: AuditObject::Review,
    created: "Добавлен отзыв",
    updated: "Изменён отзыв",
    deleted: "Удалён отзыв",
    gone: REVIEW_GONE,
    name: |r| r.customer_name.clone(),
    named_after_change: false,
    id: |r| &r.id,
    get: |c, id, _| reviews::get(c, id),
    create: |c, input, _| reviews::create(c, input),
    update: |c, id, input, _| reviews::update(c, id, input),
    delete: reviews::delete,
};

const PROMOTIONS: Resource<Promotion, PromotionInput> = Resource {
    object: AuditObject::Promotion,
    created: "Добавлена акция",
    updated: "Изменена акция",
    deleted: "Удалена акция",
    gone: PROMOTION_GONE,
    name: |p| p.title.clone(),
    named_after_change: false,
    id: |p| &p.id,
    get: |c, id, _| promotions::get(c, id),
    create: |c, input, _| promotions::create(c, input),
    update: |c, id, input, _| promotions::update(c, id, input),
    delete: promotions::delete,
};

const BANKS: Resource<PartnerBank, PartnerBankInput> = Resource {
    object: AuditObject::PartnerBank,
    created: "Добавлен банк-партнёр",
    updated: "Изменён банк-партнёр",
    deleted: "Удалён банк-партнёр",
    gone: BANK_GONE,
    name: |b| b.name.clone(),
    named_after_change: false,
    id: |b| &b.id,
    get: |c, id, _| banks::get(c, id),
    create: |c, input, _| banks::create(c, input),
    update: |c, id, input, _| banks::update(c, id, input),
    delete: banks::delete,
};

/// The 404 of an object that is not there: "Отзыв не найден", "Акция не
/// найдена" (each object's own words, never a "(а)" placeholder).
fn gone(message: &'static str) -> AppError {
    AppError::not_found(message)
}

fn deleted(found: bool, message: &'static str) -> AppResult<StatusCode> {
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(gone(message))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdminReviewQuery {
    /// `true`: approved reviews only; otherwise pending ones too.
    pub approved: Option<bool>,
    /// Page size, default 1000, 1 to 1000.
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Reviews to skip, default 0.
    #[param(minimum = 0, maximum = 2147483647)]
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
    let limit = paging("limit", query.limit, 1000, 1..=1000)?;
    let offset = paging("offset", query.offset, 0, 0..=MAX_OFFSET)?;
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
    admin: Admin,
    FormJson(input): FormJson<ReviewInput>,
) -> AppResult<(StatusCode, Json<Review>)> {
    REVIEWS.create(&state, &admin, input).await
}

#[utoipa::path(put, path = "/api/reviews/{id}", tag = "admin", request_body = ReviewInput,
    responses((status = 200, body = Review), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_review(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(input): FormJson<ReviewInput>,
) -> AppResult<Json<Review>> {
    REVIEWS.update(&state, &admin, id, input).await
}

#[utoipa::path(put, path = "/api/reviews/{id}/approve", tag = "admin",
    responses((status = 200, body = Review), (status = 404, body = ApiErrorBody)))]
pub async fn approve_review(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<Json<Review>> {
    audited(&state, &admin, move |c| {
        let Some(before) = reviews::get(c, &id)? else {
            return Ok((None, None));
        };
        let Some(after) = reviews::approve(c, &id)? else {
            return Ok((None, None));
        };
        let summary = format!("Одобрен отзыв: {}", before.customer_name);
        let entry = NewEntry::new(
            AuditAction::Approve,
            AuditObject::Review,
            Some(&id),
            summary,
        )
        .with_changes(audit::diff(&before, &after, audit::NOT_AUDITED));
        Ok((Some(after), Some(entry)))
    })
    .await?
    .map(Json)
    .ok_or_else(|| gone(REVIEW_GONE))
}

#[utoipa::path(delete, path = "/api/reviews/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_review(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    REVIEWS.delete(&state, &admin, id).await
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
    admin: Admin,
    FormJson(input): FormJson<PromotionInput>,
) -> AppResult<(StatusCode, Json<Promotion>)> {
    PROMOTIONS.create(&state, &admin, input).await
}

#[utoipa::path(put, path = "/api/promotions/{id}", tag = "admin", request_body = PromotionInput,
    responses((status = 200, body = Promotion), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_promotion(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(input): FormJson<PromotionInput>,
) -> AppResult<Json<Promotion>> {
    PROMOTIONS.update(&state, &admin, id, input).await
}

#[utoipa::path(delete, path = "/api/promotions/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_promotion(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    PROMOTIONS.delete(&state, &admin, id).await
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
    admin: Admin,
    FormJson(input): FormJson<PartnerBankInput>,
) -> AppResult<(StatusCode, Json<PartnerBank>)> {
    BANKS.create(&state, &admin, input).await
}

/// A partner bank's full form, or only `{active}` for the show/hide toggle.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartnerBankChange {
    pub name: Option<String>,
    pub logo: Option<String>,
    pub requirements: Option<String>,
    pub advantages: Option<String>,
    pub active: Option<bool>,
    pub ad_erid: Option<String>,
    pub ad_advertiser: Option<String>,
}

impl Form for PartnerBankChange {
    const FIELDS: &'static [Field] = &[
        Field::optional("name", Kind::Text),
        Field::optional("logo", Kind::Text),
        Field::optional("requirements", Kind::Text),
        Field::optional("advantages", Kind::Text),
        Field::optional("active", Kind::Bool),
        Field::optional("adErid", Kind::Text),
        Field::optional("adAdvertiser", Kind::Text),
    ];
}

/// The full form, or only `{active}` for the show/hide toggle.
#[utoipa::path(put, path = "/api/partner-banks/{id}", tag = "admin", request_body = PartnerBankInput,
    responses((status = 200, body = PartnerBank), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_bank(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(change): FormJson<PartnerBankChange>,
) -> AppResult<Json<PartnerBank>> {
    let input = match change {
        PartnerBankChange {
            name: None,
            logo: None,
            requirements: None,
            advantages: None,
            active: Some(active),
            ad_erid: None,
            ad_advertiser: None,
        } => Err(active),
        full => Ok(PartnerBankInput {
            name: full.name.unwrap_or_default(),
            logo: full.logo.unwrap_or_default(),
            requirements: full.requirements.unwrap_or_default(),
            advantages: full.advantages.unwrap_or_default(),
            active: full.active.unwrap_or(true),
            ad_erid: full.ad_erid.unwrap_or_default(),
            ad_advertiser: full.ad_advertiser.unwrap_or_default(),
        }),
    };
    audited(&state, &admin, move |c| {
        let Some(before) = banks::get(c, &id)? else {
            return Ok((None, None));
        };
        let after = match &input {
            Err(active) => banks::set_active(c, &id, *active)?,
            Ok(input) => banks::update(c, &id, input)?,
        };
        let Some(after) = after else {
            return Ok((None, None));
        };
        let what = match input {
            Err(true) => "Показан банк-партнёр",
            Err(false) => "Скрыт банк-партнёр",
            Ok(_) => "Изменён банк-партнёр",
        };
        let summary = format!("{what}: {}", before.name);
        let entry = NewEntry::updated(AuditObject::PartnerBank, &id, summary, &before, &after);
        Ok((Some(after), Some(entry)))
    })
    .await?
    .map(Json)
    .ok_or_else(|| gone(BANK_GONE))
}

#[utoipa::path(delete, path = "/api/partner-banks/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_bank(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    BANKS.delete(&state, &admin, id).await
}

/// Labels and banner images of a body type.
#[utoipa::path(put, path = "/api/body-types/{bodyType}", tag = "admin", request_body = BodyTypeInput,
    responses((status = 200, body = BodyTypeInfo), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_body_type(
    State(state): State<AppState>,
    admin: Admin,
    Path(code): Path<String>,
    FormJson(input): FormJson<BodyTypeInput>,
) -> AppResult<Json<BodyTypeInfo>> {
    let body_type = parse_body_type(&code)?;
    audited(&state, &admin, move |c| {
        let Some(before) = body_types::get(c, &body_type)? else {
            return Ok((None, None));
        };
        let Some(after) = body_types::update(c, &body_type, &input)? else {
            return Ok((None, None));
        };
        let summary = format!("Изменён тип кузова: {}", before.label_plural);
        let entry = NewEntry::updated(
            AuditObject::BodyType,
            body_type.as_str(),
            summary,
            &before,
            &after,
        );
        Ok((Some(after), Some(entry)))
    })
    .await?
    .map(Json)
    .ok_or_else(|| gone(BODY_TYPE_GONE))
}

/// A new body type of the dealership's list (`docs/catalogue.md`).
#[utoipa::path(post, path = "/api/body-types", tag = "admin", request_body = BodyTypeCreate,
    responses((status = 201, body = BodyTypeInfo), (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn create_body_type(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<BodyTypeCreate>,
) -> AppResult<(StatusCode, Json<BodyTypeInfo>)> {
    let info = audited(&state, &admin, move |c| {
        let info = body_types::create(c, &input)?;
        let summary = format!("Добавлен тип кузова: {}", info.label_plural);
        let entry = NewEntry::created(
            AuditObject::BodyType,
            &info.body_type.to_string(),
            summary,
            &info,
        );
        Ok((info, Some(entry)))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(info)))
}

/// Deletes a body type that no car has; the spec's six stay.
#[utoipa::path(delete, path = "/api/body-types/{bodyType}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody)))]
pub async fn delete_body_type(
    State(state): State<AppState>,
    admin: Admin,
    Path(code): Path<String>,
) -> AppResult<StatusCode> {
    let body_type = parse_body_type(&code)?;
    let found = audited(&state, &admin, move |c| {
        let Some(before) = body_types::get(c, &body_type)? else {
            return Ok((false, None));
        };
        let found = body_types::delete(c, &body_type)?;
        let summary = format!("Удалён тип кузова: {}", before.label_plural);
        let entry = NewEntry::deleted(AuditObject::BodyType, body_type.as_str(), summary, &before);
        Ok((found, found.then_some(entry)))
    })
    .await?;
    deleted(found, BODY_TYPE_GONE)
}

/// Every setting, e-mail and legal texts included.
#[utoipa::path(get, path = "/api/admin/settings", tag = "admin", responses((status = 200, body = Settings)))]
pub async fn get_settings(State(state): State<AppState>) -> AppResult<Json<Settings>> {
    Ok(Json(state.db.call(|c| settings::get(c)).await?))
}

/// Names of the page-banner fields, as the API speaks them.
/// A banner's picture or its ad mark (`docs/advertising.md`): what an
/// editor may change.
fn is_banner_field(field: &str) -> bool {
    field == "bannerAds"
        || field.starts_with("bannerAds.")
        || settings::BANNER_FIELDS
            .iter()
            .any(|(name, _)| *name == field)
}

/// What a settings write answers: the whole settings to a role that may
/// read them (`settings`), the public part (what `GET /api/settings` shows,
/// banners included) to a role that changes banners only (`docs/admin.md`,
/// "What each role sees").
#[derive(Serialize)]
#[serde(untagged)]
pub enum SettingsWritten {
    All(Box<Settings>),
    Banners(Box<PublicSettings>),
}

impl utoipa::PartialSchema for SettingsWritten {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AnyOfBuilder, Ref};
        AnyOfBuilder::new()
            .item(Ref::from_schema_name("Settings"))
            .item(Ref::from_schema_name("PublicSettings"))
            .description(Some(
                "Settings to a role with `settings`; PublicSettings to one with `banners` only",
            ))
            .into()
    }
}

impl utoipa::ToSchema for SettingsWritten {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        schemas.push((
            "Settings".into(),
            <Settings as utoipa::PartialSchema>::schema(),
        ));
        <Settings as utoipa::ToSchema>::schemas(schemas);
        schemas.push((
            "PublicSettings".into(),
            <PublicSettings as utoipa::PartialSchema>::schema(),
        ));
        <PublicSettings as utoipa::ToSchema>::schemas(schemas);
    }
}

async fn save_settings(
    state: &AppState,
    admin: &Admin,
    patch: SettingsPatch,
) -> AppResult<Json<SettingsWritten>> {
    // An editor changes banners only; the rest of the settings is the owner's.
    let all_settings = admin.can(Capability::Settings);
    let config = state.config.clone();
    let saved = audited(state, admin, move |c| {
        let before = settings::get(c)?;
        let mut next = before.clone();
        patch.apply(&mut next)?;
        let saved = settings::save(c, &next)?;
        // What visitors agree to from now on, in the consent ledger.
        let processors = legal::processors(&config, &saved);
        legal::record(c, &saved, &processors)?;
        legal::record_salons(c, &settings::get(c)?, &processors)?;
        let after = settings::get(c)?;
        let changes = audit::diff(&before, &after, audit::NOT_AUDITED);
        if !all_settings && !changes.iter().all(|ch| is_banner_field(&ch.field)) {
            // Nothing is kept: the error rolls the transaction back.
            return Err(AppError::Forbidden(auth::NOT_FOR_YOUR_ROLE.into()));
        }
        let banners_only =
            !changes.is_empty() && changes.iter().all(|ch| is_banner_field(&ch.field));
        let (object_type, summary) = if banners_only {
            (AuditObject::Banner, "Изменены баннеры страниц")
        } else {
            (AuditObject::Settings, "Изменены настройки сайта")
        };
        let entry =
            NewEntry::new(AuditAction::Settings, object_type, None, summary).with_changes(changes);
        Ok((after, Some(entry)))
    })
    .await?;
    Ok(Json(if all_settings {
        SettingsWritten::All(Box::new(saved))
    } else {
        SettingsWritten::Banners(Box::new(saved.published(&state.config.call_tracking)))
    }))
}

/// The company settings form: salon name, phone and address are required.
#[utoipa::path(post, path = "/api/settings", tag = "admin", request_body = SettingsPatch,
    responses((status = 200, body = Settings), (status = 422, body = ApiErrorBody)))]
pub async fn post_settings(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(patch): FormJson<SettingsPatch>,
) -> AppResult<Json<SettingsWritten>> {
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
    save_settings(&state, &admin, patch).await
}

/// A partial change: e-mail settings, some banners, the auto-selection banner.
#[utoipa::path(put, path = "/api/settings", tag = "admin", request_body = SettingsPatch,
    responses((status = 200, body = SettingsWritten), (status = 422, body = ApiErrorBody)))]
pub async fn put_settings(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(patch): FormJson<SettingsPatch>,
) -> AppResult<Json<SettingsWritten>> {
    save_settings(&state, &admin, patch).await
}
