//! A person's request and forgetting on time (`docs/personal-data.md`):
//! find, export and erase what is held about a phone or an e-mail address;
//! the register of requests with their deadlines; the retention run and the
//! destruction acts. Every call that names a person takes them in the body,
//! so no phone or address is ever in a URL (or an access log).

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{AuditAction, AuditObject, NewEntry};
use crate::domain::data_requests::{
    self, AnswerInput, DataRequest, NewDataRequest, Outcome, RequestKind,
};
use crate::domain::destruction_acts::{self, ActReason, ActRecord, DestructionAct};
use crate::domain::person_data::{self, Erased, PersonData, Subject, SubjectInput};
use crate::domain::retention::{self, RetentionDue, RetentionRun};
use crate::domain::{person_export, settings};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(find))
        .routes(routes!(export))
        .routes(routes!(erase))
        .routes(routes!(list_requests, create_request))
        .routes(routes!(answer_request))
        .routes(routes!(list_acts))
        .routes(routes!(download_act))
        .routes(routes!(retention_due))
        .routes(routes!(run_retention))
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

/// The file's format.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Json,
    Html,
}

/// Whose data, as which file.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExportInput {
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    pub format: ExportFormat,
}

/// Everything held about the person as one file to send them: JSON, or a
/// readable page with the consent texts they agreed to. Audited (naming no
/// one).
#[utoipa::path(post, path = "/api/admin/personal-data/export", tag = "admin",
    request_body = ExportInput,
    responses(
        (status = 200, description = "The file (attachment): JSON or, with `format: html`, a page",
            content((Object = "application/json"), (String = "text/html"))),
        (status = 403, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn export(
    State(state): State<AppState>,
    admin: Admin,
    ApiJson(input): ApiJson<ExportInput>,
) -> AppResult<Response> {
    let who = SubjectInput {
        phone: input.phone,
        email: input.email,
    }
    .check()?;
    let now = state.clock.now();
    let format = input.format;
    let body = audited(&state, &admin, move |c| {
        let data = person_data::find(c, &who)?;
        let settings = settings::get(c)?;
        let body = match format {
            ExportFormat::Json => person_export::json(c, &who, &data, &settings, now)?,
            ExportFormat::Html => person_export::html(c, &who, &data, &settings, now)?,
        };
        let summary = format!(
            "Выгружены персональные данные по запросу: заявок {}, подписок {}",
            data.leads.len(),
            data.subscriptions.len()
        );
        let entry = NewEntry::new(
            AuditAction::Export,
            AuditObject::PersonalData,
            None,
            summary,
        );
        Ok((body, Some(entry)))
    })
    .await?;
    let day = state.clock.moscow_today().format("%Y-%m-%d");
    let (kind, ext) = match format {
        ExportFormat::Json => ("application/json", "json"),
        ExportFormat::Html => ("text/html; charset=utf-8", "html"),
    };
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"personal-data-{day}.{ext}\""),
            ),
        ],
        body,
    )
        .into_response())
}

/// Whose data to erase, and the request it answers.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EraseInput {
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    /// The request this erasure answers: closed as `erased`. Without a
    /// phone and address, the request's own are erased.
    #[serde(default)]
    pub request_id: Option<i64>,
}

