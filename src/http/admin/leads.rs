//! Admin calls for leads and the dashboard figures.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{FixedOffset, NaiveTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{self, AuditAction, AuditEntry, AuditFilter, AuditObject, NewEntry};
use crate::domain::form::{Field, Form, Kind};
use crate::domain::leads::{self, Lead, LeadStatus, LeadType};
use crate::domain::{brands, cars, reviews};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::{ApiQuery, FormJson};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

/// Leads and the dashboard.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(list))
        .routes(routes!(one))
        .routes(routes!(set_status))
        .routes(routes!(delete))
        .routes(routes!(audit_log))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeadQuery {
    /// new, in_progress, completed, cancelled (or all)
    pub status: Option<String>,
    /// auto_credit, trade_in, auto_selection, lease_booking, contact_form, test_drive (or all)
    #[serde(rename = "type")]
    pub lead_type: Option<String>,
    /// Page size, default 500, at most 1000.
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

fn parse_filter<T>(
    value: Option<&str>,
    parse: fn(&str) -> Option<T>,
    name: &str,
) -> AppResult<Option<T>> {
    match value {
        None | Some("") | Some("all") => Ok(None),
        Some(code) => parse(code).map(Some).ok_or_else(|| {
            AppError::BadRequest(format!("Неизвестное значение параметра «{name}»: «{code}»"))
        }),
    }
}

/// Leads, newest first, optionally of one status and type.
#[utoipa::path(get, operation_id = "leads_list", path = "/api/leads", tag = "admin", params(LeadQuery),
    responses((status = 200, body = [Lead]), (status = 400, body = ApiErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<LeadQuery>,
) -> AppResult<Json<Vec<Lead>>> {
    let status = parse_filter(query.status.as_deref(), LeadStatus::parse, "status")?;
    let lead_type = parse_filter(query.lead_type.as_deref(), LeadType::parse, "type")?;
    let limit = query.limit.unwrap_or(500).clamp(1, 1000);
    let offset = query.offset.unwrap_or(0);
    Ok(Json(
        state
            .db
            .call(move |c| leads::list(c, status, lead_type, limit, offset))
            .await?,
    ))
}

/// One lead (the details opened by `/admin/leads?lead={id}`, the link of
/// the notifications: docs/notifications.md).
#[utoipa::path(get, operation_id = "leads_get", path = "/api/leads/{id}", tag = "admin",
    responses((status = 200, body = Lead), (status = 404, body = ApiErrorBody)))]
pub async fn one(State(state): State<AppState>, Path(id): Path<String>) -> AppResult<Json<Lead>> {
    state
        .db
        .call(move |c| leads::get(c, &id))
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found("Лид не найден"))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusInput {
    pub status: String,
}

impl Form for StatusInput {
    const FIELDS: &'static [Field] =
        &[Field::required("status", Kind::Code, "Выберите статус заявки").invalid(UNKNOWN_STATUS)];
}

const UNKNOWN_STATUS: &str = "Неизвестный статус заявки";

#[utoipa::path(put, path = "/api/leads/{id}/status", tag = "admin", request_body = StatusInput,
    responses((status = 200, body = Lead), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn set_status(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(input): FormJson<StatusInput>,
) -> AppResult<Json<Lead>> {
    let status = LeadStatus::parse(&input.status)
        .ok_or_else(|| AppError::invalid("status", UNKNOWN_STATUS))?;
    audited(&state, &admin, move |c| {
        let Some(before) = leads::get(c, &id)? else {
            return Ok((None, None));
        };
        let Some(after) = leads::set_status(c, &id, status)? else {
            return Ok((None, None));
        };
        let summary = format!(
            "Статус заявки «{}»: {} → {}",
            before.name,
            status_label(before.status),
            status_label(after.status)
        );
        let entry = NewEntry::new(AuditAction::Status, AuditObject::Lead, Some(&id), summary)
            .with_changes(vec![audit::change(
                "status",
                Some(before.status.as_str().into()),
                Some(after.status.as_str().into()),
            )]);
        Ok((Some(after), Some(entry)))
    })
    .await?
    .map(Json)
    .ok_or_else(|| AppError::not_found("Лид не найден"))
}

/// A lead status as the admin screens name it.
fn status_label(status: LeadStatus) -> &'static str {
    match status {
        LeadStatus::New => "Новый",
        LeadStatus::InProgress => "В работе",
        LeadStatus::Completed => "Завершён",
        LeadStatus::Cancelled => "Отменён",
    }
}

