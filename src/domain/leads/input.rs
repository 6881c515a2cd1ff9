//! A lead's form: what a visitor sends ([`LeadInput`]) and its rules, every
//! field checked (names, phone, e-mail, amounts, a test drive's day and
//! time, control characters) into a [`ValidLead`].

use super::lead::{CAR_MILEAGE_MAX, CAR_YEAR_MIN, CONSENT_REQUIRED, Lead, LeadStatus, LeadType};
use crate::domain::hours::WorkSchedule;
use crate::domain::money::Money;
use crate::domain::{check_len, phone};
use crate::error::{AppError, AppResult};
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveTime};
use serde::Deserialize;
use utoipa::ToSchema;

/// What a visitor's form sends. Id, status and dates are the server's.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LeadInput {
    #[serde(rename = "type")]
    #[schema(value_type = String)]
    pub lead_type: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub desired_amount: Option<Money>,
    #[serde(default)]
    pub monthly_income: Option<Money>,
    #[serde(default)]
    pub car_brand: Option<String>,
    #[serde(default)]
    pub car_model: Option<String>,
    #[serde(default)]
    pub car_year: Option<i32>,
    #[serde(default)]
    pub car_mileage: Option<i64>,
    #[serde(default)]
    pub car_condition: Option<String>,
    #[serde(default)]
    pub budget: Option<Money>,
    #[serde(default)]
    pub preferred_brand: Option<String>,
    #[serde(default)]
    pub body_type: Option<String>,
    #[serde(default)]
    pub transmission: Option<String>,
    #[serde(default)]
    pub fuel_types: Option<String>,
    #[serde(default)]
    pub source_url: Option<String>,
    #[serde(default)]
    pub car_id: Option<String>,
    #[serde(default)]
    pub car_info: Option<String>,
    #[serde(default)]
    pub car_price: Option<String>,
    #[serde(default)]
    pub car_status: Option<String>,
    /// Consent to personal data processing: must be true.
    #[serde(default)]
    pub consent: bool,
    /// Optional consent to advertising contact.
    #[serde(default)]
    pub advertising_consent: bool,
    #[serde(default)]
    pub utm_source: Option<String>,
    #[serde(default)]
    pub utm_medium: Option<String>,
    #[serde(default)]
    pub utm_campaign: Option<String>,
    #[serde(default)]
    pub utm_term: Option<String>,
    #[serde(default)]
    pub utm_content: Option<String>,
    /// Google Analytics or Yandex Metrika client id.
    #[serde(default)]
    pub analytics_client_id: Option<String>,
    /// Test drive (required there): the day, "YYYY-MM-DD", Moscow date.
    #[serde(default)]
    pub preferred_date: Option<String>,
    /// Test drive (required there): a slot start, "HH:MM", Moscow time;
    /// slots every 30 minutes within the working hours.
    #[serde(default)]
    pub preferred_time: Option<String>,
    /// Credit: the term chosen in the calculator, 1..=360 months.
    #[serde(default)]
    pub term_months: Option<i64>,
    /// Credit: the down payment chosen in the calculator.
    #[serde(default)]
    pub down_payment: Option<Money>,
    /// The salon the visitor chose on a general form (`docs/salons.md`); a
    /// lead about a car goes to the car's salon whatever this says.
    #[serde(default)]
    pub salon_id: Option<i64>,
    /// Honeypot: hidden from people; a filled one marks a bot.
    #[serde(default)]
    pub website: Option<String>,
}

/// The message a form shows when name or phone is empty.
pub(super) fn required_message(lead_type: LeadType) -> &'static str {
    match lead_type {
        LeadType::LeaseBooking => "Пожалуйста, заполните все поля",
        LeadType::AutoSelection => "Пожалуйста, заполните все обязательные поля",
        _ => "Пожалуйста, заполните обязательные поля",
    }
}

/// A lead that passed validation, ready to store.
pub struct ValidLead {
    pub(super) lead: Lead,
}

impl ValidLead {
    /// The lead placed in a salon (None: the main).
    pub fn in_salon(&mut self, salon: Option<i64>) {
        self.lead.salon_id = salon;
    }
}

impl LeadInput {
    pub fn is_bot(&self) -> bool {
        self.website
            .as_deref()
            .is_some_and(|w| !w.trim().is_empty())
    }

