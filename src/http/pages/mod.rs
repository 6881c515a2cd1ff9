//! Public pages: every route of the site answers with the HTML shell carrying
//! that page's head and first-screen data; the embedded UI draws the rest.
//! Also /sitemap.xml, /robots.txt, the favicon and the UI's hashed assets.

mod assets;
mod data;
mod seo;
mod shell;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;
use axum::routing::get;

use crate::domain::settings::{self, PublicSettings};
use crate::error::AppResult;
use crate::http::state::AppState;

pub use shell::{Page, script_json};

/// The page routes, the UI's assets and the search-engine files.
pub fn routes() -> Router<AppState> {
    Router::new()
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
        .route("/saved-searches/confirm", get(data::saved_search_confirm))
        .route(
            "/saved-searches/unsubscribe",
            get(data::saved_search_unsubscribe),
        )
        .route("/admin", get(admin))
        .route("/admin/{*rest}", get(admin))
        .route("/assets/{*path}", get(assets::asset))
        .route("/sitemap.xml", get(seo::sitemap))
        .route("/robots.txt", get(seo::robots))
        .route("/favicon.svg", get(seo::favicon_svg))
        .route("/favicon.ico", get(seo::favicon_ico))
}

/// The HTML 404 page for every unknown path.
pub async fn not_found(State(state): State<AppState>) -> AppResult<Response> {
    let settings = public_settings(&state).await?;
    let mut page = Page::new("/404")
        .title("Страница не найдена")
        .description(data::NOT_FOUND_DESCRIPTION)
        .not_found();
    page.put("/api/settings", &settings);
    Ok(page.render(&settings, &state.config.base_url))
}

/// The admin panel's shell (its screens load as their own chunk).
async fn admin(State(state): State<AppState>, _query: RawQuery) -> AppResult<Response> {
    let settings = public_settings(&state).await?;
    let mut page = Page::new("/admin").title("Панель администратора");
    page.noindex = true;
    page.put("/api/settings", &settings);
    Ok(page.render(&settings, &state.config.base_url))
}

async fn public_settings(state: &AppState) -> AppResult<PublicSettings> {
    Ok(state.db.call(|c| settings::get(c)).await?.public)
}

/// Image URL variants made by the media store: `…-800.webp` has `-400` and
/// `-1600` siblings.
pub fn srcset(url: &str) -> Option<String> {
    let stem = url.strip_suffix("-800.webp")?;
    Some(format!(
        "{stem}-400.webp 400w, {url} 800w, {stem}-1600.webp 1600w"
    ))
}

/// Used by route handlers that take a path segment.
pub type Slug = Path<String>;
