//! The team (`docs/admin.md`, "The team"): the owner's user management at
//! `/api/admin/users`, one's own password, and the invitation links a new
//! member opens without an account.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{AuditAction, AuditObject, Change, NewEntry};
use crate::domain::staff::{self, NewStaff, StaffChange, StaffUser};
use crate::error::{AppError, AppResult};
use crate::http::auth::{self, Admin};
use crate::http::credentials;
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_users, add_user))
        .routes(routes!(change_user, delete_user))
        .routes(routes!(reset_password))
        .routes(routes!(change_own_password))
}

/// Open to anyone with the link: an invitation's account and its password.
pub fn invitation_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_invitation, accept_invitation))
}

/// An account with, when one was made, the invitation link to pass on (shown
/// once: only its hash is kept).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffAnswer {
    pub user: StaffUser,
    pub invitation_url: Option<String>,
}

fn answer(state: &AppState, (user, token): (StaffUser, Option<String>)) -> StaffAnswer {
    let base = state.config.base_url.trim_end_matches('/');
    StaffAnswer {
        user,
        invitation_url: token.map(|t| format!("{base}/admin/invitation/{t}")),
    }
}

/// An account as a summary names it: «Ольга Смирнова» (olga), or the login
/// alone. The summaries speak of the account («Учётная запись … создана»),
/// so they read right whoever holds it.
fn shown(user: &StaffUser) -> String {
    if user.name.is_empty() {
        user.username.clone()
    } else {
        format!("«{}» ({})", user.name, user.username)
    }
}

/// Every staff account, by login.
#[utoipa::path(get, path = "/api/admin/users", tag = "admin",
    responses((status = 200, body = [StaffUser]), (status = 401, body = ApiErrorBody),
        (status = 403, body = ApiErrorBody)))]
pub async fn list_users(State(state): State<AppState>) -> AppResult<Json<Vec<StaffUser>>> {
    Ok(Json(state.db.call(|c| staff::list(c)).await?))
}

