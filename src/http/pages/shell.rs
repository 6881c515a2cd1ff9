//! The HTML shell every public route answers with: the page's own head (title,
//! description, canonical link, Open Graph, JSON-LD) and the data its first
//! screen needs, keyed by the API URL the UI would otherwise fetch.

use askama::Template;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::assets;
use crate::domain::settings::PublicSettings;
use crate::http::held::render::PendingMarkup;

/// An image worth fetching before the scripts run (the first screen's LCP).
pub struct PreloadImage {
    pub src: String,
    pub srcset: String,
    pub sizes: String,
    /// A media query when the image is only for some screens.
    pub media: String,
}

impl PreloadImage {
    /// A picture of the media store, with its width variants.
    pub fn of(src: &str, sizes: &str, media: &str) -> PreloadImage {
        PreloadImage {
            src: src.to_string(),
            srcset: srcset(src).unwrap_or_default(),
            sizes: sizes.to_string(),
            media: media.to_string(),
        }
    }
}

/// What a page handler decides; [`Page::render`] turns it into HTML.
pub struct Page {
    pub status: StatusCode,
    /// The page's own title, without the salon name.
    pub title: Option<String>,
    pub description: Option<String>,
    /// Path (and query, when it selects content) of the canonical URL.
    pub path: String,
    pub og_type: &'static str,
    /// Image URL, relative to the site or absolute.
    pub image: Option<String>,
    /// Its width and height, when it is one of our pictures (read from the
    /// stored variant's header): `og:image:width` and `og:image:height`.
    pub image_size: Option<(u32, u32)>,
    pub preload_images: Vec<PreloadImage>,
    pub json_ld: Option<Value>,
    /// API URL → its JSON answer; `null` marks a known 404. Kept as JSON
    /// text: a list from the catalogue in memory is its bytes, never parsed
    /// into values and written out again.
    pub data: BTreeMap<String, Box<RawValue>>,
    pub noindex: bool,
    /// Whether the page's markup is drawn on the server (`render.rs`); the
    /// admin panel's shell is not.
    pub server_render: bool,
    /// The page's own lazily loaded code (`src/pages/Compare.tsx`): its
    /// scripts are fetched at once and its styles are in the head, so the
    /// drawn page is styled before its code arrives.
    pub chunk: Option<&'static str>,
}

/// The inline script that starts a drawn page's code once its first screen
/// is painted (docs/rendering.md, "Code after the first paint"): after the
/// first contentful paint and the load of the page's hero picture (its
/// `fetchpriority="high"` image), at the first press, key, focus, wheel or
/// scroll, or at the latest 3 seconds after the document is parsed; at once
/// when the page arrived undrawn. Until then it holds the addresses of the
/// page's lazy pictures, so that nothing else shares a phone's line with
/// the hero (docs/rendering.md, "Pictures after the first paint"). A click on a button or a form's submit before the code
/// is live is held and done again once it is (`dealership:live`, main.tsx).
/// Allowed by its hash in the Content-Security-Policy
/// (`router::LOADER_HASH`, checked by a test).
pub const LOADER: &str = include_str!("loader.js");

/// Where the page's markup goes in the shell.
const APP_SLOT: &str = "<!--app-->";

impl Page {
    /// Reads the size of the page's image when it is one of our stored
    /// pictures (its header only); any other image has none.
    pub fn measure_image(&mut self, media_dir: &std::path::Path) {
        let Some(hash) = self.image.as_deref().and_then(crate::media::hash_of_url) else {
            return;
        };
        let Some(width) = self
            .image
            .as_deref()
            .and_then(|url| url.strip_suffix(".webp"))
            .and_then(|stem| stem.rsplit_once('-'))
            .and_then(|(_, w)| w.parse::<u32>().ok())
        else {
            return;
        };
        let path = crate::media::variant_path(media_dir, hash, width);
        self.image_size = image::ImageReader::open(path)
            .and_then(|r| r.with_guessed_format())
            .ok()
            .and_then(|r| r.into_dimensions().ok());
    }

    pub fn new(path: impl Into<String>) -> Page {
        Page {
            status: StatusCode::OK,
            title: None,
            description: None,
            path: path.into(),
            og_type: "website",
            image: None,
            image_size: None,
            preload_images: Vec::new(),
            json_ld: None,
            data: BTreeMap::new(),
            noindex: false,
            server_render: true,
            chunk: None,
        }
    }

    pub fn title(mut self, title: impl Into<String>) -> Page {
        self.title = Some(title.into());
        self
    }

    pub fn description(mut self, description: impl Into<String>) -> Page {
        self.description = Some(description.into());
        self
    }

    pub fn put<T: Serialize>(&mut self, key: impl Into<String>, value: &T) {
        let value = serde_json::value::to_raw_value(value).unwrap_or_else(|_| null());
        self.data.insert(key.into(), value);
    }

    /// Embeds an answer that is JSON text already.
    pub fn put_json(&mut self, key: impl Into<String>, value: Box<RawValue>) {
        self.data.insert(key.into(), value);
    }

    /// Embeds a known 404 (`null`).
    pub fn put_not_found(&mut self, key: impl Into<String>) {
        self.data.insert(key.into(), null());
    }

    pub fn not_found(mut self) -> Page {
        self.status = StatusCode::NOT_FOUND;
        self.noindex = true;
        self
    }

