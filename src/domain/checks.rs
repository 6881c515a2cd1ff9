//! The site's self-checks (`docs/self-checks.md`): what would embarrass the
//! dealer or get them fined, each with the admin page that fixes it. A few
//! aggregate queries over what the public sees, on the Moscow date.
//!
//! [`SelfChecks`] holds the last result keyed by the content version and the
//! Moscow date, so the admin screen and the dashboard badge recompute only
//! after a change or at midnight; the nightly job reads it too.

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

/// The operator named, the processors in use told of, data kept at home
/// (`docs/personal-data.md`).
fn personal_data(s: &settings::Settings, config: &Config, found: &mut Vec<Problem>) {
    let missing = legal::missing_operator_details(s);
    if !missing.is_empty() {
        found.push(problem(
            CheckKind::OperatorMissing,
            "Не указаны сведения об операторе персональных данных",
            format!(
                "Согласие и политика должны называть оператора (152-ФЗ): укажите {} в настройках",
                missing.join(", ")
            ),
            "/admin/settings#operator".into(),
            None,
        ));
    }
    let processors = legal::processors(config, s);
    let unlisted = legal::unlisted_processors(&s.privacy_policy, &processors);
    if !unlisted.is_empty() {
        let names: Vec<&str> = unlisted.iter().map(|p| p.name.as_str()).collect();
        found.push(problem(
            CheckKind::ProcessorsUnlisted,
            "Политика не называет всех, кому передаются данные",
            format!(
                "Подключены, но не названы в политике: {}. Добавьте в политику подстановку {{обработчики}} — список составится сам",
                names.join(", ")
            ),
            "/admin/settings#privacy".into(),
            None,
        ));
    }
    if s.google_analytics_enabled && !s.public.google_analytics_id.trim().is_empty() {
        found.push(problem(
            CheckKind::AnalyticsAbroad,
            "Google Analytics передаёт данные посетителей за рубеж",
            "Трансграничная передача требует уведомить Роскомнадзор до её начала (ст. 12 152-ФЗ). Если уведомления нет, выключите Google Analytics в настройках"
                .into(),
            "/admin/settings#analytics".into(),
            None,
        ));
    }
}

/// Names of the shown partner banks, case folded.
fn active_bank_names(conn: &Connection) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached("SELECT name FROM partner_banks WHERE active = 1")?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(names
        .map(|n| n.map(|n| casefold(n.trim())))
        .filter(|n| n.as_ref().map_or(true, |n| !n.is_empty()))
        .collect::<Result<_, _>>()?)
}

fn promotions(
    conn: &Connection,
    today: NaiveDate,
    banks: &[String],
    found: &mut Vec<Problem>,
) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, title, description, discount, valid_until FROM promotions
         WHERE is_active = 1 ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
        ))
    })?;
    for row in rows {
        let (id, title, description, discount, valid_until) = row?;
        let link = format!("/admin/promotions?edit={id}");
        if let Some(last_day) = last_date_in(&valid_until) {
            let left = (last_day - today).num_days();
            if left < 0 {
                found.push(problem(
                    CheckKind::PromotionExpired,
                    "Акция закончилась и снята с сайта",
                    format!(
                        "«{title}» действовала до {}: продлите срок или выключите её, \
                         чтобы она не ждала в списке активных",
                        ru_date(last_day)
                    ),
                    link.clone(),
                    Some(&id),
                ));
            } else if left <= ENDING_WITHIN_DAYS {
                let when = match left {
                    0 => "заканчивается сегодня".to_string(),
                    1 => "заканчивается завтра".to_string(),
                    _ => "заканчивается послезавтра".to_string(),
                };
                found.push(problem(
                    CheckKind::PromotionEnding,
                    "Акция скоро закончится",
                    format!(
                        "«{title}» {when} ({}): после этого дня она сама уйдёт с сайта; \
                         продлите срок, если акция продолжается",
                        ru_date(last_day)
                    ),
                    link.clone(),
                    Some(&id),
                ));
            }
        }
        let text = format!("{title}\n{description}\n{discount}");
        if let Some(snippet) = rate_without_bank(&text, banks) {
            found.push(problem(
                CheckKind::RateWithoutBank,
                "Ставка по кредиту без названия банка",
                format!(
                    "Акция «{title}»: «{snippet}» — назовите банк-партнёр, который выдаёт кредит"
                ),
                link,
                Some(&id),
            ));
        }
    }
    Ok(())
}

