//! Each ad's figures per day on Auto.ru: `GET /user/offers/cars/{offerID}/
//! stats?from=YYYY-MM-DD&to=YYYY-MM-DD`, one call per offer, answering
//! `items[].counters[]{date, views, phone_views, phone_calls…}`. Auto.ru
//! documents no per-offer figures for many offers at once (its
//! `/dealer/offers-daily-stats` sums the whole account), so a night costs
//! one call per ad: 10,000 cars take about 42 minutes at the client's pace.

use chrono::NaiveDate;
use serde_json::Value;

use super::client::{Autoru, Call};
use crate::marketplaces::report::{DayFigures, MarketError};

impl Autoru {
    /// The figures of each of `offer_ids` (Auto.ru's ids of the dealer's
    /// cars) for every day from `from` to `to`. An id Auto.ru does not know
    /// (404) is skipped: a car taken off keeps the figures already read.
    pub async fn stats(
        &self,
        offer_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<DayFigures>, MarketError> {
        let mut figures = Vec::new();
        for id in offer_ids
            .iter()
            .map(|id| id.trim())
            .filter(|id| !id.is_empty())
        {
            let path = ["user", "offers", "cars", id, "stats"];
            let mut call = Call::get(&path);
            call.query = vec![
                ("from", from.format("%Y-%m-%d").to_string()),
                ("to", to.format("%Y-%m-%d").to_string()),
            ];
            if let Some(answer) = self.fetch(call).await? {
                figures.extend(days(id, &answer));
            }
        }
        Ok(figures)
    }
}

/// The counters of one offer's answer, a day each (a day named twice is
/// added up; a counter without a date is skipped).
fn days(offer_id: &str, answer: &Value) -> Vec<DayFigures> {
    let mut out: Vec<DayFigures> = Vec::new();
    let counters = answer["items"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|item| item["counters"].as_array().into_iter().flatten());
    for counter in counters {
        let Some(day) = counter["date"]
            .as_str()
            .and_then(|d| NaiveDate::parse_from_str(d.get(..10)?, "%Y-%m-%d").ok())
        else {
            continue;
        };
        let count = |keys: &[&str]| {
            keys.iter()
                .find_map(|key| counter[*key].as_u64())
                .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
        };
        let got = DayFigures {
            market_id: offer_id.to_string(),
            day,
            views: count(&["views", "card_view"]),
            contacts: count(&["phone_views", "phone_show"]),
            favourites: count(&["favorite", "favorites", "favourites", "favorite_total"]),
            calls: count(&["phone_calls", "calls"]),
        };
        match out.iter_mut().find(|held| held.day == day) {
            Some(held) => {
                held.views = held.views.saturating_add(got.views);
                held.contacts = held.contacts.saturating_add(got.contacts);
                held.favourites = held.favourites.saturating_add(got.favourites);
                held.calls = held.calls.saturating_add(got.calls);
            }
            None => out.push(got),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counters_become_a_car_s_days() {
        let answer = json!({"items": [{"counters": [
            {"date": "2024-05-01", "views": 30, "phone_views": 4, "phone_calls": 1},
            {"date": "2024-05-02", "views": 12, "phone_views": 0, "calls": 2, "favorite": 3},
            {"views": 99}
        ]}]});
        let got = days("1101-ab", &answer);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].day, NaiveDate::from_ymd_opt(2024, 5, 1).unwrap());
        assert_eq!((got[0].views, got[0].contacts, got[0].calls), (30, 4, 1));
        assert_eq!((got[1].calls, got[1].favourites), (2, 3));
        assert!(days("x", &json!("unexpected")).is_empty());
    }
}
