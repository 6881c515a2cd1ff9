//! Admin calls for notifications: a lead's deliveries and their retry, the
//! failed deliveries, the test e-mail, and the amoCRM integration
//! (docs/notifications.md).

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::leads;
use crate::domain::outbox::{self, Channel, Delivery, FailedDelivery};
use crate::domain::settings;
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::{ApiJson, ApiQuery};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(lead_deliveries))
        .routes(routes!(retry_deliveries))
        .routes(routes!(failed_deliveries))
        .routes(routes!(test_email))
        .routes(routes!(amocrm_status))
        .routes(routes!(amocrm_auth_url))
        .routes(routes!(amocrm_callback))
        .routes(routes!(amocrm_test))
}

pub const LEAD_NOT_FOUND: &str = "Лид не найден";

/// Each channel's delivery of a lead: queued (with the next try), sending,
/// sent (with the time) or failed (with the last error). Empty for a lead
/// without deliveries (or an unknown id).
#[utoipa::path(get, path = "/api/admin/leads/{id}/deliveries", tag = "admin",
    responses((status = 200, body = [Delivery])))]
pub async fn lead_deliveries(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<Json<Vec<Delivery>>> {
    Ok(Json(
        state
            .db
            .call(move |c| {
                // Another manager's lead is theirs; an unknown id has none.
                if let Some(lead) = leads::get(c, &id)? {
                    super::leads::check_lead_access(&admin, &lead)?;
                }
                outbox::for_lead(c, &id)
            })
            .await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RetryQuery {
    /// email, telegram or amocrm; all failed channels when absent (or all).
    #[param(pattern = "^(|all|email|telegram|amocrm)$")]
    pub channel: Option<String>,
}

/// Queues a lead's failed deliveries again, due at once with a new round
/// of tries; answers with the lead's deliveries.
#[utoipa::path(post, path = "/api/admin/leads/{id}/deliveries/retry", tag = "admin",
    params(RetryQuery),
    responses((status = 200, body = [Delivery]), (status = 400, body = ApiErrorBody),
        (status = 404, body = ApiErrorBody)))]
pub async fn retry_deliveries(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<RetryQuery>,
) -> AppResult<Json<Vec<Delivery>>> {
    let channel = match query.channel.as_deref() {
        None | Some("") | Some("all") => None,
        Some(code) => Some(Channel::parse(code).ok_or_else(|| {
            AppError::BadRequest(format!("Неизвестный канал уведомлений «{code}»"))
        })?),
    };
    let channels = state.channels.clone();
    let (deliveries, retried) = state
        .db
        .call(move |c| {
            let Some(lead) = leads::get(c, &id)? else {
                return Ok(None);
            };
            super::leads::check_lead_access(&admin, &lead)?;
            let retried = outbox::retry_lead(c, &id, channel, &crate::domain::now())?;
            // A channel whose settings were removed fails again at once.
            channels.fail_unconfigured(c)?;
            Ok(Some((outbox::for_lead(c, &id)?, retried)))
        })
        .await?
        .ok_or_else(|| AppError::not_found(LEAD_NOT_FOUND))?;
    if retried > 0 {
        // Tried now, not after the pause the channel's failures set.
        state.channels.resume(channel);
        state.wake.notify_one();
    }
    Ok(Json(deliveries))
}

/// Failed deliveries, for the dashboard.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailedDeliveries {
    /// All failed deliveries.
    pub count: i64,
    /// The latest 50, newest first.
    pub items: Vec<FailedDelivery>,
}

#[utoipa::path(get, path = "/api/admin/deliveries/failed", tag = "admin",
    responses((status = 200, body = FailedDeliveries)))]
pub async fn failed_deliveries(State(state): State<AppState>) -> AppResult<Json<FailedDeliveries>> {
    let (count, items) = state
        .db
        .call(|c| Ok((outbox::failed_count(c)?, outbox::failed(c, 50)?)))
        .await?;
    Ok(Json(FailedDeliveries { count, items }))
}