/// Shown banks without a valid programme, and valid programmes whose ПСК
/// only repeats the rate (the schema requires some ПСК, so a copied rate is
/// what "no ПСК" looks like).
fn credit(conn: &Connection, today: NaiveDate, found: &mut Vec<Problem>) -> AppResult<()> {
    let today = today.format("%Y-%m-%d").to_string();
    let mut stmt = conn.prepare_cached(
        "SELECT b.id, b.name FROM partner_banks b
         WHERE b.active = 1 AND NOT EXISTS (
            SELECT 1 FROM credit_programs p WHERE p.bank_id = b.id AND p.active = 1
                AND p.valid_from <= ?1 AND (p.valid_to IS NULL OR p.valid_to >= ?1))
         ORDER BY b.name COLLATE NOCASE, b.id",
    )?;
    let rows = stmt.query_map([&today], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    for row in rows {
        let (id, name) = row?;
        found.push(problem(
            CheckKind::BankWithoutPsk,
            "Банк-партнёр без ПСК",
            format!(
                "«{name}» показан на сайте, но у него нет действующей кредитной программы с \
                 диапазоном ПСК: добавьте программу или скройте банк"
            ),
            format!("/admin/partner-banks?edit={id}"),
            Some(&id),
        ));
    }
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.name, b.name, p.rate_min_milli, p.rate_max_milli
         FROM credit_programs p JOIN partner_banks b ON b.id = p.bank_id
         WHERE p.active = 1 AND b.active = 1 AND p.valid_from <= ?1
            AND (p.valid_to IS NULL OR p.valid_to >= ?1)
            AND p.psk_min_milli = p.rate_min_milli AND p.psk_max_milli = p.rate_max_milli
         ORDER BY b.name COLLATE NOCASE, p.name COLLATE NOCASE, p.id",
    )?;
    let rows = stmt.query_map([&today], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
            r.get::<_, i64>(4)?,
        ))
    })?;
    for row in rows {
        let (id, name, bank, rate_min, rate_max) = row?;
        let rate = range_text(rate_min, rate_max);
        found.push(problem(
            CheckKind::ProgramWithoutPsk,
            "Кредитная программа без ПСК",
            format!(
                "«{name}» ({bank}): вместо ПСК повторена ставка ({rate}) — укажите полную \
                 стоимость кредита из условий банка"
            ),
            format!("/admin/credit-programs?edit={id}"),
            Some(&id),
        ));
    }
    Ok(())
}

/// "5,9%" or "5,9–9,9%" from thousandths of a percent.
fn range_text(min: i64, max: i64) -> String {
    let (min, max) = (
        percent_text(min as f64 / 1000.0),
        percent_text(max as f64 / 1000.0),
    );
    if min == max {
        format!("{min}%")
    } else {
        format!("{min}–{max}%")
    }
}

/// Brand descriptions that state a rate.
fn brands(conn: &Connection, banks: &[String], found: &mut Vec<Problem>) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, description FROM brands WHERE instr(description, '%') > 0
         ORDER BY name COLLATE NOCASE, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    for row in rows {
        let (id, name, description) = row?;
        if let Some(snippet) = rate_without_bank(&description, banks) {
            found.push(problem(
                CheckKind::RateWithoutBank,
                "Ставка по кредиту без названия банка",
                format!(
                    "Описание марки «{name}»: «{snippet}» — назовите банк-партнёр, который выдаёт \
                     кредит"
                ),
                format!("/admin/brands?edit={id}"),
                Some(&id),
            ));
        }
    }
    Ok(())
}

