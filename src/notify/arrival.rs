//! What follows a new lead in the transaction that stores it, whatever made
//! it (a visitor's form, a marketplace call): one outbox row per channel of
//! a new lead, its owner by the settings' rule (`domain::lead_assignment`),
//! and the owner told (`assigned`). `docs/leads.md`, "Storing first,
//! notifications later" and "Who answers a lead".

use chrono::{DateTime, Utc};

use super::{assigned, channels_for};
use crate::config::Config;
use crate::domain::lead_assignment;
use crate::domain::leads::Lead;
use crate::domain::outbox::{self, Channel};
use crate::domain::settings::Settings;
use crate::error::AppResult;

/// Queues the notifications of the just-stored `lead` and gives it to its
/// owner by the rule at `now`; gives the channels queued (the worker is to
/// be woken for them). An error of the assignment is logged: the lead is
/// kept unassigned.
pub fn announce(
    conn: &rusqlite::Connection,
    config: &Config,
    settings: &Settings,
    lead: &Lead,
    now: DateTime<Utc>,
) -> AppResult<Vec<Channel>> {
    // The lead's salon: its recipients, its managers, its hours.
    let announcing =
        crate::domain::salons::for_announcing(conn, settings, lead.salon_id, lead.lead_type, "")?;
    let mut channels = channels_for(config, &announcing);
    outbox::enqueue(conn, &lead.id, &channels, &lead.created_at)?;
    let rule = settings.lead_assignment;
    let salon = crate::domain::salons::of_column(lead.salon_id);
    let schedule = crate::domain::salons::schedule_of(conn, settings, lead.salon_id)?;
    match lead_assignment::assign_new(conn, &lead.id, rule, salon, &schedule, now) {
        Ok(Some(to)) => {
            let user = (to.id.as_str(), to.email.as_str());
            let told = assigned::queue(conn, config, settings, &lead.id, user, &lead.created_at)?;
            if told && !channels.contains(&Channel::Email) {
                channels.push(Channel::Email);
            }
        }
        Ok(None) => {}
        Err(err) => tracing::error!(lead = %lead.id, "lead not assigned: {err}"),
    }
    Ok(channels)
}
