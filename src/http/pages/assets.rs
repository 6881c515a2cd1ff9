//! The built UI (ui/dist), embedded in the binary. Vite's manifest names the
//! hashed entry script, its stylesheets and the chunks worth preloading.

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use serde::Deserialize;

/// A missing ui/dist (a clean clone before `npm run build`) embeds nothing.
#[derive(RustEmbed)]
#[folder = "ui/dist/assets"]
#[allow_missing = true]
struct UiDist;

#[derive(RustEmbed)]
#[folder = "ui/dist/.vite"]
#[allow_missing = true]
struct ViteMeta;

/// The entry of ui/src/main.tsx in Vite's manifest.
const ENTRY: &str = "src/main.tsx";

#[derive(Debug, Deserialize)]
struct ManifestChunk {
    file: String,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default, rename = "dynamicImports")]
    dynamic_imports: Vec<String>,
}

/// What the HTML shell links: URLs under /assets/.
#[derive(Debug, Default, Clone)]
pub struct Entry {
    pub script: Option<String>,
    pub styles: Vec<String>,
    pub preloads: Vec<String>,
    /// The chunks the entry loads lazily (a page's own code), by source
    /// path (`src/pages/Compare.tsx`): what a page drawn from one links.
    pub lazy: HashMap<String, Chunk>,
}

/// A lazily loaded chunk: its scripts and its stylesheets, as URLs.
#[derive(Debug, Default, Clone)]
pub struct Chunk {
    pub scripts: Vec<String>,
    pub styles: Vec<String>,
}

fn read_entry() -> Entry {
    let Some(file) = ViteMeta::get("manifest.json") else {
        tracing::warn!(
            "ui/dist is missing: pages are served without scripts (run npm run build in ui/)"
        );
        return Entry::default();
    };
    let manifest: HashMap<String, ManifestChunk> = match serde_json::from_slice(&file.data) {
        Ok(m) => m,
        Err(e) => {
            tracing::error!("ui/dist/.vite/manifest.json unreadable: {e}");
            return Entry::default();
        }
    };
    let Some(entry) = manifest.get(ENTRY) else {
        return Entry::default();
    };
    let mut styles: Vec<String> = entry.css.iter().map(|c| format!("/{c}")).collect();
    let mut preloads = Vec::new();
    for import in &entry.imports {
        if let Some(chunk) = manifest.get(import) {
            preloads.push(format!("/{}", chunk.file));
            styles.extend(chunk.css.iter().map(|c| format!("/{c}")));
        }
    }
    let mut lazy = HashMap::new();
    for source in &entry.dynamic_imports {
        let Some(chunk) = manifest.get(source) else {
            continue;
        };
        let mut own = Chunk::default();
        own.scripts.push(format!("/{}", chunk.file));
        own.styles.extend(chunk.css.iter().map(|c| format!("/{c}")));
        for import in &chunk.imports {
            if let Some(dep) = manifest.get(import) {
                let url = format!("/{}", dep.file);
                if !preloads.contains(&url) && import != ENTRY {
                    own.scripts.push(url);
                    own.styles.extend(dep.css.iter().map(|c| format!("/{c}")));
                }
            }
        }
        own.styles.retain(|s| !styles.contains(s));
        lazy.insert(source.clone(), own);
    }
    Entry {
        script: Some(format!("/{}", entry.file)),
        styles,
        preloads,
        lazy,
    }
}

/// Makes the compressed forms of the stylesheets every page carries inline
/// (`http::spliced`; blocking: quality 11 of 110 KB), as the shell writes
/// them (`<style>…</style>`, assets/templates/shell.html).
pub fn prepare_inline_styles() {
    for url in &entry().styles {
        if let Some(text) = inline_style(url) {
            crate::http::spliced::make_style_forms(format!("<style>{text}</style>").as_bytes());
        }
    }
}

/// The text of a stylesheet of ui/dist by its URL (`/assets/main-….css`),
/// to be written into the page's head as a `<style>`: a page then paints
/// without waiting for a second request (`docs/rendering.md`, "Styles in
/// the page"). `None` for an unknown file or one that could end the
/// element early.
pub fn inline_style(url: &str) -> Option<&'static str> {
    static TEXTS: OnceLock<HashMap<String, Option<String>>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        let entry = entry();
        entry
            .styles
            .iter()
            .chain(entry.lazy.values().flat_map(|c| c.styles.iter()))
            .map(|url| {
                let text = url
                    .strip_prefix("/assets/")
                    .and_then(UiDist::get)
                    .and_then(|file| String::from_utf8(file.data.into_owned()).ok())
                    .filter(|css| !css.to_ascii_lowercase().contains("</style"));
                (url.clone(), text)
            })
            .collect()
    });
    texts.get(url).and_then(|text| text.as_deref())
}

pub fn entry() -> &'static Entry {
    static ENTRY_CELL: OnceLock<Entry> = OnceLock::new();
    ENTRY_CELL.get_or_init(read_entry)
}

/// GET /assets/{*path}: hashed files, cached for a year.
pub async fn asset(Path(path): Path<String>) -> Response {
    let Some(file) = UiDist::get(&path) else {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    };
    let mime = content_type(&path);
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
        ],
        file.data.into_owned(),
    )
        .into_response()
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "webp" => "image/webp",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}
