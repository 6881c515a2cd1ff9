//! A lead announced to the staff member it was given to
//! (`docs/notifications.md`): by the rule as it arrives, or by an owner. One
//! outbox row of kind `assigned` on the e-mail channel, its payload naming
//! the user; the worker sends the lead's message to that user's own e-mail
//! under the title "Вам передана заявка: <name>". A lead taken by the
//! manager themselves is not announced to them.

use serde_json::json;

use super::{Channels, Loaded, Outcome, load, mail_host, message};
use crate::config::Config;
use crate::db::Db;
use crate::domain::leads::Lead;
use crate::domain::outbox::{self, Channel, Claimed, Kind};
use crate::domain::settings::Settings;
use crate::error::AppResult;

/// The message's title: its subject and first line.
pub fn title(lead: &Lead) -> String {
    format!("Вам передана заявка: {}", lead.name)
}

/// Queues the announcement of `lead_id` to the user `user_id` at `email`,
/// when they have an address and e-mail is set up and on; gives whether
/// it was queued (the worker is to be woken).
pub fn queue(
    conn: &rusqlite::Connection,
    config: &Config,
    settings: &Settings,
    lead_id: &str,
    (user_id, email): (&str, &str),
    now: &str,
) -> AppResult<bool> {
    let can_mail = config.smtp.is_configured() && settings.email_notifications_enabled;
    if !can_mail || email.trim().is_empty() {
        return Ok(false);
    }
    outbox::enqueue_kind(
        conn,
        Kind::Assigned,
        Some(lead_id),
        &json!({ "userId": user_id }),
        &[Channel::Email],
        now,
    )?;
    Ok(true)
}

/// The assignee's address now: gone when the account was deleted or its
/// e-mail removed; the lead given to someone else since is not theirs to
/// be told of.
async fn address(db: &Db, row: &Claimed, lead: &Lead) -> Result<String, Outcome> {
    let Some(user_id) = row.payload["userId"].as_str().map(str::to_string) else {
        return Err(Outcome::Permanent("Не указан сотрудник".into()));
    };
    if lead.assignee_id.as_deref() != Some(user_id.as_str()) {
        return Err(Outcome::Dropped(
            "заявка уже передана другому сотруднику".into(),
        ));
    }
    let email = db
        .call(move |c| {
            Ok(
                c.query_row("SELECT email FROM users WHERE id = ?1", [&user_id], |r| {
                    r.get::<_, String>(0)
                })
                .ok(),
            )
        })
        .await
        .map_err(|err| Outcome::Retry(format!("База данных: {err}")))?;
    match email.filter(|e| !e.trim().is_empty()) {
        Some(email) => Ok(email),
        None => Err(Outcome::Dropped("у сотрудника нет e-mail".into())),
    }
}

/// Delivers an `assigned` row.
pub(super) async fn deliver(db: &Db, channels: &Channels, row: &Claimed) -> Outcome {
    let Loaded {
        lead,
        car_slug,
        settings,
    } = match load(db, row).await {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    if row.channel != Channel::Email {
        return Outcome::Permanent("Назначение сообщается только по e-mail".into());
    }
    let mailer = match channels.lead_mailer(&settings) {
        Ok(mailer) => mailer,
        Err(outcome) => return outcome,
    };
    let to = match address(db, row, &lead).await {
        Ok(to) => to,
        Err(outcome) => return outcome,
    };
    let config = &channels.config;
    let context = message::Context {
        base_url: config.base(),
        car_slug: car_slug.as_deref(),
        salon_name: &settings.public.salon_name,
    };
    let message_id = format!(
        "<assigned-{}-outbox-{}@{}>",
        lead.id,
        row.id,
        mail_host(config)
    );
    let title = title(&lead);
    let message = match mailer.lead_message_to(&to, &title, &lead, &context, &settings, message_id)
    {
        Ok(message) => message,
        // The address was checked when saved; a server's refusal of it
        // is worth an admin's look.
        Err(error) => return Outcome::Permanent(error),
    };
    Outcome::of(mailer.send(message).await)
}