/// The result of a test (e-mail or amoCRM).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    pub success: bool,
    pub message: String,
    /// The lead created in amoCRM by its test.
    pub amo_lead_id: Option<i64>,
}

pub const EMAIL_TEST_SENT: &str = "Тестовое письмо отправлено";
pub const SMTP_NOT_CONFIGURED: &str = "Отправка почты не настроена: укажите сервер SMTP в файле «dealership.toml» (раздел «[smtp]», ключ «host»)";

/// Sends a test e-mail to the settings' notification address, at once
/// (not through the outbox), with the settings' sender.
#[utoipa::path(post, path = "/api/admin/settings/test-email", tag = "admin",
    responses((status = 200, body = TestResult,
        description = "Sent (`success`), or the SMTP server's refusal in `message`"),
        (status = 422, body = ApiErrorBody,
            description = "No notification address, or SMTP is not configured")))]
pub async fn test_email(State(state): State<AppState>) -> AppResult<Json<TestResult>> {
    let Some(mailer) = &state.channels.mailer else {
        return Err(AppError::Invalid {
            message: SMTP_NOT_CONFIGURED.into(),
            field: None,
        });
    };
    let settings = state.db.call(|c| settings::get(c)).await?;
    if settings.notification_email.trim().is_empty() {
        return Err(AppError::invalid(
            "notificationEmail",
            "Укажите адрес для уведомлений",
        ));
    }
    let message = mailer
        .test_message(&settings, state.config.base())
        .map_err(|e| AppError::invalid("notificationEmail", e))?;
    Ok(Json(match mailer.send(message).await {
        Ok(()) => TestResult {
            success: true,
            message: EMAIL_TEST_SENT.into(),
            amo_lead_id: None,
        },
        Err(error) => TestResult {
            success: false,
            message: format!(
                "Не удалось отправить письмо: {}",
                state.channels.scrub(&error)
            ),
            amo_lead_id: None,
        },
    }))
}

/// The amoCRM integration's state.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AmoCrmStatus {
    /// Client id, secret, domain and redirect URI are set in dealership.toml.
    pub configured: bool,
    /// Tokens for the configured account are stored.
    pub authorized: bool,
    pub domain: String,
    pub client_id: String,
    pub redirect_uri: String,
    /// When the stored access token expires (it is refreshed on its own).
    pub expires_at: Option<String>,
}

#[utoipa::path(get, path = "/api/admin/amocrm/status", tag = "admin",
    responses((status = 200, body = AmoCrmStatus)))]
pub async fn amocrm_status(State(state): State<AppState>) -> AppResult<Json<AmoCrmStatus>> {
    let amocrm = &state.config.amocrm;
    let configured = amocrm.is_configured();
    let expires = if configured {
        state.channels.amocrm.authorized().await?
    } else {
        None
    };
    Ok(Json(AmoCrmStatus {
        configured,
        authorized: expires.is_some(),
        domain: amocrm.domain.trim().to_string(),
        client_id: amocrm.client_id.trim().to_string(),
        redirect_uri: amocrm.redirect_uri.trim().to_string(),
        expires_at: expires.map(crate::notify::timestamp),
    }))
}

pub const AMOCRM_NOT_CONFIGURED: &str = "Интеграция с amoCRM не настроена: укажите «domain», \
     «client_id», «client_secret» и «redirect_uri» в разделе «[amocrm]» файла «dealership.toml»";

fn require_configured(state: &AppState) -> AppResult<()> {
    if state.config.amocrm.is_configured() {
        Ok(())
    } else {
        Err(AppError::Invalid {
            message: AMOCRM_NOT_CONFIGURED.into(),
            field: None,
        })
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthUrl {
    /// Opened in a popup; amoCRM then redirects to the redirect URI with
    /// `?code=...`, which the admin pastes. Null while the integration is
    /// not configured.
    pub auth_url: Option<String>,
}

#[utoipa::path(get, path = "/api/admin/amocrm/auth-url", tag = "admin",
    responses((status = 200, body = AuthUrl)))]
