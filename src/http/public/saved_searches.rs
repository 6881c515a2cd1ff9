//! Saved searches of visitors (docs/saved-searches.md): the request form,
//! the confirmation link and the unsubscribe link (also RFC 8058 one-click).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::outbox::Channel;
use crate::domain::saved_searches::{self, Confirmed, LINK_INVALID, SubscribeInput, Unsubscribed};
use crate::domain::settings;
use crate::error::{AppError, AppResult};
use crate::http::extract::{ApiJson, ApiQuery, ClientIp};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub const RATE_LIMITED: &str =
    "Слишком много запросов с вашего адреса. Пожалуйста, подождите минуту и попробуйте снова.";

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_saved_search))
        .routes(routes!(confirm_saved_search))
        .routes(routes!(unsubscribe_saved_search))
}

/// The answer to a request to follow a filter.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscribeAnswer {
    /// Always `confirmation_sent`: whether the address already follows the
    /// filter is never told.
    pub status: String,
    /// "Новые · Haval · до 3 000 000 ₽"
    pub description: String,
}

/// A link's token.
#[derive(Debug, Default, Deserialize, ToSchema, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TokenBody {
    /// The token of the mailed link.
    #[serde(default)]
    pub token: Option<String>,
}

/// Asks to be told about new cars and price drops matching a catalogue
/// filter. Stores the request unconfirmed and mails a confirmation link;
/// nothing else is sent before it is followed. `field` of a 422 is `email`,
/// `filter.status`, `filter.brandId`, `filter.bodyType`, `filter.maxPrice`,
/// `pageUrl`, `consent` or `advertisingConsent`.
#[utoipa::path(post, path = "/api/saved-searches", tag = "saved-searches",
    request_body = SubscribeInput,
    responses(
        (status = 202, body = SubscribeAnswer, description = "Confirmation mailed (or already following)"),
        (status = 400, body = ApiErrorBody, description = "Malformed JSON"),
        (status = 413, body = ApiErrorBody), (status = 415, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody, description = "A field breaks a rule; `field` names it"),
        (status = 429, body = ApiErrorBody, description = "Too many requests from this address"),
    ))]
pub async fn create_saved_search(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    body: Result<ApiJson<SubscribeInput>, AppError>,
) -> AppResult<(StatusCode, Json<SubscribeAnswer>)> {
    if !state.saved_search_limiter.allow(ip) {
        return Err(AppError::TooManyRequests(RATE_LIMITED.into()));
    }
    let ApiJson(input) = body?;
    let is_bot = input.is_bot();
    let now = state.clock.now();
    let ip_text = ip.to_string();
    let base = state.config.base().to_string();
    let subscribed = state
        .db
        .write_grouped(move |c| {
            let valid = input.validate(c, &base)?;
            if is_bot {
                // Looks accepted to the bot; nothing is stored or sent.
                return Ok(saved_searches::Subscribed {
                    description: valid.description,
                    queued: false,
                });
            }
            let settings = settings::get(c)?;
            saved_searches::subscribe(
                c,
                valid,
                settings.public.consent_version,
                settings.visitor_mail_daily_limit,
                &ip_text,
                now,
            )
        })
        .await?;
    if subscribed.queued && state.channels.any_ready(&[Channel::Email]) {
        state.wake.notify_one();
    }
    if is_bot {
        tracing::info!(%ip, "honeypot filled; saved search dropped");
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(SubscribeAnswer {
            status: "confirmation_sent".into(),
            description: subscribed.description,
        }),
    ))
}

/// Follows the confirmation link of the mail (`/saved-searches/confirm?token=T`):
/// the search is followed from now on. Again on a followed link: the same 200.
#[utoipa::path(post, path = "/api/saved-searches/confirm", tag = "saved-searches",
    request_body = TokenBody,
    responses(
        (status = 200, body = Confirmed, description = "Confirmed"),
        (status = 400, body = ApiErrorBody, description = "Malformed JSON"),
        (status = 404, body = ApiErrorBody, description = "Unknown or expired link"),
    ))]
pub async fn confirm_saved_search(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<TokenBody>,
) -> AppResult<Json<Confirmed>> {
    let token = body.token.unwrap_or_default();
    let now = state.clock.now();
    let ip = ip.to_string();
    state
        .db
        .write_grouped(move |c| saved_searches::confirm(c, token.trim(), &ip, now))
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(LINK_INVALID))
}

/// Follows an unsubscribe link: the token in a JSON body (the page
/// `/saved-searches/unsubscribe?token=U`) or in the query (the mail's
/// `List-Unsubscribe` one-click POST of RFC 8058, whose form body is
/// ignored). Again on an unsubscribed link: the same 200.
#[utoipa::path(post, path = "/api/saved-searches/unsubscribe", tag = "saved-searches",
    params(TokenBody),
    request_body(content = Option<TokenBody>, description = "The token, unless in the query"),
    responses(
        (status = 200, body = Unsubscribed, description = "Unsubscribed"),
        (status = 400, body = ApiErrorBody, description = "Malformed JSON"),
        (status = 404, body = ApiErrorBody, description = "Unknown link"),
    ))]
pub async fn unsubscribe_saved_search(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<TokenBody>,
    body: Bytes,
) -> AppResult<Json<Unsubscribed>> {
    let token = match query.token.filter(|t| !t.trim().is_empty()) {
        Some(token) => token,
        None => {
            // No body, or JSON `null`, is a body without a token (the
            // document makes the body optional): an unknown link.
            let body: Option<TokenBody> = if body.trim_ascii().is_empty() {
                None
            } else {
                serde_json::from_slice(&body)
                    .map_err(|_| AppError::BadRequest("Неверный JSON".into()))?
            };
            body.and_then(|b| b.token).unwrap_or_default()
        }
    };
    let now = state.clock.now();
    state
        .db
        .write_grouped(move |c| saved_searches::unsubscribe(c, token.trim(), now))
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(LINK_INVALID))
}
