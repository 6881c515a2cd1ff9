//! Views, contacts, favourites and calls of each car per channel and Moscow
//! day (`car_channel_days`, V34) and their 30-day totals per car
//! (`car_figure_totals`, V35): the marketplaces' day figures recorded, the
//! site's own card views added, old days pruned, and what the admin reads
//! (a car's chart, the quiet cars). `docs/marketplaces.md`, "What the admin
//! shows".

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::domain::money::Money;
use crate::error::AppResult;
use crate::marketplaces::{Channel, DayFigures};
use chrono::{DateTime, Days, NaiveDate, Utc};
use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;
use utoipa::ToSchema;

/// Days kept: 13 months and more (`prune`).
pub const KEPT_DAYS: u64 = 400;
/// The most days a car's chart may ask for.
pub const MAX_CHART_DAYS: u32 = 400;
/// The days the admin cars list's totals add up.
pub const TOTAL_DAYS: u64 = 30;
/// A car seen fewer times than this over the quiet period is "almost unseen".
pub const FEW_VIEWS: i64 = 5;

/// The channels, for index seeks by `(car_id, channel, day)`.
const CHANNELS: &str = "('site', 'avito', 'autoru')";

fn day_text(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

/// The first day of the `n` days ending on `today`.
fn first_of(today: NaiveDate, n: u64) -> NaiveDate {
    today
        .checked_sub_days(Days::new(n.saturating_sub(1)))
        .unwrap_or(today)
}

/// What [`record_days`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordedDays {
    /// Car-days written (several ads of one car on one day add up).
    pub written: usize,
    /// Figures skipped: their ad is unknown on this channel.
    pub skipped: usize,
    /// The unknown ads' ids, each once.
    pub unknown: Vec<String>,
}

/// Records a marketplace's day figures: each ad's id is mapped to its car
/// through `marketplace_ads (channel, market_id)`, unknown ids skipped and
/// counted. A day's values REPLACE the stored ones (a marketplace gives day
/// totals: recording the same figures twice changes nothing). The cars'
/// 30-day totals are refreshed.
pub fn record_days(
    conn: &Connection,
    channel: Channel,
    figures: &[DayFigures],
) -> AppResult<RecordedDays> {
    let mut find = conn.prepare_cached(
        "SELECT car_id FROM marketplace_ads
         WHERE channel = ?1 AND market_id = ?2 AND car_id IS NOT NULL LIMIT 1",
    )?;
    let mut cars: HashMap<&str, Option<String>> = HashMap::new();
    // (car, day) -> views, contacts, favourites, calls
    let mut days: BTreeMap<(String, NaiveDate), [i64; 4]> = BTreeMap::new();
    let mut answer = RecordedDays::default();
    let mut unknown = BTreeSet::new();
    for f in figures {
        let car = match cars.get(f.market_id.as_str()) {
            Some(car) => car.clone(),
            None => {
                let car: Option<String> = find
                    .query_row([channel.as_str(), &f.market_id], |r| r.get(0))
                    .optional()?;
                cars.insert(&f.market_id, car.clone());
                car
            }
        };
        let Some(car) = car else {
            answer.skipped += 1;
            unknown.insert(f.market_id.clone());
            continue;
        };
        let sums = days.entry((car, f.day)).or_default();
        for (sum, n) in sums
            .iter_mut()
            .zip([f.views, f.contacts, f.favourites, f.calls])
        {
            *sum += i64::from(n);
        }
    }
    let mut write = conn.prepare_cached(
        "INSERT INTO car_channel_days (car_id, channel, day, views, contacts, favourites, calls)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (car_id, channel, day) DO UPDATE SET views = excluded.views,
            contacts = excluded.contacts, favourites = excluded.favourites,
            calls = excluded.calls",
    )?;
    for ((car, day), [views, contacts, favourites, calls]) in &days {
        write.execute(rusqlite::params![
            car,
            channel.as_str(),
            day_text(*day),
            views,
            contacts,
            favourites,
            calls
        ])?;
    }
    answer.written = days.len();
    answer.unknown = unknown.into_iter().collect();
    let touched: BTreeSet<&str> = days.keys().map(|(car, _)| car.as_str()).collect();
    refresh_totals(conn, Some(touched), wall_today())?;
    Ok(answer)
}

/// Today in Moscow by the wall clock.
fn wall_today() -> NaiveDate {
    crate::clock::Clock::default().moscow_today()
}

/// Adds the site's own card views: `(car id, Moscow day, views)`. The cars'
/// 30-day totals are refreshed.
pub fn add_site_views(conn: &Connection, views: &[(String, NaiveDate, u32)]) -> AppResult<()> {
    let mut add = conn.prepare_cached(
        "INSERT INTO car_channel_days (car_id, channel, day, views) VALUES (?1, 'site', ?2, ?3)
         ON CONFLICT (car_id, channel, day) DO UPDATE SET views = views + excluded.views",
    )?;
    for (car, day, n) in views {
        add.execute(rusqlite::params![car, day_text(*day), n])?;
    }
    let touched: BTreeSet<&str> = views.iter().map(|(car, _, _)| car.as_str()).collect();
    refresh_totals(conn, Some(touched), wall_today())
}

