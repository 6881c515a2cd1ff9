//! What a notification says about a lead, in Russian: one list of labelled
//! lines, rendered as plain text, as HTML (every value escaped) and as a
//! short Telegram message.

use chrono::{DateTime, FixedOffset};

use crate::domain::leads::{Lead, LeadStatus, LeadType};

/// Everything a message needs besides the lead.
pub struct Context<'a> {
    /// The site's base URL without a trailing slash.
    pub base_url: &'a str,
    /// The slug of the lead's car, when it still exists.
    pub car_slug: Option<&'a str>,
    pub salon_name: &'a str,
}

/// One line of a message: a label and its value.
pub struct Line {
    pub label: &'static str,
    pub value: Value,
}

pub enum Value {
    Text(String),
    /// A link: its address and the text shown.
    Link(String, String),
}

pub fn type_label(lead_type: LeadType) -> &'static str {
    match lead_type {
        LeadType::AutoCredit => "Заявка на автокредит",
        LeadType::TradeIn => "Трейд-ин",
        LeadType::AutoSelection => "Подбор автомобиля",
        LeadType::LeaseBooking => "Бронирование автомобиля",
        LeadType::ContactForm => "Рассрочка",
        LeadType::TestDrive => "Тест-драйв",
        LeadType::MarketplaceCall => "Звонок с площадки",
        LeadType::MissedCall => "Пропущенный звонок",
        LeadType::PhoneCall => "Звонок",
        LeadType::Callback => "Перезвоните мне",
    }
}

/// A lead's status in the panel's words (`LEAD_STATUS_LABELS` in
/// `ui/src/admin/lib/leads.ts`): the mails, the audit and the exports say
/// what the panel says.
pub fn status_label(status: LeadStatus) -> &'static str {
    match status {
        LeadStatus::New => "Новый",
        LeadStatus::InProgress => "В работе",
        LeadStatus::Completed => "Завершён",
        LeadStatus::Cancelled => "Отменён",
    }
}

fn car_status_label(code: &str) -> String {
    match code {
        "new" => "Новый".into(),
        "used" => "С пробегом".into(),
        "lease" => "Аренда с выкупом".into(),
        other => other.into(),
    }
}

/// A time as staff read it: Moscow time, "23.11.2026 19:22 (МСК)".
pub fn moscow_time(rfc3339: &str) -> String {
    let msk = FixedOffset::east_opt(3 * 3600).expect("valid offset");
    match DateTime::parse_from_rfc3339(rfc3339) {
        Ok(at) => at
            .with_timezone(&msk)
            .format("%d.%m.%Y %H:%M (МСК)")
            .to_string(),
        Err(_) => rfc3339.to_string(),
    }
}

/// A "YYYY-MM-DD" date as "28.11.2026 (суббота)".
pub fn russian_date(date: &str) -> String {
    const WEEKDAYS: [&str; 7] = [
        "понедельник",
        "вторник",
        "среда",
        "четверг",
        "пятница",
        "суббота",
        "воскресенье",
    ];
    match crate::domain::hours::parse_date(date) {
        Some(d) => {
            let weekday = WEEKDAYS[chrono::Datelike::weekday(&d).num_days_from_monday() as usize];
            format!("{} ({weekday})", d.format("%d.%m.%Y"))
        }
        None => date.to_string(),
    }
}

/// Rubles with spaces between thousands: "2 500 000,50 ₽".
pub fn rubles(money: crate::domain::money::Money) -> String {
    let text = money.to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, "00"));
    let (sign, digits) = match whole.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", whole),
    };
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(' ');
        }
        grouped.push(c);
    }
    if fraction == "00" {
        format!("{sign}{grouped} ₽")
    } else {
        format!("{sign}{grouped},{fraction} ₽")
    }
}

/// The admin's page of the lead.
pub fn admin_link(base_url: &str, lead_id: &str) -> String {
    format!("{base_url}/admin/leads?lead={lead_id}")
}

