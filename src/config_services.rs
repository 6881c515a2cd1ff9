//! The outside services the site calls (`[telegram]`, `[amocrm]`, `[avito]`,
//! `[autoru]` in `dealership.toml`): lead notifications to Telegram and
//! amoCRM (`docs/notifications.md`), and the marketplaces' APIs, which tell
//! the site about the cars its feeds publish (`docs/marketplaces.md`). Each
//! is off until its keys are set; each has its base address in `api_url`,
//! so tests reach a fake. The marketplaces' secrets live in files of mode
//! 600 (`crate::secret_file`), never in the configuration.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Avito API for business (`docs/marketplaces.md, "Avito"`): an OAuth2 client of the
/// dealer's account ("Для бизнеса → Интеграции → API").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AvitoConfig {
    /// The API's address; tests point it at a local fake.
    pub api_url: String,
    /// The client's id from the account's API page; empty: Avito is off.
    pub client_id: String,
    /// A file (mode 600) holding the client's secret.
    pub client_secret_file: PathBuf,
    /// The account's number (`user_id` in the API's paths); empty: asked
    /// of the API (`GET /core/v1/accounts/self`) once a token is had.
    pub user_id: String,
}

impl Default for AvitoConfig {
    fn default() -> Self {
        Self {
            api_url: "https://api.avito.ru".into(),
            client_id: String::new(),
            client_secret_file: PathBuf::new(),
            user_id: String::new(),
        }
    }
}

impl AvitoConfig {
    pub fn is_configured(&self) -> bool {
        !self.client_id.trim().is_empty() && !self.client_secret_file.as_os_str().is_empty()
    }

    /// The base of every call, without a trailing slash.
    pub fn api_base(&self) -> String {
        self.api_url.trim().trim_end_matches('/').to_string()
    }
}

/// Auto.ru's dealer API (`docs/marketplaces.md, "Auto.ru"`): the `x-authorization` token the
/// dealer's Auto.ru manager issues, and the dealer cabinet's login for the
/// session (`x-session-id`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AutoruConfig {
    /// The API's address with its version; tests point it at a local fake.
    pub api_url: String,
    /// A file (mode 600) holding the `x-authorization` token; empty: Auto.ru is off.
    pub api_key_file: PathBuf,
    /// The dealer cabinet's login (e-mail).
    pub login: String,
    /// A file (mode 600) holding the cabinet's password.
    pub password_file: PathBuf,
    /// `x-dealer-id`, when one login acts for several dealer clients; empty: none.
    pub dealer_id: String,
}

impl Default for AutoruConfig {
    fn default() -> Self {
        Self {
            api_url: "https://apiauto.ru/1.0".into(),
            api_key_file: PathBuf::new(),
            login: String::new(),
            password_file: PathBuf::new(),
            dealer_id: String::new(),
        }
    }
}

impl AutoruConfig {
    pub fn is_configured(&self) -> bool {
        !self.api_key_file.as_os_str().is_empty()
            && !self.login.trim().is_empty()
            && !self.password_file.as_os_str().is_empty()
    }

    /// The base of every call, without a trailing slash.
    pub fn api_base(&self) -> String {
        self.api_url.trim().trim_end_matches('/').to_string()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelegramConfig {
    /// The bot's token from @BotFather; empty: no Telegram messages.
    pub bot_token: String,
    /// The chat (or channel, group) the bot writes to.
    pub chat_id: String,
    /// The Bot API's address (changed only for tests or a local Bot API server).
    pub api_url: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct AmoCrmConfig {
    /// The account's domain, e.g. "mysalon.amocrm.ru".
    pub domain: String,
    pub client_id: String,
    pub client_secret: String,
    pub redirect_uri: String,
    /// Where the account's API is called; empty: https://{domain}. Tests
    /// point it at a local fake.
    pub api_url: String,
}

impl TelegramConfig {
    pub fn is_configured(&self) -> bool {
        !self.bot_token.trim().is_empty() && !self.chat_id.trim().is_empty()
    }
}

impl AmoCrmConfig {
    pub fn is_configured(&self) -> bool {
        !self.domain.trim().is_empty()
            && !self.client_id.trim().is_empty()
            && !self.client_secret.trim().is_empty()
            && !self.redirect_uri.trim().is_empty()
    }

    /// The base of the account's API calls, without a trailing slash.
    pub fn api_base(&self) -> String {
        if self.api_url.trim().is_empty() {
            format!("https://{}", self.domain.trim().trim_end_matches('/'))
        } else {
            self.api_url.trim().trim_end_matches('/').to_string()
        }
    }
}

impl Default for TelegramConfig {
    fn default() -> Self {
        Self {
            bot_token: String::new(),
            chat_id: String::new(),
            api_url: "https://api.telegram.org".into(),
        }
    }
}
