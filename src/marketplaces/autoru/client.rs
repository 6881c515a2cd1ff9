//! The Auto.ru dealer API client itself (`docs/marketplaces.md`, "Auto.ru"):
//! the token the dealer's Auto.ru manager issues on every request
//! (`x-authorization`), the cabinet's session (`x-session-id`, from
//! `POST /auth/login`, kept in memory and renewed once when a call is refused
//! with 401), `x-dealer-id` when configured, the client's own pace, retries
//! through `marketplaces::send`, and Auto.ru's error answers read into
//! `MarketError`. The connection check lives here too; the feed report, the
//! figures and the calls in their own files.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use reqwest::{Method, StatusCode, Url};
use serde_json::{Value, json};
use tokio::sync::Mutex;

use super::pace::{DEFAULT_INTERVAL, Pace};
use crate::config::AutoruConfig;
use crate::marketplaces::patience::{Patience, send};
use crate::marketplaces::report::MarketError;

/// A client of one dealer's Auto.ru cabinet.
pub struct Autoru {
    base: Url,
    token: String,
    login: String,
    password: String,
    dealer_id: Option<String>,
    http: reqwest::Client,
    patience: Patience,
    pace: Pace,
    session: Mutex<Option<String>>,
}

/// Shown without the token, the password and the session.
impl std::fmt::Debug for Autoru {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Autoru")
            .field("base", &self.base.as_str())
            .field("login", &self.login)
            .field("dealer_id", &self.dealer_id)
            .finish_non_exhaustive()
    }
}

/// One request of the API, built again for each attempt.
pub(super) struct Call<'a> {
    pub method: Method,
    /// Path segments after the base, each escaped on its own.
    pub path: &'a [&'a str],
    pub query: Vec<(&'static str, String)>,
    pub body: Option<Value>,
}

impl<'a> Call<'a> {
    pub fn get(path: &'a [&'a str]) -> Self {
        Self {
            method: Method::GET,
            path,
            query: Vec::new(),
            body: None,
        }
    }

    pub fn post(path: &'a [&'a str], body: Value) -> Self {
        Self {
            method: Method::POST,
            path,
            query: Vec::new(),
            body: Some(body),
        }
    }
}

impl Autoru {
    /// A client of `config` (`[autoru]`); the token and the password are
    /// read from their files (mode 600) now.
    pub fn new(
        config: &AutoruConfig,
        http: reqwest::Client,
        patience: Patience,
    ) -> Result<Autoru, MarketError> {
        if !config.is_configured() {
            return Err(MarketError::NotConfigured(
                "Авто.ру: нужны autoru.api_key_file, autoru.login и autoru.password_file".into(),
            ));
        }
        let base = Url::parse(&config.api_base()).map_err(|err| {
            MarketError::NotConfigured(format!("Авто.ру: autoru.api_url не адрес ({err})"))
        })?;
        if base.cannot_be_a_base() {
            return Err(MarketError::NotConfigured(
                "Авто.ру: autoru.api_url не адрес".into(),
            ));
        }
        let secret = |path, key, holds| {
            crate::secret_file::read(path, key, holds)
                .map_err(|err| MarketError::Secret(format!("{err:#}")))
        };
        let token = secret(
            &config.api_key_file,
            "autoru.api_key_file",
            "the Auto.ru API token",
        )?;
        let password = secret(
            &config.password_file,
            "autoru.password_file",
            "the Auto.ru cabinet's password",
        )?;
        let dealer_id = Some(config.dealer_id.trim().to_string()).filter(|id| !id.is_empty());
        Ok(Autoru {
            base,
            token,
            login: config.login.trim().to_string(),
            password,
            dealer_id,
            http,
            patience,
            pace: Pace::new(DEFAULT_INTERVAL),
            session: Mutex::new(None),
        })
    }

    /// The same client with requests at least `interval` apart (tests
    /// shorten it; zero turns the pace off).
    pub fn with_pace(mut self, interval: Duration) -> Self {
        self.pace = Pace::new(interval);
        self
    }

    /// Logs in and reads the dealer's account (`GET /dealer/account`): a
    /// line for staff on the integrations screen and `dealership check`.
    pub async fn check(&self) -> Result<String, MarketError> {
        let account = self
            .fetch(Call::get(&["dealer", "account"]))
            .await?
            .ok_or_else(|| MarketError::Answer("/dealer/account: 404".into()))?;
        let id = scalar(&account["account_id"]);
        let status = match account["dealer_status"].as_str().unwrap_or_default() {
            "NEW" => "новый",
            "ACTIVE" => "активен",
            "FREEEZED" | "FREEZED" | "FROZEN" => "заблокирован",
            "STOPPED" => "остановлен",
            "" => "неизвестен",
            other => other,
        };
        let balance = account["balance"]
            .as_i64()
            .map(|rub| format!(", баланс {rub} ₽"))
            .unwrap_or_default();
        let account = id.map(|id| format!("счёт {id}, ")).unwrap_or_default();
        Ok(format!(
            "Авто.ру: подключение работает — {account}статус кабинета: {status}{balance}"
        ))
    }

