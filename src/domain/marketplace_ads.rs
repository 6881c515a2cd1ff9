//! Each car's fate on each marketplace (`marketplace_ads`, V34): a
//! marketplace's report of its last feed run recorded by the feed's own id,
//! and read back for a car, for the list of refused cars and for the
//! self-check (`docs/marketplaces.md`, "What the admin shows").

use crate::domain::money::Money;
use crate::error::AppResult;
use crate::marketplaces::{AdReport, AdStatus, Channel};
use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, Row};
use serde::Serialize;
use utoipa::ToSchema;

/// The car an ad of our feed is about: the car whose external id is the
/// feed's id, else the car whose own id it is (`parser::export::feed_id`).
pub fn car_of_feed_id(conn: &Connection, feed_id: &str) -> AppResult<Option<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM cars WHERE external_id = ?1
         UNION ALL SELECT id FROM cars WHERE id = ?1 AND NOT EXISTS (
            SELECT 1 FROM cars WHERE external_id = ?1)
         LIMIT 1",
    )?;
    Ok(stmt.query_row([feed_id], |r| r.get(0)).optional()?)
}

/// Records a marketplace's report: each ad's row is written by `(channel,
/// feed id)`, its car found again from the feed id (kept when none is found
/// now: a car left the feed, its history stays). An ad missing from the
/// report keeps its row. Gives how many ads were written.
pub fn record_report(
    conn: &Connection,
    channel: Channel,
    reports: &[AdReport],
    now: DateTime<Utc>,
) -> AppResult<usize> {
    let at = now.to_rfc3339_opts(SecondsFormat::Millis, true);
    let mut upsert = conn.prepare_cached(
        "INSERT INTO marketplace_ads
            (channel, feed_id, car_id, market_id, status, messages, url, reported_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (channel, feed_id) DO UPDATE SET
            car_id = coalesce(excluded.car_id, marketplace_ads.car_id),
            market_id = coalesce(excluded.market_id, marketplace_ads.market_id),
            status = excluded.status, messages = excluded.messages,
            url = excluded.url, reported_at = excluded.reported_at",
    )?;
    for report in reports {
        let car = car_of_feed_id(conn, &report.feed_id)?;
        let messages = serde_json::to_string(&report.messages)
            .map_err(|e| crate::error::AppError::Internal(e.into()))?;
        upsert.execute(rusqlite::params![
            channel.as_str(),
            report.feed_id,
            car,
            report.market_id,
            report.status.as_str(),
            messages,
            report.url,
            at,
        ])?;
    }
    Ok(reports.len())
}

/// The marketplace's ids of our ads on `channel` whose car is known (the
/// ads the figures are asked for), each once.
pub fn market_ids(conn: &Connection, channel: Channel) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT market_id FROM marketplace_ads
         WHERE channel = ?1 AND market_id IS NOT NULL AND car_id IS NOT NULL
         ORDER BY market_id",
    )?;
    let rows = stmt.query_map([channel.as_str()], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A car's ad on one marketplace, as its last report said.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CarAd {
    /// site, avito or autoru (inline: the outbox has a `Channel` of its own).
    #[schema(inline)]
    pub channel: Channel,
    /// «Авито», «Авто.ру».
    pub channel_label: String,
    pub status: AdStatus,
    /// «опубликовано», «отклонено», «на проверке», «снято».
    pub status_label: String,
    /// The marketplace's own words, as it wrote them.
    pub messages: Vec<String>,
    /// The ad's page on the marketplace.
    #[schema(required = true)]
    pub url: Option<String>,
    pub reported_at: String,
}

fn ad_from_row(row: &Row) -> rusqlite::Result<CarAd> {
    let channel: String = row.get("channel")?;
    let status: String = row.get("status")?;
    // The table's CHECKs allow only these.
    let channel = Channel::parse(&channel).unwrap_or(Channel::Avito);
    let status = AdStatus::parse(&status).unwrap_or(AdStatus::Pending);
    Ok(CarAd {
        channel,
        channel_label: channel.label().into(),
        status,
        status_label: status.label().into(),
        messages: crate::domain::json_column(&row.get::<_, String>("messages")?),
        url: row.get("url")?,
        reported_at: row.get("reported_at")?,
    })
}

/// A car's ads, Avito first.
pub fn for_car(conn: &Connection, car_id: &str) -> AppResult<Vec<CarAd>> {
    let mut stmt = conn.prepare_cached(
        "SELECT channel, status, messages, url, reported_at FROM marketplace_ads
         WHERE car_id = ?1 ORDER BY channel = 'autoru', reported_at DESC",
    )?;
    let rows = stmt.query_map([car_id], ad_from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A refused ad with its car.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RefusedAd {
    #[serde(flatten)]
    pub ad: CarAd,
    pub car_id: String,
    /// The brand, the car's name and year: «Lada Vesta 2023».
    pub car_name: String,
    pub slug: String,
    pub price: Money,
    pub published: bool,
}

/// The refused ads whose car is known, newest report first; only the
/// published cars' when `published_only`.
pub fn refused(conn: &Connection, published_only: bool) -> AppResult<Vec<RefusedAd>> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.channel, a.status, a.messages, a.url, a.reported_at, c.id AS car_id,
            trim(coalesce(b.name, '') || ' ' || c.name || ' ' || c.year) AS car_name,
            c.slug, c.price_kopecks, c.published
         FROM marketplace_ads a INDEXED BY marketplace_ads_refused
         JOIN cars c ON c.id = a.car_id LEFT JOIN brands b ON b.id = c.brand_id
         WHERE a.status = 'refused' AND (c.published = 1 OR NOT ?1)
         ORDER BY a.reported_at DESC, a.channel, a.feed_id",
    )?;
    let rows = stmt.query_map([published_only], |r| {
        Ok(RefusedAd {
            ad: ad_from_row(r)?,
            car_id: r.get("car_id")?,
            car_name: r.get("car_name")?,
            slug: r.get("slug")?,
            price: Money(r.get("price_kopecks")?),
            published: r.get("published")?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// What changes when the refused ads change (their count and latest report):
/// the held self-checks are kept by it beside the content version, since no
/// report moves that version.
pub fn refused_mark(conn: &Connection) -> AppResult<(i64, Option<String>)> {
    let mut stmt = conn.prepare_cached(
        "SELECT count(*), max(reported_at) FROM marketplace_ads INDEXED BY marketplace_ads_refused
         WHERE status = 'refused'",
    )?;
    Ok(stmt.query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
}
