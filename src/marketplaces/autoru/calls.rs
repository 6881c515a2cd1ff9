//! Calls on Auto.ru's substitute numbers: `POST /calltracking` with
//! `{pagination{page, page_size}, filter{period{from, to}}}`, every page,
//! each call as a `MarketCall` (its id, the offer and its VIN, the caller in
//! E.164, the number called, when, how long it rang and talked, answered).

use crate::domain::phone::e164;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::client::{Autoru, Call, scalar};
use crate::domain::calls::Call as MarketCall;
use crate::marketplaces::report::MarketError;

/// Calls a page.
pub const PAGE_SIZE: usize = 100;
/// A bound on pages, whatever the answers say.
const LAST_PAGE: usize = 1000;

impl Autoru {
    /// Every call between `from` and `to`.
    pub async fn calls(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<MarketCall>, MarketError> {
        let stamp = |t: DateTime<Utc>| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
        let mut calls = Vec::new();
        for page in 1..=LAST_PAGE {
            let body = json!({
                "pagination": {"page": page, "page_size": PAGE_SIZE},
                "filter": {"period": {"from": stamp(from), "to": stamp(to)}},
            });
            let Some(answer) = self.fetch(Call::post(&["calltracking"], body)).await? else {
                break;
            };
            let listed = answer["calls"].as_array().map_or(&[][..], Vec::as_slice);
            calls.extend(listed.iter().filter_map(call));
            let last = ["total_page_count", "page_count", "total_pages"]
                .iter()
                .find_map(|key| answer["pagination"][*key].as_u64());
            if listed.len() < PAGE_SIZE || last.is_some_and(|last| page as u64 >= last) {
                break;
            }
        }
        Ok(calls)
    }
}

/// One call of the answer, `None` without its id or time.
fn call(value: &Value) -> Option<MarketCall> {
    let call_id = scalar(&value["call_id"]).or_else(|| scalar(&value["id"]))?;
    let at = value["timestamp"]
        .as_str()
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())?
        .with_timezone(&Utc);
    let talk_seconds = seconds(&value["talk_duration"]);
    let wait_seconds = seconds(&value["wait_duration"]);
    let offer = &value["offer"];
    let number = |v: &Value| {
        scalar(&v["raw"])
            .or_else(|| scalar(&v["proxy_number"]))
            .or_else(|| scalar(v))
            .map(|raw| e164(&raw).unwrap_or(raw))
    };
    Some(MarketCall {
        call_id,
        market_id: scalar(&offer["id"]),
        vin: scalar(&offer["documents"]["vin"]),
        caller: scalar(&value["source"]["raw"]).and_then(|raw| e164(&raw)),
        called: number(&value["proxy"]).or_else(|| number(&value["target"])),
        at,
        talk_seconds,
        wait_seconds,
        answered: answered(value["result"].as_str(), talk_seconds),
        ..MarketCall::default()
    })
}

/// Taken by the salon. Auto.ru's list of `result` values could not be read
/// (`docs/marketplaces.md`): the words known here decide, any other falls
/// back to the talk time.
fn answered(result: Option<&str>, talk_seconds: u32) -> bool {
    match result.map(|r| r.trim().to_ascii_uppercase()).as_deref() {
        Some("SUCCESS" | "ANSWERED" | "OK" | "TALK") => true,
        Some(
            "MISSED" | "NO_ANSWER" | "NOT_ANSWERED" | "BUSY" | "FAILED" | "UNAVAILABLE" | "BLOCKED"
            | "STOP_LIST" | "CALLBACK_MISSED" | "NO_CONFIRMATION",
        ) => false,
        _ => talk_seconds > 0,
    }
}

/// A protobuf duration as Auto.ru writes it: `{"seconds": 42}` (a number or
/// a string) or `"42s"`.
fn seconds(value: &Value) -> u32 {
    let whole = match value {
        Value::Object(map) => map.get("seconds").and_then(|s| match s {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        }),
        Value::String(s) => s.trim().trim_end_matches('s').parse::<f64>().ok(),
        Value::Number(n) => n.as_f64(),
        _ => None,
    };
    whole
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(0, |s| s.min(f64::from(u32::MAX)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_read_with_its_offer_durations_and_result() {
        let value = json!({
            "call_id": "c-1", "result": "MISSED",
            "source": {"raw": "79051112233"}, "target": {"raw": "74950001122"},
            "proxy": {"proxy_number": "74951234567"},
            "timestamp": "2024-05-01T09:30:00Z",
            "talk_duration": {"seconds": 0}, "wait_duration": "17s",
            "offer": {"id": "1101-ab", "documents": {"vin": "XTA00000000000001"}}
        });
        let got = call(&value).unwrap();
        assert_eq!(got.call_id, "c-1");
        assert_eq!(got.market_id.as_deref(), Some("1101-ab"));
        assert_eq!(got.vin.as_deref(), Some("XTA00000000000001"));
        assert_eq!(got.caller.as_deref(), Some("+79051112233"));
        assert_eq!(got.called.as_deref(), Some("+74951234567"));
        assert_eq!((got.talk_seconds, got.wait_seconds), (0, 17));
        assert!(!got.answered);
        assert!(answered(Some("SUCCESS"), 0));
        assert!(answered(None, 12));
        assert!(!answered(Some("SOMETHING"), 0));
        assert!(call(&json!({"call_id": "x"})).is_none());
    }
}
