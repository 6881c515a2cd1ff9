//! Deployment configuration: defaults, `dealership.toml`, its drop-ins
//! (`dealership.d/*.toml`, `crate::config_drop_ins`), then `DEALERSHIP_*`
//! environment variables. Business settings live in the database instead.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use ipnet::IpNet;

pub use crate::config_calls::{CallTrackingConfig, CalltouchConfig, MangoConfig, UisConfig};
pub use crate::config_services::{AmoCrmConfig, AutoruConfig, AvitoConfig, TelegramConfig};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address the HTTP server listens on.
    pub listen: String,
    /// Public base URL of the site, used for canonical links, cookies and CSRF checks.
    pub base_url: String,
    /// Directory holding the database file and the media folder.
    pub data_dir: PathBuf,
    /// Reverse proxies (addresses or ranges) whose `X-Forwarded-For` is
    /// believed; empty: the visitor is the socket's peer.
    pub trusted_proxies: Vec<TrustedProxy>,
    /// Connections served at once; 0 derives it from the open-file limit.
    pub max_connections: u32,
    pub leads: LeadsConfig,
    pub admin: AdminConfig,
    pub notifications: NotificationsConfig,
    pub smtp: SmtpConfig,
    pub telegram: TelegramConfig,
    pub amocrm: AmoCrmConfig,
    pub avito: AvitoConfig,
    pub autoru: AutoruConfig,
    pub calltouch: CalltouchConfig,
    pub uis: UisConfig,
    pub mango: MangoConfig,
    pub call_tracking: CallTrackingConfig,
    pub parser: ParserConfig,
    pub pages: PagesConfig,
    pub health: HealthConfig,
    pub replica: ReplicaConfig,
}

/// Continuous replication of the database to S3 by Litestream, run and
/// watched by `serve` (`src/ops/replica.rs`, docs/operations.md,
/// "Replication"). Off while `bucket` is empty.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReplicaConfig {
    /// The S3 service's address, e.g. "https://storage.yandexcloud.net";
    /// empty: Amazon S3.
    pub endpoint: String,
    /// The bucket; empty: no replication.
    pub bucket: String,
    /// The folder inside the bucket; empty: "dealership".
    pub path: String,
    /// The bucket's region; empty: Litestream's default (us-east-1).
    pub region: String,
    pub access_key_id: String,
    /// A file holding the secret access key, readable by the service user
    /// alone (mode 600 or 400): the secret is never in this file or a log.
    pub secret_access_key_file: PathBuf,
    /// The Litestream program; empty: `litestream` on `PATH`.
    pub litestream_bin: PathBuf,
    /// Replicate an empty database over a replica (`ops::replica_guard`).
    pub allow_overwrite: bool,
}

impl ReplicaConfig {
    /// Whether the database is replicated.
    pub fn is_enabled(&self) -> bool {
        !self.bucket.trim().is_empty()
    }

    /// The folder inside the bucket.
    pub fn bucket_path(&self) -> &str {
        match self.path.trim().trim_matches('/') {
            "" => "dealership",
            path => path,
        }
    }

