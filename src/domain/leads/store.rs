//! Leads in storage: written, read, listed for the admin, assigned, their
//! status changed, deleted and counted.

use super::input::ValidLead;
use super::lead::{Lead, LeadStatus, LeadType};
use crate::error::AppResult;
use rusqlite::{Connection, OptionalExtension, Row, params};

/// Stores a validated lead. A car id that no longer exists is kept as text
/// in `carInfo` only, so a lead from a stale page is never refused.
pub fn insert(conn: &Connection, valid: ValidLead) -> AppResult<Lead> {
    let mut lead = valid.lead;
    if let Some(car_id) = &lead.car_id {
        let exists = conn
            .prepare_cached("SELECT 1 FROM cars WHERE id = ?1")?
            .query_row([car_id], |_| Ok(()))
            .optional()?
            .is_some();
        if !exists {
            lead.car_id = None;
        }
    }
    let l = &lead;
    conn.prepare_cached(
        "INSERT INTO leads (id, type, status, name, phone, email, message,
            desired_amount_kopecks, monthly_income_kopecks, car_brand, car_model, car_year,
            car_mileage, car_condition, budget_kopecks, preferred_brand, body_type, transmission,
            fuel_types, source_url, car_id, car_info, car_price, car_status, consent_version,
            consent_at, consent_ip, advertising_consent, utm_source, utm_medium, utm_campaign,
            utm_term, utm_content, analytics_client_id, created_at, updated_at, preferred_date,
            preferred_time, term_months, down_payment_kopecks, email_key, salon_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
            ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35,
            ?36, ?37, ?38, ?39, ?40, ?41, ?42)",
    )?
    .execute(params![
        l.id,
        l.lead_type,
        l.status,
        l.name,
        l.phone,
        l.email,
        l.message,
        l.desired_amount,
        l.monthly_income,
        l.car_brand,
        l.car_model,
        l.car_year,
        l.car_mileage,
        l.car_condition,
        l.budget,
        l.preferred_brand,
        l.body_type,
        l.transmission,
        l.fuel_types,
        l.source_url,
        l.car_id,
        l.car_info,
        l.car_price,
        l.car_status,
        l.consent_version,
        l.consent_at,
        l.consent_ip,
        l.advertising_consent,
        l.utm_source,
        l.utm_medium,
        l.utm_campaign,
        l.utm_term,
        l.utm_content,
        l.analytics_client_id,
        l.created_at,
        l.updated_at,
        l.preferred_date,
        l.preferred_time,
        l.term_months,
        l.down_payment,
        l.email.as_deref().map(crate::domain::email::canonical),
        l.salon_id,
    ])?;
    Ok(lead)
}

/// A lead made by a call, on a marketplace's substitute number or to the
/// site's numbers through a call-tracking service (`docs/leads.md`, "Calls
/// as leads"): no form, so no consent version and no address (0, ""); the
/// person called the dealer.
#[derive(Debug, Clone)]
pub struct CallLead {
    /// marketplace_call, missed_call or phone_call.
    pub lead_type: LeadType,
    /// What the lead is called for the staff: «Звонок с Авито».
    pub name: String,
    /// The caller in E.164, empty when the marketplace hides it.
    pub phone: String,
    pub message: String,
    /// The car: id, name, price and status as a form sends them.
    pub car: Option<(String, String, String, String)>,
    /// The ad's page on the marketplace.
    pub source_url: Option<String>,
    /// The marketplace («avito.ru», «auto.ru») or the visit's UTM source.
    pub utm_source: Option<String>,
    /// The marketplace_call medium, or the visit's.
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub utm_term: Option<String>,
    pub utm_content: Option<String>,
    /// The web analytics' client id of the visit.
    pub client_id: Option<String>,
    pub status: LeadStatus,
    /// When the call came, RFC 3339 UTC: the lead's arrival.
    pub at: String,
    /// The salon of the car or of the number called; none: the main.
    pub salon_id: Option<i64>,
}

/// Stores the lead a call made.
pub fn insert_call(conn: &Connection, call: CallLead) -> AppResult<Lead> {
    let (car_id, car_info, car_price, car_status) = match call.car {
        Some((id, info, price, status)) => (Some(id), Some(info), Some(price), Some(status)),
        None => (None, None, None, None),
    };
    let lead = Lead {
        id: crate::domain::new_ordered_id(),
        lead_type: call.lead_type,
        status: call.status,
        name: call.name,
        phone: call.phone,
        email: None,
        message: Some(call.message),
        desired_amount: None,
        monthly_income: None,
        car_brand: None,
        car_model: None,
        car_year: None,
        car_mileage: None,
        car_condition: None,
        budget: None,
        preferred_brand: None,
        body_type: None,
        transmission: None,
        fuel_types: None,
        source_url: call.source_url,
        car_id,
        car_info,
        car_price,
        car_status,
        consent_version: 0,
        consent_at: call.at.clone(),
        consent_ip: String::new(),
        advertising_consent: false,
        utm_source: call.utm_source,
        utm_medium: call.utm_medium,
        utm_campaign: call.utm_campaign,
        utm_term: call.utm_term,
        utm_content: call.utm_content,
        analytics_client_id: call.client_id,
        amocrm_lead_id: None,
        preferred_date: None,
        preferred_time: None,
        term_months: None,
        down_payment: None,
        created_at: call.at.clone(),
        updated_at: call.at,
        assignee_id: None,
        assignee_name: None,
        assigned_at: None,
        callback_state: None,
        callback_detail: None,
        callback_at: None,
        salon_id: call.salon_id,
    };
    insert(conn, ValidLead { lead })
}

