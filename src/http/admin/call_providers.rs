//! Admin calls of the call-tracking services and PBXs (`docs/calls.md`):
//! each provider's state (its API and webhook set up or refused, who may
//! post, the last poll and the last call heard), its connection checked
//! now («Проверить подключение»), and its journal polled now («Проверить
//! пропущенные звонки»).

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::calltracking::Provider;
use crate::calltracking::clients::ProviderState;
use crate::calltracking::jobs::{self, CallsTaken, ProviderRun};
use crate::error::{AppError, AppResult};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(providers))
        .routes(routes!(check))
        .routes(routes!(poll))
}

/// The refusal of a provider that is not one.
pub const UNKNOWN_PROVIDER: &str = "Неизвестный сервис звонков";

/// A provider as the admin sees it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallProvider {
    /// Set up or not, and what its secret files gave.
    pub state: ProviderState,
    /// Its journal is polled every 15 minutes (Calltouch, UIS).
    pub polled: bool,
    /// Its webhook's address, the secret shown as {secret}.
    pub hook_url: String,
    pub run: ProviderRun,
}

/// What a check or a poll answered.
#[derive(Serialize, ToSchema)]
pub struct ProviderAnswer {
    pub ok: bool,
    /// The service's account line, what the poll found, or why it failed.
    pub message: String,
}

fn provider_of(name: &str) -> AppResult<Provider> {
    Provider::parse(name).ok_or_else(|| AppError::not_found(UNKNOWN_PROVIDER))
}

/// Every provider: set up or not, its webhook's address, its last poll
/// and the last call heard.
#[utoipa::path(get, operation_id = "call_providers", path = "/api/admin/calls/providers", tag = "admin",
    responses((status = 200, body = Vec<CallProvider>)))]
pub async fn providers(State(state): State<AppState>) -> AppResult<Json<Vec<CallProvider>>> {
    let states = state.call_providers.states();
    let base = state.config.base_url.trim_end_matches('/').to_string();
    let answer = state
        .db
        .call(move |c| {
            states
                .into_iter()
                .map(|s| {
                    let provider = Provider::parse(&s.provider).unwrap_or(Provider::Calltouch);
                    Ok(CallProvider {
                        polled: provider != Provider::Mango && s.api_configured,
                        hook_url: format!("{base}/hooks/calls/{}/{{secret}}", provider.as_str()),
                        run: jobs::run_of(c, provider)?,
                        state: s,
                    })
                })
                .collect::<AppResult<Vec<_>>>()
        })
        .await?;
    Ok(Json(answer))
}

/// Checks the provider's API keys now with one light call.
#[utoipa::path(post, operation_id = "call_provider_check", path = "/api/admin/calls/providers/{provider}/check", tag = "admin",
    params(("provider" = String, Path, description = "calltouch, uis or mango")),
    responses((status = 200, body = ProviderAnswer), (status = 404, body = ApiErrorBody)))]
pub async fn check(
    State(state): State<AppState>,
    Path(provider): Path<String>,
) -> AppResult<Json<ProviderAnswer>> {
    let provider = provider_of(&provider)?;
    Ok(Json(match state.call_providers.check(provider).await {
        Ok(message) => ProviderAnswer { ok: true, message },
        Err(err) => ProviderAnswer {
            ok: false,
            message: err.to_string(),
        },
    }))
}

fn taken_words(taken: &CallsTaken) -> String {
    format!(
        "Новых лидов: {}, добавлено к открытым лидам: {}, уже были: {}",
        taken.new_leads, taken.joined, taken.known
    )
}

/// Reads the provider's journal now (what a webhook missed) and takes its
/// calls; 422 for a provider without a journal or not set up.
#[utoipa::path(post, operation_id = "call_provider_poll", path = "/api/admin/calls/providers/{provider}/poll", tag = "admin",
    params(("provider" = String, Path, description = "calltouch or uis")),
    responses((status = 200, body = ProviderAnswer), (status = 404, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn poll(
    State(state): State<AppState>,
    Path(provider): Path<String>,
) -> AppResult<Json<ProviderAnswer>> {
    let provider = provider_of(&provider)?;
    let ready = match provider {
        Provider::Calltouch => state.call_providers.calltouch.ready().is_some(),
        Provider::Uis => state.call_providers.uis.ready().is_some(),
        Provider::Mango => false,
    };
    if !ready {
        return Err(AppError::invalid(
            "provider",
            format!(
                "{}: журнал звонков не опрашивается (нет ключей API в dealership.toml)",
                provider.label()
            ),
        ));
    }
    let outcome = jobs::poll(&state.call_sync(), provider)
        .await
        .map_err(AppError::Internal)?;
    Ok(Json(match outcome {
        Ok(taken) => ProviderAnswer {
            ok: true,
            message: taken_words(&taken),
        },
        Err(message) => ProviderAnswer { ok: false, message },
    }))
}
