//! A Calltouch call as its parameters name it, whichever way they came (a
//! webhook's URL-encoded pairs, a calls journal record's JSON), made our
//! `Call`. Calltouch spells the same thing differently in its webhooks
//! (`callerphone`, `phonenumber`, `utm_source`) and its journal
//! (`callerNumber`, `phoneNumber`, `utmSource`), and the dealer picks which
//! webhook parameters are sent: keys are read case-insensitively with `_`
//! and `-` ignored, each through its documented names and aliases; what is
//! missing stays empty. Times are unix seconds (or milliseconds) or
//! Calltouch's `dd/mm/yyyy hh:mm:ss`, Moscow time when unzoned.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};

use crate::domain::calls::{Call, CallUtm};
use crate::domain::phone;

/// The longest text kept from a parameter (a page's address, a UTM tag).
const TEXT_MAX: usize = 1000;
/// The longest call id taken (Calltouch's own are numbers).
const ID_MAX: usize = 100;
/// The longest duration believed: a day.
const SECONDS_MAX: u32 = 24 * 3600;

/// A parameter refused: its name and why (in the staff's words).
pub type Refusal = (&'static str, String);

/// The call's parameters by their key folded (lowercase, letters and digits
/// only: `utm_source`, `utmSource` and `UTM-SOURCE` are one key); the first
/// non-empty value of a key is kept.
#[derive(Debug, Default)]
pub struct Fields {
    values: HashMap<String, String>,
}

/// A key as it is looked up.
fn fold(key: &str) -> String {
    key.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl Fields {
    /// Adds `value` under `key`, unless the key already has one or the value
    /// is blank.
    pub fn add(&mut self, key: &str, value: &str) {
        let value = value.trim();
        if value.is_empty() {
            return;
        }
        let value: String = value.chars().take(TEXT_MAX).collect();
        self.values.entry(fold(key)).or_insert(value);
    }

    /// The pairs of an URL-encoded text (a query or a form body).
    pub fn add_form(&mut self, form: &[u8]) {
        for (key, value) in form_urlencoded::parse(form) {
            self.add(&key, &value);
        }
    }

    /// The scalar members of a JSON object (strings, numbers, booleans);
    /// nested objects and lists (tags, visits, deals) are left.
    pub fn add_json(&mut self, object: &serde_json::Map<String, serde_json::Value>) {
        for (key, value) in object {
            match value {
                serde_json::Value::String(text) => self.add(key, text),
                serde_json::Value::Number(n) => self.add(key, &n.to_string()),
                serde_json::Value::Bool(b) => self.add(key, if *b { "true" } else { "false" }),
                _ => {}
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The first of `names` (folded) that has a value, with its name.
    fn first(&self, names: &[&'static str]) -> Option<(&'static str, &str)> {
        names
            .iter()
            .find_map(|name| self.values.get(*name).map(|v| (*name, v.as_str())))
    }

    fn text(&self, names: &[&'static str]) -> Option<String> {
        self.first(names).map(|(_, v)| v.to_string())
    }

    fn has_any(&self, names: &[&str]) -> bool {
        names.iter().any(|name| self.values.contains_key(*name))
    }
}

// The names each thing goes by (folded), the documented one first.
const ID: &[&str] = &["callid", "id", "sipcallid", "callreferenceid"];
const CALLER: &[&str] = &[
    "callerphone",
    "callernumber",
    "caller",
    "callerphonenumber",
    "clientphone",
    "fromnumber",
];
const CALLED: &[&str] = &[
    "phonenumber",
    "calledphone",
    "callednumber",
    "trackingnumber",
    "virtualnumber",
    "redirectnumber",
];
const TIME: &[&str] = &[
    "timestamp",
    "calltime",
    "calltimestamp",
    "unixtime",
    "date",
    "datestr",
    "calldate",
    "datetime",
    "starttime",
    "time",
];
const DURATION: &[&str] = &["duration", "callduration", "totalduration"];
const TALK: &[&str] = &[
    "talkduration",
    "talktime",
    "conversationduration",
    "billsec",
];
const WAIT: &[&str] = &[
    "waitingconnect",
    "waitingtime",
    "waittime",
    "waitduration",
    "waiting",
];
const SUCCESSFUL: &[&str] = &["successful", "answered", "issuccessful"];
const STATUS: &[&str] = &["status", "callstatus"];
const PAGE: &[&str] = &["callurl", "pageurl", "url", "requesturl"];
const RECORD: &[&str] = &[
    "recordlink",
    "reclink",
    "recordurl",
    "recordingurl",
    "recordinglink",
    "record",
    "recording",
    "callrecord",
];
const CLIENT_ID: &[&str] = &["yaclientid", "ymclientid", "metrikaclientid", "clientid"];
/// What kind of lead a webhook is about (calls, requests, deals, chats).
const KIND: &[&str] = &["leadtype", "type", "entity", "entitytype", "webhooktype"];
/// How far the call got (a webhook at the call's start has not ended).
const PHASE: &[&str] = &["callphase", "phase", "event", "eventtype"];
/// Parameters only a request (заявка), a deal or a chat has.
const NOT_A_CALL: &[&str] = &[
    "requestid",
    "requestnumber",
    "requestdate",
    "subject",
    "orderid",
    "ordernumber",
    "dealid",
    "chatid",
    "dialogid",
];

/// Whether the parameters are about something other than a call: a request
/// (заявка), a deal or a chat, by their kind's name or their own ids.
pub fn not_a_call(f: &Fields) -> bool {
    if let Some((_, kind)) = f.first(KIND) {
        let kind = kind.to_lowercase();
        let other = [
            "request", "заяв", "order", "deal", "сдел", "chat", "чат", "form",
        ];
        if other.iter().any(|word| kind.contains(word)) {
            return true;
        }
        if kind.contains("call") || kind.contains("звон") {
            return false;
        }
    }
    !f.has_any(ID) && f.has_any(NOT_A_CALL)
}

/// Whether the call has not ended yet (a webhook sent as it rang).
pub fn not_ended(f: &Fields) -> bool {
    f.first(PHASE).is_some_and(|(_, phase)| {
        let phase = phase.to_lowercase();
        let ringing = ["start", "ring", "incoming", "begin", "new"];
        (ringing.iter().any(|word| phase.contains(word)) && !phase.contains("end"))
            || phase == "callconnected"
            || phase == "connected"
    })
}

/// Whether anything names a call (its id or its caller): an empty ping is
/// not one.
pub fn names_a_call(f: &Fields) -> bool {
    f.has_any(ID) || f.has_any(CALLER)
}

/// The call the parameters describe; `now` stands for a time not given.
pub fn call(f: &Fields, now: DateTime<Utc>) -> Result<Call, Refusal> {
    let call_id = match f.first(ID) {
        Some((name, id)) => {
            let ok = id.chars().count() <= ID_MAX
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c));
            if !ok {
                return Err((name, "идентификатор звонка не читается".into()));
            }
            id.to_string()
        }
        None => {
            return Err((
                "callid",
                "нет идентификатора звонка: отметьте параметр «ID звонка» (callId) в настройках \
                 вебхука Calltouch"
                    .into(),
            ));
        }
    };
    let caller = match f.first(CALLER) {
        Some((name, raw)) => Some(phone::e164(raw).ok_or_else(|| {
            (
                name,
                format!("номер звонившего не читается: «{}»", shown(raw)),
            )
        })?),
        None => None,
    }
    .ok_or_else(|| ("callerphone", "нет номера звонившего".to_string()))?;
    let called = f.first(CALLED).and_then(|(_, raw)| phone::e164(raw));
    let at = match f.first(TIME) {
        Some((name, raw)) => time(raw, now).ok_or_else(|| {
            (
                name,
                format!(
                    "время звонка не читается: «{}» (ждём dd/mm/yyyy hh:mm:ss или unix-время)",
                    shown(raw)
                ),
            )
        })?,
        None => now,
    };
    let seconds = |names: &[&'static str]| -> Result<Option<u32>, Refusal> {
        match f.first(names) {
            Some((name, raw)) => duration(raw)
                .map(Some)
                .ok_or_else(|| (name, format!("длительность не читается: «{}»", shown(raw)))),
            None => Ok(None),
        }
    };
    let (duration, talk, wait) = (seconds(DURATION)?, seconds(TALK)?, seconds(WAIT)?);
    let successful = match f.first(SUCCESSFUL) {
        Some((name, raw)) => Some(flag(raw).ok_or_else(|| {
            (
                name,
                format!("признак успешного звонка не читается: «{}»", shown(raw)),
            )
        })?),
        None => None,
    };
    let status = f.first(STATUS).and_then(|(_, raw)| status(raw));
    let whole = duration.unwrap_or(0);
    let answered = successful.or(status).unwrap_or(match (talk, wait) {
        (Some(talk), _) => talk > 0,
        (None, Some(wait)) => whole > wait,
        (None, None) => whole > 0,
    });
    let talk_seconds = match (answered, talk) {
        (false, _) => 0,
        (true, Some(talk)) => talk,
        (true, None) => match wait {
            Some(wait) if whole > wait => whole - wait,
            _ => whole,
        },
    };
    let (page_url, record_url) = links(f);
    let source = [f.text(&["source"]), f.text(&["medium"])]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" / ");
    Ok(Call {
        call_id,
        caller: Some(caller),
        called,
        at,
        duration_seconds: whole.max(talk_seconds + wait.unwrap_or(0)),
        talk_seconds,
        wait_seconds: wait.unwrap_or(0),
        answered,
        record_url,
        source: (!source.is_empty()).then_some(source),
        utm: CallUtm {
            source: f.text(&["utmsource"]),
            medium: f.text(&["utmmedium"]),
            campaign: f.text(&["utmcampaign"]),
            term: f.text(&["utmterm"]),
            content: f.text(&["utmcontent"]),
        },
        client_id: f.text(CLIENT_ID),
        page_url,
        ..Call::default()
    })
}

/// The page the caller saw the number on and the recording's link. The
/// documented `callUrl` is the page; a link that is plainly a recording
/// (an audio file, a download) is taken as the recording wherever it is.
/// Only http(s) links are kept.
fn links(f: &Fields) -> (Option<String>, Option<String>) {
    let web = |raw: &str| {
        let lower = raw.to_lowercase();
        (lower.starts_with("https://") || lower.starts_with("http://")) && !raw.contains(' ')
    };
    let audio = |raw: &str| {
        let path = raw.split(['?', '#']).next().unwrap_or("").to_lowercase();
        [".mp3", ".wav", ".ogg", ".m4a", ".opus"]
            .iter()
            .any(|ext| path.ends_with(ext))
            || path.ends_with("/download")
    };
    let mut record = f.first(RECORD).map(|(_, v)| v).filter(|v| web(v));
    let mut page = None;
    for name in PAGE {
        let Some(link) = f.first(&[name]).map(|(_, v)| v).filter(|v| web(v)) else {
            continue;
        };
        if audio(link) {
            record = record.or(Some(link));
        } else if page.is_none() {
            page = Some(link);
        }
    }
    (page.map(str::to_string), record.map(str::to_string))
}

/// A value quoted in a refusal: short, on one line.
fn shown(raw: &str) -> String {
    raw.chars().filter(|c| !c.is_control()).take(40).collect()
}

/// A time as Calltouch writes it: unix seconds or milliseconds,
/// `dd/mm/yyyy hh:mm:ss` (and its kin) in Moscow time, or RFC 3339. A time
/// before 2000 or more than two days after `now` is not believed.
pub fn time(raw: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let raw = raw.trim();
    let at = if raw.chars().all(|c| c.is_ascii_digit() || c == '.') {
        let whole = raw.split('.').next()?.parse::<i64>().ok()?;
        if raw.split('.').next()?.len() >= 12 {
            DateTime::from_timestamp_millis(whole)?
        } else {
            DateTime::from_timestamp(whole, 0)?
        }
    } else if let Ok(zoned) = DateTime::parse_from_rfc3339(raw) {
        zoned.to_utc()
    } else {
        const WITH_TIME: [&str; 8] = [
            "%d/%m/%Y %H:%M:%S",
            "%d/%m/%Y %H:%M",
            "%d.%m.%Y %H:%M:%S",
            "%d.%m.%Y %H:%M",
            "%Y-%m-%d %H:%M:%S",
            "%Y-%m-%dT%H:%M:%S",
            "%Y-%m-%d %H:%M",
            "%Y-%m-%dT%H:%M",
        ];
        let local = WITH_TIME
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(raw, f).ok())
            .or_else(|| {
                ["%d/%m/%Y", "%d.%m.%Y", "%Y-%m-%d"]
                    .iter()
                    .find_map(|f| NaiveDate::parse_from_str(raw, f).ok())
                    .and_then(|d| d.and_hms_opt(0, 0, 0))
            })?;
        crate::clock::moscow()
            .from_local_datetime(&local)
            .single()?
            .to_utc()
    };
    let earliest = DateTime::from_timestamp(946_684_800, 0)?; // 2000-01-01
    (at >= earliest && at <= now + chrono::Duration::days(2)).then_some(at)
}

/// Seconds: `125`, `125.6`, `2:05` or `00:02:05`; at most a day.
pub fn duration(raw: &str) -> Option<u32> {
    let raw = raw.trim();
    let seconds = if raw.contains(':') {
        let parts: Vec<u32> = raw
            .split(':')
            .map(|p| p.parse::<u32>().ok().filter(|_| p.len() <= 4))
            .collect::<Option<_>>()?;
        match parts.as_slice() {
            [m, s] if *s < 60 => m.checked_mul(60)?.checked_add(*s)?,
            [h, m, s] if *m < 60 && *s < 60 => {
                h.checked_mul(3600)?.checked_add(m * 60)?.checked_add(*s)?
            }
            _ => return None,
        }
    } else {
        let value = raw.parse::<f64>().ok()?;
        if !value.is_finite() || value < 0.0 || value > f64::from(SECONDS_MAX) {
            return None;
        }
        value.round() as u32
    };
    (seconds <= SECONDS_MAX).then_some(seconds)
}

/// A yes or no: `true`/`false`, `1`/`0`, `yes`/`no`, `да`/`нет`.
pub fn flag(raw: &str) -> Option<bool> {
    match raw.trim().to_lowercase().as_str() {
        "true" | "1" | "yes" | "y" | "on" | "да" | "t" => Some(true),
        "false" | "0" | "no" | "n" | "off" | "нет" | "f" => Some(false),
        _ => None,
    }
}

/// A call's status in words: answered (`successful`) or not
/// (`unsuccessful`, missed, busy…); None when the words say neither.
fn status(raw: &str) -> Option<bool> {
    let raw = raw.trim().to_lowercase();
    let missed = [
        "unsuccess",
        "missed",
        "noanswer",
        "no_answer",
        "no answer",
        "busy",
        "fail",
        "lost",
        "cancel",
        "пропущ",
        "неуспеш",
        "не отвеч",
        "недозвон",
        "занято",
    ];
    if missed.iter().any(|w| raw.contains(w)) {
        return Some(false);
    }
    let taken = [
        "success",
        "answer",
        "accepted",
        "completed",
        "успеш",
        "отвеч",
    ];
    if taken.iter().any(|w| raw.contains(w)) {
        return Some(true);
    }
    flag(&raw)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-05-14T12:00:00Z")
            .unwrap()
            .to_utc()
    }

    #[test]
    fn times_are_read_in_calltouchs_formats_moscow_when_unzoned() {
        let at = |raw| time(raw, now()).map(|t| t.to_rfc3339());
        let expected = Some("2026-05-14T07:15:30+00:00".to_string());
        assert_eq!(at("14/05/2026 10:15:30"), expected);
        assert_eq!(at("14.05.2026 10:15:30"), expected);
        assert_eq!(at("2026-05-14 10:15:30"), expected);
        assert_eq!(at("1778742930"), expected);
        assert_eq!(at("1778742930000"), expected);
        assert_eq!(at("2026-05-14T07:15:30Z"), expected);
        assert_eq!(at("31/02/2026 10:00:00"), None);
        assert_eq!(at("вчера"), None);
        assert_eq!(at("14/05/1970 10:00:00"), None);
        assert_eq!(at("14/05/2036 10:00:00"), None);
    }

    #[test]
    fn durations_flags_and_statuses_read_as_calltouch_writes_them() {
        assert_eq!(duration("125"), Some(125));
        assert_eq!(duration("125.6"), Some(126));
        assert_eq!(duration("2:05"), Some(125));
        assert_eq!(duration("00:02:05"), Some(125));
        assert_eq!(duration("-3"), None);
        assert_eq!(duration("NaN"), None);
        assert_eq!(duration("99999999"), None);
        assert_eq!(flag("TRUE"), Some(true));
        assert_eq!(flag("0"), Some(false));
        assert_eq!(flag("maybe"), None);
        assert_eq!(status("successful"), Some(true));
        assert_eq!(status("unsuccessful"), Some(false));
        assert_eq!(status("Пропущенный"), Some(false));
        assert_eq!(status("whatever"), None);
    }

    #[test]
    fn keys_are_one_whatever_their_case_and_separators() {
        let mut f = Fields::default();
        f.add_form(b"UTM_Source=yandex&utmMedium=cpc&CallerPhone=%2B7+(905)+111-22-33&callId=77");
        let call = call(&f, now()).unwrap();
        assert_eq!(call.utm.source.as_deref(), Some("yandex"));
        assert_eq!(call.utm.medium.as_deref(), Some("cpc"));
        assert_eq!(call.caller.as_deref(), Some("+79051112233"));
        assert_eq!(call.call_id, "77");
        assert_eq!(call.at, now());
    }
}