    /// Sends `call` with the session, logging in first when there is none
    /// and once more when Auto.ru refuses the session (401). `None`: 404,
    /// the thing asked about is unknown to Auto.ru.
    pub(super) async fn fetch(&self, call: Call<'_>) -> Result<Option<Value>, MarketError> {
        let mut session = self.session().await?;
        let mut renewed = false;
        loop {
            let answer = self.send(&call, Some(&session)).await?;
            let status = answer.status();
            if status == StatusCode::UNAUTHORIZED && !renewed {
                renewed = true;
                session = self.renew(&session).await?;
                continue;
            }
            return read(answer, &call).await;
        }
    }

    async fn session(&self) -> Result<String, MarketError> {
        let mut held = self.session.lock().await;
        if let Some(session) = held.as_ref() {
            return Ok(session.clone());
        }
        let fresh = self.log_in().await?;
        *held = Some(fresh.clone());
        Ok(fresh)
    }

    /// A new session in place of `stale`, unless another call renewed it.
    async fn renew(&self, stale: &str) -> Result<String, MarketError> {
        let mut held = self.session.lock().await;
        if let Some(session) = held.as_ref()
            && session != stale
        {
            return Ok(session.clone());
        }
        *held = None;
        let fresh = self.log_in().await?;
        *held = Some(fresh.clone());
        Ok(fresh)
    }

    /// `POST /auth/login` `{login, password}`: the answer's `session.id`.
    async fn log_in(&self) -> Result<String, MarketError> {
        let body = json!({"login": self.login, "password": self.password});
        let call = Call::post(&["auth", "login"], body);
        let answer = self.send(&call, None).await?;
        let answer = read(answer, &call)
            .await?
            .ok_or_else(|| MarketError::Answer("/auth/login: 404".into()))?;
        answer["session"]["id"]
            .as_str()
            .filter(|id| !id.is_empty())
            .map(str::to_string)
            .ok_or_else(|| MarketError::Answer("/auth/login: нет session.id в ответе".into()))
    }

    /// One request, retried by `send` on 429 and 5xx, within the pace.
    async fn send(
        &self,
        call: &Call<'_>,
        session: Option<&str>,
    ) -> Result<reqwest::Response, MarketError> {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty().extend(call.path);
        }
        if !call.query.is_empty() {
            url.query_pairs_mut().extend_pairs(&call.query);
        }
        let attempts = Arc::new(AtomicU32::new(0));
        let counted = attempts.clone();
        let make = || {
            counted.fetch_add(1, Ordering::Relaxed);
            let mut request = self
                .http
                .request(call.method.clone(), url.clone())
                .header("x-authorization", &self.token)
                .header(reqwest::header::ACCEPT, "application/json");
            if let Some(session) = session {
                request = request.header("x-session-id", session);
                if let Some(dealer) = &self.dealer_id {
                    request = request.header("x-dealer-id", dealer);
                }
            }
            if let Some(body) = &call.body {
                request = request.json(body);
            }
            request
        };
        self.pace.wait().await;
        let answer = send(make, &self.patience).await;
        let extra = attempts.load(Ordering::Relaxed).saturating_sub(1);
        self.pace.charge(extra).await;
        answer
    }
}

/// The path a call names, for messages.
fn shown(call: &Call<'_>) -> String {
    format!("/{}", call.path.join("/"))
}

/// A 2xx answer's JSON; `None` for 404; refusals and the rest as errors.
async fn read(answer: reqwest::Response, call: &Call<'_>) -> Result<Option<Value>, MarketError> {
    let status = answer.status();
    let text = answer
        .text()
        .await
        .map_err(|err| MarketError::Unavailable(err.without_url().to_string()))?;
    if status.is_success() {
        return serde_json::from_str(&text)
            .map(Some)
            .map_err(|err| MarketError::Answer(format!("{}: не JSON ({err})", shown(call))));
    }
    let message = said(&text).unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
    match status {
        StatusCode::NOT_FOUND => Ok(None),
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => Err(MarketError::Unauthorized {
            status: status.as_u16(),
            message,
        }),
        _ => Err(MarketError::Answer(format!(
            "{} ({}): {message}",
            shown(call),
            status.as_u16()
        ))),
    }
}

/// What Auto.ru wrote in an error answer (`{"status": "ERROR", "error":
/// CODE, "detailed_error": words}`): the words, with the code before them.
pub(super) fn said(text: &str) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    let field = |name: &str| {
        value[name]
            .as_str()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let detail = field("detailed_error").or_else(|| field("message"));
    match (field("error"), detail) {
        (Some(code), Some(detail)) if code != detail => Some(format!("{code}: {detail}")),
        (_, Some(detail)) => Some(detail),
        (Some(code), None) => Some(code),
        (None, None) => None,
    }
}

/// A JSON string or number as text (Auto.ru writes ids either way).
pub(super) fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_ru_words_are_read_from_its_error_answer() {
        let text = r#"{"status":"ERROR","error":"AUTH_ERROR","detailed_error":"Неверный логин или пароль"}"#;
        assert_eq!(
            said(text).as_deref(),
            Some("AUTH_ERROR: Неверный логин или пароль")
        );
        assert_eq!(
            said(r#"{"status":"ERROR","error":"NO_AUTH"}"#).as_deref(),
            Some("NO_AUTH")
        );
        assert_eq!(said("<html>"), None);
    }

    #[test]
    fn ids_are_read_as_strings_or_numbers() {
        assert_eq!(scalar(&json!("17")).as_deref(), Some("17"));
        assert_eq!(scalar(&json!(17)).as_deref(), Some("17"));
        assert_eq!(scalar(&json!(null)), None);
        assert_eq!(scalar(&json!(" ")), None);
    }
}
