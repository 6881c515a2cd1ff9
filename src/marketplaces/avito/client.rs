//! The Avito client itself: its keys, the access token (OAuth2
//! `client_credentials`, kept in memory and renewed before it ends or once
//! when a call is refused with 401), the account's `user_id`, the check
//! staff run («Проверить подключение»), and the plumbing every call shares:
//! `Authorization: Bearer`, retries through `send`, answers read as JSON.

use std::time::{Duration, Instant};

use reqwest::{RequestBuilder, Response, StatusCode};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::Mutex;

use crate::config::AvitoConfig;
use crate::marketplaces::patience::{Patience, send};
use crate::marketplaces::report::MarketError;

/// A token is renewed this long before Avito says it ends (24 hours).
const RENEW_BEFORE: Duration = Duration::from_secs(10 * 60);

/// The longest piece of an answer quoted in an error.
const QUOTED: usize = 300;

/// A client of one Avito account. Cheap to share behind an `Arc`: the token
/// and the account's number are kept inside, behind locks.
pub struct Avito {
    base: String,
    client_id: String,
    secret: String,
    http: reqwest::Client,
    patience: Patience,
    token: Mutex<Option<Token>>,
    user_id: Mutex<Option<String>>,
}

struct Token {
    value: String,
    renew_at: Instant,
}

#[derive(Deserialize)]
struct TokenAnswer {
    #[serde(default)]
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

#[derive(Deserialize)]
struct Account {
    id: serde_json::Value,
    #[serde(default)]
    name: Option<String>,
}

impl Avito {
    /// A client for `config`, its secret read from its file (mode 600).
    pub fn new(
        config: &AvitoConfig,
        http: reqwest::Client,
        patience: Patience,
    ) -> Result<Avito, MarketError> {
        if !config.is_configured() {
            return Err(MarketError::NotConfigured(
                "Авито: укажите avito.client_id и avito.client_secret_file".into(),
            ));
        }
        let secret = crate::secret_file::read(
            &config.client_secret_file,
            "avito.client_secret_file",
            "the Avito API client's secret",
        )
        .map_err(|err| MarketError::Secret(format!("{err:#}")))?;
        let user_id = config.user_id.trim();
        Ok(Avito {
            base: config.api_base(),
            client_id: config.client_id.trim().to_string(),
            secret,
            http,
            patience,
            token: Mutex::new(None),
            user_id: Mutex::new((!user_id.is_empty()).then(|| user_id.to_string())),
        })
    }

    /// An HTTP client with the timeouts a marketplace call gets: a call
    /// never hangs a job for longer than a minute.
    pub fn http_client() -> reqwest::Client {
        reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .user_agent(concat!("dealership/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_else(|err| {
                tracing::error!("cannot set up the HTTP client: {err}");
                reqwest::Client::new()
            })
    }

    /// Checks the keys and the account: a fresh token, then the account
    /// Avito says they open. The line staff read on the integrations screen
    /// and `dealership check` prints.
    pub async fn check(&self) -> Result<String, MarketError> {
        self.renew(None).await?;
        let account = self.account().await?;
        let id = id_text(&account.id)
            .ok_or_else(|| MarketError::Answer("нет номера аккаунта (id)".into()))?;
        let configured = self.user_id.lock().await.clone();
        let mut line = format!("Подключено: аккаунт {id}");
        if let Some(name) = account.name.filter(|name| !name.trim().is_empty()) {
            line.push_str(&format!(" ({})", name.trim()));
        }
        match configured {
            Some(set) if set != id => {
                line.push_str(&format!(
                    "; в настройках указан аккаунт {set}: проверьте avito.user_id"
                ));
            }
            Some(_) => {}
            None => *self.user_id.lock().await = Some(id),
        }
        Ok(line)
    }

    /// The account's number (`user_id` in the API's paths): the configured
    /// one, else Avito's answer to `GET /core/v1/accounts/self`, kept.
    pub async fn user_id(&self) -> Result<String, MarketError> {
        if let Some(id) = self.user_id.lock().await.clone() {
            return Ok(id);
        }
        let account = self.account().await?;
        let id = id_text(&account.id)
            .ok_or_else(|| MarketError::Answer("нет номера аккаунта (id)".into()))?;
        *self.user_id.lock().await = Some(id.clone());
        Ok(id)
    }

    async fn account(&self) -> Result<Account, MarketError> {
        let url = self.url("/core/v1/accounts/self");
        let answer = self
            .call(|token| self.http.get(&url).bearer_auth(token))
            .await?;
        read_json(answer, "аккаунт").await
    }

    /// The HTTP client every call goes through.
    pub(super) fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// The address of `path` on the API.
    pub(super) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends an authorised request built by `make` (given the token), with
    /// the retries of `send`. A 401 renews the token once and sends again
    /// (a token that ended mid-run); a second 401 or a 403 is
    /// `Unauthorized`; any other answer outside 2xx is `Answer`. 404 is the
    /// caller's to read (`Ok`), as Avito says "nothing yet" with it.
    pub(super) async fn call(
        &self,
        make: impl Fn(&str) -> RequestBuilder,
    ) -> Result<Response, MarketError> {
        let mut token = self.token().await?;
        let mut renewed = false;
        loop {
            let answer = send(|| make(&token), &self.patience).await?;
            let status = answer.status();
            if status == StatusCode::UNAUTHORIZED && !renewed {
                token = self.renew(Some(&token)).await?;
                renewed = true;
                continue;
            }
            if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
                let message = refusal(answer).await;
                return Err(MarketError::Unauthorized {
                    status: status.as_u16(),
                    message,
                });
            }
            if status.is_success() || status == StatusCode::NOT_FOUND {
                return Ok(answer);
            }
            let message = refusal(answer).await;
            return Err(MarketError::Answer(format!(
                "HTTP {}: {message}",
                status.as_u16()
            )));
        }
    }

