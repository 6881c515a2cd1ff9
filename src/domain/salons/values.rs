//! A salon's values that the settings share (the main salon's coordinates
//! and recipients): what visitors read of a salon, recipients by lead
//! type, and their checks.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::hours::WorkSchedule;
use crate::domain::leads::LeadType;
use crate::error::{AppError, AppResult};

pub const BAD_LATITUDE: &str = "Широта: число от -90 до 90";
pub const BAD_LONGITUDE: &str = "Долгота: число от -180 до 180";
pub const COORDINATES_IN_PAIRS: &str = "Укажите и широту, и долготу (или ни одну)";
pub const BAD_EMAIL: &str = "Неверный формат email";
pub const UNKNOWN_LEAD_TYPE: &str = "Неизвестный тип заявки в получателях";
/// Who hears of a lead: an e-mail (several, by commas) and a Telegram chat;
/// empty: the salon's default (and the main salon's, then `[telegram]`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Recipients {
    pub email: String,
    pub telegram_chat_id: String,
}

/// Recipients by lead type code (`trade_in`, `test_drive`, …), over the
/// salon's default.
pub type LeadRecipients = BTreeMap<String, Recipients>;

/// A salon as visitors see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Salon {
    /// 1: the main salon.
    pub id: i64,
    pub name: String,
    pub address: String,
    pub full_address: String,
    /// Degrees (WGS 84); null: not given (no map link).
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub phone: String,
    pub phone_secondary: String,
    /// The CSS class this salon's phones carry for the call-tracking
    /// script; empty: none (the main salon's is `[call_tracking]`'s).
    pub phone_class: String,
    pub email: String,
    /// Opening hours by weekday, Monday first, Moscow time.
    pub work_schedule: WorkSchedule,
    /// The hours as shown, drawn from the schedule.
    #[schema(read_only)]
    pub working_hours: String,
}

/// Checks a pair of coordinates: both or neither, within their ranges.
pub fn check_coordinates(latitude: Option<f64>, longitude: Option<f64>) -> AppResult<()> {
    if let Some(lat) = latitude
        && !(lat.is_finite() && (-90.0..=90.0).contains(&lat))
    {
        return Err(AppError::invalid("latitude", BAD_LATITUDE));
    }
    if let Some(lon) = longitude
        && !(lon.is_finite() && (-180.0..=180.0).contains(&lon))
    {
        return Err(AppError::invalid("longitude", BAD_LONGITUDE));
    }
    if latitude.is_some() != longitude.is_some() {
        let field = if latitude.is_none() {
            "latitude"
        } else {
            "longitude"
        };
        return Err(AppError::invalid(field, COORDINATES_IN_PAIRS));
    }
    Ok(())
}

/// A list of addresses by commas (or empty) each an e-mail.
pub(super) fn emails_fine(list: &str) -> bool {
    list.split([',', ';'])
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .all(crate::domain::leads::is_email)
}

/// Checks recipients by lead type: known types, e-mails, lengths; drops the
/// empty ones.
pub fn check_recipients(recipients: LeadRecipients) -> AppResult<LeadRecipients> {
    let mut out = LeadRecipients::new();
    for (code, r) in recipients {
        if LeadType::parse(&code).is_none() {
            return Err(AppError::invalid("leadRecipients", UNKNOWN_LEAD_TYPE));
        }
        let r = Recipients {
            email: r.email.trim().to_string(),
            telegram_chat_id: r.telegram_chat_id.trim().to_string(),
        };
        crate::domain::check_len("leadRecipients", "E-mail получателей", &r.email, 255)?;
        crate::domain::check_len("leadRecipients", "Чат Telegram", &r.telegram_chat_id, 100)?;
        if !emails_fine(&r.email) {
            return Err(AppError::invalid("leadRecipients", BAD_EMAIL));
        }
        if r != Recipients::default() {
            out.insert(code, r);
        }
    }
    Ok(out)
}

/// Whose figures: one salon's (`salon`, 1 for the main) or, absent, every
/// salon's (the dashboard's and the response times' `?salon=`).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SalonQuery {
    #[param(minimum = 1, maximum = 2147483647)]
    pub salon: Option<i64>,
}

pub const NO_SUCH_SALON: &str = "Салон не найден";

/// The largest salon id a request may name.
pub const MAX_SALON_ID: i64 = 2_147_483_647;

/// A `salon` query parameter checked: 1 to [`MAX_SALON_ID`], else 400.
pub fn checked_salon(value: Option<i64>) -> AppResult<Option<i64>> {
    match value {
        Some(id) if !(1..=MAX_SALON_ID).contains(&id) => Err(AppError::BadRequest(format!(
            "Неверный параметр запроса «salon»: ожидается число от 1 до {MAX_SALON_ID}"
        ))),
        other => Ok(other),
    }
}

/// A salon id from a path: a number in range, else the salon is unknown
/// (404).
pub fn path_salon(text: &str) -> AppResult<i64> {
    text.parse::<i64>()
        .ok()
        .filter(|id| (1..=MAX_SALON_ID).contains(id))
        .ok_or_else(|| AppError::not_found(NO_SUCH_SALON))
}
