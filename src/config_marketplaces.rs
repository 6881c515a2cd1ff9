//! The marketplaces' APIs (`[avito]`, `[autoru]` in `dealership.toml`): what
//! the site calls to hear back from Avito and Auto.ru about the cars its
//! feeds publish (`docs/marketplaces.md`). Each is off until its keys are
//! set; secrets live in files of mode 600 (`crate::secret_file`), never in
//! the configuration.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Avito API for business (`docs/avito.md`): an OAuth2 client of the
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

/// Auto.ru's dealer API (`docs/autoru.md`): the `x-authorization` token the
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
