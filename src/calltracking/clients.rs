//! The call providers as the config made them, once at start: each
//! provider's client (its API: polls, checks, the callback) and its
//! webhook's key (the secret of its address and who may post). A secret
//! file refused keeps its words, shown on the integrations screen and by
//! `dealership check`.

use std::net::IpAddr;
use std::sync::Arc;

use ipnet::IpNet;
use serde::Serialize;
use utoipa::ToSchema;

use super::Provider;
use super::calltouch::Calltouch;
use super::mango::Mango;
use super::uis::Uis;
use crate::config::Config;
use crate::config_calls::HookConfig;
use crate::marketplaces::{MarketError, Patience};

/// The shortest webhook secret taken: the address is the only lock
/// Calltouch and UIS can hold.
pub const HOOK_SECRET_MIN: usize = 16;

/// A client as the config made it.
pub enum Held<T> {
    Off,
    Refused(String),
    Ready(Arc<T>),
}

impl<T> Held<T> {
    fn of(made: Result<T, MarketError>) -> Held<T> {
        match made {
            Ok(client) => Held::Ready(Arc::new(client)),
            Err(MarketError::NotConfigured(_)) => Held::Off,
            Err(err) => Held::Refused(err.to_string()),
        }
    }

    pub fn ready(&self) -> Option<Arc<T>> {
        match self {
            Held::Ready(client) => Some(client.clone()),
            _ => None,
        }
    }

    fn state(&self) -> (bool, Option<String>) {
        match self {
            Held::Off => (false, None),
            Held::Refused(words) => (true, Some(words.clone())),
            Held::Ready(_) => (true, None),
        }
    }
}

/// A webhook's lock: its secret and its senders.
#[derive(Debug, Clone)]
pub struct HookKey {
    pub secret: String,
    /// Empty: any sender.
    pub allow_from: Vec<IpNet>,
}

