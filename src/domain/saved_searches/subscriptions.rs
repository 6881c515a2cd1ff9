//! Subscriptions in storage: subscribing (with the confirmation mail's
//! token), reading one, confirming and unsubscribing by a link's token.

use super::alerts::{matching, remember};
use super::filter::mask_email;
use super::request::ValidRequest;
use super::search::{CONFIRM_REPEAT_MINUTES, CONFIRM_VALID_DAYS};
use super::stored::{find_token, get, issue_token, stamp};
use crate::domain::email::canonical;
use crate::domain::money::Money;
use crate::domain::outbox;
use crate::domain::outbox::{Channel, Kind};
use crate::error::AppResult;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What the outbox row of a confirmation mail holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmPayload {
    pub subscription_id: String,
    /// Removed once the mail is sent (only its hash stays).
    #[serde(default)]
    pub token: Option<String>,
    /// The withdrawal link's token (`domain::withdrawal`); removed once the
    /// mail is sent.
    #[serde(default)]
    pub forget_token: Option<String>,
}

/// What `subscribe` did.
#[derive(Debug, Clone)]
pub struct Subscribed {
    pub description: String,
    /// A confirmation mail was queued.
    pub queued: bool,
}

/// A subscription's id, confirmed_at, unsubscribed_at and confirm_sent_at.
pub(super) type SubscriptionState = (String, Option<String>, Option<String>, Option<String>);

/// Stores a request (a new pending subscription, or the same one again)
/// and queues its confirmation mail in the same transaction, unless the
/// address already follows the filter, a confirmation went out minutes
/// ago, or the caps on mail a stranger can trigger hold it
/// (`mail_cap::admit`, with the site's `daily_limit`). The answer is the
/// same either way (docs/saved-searches.md).
pub fn subscribe(
    conn: &Connection,
    valid: ValidRequest,
    consent_version: i64,
    daily_limit: i64,
    ip: &str,
    now: DateTime<Utc>,
) -> AppResult<Subscribed> {
    crate::domain::atomically(conn, || {
        let at = stamp(now);
        let search_id = upsert_search(conn, &valid, &at)?;
        let existing: Option<SubscriptionState> = conn
            .prepare_cached(
                "SELECT id, confirmed_at, unsubscribed_at, confirm_sent_at
                 FROM saved_search_subscriptions WHERE email_key = ?1 AND search_id = ?2",
            )?
            .query_row(params![canonical(&valid.email), search_id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .optional()?;
        let ip: String = ip.chars().take(64).collect();
        let id = match existing {
            Some((_, Some(_), None, _)) => {
                // Already following: nothing is sent, nothing told.
                return Ok(Subscribed {
                    description: valid.description,
                    queued: false,
                });
            }
            Some((_, None, None, Some(sent)))
                if sent > stamp(now - chrono::Duration::minutes(CONFIRM_REPEAT_MINUTES)) =>
            {
                // A confirmation is on its way (a second click).
                return Ok(Subscribed {
                    description: valid.description,
                    queued: false,
                });
            }
            Some((id, _, _, _)) => {
                // Pending, or unsubscribed and asked again: pending anew,
                // with the consent given now.
                conn.prepare_cached(
                    "UPDATE saved_search_subscriptions SET page_url = ?2, consent_version = ?3,
                        email = ?6, email_key = ?7,
                        consent_at = ?4, consent_ip = ?5, advertising_consent = 1,
                        advertising_consent_at = ?4, confirmed_at = NULL, confirm_ip = NULL,
                        unsubscribed_at = NULL, updated_at = ?4
                     WHERE id = ?1",
                )?
                .execute(params![
                    id,
                    valid.page_url,
                    consent_version,
                    at,
                    ip,
                    valid.email,
                    canonical(&valid.email)
                ])?;
                conn.prepare_cached("DELETE FROM saved_search_seen WHERE subscription_id = ?1")?
                    .execute([&id])?;
                id
            }
            None => {
                let id = crate::domain::new_ordered_id();
                conn.prepare_cached(
                    "INSERT INTO saved_search_subscriptions (id, search_id, email, page_url,
                        consent_version, consent_at, consent_ip, advertising_consent,
                        advertising_consent_at, created_at, updated_at, email_key)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?6, ?6, ?6, ?8)",
                )?
                .execute(params![
                    id,
                    search_id,
                    valid.email,
                    valid.page_url,
                    consent_version,
                    at,
                    ip,
                    canonical(&valid.email)
                ])?;
                id
            }
        };
        if !crate::domain::mail_cap::admit(
            conn,
            &valid.email,
            Kind::SearchConfirm,
            daily_limit,
            now,
        )? {
            // Held by a cap: stored as asked, answered alike, not mailed.
            return Ok(Subscribed {
                description: valid.description,
                queued: false,
            });
        }
        let token = issue_token(conn, "confirm", Some(&id), &valid.email, &at)?;
        conn.prepare_cached(
            "UPDATE saved_search_subscriptions SET confirm_sent_at = ?2 WHERE id = ?1",
        )?
        .execute(params![id, at])?;
        let payload = serde_json::to_value(ConfirmPayload {
            subscription_id: id,
            token: Some(token),
            forget_token: Some(crate::domain::withdrawal::issue(conn, &valid.email, &at)?),
        })
        .map_err(anyhow::Error::from)?;
        // The outbox runs on the real time of its worker.
        outbox::enqueue_kind(
            conn,
            Kind::SearchConfirm,
            None,
            &payload,
            &[Channel::Email],
            &crate::domain::now(),
        )?;
        Ok(Subscribed {
            description: valid.description,
            queued: true,
        })
    })
}

