//! The salons (`docs/salons.md`): listed for every staff member (screens
//! name a car's or a lead's salon), added, changed and removed by the
//! owner; a car moved between salons in one audited action.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{AuditAction, AuditObject, Change, NewEntry};
use crate::domain::roles::Capability;
use crate::domain::salons::{self, NO_SUCH_SALON, SalonInput, SalonRecord};
use crate::domain::{cars, legal, settings};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::ApiJson;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_salons, add_salon))
        .routes(routes!(change_salon, delete_salon))
        .routes(routes!(move_car))
}

/// Every salon, the main first (its facts are the company settings), with
/// its cars counted. Who hears of leads (addresses, chats) only for the
/// roles that see the settings.
#[utoipa::path(get, path = "/api/admin/salons", tag = "admin",
    responses((status = 200, body = [SalonRecord]), (status = 401, body = ApiErrorBody)))]
pub async fn list_salons(
    State(state): State<AppState>,
    admin: Admin,
) -> AppResult<Json<Vec<SalonRecord>>> {
    let class = state.config.call_tracking.phone_class.trim().to_string();
    let mut all = state
        .db
        .call(move |c| salons::all(c, &settings::get(c)?, &class))
        .await?;
    if !admin.can(Capability::Settings) {
        for salon in &mut all {
            salon.notification_email.clear();
            salon.telegram_chat_id.clear();
            salon.lead_recipients.clear();
        }
    }
    Ok(Json(all))
}

/// Adds a salon.
#[utoipa::path(post, path = "/api/admin/salons", tag = "admin", request_body = SalonInput,
    responses((status = 201, body = SalonRecord), (status = 422, body = ApiErrorBody)))]
pub async fn add_salon(
    State(state): State<AppState>,
    admin: Admin,
    ApiJson(input): ApiJson<SalonInput>,
) -> AppResult<(StatusCode, Json<SalonRecord>)> {
    let config = state.config.clone();
    let salon = audited(&state, &admin, move |c| {
        let salon = salons::create(c, input)?;
        let settings = settings::get(c)?;
        legal::record_salon(c, &settings, &salon, &legal::processors(&config, &settings))?;
        let entry = NewEntry::created(
            AuditObject::Salon,
            &salon.salon.id.to_string(),
            format!("Добавлен салон «{}»", salon.salon.name),
            &salon,
        );
        Ok((salon, Some(entry)))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(salon)))
}

/// Changes a salon; the main salon's facts are the company settings'.
#[utoipa::path(put, path = "/api/admin/salons/{id}", tag = "admin", request_body = SalonInput,
    responses((status = 200, body = SalonRecord), (status = 404, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn change_salon(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<SalonInput>,
) -> AppResult<Json<SalonRecord>> {
    let id = salons::path_salon(&id)?;
    let config = state.config.clone();
    let class = state.config.call_tracking.phone_class.trim().to_string();
    let salon = audited(&state, &admin, move |c| {
        let before_settings = settings::get(c)?;
        let before = salons::get(c, &before_settings, &class, id)?
            .ok_or_else(|| AppError::not_found(NO_SUCH_SALON))?;
        let after = if id == salons::MAIN {
            let mut next = before_settings.clone();
            salons::main_patch(input)?.apply(&mut next)?;
            let saved = settings::save(c, &next)?;
            let processors = legal::processors(&config, &saved);
            legal::record(c, &saved, &processors)?;
            legal::record_salons(c, &settings::get(c)?, &processors)?;
            salons::get(c, &saved, &class, id)?.ok_or_else(|| AppError::not_found(NO_SUCH_SALON))?
        } else {
            let after = salons::update(c, id, input)?;
            let settings = settings::get(c)?;
            legal::record_salon(c, &settings, &after, &legal::processors(&config, &settings))?;
            after
        };
        let entry = NewEntry::updated(
            AuditObject::Salon,
            &id.to_string(),
            format!("Изменён салон «{}»", after.salon.name),
            &before,
            &after,
        );
        Ok((after, Some(entry)))
    })
    .await?;
    Ok(Json(salon))
}

/// Removes a salon without cars; the main salon stays.
#[utoipa::path(delete, path = "/api/admin/salons/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody)))]
pub async fn delete_salon(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let id = salons::path_salon(&id)?;
    audited(&state, &admin, move |c| {
        let salon = salons::delete(c, id)?;
        let entry = NewEntry::deleted(
            AuditObject::Salon,
            &id.to_string(),
            format!("Удалён салон «{}»", salon.salon.name),
            &salon,
        );
        Ok(((), Some(entry)))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Where a car is moved to.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CarMove {
    /// The salon's id (1: the main).
    pub salon_id: i64,
}

/// Moves a car to another salon (its card, page, feeds and the leads about
/// it follow); audited with both salons' names.
#[utoipa::path(put, path = "/api/admin/cars/{id}/salon", tag = "admin", request_body = CarMove,
    responses((status = 200, body = crate::domain::cars::Car), (status = 404, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn move_car(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    ApiJson(to): ApiJson<CarMove>,
) -> AppResult<Json<cars::Car>> {
    let class = state.config.call_tracking.phone_class.trim().to_string();
    let car = audited(&state, &admin, move |c| {
        let settings = settings::get(c)?;
        let target = salons::get(c, &settings, &class, to.salon_id)?
            .ok_or_else(|| AppError::invalid("salonId", NO_SUCH_SALON))?;
        let before = cars::get_by_id(c, &id)?;
        let from = salons::get(c, &settings, &class, salons::of_column(before.salon_id))?
            .map(|s| s.salon.name)
            .unwrap_or_default();
        let after = cars::move_to_salon(c, &id, salons::column(target.salon.id))?;
        let entry = NewEntry::new(
            AuditAction::Move,
            AuditObject::Car,
            Some(&id),
            format!(
                "Автомобиль «{}» переведён из салона «{from}» в «{}»",
                after.name, target.salon.name
            ),
        )
        .with_changes(vec![Change {
            field: "salon".into(),
            from: Some(from),
            to: Some(target.salon.name.clone()),
        }]);
        Ok((after, Some(entry)))
    })
    .await?;
    Ok(Json(car))
}
