//! Saved searches with alerts (docs/saved-searches.md): a visitor follows a
//! catalogue filter by e-mail. The address is confirmed by a link before
//! anything else is sent (double opt-in); then new matching cars and price
//! drops are mailed, at most one mail a day per address. Mails go through
//! the outbox (`crate::notify::saved_search` writes them).

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::cars::{self, BodyType, CarFilter, CarStatus};
use super::money::Money;
use super::outbox::{self, Channel, Kind};
use super::{body_types, brands, check_len, leads};
use crate::error::{AppError, AppResult};

pub const EMAIL_INVALID: &str = "Укажите корректный e-mail";
pub const ADVERTISING_CONSENT_REQUIRED: &str =
    "Необходимо согласие на получение рекламных рассылок";
pub const LINK_INVALID: &str = "Ссылка недействительна или устарела";
pub const PAGE_URL_INVALID: &str = "Подписаться можно только на страницу каталога этого сайта";
const MAX_PRICE_RUBLES: i64 = 1_000_000_000;
/// A confirmation link works this long after its mail.
pub const CONFIRM_VALID_DAYS: i64 = 7;
/// At most one alert mail per address in this many hours.
pub const ALERT_EVERY_HOURS: i64 = 24;
/// A confirmation asked for again within this many minutes is not mailed again.
pub const CONFIRM_REPEAT_MINUTES: i64 = 5;

/// The catalogue filter a search follows; a missing field does not filter
/// (docs/catalogue.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchFilter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<CarStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_type: Option<BodyType>,
    /// Highest price, whole rubles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_price: Option<i64>,
}

impl SearchFilter {
    /// The normalised text that names the filter (one row per distinct one).
    fn key(&self) -> String {
        format!(
            "status={}&brandId={}&bodyType={}&maxPrice={}",
            self.status.map_or("", CarStatus::as_str),
            self.brand_id.as_deref().unwrap_or(""),
            self.body_type.as_ref().map_or("", BodyType::as_str),
            self.max_price.map(|p| p.to_string()).unwrap_or_default()
        )
    }

    /// The same filter as the catalogue's API applies it: published cars only.
    pub fn car_filter(&self) -> CarFilter {
        CarFilter {
            statuses: self.status.into_iter().collect(),
            brand_id: self.brand_id.clone(),
            body_type: self.body_type.clone(),
            max_price: self.max_price.map(Money::from_rubles),
            include_drafts: false,
            ..CarFilter::default()
        }
    }
}

/// What the public form sends as its filter.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FilterInput {
    /// new, used or lease.
    #[serde(default)]
    pub status: Option<String>,
    /// A brand's id (`/api/brands`).
    #[serde(default)]
    pub brand_id: Option<String>,
    /// sedan, hatchback, crossover, wagon, coupe or pickup.
    #[serde(default)]
    pub body_type: Option<String>,
    /// Highest price, whole rubles, 0..=1 000 000 000.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub max_price: Option<serde_json::Value>,
}

/// A visitor's request to follow a filter.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubscribeInput {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub filter: Option<FilterInput>,
    /// The catalogue page asked on: this site's absolute URL or a path
    /// (`/new-cars?brand=haval`), at most 2000 characters.
    #[serde(default)]
    pub page_url: Option<String>,
    /// 152-FZ consent to personal data processing (required).
    #[serde(default)]
    pub consent: bool,
    /// 38-FZ art. 18 consent to advertising mail (required here: alerts are
    /// advertising).
    #[serde(default)]
    pub advertising_consent: bool,
    /// Honeypot: hidden from people; a filled one marks a bot.
    #[serde(default)]
    pub website: Option<String>,
}

/// A request that passed every check.
#[derive(Debug, Clone)]
pub struct ValidRequest {
    pub email: String,
    pub filter: SearchFilter,
    /// Path and query within the site.
    pub page_url: String,
    pub description: String,
}

