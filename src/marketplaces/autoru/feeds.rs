//! Each car's fate in Auto.ru's last feed run: `GET /feeds/history` names
//! the tasks that loaded the dealer's price lists (one per section, new and
//! used), `GET /feeds/history/{task_id}` lists every offer of a task, 100 a
//! page, with its `status` and `errors[]{type, message, field_name,
//! field_value}`. Each offer becomes an `AdReport` keyed by our `unique_id`.

use serde_json::Value;

use super::client::{Autoru, Call, scalar};
use crate::marketplaces::report::{AdReport, AdStatus, MarketError};

/// Offers a page (Auto.ru's maximum: more limits the account's access).
pub const PAGE_SIZE: usize = 100;
/// Pages are numbered 1 to 1000.
const LAST_PAGE: usize = 1000;

/// The latest finished task of one section of the dealer's cars.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Task {
    id: String,
    section: String,
    created_at: String,
}

impl Autoru {
    /// Every offer of the latest finished feed task of each section (new,
    /// used) of the dealer's cars, as Auto.ru reported it.
    pub async fn feed_report(&self) -> Result<Vec<AdReport>, MarketError> {
        let history = self
            .fetch(Call::get(&["feeds", "history"]))
            .await?
            .unwrap_or(Value::Null);
        let mut reports = Vec::new();
        for task in latest_tasks(&history) {
            let path = ["feeds", "history", task.id.as_str()];
            for page in 1..=LAST_PAGE {
                let mut call = Call::get(&path);
                call.query = vec![
                    ("page", page.to_string()),
                    ("page_size", PAGE_SIZE.to_string()),
                ];
                let Some(answer) = self.fetch(call).await? else {
                    break;
                };
                let offers = answer["offers"].as_array().map_or(&[][..], Vec::as_slice);
                reports.extend(
                    offers
                        .iter()
                        .filter_map(|offer| report(offer, &task.section)),
                );
                if offers.len() < PAGE_SIZE || last_page(&answer).is_some_and(|last| page >= last) {
                    break;
                }
            }
        }
        Ok(reports)
    }
}

/// The total of pages, when the answer says it.
fn last_page(answer: &Value) -> Option<usize> {
    let pagination = &answer["pagination"];
    ["total_page_count", "page_count", "total_pages"]
        .iter()
        .find_map(|key| pagination[*key].as_u64())
        .and_then(|n| usize::try_from(n).ok())
}

/// Per section of the cars category, the task created last among those
/// finished (a task still running is read at the next report).
fn latest_tasks(history: &Value) -> Vec<Task> {
    let mut latest: Vec<Task> = Vec::new();
    for feed in history["feeds"].as_array().into_iter().flatten() {
        let category = feed["category"]["category"].as_str().unwrap_or("CARS");
        if !category.eq_ignore_ascii_case("CARS") {
            continue;
        }
        let task = &feed["task"];
        let (Some(id), true) = (scalar(&task["id"]), task["finished_at"].is_string()) else {
            continue;
        };
        let section = feed["category"]["section"]
            .as_str()
            .unwrap_or("USED")
            .to_ascii_uppercase();
        let created_at = task["created_at"].as_str().unwrap_or_default().to_string();
        let found = Task {
            id,
            section,
            created_at,
        };
        match latest.iter_mut().find(|t| t.section == found.section) {
            Some(held) if held.created_at < found.created_at => *held = found,
            Some(_) => {}
            None => latest.push(found),
        }
    }
    latest
}

/// One offer of a task as our report of the car, `None` without our id.
fn report(offer: &Value, section: &str) -> Option<AdReport> {
    let feed_id = scalar(&offer["unique_id"])?;
    let market_id = scalar(&offer["offer_id"]);
    let errors = offer["errors"].as_array().map_or(&[][..], Vec::as_slice);
    let critical = errors.iter().any(|e| {
        e["type"]
            .as_str()
            .is_some_and(|t| t.eq_ignore_ascii_case("ERROR"))
    });
    let raw = offer["status"].as_str().unwrap_or_default();
    let status = if critical {
        AdStatus::Refused
    } else if raw.eq_ignore_ascii_case("SKIPPED") && market_id.is_some() {
        // Left as it was: the ad Auto.ru already shows stays.
        AdStatus::Published
    } else {
        status_of(raw)
    };
    let mut messages: Vec<String> = errors.iter().filter_map(message).collect();
    if status == AdStatus::Refused && messages.is_empty() && !raw.is_empty() {
        messages.push(format!("статус площадки: {raw}"));
    }
    let url = match (&market_id, status) {
        (Some(id), AdStatus::Published) => Some(offer_url(section, id)),
        _ => None,
    };
    Some(AdReport {
        feed_id,
        market_id,
        status,
        messages,
        url,
    })
}