pub(super) const SELECT: &str = "SELECT id, type, status, name, phone, email, message, desired_amount_kopecks,
    monthly_income_kopecks, car_brand, car_model, car_year, car_mileage, car_condition,
    budget_kopecks, preferred_brand, body_type, transmission, fuel_types, source_url, car_id,
    car_info, car_price, car_status, consent_version, consent_at, consent_ip, advertising_consent,
    utm_source, utm_medium, utm_campaign, utm_term, utm_content, analytics_client_id, amocrm_lead_id,
    preferred_date, preferred_time, term_months, down_payment_kopecks, created_at, updated_at,
    assignee_id, assigned_at, callback_state, callback_detail, callback_at, salon_id,
    (SELECT CASE WHEN u.display_name <> '' THEN u.display_name ELSE u.username END
     FROM users u WHERE u.id = leads.assignee_id) AS assignee_name
    FROM leads";

pub(super) fn from_row(row: &Row) -> rusqlite::Result<Lead> {
    Ok(Lead {
        id: row.get("id")?,
        lead_type: row.get("type")?,
        status: row.get("status")?,
        name: row.get("name")?,
        phone: row.get("phone")?,
        email: row.get("email")?,
        message: row.get("message")?,
        desired_amount: row.get("desired_amount_kopecks")?,
        monthly_income: row.get("monthly_income_kopecks")?,
        car_brand: row.get("car_brand")?,
        car_model: row.get("car_model")?,
        car_year: row.get("car_year")?,
        car_mileage: row.get("car_mileage")?,
        car_condition: row.get("car_condition")?,
        budget: row.get("budget_kopecks")?,
        preferred_brand: row.get("preferred_brand")?,
        body_type: row.get("body_type")?,
        transmission: row.get("transmission")?,
        fuel_types: row.get("fuel_types")?,
        source_url: row.get("source_url")?,
        car_id: row.get("car_id")?,
        car_info: row.get("car_info")?,
        car_price: row.get("car_price")?,
        car_status: row.get("car_status")?,
        consent_version: row.get("consent_version")?,
        consent_at: row.get("consent_at")?,
        consent_ip: row.get("consent_ip")?,
        advertising_consent: row.get("advertising_consent")?,
        utm_source: row.get("utm_source")?,
        utm_medium: row.get("utm_medium")?,
        utm_campaign: row.get("utm_campaign")?,
        utm_term: row.get("utm_term")?,
        utm_content: row.get("utm_content")?,
        analytics_client_id: row.get("analytics_client_id")?,
        amocrm_lead_id: row.get("amocrm_lead_id")?,
        preferred_date: row.get("preferred_date")?,
        preferred_time: row.get("preferred_time")?,
        term_months: row.get("term_months")?,
        down_payment: row.get("down_payment_kopecks")?,
        created_at: row.get("created_at")?,
        updated_at: row.get("updated_at")?,
        assignee_id: row.get("assignee_id")?,
        assignee_name: row.get("assignee_name")?,
        assigned_at: row.get("assigned_at")?,
        callback_state: row.get("callback_state")?,
        callback_detail: row.get("callback_detail")?,
        callback_at: row.get("callback_at")?,
        salon_id: row.get("salon_id")?,
    })
}

pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Lead>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// Whose leads a list holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assignees {
    /// Every lead.
    All,
    /// Leads assigned to this user.
    Of(String),
    /// Leads assigned to no one.
    Nobody,
    /// A manager's view: their own and the unassigned (of their salons).
    OwnAndUnassigned(String),
    /// A manager's unassigned leads: those of their salons.
    UnassignedOf(String),
}

/// The SQL's scope of `assignees`: 0 all, 1 the user's, 2 nobody's, 3 the
/// user's and nobody's; with the user.
fn scope_of(assignees: &Assignees) -> (i64, Option<&str>) {
    match assignees {
        Assignees::All => (0, None),
        Assignees::Of(id) => (1, Some(id.as_str())),
        Assignees::Nobody => (2, None),
        Assignees::OwnAndUnassigned(id) => (3, Some(id.as_str())),
        Assignees::UnassignedOf(id) => (4, Some(id.as_str())),
    }
}