impl SubscribeInput {
    pub fn is_bot(&self) -> bool {
        self.website
            .as_deref()
            .is_some_and(|w| !w.trim().is_empty())
    }

    /// Checks every field against the rules and the catalogue; `base_url`
    /// is the site's own (config).
    pub fn validate(self, conn: &Connection, base_url: &str) -> AppResult<ValidRequest> {
        let email = self
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .ok_or_else(|| AppError::invalid("email", EMAIL_INVALID))?;
        check_len("email", "Email", email, 255)?;
        if !leads::is_email(email) || email.chars().any(char::is_control) {
            return Err(AppError::invalid("email", EMAIL_INVALID));
        }
        let filter = check_filter(conn, self.filter.unwrap_or_default())?;
        let page_url = self
            .page_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .ok_or_else(|| AppError::invalid("pageUrl", "Не указана страница каталога"))?;
        check_len("pageUrl", "Страница каталога", page_url, 2000)?;
        let page_url = site_path(page_url, base_url)
            .ok_or_else(|| AppError::invalid("pageUrl", PAGE_URL_INVALID))?;
        if !self.consent {
            return Err(AppError::invalid("consent", leads::CONSENT_REQUIRED));
        }
        if !self.advertising_consent {
            return Err(AppError::invalid(
                "advertisingConsent",
                ADVERTISING_CONSENT_REQUIRED,
            ));
        }
        let description = describe(conn, &filter)?;
        Ok(ValidRequest {
            email: email.to_lowercase(),
            filter,
            page_url,
            description,
        })
    }
}

fn non_empty(value: Option<String>) -> Option<String> {
    super::non_empty(value).filter(|v| v != "all")
}

fn check_filter(conn: &Connection, input: FilterInput) -> AppResult<SearchFilter> {
    let status = match non_empty(input.status) {
        None => None,
        Some(code) => Some(CarStatus::parse(&code).ok_or_else(|| {
            AppError::invalid("filter.status", "Неизвестное состояние автомобиля")
        })?),
    };
    let brand_id = match non_empty(input.brand_id) {
        None => None,
        Some(id) => {
            let known = id.chars().count() <= 64 && brands::get(conn, &id)?.is_some();
            if !known {
                return Err(AppError::invalid(
                    "filter.brandId",
                    "Такой марки нет в каталоге",
                ));
            }
            Some(id)
        }
    };
    let body_type = match non_empty(input.body_type) {
        None => None,
        Some(code) => {
            let body = BodyType::parse(&code);
            let known = match &body {
                Some(body) => body_types::exists(conn, body)?,
                None => false,
            };
            if !known {
                return Err(AppError::invalid(
                    "filter.bodyType",
                    "Неизвестный тип кузова",
                ));
            }
            body
        }
    };
    let max_price = match input.max_price {
        None | Some(serde_json::Value::Null) => None,
        Some(value) => Some(
            value
                .as_i64()
                .filter(|p| (0..=MAX_PRICE_RUBLES).contains(p))
                .ok_or_else(|| {
                    AppError::invalid(
                        "filter.maxPrice",
                        "Цена — целое число рублей от 0 до 1 000 000 000",
                    )
                })?,
        ),
    };
    Ok(SearchFilter {
        status,
        brand_id,
        body_type,
        max_price,
    })
}

/// The catalogue pages a search may be asked on.
fn is_catalogue_path(path: &str) -> bool {
    let one_segment = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
    };
    matches!(path, "/new-cars" | "/used-cars" | "/lease-cars")
        || one_segment("/body-type/")
        || one_segment("/brand/")
}

