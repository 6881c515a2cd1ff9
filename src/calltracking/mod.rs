//! Calls are leads (issue 45, `docs/calls.md`): the call-tracking services
//! and PBXs a dealer already pays for post their calls to the site
//! (`/hooks/calls/{provider}/{secret}`, `crate::http::hooks`) and are polled
//! for what a webhook missed; every call is normalised to one model
//! (`crate::domain::calls::Call`) and made a lead, or noted on the caller's
//! open lead, by `inbox`. The site's callback form («Перезвоните мне») asks
//! a PBX to ring the manager and then the visitor (`callback`).
//!
//! Each outside service is one module with its webhook's reader, its client
//! (its base address the config key `api_url`) and its tests against a fake
//! written from the service's documentation.

pub mod callback;
pub mod calltouch;
pub mod clients;
pub mod inbox;
pub mod jobs;
pub mod mango;
pub mod silence;
pub mod uis;

use crate::domain::calls::Call;
use crate::error::AppError;

/// A call-tracking service or PBX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    Calltouch,
    Uis,
    Mango,
}

impl Provider {
    pub const ALL: [Provider; 3] = [Provider::Calltouch, Provider::Uis, Provider::Mango];

    /// The name in the hook's path, the config section and `calls.provider`.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Calltouch => "calltouch",
            Provider::Uis => "uis",
            Provider::Mango => "mango",
        }
    }

    /// The name staff read.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Calltouch => "Calltouch",
            Provider::Uis => "UIS",
            Provider::Mango => "Mango Office",
        }
    }

    pub fn parse(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

/// A webhook as it arrived, after its secret and sender were checked.
#[derive(Debug, Clone, Copy)]
pub struct HookRequest<'a> {
    /// "GET" or "POST".
    pub method: &'a str,
    /// What follows the secret in the path, without the leading slash
    /// ("events/summary" for Mango; "" when nothing follows).
    pub rest: &'a str,
    /// The query string, undecoded, without the '?'.
    pub query: &'a str,
    /// The `Content-Type` header's value ("" when absent).
    pub content_type: &'a str,
    pub body: &'a [u8],
}

/// What a webhook told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hooked {
    /// Finished calls to record (usually one).
    Calls(Vec<Call>),
    /// An event with nothing to record (a call still ringing, a test ping):
    /// answered 200 all the same.
    Nothing,
}

/// A webhook refused for its content: 422 with the field and the reason
/// («callerphone: нет номера звонившего»).
pub fn refused(field: &'static str, message: impl Into<String>) -> AppError {
    AppError::Invalid {
        message: message.into(),
        field: Some(field),
    }
}

/// The value of `key` in an URL-encoded text (a query or a form body);
/// the first when repeated, empty values as none.
pub fn form_value(form: &[u8], key: &str) -> Option<String> {
    form_urlencoded::parse(form)
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}