/// Adds card views counted by the car's address (`/car/{slug}`): the
/// published cars' slugs become their ids; the others (a typo, a draft)
/// are dropped. Gives the views added.
pub fn add_site_views_by_slug(
    conn: &Connection,
    views: &[(String, NaiveDate, u32)],
) -> AppResult<u64> {
    let mut find = conn.prepare_cached("SELECT id FROM cars WHERE slug = ?1 AND published = 1")?;
    let mut by_id = Vec::with_capacity(views.len());
    let mut added = 0;
    for (slug, day, n) in views {
        if let Some(id) = find
            .query_row([slug], |r| r.get::<_, String>(0))
            .optional()?
        {
            by_id.push((id, *day, *n));
            added += u64::from(*n);
        }
    }
    add_site_views(conn, &by_id)?;
    Ok(added)
}

/// Forgets the days older than [`KEPT_DAYS`] before `today`. Gives how many
/// rows went.
pub fn prune(conn: &Connection, today: NaiveDate) -> AppResult<usize> {
    let oldest = first_of(today, KEPT_DAYS);
    Ok(conn
        .prepare_cached("DELETE FROM car_channel_days WHERE day < ?1")?
        .execute([day_text(oldest)])?)
}

/// Adds up the [`TOTAL_DAYS`] days ending on `today` into
/// `car_figure_totals`, for `cars` or (None) for every car.
pub fn refresh_totals(
    conn: &Connection,
    cars: Option<BTreeSet<&str>>,
    today: NaiveDate,
) -> AppResult<()> {
    let set = format!(
        "UPDATE car_figure_totals SET (views30, contacts30, calls30, through_day) = (
            SELECT coalesce(sum(views), 0), coalesce(sum(contacts), 0), coalesce(sum(calls), 0), ?2
            FROM car_channel_days d WHERE d.car_id = car_figure_totals.car_id
                AND d.channel IN {CHANNELS} AND d.day >= ?1)"
    );
    let from = day_text(first_of(today, TOTAL_DAYS));
    let through = day_text(today);
    match cars {
        None => {
            conn.execute(
                "INSERT OR IGNORE INTO car_figure_totals (car_id) SELECT id FROM cars",
                [],
            )?;
            conn.prepare_cached(&set)?.execute([&from, &through])?;
        }
        Some(cars) => {
            let mut one = conn.prepare_cached(&format!("{set} WHERE car_id = ?3"))?;
            for car in cars {
                one.execute([from.as_str(), through.as_str(), car])?;
            }
        }
    }
    Ok(())
}

/// The nightly job: old days pruned, every car's totals moved to `today`.
pub fn nightly(conn: &Connection, today: NaiveDate) -> AppResult<usize> {
    let pruned = prune(conn, today)?;
    refresh_totals(conn, None, today)?;
    Ok(pruned)
}

/// One channel's figures of a car on one day.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CarDay {
    /// site, avito or autoru (inline: the outbox has a `Channel` of its own).
    #[schema(inline)]
    pub channel: Channel,
    /// The Moscow day, `YYYY-MM-DD`.
    pub day: String,
    pub views: i64,
    pub contacts: i64,
    pub favourites: i64,
    pub calls: i64,
}

/// A car's days per channel over the `days` days ending on `today` (at most
/// [`MAX_CHART_DAYS`]), by channel, then day. Days without figures are not
/// stored, so not given.
pub fn car_days(
    conn: &Connection,
    car_id: &str,
    days: u32,
    today: NaiveDate,
) -> AppResult<Vec<CarDay>> {
    let from = first_of(today, u64::from(days.clamp(1, MAX_CHART_DAYS)));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT channel, day, views, contacts, favourites, calls FROM car_channel_days
         WHERE car_id = ?1 AND channel IN {CHANNELS} AND day >= ?2 AND day <= ?3
         ORDER BY channel, day"
    ))?;
    let rows = stmt.query_map(
        rusqlite::params![car_id, day_text(from), day_text(today)],
        |r| {
            let channel: String = r.get(0)?;
            Ok(CarDay {
                channel: Channel::parse(&channel).unwrap_or(Channel::Site),
                day: r.get(1)?,
                views: r.get(2)?,
                contacts: r.get(3)?,
                favourites: r.get(4)?,
                calls: r.get(5)?,
            })
        },
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Why a car is on the quiet list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuietReason {
    /// Seen often, and nobody asked or called.
    NoContacts,
    /// Hardly seen at all.
    FewViews,
}

/// A car nobody calls about.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct QuietCar {
    pub car_id: String,
    /// «Lada Vesta 2023».
    pub name: String,
    pub slug: String,
    pub price: Money,
    /// Whole days since the car was added.
    pub days_in_stock: i64,
    pub views: i64,
    pub contacts: i64,
    pub calls: i64,
    pub reason: QuietReason,
    /// Why, in words: «1 250 просмотров за 14 дней, ни одного обращения и звонка».
    pub why: String,
}

