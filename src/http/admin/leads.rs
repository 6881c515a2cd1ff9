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
use crate::domain::leads::{self, Assignees, Lead, LeadStatus, LeadType};
use crate::domain::outbox::Channel;
use crate::domain::{brands, cars, reviews, settings};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::{ApiJson, ApiQuery, FormJson, MAX_OFFSET, paging};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;
use crate::notify;

/// Leads and the dashboard.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(list))
        .routes(routes!(one))
        .routes(routes!(set_status))
        .routes(routes!(set_assignee))
        .routes(routes!(delete))
        .routes(routes!(audit_log))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeadQuery {
    /// new, in_progress, completed, cancelled (or all)
    #[param(pattern = "^(|all|new|in_progress|completed|cancelled)$")]
    pub status: Option<String>,
    /// auto_credit, trade_in, auto_selection, lease_booking, contact_form, test_drive,
    /// marketplace_call, missed_call, phone_call, callback (or all)
    #[param(
        pattern = "^(|all|auto_credit|trade_in|auto_selection|lease_booking|contact_form|test_drive|marketplace_call|missed_call|phone_call|callback)$"
    )]
    #[serde(rename = "type")]
    pub lead_type: Option<String>,
    /// Whose: `mine`, `none` (unassigned), `all`, or a user's id. A manager
    /// sees their own and the unassigned (`all` is those), an owner every
    /// lead.
    pub assignee: Option<String>,
    /// Page size, default 500, 1 to 1000.
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Leads to skip, default 0.
    #[param(minimum = 0, maximum = 2147483647)]
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

pub const LEAD_NOT_FOUND: &str = "Лид не найден";
pub const ANOTHERS_LEAD: &str = "Заявка закреплена за другим сотрудником";
pub const ANOTHER_SALONS_LEAD: &str = "Заявка другого салона";
const NOT_A_TAKER: &str =
    "Заявку можно передать только действующему сотруднику с доступом к заявкам";

/// Which leads `admin` may ask for with `assignee`.
fn assignees_for(admin: &Admin, assignee: Option<&str>) -> AppResult<Assignees> {
    let me = admin.user.id.clone();
    let every = admin.user.role.sees_every_lead();
    Ok(match assignee.unwrap_or("all") {
        "" | "all" if every => Assignees::All,
        "" | "all" => Assignees::OwnAndUnassigned(me),
        "mine" => Assignees::Of(me),
        "none" if every => Assignees::Nobody,
        "none" => Assignees::UnassignedOf(me),
        id if every || id == me => Assignees::Of(id.to_string()),
        _ => return Err(AppError::Forbidden(ANOTHERS_LEAD.into())),
    })
}

/// 403 when `lead` is someone else's and the admin sees only their own and
/// the unassigned.
pub(crate) fn check_lead_access(admin: &Admin, lead: &Lead) -> AppResult<()> {
    let theirs = lead
        .assignee_id
        .as_deref()
        .is_none_or(|id| id == admin.user.id);
    if admin.user.role.sees_every_lead() || theirs {
        Ok(())
    } else {
        Err(AppError::Forbidden(ANOTHERS_LEAD.into()))
    }
}

/// The lead `id` if the admin may see it: 404 for none, 403 for another's.
pub(crate) fn lead_for(c: &rusqlite::Connection, admin: &Admin, id: &str) -> AppResult<Lead> {
    let lead = leads::get(c, id)?.ok_or_else(|| AppError::not_found(LEAD_NOT_FOUND))?;
    check_lead_access(admin, &lead)?;
    // An unassigned lead of another salon is that salon's managers'.
    if !admin.user.role.sees_every_lead()
        && lead.assignee_id.is_none()
        && !leads::in_users_salons(c, &admin.user.id, &lead)?
    {
        return Err(AppError::Forbidden(ANOTHER_SALONS_LEAD.into()));
    }
    Ok(lead)
}

