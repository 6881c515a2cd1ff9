//! Mango Office's events (VPBX API v1.9, "API Realtime"): the PBX posts a
//! form (`vpbx_api_key`, `sign`, `json`) to the address given in its API
//! connector plus the event's path — `events/call` (a call's state:
//! Appeared, Connected, OnHold, Disconnected), `events/summary` (a call
//! ended: its times and result), `events/recording`, `events/dtmf`,
//! `result/callback` (a command's outcome), `ping` (the cabinet's
//! «Проверить подключение»). One call is made of each inbound summary;
//! everything else is answered and not recorded.

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use serde_json::Value;

use super::keys::MangoKeys;
use crate::calltracking::{HookRequest, Hooked, form_value, refused};
use crate::domain::calls::Call;
use crate::domain::phone::e164;
use crate::error::{AppError, AppResult};

/// The longest call id taken (Mango's are base64 of some 30 bytes).
const ID_MAX: usize = 200;

/// `call_direction` of a summary: the only one recorded.
const INBOUND: i64 = 1;

/// Reads a Mango event, its key and signature checked with `keys`.
pub fn read_hook(req: &HookRequest<'_>, keys: &MangoKeys) -> AppResult<Hooked> {
    let form = if req.body.iter().all(u8::is_ascii_whitespace) {
        req.query.as_bytes()
    } else {
        req.body
    };
    let event = req.rest.trim_matches('/').to_ascii_lowercase();
    let key = form_value(form, "vpbx_api_key");
    let sign = form_value(form, "sign");
    if event == "ping" && key.is_none() && sign.is_none() {
        // The cabinet's connection check may come unsigned; it records nothing.
        return Ok(Hooked::Nothing);
    }
    let Some(key) = key else {
        return Err(AppError::Forbidden(
            "Mango Office: в событии нет ключа АТС (vpbx_api_key)".into(),
        ));
    };
    if !keys.is_our_key(&key) {
        return Err(AppError::Forbidden(
            "Mango Office: ключ АТС в событии (vpbx_api_key) не совпадает с mango.api_key_file"
                .into(),
        ));
    }
    // The signature is over the json field's exact text (its form decoding
    // undone, untrimmed).
    let json = form_urlencoded::parse(form)
        .find(|(k, _)| k == "json")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    if !sign.is_some_and(|sign| keys.signs(&json, &sign)) {
        return Err(AppError::Forbidden(
            "Mango Office: подпись события (sign) неверна: проверьте соль mango.api_salt_file"
                .into(),
        ));
    }
    match event.as_str() {
        "events/summary" => summary(&parse(&json)?),
        // A call still ringing or talking, its recording, a key pressed, a
        // command's result, a connection check: nothing to record.
        _ => {
            if !json.trim().is_empty() {
                parse(&json)?;
            }
            Ok(Hooked::Nothing)
        }
    }
}

fn parse(json: &str) -> AppResult<Value> {
    if json.trim().is_empty() {
        return Err(refused("json", "в событии Mango Office нет поля json"));
    }
    match serde_json::from_str::<Value>(json) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) => Err(refused(
            "json",
            "поле json события Mango Office — не объект",
        )),
        Err(err) => Err(refused(
            "json",
            format!("поле json события Mango Office не читается как JSON: {err}"),
        )),
    }
}

