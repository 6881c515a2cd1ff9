//! The call providers' webhooks (`docs/calls.md`, "Webhooks"):
//! `/hooks/calls/{provider}/{secret}` (GET or POST; Mango adds its event's
//! path after the secret). The secret opens it (a wrong one is a 404, as
//! an address that is not there), the allow-list says who may post (403),
//! the body is at most 64 KB; the provider's reader makes calls of it, and
//! they are stored (the call, its lead, the lead's notifications queued)
//! before the answer. A call already recorded is answered the same and
//! changes nothing.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{HeaderMap, Method, header};
use axum::routing::any;
use serde_json::json;

use crate::calltracking::jobs::take_calls;
use crate::calltracking::{HookRequest, Hooked, Provider, calltouch, mango, uis};
use crate::error::{AppError, AppResult};
use crate::http::extract::ClientIp;
use crate::http::state::AppState;

/// The largest webhook body taken.
pub const HOOK_BODY_MAX: usize = 64 * 1024;

const NOT_HERE: &str = "Нет такой страницы";

pub fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/hooks/calls/{provider}/{secret}", any(hook))
        .route(
            "/hooks/calls/{provider}/{secret}/{*rest}",
            any(hook_with_rest),
        )
        .layer(DefaultBodyLimit::max(HOOK_BODY_MAX))
}

async fn hook(
    state: State<AppState>,
    ip: ClientIp,
    Path((provider, secret)): Path<(String, String)>,
    method: Method,
    query: RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Json<serde_json::Value>> {
    take(
        state,
        ip,
        (provider, secret, String::new()),
        method,
        query,
        headers,
        body,
    )
    .await
}

async fn hook_with_rest(
    state: State<AppState>,
    ip: ClientIp,
    Path(path): Path<(String, String, String)>,
    method: Method,
    query: RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Json<serde_json::Value>> {
    take(state, ip, path, method, query, headers, body).await
}

async fn take(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    (provider, secret, rest): (String, String, String),
    method: Method,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Json<serde_json::Value>> {
    let provider = Provider::parse(&provider).ok_or_else(|| AppError::NotFound(NOT_HERE.into()))?;
    let providers = state.call_providers.clone();
    let key = providers
        .hook(provider)
        .filter(|key| key.opens(&secret))
        .ok_or_else(|| AppError::NotFound(NOT_HERE.into()))?;
    if !key.allows(ip) {
        tracing::warn!(provider = provider.as_str(), %ip, "call webhook from an address not allowed");
        return Err(AppError::Forbidden(format!(
            "Адрес {ip} не входит в список отправителей ({}.allow_from)",
            provider.as_str()
        )));
    }
    if method != Method::GET && method != Method::POST {
        return Err(AppError::BadRequest(
            "Звонки принимаются запросом GET или POST".into(),
        ));
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let query = query.unwrap_or_default();
    let request = HookRequest {
        method: method.as_str(),
        rest: rest.trim_matches('/'),
        query: &query,
        content_type,
        body: &body,
    };
    let hooked = match provider {
        Provider::Calltouch => calltouch::read_hook(&request),
        Provider::Uis => uis::read_hook(&request),
        Provider::Mango => match providers.mango.ready() {
            Some(client) => mango::read_hook(&request, client.keys()),
            None => Err(AppError::Unavailable {
                message: "Ключи Mango Office не настроены ([mango] в dealership.toml)".into(),
                retry_after_seconds: 300,
                cause: anyhow::anyhow!("a Mango event without the PBX's keys"),
            }),
        },
    };
    let calls = match hooked {
        Ok(Hooked::Calls(calls)) => calls,
        Ok(Hooked::Nothing) => return Ok(Json(json!({ "ok": true, "calls": 0 }))),
        Err(refused) => {
            tracing::warn!(
                provider = provider.as_str(),
                "call webhook refused: {refused}"
            );
            return Err(refused);
        }
    };
    let count = calls.len();
    let taken = take_calls(&state.call_sync(), provider, calls).await?;
    Ok(Json(json!({
        "ok": true,
        "calls": count,
        "newLeads": taken.new_leads,
        "joined": taken.joined,
        "known": taken.known,
    })))
}
