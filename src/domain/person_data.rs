//! A person's request under 152-FZ (`docs/personal-data.md`, "A person's
//! request"): everything the site holds about a phone number or an e-mail
//! address, found across the tables, and erased: personal fields replaced,
//! what the figures need kept (a lead's type, status, dates, assignee and
//! the car it was about), the rows that are only about the person (their
//! subscriptions, tokens, visitor mails, comments on their leads) deleted.

use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::audit::{self, AuditEntry, AuditFilter, AuditObject};
use super::lead_comments::{self, LeadComment};
use super::leads::{self, Lead};
use super::outbox::{self, Delivery};
use super::phone;
use crate::error::{AppError, AppResult};

/// What erased personal text reads as.
pub const ERASED: &str = "[удалено]";
pub const NOTHING_ASKED: &str = "Укажите телефон или e-mail человека";
pub const BAD_EMAIL: &str = "Неверный формат email";

/// Whose data: a phone number, an e-mail address, or both.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubjectInput {
    /// Any spelling the lead forms take (+7 or 8, 11 digits).
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
}

/// A checked subject: the phone normalised (`+7XXXXXXXXXX`), the address
/// as given (trimmed): it is compared by its key, [`Subject::email_key`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    pub phone: Option<String>,
    pub email: Option<String>,
}

impl Subject {
    /// The address's comparison key (`email::canonical`): every spelling of
    /// one address is one person.
    pub fn email_key(&self) -> Option<String> {
        self.email.as_deref().map(super::email::canonical)
    }

    /// "+79211234567, a@b.ru": who, while a request is open.
    pub fn describe(&self) -> String {
        [self.phone.clone(), self.email.clone()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// "+7 *** ***-45-67, a***@b.ru": who, once a request is answered.
    pub fn masked(&self) -> String {
        [
            self.phone.as_deref().map(mask_phone),
            self.email.as_deref().map(super::saved_searches::mask_email),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
    }
}

/// "+7 *** ***-45-67": a normalised phone with its last four digits.
pub fn mask_phone(phone: &str) -> String {
    let digits: Vec<char> = phone.chars().filter(char::is_ascii_digit).collect();
    if digits.len() < 4 {
        return "***".into();
    }
    let tail = &digits[digits.len() - 4..];
    format!("+7 *** ***-{}{}-{}{}", tail[0], tail[1], tail[2], tail[3])
}

impl SubjectInput {
    pub fn check(&self) -> AppResult<Subject> {
        fn given(v: &Option<String>) -> Option<&str> {
            v.as_deref().map(str::trim).filter(|v| !v.is_empty())
        }
        let phone = match given(&self.phone) {
            Some(p) => Some(
                phone::normalize(p)
                    .ok_or_else(|| AppError::invalid("phone", phone::PHONE_RULE_MESSAGE))?,
            ),
            None => None,
        };
        let email = match given(&self.email) {
            Some(e) if leads::is_email(e) => Some(e.to_string()),
            Some(_) => return Err(AppError::invalid("email", BAD_EMAIL)),
            None => None,
        };
        if phone.is_none() && email.is_none() {
            return Err(AppError::invalid("phone", NOTHING_ASKED));
        }
        Ok(Subject { phone, email })
    }
}

/// A saved-search subscription of the person.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    pub id: String,
    pub email: String,
    pub page_url: String,
    pub consent_version: i64,
    pub consent_at: String,
    pub consent_ip: String,
    pub advertising_consent: bool,
    pub confirmed_at: Option<String>,
    pub unsubscribed_at: Option<String>,
    pub created_at: String,
}

/// Everything held about a person.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonData {
    /// Their leads, newest first, each with its consent (version, time,
    /// address).
    pub leads: Vec<Lead>,
    /// The staff's comments on those leads.
    pub comments: Vec<LeadComment>,
    /// Their saved-search subscriptions, with their consents.
    pub subscriptions: Vec<Subscription>,
    /// The notifications about their leads, and the mails to them.
    pub deliveries: Vec<Delivery>,
    /// Audit entries about their leads and subscriptions, or naming their
    /// phone or address.
    pub audit: Vec<AuditEntry>,
    /// The consent versions they agreed to (texts in `/api/legal` terms:
    /// `consent_documents`).
    pub consent_versions: Vec<i64>,
}

impl PersonData {
    pub fn is_empty(&self) -> bool {
        self.leads.is_empty() && self.subscriptions.is_empty() && self.audit.is_empty()
    }
}

/// What an erasure did, by how many rows.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Erased {
    /// The leads erased, by id (for the destruction act; not sent).
    #[serde(skip)]
    pub lead_ids: Vec<String>,
    /// The subscriptions deleted, by id (for the act; not sent).
    #[serde(skip)]
    pub subscription_ids: Vec<String>,
    /// Leads whose personal fields were replaced (kept for the figures).
    pub leads: i64,
    pub comments: i64,
    pub subscriptions: i64,
    /// Notifications scrubbed or deleted.
    pub deliveries: i64,
    /// Audit entries whose text named the person.
    pub audit_entries: i64,
    /// The categories of data the erased leads held (for the act; not
    /// sent), in [`LEAD_CATEGORIES`]' order.
    #[serde(skip)]
    pub lead_categories: Vec<&'static str>,
}

