//! Every call made a lead or part of one (`docs/leads.md`, "Calls as
//! leads"), whoever reported it: a marketplace's poll
//! (`crate::marketplaces::sync::calls`), a call-tracking service's webhook
//! or poll. A call is recorded once by (provider, call id): a webhook and a
//! poll of the same call, or a webhook sent twice, make one record. A caller
//! with an open lead (same phone, not closed) has the call noted on it;
//! anyone else gets a new lead, stored first, given to its owner by the
//! rule and announced through the outbox as a form's lead is. A missed
//! call's lead waits for the call back: its deadline is the response
//! threshold in working minutes after the call (outside hours, counted from
//! the opening).

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::config::Config;
use crate::domain::calls::{self, Call, CallCar};
use crate::domain::leads::{self, CallLead, LeadStatus, LeadType};
use crate::domain::outbox::Channel as OutboxChannel;
use crate::domain::settings::Settings;
use crate::error::AppResult;
use crate::marketplaces::Channel;

/// Who reported a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A marketplace's substitute number (Avito, Auto.ru).
    Marketplace(Channel),
    /// A call-tracking service or PBX, to the site's numbers.
    Tracking(super::Provider),
}

impl Origin {
    /// `calls.provider`.
    pub fn provider(self) -> &'static str {
        match self {
            Origin::Marketplace(channel) => channel.as_str(),
            Origin::Tracking(provider) => provider.as_str(),
        }
    }

    /// The name a call's note is signed with («Авито», «Calltouch»).
    pub fn label(self) -> &'static str {
        match self {
            Origin::Marketplace(channel) => channel.label(),
            Origin::Tracking(provider) => provider.label(),
        }
    }

    /// «с Авито», «через Calltouch».
    pub fn from(self) -> String {
        match self {
            Origin::Marketplace(channel) => format!("с {}", channel.label()),
            Origin::Tracking(provider) => format!("через {}", provider.label()),
        }
    }
}

/// What one call did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// A lead was made for it.
    NewLead,
    /// It was noted on the caller's open lead.
    Joined,
    /// Already recorded: nothing done.
    Known,
}

/// What a batch of calls did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallsTaken {
    /// Leads made.
    pub new_leads: usize,
    /// Calls noted on the caller's open lead.
    pub joined: usize,
    /// Calls already recorded: nothing done.
    pub known: usize,
}

/// [`take`] of every call of `calls`, counted; with the outbox channels
/// queued. Runs inside the caller's write transaction.
pub fn take_all(
    c: &Connection,
    config: &Config,
    settings: &Settings,
    origin: Origin,
    calls: &[Call],
    now: DateTime<Utc>,
) -> AppResult<(CallsTaken, Vec<OutboxChannel>)> {
    let mut taken = CallsTaken::default();
    let mut queued = Vec::new();
    for call in calls {
        let (did, channels) = take(c, config, settings, origin, call, now)?;
        match did {
            Taken::NewLead => taken.new_leads += 1,
            Taken::Joined => taken.joined += 1,
            Taken::Known => taken.known += 1,
        }
        queued.extend(channels);
    }
    Ok((taken, queued))
}

/// Records `call` of `origin` and makes or joins its lead; gives what it
/// did and the outbox channels queued (the worker is woken by the caller).
/// Runs inside the caller's write transaction.
pub fn take(
    c: &Connection,
    config: &Config,
    settings: &Settings,
    origin: Origin,
    call: &Call,
    now: DateTime<Utc>,
) -> AppResult<(Taken, Vec<OutboxChannel>)> {
    let provider = origin.provider();
    if calls::is_known(c, provider, &call.call_id)? {
        return Ok((Taken::Known, Vec::new()));
    }
    let car = match origin {
        Origin::Marketplace(channel) => calls::car_of(
            c,
            channel.as_str(),
            call.market_id.as_deref(),
            call.vin.as_deref(),
        )?,
        Origin::Tracking(_) => match call.page_url.as_deref() {
            Some(page) => calls::car_of_page(c, page)?,
            None => None,
        },
    };
    let call_back_by = (!call.answered)
        .then(|| {
            settings
                .public
                .work_schedule
                .after_working_minutes(call.at, settings.response_threshold_minutes)
        })
        .flatten();
    let mut line = calls::line(&origin.from(), call, call_back_by);
    if let Some(car) = &car {
        line.push_str(&format!(", {}", car.name));
    }
    let open = match call.caller.as_deref() {
        Some(phone) => calls::open_lead_of(c, phone)?,
        None => None,
    };
    let (taken, lead_id, queued) = match open {
        Some(lead_id) => {
            calls::note(c, &lead_id, origin.label(), &line)?;
            (Taken::Joined, lead_id, Vec::new())
        }
        None => {
            let mut made = call_lead(origin, call, car.as_ref(), line);
            // A call about a car is its salon's.
            if let Some(car) = &car {
                made.salon_id = crate::domain::salons::car_salon(c, &car.id)?;
            }
            let lead = leads::insert_call(c, made)?;
            let queued = crate::notify::arrival::announce(c, config, settings, &lead, now)?;
            (Taken::NewLead, lead.id, queued)
        }
    };
    let car_id = car.as_ref().map(|car| car.id.as_str());
    calls::record(c, provider, call, car_id, Some(&lead_id), call_back_by, now)?;
    Ok((taken, queued))
}

/// The lead a call makes: answered, it is already in progress (the salon
/// talked to the person); missed, it is new and waits for the call back.
fn call_lead(origin: Origin, call: &Call, car: Option<&CallCar>, line: String) -> CallLead {
    let (lead_type, name, utm_source, utm_medium) = match origin {
        Origin::Marketplace(channel) => (
            LeadType::MarketplaceCall,
            format!("Звонок {}", origin.from()),
            Some(site_of(channel).to_string()),
            Some("marketplace_call".to_string()),
        ),
        Origin::Tracking(_) => (
            if call.answered {
                LeadType::PhoneCall
            } else {
                LeadType::MissedCall
            },
            if call.answered {
                "Звонок".to_string()
            } else {
                "Пропущенный звонок".to_string()
            },
            call.utm.source.clone().or_else(|| call.source.clone()),
            call.utm.medium.clone(),
        ),
    };
    CallLead {
        lead_type,
        name,
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
        source_url: car
            .and_then(|car| car.ad_url.clone())
            .filter(|_| matches!(origin, Origin::Marketplace(_)))
            .or_else(|| call.page_url.clone()),
        utm_source,
        utm_medium,
        utm_campaign: call.utm.campaign.clone(),
        utm_term: call.utm.term.clone(),
        utm_content: call.utm.content.clone(),
        client_id: call.client_id.clone(),
        salon_id: None,
        status: if call.answered {
            LeadStatus::InProgress
        } else {
            LeadStatus::New
        },
        at: call.at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    }
}

/// The marketplace's site, the lead's source.
fn site_of(channel: Channel) -> &'static str {
    match channel {
        Channel::Autoru => "auto.ru",
        _ => "avito.ru",
    }
}
