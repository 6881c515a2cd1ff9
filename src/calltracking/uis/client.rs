//! UIS's APIs (`docs/calls-uis.md`): the Data API (JSON-RPC 2.0 at
//! `api_url`; `get.account` for the check, `get.calls_report` read page by
//! page for the poll) and the Call API (JSON-RPC 2.0 at `call_api_url`;
//! `start.simple_call` for the callback). Both take the API key as the
//! `access_token` parameter. HTTP 429 and 5xx are tried again (`send`);
//! a JSON-RPC error is read by its mnemonic: a key or address refused is
//! `Unauthorized`, a limit spent `Unavailable`, the rest `Answer` with
//! UIS's own words.

use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, Utc};
use serde_json::{Map, Value, json};

use super::values::{first, flag, inbound, link, moment, seconds, text};
use crate::clock::moscow;
use crate::config::UisConfig;
use crate::config_calls::api_base;
use crate::domain::calls::{Call, CallUtm};
use crate::domain::phone::e164;
use crate::marketplaces::{MarketError, Patience, send};

/// Rows asked for a page of the calls report.
pub const PAGE: usize = 1000;
/// The most pages one poll reads (a million calls): a report that never
/// ends is cut rather than read forever.
const PAGES_MAX: usize = 1000;
/// The longest piece of an answer quoted in an error.
const QUOTED: usize = 300;

/// The report's columns the site reads.
const FIELDS: [&str; 22] = [
    "id",
    "start_time",
    "finish_time",
    "direction",
    "is_lost",
    "contact_phone_number",
    "virtual_phone_number",
    "total_duration",
    "wait_duration",
    "talk_duration",
    "call_records",
    "communication_id",
    "communication_page_url",
    "campaign_name",
    "source",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "ua_client_id",
    "ym_client_id",
];

/// The Data API's and Call API's client.
pub struct Uis {
    data_url: String,
    call_url: String,
    /// Where the recordings are played: the account's site
    /// ("https://app.uiscom.ru" for dataapi.uiscom.ru).
    records_base: String,
    token: String,
    /// The virtual number the callback shows, digits only (7XXXXXXXXXX).
    virtual_number: Option<String>,
    http: reqwest::Client,
    patience: Patience,
    ids: AtomicU64,
}

impl Uis {
    pub fn new(
        config: &UisConfig,
        http: reqwest::Client,
        patience: Patience,
    ) -> Result<Uis, MarketError> {
        if config.token_file.as_os_str().is_empty() {
            return Err(MarketError::NotConfigured(
                "UIS: укажите uis.token_file — файл с ключом API".into(),
            ));
        }
        let token =
            crate::secret_file::read(&config.token_file, "uis.token_file", "the UIS API key")
                .map_err(|err| MarketError::Secret(format!("{err:#}")))?;
        let data_url = api_base(&config.api_url);
        Ok(Uis {
            records_base: records_base(&data_url),
            data_url,
            call_url: api_base(&config.call_api_url),
            token,
            virtual_number: e164(&config.virtual_number).map(|n| digits(&n)),
            http,
            patience,
            ids: AtomicU64::new(1),
        })
    }

    /// Checks the key with `get.account`: «Подключено: аккаунт 12345
    /// (Автосалон), Europe/Moscow; баллов Data API на сегодня: 9 000 из
    /// 10 000».
    pub async fn check(&self) -> Result<String, MarketError> {
        let result = self
            .rpc(
                &self.data_url,
                "get.account",
                json!({"access_token": self.token}),
            )
            .await?;
        let account = result
            .get("data")
            .and_then(|data| match data {
                Value::Array(rows) => rows.first(),
                object @ Value::Object(_) => Some(object),
                _ => None,
            })
            .and_then(Value::as_object)
            .ok_or_else(|| MarketError::Answer("UIS: в ответе get.account нет аккаунта".into()))?;
        let id = first(account, &["app_id", "id"])
            .and_then(text)
            .ok_or_else(|| MarketError::Answer("UIS: нет номера аккаунта (app_id)".into()))?;
        let mut line = format!("Подключено: аккаунт {id}");
        if let Some(name) = first(account, &["name"]).and_then(text) {
            line.push_str(&format!(" ({name})"));
        }
        if let Some(zone) = first(account, &["timezone"]).and_then(text) {
            line.push_str(&format!(", часовой пояс {zone}"));
        }
        if let Some((left, limit)) = day_points(&result) {
            line.push_str(&format!("; баллов Data API на сегодня: {left} из {limit}"));
        }
        if self.virtual_number.is_none() {
            line.push_str("; для обратного звонка укажите uis.virtual_number");
        }
        Ok(line)
    }

