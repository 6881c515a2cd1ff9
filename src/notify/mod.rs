//! Notifications about new leads: the outbox worker and its channels
//! (e-mail, Telegram, amoCRM). Rules in docs/notifications.md.
//!
//! - Storing a lead queues one `outbox` row per enabled channel in the same
//!   transaction ([`channels_for`], [`crate::domain::outbox::enqueue`]) and
//!   wakes the worker ([`Wake`]).
//! - The worker claims due rows per channel, at most
//!   `notifications.parallel_per_channel` under way per channel, so a slow
//!   channel never holds up another. A claim counts the try and moves the
//!   row's next try past the attempt's time limit: a row whose worker died
//!   is due again by then, and at start-up every claimed row is due at once.
//! - A failed try is retried after a pause that doubles (with jitter) up to
//!   `retry_max_seconds`; `give_up_after_minutes` after the round began the
//!   row is marked failed and stays visible to the admin.
//! - A failed try also pauses its channel for the same growing pause (reset
//!   by a success): while a mail server or CRM is down, the worker makes a
//!   few tries per pause instead of one per queued lead, so an outage costs
//!   the lead form nothing.
//! - On the stop signal no new row is claimed and the tries under way
//!   finish (the supervisor bounds the wait).
//! - Claims and outcomes are written through the group commit, in the
//!   transactions that store leads, so the outbox adds no disk syncs of its
//!   own while leads arrive.

pub mod amocrm;
pub mod arrival;
pub mod assigned;
pub mod email;
pub mod message;
pub mod reminder;
pub mod saved_search;
pub mod telegram;

pub use telegram::{telegram_chat, telegram_for};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use rand::Rng;
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::db::Db;
use crate::domain::outbox::{self, Channel, Claimed, Kind};
use crate::domain::settings::Settings;
use crate::domain::{cars, leads};

/// Wakes the worker when a lead was queued.
pub type Wake = Arc<Notify>;

/// The channels a new lead goes to: e-mail when `[smtp]` has a host and the
/// settings have it on with an address; Telegram when its bot and chat are
/// set; amoCRM when its integration is configured (authorised or not yet:
/// the push waits for the authorisation).
pub fn channels_for(config: &Config, settings: &Settings) -> Vec<Channel> {
    let mut channels = Vec::new();
    if config.smtp.is_configured()
        && settings.email_notifications_enabled
        && !settings.notification_email.trim().is_empty()
    {
        channels.push(Channel::Email);
    }
    if !config.telegram.bot_token.trim().is_empty() && !telegram_chat(config, settings).is_empty() {
        channels.push(Channel::Telegram);
    }
    if config.amocrm.is_configured() {
        channels.push(Channel::Amocrm);
    }
    channels
}

/// The error a delivery of an unconfigured channel is given up with.
fn not_configured(channel: Channel) -> &'static str {
    match channel {
        Channel::Email => "SMTP не настроен ([smtp] host)",
        Channel::Telegram => "Telegram не настроен ([telegram])",
        Channel::Amocrm => "amoCRM не настроен ([amocrm])",
    }
}

/// What a try ended with.
enum Outcome {
    Sent {
        amocrm_lead_id: Option<i64>,
    },
    /// Worth another try later.
    Retry(String),
    /// No try can succeed (the lead was deleted, the channel turned off).
    Permanent(String),
    /// Nothing is left to deliver and nobody has to act: a visitor's mail
    /// whose subscription ended or was confirmed before it went. The row is
    /// removed rather than shown to the staff as failed.
    Dropped(String),
}

impl Outcome {
    /// A send's answer: sent, or worth another try later.
    fn of<T>(sent: Result<T, String>) -> Outcome {
        match sent {
            Ok(_) => Outcome::Sent {
                amocrm_lead_id: None,
            },
            Err(error) => Outcome::Retry(error),
        }
    }
}

