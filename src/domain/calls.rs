//! Calls on the marketplaces' substitute numbers (`calls`, V36;
//! `docs/leads.md`, "Calls as leads"): one row per provider and call id,
//! ever; the car a call was about (its ad's id through `marketplace_ads`,
//! Auto.ru also by the VIN); the caller's open lead; the words a call is
//! told in on its lead («Звонок с Авито: 3 мин 20 с», «Пропущенный звонок с
//! Авито»). Making the lead itself is `marketplaces::sync::calls`.

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::money::Money;
use crate::error::AppResult;

/// A call as every provider's is normalised: a marketplace's substitute
/// number (Avito, Auto.ru), a call-tracking service's or a PBX's (Calltouch,
/// UIS, Mango Office; `crate::calltracking`). What a provider does not give
/// stays empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Call {
    /// The provider's id of the call: one record per provider and id, ever.
    pub call_id: String,
    /// The marketplace's ad it was about (Avito `itemId`, Auto.ru offer id).
    pub market_id: Option<String>,
    /// The car's VIN, when the provider gives it (Auto.ru).
    pub vin: Option<String>,
    /// The caller's number in E.164 (+7…), when the provider gives it.
    pub caller: Option<String>,
    /// The number called (a substitute or tracking number), E.164.
    pub called: Option<String>,
    /// When the call began.
    pub at: DateTime<Utc>,
    /// The whole call, ringing included, in seconds (0: not given).
    pub duration_seconds: u32,
    pub talk_seconds: u32,
    pub wait_seconds: u32,
    /// Taken by the salon (talk time above zero, or the provider says so).
    pub answered: bool,
    /// A link to the recording on the provider's side (never the audio).
    pub record_url: Option<String>,
    /// The provider's name for where the caller came from («yandex / cpc»).
    pub source: Option<String>,
    pub utm: CallUtm,
    /// The web analytics' client id of the visit (Metrika's `yaClientId`).
    pub client_id: Option<String>,
    /// The page the caller saw the number on.
    pub page_url: Option<String>,
}

/// The UTM tags of the visit a call came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallUtm {
    pub source: Option<String>,
    pub medium: Option<String>,
    pub campaign: Option<String>,
    pub term: Option<String>,
    pub content: Option<String>,
}

/// The car a call was about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallCar {
    pub id: String,
    /// «Lada Vesta 2023».
    pub name: String,
    pub price: Money,
    /// new, used or lease.
    pub status: String,
    /// The ad's page on the marketplace, when its report gave one.
    pub ad_url: Option<String>,
}

/// Whether the call is already recorded (a poll that sees it again does
/// nothing).
pub fn is_known(conn: &Connection, provider: &str, call_id: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM calls WHERE provider = ?1 AND call_id = ?2")?
        .query_row([provider, call_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The car of the ad `market_id` on `channel` (through the marketplace's
/// report, `marketplace_ads`), else the car with the `vin`. `channel` is
/// the marketplace's name (`marketplaces::Channel::as_str`): this module
/// does not import the marketplaces, which re-export its `Call`.
pub fn car_of(
    conn: &Connection,
    channel: &str,
    market_id: Option<&str>,
    vin: Option<&str>,
) -> AppResult<Option<CallCar>> {
    let read = |r: &rusqlite::Row<'_>| {
        Ok(CallCar {
            id: r.get(0)?,
            name: r.get(1)?,
            price: Money(r.get(2)?),
            status: r.get(3)?,
            ad_url: r.get(4)?,
        })
    };
    const CAR: &str = "c.id, trim(coalesce(b.name, '') || ' ' || c.name || ' ' || c.year),
        c.price_kopecks, c.status";
    if let Some(market_id) = market_id.map(str::trim).filter(|id| !id.is_empty()) {
        let found = conn
            .prepare_cached(&format!(
                "SELECT {CAR}, a.url FROM marketplace_ads a JOIN cars c ON c.id = a.car_id
                 LEFT JOIN brands b ON b.id = c.brand_id
                 WHERE a.channel = ?1 AND a.market_id = ?2 LIMIT 1"
            ))?
            .query_row([channel, market_id], read)
            .optional()?;
        if found.is_some() {
            return Ok(found);
        }
    }
    let Some(vin) = vin.map(str::trim).filter(|v| v.len() == 17) else {
        return Ok(None);
    };
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {CAR}, (SELECT url FROM marketplace_ads a
                 WHERE a.channel = ?1 AND a.car_id = c.id LIMIT 1)
             FROM cars c LEFT JOIN brands b ON b.id = c.brand_id
             WHERE c.vin = upper(?2) LIMIT 1"
        ))?
        .query_row([channel, vin], read)
        .optional()?)
}

/// The car of the site's page `page` (`/car/{slug}`, whole or a path,
/// with or without a query), when the page is a car's.
pub fn car_of_page(conn: &Connection, page: &str) -> AppResult<Option<CallCar>> {
    let path = page.split_once("://").map_or(page, |(_, rest)| {
        rest.find('/').map_or("", |at| &rest[at..])
    });
    let path = path.split(['?', '#']).next().unwrap_or("");
    let Some(slug) = path
        .strip_prefix("/car/")
        .map(|slug| slug.trim_end_matches('/'))
        .filter(|slug| !slug.is_empty() && !slug.contains('/'))
    else {
        return Ok(None);
    };
    Ok(conn
        .prepare_cached(
            "SELECT c.id, trim(coalesce(b.name, '') || ' ' || c.name || ' ' || c.year),
                c.price_kopecks, c.status
             FROM cars c LEFT JOIN brands b ON b.id = c.brand_id WHERE c.slug = ?1",
        )?
        .query_row([slug], |r| {
            Ok(CallCar {
                id: r.get(0)?,
                name: r.get(1)?,
                price: Money(r.get(2)?),
                status: r.get(3)?,
                ad_url: None,
            })
        })
        .optional()?)
}