    /// Every call that began in [from, till), all pages read
    /// (`get.calls_report`, `offset` on until `metadata.total_items`).
    pub async fn calls_between(
        &self,
        from: DateTime<Utc>,
        till: DateTime<Utc>,
    ) -> Result<Vec<Call>, MarketError> {
        let stamp = |at: DateTime<Utc>| {
            at.with_timezone(&moscow())
                .format("%Y-%m-%d %H:%M:%S")
                .to_string()
        };
        let mut calls = Vec::new();
        let mut offset = 0usize;
        for _ in 0..PAGES_MAX {
            let result = self
                .rpc(
                    &self.data_url,
                    "get.calls_report",
                    json!({
                        "access_token": self.token,
                        "date_from": stamp(from),
                        "date_till": stamp(till),
                        "fields": FIELDS,
                        "limit": PAGE,
                        "offset": offset,
                    }),
                )
                .await?;
            let rows = result
                .get("data")
                .and_then(Value::as_array)
                .ok_or_else(|| MarketError::Answer("UIS: в отчёте по звонкам нет data".into()))?;
            let total = result
                .pointer("/metadata/total_items")
                .and_then(|v| seconds(v).ok())
                .map(|n| n as usize);
            for row in rows {
                if let Some(call) = row.as_object().and_then(|row| self.call_of(row))
                    && call.at < till
                {
                    calls.push(call);
                }
            }
            offset += rows.len();
            let more = match total {
                Some(total) => offset < total,
                None => rows.len() >= PAGE,
            };
            if rows.is_empty() || !more {
                return Ok(calls);
            }
        }
        Err(MarketError::Answer(format!(
            "UIS: отчёт по звонкам длиннее {} страниц",
            PAGES_MAX
        )))
    }

    /// Asks the PBX to ring `operator` (E.164), then `visitor` (E.164)
    /// (`start.simple_call`, the operator first, joined at once, the
    /// virtual number shown to both); gives the call session's id.
    pub async fn callback(&self, operator: &str, visitor: &str) -> Result<String, MarketError> {
        let virtual_number = self.virtual_number.clone().ok_or_else(|| {
            MarketError::NotConfigured(
                "UIS: укажите uis.virtual_number — виртуальный номер, с которого АТС звонит".into(),
            )
        })?;
        let result = self
            .rpc(
                &self.call_url,
                "start.simple_call",
                json!({
                    "access_token": self.token,
                    "first_call": "operator",
                    "switch_at_once": true,
                    "show_virtual_phone_number": true,
                    "virtual_phone_number": virtual_number,
                    "operator": digits(operator),
                    "contact": digits(visitor),
                }),
            )
            .await?;
        result
            .pointer("/data/call_session_id")
            .and_then(text)
            .ok_or_else(|| MarketError::Answer("UIS: нет call_session_id в ответе".into()))
    }

    /// A row of the calls report as a call; None for an outgoing call or a
    /// row without its id or start.
    fn call_of(&self, row: &Map<String, Value>) -> Option<Call> {
        if first(row, &["direction"]).and_then(inbound) == Some(false) {
            return None;
        }
        let call_id = first(row, &["id"]).and_then(text)?;
        let at = first(row, &["start_time"]).and_then(|v| moment(v).ok())?;
        let secs = |key: &str| first(row, &[key]).and_then(|v| seconds(v).ok());
        let talk = secs("talk_duration").unwrap_or(0);
        let answered = match first(row, &["is_lost"]).and_then(|v| flag(v).ok()) {
            Some(lost) => !lost,
            None => talk > 0,
        };
        let record_url = first(row, &["call_records"]).and_then(|records| {
            link(records).or_else(|| {
                let hash = text(records)?;
                let session = first(row, &["communication_id"])
                    .and_then(text)
                    .unwrap_or_else(|| call_id.clone());
                let safe = |t: &str| t.chars().all(|c| c.is_ascii_alphanumeric());
                (safe(&hash) && safe(&session))
                    .then(|| format!("{}/system/media/talk/{session}/{hash}/", self.records_base))
            })
        });
        let utm = |key: &str| first(row, &[key]).and_then(text);
        Some(Call {
            call_id,
            caller: first(row, &["contact_phone_number"])
                .and_then(text)
                .and_then(|n| e164(&n)),
            called: first(row, &["virtual_phone_number"])
                .and_then(text)
                .and_then(|n| e164(&n)),
            at,
            duration_seconds: secs("total_duration").unwrap_or(0),
            talk_seconds: talk,
            wait_seconds: secs("wait_duration").unwrap_or(0),
            answered,
            record_url,
            source: first(row, &["campaign_name", "source"]).and_then(text),
            utm: CallUtm {
                source: utm("utm_source"),
                medium: utm("utm_medium"),
                campaign: utm("utm_campaign"),
                term: utm("utm_term"),
                content: utm("utm_content"),
            },
            client_id: first(row, &["ym_client_id", "ua_client_id"]).and_then(text),
            page_url: first(row, &["communication_page_url"]).and_then(link),
            ..Call::default()
        })
    }

