//! POST /api/leads: every request form of the site.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::leads::{self, Lead, LeadInput};
use crate::domain::{lead_assignment, outbox, settings};
use crate::error::{AppError, AppResult};
use crate::http::extract::{ApiJson, ClientIp};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;
use crate::notify;

pub const RATE_LIMITED: &str =
    "Слишком много заявок с вашего адреса. Пожалуйста, подождите минуту и попробуйте снова.";

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
    // Leads arriving together share one commit (and one disk sync). The
    // notifications are queued in it too (docs/notifications.md).
    let (lead, queued) = state
        .db
        .write_grouped(move |c| {
            let settings = settings::get(c)?;
            let valid = input.validate_at(
                settings.public.consent_version,
                &ip_text,
                now,
                &settings.public.work_schedule,
            )?;
            if is_bot {
                // Looks accepted to the bot; nothing is stored.
                return Ok((valid.into_unsaved(), Vec::new()));
            }
            let lead = leads::insert(c, valid)?;
            let mut channels = notify::channels_for(&config, &settings);
            outbox::enqueue(c, &lead.id, &channels, &lead.created_at)?;
            // The lead is kept whatever happens to its assignment.
            let rule = settings.lead_assignment;
            let schedule = &settings.public.work_schedule;
            match lead_assignment::assign_new(c, &lead.id, rule, schedule, now.to_utc()) {
                Ok(Some(to)) => {
                    let user = (to.id.as_str(), to.email.as_str());
                    let told = notify::assigned::queue(
                        c,
                        &config,
                        &settings,
                        &lead.id,
                        user,
                        &lead.created_at,
                    )?;
                    if told && !channels.contains(&outbox::Channel::Email) {
                        channels.push(outbox::Channel::Email);
                    }
                }
                Ok(None) => {}
                Err(err) => tracing::error!(lead = %lead.id, "lead not assigned: {err}"),
            }
            Ok((lead, channels))
        })
        .await?;
    // While every channel of the lead is paused after failures (its server
    // is down) the worker wakes by itself at the pause's end.
    if state.channels.any_ready(&queued) {
        state.wake.notify_one();
    }
    if is_bot {
        tracing::info!(%ip, "honeypot filled; lead dropped");
    }
    Ok((StatusCode::CREATED, Json(lead)))
}
