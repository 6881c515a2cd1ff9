//! POST /api/leads: every request form of the site.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::calltracking::callback::{self, Pbx};
use crate::domain::leads::{self, CallbackState, Lead, LeadInput, LeadType};
use crate::domain::{legal, salons, settings};
use crate::error::{AppError, AppResult};
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;
use crate::notify;

pub const RATE_LIMITED: &str =
    "Слишком много заявок с вашего адреса. Пожалуйста, подождите минуту и попробуйте снова.";

/// A lead the database did not store (a full disk, a read-only file): the
/// visitor is told to send it again or call; the phone follows.
pub const NOT_STORED: &str = "Не удалось сохранить заявку из-за сбоя на сервере. \
     Пожалуйста, отправьте её ещё раз через минуту или позвоните нам";

/// Seconds after which a refused lead may be sent again (`Retry-After`).
pub const RETRY_AFTER_SECONDS: u32 = 60;

/// The one public write.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create))
}

/// Stores a visitor's request with status `new` and answers with it.
#[utoipa::path(post, path = "/api/leads", tag = "leads", request_body = LeadInput,
    responses(
        (status = 201, body = Lead, description = "Stored"),
        (status = 400, body = ApiErrorBody, description = "Malformed JSON"),
        (status = 413, body = ApiErrorBody), (status = 415, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody, description = "A field breaks a rule; `field` names it"),
        (status = 429, body = ApiErrorBody, description = "Too many requests from this address"),
        (status = 503, body = ApiErrorBody, description = "Not stored (the database refuses writes): \
            send again after `Retry-After` seconds; the message gives the dealer's phone",
            headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
pub async fn create(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    body: Result<ApiJson<LeadInput>, AppError>,
) -> AppResult<(StatusCode, Json<Lead>)> {
    if !state.lead_limiter.allow(ip) {
        return Err(AppError::TooManyRequests(RATE_LIMITED.into()));
    }
    let ApiJson(input) = body?;
    let is_bot = input.is_bot();
    let now = state.clock.moscow_now();
    let ip_text = ip.to_string();
    let config = state.config.clone();
    let pbx = Pbx::of(&state.call_providers);
    let has_pbx = pbx.is_some();
    // Leads arriving together share one commit (and one disk sync). The
    // notifications are queued in it too (docs/notifications.md).
    let stored = state
        .db
        .write_grouped(move |c| {
            let settings = settings::get(c)?;
            // The salon that owns the lead: the car's, or the visitor's
            // choice on a general form (`docs/salons.md`); its hours bound a
            // test drive and its operator's texts are what was agreed to.
            let salon = salons::of_lead(c, input.car_id.as_deref(), input.salon_id)?;
            let salon_column = salons::column(salon);
            let schedule = salons::schedule_of(c, &settings, salon_column)?;
            let consent_version = legal::salon_consent_version(c, &settings, salon)?;
            let mut valid = input.validate_at(consent_version, &ip_text, now, &schedule)?;
            valid.in_salon(salon_column);
            if is_bot {
                // Looks accepted to the bot; nothing is stored.
                return Ok((valid.into_unsaved(), Vec::new()));
            }
            let mut lead = leads::insert(c, valid)?;
            let channels = notify::arrival::announce(c, &config, &settings, &lead, now.to_utc())?;
            // «Перезвоните мне»: stored and assigned; now what the PBX does.
            if lead.lead_type == LeadType::Callback {
                let state = callback::decide(c, &lead.id, &schedule, has_pbx, now.to_utc())?;
                lead = leads::get(c, &lead.id)?.unwrap_or(lead);
                debug_assert_eq!(lead.callback_state, Some(state));
            }
            Ok((lead, channels))
        })
        .await;
    let (lead, queued) = match stored {
        Ok(stored) => stored,
        Err(AppError::Internal(cause)) => return Err(not_stored(&state, cause).await),
        Err(refused) => return Err(refused),
    };
    // While every channel of the lead is paused after failures (its server
    // is down) the worker wakes by itself at the pause's end.
    if state.channels.any_ready(&queued) {
        state.wake.notify_one();
    }
    if is_bot {
        tracing::info!(%ip, "honeypot filled; lead dropped");
    } else if let (Some(pbx), Some(CallbackState::Calling)) = (pbx, lead.callback_state) {
        // The PBX is asked off the request: the visitor is answered now.
        let sync = state.call_sync();
        let (id, phone) = (lead.id.clone(), lead.phone.clone());
        tokio::spawn(async move {
            if let Err(err) = callback::ring(&sync, pbx, id, phone).await {
                tracing::error!("callback not recorded: {err:#}");
            }
        });
    }
    Ok((StatusCode::CREATED, Json(lead)))
}

/// The answer to a lead the database failed to store: 503, when to send it
/// again, and the dealer's phone (read from the settings, which a database
/// that refuses writes still reads).
async fn not_stored(state: &AppState, cause: anyhow::Error) -> AppError {
    let phone = state
        .db
        .read(|c| Ok(settings::get(c)?.public.phone))
        .await
        .ok()
        .map(|phone| phone.trim().to_string())
        .filter(|phone| !phone.is_empty());
    let message = match phone {
        Some(phone) => format!("{NOT_STORED}: {phone}"),
        None => format!("{NOT_STORED}."),
    };
    AppError::Unavailable {
        message,
        retry_after_seconds: RETRY_AFTER_SECONDS,
        cause: cause.context("lead not stored"),
    }
}
