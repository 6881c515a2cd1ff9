//! The autoload report: what Avito made of each ad of our feed after its
//! last run (`/autoload/v4/uploads…`, 20 ads a page), and our ads' ids
//! mapped to Avito's (`/autoload/v2/items/avito_ids`).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

use super::client::{Avito, id_text, read_json};
use crate::marketplaces::report::{AdReport, AdStatus, MarketError};

/// Avito fixes a page of the report at 20 ads (`perPage`).
pub const PER_PAGE: u32 = 20;

/// A bound on the pages read, whatever `meta.pages` says (100,000 ads).
const MAX_PAGES: u32 = 5_000;

/// Our ids asked of `avito_ids` at once.
pub const IDS_PER_QUERY: usize = 100;

/// One run of the autoload (`GET /autoload/v4/uploads`, newest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    pub id: String,
    /// Avito's word: `processing`, `success`, `success_warning`, `error`.
    pub status: String,
    pub started_at: Option<DateTime<Utc>>,
    /// v4 dropped it; kept when an answer still carries it.
    pub finished_at: Option<DateTime<Utc>>,
}

#[derive(Deserialize)]
struct Uploads {
    #[serde(default)]
    uploads: Vec<Value>,
}

#[derive(Deserialize)]
struct ItemsPage {
    #[serde(default)]
    items: Vec<Value>,
    #[serde(default)]
    meta: Option<Meta>,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    pages: Option<u32>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    ad_id: Value,
    #[serde(default)]
    avito_id: Value,
    #[serde(default)]
    avito_status: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    messages: Vec<Value>,
}

#[derive(Deserialize)]
struct Message {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

#[derive(Deserialize)]
struct IdPairs {
    #[serde(default)]
    items: Vec<Value>,
}

impl Avito {
    /// The newest run of the autoload, or `None` when there was none.
    pub async fn last_upload(&self) -> Result<Option<Upload>, MarketError> {
        let url = self.url("/autoload/v4/uploads");
        let answer = self
            .call(|token| self.http().get(&url).bearer_auth(token))
            .await?;
        if answer.status() == reqwest::StatusCode::NOT_FOUND {
            return Ok(None);
        }
        let uploads: Uploads = read_json(answer, "история загрузок").await?;
        Ok(uploads.uploads.iter().find_map(upload_of))
    }

    /// Every ad of the last successful run, all pages, with Avito's id
    /// filled in from `avito_ids` where the report has none.
    pub async fn report(&self) -> Result<Vec<AdReport>, MarketError> {
        let mut ads = self.report_in(&[]).await?;
        let missing: Vec<String> = ads
            .iter()
            .filter(|ad| ad.market_id.is_none())
            .map(|ad| ad.feed_id.clone())
            .collect();
        if !missing.is_empty() {
            let found = self.avito_ids(&missing).await?;
            for ad in ads.iter_mut().filter(|ad| ad.market_id.is_none()) {
                ad.market_id = found.get(&ad.feed_id).cloned();
            }
        }
        Ok(ads)
    }

    /// The ads of the last successful run in the report's `sections` (their
    /// slugs, as the run's `stats.sections` name them; none: every ad).
    pub async fn report_in(&self, sections: &[&str]) -> Result<Vec<AdReport>, MarketError> {
        let url = self.url("/autoload/v4/uploads/last_successful/items");
        let sections = sections.join(",");
        let mut ads: Vec<AdReport> = Vec::new();
        let mut seen = HashSet::new();
        for page in 1..=MAX_PAGES {
            let mut query = vec![
                ("page", page.to_string()),
                ("perPage", PER_PAGE.to_string()),
            ];
            if !sections.is_empty() {
                query.push(("sections", sections.clone()));
            }
            let answer = self
                .call(|token| self.http().get(&url).query(&query).bearer_auth(token))
                .await?;
            if answer.status() == reqwest::StatusCode::NOT_FOUND {
                // No successful run yet: nothing to report.
                break;
            }
            let found: ItemsPage = read_json(answer, "отчёт автозагрузки").await?;
            let count = found.items.len();
            for ad in found.items.iter().filter_map(ad_of) {
                if seen.insert(ad.feed_id.clone()) {
                    ads.push(ad);
                }
            }
            let last = match found.meta.and_then(|meta| meta.pages) {
                Some(pages) => page >= pages,
                None => count < PER_PAGE as usize,
            };
            if last || count == 0 {
                break;
            }
        }
        Ok(ads)
    }

