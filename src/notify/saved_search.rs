//! Mails to a visitor who follows a saved search (docs/saved-searches.md):
//! the confirmation link and the alerts, from the salon's sender, in
//! Russian, plain text and HTML (every value escaped). Not governed by the
//! staff's e-mail switch: the visitor asked for them. Also the job that
//! queues the alerts.

use std::sync::Arc;

use lettre::Message;
use lettre::message::MultiPart;
use lettre::message::header::{Header, HeaderName, HeaderValue};

use super::message::escape;
use super::{Channels, Outcome, Wake, not_configured};
use crate::clock::Clock;
use crate::db::Db;
use crate::domain::money::Money;
use crate::domain::outbox::{Channel, Claimed, Kind};
use crate::domain::saved_searches::{
    self, AlertItem, AlertPayload, CONFIRM_VALID_DAYS, ConfirmPayload,
};
use crate::domain::settings::{self, Settings};

/// One alert run at a time (the schedule's and a test's, say).
static RUNNING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The alert job: queues the mails due now and wakes the worker. Does
/// nothing while no mail server is configured (changes then wait).
pub async fn queue_alerts(
    db: Db,
    clock: Arc<Clock>,
    channels: Arc<Channels>,
    wake: Wake,
) -> anyhow::Result<usize> {
    if !channels.configured(Channel::Email) {
        return Ok(0);
    }
    let _running = RUNNING.lock().await;
    let now = clock.now();
    let base = channels.config.base().to_string();
    let queued = db
        .call(move |c| saved_searches::queue_alerts(c, now, &base))
        .await?;
    if queued > 0 {
        tracing::info!("{queued} saved-search alert mails queued");
        if channels.any_ready(&[Channel::Email]) {
            wake.notify_one();
        }
    }
    Ok(queued)
}

/// `List-Unsubscribe: <URL>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_string())
    }
}

/// The visitor's page of a link: `{base}/saved-searches/{page}?token=…`.
pub fn page_link(base: &str, page: &str, token: &str) -> String {
    format!("{base}/saved-searches/{page}?token={token}")
}

/// The host of the site, for message ids.
fn host(base: &str) -> &str {
    base.split("://")
        .nth(1)
        .unwrap_or("localhost")
        .split(['/', ':'])
        .next()
        .unwrap_or("localhost")
}

fn salon(settings: &Settings) -> String {
    let name = settings.public.salon_name.trim();
    if name.is_empty() {
        "Автосалон".into()
    } else {
        name.into()
    }
}

/// Delivers a confirmation or an alert row.
pub(super) async fn deliver(db: &Db, channels: &Channels, row: &Claimed) -> Outcome {
    if row.channel != Channel::Email {
        return Outcome::Permanent("Письма посетителям уходят только по e-mail".into());
    }
    let Some(mailer) = &channels.mailer else {
        return Outcome::Permanent(not_configured(Channel::Email).into());
    };
    let base = channels.config.base().to_string();
    let built = match row.kind {
        Kind::SearchConfirm => confirm_message(db, mailer, row, &base).await,
        _ => alert_message(db, mailer, row, &base).await,
    };
    let message = match built {
        Ok(message) => message,
        Err(outcome) => return outcome,
    };
    match mailer.send(message).await {
        Ok(()) => {
            let id = row.id;
            if let Err(err) = db.call(move |c| saved_searches::forget_tokens(c, id)).await {
                tracing::warn!(delivery = id, "cannot drop the sent mail's tokens: {err}");
            }
            Outcome::Sent {
                amocrm_lead_id: None,
            }
        }
        Err(error) => Outcome::Retry(error),
    }
}

const GONE: &str = "Подписка отменена до отправки";
const SENT_BEFORE: &str = "Письмо уже отправлено (ссылок в нём больше нет)";