/// `/events/summary`: an inbound call becomes one call; outbound (2) and
/// internal (0) calls are not the salon's leads.
fn summary(event: &Value) -> AppResult<Hooked> {
    let direction = match event.get("call_direction") {
        None | Some(Value::Null) => None,
        Some(value) => Some(integer(value).ok_or_else(|| {
            refused(
                "call_direction",
                "направление звонка (call_direction) — не число 0, 1 или 2",
            )
        })?),
    };
    let from = event.get("from").unwrap_or(&Value::Null);
    let to = event.get("to").unwrap_or(&Value::Null);
    // Without a direction, a call from an employee's extension is not inbound.
    let inbound = match direction {
        Some(direction) => direction == INBOUND,
        None => text(from.get("extension")).is_none(),
    };
    if !inbound {
        return Ok(Hooked::Nothing);
    }
    let call_id = text(event.get("entry_id"))
        .ok_or_else(|| refused("entry_id", "нет идентификатора звонка (entry_id)"))?;
    if call_id.chars().count() > ID_MAX || call_id.chars().any(char::is_control) {
        return Err(refused(
            "entry_id",
            "идентификатор звонка (entry_id) длиннее 200 знаков или с управляющими символами",
        ));
    }
    let created = moment(event, "create_time")?
        .ok_or_else(|| refused("create_time", "нет времени начала звонка (create_time)"))?;
    // Read for its shape only: when the call was put through to an employee.
    moment(event, "forward_time")?;
    let talked = moment(event, "talk_time")?;
    let ended = moment(event, "end_time")?.unwrap_or(created);
    let result = match event.get("entry_result") {
        None | Some(Value::Null) => None,
        Some(value) => Some(integer(value).ok_or_else(|| {
            refused(
                "entry_result",
                "результат звонка (entry_result) — не 0 или 1",
            )
        })?),
    };
    let answered = result == Some(1) || talked.is_some();
    let seconds = |from: DateTime<Utc>, to: DateTime<Utc>| {
        u32::try_from((to - from).num_seconds().max(0)).unwrap_or(u32::MAX)
    };
    let talk_seconds = talked.map_or(0, |talked| seconds(talked, ended));
    // Answered: how long the caller waited for an answer; missed: how long
    // they waited before hanging up.
    let wait_seconds = match talked {
        Some(talked) => seconds(created, talked),
        None => seconds(created, ended),
    };
    let called = text(event.get("line_number"))
        .or_else(|| text(to.get("line_number")))
        .or_else(|| text(to.get("number")))
        .and_then(|number| phone(&number));
    Ok(Hooked::Calls(vec![Call {
        call_id,
        caller: text(from.get("number")).and_then(|number| phone(&number)),
        called,
        at: created,
        duration_seconds: seconds(created, ended),
        talk_seconds,
        wait_seconds,
        answered,
        ..Call::default()
    }]))
}

/// A string or number field as text; empty as none.
fn text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// An integer given as a number or as its digits ("1").
fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A phone in E.164: Mango writes "74951234567" (no '+'), a foreign
/// number as its digits ("380501234567"); a SIP address
/// ("sip:user@domain.mangosip.ru") or a hidden number is none.
fn phone(raw: &str) -> Option<String> {
    if raw.contains('@') || raw.to_ascii_lowercase().starts_with("sip:") {
        return None;
    }
    e164(raw).or_else(|| {
        let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
        let plain = raw
            .chars()
            .all(|c| c.is_ascii_digit() || " -()".contains(c));
        (plain && (11..=15).contains(&digits.len()) && !digits.starts_with('8'))
            .then(|| format!("+{digits}"))
    })
}