/// The categories of a lead's personal data an erasure replaces, in the
/// order a destruction act lists them.
pub const LEAD_CATEGORIES: [&str; 9] = [
    "фамилия, имя, отчество",
    "номер телефона",
    "адрес электронной почты",
    "текст обращения",
    "сведения о доходе",
    "желаемая сумма кредита и первоначальный взнос",
    "сведения об автомобиле клиента (трейд-ин)",
    "адрес страницы обращения",
    "IP-адрес при даче согласия",
];

/// The categories of data an erasure found in the leads, besides those
/// above: the analytics id a visitor's browser sent.
pub const ANALYTICS_CATEGORY: &str = "идентификатор посетителя в системе веб-аналитики";

/// The categories `lead` actually holds (a lead that gave no e-mail does
/// not list one), in the act's order.
pub fn lead_categories(lead: &Lead) -> Vec<&'static str> {
    let given = |value: &Option<String>| value.as_deref().is_some_and(|v| !v.trim().is_empty());
    let held = [
        !lead.name.trim().is_empty() && lead.name != ERASED,
        !lead.phone.is_empty(),
        given(&lead.email),
        given(&lead.message),
        lead.monthly_income.is_some(),
        lead.desired_amount.is_some() || lead.down_payment.is_some(),
        given(&lead.car_brand)
            || given(&lead.car_model)
            || lead.car_year.is_some()
            || lead.car_mileage.is_some()
            || given(&lead.car_condition),
        given(&lead.source_url),
        !lead.consent_ip.trim().is_empty(),
    ];
    let mut out: Vec<&'static str> = LEAD_CATEGORIES
        .into_iter()
        .zip(held)
        .filter_map(|(category, held)| held.then_some(category))
        .collect();
    if given(&lead.analytics_client_id) {
        out.push(ANALYTICS_CATEGORY);
    }
    out
}

impl Erased {
    /// Adds what `part` erased.
    pub fn add(&mut self, part: &Erased) {
        self.leads += part.leads;
        self.comments += part.comments;
        self.subscriptions += part.subscriptions;
        self.deliveries += part.deliveries;
        self.audit_entries += part.audit_entries;
        self.lead_ids.extend(part.lead_ids.iter().cloned());
        self.subscription_ids
            .extend(part.subscription_ids.iter().cloned());
        self.held(&part.lead_categories);
    }

