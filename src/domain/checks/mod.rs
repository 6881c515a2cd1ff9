//! The site's self-checks (`docs/self-checks.md`): what would embarrass the
//! dealer or get them fined, each with the admin page that fixes it. A few
//! aggregate queries over what the public sees, on the Moscow date.
//!
//! [`SelfChecks`] holds the last result keyed by the content version and the
//! Moscow date, so the admin screen and the dashboard badge recompute only
//! after a change or at midnight; the nightly job reads it too.
//!
//! This file keeps the report's types and [`run`]; the pieces: `data` (the
//! checks themselves), `wording` (dates and rates read from texts), `held`
//! (the last result kept).

use std::sync::{Arc, Mutex};

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use regex::Regex;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use super::credit_programs::percent_text;
use super::text_enum;
use super::{legal, settings};
use crate::clock::Clock;
use crate::config::Config;
use crate::db::{Db, casefold};
use crate::error::AppResult;

mod data;
mod held;
mod wording;

use data::*;
pub use held::*;
pub use wording::*;

text_enum!(
    /// Which check found the problem.
    CheckKind {
        PromotionExpired = "promotion_expired",
        PromotionEnding = "promotion_ending",
        BankWithoutPsk = "bank_without_psk",
        ProgramWithoutPsk = "program_without_psk",
        RateWithoutBank = "rate_without_bank",
        CarWithoutPhotos = "car_without_photos",
        CarWithoutVin = "car_without_vin",
        CarZeroPrice = "car_zero_price",
        CarGonePublished = "car_gone_published",
        CarUnstatedFields = "car_unstated_fields",
        ConsentTextMissing = "consent_text_missing",
        PrivacyPolicyMissing = "privacy_policy_missing",
        OperatorMissing = "operator_missing",
        ProcessorsUnlisted = "processors_unlisted",
        AnalyticsAbroad = "analytics_abroad",
        AdWithoutToken = "ad_without_token",
        ReplicationFailing = "replication_failing",
    }
);

text_enum!(
    /// error: fix it now (a fine or a broken page); warning: soon.
    Severity { Error = "error", Warning = "warning" }
);