/// The senders of every channel, shared by the tries.
pub struct Channels {
    pub config: Arc<Config>,
    pub mailer: Option<email::Mailer>,
    pub http: reqwest::Client,
    pub amocrm: Arc<amocrm::Client>,
    /// Each channel's recent failures (the worker's pause of it).
    health: Mutex<HashMap<Channel, Health>>,
}

impl Channels {
    /// The mailer of the staff's mail about leads: set up in the
    /// configuration and turned on in the settings, or why it is not.
    fn lead_mailer(&self, settings: &Settings) -> Result<&email::Mailer, Outcome> {
        let Some(mailer) = &self.mailer else {
            return Err(Outcome::Permanent(not_configured(Channel::Email).into()));
        };
        if !settings.email_notifications_enabled {
            return Err(Outcome::Permanent(
                "Уведомления по e-mail выключены в настройках".into(),
            ));
        }
        Ok(mailer)
    }

    pub fn new(config: Arc<Config>, db: Db) -> Channels {
        let timeout = Duration::from_secs(config.notifications.attempt_timeout_seconds.into());
        let mailer = email::Mailer::from_config(&config.smtp, timeout).unwrap_or_else(|err| {
            // Deliveries then fail with "SMTP не настроен", visible to the admin.
            tracing::error!("cannot set up SMTP for {:?}: {err}", config.smtp.host);
            None
        });
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("dealership/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_else(|err| {
                tracing::error!("cannot set up the HTTP client: {err}");
                reqwest::Client::new()
            });
        let amocrm = Arc::new(amocrm::Client::new(config.clone(), db, http.clone()));
        Channels {
            config,
            mailer,
            http,
            amocrm,
            health: Mutex::default(),
        }
    }

    /// Ends the pause of a channel (or of all) after its failures: the
    /// admin's retry is tried at once, not after the channel's pause.
    pub fn resume(&self, channel: Option<Channel>) {
        let mut health = lock(&self.health);
        match channel {
            Some(channel) => {
                health.remove(&channel);
            }
            None => health.clear(),
        }
    }

    /// Whether any channel is configured (the worker is needed).
    pub fn any_configured(&self) -> bool {
        Channel::ALL.iter().any(|c| self.configured(*c))
    }

    /// Whether `channel` has its settings in the config.
    pub fn configured(&self, channel: Channel) -> bool {
        let config = &self.config;
        match channel {
            Channel::Email => config.smtp.is_configured(),
            Channel::Telegram => config.telegram.is_configured(),
            Channel::Amocrm => config.amocrm.is_configured(),
        }
    }

    /// Whether any of `channels` may be tried now: not paused after
    /// failures. False for none.
    pub fn any_ready(&self, channels: &[Channel]) -> bool {
        if channels.is_empty() {
            return false;
        }
        let health = lock(&self.health);
        let now = Instant::now();
        channels
            .iter()
            .any(|c| health.get(c).is_none_or(|h| h.paused_until <= now))
    }

    /// Gives up the queued deliveries of channels that are not configured
    /// (their keys were removed from the config): no try of them can
    /// succeed, and the worker only looks at configured channels. Gives how
    /// many were given up.
    pub fn fail_unconfigured(&self, conn: &rusqlite::Connection) -> crate::error::AppResult<usize> {
        let mut failed = 0;
        for channel in Channel::ALL.iter().copied() {
            if !self.configured(channel) {
                failed += outbox::fail_pending(conn, channel, not_configured(channel))?;
            }
        }
        Ok(failed)
    }

    /// Texts that must never reach a stored error or a log line.
    fn secrets(&self) -> Vec<String> {
        let mut secrets = vec![
            self.config.smtp.password.clone(),
            self.config.telegram.bot_token.clone(),
            self.config.amocrm.client_secret.clone(),
        ];
        secrets.extend(self.amocrm.current_tokens());
        secrets
    }

    /// `text` with every secret replaced by "***".
    pub fn scrub(&self, text: &str) -> String {
        scrub(text, &self.secrets())
    }
}

