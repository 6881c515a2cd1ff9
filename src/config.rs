//! Deployment configuration: defaults, then `dealership.toml`, then
//! `DEALERSHIP_*` environment variables. Business settings (phones, banners)
//! live in the database instead.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address the HTTP server listens on.
    pub listen: String,
    /// Public base URL of the site, used for canonical links, cookies and CSRF checks.
    pub base_url: String,
    /// Directory holding the database file and the media folder.
    pub data_dir: PathBuf,
    /// Take the visitor's address from X-Forwarded-For (only behind a reverse proxy).
    pub trust_forwarded_for: bool,
    pub leads: LeadsConfig,
    pub admin: AdminConfig,
    pub smtp: SmtpConfig,
    pub amocrm: AmoCrmConfig,
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
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub username: String,
    pub password: String,
    /// "starttls", "tls" or "none"
    pub security: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct AmoCrmConfig {
    pub domain: String,
    pub client_id: String,
    pub client_secret: String,
    pub redirect_uri: String,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:8080".into(),
            base_url: "http://localhost:8080".into(),
            data_dir: PathBuf::from("./data"),
            trust_forwarded_for: false,
            leads: LeadsConfig::default(),
            admin: AdminConfig::default(),
            smtp: SmtpConfig {
                port: 587,
                security: "starttls".into(),
                ..SmtpConfig::default()
            },
            amocrm: AmoCrmConfig::default(),
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
        }
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
            let text = std::fs::read_to_string(file).map_err(|source| ConfigError::Read {
                path: file.to_path_buf(),
                source,
            })?;
            let from_file: toml::Value = toml::from_str(&text).map_err(|e| {
                ConfigError::Invalid(format!("{}: {}", file.display(), e.message()))
            })?;
            merge(&mut tree, from_file, "")?;
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
        if self.admin.session_idle_minutes == 0 {
            return Err(ConfigError::Invalid(
                "admin.session_idle_minutes: must be at least 1".into(),
            ));
        }
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
                    None => return Err(ConfigError::Invalid(format!("{path}: unknown key"))),
                }
            }
            Ok(())
        }
        _ => Err(ConfigError::Invalid(format!("{prefix}: must be a table"))),
    }
}

/// Every key `a.b_c` can be set by `DEALERSHIP_A_B_C`; the value is parsed as
/// the type of the default.
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
                ("DEALERSHIP_TRUST_FORWARDED_FOR", "true"),
            ]),
        )
        .unwrap();
        assert_eq!(c.leads.rate_limit_per_minute, 0);
        assert_eq!(c.listen, "0.0.0.0:9000");
        assert_eq!(c.smtp.host, "smtp.example.ru");
        assert!(c.trust_forwarded_for);
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
