//! amoCRM: OAuth2 with the code the admin pastes, tokens kept in the
//! database and refreshed before they expire and after a 401, and one
//! `/api/v4/leads/complex` call per lead (docs/notifications.md).

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Deserialize;
use serde_json::{Value, json};

use super::message::{self, Context};
use crate::config::Config;
use crate::db::Db;
use crate::domain::leads::Lead;
use crate::error::AppResult;

/// Refresh the access token when it has less than this left.
const REFRESH_AHEAD: chrono::Duration = chrono::Duration::minutes(5);

/// Stored tokens.
#[derive(Debug, Clone)]
pub struct Tokens {
    pub access_token: String,
    pub refresh_token: String,
    pub expires_at: DateTime<Utc>,
    pub domain: String,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    refresh_token: String,
    expires_in: i64,
}

pub fn load_tokens(conn: &Connection) -> AppResult<Option<Tokens>> {
    Ok(conn
        .query_row(
            "SELECT access_token, refresh_token, expires_at, domain FROM amocrm_tokens WHERE id = 1",
            [],
            |r| {
                let expires: String = r.get("expires_at")?;
                Ok(Tokens {
                    access_token: r.get("access_token")?,
                    refresh_token: r.get("refresh_token")?,
                    expires_at: DateTime::parse_from_rfc3339(&expires)
                        .map(|t| t.with_timezone(&Utc))
                        .unwrap_or_default(),
                    domain: r.get("domain")?,
                })
            },
        )
        .optional()?)
}

fn store_tokens(conn: &Connection, tokens: &Tokens) -> AppResult<()> {
    conn.execute(
        "INSERT OR REPLACE INTO amocrm_tokens (id, access_token, refresh_token, expires_at, domain,
            updated_at) VALUES (1, ?1, ?2, ?3, ?4, ?5)",
        params![
            tokens.access_token,
            tokens.refresh_token,
            super::timestamp(tokens.expires_at),
            tokens.domain,
            crate::domain::now()
        ],
    )?;
    Ok(())
}

/// The amoCRM client of the server: one per process, shared by the outbox
/// and the admin routes, so a refresh (which spends the refresh token) is
/// made once.
pub struct Client {
    config: Arc<Config>,
    db: Db,
    http: reqwest::Client,
    /// The tokens as last read or written, for scrubbing errors.
    known: Mutex<Option<Tokens>>,
    /// Held while tokens are read, refreshed or exchanged.
    refreshing: tokio::sync::Mutex<()>,
}

/// An answer that was not a success.
enum CallError {
    Unauthorized(String),
    Other(String),
}

impl CallError {
    fn text(self) -> String {
        match self {
            CallError::Unauthorized(text) | CallError::Other(text) => text,
        }
    }
}

impl Client {
    pub fn new(config: Arc<Config>, db: Db, http: reqwest::Client) -> Client {
        Client {
            config,
            db,
            http,
            known: Mutex::new(None),
            refreshing: tokio::sync::Mutex::new(()),
        }
    }

    /// The access and refresh tokens known now (to scrub from errors).
    pub fn current_tokens(&self) -> Vec<String> {
        let known = self
            .known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        known
            .as_ref()
            .map(|t| vec![t.access_token.clone(), t.refresh_token.clone()])
            .unwrap_or_default()
    }

