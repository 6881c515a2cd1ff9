//! /sitemap.xml, /robots.txt and the favicon.

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};

use crate::domain::cars::{self, CarFilter};
use crate::domain::{body_types, brands, settings};
use crate::error::AppResult;
use crate::http::state::AppState;

/// The fixed public pages, with their change frequency.
const STATIC_PAGES: [(&str, &str); 9] = [
    ("/", "daily"),
    ("/new-cars", "daily"),
    ("/used-cars", "daily"),
    ("/lease-cars", "daily"),
    ("/trade-in", "monthly"),
    ("/auto-credit", "monthly"),
    ("/auto-selection", "monthly"),
    ("/consent", "yearly"),
    ("/privacy", "yearly"),
];

const DEFAULT_FAVICON: &[u8] = include_bytes!("../../../assets/favicon.svg");

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// Every public page, published car, brand and body type.
pub async fn sitemap(State(state): State<AppState>) -> AppResult<Response> {
    let base = state.config.base_url.trim_end_matches('/').to_string();
    let (cars, brands, body_types) = state
        .db
        .call(|c| {
            Ok((
                cars::list_all(c, &CarFilter::default())?,
                brands::list(c)?,
                body_types::list(c)?,
            ))
        })
        .await?;
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let mut url = |path: &str, lastmod: Option<&str>, freq: &str| {
        xml.push_str("  <url><loc>");
        xml.push_str(&xml_escape(&format!("{base}{path}")));
        xml.push_str("</loc>");
        if let Some(date) = lastmod.and_then(|d| d.get(..10)) {
            xml.push_str(&format!("<lastmod>{date}</lastmod>"));
        }
        xml.push_str(&format!("<changefreq>{freq}</changefreq></url>\n"));
    };
    for (path, freq) in STATIC_PAGES {
        url(path, None, freq);
    }
    for body in &body_types {
        url(
            &format!("/body-type/{}", body.body_type.as_str()),
            None,
            "daily",
        );
    }
    for brand in &brands {
        url(
            &format!("/brand/{}", brand.slug),
            Some(&brand.updated_at),
            "weekly",
        );
    }
    for car in &cars {
        url(
            &format!("/car/{}", car.slug),
            Some(&car.updated_at),
            "weekly",
        );
    }
    xml.push_str("</urlset>\n");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/xml; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        xml,
    )
        .into_response())
}

pub async fn robots(State(state): State<AppState>) -> Response {
    let base = state.config.base_url.trim_end_matches('/');
    let text = format!(
        "User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: {base}/sitemap.xml\n"
    );
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        text,
    )
        .into_response()
}

pub async fn favicon_svg() -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("image/svg+xml"),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=86400"),
            ),
        ],
        DEFAULT_FAVICON,
    )
        .into_response()
}

/// Browsers ask for /favicon.ico by themselves: send them to the salon's
/// favicon from the settings, or to the default one.
pub async fn favicon_ico(State(state): State<AppState>) -> AppResult<Response> {
    let favicon = state.db.call(|c| settings::get(c)).await?.public.favicon;
    if favicon.is_empty() {
        Ok(Redirect::temporary("/favicon.svg").into_response())
    } else {
        Ok(Redirect::temporary(&favicon).into_response())
    }
}
