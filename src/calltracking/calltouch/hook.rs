//! Calltouch's webhook of leads (Интеграции → Отправка данных во внешние
//! системы → Вебхуки): a GET or a POST whose URL-encoded parameters are the
//! ones the dealer ticked. A finished call is one `Call`; a request
//! (заявка), a deal, a chat, a call still ringing or an empty ping is
//! answered 200 with nothing recorded; a call that cannot be read (no
//! caller, an id or a time that does not parse) is refused with the
//! parameter's name.

use chrono::Utc;

use super::fields::{self, Fields};
use crate::calltracking::{HookRequest, Hooked, refused};
use crate::error::AppResult;

/// Reads a Calltouch webhook: the body's parameters (a form, or a flat JSON
/// object), then the query's for what the body does not have.
pub fn read(req: &HookRequest<'_>) -> AppResult<Hooked> {
    let mut f = Fields::default();
    if req.method == "POST" && !req.body.is_empty() {
        if req.content_type.to_lowercase().contains("json") {
            match serde_json::from_slice::<serde_json::Value>(req.body) {
                Ok(serde_json::Value::Object(object)) => f.add_json(&object),
                _ => return Err(refused("body", "тело вебхука не читается как JSON-объект")),
            }
        } else {
            f.add_form(req.body);
        }
    }
    f.add_form(req.query.as_bytes());
    if f.is_empty() || fields::not_a_call(&f) || fields::not_ended(&f) || !fields::names_a_call(&f)
    {
        return Ok(Hooked::Nothing);
    }
    match fields::call(&f, Utc::now()) {
        Ok(call) => Ok(Hooked::Calls(vec![call])),
        Err((field, message)) => Err(refused(field, format!("{field}: {message}"))),
    }
}