    fn remember(&self, tokens: &Tokens) {
        *self
            .known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tokens.clone());
    }

    fn domain(&self) -> String {
        self.config.amocrm.domain.trim().to_string()
    }

    /// The page the admin opens to authorise the integration.
    pub fn auth_url(&self) -> String {
        let state = hex::encode(rand::random::<[u8; 8]>());
        format!(
            "https://www.amocrm.ru/oauth?client_id={}&state={state}&mode=popup",
            url_encode(self.config.amocrm.client_id.trim())
        )
    }

    /// Whether tokens for the configured account are stored.
    pub async fn authorized(&self) -> AppResult<Option<DateTime<Utc>>> {
        let domain = self.domain();
        let tokens = self.db.call(|c| load_tokens(c)).await?;
        Ok(tokens.filter(|t| t.domain == domain).map(|t| t.expires_at))
    }

    async fn token_call(&self, grant: Value) -> Result<Tokens, String> {
        let amocrm = &self.config.amocrm;
        let mut body = json!({
            "client_id": amocrm.client_id.trim(),
            "client_secret": amocrm.client_secret.trim(),
            "redirect_uri": amocrm.redirect_uri.trim(),
        });
        if let (Some(body), Some(grant)) = (body.as_object_mut(), grant.as_object()) {
            body.extend(grant.clone());
        }
        let url = format!("{}/oauth2/access_token", amocrm.api_base());
        let response = self
            .http
            .post(url)
            .json(&body)
            .send()
            .await
            .map_err(|e| format!("amoCRM: {}", e.without_url()))?;
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        if !status.is_success() {
            return Err(format!(
                "amoCRM: HTTP {}: {}",
                status.as_u16(),
                short(&text)
            ));
        }
        let answer: TokenAnswer =
            serde_json::from_str(&text).map_err(|e| format!("amoCRM: ответ без токенов: {e}"))?;
        Ok(Tokens {
            access_token: answer.access_token,
            refresh_token: answer.refresh_token,
            expires_at: Utc::now() + chrono::Duration::seconds(answer.expires_in.max(0)),
            domain: self.domain(),
        })
    }

    /// Exchanges the code from the authorisation page for tokens and keeps
    /// them. The error is scrubbed of secrets.
    pub async fn exchange_code(&self, code: &str) -> Result<Tokens, String> {
        let _guard = self.refreshing.lock().await;
        let tokens = self
            .token_call(json!({"grant_type": "authorization_code", "code": code.trim()}))
            .await
            .map_err(|e| self.scrub(&e))?;
        let stored = tokens.clone();
        self.db
            .call(move |c| store_tokens(c, &stored))
            .await
            .map_err(|e| format!("База данных: {e}"))?;
        self.remember(&tokens);
        Ok(tokens)
    }

    /// A usable access token: the stored one, refreshed first when it
    /// expires soon or when `stale` (the one a 401 answered) is given.
    async fn access_token(&self, stale: Option<&str>) -> Result<String, String> {
        let _guard = self.refreshing.lock().await;
        let tokens = self
            .db
            .call(|c| load_tokens(c))
            .await
            .map_err(|e| format!("База данных: {e}"))?;
        let Some(tokens) = tokens.filter(|t| t.domain == self.domain()) else {
            return Err("amoCRM не авторизован: откройте /admin/amocrm".into());
        };
        self.remember(&tokens);
        let expiring = tokens.expires_at - REFRESH_AHEAD <= Utc::now();
        // Another call may have refreshed it since the 401.
        let rejected = stale.is_some_and(|s| s == tokens.access_token);
        if !expiring && !rejected {
            return Ok(tokens.access_token);
        }
        let fresh = self
            .token_call(json!({
                "grant_type": "refresh_token",
                "refresh_token": tokens.refresh_token,
            }))
            .await?;
        let stored = fresh.clone();
        self.db
            .call(move |c| store_tokens(c, &stored))
            .await
            .map_err(|e| format!("База данных: {e}"))?;
        self.remember(&fresh);
        tracing::info!("amoCRM tokens refreshed");
        Ok(fresh.access_token)
    }

    /// One API call with the access token; a 401 refreshes the token and
    /// tries once more.
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, String> {
        let mut token = self.access_token(None).await?;
        for round in 0..2 {
            match self.call_once(&method, path, body, &token).await {
                Ok(value) => return Ok(value),
                Err(CallError::Unauthorized(_)) if round == 0 => {
                    token = self.access_token(Some(&token)).await?;
                }
                Err(err) => return Err(err.text()),
            }
        }
        Err("amoCRM: HTTP 401".into())
    }

    async fn call_once(
        &self,
        method: &reqwest::Method,
        path: &str,
        body: Option<&Value>,
        token: &str,
    ) -> Result<Value, CallError> {
        let url = format!("{}{path}", self.config.amocrm.api_base());
        let mut request = self.http.request(method.clone(), url).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request
            .send()
            .await
            .map_err(|e| CallError::Other(format!("amoCRM: {}", e.without_url())))?;
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        if status == reqwest::StatusCode::UNAUTHORIZED {
            return Err(CallError::Unauthorized(format!(
                "amoCRM: HTTP 401: {}",
                short(&text)
            )));
        }
        if !status.is_success() {
            return Err(CallError::Other(format!(
                "amoCRM: HTTP {}: {}",
                status.as_u16(),
                short(&text)
            )));
        }
        if text.trim().is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(&text)
            .map_err(|e| CallError::Other(format!("amoCRM: ответ не JSON: {e}")))
    }

    /// Checks the connection: the account's data.
    pub async fn account(&self) -> Result<Value, String> {
        self.call(reqwest::Method::GET, "/api/v4/account", None)
            .await
            .map_err(|e| self.scrub(&e))
    }

    /// Creates the contact and the lead in one call; gives amoCRM's lead id.
    pub async fn push_lead(&self, lead: &Lead, context: &Context<'_>) -> Result<i64, String> {
        let body = complex_body(lead, context);
        let answer = self
            .call(reqwest::Method::POST, "/api/v4/leads/complex", Some(&body))
            .await
            .map_err(|e| self.scrub(&e))?;
        answer[0]["id"].as_i64().ok_or_else(|| {
            format!(
                "amoCRM: ответ без id сделки: {}",
                short(&answer.to_string())
            )
        })
    }

    fn scrub(&self, text: &str) -> String {
        let mut secrets = self.current_tokens();
        secrets.push(self.config.amocrm.client_secret.clone());
        super::scrub(text, &secrets)
    }
}

