//! What a stored picture may be and where it lives: the stored widths, the
//! limits and their messages, the files of a picture in the media folder
//! (variants, the original) and the URLs they are served under. Depends on
//! nothing else of the site, so the store, its workers and the replica's
//! bucket can all name these.

use std::path::{Path, PathBuf};

use crate::error::{AppError, AppResult};

/// Widths of the stored variants, in pixels. A narrower source gives every
/// variant at its own width, so each variant URL always exists.
pub const WIDTHS: [u32; 3] = [400, 800, 1600];
/// The variant a stored URL points at.
pub const MAIN_WIDTH: u32 = 800;
/// Largest accepted file (5 MB), for the upload endpoints too.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// Largest accepted picture, read from the file's header before decoding.
pub const MAX_PIXELS: u64 = 40_000_000;
/// Longest accepted side, in pixels.
pub const MAX_SIDE: u32 = 12_000;
/// Lossy WebP quality of the variants.
pub const WEBP_QUALITY: f32 = 80.0;
/// libwebp's effort (0 fast … 6 small); 4 is its default, as in cwebp.
pub const WEBP_METHOD: i32 = 4;
/// The effort for drawn pictures, whose flat colours compress well anyway.
pub const WEBP_METHOD_DRAWN: i32 = 2;
/// The URL path the router serves the media folder under.
pub const URL_PREFIX: &str = "/media/";
/// Hex characters of the SHA-256 that name a picture.
pub(super) const HASH_LEN: usize = 32;

pub const NOT_AN_IMAGE: &str = "Пожалуйста, выберите файл изображения";
pub const FILE_TOO_LARGE: &str = "Размер файла не должен превышать 5MB";
pub const TOO_MANY_PIXELS: &str =
    "Изображение слишком большое: не более 40 мегапикселей и не более 12000 точек по стороне";
pub const BROKEN_IMAGE: &str = "Не удалось прочитать изображение: файл повреждён";
pub const TRUNCATED_IMAGE: &str =
    "Файл изображения обрезан (загружен не полностью): сохраните или скачайте его заново";

/// The folder of originals inside the media folder.
pub const ORIGINALS_FOLDER: &str = "originals";

/// Where the original of a picture is kept.
pub fn original_path(media_dir: &Path, hash: &str) -> PathBuf {
    media_dir.join(ORIGINALS_FOLDER).join(hash)
}

/// The URL of a picture: its 800 px variant.
pub fn url_of(hash: &str) -> String {
    format!("{URL_PREFIX}{hash}-{MAIN_WIDTH}.webp")
}

/// Where a variant lives on disk.
pub fn variant_path(media_dir: &Path, hash: &str, width: u32) -> PathBuf {
    media_dir.join(format!("{hash}-{width}.webp"))
}

/// Splits one of our URLs (`…/media/<hash>-<w>.webp`, absolute or not) into
/// the part before the width and the hash.
fn split_url(url: &str) -> Option<(&str, &str)> {
    let stem = url.strip_suffix(".webp")?;
    let (base, width) = stem.rsplit_once('-')?;
    if !WIDTHS.iter().any(|w| w.to_string() == width) {
        return None;
    }
    let (dir, hash) = base.rsplit_once('/')?;
    let is_hash = hash.len() == HASH_LEN
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (is_hash && format!("{dir}/").ends_with(URL_PREFIX)).then_some((base, hash))
}

/// The hash of one of our URLs.
pub fn hash_of_url(url: &str) -> Option<&str> {
    split_url(url).map(|(_, hash)| hash)
}

/// The URL of another variant of one of our pictures; `None` for any other
/// URL or a width we do not store.
pub fn variant_url(url: &str, width: u32) -> Option<String> {
    if !WIDTHS.contains(&width) {
        return None;
    }
    let (base, _) = split_url(url)?;
    Some(format!("{base}-{width}.webp"))
}

/// The `srcset` of one of our pictures:
/// `/media/h-400.webp 400w, /media/h-800.webp 800w, /media/h-1600.webp 1600w`.
pub fn srcset(url: &str) -> Option<String> {
    let (base, _) = split_url(url)?;
    Some(
        WIDTHS
            .iter()
            .map(|w| format!("{base}-{w}.webp {w}w"))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// Refuses an empty picture or one over [`MAX_SIDE`] or [`MAX_PIXELS`].
pub(super) fn check_size(width: u32, height: u32) -> AppResult<()> {
    if width == 0 || height == 0 {
        return Err(broken());
    }
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(AppError::invalid("image", TOO_MANY_PIXELS));
    }
    Ok(())
}

pub(crate) fn broken() -> AppError {
    AppError::invalid("image", BROKEN_IMAGE)
}

/// The name of a picture: the first [`HASH_LEN`] hex characters of a digest.
pub(super) fn hex_prefix(digest: &[u8]) -> String {
    hex::encode(&digest[..HASH_LEN / 2])
}
