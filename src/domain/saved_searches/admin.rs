//! The admin's view of saved searches (the list with its subscribers) and a
//! confirmed subscription written directly (tests and the demo).

use super::alerts::{matching, remember};
use super::request::ValidRequest;
use super::search::SearchFilter;
use super::stored::{SELECT_SUBSCRIPTION, Subscription, stamp, subscription_row};
use super::subscriptions::upsert_search;
use crate::error::AppResult;
use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A followed search as staff see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminSavedSearch {
    pub id: String,
    pub filter: SearchFilter,
    pub description: String,
    /// The catalogue page of its latest request (a path of this site).
    pub page_url: String,
    /// Confirmed subscribers.
    pub followers: i64,
    /// Subscribers who have not confirmed yet.
    pub pending: i64,
    /// Confirmed and pending subscribers, newest first. Personal data:
    /// staff only.
    pub subscribers: Vec<Subscriber>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subscriber {
    pub email: String,
    pub created_at: String,
    pub confirmed_at: Option<String>,
    pub last_alert_at: Option<String>,
}

/// Every search with at least one confirmed or pending subscriber, most
/// followers first.
pub fn admin_list(conn: &Connection) -> AppResult<Vec<AdminSavedSearch>> {
    let subs: Vec<Subscription> = conn
        .prepare_cached(&format!(
            "{SELECT_SUBSCRIPTION} WHERE s.unsubscribed_at IS NULL
             ORDER BY s.search_id, s.created_at DESC"
        ))?
        .query_map([], subscription_row)?
        .collect::<Result<_, _>>()?;
    let mut out: Vec<AdminSavedSearch> = Vec::new();
    for sub in subs {
        if out.last().is_none_or(|s| s.id != sub.search_id) {
            out.push(AdminSavedSearch {
                id: sub.search_id.clone(),
                filter: sub.filter.clone(),
                description: sub.description.clone(),
                page_url: sub.page_url.clone(),
                followers: 0,
                pending: 0,
                subscribers: Vec::new(),
            });
        }
        let Some(search) = out.last_mut() else {
            continue;
        };
        if sub.confirmed_at.is_some() {
            search.followers += 1;
        } else {
            search.pending += 1;
        }
        search.subscribers.push(Subscriber {
            email: sub.email,
            created_at: sub.created_at,
            confirmed_at: sub.confirmed_at,
            last_alert_at: sub.last_alert_at,
        });
    }
    out.sort_by(|a, b| {
        (b.followers, b.pending)
            .cmp(&(a.followers, a.pending))
            .then_with(|| a.description.cmp(&b.description))
    });
    Ok(out)
}

/// A confirmed follower for the demo database (what a visitor who followed
/// the link would leave).
pub fn insert_confirmed(
    conn: &Connection,
    valid: ValidRequest,
    consent_version: i64,
    ip: &str,
    now: DateTime<Utc>,
) -> AppResult<String> {
    crate::domain::atomically(conn, || {
        let at = stamp(now);
        let search_id = upsert_search(conn, &valid, &at)?;
        let id = crate::domain::new_ordered_id();
        conn.prepare_cached(
            "INSERT INTO saved_search_subscriptions (id, search_id, email, page_url,
                consent_version, consent_at, consent_ip, advertising_consent,
                advertising_consent_at, confirmed_at, confirm_ip, created_at, updated_at,
                email_key)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?6, ?6, ?7, ?6, ?6, ?8)",
        )?
        .execute(params![
            id,
            search_id,
            valid.email,
            valid.page_url,
            consent_version,
            at,
            ip,
            crate::domain::email::canonical(&valid.email)
        ])?;
        let seen = matching(conn, &valid.filter)?;
        remember(conn, &id, seen.iter().map(|m| (m.car_id.as_str(), m.price)))?;
        Ok(id)
    })
}