async fn confirm_message(
    db: &Db,
    mailer: &super::email::Mailer,
    row: &Claimed,
    base: &str,
) -> Result<Message, Outcome> {
    let payload: ConfirmPayload = serde_json::from_value(row.payload.clone())
        .map_err(|e| Outcome::Permanent(format!("Неверные данные письма: {e}")))?;
    let Some(token) = payload.token else {
        return Err(Outcome::Permanent(SENT_BEFORE.into()));
    };
    let id = payload.subscription_id.clone();
    let (sub, settings) = db
        .call(move |c| Ok((saved_searches::get(c, &id)?, settings::get(c)?)))
        .await
        .map_err(|e| Outcome::Retry(format!("База данных: {e}")))?;
    let Some(sub) = sub.filter(|s| s.unsubscribed_at.is_none()) else {
        return Err(Outcome::Dropped(GONE.into()));
    };
    if sub.confirmed_at.is_some() {
        return Err(Outcome::Dropped("Адрес уже подтверждён".into()));
    }
    let salon = salon(&settings);
    let link = page_link(base, "confirm", &token);
    let page = saved_searches::absolute(base, &sub.page_url);
    let (forget_text, forget_html) = forget_lines(base, payload.forget_token.as_deref());
    let text = format!(
        "Здравствуйте!\n\nВы попросили сообщать вам о новых автомобилях и снижении цен \
         в салоне «{salon}» по поиску:\n{description}\n{page}\n\nЧтобы подтвердить подписку, \
         перейдите по ссылке:\n{link}\n\nСсылка действует {CONFIRM_VALID_DAYS} дней. Если вы \
         не подписывались, просто удалите это письмо: без подтверждения мы ничего \
         не пришлём.\n{forget_text}",
        description = sub.description,
    );
    let html = format!(
        "<!DOCTYPE html><html lang=\"ru\"><head><meta charset=\"utf-8\"></head><body>\
         <p>Здравствуйте!</p><p>Вы попросили сообщать вам о новых автомобилях и снижении \
         цен в салоне «{salon}» по поиску <a href=\"{page}\">{description}</a>.</p>\
         <p><a href=\"{link}\">Подтвердить подписку</a></p>\
         <p>Ссылка действует {CONFIRM_VALID_DAYS} дней. Если вы не подписывались, просто \
         удалите это письмо: без подтверждения мы ничего не пришлём.</p>{forget_html}\
         </body></html>",
        salon = escape(&salon),
        page = escape(&page),
        description = escape(&sub.description),
        link = escape(&link),
    );
    let to = sub
        .email
        .parse()
        .map_err(|_| Outcome::Permanent(format!("Неверный адрес: {}", sub.email)))?;
    Message::builder()
        .from(mailer.sender(&settings, base).map_err(Outcome::Retry)?)
        .to(to)
        .subject(format!("Подтвердите подписку: {}", sub.description))
        .message_id(Some(format!("<search-confirm-{}@{}>", row.id, host(base))))
        .multipart(MultiPart::alternative_plain_html(text, html))
        .map_err(|e| Outcome::Permanent(format!("Письмо не собрано: {e}")))
}

/// The withdrawal link's lines (text, HTML) when the mail has its token
/// (every visitor mail queued since it came: `domain::withdrawal`).
fn forget_lines(base: &str, token: Option<&str>) -> (String, String) {
    let Some(token) = token else {
        return (String::new(), String::new());
    };
    let link = crate::domain::withdrawal::link(base, token);
    (
        format!("\n{FORGET_LABEL}: {link}\n"),
        format!("<p><a href=\"{}\">{FORGET_LABEL}</a></p>", escape(&link)),
    )
}

/// The withdrawal link's words in every visitor mail.
pub const FORGET_LABEL: &str = "Отозвать согласие на обработку персональных данных и удалить их";

fn price(kopecks: i64) -> String {
    saved_searches::rubles(Money(kopecks))
}

/// "Новинка: Haval Jolion, 2025 — 2 100 000 ₽" or
/// "Цена снижена: … — 2 500 000 ₽ → 2 300 000 ₽".
fn item_line(item: &AlertItem) -> String {
    match item.old_price_kopecks {
        Some(old) => format!(
            "Цена снижена: {} — {} → {}",
            item.title,
            price(old),
            price(item.price_kopecks)
        ),
        None => format!("Новинка: {} — {}", item.title, price(item.price_kopecks)),
    }
}