    /// Checks every field and normalises the phone. `consent_version`,
    /// `ip` and `current_year` come from the server; a test drive is checked
    /// against the default working schedule and the real clock
    /// ([`LeadInput::validate_at`] takes the salon's).
    pub fn validate(
        self,
        consent_version: i64,
        ip: &str,
        current_year: i32,
    ) -> AppResult<ValidLead> {
        let now = chrono::Utc::now().with_timezone(&crate::clock::moscow());
        self.check(
            consent_version,
            ip,
            current_year,
            now,
            &WorkSchedule::default(),
        )
    }

    /// [`LeadInput::validate`] at the moment `now` (Moscow time) with the
    /// salon's working schedule, which a test drive's day and time must
    /// fit (`docs/leads.md`).
    pub fn validate_at(
        self,
        consent_version: i64,
        ip: &str,
        now: DateTime<FixedOffset>,
        schedule: &WorkSchedule,
    ) -> AppResult<ValidLead> {
        self.check(consent_version, ip, now.year(), now, schedule)
    }

    pub(super) fn check(
        self,
        consent_version: i64,
        ip: &str,
        current_year: i32,
        now: DateTime<FixedOffset>,
        schedule: &WorkSchedule,
    ) -> AppResult<ValidLead> {
        let lead_type = match self.lead_type.as_deref() {
            None | Some("") => return Err(AppError::invalid("type", "Не указан тип заявки")),
            // A call is made a lead by the call providers' and the
            // marketplaces' jobs, never by a form.
            Some(code) => LeadType::parse(code)
                .filter(|t| !t.is_call())
                .ok_or_else(|| AppError::invalid("type", "Неизвестный тип заявки"))?,
        };
        self.check_controls()?;
        let name = non_empty(self.name);
        let phone_raw = non_empty(self.phone);
        let missing = required_message(lead_type);
        let Some(name) = name else {
            return Err(AppError::invalid("name", missing));
        };
        let Some(phone_raw) = phone_raw else {
            return Err(AppError::invalid("phone", missing));
        };
        check_len("name", "Имя", &name, 255)?;
        check_len("phone", "Телефон", &phone_raw, 50)?;
        let phone = phone::normalize(&phone_raw)
            .ok_or_else(|| AppError::invalid("phone", phone::PHONE_RULE_MESSAGE))?;
        let email = non_empty(self.email);
        if let Some(email) = &email {
            check_len("email", "E-mail", email, 255)?;
            if !is_email(email) {
                return Err(AppError::invalid("email", "Неверный формат email"));
            }
        }
        if !self.consent {
            return Err(AppError::invalid("consent", CONSENT_REQUIRED));
        }
        let slot = if lead_type == LeadType::TestDrive {
            if non_empty(self.car_id.clone()).is_none() {
                return Err(AppError::invalid("carId", "Выберите автомобиль"));
            }
            let (date, time) = test_drive_slot(
                self.preferred_date.as_deref(),
                self.preferred_time.as_deref(),
                now,
                schedule,
            )?;
            Some((
                date.format("%Y-%m-%d").to_string(),
                crate::domain::hours::format_time(time),
            ))
        } else {
            None
        };
        if let Some(term) = self.term_months
            && !(1..=360).contains(&term)
        {
            return Err(AppError::invalid("termMonths", TERM_RANGE));
        }
        let texts = [
            ("message", "Комментарий", &self.message, 5000),
            ("carBrand", "Марка автомобиля", &self.car_brand, 100),
            ("carModel", "Модель автомобиля", &self.car_model, 100),
            (
                "carCondition",
                "Состояние автомобиля",
                &self.car_condition,
                50,
            ),
            (
                "preferredBrand",
                "Предпочитаемая марка",
                &self.preferred_brand,
                100,
            ),
            ("bodyType", "Тип кузова", &self.body_type, 50),
            ("transmission", "Коробка передач", &self.transmission, 50),
            ("fuelTypes", "Топливо", &self.fuel_types, 100),
            ("sourceUrl", "Страница заявки", &self.source_url, 500),
            ("carId", "Автомобиль", &self.car_id, 64),
            ("carInfo", "Автомобиль", &self.car_info, 255),
            ("carPrice", "Цена автомобиля", &self.car_price, 100),
            ("carStatus", "Статус автомобиля", &self.car_status, 50),
            ("utmSource", "Метка UTM: источник", &self.utm_source, 255),
            ("utmMedium", "Метка UTM: канал", &self.utm_medium, 255),
            (
                "utmCampaign",
                "Метка UTM: кампания",
                &self.utm_campaign,
                255,
            ),
            ("utmTerm", "Метка UTM: ключевое слово", &self.utm_term, 255),
            (
                "utmContent",
                "Метка UTM: объявление",
                &self.utm_content,
                255,
            ),
            (
                "analyticsClientId",
                "Идентификатор посетителя в аналитике",
                &self.analytics_client_id,
                100,
            ),
        ];
        for (field, label, value, max) in texts {
            if let Some(value) = value {
                check_len(field, label, value, max)?;
            }
        }
        if let Some(year) = self.car_year
            && !(CAR_YEAR_MIN..=current_year + 1).contains(&year)
        {
            return Err(AppError::invalid(
                "carYear",
                format!(
                    "Год выпуска должен быть от {CAR_YEAR_MIN} до {}",
                    current_year + 1
                ),
            ));
        }
        if let Some(mileage) = self.car_mileage
            && !(0..=CAR_MILEAGE_MAX).contains(&mileage)
        {
            return Err(AppError::invalid("carMileage", "Пробег указан неверно"));
        }
        for (field, amount) in [
            ("desiredAmount", self.desired_amount),
            ("monthlyIncome", self.monthly_income),
            ("budget", self.budget),
            ("downPayment", self.down_payment),
        ] {
            if amount.is_some_and(|m| m > crate::domain::money::MAX_DECIMAL_12_2) {
                return Err(AppError::invalid(field, "Сумма слишком большая"));
            }
        }
        let credit = lead_type == LeadType::AutoCredit;
        let (preferred_date, preferred_time) = slot.unzip();
        // The moment of the server's clock (`crate::clock`): a lead's
        // response time counts from it (docs/response-times.md).
        let now = now
            .with_timezone(&chrono::Utc)
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        Ok(ValidLead {
            lead: Lead {
                id: crate::domain::new_ordered_id(),
                lead_type,
                status: LeadStatus::New,
                name,
                phone,
                email,
                message: non_empty(self.message),
                desired_amount: self.desired_amount,
                monthly_income: self.monthly_income,
                car_brand: non_empty(self.car_brand),
                car_model: non_empty(self.car_model),
                car_year: self.car_year,
                car_mileage: self.car_mileage,
                car_condition: non_empty(self.car_condition),
                budget: self.budget,
                preferred_brand: non_empty(self.preferred_brand),
                body_type: non_empty(self.body_type),
                transmission: non_empty(self.transmission),
                fuel_types: non_empty(self.fuel_types),
                source_url: non_empty(self.source_url),
                car_id: non_empty(self.car_id),
                car_info: non_empty(self.car_info),
                car_price: non_empty(self.car_price),
                car_status: non_empty(self.car_status),
                consent_version,
                consent_at: now.clone(),
                consent_ip: ip.chars().take(64).collect(),
                advertising_consent: self.advertising_consent,
                utm_source: non_empty(self.utm_source),
                utm_medium: non_empty(self.utm_medium),
                utm_campaign: non_empty(self.utm_campaign),
                utm_term: non_empty(self.utm_term),
                utm_content: non_empty(self.utm_content),
                analytics_client_id: non_empty(self.analytics_client_id),
                amocrm_lead_id: None,
                preferred_date,
                preferred_time,
                term_months: self.term_months.filter(|_| credit),
                down_payment: self.down_payment.filter(|_| credit),
                created_at: now.clone(),
                updated_at: now,
                assignee_id: None,
                assignee_name: None,
                assigned_at: None,
                salon_id: None,
                callback_state: None,
                callback_detail: None,
                callback_at: None,
            },
        })
    }
}

