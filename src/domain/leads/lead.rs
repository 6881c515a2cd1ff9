//! A lead as stored and shown: its kinds and statuses, the limits of a
//! visitor's own car, the consent message.

use crate::domain::money::Money;
use crate::domain::text_enum;
use serde::Serialize;
use utoipa::ToSchema;

text_enum!(
    /// contact_form is shown as an instalment request; marketplace_call is
    /// a call on a marketplace's substitute number, missed_call a missed
    /// call to the site's numbers and phone_call an answered one from an
    /// unknown number (never a form's types); callback is the form
    /// «Перезвоните мне».
    LeadType {
        AutoCredit = "auto_credit",
        TradeIn = "trade_in",
        AutoSelection = "auto_selection",
        LeaseBooking = "lease_booking",
        ContactForm = "contact_form",
        TestDrive = "test_drive",
        MarketplaceCall = "marketplace_call",
        MissedCall = "missed_call",
        PhoneCall = "phone_call",
        Callback = "callback",
    }
);
impl LeadType {
    /// A call's type (a marketplace's, a missed or an answered call), made
    /// by the providers, never by a form.
    pub fn is_call(self) -> bool {
        matches!(
            self,
            LeadType::MarketplaceCall | LeadType::MissedCall | LeadType::PhoneCall
        )
    }
}

text_enum!(
    /// What came of a callback request: calling (the PBX is being asked),
    /// rung (the PBX took the command: it rings the manager, then the
    /// visitor), failed (the PBX refused or could not be reached; the detail
    /// says why), out_of_hours (the salon was closed: it calls at opening),
    /// no_pbx (no PBX is set up: the manager calls back by hand).
    CallbackState {
        Calling = "calling",
        Rung = "rung",
        Failed = "failed",
        OutOfHours = "out_of_hours",
        NoPbx = "no_pbx",
    }
);
text_enum!(
    LeadStatus {
        New = "new",
        InProgress = "in_progress",
        Completed = "completed",
        Cancelled = "cancelled",
    }
);

/// A visitor's own car (trade-in): the oldest year taken. The trade-in form
/// checks the same range (`ui/src/lib/leads.ts`, `tradeInProblems`).
pub const CAR_YEAR_MIN: i32 = 1950;
/// A visitor's own car: the largest mileage taken, km.
pub const CAR_MILEAGE_MAX: i64 = 10_000_000;

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Lead {
    pub id: String,
    #[serde(rename = "type")]
    pub lead_type: LeadType,
    pub status: LeadStatus,
    pub name: String,
    /// +7XXXXXXXXXX
    pub phone: String,
    pub email: Option<String>,
    pub message: Option<String>,
    pub desired_amount: Option<Money>,
    pub monthly_income: Option<Money>,
    pub car_brand: Option<String>,
    pub car_model: Option<String>,
    pub car_year: Option<i32>,
    pub car_mileage: Option<i64>,
    pub car_condition: Option<String>,
    pub budget: Option<Money>,
    pub preferred_brand: Option<String>,
    pub body_type: Option<String>,
    pub transmission: Option<String>,
    pub fuel_types: Option<String>,
    pub source_url: Option<String>,
    pub car_id: Option<String>,
    pub car_info: Option<String>,
    pub car_price: Option<String>,
    pub car_status: Option<String>,
    pub consent_version: i64,
    pub consent_at: String,
    pub consent_ip: String,
    pub advertising_consent: bool,
    pub utm_source: Option<String>,
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub utm_term: Option<String>,
    pub utm_content: Option<String>,
    pub analytics_client_id: Option<String>,
    /// The lead's id in amoCRM, once it was pushed there.
    pub amocrm_lead_id: Option<i64>,
    /// Test drive: the day asked for, "YYYY-MM-DD" (Moscow); null for other types.
    pub preferred_date: Option<String>,
    /// Test drive: the slot's start, "HH:MM" (Moscow); null for other types.
    pub preferred_time: Option<String>,
    /// Credit from the calculator: the term in months.
    pub term_months: Option<i64>,
    /// Credit from the calculator: the down payment.
    pub down_payment: Option<Money>,
    pub created_at: String,
    pub updated_at: String,
    /// The staff member the lead is assigned to (`docs/leads.md`, "Who
    /// answers a lead"); none while unassigned.
    pub assignee_id: Option<String>,
    /// Their name, or login when they have none.
    pub assignee_name: Option<String>,
    /// When it was assigned, RFC 3339 UTC.
    pub assigned_at: Option<String>,
    /// A callback request: what the PBX made of it; null for other types.
    pub callback_state: Option<CallbackState>,
    /// Why a callback failed, or when the salon calls (out of hours).
    pub callback_detail: Option<String>,
    /// When the state was last set, RFC 3339 UTC.
    pub callback_at: Option<String>,
    /// The salon it belongs to (`docs/salons.md`); absent: the main salon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salon_id: Option<i64>,
}

pub const CONSENT_REQUIRED: &str = "Необходимо согласие на обработку персональных данных";