    /// Avito's ids of our ads (`Id` in the feed), asked 100 at a time; ads
    /// Avito does not know are left out.
    pub async fn avito_ids(
        &self,
        feed_ids: &[String],
    ) -> Result<HashMap<String, String>, MarketError> {
        let url = self.url("/autoload/v2/items/avito_ids");
        let mut found = HashMap::new();
        let wanted: Vec<&str> = feed_ids
            .iter()
            .map(|id| id.trim())
            .filter(|id| !id.is_empty() && !id.contains([',', '|']))
            .collect();
        for chunk in wanted.chunks(IDS_PER_QUERY) {
            let query = [("query", chunk.join(","))];
            let answer = self
                .call(|token| self.http().get(&url).query(&query).bearer_auth(token))
                .await?;
            if answer.status() == reqwest::StatusCode::NOT_FOUND {
                continue;
            }
            let pairs: IdPairs = read_json(answer, "ID объявлений на Авито").await?;
            for pair in &pairs.items {
                if let (Some(ours), Some(theirs)) =
                    (id_text(&pair["ad_id"]), id_text(&pair["avito_id"]))
                    && chunk.contains(&ours.as_str())
                {
                    found.insert(ours, theirs);
                }
            }
        }
        Ok(found)
    }
}

fn upload_of(value: &Value) -> Option<Upload> {
    let time = |key: &str| {
        value[key]
            .as_str()
            .and_then(|text| DateTime::parse_from_rfc3339(text).ok())
            .map(|at| at.with_timezone(&Utc))
    };
    Some(Upload {
        id: id_text(&value["upload_id"])?,
        status: value["status"].as_str().unwrap_or_default().to_string(),
        started_at: time("started_at"),
        finished_at: time("finished_at"),
    })
}

/// One ad of the report; `None` for an entry without our id.
fn ad_of(value: &Value) -> Option<AdReport> {
    let item: Item = serde_json::from_value(value.clone()).ok()?;
    let feed_id = id_text(&item.ad_id)?;
    let messages: Vec<Message> = item
        .messages
        .iter()
        .filter_map(|message| serde_json::from_value(message.clone()).ok())
        .collect();
    let status = status_of(item.avito_status.as_deref(), &messages);
    let texts = messages
        .iter()
        .filter(|message| message.kind.as_deref() != Some("info"))
        .filter_map(text_of)
        .collect();
    Some(AdReport {
        feed_id,
        market_id: id_text(&item.avito_id),
        status,
        messages: texts,
        url: item
            .url
            .map(|url| url.trim().to_string())
            .filter(|url| !url.is_empty()),
    })
}

/// Avito's `avito_status` in our four words. Every documented value:
/// `active` is shown; `rejected` and `blocked` are refused by moderation;
/// `old` (its term ended), `archived` and `removed` are off the site. With
/// no status (never published) an error among the messages means refused,
/// else it is still being processed.
fn status_of(avito_status: Option<&str>, messages: &[Message]) -> AdStatus {
    match avito_status.map(str::trim) {
        Some("active") => AdStatus::Published,
        Some("rejected" | "blocked") => AdStatus::Refused,
        Some("old" | "archived" | "removed") => AdStatus::Removed,
        _ if messages
            .iter()
            .any(|message| matches!(message.kind.as_deref(), Some("error" | "alarm"))) =>
        {
            AdStatus::Refused
        }
        _ => AdStatus::Pending,
    }
}

/// A message as staff read it: its title and its description.
fn text_of(message: &Message) -> Option<String> {
    let part = |text: &Option<String>| {
        text.as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(String::from)
    };
    match (part(&message.title), part(&message.description)) {
        (Some(title), Some(description)) if title != description => {
            Some(format!("{title}: {description}"))
        }
        (Some(text), _) | (None, Some(text)) => Some(text),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_documented_status_has_its_word() {
        let none: Vec<Message> = Vec::new();
        let cases = [
            ("active", AdStatus::Published),
            ("rejected", AdStatus::Refused),
            ("blocked", AdStatus::Refused),
            ("old", AdStatus::Removed),
            ("archived", AdStatus::Removed),
            ("removed", AdStatus::Removed),
            ("something new", AdStatus::Pending),
        ];
        for (word, status) in cases {
            assert_eq!(status_of(Some(word), &none), status, "{word}");
        }
        assert_eq!(status_of(None, &none), AdStatus::Pending);
        let error = vec![Message {
            title: Some("Ошибка".into()),
            description: None,
            kind: Some("error".into()),
        }];
        assert_eq!(status_of(None, &error), AdStatus::Refused);
    }

    #[test]
    fn an_item_is_read_as_documented_and_odd_ones_are_skipped() {
        let ad = ad_of(&json!({
            "section": {"slug": "error", "title": "Ошибки"},
            "ad_id": "car-7",
            "avito_id": null,
            "avito_status": null,
            "url": "",
            "messages": [
                {"code": 1, "title": "Неверное значение", "description": "WheelType: укажите руль", "type": "error", "updated_at": "2026-07-01T11:57:44Z"},
                {"code": 3002, "title": "", "description": "Объявление активировалось", "type": "info"},
                {"code": 2303, "title": "Произведена автоподстановка номера телефона", "description": "", "type": "warning"},
                "not an object"
            ]
        }))
        .unwrap();
        assert_eq!(ad.feed_id, "car-7");
        assert_eq!(ad.market_id, None);
        assert_eq!(ad.status, AdStatus::Refused);
        assert_eq!(
            ad.messages,
            vec![
                "Неверное значение: WheelType: укажите руль".to_string(),
                "Произведена автоподстановка номера телефона".to_string()
            ]
        );
        assert_eq!(ad.url, None);
        assert!(ad_of(&json!({"avito_id": 5})).is_none());
        assert!(ad_of(&json!("junk")).is_none());
        assert!(ad_of(&json!({"ad_id": "x", "messages": 5})).is_none());
    }

    #[test]
    fn an_upload_is_read_without_the_finish_v4_dropped() {
        let upload = upload_of(&json!({
            "upload_id": 1002, "status": "success", "source": "Url",
            "started_at": "2026-07-01T16:48:02Z", "stats": {}, "events": [], "feed_urls": []
        }))
        .unwrap();
        assert_eq!(upload.id, "1002");
        assert_eq!(upload.status, "success");
        assert!(upload.started_at.is_some());
        assert_eq!(upload.finished_at, None);
    }
}
