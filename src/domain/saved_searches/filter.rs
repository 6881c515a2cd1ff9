//! A saved search's filter: the form's fields checked against the
//! catalogue, the page address it came from, and the filter described in
//! words for the mails.

use super::search::{FilterInput, MAX_PRICE_RUBLES, SearchFilter};
use crate::domain::cars::{BodyType, CarStatus};
use crate::domain::money::Money;
use crate::domain::{body_types, brands};
use crate::error::{AppError, AppResult};
use rusqlite::Connection;

pub(super) fn non_empty(value: Option<String>) -> Option<String> {
    crate::domain::non_empty(value).filter(|v| v != "all")
}

pub(super) fn check_filter(conn: &Connection, input: FilterInput) -> AppResult<SearchFilter> {
    let status = match non_empty(input.status) {
        None => None,
        Some(code) => Some(CarStatus::parse(&code).ok_or_else(|| {
            AppError::invalid("filter.status", "Неизвестное состояние автомобиля")
        })?),
    };
    let brand_id = match non_empty(input.brand_id) {
        None => None,
        Some(id) => {
            let known = id.chars().count() <= 64 && brands::get(conn, &id)?.is_some();
            if !known {
                return Err(AppError::invalid(
                    "filter.brandId",
                    "Такой марки нет в каталоге",
                ));
            }
            Some(id)
        }
    };
    let body_type = match non_empty(input.body_type) {
        None => None,
        Some(code) => {
            let body = BodyType::parse(&code);
            let known = match &body {
                Some(body) => body_types::exists(conn, body)?,
                None => false,
            };
            if !known {
                return Err(AppError::invalid(
                    "filter.bodyType",
                    "Неизвестный тип кузова",
                ));
            }
            body
        }
    };
    let max_price = match input.max_price {
        None | Some(serde_json::Value::Null) => None,
        Some(value) => Some(
            value
                .as_i64()
                .filter(|p| (0..=MAX_PRICE_RUBLES).contains(p))
                .ok_or_else(|| {
                    AppError::invalid(
                        "filter.maxPrice",
                        "Цена — целое число рублей от 0 до 1 000 000 000",
                    )
                })?,
        ),
    };
    Ok(SearchFilter {
        status,
        brand_id,
        body_type,
        max_price,
    })
}

/// The catalogue pages a search may be asked on.
pub(super) fn is_catalogue_path(path: &str) -> bool {
    let one_segment = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
    };
    matches!(path, "/new-cars" | "/used-cars" | "/lease-cars")
        || one_segment("/body-type/")
        || one_segment("/brand/")
}

/// The path and query of `url` when it is a catalogue page of this site:
/// an absolute URL on the host of `base_url` (http or https: a proxy may
/// change the scheme), or a path. None otherwise.
pub fn site_path(url: &str, base_url: &str) -> Option<String> {
    if url
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    {
        return None;
    }
    let path = if let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    {
        let (authority, path) = match rest.find(['/', '?', '#']) {
            Some(at) => rest.split_at(at),
            None => (rest, "/"),
        };
        let base_authority = base_url
            .split("://")
            .nth(1)
            .unwrap_or_default()
            .split('/')
            .next()
            .unwrap_or_default();
        let host = |authority: &str| authority.to_ascii_lowercase();
        if authority.contains('@') || host(authority) != host(base_authority) {
            return None;
        }
        path
    } else {
        url
    };
    if !path.starts_with('/') || path.starts_with("//") {
        return None;
    }
    let path = path.split('#').next().unwrap_or(path);
    let bare = path.split('?').next().unwrap_or(path);
    is_catalogue_path(bare).then(|| path.to_string())
}

/// The Russian description of a filter: "Новые · Haval · Кроссовер · до
/// 3 000 000 ₽", "Все автомобили" for none.
pub fn describe(conn: &Connection, filter: &SearchFilter) -> AppResult<String> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(status) = filter.status {
        parts.push(
            match status {
                CarStatus::New => "Новые",
                CarStatus::Used => "С пробегом",
                CarStatus::Lease => "Аренда с выкупом",
            }
            .into(),
        );
    }
    if let Some(brand) = &filter.brand_id {
        parts.push(
            brands::get(conn, brand)?
                .map(|b| b.name)
                .unwrap_or_else(|| "Марка удалена".into()),
        );
    }
    if let Some(body) = &filter.body_type {
        parts.push(
            body_types::get(conn, body)?
                .map(|b| b.label_single)
                .unwrap_or_else(|| body.as_str().into()),
        );
    }
    if let Some(price) = filter.max_price {
        parts.push(format!("до {}", rubles(Money::from_rubles(price))));
    }
    if parts.is_empty() {
        return Ok("Все автомобили".into());
    }
    Ok(parts.join(" · "))
}

/// "2 500 000 ₽" (kopecks shown only when there are any).
pub fn rubles(money: Money) -> String {
    crate::notify::message::rubles(money)
}

/// "a***@b.ru": the address as a visitor's page shows it back.
pub fn mask_email(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".into(),
    }
}