pub fn subject(lead: &Lead) -> String {
    format!(
        "Новая заявка: {} — {}",
        type_label(lead.lead_type),
        lead.name
    )
}

/// Lines being gathered; empty values are left out.
#[derive(Default)]
struct Lines(Vec<Line>);

impl Lines {
    fn text(&mut self, label: &'static str, value: Option<String>) {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            self.0.push(Line {
                label,
                value: Value::Text(value),
            });
        }
    }

    fn link(&mut self, label: &'static str, href: String, text: String) {
        self.0.push(Line {
            label,
            value: Value::Link(href, text),
        });
    }
}

/// Every line the lead holds, in reading order.
pub fn lines(lead: &Lead, context: &Context) -> Vec<Line> {
    let mut lines = Lines::default();
    lines.text("Тип заявки", Some(type_label(lead.lead_type).into()));
    lines.text("Статус", Some(status_label(lead.status).into()));
    lines.text("Ответственный", lead.assignee_name.clone());
    lines.text("Имя", Some(lead.name.clone()));
    lines.link("Телефон", format!("tel:{}", lead.phone), lead.phone.clone());
    if let Some(email) = &lead.email {
        lines.link("E-mail", format!("mailto:{email}"), email.clone());
    }
    lines.text("Сообщение", lead.message.clone());
    // Credit
    lines.text("Желаемая сумма", lead.desired_amount.map(rubles));
    lines.text("Ежемесячный доход", lead.monthly_income.map(rubles));
    lines.text(
        "Срок кредита, мес.",
        lead.term_months.map(|m| m.to_string()),
    );
    lines.text("Первоначальный взнос", lead.down_payment.map(rubles));
    // Test drive: the day and slot asked for
    lines.text(
        "Дата тест-драйва",
        lead.preferred_date.as_deref().map(russian_date),
    );
    lines.text(
        "Время тест-драйва",
        lead.preferred_time.as_ref().map(|t| format!("{t} (МСК)")),
    );
    // Trade-in: the visitor's own car
    lines.text("Марка автомобиля клиента", lead.car_brand.clone());
    lines.text("Модель автомобиля клиента", lead.car_model.clone());
    lines.text("Год выпуска", lead.car_year.map(|y| y.to_string()));
    lines.text("Пробег, км", lead.car_mileage.map(|m| m.to_string()));
    lines.text("Состояние", lead.car_condition.clone());
    // Selection
    lines.text("Бюджет", lead.budget.map(rubles));
    lines.text("Предпочитаемая марка", lead.preferred_brand.clone());
    lines.text("Тип кузова", lead.body_type.clone());
    lines.text("Коробка передач", lead.transmission.clone());
    lines.text("Топливо", lead.fuel_types.clone());
    // The car the request is about, linked to its page while it exists
    let car_link = context
        .car_slug
        .map(|slug| format!("{}/car/{slug}", context.base_url));
    match (lead.car_info.clone(), car_link) {
        (Some(info), Some(link)) => lines.link("Автомобиль", link, info),
        (None, Some(link)) => lines.link("Автомобиль", link.clone(), link),
        (info, None) => lines.text("Автомобиль", info),
    }
    lines.text("Цена", lead.car_price.clone());
    lines.text(
        "Статус автомобиля",
        lead.car_status.as_deref().map(car_status_label),
    );
    if let Some(url) = &lead.source_url {
        lines.link("Страница заявки", url.clone(), url.clone());
    }
    lines.text("utm_source", lead.utm_source.clone());
    lines.text("utm_medium", lead.utm_medium.clone());
    lines.text("utm_campaign", lead.utm_campaign.clone());
    lines.text("utm_term", lead.utm_term.clone());
    lines.text("utm_content", lead.utm_content.clone());
    lines.text(
        "Согласие на рекламу",
        Some(
            if lead.advertising_consent {
                "да"
            } else {
                "нет"
            }
            .into(),
        ),
    );
    lines.text("Время заявки", Some(moscow_time(&lead.created_at)));
    let admin = admin_link(context.base_url, &lead.id);
    lines.link("Заявка в панели", admin.clone(), admin);
    lines.0
}

