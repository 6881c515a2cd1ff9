//! Public pages: every route of the site answers with the HTML shell carrying
//! that page's head and first-screen data; the embedded UI draws the rest.
//! Also /sitemap.xml, /robots.txt, the favicon and the UI's hashed assets.

mod assets;
mod data;
mod seo;
mod shell;

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, Request, State};
use axum::http::Uri;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;

use crate::error::AppResult;
use crate::http::held::page_basics::PageBasics;
use crate::http::state::AppState;

/// The renderer the state keeps (`http::held::render`), under its old path.
pub use crate::http::held::render::{self, Renderer};
pub(crate) use assets::prepare_inline_styles;
pub(crate) use seo::STATIC_PAGES;
pub use shell::{LOADER, Page, script_json};

/// The query parameters a page reads (`ui/src/lib/filters.ts`,
/// `ui/src/lib/saved.ts`, a brand's sections' pages in
/// `ui/src/lib/brandPage.ts`); any other (`utm_source`, a typo) changes nothing
/// on the page, so it is dropped before the answer cache makes its key.
const PAGE_PARAMS: &[&str] = &[
    "brand",
    "body",
    "price",
    "page",
    "condition",
    "model",
    "cars",
    "salon",
    "new",
    "used",
    "lease",
];

/// Largest body of a page's own form (the withdrawal link's token).
const FORM_BODY_LIMIT: usize = 4 * 1024;

/// The page routes, the UI's assets and the search-engine files. Public pages
/// are drawn on the server and kept in the answer cache.
pub fn routes(state: &AppState) -> Router<AppState> {
    let rendered = Router::new()
        .route("/", get(data::home))
        .route("/new-cars", get(data::new_cars))
        .route("/used-cars", get(data::used_cars))
        .route("/lease-cars", get(data::lease_cars))
        .route("/trade-in", get(data::trade_in))
        .route("/auto-credit", get(data::auto_credit))
        .route("/auto-selection", get(data::auto_selection))
        .route("/car/{slug}", get(data::car))
        .route("/brand/{slug}", get(data::brand))
        .route("/body-type/{body_type}", get(data::body_type))
        .route("/consent", get(data::consent))
        .route("/privacy", get(data::privacy))
        .route("/favorites", get(data::favorites))
        .route("/compare", get(data::compare))
        .route_layer(middleware::from_fn_with_state(
            state.renderer.clone(),
            render::server_render,
        ))
        .route_layer(middleware::from_fn_with_state(
            state.answers.clone(),
            crate::http::cache::cached,
        ))
        .route_layer(middleware::from_fn(declared_params_only));
    // A mail link's token is the visitor's own: drawn, never kept.
    let personal = Router::new()
        .route("/saved-searches/confirm", get(data::saved_search_confirm))
        .route(
            "/saved-searches/unsubscribe",
            get(data::saved_search_unsubscribe),
        )
        .route(
            "/personal-data/forget",
            get(data::personal_data_forget).post(data::personal_data_forget_form),
        )
        .route_layer(DefaultBodyLimit::max(FORM_BODY_LIMIT))
        .route_layer(middleware::from_fn_with_state(
            state.renderer.clone(),
            render::server_render,
        ));
    // The sitemap lists every car: kept in the answer cache like a page, one
    // entry whatever the query (it reads none), so a crawler or a stranger
    // asks the database once per change.
    let sitemap = Router::new()
        .route("/sitemap.xml", get(seo::sitemap))
        .route_layer(middleware::from_fn_with_state(
            state.answers.clone(),
            crate::http::cache::cached,
        ))
        .route_layer(middleware::from_fn(without_query));
    Router::new()
        .merge(rendered)
        .merge(personal)
        .route("/admin", get(admin))
        .route("/admin/{*rest}", get(admin))
        .route("/assets/{*path}", get(assets::asset))
        .merge(sitemap)
        .route("/robots.txt", get(seo::robots))
        .route("/favicon.svg", get(seo::favicon_svg))
        .route("/favicon.ico", get(seo::favicon_ico))
}

/// Drops the whole query of a route that reads none.
async fn without_query(mut request: Request, next: Next) -> Response {
    if request.uri().query().is_some()
        && let Ok(uri) = request.uri().path().parse::<Uri>()
    {
        *request.uri_mut() = uri;
    }
    next.run(request).await
}

/// Drops the query parameters no page reads, so they make no new entry in
/// the answer cache; the rest keep their order.
async fn declared_params_only(mut request: Request, next: Next) -> Response {
    if let Some(query) = request.uri().query() {
        let kept: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .filter(|(name, _)| PAGE_PARAMS.contains(&name.as_ref()))
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect();
        let path = request.uri().path();
        let uri = if kept.is_empty() {
            path.to_string()
        } else {
            let query = form_urlencoded::Serializer::new(String::new())
                .extend_pairs(kept)
                .finish();
            format!("{path}?{query}")
        };
        if let Ok(uri) = uri.parse::<Uri>() {
            *request.uri_mut() = uri;
        }
    }
    next.run(request).await
}

/// The HTML 404 page for every unknown path (status 404). Any stranger can
/// ask for one at any address: what it embeds (the settings, the credit
/// programs of the footer) is the kept [`PageBasics`] of the content
/// version, read from the database only after a change.
pub async fn not_found(State(state): State<AppState>, uri: Uri) -> AppResult<Response> {
    let basics = page_basics(&state).await?;
    let mut page = Page::new("/404")
        .title("Страница не найдена")
        .description(data::NOT_FOUND_DESCRIPTION)
        .not_found();
    page.put_json("/api/settings", basics.settings_json.clone());
    page.put_json(data::CREDIT_PROGRAMS, basics.credit_programs_json.clone());
    let response = page.render(&basics.settings, &state.config.base_url);
    Ok(render::fill(&state.renderer, uri.path(), response).await)
}

/// The admin panel's shell (its screens load as their own chunk).
async fn admin(State(state): State<AppState>, _query: RawQuery) -> AppResult<Response> {
    let basics = page_basics(&state).await?;
    let mut page = Page::new("/admin").title("Панель администратора");
    page.noindex = true;
    page.server_render = false;
    page.put_json("/api/settings", basics.settings_json.clone());
    Ok(page.render(&basics.settings, &state.config.base_url))
}

/// The kept [`PageBasics`] of the content version now, read from the
/// database only when they are not kept (after a change, or a new day).
async fn page_basics(state: &AppState) -> AppResult<Arc<PageBasics>> {
    let today = state.clock.moscow_today();
    let version = state.answers.version_now();
    let held = state.page_basics.clone();
    if let Some(kept) = version.and_then(|version| held.kept(version, today)) {
        return Ok(kept);
    }
    let config = state.config.clone();
    state
        .db
        .call(move |c| held.at(version, today, c, &config.call_tracking))
        .await
}

/// Used by route handlers that take a path segment.
pub type Slug = Path<String>;