/// The caller's open lead (same phone, `new` or `in_progress`), newest.
pub fn open_lead_of(conn: &Connection, phone: &str) -> AppResult<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM leads INDEXED BY leads_phone
             WHERE phone = ?1 AND status IN ('new', 'in_progress')
             ORDER BY created_at DESC LIMIT 1",
        )?
        .query_row([phone], |r| r.get(0))
        .optional()?)
}

/// Records the call `call` of `provider` with its car and lead; gives
/// whether it was new (false: it was already there and nothing changed).
pub fn record(
    conn: &Connection,
    provider: &str,
    call: &Call,
    car_id: Option<&str>,
    lead_id: Option<&str>,
    call_back_by: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> AppResult<bool> {
    let stamp = |t: DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Millis, true);
    let written = conn
        .prepare_cached(
            "INSERT INTO calls (provider, call_id, at, caller, called, talk_seconds,
                wait_seconds, answered, market_id, car_id, lead_id, call_back_by, recorded_at,
                duration_seconds, record_url, source, utm_source, utm_medium, utm_campaign,
                utm_term, utm_content, client_id, page_url)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                ?17, ?18, ?19, ?20, ?21, ?22, ?23)
             ON CONFLICT (provider, call_id) DO NOTHING",
        )?
        .execute(params![
            provider,
            call.call_id,
            stamp(call.at),
            call.caller,
            call.called,
            call.talk_seconds,
            call.wait_seconds,
            call.answered,
            call.market_id,
            car_id,
            lead_id,
            call_back_by.map(stamp),
            stamp(now),
            call.duration_seconds
                .max(call.talk_seconds + call.wait_seconds),
            call.record_url,
            call.source,
            call.utm.source,
            call.utm.medium,
            call.utm.campaign,
            call.utm.term,
            call.utm.content,
            call.client_id,
            call.page_url,
        ])?;
    Ok(written > 0)
}

/// A note on a lead from no staff member: the provider's name is its
/// author («Авито»).
pub fn note(conn: &Connection, lead_id: &str, author: &str, body: &str) -> AppResult<()> {
    conn.prepare_cached(
        "INSERT INTO lead_comments (lead_id, author_id, author_name, body, created_at)
         VALUES (?1, NULL, ?2, ?3, ?4)",
    )?
    .execute(params![lead_id, author, body, crate::domain::now()])?;
    conn.prepare_cached("UPDATE leads SET updated_at = ?2 WHERE id = ?1")?
        .execute(params![lead_id, crate::domain::now()])?;
    Ok(())
}

/// A duration in the leads' words: «3 мин 20 с», «45 с», «2 мин».
pub fn duration(seconds: u32) -> String {
    let (minutes, seconds) = (seconds / 60, seconds % 60);
    match (minutes, seconds) {
        (0, s) => format!("{s} с"),
        (m, 0) => format!("{m} мин"),
        (m, s) => format!("{m} мин {s} с"),
    }
}

/// The line a call is told in, `from` saying whence («с Авито», «через
/// Calltouch»): «Звонок с Авито: 3 мин 20 с», or «Пропущенный звонок с
/// Авито — перезвонить до 14.05 10:15 (МСК)».
pub fn line(from: &str, call: &Call, call_back_by: Option<DateTime<Utc>>) -> String {
    let mut line = if call.answered {
        format!("Звонок {from}: {}", duration(call.talk_seconds))
    } else {
        format!("Пропущенный звонок {from}")
    };
    if let Some(by) = call_back_by.filter(|_| !call.answered) {
        let local = by.with_timezone(&crate::clock::moscow());
        line.push_str(&format!(
            " — перезвонить до {} (МСК)",
            local.format("%d.%m %H:%M")
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(answered: bool, talk: u32) -> Call {
        Call {
            call_id: "1".into(),
            market_id: None,
            vin: None,
            caller: None,
            called: None,
            at: Utc::now(),
            talk_seconds: talk,
            wait_seconds: 5,
            answered,
            ..Call::default()
        }
    }

    #[test]
    fn a_call_is_told_with_its_length_or_as_missed_with_its_deadline() {
        assert_eq!(
            line("с Авито", &call(true, 200), None),
            "Звонок с Авито: 3 мин 20 с"
        );
        assert_eq!(
            line("с Авто.ру", &call(true, 45), None),
            "Звонок с Авто.ру: 45 с"
        );
        assert_eq!(duration(120), "2 мин");
        assert_eq!(
            line("с Авито", &call(false, 0), None),
            "Пропущенный звонок с Авито"
        );
        let by = DateTime::parse_from_rfc3339("2026-05-14T07:15:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(
            line("с Авито", &call(false, 0), Some(by)),
            "Пропущенный звонок с Авито — перезвонить до 14.05 10:15 (МСК)"
        );
    }
}
