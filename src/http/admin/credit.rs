//! Admin calls for the credit programmes of the partner banks
//! (`docs/credit.md`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::resource::Resource;
use crate::domain::audit::AuditObject;
use crate::domain::credit_programs::{self, CreditProgram, CreditProgramInput};
use crate::error::AppResult;
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

const PROGRAMS: Resource<CreditProgram, CreditProgramInput> = Resource {
    object: AuditObject::CreditProgram,
    created: "Добавлена кредитная программа",
    updated: "Изменена кредитная программа",
    deleted: "Удалена кредитная программа",
    gone: NOT_FOUND,
    name: |p| format!("{} ({})", p.name, p.bank_name),
    named_after_change: true,
    id: |p| &p.id,
    get: credit_programs::get,
    create: credit_programs::create,
    update: credit_programs::update,
    delete: credit_programs::delete,
};

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
    PROGRAMS.create(&state, &admin, input).await
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
    PROGRAMS.update(&state, &admin, id, input).await
}

#[utoipa::path(delete, operation_id = "delete_credit_program", path = "/api/admin/credit-programs/{id}", tag = "admin",
    responses((status = 204), (status = 401, body = ApiErrorBody), (status = 404, body = ApiErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    PROGRAMS.delete(&state, &admin, id).await
}
