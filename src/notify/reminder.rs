//! The reminder of a lead still `new` past the response threshold
//! (`docs/response-times.md`): [`Reminders::run`] (a job every minute)
//! queues it once per lead, by e-mail and Telegram where they are set up;
//! the outbox worker delivers it like a lead, under the title "Заявка ждёт
//! ответа: <name>, <N> мин".
//!
//! A lead answered after its reminder was queued still gets it (it was due
//! when queued, and is normally delivered within seconds); a deleted lead's
//! reminder is given up like a lead's delivery.

use std::sync::Arc;

use chrono::Utc;

use super::{Channels, Loaded, Outcome, Wake, load, mail_host, message, not_configured, telegram};
use crate::clock::Clock;
use crate::db::Db;
use crate::domain::leads::Lead;
use crate::domain::outbox::{Channel, Claimed};
use crate::domain::response_times::{self, Reminded};
use crate::error::AppResult;

/// The channels a reminder goes to: those of a new lead but amoCRM (the
/// deal is already there).
pub const CHANNELS: [Channel; 2] = [Channel::Email, Channel::Telegram];

/// The reminder's title: its e-mail subject and the first line of both.
pub fn title(lead: &Lead, waiting_minutes: Option<i64>) -> String {
    match waiting_minutes {
        Some(minutes) => format!("Заявка ждёт ответа: {}, {minutes} мин", lead.name),
        None => format!("Заявка ждёт ответа: {}", lead.name),
    }
}

/// Queues the reminders that are due.
#[derive(Clone)]
pub struct Reminders {
    db: Db,
    channels: Arc<Channels>,
    clock: Arc<Clock>,
    wake: Wake,
}

impl Reminders {
    pub fn new(db: Db, channels: Arc<Channels>, clock: Arc<Clock>, wake: Wake) -> Reminders {
        Reminders {
            db,
            channels,
            clock,
            wake,
        }
    }

    /// Queues the reminder of every lead that reached the threshold at the
    /// server's clock and was not reminded, and wakes the worker; gives the
    /// leads reminded. Nothing is reminded while neither e-mail nor
    /// Telegram is set up.
    pub async fn run(&self) -> AppResult<Vec<Reminded>> {
        let now = self.clock.now();
        // The outbox's times are real ones: its worker reads the real clock.
        let queued_at = super::timestamp(Utc::now());
        let config = self.channels.config.clone();
        let reminded = self
            .db
            .call(move |c| {
                response_times::remind_overdue(c, now, &queued_at, |settings| {
                    super::channels_for(&config, settings)
                        .into_iter()
                        .filter(|c| CHANNELS.contains(c))
                        .collect()
                })
            })
            .await?;
        if !reminded.is_empty() {
            tracing::info!(
                "{} leads still new past the threshold: reminders queued",
                reminded.len()
            );
            if self.channels.any_ready(&CHANNELS) {
                self.wake.notify_one();
            }
        }
        Ok(reminded)
    }
}

/// Delivers a reminder row: the lead's message under the reminder's title.
pub(super) async fn deliver(db: &Db, channels: &Channels, row: &Claimed) -> Outcome {
    let Loaded {
        lead,
        car_slug,
        settings,
    } = match load(db, row).await {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    let config = &channels.config;
    let context = message::Context {
        base_url: config.base(),
        car_slug: car_slug.as_deref(),
        salon_name: &settings.public.salon_name,
    };
    let title = title(&lead, row.payload["waitingMinutes"].as_i64());
    match row.channel {
        Channel::Email => {
            let mailer = match channels.lead_mailer(&settings) {
                Ok(mailer) => mailer,
                Err(outcome) => return outcome,
            };
            let message_id = format!(
                "<reminder-{}-outbox-{}@{}>",
                lead.id,
                row.id,
                mail_host(config)
            );
            let message =
                match mailer.lead_message_titled(&title, &lead, &context, &settings, message_id) {
                    Ok(message) => message,
                    // A bad address in the settings: an admin fixes it and retries.
                    Err(error) => return Outcome::Retry(error),
                };
            Outcome::of(mailer.send(message).await)
        }
        Channel::Telegram => {
            let telegram = super::telegram_for(config, &settings);
            if !telegram.is_configured() {
                return Outcome::Permanent(not_configured(Channel::Telegram).into());
            }
            let text = message::telegram_titled(&title, &lead, &context);
            Outcome::of(telegram::send(&channels.http, &telegram, &text).await)
        }
        // Never queued; a row of it is not worth another try.
        Channel::Amocrm => Outcome::Permanent("Напоминание в amoCRM не отправляется".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::leads::LeadInput;

    #[test]
    fn the_reminder_is_the_lead_under_its_own_title() {
        let input = LeadInput {
            lead_type: Some("trade_in".into()),
            name: Some("Иван <Забытый>".into()),
            phone: Some("89991234567".into()),
            consent: true,
            ..LeadInput::default()
        };
        let Ok(valid) = input.validate(1, "127.0.0.1", 2026) else {
            panic!("a valid lead");
        };
        let lead = valid.into_unsaved();
        let context = message::Context {
            base_url: "https://salon.example",
            car_slug: None,
            salon_name: "Салон",
        };
        let title = title(&lead, Some(42));
        assert_eq!(title, "Заявка ждёт ответа: Иван <Забытый>, 42 мин");
        let short = message::telegram_titled(&title, &lead, &context);
        assert!(
            short.starts_with("<b>Заявка ждёт ответа: Иван &lt;Забытый&gt;, 42 мин</b>\n"),
            "{short}"
        );
        assert!(short.contains("Телефон: +79991234567"), "{short}");
        assert!(
            short.contains(&format!(
                "https://salon.example/admin/leads?lead={}",
                lead.id
            )),
            "{short}"
        );
        let text = message::plain_titled(&title, &lead, &context);
        assert!(text.starts_with(&format!("{title}\n\n")), "{text}");
        assert_eq!(
            super::title(&lead, None),
            "Заявка ждёт ответа: Иван <Забытый>"
        );
    }
}
