//! The settings in storage: one row, read and saved whole.

use super::values::{Banners, PublicSettings, Settings};
use crate::error::AppResult;
use rusqlite::{Connection, OptionalExtension, Row};

pub(super) const SELECT: &str =
    "SELECT salon_name, phone, phone_secondary, address, full_address, email,
    work_schedule, hero_title, hero_subtitle, favicon, google_analytics_id, yandex_metrika_id,
    consent_version, home_banner, home_banner_mobile, new_cars_banner,
    new_cars_banner_mobile, used_cars_banner, used_cars_banner_mobile, trade_in_banner,
    trade_in_banner_mobile, auto_credit_banner, auto_credit_banner_mobile, auto_selection_banner,
    auto_selection_banner_mobile, updated_at, notification_email, from_email,
    email_notifications_enabled, consent_text, privacy_policy, response_threshold_minutes,
    lead_assignment, operator_name, operator_inn, operator_ogrn, operator_address,
    google_analytics_enabled, retention_years, cancelled_retention_months, banner_ads,
    visitor_mail_daily_limit, quiet_car_days, quiet_car_views, latitude, longitude,
    telegram_chat_id, lead_recipients
    FROM settings WHERE id = 1";

pub(super) fn from_row(row: &Row) -> rusqlite::Result<Settings> {
    let mut settings = Settings {
        public: PublicSettings {
            salon_name: row.get("salon_name")?,
            phone: row.get("phone")?,
            phone_secondary: row.get("phone_secondary")?,
            address: row.get("address")?,
            full_address: row.get("full_address")?,
            latitude: row.get("latitude")?,
            longitude: row.get("longitude")?,
            email: row.get("email")?,
            working_hours: String::new(),
            work_schedule: crate::domain::json_column(&row.get::<_, String>("work_schedule")?),
            hero_title: row.get("hero_title")?,
            hero_subtitle: row.get("hero_subtitle")?,
            favicon: row.get("favicon")?,
            google_analytics_id: row.get("google_analytics_id")?,
            yandex_metrika_id: row.get("yandex_metrika_id")?,
            // From the configuration when published.
            phone_class: String::new(),
            call_tracking_script: String::new(),
            operator_name: row.get("operator_name")?,
            operator_inn: row.get("operator_inn")?,
            operator_ogrn: row.get("operator_ogrn")?,
            operator_address: row.get("operator_address")?,
            consent_version: row.get("consent_version")?,
            banners: Banners {
                home_banner: row.get("home_banner")?,
                home_banner_mobile: row.get("home_banner_mobile")?,
                new_cars_banner: row.get("new_cars_banner")?,
                new_cars_banner_mobile: row.get("new_cars_banner_mobile")?,
                used_cars_banner: row.get("used_cars_banner")?,
                used_cars_banner_mobile: row.get("used_cars_banner_mobile")?,
                trade_in_banner: row.get("trade_in_banner")?,
                trade_in_banner_mobile: row.get("trade_in_banner_mobile")?,
                auto_credit_banner: row.get("auto_credit_banner")?,
                auto_credit_banner_mobile: row.get("auto_credit_banner_mobile")?,
                auto_selection_banner: row.get("auto_selection_banner")?,
                auto_selection_banner_mobile: row.get("auto_selection_banner_mobile")?,
            },
            banner_ads: crate::domain::json_column(&row.get::<_, String>("banner_ads")?),
            updated_at: row.get("updated_at")?,
            salons: Vec::new(),
        },
        telegram_chat_id: row.get("telegram_chat_id")?,
        lead_recipients: crate::domain::json_column(&row.get::<_, String>("lead_recipients")?),
        notification_email: row.get("notification_email")?,
        from_email: row.get("from_email")?,
        email_notifications_enabled: row.get("email_notifications_enabled")?,
        consent_text: row.get("consent_text")?,
        privacy_policy: row.get("privacy_policy")?,
        response_threshold_minutes: row.get("response_threshold_minutes")?,
        lead_assignment: row.get("lead_assignment")?,
        google_analytics_enabled: row.get("google_analytics_enabled")?,
        retention_years: row.get("retention_years")?,
        cancelled_retention_months: row.get("cancelled_retention_months")?,
        visitor_mail_daily_limit: row.get("visitor_mail_daily_limit")?,
        quiet_car_days: row.get("quiet_car_days")?,
        quiet_car_views: row.get("quiet_car_views")?,
    };
    settings.public.working_hours = settings.public.work_schedule.lines();
    Ok(settings)
}