/// Leads, newest first, optionally of one status, type and assignee.
#[utoipa::path(get, operation_id = "leads_list", path = "/api/leads", tag = "admin", params(LeadQuery),
    responses((status = 200, body = [Lead]), (status = 400, body = ApiErrorBody),
        (status = 403, body = ApiErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    admin: Admin,
    ApiQuery(query): ApiQuery<LeadQuery>,
) -> AppResult<Json<Vec<Lead>>> {
    let status = parse_filter(query.status.as_deref(), LeadStatus::parse, "status")?;
    let lead_type = parse_filter(query.lead_type.as_deref(), LeadType::parse, "type")?;
    let assignees = assignees_for(&admin, query.assignee.as_deref())?;
    let limit = paging("limit", query.limit, 500, 1..=1000)?;
    let offset = paging("offset", query.offset, 0, 0..=MAX_OFFSET)?;
    Ok(Json(
        state
            .db
            .call(move |c| leads::list(c, status, lead_type, &assignees, limit, offset))
            .await?,
    ))
}

/// One lead (the details opened by `/admin/leads?lead={id}`, the link of
/// the notifications: docs/notifications.md); 403 for another manager's.
#[utoipa::path(get, operation_id = "leads_get", path = "/api/leads/{id}", tag = "admin",
    responses((status = 200, body = Lead), (status = 403, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody)))]
pub async fn one(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<Json<Lead>> {
    Ok(Json(
        state.db.call(move |c| lead_for(c, &admin, &id)).await?,
    ))
}

/// Who a lead goes to.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssigneeInput {
    /// A user's id; null leaves the lead unassigned.
    pub assignee_id: Option<String>,
}

