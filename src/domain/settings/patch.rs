//! A change of the settings from the admin (`SettingsPatch`): the fields it
//! sets, their rules, and the form's description for the UI.

use super::values::{
    CANCELLED_RETENTION_FIELD, CANCELLED_RETENTION_RANGE, QUIET_DAYS_FIELD, QUIET_DAYS_RANGE,
    QUIET_VIEWS_FIELD, QUIET_VIEWS_RANGE, RESPONSE_THRESHOLD_FIELD, RESPONSE_THRESHOLD_RANGE,
    RETENTION_YEARS_FIELD, RETENTION_YEARS_RANGE, Settings,
};
use crate::domain::hours::WorkSchedule;
use crate::domain::lead_assignment;
use crate::domain::lead_assignment::AssignmentRule;
use crate::domain::operator_ids::{BAD_INN, BAD_OGRN, is_inn, is_ogrn};
use crate::error::{AppError, AppResult};
use serde::Deserialize;
use utoipa::ToSchema;

/// The refusal of hours set as text: the text is drawn from the schedule.
pub const HOURS_FROM_SCHEDULE: &str =
    "Часы работы составляются из графика работы: измените «График работы»";

/// A change to some settings: absent fields keep their value. The company
/// form sends everything; the e-mail and banner forms send a few fields.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SettingsPatch {
    pub salon_name: Option<String>,
    pub phone: Option<String>,
    pub phone_secondary: Option<String>,
    pub address: Option<String>,
    pub full_address: Option<String>,
    /// The main salon's latitude; null removes it (with the longitude).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<f64>, nullable)]
    pub latitude: Option<Option<f64>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<f64>, nullable)]
    pub longitude: Option<Option<f64>>,
    pub email: Option<String>,
    /// Read-only: drawn from `workSchedule`. Accepted when it says what
    /// the schedule says (a form sending back what it loaded); any other
    /// text is refused with the reason.
    pub working_hours: Option<String>,
    /// Opening hours by weekday, Monday first; a day is `{open, close}`
    /// ("HH:MM") or null when closed.
    #[schema(value_type = Option<WorkSchedule>)]
    pub work_schedule: Option<serde_json::Value>,
    pub hero_title: Option<String>,
    pub hero_subtitle: Option<String>,
    pub favicon: Option<String>,
    pub google_analytics_id: Option<String>,
    pub yandex_metrika_id: Option<String>,
    pub notification_email: Option<String>,
    /// The main salon's Telegram chat; empty: `[telegram] chat_id`.
    pub telegram_chat_id: Option<String>,
    /// The main salon's recipients by lead type.
    pub lead_recipients: Option<crate::domain::salons::values::LeadRecipients>,
    pub from_email: Option<String>,
    pub email_notifications_enabled: Option<bool>,
    pub consent_text: Option<String>,
    pub privacy_policy: Option<String>,
    /// Working minutes, 1 to 480.
    pub response_threshold_minutes: Option<i64>,
    /// `none`, `round_robin` or `least_loaded`.
    #[schema(value_type = Option<AssignmentRule>)]
    pub lead_assignment: Option<String>,
    pub operator_name: Option<String>,
    pub operator_inn: Option<String>,
    pub operator_ogrn: Option<String>,
    pub operator_address: Option<String>,
    pub google_analytics_enabled: Option<bool>,
    /// Years, 1 to 10.
    pub retention_years: Option<i64>,
    /// Months, 1 to 36.
    pub cancelled_retention_months: Option<i64>,
    /// Visitor-triggered mails for the site in any 24 hours, 1 to 10 000.
    pub visitor_mail_daily_limit: Option<i64>,
    /// Days, 3 to 90.
    pub quiet_car_days: Option<i64>,
    /// Views, 1 to 100 000.
    pub quiet_car_views: Option<i64>,
    /// The banners' ad marks, all of them (a page left out is unmarked).
    pub banner_ads: Option<std::collections::BTreeMap<String, crate::domain::ads::AdMark>>,
    pub home_banner: Option<String>,
    pub home_banner_mobile: Option<String>,
    pub new_cars_banner: Option<String>,
    pub new_cars_banner_mobile: Option<String>,
    pub used_cars_banner: Option<String>,
    pub used_cars_banner_mobile: Option<String>,
    pub trade_in_banner: Option<String>,
    pub trade_in_banner_mobile: Option<String>,
    pub auto_credit_banner: Option<String>,
    pub auto_credit_banner_mobile: Option<String>,
    pub auto_selection_banner: Option<String>,
    pub auto_selection_banner_mobile: Option<String>,
    /// Read-only; accepted so a form can send back what it loaded.
    pub consent_version: Option<i64>,
    /// Read-only; accepted so a form can send back what it loaded.
    pub updated_at: Option<String>,
    /// Read-only (from `[call_tracking]`); accepted so a form can send back
    /// what it loaded.
    pub phone_class: Option<String>,
    /// Read-only (from `[call_tracking]`); accepted likewise.
    pub call_tracking_script: Option<String>,
    /// Read-only (the salons); accepted likewise.
    #[schema(value_type = Option<Vec<crate::domain::salons::values::Salon>>)]
    pub salons: Option<serde_json::Value>,
}

