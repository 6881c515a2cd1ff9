//! The image store: every picture of the site (uploads, imports, demo data)
//! is checked, resized to [`WIDTHS`] and saved as lossy WebP under
//! `<data_dir>/media`, named by the hash of its source, and recorded in the
//! `media` table. The public URL of a picture is its 800 px variant,
//! `/media/<hash>-800.webp`; [`srcset`] derives the others from it.
//!
//! The file as it was uploaded or imported is kept too, in
//! `media/originals/<hash>` (never served: it may carry the camera's
//! location in its EXIF): the upload queue ([`uploads`]) copies it to the
//! replica's bucket, and a restore from the replica rebuilds the variants
//! from it.

pub mod cleanup;
mod decode;
pub mod gate;
pub mod names;
pub mod uploads;
mod variants;

use std::io::Cursor;
use std::path::Path;

use image::metadata::Orientation;
use image::{ImageFormat, ImageReader};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::{AppError, AppResult};

pub use decode::working_bytes;
pub use gate::Gate;
pub use names::*;
pub use variants::Layout;

/// A stored picture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredImage {
    /// First 32 hex characters of the SHA-256 of the source.
    pub hash: String,
    /// `/media/<hash>-800.webp`
    pub url: String,
    /// Size of the source as shown (EXIF orientation applied).
    pub width: u32,
    pub height: u32,
    /// MIME type of the source, as recorded in the `media` table.
    #[serde(skip)]
    pub source_mime: &'static str,
}

/// Checks, resizes and stores an uploaded file, and records it in `media`.
/// Storing the same bytes again does no image work and adds no row.
pub fn store_image(conn: &Connection, media_dir: &Path, bytes: &[u8]) -> AppResult<StoredImage> {
    let image = process_image(media_dir, bytes)?;
    record(conn, &image)?;
    Ok(image)
}

/// Stores a picture given as raw pixels (RGB or RGBA, 8 bits, straight
/// alpha), named by the hash of its size and pixels. For generated pictures.
pub fn store_pixels(
    conn: &Connection,
    media_dir: &Path,
    pixels: &[u8],
    width: u32,
    height: u32,
    layout: Layout,
) -> AppResult<StoredImage> {
    let image = process_pixels(media_dir, pixels, width, height, layout)?;
    record(conn, &image)?;
    Ok(image)
}

/// [`store_image`] without the database row: only the files. Lets callers
/// do the image work off a database transaction, then [`record`] it.
pub fn process_image(media_dir: &Path, bytes: &[u8]) -> AppResult<StoredImage> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(AppError::PayloadTooLarge(FILE_TOO_LARGE.into()));
    }
    let format = image::guess_format(bytes)
        .ok()
        .filter(|f| {
            matches!(
                f,
                ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP | ImageFormat::Gif
            )
        })
        .ok_or_else(|| AppError::UnsupportedMediaType(NOT_AN_IMAGE.into()))?;
    // The header alone: a small file may declare an enormous picture.
    let mut probe = ImageReader::with_format(Cursor::new(bytes), format);
    probe.no_limits();
    let (width, height) = probe.into_dimensions().map_err(|_| broken())?;
    check_size(width, height)?;

    let hash = hex_prefix(&Sha256::digest(bytes));
    let done = variants::all_exist(media_dir, &hash);
    let (orientation, pixels) = decode::open(bytes, format, !done)?;
    let (shown_width, shown_height) = variants::oriented(width, height, orientation);
    keep_original(media_dir, &hash, bytes)?;
    if let Some(decoded) = pixels {
        variants::write_all(
            media_dir,
            &hash,
            variants::Source {
                pixels: std::borrow::Cow::Owned(decoded.pixels),
                width,
                height,
                layout: decoded.layout,
                orientation,
            },
        )?;
    }
    Ok(StoredImage {
        url: url_of(&hash),
        hash,
        width: shown_width,
        height: shown_height,
        source_mime: format.to_mime_type(),
    })
}

