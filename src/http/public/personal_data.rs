//! The withdrawal link of a visitor mail (`docs/personal-data.md`,
//! "Withdrawing by a link"): without logging in, the person withdraws the
//! consent and everything held about the address is erased. The page
//! (`/personal-data/forget?token=T`) asks before it sends the token: mail
//! scanners open links, and a click is the person's own. Limited like the
//! lead form, per client address, and per e-mail address (any spelling).

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::destruction_acts::{self, ActReason, ActRecord};
use crate::domain::person_data::{self, Subject};
use crate::domain::saved_searches::mask_email;
use crate::domain::withdrawal::{self, LINK_INVALID, RATE_LIMITED};
use crate::domain::{audit, data_requests};
use crate::error::{AppError, AppResult};
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(forget))
}

/// The link's token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetInput {
    pub token: String,
}

/// What was forgotten: the address, masked.
#[derive(Debug, Serialize, ToSchema)]
pub struct Forgotten {
    /// "a***@b.ru"
    pub email: String,
}

/// Withdraws the consent of the mail's address and erases everything held
/// about it (leads by that address, subscriptions, mails, mentions in the
/// log); recorded as an answered request with a destruction act. A spent
/// or unknown token: 404.
#[utoipa::path(post, path = "/api/personal-data/forget", tag = "personal-data",
    request_body = ForgetInput,
    responses(
        (status = 200, body = Forgotten),
        (status = 404, body = ApiErrorBody, description = "Unknown or spent link"),
        (status = 422, body = ApiErrorBody),
        (status = 429, body = ApiErrorBody, description = "Too many requests from this client \
            address or for this e-mail address: send again after `Retry-After` seconds",
            headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
pub async fn forget(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    body: Result<ApiJson<ForgetInput>, AppError>,
) -> Result<Json<Forgotten>, Response> {
    if !state.forget_limiter.allow(ip) {
        return Err(too_many(state.forget_limiter.retry_after()));
    }
    let ApiJson(input) = body.map_err(IntoResponse::into_response)?;
    match withdraw(&state, input.token).await {
        Ok(email) => Ok(Json(Forgotten { email })),
        Err(Refusal::TooMany(seconds)) => Err(too_many(seconds)),
        Err(Refusal::Invalid) => Err(AppError::not_found(LINK_INVALID).into_response()),
        Err(Refusal::Failed(error)) => Err(error.into_response()),
    }
}

/// Why a withdrawal was not done.
#[derive(Debug)]
pub enum Refusal {
    /// Past a limit: send again after this many seconds.
    TooMany(u64),
    /// An unknown or spent link.
    Invalid,
    Failed(AppError),
}

/// The client's limit, checked before anything else is read: `Err` holds
/// the seconds to wait.
pub fn client_allowed(state: &AppState, ip: std::net::IpAddr) -> Result<(), u64> {
    if state.forget_limiter.allow(ip) {
        Ok(())
    } else {
        Err(state.forget_limiter.retry_after())
    }
}

/// Withdraws the consent of the address `token` was issued for and erases
/// what is held about it, within the address's limit: the address, masked.
/// The JSON call above and the page's plain form
/// (`POST /personal-data/forget`, `http::pages`) both come here after
/// [`client_allowed`].
pub async fn withdraw(state: &AppState, token: String) -> Result<String, Refusal> {
    let lookup = token.clone();
    let known = state
        .db
        .read(move |c| withdrawal::address(c, &lookup))
        .await
        .map_err(Refusal::Failed)?;
    let Some(email) = known else {
        return Err(Refusal::Invalid);
    };
    let key = crate::domain::email::canonical(&email);
    if !state.forget_address_limiter.allow(key) {
        return Err(Refusal::TooMany(state.forget_address_limiter.retry_after()));
    }
    match erase(state, ForgetInput { token }).await {
        Ok(email) => Ok(email),
        // Spent by another request in between.
        Err(error) if error.status() == StatusCode::NOT_FOUND => Err(Refusal::Invalid),
        Err(error) => Err(Refusal::Failed(error)),
    }
}

/// The address a link was issued for, masked, when the link works: what the
/// page says before it asks (reading changes nothing).
pub async fn link_address(state: &AppState, token: String) -> AppResult<Option<String>> {
    let email = state
        .db
        .read(move |c| withdrawal::address(c, &token))
        .await?;
    Ok(email.as_deref().map(mask_email))
}

/// 429 with the lead form's kind of message and `Retry-After`.
fn too_many(seconds: u64) -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, HeaderValue::from(seconds))],
        Json(serde_json::json!({ "error": RATE_LIMITED })),
    )
        .into_response()
}

async fn erase(state: &AppState, input: ForgetInput) -> AppResult<String> {
    let now = state.clock.now();
    let today = state.clock.moscow_today();
    let at = crate::notify::timestamp(now);
    let email = state
        .db
        .call(move |c| {
            let Some(email) = withdrawal::address(c, &input.token)? else {
                return Err(AppError::not_found(LINK_INVALID));
            };
            let who = Subject {
                phone: None,
                email: Some(email.clone()),
            };
            audit::audited_at(c, &at, "", |c| {
                let erased = person_data::erase(c, &who)?;
                data_requests::record_withdrawal(c, &email, today)?;
                let record = ActRecord::of(&erased);
                if !record.is_empty() {
                    destruction_acts::record(
                        c,
                        ActReason::Withdrawal,
                        "Отзыв субъектом согласия на обработку персональных данных",
                        "",
                        &[record],
                        &erased,
                        now,
                    )?;
                }
                let entry = audit::NewEntry::new(
                    audit::AuditAction::Erase,
                    audit::AuditObject::PersonalData,
                    None,
                    format!(
                        "Согласие отозвано по ссылке из письма: удалено заявок {}, подписок {}",
                        erased.leads, erased.subscriptions
                    ),
                );
                Ok(((), Some(entry)))
            })?;
            Ok(email)
        })
        .await?;
    if !state.db.forget_old_versions().await? {
        tracing::info!("a reader held the log; the next checkpoint empties it");
    }
    Ok(mask_email(&email))
}
