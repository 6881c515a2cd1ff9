//! Admin calls for the credit programmes of the partner banks
//! (`docs/credit.md`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{AuditObject, NewEntry};
use crate::domain::credit_programs::{self, CreditProgram, CreditProgramInput};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::FormJson;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, delete))
}

/// 404 text of a programme that does not exist.
pub const NOT_FOUND: &str = "Кредитная программа не найдена";

#[derive(Serialize, ToSchema)]
pub struct CreditProgramList {
    pub items: Vec<CreditProgram>,
}

/// Every programme, hidden and expired ones too (`expired` marks those
/// past their last day).
#[utoipa::path(get, operation_id = "admin_credit_programs", path = "/api/admin/credit-programs", tag = "admin",
    responses((status = 200, body = CreditProgramList), (status = 401, body = ApiErrorBody)))]
pub async fn list(State(state): State<AppState>) -> AppResult<Json<CreditProgramList>> {
    let today = state.clock.moscow_today();
    let items = state
        .db
        .call(move |c| credit_programs::list(c, today))
        .await?;
    Ok(Json(CreditProgramList { items }))
}

#[utoipa::path(post, operation_id = "create_credit_program", path = "/api/admin/credit-programs", tag = "admin",
    request_body = CreditProgramInput,
    responses((status = 201, body = CreditProgram), (status = 401, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody, description = "A field breaks a rule; `field` names it")))]
pub async fn create(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<CreditProgramInput>,
) -> AppResult<(StatusCode, Json<CreditProgram>)> {
    let today = state.clock.moscow_today();
    let program = audited(&state, &admin, move |c| {
        let program = credit_programs::create(c, &input, today)?;
        let summary = format!(
            "Добавлена кредитная программа: {} ({})",
            program.name, program.bank_name
        );
        let entry = NewEntry::created(AuditObject::CreditProgram, &program.id, summary, &program);
        Ok((program, Some(entry)))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(program)))
}

/// The whole form.
#[utoipa::path(put, operation_id = "update_credit_program", path = "/api/admin/credit-programs/{id}", tag = "admin",
    request_body = CreditProgramInput,
    responses((status = 200, body = CreditProgram), (status = 401, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(input): FormJson<CreditProgramInput>,
) -> AppResult<Json<CreditProgram>> {
    let today = state.clock.moscow_today();
    audited(&state, &admin, move |c| {
        let Some(before) = credit_programs::get(c, &id, today)? else {
            return Ok((None, None));
        };
        let Some(after) = credit_programs::update(c, &id, &input, today)? else {
            return Ok((None, None));
        };
        let summary = format!(
            "Изменена кредитная программа: {} ({})",
            after.name, after.bank_name
        );
        let entry = NewEntry::updated(AuditObject::CreditProgram, &id, summary, &before, &after);
        Ok((Some(after), Some(entry)))
    })
    .await?
    .map(Json)
    .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

#[utoipa::path(delete, operation_id = "delete_credit_program", path = "/api/admin/credit-programs/{id}", tag = "admin",
    responses((status = 204), (status = 401, body = ApiErrorBody), (status = 404, body = ApiErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let today = state.clock.moscow_today();
    let found = audited(&state, &admin, move |c| {
        let Some(before) = credit_programs::get(c, &id, today)? else {
            return Ok((false, None));
        };
        let found = credit_programs::delete(c, &id)?;
        let summary = format!(
            "Удалена кредитная программа: {} ({})",
            before.name, before.bank_name
        );
        let entry = NewEntry::deleted(AuditObject::CreditProgram, &id, summary, &before);
        Ok((found, found.then_some(entry)))
    })
    .await?;
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::not_found(NOT_FOUND))
    }
}
