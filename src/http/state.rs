use std::sync::Arc;

use crate::config::Config;
use crate::db::Db;

use super::cache::AnswerCache;
use super::rate_limit::RateLimiter;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    /// Public GET answers kept in memory, dropped on every write.
    pub answers: Arc<AnswerCache>,
    pub lead_limiter: Arc<RateLimiter>,
}

impl AppState {
    pub fn new(db: Db, config: Config) -> AppState {
        let per_minute = config.leads.rate_limit_per_minute;
        AppState {
            db,
            config: Arc::new(config),
            answers: Arc::new(AnswerCache::new()),
            lead_limiter: Arc::new(RateLimiter::per_minute(per_minute)),
        }
    }
}
