//! Calltouch (`docs/calls.md`, "Calltouch"): its webhook of calls and its
//! calls journal API. (Being written: the reader and the client below are
//! the interface the rest of the site uses.)

use chrono::NaiveDate;

use super::{HookRequest, Hooked};
use crate::config::CalltouchConfig;
use crate::domain::calls::Call;
use crate::error::{AppError, AppResult};
use crate::marketplaces::{MarketError, Patience};

/// Reads a Calltouch webhook (GET query or POST form).
pub fn read_hook(_req: &HookRequest<'_>) -> AppResult<Hooked> {
    Err(AppError::NotFound("Calltouch".into()))
}

/// The calls journal's client.
pub struct Calltouch {}

impl Calltouch {
    pub fn new(
        config: &CalltouchConfig,
        _http: reqwest::Client,
        _patience: Patience,
    ) -> Result<Calltouch, MarketError> {
        let _ = config;
        Err(MarketError::NotConfigured("[calltouch]".into()))
    }

    /// Checks the keys with one light call; the words say what was seen.
    pub async fn check(&self) -> Result<String, MarketError> {
        Err(MarketError::NotConfigured("[calltouch]".into()))
    }

    /// Every call of the Moscow day `day`, all pages read.
    pub async fn calls_of_day(&self, _day: NaiveDate) -> Result<Vec<Call>, MarketError> {
        Ok(Vec::new())
    }
}