/// The `/api/v4/leads/complex` body: one lead with its contact.
pub fn complex_body(lead: &Lead, context: &Context) -> Value {
    let type_label = message::type_label(lead.lead_type);
    // What staff must see in the deal list: the test drive's day and time,
    // the calculator's term and down payment.
    let mut title = type_label.to_string();
    if let Some(date) = &lead.preferred_date {
        title.push_str(&format!(" {}", message::russian_date(date)));
    }
    if let Some(time) = &lead.preferred_time {
        title.push_str(&format!(" в {time} (МСК)"));
    }
    if let Some(term) = lead.term_months {
        title.push_str(&format!(", {term} мес."));
    }
    if let Some(down) = lead.down_payment {
        title.push_str(&format!(", взнос {}", message::rubles(down)));
    }
    let name = match &lead.car_info {
        Some(car) => format!("{title}: {car}"),
        None => format!("{title}: {}", lead.name),
    };
    let mut contact_fields = vec![json!({
        "field_code": "PHONE",
        "values": [{"value": lead.phone, "enum_code": "WORK"}],
    })];
    if let Some(email) = &lead.email {
        contact_fields.push(json!({
            "field_code": "EMAIL",
            "values": [{"value": email, "enum_code": "WORK"}],
        }));
    }
    let mut lead_fields = Vec::new();
    for (code, value) in [
        ("UTM_SOURCE", &lead.utm_source),
        ("UTM_MEDIUM", &lead.utm_medium),
        ("UTM_CAMPAIGN", &lead.utm_campaign),
        ("UTM_TERM", &lead.utm_term),
        ("UTM_CONTENT", &lead.utm_content),
        ("REFERRER", &lead.source_url),
    ] {
        if let Some(value) = value {
            lead_fields.push(json!({"field_code": code, "values": [{"value": value}]}));
        }
    }
    let mut tags = vec![json!({"name": "Сайт"}), json!({"name": type_label})];
    if let Some(slug) = context.car_slug {
        tags.push(json!({"name": slug}));
    }
    let mut body = json!({
        "name": name,
        "_embedded": {
            "contacts": [{
                "first_name": lead.name,
                "custom_fields_values": contact_fields,
            }],
            "tags": tags,
        },
    });
    if let Some(price) = price_rubles(lead) {
        body["price"] = json!(price);
    }
    if !lead_fields.is_empty() {
        body["custom_fields_values"] = Value::Array(lead_fields);
    }
    json!([body])
}

/// The deal's price in whole rubles: the car's price as shown, else the
/// credit amount, else the selection budget.
fn price_rubles(lead: &Lead) -> Option<i64> {
    let from_text = lead.car_price.as_deref().and_then(|text| {
        let whole = text.split([',', '.']).next().unwrap_or(text);
        let digits: String = whole.chars().filter(char::is_ascii_digit).collect();
        digits.parse::<i64>().ok()
    });
    from_text
        .or(lead.desired_amount.map(|m| m.rubles()))
        .or(lead.budget.map(|m| m.rubles()))
}

fn short(text: &str) -> String {
    text.chars().take(300).collect()
}

/// Percent-encodes a query value.
fn url_encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}