/// Erases it: personal fields replaced, the rest kept for the figures; the
/// database's write-ahead log emptied after. Writes a destruction act; the
/// audit entry counts what was erased and names no one.
#[utoipa::path(post, path = "/api/admin/personal-data/erase", tag = "admin",
    request_body = EraseInput,
    responses((status = 200, body = Erased), (status = 403, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn erase(
    State(state): State<AppState>,
    admin: Admin,
    ApiJson(input): ApiJson<EraseInput>,
) -> AppResult<Json<Erased>> {
    let given = input.phone.as_deref().is_some_and(|p| !p.trim().is_empty())
        || input.email.as_deref().is_some_and(|e| !e.trim().is_empty());
    let subject = SubjectInput {
        phone: input.phone,
        email: input.email,
    };
    let who = if given || input.request_id.is_none() {
        Some(subject.check()?)
    } else {
        None
    };
    let today = state.clock.moscow_today();
    let now = state.clock.now();
    let login = admin.user.username.clone();
    let request_id = input.request_id;
    let erased = audited(&state, &admin, move |c| {
        let who: Subject = match (who, request_id) {
            (Some(who), Some(id)) => {
                data_requests::open_subject(c, id, today)?;
                who
            }
            (Some(who), None) => who,
            (None, Some(id)) => data_requests::open_subject(c, id, today)?,
            (None, None) => return Err(AppError::invalid("phone", person_data::NOTHING_ASKED)),
        };
        let erased = person_data::erase(c, &who)?;
        if let Some(id) = request_id {
            data_requests::answer(c, id, Outcome::Erased, None, today)?;
        }
        let record = ActRecord::of(&erased);
        if !record.is_empty() {
            let reason = match request_id {
                Some(id) => format!(
                    "Требование субъекта персональных данных об уничтожении (запрос № {id})"
                ),
                None => "Требование субъекта персональных данных об уничтожении".to_string(),
            };
            destruction_acts::record(
                c,
                ActReason::Request,
                &reason,
                &login,
                &[record],
                &erased,
                now,
            )?;
        }
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

/// The register of a person's requests: open ones first, the nearest
/// deadline first, then the answered, newest first (at most 200).
#[utoipa::path(get, path = "/api/admin/personal-data/requests", tag = "admin",
    responses((status = 200, body = Vec<DataRequest>), (status = 403, body = ApiErrorBody)))]
pub async fn list_requests(State(state): State<AppState>) -> AppResult<Json<Vec<DataRequest>>> {
    let today = state.clock.moscow_today();
    Ok(Json(
        state
            .db
            .call(move |c| data_requests::list(c, today))
            .await?,
    ))
}

/// Registers a person's request (to know what is held, or to be
/// forgotten), due in 10 working days.
#[utoipa::path(post, path = "/api/admin/personal-data/requests", tag = "admin",
    request_body = NewDataRequest,
    responses((status = 201, body = DataRequest), (status = 403, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn create_request(
    State(state): State<AppState>,
    admin: Admin,
    ApiJson(input): ApiJson<NewDataRequest>,
) -> AppResult<(StatusCode, Json<DataRequest>)> {
    let today = state.clock.moscow_today();
    let login = admin.user.username.clone();
    let created = audited(&state, &admin, move |c| {
        let created = data_requests::create(c, input, &login, today)?;
        let kind = match created.kind {
            RequestKind::Access => "о предоставлении сведений",
            RequestKind::Erase => "об удалении",
            RequestKind::Withdrawal => "об отзыве согласия",
        };
        let summary = format!(
            "Зарегистрирован запрос № {} {kind}, срок ответа {}",
            created.id, created.due_on
        );
        let id = created.id.to_string();
        let entry = NewEntry::new(
            AuditAction::Create,
            AuditObject::PersonalData,
            Some(&id),
            summary,
        );
        Ok((created, Some(entry)))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Closes a request by hand: `provided`, `nothing_held`, or `refused`
/// with the reason in `note` (an erasure closes its own as `erased`).
#[utoipa::path(post, path = "/api/admin/personal-data/requests/{id}/answer", tag = "admin",
    params(("id" = i64, Path)),
    request_body = AnswerInput,
    responses((status = 200, body = DataRequest), (status = 403, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn answer_request(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(id): ApiPath<i64>,
    ApiJson(input): ApiJson<AnswerInput>,
) -> AppResult<Json<DataRequest>> {
    if input.outcome == Outcome::Erased {
        return Err(AppError::invalid(
            "outcome",
            "Удаление закрывает запрос само: удалите данные из поиска",
        ));
    }
    let today = state.clock.moscow_today();
    let answered = audited(&state, &admin, move |c| {
        let answered = data_requests::answer(c, id, input.outcome, input.note, today)?;
        let summary = format!(
            "Закрыт запрос № {id}: {}",
            match input.outcome {
                Outcome::Provided => "сведения предоставлены",
                Outcome::NothingHeld => "данных нет",
                Outcome::Refused => "отказано",
                Outcome::Erased => "данные удалены",
            }
        );
        let object = id.to_string();
        let entry = NewEntry::new(
            AuditAction::Status,
            AuditObject::PersonalData,
            Some(&object),
            summary,
        );
        Ok((answered, Some(entry)))
    })
    .await?;
    Ok(Json(answered))
}

/// The destruction acts, newest first (at most 200).
#[utoipa::path(get, path = "/api/admin/personal-data/acts", tag = "admin",
    responses((status = 200, body = Vec<DestructionAct>), (status = 403, body = ApiErrorBody)))]
pub async fn list_acts(State(state): State<AppState>) -> AppResult<Json<Vec<DestructionAct>>> {
    Ok(Json(state.db.call(|c| destruction_acts::list(c)).await?))
}

/// One act as a printable page (attachment), with the extract of the
/// event log.
#[utoipa::path(get, path = "/api/admin/personal-data/acts/{id}", tag = "admin",
    params(("id" = i64, Path)),
    responses((status = 200, description = "The act (attachment)", content_type = "text/html"),
        (status = 403, body = ApiErrorBody), (status = 404, body = ApiErrorBody)))]
pub async fn download_act(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Response> {
    let site = state.config.base().to_string();
    let page = state
        .db
        .call(move |c| {
            let act = destruction_acts::get(c, id)?
                .ok_or_else(|| AppError::not_found("Акт не найден"))?;
            destruction_acts::render(c, &act, &settings::get(c)?, &site)
        })
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"destruction-act-{id}.html\""),
            ),
        ],
        page,
    )
        .into_response())
}

/// What the retention run would erase now.
#[utoipa::path(get, path = "/api/admin/personal-data/retention", tag = "admin",
    responses((status = 200, body = RetentionDue), (status = 403, body = ApiErrorBody)))]
pub async fn retention_due(State(state): State<AppState>) -> AppResult<Json<RetentionDue>> {
    let now = state.clock.now();
    Ok(Json(
        state
            .db
            .call(move |c| retention::due(c, &settings::get(c)?, now))
            .await?,
    ))
}

/// Runs the retention now (as the nightly job does): erases what is past
/// its period and writes the act.
#[utoipa::path(post, path = "/api/admin/personal-data/retention/run", tag = "admin",
    responses((status = 200, body = RetentionRun), (status = 403, body = ApiErrorBody)))]
pub async fn run_retention(
    State(state): State<AppState>,
    admin: Admin,
) -> AppResult<Json<RetentionRun>> {
    let now = state.clock.now();
    let login = admin.user.username.clone();
    let act = audited(&state, &admin, move |c| {
        let act = retention::run(c, &settings::get(c)?, now, &login)?;
        let entry = act.as_ref().map(|act| {
            NewEntry::new(
                AuditAction::Erase,
                AuditObject::PersonalData,
                None,
                format!(
                    "Удалены данные с истёкшим сроком хранения: людей {}, заявок {}, подписок {} (акт № {})",
                    act.subjects, act.leads, act.subscriptions, act.id
                ),
            )
        });
        Ok((act, entry))
    })
    .await?;
    if act.is_some() && !state.db.forget_old_versions().await? {
        tracing::info!("a reader held the log; the next checkpoint empties it");
    }
    Ok(Json(RetentionRun { act }))
}