impl HookKey {
    fn of(hook: HookConfig<'_>, provider: Provider) -> Result<Option<HookKey>, String> {
        if hook.hook_secret_file.as_os_str().is_empty() {
            return Ok(None);
        }
        let key = format!("{}.hook_secret_file", provider.as_str());
        let secret = crate::secret_file::read(hook.hook_secret_file, &key, "the webhook's secret")
            .map_err(|err| format!("{err:#}"))?;
        if secret.chars().count() < HOOK_SECRET_MIN {
            return Err(format!(
                "{key}: the secret is shorter than {HOOK_SECRET_MIN} characters; make a long \
                 random one: openssl rand -hex 24"
            ));
        }
        let allow_from = hook
            .allow_from
            .iter()
            .map(|text| {
                let text = text.trim();
                text.parse::<IpNet>()
                    .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| {
                        format!(
                            "{}.allow_from: «{text}» is not an address or a network",
                            provider.as_str()
                        )
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(HookKey { secret, allow_from }))
    }

    /// Whether `secret` opens this hook (compared in constant time).
    pub fn opens(&self, secret: &str) -> bool {
        let (a, b) = (self.secret.as_bytes(), secret.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// Whether `sender` may post.
    pub fn allows(&self, sender: IpAddr) -> bool {
        let sender = match sender {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(sender, IpAddr::V4),
            v4 => v4,
        };
        self.allow_from.is_empty() || self.allow_from.iter().any(|net| net.contains(&sender))
    }
}

/// A provider's state as the admin sees it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ProviderState {
    /// calltouch, uis or mango.
    pub provider: String,
    /// «Calltouch», «UIS», «Mango Office».
    pub label: String,
    /// Its API keys are in `dealership.toml`.
    pub api_configured: bool,
    /// Its webhook's secret is set: the webhook takes calls.
    pub hook_configured: bool,
    /// Why a client or the webhook could not be made (a secret file refused).
    pub error: Option<String>,
    /// The networks its webhook is taken from (empty: any).
    pub allow_from: Vec<String>,
}

/// Every provider's client and webhook key.
pub struct CallProviders {
    pub calltouch: Held<Calltouch>,
    pub uis: Held<Uis>,
    pub mango: Held<Mango>,
    hooks: Vec<(Provider, Result<Option<HookKey>, String>)>,
}

impl CallProviders {
    /// The providers of `config` with `patience` (`Patience::default()`
    /// when serving).
    pub fn for_config(config: &Config, patience: Patience) -> CallProviders {
        let http = crate::marketplaces::avito::Avito::http_client();
        CallProviders {
            calltouch: Held::of(Calltouch::new(&config.calltouch, http.clone(), patience)),
            uis: Held::of(Uis::new(&config.uis, http.clone(), patience)),
            mango: Held::of(Mango::new(&config.mango, http, patience)),
            hooks: vec![
                (
                    Provider::Calltouch,
                    HookKey::of(config.calltouch.hook(), Provider::Calltouch),
                ),
                (Provider::Uis, HookKey::of(config.uis.hook(), Provider::Uis)),
                (
                    Provider::Mango,
                    HookKey::of(config.mango.hook(), Provider::Mango),
                ),
            ],
        }
    }

    /// Tests' providers: brief pauses.
    pub fn brief(config: &Config) -> CallProviders {
        CallProviders::for_config(config, Patience::brief())
    }

    /// The webhook's key of `provider`; None when its webhook is off.
    pub fn hook(&self, provider: Provider) -> Option<&HookKey> {
        self.hooks
            .iter()
            .find(|(p, _)| *p == provider)
            .and_then(|(_, key)| key.as_ref().ok())
            .and_then(Option::as_ref)
    }

    fn hook_state(&self, provider: Provider) -> (bool, Option<String>, Vec<String>) {
        match self.hooks.iter().find(|(p, _)| *p == provider) {
            Some((_, Ok(Some(key)))) => (
                true,
                None,
                key.allow_from.iter().map(ToString::to_string).collect(),
            ),
            Some((_, Err(words))) => (true, Some(words.clone()), Vec::new()),
            _ => (false, None, Vec::new()),
        }
    }

    /// Whether any provider is set up (API or webhook).
    pub fn any(&self) -> bool {
        self.states()
            .iter()
            .any(|s| s.api_configured || s.hook_configured)
    }

    /// Every provider's state, in `Provider::ALL`'s order.
    pub fn states(&self) -> Vec<ProviderState> {
        Provider::ALL
            .into_iter()
            .map(|provider| {
                let (api_configured, api_error) = match provider {
                    Provider::Calltouch => self.calltouch.state(),
                    Provider::Uis => self.uis.state(),
                    Provider::Mango => self.mango.state(),
                };
                let (hook_configured, hook_error, allow_from) = self.hook_state(provider);
                ProviderState {
                    provider: provider.as_str().into(),
                    label: provider.label().into(),
                    api_configured,
                    hook_configured,
                    error: api_error.or(hook_error),
                    allow_from,
                }
            })
            .collect()
    }

    /// Checks `provider`'s API keys with one light call.
    pub async fn check(&self, provider: Provider) -> Result<String, MarketError> {
        let off = || MarketError::NotConfigured(format!("[{}]", provider.as_str()));
        let refused = |words: &String| MarketError::Secret(words.clone());
        match provider {
            Provider::Calltouch => match &self.calltouch {
                Held::Ready(client) => client.check().await,
                Held::Refused(words) => Err(refused(words)),
                Held::Off => Err(off()),
            },
            Provider::Uis => match &self.uis {
                Held::Ready(client) => client.check().await,
                Held::Refused(words) => Err(refused(words)),
                Held::Off => Err(off()),
            },
            Provider::Mango => match &self.mango {
                Held::Ready(client) => client.check().await,
                Held::Refused(words) => Err(refused(words)),
                Held::Off => Err(off()),
            },
        }
    }
}
