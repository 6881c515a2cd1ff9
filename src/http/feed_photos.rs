//! The pictures of the Avito feed as JPEG (`/feeds/photos/{hash}.jpg`):
//! Avito takes JPEG or PNG only (`docs/parser.md`, "Export", rule A25), and
//! the site stores WebP. A picture's copy is made from its 1600 px variant
//! the first time it is asked for, kept beside the variants (it goes with
//! them when the picture is no longer used, `media::cleanup`), and served
//! as an immutable file after. Two conversions at most run at once, so a
//! stranger asking for every picture costs time, not memory.

use std::path::PathBuf;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::Semaphore;

use super::state::AppState;
use crate::error::{AppError, AppResult};

/// JPEG quality of the copies: what Avito recompresses anyway.
const QUALITY: u8 = 85;
static CONVERSIONS: Semaphore = Semaphore::const_new(2);

pub fn routes() -> Router<AppState> {
    Router::new().route("/feeds/photos/{file}", get(photo))
}

fn is_hash(text: &str) -> bool {
    text.len() == 32
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

async fn photo(State(state): State<AppState>, Path(file): Path<String>) -> AppResult<Response> {
    let not_found = || AppError::not_found("Фото не найдено");
    let hash = file
        .strip_suffix(".jpg")
        .filter(|h| is_hash(h))
        .ok_or_else(not_found)?
        .to_string();
    let dir = state.config.media_dir();
    let jpeg = dir.join(format!("{hash}-1600.jpg"));
    let bytes = match tokio::fs::read(&jpeg).await {
        Ok(bytes) => bytes,
        Err(_) => {
            let webp = crate::media::variant_path(&dir, &hash, 1600);
            if tokio::fs::metadata(&webp).await.is_err() {
                return Err(not_found());
            }
            let _turn = CONVERSIONS
                .acquire()
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            tokio::task::spawn_blocking(move || convert(&webp, &jpeg))
                .await
                .map_err(|e| AppError::Internal(e.into()))??
        }
    };
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/jpeg")),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
        ],
        Bytes::from(bytes),
    )
        .into_response())
}

/// The JPEG of a WebP variant, written beside it (through a temporary file,
/// so a half-written copy is never served).
fn convert(webp: &PathBuf, jpeg: &PathBuf) -> AppResult<Vec<u8>> {
    if let Ok(bytes) = std::fs::read(jpeg) {
        return Ok(bytes);
    }
    let source = std::fs::read(webp).map_err(|e| AppError::Internal(e.into()))?;
    let picture = image::load_from_memory_with_format(&source, image::ImageFormat::WebP)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("{}: {e}", webp.display())))?
        .to_rgb8();
    let mut out = Vec::with_capacity(source.len() * 2);
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, QUALITY)
        .encode_image(&picture)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("JPEG: {e}")))?;
    let temporary = jpeg.with_extension("jpg.part");
    std::fs::write(&temporary, &out)
        .and_then(|()| std::fs::rename(&temporary, jpeg))
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(out)
}