    /// The keys set without a bucket, or a bucket without credentials: a
    /// half-written section would otherwise leave the site unreplicated
    /// without a word.
    fn validate(&self) -> Result<(), ConfigError> {
        let set = |value: &str| !value.trim().is_empty();
        if !self.is_enabled() {
            let stray: Vec<&str> = [
                ("endpoint", set(&self.endpoint)),
                ("path", set(&self.path)),
                ("region", set(&self.region)),
                ("access_key_id", set(&self.access_key_id)),
                (
                    "secret_access_key_file",
                    !self.secret_access_key_file.as_os_str().is_empty(),
                ),
                (
                    "litestream_bin",
                    !self.litestream_bin.as_os_str().is_empty(),
                ),
            ]
            .into_iter()
            .filter_map(|(key, given)| given.then_some(key))
            .collect();
            if stray.is_empty() {
                return Ok(());
            }
            return Err(ConfigError::Invalid(format!(
                "replica.bucket: required to replicate (replica.{} given); \
                 or remove the [replica] keys to run without replication",
                stray.join(", replica.")
            )));
        }
        if !set(&self.access_key_id) || self.secret_access_key_file.as_os_str().is_empty() {
            return Err(ConfigError::Invalid(
                "replica: access_key_id and secret_access_key_file are required with a bucket \
                 (the secret key in a file only the service user can read, mode 600)"
                    .into(),
            ));
        }
        let endpoint = self.endpoint.trim();
        let scheme = endpoint.starts_with("http://") || endpoint.starts_with("https://");
        if !endpoint.is_empty() && !scheme {
            return Err(ConfigError::Invalid(format!(
                "replica.endpoint: must start with http:// or https://, got {endpoint:?}"
            )));
        }
        Ok(())
    }
}

/// What `/healthz` counts as unhealthy (docs/operations.md, "Health").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HealthConfig {
    /// Free space under the data directory, in megabytes, below which the
    /// site reports itself unhealthy (a full disk refuses leads); 0: not
    /// checked.
    pub min_free_disk_mb: u64,
}

impl Default for HealthConfig {
    fn default() -> Self {
        Self {
            min_free_disk_mb: 200,
        }
    }
}

/// The public pages, drawn on the server (docs/rendering.md).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PagesConfig {
    /// Draws each public page's markup into its HTML (crawlers, phones,
    /// browsers without JavaScript). Off: the pages are sent as shells the
    /// browser draws, as before.
    pub server_render: bool,
    /// Threads that draw pages, each with its own QuickJS runtime (up to
    /// 64 MB); 0: one per core, at most four.
    pub render_threads: u32,
    /// Megabytes of drawn fragments (a car's card, drawn once per its data)
    /// the rendering threads share; every published car's card is drawn
    /// ahead into three quarters of it at most; 0: every page is drawn whole.
    pub fragment_cache_mb: u32,
}

impl Default for PagesConfig {
    fn default() -> Self {
        Self {
            server_render: true,
            render_threads: 0,
            fragment_cache_mb: 24,
        }
    }
}

/// The inventory parser (docs/parser.md).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ParserConfig {
    /// Lets feed and photo URLs reach loopback, private and link-local
    /// addresses (tests, a dealer system on the LAN). Off: refused.
    pub allow_private_hosts: bool,
    /// Largest feed, fetched or uploaded, in bytes.
    pub max_feed_bytes: u64,
}

