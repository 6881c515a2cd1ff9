//! Telegram: the Bot API's `sendMessage` to the configured chat.

use serde_json::json;

use crate::config::TelegramConfig;

/// Sends `text` (Telegram's HTML subset) to the chat. The error never
/// holds the bot token (it is part of the URL).
pub async fn send(
    client: &reqwest::Client,
    config: &TelegramConfig,
    text: &str,
) -> Result<i64, String> {
    let url = format!(
        "{}/bot{}/sendMessage",
        config.api_url.trim_end_matches('/'),
        config.bot_token.trim()
    );
    let body = json!({
        "chat_id": config.chat_id.trim(),
        "text": text,
        "parse_mode": "HTML",
        "disable_web_page_preview": true,
    });
    let response = client
        .post(url)
        .json(&body)
        .send()
        .await
        .map_err(|e| format!("Telegram: {}", e.without_url()))?;
    let status = response.status();
    let answer: serde_json::Value = response
        .json()
        .await
        .map_err(|e| format!("Telegram: HTTP {status}: {}", e.without_url()))?;
    if status.is_success() && answer["ok"] == true {
        Ok(answer["result"]["message_id"].as_i64().unwrap_or_default())
    } else {
        let description = answer["description"].as_str().unwrap_or("нет описания");
        Err(format!("Telegram: HTTP {}: {description}", status.as_u16()))
    }
}

/// The Telegram chat a lead goes to: its salon's (as announced, see
/// `salons::for_announcing`), else `[telegram] chat_id`.
pub fn telegram_chat(
    config: &crate::config::Config,
    settings: &crate::domain::settings::Settings,
) -> String {
    let own = settings.telegram_chat_id.trim();
    if own.is_empty() {
        config.telegram.chat_id.trim().to_string()
    } else {
        own.to_string()
    }
}

/// `[telegram]` with the chat of the lead's salon.
pub fn telegram_for(
    config: &crate::config::Config,
    settings: &crate::domain::settings::Settings,
) -> TelegramConfig {
    let mut telegram = config.telegram.clone();
    telegram.chat_id = telegram_chat(config, settings);
    telegram
}