/// An offer's `status` in a task. The reference page's list of values
/// could not be read (`docs/marketplaces.md`); these are the words of the
/// task's own counters (inserted, updated, deleted, skipped, errors) and
/// their usual synonyms. A word not known here reads «на проверке».
fn status_of(raw: &str) -> AdStatus {
    match raw.trim().to_ascii_uppercase().as_str() {
        "INSERTED" | "CREATED" | "UPDATED" | "UNCHANGED" | "ACTIVE" | "SUCCESS" | "OK"
        | "PUBLISHED" => AdStatus::Published,
        "ERROR" | "ERRORS" | "FAILED" | "DECLINED" | "BANNED" | "REJECTED" => AdStatus::Refused,
        "DELETED" | "REMOVED" | "INACTIVE" | "SOLD" | "EXPIRED" => AdStatus::Removed,
        _ => AdStatus::Pending,
    }
}

/// «message (field_name: field_value)», as far as the error gives them.
fn message(error: &Value) -> Option<String> {
    let text = |key: &str| {
        scalar(&error[key])
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let words = text("message")?;
    Some(match (text("field_name"), text("field_value")) {
        (Some(field), Some(value)) => format!("{words} ({field}: {value})"),
        (Some(field), None) => format!("{words} ({field})"),
        _ => words,
    })
}

/// The ad's page: Auto.ru answers a car's sale address by its offer id.
fn offer_url(section: &str, offer_id: &str) -> String {
    let section = if section.eq_ignore_ascii_case("NEW") {
        "new"
    } else {
        "used"
    };
    format!("https://auto.ru/cars/{section}/sale/{offer_id}/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_latest_finished_task_of_each_section_of_cars_is_read() {
        let history = json!({"feeds": [
            {"category": {"section": "USED", "category": "CARS"},
             "task": {"id": "1", "created_at": "2024-05-01T00:00:00Z", "finished_at": "2024-05-01T00:10:00Z"}},
            {"category": {"section": "USED", "category": "CARS"},
             "task": {"id": 2, "created_at": "2024-05-02T00:00:00Z", "finished_at": "2024-05-02T00:10:00Z"}},
            {"category": {"section": "USED", "category": "CARS"},
             "task": {"id": "3", "created_at": "2024-05-03T00:00:00Z"}},
            {"category": {"section": "NEW", "category": "CARS"},
             "task": {"id": "4", "created_at": "2024-05-01T00:00:00Z", "finished_at": "2024-05-01T00:10:00Z"}},
            {"category": {"section": "USED", "category": "TRUCKS"},
             "task": {"id": "5", "created_at": "2024-05-09T00:00:00Z", "finished_at": "2024-05-09T00:10:00Z"}}
        ]});
        let ids: Vec<(String, String)> = latest_tasks(&history)
            .into_iter()
            .map(|t| (t.section, t.id))
            .collect();
        assert_eq!(
            ids,
            vec![("USED".into(), "2".into()), ("NEW".into(), "4".into())]
        );
        assert!(latest_tasks(&json!({"unexpected": true})).is_empty());
    }

    #[test]
    fn a_refused_offer_carries_auto_ru_words_and_a_published_one_its_page() {
        let refused = json!({"position": 3, "status": "ERROR", "unique_id": "car-1",
            "errors": [{"type": "ERROR", "message": "Не указан VIN", "field_name": "vin", "field_value": ""},
                       {"type": "NOTICE", "message": "Мало фото"}]});
        let got = report(&refused, "USED").unwrap();
        assert_eq!(got.status, AdStatus::Refused);
        assert_eq!(got.messages, vec!["Не указан VIN (vin)", "Мало фото"]);
        assert_eq!(got.url, None);
        let published = json!({"status": "UPDATED", "unique_id": 42, "offer_id": "1101-ab",
            "errors": [{"type": "NOTICE", "message": "Цвет заменён", "field_name": "color", "field_value": "серебристый"}]});
        let got = report(&published, "NEW").unwrap();
        assert_eq!(got.status, AdStatus::Published);
        assert_eq!(got.feed_id, "42");
        assert_eq!(got.messages, vec!["Цвет заменён (color: серебристый)"]);
        assert_eq!(
            got.url.as_deref(),
            Some("https://auto.ru/cars/new/sale/1101-ab/")
        );
        assert!(report(&json!({"status": "UPDATED"}), "USED").is_none());
        assert_eq!(status_of("DELETED"), AdStatus::Removed);
        assert_eq!(status_of("SOMETHING_NEW"), AdStatus::Pending);
    }
}