/// Assigns a lead. An owner gives it to any active staff member who takes
/// leads, or to no one; a manager takes an unassigned lead or gives up
/// their own.
#[utoipa::path(put, path = "/api/leads/{id}/assignee", tag = "admin", request_body = AssigneeInput,
    responses((status = 200, body = Lead), (status = 403, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn set_assignee(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<AssigneeInput>,
) -> AppResult<Json<Lead>> {
    let me = admin.user.id.clone();
    let every = admin.user.role.sees_every_lead();
    let viewer = admin.clone();
    let config = state.config.clone();
    let (lead, told) = audited(&state, &admin, move |c| {
        let before = lead_for(c, &viewer, &id)?;
        let to = input.assignee_id.filter(|a| !a.is_empty());
        if !every && to.as_deref().is_some_and(|a| a != me) {
            return Err(AppError::Forbidden(ANOTHERS_LEAD.into()));
        }
        // Who it goes to: an active member who takes leads.
        let taker = match &to {
            Some(to) => match crate::domain::staff::get(c, to).ok() {
                Some(u) if u.blocked_at.is_none() && u.role.takes_leads() => Some(u),
                _ => return Err(AppError::invalid("assigneeId", NOT_A_TAKER)),
            },
            None => None,
        };
        let after = leads::assign(c, &id, to.as_deref())?
            .ok_or_else(|| AppError::not_found(LEAD_NOT_FOUND))?;
        if before.assignee_id == after.assignee_id {
            return Ok(((after, false), None));
        }
        // Someone given a lead by another is told; one who takes it is not.
        let mut told = false;
        if let Some(taker) = taker.filter(|t| t.id != me) {
            let settings = settings::get(c)?;
            let now = crate::domain::now();
            let user = (taker.id.as_str(), taker.email.as_str());
            told = notify::assigned::queue(c, &config, &settings, &id, user, &now)?;
        }
        let summary = match &after.assignee_name {
            Some(name) => format!("Заявка «{}» передана: {name}", after.name),
            None => format!("Заявка «{}» снята с сотрудника", after.name),
        };
        let entry = NewEntry::new(AuditAction::Assign, AuditObject::Lead, Some(&id), summary)
            .with_changes(vec![audit::change(
                "assignee",
                before.assignee_name.clone(),
                after.assignee_name.clone(),
            )]);
        Ok(((after, told), Some(entry)))
    })
    .await?;
    if told && state.channels.any_ready(&[Channel::Email]) {
        state.wake.notify_one();
    }
    Ok(Json(lead))
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
    let viewer = admin.clone();
    audited(&state, &admin, move |c| {
        let before = lead_for(c, &viewer, &id)?;
        // A manager who answers an unassigned lead takes it.
        let takes = before.assignee_id.is_none() && !viewer.user.role.sees_every_lead();
        if takes {
            leads::assign(c, &id, Some(&viewer.user.id))?;
        }
        let after = leads::set_status(c, &id, status)?
            .ok_or_else(|| AppError::not_found(LEAD_NOT_FOUND))?;
        let mut summary = format!(
            "Статус заявки «{}»: {} → {}",
            before.name,
            status_label(before.status),
            status_label(after.status)
        );
        let mut changes = vec![audit::change(
            "status",
            Some(before.status.as_str().into()),
            Some(after.status.as_str().into()),
        )];
        if takes {
            summary.push_str("; заявку взял(а) ");
            summary.push_str(viewer.user.shown_name());
            changes.push(audit::change("assignee", None, after.assignee_name.clone()));
        }
        let entry = NewEntry::new(AuditAction::Status, AuditObject::Lead, Some(&id), summary)
            .with_changes(changes);
        Ok((after, Some(entry)))
    })
    .await
    .map(Json)
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
        // The trail says which lead, never whose: a deletion is often the
        // person's own request (docs/personal-data.md).
        let summary = format!(
            "Удалена заявка «{}» от {}",
            crate::notify::message::type_label(before.lead_type),
            crate::notify::message::moscow_time(&before.created_at)
        );
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
        // Its old versions leave the write-ahead log too.
        if !state.db.forget_old_versions().await? {
            tracing::info!("a reader held the log; the next checkpoint empties it");
        }
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
    /// The site's health, as `/healthz` reports it: the system card.
    pub system: crate::http::health::SystemStatus,
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

/// All the dashboard's figures in one call; the cars' and the leads' of
/// one salon with `salon` (`docs/salons.md`).
#[utoipa::path(get, path = "/api/admin/dashboard", tag = "admin",
    params(crate::domain::salons::SalonQuery),
    responses((status = 200, body = Dashboard), (status = 400, body = ApiErrorBody)))]
pub async fn dashboard(
    State(state): State<AppState>,
    admin: Admin,
    ApiQuery(query): ApiQuery<crate::domain::salons::SalonQuery>,
) -> AppResult<Json<Dashboard>> {
    let salon = crate::domain::salons::checked_salon(query.salon)?;
    let since = today_start();
    // The leads' figures count what this person may see (a manager: their
    // own and the unassigned), as the list does.
    let assignees = assignees_for(&admin, None)?;
    let system = crate::http::health::report(&state).await;
    let checks_count = state.checks.current(&state.db, &state.clock).await?.count
        + system
            .replication
            .as_ref()
            .map_or(0, |status| status.problems.len() as i64);
    let figures = state
        .db
        .call(move |c| {
            let (cars_published, cars_drafts) = match salon {
                Some(id) => cars::publication_counts_in(c, id)?,
                None => cars::publication_counts(c)?,
            };
            let (reviews_approved, reviews_pending) = reviews::moderation_counts(c)?;
            let (leads_total, leads_new, leads_in_progress, leads_today) =
                leads::counters(c, &since, &assignees, salon)?;
            Ok(Dashboard {
                cars_published,
                cars_drafts,
                brands: brands::count(c)?,
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
                system,
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
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// Entries to skip, default 0.
    #[param(minimum = 0, maximum = 2147483647)]
    pub offset: Option<u32>,
    /// car, brand, review, lead, promotion, partner_bank, credit_program,
    /// settings, body_type, banner, import, user or personal_data (or all).
    #[param(
        pattern = "^(|all|car|brand|review|lead|promotion|partner_bank|credit_program|settings|body_type|banner|import|user|personal_data)$"
    )]
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
    let limit = paging("limit", query.limit, 20, 1..=200)?;
    let offset = paging("offset", query.offset, 0, 0..=MAX_OFFSET)?;
    let (items, total) = state
        .db
        .call(move |c| audit::list(c, &filter, limit, offset))
        .await?;
    Ok(Json(AuditPage { items, total }))
}