impl LeadInput {
    /// Refuses control characters in every text field: none at all in a
    /// one-line field, only line breaks (LF, CRLF) in `message`
    /// (docs/leads.md).
    pub(super) fn check_controls(&self) -> AppResult<()> {
        if let Some(message) = &self.message
            && has_control(message, true)
        {
            return Err(AppError::invalid("message", CONTROL_IN_MESSAGE));
        }
        let one_line = [
            ("name", &self.name),
            ("phone", &self.phone),
            ("email", &self.email),
            ("carBrand", &self.car_brand),
            ("carModel", &self.car_model),
            ("carCondition", &self.car_condition),
            ("preferredBrand", &self.preferred_brand),
            ("bodyType", &self.body_type),
            ("transmission", &self.transmission),
            ("fuelTypes", &self.fuel_types),
            ("sourceUrl", &self.source_url),
            ("carId", &self.car_id),
            ("carInfo", &self.car_info),
            ("carPrice", &self.car_price),
            ("carStatus", &self.car_status),
            ("utmSource", &self.utm_source),
            ("utmMedium", &self.utm_medium),
            ("utmCampaign", &self.utm_campaign),
            ("utmTerm", &self.utm_term),
            ("utmContent", &self.utm_content),
            ("analyticsClientId", &self.analytics_client_id),
            ("preferredDate", &self.preferred_date),
            ("preferredTime", &self.preferred_time),
        ];
        for (field, value) in one_line {
            if value.as_deref().is_some_and(|v| has_control(v, false)) {
                return Err(AppError::invalid(field, control_in_line(field)));
            }
        }
        Ok(())
    }
}

