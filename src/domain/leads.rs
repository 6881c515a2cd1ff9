//! Requests from visitors. A lead is stored before anything else happens
//! (notifications come later through the outbox), so nothing accepted is lost.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveTime};

use super::hours::WorkSchedule;
use super::money::Money;
use super::{check_len, phone, text_enum};
use crate::error::{AppError, AppResult};

text_enum!(
    /// contact_form is shown as an instalment request.
    LeadType {
        AutoCredit = "auto_credit",
        TradeIn = "trade_in",
        AutoSelection = "auto_selection",
        LeaseBooking = "lease_booking",
        ContactForm = "contact_form",
        TestDrive = "test_drive",
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
}

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
    /// Honeypot: hidden from people; a filled one marks a bot.
    #[serde(default)]
    pub website: Option<String>,
}

pub const CONSENT_REQUIRED: &str = "Необходимо согласие на обработку персональных данных";

/// The message a form shows when name or phone is empty.
fn required_message(lead_type: LeadType) -> &'static str {
    match lead_type {
        LeadType::LeaseBooking => "Пожалуйста, заполните все поля",
        LeadType::AutoSelection => "Пожалуйста, заполните все обязательные поля",
        _ => "Пожалуйста, заполните обязательные поля",
    }
}

/// A lead that passed validation, ready to store.
pub struct ValidLead {
    lead: Lead,
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

    fn check(
        self,
        consent_version: i64,
        ip: &str,
        current_year: i32,
        now: DateTime<FixedOffset>,
        schedule: &WorkSchedule,
    ) -> AppResult<ValidLead> {
        let lead_type = match self.lead_type.as_deref() {
            None | Some("") => return Err(AppError::invalid("type", "Не указан тип заявки")),
            Some(code) => LeadType::parse(code)
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
            check_len("email", "Email", email, 255)?;
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
                super::hours::format_time(time),
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
            if amount.is_some_and(|m| m > super::money::MAX_DECIMAL_12_2) {
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
                id: super::new_ordered_id(),
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
            },
        })
    }
}

impl LeadInput {
    /// Refuses control characters in every text field: none at all in a
    /// one-line field, only line breaks (LF, CRLF) in `message`
    /// (docs/leads.md).
    fn check_controls(&self) -> AppResult<()> {
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
        .and_then(super::hours::parse_date)
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
                super::hours::format_time(first),
                super::hours::format_time(last)
            ),
        )
    };
    let time = time
        .map(str::trim)
        .and_then(super::hours::parse_time)
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
fn has_control(value: &str, multi_line: bool) -> bool {
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
fn non_empty(value: Option<String>) -> Option<String> {
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
            preferred_time, term_months, down_payment_kopecks)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
            ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35,
            ?36, ?37, ?38, ?39, ?40)",
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
    ])?;
    Ok(lead)
}

const SELECT: &str = "SELECT id, type, status, name, phone, email, message, desired_amount_kopecks,
    monthly_income_kopecks, car_brand, car_model, car_year, car_mileage, car_condition,
    budget_kopecks, preferred_brand, body_type, transmission, fuel_types, source_url, car_id,
    car_info, car_price, car_status, consent_version, consent_at, consent_ip, advertising_consent,
    utm_source, utm_medium, utm_campaign, utm_term, utm_content, analytics_client_id, amocrm_lead_id,
    preferred_date, preferred_time, term_months, down_payment_kopecks, created_at, updated_at,
    assignee_id, assigned_at,
    (SELECT CASE WHEN u.display_name <> '' THEN u.display_name ELSE u.username END
     FROM users u WHERE u.id = leads.assignee_id) AS assignee_name
    FROM leads";

fn from_row(row: &Row) -> rusqlite::Result<Lead> {
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
    /// A manager's view: their own and the unassigned.
    OwnAndUnassigned(String),
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
    // ?5: 0 all, 1 of ?6, 2 nobody's, 3 ?6's and nobody's.
    let (scope, user) = match assignees {
        Assignees::All => (0, None),
        Assignees::Of(id) => (1, Some(id.as_str())),
        Assignees::Nobody => (2, None),
        Assignees::OwnAndUnassigned(id) => (3, Some(id.as_str())),
    };
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE (?1 IS NULL OR status = ?1) AND (?2 IS NULL OR type = ?2)
           AND (?5 = 0
                OR (?5 = 1 AND assignee_id = ?6)
                OR (?5 = 2 AND assignee_id IS NULL)
                OR (?5 = 3 AND (assignee_id = ?6 OR assignee_id IS NULL)))
         ORDER BY created_at DESC, id LIMIT ?3 OFFSET ?4"
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
        params![id, assignee, super::now()],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    get(conn, id)
}

pub fn count(conn: &Connection) -> AppResult<i64> {
    Ok(conn.query_row("SELECT count(*) FROM leads", [], |r| r.get(0))?)
}

pub fn set_status(conn: &Connection, id: &str, status: LeadStatus) -> AppResult<Option<Lead>> {
    let changed = conn.execute(
        "UPDATE leads SET status = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, status, super::now()],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    get(conn, id)
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

/// Lead counters of the admin: (total, new, in progress, created since `since`).
pub fn counters(conn: &Connection, since: &str) -> AppResult<(i64, i64, i64, i64)> {
    Ok(conn.query_row(
        "SELECT count(*), coalesce(sum(status = 'new'), 0), coalesce(sum(status = 'in_progress'), 0),
            coalesce(sum(created_at >= ?1), 0)
         FROM leads",
        [since],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert!(is_email("a@b.ru"));
        assert!(!is_email("a@b"));
        assert!(!is_email("a b@c.ru"));
        assert!(!is_email("@c.ru"));
        assert!(!is_email("a@@c.ru"));
    }
}