impl Default for ParserConfig {
    fn default() -> Self {
        Self {
            allow_private_hosts: false,
            max_feed_bytes: 50 * 1024 * 1024,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LeadsConfig {
    /// Requests one address may send per minute; 0 turns the limit off.
    pub rate_limit_per_minute: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdminConfig {
    /// An admin session ends after this many minutes without a request.
    pub session_idle_minutes: u32,
    /// Failed login attempts for one login within the lockout window that
    /// lock it (docs/admin.md, "Lockout"); 0 turns this lock off.
    pub login_failures_per_login: u32,
    /// Failed login attempts from one address within the window that lock
    /// it; 0 turns this lock off.
    pub login_failures_per_address: u32,
}

/// The outbox that delivers a lead to the staff (docs/notifications.md).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NotificationsConfig {
    /// A delivery still failing this many minutes after the lead is marked
    /// failed and retried no more (until an admin retries it); 0: no retries.
    pub give_up_after_minutes: u32,
    /// The pause before the first retry, in milliseconds; doubled after each
    /// failure (with jitter) up to `retry_max_seconds`.
    pub retry_first_ms: u32,
    pub retry_max_seconds: u32,
    /// Deliveries of one channel under way at once.
    pub parallel_per_channel: u32,
    /// How long one delivery attempt may take.
    pub attempt_timeout_seconds: u32,
    /// How often saved searches are compared with the catalogue for alerts
    /// (docs/saved-searches.md), in minutes; at least 1.
    pub search_alerts_every_minutes: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct SmtpConfig {
    /// Empty: no e-mail is sent.
    pub host: String,
    pub port: u16,
    pub username: String,
    pub password: String,
    /// "starttls", "tls" or "none"
    pub security: String,
}

impl SmtpConfig {
    pub fn is_configured(&self) -> bool {
        !self.host.trim().is_empty()
    }
}

impl Default for NotificationsConfig {
    fn default() -> Self {
        Self {
            give_up_after_minutes: 72 * 60,
            retry_first_ms: 5_000,
            retry_max_seconds: 30 * 60,
            parallel_per_channel: 4,
            attempt_timeout_seconds: 30,
            search_alerts_every_minutes: 10,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:8080".into(),
            base_url: "http://localhost:8080".into(),
            data_dir: PathBuf::from("./data"),
            trusted_proxies: Vec::new(),
            max_connections: 0,
            leads: LeadsConfig::default(),
            admin: AdminConfig::default(),
            notifications: NotificationsConfig::default(),
            telegram: TelegramConfig::default(),
            smtp: SmtpConfig {
                port: 587,
                security: "starttls".into(),
                ..SmtpConfig::default()
            },
            amocrm: AmoCrmConfig::default(),
            avito: AvitoConfig::default(),
            autoru: AutoruConfig::default(),
            calltouch: CalltouchConfig::default(),
            uis: UisConfig::default(),
            mango: MangoConfig::default(),
            call_tracking: CallTrackingConfig::default(),
            parser: ParserConfig::default(),
            pages: PagesConfig::default(),
            health: HealthConfig::default(),
            replica: ReplicaConfig::default(),
        }
    }
}

impl Default for LeadsConfig {
    fn default() -> Self {
        Self {
            rate_limit_per_minute: 10,
        }
    }
}

impl Default for AdminConfig {
    fn default() -> Self {
        Self {
            session_idle_minutes: 120,
            login_failures_per_login: crate::domain::sessions::MAX_FAILURES_PER_LOGIN,
            login_failures_per_address: crate::domain::sessions::MAX_FAILURES_PER_ADDRESS,
        }
    }
}

/// Allowed values of `admin.session_idle_minutes`: 5 minutes to 30 days.
pub const SESSION_IDLE_MINUTES: std::ops::RangeInclusive<u32> = 5..=43_200;

/// Keys that are gone, with what replaces them: an old config fails with this
/// hint instead of "unknown key".
const REMOVED_KEYS: &[(&str, &str)] = &[(
    "trust_forwarded_for",
    "replaced by trusted_proxies, the list of reverse proxy addresses or ranges \
     whose X-Forwarded-For is believed, e.g. trusted_proxies = [\"127.0.0.1\"]",
)];

/// `DEALERSHIP_*` variables read by tools around the server (the UI's browser
/// tests), not by it: no warning for them.
const OTHER_TOOLS_VARIABLES: &[&str] = &["DEALERSHIP_BIN"];

/// A reverse proxy's address (`127.0.0.1`, `::1`) or a range of them
/// (`10.0.0.0/8`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustedProxy(IpNet);

impl TrustedProxy {
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }
}

impl FromStr for TrustedProxy {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if let Ok(net) = text.parse::<IpNet>() {
            return Ok(TrustedProxy(net.trunc()));
        }
        match text.parse::<IpAddr>() {
            Ok(ip) => Ok(TrustedProxy(IpNet::from(ip.to_canonical()))),
            Err(_) => Err(format!(
                "not an address or a range like 10.0.0.0/8: {text:?}"
            )),
        }
    }
}

impl fmt::Display for TrustedProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.prefix_len() == self.0.max_prefix_len() {
            self.0.addr().fmt(f)
        } else {
            self.0.fmt(f)
        }
    }
}