pub const TERM_RANGE: &str = "Срок кредита: от 1 до 360 месяцев";
pub const NO_DATE: &str = "Выберите дату тест-драйва";
pub const PAST_DATE: &str = "Дата тест-драйва уже прошла";
pub const TOO_FAR: &str = "Запись возможна не более чем на 60 дней вперёд";
pub const CLOSED_DAY: &str = "В этот день салон не работает";
pub const PAST_TIME: &str = "Это время уже прошло";
/// How far ahead a test drive may be booked, in days.
pub const TEST_DRIVE_DAYS_AHEAD: i64 = 60;

/// The day and slot of a test drive, checked against the schedule at the
/// moment `now` (Moscow time): a day from today to 60 days ahead on which
/// the salon works, a slot start of that day not yet begun.
pub fn test_drive_slot(
    date: Option<&str>,
    time: Option<&str>,
    now: DateTime<FixedOffset>,
    schedule: &WorkSchedule,
) -> AppResult<(NaiveDate, NaiveTime)> {
    let date = date
        .map(str::trim)
        .and_then(crate::domain::hours::parse_date)
        .ok_or_else(|| AppError::invalid("preferredDate", NO_DATE))?;
    let today = now.date_naive();
    if date < today {
        return Err(AppError::invalid("preferredDate", PAST_DATE));
    }
    if (date - today).num_days() > TEST_DRIVE_DAYS_AHEAD {
        return Err(AppError::invalid("preferredDate", TOO_FAR));
    }
    let Some((first, last)) = schedule.slot_range(date) else {
        return Err(AppError::invalid("preferredDate", CLOSED_DAY));
    };
    let outside = || {
        AppError::invalid(
            "preferredTime",
            format!(
                "Выберите время с {} до {}",
                crate::domain::hours::format_time(first),
                crate::domain::hours::format_time(last)
            ),
        )
    };
    let time = time
        .map(str::trim)
        .and_then(crate::domain::hours::parse_time)
        .ok_or_else(outside)?;
    if !schedule.slots(date).contains(&time) {
        return Err(outside());
    }
    if date == today && time <= now.time() {
        return Err(AppError::invalid("preferredTime", PAST_TIME));
    }
    Ok((date, time))
}

/// The message for a control character in `message`.
pub const CONTROL_IN_MESSAGE: &str =
    "Поле message содержит недопустимые управляющие символы: допускаются только переносы строк";

/// The message for a control character in a one-line field.
pub fn control_in_line(field: &str) -> String {
    format!(
        "Поле {field} содержит недопустимые символы: переносы строк и управляющие символы не допускаются"
    )
}

/// Whether a text holds a control character (C0, DEL, C1) or, in a
/// one-line text, a line or paragraph separator. A multi-line text may
/// hold LF and CR LF, not a lone CR.
pub(super) fn has_control(value: &str, multi_line: bool) -> bool {
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        let refused = match c {
            '\n' => !multi_line,
            '\r' => !(multi_line && chars.peek() == Some(&'\n')),
            '\u{2028}' | '\u{2029}' => !multi_line,
            c => c.is_control(),
        };
        if refused {
            return true;
        }
    }
    false
}

/// Characters that show nothing: whitespace (NBSP included) and the
/// invisible format characters (zero-width spaces and joiners, BOM, word
/// joiner, direction marks, soft hyphen, fillers, variation selectors).
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}'
            | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E007F}')
}

/// A text without the invisible characters around it; `None` when nothing
/// visible is left, so a name of only spaces or zero-width characters
/// counts as empty.
pub(super) fn non_empty(value: Option<String>) -> Option<String> {
    value
        .map(|v| v.trim_matches(is_invisible).to_string())
        .filter(|v| !v.is_empty())
}

impl ValidLead {
    /// The lead as it would be stored, for answering a bot without storing.
    pub fn into_unsaved(self) -> Lead {
        self.lead
    }
}

/// A plain e-mail check: one @, a dot in the domain, no spaces.
pub fn is_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !value.chars().any(char::is_whitespace)
}