/// Leads newest first, optionally of one status, one type and some
/// assignees.
pub fn list(
    conn: &Connection,
    status: Option<LeadStatus>,
    lead_type: Option<LeadType>,
    assignees: &Assignees,
    limit: u32,
    offset: u32,
) -> AppResult<Vec<Lead>> {
    // ?5: 0 all, 1 of ?6, 2 nobody's, 3 ?6's and nobody's (of ?6's
    // salons), 4 nobody's of ?6's salons.
    let (scope, user) = scope_of(assignees);
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE (?1 IS NULL OR status = ?1) AND (?2 IS NULL OR type = ?2)
           AND (?5 = 0
                OR (?5 = 1 AND assignee_id = ?6)
                OR (?5 = 2 AND assignee_id IS NULL)
                OR (?5 IN (3, 4) AND ((?5 = 3 AND assignee_id = ?6)
                    OR (assignee_id IS NULL AND {}))))
         ORDER BY created_at DESC, id LIMIT ?3 OFFSET ?4",
        in_salons_of("?6")
    ))?;
    let rows = stmt.query_map(
        params![status, lead_type, limit, offset, scope, user],
        from_row,
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Assigns a lead to `assignee` (a user id) or to no one; the lead after,
/// `None` when there is no such lead.
pub fn assign(conn: &Connection, id: &str, assignee: Option<&str>) -> AppResult<Option<Lead>> {
    let changed = conn.execute(
        "UPDATE leads SET assignee_id = ?2,
             assigned_at = CASE WHEN ?2 IS NULL THEN NULL ELSE ?3 END
         WHERE id = ?1",
        params![id, assignee, crate::domain::now()],
    )?;
    crate::domain::read_again(changed, || get(conn, id))
}

pub fn count(conn: &Connection) -> AppResult<i64> {
    Ok(conn.query_row("SELECT count(*) FROM leads", [], |r| r.get(0))?)
}

pub fn set_status(conn: &Connection, id: &str, status: LeadStatus) -> AppResult<Option<Lead>> {
    let changed = conn.execute(
        "UPDATE leads SET status = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, status, crate::domain::now()],
    )?;
    crate::domain::read_again(changed, || get(conn, id))
}

/// Keeps the lead's id in amoCRM.
pub fn set_amocrm_id(conn: &Connection, id: &str, amocrm_lead_id: i64) -> AppResult<()> {
    conn.execute(
        "UPDATE leads SET amocrm_lead_id = ?2 WHERE id = ?1",
        params![id, amocrm_lead_id],
    )?;
    Ok(())
}

pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM leads WHERE id = ?1", [id])? > 0)
}

/// Lead counters of the admin: (total, new, in progress, created since
/// `since`), of the leads `assignees` names: a manager's count what the list
/// shows them (their own and the unassigned), never another's leads.
pub fn counters(
    conn: &Connection,
    since: &str,
    assignees: &Assignees,
    salon: Option<i64>,
) -> AppResult<(i64, i64, i64, i64)> {
    let (scope, user) = scope_of(assignees);
    Ok(conn.prepare_cached(&format!(
        "SELECT count(*), coalesce(sum(status = 'new'), 0), coalesce(sum(status = 'in_progress'), 0),
            coalesce(sum(created_at >= ?1), 0)
         FROM leads
         WHERE (?2 = 0
            OR (?2 = 1 AND assignee_id = ?3)
            OR (?2 = 2 AND assignee_id IS NULL)
            OR (?2 IN (3, 4) AND ((?2 = 3 AND assignee_id = ?3)
                OR (assignee_id IS NULL AND {}))))
           AND (?4 IS NULL OR coalesce(salon_id, 1) = ?4)",
        in_salons_of("?3")
    ))?
    .query_row(
        params![since, scope, user, salon],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?)
}

/// The SQL condition "the lead is of a salon the user named by the
/// parameter `user` works in" (named to none: every salon;
/// `docs/salons.md`).
fn in_salons_of(user: &str) -> String {
    format!(
        "(NOT EXISTS (SELECT 1 FROM staff_salons s WHERE s.user_id = {user})
          OR coalesce(salon_id, 1) IN (SELECT s.salon_id FROM staff_salons s WHERE s.user_id = {user}))"
    )
}

/// Whether `user` works in the salon of `lead` (named to it, or to no
/// salon: every salon).
pub fn in_users_salons(conn: &Connection, user: &str, lead: &Lead) -> AppResult<bool> {
    // NULL: the main salon, id 1 (`docs/salons.md`).
    let salon = lead.salon_id.unwrap_or(1);
    Ok(conn
        .prepare_cached(
            "SELECT NOT EXISTS (SELECT 1 FROM staff_salons WHERE user_id = ?1)
                 OR EXISTS (SELECT 1 FROM staff_salons WHERE user_id = ?1 AND salon_id = ?2)",
        )?
        .query_row(params![user, salon], |r| r.get(0))?)
}
