//! Extractors that answer bad input with our error shape.

use std::net::{IpAddr, SocketAddr};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::state::AppState;
use crate::error::AppError;

/// JSON body; malformed JSON is 400, a wrong shape 422, a missing content
/// type 415, an oversize body 413.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> AppError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            AppError::UnsupportedMediaType("Ожидается JSON (Content-Type: application/json)".into())
        }
        JsonRejection::JsonSyntaxError(_) => AppError::BadRequest("Неверный JSON".into()),
        JsonRejection::JsonDataError(e) => {
            let text = e.body_text();
            let text = text
                .trim_start_matches("Failed to deserialize the JSON body into the target type: ");
            // serde lists every allowed field after the first problem; keep the problem.
            let text = text.split(", expected one of").next().unwrap_or(text);
            AppError::Invalid {
                message: format!("Неверные данные: {text}"),
                field: None,
            }
        }
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            AppError::PayloadTooLarge("Слишком большой запрос".into())
        }
        other => AppError::BadRequest(other.body_text()),
    }
}

/// Query string; a bad value is 400 with the parameter named.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(ApiQuery(value)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => {
                Err(AppError::BadRequest(format!(
                    "Неверный параметр запроса: {}",
                    e.body_text()
                        .trim_start_matches("Failed to deserialize query string: ")
                )))
            }
            Err(other) => Err(AppError::BadRequest(other.body_text())),
        }
    }
}

/// The visitor's address: the socket's peer, or the first X-Forwarded-For
/// address when the config says a reverse proxy sets it.
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if state.config.trust_forwarded_for
            && let Some(ip) = parts
                .headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .and_then(|v| v.trim().parse().ok())
        {
            return Ok(ClientIp(ip));
        }
        let ip = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        Ok(ClientIp(ip))
    }
}
