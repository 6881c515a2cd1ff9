//! What the marketplaces' clients answer in, whatever the marketplace: an
//! ad's fate after a feed run, a car's figures of a day, a call on a
//! substitute number, and why a call to the API failed.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// Where a car is seen: the site itself or a marketplace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Site,
    Avito,
    Autoru,
}

impl Channel {
    /// The value stored in the tables (`channel` columns, V34).
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Site => "site",
            Channel::Avito => "avito",
            Channel::Autoru => "autoru",
        }
    }

    /// The name staff read: «Сайт», «Авито», «Авто.ру».
    pub fn label(self) -> &'static str {
        match self {
            Channel::Site => "Сайт",
            Channel::Avito => "Авито",
            Channel::Autoru => "Авто.ру",
        }
    }

    pub fn parse(value: &str) -> Option<Channel> {
        match value {
            "site" => Some(Channel::Site),
            "avito" => Some(Channel::Avito),
            "autoru" => Some(Channel::Autoru),
            _ => None,
        }
    }
}

/// An ad's fate on a marketplace, as its last report says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AdStatus {
    /// Shown to buyers.
    Published,
    /// Refused: the messages say why.
    Refused,
    /// Taken, not yet shown (moderation, processing).
    Pending,
    /// Taken off (sold, left the feed, expired, blocked by the account).
    Removed,
}

impl AdStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AdStatus::Published => "published",
            AdStatus::Refused => "refused",
            AdStatus::Pending => "pending",
            AdStatus::Removed => "removed",
        }
    }

    /// How staff read it after the marketplace's name: «Авито: отклонено».
    pub fn label(self) -> &'static str {
        match self {
            AdStatus::Published => "опубликовано",
            AdStatus::Refused => "отклонено",
            AdStatus::Pending => "на проверке",
            AdStatus::Removed => "снято",
        }
    }

    pub fn parse(value: &str) -> Option<AdStatus> {
        match value {
            "published" => Some(AdStatus::Published),
            "refused" => Some(AdStatus::Refused),
            "pending" => Some(AdStatus::Pending),
            "removed" => Some(AdStatus::Removed),
            _ => None,
        }
    }
}

/// One ad of our feed in a marketplace's report of its last run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdReport {
    /// Our id in the feed (Avito `Id`, Auto.ru `unique_id`).
    pub feed_id: String,
    /// The marketplace's own id of the ad, once it has one.
    pub market_id: Option<String>,
    pub status: AdStatus,
    /// The marketplace's own words (errors, warnings), as it wrote them.
    pub messages: Vec<String>,
    /// The ad's page on the marketplace, when published.
    pub url: Option<String>,
}

/// One ad's figures of one day (Moscow calendar) on a marketplace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayFigures {
    /// The marketplace's id of the ad (Avito `itemId`, Auto.ru offer id).
    pub market_id: String,
    pub day: NaiveDate,
    pub views: u32,
    /// Contacts shown (Avito `uniqContacts`, Auto.ru phone views).
    pub contacts: u32,
    pub favourites: u32,
    pub calls: u32,
}

/// Why a call to a marketplace failed, in words staff read on the
/// integrations screen and `dealership check` prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarketError {
    #[error("не настроено: {0}")]
    NotConfigured(String),
    /// A secret file missing, unreadable or readable by others.
    #[error("{0}")]
    Secret(String),
    /// The keys were refused (401/403 after a fresh token or session).
    #[error("площадка не приняла ключи ({status}): {message}")]
    Unauthorized { status: u16, message: String },
    /// Still 429 or 5xx after every retry, or unreachable.
    #[error("площадка не ответила: {0}")]
    Unavailable(String),
    /// An answer that is not what the documentation says.
    #[error("площадка ответила непонятно: {0}")]
    Answer(String),
}