    /// The token in hand, or a new one when there is none or it is about
    /// to end.
    async fn token(&self) -> Result<String, MarketError> {
        let mut held = self.token.lock().await;
        if let Some(token) = held.as_ref()
            && Instant::now() < token.renew_at
        {
            return Ok(token.value.clone());
        }
        let token = self.issue().await?;
        let value = token.value.clone();
        *held = Some(token);
        Ok(value)
    }

    /// A new token in place of `stale` (or of any held one when `None`);
    /// when another task already replaced `stale`, that one is used.
    async fn renew(&self, stale: Option<&str>) -> Result<String, MarketError> {
        let mut held = self.token.lock().await;
        if let (Some(stale), Some(token)) = (stale, held.as_ref())
            && token.value != stale
            && Instant::now() < token.renew_at
        {
            return Ok(token.value.clone());
        }
        *held = None;
        let token = self.issue().await?;
        let value = token.value.clone();
        *held = Some(token);
        Ok(value)
    }

    /// `POST /token` with the client's keys, form-encoded.
    async fn issue(&self) -> Result<Token, MarketError> {
        let url = self.url("/token");
        let form = [
            ("grant_type", "client_credentials"),
            ("client_id", self.client_id.as_str()),
            ("client_secret", self.secret.as_str()),
        ];
        let answer = send(|| self.http.post(&url).form(&form), &self.patience).await?;
        let status = answer.status();
        let text = answer.text().await.unwrap_or_default();
        let parsed: Option<TokenAnswer> = serde_json::from_str(&text).ok();
        match parsed {
            Some(token) if status.is_success() && !token.access_token.trim().is_empty() => {
                let lives = Duration::from_secs(token.expires_in.unwrap_or(24 * 3600));
                let margin = if lives > RENEW_BEFORE * 2 {
                    RENEW_BEFORE
                } else {
                    lives / 2
                };
                Ok(Token {
                    value: token.access_token.trim().to_string(),
                    renew_at: Instant::now() + lives - margin,
                })
            }
            _ => Err(MarketError::Unauthorized {
                status: status.as_u16(),
                message: message_of(&text),
            }),
        }
    }
}

/// Reads an answer's body as `T`; anything else is `Answer` naming `what`.
pub(super) async fn read_json<T: DeserializeOwned>(
    answer: Response,
    what: &str,
) -> Result<T, MarketError> {
    let status = answer.status();
    let text = answer
        .text()
        .await
        .map_err(|err| MarketError::Answer(format!("{what}: {}", err.without_url())))?;
    if !status.is_success() {
        return Err(MarketError::Answer(format!(
            "{what}: HTTP {}: {}",
            status.as_u16(),
            message_of(&text)
        )));
    }
    serde_json::from_str(&text).map_err(|err| MarketError::Answer(format!("{what}: {err}")))
}

/// An id Avito writes as a number or a string, as text; `None` when absent,
/// empty or zero.
pub(super) fn id_text(value: &serde_json::Value) -> Option<String> {
    let text = match value {
        serde_json::Value::Number(number) => number.to_string(),
        serde_json::Value::String(text) => text.trim().to_string(),
        _ => return None,
    };
    (!text.is_empty() && text != "0").then_some(text)
}

async fn refusal(answer: Response) -> String {
    message_of(&answer.text().await.unwrap_or_default())
}

/// Avito's own words in an error's body: OAuth's `error_description` or
/// `error`, `error.message`, `message`, `result.message`; else the body
/// itself, shortened.
pub(super) fn message_of(body: &str) -> String {
    let found = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|json| {
            let text = |value: &serde_json::Value| {
                value
                    .as_str()
                    .map(str::trim)
                    .filter(|text| !text.is_empty())
                    .map(String::from)
            };
            text(&json["error_description"])
                .or_else(|| text(&json["error"]["message"]))
                .or_else(|| text(&json["error"]))
                .or_else(|| text(&json["message"]))
                .or_else(|| text(&json["result"]["message"]))
        });
    let text = found.unwrap_or_else(|| body.trim().to_string());
    if text.is_empty() {
        return "без пояснений".into();
    }
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn avitos_words_are_found_in_each_error_shape() {
        let oauth = r#"{"error":"invalid_client","error_description":"неверный секрет"}"#;
        assert_eq!(message_of(oauth), "неверный секрет");
        assert_eq!(
            message_of(r#"{"error":{"code":401,"message":"Unauthorized"}}"#),
            "Unauthorized"
        );
        assert_eq!(message_of(r#"{"message":"нет доступа"}"#), "нет доступа");
        assert_eq!(
            message_of(r#"{"result":{"message":"нет тарифа","status":false}}"#),
            "нет тарифа"
        );
        assert_eq!(message_of("Bad Gateway"), "Bad Gateway");
        assert_eq!(message_of(""), "без пояснений");
        assert!(message_of(&"я".repeat(1000)).chars().count() <= QUOTED + 1);
    }

    #[test]
    fn ids_are_read_as_numbers_or_strings() {
        assert_eq!(id_text(&json!(12345)), Some("12345".into()));
        assert_eq!(id_text(&json!(" 77 ")), Some("77".into()));
        assert_eq!(id_text(&json!(0)), None);
        assert_eq!(id_text(&json!(null)), None);
        assert_eq!(id_text(&json!("")), None);
    }
}
