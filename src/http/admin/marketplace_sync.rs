//! Admin calls of the marketplaces' connections (`docs/marketplaces.md`,
//! "Jobs and checks"): each marketplace's state and its jobs' last runs,
//! the connection checked now («Проверить подключение»), and report,
//! figures and calls read now in the background («Обновить данные»).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::marketplace_runs::{self, Run};
use crate::error::{AppError, AppResult};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;
use crate::marketplaces::Channel;
use crate::marketplaces::sync::{self, SYNC_BUSY};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(connections))
        .routes(routes!(check))
        .routes(routes!(start_sync))
}

/// The refusal of a channel that is not a marketplace.
pub const UNKNOWN_CHANNEL: &str = "Неизвестная площадка";

/// A marketplace's connection and its jobs' last runs.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketConnection {
    /// avito or autoru.
    #[schema(inline)]
    pub channel: Channel,
    /// Its keys are in `dealership.toml`.
    pub configured: bool,
    /// Why its client could not be made (a secret file refused).
    pub error: Option<String>,
    /// A job runs now.
    pub busy: bool,
    /// Each job's last run: check, report, stats, calls.
    pub runs: Vec<Run>,
}

/// What a connection check answered.
#[derive(Serialize, ToSchema)]
pub struct CheckAnswer {
    pub ok: bool,
    /// The marketplace's account line, or why it failed, in Russian.
    pub message: String,
}

/// That a sync was started.
#[derive(Serialize, ToSchema)]
pub struct SyncStarted {
    /// «Обновление запущено».
    pub message: String,
}

fn channel_of(name: &str) -> AppResult<Channel> {
    match Channel::parse(name) {
        Some(channel @ (Channel::Avito | Channel::Autoru)) => Ok(channel),
        _ => Err(AppError::not_found(UNKNOWN_CHANNEL)),
    }
}

/// Each marketplace: configured or not, the error its secret gave, and its
/// jobs' last runs.
#[utoipa::path(get, path = "/api/admin/marketplaces/connections", tag = "admin",
    responses((status = 200, body = Vec<MarketConnection>)))]
pub async fn connections(State(state): State<AppState>) -> AppResult<Json<Vec<MarketConnection>>> {
    let markets = state.marketplaces.clone();
    let answer = state
        .db
        .call(move |c| {
            [Channel::Avito, Channel::Autoru]
                .into_iter()
                .map(|channel| {
                    let connection = markets.connection(channel);
                    Ok(MarketConnection {
                        channel,
                        configured: connection.configured,
                        error: connection.error,
                        busy: markets.busy(channel),
                        runs: marketplace_runs::runs(c, channel)?,
                    })
                })
                .collect::<AppResult<Vec<_>>>()
        })
        .await?;
    Ok(Json(answer))
}

/// Checks the marketplace's connection now (a fresh token or session and
/// the account) and records the run.
#[utoipa::path(post, path = "/api/admin/marketplaces/{channel}/check", tag = "admin",
    params(("channel" = String, Path, description = "avito or autoru")),
    responses((status = 200, body = CheckAnswer), (status = 404, body = ApiErrorBody)))]
pub async fn check(
    State(state): State<AppState>,
    Path(channel): Path<String>,
) -> AppResult<Json<CheckAnswer>> {
    let channel = channel_of(&channel)?;
    let outcome = sync::check(&state.market_sync(), channel).await?;
    Ok(Json(match outcome {
        Ok(message) => CheckAnswer { ok: true, message },
        Err(message) => CheckAnswer { ok: false, message },
    }))
}

/// Starts the report, the figures and the calls of the marketplace now, in
/// the background; 409 while one of them runs.
#[utoipa::path(post, path = "/api/admin/marketplaces/{channel}/sync", tag = "admin",
    params(("channel" = String, Path, description = "avito or autoru")),
    responses((status = 202, body = SyncStarted), (status = 404, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn start_sync(
    State(state): State<AppState>,
    Path(channel): Path<String>,
) -> AppResult<(StatusCode, Json<SyncStarted>)> {
    let channel = channel_of(&channel)?;
    let connection = state.marketplaces.connection(channel);
    if let Some(why) = connection.error {
        return Err(AppError::invalid("channel", why));
    }
    if !connection.configured {
        return Err(AppError::invalid(
            "channel",
            format!("{}: не настроено в dealership.toml", channel.label()),
        ));
    }
    if !sync::sync_now(&state.market_sync(), channel) {
        return Err(AppError::conflict(None, SYNC_BUSY));
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(SyncStarted {
            message: "Обновление запущено".into(),
        }),
    ))
}
