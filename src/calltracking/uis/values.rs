//! How UIS spells values, in its notifications (the dealer's template, JSON
//! or a form) and in the Data API's report: numbers as JSON numbers or
//! strings, flags as `true`/`"1"`/`"false"`, times as "YYYY-MM-DD
//! hh:mm:ss" in the account's zone (Moscow when unzoned), a placeholder
//! UIS had nothing for left as "{{name}}" or null. Each reader gives None
//! for "not given" and Err for a value that is there but is not one.

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use serde_json::{Map, Value};

use crate::clock::moscow;

/// The longest text kept from a notification or a report (a page's
/// address, a campaign's name).
pub const TEXT_MAX: usize = 500;

/// The value of the first of `keys` that is given (not null, not empty,
/// not a placeholder left as it was).
pub fn first<'a>(fields: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter()
        .filter_map(|key| fields.get(*key))
        .find(|value| given(value))
}

fn given(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::String(text) => {
            let text = text.trim();
            !(text.is_empty()
                || text.eq_ignore_ascii_case("null")
                || (text.starts_with("{{") && text.ends_with("}}")))
        }
        Value::Array(items) => !items.is_empty(),
        _ => true,
    }
}

/// A value as text: a string trimmed and stripped of control characters
/// (at most `TEXT_MAX` characters), a number or a flag written out; the
/// first item of a list.
pub fn text(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        Value::Array(items) => return items.iter().find(|v| given(v)).and_then(text),
        Value::Null | Value::Object(_) => return None,
    };
    let text: String = text
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(TEXT_MAX)
        .collect();
    (given(&Value::String(text.clone()))).then_some(text)
}

/// Seconds: 95, "95", "95.0", "00:01:35". Err for anything else.
pub fn seconds(value: &Value) -> Result<u32, ()> {
    let clamp = |n: f64| {
        if n.is_finite() && n >= 0.0 {
            Ok(n.min(f64::from(u32::MAX)) as u32)
        } else {
            Err(())
        }
    };
    match value {
        Value::Number(number) => clamp(number.as_f64().ok_or(())?),
        Value::String(text) => {
            let text = text.trim();
            if let Ok(n) = text.replace(',', ".").parse::<f64>() {
                return clamp(n);
            }
            let parts: Vec<&str> = text.split(':').collect();
            if (2..=3).contains(&parts.len())
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit()))
            {
                let total = parts
                    .iter()
                    .fold(0u64, |acc, p| acc * 60 + p.parse::<u64>().unwrap_or(0));
                return Ok(total.min(u64::from(u32::MAX)) as u32);
            }
            Err(())
        }
        _ => Err(()),
    }
}

/// A flag: true/false, 1/0, "true"/"1"/"yes"/"да" and their opposites.
pub fn flag(value: &Value) -> Result<bool, ()> {
    match value {
        Value::Bool(flag) => Ok(*flag),
        Value::Number(number) => match number.as_f64() {
            Some(0.0) => Ok(false),
            Some(1.0) => Ok(true),
            _ => Err(()),
        },
        Value::String(text) => match text.trim().to_lowercase().as_str() {
            "true" | "1" | "yes" | "y" | "да" | "t" => Ok(true),
            "false" | "0" | "no" | "n" | "нет" | "f" => Ok(false),
            _ => Err(()),
        },
        _ => Err(()),
    }
}

/// A moment: "YYYY-MM-DD hh:mm:ss" (with a fraction or a "T" or not) in
/// Moscow time, RFC 3339 with its own zone, or a Unix time in seconds or
/// milliseconds. Err for anything else.
pub fn moment(value: &Value) -> Result<DateTime<Utc>, ()> {
    let unix = |n: i64| {
        let seconds = if n > 100_000_000_000 { n / 1000 } else { n };
        DateTime::from_timestamp(seconds, 0).ok_or(())
    };
    match value {
        Value::Number(number) => unix(number.as_i64().ok_or(())?),
        Value::String(text) => {
            let text = text.trim();
            if !text.is_empty() && text.len() <= 13 && text.bytes().all(|b| b.is_ascii_digit()) {
                return unix(text.parse().map_err(|_| ())?);
            }
            if let Ok(zoned) = DateTime::parse_from_rfc3339(text) {
                return Ok(zoned.to_utc());
            }
            for format in [
                "%Y-%m-%d %H:%M:%S%.f",
                "%Y-%m-%dT%H:%M:%S%.f",
                "%Y-%m-%d %H:%M",
            ] {
                if let Ok(local) = NaiveDateTime::parse_from_str(text, format) {
                    return moscow()
                        .from_local_datetime(&local)
                        .single()
                        .map(|at| at.to_utc())
                        .ok_or(());
                }
            }
            Err(())
        }
        _ => Err(()),
    }
}

/// A call's way: Some(true) inbound, Some(false) outbound, None unknown.
pub fn inbound(value: &Value) -> Option<bool> {
    let way = text(value)?.to_lowercase();
    if way == "in" || way.starts_with("inc") || way.starts_with("вход") {
        Some(true)
    } else if way == "out" || way.starts_with("outg") || way.starts_with("исход") {
        Some(false)
    } else {
        None
    }
}

/// A link to a recording: only an http(s) address is kept.
pub fn link(value: &Value) -> Option<String> {
    let link = text(value)?;
    let lower = link.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        .then_some(link)
        .filter(|l| !l.chars().any(char::is_whitespace))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_flags_and_times_are_read_in_any_spelling() {
        assert_eq!(seconds(&json!(95)), Ok(95));
        assert_eq!(seconds(&json!("95")), Ok(95));
        assert_eq!(seconds(&json!("95.0")), Ok(95));
        assert_eq!(seconds(&json!("00:01:35")), Ok(95));
        assert_eq!(seconds(&json!("минута")), Err(()));
        assert_eq!(seconds(&json!(-3)), Err(()));
        assert_eq!(flag(&json!("1")), Ok(true));
        assert_eq!(flag(&json!("false")), Ok(false));
        assert_eq!(flag(&json!("может быть")), Err(()));
        let at = moment(&json!("2026-05-14 10:15:00")).unwrap();
        assert_eq!(at.to_rfc3339(), "2026-05-14T07:15:00+00:00");
        let zoned = moment(&json!("2026-05-14T10:15:00+05:00")).unwrap();
        assert_eq!(zoned.to_rfc3339(), "2026-05-14T05:15:00+00:00");
        assert_eq!(
            moment(&json!(1_778_742_900)).unwrap().to_rfc3339(),
            "2026-05-14T07:15:00+00:00"
        );
        assert_eq!(moment(&json!("вчера")), Err(()));
    }

    #[test]
    fn placeholders_left_unfilled_and_nulls_are_not_given() {
        let fields = json!({"a": "{{file_link}}", "b": null, "c": "", "d": "x"});
        let fields = fields.as_object().unwrap();
        assert_eq!(first(fields, &["a", "b", "c"]), None);
        assert_eq!(first(fields, &["a", "d"]), Some(&json!("x")));
        assert_eq!(link(&json!("javascript:alert(1)")), None);
        assert_eq!(inbound(&json!("out")), Some(false));
        assert_eq!(inbound(&json!("Входящий")), Some(true));
    }
}