/// The path and query of `url` when it is a catalogue page of this site:
/// an absolute URL on the host of `base_url` (http or https: a proxy may
/// change the scheme), or a path. None otherwise.
pub fn site_path(url: &str, base_url: &str) -> Option<String> {
    if url
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    {
        return None;
    }
    let path = if let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    {
        let (authority, path) = match rest.find(['/', '?', '#']) {
            Some(at) => rest.split_at(at),
            None => (rest, "/"),
        };
        let base_authority = base_url
            .split("://")
            .nth(1)
            .unwrap_or_default()
            .split('/')
            .next()
            .unwrap_or_default();
        let host = |authority: &str| authority.to_ascii_lowercase();
        if authority.contains('@') || host(authority) != host(base_authority) {
            return None;
        }
        path
    } else {
        url
    };
    if !path.starts_with('/') || path.starts_with("//") {
        return None;
    }
    let path = path.split('#').next().unwrap_or(path);
    let bare = path.split('?').next().unwrap_or(path);
    is_catalogue_path(bare).then(|| path.to_string())
}

/// The Russian description of a filter: "Новые · Haval · Кроссовер · до
/// 3 000 000 ₽", "Все автомобили" for none.
pub fn describe(conn: &Connection, filter: &SearchFilter) -> AppResult<String> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(status) = filter.status {
        parts.push(
            match status {
                CarStatus::New => "Новые",
                CarStatus::Used => "С пробегом",
                CarStatus::Lease => "Аренда с выкупом",
            }
            .into(),
        );
    }
    if let Some(brand) = &filter.brand_id {
        parts.push(
            brands::get(conn, brand)?
                .map(|b| b.name)
                .unwrap_or_else(|| "Марка удалена".into()),
        );
    }
    if let Some(body) = &filter.body_type {
        parts.push(
            body_types::get(conn, body)?
                .map(|b| b.label_single)
                .unwrap_or_else(|| body.as_str().into()),
        );
    }
    if let Some(price) = filter.max_price {
        parts.push(format!("до {}", rubles(Money::from_rubles(price))));
    }
    if parts.is_empty() {
        return Ok("Все автомобили".into());
    }
    Ok(parts.join(" · "))
}

/// "2 500 000 ₽" (kopecks shown only when there are any).
pub fn rubles(money: Money) -> String {
    crate::notify::message::rubles(money)
}

/// "a***@b.ru": the address as a visitor's page shows it back.
pub fn mask_email(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".into(),
    }
}

fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn random_token() -> String {
    URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>())
}

fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Issues a token: stores its hash, gives the token itself (for the mail).
fn issue_token(
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
type SubscriptionState = (String, Option<String>, Option<String>, Option<String>);

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
    super::atomically(conn, || {
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
                let id = super::new_ordered_id();
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
        if !super::mail_cap::admit(conn, &valid.email, Kind::SearchConfirm, daily_limit, now)? {
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
            forget_token: Some(super::withdrawal::issue(conn, &valid.email, &at)?),
        })
        .map_err(anyhow::Error::from)?;
        // The outbox runs on the real time of its worker.
        outbox::enqueue_kind(
            conn,
            Kind::SearchConfirm,
            None,
            &payload,
            &[Channel::Email],
            &super::now(),
        )?;
        Ok(Subscribed {
            description: valid.description,
            queued: true,
        })
    })
}