/// A field that is present, even as null (`Some(None)`), unlike an absent
/// one (`None`, by `default`).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

impl SettingsPatch {
    /// Applies the patch and checks the settings form's rules.
    pub fn apply(self, to: &mut Settings) -> AppResult<()> {
        // E-mail rules apply to the fields this change sends.
        let email_sent = [
            self.email.is_some(),
            self.notification_email.is_some(),
            self.from_email.is_some(),
        ];
        let loaded_hours = to.public.work_schedule.lines();
        let p = &mut to.public;
        let b = &mut p.banners;
        let text_fields: [(&'static str, &str, Option<String>, &mut String, usize); 32] = [
            (
                "salonName",
                "Название салона",
                self.salon_name,
                &mut p.salon_name,
                255,
            ),
            ("phone", "Телефон", self.phone, &mut p.phone, 50),
            (
                "phoneSecondary",
                "Дополнительный телефон",
                self.phone_secondary,
                &mut p.phone_secondary,
                50,
            ),
            ("address", "Адрес", self.address, &mut p.address, 255),
            (
                "fullAddress",
                "Полный адрес",
                self.full_address,
                &mut p.full_address,
                500,
            ),
            ("email", "E-mail", self.email, &mut p.email, 255),
            (
                "heroTitle",
                "Заголовок",
                self.hero_title,
                &mut p.hero_title,
                255,
            ),
            (
                "heroSubtitle",
                "Подзаголовок",
                self.hero_subtitle,
                &mut p.hero_subtitle,
                500,
            ),
            (
                "favicon",
                "Иконка сайта (favicon)",
                self.favicon,
                &mut p.favicon,
                500,
            ),
            (
                "googleAnalyticsId",
                "Google Analytics ID",
                self.google_analytics_id,
                &mut p.google_analytics_id,
                50,
            ),
            (
                "yandexMetrikaId",
                "Яндекс Метрика ID",
                self.yandex_metrika_id,
                &mut p.yandex_metrika_id,
                50,
            ),
            (
                "operatorName",
                "Полное наименование оператора",
                self.operator_name,
                &mut p.operator_name,
                500,
            ),
            (
                "operatorInn",
                "ИНН оператора",
                self.operator_inn,
                &mut p.operator_inn,
                12,
            ),
            (
                "operatorOgrn",
                "ОГРН оператора",
                self.operator_ogrn,
                &mut p.operator_ogrn,
                15,
            ),
            (
                "operatorAddress",
                "Юридический адрес оператора",
                self.operator_address,
                &mut p.operator_address,
                500,
            ),
            (
                "notificationEmail",
                "Адрес для уведомлений",
                self.notification_email,
                &mut to.notification_email,
                255,
            ),
            (
                "telegramChatId",
                "Чат Telegram",
                self.telegram_chat_id,
                &mut to.telegram_chat_id,
                100,
            ),
            (
                "fromEmail",
                "Адрес отправителя",
                self.from_email,
                &mut to.from_email,
                255,
            ),
            (
                "consentText",
                "Текст согласия на обработку персональных данных",
                self.consent_text,
                &mut to.consent_text,
                50_000,
            ),
            (
                "privacyPolicy",
                "Политика конфиденциальности",
                self.privacy_policy,
                &mut to.privacy_policy,
                100_000,
            ),
            (
                "homeBanner",
                "Главная страница: баннер для компьютера",
                self.home_banner,
                &mut b.home_banner,
                500,
            ),
            (
                "homeBannerMobile",
                "Главная страница: баннер для телефона",
                self.home_banner_mobile,
                &mut b.home_banner_mobile,
                500,
            ),
            (
                "newCarsBanner",
                "Новые автомобили: баннер для компьютера",
                self.new_cars_banner,
                &mut b.new_cars_banner,
                500,
            ),
            (
                "newCarsBannerMobile",
                "Новые автомобили: баннер для телефона",
                self.new_cars_banner_mobile,
                &mut b.new_cars_banner_mobile,
                500,
            ),
            (
                "usedCarsBanner",
                "Автомобили с пробегом: баннер для компьютера",
                self.used_cars_banner,
                &mut b.used_cars_banner,
                500,
            ),
            (
                "usedCarsBannerMobile",
                "Автомобили с пробегом: баннер для телефона",
                self.used_cars_banner_mobile,
                &mut b.used_cars_banner_mobile,
                500,
            ),
            (
                "tradeInBanner",
                "Трейд-ин: баннер для компьютера",
                self.trade_in_banner,
                &mut b.trade_in_banner,
                500,
            ),
            (
                "tradeInBannerMobile",
                "Трейд-ин: баннер для телефона",
                self.trade_in_banner_mobile,
                &mut b.trade_in_banner_mobile,
                500,
            ),
            (
                "autoCreditBanner",
                "Автокредит: баннер для компьютера",
                self.auto_credit_banner,
                &mut b.auto_credit_banner,
                500,
            ),
            (
                "autoCreditBannerMobile",
                "Автокредит: баннер для телефона",
                self.auto_credit_banner_mobile,
                &mut b.auto_credit_banner_mobile,
                500,
            ),
            (
                "autoSelectionBanner",
                "Подбор авто: баннер для компьютера",
                self.auto_selection_banner,
                &mut b.auto_selection_banner,
                500,
            ),
            (
                "autoSelectionBannerMobile",
                "Подбор авто: баннер для телефона",
                self.auto_selection_banner_mobile,
                &mut b.auto_selection_banner_mobile,
                500,
            ),
        ];
        for (field, label, value, slot, max) in text_fields {
            if let Some(value) = value {
                let value = value.trim().to_string();
                crate::domain::check_len(field, label, &value, max)?;
                *slot = value;
            }
        }
        if let Some(schedule) = self.work_schedule {
            let schedule: WorkSchedule = serde_json::from_value(schedule).map_err(|_| {
                AppError::invalid(
                    crate::domain::hours::FIELD,
                    "График работы: семь дней с понедельника, у каждого время открытия и закрытия (ЧЧ:ММ) или «выходной»",
                )
            })?;
            schedule.validate()?;
            to.public.work_schedule = schedule;
        }
        to.public.working_hours = to.public.work_schedule.lines();
        if let Some(hours) = self.working_hours {
            let said = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
            if said(&hours) != said(&loaded_hours) && said(&hours) != said(&to.public.working_hours)
            {
                return Err(AppError::invalid("workingHours", HOURS_FROM_SCHEDULE));
            }
        }
        if self.latitude.is_some() || self.longitude.is_some() {
            let latitude = self.latitude.unwrap_or(to.public.latitude);
            let longitude = self.longitude.unwrap_or(to.public.longitude);
            crate::domain::salons::values::check_coordinates(latitude, longitude)?;
            to.public.latitude = latitude;
            to.public.longitude = longitude;
        }
        if let Some(recipients) = self.lead_recipients {
            to.lead_recipients = crate::domain::salons::values::check_recipients(recipients)?;
        }
        if let Some(enabled) = self.email_notifications_enabled {
            to.email_notifications_enabled = enabled;
        }
        if let Some(enabled) = self.google_analytics_enabled {
            to.google_analytics_enabled = enabled;
        }
        if let Some(marks) = self.banner_ads {
            to.public.banner_ads = crate::domain::ads::check_banner_ads(marks)?;
        }
        if let Some(years) = self.retention_years {
            if !(1..=10).contains(&years) {
                return Err(AppError::invalid(
                    RETENTION_YEARS_FIELD,
                    RETENTION_YEARS_RANGE,
                ));
            }
            to.retention_years = years;
        }
        if let Some(months) = self.cancelled_retention_months {
            if !(1..=36).contains(&months) {
                return Err(AppError::invalid(
                    CANCELLED_RETENTION_FIELD,
                    CANCELLED_RETENTION_RANGE,
                ));
            }
            to.cancelled_retention_months = months;
        }
        if let Some(limit) = self.visitor_mail_daily_limit {
            use crate::domain::mail_cap::{DAILY_LIMIT_MAX, DAILY_LIMIT_MIN};
            if !(DAILY_LIMIT_MIN..=DAILY_LIMIT_MAX).contains(&limit) {
                return Err(AppError::invalid(
                    crate::domain::mail_cap::DAILY_LIMIT_FIELD,
                    crate::domain::mail_cap::DAILY_LIMIT_RANGE,
                ));
            }
            to.visitor_mail_daily_limit = limit;
        }
        let ranges = [
            (
                self.quiet_car_days,
                3..=90,
                QUIET_DAYS_FIELD,
                QUIET_DAYS_RANGE,
                &mut to.quiet_car_days,
            ),
            (
                self.quiet_car_views,
                1..=100_000,
                QUIET_VIEWS_FIELD,
                QUIET_VIEWS_RANGE,
                &mut to.quiet_car_views,
            ),
        ];
        for (value, range, field, message, slot) in ranges {
            if let Some(value) = value {
                if !range.contains(&value) {
                    return Err(AppError::invalid(field, message));
                }
                *slot = value;
            }
        }
        if let Some(minutes) = self.response_threshold_minutes {
            if !(1..=480).contains(&minutes) {
                return Err(AppError::invalid(
                    RESPONSE_THRESHOLD_FIELD,
                    RESPONSE_THRESHOLD_RANGE,
                ));
            }
            to.response_threshold_minutes = minutes;
        }
        if let Some(rule) = self.lead_assignment {
            to.lead_assignment = AssignmentRule::parse(&rule).ok_or_else(|| {
                AppError::invalid(lead_assignment::FIELD, lead_assignment::UNKNOWN_RULE)
            })?;
        }
        let required = [
            (
                "salonName",
                &to.public.salon_name,
                "Название салона обязательно",
            ),
            ("phone", &to.public.phone, "Телефон обязателен"),
            ("address", &to.public.address, "Адрес обязателен"),
        ];
        for (field, value, message) in required {
            if value.is_empty() {
                return Err(AppError::invalid(field, message));
            }
        }
        check_operator(to)?;
        // email must be an e-mail; the notification addresses may be empty.
        let emails = [
            ("email", &to.public.email, false),
            ("notificationEmail", &to.notification_email, true),
            ("fromEmail", &to.from_email, true),
        ];
        for ((field, value, may_be_empty), sent) in emails.into_iter().zip(email_sent) {
            let fine = (value.is_empty() && may_be_empty) || crate::domain::leads::is_email(value);
            if sent && !fine {
                return Err(AppError::invalid(field, "Неверный формат email"));
            }
        }
        Ok(())
    }
}

/// Every field is optional here: the company form's required ones are
/// checked by [`SettingsPatch::apply`] and by the handler of the full form.
impl crate::domain::form::Form for SettingsPatch {
    const FIELDS: &'static [crate::domain::form::Field] = {
        use crate::domain::form::{Field, Kind};
        &[
            Field::optional("salonName", Kind::Text),
            Field::optional("phone", Kind::Text),
            Field::optional("phoneSecondary", Kind::Text),
            Field::optional("address", Kind::Text),
            Field::optional("fullAddress", Kind::Text),
            Field::optional("email", Kind::Text).invalid("Неверный формат email"),
            Field::optional("workingHours", Kind::Text).invalid(HOURS_FROM_SCHEDULE),
            Field::optional("workSchedule", Kind::List),
            Field::optional("heroTitle", Kind::Text),
            Field::optional("heroSubtitle", Kind::Text),
            Field::optional("favicon", Kind::Text),
            Field::optional("googleAnalyticsId", Kind::Text),
            Field::optional("yandexMetrikaId", Kind::Text),
            Field::optional("notificationEmail", Kind::Text).invalid("Неверный формат email"),
            Field::optional("telegramChatId", Kind::Text),
            Field::optional("leadRecipients", Kind::List),
            Field::optional("latitude", Kind::Number),
            Field::optional("longitude", Kind::Number),
            Field::optional("salons", Kind::List),
            Field::optional("fromEmail", Kind::Text).invalid("Неверный формат email"),
            Field::optional("emailNotificationsEnabled", Kind::Bool),
            Field::optional("consentText", Kind::Text),
            Field::optional("privacyPolicy", Kind::Text),
            Field::optional("responseThresholdMinutes", Kind::Integer)
                .invalid(RESPONSE_THRESHOLD_RANGE),
            Field::optional("visitorMailDailyLimit", Kind::Integer)
                .invalid(crate::domain::mail_cap::DAILY_LIMIT_RANGE),
            Field::optional("quietCarDays", Kind::Integer).invalid(QUIET_DAYS_RANGE),
            Field::optional("quietCarViews", Kind::Integer).invalid(QUIET_VIEWS_RANGE),
            Field::optional("leadAssignment", Kind::Code).invalid(lead_assignment::UNKNOWN_RULE),
            Field::optional("operatorName", Kind::Text),
            Field::optional("operatorInn", Kind::Text).invalid(BAD_INN),
            Field::optional("operatorOgrn", Kind::Text).invalid(BAD_OGRN),
            Field::optional("operatorAddress", Kind::Text),
            Field::optional("googleAnalyticsEnabled", Kind::Bool),
            Field::optional("homeBanner", Kind::Text),
            Field::optional("homeBannerMobile", Kind::Text),
            Field::optional("newCarsBanner", Kind::Text),
            Field::optional("newCarsBannerMobile", Kind::Text),
            Field::optional("usedCarsBanner", Kind::Text),
            Field::optional("usedCarsBannerMobile", Kind::Text),
            Field::optional("tradeInBanner", Kind::Text),
            Field::optional("tradeInBannerMobile", Kind::Text),
            Field::optional("autoCreditBanner", Kind::Text),
            Field::optional("autoCreditBannerMobile", Kind::Text),
            Field::optional("autoSelectionBanner", Kind::Text),
            Field::optional("autoSelectionBannerMobile", Kind::Text),
            Field::optional("consentVersion", Kind::Integer),
            Field::optional("updatedAt", Kind::Text),
            Field::optional("phoneClass", Kind::Text),
            Field::optional("callTrackingScript", Kind::Text),
        ]
    };
}

/// Checks the operator fields the settings hold (empty is allowed: the
/// self-check flags it).
fn check_operator(settings: &Settings) -> AppResult<()> {
    let inn = &settings.public.operator_inn;
    if !inn.is_empty() && !is_inn(inn) {
        return Err(AppError::invalid("operatorInn", BAD_INN));
    }
    let ogrn = &settings.public.operator_ogrn;
    if !ogrn.is_empty() && !is_ogrn(ogrn) {
        return Err(AppError::invalid("operatorOgrn", BAD_OGRN));
    }
    Ok(())
}
