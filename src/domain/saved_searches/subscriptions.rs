//! Subscriptions in storage: subscribing (with the confirmation mail's
//! token), reading one, confirming and unsubscribing by a link's token.

use super::*;

pub(super) fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub(super) fn random_token() -> String {
    URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>())
}

pub(super) fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Issues a token: stores its hash, gives the token itself (for the mail).
pub(super) fn issue_token(
    conn: &Connection,
    purpose: &str,
    subscription_id: Option<&str>,
    email: &str,
    now: &str,
) -> AppResult<String> {
    let token = random_token();
    conn.prepare_cached(
        "INSERT INTO saved_search_tokens (token_hash, purpose, subscription_id, email, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        hash_token(&token),
        purpose,
        subscription_id,
        email,
        now
    ])?;
    Ok(token)
}

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
                 FROM saved_search_subscriptions WHERE email = ?1 AND search_id = ?2",
            )?
            .query_row(params![valid.email, search_id], |r| {
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
                        consent_at = ?4, consent_ip = ?5, advertising_consent = 1,
                        advertising_consent_at = ?4, confirmed_at = NULL, confirm_ip = NULL,
                        unsubscribed_at = NULL, updated_at = ?4
                     WHERE id = ?1",
                )?
                .execute(params![id, valid.page_url, consent_version, at, ip])?;
                conn.prepare_cached("DELETE FROM saved_search_seen WHERE subscription_id = ?1")?
                    .execute([&id])?;
                id
            }
            None => {
                let id = crate::domain::new_ordered_id();
                conn.prepare_cached(
                    "INSERT INTO saved_search_subscriptions (id, search_id, email, page_url,
                        consent_version, consent_at, consent_ip, advertising_consent,
                        advertising_consent_at, created_at, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?6, ?6, ?6)",
                )?
                .execute(params![
                    id,
                    search_id,
                    valid.email,
                    valid.page_url,
                    consent_version,
                    at,
                    ip
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

/// A subscription with its search, as the mails and links need it.
#[derive(Debug, Clone)]
pub struct Subscription {
    pub id: String,
    pub search_id: String,
    pub email: String,
    pub page_url: String,
    pub description: String,
    pub filter: SearchFilter,
    pub created_at: String,
    pub confirmed_at: Option<String>,
    pub unsubscribed_at: Option<String>,
    pub last_alert_at: Option<String>,
}

impl Subscription {
    /// Confirmed and not unsubscribed: alerts may go.
    pub fn is_active(&self) -> bool {
        self.confirmed_at.is_some() && self.unsubscribed_at.is_none()
    }
}

pub(super) const SELECT_SUBSCRIPTION: &str =
    "SELECT s.id, s.search_id, s.email, s.page_url, q.description,
    q.status, q.brand_id, q.body_type, q.max_price_kopecks, s.created_at, s.confirmed_at,
    s.unsubscribed_at, s.last_alert_at
    FROM saved_search_subscriptions s JOIN saved_searches q ON q.id = s.search_id";

pub(super) fn subscription_row(r: &rusqlite::Row) -> rusqlite::Result<Subscription> {
    Ok(Subscription {
        id: r.get(0)?,
        search_id: r.get(1)?,
        email: r.get(2)?,
        page_url: r.get(3)?,
        description: r.get(4)?,
        filter: SearchFilter {
            status: r.get(5)?,
            brand_id: r.get(6)?,
            body_type: r.get(7)?,
            max_price: r.get::<_, Option<i64>>(8)?.map(|k| Money(k).rubles()),
        },
        created_at: r.get(9)?,
        confirmed_at: r.get(10)?,
        unsubscribed_at: r.get(11)?,
        last_alert_at: r.get(12)?,
    })
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Subscription>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT_SUBSCRIPTION} WHERE s.id = ?1"))?
        .query_row([id], subscription_row)
        .optional()?)
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

/// A token's purpose, subscription, address and time of issue.
pub(super) type TokenRow = (String, Option<String>, String, String);

/// A token's row, when the token is known.
pub(super) fn find_token(conn: &Connection, token: &str) -> AppResult<Option<TokenRow>> {
    if token.is_empty() || token.len() > 200 {
        return Ok(None);
    }
    Ok(conn
        .prepare_cached(
            "SELECT purpose, subscription_id, email, created_at FROM saved_search_tokens
             WHERE token_hash = ?1",
        )?
        .query_row([hash_token(token)], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()?)
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
                    "SELECT id FROM saved_search_subscriptions WHERE email = ?1
                     ORDER BY created_at",
                )?
                .query_map([&email], |r| r.get(0))?
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