/// Published cars with a problem: one query picks the candidates.
fn cars(conn: &Connection, banks: &[String], found: &mut Vec<Problem>) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, coalesce(b.name, '') AS brand, c.name, c.year, c.price_kopecks, c.status,
            c.in_stock, coalesce(c.vin, '') AS vin, c.trim_levels,
            EXISTS (SELECT 1 FROM car_images i WHERE i.car_id = c.id) AS photos,
            c.drivetrain IS NULL AS no_drive, c.engine
         FROM cars c LEFT JOIN brands b ON b.id = c.brand_id
         WHERE c.published = 1 AND (
            NOT EXISTS (SELECT 1 FROM car_images i WHERE i.car_id = c.id)
            OR c.price_kopecks = 0
            OR c.drivetrain IS NULL
            OR (instr(c.engine, 'л.с') = 0 AND instr(c.engine, 'кВт') = 0)
            OR (coalesce(c.vin, '') = '' AND (c.status <> 'new' OR c.in_stock = 1))
            OR instr(c.trim_levels, '%') > 0)
         ORDER BY c.created_at DESC, c.id",
    )?;
    struct Row {
        id: String,
        title: String,
        price: i64,
        status: String,
        in_stock: bool,
        vin: String,
        trims: String,
        photos: bool,
        no_drive: bool,
        engine: String,
    }
    let rows = stmt.query_map([], |r| {
        let brand: String = r.get(1)?;
        let name: String = r.get(2)?;
        let year: i64 = r.get(3)?;
        Ok(Row {
            id: r.get(0)?,
            title: format!("{brand} {name} {year}").trim().to_string(),
            price: r.get(4)?,
            status: r.get(5)?,
            in_stock: r.get(6)?,
            vin: r.get(7)?,
            trims: r.get(8)?,
            photos: r.get(9)?,
            no_drive: r.get(10)?,
            engine: r.get(11)?,
        })
    })?;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for row in rows {
        let car = row?;
        let link = format!("/admin/cars?edit={}", car.id);
        if !car.photos {
            errors.push(problem(
                CheckKind::CarWithoutPhotos,
                "Автомобиль без фотографий",
                format!("«{}» опубликован без единой фотографии", car.title),
                link.clone(),
                Some(&car.id),
            ));
        }
        if car.price == 0 {
            errors.push(problem(
                CheckKind::CarZeroPrice,
                "Цена автомобиля — 0 ₽",
                format!(
                    "«{}» опубликован с ценой 0 ₽: укажите цену или снимите с публикации",
                    car.title
                ),
                link.clone(),
                Some(&car.id),
            ));
        }
        let trims: Vec<super::cars::TrimLevel> = super::json_column(&car.trims);
        let text = trims
            .iter()
            .map(|t| format!("{}: {}", t.name, t.description))
            .collect::<Vec<_>>()
            .join("\n");
        if let Some(snippet) = rate_without_bank(&text, banks) {
            errors.push(problem(
                CheckKind::RateWithoutBank,
                "Ставка по кредиту без названия банка",
                format!(
                    "Описание комплектаций «{}»: «{snippet}» — назовите банк-партнёр, который \
                     выдаёт кредит",
                    car.title
                ),
                link.clone(),
                Some(&car.id),
            ));
        }
        let mut unstated = Vec::new();
        if car.no_drive {
            unstated.push("привод");
        }
        if crate::parser::mapping::engine_figures(&car.engine)
            .1
            .is_none()
        {
            unstated.push("мощность");
        }
        if !unstated.is_empty() {
            warnings.push(problem(
                CheckKind::CarUnstatedFields,
                "Не заполнены характеристики",
                format!(
                    "«{}»: фид не указал {} — дополните карточку автомобиля",
                    car.title,
                    unstated.join(" и ")
                ),
                link.clone(),
                Some(&car.id),
            ));
        }
        if car.vin.is_empty() && (car.status != "new" || car.in_stock) {
            warnings.push(problem(
                CheckKind::CarWithoutVin,
                "Автомобиль без VIN",
                format!(
                    "«{}» в наличии, но без VIN: покупатели и площадки (Авито, Авто.ру) ждут его",
                    car.title
                ),
                link,
                Some(&car.id),
            ));
        }
    }
    found.extend(errors);
    found.extend(warnings);
    Ok(())
}

