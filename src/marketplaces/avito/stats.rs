//! Views, contacts and favourites per ad and day (`POST
//! /stats/v1/accounts/{user_id}/items`): at most 200 ads a call and never
//! more than 270 days back, as Avito documents.

use std::collections::HashSet;

use chrono::{Days, NaiveDate};
use serde::Deserialize;
use serde_json::{Value, json};

use super::client::{Avito, id_text, read_json};
use crate::marketplaces::report::{DayFigures, MarketError};

/// Ads asked at once.
pub const IDS_PER_CALL: usize = 200;

/// How far back Avito keeps figures: today and the 269 days before it.
pub const DAYS_BACK: u64 = 270;

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    result: Option<Found>,
}

#[derive(Deserialize)]
struct Found {
    #[serde(default)]
    items: Vec<Value>,
}

impl Avito {
    /// The figures of the ads `item_ids` (Avito's ids) for each day from
    /// `from` to `to`, clamped to the 270 days up to `today` (Moscow).
    /// Ids that are not numbers are skipped; ads Avito answers about
    /// without having been asked are ignored. Calls are 0: Avito counts
    /// calls apart (`calls`).
    pub async fn stats(
        &self,
        item_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
        today: NaiveDate,
    ) -> Result<Vec<DayFigures>, MarketError> {
        let Some((from, to)) = clamp(from, to, today) else {
            return Ok(Vec::new());
        };
        let mut ids: Vec<u64> = item_ids
            .iter()
            .filter_map(|id| id.trim().parse::<u64>().ok())
            .filter(|id| *id > 0)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let user = self.user_id().await?;
        let url = self.url(&format!("/stats/v1/accounts/{user}/items"));
        let mut days = Vec::new();
        for chunk in ids.chunks(IDS_PER_CALL) {
            let body = json!({
                "dateFrom": from.format("%Y-%m-%d").to_string(),
                "dateTo": to.format("%Y-%m-%d").to_string(),
                "fields": ["uniqViews", "uniqContacts", "uniqFavorites"],
                "itemIds": chunk,
                "periodGrouping": "day",
            });
            let answer = self
                .call(|token| self.http().post(&url).json(&body).bearer_auth(token))
                .await?;
            let answer: Answer = read_json(answer, "статистика объявлений").await?;
            let asked: HashSet<String> = chunk.iter().map(u64::to_string).collect();
            for item in answer.result.map(|found| found.items).unwrap_or_default() {
                let Some(market_id) = id_text(&item["itemId"]).filter(|id| asked.contains(id))
                else {
                    continue;
                };
                let Some(stats) = item["stats"].as_array() else {
                    continue;
                };
                days.extend(stats.iter().filter_map(|day| figures(&market_id, day)));
            }
        }
        Ok(days)
    }
}

/// The range Avito answers for: `to` no later than today, `from` no
/// earlier than 269 days before today; `None` when nothing is left.
pub fn clamp(from: NaiveDate, to: NaiveDate, today: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
    let earliest = today.checked_sub_days(Days::new(DAYS_BACK - 1))?;
    let from = from.max(earliest);
    let to = to.min(today);
    (from <= to).then_some((from, to))
}

fn figures(market_id: &str, day: &Value) -> Option<DayFigures> {
    let date = NaiveDate::parse_from_str(day["date"].as_str()?, "%Y-%m-%d").ok()?;
    let count = |key: &str| {
        day[key]
            .as_u64()
            .or_else(|| day[key].as_f64().filter(|n| *n >= 0.0).map(|n| n as u64))
            .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
    };
    Some(DayFigures {
        market_id: market_id.to_string(),
        day: date,
        views: count("uniqViews"),
        contacts: count("uniqContacts"),
        favourites: count("uniqFavorites"),
        calls: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn the_range_is_kept_within_270_days_up_to_today() {
        let today = day("2026-07-10");
        let (from, to) = clamp(day("2025-06-01"), day("2026-08-01"), today).unwrap();
        assert_eq!(to, today);
        assert_eq!((to - from).num_days() + 1, 270);
        assert_eq!(
            clamp(day("2026-07-01"), day("2026-07-05"), today),
            Some((day("2026-07-01"), day("2026-07-05")))
        );
        assert_eq!(clamp(day("2026-07-11"), day("2026-07-12"), today), None);
        assert_eq!(clamp(day("2024-01-01"), day("2024-02-01"), today), None);
    }

    #[test]
    fn a_day_reads_its_counters_and_missing_ones_are_zero() {
        let read = figures(
            "42",
            &json!({"date": "2026-07-01", "uniqViews": 12, "uniqContacts": 3}),
        )
        .unwrap();
        assert_eq!(
            (read.views, read.contacts, read.favourites, read.calls),
            (12, 3, 0, 0)
        );
        assert!(figures("42", &json!({"date": "вчера"})).is_none());
        assert!(figures("42", &json!({"uniqViews": 1})).is_none());
    }
}