async fn alert_message(
    db: &Db,
    mailer: &super::email::Mailer,
    row: &Claimed,
    base: &str,
) -> Result<Message, Outcome> {
    let mut payload: AlertPayload = serde_json::from_value(row.payload.clone())
        .map_err(|e| Outcome::Permanent(format!("Неверные данные письма: {e}")))?;
    let Some(all_token) = payload.unsubscribe_all_token.clone() else {
        return Err(Outcome::Permanent(SENT_BEFORE.into()));
    };
    let ids: Vec<String> = payload
        .sections
        .iter()
        .map(|s| s.subscription_id.clone())
        .collect();
    let (active, settings) = db
        .call(move |c| {
            let mut active = Vec::new();
            for id in ids {
                if saved_searches::get(c, &id)?.is_some_and(|s| s.is_active()) {
                    active.push(id);
                }
            }
            Ok((active, settings::get(c)?))
        })
        .await
        .map_err(|e| Outcome::Retry(format!("База данных: {e}")))?;
    // A search unsubscribed since the mail was queued is left out.
    payload
        .sections
        .retain(|s| active.contains(&s.subscription_id));
    if payload.sections.is_empty() {
        return Err(Outcome::Dropped(GONE.into()));
    }
    let salon = salon(&settings);
    let all_link = page_link(base, "unsubscribe", &all_token);
    let mut text = format!(
        "Здравствуйте!\n\nЧто изменилось в салоне «{salon}» по вашим поискам с прошлого \
         письма:\n"
    );
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"ru\"><head><meta charset=\"utf-8\"></head><body>\
         <p>Здравствуйте!</p><p>Что изменилось в салоне «{}» по вашим поискам с прошлого \
         письма:</p>",
        escape(&salon)
    );
    for section in &payload.sections {
        text.push_str(&format!("\n{}\n", section.description));
        html.push_str(&format!(
            "<h2><a href=\"{}\">{}</a></h2><ul>",
            escape(&section.page_url),
            escape(&section.description)
        ));
        for item in &section.items {
            let line = item_line(item);
            text.push_str(&format!("- {line}\n  {}\n", item.url));
            html.push_str(&format!(
                "<li><a href=\"{}\">{}</a></li>",
                escape(&item.url),
                escape(&line)
            ));
        }
        html.push_str("</ul>");
        text.push_str(&format!("Все автомобили по поиску: {}\n", section.page_url));
        if let Some(token) = &section.unsubscribe_token {
            let link = page_link(base, "unsubscribe", token);
            text.push_str(&format!("Отписаться от этого поиска: {link}\n"));
            html.push_str(&format!(
                "<p><a href=\"{}\">Отписаться от этого поиска</a></p>",
                escape(&link)
            ));
        }
    }
    text.push_str(&format!(
        "\nМы пишем не чаще одного раза в день. Отписаться от всех уведомлений: {all_link}\n"
    ));
    let (forget_text, forget_html) = forget_lines(base, payload.forget_token.as_deref());
    text.push_str(&forget_text);
    html.push_str(&format!(
        "<p>Мы пишем не чаще одного раза в день. <a href=\"{}\">Отписаться от всех \
         уведомлений</a></p>{forget_html}</body></html>",
        escape(&all_link)
    ));
    let subject = match payload.sections.as_slice() {
        [one] => format!("Новое по вашему поиску: {}", one.description),
        many => format!("Новое по вашим поискам ({})", many.len()),
    };
    let to = payload
        .email
        .parse()
        .map_err(|_| Outcome::Permanent(format!("Неверный адрес: {}", payload.email)))?;
    Message::builder()
        .from(mailer.sender(&settings, base).map_err(Outcome::Retry)?)
        .to(to)
        .subject(subject)
        .message_id(Some(format!("<search-alert-{}@{}>", row.id, host(base))))
        .header(ListUnsubscribe(format!(
            "<{base}/api/saved-searches/unsubscribe?token={all_token}>"
        )))
        .header(ListUnsubscribePost)
        .multipart(MultiPart::alternative_plain_html(text, html))
        .map_err(|e| Outcome::Permanent(format!("Письмо не собрано: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_new_cars_and_drops() {
        let mut item = AlertItem {
            car_id: "c".into(),
            title: "Haval Jolion, 2025".into(),
            url: "https://s/car/c".into(),
            price_kopecks: 230_000_000,
            old_price_kopecks: Some(250_000_000),
        };
        assert_eq!(
            item_line(&item),
            "Цена снижена: Haval Jolion, 2025 — 2 500 000 ₽ → 2 300 000 ₽"
        );
        item.old_price_kopecks = None;
        assert_eq!(
            item_line(&item),
            "Новинка: Haval Jolion, 2025 — 2 300 000 ₽"
        );
    }
}