    pub fn render(self, settings: &PublicSettings, base_url: &str) -> Response {
        let base = base_url.trim_end_matches('/');
        let site_name = if settings.salon_name.trim().is_empty() {
            "Автосалон".to_string()
        } else {
            settings.salon_name.clone()
        };
        let default_title = format!("{site_name} — автосалон в Санкт-Петербурге");
        let (title, og_title) = match &self.title {
            Some(t) => (format!("{t} — {site_name}"), t.clone()),
            None => (default_title.clone(), default_title),
        };
        let description = self.description.clone().unwrap_or_else(|| {
            format!(
                "{site_name}: новые автомобили и автомобили с пробегом в Санкт-Петербурге. \
                 Автокредит, трейд-ин, аренда с выкупом и подбор автомобиля."
            )
        });
        let absolute = |url: &str| {
            if url.starts_with("http://") || url.starts_with("https://") {
                url.to_string()
            } else {
                format!("{base}{url}")
            }
        };
        let entry = assets::entry();
        let own = self.chunk.and_then(|source| entry.lazy.get(source));
        let styles: Vec<Style> = entry
            .styles
            .iter()
            .chain(own.iter().flat_map(|c| c.styles.iter()))
            .map(|href| match assets::inline_style(href) {
                Some(text) => Style::Inline(text, href.clone()),
                None => Style::Linked(href.clone()),
            })
            .collect();
        let preloads: Vec<String> = entry
            .preloads
            .iter()
            .chain(own.iter().flat_map(|c| c.scripts.iter()))
            .cloned()
            .collect();
        let favicon = if settings.favicon.is_empty() {
            super::seo::default_favicon_url().to_string()
        } else {
            settings.favicon.clone()
        };
        let data = script_json(&self.data);
        let shell = Shell {
            title,
            og_title,
            description,
            canonical: absolute(&self.path),
            og_type: self.og_type,
            site_name,
            og_image: self.image.as_deref().map(absolute),
            og_image_width: self.image_size.map(|(w, _)| w),
            og_image_height: self.image_size.map(|(_, h)| h),
            favicon,
            styles: &styles,
            preloads: &preloads,
            script: entry.script.as_deref(),
            loader: self.server_render.then_some(LOADER),
            preload_images: &self.preload_images,
            json_ld: self.json_ld.as_ref().map(script_json),
            data: &data,
            noindex: self.noindex,
        };
        let html = match shell.render() {
            Ok(html) => html,
            Err(e) => {
                tracing::error!("shell template: {e}");
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            }
        };
        let Some((before, after)) = html.split_once(APP_SLOT) else {
            return html_response(self.status, html);
        };
        let no_script = NoScript {
            phone: &settings.phone,
        }
        .render()
        .unwrap_or_default();
        let shell = format!("{before}{no_script}{after}");
        let mut response = html_response(self.status, shell);
        if self.server_render {
            response.extensions_mut().insert(PendingMarkup {
                before: before.to_string(),
                after: after.to_string(),
                data,
            });
        }
        response
    }
}

pub fn html_response(status: StatusCode, html: String) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        html,
    )
        .into_response()
}

/// JSON that is safe inside a `<script>` element: `<` only occurs in
/// strings, where `\u003c` means the same.
pub fn script_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "{}".into())
        .replace('<', "\\u003c")
}

/// JSON's `null`.
fn null() -> Box<RawValue> {
    RawValue::from_string("null".into()).expect("null is JSON")
}

#[derive(Template)]
#[template(path = "shell.html")]
struct Shell<'a> {
    title: String,
    og_title: String,
    description: String,
    canonical: String,
    og_type: &'static str,
    site_name: String,
    og_image: Option<String>,
    og_image_width: Option<u32>,
    og_image_height: Option<u32>,
    favicon: String,
    styles: &'a [Style],
    preloads: &'a [String],
    script: Option<&'a str>,
    /// On a drawn page, the script that fetches `script` and `preloads` once
    /// the first screen is painted ([`LOADER`]); otherwise they are linked.
    loader: Option<&'static str>,
    preload_images: &'a [PreloadImage],
    json_ld: Option<String>,
    data: &'a str,
    noindex: bool,
}

/// A stylesheet of the page: written into the head (the built UI's own), or
/// linked when its text is not at hand. A written one is also named by a
/// `<link rel="stylesheet" disabled>`, which browsers neither fetch nor
/// apply: the UI's loader of lazy chunks looks for that link and, finding
/// none, would link the sheet again after the chunk's own styles, and its
/// rules would then override theirs.
enum Style {
    Inline(&'static str, String),
    Linked(String),
}

/// What an unrendered page says to a browser without JavaScript.
#[derive(Template)]
#[template(
    source = "<noscript><p>Для работы сайта включите JavaScript. Телефон: {{ phone }}</p></noscript>",
    ext = "html"
)]
struct NoScript<'a> {
    phone: &'a str,
}

/// Image URL variants made by the media store: `…-800.webp` has `-400` and
/// `-1600` siblings.
fn srcset(url: &str) -> Option<String> {
    let stem = url.strip_suffix("-800.webp")?;
    Some(format!(
        "{stem}-400.webp 400w, {url} 800w, {stem}-1600.webp 1600w"
    ))
}
