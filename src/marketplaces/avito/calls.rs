//! Calls on Avito's substitute numbers (`POST /calltracking/v1/getCalls/`):
//! pages of up to 1000 calls, each call once, its caller's number in E.164.
//! The API answers 200 with an `error` object of its own (`code` 0: none).

use crate::domain::phone::e164;
use std::collections::HashSet;

use chrono::{DateTime, Duration, SecondsFormat, Utc};
use serde::Deserialize;
use serde_json::{Value, json};

use super::client::{Avito, id_text, read_json};
use crate::domain::calls::Call as MarketCall;
use crate::marketplaces::report::MarketError;

/// Calls asked a page (Avito's most).
pub const LIMIT: usize = 1000;

/// A call's window: Avito takes at most three months after `dateTimeFrom`.
const WINDOW: Duration = Duration::days(30);

/// A bound on the pages of one window (a million calls).
const MAX_PAGES: usize = 1000;

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    calls: Option<Vec<Value>>,
    #[serde(default)]
    error: Option<Value>,
}

impl Avito {
    /// Every call from `from` to `to` (by `callTime`), windows of 30 days,
    /// pages of 1000 until a page comes back shorter. A call without its id
    /// or time is skipped; a call met twice is kept once.
    pub async fn calls(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<MarketCall>, MarketError> {
        let url = self.url("/calltracking/v1/getCalls/");
        let mut calls = Vec::new();
        let mut seen = HashSet::new();
        let mut start = from;
        while start < to {
            let end = (start + WINDOW).min(to);
            for page in 0..MAX_PAGES {
                let body = json!({
                    "dateTimeFrom": start.to_rfc3339_opts(SecondsFormat::Secs, true),
                    "dateTimeTo": end.to_rfc3339_opts(SecondsFormat::Secs, true),
                    "limit": LIMIT,
                    "offset": page * LIMIT,
                });
                let answer = self
                    .call(|token| self.http().post(&url).json(&body).bearer_auth(token))
                    .await?;
                let answer: Answer = read_json(answer, "звонки").await?;
                refused(answer.error.as_ref())?;
                let Some(found) = answer.calls else {
                    return Err(MarketError::Answer("звонки: нет списка calls".into()));
                };
                for call in found.iter().filter_map(call_of) {
                    if seen.insert(call.call_id.clone()) {
                        calls.push(call);
                    }
                }
                if found.len() < LIMIT {
                    break;
                }
            }
            start = end;
        }
        Ok(calls)
    }
}

/// The answer's own `error`, when its code is not 0.
fn refused(error: Option<&Value>) -> Result<(), MarketError> {
    let Some(error) = error.filter(|error| error.is_object()) else {
        return Ok(());
    };
    let code = error["code"]
        .as_i64()
        .or_else(|| {
            error["code"]
                .as_str()
                .and_then(|code| code.trim().parse().ok())
        })
        .unwrap_or(0);
    if code == 0 {
        return Ok(());
    }
    let message = error["message"]
        .as_str()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .unwrap_or("без пояснений")
        .to_string();
    match code {
        401 | 403 => Err(MarketError::Unauthorized {
            status: code as u16,
            message,
        }),
        _ => Err(MarketError::Answer(format!(
            "звонки: ошибка {code}: {message}"
        ))),
    }
}

fn call_of(value: &Value) -> Option<MarketCall> {
    let call_id = id_text(&value["callId"])?;
    let at = DateTime::parse_from_rfc3339(value["callTime"].as_str()?.trim())
        .ok()?
        .with_timezone(&Utc);
    let seconds = |key: &str| {
        value[key]
            .as_f64()
            .filter(|n| n.is_finite() && *n > 0.0)
            .map_or(0, |n| n.round().min(f64::from(u32::MAX)) as u32)
    };
    let talk_seconds = seconds("talkDuration");
    Some(MarketCall {
        call_id,
        market_id: id_text(&value["itemId"]),
        vin: None,
        caller: value["buyerPhone"].as_str().and_then(e164),
        called: value["virtualPhone"].as_str().and_then(e164),
        at,
        talk_seconds,
        wait_seconds: seconds("waitingDuration"),
        answered: talk_seconds > 0,
        ..MarketCall::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_read_as_documented() {
        let call = call_of(&json!({
            "callId": 7001, "itemId": 9901, "buyerPhone": "79990000100",
            "sellerPhone": "+79990000101", "virtualPhone": "+79990000102",
            "callTime": "2026-04-18T09:00:00Z", "talkDuration": 67, "waitingDuration": 1.25
        }))
        .unwrap();
        assert_eq!(call.call_id, "7001");
        assert_eq!(call.market_id.as_deref(), Some("9901"));
        assert_eq!(call.caller.as_deref(), Some("+79990000100"));
        assert_eq!(call.called.as_deref(), Some("+79990000102"));
        assert_eq!((call.talk_seconds, call.wait_seconds), (67, 1));
        assert!(call.answered);
        let missed = call_of(&json!({
            "callId": "7002", "itemId": 0, "callTime": "2026-04-18T09:05:00+03:00",
            "talkDuration": 0, "waitingDuration": 20
        }))
        .unwrap();
        assert!(!missed.answered);
        assert_eq!(missed.market_id, None);
        assert!(call_of(&json!({"callId": 1, "callTime": "вчера"})).is_none());
        assert!(call_of(&json!({"callTime": "2026-04-18T09:00:00Z"})).is_none());
    }

    #[test]
    fn the_answers_own_error_is_read() {
        assert!(refused(None).is_ok());
        assert!(refused(Some(&json!({"code": 0, "message": ""}))).is_ok());
        assert!(matches!(
            refused(Some(&json!({"code": 403, "message": "нет доступа"}))),
            Err(MarketError::Unauthorized { status: 403, .. })
        ));
        assert!(matches!(
            refused(Some(&json!({"code": 500, "message": "сбой"}))),
            Err(MarketError::Answer(_))
        ));
    }
}
