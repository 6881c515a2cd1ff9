//! Marketplace calls made leads (`docs/leads.md`, "Calls as leads"): each
//! call never seen before is recorded once by its id with its car; a caller
//! with an open lead (same phone, not closed) has the call noted on it,
//! anyone else gets a new lead of type `marketplace_call`, stored first,
//! given to its owner by the rule and announced through the outbox as a
//! form's lead is. A missed call's lead carries its call-back deadline: the
//! response threshold in working minutes after the call.

use chrono::{DateTime, Utc};

use super::clients::MarketSync;
use crate::domain::calls;
use crate::domain::leads::{self, CallLead, LeadStatus};
use crate::domain::settings;
use crate::error::AppResult;
use crate::marketplaces::{Channel, MarketCall};

/// What a poll's calls did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallsTaken {
    /// Leads made.
    pub new_leads: usize,
    /// Calls noted on the caller's open lead.
    pub joined: usize,
    /// Calls already recorded: nothing done.
    pub known: usize,
}

/// The marketplace's site, the lead's source.
fn source(channel: Channel) -> &'static str {
    match channel {
        Channel::Autoru => "auto.ru",
        _ => "avito.ru",
    }
}

/// Records `found` (the calls of `channel` a poll read) and makes or joins
/// their leads, in one transaction; wakes the outbox when something was
/// queued.
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
            let mut taken = CallsTaken::default();
            let mut queued = Vec::new();
            for call in &found {
                let provider = channel.as_str();
                if calls::is_known(c, provider, &call.call_id)? {
                    taken.known += 1;
                    continue;
                }
                let car =
                    calls::car_of(c, channel, call.market_id.as_deref(), call.vin.as_deref())?;
                let call_back_by = (!call.answered)
                    .then(|| {
                        settings
                            .public
                            .work_schedule
                            .after_working_minutes(call.at, settings.response_threshold_minutes)
                    })
                    .flatten();
                let mut line = calls::line(channel, call, call_back_by);
                if let Some(car) = &car {
                    line.push_str(&format!(", {}", car.name));
                }
                let open = match call.caller.as_deref() {
                    Some(phone) => calls::open_lead_of(c, phone)?,
                    None => None,
                };
                let lead_id = match open {
                    Some(lead_id) => {
                        calls::note(c, &lead_id, channel.label(), &line)?;
                        taken.joined += 1;
                        lead_id
                    }
                    None => {
                        let lead =
                            leads::insert_call(c, call_lead(channel, call, car.as_ref(), line))?;
                        queued.extend(crate::notify::arrival::announce(
                            c, &config, &settings, &lead, now,
                        )?);
                        taken.new_leads += 1;
                        lead.id
                    }
                };
                let car_id = car.as_ref().map(|car| car.id.as_str());
                calls::record(c, provider, call, car_id, Some(&lead_id), call_back_by, now)?;
            }
            Ok((taken, queued))
        })
        .await?;
    if !queued.is_empty() && sync.channels.any_ready(&queued) {
        sync.wake.notify_one();
    }
    Ok(taken)
}

/// The lead a call makes: answered, it is already in progress (the salon
/// talked to the person); missed, it is new and waits for the call back.
fn call_lead(
    channel: Channel,
    call: &MarketCall,
    car: Option<&calls::CallCar>,
    line: String,
) -> CallLead {
    CallLead {
        name: format!("Звонок {}", from_label(channel)),
        phone: call.caller.clone().unwrap_or_default(),
        message: line,
        car: car.map(|car| {
            (
                car.id.clone(),
                car.name.clone(),
                car.price.to_string(),
                car.status.clone(),
            )
        }),
        source_url: car.and_then(|car| car.ad_url.clone()),
        utm_source: source(channel).into(),
        status: if call.answered {
            LeadStatus::InProgress
        } else {
            LeadStatus::New
        },
        at: stamp(call.at),
    }
}

fn from_label(channel: Channel) -> String {
    format!("с {}", channel.label())
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