/// `text` with each of `secrets` (those of 4 characters and more) replaced
/// by "***", and cut to 1,000 characters.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets {
        let secret = secret.trim();
        if secret.chars().count() >= 4 {
            out = out.replace(secret, "***");
        }
    }
    out.chars().take(1000).collect()
}

/// The outbox worker.
pub struct Worker {
    db: Db,
    channels: Arc<Channels>,
    wake: Wake,
}

/// A channel's recent failures: no row of it is claimed before `paused_until`.
#[derive(Clone, Copy)]
struct Health {
    failures_in_a_row: i64,
    paused_until: Instant,
}

/// How long a claim lasts beyond the attempt's own time limit.
const CLAIM_MARGIN: Duration = Duration::from_secs(30);
/// The longest the worker sleeps without looking at the queue.
const IDLE_LOOK: Duration = Duration::from_secs(60);

impl Worker {
    pub fn new(db: Db, channels: Arc<Channels>, wake: Wake) -> Worker {
        Worker { db, channels, wake }
    }

    /// Delivers until `stop` is cancelled, then lets the tries under way end.
    pub async fn run(self, stop: CancellationToken) -> anyhow::Result<()> {
        let now = timestamp(Utc::now());
        let released = self
            .db
            .call(move |c| outbox::release_interrupted(c, &now))
            .await?;
        if released > 0 {
            tracing::info!("{released} interrupted deliveries queued again");
        }
        let channels = self.channels.clone();
        let given_up = self.db.call(move |c| channels.fail_unconfigured(c)).await?;
        if given_up > 0 {
            tracing::warn!(
                "{given_up} queued deliveries given up: their channel is not configured"
            );
        }
        let notifications = &self.channels.config.notifications;
        let parallel = notifications.parallel_per_channel.max(1) as usize;
        let slots: HashMap<Channel, Arc<Semaphore>> = Channel::ALL
            .iter()
            .map(|c| (*c, Arc::new(Semaphore::new(parallel))))
            .collect();
        let attempt_limit = Duration::from_secs(notifications.attempt_timeout_seconds.into());
        let mut tries: JoinSet<()> = JoinSet::new();
        loop {
            if stop.is_cancelled() {
                break;
            }
            let pause = match self
                .claim_and_start(&slots, attempt_limit, &mut tries)
                .await
            {
                Ok(pause) => pause,
                Err(err) => {
                    tracing::warn!("outbox: {err:#}");
                    Duration::from_secs(1)
                }
            };
            tokio::select! {
                biased;
                () = stop.cancelled() => break,
                () = self.wake.notified() => {}
                Some(ended) = tries.join_next(), if !tries.is_empty() => {
                    if let Err(err) = ended {
                        tracing::error!("outbox: a delivery task failed: {err}");
                    }
                }
                () = tokio::time::sleep(pause) => {}
            }
        }
        if !tries.is_empty() {
            tracing::info!(
                "outbox: letting {} deliveries under way finish",
                tries.len()
            );
        }
        while tries.join_next().await.is_some() {}
        Ok(())
    }

