//! UIS / CoMagic (`docs/calls.md`, "UIS"): its notification of a finished
//! call, the Data API's calls report and the Call API's callback. (Being
//! written: the reader and the client below are the interface the rest of
//! the site uses.)

use chrono::{DateTime, Utc};

use super::{HookRequest, Hooked};
use crate::config::UisConfig;
use crate::domain::calls::Call;
use crate::error::{AppError, AppResult};
use crate::marketplaces::{MarketError, Patience};

/// Reads a UIS notification (a JSON body from the dealer's template).
pub fn read_hook(_req: &HookRequest<'_>) -> AppResult<Hooked> {
    Err(AppError::NotFound("UIS".into()))
}

/// The Data API's and Call API's client.
pub struct Uis {}

impl Uis {
    pub fn new(
        config: &UisConfig,
        _http: reqwest::Client,
        _patience: Patience,
    ) -> Result<Uis, MarketError> {
        let _ = config;
        Err(MarketError::NotConfigured("[uis]".into()))
    }

    /// Checks the key with one light call; the words say what was seen.
    pub async fn check(&self) -> Result<String, MarketError> {
        Err(MarketError::NotConfigured("[uis]".into()))
    }

    /// Every call that began in [from, till), all pages read.
    pub async fn calls_between(
        &self,
        _from: DateTime<Utc>,
        _till: DateTime<Utc>,
    ) -> Result<Vec<Call>, MarketError> {
        Ok(Vec::new())
    }

    /// Asks the PBX to ring `operator` (E.164), then `visitor` (E.164);
    /// gives the call session's id.
    pub async fn callback(&self, _operator: &str, _visitor: &str) -> Result<String, MarketError> {
        Err(MarketError::NotConfigured("[uis]".into()))
    }
}
