//! UIS's notification («Уведомления», `docs/calls-uis.md`): an HTTP POST
//! (or GET) whose body the dealer writes as a template with UIS's
//! placeholders. The site asks for a JSON template (events «Завершение
//! звонка» and «Потерянный звонок»), and also takes a form-encoded body or
//! the query of a GET. Fields may be missing, nested in objects, numbers
//! and flags spelled as text; an outgoing call, or an event that is not a
//! call's end, is nothing to record.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::values::{first, flag, inbound, link, moment, seconds, text};
use crate::calltracking::{HookRequest, Hooked, refused};
use crate::domain::calls::{Call, CallUtm};
use crate::domain::phone::e164;
use crate::error::AppResult;

/// The longest call id taken (UIS's are numbers of about ten digits).
const ID_MAX: usize = 64;
/// How deep nested objects of a template are read.
const DEPTH_MAX: usize = 4;

/// What the notification says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    /// «Завершение звонка»: the call is over.
    Finished,
    /// «Потерянный звонок»: nobody answered.
    Lost,
    /// Another event (a call ringing, a talk starting, a recording).
    Other,
    /// Not said: the data decides.
    Unsaid,
}

/// Reads a UIS notification.
pub fn read_hook(req: &HookRequest<'_>) -> AppResult<Hooked> {
    let fields = fields_of(req)?;
    let event = event_of(&fields);
    if event == Event::Other {
        return Ok(Hooked::Nothing);
    }
    if first(&fields, &["direction"]).and_then(inbound) == Some(false) {
        return Ok(Hooked::Nothing);
    }
    let lost = match first(&fields, &["is_lost", "lost"]) {
        Some(value) => Some(
            flag(value).map_err(|_| refused("is_lost", "признак потерянного звонка не да/нет"))?,
        ),
        None => (event == Event::Lost).then_some(true),
    };
    let talk = duration(
        &fields,
        "talk_time_duration",
        &["talk_time_duration", "talk_duration"],
    )?;
    let total = duration(
        &fields,
        "total_time_duration",
        &["total_time_duration", "total_duration", "duration"],
    )?;
    let wait = duration(
        &fields,
        "wait_time_duration",
        &["wait_time_duration", "wait_duration"],
    )?;
    let ended = lost.is_some() || talk.is_some() || total.is_some() || wait.is_some();
    if event == Event::Unsaid && !ended {
        // A call that began (no end, no durations): its end comes later.
        return Ok(Hooked::Nothing);
    }
    let call_id = call_id(&fields)?;
    let talk = talk.unwrap_or(0);
    let answered = match lost {
        Some(lost) => !lost,
        None => talk > 0,
    };
    let total = total.unwrap_or(0);
    let at = match first(&fields, &["start_time", "call_start_time"]) {
        Some(value) => moment(value).map_err(|_| {
            refused(
                "start_time",
                "время начала не в формате ГГГГ-ММ-ДД ЧЧ:ММ:СС",
            )
        })?,
        None => ended_at(&fields)? - chrono::Duration::seconds(i64::from(total)),
    };
    let caller = first(
        &fields,
        &[
            "contact_phone_number",
            "calling_phone_number",
            "numa",
            "caller",
        ],
    )
    .and_then(text)
    .and_then(|n| e164(&n));
    let called = first(
        &fields,
        &["virtual_phone_number", "called_phone_number", "numb"],
    )
    .and_then(text)
    .and_then(|n| e164(&n));
    let utm = |key: &str| first(&fields, &[key]).and_then(text);
    Ok(Hooked::Calls(vec![Call {
        call_id,
        caller,
        called,
        at,
        duration_seconds: total,
        talk_seconds: talk,
        wait_seconds: wait.unwrap_or(0),
        answered,
        record_url: first(
            &fields,
            &["file_link", "record_link", "call_record_link", "record_url"],
        )
        .and_then(link),
        source: first(
            &fields,
            &["campaign_name", "call_source", "source", "scenario_name"],
        )
        .and_then(text),
        utm: CallUtm {
            source: utm("utm_source"),
            medium: utm("utm_medium"),
            campaign: utm("utm_campaign"),
            term: utm("utm_term"),
            content: utm("utm_content"),
        },
        client_id: first(&fields, &["ym_client_id", "ua_client_id"]).and_then(text),
        page_url: first(
            &fields,
            &["communication_page_url", "page_url", "entrance_page"],
        )
        .and_then(link),
        ..Call::default()
    }]))
}

