//! Image uploads: one multipart request; the server checks the content,
//! makes the WebP variants and answers with their URLs.

use axum::Json;
use axum::extract::multipart::MultipartError;
use axum::extract::{Multipart, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use image::ImageFormat;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::blocking;
use crate::error::{AppError, AppResult};
use crate::http::extract::ApiQuery;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;
use crate::media::{self, StoredImage};

/// Largest favicon (1 MB).
pub const MAX_FAVICON_BYTES: usize = 1024 * 1024;
pub const FAVICON_TOO_LARGE: &str = "Размер файла не должен превышать 1MB";
pub const SVG_REFUSED: &str = "SVG не поддерживается: загрузите иконку ICO или PNG";
/// Longest side of a favicon, in pixels.
const MAX_FAVICON_SIDE: u32 = 1024;

/// The upload: bigger bodies than the other admin calls.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(upload))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UploadQuery {
    /// `image` (default): resized WebP variants; `favicon`: ICO, PNG, JPEG or
    /// GIF up to 1 MB, stored as sent.
    #[param(pattern = "^(image|favicon)$")]
    pub kind: Option<String>,
}

/// The upload form (documentation only: the handler reads the multipart
/// stream itself).
#[derive(ToSchema, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct UploadForm {
    /// The picture's bytes.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Uploaded {
    /// The URL to store in an entity (the 800 px variant for images).
    pub url: String,
    /// `url 400w, url 800w, url 1600w` (empty for a favicon).
    pub srcset: String,
    pub width: u32,
    pub height: u32,
    pub hash: String,
}

fn upload_error(err: MultipartError) -> AppError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        AppError::PayloadTooLarge(media::FILE_TOO_LARGE.into())
    } else {
        AppError::BadRequest(format!("Не удалось прочитать файл: {}", err.body_text()))
    }
}

/// Seconds a busy answer asks the client to wait.
const BUSY_RETRY_AFTER: &str = "10";

/// Uploads one picture (multipart/form-data, field `file`). While other
/// pictures take the server's image work, the upload waits briefly in a
/// short queue; beyond it the answer is 429 with `Retry-After`.
#[utoipa::path(post, path = "/api/objects/upload", tag = "admin", params(UploadQuery),
    request_body(content = UploadForm, content_type = "multipart/form-data",
        description = "Field `file`: the picture"),
    responses((status = 201, body = Uploaded), (status = 413, body = ApiErrorBody),
        (status = 415, body = ApiErrorBody), (status = 422, body = ApiErrorBody),
        (status = 429, body = ApiErrorBody)))]
pub async fn upload(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<UploadQuery>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    match receive(state, query, multipart).await {
        Ok(uploaded) => (StatusCode::CREATED, Json(uploaded)).into_response(),
        Err(err) => {
            let busy = matches!(err, AppError::TooManyRequests(_));
            let mut response = err.into_response();
            if busy {
                response.headers_mut().insert(
                    header::RETRY_AFTER,
                    HeaderValue::from_static(BUSY_RETRY_AFTER),
                );
            }
            response
        }
    }
}

async fn receive(
    state: AppState,
    query: UploadQuery,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> AppResult<Uploaded> {
    let mut multipart = multipart.map_err(|_| {
        AppError::UnsupportedMediaType(
            "Ожидается форма «multipart/form-data» с полем «file»".into(),
        )
    })?;
    let favicon = match query.kind.as_deref() {
        None | Some("image") => false,
        Some("favicon") => true,
        Some(other) => {
            return Err(AppError::BadRequest(format!(
                "Неизвестный вид файла: {other}"
            )));
        }
    };
    // A place in the queue before the body is read: a refused upload
    // costs no memory.
    let place = state.image_gate.enter()?;
    let mut bytes = None;
    // The form has one field (`UploadForm`, no other in the document),
    // once: the whole form is read, so one after the file is refused too.
    while let Some(field) = multipart.next_field().await.map_err(upload_error)? {
        match field.name() {
            Some("file") if bytes.is_none() => {
                bytes = Some(field.bytes().await.map_err(upload_error)?);
            }
            other => {
                let name: String = other.unwrap_or_default().chars().take(40).collect();
                return Err(AppError::BadRequest(format!(
                    "Неизвестное поле формы «{name}»: ожидается только «file»"
                )));
            }
        }
    }
    let bytes = bytes.ok_or_else(|| AppError::invalid("file", media::NOT_AN_IMAGE))?;
    let turn = state
        .image_gate
        .turn(place, media::working_bytes(&bytes))
        .await?;
    let media_dir = state.config.media_dir();
    // The turn moves into the work: a client that leaves does not free it
    // while its picture is still being worked on.
    let stored = blocking(move || {
        let _turn = turn;
        if favicon {
            store_favicon(&media_dir, &bytes)
        } else {
            media::process_image(&media_dir, &bytes)
        }
    })
    .await?;
    let record = stored.clone();
    state.db.call(move |c| media::record(c, &record)).await?;
    Ok(Uploaded {
        srcset: media::srcset(&stored.url).unwrap_or_default(),
        url: stored.url,
        width: stored.width,
        height: stored.height,
        hash: stored.hash,
    })
}

/// Checks a favicon and stores it as sent, named by its hash.
fn store_favicon(media_dir: &std::path::Path, bytes: &[u8]) -> AppResult<StoredImage> {
    if bytes.len() > MAX_FAVICON_BYTES {
        return Err(AppError::PayloadTooLarge(FAVICON_TOO_LARGE.into()));
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).to_ascii_lowercase();
    if head.contains("<svg") || head.trim_start().starts_with("<?xml") {
        return Err(AppError::UnsupportedMediaType(SVG_REFUSED.into()));
    }
    let (format, extension, mime) = match image::guess_format(bytes) {
        Ok(ImageFormat::Ico) => (ImageFormat::Ico, "ico", "image/x-icon"),
        Ok(ImageFormat::Png) => (ImageFormat::Png, "png", "image/png"),
        Ok(ImageFormat::Jpeg) => (ImageFormat::Jpeg, "jpg", "image/jpeg"),
        Ok(ImageFormat::Gif) => (ImageFormat::Gif, "gif", "image/gif"),
        _ => return Err(AppError::UnsupportedMediaType(media::NOT_AN_IMAGE.into())),
    };
    let reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    let (width, height) = reader
        .into_dimensions()
        .map_err(|_| AppError::invalid("file", media::BROKEN_IMAGE))?;
    if width == 0 || height == 0 || width > MAX_FAVICON_SIDE || height > MAX_FAVICON_SIDE {
        return Err(AppError::invalid(
            "file",
            format!("Иконка должна быть не больше {MAX_FAVICON_SIDE}×{MAX_FAVICON_SIDE} точек"),
        ));
    }
    image::load_from_memory_with_format(bytes, format)
        .map_err(|_| AppError::invalid("file", media::BROKEN_IMAGE))?;
    let hash = hex::encode(&Sha256::digest(bytes)[..16]);
    let name = format!("{hash}.{extension}");
    let path = media_dir.join(&name);
    if !path.exists() {
        let temp = media_dir.join(format!(".{name}.tmp"));
        std::fs::write(&temp, bytes).map_err(|e| AppError::Internal(e.into()))?;
        std::fs::rename(&temp, &path).map_err(|e| AppError::Internal(e.into()))?;
    }
    Ok(StoredImage {
        url: format!("{}{name}", media::URL_PREFIX),
        hash,
        width,
        height,
        source_mime: mime,
    })
}
