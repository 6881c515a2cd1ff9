//! What a saved search follows and its limits: the filter (as stored and as
//! the form sends it), the messages, the days and hours of confirming and
//! alerting.

use crate::domain::cars::{BodyType, CarFilter, CarStatus};
use crate::domain::money::Money;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const EMAIL_INVALID: &str = "Укажите корректный e-mail";
pub const ADVERTISING_CONSENT_REQUIRED: &str =
    "Необходимо согласие на получение рекламных рассылок";
pub const LINK_INVALID: &str = "Ссылка недействительна или устарела";
pub const PAGE_URL_INVALID: &str = "Подписаться можно только на страницу каталога этого сайта";
pub(super) const MAX_PRICE_RUBLES: i64 = 1_000_000_000;
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
    pub(super) fn key(&self) -> String {
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
