//! The call-tracking services and PBXs (`[calltouch]`, `[uis]`, `[mango]`
//! and `[call_tracking]` in `dealership.toml`; `docs/calls.md`). Each is off
//! until its keys are set; each has its base address in `api_url`, so tests
//! reach a fake. Secrets (API tokens, the webhook's secret) live in files of
//! mode 600 (`crate::secret_file`), never in the configuration.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Where a provider posts calls to the site: `/hooks/calls/{provider}/{secret}`,
/// the secret read from its `hook_secret_file`, and who may post (its
/// `allow_from`, addresses or networks; empty: anyone who knows the secret).
#[derive(Debug, Clone, Copy)]
pub struct HookConfig<'a> {
    pub hook_secret_file: &'a std::path::Path,
    pub allow_from: &'a [String],
}

/// Calltouch (`docs/calls.md, "Calltouch"`): its webhook of calls and its
/// calls journal API, polled to catch what a webhook missed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct CalltouchConfig {
    /// The API's address; tests point it at a local fake.
    pub api_url: String,
    /// The site's id in Calltouch (`siteId`); empty: the journal is not polled.
    pub site_id: String,
    /// A file (mode 600) holding the API token (`clientApiId`).
    pub token_file: PathBuf,
    /// A file (mode 600) holding the secret of the webhook's address (at
    /// least 16 characters); empty: the webhook is off.
    pub hook_secret_file: PathBuf,
    /// Addresses or networks the webhook is taken from; empty: any.
    pub allow_from: Vec<String>,
}

impl Default for CalltouchConfig {
    fn default() -> Self {
        Self {
            api_url: "https://api.calltouch.ru".into(),
            site_id: String::new(),
            token_file: PathBuf::new(),
            hook_secret_file: PathBuf::new(),
            allow_from: Vec::new(),
        }
    }
}

/// UIS / CoMagic (`docs/calls.md, "UIS"`): its notification of a finished
/// call, the Data API's calls report, and the Call API's callback.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct UisConfig {
    /// The Data API's address (JSON-RPC 2.0); tests point it at a fake.
    pub api_url: String,
    /// The Call API's address (`start.simple_call`).
    pub call_api_url: String,
    /// A file (mode 600) holding the API key (`access_token`); empty: the
    /// report is not polled and no callback is made.
    pub token_file: PathBuf,
    /// The number the callback calls from and shows to both ends (a virtual
    /// number of the account, E.164); required for the callback, as
    /// `start.simple_call` needs one.
    pub virtual_number: String,
    /// The number rung first when the lead's manager has no PBX number.
    pub operator_number: String,
    /// A file (mode 600) holding the secret of the webhook's address (at
    /// least 16 characters); empty: the webhook is off.
    pub hook_secret_file: PathBuf,
    /// Addresses or networks the webhook is taken from; empty: any.
    pub allow_from: Vec<String>,
}

impl Default for UisConfig {
    fn default() -> Self {
        Self {
            api_url: "https://dataapi.uiscom.ru/v2.0".into(),
            call_api_url: "https://callapi.uiscom.ru/v4.0".into(),
            token_file: PathBuf::new(),
            virtual_number: String::new(),
            operator_number: String::new(),
            hook_secret_file: PathBuf::new(),
            allow_from: Vec::new(),
        }
    }
}

/// Mango Office's virtual PBX (`docs/calls.md, "Mango Office"`): its events
/// (signed), and its callback command.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct MangoConfig {
    /// The VPBX API's address; tests point it at a local fake.
    pub api_url: String,
    /// A file (mode 600) holding the API key (`vpbx_api_key`, the unique
    /// code of the PBX); empty: Mango is off.
    pub api_key_file: PathBuf,
    /// A file (mode 600) holding the signature's salt (the key for the
    /// signature).
    pub api_salt_file: PathBuf,
    /// The number the callback calls out from (`line_number`); empty: the
    /// PBX's default line.
    pub line_number: String,
    /// The extension rung first when the lead's manager has no PBX number.
    pub default_extension: String,
    /// A file (mode 600) holding the secret of the webhook's address (at
    /// least 16 characters); empty: the webhook is off.
    pub hook_secret_file: PathBuf,
    /// Addresses or networks the webhook is taken from; empty: any.
    pub allow_from: Vec<String>,
}

impl Default for MangoConfig {
    fn default() -> Self {
        Self {
            api_url: "https://app.mango-office.ru/vpbx".into(),
            api_key_file: PathBuf::new(),
            api_salt_file: PathBuf::new(),
            line_number: String::new(),
            default_extension: String::new(),
            hook_secret_file: PathBuf::new(),
            allow_from: Vec::new(),
        }
    }
}