/// Adds a staff member: with `password`, a one-time password they change at
/// first login; without, an invitation link valid 24 hours.
#[utoipa::path(post, path = "/api/admin/users", tag = "admin", request_body = NewStaff,
    responses((status = 201, body = StaffAnswer), (status = 409, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn add_user(
    State(state): State<AppState>,
    admin: Admin,
    ApiJson(input): ApiJson<NewStaff>,
) -> AppResult<(StatusCode, Json<StaffAnswer>)> {
    let added = audited(&state, &admin, move |c| {
        let (user, token) = staff::add(c, input)?;
        let how = if token.is_some() {
            "приглашение"
        } else {
            "временный пароль"
        };
        let entry = NewEntry::new(
            AuditAction::Create,
            AuditObject::User,
            Some(&user.id),
            format!(
                "Создана учётная запись {}: {} ({how})",
                shown(&user),
                user.role.label()
            ),
        );
        Ok(((user, token), Some(entry)))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(answer(&state, added))))
}

/// Changes a name, a role, or blocks and unblocks (a block ends the user's
/// sessions). The last active owner cannot be blocked or demoted.
#[utoipa::path(put, path = "/api/admin/users/{id}", tag = "admin", request_body = StaffChange,
    responses((status = 200, body = StaffUser), (status = 404, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn change_user(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<StaffChange>,
) -> AppResult<Json<StaffUser>> {
    let user = audited(&state, &admin, move |c| {
        let before = staff::get(c, &id)?;
        let after = staff::change(c, &id, input)?;
        let mut changes = Vec::new();
        let mut change = |field: &str, from: String, to: String| {
            if from != to {
                changes.push(Change {
                    field: field.into(),
                    from: Some(from),
                    to: Some(to),
                });
            }
        };
        change("name", before.name.clone(), after.name.clone());
        change(
            "role",
            before.role.label().into(),
            after.role.label().into(),
        );
        let state_of = |u: &StaffUser| {
            if u.blocked_at.is_some() {
                "доступ закрыт"
            } else {
                "доступ открыт"
            }
        };
        change("blocked", state_of(&before).into(), state_of(&after).into());
        change("email", before.email.clone(), after.email.clone());
        change(
            "pbxNumber",
            before.pbx_number.clone(),
            after.pbx_number.clone(),
        );
        let hours = |u: &StaffUser| match &u.work_schedule {
            Some(own) => own.describe(),
            None => "как у салона".to_string(),
        };
        change("workSchedule", hours(&before), hours(&after));
        let salons_of = |u: &StaffUser| {
            if u.salon_ids.is_empty() {
                "все салоны".to_string()
            } else {
                u.salon_ids
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        change("salonIds", salons_of(&before), salons_of(&after));
        let action = match (before.blocked_at.is_some(), after.blocked_at.is_some()) {
            (false, true) => AuditAction::Block,
            (true, false) => AuditAction::Unblock,
            _ => AuditAction::Update,
        };
        let summary = match action {
            AuditAction::Block => format!("Заблокирована учётная запись {}", shown(&after)),
            AuditAction::Unblock => format!("Разблокирована учётная запись {}", shown(&after)),
            _ => format!("Изменена учётная запись {}", shown(&after)),
        };
        let entry = (!changes.is_empty()).then(|| {
            NewEntry::new(action, AuditObject::User, Some(&after.id), summary).with_changes(changes)
        });
        Ok((after, entry))
    })
    .await?;
    Ok(Json(user))
}

/// A new password for a staff member.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResetInput {
    /// A one-time password; without it an invitation link is made.
    #[serde(default)]
    pub password: Option<String>,
}

/// Resets a staff member's password (their sessions end): to a one-time
/// password, or to an invitation link valid 24 hours.
#[utoipa::path(post, path = "/api/admin/users/{id}/password", tag = "admin",
    request_body = ResetInput,
    responses((status = 200, body = StaffAnswer), (status = 404, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn reset_password(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<ResetInput>,
) -> AppResult<Json<StaffAnswer>> {
    let reset = audited(&state, &admin, move |c| {
        let (user, token) = staff::reset_password(c, &id, input.password.as_deref())?;
        let entry = NewEntry::new(
            AuditAction::Password,
            AuditObject::User,
            Some(&user.id),
            format!("Сброшен пароль учётной записи {}", shown(&user)),
        );
        Ok(((user, token), Some(entry)))
    })
    .await?;
    Ok(Json(answer(&state, reset)))
}

/// Deletes a staff account; the audit trail keeps their login on what they
/// did. The last active owner cannot be deleted.
#[utoipa::path(delete, path = "/api/admin/users/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody)))]
pub async fn delete_user(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    audited(&state, &admin, move |c| {
        let user = staff::delete(c, &id)?;
        let entry = NewEntry::new(
            AuditAction::Delete,
            AuditObject::User,
            Some(&user.id),
            format!("Удалена учётная запись {}", shown(&user)),
        );
        Ok(((), Some(entry)))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One's own new password.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OwnPassword {
    pub current_password: String,
    pub password: String,
}

/// Changes one's own password after checking the current one; the other
/// sessions end, this one stays. A one-time password is changed here.
#[utoipa::path(put, path = "/api/admin/me/password", tag = "admin", request_body = OwnPassword,
    responses((status = 204), (status = 422, body = ApiErrorBody),
        (status = 429, body = ApiErrorBody)))]
pub async fn change_own_password(
    State(state): State<AppState>,
    admin: Admin,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiJson(input): ApiJson<OwnPassword>,
) -> AppResult<StatusCode> {
    match auth::check_password(
        &state,
        admin.user.username.clone(),
        input.current_password,
        ip.to_string(),
        false,
    )
    .await
    {
        Ok(_) => {}
        Err(AppError::Unauthorized(_)) => {
            return Err(AppError::invalid(
                "currentPassword",
                staff::WRONG_CURRENT_PASSWORD,
            ));
        }
        Err(other) => return Err(other),
    }
    let keep = credentials::session_token(&headers);
    let user_id = admin.user.id.clone();
    audited(&state, &admin, move |c| {
        staff::set_own_password(c, &user_id, &input.password, keep.as_deref())?;
        let entry = NewEntry::new(
            AuditAction::Password,
            AuditObject::User,
            Some(&user_id),
            "Сменён пароль своей учётной записи",
        );
        Ok(((), Some(entry)))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An invitation's account, for the page that sets its password.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub username: String,
    pub name: String,
}

/// Whom an invitation link is for; 404 when it was used or has expired.
#[utoipa::path(get, path = "/api/invitations/{token}", tag = "admin",
    responses((status = 200, body = Invitation), (status = 404, body = ApiErrorBody)))]
pub async fn get_invitation(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> AppResult<Json<Invitation>> {
    let user = state.db.call(move |c| staff::invitation(c, &token)).await?;
    Ok(Json(Invitation {
        username: user.username,
        name: user.name,
    }))
}

/// The password an invitation sets.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InvitationPassword {
    pub password: String,
}

/// Sets the invited member's password; the link works once. They then log in
/// with it.
#[utoipa::path(post, path = "/api/invitations/{token}", tag = "admin",
    request_body = InvitationPassword,
    responses((status = 200, body = Invitation), (status = 404, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn accept_invitation(
    State(state): State<AppState>,
    Path(token): Path<String>,
    ApiJson(input): ApiJson<InvitationPassword>,
) -> AppResult<Json<Invitation>> {
    let user = state
        .db
        .call(move |c| {
            let at = crate::domain::now();
            let invited = staff::invitation(c, &token)?;
            crate::domain::audit::audited_at(c, &at, &invited.username, |c| {
                let user = staff::accept_invitation(c, &token, &input.password)?;
                let entry = NewEntry::new(
                    AuditAction::Password,
                    AuditObject::User,
                    Some(&user.id),
                    format!(
                        "Задан пароль по приглашению: учётная запись {}",
                        shown(&user)
                    ),
                );
                Ok((user, Some(entry)))
            })
        })
        .await?;
    Ok(Json(Invitation {
        username: user.username,
        name: user.name,
    }))
}