fn upsert_search(conn: &Connection, valid: &ValidRequest, now: &str) -> AppResult<String> {
    let filter = &valid.filter;
    let key = filter.key();
    conn.prepare_cached(
        "INSERT INTO saved_searches (id, filter_key, status, brand_id, body_type,
            max_price_kopecks, description, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (filter_key) DO UPDATE SET description = excluded.description",
    )?
    .execute(params![
        super::new_id(),
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

const SELECT_SUBSCRIPTION: &str = "SELECT s.id, s.search_id, s.email, s.page_url, q.description,
    q.status, q.brand_id, q.body_type, q.max_price_kopecks, s.created_at, s.confirmed_at,
    s.unsubscribed_at, s.last_alert_at
    FROM saved_search_subscriptions s JOIN saved_searches q ON q.id = s.search_id";

fn subscription_row(r: &rusqlite::Row) -> rusqlite::Result<Subscription> {
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
type TokenRow = (String, Option<String>, String, String);

/// A token's row, when the token is known.
fn find_token(conn: &Connection, token: &str) -> AppResult<Option<TokenRow>> {
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
    super::atomically(conn, || {
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
    super::atomically(conn, || {
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
fn remember<'a>(
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

fn seen(conn: &Connection, subscription_id: &str) -> AppResult<HashMap<String, Money>> {
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
fn changes(now: &[Match], seen: &HashMap<String, Money>, base_url: &str) -> Vec<AlertItem> {
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
                               WHERE o.email = s.email AND o.last_alert_at > ?1)
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
        super::atomically(conn, || {
            let mut payload = AlertPayload {
                email: email.clone(),
                unsubscribe_all_token: Some(issue_token(
                    conn,
                    "unsubscribe_all",
                    None,
                    &email,
                    &at,
                )?),
                forget_token: Some(super::withdrawal::issue(conn, &email, &at)?),
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
                &super::now(),
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
    let mut value: serde_json::Value = super::json_column(&payload);
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
    super::atomically(conn, || {
        let at = stamp(now);
        let search_id = upsert_search(conn, &valid, &at)?;
        let id = super::new_ordered_id();
        conn.prepare_cached(
            "INSERT INTO saved_search_subscriptions (id, search_id, email, page_url,
                consent_version, consent_at, consent_ip, advertising_consent,
                advertising_consent_at, confirmed_at, confirm_ip, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?6, ?6, ?7, ?6, ?6)",
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
        let seen = matching(conn, &valid.filter)?;
        remember(conn, &id, seen.iter().map(|m| (m.car_id.as_str(), m.price)))?;
        Ok(id)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_catalogue_pages_of_this_site() {
        let base = "https://salon.example";
        for (url, path) in [
            (
                "https://salon.example/new-cars?brand=haval",
                Some("/new-cars?brand=haval"),
            ),
            ("http://SALON.example/used-cars", Some("/used-cars")),
            (
                "/body-type/crossover?condition=new",
                Some("/body-type/crossover?condition=new"),
            ),
            ("/brand/haval#top", Some("/brand/haval")),
            ("/lease-cars", Some("/lease-cars")),
            ("https://evil.example/new-cars", None),
            ("https://salon.example@evil.example/new-cars", None),
            ("https://salon.example.evil.example/new-cars", None),
            ("//evil.example/new-cars", None),
            ("/admin", None),
            ("/car/haval-jolion", None),
            ("/body-type/", None),
            ("/body-type/a/b", None),
            ("javascript:alert(1)", None),
            ("/new-cars?x=1 2", None),
            ("https://salon.example", None),
        ] {
            assert_eq!(site_path(url, base).as_deref(), path, "{url}");
        }
    }

    #[test]
    fn emails_are_masked() {
        assert_eq!(mask_email("anna@b.ru"), "a***@b.ru");
        assert_eq!(mask_email("я@пример.рф"), "я***@пример.рф");
    }

    #[test]
    fn new_cars_and_drops_are_changes_rises_are_not() {
        let m = |id: &str, price: i64| Match {
            car_id: id.into(),
            title: id.into(),
            slug: id.into(),
            price: Money::from_rubles(price),
        };
        let now = vec![m("a", 100), m("b", 90), m("c", 120), m("d", 50)];
        let seen: HashMap<String, Money> = [
            ("b".to_string(), Money::from_rubles(100)),
            ("c".to_string(), Money::from_rubles(110)),
            ("d".to_string(), Money::from_rubles(50)),
        ]
        .into_iter()
        .collect();
        let items = changes(&now, &seen, "https://s");
        let told: Vec<_> = items
            .iter()
            .map(|i| (i.car_id.as_str(), i.old_price_kopecks))
            .collect();
        assert_eq!(told, [("a", None), ("b", Some(10_000))]);
        assert_eq!(items[0].url, "https://s/car/a");
    }
}
