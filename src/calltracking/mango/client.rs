//! The VPBX API's client (Mango Office VPBX API v1.9): every request is a
//! form POST to `{api_url}/{method}` with `vpbx_api_key`, `sign` and
//! `json`; a command answers `{"result": code}`, 1000 being success. The
//! check lists the PBX's employees (`config/users/request`); the callback
//! is `commands/callback`: the PBX rings the employee first, then the
//! visitor.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use super::keys::MangoKeys;
use crate::config::MangoConfig;
use crate::config_calls::api_base;
use crate::domain::phone::e164;
use crate::marketplaces::{MarketError, Patience, send};

/// The success of a command.
pub const DONE: i64 = 1000;

/// The longest piece of an answer quoted in an error.
const QUOTED: usize = 300;

/// The longest extension taken as one (Mango's are a few digits); a longer
/// run of digits is a phone number.
const EXTENSION_MAX: usize = 7;

/// Commands sent by this process, for unique command ids.
static SENT: AtomicU64 = AtomicU64::new(0);

/// The VPBX API's client.
pub struct Mango {
    keys: MangoKeys,
    base: String,
    line_number: String,
    default_extension: String,
    http: reqwest::Client,
    patience: Patience,
}

impl Mango {
    /// A client for `config`, its key and salt read from their files (mode
    /// 600); NotConfigured while `mango.api_key_file` is empty.
    pub fn new(
        config: &MangoConfig,
        http: reqwest::Client,
        patience: Patience,
    ) -> Result<Mango, MarketError> {
        if config.api_key_file.as_os_str().is_empty() {
            return Err(MarketError::NotConfigured(
                "Mango Office: укажите mango.api_key_file и mango.api_salt_file".into(),
            ));
        }
        if config.api_salt_file.as_os_str().is_empty() {
            return Err(MarketError::Secret(
                "mango.api_salt_file is not set: the events' signatures cannot be checked \
                 without the PBX's salt"
                    .into(),
            ));
        }
        let read = |path: &std::path::Path, key: &str, holds: &str| {
            crate::secret_file::read(path, key, holds)
                .map_err(|err| MarketError::Secret(format!("{err:#}")))
        };
        let api_key = read(
            &config.api_key_file,
            "mango.api_key_file",
            "the Mango Office PBX's API key",
        )?;
        let api_salt = read(
            &config.api_salt_file,
            "mango.api_salt_file",
            "the Mango Office PBX's signature salt",
        )?;
        Ok(Mango {
            keys: MangoKeys { api_key, api_salt },
            base: api_base(&config.api_url),
            line_number: digits(&config.line_number),
            default_extension: config.default_extension.trim().to_string(),
            http,
            patience,
        })
    }

    pub fn keys(&self) -> &MangoKeys {
        &self.keys
    }