/// [`store_pixels`] without the database row.
pub fn process_pixels(
    media_dir: &Path,
    pixels: &[u8],
    width: u32,
    height: u32,
    layout: Layout,
) -> AppResult<StoredImage> {
    check_size(width, height)?;
    let expected = width as usize * height as usize * layout.channels();
    if pixels.len() != expected {
        return Err(AppError::Internal(anyhow::anyhow!(
            "{} bytes of pixels for {width}x{height}",
            pixels.len()
        )));
    }
    let hash = pixels_hash(b"raw", width, height, layout, pixels);
    if !variants::all_exist(media_dir, &hash) {
        variants::write_all(
            media_dir,
            &hash,
            variants::Source {
                pixels: std::borrow::Cow::Borrowed(pixels),
                width,
                height,
                layout,
                orientation: Orientation::NoTransforms,
            },
        )?;
    }
    Ok(StoredImage {
        url: url_of(&hash),
        hash,
        width,
        height,
        source_mime: "image/x-raw",
    })
}

/// Stores a generated picture that can be drawn at any size: it is drawn at
/// each stored size instead of being resized (sharper, and no resampling),
/// and named by the hash of its smallest drawing, so a picture already
/// stored costs one small drawing. `draw(width, height)` gives 8-bit pixels
/// in `layout`, straight alpha; `width` x `height` is the drawing's full
/// size. Files only, like [`process_image`].
pub fn process_drawn(
    media_dir: &Path,
    width: u32,
    height: u32,
    layout: Layout,
    draw: &dyn Fn(u32, u32) -> Vec<u8>,
) -> AppResult<StoredImage> {
    check_size(width, height)?;
    let sizes = variants::sizes(width, height, Orientation::NoTransforms);
    let (_, w, h) = sizes[sizes.len() - 1];
    let smallest = draw(w, h);
    if smallest.len() != w as usize * h as usize * layout.channels() {
        return Err(AppError::Internal(anyhow::anyhow!(
            "drawn {} bytes for {w}x{h}",
            smallest.len()
        )));
    }
    let hash = pixels_hash(b"drawn", width, height, layout, &smallest);
    if !variants::all_exist(media_dir, &hash) {
        variants::write_drawn(media_dir, &hash, smallest, &sizes, layout, draw)?;
    }
    Ok(StoredImage {
        url: url_of(&hash),
        hash,
        width,
        height,
        source_mime: "image/x-drawn",
    })
}

/// The name of a picture given as pixels: its kind, size, layout and pixels.
fn pixels_hash(kind: &[u8], width: u32, height: u32, layout: Layout, pixels: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(kind);
    hasher.update(width.to_le_bytes());
    hasher.update(height.to_le_bytes());
    hasher.update([layout.channels() as u8]);
    hasher.update(pixels);
    hex_prefix(&hasher.finalize())
}

/// Records a processed picture in the `media` table (once per hash) and,
/// in the same transaction, queues it for the replica's bucket
/// ([`uploads`]).
pub fn record(conn: &Connection, image: &StoredImage) -> AppResult<()> {
    let now = crate::domain::now();
    let added = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO media (hash, source_mime, width, height, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            image.hash,
            image.source_mime,
            image.width,
            image.height,
            now
        ])?;
    if added > 0 {
        uploads::queue(conn, &image.hash, &now)?;
    }
    Ok(())
}

/// Keeps the file a picture was made from (once; written whole or not at
/// all), so that it can be copied to the replica and its variants rebuilt.
fn keep_original(media_dir: &Path, hash: &str, bytes: &[u8]) -> AppResult<()> {
    let path = original_path(media_dir, hash);
    if path.exists() {
        return Ok(());
    }
    let folder = media_dir.join(ORIGINALS_FOLDER);
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(&folder)?;
        let partial = folder.join(format!(".{hash}.{}.partial", crate::domain::new_id()));
        std::fs::write(&partial, bytes)?;
        std::fs::rename(&partial, &path)
    };
    write().map_err(|err| {
        AppError::Internal(anyhow::Error::new(err).context(format!(
            "cannot keep the original of picture {hash} in {}",
            folder.display()
        )))
    })
}

/// Whether a picture is recorded.
pub fn is_recorded(conn: &Connection, hash: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM media WHERE hash = ?1")?
        .query_row([hash], |_| Ok(()))
        .optional()?
        .is_some())
}

#[cfg(test)]
mod tests;
