//! The alerts: the cars matching a confirmed search, what changed since the
//! last mail (new cars, lower prices), and the mails queued in the outbox.

use super::search::{ALERT_EVERY_HOURS, SearchFilter};
use super::stored::{SELECT_SUBSCRIPTION, Subscription, issue_token, stamp, subscription_row};
use crate::domain::money::Money;
use crate::domain::outbox::{Channel, Kind};
use crate::domain::{cars, outbox};
use crate::error::AppResult;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A published car matching a search, as an alert names it.
#[derive(Debug, Clone)]
pub struct Match {
    pub car_id: String,
    /// "Haval Jolion, 2025"
    pub title: String,
    pub slug: String,
    pub price: Money,
}

/// The published cars matching `filter` now, through the catalogue's own
/// filter.
pub fn matching(conn: &Connection, filter: &SearchFilter) -> AppResult<Vec<Match>> {
    Ok(cars::list_all(conn, &filter.car_filter())?
        .into_iter()
        .map(|car| Match {
            title: format!("{} {}, {}", car.brand_name, car.name, car.year),
            car_id: car.id,
            slug: car.slug,
            price: car.price,
        })
        .collect())
}

/// Records cars and prices as told to (or seen by) a subscriber.
pub(super) fn remember<'a>(
    conn: &Connection,
    subscription_id: &str,
    cars: impl IntoIterator<Item = (&'a str, Money)>,
) -> AppResult<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO saved_search_seen (subscription_id, car_id, price_kopecks) VALUES (?1, ?2, ?3)
         ON CONFLICT (subscription_id, car_id) DO UPDATE SET price_kopecks = excluded.price_kopecks",
    )?;
    for (car, price) in cars {
        stmt.execute(params![subscription_id, car, price.kopecks()])?;
    }
    Ok(())
}

pub(super) fn seen(conn: &Connection, subscription_id: &str) -> AppResult<HashMap<String, Money>> {
    let mut stmt = conn.prepare_cached(
        "SELECT car_id, price_kopecks FROM saved_search_seen WHERE subscription_id = ?1",
    )?;
    let rows = stmt.query_map([subscription_id], |r| Ok((r.get(0)?, Money(r.get(1)?))))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// One change an alert tells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertItem {
    pub car_id: String,
    pub title: String,
    /// The car's page, absolute.
    pub url: String,
    pub price_kopecks: i64,
    /// The price the subscriber knew, for a drop; None for a new car.
    pub old_price_kopecks: Option<i64>,
}

/// One search's part of an alert mail.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertSection {
    pub subscription_id: String,
    pub description: String,
    /// The catalogue page, absolute.
    pub page_url: String,
    /// Unsubscribes this search only; removed once the mail is sent.
    #[serde(default)]
    pub unsubscribe_token: Option<String>,
    pub items: Vec<AlertItem>,
}

/// What the outbox row of an alert mail holds: its whole content, fixed
/// when it was queued, so a retry sends the same mail.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertPayload {
    pub email: String,
    /// Unsubscribes every search of the address (the footer link and the
    /// List-Unsubscribe header); removed once the mail is sent.
    #[serde(default)]
    pub unsubscribe_all_token: Option<String>,
    /// The withdrawal link's token; removed once the mail is sent.
    #[serde(default)]
    pub forget_token: Option<String>,
    pub sections: Vec<AlertSection>,
}

/// The changes for one subscriber: new matching cars, then drops, each in
/// the catalogue's order (newest first).
pub(super) fn changes(
    now: &[Match],
    seen: &HashMap<String, Money>,
    base_url: &str,
) -> Vec<AlertItem> {
    let item = |m: &Match, old: Option<Money>| AlertItem {
        car_id: m.car_id.clone(),
        title: m.title.clone(),
        url: format!("{base_url}/car/{}", m.slug),
        price_kopecks: m.price.kopecks(),
        old_price_kopecks: old.map(Money::kopecks),
    };
    let fresh = now
        .iter()
        .filter(|m| !seen.contains_key(&m.car_id))
        .map(|m| item(m, None));
    let drops = now.iter().filter_map(|m| match seen.get(&m.car_id) {
        Some(old) if m.price < *old => Some(item(m, Some(*old))),
        _ => None,
    });
    fresh.chain(drops).collect()
}

