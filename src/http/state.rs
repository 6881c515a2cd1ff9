//! What every handler reaches (`AppState`): the database, the config and the
//! holders shared by every request. The state is the foundation of `http`:
//! it names no module that answers a request; its holders live below it in
//! `http::held` (checked by a unit test there).

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::Config;
use crate::db::Db;

use super::cache::{AnswerCache, DEFAULT_CAPACITY_BYTES};
use super::held::catalogue::HeldCatalogue;
use super::held::feeds::FeedStore;
use super::held::page_basics::HeldBasics;
use super::held::passwords::PasswordChecks;
use super::held::render::Renderer;
use super::held::site_views::SiteViews;
use super::held::write_probe::WriteProbe;
use super::rate_limit::RateLimiter;

/// What every handler can reach: one shared allocation, so a request's copy
/// is one reference count, not one per part (`Deref` gives the parts; a
/// test changing one before serving gets its own copy).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl std::ops::DerefMut for AppState {
    fn deref_mut(&mut self) -> &mut Shared {
        Arc::make_mut(&mut self.0)
    }
}

/// The parts of [`AppState`].
#[derive(Clone)]
pub struct Shared {
    pub db: Db,
    pub config: Arc<Config>,
    /// Public GET answers kept in memory while the data they show is unchanged.
    pub answers: Arc<AnswerCache>,
    /// The published catalogue in memory, for the public car lists.
    pub catalogue: Arc<HeldCatalogue>,
    /// The settings, credit programs and body types every page embeds, read
    /// once per content version.
    pub page_basics: Arc<HeldBasics>,
    /// The marketplace feeds, one rendering per content version.
    pub feeds: Arc<FeedStore>,
    pub lead_limiter: Arc<RateLimiter>,
    /// The saved-search form's own limit, as many a minute as leads.
    pub saved_search_limiter: Arc<RateLimiter>,
    /// The withdrawal link's limits, per client address (as many a minute
    /// as leads) and per e-mail address (its comparison key).
    pub forget_limiter: Arc<RateLimiter>,
    pub forget_address_limiter: Arc<RateLimiter<String>>,
    /// Bounds parallel password checks (`PasswordChecks::new` for other sizes).
    pub password_checks: Arc<PasswordChecks>,
    /// Bounds concurrent image work and its memory (`crate::media::gate`).
    pub image_gate: Arc<crate::media::Gate>,
    /// Wakes the outbox worker when a lead was queued.
    pub wake: crate::notify::Wake,
    /// The notification channels (e-mail, Telegram, amoCRM).
    pub channels: Arc<crate::notify::Channels>,
    /// The clock of everything that depends on the date (valid credit
    /// programmes, test-drive days, the answer cache's day).
    pub clock: Arc<crate::clock::Clock>,
    /// The self-checks' last result (`docs/self-checks.md`).
    pub checks: Arc<crate::domain::checks::SelfChecks>,
    /// Draws the public pages' markup on the server (`docs/rendering.md`).
    pub renderer: Arc<Renderer>,
    /// The background jobs that are down now (`crate::jobs`), for `/healthz`.
    pub workers: Arc<crate::jobs::Workers>,
    /// The site's card views not yet written (`docs/marketplaces.md`).
    pub site_views: Arc<SiteViews>,
    /// The latest answer of `/healthz`'s write probe.
    pub write_probe: Arc<WriteProbe>,
    /// How replication stands, under `[replica]` (`crate::ops::replica_state`).
    pub replica: Arc<crate::ops::replica_state::ReplicaMonitor>,
    /// The marketplaces' clients, made once from the config
    /// (`docs/marketplaces.md`, "Jobs and checks"); tests put
    /// `Marketplaces::brief` in their place.
    pub marketplaces: Arc<crate::marketplaces::sync::Marketplaces>,
    /// The call-tracking services and PBXs, made once from the config
    /// (`docs/calls.md`); tests put `CallProviders::brief` in their place.
    pub call_providers: Arc<crate::calltracking::clients::CallProviders>,
}

impl AppState {
    pub fn new(db: Db, config: Config) -> AppState {
        let per_minute = config.leads.rate_limit_per_minute;
        // The file the pool really opened; the config's path otherwise.
        let path = db
            .conn()
            .ok()
            .and_then(|c| c.path().filter(|p| !p.is_empty()).map(PathBuf::from))
            .unwrap_or_else(|| config.database_path());
        let config = Arc::new(config);
        let clock = Arc::new(crate::clock::Clock::default());
        let marketplaces = Arc::new(crate::marketplaces::sync::Marketplaces::for_config(
            &config,
            crate::marketplaces::Patience::default(),
            None,
        ));
        let call_providers = Arc::new(crate::calltracking::clients::CallProviders::for_config(
            &config,
            crate::marketplaces::Patience::default(),
        ));
        AppState(Arc::new(Shared {
            answers: Arc::new(
                AnswerCache::open(&path, DEFAULT_CAPACITY_BYTES).with_clock(clock.clone()),
            ),
            site_views: Arc::new(SiteViews::new(clock.clone())),
            clock,
            checks: Arc::new(crate::domain::checks::SelfChecks::for_config(
                config.clone(),
            )),
            renderer: Arc::new(Renderer::for_config(&config.pages)),
            catalogue: Arc::default(),
            page_basics: Arc::default(),
            feeds: Arc::default(),
            wake: Arc::default(),
            channels: Arc::new(crate::notify::Channels::new(config.clone(), db.clone())),
            db,
            config,
            lead_limiter: Arc::new(RateLimiter::per_minute(per_minute)),
            saved_search_limiter: Arc::new(RateLimiter::per_minute(per_minute)),
            forget_limiter: Arc::new(RateLimiter::per_minute(per_minute)),
            forget_address_limiter: Arc::new(RateLimiter::per_minute(
                crate::domain::withdrawal::PER_ADDRESS_PER_MINUTE.min(per_minute),
            )),
            password_checks: Arc::new(PasswordChecks::for_this_machine()),
            image_gate: Arc::new(crate::media::Gate::default()),
            workers: Arc::default(),
            write_probe: Arc::default(),
            replica: Arc::default(),
            marketplaces,
            call_providers,
        }))
    }

    /// What the call providers' runs reach, from this state.
    pub fn call_sync(&self) -> crate::calltracking::jobs::CallSync {
        crate::calltracking::jobs::CallSync {
            db: self.db.clone(),
            clock: self.clock.clone(),
            config: self.config.clone(),
            providers: self.call_providers.clone(),
            wake: self.wake.clone(),
            channels: self.channels.clone(),
        }
    }

    /// What the marketplace runs reach, from this state.
    pub fn market_sync(&self) -> crate::marketplaces::sync::MarketSync {
        crate::marketplaces::sync::MarketSync {
            db: self.db.clone(),
            clock: self.clock.clone(),
            config: self.config.clone(),
            markets: self.marketplaces.clone(),
            wake: self.wake.clone(),
            channels: self.channels.clone(),
        }
    }
}