impl Settings {
    /// What every visitor may read: Google Analytics' id only while the
    /// owner has it turned on, so the browser never starts it otherwise.
    /// What visitors read, with the call tracking the configuration sets
    /// (its phone class and script: never stored, so never stale).
    pub fn published(self, calls: &crate::config_calls::CallTrackingConfig) -> PublicSettings {
        let mut public = self.public;
        if !self.google_analytics_enabled {
            public.google_analytics_id.clear();
        }
        public.phone_class = calls.phone_class.trim().to_string();
        public.call_tracking_script = if calls.script_sources().is_some() {
            calls.script_url.trim().to_string()
        } else {
            String::new()
        };
        public
    }
}

/// The stored settings, or the defaults before an admin saved any.
pub fn get(conn: &Connection) -> AppResult<Settings> {
    let mut stmt = conn.prepare_cached(SELECT)?;
    Ok(stmt.query_row([], from_row).optional()?.unwrap_or_default())
}

/// Whether an admin (or the demo) has saved settings.
pub fn exists(conn: &Connection) -> AppResult<bool> {
    Ok(conn
        .query_row("SELECT 1 FROM settings WHERE id = 1", [], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Stores the whole settings row. The consent version goes up when the
/// consent text or the privacy policy it links to changes (the defaults
/// are version 1), so each lead records which texts it agreed to.
pub fn save(conn: &Connection, settings: &Settings) -> AppResult<Settings> {
    let current = get(conn)?;
    let mut next = settings.clone();
    let texts_changed = current.consent_text != settings.consent_text
        || current.privacy_policy != settings.privacy_policy;
    next.public.consent_version = if texts_changed {
        current.public.consent_version + 1
    } else {
        current.public.consent_version
    };
    let p = &next.public;
    let b = &p.banners;
    conn.execute(
        "INSERT OR REPLACE INTO settings (id, salon_name, phone, phone_secondary, address, full_address, email,
            hero_title, hero_subtitle, favicon, google_analytics_id, yandex_metrika_id,
            operator_name, operator_inn, operator_ogrn, operator_address, consent_version,
            home_banner, home_banner_mobile, new_cars_banner, new_cars_banner_mobile,
            used_cars_banner, used_cars_banner_mobile, trade_in_banner,
            trade_in_banner_mobile, auto_credit_banner, auto_credit_banner_mobile,
            auto_selection_banner, auto_selection_banner_mobile, updated_at,
            notification_email, from_email, email_notifications_enabled, consent_text,
            privacy_policy, work_schedule, response_threshold_minutes, lead_assignment,
            google_analytics_enabled, retention_years, cancelled_retention_months,
            banner_ads, visitor_mail_daily_limit, quiet_car_days, quiet_car_views, latitude,
            longitude, telegram_chat_id, lead_recipients)
         VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33,
            ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45, ?46, ?47, ?48)",
        rusqlite::params![
            p.salon_name,
            p.phone,
            p.phone_secondary,
            p.address,
            p.full_address,
            p.email,
            p.hero_title,
            p.hero_subtitle,
            p.favicon,
            p.google_analytics_id,
            p.yandex_metrika_id,
            p.operator_name,
            p.operator_inn,
            p.operator_ogrn,
            p.operator_address,
            p.consent_version,
            b.home_banner,
            b.home_banner_mobile,
            b.new_cars_banner,
            b.new_cars_banner_mobile,
            b.used_cars_banner,
            b.used_cars_banner_mobile,
            b.trade_in_banner,
            b.trade_in_banner_mobile,
            b.auto_credit_banner,
            b.auto_credit_banner_mobile,
            b.auto_selection_banner,
            b.auto_selection_banner_mobile,
            crate::domain::now(),
            next.notification_email,
            next.from_email,
            next.email_notifications_enabled,
            next.consent_text,
            next.privacy_policy,
            serde_json::to_string(&p.work_schedule)
                .map_err(|e| crate::error::AppError::Internal(e.into()))?,
            next.response_threshold_minutes,
            next.lead_assignment,
            next.google_analytics_enabled,
            next.retention_years,
            next.cancelled_retention_months,
            serde_json::to_string(&p.banner_ads)
                .map_err(|e| crate::error::AppError::Internal(e.into()))?,
            next.visitor_mail_daily_limit,
            next.quiet_car_days,
            next.quiet_car_views,
            p.latitude,
            p.longitude,
            next.telegram_chat_id,
            serde_json::to_string(&next.lead_recipients)
                .map_err(|e| crate::error::AppError::Internal(e.into()))?,
        ],
    )?;
    get(conn)
}