impl Serialize for TrustedProxy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TrustedProxy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("config: {0}")]
    Invalid(String),
}

impl Config {
    /// Loads the configuration. `path` is read when given (it must exist) or
    /// when `dealership.toml` exists in the working directory.
    pub fn load(path: Option<&Path>) -> Result<Self, ConfigError> {
        Self::load_with_env(path, |name| std::env::var(name).ok())
    }

    pub fn load_with_env(
        path: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let default_path = Path::new("dealership.toml");
        let file = match path {
            Some(p) => Some(p),
            None if default_path.exists() => Some(default_path),
            None => None,
        };
        let mut tree = toml::Value::try_from(Config::default())
            .map_err(|e| ConfigError::Invalid(e.to_string()))?;
        if let Some(file) = file {
            merge_file(&mut tree, file, false)?;
            let drop_ins = crate::config_drop_ins::files(file)
                .map_err(|(path, source)| ConfigError::Read { path, source })?;
            for drop_in in drop_ins {
                merge_file(&mut tree, &drop_in, true)?;
            }
        }
        for (key, hint) in REMOVED_KEYS {
            let name = format!("DEALERSHIP_{}", key.to_ascii_uppercase());
            if env(&name).is_some() {
                return Err(ConfigError::Invalid(format!("{key} (from {name}): {hint}")));
            }
        }
        apply_env(&mut tree, "DEALERSHIP", "", &env)?;
        // Through text, so a type error can be traced back to its key.
        let text = toml::to_string(&tree).map_err(|e| ConfigError::Invalid(e.to_string()))?;
        let config: Config = toml::from_str(&text).map_err(|e| {
            let key = e
                .span()
                .map(|span| key_at(&text, span.start))
                .unwrap_or_default();
            ConfigError::Invalid(format!("{key}: {}", e.message()))
        })?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        self.listen_addr()?;
        if !(self.base_url.starts_with("http://") || self.base_url.starts_with("https://")) {
            return Err(ConfigError::Invalid(format!(
                "base_url: must start with http:// or https://, got {:?}",
                self.base_url
            )));
        }
        if self.data_dir.as_os_str().is_empty() {
            return Err(ConfigError::Invalid("data_dir: must not be empty".into()));
        }
        if !["starttls", "tls", "none"].contains(&self.smtp.security.as_str()) {
            return Err(ConfigError::Invalid(format!(
                "smtp.security: must be starttls, tls or none, got {:?}",
                self.smtp.security
            )));
        }
        if !SESSION_IDLE_MINUTES.contains(&self.admin.session_idle_minutes) {
            return Err(ConfigError::Invalid(format!(
                "admin.session_idle_minutes: must be from {} to {} (30 days), got {}",
                SESSION_IDLE_MINUTES.start(),
                SESSION_IDLE_MINUTES.end(),
                self.admin.session_idle_minutes
            )));
        }
        let n = &self.notifications;
        if n.parallel_per_channel == 0 || n.attempt_timeout_seconds == 0 || n.retry_max_seconds == 0
        {
            return Err(ConfigError::Invalid(
                "notifications: parallel_per_channel, attempt_timeout_seconds and \
                 retry_max_seconds must be at least 1"
                    .into(),
            ));
        }
        self.replica.validate()?;
        self.call_tracking
            .validate()
            .map_err(ConfigError::Invalid)?;
        Ok(())
    }

    pub fn listen_addr(&self) -> Result<SocketAddr, ConfigError> {
        self.listen.parse().map_err(|_| {
            ConfigError::Invalid(format!(
                "listen: not an address like 127.0.0.1:8080: {:?}",
                self.listen
            ))
        })
    }

    pub fn database_path(&self) -> PathBuf {
        self.data_dir.join("dealership.db")
    }

    pub fn media_dir(&self) -> PathBuf {
        self.data_dir.join("media")
    }

