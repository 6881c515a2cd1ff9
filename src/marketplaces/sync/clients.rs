//! The marketplaces' clients, made once at start from the config and held
//! by the state: each `Off` (not configured), `Refused` (a secret file
//! refused: the words kept as the channel's state to show) or `Ready`. Also
//! which jobs run now, so that a job never runs twice at once on a channel.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Config;
use crate::domain::marketplace_runs::Job;
use crate::marketplaces::autoru::Autoru;
use crate::marketplaces::avito::Avito;
use crate::marketplaces::{Channel, MarketError, Patience};

/// One marketplace's client as the config made it.
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
}

/// A channel's connection as the admin sees it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    /// Its keys are in `dealership.toml`.
    pub configured: bool,
    /// Why the client could not be made (a secret file refused), in words.
    pub error: Option<String>,
}

/// The clients of both marketplaces and the jobs under way.
pub struct Marketplaces {
    avito: Held<Avito>,
    autoru: Held<Autoru>,
    busy: Mutex<HashSet<(Channel, Job)>>,
}

/// Jobs taken on a channel, given back when dropped.
pub struct Taken {
    of: Arc<Marketplaces>,
    keys: Vec<(Channel, Job)>,
}

impl Drop for Taken {
    fn drop(&mut self) {
        let mut busy = self.of.busy.lock().unwrap_or_else(|e| e.into_inner());
        for key in &self.keys {
            busy.remove(key);
        }
    }
}

impl Marketplaces {
    /// The clients of `config` with `patience` (`Patience::default()` when
    /// serving) and Auto.ru's pace (`None`: its default).
    pub fn for_config(config: &Config, patience: Patience, pace: Option<Duration>) -> Marketplaces {
        let http = Avito::http_client();
        let autoru = Autoru::new(&config.autoru, http.clone(), patience).map(|client| match pace {
            Some(pace) => client.with_pace(pace),
            None => client,
        });
        Marketplaces {
            avito: Held::of(Avito::new(&config.avito, http, patience)),
            autoru: Held::of(autoru),
            busy: Mutex::default(),
        }
    }

    /// Tests' clients: brief pauses, no pace.
    pub fn brief(config: &Config) -> Marketplaces {
        Marketplaces::for_config(config, Patience::brief(), Some(Duration::ZERO))
    }

    pub fn avito(&self) -> Option<Arc<Avito>> {
        match &self.avito {
            Held::Ready(client) => Some(client.clone()),
            _ => None,
        }
    }

    pub fn autoru(&self) -> Option<Arc<Autoru>> {
        match &self.autoru {
            Held::Ready(client) => Some(client.clone()),
            _ => None,
        }
    }

    /// The channels whose client is ready.
    pub fn ready(&self) -> Vec<Channel> {
        [Channel::Avito, Channel::Autoru]
            .into_iter()
            .filter(|channel| self.connection(*channel).configured)
            .filter(|channel| self.connection(*channel).error.is_none())
            .collect()
    }

    /// `channel`'s connection: configured, and why its client is missing.
    pub fn connection(&self, channel: Channel) -> Connection {
        let of = |off: bool, error: Option<&String>| Connection {
            configured: !off,
            error: error.cloned(),
        };
        match channel {
            Channel::Avito => match &self.avito {
                Held::Off => of(true, None),
                Held::Refused(why) => of(false, Some(why)),
                Held::Ready(_) => of(false, None),
            },
            Channel::Autoru => match &self.autoru {
                Held::Off => of(true, None),
                Held::Refused(why) => of(false, Some(why)),
                Held::Ready(_) => of(false, None),
            },
            Channel::Site => of(true, None),
        }
    }

    /// Takes `jobs` on `channel`, all or none: none when one of them runs.
    pub fn take(self: &Arc<Self>, channel: Channel, jobs: &[Job]) -> Option<Taken> {
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        let keys: Vec<_> = jobs.iter().map(|job| (channel, *job)).collect();
        if keys.iter().any(|key| busy.contains(key)) {
            return None;
        }
        busy.extend(keys.iter().copied());
        Some(Taken {
            of: Arc::clone(self),
            keys,
        })
    }

    /// Whether a job on `channel` runs now.
    pub fn busy(&self, channel: Channel) -> bool {
        let busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        busy.iter().any(|(c, _)| *c == channel)
    }
}

/// What the marketplace runs reach: the database, the clock, the config,
/// the clients, and the outbox's wake-up and channels (a call's lead is
/// announced as a form's is). Made from the state by `AppState::market_sync`.
#[derive(Clone)]
pub struct MarketSync {
    pub db: crate::db::Db,
    pub clock: Arc<crate::clock::Clock>,
    pub config: Arc<Config>,
    pub markets: Arc<Marketplaces>,
    pub wake: crate::notify::Wake,
    pub channels: Arc<crate::notify::Channels>,
}
