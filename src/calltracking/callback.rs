//! «Перезвоните мне» (`docs/calls.md`, "Callback"): the site's callback
//! form stores its lead first (with consent, as every form); then, when a
//! PBX is set up and the salon is open, the PBX is asked to ring the lead's
//! manager and then the visitor (Mango `commands/callback`, UIS
//! `start.simple_call`). Outside working hours nothing rings: the visitor
//! is told when the salon will call. What came of it is on the lead.

use std::sync::Arc;

use chrono::{DateTime, Datelike, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use super::clients::CallProviders;
use super::jobs::CallSync;
use super::mango::Mango;
use super::uis::Uis;
use crate::clock::moscow;
use crate::domain::hours::WorkSchedule;
use crate::domain::leads::CallbackState;
use crate::domain::phone::e164;
use crate::error::AppResult;

/// The PBX a callback is asked of: Mango when set up, else UIS.
pub enum Pbx {
    Mango(Arc<Mango>),
    Uis(Arc<Uis>),
}

impl Pbx {
    pub fn of(providers: &CallProviders) -> Option<Pbx> {
        providers
            .mango
            .ready()
            .map(Pbx::Mango)
            .or_else(|| providers.uis.ready().map(Pbx::Uis))
    }
}

/// When the salon opens next, in the visitor's words: «сегодня в 09:00»,
/// «завтра в 09:00», «05.12 в 10:00»; None when it opens on no day of the
/// next two weeks.
pub fn opening_words(schedule: &WorkSchedule, now: DateTime<Utc>) -> Option<String> {
    let opens = schedule
        .after_working_minutes(now, 0)?
        .with_timezone(&moscow());
    let today = now.with_timezone(&moscow()).date_naive();
    let day = if opens.date_naive() == today {
        "сегодня".to_string()
    } else if today.succ_opt() == Some(opens.date_naive()) {
        "завтра".to_string()
    } else {
        format!("{:02}.{:02}", opens.day(), opens.month())
    };
    Some(format!("{day} в {}", opens.format("%H:%M")))
}

/// Sets the callback's state on the lead `lead_id`.
pub fn set_state(
    c: &Connection,
    lead_id: &str,
    state: CallbackState,
    detail: Option<&str>,
    now: DateTime<Utc>,
) -> AppResult<()> {
    c.prepare_cached(
        "UPDATE leads SET callback_state = ?2, callback_detail = ?3, callback_at = ?4
         WHERE id = ?1",
    )?
    .execute(params![
        lead_id,
        state.as_str(),
        detail,
        now.to_rfc3339_opts(SecondsFormat::Millis, true)
    ])?;
    Ok(())
}

/// What is done with a callback lead just stored, decided in its
/// transaction: out of hours, no PBX, or ask the PBX now (`calling`, then
/// [`ring`] off the transaction).
pub fn decide(
    c: &Connection,
    lead_id: &str,
    schedule: &WorkSchedule,
    has_pbx: bool,
    now: DateTime<Utc>,
) -> AppResult<CallbackState> {
    let (state, detail) = if !schedule.is_open_at(&now) {
        let when = opening_words(schedule, now);
        (CallbackState::OutOfHours, when)
    } else if has_pbx {
        (CallbackState::Calling, None)
    } else {
        (CallbackState::NoPbx, None)
    };
    set_state(c, lead_id, state, detail.as_deref(), now)?;
    Ok(state)
}

/// The number the lead's manager is rung on (their PBX number; else the
/// PBX section's default), read when the callback is made.
fn manager_number(c: &Connection, lead_id: &str) -> AppResult<Option<String>> {
    Ok(c.prepare_cached(
        "SELECT u.pbx_number FROM leads l JOIN users u ON u.id = l.assignee_id
             WHERE l.id = ?1",
    )?
    .query_row([lead_id], |r| r.get::<_, String>(0))
    .optional()?
    .map(|n| n.trim().to_string())
    .filter(|n| !n.is_empty()))
}

/// No number to ring the manager on.
pub const NO_MANAGER_NUMBER: &str = "не указан номер менеджера в АТС: задайте его в карточке \
     сотрудника или номер по умолчанию в dealership.toml";

/// Asks the PBX to ring the manager of `lead_id`, then `visitor`; records
/// `rung` or `failed` with the PBX's words on the lead.
pub async fn ring(sync: &CallSync, pbx: Pbx, lead_id: String, visitor: String) -> AppResult<()> {
    let id = lead_id.clone();
    let manager = sync.db.read(move |c| manager_number(c, &id)).await?;
    let outcome = match &pbx {
        Pbx::Mango(mango) => {
            let from = manager.or_else(|| {
                Some(sync.config.mango.default_extension.trim().to_string())
                    .filter(|n| !n.is_empty())
            });
            match from {
                Some(from) => mango
                    .callback(&from, &visitor)
                    .await
                    .map_err(|e| e.to_string()),
                None => Err(NO_MANAGER_NUMBER.to_string()),
            }
        }
        Pbx::Uis(uis) => {
            let operator = manager
                .as_deref()
                .and_then(e164)
                .or_else(|| e164(&sync.config.uis.operator_number));
            match operator {
                Some(operator) => uis
                    .callback(&operator, &visitor)
                    .await
                    .map_err(|e| e.to_string()),
                None => Err(NO_MANAGER_NUMBER.to_string()),
            }
        }
    };
    let now = sync.clock.now();
    let (state, detail) = match outcome {
        Ok(id) => (CallbackState::Rung, Some(format!("команда АТС: {id}"))),
        Err(words) => {
            tracing::warn!(lead = %lead_id, "callback failed: {words}");
            (CallbackState::Failed, Some(words))
        }
    };
    let detail: Option<String> = detail.map(|d| d.chars().take(500).collect());
    sync.db
        .write_grouped(move |c| set_state(c, &lead_id, state, detail.as_deref(), now))
        .await
}
