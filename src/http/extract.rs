//! Extractors that answer bad input with our error shape.

use std::net::{IpAddr, SocketAddr};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

use super::state::AppState;
use crate::domain::form::{self, Form};
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
        JsonRejection::JsonDataError(e) => AppError::Invalid {
            message: data_error(&e.body_text()),
            field: None,
        },
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            AppError::PayloadTooLarge("Слишком большой запрос".into())
        }
        other => AppError::BadRequest(other.body_text()),
    }
}

/// An admin form's JSON body, read by `domain::form::read`: every refusal
/// names the field and gives its Russian message (422); a body that is not
/// a JSON object is a 400 'Неверные данные'.
pub struct FormJson<T>(pub T);

impl<T: DeserializeOwned + Form, S: Send + Sync> FromRequest<S> for FormJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<serde_json::Value>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(FormJson(form::read(value)?)),
            Err(JsonRejection::JsonSyntaxError(_) | JsonRejection::JsonDataError(_)) => {
                Err(AppError::BadRequest(form::UNREADABLE.into()))
            }
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

/// The largest `offset` a list takes (the int32 range the document gives).
pub const MAX_OFFSET: u32 = 2_147_483_647;

/// A paging parameter (`limit`, `offset`, `page`, `perPage`): absent is
/// `default`; outside `range`, the bounds its operation documents, it is 400
/// naming the parameter and the bounds (`docs/api.md`, "Requests").
pub fn paging(
    name: &str,
    value: Option<u32>,
    default: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, AppError> {
    let value = value.unwrap_or(default);
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(AppError::BadRequest(format!(
            "Неверный параметр запроса «{name}»: ожидается число от {} до {}",
            range.start(),
            range.end()
        )))
    }
}

/// Path parameters; one that cannot be read (a number too large for its
/// type) is 400 in our error shape, not axum's plain text.
pub struct ApiPath<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for ApiPath<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(_) => Err(AppError::BadRequest("Неверный адрес запроса".into())),
        }
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
                Err(AppError::BadRequest(query_error(&e.body_text())))
            }
            Err(other) => Err(AppError::BadRequest(other.body_text())),
        }
    }
}

/// A query string serde refused, said in Russian: "limit: invalid digit
/// found in string" is «Неверный параметр запроса «limit»: ожидается число».
fn query_error(text: &str) -> String {
    let text = text.trim_start_matches("Failed to deserialize query string: ");
    if let Some(rest) = text.strip_prefix("missing field `") {
        let name = rest.split('`').next().unwrap_or_default();
        if is_name(name) {
            return format!("Не указан параметр запроса «{name}»");
        }
    }
    let Some((name, problem)) = text.split_once(": ") else {
        return "Неверный параметр запроса".into();
    };
    if !is_name(name) {
        return "Неверный параметр запроса".into();
    }
    format!(
        "Неверный параметр запроса «{name}»: {}",
        problem_text(problem)
    )
}

/// A JSON body of the wrong shape, said in Russian with the field's JSON
/// path ("carYear: invalid type: string, expected i32 at line 1 column 15").
fn data_error(text: &str) -> String {
    let text =
        text.trim_start_matches("Failed to deserialize the JSON body into the target type: ");
    if let Some(rest) = text.strip_prefix("missing field `") {
        let name = rest.split('`').next().unwrap_or_default();
        if is_name(name) {
            return format!("Неверные данные: нет поля «{name}»");
        }
    }
    match text.split_once(": ") {
        Some((path, problem)) if is_path(path) => {
            format!("Неверные данные в поле «{path}»: {}", problem_text(problem))
        }
        _ => format!("Неверные данные: {}", problem_text(text)),
    }
}

/// What serde's message says was wrong, in Russian; never its own words.
fn problem_text(problem: &str) -> &'static str {
    if problem.contains("digit")
        || problem.contains("float")
        || problem.contains("number too large")
        || problem.contains("expected i")
        || problem.contains("expected u")
        || problem.contains("expected f")
    {
        "ожидается число"
    } else if problem.contains("expected a boolean") || problem.contains("provided string was not")
    {
        "ожидается да или нет (true или false)"
    } else if problem.contains("unknown variant") {
        "недопустимое значение"
    } else if problem.contains("unknown field") {
        "неизвестное поле"
    } else if problem.contains("invalid type") {
        "неверный тип значения"
    } else {
        "неверное значение"
    }
}

/// A parameter's name as a client sends it (`limit`, `brandId`).
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A JSON path serde names (`trimLevels[0].name`).
fn is_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 128
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'[' | b']'))
}