/// Queues the alert mails due at `now`: for each address whose last alert
/// is more than [`ALERT_EVERY_HOURS`] ago, one mail listing every change of
/// all its confirmed searches since what it was last told. What is found
/// while an address waits stays in the difference (nothing is lost). Gives
/// how many mails were queued.
pub fn queue_alerts(conn: &Connection, now: DateTime<Utc>, base_url: &str) -> AppResult<usize> {
    let at = stamp(now);
    let cutoff = stamp(now - chrono::Duration::hours(ALERT_EVERY_HOURS));
    let due: Vec<Subscription> = conn
        .prepare_cached(&format!(
            "{SELECT_SUBSCRIPTION}
             WHERE s.confirmed_at IS NOT NULL AND s.unsubscribed_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM saved_search_subscriptions o
                               WHERE o.email_key = s.email_key AND o.last_alert_at > ?1)
             ORDER BY s.email, s.created_at"
        ))?
        .query_map([&cutoff], subscription_row)?
        .collect::<Result<_, _>>()?;
    let mut matches: HashMap<String, Vec<Match>> = HashMap::new();
    let mut queued = 0;
    let mut at_address = 0;
    while at_address < due.len() {
        let email = due[at_address].email.clone();
        let next = due[at_address..]
            .iter()
            .position(|s| s.email != email)
            .map_or(due.len(), |n| at_address + n);
        let subscriptions = &due[at_address..next];
        at_address = next;
        let mut sections = Vec::new();
        for sub in subscriptions {
            if !matches.contains_key(&sub.search_id) {
                matches.insert(sub.search_id.clone(), matching(conn, &sub.filter)?);
            }
            let items = changes(&matches[&sub.search_id], &seen(conn, &sub.id)?, base_url);
            if !items.is_empty() {
                sections.push((sub, items));
            }
        }
        if sections.is_empty() {
            continue;
        }
        crate::domain::atomically(conn, || {
            let mut payload = AlertPayload {
                email: email.clone(),
                unsubscribe_all_token: Some(issue_token(
                    conn,
                    "unsubscribe_all",
                    None,
                    &email,
                    &at,
                )?),
                forget_token: Some(crate::domain::withdrawal::issue(conn, &email, &at)?),
                sections: Vec::new(),
            };
            for (sub, items) in &sections {
                remember(
                    conn,
                    &sub.id,
                    items
                        .iter()
                        .map(|i| (i.car_id.as_str(), Money(i.price_kopecks))),
                )?;
                conn.prepare_cached(
                    "UPDATE saved_search_subscriptions SET last_alert_at = ?2 WHERE id = ?1",
                )?
                .execute(params![sub.id, at])?;
                payload.sections.push(AlertSection {
                    subscription_id: sub.id.clone(),
                    description: sub.description.clone(),
                    page_url: absolute(base_url, &sub.page_url),
                    unsubscribe_token: Some(issue_token(
                        conn,
                        "unsubscribe",
                        Some(&sub.id),
                        &email,
                        &at,
                    )?),
                    items: items.clone(),
                });
            }
            let payload = serde_json::to_value(&payload).map_err(anyhow::Error::from)?;
            outbox::enqueue_kind(
                conn,
                Kind::SearchAlert,
                None,
                &payload,
                &[Channel::Email],
                &crate::domain::now(),
            )
        })?;
        queued += 1;
    }
    Ok(queued)
}

/// A site path made absolute with the base URL.
pub fn absolute(base_url: &str, path: &str) -> String {
    if path.starts_with("http://") || path.starts_with("https://") {
        path.to_string()
    } else {
        format!("{base_url}{path}")
    }
}

/// Drops the tokens from a sent mail's outbox row: only their hashes stay
/// in the database.
pub fn forget_tokens(conn: &Connection, outbox_id: i64) -> AppResult<()> {
    conn.prepare_cached(
        "UPDATE outbox SET payload = json_remove(payload, '$.token', '$.unsubscribeAllToken', '$.forgetToken')
         WHERE id = ?1",
    )?
    .execute([outbox_id])?;
    let payload: String = conn
        .prepare_cached("SELECT payload FROM outbox WHERE id = ?1")?
        .query_row([outbox_id], |r| r.get(0))?;
    let mut value: serde_json::Value = crate::domain::json_column(&payload);
    if let Some(sections) = value.get_mut("sections").and_then(|s| s.as_array_mut()) {
        for section in sections {
            if let Some(section) = section.as_object_mut() {
                section.remove("unsubscribeToken");
            }
        }
        conn.prepare_cached("UPDATE outbox SET payload = ?2 WHERE id = ?1")?
            .execute(params![outbox_id, value.to_string()])?;
    }
    Ok(())
}