/// The published cars in stock that nobody calls about over the `days`
/// days ending on `today`, every channel added up: seen at least
/// `min_views` times with no contact and no call; or seen fewer than
/// [`FEW_VIEWS`] times though on the site for the whole period. Most seen
/// first, then the least seen.
pub fn quiet_cars(
    conn: &Connection,
    days: i64,
    min_views: i64,
    today: NaiveDate,
    now: DateTime<Utc>,
) -> AppResult<Vec<QuietCar>> {
    let period = u64::try_from(days.max(1)).unwrap_or(1);
    let from = first_of(today, period);
    // A car added after the period began has not had the period to be seen.
    let added_before =
        (now - chrono::Duration::days(days)).to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let mut stmt = conn.prepare_cached(&format!(
        "WITH seen AS (
            SELECT c.id, c.slug, c.price_kopecks, c.created_at,
                trim(coalesce(b.name, '') || ' ' || c.name || ' ' || c.year) AS name,
                coalesce(sum(d.views), 0) AS views, coalesce(sum(d.contacts), 0) AS contacts,
                coalesce(sum(d.calls), 0) AS calls
            FROM cars c LEFT JOIN brands b ON b.id = c.brand_id
            LEFT JOIN car_channel_days d ON d.car_id = c.id AND d.channel IN {CHANNELS}
                AND d.day >= ?1
            WHERE c.published = 1 AND c.in_stock = 1
            GROUP BY c.id)
         SELECT id, slug, price_kopecks, created_at, name, views, contacts, calls FROM seen
         WHERE (views >= ?2 AND contacts = 0 AND calls = 0)
            OR (views < ?3 AND created_at <= ?4)
         ORDER BY views DESC, created_at, id"
    ))?;
    let rows = stmt.query_map(
        rusqlite::params![day_text(from), min_views, FEW_VIEWS, added_before],
        |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, i64>(6)?,
                r.get::<_, i64>(7)?,
            ))
        },
    )?;
    let mut out = Vec::new();
    for row in rows {
        let (car_id, slug, price, created_at, name, views, contacts, calls) = row?;
        let days_in_stock = DateTime::parse_from_rfc3339(&created_at)
            .map(|at| (now - at.with_timezone(&Utc)).num_days().max(0))
            .unwrap_or(0);
        let (reason, why) = if views >= min_views && contacts == 0 && calls == 0 {
            (
                QuietReason::NoContacts,
                format!(
                    "{} за {}, ни одного обращения и звонка",
                    count_words(views, ["просмотр", "просмотра", "просмотров"]),
                    count_words(days, ["день", "дня", "дней"])
                ),
            )
        } else {
            (
                QuietReason::FewViews,
                format!(
                    "{} за {}: объявление почти не видят",
                    count_words(views, ["просмотр", "просмотра", "просмотров"]),
                    count_words(days, ["день", "дня", "дней"])
                ),
            )
        };
        out.push(QuietCar {
            car_id,
            name,
            slug,
            price: Money(price),
            days_in_stock,
            views,
            contacts,
            calls,
            reason,
            why,
        });
    }
    Ok(out)
}

/// «1 просмотр», «3 просмотра», «1 250 просмотров».
pub fn count_words(n: i64, forms: [&str; 3]) -> String {
    let tail = n.rem_euclid(100);
    let form = if (11..=14).contains(&tail) {
        forms[2]
    } else {
        match tail % 10 {
            1 => forms[0],
            2..=4 => forms[1],
            _ => forms[2],
        }
    };
    format!("{} {form}", group_thousands(n))
}

/// «1 250» with a no-break space, as the admin writes numbers.
fn group_thousands(n: i64) -> String {
    let digits = n.abs().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{a0}');
        }
        out.push(ch);
    }
    if n < 0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn counts_read_as_russian() {
        assert_eq!(count_words(1, ["день", "дня", "дней"]), "1 день");
        assert_eq!(count_words(3, ["день", "дня", "дней"]), "3 дня");
        assert_eq!(count_words(14, ["день", "дня", "дней"]), "14 дней");
        assert_eq!(count_words(21, ["день", "дня", "дней"]), "21 день");
        assert_eq!(
            count_words(1250, ["просмотр", "просмотра", "просмотров"]),
            "1\u{a0}250 просмотров"
        );
    }

    #[test]
    fn a_period_of_n_days_ends_today() {
        let today = NaiveDate::from_ymd_opt(2025, 3, 31).unwrap();
        assert_eq!(first_of(today, 1), today);
        assert_eq!(
            first_of(today, 30),
            NaiveDate::from_ymd_opt(2025, 3, 2).unwrap()
        );
    }
}