/// What the site says about its call tracking (`docs/calls.md`, "The law").
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct CallTrackingConfig {
    /// The service named in the policy as a processor ("ООО «…», ИНН …");
    /// empty: the configured provider's name.
    pub processor: String,
    /// The CSS class of the element every shown salon phone is drawn in,
    /// which the vendor's script finds to substitute its number (Calltouch
    /// `call_phone_1`, UIS/CoMagic the class of its site block); empty: the
    /// elements carry only the site's own classes.
    pub phone_class: String,
    /// The vendor's number-substitution script (https), loaded on public
    /// pages only after the visitor accepted the counters; empty: none.
    pub script_url: String,
}

impl CallTrackingConfig {
    /// `phone_class` is one CSS class name; `script_url` an https address
    /// (plain http only on this machine, for tests).
    pub fn validate(&self) -> Result<(), String> {
        let class = self.phone_class.trim();
        let class_ok = class.len() <= 64
            && class
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !class.starts_with(|c: char| c.is_ascii_digit());
        if !class_ok {
            return Err(format!(
                "call_tracking.phone_class: one CSS class name (letters, digits, - and _, \
                 not starting with a digit, at most 64), got {:?}",
                self.phone_class
            ));
        }
        if !self.script_url.trim().is_empty() && self.script_origin().is_none() {
            return Err(format!(
                "call_tracking.script_url: an https:// address of the vendor's script, got {:?}",
                self.script_url
            ));
        }
        Ok(())
    }

    /// The script's scheme and host (with a port when given), when it is a
    /// well-formed https address, or http on the loopback.
    fn script_origin(&self) -> Option<(String, String)> {
        let url = reqwest::Url::parse(self.script_url.trim()).ok()?;
        let host = url.host_str()?.to_ascii_lowercase();
        let loopback = matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]");
        let printable = self
            .script_url
            .trim()
            .chars()
            .all(|c| c.is_ascii_graphic() && !matches!(c, '"' | '\'' | '<' | '>' | ';'));
        let scheme_ok = url.scheme() == "https" || (url.scheme() == "http" && loopback);
        if !printable || !scheme_ok || !url.username().is_empty() {
            return None;
        }
        let host = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host,
        };
        Some((url.scheme().to_string(), host))
    }

    /// The sources the Content-Security-Policy adds for the vendor's script
    /// and what it loads: its host's domain and every subdomain of it
    /// (`mod.calltouch.ru` gives `https://calltouch.ru https://*.calltouch.ru`
    /// and the same over `wss:`); the exact origin for an address or a port.
    pub fn script_sources(&self) -> Option<String> {
        if self.script_url.trim().is_empty() {
            return None;
        }
        let (scheme, host) = self.script_origin()?;
        let named = !host.contains(':') && host.parse::<std::net::IpAddr>().is_err();
        let labels: Vec<&str> = host.split('.').collect();
        if !named || labels.len() < 2 {
            return Some(format!("{scheme}://{host}"));
        }
        let domain = labels[labels.len() - 2..].join(".");
        Some(format!(
            "https://{domain} https://*.{domain} wss://{domain} wss://*.{domain}"
        ))
    }
}

/// The base of every call, without a trailing slash.
pub fn api_base(url: &str) -> String {
    url.trim().trim_end_matches('/').to_string()
}

macro_rules! hook_of {
    ($($config:ty),*) => {$(
        impl $config {
            /// Where the provider posts its calls.
            pub fn hook(&self) -> HookConfig<'_> {
                HookConfig {
                    hook_secret_file: &self.hook_secret_file,
                    allow_from: &self.allow_from,
                }
            }
        }
    )*};
}
hook_of!(CalltouchConfig, UisConfig, MangoConfig);

impl CalltouchConfig {
    /// Its webhook or its journal is set up.
    pub fn is_configured(&self) -> bool {
        !self.hook_secret_file.as_os_str().is_empty()
            || (!self.site_id.trim().is_empty() && !self.token_file.as_os_str().is_empty())
    }
}

impl UisConfig {
    /// Its notification or its API is set up.
    pub fn is_configured(&self) -> bool {
        !self.hook_secret_file.as_os_str().is_empty() || !self.token_file.as_os_str().is_empty()
    }
}

impl MangoConfig {
    /// Its events or its API is set up.
    pub fn is_configured(&self) -> bool {
        !self.hook_secret_file.as_os_str().is_empty() || !self.api_key_file.as_os_str().is_empty()
    }
}