    /// Checks the keys with one light call: the PBX's employees listed.
    pub async fn check(&self) -> Result<String, MarketError> {
        let answer = self.call("config/users/request", &json!({})).await?;
        let Some(users) = answer.get("users").and_then(Value::as_array) else {
            return Err(refusal(&answer));
        };
        let mut line = format!("Подключено: сотрудников в АТС: {}", users.len());
        if !self.default_extension.is_empty() {
            let known = users.iter().any(|user| {
                user.pointer("/telephony/extension")
                    .and_then(|ext| match ext {
                        Value::String(s) => Some(s.trim().to_string()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .is_some_and(|ext| ext == self.default_extension)
            });
            if !known {
                line.push_str(&format!(
                    "; добавочного {} нет среди сотрудников: проверьте mango.default_extension",
                    self.default_extension
                ));
            }
        }
        Ok(line)
    }

    /// Asks the PBX to ring `from` (an extension, or a number in E.164),
    /// then `to_number` (E.164); gives the command's id.
    pub async fn callback(&self, from: &str, to_number: &str) -> Result<String, MarketError> {
        let to = e164(to_number).ok_or_else(|| {
            MarketError::Answer(format!(
                "номер посетителя «{to_number}» не похож на телефон"
            ))
        })?;
        let from = self.caller(from)?;
        let command_id = format!(
            "dealership-{}-{}",
            chrono::Utc::now().timestamp_millis(),
            SENT.fetch_add(1, Ordering::Relaxed)
        );
        let mut command = json!({
            "command_id": command_id,
            "from": from,
            "to_number": digits(&to),
        });
        if !self.line_number.is_empty() {
            command["line_number"] = json!(self.line_number);
        }
        let answer = self.call("commands/callback", &command).await?;
        match answer.get("result").and_then(code) {
            Some(DONE) => Ok(command_id),
            _ => Err(refusal(&answer)),
        }
    }

    /// Who is rung first: an extension as `{"extension"}`; a phone number as
    /// `{"number"}` (without '+'), on behalf of the default extension when
    /// one is set.
    fn caller(&self, from: &str) -> Result<Value, MarketError> {
        let from = from.trim();
        if !from.is_empty()
            && from.len() <= EXTENSION_MAX
            && from.bytes().all(|b| b.is_ascii_digit())
        {
            return Ok(json!({ "extension": from }));
        }
        let number = e164(from).ok_or_else(|| {
            MarketError::Answer(format!(
                "номер менеджера в АТС «{from}» — ни добавочный, ни телефон"
            ))
        })?;
        let mut caller = json!({ "number": digits(&number) });
        if !self.default_extension.is_empty() {
            caller["extension"] = json!(self.default_extension);
        }
        Ok(caller)
    }

    /// POSTs `json` signed to `method`; 429 and 5xx retried. The answer's
    /// JSON, whatever its result code.
    async fn call(&self, method: &str, json: &Value) -> Result<Value, MarketError> {
        let json = json.to_string();
        let url = format!("{}/{method}", self.base);
        let form = self.keys.form(&json);
        let answer = send(
            || {
                self.http
                    .post(&url)
                    .header(
                        reqwest::header::CONTENT_TYPE,
                        "application/x-www-form-urlencoded",
                    )
                    .body(form.clone())
            },
            &self.patience,
        )
        .await?;
        let status = answer.status();
        let text = answer
            .text()
            .await
            .map_err(|err| MarketError::Unavailable(err.without_url().to_string()))?;
        let quoted: String = text.chars().take(QUOTED).collect();
        if status.as_u16() == 401 || status.as_u16() == 403 {
            let message = serde_json::from_str::<Value>(&text)
                .ok()
                .map(|answer| refusal(&answer).to_string())
                .unwrap_or(quoted);
            return Err(MarketError::Unauthorized {
                status: status.as_u16(),
                message,
            });
        }
        let parsed = serde_json::from_str::<Value>(&text);
        if !status.is_success() {
            return Err(match parsed {
                Ok(answer) if answer.get("result").is_some() => refusal(&answer),
                _ => MarketError::Answer(format!("HTTP {}: {quoted}", status.as_u16())),
            });
        }
        match parsed {
            Ok(answer @ Value::Object(_)) => match answer.get("result").and_then(code) {
                Some(code) if code != DONE => Err(refusal(&answer)),
                _ => Ok(answer),
            },
            _ => Err(MarketError::Answer(format!("не JSON: {quoted}"))),
        }
    }
}

/// The digits of a number (Mango's numbers carry no '+').
fn digits(number: &str) -> String {
    number.chars().filter(char::is_ascii_digit).collect()
}

/// A result code given as a number or its digits.
fn code(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// An answer whose result is not 1000, as an error with the code and its
/// meaning: a refused key or signature is Unauthorized, the PBX's own
/// trouble (5xxx) Unavailable, anything else Answer.
fn refusal(answer: &Value) -> MarketError {
    let Some(result) = answer.get("result").and_then(code) else {
        let quoted: String = answer.to_string().chars().take(QUOTED).collect();
        return MarketError::Answer(format!("нет кода результата: {quoted}"));
    };
    let words = format!("код {result}: {}", meaning(result));
    match result {
        3102 | 3105 => MarketError::Unauthorized {
            status: 200,
            message: words,
        },
        5000..=5999 => MarketError::Unavailable(words),
        _ => MarketError::Answer(words),
    }
}

/// What a result code means (Mango Office VPBX API, the result codes'
/// table), for the codes a callback or a check can meet.
pub fn meaning(code: i64) -> &'static str {
    match code {
        1000 => "действие успешно выполнено",
        2000 => "ограничение биллинговой системы",
        2100 => "доступ к счёту невозможен",
        2110 => "счёт заблокирован",
        2120 => "счёт закрыт",
        2130 => "счёт не обслуживается",
        2140 => "счёт недействителен",
        2200 => "доступ к счёту ограничен",
        2210 => "доступ ограничен периодом использования",
        2211 => "достигнут дневной лимит использования услуги",
        2212 => "достигнут месячный лимит использования услуги",
        2220 => "количество одновременных вызовов ограничено",
        2230 => "услуга недоступна",
        2240 => "недостаточно средств на счёте",
        2300 => "направление заблокировано",
        2400 => "ошибка биллинга",
        3000 => "неверный запрос",
        3100 => "переданы неверные параметры команды",
        3101 => "запрос выполнен методом, отличным от POST",
        3102 => "подпись (sign) не совпадает с рассчитанной: проверьте ключ и соль",
        3103 => "в запросе нет обязательного параметра",
        3104 => "параметр передан в неправильном формате",
        3105 => "неверный ключ доступа (vpbx_api_key)",
        3200 => "неверно указан номер абонента",
        3300 => "объект не существует",
        3310 => "вызов не найден",
        3330 => "номер не найден у ВАТС или сотрудника",
        4000 => "действие не может быть выполнено",
        4001 => "команда не поддерживается",
        4100 => "выполнить команду по логике работы ВАТС невозможно",
        4200 => "связаться с абонентом в данный момент невозможно",
        4500 => "ограничения системы безопасности",
        4501 => "установлено ограничение частоты звонков",
        5000 => "ошибка сервера",
        5001 => "перегрузка",
        5002 => "перезапуск",
        5003 => "технические проблемы",
        5004 => "проблемы доступа к базе данных",
        _ => "неизвестный код (см. таблицу кодов в документации API ВАТС)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_its_code_and_meaning() {
        let err = refusal(&json!({"result": 3330}));
        assert!(matches!(err, MarketError::Answer(_)));
        assert!(err.to_string().contains("код 3330: номер не найден"));
        assert!(matches!(
            refusal(&json!({"result": "3102"})),
            MarketError::Unauthorized { .. }
        ));
        assert!(matches!(
            refusal(&json!({"result": 5001})),
            MarketError::Unavailable(_)
        ));
        assert!(refusal(&json!({})).to_string().contains("нет кода"));
    }
}