/// The plain-text body.
pub fn plain(lead: &Lead, context: &Context) -> String {
    plain_titled(&subject(lead), lead, context)
}

/// The plain-text body under another title (a reminder's).
pub fn plain_titled(title: &str, lead: &Lead, context: &Context) -> String {
    let mut out = format!("{title}\n\n");
    for line in lines(lead, context) {
        let value = match line.value {
            Value::Text(text) => text,
            Value::Link(href, text) if href.starts_with("tel:") || href.starts_with("mailto:") => {
                text
            }
            Value::Link(href, text) if href == text => href,
            Value::Link(href, text) => format!("{text} ({href})"),
        };
        if value.contains('\n') {
            out.push_str(&format!("{}:\n{}\n", line.label, value));
        } else {
            out.push_str(&format!("{}: {}\n", line.label, value));
        }
    }
    out.push_str(&format!("\n— {}\n", context.salon_name));
    out
}

/// The HTML body: a table of the lines, every value escaped.
pub fn html(lead: &Lead, context: &Context) -> String {
    html_titled(&subject(lead), lead, context)
}

/// The HTML body under another title (a reminder's).
pub fn html_titled(title: &str, lead: &Lead, context: &Context) -> String {
    let mut out = String::from(
        "<!DOCTYPE html><html lang=\"ru\"><head><meta charset=\"utf-8\"></head><body>",
    );
    out.push_str(&format!("<h2>{}</h2>", escape(title)));
    out.push_str("<table cellpadding=\"4\" style=\"border-collapse:collapse\">");
    for line in lines(lead, context) {
        let value = match line.value {
            Value::Text(text) => escape(&text).replace('\n', "<br>"),
            Value::Link(href, text) => {
                format!("<a href=\"{}\">{}</a>", escape(&href), escape(&text))
            }
        };
        out.push_str(&format!(
            "<tr><th align=\"left\" valign=\"top\">{}</th><td>{}</td></tr>",
            escape(line.label),
            value
        ));
    }
    out.push_str(&format!(
        "</table><p>— {}</p></body></html>",
        escape(context.salon_name)
    ));
    out
}

/// A Telegram message (its HTML subset): the essentials and the links.
pub fn telegram(lead: &Lead, context: &Context) -> String {
    telegram_titled(&subject(lead), lead, context)
}

/// A Telegram message under another title (a reminder's).
pub fn telegram_titled(title: &str, lead: &Lead, context: &Context) -> String {
    let mut out = format!("<b>{}</b>\n", escape(title));
    let essentials = [
        "Ответственный",
        "Имя",
        "Телефон",
        "E-mail",
        "Сообщение",
        "Автомобиль",
        "Цена",
        "Дата тест-драйва",
        "Время тест-драйва",
        "Время заявки",
        "Заявка в панели",
    ];
    for line in lines(lead, context) {
        if !essentials.contains(&line.label) {
            continue;
        }
        let value = match line.value {
            Value::Text(text) => escape(&text),
            Value::Link(href, text) if href.starts_with("tel:") => escape(&text),
            Value::Link(href, text) => {
                format!("<a href=\"{}\">{}</a>", escape(&href), escape(&text))
            }
        };
        out.push_str(&format!("{}: {}\n", escape(line.label), value));
    }
    out
}