    /// Notes categories found, keeping the act's order and each once.
    fn held(&mut self, categories: &[&'static str]) {
        for c in categories {
            if !self.lead_categories.contains(c) {
                self.lead_categories.push(c);
            }
        }
        let rank = |c: &&str| {
            LEAD_CATEGORIES
                .iter()
                .position(|k| k == c)
                .unwrap_or(LEAD_CATEGORIES.len())
        };
        self.lead_categories.sort_by_key(rank);
    }
}

fn lead_ids(conn: &Connection, who: &Subject) -> AppResult<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM leads
         WHERE (?1 IS NOT NULL AND phone = ?1) OR (?2 IS NOT NULL AND email_key = ?2)
         ORDER BY created_at DESC, id",
    )?;
    let rows = stmt.query_map(params![who.phone, who.email_key()], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn subscriptions(conn: &Connection, who: &Subject) -> AppResult<Vec<Subscription>> {
    let Some(email) = who.email_key() else {
        return Ok(Vec::new());
    };
    let mut stmt = conn.prepare_cached(
        "SELECT id, email, page_url, consent_version, consent_at, consent_ip,
                advertising_consent, confirmed_at, unsubscribed_at, created_at
         FROM saved_search_subscriptions WHERE email_key = ?1 ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map([email], |r| {
        Ok(Subscription {
            id: r.get(0)?,
            email: r.get(1)?,
            page_url: r.get(2)?,
            consent_version: r.get(3)?,
            consent_at: r.get(4)?,
            consent_ip: r.get(5)?,
            advertising_consent: r.get(6)?,
            confirmed_at: r.get(7)?,
            unsubscribed_at: r.get(8)?,
            created_at: r.get(9)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every spelling of the person's address the site holds: as asked, its
/// key, and as their leads, subscriptions and mails spell it.
fn spellings(
    who: &Subject,
    leads: &[Lead],
    subscriptions: &[Subscription],
    mails: &[String],
) -> Vec<String> {
    let Some(key) = who.email_key() else {
        return Vec::new();
    };
    let mut out: Vec<String> = vec![key.clone()];
    let held = leads
        .iter()
        .filter_map(|l| l.email.clone())
        .chain(subscriptions.iter().map(|s| s.email.clone()))
        .chain(mails.iter().cloned())
        .chain(who.email.clone());
    for spelling in held {
        let spelling = spelling.trim().to_string();
        if super::email::canonical(&spelling) == key && !out.contains(&spelling) {
            out.push(spelling);
        }
    }
    out
}

/// The strings that identify the person in free text: the phone (as
/// stored and its digits), every spelling of the address, their leads'
/// names.
fn marks(who: &Subject, leads: &[Lead], spellings: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(phone) = &who.phone {
        out.push(phone.clone());
        out.push(phone.trim_start_matches('+').to_string());
    }
    out.extend(spellings.iter().cloned());
    for lead in leads {
        if !lead.name.is_empty() && lead.name != ERASED && !out.contains(&lead.name) {
            out.push(lead.name.clone());
        }
    }
    out
}

/// Audit entries about the person's leads, and those whose text holds
/// their phone or address (a subscription appears only so).
fn audit_entries(
    conn: &Connection,
    who: &Subject,
    spellings: &[String],
    lead_ids: &[String],
) -> AppResult<Vec<AuditEntry>> {
    let mut out: Vec<AuditEntry> = Vec::new();
    for id in lead_ids {
        let filter = AuditFilter {
            object_type: Some(AuditObject::Lead),
            object_id: Some(id.clone()),
        };
        out.extend(audit::list(conn, &filter, 1000, 0)?.0);
    }
    let mut direct = Vec::new();
    for text in who.phone.iter().chain(spellings) {
        // SQLite's lower() folds ASCII only: each spelling is looked for
        // as held, ASCII-folded on both sides.
        let mut stmt = conn.prepare_cached(
            "SELECT id FROM audit_log
             WHERE instr(lower(summary), lower(?1)) > 0 OR instr(lower(changes), lower(?1)) > 0",
        )?;
        let ids = stmt.query_map([text], |r| r.get::<_, i64>(0))?;
        direct.extend(ids.collect::<Result<Vec<_>, _>>()?);
    }
    direct.retain(|id| !out.iter().any(|e| e.id == *id));
    for id in direct {
        out.extend(audit::by_id(conn, id)?);
    }
    out.sort_by(|a, b| b.at.cmp(&a.at).then(b.id.cmp(&a.id)));
    out.dedup_by_key(|e| e.id);
    Ok(out)
}

/// Everything held about `who`.
pub fn find(conn: &Connection, who: &Subject) -> AppResult<PersonData> {
    let ids = lead_ids(conn, who)?;
    let mut found = Vec::new();
    let mut comments = Vec::new();
    let mut deliveries = Vec::new();
    for id in &ids {
        if let Some(lead) = leads::get(conn, id)? {
            found.push(lead);
        }
        comments.extend(lead_comments::list(conn, id)?);
        deliveries.extend(outbox::for_lead(conn, id)?);
    }
    let subscriptions = subscriptions(conn, who)?;
    let subscription_ids: Vec<String> = subscriptions.iter().map(|s| s.id.clone()).collect();
    for id in &subscription_ids {
        deliveries.extend(outbox::for_subscription(conn, id)?);
    }
    let mut mailed = Vec::new();
    if let Some(email) = &who.email {
        for (to, delivery) in outbox::addressed(conn, email)? {
            mailed.push(to);
            if !deliveries.iter().any(|d| d.id == delivery.id) {
                deliveries.push(delivery);
            }
        }
    }
    let spellings = spellings(who, &found, &subscriptions, &mailed);
    let audit = audit_entries(conn, who, &spellings, &ids)?;
    let mut consent_versions: Vec<i64> = found
        .iter()
        .map(|l| l.consent_version)
        .chain(subscriptions.iter().map(|s| s.consent_version))
        .collect();
    consent_versions.sort_unstable();
    consent_versions.dedup();
    Ok(PersonData {
        leads: found,
        comments,
        subscriptions,
        deliveries,
        audit,
        consent_versions,
    })
}

/// Erases everything held about `who` (the caller empties the write-ahead
/// log afterwards: `Db::forget_old_versions`).
pub fn erase(conn: &Connection, who: &Subject) -> AppResult<Erased> {
    super::atomically(conn, || {
        let erased = erase_unrecorded(conn, who)?;
        super::erasure_ledger::record_person(conn, who.phone.as_deref(), who.email.as_deref())?;
        Ok(erased)
    })
}

/// [`erase`] without its entry in the erasure ledger (a restore applying
/// the ledger again).
pub(crate) fn erase_unrecorded(conn: &Connection, who: &Subject) -> AppResult<Erased> {
    let held = find(conn, who)?;
    let spellings = spellings(who, &held.leads, &held.subscriptions, &[]);
    let marks = marks(who, &held.leads, &spellings);
    super::atomically(conn, || {
        let mut erased = erase_held(conn, &held, &marks)?;
        if let Some(email) = &who.email {
            let key = super::email::canonical(email);
            conn.execute(
                "DELETE FROM saved_search_tokens WHERE email_key = ?1",
                [&key],
            )?;
            conn.execute("DELETE FROM forget_tokens WHERE email_key = ?1", [&key])?;
            // The caps' ledger keeps its rows for the figures, unlinked.
            super::mail_cap::forget_address(conn, email)?;
            // Any mail still carrying the address (a payload of its own).
            for (_, mail) in outbox::addressed(conn, email)? {
                erased.deliveries +=
                    conn.execute("DELETE FROM outbox WHERE id = ?1", [mail.id])? as i64;
            }
        }
        // Requests still open about the person keep only a masked name.
        conn.execute(
            "UPDATE data_requests SET phone = NULL, email = NULL, email_key = NULL, subject = ?3
             WHERE answered_at IS NULL
               AND ((?1 IS NOT NULL AND phone = ?1) OR (?2 IS NOT NULL AND email_key = ?2))",
            params![who.phone, who.email_key(), who.masked()],
        )?;
        Ok(erased)
    })
}

/// Erases one lead alone (a cancelled lead past its period, while the
/// person's other leads are kept): its personal fields, comments and
/// notifications, and its own audit entries' mentions of the person.
pub fn erase_lead(conn: &Connection, id: &str) -> AppResult<Erased> {
    super::atomically(conn, || {
        let erased = erase_lead_unrecorded(conn, id)?;
        if erased.leads > 0 {
            super::erasure_ledger::record_lead(conn, id)?;
        }
        Ok(erased)
    })
}

/// [`erase_lead`] without its entry in the erasure ledger.
pub(crate) fn erase_lead_unrecorded(conn: &Connection, id: &str) -> AppResult<Erased> {
    let Some(lead) = leads::get(conn, id)? else {
        return Ok(Erased::default());
    };
    let filter = AuditFilter {
        object_type: Some(AuditObject::Lead),
        object_id: Some(id.to_string()),
    };
    let who = Subject {
        phone: Some(lead.phone.clone()).filter(|p| !p.is_empty()),
        email: lead.email.clone(),
    };
    let held = PersonData {
        comments: Vec::new(),
        subscriptions: Vec::new(),
        deliveries: Vec::new(),
        audit: audit::list(conn, &filter, 1000, 0)?.0,
        consent_versions: Vec::new(),
        leads: vec![lead],
    };
    let spellings = spellings(&who, &held.leads, &[], &[]);
    let marks = marks(&who, &held.leads, &spellings);
    super::atomically(conn, || erase_held(conn, &held, &marks))
}

/// Erases what `held` lists, replacing `marks` in its audit entries.
fn erase_held(conn: &Connection, held: &PersonData, marks: &[String]) -> AppResult<Erased> {
    let mut erased = Erased::default();
    for lead in &held.leads {
        erased.held(&lead_categories(lead));
        // Kept for the figures: type, status, dates, assignee, the car
        // asked about, the consent's version and time, the campaign.
        erased.leads += conn.execute(
            "UPDATE leads SET name = ?2, phone = '', email = NULL, email_key = NULL, message = NULL,
                 desired_amount_kopecks = NULL, monthly_income_kopecks = NULL,
                 down_payment_kopecks = NULL, car_brand = NULL, car_model = NULL,
                 car_year = NULL, car_mileage = NULL, car_condition = NULL,
                 source_url = NULL, consent_ip = '', analytics_client_id = NULL,
                 advertising_consent = 0
             WHERE id = ?1",
            params![lead.id, ERASED],
        )? as i64;
        erased.lead_ids.push(lead.id.clone());
        erased.comments +=
            conn.execute("DELETE FROM lead_comments WHERE lead_id = ?1", [&lead.id])? as i64;
        erased.deliveries += conn.execute(
            "UPDATE outbox SET payload = '{}', last_error = NULL WHERE lead_id = ?1",
            [&lead.id],
        )? as i64;
    }
    for sub in &held.subscriptions {
        erased.deliveries += conn.execute(
            "DELETE FROM outbox
             WHERE lead_id IS NULL AND json_extract(payload, '$.subscriptionId') = ?1",
            [&sub.id],
        )? as i64;
        conn.execute(
            "DELETE FROM saved_search_tokens WHERE subscription_id = ?1",
            [&sub.id],
        )?;
        conn.execute(
            "DELETE FROM saved_search_seen WHERE subscription_id = ?1",
            [&sub.id],
        )?;
        erased.subscriptions += conn.execute(
            "DELETE FROM saved_search_subscriptions WHERE id = ?1",
            [&sub.id],
        )? as i64;
        erased.subscription_ids.push(sub.id.clone());
    }
    for entry in &held.audit {
        let mut summary = entry.summary.clone();
        let mut changes =
            serde_json::to_string(&entry.changes).map_err(|e| AppError::Internal(e.into()))?;
        for mark in marks {
            summary = summary.replace(mark.as_str(), ERASED);
            changes = changes.replace(mark.as_str(), ERASED);
        }
        erased.audit_entries += conn.execute(
            "UPDATE audit_log SET summary = ?2, changes = ?3 WHERE id = ?1",
            params![entry.id, summary, changes],
        )? as i64;
    }
    Ok(erased)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_categories_of_several_erasures_are_listed_once_in_order() {
        let mut total = Erased::default();
        total.add(&Erased {
            lead_categories: vec![ANALYTICS_CATEGORY, "номер телефона"],
            ..Erased::default()
        });
        total.add(&Erased {
            lead_categories: vec!["фамилия, имя, отчество", "номер телефона"],
            ..Erased::default()
        });
        assert_eq!(
            total.lead_categories,
            [
                "фамилия, имя, отчество",
                "номер телефона",
                ANALYTICS_CATEGORY
            ]
        );
    }

    #[test]
    fn a_phone_is_masked_to_its_last_four_digits() {
        assert_eq!(mask_phone("+79211234567"), "+7 *** ***-45-67");
        assert_eq!(mask_phone("12"), "***");
        let who = Subject {
            phone: Some("+79211234567".into()),
            email: Some("ivan@mail.ru".into()),
        };
        assert_eq!(who.describe(), "+79211234567, ivan@mail.ru");
        assert_eq!(who.masked(), "+7 *** ***-45-67, i***@mail.ru");
    }
}