pub(super) fn upsert_search(
    conn: &Connection,
    valid: &ValidRequest,
    now: &str,
) -> AppResult<String> {
    let filter = &valid.filter;
    let key = filter.key();
    conn.prepare_cached(
        "INSERT INTO saved_searches (id, filter_key, status, brand_id, body_type,
            max_price_kopecks, description, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (filter_key) DO UPDATE SET description = excluded.description",
    )?
    .execute(params![
        crate::domain::new_id(),
        key,
        filter.status,
        filter.brand_id,
        filter.body_type,
        filter.max_price.map(|p| Money::from_rubles(p).kopecks()),
        valid.description,
        now
    ])?;
    Ok(conn
        .prepare_cached("SELECT id FROM saved_searches WHERE filter_key = ?1")?
        .query_row([key], |r| r.get(0))?)
}

/// The answer of a followed confirmation link.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Confirmed {
    pub description: String,
    /// The address, masked: "a***@b.ru".
    pub email: String,
    /// The catalogue page the search was asked on (a path of this site).
    pub page_url: String,
}

/// The answer of a followed unsubscribe link.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Unsubscribed {
    /// The search (or searches, separated by "; ") no longer followed.
    pub description: String,
    /// The address, masked: "a***@b.ru".
    pub email: String,
}

/// Follows a confirmation link: the subscription starts, and what matches
/// now is what the subscriber has seen. Following it again answers the same.
/// None: unknown, expired, or older than an unsubscription.
pub fn confirm(
    conn: &Connection,
    token: &str,
    ip: &str,
    now: DateTime<Utc>,
) -> AppResult<Option<Confirmed>> {
    crate::domain::atomically(conn, || {
        let Some((purpose, Some(id), _, issued)) = find_token(conn, token)? else {
            return Ok(None);
        };
        if purpose != "confirm" {
            return Ok(None);
        }
        let Some(sub) = get(conn, &id)? else {
            return Ok(None);
        };
        if sub.unsubscribed_at.is_some() {
            return Ok(None);
        }
        if sub.confirmed_at.is_none() {
            // Only a link mailed for the consent given last, within its days.
            let consent_at: String = conn
                .prepare_cached("SELECT consent_at FROM saved_search_subscriptions WHERE id = ?1")?
                .query_row([&id], |r| r.get(0))?;
            if issued < consent_at
                || issued < stamp(now - chrono::Duration::days(CONFIRM_VALID_DAYS))
            {
                return Ok(None);
            }
            let at = stamp(now);
            let ip: String = ip.chars().take(64).collect();
            conn.prepare_cached(
                "UPDATE saved_search_subscriptions SET confirmed_at = ?2, confirm_ip = ?3,
                    updated_at = ?2 WHERE id = ?1",
            )?
            .execute(params![id, at, ip])?;
            let seen = matching(conn, &sub.filter)?;
            remember(conn, &id, seen.iter().map(|m| (m.car_id.as_str(), m.price)))?;
        }
        Ok(Some(Confirmed {
            description: sub.description,
            email: mask_email(&sub.email),
            page_url: sub.page_url,
        }))
    })
}

/// Follows an unsubscribe link: the search (or every search of the
/// address) is followed no more. Following it again answers the same.
pub fn unsubscribe(
    conn: &Connection,
    token: &str,
    now: DateTime<Utc>,
) -> AppResult<Option<Unsubscribed>> {
    crate::domain::atomically(conn, || {
        let Some((purpose, subscription, email, _)) = find_token(conn, token)? else {
            return Ok(None);
        };
        let ids: Vec<String> = match (purpose.as_str(), subscription) {
            ("unsubscribe", Some(id)) => vec![id],
            ("unsubscribe_all", None) => conn
                .prepare_cached(
                    "SELECT id FROM saved_search_subscriptions WHERE email_key = ?1
                     ORDER BY created_at",
                )?
                .query_map([canonical(&email)], |r| r.get(0))?
                .collect::<Result<_, _>>()?,
            _ => return Ok(None),
        };
        let at = stamp(now);
        let mut descriptions = Vec::new();
        for id in &ids {
            let Some(sub) = get(conn, id)? else { continue };
            // The searches the address followed; one it never confirmed
            // is named only when its own link is followed.
            if ids.len() == 1 || sub.confirmed_at.is_some() {
                descriptions.push(sub.description.clone());
            }
            if sub.unsubscribed_at.is_none() {
                conn.prepare_cached(
                    "UPDATE saved_search_subscriptions SET unsubscribed_at = ?2, updated_at = ?2
                     WHERE id = ?1",
                )?
                .execute(params![id, at])?;
                conn.prepare_cached("DELETE FROM saved_search_seen WHERE subscription_id = ?1")?
                    .execute([id])?;
            }
        }
        descriptions.dedup();
        Ok(Some(Unsubscribed {
            description: if descriptions.is_empty() {
                "Все подписки".into()
            } else {
                descriptions.join("; ")
            },
            email: mask_email(&email),
        }))
    })
}