    /// The base URL without a trailing slash.
    pub fn base(&self) -> &str {
        self.base_url.trim_end_matches('/')
    }

    pub fn is_https(&self) -> bool {
        self.base_url.starts_with("https://")
    }

    /// Whether `ip` is one of the trusted reverse proxies.
    pub fn is_trusted_proxy(&self, ip: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|proxy| proxy.contains(ip))
    }

    /// The `DEALERSHIP_*` names among `names` that set no key: most likely
    /// typos, which would otherwise be ignored without a word.
    pub fn unknown_env_vars(names: impl IntoIterator<Item = String>) -> Vec<String> {
        let mut known = Vec::new();
        if let Ok(tree) = toml::Value::try_from(Config::default()) {
            env_names(&tree, "DEALERSHIP", &mut known);
        }
        let mut unknown: Vec<String> = names
            .into_iter()
            .filter(|name| name.starts_with("DEALERSHIP_"))
            .filter(|name| !known.contains(name) && !OTHER_TOOLS_VARIABLES.contains(&name.as_str()))
            .collect();
        unknown.sort();
        unknown
    }
}

/// Overlays the TOML file `path` on `tree`; `name_it`: its errors name it.
fn merge_file(tree: &mut toml::Value, path: &Path, name_it: bool) -> Result<(), ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let value = toml::from_str(&text)
        .map_err(|e| ConfigError::Invalid(format!("{}: {}", path.display(), e.message())))?;
    merge(tree, value, "").map_err(|e| match e {
        ConfigError::Invalid(why) if name_it => {
            ConfigError::Invalid(format!("{}: {why}", path.display()))
        }
        other => other,
    })
}

/// The environment variable of every key under `tree`.
fn env_names(tree: &toml::Value, env_prefix: &str, out: &mut Vec<String>) {
    let toml::Value::Table(table) = tree else {
        return;
    };
    for (key, slot) in table {
        let name = format!("{env_prefix}_{}", key.to_ascii_uppercase());
        if slot.is_table() {
            env_names(slot, &name, out);
        } else {
            out.push(name);
        }
    }
}

/// Overlays `from` on `into`, refusing keys the defaults do not have.
fn merge(into: &mut toml::Value, from: toml::Value, prefix: &str) -> Result<(), ConfigError> {
    match (into, from) {
        (toml::Value::Table(into), toml::Value::Table(from)) => {
            for (key, value) in from {
                let path = join(prefix, &key);
                match into.get_mut(&key) {
                    Some(slot) if slot.is_table() => merge(slot, value, &path)?,
                    Some(slot) => *slot = value,
                    None => {
                        let removed = REMOVED_KEYS.iter().find(|(k, _)| *k == path);
                        return Err(ConfigError::Invalid(match removed {
                            Some((_, hint)) => format!("{path}: {hint}"),
                            None => format!("{path}: unknown key"),
                        }));
                    }
                }
            }
            Ok(())
        }
        _ => Err(ConfigError::Invalid(format!("{prefix}: must be a table"))),
    }
}

