//! E-mail over SMTP with lettre: the transport from `[smtp]`, the message
//! from the lead and the settings' addresses.

use std::time::Duration;

use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::message::{self, Context};
use crate::config::SmtpConfig;
use crate::domain::leads::Lead;
use crate::domain::settings::Settings;

/// The SMTP transport of the server; a connection per message.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    /// The login, a sender when the settings name none and it is an address.
    username: String,
}

/// Why a message could not be made or sent (never holds the password).
pub type MailError = String;

impl Mailer {
    /// The transport `[smtp]` describes; None when no host is set.
    pub fn from_config(smtp: &SmtpConfig, timeout: Duration) -> anyhow::Result<Option<Mailer>> {
        if !smtp.is_configured() {
            return Ok(None);
        }
        let host = smtp.host.trim();
        let builder = match smtp.security.as_str() {
            "tls" => AsyncSmtpTransport::<Tokio1Executor>::relay(host)?,
            "none" => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
            _ => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host)?,
        };
        let mut builder = builder.port(smtp.port).timeout(Some(timeout));
        if !smtp.username.is_empty() {
            builder = builder.credentials(Credentials::new(
                smtp.username.clone(),
                smtp.password.clone(),
            ));
        }
        Ok(Some(Mailer {
            transport: builder.build(),
            username: smtp.username.clone(),
        }))
    }

    pub async fn send(&self, message: Message) -> Result<(), MailError> {
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| format!("SMTP: {e}"))
    }

    /// The sender: the settings' address, else the SMTP login when it is an
    /// address, else noreply at the site's host.
    pub(crate) fn sender(&self, settings: &Settings, base_url: &str) -> Result<Mailbox, MailError> {
        let address = if !settings.from_email.trim().is_empty() {
            settings.from_email.trim().to_string()
        } else if self.username.contains('@') {
            self.username.clone()
        } else {
            let host = base_url
                .split("://")
                .nth(1)
                .unwrap_or("localhost")
                .split(['/', ':'])
                .next()
                .unwrap_or("localhost");
            format!("noreply@{host}")
        };
        let name = settings.public.salon_name.trim();
        let mailbox = format!("{} <{address}>", quoted(name));
        mailbox
            .parse()
            .or_else(|_| address.parse())
            .map_err(|e| format!("Неверный адрес отправителя {address:?}: {e}"))
    }

    /// The lead's message for the settings' recipients. `message_id` stays
    /// the same across tries, so a mail client shows a repeat as one.
    pub fn lead_message(
        &self,
        lead: &Lead,
        context: &Context,
        settings: &Settings,
        message_id: String,
    ) -> Result<Message, MailError> {
        self.lead_message_titled(&message::subject(lead), lead, context, settings, message_id)
    }

    /// [`Mailer::lead_message`] with another subject, which also heads the
    /// body (a reminder's).
    pub fn lead_message_titled(
        &self,
        subject: &str,
        lead: &Lead,
        context: &Context,
        settings: &Settings,
        message_id: String,
    ) -> Result<Message, MailError> {
        let to = settings.notification_email.clone();
        self.lead_message_to(&to, subject, lead, context, settings, message_id)
    }

    /// A lead's message under `subject` to the addresses of `to` (a staff
    /// member's own, for a lead given to them).
    pub fn lead_message_to(
        &self,
        to: &str,
        subject: &str,
        lead: &Lead,
        context: &Context,
        settings: &Settings,
        message_id: String,
    ) -> Result<Message, MailError> {
        let mut builder = Message::builder()
            .from(self.sender(settings, context.base_url)?)
            .subject(subject)
            .message_id(Some(message_id));
        for to in recipients(to)? {
            builder = builder.to(to);
        }
        if let Some(email) = &lead.email
            && let Ok(reply_to) = email.parse::<Mailbox>()
        {
            builder = builder.reply_to(reply_to);
        }
        builder
            .multipart(MultiPart::alternative_plain_html(
                message::plain_titled(subject, lead, context),
                message::html_titled(subject, lead, context),
            ))
            .map_err(|e| format!("Письмо не собрано: {e}"))
    }

    /// The settings form's test message.
    pub fn test_message(&self, settings: &Settings, base_url: &str) -> Result<Message, MailError> {
        let mut builder = Message::builder()
            .from(self.sender(settings, base_url)?)
            .subject("Проверка уведомлений о заявках");
        for to in recipients(&settings.notification_email)? {
            builder = builder.to(to);
        }
        let text = format!(
            "Это тестовое письмо с сайта {base_url}.\n\nЕсли вы его получили, уведомления \
             о новых заявках будут приходить на этот адрес.\n"
        );
        let html = format!(
            "<!DOCTYPE html><html lang=\"ru\"><head><meta charset=\"utf-8\"></head><body>\
             <p>Это тестовое письмо с сайта <a href=\"{0}\">{0}</a>.</p><p>Если вы его \
             получили, уведомления о новых заявках будут приходить на этот адрес.</p>\
             </body></html>",
            message::escape(base_url)
        );
        builder
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|e| format!("Письмо не собрано: {e}"))
    }
}

/// The notification addresses: one or more, separated by commas or
/// semicolons.
pub fn recipients(list: &str) -> Result<Vec<Mailbox>, MailError> {
    let mut out = Vec::new();
    for address in list
        .split([',', ';'])
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        out.push(
            address
                .parse()
                .map_err(|_| format!("Неверный адрес получателя: {address}"))?,
        );
    }
    if out.is_empty() {
        return Err("Не указан адрес для уведомлений".into());
    }
    Ok(out)
}

/// A display name in quotes, its own quotes and backslashes escaped.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}
