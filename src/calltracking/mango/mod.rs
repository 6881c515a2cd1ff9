//! Mango Office's virtual PBX (`docs/calls.md`, "Mango Office"): its
//! signed events and its callback command. (Being written: the reader and
//! the client below are the interface the rest of the site uses.)

use super::{HookRequest, Hooked};
use crate::config::MangoConfig;
use crate::error::{AppError, AppResult};
use crate::marketplaces::{MarketError, Patience};

/// The PBX's key and the signature's salt.
#[derive(Clone)]
pub struct MangoKeys {
    pub api_key: String,
    pub api_salt: String,
}

/// Reads a Mango event (form POST: `vpbx_api_key`, `sign`, `json`), its
/// signature checked with `keys`.
pub fn read_hook(_req: &HookRequest<'_>, _keys: &MangoKeys) -> AppResult<Hooked> {
    Err(AppError::NotFound("Mango".into()))
}

/// The VPBX API's client.
pub struct Mango {
    keys: MangoKeys,
}

impl Mango {
    pub fn new(
        config: &MangoConfig,
        _http: reqwest::Client,
        _patience: Patience,
    ) -> Result<Mango, MarketError> {
        let _ = config;
        Err(MarketError::NotConfigured("[mango]".into()))
    }

    pub fn keys(&self) -> &MangoKeys {
        &self.keys
    }

    /// Checks the keys with one light call; the words say what was seen.
    pub async fn check(&self) -> Result<String, MarketError> {
        Err(MarketError::NotConfigured("[mango]".into()))
    }

    /// Asks the PBX to ring `from` (an extension, or a number in E.164),
    /// then `to_number` (E.164); gives the command's id.
    pub async fn callback(&self, _from: &str, _to_number: &str) -> Result<String, MarketError> {
        Err(MarketError::NotConfigured("[mango]".into()))
    }
}