/// Cars the last applied import found gone (it unpublished them) that are
/// on the site again.
fn gone_published(conn: &Connection, found: &mut Vec<Problem>) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "WITH last AS (
            SELECT id, report, coalesce(finished_at, created_at) AS at FROM import_runs
            WHERE status = 'applied' ORDER BY coalesce(finished_at, created_at) DESC, id DESC
            LIMIT 1)
         SELECT DISTINCT c.id, coalesce(b.name, '') AS brand, c.name, c.year, last.at
         FROM last, json_each(last.report, '$.gone') g
         JOIN cars c ON c.id = json_extract(g.value, '$.carId')
         LEFT JOIN brands b ON b.id = c.brand_id
         WHERE c.published = 1
         ORDER BY c.created_at DESC, c.id",
    )?;
    let rows = stmt.query_map([], |r| {
        let brand: String = r.get(1)?;
        let name: String = r.get(2)?;
        let year: i64 = r.get(3)?;
        Ok((
            r.get::<_, String>(0)?,
            format!("{brand} {name} {year}").trim().to_string(),
            r.get::<_, String>(4)?,
        ))
    })?;
    for row in rows {
        let (id, title, at) = row?;
        let when = crate::notify::message::moscow_time(&at);
        found.push(problem(
            CheckKind::CarGonePublished,
            "Автомобиль пропал из фида, но опубликован",
            format!(
                "«{title}»: последний импорт фида ({when}) снял его с публикации — его нет в \
                 фиде, но он снова на сайте. Если он продан, снимите его с публикации"
            ),
            format!("/admin/cars?edit={id}"),
            Some(&id),
        ));
    }
    Ok(())
}

const MONTHS: [&str; 12] = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
];

fn date_pattern() -> &'static Regex {
    static PATTERN: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    PATTERN.get_or_init(|| {
        Regex::new(
            r"(?i)(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2})\b|(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})|(?P<wd>\d{1,2})\s+(?P<wm>января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря)\s+(?P<wy>\d{4})",
        )
        .expect("valid date pattern")
    })
}

/// The last date a promotion's free-text `validUntil` names ("31.12.2026",
/// "2026-12-31", "по 31 декабря 2026 г.", "с 01.11.2026 по 30.11.2026");
/// `None` when it names none ("пока есть автомобили").
pub fn last_date_in(text: &str) -> Option<NaiveDate> {
    let number =
        |c: &regex::Captures, name: &str| -> Option<u32> { c.name(name)?.as_str().parse().ok() };
    date_pattern()
        .captures_iter(text)
        .filter_map(|c| {
            if let (Some(d), Some(m), Some(y)) = (number(&c, "d"), number(&c, "m"), number(&c, "y"))
            {
                let y = if y < 100 { 2000 + y } else { y };
                return NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d);
            }
            if let (Some(d), Some(m), Some(y)) =
                (number(&c, "id"), number(&c, "im"), number(&c, "iy"))
            {
                return NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d);
            }
            let month = c.name("wm")?.as_str().to_lowercase();
            let m = MONTHS.iter().position(|name| *name == month)? as u32 + 1;
            NaiveDate::from_ymd_opt(i32::try_from(number(&c, "wy")?).ok()?, m, number(&c, "wd")?)
        })
        .last()
}

/// Words that make a percentage a credit rate.
const RATE_WORDS: [&str; 9] = [
    "кредит",
    "ставк",
    "годовых",
    "рассрочк",
    "пск",
    "займ",
    "заем",
    "ипотек",
    "процентн",
];
/// Words that make a percentage something else (a discount, a down payment).
const OTHER_WORDS: [&str; 11] = [
    "скидк",
    "выгод",
    "взнос",
    "кешбэк",
    "кэшбэк",
    "дешевле",
    "ндс",
    "предоплат",
    "аванс",
    "экономи",
    "налог",
];

