//! What a self-check finds: the kinds of problem and their severity, a
//! problem with its fix link, the report the admin reads, and the helpers
//! every check words its problem with.

use crate::domain::text_enum;
use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

text_enum!(
    /// Which check found the problem.
    CheckKind {
        PromotionExpired = "promotion_expired",
        PromotionEnding = "promotion_ending",
        BankWithoutPsk = "bank_without_psk",
        ProgramWithoutPsk = "program_without_psk",
        RateWithoutBank = "rate_without_bank",
        CarWithoutPhotos = "car_without_photos",
        CarWithoutVin = "car_without_vin",
        CarZeroPrice = "car_zero_price",
        CarGonePublished = "car_gone_published",
        CarUnstatedFields = "car_unstated_fields",
        ConsentTextMissing = "consent_text_missing",
        PrivacyPolicyMissing = "privacy_policy_missing",
        OperatorMissing = "operator_missing",
        ProcessorsUnlisted = "processors_unlisted",
        AnalyticsAbroad = "analytics_abroad",
        AdWithoutToken = "ad_without_token",
        ReplicationFailing = "replication_failing",
        MarketplaceRefused = "marketplace_refused",
        CallsSilent = "calls_silent",
    }
);

text_enum!(
    /// error: fix it now (a fine or a broken page); warning: soon.
    Severity { Error = "error", Warning = "warning" }
);

impl CheckKind {
    pub fn severity(self) -> Severity {
        match self {
            CheckKind::PromotionEnding
            | CheckKind::CarWithoutVin
            | CheckKind::CarUnstatedFields
            | CheckKind::AnalyticsAbroad
            | CheckKind::MarketplaceRefused
            | CheckKind::CallsSilent => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// One thing to fix.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    pub check: CheckKind,
    pub severity: Severity,
    /// What is wrong, in a few words.
    pub title: String,
    /// Which object, and what to do.
    pub detail: String,
    /// The admin page that opens the object to fix it.
    pub link: String,
    /// The object's id; null for the settings.
    #[schema(required = true)]
    pub object_id: Option<String>,
}

/// `GET /api/admin/checks`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChecksReport {
    /// When this result was computed (it is kept until the content or the
    /// Moscow date changes).
    pub checked_at: String,
    /// How many problems (the dashboard badge).
    pub count: i64,
    /// Errors first, then warnings.
    pub problems: Vec<Problem>,
}

/// A promotion that ends within this many days is announced.
pub const ENDING_WITHIN_DAYS: i64 = 2;

pub(super) fn problem(
    check: CheckKind,
    title: &str,
    detail: String,
    link: String,
    id: Option<&str>,
) -> Problem {
    Problem {
        check,
        severity: check.severity(),
        title: title.into(),
        detail,
        link,
        object_id: id.map(str::to_string),
    }
}

pub(super) fn ru_date(date: NaiveDate) -> String {
    date.format("%d.%m.%Y").to_string()
}
