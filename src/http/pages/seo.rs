//! /sitemap.xml, /robots.txt and the favicon.

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use crate::domain::cars::{self, CarFilter};
use crate::domain::{body_types, brands, settings};
use crate::error::{AppError, AppResult};
use crate::http::state::AppState;

/// The fixed public pages, with their change frequency (also the pages
/// drawn ahead, `http::pages_ahead`).
pub(crate) const STATIC_PAGES: [(&str, &str); 9] = [
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

const SITEMAP_NAMESPACE: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

const DEFAULT_FAVICON: &[u8] = include_bytes!("../../../assets/favicon.svg");

/// The default favicon as a `data:` URL, written into every page's head: a
/// browser then asks for no icon while the first screen loads (the icon's
/// request took a connection beside the hero picture on a phone's network,
/// docs/rendering.md "Pictures after the first paint").
pub(super) fn default_favicon_url() -> &'static str {
    static URL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let svg = std::str::from_utf8(DEFAULT_FAVICON).expect("the favicon is UTF-8");
        let mut url = String::from("data:image/svg+xml,");
        for c in svg.trim().chars() {
            match c {
                '"' => url.push('\''),
                '%' => url.push_str("%25"),
                '#' => url.push_str("%23"),
                '<' => url.push_str("%3C"),
                '>' => url.push_str("%3E"),
                '\n' | '\r' | '\t' => url.push(' '),
                c => url.push(c),
            }
        }
        url
    });
    &URL
}

/// One `<url>` of the sitemap.
struct Entry<'a> {
    path: String,
    /// RFC 3339; the sitemap shows its date.
    lastmod: Option<&'a str>,
    changefreq: &'static str,
}

/// Every public page, published car, brand and body type.
pub async fn sitemap(State(state): State<AppState>) -> AppResult<Response> {
    let base = state.config.base_url.trim_end_matches('/').to_string();
    let (cars, brands, body_types) = state
        .db
        .call(|c| {
            Ok((
                cars::slugs_and_changes(c, &CarFilter::default())?,
                brands::list(c)?,
                body_types::list(c)?,
            ))
        })
        .await?;
    let pages = STATIC_PAGES.iter().map(|&(path, changefreq)| Entry {
        path: path.to_string(),
        lastmod: None,
        changefreq,
    });
    let bodies = body_types.iter().map(|body| Entry {
        path: format!("/body-type/{}", body.body_type.as_str()),
        lastmod: None,
        changefreq: "daily",
    });
    let brands = brands.iter().map(|brand| Entry {
        path: format!("/brand/{}", brand.slug),
        lastmod: Some(&brand.updated_at),
        changefreq: "weekly",
    });
    let cars = cars.iter().map(|(slug, updated_at)| Entry {
        path: format!("/car/{slug}"),
        lastmod: Some(updated_at),
        changefreq: "weekly",
    });
    let xml = sitemap_xml(&base, pages.chain(bodies).chain(brands).chain(cars))
        .map_err(|e| AppError::Internal(e.into()))?;
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

/// The sitemap protocol's document: a `<url>` with `<loc>`, `<lastmod>`
/// (a date) and `<changefreq>` per entry.
fn sitemap_xml<'a>(
    base: &str,
    entries: impl Iterator<Item = Entry<'a>>,
) -> std::io::Result<Vec<u8>> {
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    writer
        .create_element("urlset")
        .with_attribute(("xmlns", SITEMAP_NAMESPACE))
        .write_inner_content(|w| {
            for entry in entries {
                w.create_element("url").write_inner_content(|w| {
                    let loc = format!("{base}{}", entry.path);
                    w.create_element("loc")
                        .write_text_content(BytesText::new(&loc))?;
                    if let Some(date) = entry.lastmod.and_then(|d| d.get(..10)) {
                        w.create_element("lastmod")
                            .write_text_content(BytesText::new(date))?;
                    }
                    w.create_element("changefreq")
                        .write_text_content(BytesText::new(entry.changefreq))?;
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    let mut xml = writer.into_inner();
    xml.push(b'\n');
    Ok(xml)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_favicon_is_a_data_url() {
        let url = default_favicon_url();
        assert!(url.starts_with("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'"));
        assert!(url.ends_with("%3C/svg%3E"), "{url}");
        assert!(url.contains("fill='%230b3d91'"), "{url}");
        assert!(!url.contains(['"', '#', '<', '>', '\n']), "{url}");
    }

    #[test]
    fn sitemap_escapes_and_dates_its_entries() {
        let entries = [
            Entry {
                path: "/".into(),
                lastmod: None,
                changefreq: "daily",
            },
            Entry {
                path: "/car/a?b=1&c=<2>".into(),
                lastmod: Some("2026-05-01T12:00:00.000Z"),
                changefreq: "weekly",
            },
        ];
        let xml = sitemap_xml("https://example.ru", entries.into_iter()).unwrap();
        let xml = String::from_utf8(xml).unwrap();
        assert_eq!(
            xml,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  \
             <url>\n    \
             <loc>https://example.ru/</loc>\n    \
             <changefreq>daily</changefreq>\n  \
             </url>\n  \
             <url>\n    \
             <loc>https://example.ru/car/a?b=1&amp;c=&lt;2&gt;</loc>\n    \
             <lastmod>2026-05-01</lastmod>\n    \
             <changefreq>weekly</changefreq>\n  \
             </url>\n\
             </urlset>\n"
        );
    }
}
