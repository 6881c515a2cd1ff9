//! A person's request (`docs/personal-data.md`): `POST
//! /api/admin/personal-data/find` gives everything held about a phone or an
//! e-mail address, `POST /api/admin/personal-data/erase` erases it. Both
//! take the subject in the body, so no phone or address is ever in a URL
//! (or an access log).

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{AuditAction, AuditObject, NewEntry};
use crate::domain::person_data::{self, Erased, PersonData, SubjectInput};
use crate::error::AppResult;
use crate::http::auth::Admin;
use crate::http::extract::ApiJson;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(find))
        .routes(routes!(erase))
}

/// Everything held about a phone number or an e-mail address: leads with
/// their consents, comments, subscriptions, deliveries, audit entries.
#[utoipa::path(post, path = "/api/admin/personal-data/find", tag = "admin",
    request_body = SubjectInput,
    responses((status = 200, body = PersonData), (status = 403, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn find(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<SubjectInput>,
) -> AppResult<Json<PersonData>> {
    let who = input.check()?;
    Ok(Json(
        state.db.call(move |c| person_data::find(c, &who)).await?,
    ))
}

/// Erases it: personal fields replaced, the rest kept for the figures; the
/// database's write-ahead log emptied after. The audit entry counts what
/// was erased and names no one.
#[utoipa::path(post, path = "/api/admin/personal-data/erase", tag = "admin",
    request_body = SubjectInput,
    responses((status = 200, body = Erased), (status = 403, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn erase(
    State(state): State<AppState>,
    admin: Admin,
    ApiJson(input): ApiJson<SubjectInput>,
) -> AppResult<Json<Erased>> {
    let who = input.check()?;
    let erased = audited(&state, &admin, move |c| {
        let erased = person_data::erase(c, &who)?;
        let summary = format!(
            "Удалены персональные данные по запросу: заявок {}, подписок {}, записей журнала {}",
            erased.leads, erased.subscriptions, erased.audit_entries
        );
        let entry = NewEntry::new(AuditAction::Erase, AuditObject::PersonalData, None, summary);
        Ok((erased, Some(entry)))
    })
    .await?;
    if !state.db.forget_old_versions().await? {
        tracing::info!("a reader held the log; the next checkpoint empties it");
    }
    Ok(Json(erased))
}