    /// Claims what is due on every channel with free slots and starts it;
    /// gives how long to sleep before the next due row.
    async fn claim_and_start(
        &self,
        slots: &HashMap<Channel, Arc<Semaphore>>,
        attempt_limit: Duration,
        tries: &mut JoinSet<()>,
    ) -> anyhow::Result<Duration> {
        let mut pause = IDLE_LOOK;
        let live = Channel::ALL.iter().copied();
        for channel in live.filter(|c| self.channels.configured(*c)) {
            let paused = self.health_of(channel).map(|h| h.paused_until);
            if let Some(until) = paused.filter(|until| *until > Instant::now()) {
                pause = pause.min(until - Instant::now());
                continue;
            }
            let slot = &slots[&channel];
            let free = slot.available_permits();
            if free == 0 {
                // A try ending wakes the loop.
                continue;
            }
            let now = Utc::now();
            let lease = chrono::Duration::from_std(attempt_limit + CLAIM_MARGIN)?;
            let (at, until) = (timestamp(now), timestamp(now + lease));
            let claimed = self
                .db
                .write_grouped(move |c| outbox::claim(c, channel, free, &at, &until))
                .await?;
            let started = claimed.len();
            for row in claimed {
                let permit = slot.clone().try_acquire_owned()?;
                let (db, channels) = (self.db.clone(), self.channels.clone());
                tries.spawn(async move {
                    let _permit = permit;
                    let delivered = attempt(db, channels.clone(), row, attempt_limit).await;
                    record_health(&channels, channel, delivered);
                });
            }
            if started < free {
                let next = self.db.call(move |c| outbox::next_due(c, channel)).await?;
                if let Some(next) = next.and_then(|t| DateTime::parse_from_rfc3339(&t).ok()) {
                    let wait = (next.with_timezone(&Utc) - Utc::now())
                        .to_std()
                        .unwrap_or(Duration::ZERO);
                    pause = pause.min(wait.max(Duration::from_millis(10)));
                }
            }
        }
        Ok(pause)
    }
}