/// Escapes text for HTML (element content and quoted attributes).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::money::Money;

    #[test]
    fn every_message_names_the_assignee() {
        let input = crate::domain::leads::LeadInput {
            lead_type: Some("contact_form".into()),
            name: Some("Иван".into()),
            phone: Some("89991234567".into()),
            consent: true,
            ..Default::default()
        };
        let Ok(valid) = input.validate(1, "127.0.0.1", 2026) else {
            panic!("a valid lead");
        };
        let mut lead = valid.into_unsaved();
        let context = Context {
            base_url: "https://salon.example",
            car_slug: None,
            salon_name: "Салон",
        };
        assert!(!telegram(&lead, &context).contains("Ответственный"));
        lead.assignee_name = Some("Анна <Петрова>".into());
        let short = telegram(&lead, &context);
        assert!(
            short.contains("Ответственный: Анна &lt;Петрова&gt;\nИмя: Иван"),
            "{short}"
        );
        assert!(plain(&lead, &context).contains("Ответственный: Анна <Петрова>\n"));
    }

    #[test]
    fn rubles_are_grouped() {
        assert_eq!(rubles(Money::from_rubles(2_500_000)), "2 500 000 ₽");
        assert_eq!(rubles(Money::parse("999.5").unwrap()), "999,50 ₽");
        assert_eq!(rubles(Money::from_rubles(100)), "100 ₽");
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn times_are_moscow() {
        assert_eq!(
            moscow_time("2026-11-23T16:22:00.000Z"),
            "23.11.2026 19:22 (МСК)"
        );
    }

    #[test]
    fn a_test_drive_says_its_day_and_time_everywhere() {
        use crate::domain::hours::WorkSchedule;
        use crate::domain::leads::LeadInput;
        let now = DateTime::parse_from_rfc3339("2026-11-23T10:00:00+03:00").unwrap();
        let input = LeadInput {
            lead_type: Some("test_drive".into()),
            name: Some("Павел".into()),
            phone: Some("89214402763".into()),
            consent: true,
            car_id: Some("car-1".into()),
            car_info: Some("Haval Jolion".into()),
            preferred_date: Some("2026-11-28".into()),
            preferred_time: Some("11:00".into()),
            ..LeadInput::default()
        };
        let lead = input
            .validate_at(1, "127.0.0.1", now, &WorkSchedule::default())
            .unwrap()
            .into_unsaved();
        let context = Context {
            base_url: "https://salon.example",
            car_slug: Some("haval-jolion"),
            salon_name: "Салон",
        };
        assert_eq!(subject(&lead), "Новая заявка: Тест-драйв — Павел");
        let text = plain(&lead, &context);
        assert!(
            text.contains("Дата тест-драйва: 28.11.2026 (суббота)"),
            "{text}"
        );
        assert!(text.contains("Время тест-драйва: 11:00 (МСК)"), "{text}");
        let html = html(&lead, &context);
        assert!(html.contains("28.11.2026 (суббота)") && html.contains("11:00 (МСК)"));
        let short = telegram(&lead, &context);
        assert!(short.contains("28.11.2026 (суббота)"), "{short}");
        assert!(short.contains("11:00 (МСК)"), "{short}");
        let deal = crate::notify::amocrm::complex_body(&lead, &context);
        assert_eq!(
            deal[0]["name"],
            "Тест-драйв 28.11.2026 (суббота) в 11:00 (МСК): Haval Jolion"
        );
        assert_eq!(deal[0]["_embedded"]["tags"][1]["name"], "Тест-драйв");
    }

    #[test]
    fn a_credit_request_says_its_term_and_down_payment() {
        use crate::domain::leads::LeadInput;
        let input = LeadInput {
            lead_type: Some("auto_credit".into()),
            name: Some("Анна".into()),
            phone: Some("89115553322".into()),
            consent: true,
            desired_amount: Some(Money::from_rubles(1_800_000)),
            term_months: Some(60),
            down_payment: Some(Money::from_rubles(500_000)),
            ..LeadInput::default()
        };
        let lead = input.validate(1, "127.0.0.1", 2026).unwrap().into_unsaved();
        let context = Context {
            base_url: "https://salon.example",
            car_slug: None,
            salon_name: "Салон",
        };
        let text = plain(&lead, &context);
        assert!(text.contains("Срок кредита, мес.: 60"), "{text}");
        assert!(text.contains("Первоначальный взнос: 500 000 ₽"), "{text}");
        let deal = crate::notify::amocrm::complex_body(&lead, &context);
        assert_eq!(
            deal[0]["name"],
            "Заявка на автокредит, 60 мес., взнос 500 000 ₽: Анна"
        );
        assert_eq!(deal[0]["price"], 1_800_000);
    }
}
