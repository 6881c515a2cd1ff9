//! The checks of the site's data: personal-data settings, promotions,
//! credit programmes, brands, cars and published cars that are gone, each
//! adding the problems it finds.

use super::problem::{CheckKind, ENDING_WITHIN_DAYS, Problem, problem, ru_date};
use super::wording::rate_without_bank;
use crate::config::Config;
use crate::db::casefold;
use crate::domain::ads::BANNER_PAGES;
use crate::domain::credit_programs::percent_text;
use crate::domain::settings::Settings;
use crate::domain::{banks, legal, promotions, settings};
use crate::error::AppResult;
use crate::text_dates::last_date_in;
use chrono::NaiveDate;
use rusqlite::Connection;

/// The operator named, the processors in use told of, data kept at home
/// (`docs/personal-data.md`).
pub(super) fn personal_data(s: &settings::Settings, config: &Config, found: &mut Vec<Problem>) {
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
pub(super) fn active_bank_names(conn: &Connection) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached("SELECT name FROM partner_banks WHERE active = 1")?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(names
        .map(|n| n.map(|n| casefold(n.trim())))
        .filter(|n| n.as_ref().map_or(true, |n| !n.is_empty()))
        .collect::<Result<_, _>>()?)
}

pub(super) fn promotions(
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
pub(super) fn credit(
    conn: &Connection,
    today: NaiveDate,
    found: &mut Vec<Problem>,
) -> AppResult<()> {
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
pub(super) fn range_text(min: i64, max: i64) -> String {
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
pub(super) fn brands(
    conn: &Connection,
    banks: &[String],
    found: &mut Vec<Problem>,
) -> AppResult<()> {
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
pub(super) fn cars(conn: &Connection, banks: &[String], found: &mut Vec<Problem>) -> AppResult<()> {
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
        let trims: Vec<crate::domain::cars::TrimLevel> = crate::domain::json_column(&car.trims);
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
pub(super) fn gone_published(conn: &Connection, found: &mut Vec<Problem>) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "WITH last AS (
            SELECT r.id, coalesce(r.finished_at, r.created_at) AS at
            FROM import_runs r WHERE r.status = 'applied' AND NOT EXISTS (
                SELECT 1 FROM import_runs n WHERE n.status = 'applied'
                    AND n.feed_id IS r.feed_id
                    AND (coalesce(n.finished_at, n.created_at), n.id)
                        > (coalesce(r.finished_at, r.created_at), r.id)))
         SELECT DISTINCT c.id, coalesce(b.name, '') AS brand, c.name, c.year, last.at
         FROM last JOIN import_run_items g ON g.run_id = last.id AND g.list = 'gone'
         JOIN cars c ON c.id = json_extract(g.item, '$.carId')
         LEFT JOIN brands b ON b.id = c.brand_id
         WHERE c.published = 1
            AND NOT EXISTS (SELECT 1 FROM feed_cars fc WHERE fc.car_id = c.id AND fc.listed = 1)
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

/// Published cars a marketplace refused, one problem per car and
/// marketplace, with the marketplace's own words.
pub(super) fn marketplace_refused(conn: &Connection, found: &mut Vec<Problem>) -> AppResult<()> {
    for refused in crate::domain::marketplace_ads::refused(conn, true)? {
        let words = if refused.ad.messages.is_empty() {
            "площадка не объяснила причину".to_string()
        } else {
            refused.ad.messages.join("; ")
        };
        found.push(problem(
            CheckKind::MarketplaceRefused,
            "Площадка отклонила объявление",
            format!(
                "«{}» на площадке {}: {words}. Исправьте карточку автомобиля — исправленное \
                 объявление уйдёт со следующей выгрузкой фида",
                refused.car_name, refused.ad.channel_label
            ),
            format!("/admin/cars?edit={}", refused.car_id),
            Some(&refused.car_id),
        ));
    }
    Ok(())
}

/// An ad shown without its token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Unmarked {
    /// "Акция «…»", "Банк «…»", "Баннер страницы «…»".
    pub what: String,
    /// The admin page that edits it.
    pub link: String,
    pub id: Option<String>,
}

/// The ads the site shows on `today` without their mark: partner banks'
/// offers (always ads) without a token; promotions that name an advertiser
/// or a partner bank (its product: any promotion of a bank's credit, not
/// only those naming an advertiser) without a token or an advertiser; and
/// banners that name an advertiser without a token.
pub(super) fn unmarked(
    conn: &rusqlite::Connection,
    settings: &Settings,
    today: chrono::NaiveDate,
) -> AppResult<Vec<Unmarked>> {
    let mut out = Vec::new();
    let partners: Vec<String> = banks::list(conn, false)?
        .into_iter()
        .map(|b| b.name)
        .collect();
    for promotion in promotions::public(conn, today)? {
        let text = format!(
            "{} {} {}",
            promotion.title, promotion.description, promotion.discount
        );
        let partner = crate::domain::ads::names_partner(&text, &partners);
        let an_ad = !promotion.ad_advertiser.is_empty() || partner.is_some();
        let marked = !promotion.ad_erid.is_empty()
            && (partner.is_none() || !promotion.ad_advertiser.is_empty());
        if an_ad && !marked {
            out.push(Unmarked {
                what: match partner {
                    Some(bank) => {
                        format!("Акция «{}» (продукт банка «{bank}»)", promotion.title)
                    }
                    None => format!("Акция «{}»", promotion.title),
                },
                link: format!("/admin/promotions?edit={}", promotion.id),
                id: Some(promotion.id),
            });
        }
    }
    for bank in banks::list(conn, true)? {
        if bank.ad_erid.is_empty() {
            out.push(Unmarked {
                what: format!("Предложение банка «{}»", bank.name),
                link: format!("/admin/partner-banks?edit={}", bank.id),
                id: Some(bank.id),
            });
        }
    }
    let banners = &settings.public.banners;
    for (key, page) in BANNER_PAGES {
        let shown = banners.get(key).is_some_and(|v| !v.is_empty())
            || banners
                .get(&format!("{key}Mobile"))
                .is_some_and(|v| !v.is_empty());
        let mark = settings.public.banner_ads.get(key);
        if shown && mark.is_some_and(|m| !m.advertiser.is_empty() && m.erid.is_empty()) {
            out.push(Unmarked {
                what: format!("Баннер страницы «{page}»"),
                link: "/admin/page-banners".into(),
                id: None,
            });
        }
    }
    Ok(out)
}