    /// One JSON-RPC call: its `result`, or the error read.
    async fn rpc(&self, url: &str, method: &str, params: Value) -> Result<Value, MarketError> {
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let answer = send(|| self.http.post(url).json(&body), &self.patience).await?;
        let status = answer.status();
        let bytes = answer
            .bytes()
            .await
            .map_err(|err| MarketError::Unavailable(format!("UIS: {}", err.without_url())))?;
        let quoted = || {
            String::from_utf8_lossy(&bytes)
                .chars()
                .take(QUOTED)
                .collect::<String>()
        };
        if status.as_u16() == 401 || status.as_u16() == 403 {
            return Err(MarketError::Unauthorized {
                status: status.as_u16(),
                message: quoted(),
            });
        }
        let parsed: Option<Value> = serde_json::from_slice(&bytes).ok();
        let Some(Value::Object(mut parsed)) = parsed else {
            return Err(MarketError::Answer(format!(
                "UIS ({method}): HTTP {}: {}",
                status.as_u16(),
                quoted()
            )));
        };
        if let Some(error) = parsed.remove("error").filter(|e| !e.is_null()) {
            return Err(refusal(method, &error));
        }
        if !status.is_success() {
            return Err(MarketError::Answer(format!(
                "UIS ({method}): HTTP {}: {}",
                status.as_u16(),
                quoted()
            )));
        }
        parsed
            .remove("result")
            .filter(Value::is_object)
            .ok_or_else(|| MarketError::Answer(format!("UIS ({method}): в ответе нет result")))
    }
}

/// A JSON-RPC error as the site tells it.
fn refusal(method: &str, error: &Value) -> MarketError {
    let message = error.get("message").and_then(text).unwrap_or_default();
    let mnemonic = error
        .pointer("/data/mnemonic")
        .and_then(text)
        .unwrap_or_default();
    let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
    let words = match (message.is_empty(), mnemonic.is_empty()) {
        (false, false) => format!("{message} ({mnemonic})"),
        (false, true) => message.clone(),
        (true, false) => mnemonic.clone(),
        (true, true) => format!("ошибка {code}"),
    };
    let key_refused = mnemonic.starts_with("access_token")
        || mnemonic.contains("invalid_access_token")
        || mnemonic == "auth_error"
        || code == -32001;
    let address_refused = matches!(
        mnemonic.as_str(),
        "ip_not_whitelisted" | "forbidden" | "account_inactive" | "component_disabled"
    ) || code == -32003;
    if key_refused {
        MarketError::Unauthorized {
            status: 401,
            message: format!("UIS: {words}"),
        }
    } else if address_refused {
        MarketError::Unauthorized {
            status: 403,
            message: format!("UIS: {words}"),
        }
    } else if mnemonic == "limit_exceeded" || code == -32029 {
        MarketError::Unavailable(format!("UIS: исчерпан лимит запросов: {words}"))
    } else if mnemonic == "internal_error" || code == -32603 {
        MarketError::Unavailable(format!("UIS: {words}"))
    } else {
        MarketError::Answer(format!("UIS ({method}): {words}"))
    }
}

/// The points left of the day's limit and the limit (`metadata.limits`).
fn day_points(result: &Value) -> Option<(u64, u64)> {
    let limits = result.pointer("/metadata/limits")?;
    let left = limits.get("day_remaining")?.as_u64()?;
    let limit = limits.get("day_limit")?.as_u64()?;
    Some((left, limit))
}

/// A number's digits (UIS takes E.164 without the '+').
fn digits(number: &str) -> String {
    number.chars().filter(char::is_ascii_digit).collect()
}

/// The recordings' site of a Data API address: "https://app.uiscom.ru"
/// for "https://dataapi.uiscom.ru/v2.0", "https://app.comagic.ru" for
/// CoMagic's; UIS's otherwise (a test's fake).
fn records_base(data_url: &str) -> String {
    let Some((scheme, rest)) = data_url.split_once("://") else {
        return "https://app.uiscom.ru".into();
    };
    let host = rest.split('/').next().unwrap_or("");
    match host.strip_prefix("dataapi.") {
        Some(domain) if !domain.is_empty() => format!("{scheme}://app.{domain}"),
        _ => "https://app.uiscom.ru".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recordings_play_on_the_accounts_site() {
        assert_eq!(
            records_base("https://dataapi.uiscom.ru/v2.0"),
            "https://app.uiscom.ru"
        );
        assert_eq!(
            records_base("https://dataapi.comagic.ru/v2.0"),
            "https://app.comagic.ru"
        );
        assert_eq!(
            records_base("http://127.0.0.1:4000/data"),
            "https://app.uiscom.ru"
        );
    }

    #[test]
    fn errors_are_read_by_their_mnemonic() {
        let error = |code: i64, mnemonic: &str| json!({"code": code, "message": "m", "data": {"mnemonic": mnemonic}});
        assert!(matches!(
            refusal("get.account", &error(-32001, "access_token_invalid")),
            MarketError::Unauthorized { status: 401, .. }
        ));
        assert!(matches!(
            refusal("get.account", &error(-32003, "ip_not_whitelisted")),
            MarketError::Unauthorized { status: 403, .. }
        ));
        assert!(matches!(
            refusal("get.calls_report", &error(-32029, "limit_exceeded")),
            MarketError::Unavailable(_)
        ));
        assert!(matches!(
            refusal(
                "start.simple_call",
                &error(-32007, "virtual_phone_number_not_found")
            ),
            MarketError::Answer(_)
        ));
    }
}