/// The visitor's address: the socket's peer, unless the peer is one of the
/// `trusted_proxies`. Then `X-Forwarded-For` is read from the right (each
/// proxy appends the address it was called from) and the first address that
/// is not a trusted proxy is the visitor: what the visitor wrote on the left
/// is never believed.
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip().to_canonical())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        Ok(ClientIp(client_ip(peer, &parts.headers, |ip| {
            state.config.is_trusted_proxy(ip)
        })))
    }
}

/// The right-most `X-Forwarded-For` address that is not trusted, when `peer`
/// is trusted. When every address is trusted, the left-most; at an entry that
/// is not an address, the trusted one to its right.
fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: impl Fn(IpAddr) -> bool) -> IpAddr {
    let mut client = peer;
    if !trusted(peer) {
        return client;
    }
    let lines: Vec<_> = headers.get_all("x-forwarded-for").iter().collect();
    for line in lines.into_iter().rev() {
        let Ok(line) = line.to_str() else {
            return client;
        };
        for entry in line.rsplit(',') {
            let Some(ip) = forwarded_address(entry.trim()) else {
                return client;
            };
            client = ip;
            if !trusted(ip) {
                return client;
            }
        }
    }
    client
}

/// An `X-Forwarded-For` entry: an address, maybe with a port (`1.2.3.4:80`,
/// `[2001:db8::1]:80`).
fn forwarded_address(entry: &str) -> Option<IpAddr> {
    let ip = entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))?;
    Some(ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap_or_else(|_| panic!("{text}"))
    }

    fn with_xff(lines: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(
                "x-forwarded-for",
                HeaderValue::from_str(line).unwrap_or_else(|_| panic!("{line}")),
            );
        }
        headers
    }

    /// Trusted: 10.0.0.0/8 and fd00::/8.
    fn trusted(ip: IpAddr) -> bool {
        match ip {
            IpAddr::V4(v4) => v4.octets()[0] == 10,
            IpAddr::V6(v6) => v6.octets()[0] == 0xfd,
        }
    }

    #[test]
    fn serde_refusals_are_said_in_russian() {
        assert_eq!(
            query_error("Failed to deserialize query string: limit: invalid digit found in string"),
            "Неверный параметр запроса «limit»: ожидается число"
        );
        assert_eq!(
            query_error("status: unknown variant `x`, expected one of `available`, `sold`"),
            "Неверный параметр запроса «status»: недопустимое значение"
        );
        assert_eq!(query_error("garbage"), "Неверный параметр запроса");
        assert_eq!(
            data_error(
                "Failed to deserialize the JSON body into the target type: carYear: invalid type: \
                 string \"x\", expected i32 at line 1 column 15"
            ),
            "Неверные данные в поле «carYear»: ожидается число"
        );
        assert_eq!(
            data_error("missing field `ids` at line 1 column 2"),
            "Неверные данные: нет поля «ids»"
        );
        assert_eq!(
            data_error("invalid type: sequence, expected struct X at line 1 column 1"),
            "Неверные данные: неверный тип значения"
        );
    }

    #[test]
    fn an_untrusted_peer_is_the_visitor() {
        let headers = with_xff(&["198.51.100.1"]);
        assert_eq!(
            client_ip(ip("203.0.113.9"), &headers, trusted),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn the_right_most_untrusted_address_is_the_visitor() {
        let cases: &[(&[&str], &str)] = &[
            (&["203.0.113.9"], "203.0.113.9"),
            // The visitor wrote the first one; the proxy appended the real one.
            (&["1.1.1.1, 203.0.113.9"], "203.0.113.9"),
            (&["1.1.1.1, 203.0.113.9, 10.0.0.7"], "203.0.113.9"),
            (&["1.1.1.1", "203.0.113.9, 10.0.0.7"], "203.0.113.9"),
            (&["garbage, 203.0.113.9"], "203.0.113.9"),
            (&["2001:db8::5, fd00::1"], "2001:db8::5"),
            (&["[2001:db8::5]:4711"], "2001:db8::5"),
            (&["203.0.113.9:4711"], "203.0.113.9"),
            (&["::ffff:203.0.113.9"], "203.0.113.9"),
            // Only proxies: the left-most of them.
            (&["10.0.0.3, 10.0.0.7"], "10.0.0.3"),
            // Not an address: the nearest trusted hop.
            (&["203.0.113.9, unknown, 10.0.0.7"], "10.0.0.7"),
            (&["203.0.113.9, unknown"], "10.9.9.9"),
            // No header: the proxy itself.
            (&[], "10.9.9.9"),
        ];
        for (lines, expected) in cases {
            let headers = with_xff(lines);
            assert_eq!(
                client_ip(ip("10.9.9.9"), &headers, trusted),
                ip(expected),
                "{lines:?}"
            );
        }
    }
}