/// Every key `a.b_c` can be set by `DEALERSHIP_A_B_C`; the value is parsed as
/// the type of the default (a list is comma separated).
fn apply_env(
    tree: &mut toml::Value,
    env_prefix: &str,
    key_prefix: &str,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<(), ConfigError> {
    let toml::Value::Table(table) = tree else {
        return Ok(());
    };
    for (key, slot) in table.iter_mut() {
        let name = format!("{env_prefix}_{}", key.to_ascii_uppercase());
        let path = join(key_prefix, key);
        if slot.is_table() {
            apply_env(slot, &name, &path, env)?;
            continue;
        }
        let Some(raw) = env(&name) else { continue };
        let bad =
            |what: &str| ConfigError::Invalid(format!("{path} (from {name}): {what}, got {raw:?}"));
        *slot = match slot {
            toml::Value::Integer(_) => {
                toml::Value::Integer(raw.trim().parse().map_err(|_| bad("must be an integer"))?)
            }
            toml::Value::Boolean(_) => match raw.trim() {
                "1" | "true" | "yes" | "on" => toml::Value::Boolean(true),
                "0" | "false" | "no" | "off" => toml::Value::Boolean(false),
                _ => return Err(bad("must be true or false")),
            },
            toml::Value::Array(_) => toml::Value::Array(
                raw.split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(|item| toml::Value::String(item.to_string()))
                    .collect(),
            ),
            _ => toml::Value::String(raw.clone()),
        };
    }
    Ok(())
}

/// The dotted key of the TOML line holding `offset`.
fn key_at(text: &str, offset: usize) -> String {
    let mut section = "";
    let mut key = "";
    let mut position = 0;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed.trim_matches(|c| c == '[' || c == ']');
        } else if let Some((k, _)) = trimmed.split_once('=') {
            key = k.trim();
        }
        position += line.len() + 1;
        if position > offset {
            break;
        }
    }
    join(section, key)
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn defaults_work_without_a_file() {
        let c = Config::load_with_env(None, |_| None).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("./data"));
        assert_eq!(c.leads.rate_limit_per_minute, 10);
    }

    #[test]
    fn environment_overrides_nested_keys() {
        let c = Config::load_with_env(
            None,
            env_of(&[
                ("DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE", "0"),
                ("DEALERSHIP_LISTEN", "0.0.0.0:9000"),
                ("DEALERSHIP_SMTP_HOST", "smtp.example.ru"),
                (
                    "DEALERSHIP_TRUSTED_PROXIES",
                    "10.0.0.1, 192.168.0.0/16,,fd00::/8",
                ),
            ]),
        )
        .unwrap();
        assert_eq!(c.leads.rate_limit_per_minute, 0);
        assert_eq!(c.listen, "0.0.0.0:9000");
        assert_eq!(c.smtp.host, "smtp.example.ru");
        let proxies: Vec<String> = c.trusted_proxies.iter().map(|p| p.to_string()).collect();
        assert_eq!(proxies, ["10.0.0.1", "192.168.0.0/16", "fd00::/8"]);
    }

    #[test]
    fn the_checked_in_file_lists_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("dealership.toml");
        let file: toml::Value = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let defaults = toml::Value::try_from(Config::default()).unwrap();
        assert_eq!(file, defaults);
    }

    #[test]
    fn trusted_proxies_match_addresses_and_ranges() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.toml");
        std::fs::write(
            &path,
            "trusted_proxies = [\"127.0.0.1\", \"10.1.0.0/16\", \"2001:db8::/32\", \"::1\"]\n",
        )
        .unwrap();
        let c = Config::load_with_env(Some(&path), |_| None).unwrap();
        let trusted = |ip: &str| c.is_trusted_proxy(ip.parse().unwrap());
        assert!(trusted("127.0.0.1"));
        assert!(!trusted("127.0.0.2"));
        assert!(trusted("10.1.255.7"));
        assert!(!trusted("10.2.0.1"));
        assert!(trusted("2001:db8:ffff::9"));
        assert!(!trusted("2001:db9::1"));
        assert!(trusted("::1"));
        // An IPv4 peer seen through an IPv6 socket is the same address.
        assert!(trusted("::ffff:10.1.2.3"));
        assert!(!Config::default().is_trusted_proxy("127.0.0.1".parse().unwrap()));
    }

    #[test]
    fn a_bad_trusted_proxy_names_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.toml");
        std::fs::write(
            &path,
            "trusted_proxies = [\"10.0.0.0/8\", \"proxy.local\"]\n",
        )
        .unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("trusted_proxies"), "{err}");
        assert!(err.contains("proxy.local"), "{err}");
        for bad in ["10.0.0.0/33", "1.2.3", "fd00::/129"] {
            let err = Config::load_with_env(None, |name| {
                (name == "DEALERSHIP_TRUSTED_PROXIES").then(|| format!("127.0.0.1,{bad}"))
            })
            .unwrap_err()
            .to_string();
            assert!(err.contains("trusted_proxies"), "{err}");
            assert!(err.contains(bad), "{err}");
        }
    }

    #[test]
    fn the_old_forwarded_for_switch_points_to_trusted_proxies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.toml");
        std::fs::write(&path, "trust_forwarded_for = true\n").unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("config: trust_forwarded_for: replaced by trusted_proxies"),
            "{err}"
        );
        let err =
            Config::load_with_env(None, env_of(&[("DEALERSHIP_TRUST_FORWARDED_FOR", "false")]))
                .unwrap_err()
                .to_string();
        assert!(err.contains("DEALERSHIP_TRUST_FORWARDED_FOR"), "{err}");
        assert!(err.contains("trusted_proxies"), "{err}");
    }

    #[test]
    fn session_idle_minutes_is_bounded() {
        for (value, ok) in [
            ("4", false),
            ("5", true),
            ("43200", true),
            ("43201", false),
            ("0", false),
        ] {
            let result = Config::load_with_env(None, |name| {
                (name == "DEALERSHIP_ADMIN_SESSION_IDLE_MINUTES").then(|| value.to_string())
            });
            match result {
                Ok(c) => {
                    assert!(ok, "{value} accepted");
                    assert_eq!(c.admin.session_idle_minutes.to_string(), value);
                }
                Err(err) => {
                    assert!(!ok, "{value} refused: {err}");
                    assert!(
                        err.to_string().contains("admin.session_idle_minutes"),
                        "{err}"
                    );
                    assert!(err.to_string().contains("5 to 43200"), "{err}");
                }
            }
        }
    }

    #[test]
    fn unknown_environment_variables_are_found() {
        let names = [
            "DEALERSHIP_LISTEN",
            "DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUT",
            "DEALERSHIP_TRUSTED_PROXIES",
            "DEALERSHIP_ADMIN_SESSION_IDLE_MINUTES",
            "DEALERSHIP_BIN",
            "DEALERSHIP_SMTP",
            "PATH",
            "DEALERSHIP_DATADIR",
        ]
        .map(String::from);
        assert_eq!(
            Config::unknown_env_vars(names),
            [
                "DEALERSHIP_DATADIR",
                "DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUT",
                "DEALERSHIP_SMTP"
            ]
        );
    }

    #[test]
    fn bad_values_name_the_key() {
        let err = Config::load_with_env(
            None,
            env_of(&[("DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE", "many")]),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("leads.rate_limit_per_minute"), "{err}");
        let err = Config::load_with_env(None, env_of(&[("DEALERSHIP_LISTEN", "nowhere")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("listen"), "{err}");
    }

    #[test]
    fn replication_is_off_without_a_bucket_and_set_by_the_environment() {
        let c = Config::load_with_env(None, |_| None).unwrap();
        assert!(!c.replica.is_enabled());
        let c = Config::load_with_env(
            None,
            env_of(&[
                ("DEALERSHIP_REPLICA_BUCKET", "backups"),
                (
                    "DEALERSHIP_REPLICA_ENDPOINT",
                    "https://storage.yandexcloud.net",
                ),
                ("DEALERSHIP_REPLICA_REGION", "ru-central1"),
                ("DEALERSHIP_REPLICA_ACCESS_KEY_ID", "AKIA1"),
                (
                    "DEALERSHIP_REPLICA_SECRET_ACCESS_KEY_FILE",
                    "/etc/dealership/replica-secret",
                ),
                ("DEALERSHIP_REPLICA_LITESTREAM_BIN", "/opt/litestream"),
            ]),
        )
        .unwrap();
        assert!(c.replica.is_enabled());
        assert_eq!(c.replica.bucket, "backups");
        assert_eq!(c.replica.bucket_path(), "dealership");
        assert_eq!(c.replica.region, "ru-central1");
        assert_eq!(
            c.replica.secret_access_key_file,
            PathBuf::from("/etc/dealership/replica-secret")
        );
        assert_eq!(c.replica.litestream_bin, PathBuf::from("/opt/litestream"));
    }

    #[test]
    fn a_half_written_replica_section_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.toml");
        std::fs::write(
            &path,
            "[replica]\nendpoint = \"https://s3.example.ru\"\naccess_key_id = \"k\"\n",
        )
        .unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("replica.bucket: required"), "{err}");
        assert!(
            err.contains("replica.endpoint, replica.access_key_id"),
            "{err}"
        );

        std::fs::write(&path, "[replica]\nbucket = \"b\"\naccess_key_id = \"k\"\n").unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("secret_access_key_file"), "{err}");

        std::fs::write(
            &path,
            "[replica]\nbucket = \"b\"\naccess_key_id = \"k\"\n\
             secret_access_key_file = \"/s\"\nendpoint = \"s3.example.ru\"\n",
        )
        .unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("replica.endpoint: must start with http"),
            "{err}"
        );
    }

    #[test]
    fn drop_in_files_are_read_after_the_file_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dealership.toml");
        std::fs::write(
            &path,
            "base_url = \"http://a.example.ru\"\nlisten = \"127.0.0.1:9\"\n",
        )
        .unwrap();
        let drop_ins = crate::config_drop_ins::drop_in_dir(&path);
        assert_eq!(drop_ins, dir.path().join("dealership.d"));
        std::fs::create_dir(&drop_ins).unwrap();
        std::fs::write(
            drop_ins.join("50-setup.toml"),
            "base_url = \"https://b.example.ru\"\n[replica]\nbucket = \"b\"\n\
             access_key_id = \"k\"\nsecret_access_key_file = \"/s\"\n",
        )
        .unwrap();
        std::fs::write(
            drop_ins.join("90-mine.toml"),
            "[replica]\npath = \"site\"\n",
        )
        .unwrap();
        // Not a drop-in: another extension.
        std::fs::write(drop_ins.join("old.toml.dpkg-old"), "nonsense = 1\n").unwrap();
        let c = Config::load_with_env(Some(&path), |_| None).unwrap();
        assert_eq!(c.base_url, "https://b.example.ru");
        assert_eq!(c.listen, "127.0.0.1:9");
        assert!(c.replica.is_enabled());
        assert_eq!(c.replica.bucket_path(), "site");
        // The environment still wins.
        let c = Config::load_with_env(
            Some(&path),
            env_of(&[("DEALERSHIP_BASE_URL", "https://c.example.ru")]),
        )
        .unwrap();
        assert_eq!(c.base_url, "https://c.example.ru");
        // A wrong key in a drop-in names the file.
        std::fs::write(drop_ins.join("95-typo.toml"), "[replica]\nbukket = \"x\"\n").unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("95-typo.toml"), "{err}");
        assert!(err.contains("replica.bukket: unknown key"), "{err}");
    }

    #[test]
    fn file_values_and_unknown_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.toml");
        std::fs::write(
            &path,
            "base_url = \"https://auto.example.ru\"\n[leads]\nrate_limit_per_minute = 3\n",
        )
        .unwrap();
        let c = Config::load_with_env(Some(&path), |_| None).unwrap();
        assert!(c.is_https());
        assert_eq!(c.leads.rate_limit_per_minute, 3);
        std::fs::write(&path, "[leads]\nrate = 3\n").unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("leads.rate"), "{err}");
        std::fs::write(&path, "[leads]\nrate_limit_per_minute = \"x\"\n").unwrap();
        let err = Config::load_with_env(Some(&path), |_| None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("rate_limit_per_minute"), "{err}");
    }
}