fn percent_pattern() -> &'static Regex {
    static PATTERN: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    PATTERN.get_or_init(|| {
        Regex::new(r"\d+(?:[.,]\d+)?[\s\u{00A0}\u{202F}]*%").expect("valid percent pattern")
    })
}

/// Where the clause holding byte `at` starts: after the last sentence end
/// (".", "!", "?", "…" followed by a space; ";" or a new line).
fn clause_start(text: &str, at: usize) -> usize {
    let before = &text[..at];
    let mut start = 0;
    let mut chars = before.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let ends = match c {
            ';' | '\n' => true,
            '.' | '!' | '?' | '…' => next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if ends {
            start = i + c.len_utf8();
        }
    }
    start
}

fn clause_end(text: &str, from: usize) -> usize {
    let after = &text[from..];
    let mut chars = after.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let ends = match c {
            ';' | '\n' => true,
            '.' | '!' | '?' | '…' => next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if ends {
            return from + i;
        }
    }
    text.len()
}

/// The last position of any of `words` in `text`, and the first.
fn last_of(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().filter_map(|w| text.rfind(w)).max()
}

fn first_of(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().filter_map(|w| text.find(w)).min()
}

/// Whether the percentage at `start..end` of `text` (case folded) is a
/// credit rate: the nearest telling word before it in its clause says so
/// ("автокредит от 4,9%", but "скидка 10% в кредит"); with none before, the
/// first one after it ("0% в рассрочку").
fn is_rate(text: &str, start: usize, end: usize) -> bool {
    let before = &text[clause_start(text, start)..start];
    let rate = last_of(before, &RATE_WORDS);
    let other = last_of(before, &OTHER_WORDS);
    match (rate, other) {
        (Some(r), Some(o)) => return r > o,
        (Some(_), None) => return true,
        (None, Some(_)) => return false,
        (None, None) => {}
    }
    let after = &text[end..clause_end(text, end)];
    match (first_of(after, &RATE_WORDS), first_of(after, &OTHER_WORDS)) {
        (Some(r), Some(o)) => r < o,
        (Some(_), None) => true,
        _ => false,
    }
}

/// The first credit rate `text` shows, as a short quote, when the text names
/// none of the partner `banks` (case folded names); `None` otherwise.
pub fn rate_without_bank(text: &str, banks: &[String]) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let folded = casefold(text);
    let found = percent_pattern()
        .find_iter(&folded)
        .find(|m| is_rate(&folded, m.start(), m.end()))?;
    if banks.iter().any(|b| folded.contains(b.as_str())) {
        return None;
    }
    // Folding keeps the byte offsets of Cyrillic and Latin ('ё' and 'е' are
    // both two bytes), so the match quotes the original text.
    let same = folded.len() == text.len()
        && text.is_char_boundary(found.start())
        && text.is_char_boundary(found.end());
    let source = if same { text } else { folded.as_str() };
    Some(quote(source, found.start(), found.end()))
}

/// The clause around `start..end`, at most 40 characters before and 20
/// after it, cut at spaces, with "…" where cut.
fn quote(text: &str, start: usize, end: usize) -> String {
    let head: Vec<char> = text[clause_start(text, start)..start].chars().collect();
    let tail: Vec<char> = text[end..clause_end(text, end)].chars().collect();
    let from = head.len().saturating_sub(40);
    let mut before: String = head[from..].iter().collect();
    if from > 0 {
        if let Some(space) = before.find(' ') {
            before = before[space + 1..].to_string();
        }
        before = format!("…{before}");
    }
    let to = tail.len().min(20);
    let mut after: String = tail[..to].iter().collect();
    if to < tail.len() {
        if let Some(space) = after.rfind(' ') {
            after.truncate(space);
        }
        after.push('…');
    }
    format!("{before}{}{after}", &text[start..end])
        .trim()
        .to_string()
}