impl CheckKind {
    pub fn severity(self) -> Severity {
        match self {
            CheckKind::PromotionEnding
            | CheckKind::CarWithoutVin
            | CheckKind::CarUnstatedFields
            | CheckKind::AnalyticsAbroad => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// One thing to fix.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    pub check: CheckKind,
    pub severity: Severity,
    /// What is wrong, in a few words.
    pub title: String,
    /// Which object, and what to do.
    pub detail: String,
    /// The admin page that opens the object to fix it.
    pub link: String,
    /// The object's id; null for the settings.
    #[schema(required = true)]
    pub object_id: Option<String>,
}

/// `GET /api/admin/checks`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChecksReport {
    /// When this result was computed (it is kept until the content or the
    /// Moscow date changes).
    pub checked_at: String,
    /// How many problems (the dashboard badge).
    pub count: i64,
    /// Errors first, then warnings.
    pub problems: Vec<Problem>,
}

/// A promotion that ends within this many days is announced.
pub const ENDING_WITHIN_DAYS: i64 = 2;

fn problem(
    check: CheckKind,
    title: &str,
    detail: String,
    link: String,
    id: Option<&str>,
) -> Problem {
    Problem {
        check,
        severity: check.severity(),
        title: title.into(),
        detail,
        link,
        object_id: id.map(str::to_string),
    }
}

fn ru_date(date: NaiveDate) -> String {
    date.format("%d.%m.%Y").to_string()
}

/// Every problem on the Moscow date `today` with the set-up `config`:
/// errors first, then warnings.
pub fn run(conn: &Connection, today: NaiveDate, config: &Config) -> AppResult<Vec<Problem>> {
    let banks = active_bank_names(conn)?;
    let mut found = Vec::new();
    promotions(conn, today, &banks, &mut found)?;
    credit(conn, today, &mut found)?;
    let s = settings::get(conn)?;
    let hero = format!("{}\n{}", s.public.hero_title, s.public.hero_subtitle);
    if let Some(snippet) = rate_without_bank(&hero, &banks) {
        found.push(problem(
            CheckKind::RateWithoutBank,
            "Ставка по кредиту без названия банка",
            format!(
                "Главная страница (заголовок и подзаголовок): «{snippet}» — назовите банк, который \
                 выдаёт кредит, или уберите ставку"
            ),
            "/admin/settings".into(),
            None,
        ));
    }
    for ad in super::ads::unmarked(conn, &s, today)? {
        found.push(problem(
            CheckKind::AdWithoutToken,
            "Реклама без токена (erid)",
            format!(
                "{}: реклама в интернете показывается с пометкой «Реклама», рекламодателем и \
                 токеном от оператора рекламных данных (ст. 18.1 38-ФЗ). Получите токен и \
                 впишите его",
                ad.what
            ),
            ad.link,
            ad.id.as_deref(),
        ));
    }
    brands(conn, &banks, &mut found)?;
    cars(conn, &banks, &mut found)?;
    gone_published(conn, &mut found)?;
    if s.consent_text.trim().is_empty() {
        found.push(problem(
            CheckKind::ConsentTextMissing,
            "Нет текста согласия на обработку персональных данных",
            "Формы заявок ссылаются на пустой текст согласия (152-ФЗ): заполните его в настройках"
                .into(),
            "/admin/settings#consent".into(),
            None,
        ));
    }
    if s.privacy_policy.trim().is_empty() {
        found.push(problem(
            CheckKind::PrivacyPolicyMissing,
            "Нет политики обработки персональных данных",
            "Страница политики пуста, а формы заявок ссылаются на неё (152-ФЗ): заполните её в \
             настройках"
                .into(),
            "/admin/settings#privacy".into(),
            None,
        ));
    }
    personal_data(&s, config, &mut found);
    // Stable: within a severity, the order of the checks above.
    found.sort_by_key(|p| p.severity != Severity::Error);
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn banks() -> Vec<String> {
        vec![casefold("Сбербанк"), casefold("Т-Банк")]
    }

    #[test]
    fn rates_are_told_from_other_percentages() {
        let none: Vec<String> = Vec::new();
        for text in [
            "Автокредит от 5,6%",
            "ставка 5.5 % годовых",
            "Рассрочка 0 %",
            "0% в рассрочку на 12 месяцев",
            "Кредит от 4,9% с первым взносом 20%",
            "Скидка 10%. Кредит от 4,9%",
            "ПСК от 6,1%",
        ] {
            assert!(rate_without_bank(text, &none).is_some(), "{text}");
        }
        for text in [
            "Скидка 10% при покупке в кредит",
            "Первый взнос — от 0%",
            "Кредит с первым взносом от 10%",
            "-10%",
            "Выгода 15% на всё",
            "Без процентов",
        ] {
            assert_eq!(rate_without_bank(text, &none), None, "{text}");
        }
    }

    #[test]
    fn a_named_bank_clears_the_rate() {
        assert_eq!(
            rate_without_bank("Автокредит от 4,9% в СБЕРБАНКЕ", &banks()),
            None
        );
        assert_eq!(
            rate_without_bank("Кредит от 4,9%. Банк — т-банк", &banks()),
            None
        );
        assert_eq!(
            rate_without_bank("Автокредит от 4,9% в ВТБ", &banks()).as_deref(),
            Some("Автокредит от 4,9% в ВТБ")
        );
    }

    #[test]
    fn quotes_are_short_and_cut_at_words() {
        let text = "Новые и с пробегом, из наличия и под заказ, автокредит от 5,6%, трейд-ин за 30 минут и аренда с выкупом";
        let quote = rate_without_bank(text, &[]).unwrap();
        assert_eq!(
            quote,
            "…из наличия и под заказ, автокредит от 5,6%, трейд-ин за 30…"
        );
    }

    #[test]
    fn dates_of_promotions_are_read() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day);
        assert_eq!(last_date_in("31.12.2026"), d(2026, 12, 31));
        assert_eq!(last_date_in("до 1.2.27"), d(2027, 2, 1));
        assert_eq!(last_date_in("2026-11-30"), d(2026, 11, 30));
        assert_eq!(last_date_in("по 5 Января 2027 г."), d(2027, 1, 5));
        assert_eq!(last_date_in("с 01.11.2026 по 30.11.2026"), d(2026, 11, 30));
        assert_eq!(last_date_in("пока есть автомобили"), None);
        assert_eq!(last_date_in("31.02.2026"), None);
    }
}
