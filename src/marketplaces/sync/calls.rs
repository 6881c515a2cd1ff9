//! Marketplace calls made leads (`docs/leads.md`, "Calls as leads"): each
//! call never seen before is recorded once by its id with its car; a caller
//! with an open lead (same phone, not closed) has the call noted on it,
//! anyone else gets a new lead of type `marketplace_call`, stored first,
//! given to its owner by the rule and announced through the outbox as a
//! form's lead is. A missed call's lead carries its call-back deadline: the
//! response threshold in working minutes after the call.

use super::clients::MarketSync;
use crate::calltracking::inbox::{self, Origin};
use crate::domain::settings;
use crate::error::AppResult;
use crate::marketplaces::{Channel, MarketCall};

pub use crate::calltracking::inbox::CallsTaken;

/// Records `found` (the calls of `channel` a poll read) and makes or joins
/// their leads (`crate::calltracking::inbox`), in one transaction; wakes the
/// outbox when something was queued.
pub async fn take_calls(
    sync: &MarketSync,
    channel: Channel,
    found: Vec<MarketCall>,
) -> AppResult<CallsTaken> {
    let config = sync.config.clone();
    let now = sync.clock.now();
    let (taken, queued) = sync
        .db
        .write_grouped(move |c| {
            let settings = settings::get(c)?;
            let origin = Origin::Marketplace(channel);
            inbox::take_all(c, &config, &settings, origin, &found, now)
        })
        .await?;
    if !queued.is_empty() && sync.channels.any_ready(&queued) {
        sync.wake.notify_one();
    }
    Ok(taken)
}
