//! What the staff write on a lead: `GET` and `POST
//! /api/leads/{id}/comments`; and what was said by phone, `GET
//! /api/leads/{id}/calls`, for whoever may open the lead (a manager:
//! their own and the unassigned; `docs/leads.md`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::leads::lead_for;
use crate::domain::calls::LeadCall;
use crate::domain::lead_comments::{self, LeadComment, NewComment};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::ApiJson;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, add))
        .routes(routes!(calls))
}

/// A lead's calls (a marketplace's, a call-tracking service's or a PBX's),
/// oldest first, with their recordings' links.
#[utoipa::path(get, operation_id = "lead_calls", path = "/api/leads/{id}/calls", tag = "admin",
    responses((status = 200, body = [LeadCall]), (status = 403, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody)))]
pub async fn calls(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<Json<Vec<LeadCall>>> {
    let calls = state
        .db
        .call(move |c| {
            lead_for(c, &admin, &id)?;
            crate::domain::calls::of_lead(c, &id)
        })
        .await?;
    Ok(Json(calls))
}

/// A lead's comments, oldest first.
#[utoipa::path(get, path = "/api/leads/{id}/comments", tag = "admin",
    responses((status = 200, body = [LeadComment]), (status = 403, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<Json<Vec<LeadComment>>> {
    let comments = state
        .db
        .call(move |c| {
            lead_for(c, &admin, &id)?;
            lead_comments::list(c, &id)
        })
        .await?;
    Ok(Json(comments))
}

/// Adds a comment under the caller's name.
#[utoipa::path(post, path = "/api/leads/{id}/comments", tag = "admin", request_body = NewComment,
    responses((status = 201, body = LeadComment), (status = 403, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn add(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    body: Result<ApiJson<NewComment>, AppError>,
) -> AppResult<(StatusCode, Json<LeadComment>)> {
    let ApiJson(input) = body?;
    let text = input.text()?;
    let comment = state
        .db
        .call(move |c| {
            lead_for(c, &admin, &id)?;
            let author = (admin.user.id.as_str(), admin.user.shown_name());
            lead_comments::add(c, &id, author, &text)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(comment)))
}
