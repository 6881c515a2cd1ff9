//! The marketplace feeds the site publishes (`docs/parser.md`, export):
//! `/feeds/avito.xml`, `/feeds/autoru.xml` (and one a section,
//! `/feeds/autoru-new.xml`, `/feeds/autoru-used.xml`), `/feeds/yandex.yml`. Public,
//! behind the answer cache like the public API (`docs/cache.md`): every
//! write to the cars or the settings moves the content version and drops
//! them. A feed larger than the answer cache keeps (thousands of cars) is
//! kept here instead, plain and gzipped, one rendering per feed and content
//! version: a stranger asking for it again and again costs a copy, not a
//! rendering and a compression each time.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Uri, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};

use super::cache::{self, ContentVersion};
use super::held::feeds::{Kind, Rendered};
use super::state::AppState;
use crate::error::{AppError, AppResult};
use crate::parser::export::{self, Section};

const AVITO: &str = "/feeds/avito.xml";
const AUTORU: &str = "/feeds/autoru.xml";
const AUTORU_NEW: &str = "/feeds/autoru-new.xml";
const AUTORU_USED: &str = "/feeds/autoru-used.xml";
const YANDEX: &str = "/feeds/yandex.yml";
/// One salon's Auto.ru feed: each salon is its own Auto.ru client
/// (`docs/salons.md`, "Feeds").
const AUTORU_OF_SALON: &str = "/feeds/salons/{id}/autoru.xml";

pub fn routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route(AVITO, get(feed))
        .route(AUTORU, get(feed))
        .route(AUTORU_NEW, get(feed))
        .route(AUTORU_USED, get(feed))
        .route(YANDEX, get(feed))
        .route(AUTORU_OF_SALON, get(salon_feed))
        .route_layer(middleware::from_fn_with_state(
            state.answers.clone(),
            cache::cached,
        ))
}

/// Reads the stock and writes one feed, plain and gzipped (on the blocking
/// pool). The version is read first: the feed is never older than it says.
async fn render(state: &AppState, kind: Kind) -> AppResult<Rendered> {
    state.feeds.count_render();
    let base = state.config.base().to_string();
    state
        .db
        .call(move |c| {
            let version = crate::db::content_version(c)?;
            let (cars, settings, labels) = export::load(c)?;
            let plain = match kind {
                Kind::Avito => export::avito(&cars, &settings, &labels, &base),
                Kind::Autoru => export::autoru(&cars, &settings, &labels, &base, Section::All),
                Kind::AutoruNew => export::autoru(&cars, &settings, &labels, &base, Section::New),
                Kind::AutoruUsed => export::autoru(&cars, &settings, &labels, &base, Section::Used),
                Kind::Yandex => {
                    let now = chrono::Utc::now().format("%Y-%m-%d %H:%M").to_string();
                    export::yandex(&cars, &settings, &labels, &base, &now)
                }
            };
            let gzip = cache::gzip(plain.as_bytes()).map(Bytes::from);
            Ok(Rendered {
                version,
                plain: Bytes::from(plain),
                gzip,
            })
        })
        .await
}

async fn feed(
    State(state): State<AppState>,
    version: Option<Extension<ContentVersion>>,
    headers: HeaderMap,
    uri: Uri,
) -> AppResult<Response> {
    let kind = match uri.path() {
        AVITO => Kind::Avito,
        AUTORU => Kind::Autoru,
        AUTORU_NEW => Kind::AutoruNew,
        AUTORU_USED => Kind::AutoruUsed,
        YANDEX => Kind::Yandex,
        _ => return Err(AppError::not_found("Фид не найден")),
    };
    // One answer per feed: a query string would only make copies in the cache.
    if uri.query().is_some() {
        return Err(AppError::BadRequest(
            "Фид не принимает параметров запроса".into(),
        ));
    }
    let rendered = match version {
        Some(Extension(ContentVersion(version))) => {
            let mut slot = state.feeds.slot(kind).lock().await;
            match slot.as_ref().filter(|r| r.version >= version) {
                Some(kept) => kept.clone(),
                None => {
                    let fresh = Arc::new(render(&state, kind).await?);
                    *slot = Some(fresh.clone());
                    fresh
                }
            }
        }
        // The cache cannot read the version: render for this request only.
        None => Arc::new(render(&state, kind).await?),
    };
    let content_type = (
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    let vary = (header::VARY, HeaderValue::from_static("accept-encoding"));
    match &rendered.gzip {
        Some(gzip) if accepts_gzip(&headers) => Ok((
            [
                content_type,
                vary,
                (header::CONTENT_ENCODING, HeaderValue::from_static("gzip")),
            ],
            gzip.clone(),
        )
            .into_response()),
        _ => Ok(([content_type, vary], rendered.plain.clone()).into_response()),
    }
}

/// One salon's Auto.ru feed (its cars only), rendered per request and kept
/// by the answer cache like every public read; 404 for a salon the install
/// does not have.
async fn salon_feed(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<String>,
    headers: HeaderMap,
    uri: Uri,
) -> AppResult<Response> {
    let not_found = || AppError::not_found("Фид не найден");
    if uri.query().is_some() {
        return Err(AppError::BadRequest(
            "Фид не принимает параметров запроса".into(),
        ));
    }
    let id: i64 = id.parse().map_err(|_| not_found())?;
    let base = state.config.base().to_string();
    let plain = state
        .db
        .call(move |c| {
            if !crate::domain::salons::exists(c, id)? {
                return Ok(None);
            }
            let (cars, settings, labels) = export::load(c)?;
            let salon = crate::domain::salons::column(id);
            let own: Vec<_> = cars
                .into_iter()
                .filter(|car| car.salon_id == salon)
                .collect();
            Ok(Some(export::autoru(
                &own,
                &settings,
                &labels,
                &base,
                Section::All,
            )))
        })
        .await?
        .ok_or_else(not_found)?;
    let content_type = (
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/xml; charset=utf-8"),
    );
    let vary = (header::VARY, HeaderValue::from_static("accept-encoding"));
    match cache::gzip(plain.as_bytes()) {
        Some(gzip) if accepts_gzip(&headers) => Ok((
            [
                content_type,
                vary,
                (header::CONTENT_ENCODING, HeaderValue::from_static("gzip")),
            ],
            gzip,
        )
            .into_response()),
        _ => Ok(([content_type, vary], plain).into_response()),
    }
}

/// Whether the client takes gzip.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let refused = parts.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}