/// The unix time (seconds) in `event[field]`; 0 or absent is none. A
/// "YYYY-MM-DD HH:MM:SS" text is read as Moscow time.
fn moment(event: &Value, field: &'static str) -> AppResult<Option<DateTime<Utc>>> {
    let bad = || {
        refused(
            field,
            format!("время {field} — не время Unix в секундах между 2000 и 2100 годом"),
        )
    };
    let seconds = match event.get(field) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(n)) => n.as_i64().ok_or_else(bad)?,
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(None),
        Some(Value::String(s)) => match s.trim().parse::<i64>() {
            Ok(seconds) => seconds,
            Err(_) => {
                let local = NaiveDateTime::parse_from_str(s.trim(), "%Y-%m-%d %H:%M:%S")
                    .map_err(|_| bad())?;
                let at = crate::clock::moscow()
                    .from_local_datetime(&local)
                    .single()
                    .ok_or_else(bad)?;
                at.timestamp()
            }
        },
        Some(_) => return Err(bad()),
    };
    if seconds == 0 {
        return Ok(None);
    }
    // 2000-01-01 .. 2100-01-01.
    if !(946_684_800..4_102_444_800).contains(&seconds) {
        return Err(bad());
    }
    Ok(Utc.timestamp_opt(seconds, 0).single())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_read_as_mango_writes_them() {
        assert_eq!(phone("74991102914").as_deref(), Some("+74991102914"));
        assert_eq!(phone("84991102914").as_deref(), Some("+74991102914"));
        assert_eq!(phone("+7 (999) 123-45-67").as_deref(), Some("+79991234567"));
        assert_eq!(phone("380501234567").as_deref(), Some("+380501234567"));
        assert_eq!(phone("sip:example@domain.mangosip.ru"), None);
        assert_eq!(phone("101"), None);
        assert_eq!(phone("anonymous"), None);
    }

    #[test]
    fn a_missed_inbound_summary_is_one_call_and_an_outbound_none() {
        let missed = json!({
            "entry_id": "MzUyODMzNzg4OTo0MDE=", "call_direction": 1,
            "from": {"number": "74991102914"},
            "to": {"extension": "101", "number": "sip:a@b.mangosip.ru"},
            "line_number": "74952129298",
            "create_time": 1516454940, "forward_time": 1516454945,
            "talk_time": 0, "end_time": 1516454970,
            "entry_result": 0, "disconnect_reason": 1110
        });
        let Hooked::Calls(calls) = summary(&missed).unwrap() else {
            panic!("no call")
        };
        let call = &calls[0];
        assert_eq!(call.call_id, "MzUyODMzNzg4OTo0MDE=");
        assert_eq!(call.caller.as_deref(), Some("+74991102914"));
        assert_eq!(call.called.as_deref(), Some("+74952129298"));
        assert!(!call.answered);
        assert_eq!((call.duration_seconds, call.wait_seconds), (30, 30));
        let mut outbound = missed.clone();
        outbound["call_direction"] = json!("2");
        assert_eq!(summary(&outbound).unwrap(), Hooked::Nothing);
    }

    #[test]
    fn an_answered_summary_counts_talk_from_talk_time_to_end_time() {
        let answered = json!({
            "entry_id": "e-2", "call_direction": "1", "from": {"number": "79991234567"},
            "to": {"number": "74952129298"},
            "create_time": "1516454940", "talk_time": "1516454950",
            "end_time": "1516455150", "entry_result": "1"
        });
        let Hooked::Calls(calls) = summary(&answered).unwrap() else {
            panic!("no call")
        };
        let call = &calls[0];
        assert!(call.answered);
        assert_eq!(call.called.as_deref(), Some("+74952129298"));
        assert_eq!((call.talk_seconds, call.wait_seconds), (200, 10));
        assert_eq!(call.duration_seconds, 210);
    }

    #[test]
    fn hostile_times_and_ids_are_refused_with_their_field() {
        let base = json!({"entry_id": "e", "call_direction": 1, "create_time": 1516454940});
        for (field, value) in [
            ("create_time", json!("вчера")),
            ("create_time", json!(-5)),
            ("end_time", json!(1e30)),
            ("talk_time", json!({"x": 1})),
            ("entry_id", json!("a".repeat(500))),
            ("call_direction", json!("inbound")),
        ] {
            let mut event = base.clone();
            event[field] = value;
            match summary(&event) {
                Err(AppError::Invalid {
                    field: Some(got), ..
                }) => assert_eq!(got, field),
                other => panic!("{field}: {other:?}"),
            }
        }
        let mut no_id = base.clone();
        no_id.as_object_mut().unwrap().remove("entry_id");
        assert!(summary(&no_id).is_err());
    }
}
