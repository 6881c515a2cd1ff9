//! Saved searches with alerts (docs/saved-searches.md): a visitor follows a
//! catalogue filter by e-mail. The address is confirmed by a link before
//! anything else is sent (double opt-in); then new matching cars and price
//! drops are mailed, at most one mail a day per address. Mails go through
//! the outbox (`crate::notify::saved_search` writes them).
//!
//! This file keeps the messages, limits and the filter's types; the pieces:
//! `filter` (checks and words), `subscriptions` (subscribe, confirm,
//! unsubscribe), `alerts` (matches and mails), `admin` (the admin's list).

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::cars::{self, BodyType, CarFilter, CarStatus};
use super::money::Money;
use super::outbox::{self, Channel, Kind};
use super::{body_types, brands, check_len, leads};
use crate::error::{AppError, AppResult};

mod admin;
mod alerts;
mod filter;
mod subscriptions;

pub use admin::*;
pub use alerts::*;
pub use filter::*;
pub use subscriptions::*;

pub const EMAIL_INVALID: &str = "Укажите корректный e-mail";
pub const ADVERTISING_CONSENT_REQUIRED: &str =
    "Необходимо согласие на получение рекламных рассылок";
pub const LINK_INVALID: &str = "Ссылка недействительна или устарела";
pub const PAGE_URL_INVALID: &str = "Подписаться можно только на страницу каталога этого сайта";
const MAX_PRICE_RUBLES: i64 = 1_000_000_000;
/// A confirmation link works this long after its mail.
pub const CONFIRM_VALID_DAYS: i64 = 7;
/// At most one alert mail per address in this many hours.
pub const ALERT_EVERY_HOURS: i64 = 24;
/// A confirmation asked for again within this many minutes is not mailed again.
pub const CONFIRM_REPEAT_MINUTES: i64 = 5;

/// The catalogue filter a search follows; a missing field does not filter
/// (docs/catalogue.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchFilter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<CarStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_type: Option<BodyType>,
    /// Highest price, whole rubles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_price: Option<i64>,
}

impl SearchFilter {
    /// The normalised text that names the filter (one row per distinct one).
    fn key(&self) -> String {
        format!(
            "status={}&brandId={}&bodyType={}&maxPrice={}",
            self.status.map_or("", CarStatus::as_str),
            self.brand_id.as_deref().unwrap_or(""),
            self.body_type.as_ref().map_or("", BodyType::as_str),
            self.max_price.map(|p| p.to_string()).unwrap_or_default()
        )
    }

    /// The same filter as the catalogue's API applies it: published cars only.
    pub fn car_filter(&self) -> CarFilter {
        CarFilter {
            statuses: self.status.into_iter().collect(),
            brand_id: self.brand_id.clone(),
            body_type: self.body_type.clone(),
            max_price: self.max_price.map(Money::from_rubles),
            include_drafts: false,
            ..CarFilter::default()
        }
    }
}

/// What the public form sends as its filter.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FilterInput {
    /// new, used or lease.
    #[serde(default)]
    pub status: Option<String>,
    /// A brand's id (`/api/brands`).
    #[serde(default)]
    pub brand_id: Option<String>,
    /// sedan, hatchback, crossover, wagon, coupe or pickup.
    #[serde(default)]
    pub body_type: Option<String>,
    /// Highest price, whole rubles, 0..=1 000 000 000.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub max_price: Option<serde_json::Value>,
}

/// A visitor's request to follow a filter.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubscribeInput {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub filter: Option<FilterInput>,
    /// The catalogue page asked on: this site's absolute URL or a path
    /// (`/new-cars?brand=haval`), at most 2000 characters.
    #[serde(default)]
    pub page_url: Option<String>,
    /// 152-FZ consent to personal data processing (required).
    #[serde(default)]
    pub consent: bool,
    /// 38-FZ art. 18 consent to advertising mail (required here: alerts are
    /// advertising).
    #[serde(default)]
    pub advertising_consent: bool,
    /// Honeypot: hidden from people; a filled one marks a bot.
    #[serde(default)]
    pub website: Option<String>,
}