#[utoipa::path(delete, path = "/api/leads/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let found = audited(&state, &admin, move |c| {
        let Some(before) = leads::get(c, &id)? else {
            return Ok((false, None));
        };
        let found = leads::delete(c, &id)?;
        let summary = format!("Удалена заявка: {}, {}", before.name, before.phone);
        let entry = NewEntry::new(AuditAction::Delete, AuditObject::Lead, Some(&id), summary)
            .with_changes(vec![audit::change(
                "status",
                Some(before.status.as_str().into()),
                None,
            )]);
        Ok((found, found.then_some(entry)))
    })
    .await?;
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::not_found("Лид не найден"))
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    pub cars_published: i64,
    pub cars_drafts: i64,
    pub brands: i64,
    pub reviews_approved: i64,
    pub reviews_pending: i64,
    pub leads_total: i64,
    pub leads_new: i64,
    pub leads_in_progress: i64,
    /// Created since midnight, Moscow time.
    pub leads_today: i64,
    /// Notifications given up (e-mail, Telegram, amoCRM); listed by
    /// `GET /api/admin/deliveries/failed`.
    pub deliveries_failed: i64,
    /// The latest import run, when it failed (a card linking to
    /// `/admin/parser`); null otherwise.
    pub import_failed: Option<ImportFailed>,
    /// Problems the self-checks find (`GET /api/admin/checks`, its `count`).
    pub checks_count: i64,
}

/// A failed import run, for the dashboard.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportFailed {
    pub id: String,
    pub created_at: String,
    pub error: Option<String>,
}

/// Start of today in Saint Petersburg (UTC+3), as stored timestamps.
fn today_start() -> String {
    let msk = FixedOffset::east_opt(3 * 3600).expect("valid offset");
    let now = Utc::now().with_timezone(&msk);
    let midnight = now
        .date_naive()
        .and_time(NaiveTime::MIN)
        .and_local_timezone(msk)
        .single()
        .unwrap_or(now);
    midnight
        .with_timezone(&Utc)
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// All the dashboard's figures in one call.
#[utoipa::path(get, path = "/api/admin/dashboard", tag = "admin", responses((status = 200, body = Dashboard)))]
pub async fn dashboard(State(state): State<AppState>) -> AppResult<Json<Dashboard>> {
    let since = today_start();
    let checks_count = state.checks.current(&state.db, &state.clock).await?.count;
    let figures = state
        .db
        .call(move |c| {
            let (cars_published, cars_drafts) = cars::publication_counts(c)?;
            let (reviews_approved, reviews_pending) = reviews::moderation_counts(c)?;
            let (leads_total, leads_new, leads_in_progress, leads_today) =
                leads::counters(c, &since)?;
            Ok(Dashboard {
                cars_published,
                cars_drafts,
                brands: brands::list_brief(c)?.len() as i64,
                reviews_approved,
                reviews_pending,
                leads_total,
                leads_new,
                leads_in_progress,
                leads_today,
                deliveries_failed: crate::domain::outbox::failed_count(c)?,
                import_failed: crate::domain::imports::latest_failed(c)?.map(|run| ImportFailed {
                    id: run.id,
                    created_at: run.created_at,
                    error: run.error,
                }),
                checks_count,
            })
        })
        .await?;
    Ok(Json(figures))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Page size, default 20, 1 to 200.
    pub limit: Option<u32>,
    pub offset: Option<u32>,
    /// car, brand, review, lead, promotion, partner_bank, settings, body_type or banner.
    pub object_type: Option<String>,
    /// One object's entries (with `objectType`), e.g. a lead's status history.
    pub object_id: Option<String>,
}

/// A page of the audit trail.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    pub items: Vec<AuditEntry>,
    /// Entries matching the query.
    pub total: i64,
}

/// The audit trail, newest first: who changed what, when.
#[utoipa::path(get, path = "/api/admin/audit", tag = "admin", params(AuditQuery),
    responses((status = 200, body = AuditPage), (status = 400, body = ApiErrorBody),
        (status = 401, body = ApiErrorBody)))]
pub async fn audit_log(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AuditQuery>,
) -> AppResult<Json<AuditPage>> {
    let filter = AuditFilter {
        object_type: parse_filter(
            query.object_type.as_deref(),
            AuditObject::parse,
            "objectType",
        )?,
        object_id: query.object_id.filter(|id| !id.is_empty()),
    };
    let limit = query.limit.unwrap_or(20).clamp(1, 200);
    let offset = query.offset.unwrap_or(0);
    let (items, total) = state
        .db
        .call(move |c| audit::list(c, &filter, limit, offset))
        .await?;
    Ok(Json(AuditPage { items, total }))
}
