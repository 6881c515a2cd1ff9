//! The marketplace feeds the site publishes (`docs/parser.md`, export):
//! `/feeds/avito.xml`, `/feeds/autoru.xml`, `/feeds/yandex.yml`. Public,
//! kept in the answer cache like the public API (`docs/cache.md`): every
//! write to the cars or the settings moves the content version and drops them.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, Uri, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::cache;
use super::state::AppState;
use crate::error::{AppError, AppResult};
use crate::parser::export;

pub fn routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/feeds/avito.xml", get(avito))
        .route("/feeds/autoru.xml", get(autoru))
        .route("/feeds/yandex.yml", get(yandex))
        .route_layer(middleware::from_fn_with_state(
            state.answers.clone(),
            cache::cached,
        ))
}

#[derive(Clone, Copy)]
enum Kind {
    Avito,
    Autoru,
    Yandex,
}

async fn avito(state: State<AppState>, uri: Uri) -> AppResult<Response> {
    feed(state, uri, Kind::Avito).await
}

async fn autoru(state: State<AppState>, uri: Uri) -> AppResult<Response> {
    feed(state, uri, Kind::Autoru).await
}

async fn yandex(state: State<AppState>, uri: Uri) -> AppResult<Response> {
    feed(state, uri, Kind::Yandex).await
}

async fn feed(State(state): State<AppState>, uri: Uri, kind: Kind) -> AppResult<Response> {
    // One answer per feed: a query string would only make copies in the cache.
    if uri.query().is_some() {
        return Err(AppError::BadRequest(
            "Фид не принимает параметров запроса".into(),
        ));
    }
    let base = state.config.base().to_string();
    let body = state
        .db
        .call(move |c| {
            let (cars, settings) = export::load(c)?;
            Ok(match kind {
                Kind::Avito => export::avito(&cars, &settings, &base),
                Kind::Autoru => export::autoru(&cars, &settings, &base),
                Kind::Yandex => {
                    let now = chrono::Utc::now().format("%Y-%m-%d %H:%M").to_string();
                    export::yandex(&cars, &settings, &base, &now)
                }
            })
        })
        .await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/xml; charset=utf-8"),
        )],
        body,
    )
        .into_response())
}