/// A request that passed every check.
#[derive(Debug, Clone)]
pub struct ValidRequest {
    pub email: String,
    pub filter: SearchFilter,
    /// Path and query within the site.
    pub page_url: String,
    pub description: String,
}

impl SubscribeInput {
    pub fn is_bot(&self) -> bool {
        self.website
            .as_deref()
            .is_some_and(|w| !w.trim().is_empty())
    }

    /// Checks every field against the rules and the catalogue; `base_url`
    /// is the site's own (config).
    pub fn validate(self, conn: &Connection, base_url: &str) -> AppResult<ValidRequest> {
        let email = self
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .ok_or_else(|| AppError::invalid("email", EMAIL_INVALID))?;
        check_len("email", "Email", email, 255)?;
        if !leads::is_email(email) || email.chars().any(char::is_control) {
            return Err(AppError::invalid("email", EMAIL_INVALID));
        }
        let filter = check_filter(conn, self.filter.unwrap_or_default())?;
        let page_url = self
            .page_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .ok_or_else(|| AppError::invalid("pageUrl", "Не указана страница каталога"))?;
        check_len("pageUrl", "Страница каталога", page_url, 2000)?;
        let page_url = site_path(page_url, base_url)
            .ok_or_else(|| AppError::invalid("pageUrl", PAGE_URL_INVALID))?;
        if !self.consent {
            return Err(AppError::invalid("consent", leads::CONSENT_REQUIRED));
        }
        if !self.advertising_consent {
            return Err(AppError::invalid(
                "advertisingConsent",
                ADVERTISING_CONSENT_REQUIRED,
            ));
        }
        let description = describe(conn, &filter)?;
        Ok(ValidRequest {
            email: email.to_lowercase(),
            filter,
            page_url,
            description,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_catalogue_pages_of_this_site() {
        let base = "https://salon.example";
        for (url, path) in [
            (
                "https://salon.example/new-cars?brand=haval",
                Some("/new-cars?brand=haval"),
            ),
            ("http://SALON.example/used-cars", Some("/used-cars")),
            (
                "/body-type/crossover?condition=new",
                Some("/body-type/crossover?condition=new"),
            ),
            ("/brand/haval#top", Some("/brand/haval")),
            ("/lease-cars", Some("/lease-cars")),
            ("https://evil.example/new-cars", None),
            ("https://salon.example@evil.example/new-cars", None),
            ("https://salon.example.evil.example/new-cars", None),
            ("//evil.example/new-cars", None),
            ("/admin", None),
            ("/car/haval-jolion", None),
            ("/body-type/", None),
            ("/body-type/a/b", None),
            ("javascript:alert(1)", None),
            ("/new-cars?x=1 2", None),
            ("https://salon.example", None),
        ] {
            assert_eq!(site_path(url, base).as_deref(), path, "{url}");
        }
    }

    #[test]
    fn emails_are_masked() {
        assert_eq!(mask_email("anna@b.ru"), "a***@b.ru");
        assert_eq!(mask_email("я@пример.рф"), "я***@пример.рф");
    }

    #[test]
    fn new_cars_and_drops_are_changes_rises_are_not() {
        let m = |id: &str, price: i64| Match {
            car_id: id.into(),
            title: id.into(),
            slug: id.into(),
            price: Money::from_rubles(price),
        };
        let now = vec![m("a", 100), m("b", 90), m("c", 120), m("d", 50)];
        let seen: HashMap<String, Money> = [
            ("b".to_string(), Money::from_rubles(100)),
            ("c".to_string(), Money::from_rubles(110)),
            ("d".to_string(), Money::from_rubles(50)),
        ]
        .into_iter()
        .collect();
        let items = changes(&now, &seen, "https://s");
        let told: Vec<_> = items
            .iter()
            .map(|i| (i.car_id.as_str(), i.old_price_kopecks))
            .collect();
        assert_eq!(told, [("a", None), ("b", Some(10_000))]);
        assert_eq!(items[0].url, "https://s/car/a");
    }
}