impl Worker {
    fn health_of(&self, channel: Channel) -> Option<Health> {
        lock(&self.channels.health).get(&channel).copied()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Resets a channel's pause after a delivery, or grows it after a failed
/// try (`None`: the try's outcome says nothing of the channel).
fn record_health(channels: &Channels, channel: Channel, delivered: Option<bool>) {
    let mut health = lock(&channels.health);
    match delivered {
        Some(true) => {
            health.remove(&channel);
        }
        Some(false) => {
            let notifications = &channels.config.notifications;
            let failures = health.get(&channel).map_or(0, |h| h.failures_in_a_row) + 1;
            let pause = retry_pause(
                failures,
                Duration::from_millis(notifications.retry_first_ms.into()),
                Duration::from_secs(notifications.retry_max_seconds.into()),
            );
            health.insert(
                channel,
                Health {
                    failures_in_a_row: failures,
                    paused_until: Instant::now() + pause,
                },
            );
        }
        None => {}
    }
}

/// One try of one row, its outcome written back. Gives whether the channel
/// worked (`Some(false)`: a failure worth retrying).
async fn attempt(db: Db, channels: Arc<Channels>, row: Claimed, limit: Duration) -> Option<bool> {
    let outcome = match tokio::time::timeout(limit, deliver(&db, &channels, &row)).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Retry(format!("Нет ответа за {} с", limit.as_secs())),
    };
    let notifications = channels.config.notifications.clone();
    let (id, channel) = (row.id, row.channel);
    let delivered = match &outcome {
        Outcome::Sent { .. } => Some(true),
        Outcome::Retry(_) => Some(false),
        Outcome::Permanent(_) | Outcome::Dropped(_) => None,
    };
    let write = match outcome {
        Outcome::Sent { amocrm_lead_id } => {
            tracing::info!(delivery = id, channel = channel.as_str(), "lead delivered");
            let lead_id = row.lead_id.clone();
            db.write_grouped(move |c| {
                if let (Some(lead), Some(amo)) = (lead_id, amocrm_lead_id) {
                    leads::set_amocrm_id(c, &lead, amo)?;
                }
                outbox::mark_sent(c, id, &timestamp(Utc::now()))
            })
            .await
        }
        Outcome::Dropped(reason) => {
            tracing::info!(
                delivery = id,
                channel = channel.as_str(),
                "delivery dropped: {reason}"
            );
            db.write_grouped(move |c| outbox::delete(c, id)).await
        }
        Outcome::Permanent(error) => {
            let error = channels.scrub(&error);
            tracing::warn!(
                delivery = id,
                channel = channel.as_str(),
                "delivery failed: {error}"
            );
            db.write_grouped(move |c| outbox::mark_failed(c, id, &error))
                .await
        }
        Outcome::Retry(error) => {
            let error = channels.scrub(&error);
            let now = Utc::now();
            let since = DateTime::parse_from_rfc3339(&row.retry_since)
                .map(|t| t.with_timezone(&Utc))
                .unwrap_or(now);
            let give_up =
                since + chrono::Duration::minutes(i64::from(notifications.give_up_after_minutes));
            let pause = retry_pause(
                row.attempts,
                Duration::from_millis(notifications.retry_first_ms.into()),
                Duration::from_secs(notifications.retry_max_seconds.into()),
            );
            let next = now + chrono::Duration::from_std(pause).unwrap_or(chrono::Duration::zero());
            if now >= give_up {
                tracing::warn!(
                    delivery = id,
                    channel = channel.as_str(),
                    attempts = row.attempts,
                    "delivery given up: {error}"
                );
                db.write_grouped(move |c| outbox::mark_failed(c, id, &error))
                    .await
            } else {
                tracing::info!(
                    delivery = id,
                    channel = channel.as_str(),
                    attempts = row.attempts,
                    "delivery failed, next try in {pause:.1?}: {error}"
                );
                let next = timestamp(next.min(give_up.max(now)));
                db.write_grouped(move |c| outbox::mark_retry(c, id, &error, &next))
                    .await
            }
        }
    };
    if let Err(err) = write {
        // The claim runs out and the row is tried again.
        tracing::error!(delivery = id, "cannot record a delivery's outcome: {err}");
    }
    delivered
}

/// The pause before try `attempts + 1`: `first` doubled per failure,
/// at most `max`, then ±25 % jitter.
pub fn retry_pause(attempts: i64, first: Duration, max: Duration) -> Duration {
    let doublings = attempts.saturating_sub(1).clamp(0, 30) as u32;
    let base = first
        .saturating_mul(2u32.saturating_pow(doublings))
        .min(max);
    let jitter = rand::rng().random_range(0.75..=1.25);
    base.mul_f64(jitter)
}

/// What a lead's delivery needs from the database.
struct Loaded {
    lead: leads::Lead,
    car_slug: Option<String>,
    settings: Settings,
}

async fn deliver(db: &Db, channels: &Channels, row: &Claimed) -> Outcome {
    match row.kind {
        Kind::Lead => deliver_lead(db, channels, row).await,
        Kind::SearchConfirm | Kind::SearchAlert => saved_search::deliver(db, channels, row).await,
        Kind::Reminder => reminder::deliver(db, channels, row).await,
        Kind::Assigned => assigned::deliver(db, channels, row).await,
    }
}

/// The refusal of a delivery whose lead was deleted.
const LEAD_DELETED: &str = "Заявка удалена до отправки";

/// The row's lead with its car's slug and the settings, or the outcome
/// when there is none to deliver (deleted) or it cannot be read now.
async fn load(db: &Db, row: &Claimed) -> Result<Loaded, Outcome> {
    let Some(lead_id) = row.lead_id.clone() else {
        return Err(Outcome::Permanent(LEAD_DELETED.into()));
    };
    let loaded = db
        .call(move |c| {
            let Some(lead) = leads::get(c, &lead_id)? else {
                return Ok(None);
            };
            let car_slug = match &lead.car_id {
                // A draft has no public page to link.
                Some(car) => cars::get(c, car, false)?.map(|car| car.slug),
                None => None,
            };
            // Announced to the recipients of the lead's salon and type.
            let settings = crate::domain::salons::for_announcing(
                c,
                &crate::domain::settings::get(c)?,
                lead.salon_id,
                lead.lead_type,
                "",
            )?;
            Ok(Some(Loaded {
                lead,
                car_slug,
                settings,
            }))
        })
        .await;
    match loaded {
        Ok(Some(loaded)) => Ok(loaded),
        Ok(None) => Err(Outcome::Permanent(LEAD_DELETED.into())),
        Err(err) => Err(Outcome::Retry(format!("База данных: {err}"))),
    }
}

/// The host of the site's address, for Message-IDs.
fn mail_host(config: &Config) -> String {
    config
        .base()
        .split("://")
        .nth(1)
        .unwrap_or("localhost")
        .split(['/', ':'])
        .next()
        .unwrap_or("localhost")
        .to_string()
}

async fn deliver_lead(db: &Db, channels: &Channels, row: &Claimed) -> Outcome {
    let loaded = match load(db, row).await {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    let config = &channels.config;
    let context = message::Context {
        base_url: config.base(),
        car_slug: loaded.car_slug.as_deref(),
        salon_name: &loaded.settings.public.salon_name,
    };
    let lead = &loaded.lead;
    match row.channel {
        Channel::Email => {
            let mailer = match channels.lead_mailer(&loaded.settings) {
                Ok(mailer) => mailer,
                Err(outcome) => return outcome,
            };
            let host = mail_host(config);
            let message_id = format!("<lead-{}-outbox-{}@{host}>", lead.id, row.id);
            let message = match mailer.lead_message(lead, &context, &loaded.settings, message_id) {
                Ok(message) => message,
                // A bad address in the settings: an admin fixes it and retries.
                Err(error) => return Outcome::Retry(error),
            };
            Outcome::of(mailer.send(message).await)
        }
        Channel::Telegram => {
            let telegram = telegram_for(config, &loaded.settings);
            if !telegram.is_configured() {
                return Outcome::Permanent(not_configured(Channel::Telegram).into());
            }
            let text = message::telegram(lead, &context);
            Outcome::of(telegram::send(&channels.http, &telegram, &text).await)
        }
        Channel::Amocrm => {
            if !config.amocrm.is_configured() {
                return Outcome::Permanent(not_configured(Channel::Amocrm).into());
            }
            if let Some(existing) = lead.amocrm_lead_id {
                // Pushed before (a try interrupted after amoCRM answered).
                return Outcome::Sent {
                    amocrm_lead_id: Some(existing),
                };
            }
            match channels.amocrm.push_lead(lead, &context).await {
                Ok(id) => Outcome::Sent {
                    amocrm_lead_id: Some(id),
                },
                Err(error) => Outcome::Retry(error),
            }
        }
    }
}

/// The lead an admin's amoCRM test pushes (never stored here).
pub fn test_lead() -> leads::Lead {
    let input = leads::LeadInput {
        lead_type: Some("contact_form".into()),
        name: Some("Тестовая заявка с сайта".into()),
        phone: Some("+79990000000".into()),
        message: Some("Проверка интеграции с amoCRM; эту сделку можно удалить.".into()),
        consent: true,
        ..leads::LeadInput::default()
    };
    let year = chrono::Datelike::year(&Utc::now());
    match input.validate(1, "127.0.0.1", year) {
        Ok(valid) => valid.into_unsaved(),
        Err(err) => unreachable!("the test lead is valid: {err}"),
    }
}

/// A stored time: RFC 3339, UTC, milliseconds.
pub fn timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_grow_with_jitter_up_to_the_limit() {
        let first = Duration::from_secs(4);
        let max = Duration::from_secs(60);
        for (attempts, base) in [(1, 4.0), (2, 8.0), (3, 16.0), (5, 60.0), (40, 60.0)] {
            let pause = retry_pause(attempts, first, max).as_secs_f64();
            assert!(
                pause >= base * 0.75 - 1e-9 && pause <= base * 1.25 + 1e-9,
                "{attempts}: {pause}"
            );
        }
    }

    #[test]
    fn secrets_are_scrubbed() {
        let secrets = vec!["s3cret-pass".to_string(), "".to_string(), "abc".to_string()];
        assert_eq!(
            scrub("auth failed for s3cret-pass at abc", &secrets),
            "auth failed for *** at abc"
        );
    }
}
