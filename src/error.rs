//! The one error type of the server. 4xx variants carry the message a person
//! reads (Russian where a visitor sees it); 5xx variants log their cause and
//! answer with a generic message.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request cannot be read (malformed JSON, bad query).
    #[error("{0}")]
    BadRequest(String),
    /// 401
    #[error("{0}")]
    Unauthorized(String),
    /// 403
    #[error("{0}")]
    Forbidden(String),
    /// 404
    #[error("{0}")]
    NotFound(String),
    /// 409: conflicts with stored data (duplicate slug, brand with cars).
    #[error("{message}")]
    Conflict {
        message: String,
        field: Option<&'static str>,
    },
    /// 413
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: a field's value breaks a rule.
    #[error("{message}")]
    Invalid {
        message: String,
        field: Option<&'static str>,
    },
    /// 429
    #[error("{0}")]
    TooManyRequests(String),
    /// 503 with `Retry-After`: the server cannot do it now (the database
    /// refuses writes) and says when to try again; the message tells the
    /// person what else to do. Its cause is logged.
    #[error("{message}: {cause:#}")]
    Unavailable {
        message: String,
        retry_after_seconds: u32,
        cause: anyhow::Error,
    },
    /// 500: logged, never shown.
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        AppError::Invalid {
            message: message.into(),
            field: Some(field),
        }
    }

    pub fn conflict(field: Option<&'static str>, message: impl Into<String>) -> Self {
        AppError::Conflict {
            message: message.into(),
            field,
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        AppError::NotFound(message.into())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict { .. } => StatusCode::CONFLICT,
            AppError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<rusqlite::Error> for AppError {
    fn from(err: rusqlite::Error) -> Self {
        constraint_error(&err).unwrap_or_else(|| AppError::Internal(err.into()))
    }
}

impl From<r2d2::Error> for AppError {
    fn from(err: r2d2::Error) -> Self {
        AppError::Internal(anyhow::anyhow!("database pool: {err}"))
    }
}

/// Maps SQLite UNIQUE, FOREIGN KEY and CHECK violations to 409/422, so a rule
/// the service did not check first still answers with our error shape.
fn constraint_error(err: &rusqlite::Error) -> Option<AppError> {
    let rusqlite::Error::SqliteFailure(code, message) = err else {
        return None;
    };
    if code.code != rusqlite::ErrorCode::ConstraintViolation {
        return None;
    }
    let message = message.as_deref().unwrap_or_default();
    use rusqlite::ffi;
    Some(match code.extended_code {
        ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
            let field = if message.contains(".slug") {
                Some("slug")
            } else if message.contains(".username") {
                Some("username")
            } else if message.contains(".external_id") {
                Some("externalId")
            } else {
                None
            };
            let text = match field {
                Some("slug") => "Такой slug уже используется",
                Some("username") => "Такой пользователь уже существует",
                _ => "Такая запись уже существует",
            };
            AppError::conflict(field, text)
        }
        ffi::SQLITE_CONSTRAINT_FOREIGNKEY => AppError::conflict(
            None,
            "Запись связана с другими данными и не может быть изменена так",
        ),
        _ => AppError::Invalid {
            message: "Недопустимое значение поля".into(),
            field: None,
        },
    })
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let (message, field) = match &self {
            AppError::Internal(cause) => {
                tracing::error!(error = %format!("{cause:#}"), "request failed");
                ("Внутренняя ошибка сервера", None)
            }
            AppError::Unavailable {
                message,
                retry_after_seconds,
                cause,
            } => {
                tracing::error!(error = %format!("{cause:#}"), "request refused for now");
                let retry = axum::http::HeaderValue::from(*retry_after_seconds);
                let body = Json(ErrorBody {
                    error: message,
                    field: None,
                });
                return (status, [(axum::http::header::RETRY_AFTER, retry)], body).into_response();
            }
            AppError::Conflict { message, field } | AppError::Invalid { message, field } => {
                (message.as_str(), *field)
            }
            AppError::BadRequest(m)
            | AppError::Unauthorized(m)
            | AppError::Forbidden(m)
            | AppError::NotFound(m)
            | AppError::PayloadTooLarge(m)
            | AppError::UnsupportedMediaType(m)
            | AppError::TooManyRequests(m) => (m.as_str(), None),
        };
        (
            status,
            Json(ErrorBody {
                error: message,
                field,
            }),
        )
            .into_response()
    }
}