/// Every field of the notification, nested objects flattened (a key seen
/// first is kept): a JSON body, else a form body, then the query.
fn fields_of(req: &HookRequest<'_>) -> AppResult<Map<String, Value>> {
    let mut fields = Map::new();
    let body = trim_ascii(req.body);
    let json = req.content_type.to_ascii_lowercase().contains("json")
        || body.first().is_some_and(|b| *b == b'{' || *b == b'[');
    if !body.is_empty() {
        if json {
            let value: Value = serde_json::from_slice(body).map_err(|err| {
                refused(
                    "body",
                    format!("тело уведомления не JSON ({err}): проверьте шаблон в UIS"),
                )
            })?;
            match value {
                Value::Object(object) => flatten(&mut fields, object, 0),
                Value::Array(items) if items.len() == 1 && items[0].is_object() => {
                    if let Some(Value::Object(object)) = items.into_iter().next() {
                        flatten(&mut fields, object, 0)
                    }
                }
                _ => {
                    return Err(refused(
                        "body",
                        "тело уведомления должно быть JSON-объектом с полями звонка",
                    ));
                }
            }
        } else {
            form(&mut fields, body);
        }
    }
    form(&mut fields, req.query.as_bytes());
    if fields.is_empty() {
        return Err(refused(
            "body",
            "уведомление пустое: задайте в UIS тело запроса по шаблону из документации",
        ));
    }
    Ok(fields)
}

fn trim_ascii(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace());
    match (start, end) {
        (Some(s), Some(e)) => &bytes[s..=e],
        _ => &[],
    }
}

fn flatten(into: &mut Map<String, Value>, object: Map<String, Value>, depth: usize) {
    for (key, value) in object {
        match value {
            Value::Object(inner) if depth < DEPTH_MAX => flatten(into, inner, depth + 1),
            Value::Object(_) => {}
            value => {
                into.entry(key.trim().to_ascii_lowercase()).or_insert(value);
            }
        }
    }
}

fn form(into: &mut Map<String, Value>, pairs: &[u8]) {
    for (key, value) in form_urlencoded::parse(pairs) {
        into.entry(key.trim().to_ascii_lowercase())
            .or_insert(Value::String(value.into_owned()));
    }
}

/// What the notification says it is: our template's `event`, UIS's
/// `notification_mnemonic`, else the notification's name.
fn event_of(fields: &Map<String, Value>) -> Event {
    let said = |keys: &[&str]| first(fields, keys).and_then(text).map(|t| t.to_lowercase());
    if let Some(word) = said(&["event", "notification_mnemonic", "event_type"]) {
        if word.contains("lost") || word.contains("потерян") {
            return Event::Lost;
        }
        if word.contains("finish")
            || word.contains("call_end")
            || word.contains("completed")
            || word.contains("заверш")
        {
            return Event::Finished;
        }
        return Event::Unsaid;
    }
    if let Some(name) = said(&["notification_name"]) {
        if name.contains("потерян") {
            return Event::Lost;
        }
        if name.contains("завершение звонка") {
            return Event::Finished;
        }
        let other = [
            "входящий звонок",
            "исходящий звонок",
            "ожидание ответа",
            "начало разговора",
            "окончание разговора",
            "записанный разговор",
        ];
        if other.iter().any(|o| name.contains(o)) {
            return Event::Other;
        }
    }
    Event::Unsaid
}

fn duration(
    fields: &Map<String, Value>,
    field: &'static str,
    keys: &[&str],
) -> AppResult<Option<u32>> {
    first(fields, keys)
        .map(|value| seconds(value).map_err(|_| refused(field, "длительность не число секунд")))
        .transpose()
}

/// The call session's id: digits, letters, '-', '_' or '.'.
fn call_id(fields: &Map<String, Value>) -> AppResult<String> {
    let id = first(fields, &["call_session_id", "call_id"])
        .and_then(text)
        .ok_or_else(|| {
            refused(
                "call_session_id",
                "нет идентификатора звонка: добавьте в шаблон \"call_session_id\": {{call_session_id}}",
            )
        })?;
    let id = id.strip_suffix(".0").unwrap_or(&id).to_string();
    if id.len() > ID_MAX
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(refused(
            "call_session_id",
            "идентификатор звонка не похож на номер сессии UIS",
        ));
    }
    Ok(id)
}

/// When the notification was sent (the call's end); now when not said.
fn ended_at(fields: &Map<String, Value>) -> AppResult<DateTime<Utc>> {
    match first(
        fields,
        &["notification_time", "finish_time", "notification_timestamp"],
    ) {
        Some(value) => moment(value).map_err(|_| {
            refused(
                "notification_time",
                "время уведомления не в формате ГГГГ-ММ-ДД ЧЧ:ММ:СС",
            )
        }),
        None => Ok(Utc::now()),
    }
}