/// The held report with replication's problems first (they are errors):
/// those are looked at every half minute by `serve`
/// (`crate::ops::replica_state`), not held with the content.
pub fn with_replication(
    report: &ChecksReport,
    replica: Option<&crate::ops::replica_state::ReplicaStatus>,
) -> ChecksReport {
    let mut problems: Vec<Problem> = replica
        .map(|status| {
            status
                .problems
                .iter()
                .map(|why| {
                    problem(
                        CheckKind::ReplicationFailing,
                        "Резервная копия в хранилище не обновляется",
                        format!(
                            "{why}. Сайт работает, но новые заявки и изображения не попадают \
                             в хранилище ({}): проверьте ключ доступа, хранилище и журнал \
                             сервера (journalctl -u dealership | grep replication)",
                            status.target
                        ),
                        "/admin".into(),
                        None,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    problems.extend(report.problems.iter().cloned());
    ChecksReport {
        checked_at: report.checked_at.clone(),
        count: problems.len() as i64,
        problems,
    }
}

/// The last result, kept until the content version or the Moscow date
/// changes.
#[derive(Default)]
pub struct SelfChecks {
    /// What is set up (the processors in use); the defaults without one.
    config: Arc<Config>,
    held: Mutex<Option<Held>>,
    /// The Moscow day the nightly job last logged.
    logged: Mutex<Option<NaiveDate>>,
}

struct Held {
    version: i64,
    day: NaiveDate,
    report: Arc<ChecksReport>,
}

impl SelfChecks {
    /// The checks of a server set up by `config`.
    pub fn for_config(config: Arc<Config>) -> SelfChecks {
        SelfChecks {
            config,
            ..SelfChecks::default()
        }
    }

    /// The result for the content as it is now and the Moscow date, from
    /// the held one when neither changed. Gives whether it was recomputed.
    pub fn current_in(
        &self,
        conn: &mut Connection,
        today: NaiveDate,
        now: DateTime<Utc>,
    ) -> AppResult<(Arc<ChecksReport>, bool)> {
        // One read transaction: the version and the checks see one snapshot.
        let tx = conn.transaction()?;
        let version = crate::db::content_version(&tx)?;
        {
            let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(h) = held.as_ref()
                && h.version == version
                && h.day == today
            {
                return Ok((h.report.clone(), false));
            }
        }
        let problems = run(&tx, today, &self.config)?;
        drop(tx);
        let report = Arc::new(ChecksReport {
            checked_at: now.to_rfc3339_opts(SecondsFormat::Millis, true),
            count: problems.len() as i64,
            problems,
        });
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(Held {
            version,
            day: today,
            report: report.clone(),
        });
        Ok((report, true))
    }

    /// [`SelfChecks::current_in`] on the blocking pool, on `clock`'s date.
    pub async fn current(
        self: &Arc<Self>,
        db: &Db,
        clock: &Arc<Clock>,
    ) -> AppResult<Arc<ChecksReport>> {
        let (checks, clock) = (self.clone(), clock.clone());
        let (report, _) = db
            .call(move |c| checks.current_in(c, clock.moscow_today(), clock.now()))
            .await?;
        Ok(report)
    }

    /// The nightly job's run: brings the result up to date and, once per
    /// Moscow day (the first run after midnight, or after a start), logs how
    /// many problems there are. Gives the count when it logged.
    pub async fn nightly(self: &Arc<Self>, db: &Db, clock: &Arc<Clock>) -> AppResult<Option<i64>> {
        let today = clock.moscow_today();
        let report = self.current(db, clock).await?;
        {
            let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
            if *logged == Some(today) {
                return Ok(None);
            }
            *logged = Some(today);
        }
        let errors = report
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count();
        if report.count > 0 {
            let mut kinds: Vec<&str> = report.problems.iter().map(|p| p.check.as_str()).collect();
            kinds.dedup();
            tracing::warn!(
                problems = report.count,
                errors,
                checks = kinds.join(","),
                "self-checks for {today}: {} problems (GET /api/admin/checks)",
                report.count
            );
        } else {
            tracing::info!("self-checks for {today}: no problems");
        }
        Ok(Some(report.count))
    }
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