pub async fn amocrm_auth_url(State(state): State<AppState>) -> AppResult<Json<AuthUrl>> {
    Ok(Json(AuthUrl {
        auth_url: state
            .config
            .amocrm
            .is_configured()
            .then(|| state.channels.amocrm.auth_url()),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CallbackInput {
    /// The `code` from the redirect URL (the whole URL is accepted too).
    pub code: String,
}

/// The callback's success: the tokens stay on the server.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallbackResult {
    pub success: bool,
    /// 'Успешная авторизация'
    pub message: String,
    pub expires_at: String,
}

pub const AUTH_OK: &str = "Успешная авторизация";
pub const AUTH_FAILED: &str = "Ошибка авторизации";
pub const CONNECTION_FAILED: &str = "Ошибка подключения к серверу";

/// Exchanges the code for tokens and stores them.
#[utoipa::path(post, path = "/api/admin/amocrm/callback", tag = "admin",
    request_body = CallbackInput,
    responses((status = 200, body = CallbackResult),
        (status = 422, body = ApiErrorBody,
            description = "'Ошибка авторизации: …' (a bad or used code), or not configured")))]
pub async fn amocrm_callback(
    State(state): State<AppState>,
    ApiJson(input): ApiJson<CallbackInput>,
) -> AppResult<Json<CallbackResult>> {
    require_configured(&state)?;
    let code = code_of(&input.code);
    if code.is_empty() {
        return Err(AppError::invalid(
            "code",
            format!("{AUTH_FAILED}: пустой код"),
        ));
    }
    match state.channels.amocrm.exchange_code(&code).await {
        Ok(tokens) => {
            // Pushes waiting for the authorisation go now.
            state.wake.notify_one();
            Ok(Json(CallbackResult {
                success: true,
                message: AUTH_OK.into(),
                expires_at: crate::notify::timestamp(tokens.expires_at),
            }))
        }
        Err(error) => Err(AppError::invalid("code", format!("{AUTH_FAILED}: {error}"))),
    }
}

/// The code itself, from a pasted code or a pasted redirect URL.
fn code_of(pasted: &str) -> String {
    let pasted = pasted.trim();
    match pasted.split_once('?') {
        Some((_, query)) => query
            .split('&')
            .find_map(|pair| pair.strip_prefix("code="))
            .unwrap_or_default()
            .to_string(),
        None => pasted.to_string(),
    }
}

/// Checks the connection (the account) and creates a test deal.
#[utoipa::path(post, path = "/api/admin/amocrm/test", tag = "admin",
    responses((status = 200, body = TestResult,
        description = "`success` false with 'Ошибка подключения к серверу: …' on failure"),
        (status = 422, body = ApiErrorBody)))]
pub async fn amocrm_test(State(state): State<AppState>) -> AppResult<Json<TestResult>> {
    require_configured(&state)?;
    let amocrm = &state.channels.amocrm;
    let failed = |error: String| TestResult {
        success: false,
        message: format!("{CONNECTION_FAILED}: {error}"),
        amo_lead_id: None,
    };
    if let Err(error) = amocrm.account().await {
        return Ok(Json(failed(error)));
    }
    let settings = state.db.call(|c| settings::get(c)).await?;
    let lead = crate::notify::test_lead();
    let context = crate::notify::message::Context {
        base_url: state.config.base(),
        car_slug: None,
        salon_name: &settings.public.salon_name,
    };
    Ok(Json(match amocrm.push_lead(&lead, &context).await {
        Ok(id) => TestResult {
            success: true,
            message: format!("Соединение работает: создана тестовая сделка №{id}"),
            amo_lead_id: Some(id),
        },
        Err(error) => failed(error),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_from_urls() {
        assert_eq!(code_of(" def502 "), "def502");
        assert_eq!(
            code_of("https://site.ru/amocrm?code=def502&state=x&referer=a.amocrm.ru"),
            "def502"
        );
    }
}
