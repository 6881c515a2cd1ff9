//! The salons of one install (`docs/salons.md`): the main salon is the
//! settings' own (id 1: its name, phones, address, hours and operator are
//! the settings'), each further salon a row of `salons`. A car, a lead, an
//! import feed and a staff member name their salon; none names the main.
//! A single-salon install has only the main salon and shows nothing of this.

pub mod values;

pub use values::*;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::hours::WorkSchedule;
use super::leads::LeadType;
use super::operator_ids::{BAD_INN, BAD_OGRN, is_inn, is_ogrn};
use super::settings::Settings;
use crate::error::{AppError, AppResult};

/// The main salon's id: the settings' salon.
pub const MAIN: i64 = 1;
/// The most salons an install holds (a dealer group has two to five).
pub const MAX_SALONS: usize = 50;

pub const NAME_REQUIRED: &str = "Название салона обязательно";
pub const SALON_HAS_CARS: &str =
    "В салоне есть автомобили: переведите их в другой салон, затем удалите салон";
pub const MAIN_STAYS: &str = "Основной салон не удаляется: его данные — настройки компании";
pub const TOO_MANY: &str = "Салонов не больше 50";

/// A salon as the admin edits it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SalonRecord {
    #[serde(flatten)]
    pub salon: Salon,
    /// Where its leads are announced (several addresses by commas); empty:
    /// the main salon's.
    pub notification_email: String,
    /// Its Telegram chat; empty: the main salon's (or `[telegram] chat_id`).
    pub telegram_chat_id: String,
    /// Other recipients for some lead types.
    pub lead_recipients: LeadRecipients,
    /// Its own operator of personal data when it is a separate company;
    /// empty: the main salon's.
    pub operator_name: String,
    pub operator_inn: String,
    pub operator_ogrn: String,
    pub operator_address: String,
    /// The main salon (its facts are the company settings).
    pub main: bool,
    /// Its cars, published or not.
    pub cars: i64,
}

/// A salon as the admin form sends it; read-only fields it loaded are
/// accepted and ignored.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SalonInput {
    pub name: String,
    #[serde(default)]
    pub address: String,
    #[serde(default)]
    pub full_address: String,
    #[serde(default)]
    pub latitude: Option<f64>,
    #[serde(default)]
    pub longitude: Option<f64>,
    #[serde(default)]
    pub phone: String,
    #[serde(default)]
    pub phone_secondary: String,
    #[serde(default)]
    pub phone_class: String,
    #[serde(default)]
    pub email: String,
    /// Absent: every day 09:00–21:00.
    #[serde(default)]
    pub work_schedule: Option<WorkSchedule>,
    #[serde(default)]
    pub notification_email: String,
    #[serde(default)]
    pub telegram_chat_id: String,
    #[serde(default)]
    pub lead_recipients: LeadRecipients,
    #[serde(default)]
    pub operator_name: String,
    #[serde(default)]
    pub operator_inn: String,
    #[serde(default)]
    pub operator_ogrn: String,
    #[serde(default)]
    pub operator_address: String,
    /// Read-only.
    #[serde(default)]
    pub id: Option<i64>,
    /// Read-only.
    #[serde(default)]
    pub working_hours: Option<String>,
    /// Read-only.
    #[serde(default)]
    pub main: Option<bool>,
    /// Read-only.
    #[serde(default)]
    pub cars: Option<i64>,
}

impl SalonInput {
    /// The input checked and trimmed.
    fn checked(mut self) -> AppResult<SalonInput> {
        let texts: [(&str, &str, &mut String, usize); 12] = [
            ("name", "Название салона", &mut self.name, 255),
            ("address", "Адрес", &mut self.address, 255),
            ("fullAddress", "Полный адрес", &mut self.full_address, 500),
            ("phone", "Телефон", &mut self.phone, 50),
            (
                "phoneSecondary",
                "Дополнительный телефон",
                &mut self.phone_secondary,
                50,
            ),
            ("phoneClass", "Класс номеров", &mut self.phone_class, 100),
            ("email", "E-mail", &mut self.email, 255),
            (
                "notificationEmail",
                "Адрес для уведомлений",
                &mut self.notification_email,
                255,
            ),
            (
                "telegramChatId",
                "Чат Telegram",
                &mut self.telegram_chat_id,
                100,
            ),
            (
                "operatorName",
                "Полное наименование оператора",
                &mut self.operator_name,
                500,
            ),
            (
                "operatorAddress",
                "Юридический адрес оператора",
                &mut self.operator_address,
                500,
            ),
            ("operatorInn", "ИНН оператора", &mut self.operator_inn, 12),
        ];
        for (field, label, value, max) in texts {
            *value = value.trim().to_string();
            super::check_len(field, label, value, max)?;
        }
        self.operator_ogrn = self.operator_ogrn.trim().to_string();
        if self.name.is_empty() {
            return Err(AppError::invalid("name", NAME_REQUIRED));
        }
        if !self
            .phone_class
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(AppError::invalid(
                "phoneClass",
                "Класс номеров: латинские буквы, цифры, дефис и подчёркивание",
            ));
        }
        check_coordinates(self.latitude, self.longitude)?;
        if !self.email.is_empty() && !super::leads::is_email(&self.email) {
            return Err(AppError::invalid("email", BAD_EMAIL));
        }
        if !emails_fine(&self.notification_email) {
            return Err(AppError::invalid("notificationEmail", BAD_EMAIL));
        }
        if !self.operator_inn.is_empty() && !is_inn(&self.operator_inn) {
            return Err(AppError::invalid("operatorInn", BAD_INN));
        }
        if !self.operator_ogrn.is_empty() && !is_ogrn(&self.operator_ogrn) {
            return Err(AppError::invalid("operatorOgrn", BAD_OGRN));
        }
        if let Some(schedule) = &self.work_schedule {
            schedule.validate()?;
        }
        self.lead_recipients = check_recipients(std::mem::take(&mut self.lead_recipients))?;
        Ok(self)
    }
}

/// The main salon, from the settings.
pub fn main_salon(settings: &Settings, phone_class: &str) -> SalonRecord {
    let p = &settings.public;
    SalonRecord {
        salon: Salon {
            id: MAIN,
            name: p.salon_name.clone(),
            address: p.address.clone(),
            full_address: p.full_address.clone(),
            latitude: p.latitude,
            longitude: p.longitude,
            phone: p.phone.clone(),
            phone_secondary: p.phone_secondary.clone(),
            phone_class: phone_class.to_string(),
            email: p.email.clone(),
            work_schedule: p.work_schedule.clone(),
            working_hours: p.work_schedule.lines(),
        },
        notification_email: settings.notification_email.clone(),
        telegram_chat_id: settings.telegram_chat_id.clone(),
        lead_recipients: settings.lead_recipients.clone(),
        operator_name: p.operator_name.clone(),
        operator_inn: p.operator_inn.clone(),
        operator_ogrn: p.operator_ogrn.clone(),
        operator_address: p.operator_address.clone(),
        main: true,
        cars: 0,
    }
}

const SELECT: &str = "SELECT s.id, s.name, s.address, s.full_address, s.latitude, s.longitude,
    s.phone, s.phone_secondary, s.phone_class, s.email, s.work_schedule, s.notification_email,
    s.telegram_chat_id, s.lead_recipients, s.operator_name, s.operator_inn, s.operator_ogrn,
    s.operator_address, (SELECT count(*) FROM cars c WHERE c.salon_id = s.id)
    FROM salons s";

fn from_row(r: &Row) -> rusqlite::Result<SalonRecord> {
    let schedule: WorkSchedule = super::json_column(&r.get::<_, String>(10)?);
    Ok(SalonRecord {
        salon: Salon {
            id: r.get(0)?,
            name: r.get(1)?,
            address: r.get(2)?,
            full_address: r.get(3)?,
            latitude: r.get(4)?,
            longitude: r.get(5)?,
            phone: r.get(6)?,
            phone_secondary: r.get(7)?,
            phone_class: r.get(8)?,
            email: r.get(9)?,
            working_hours: schedule.lines(),
            work_schedule: schedule,
        },
        notification_email: r.get(11)?,
        telegram_chat_id: r.get(12)?,
        lead_recipients: super::json_column(&r.get::<_, String>(13)?),
        operator_name: r.get(14)?,
        operator_inn: r.get(15)?,
        operator_ogrn: r.get(16)?,
        operator_address: r.get(17)?,
        main: false,
        cars: r.get(18)?,
    })
}

/// The further salons (not the main), in their order.
pub fn others(conn: &Connection) -> AppResult<Vec<SalonRecord>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} ORDER BY s.position, s.id"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether the install has salons beyond the main one.
pub fn several(conn: &Connection) -> AppResult<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM salons LIMIT 1")?
        .query_row([], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Every salon, the main first, with its cars counted.
pub fn all(
    conn: &Connection,
    settings: &Settings,
    phone_class: &str,
) -> AppResult<Vec<SalonRecord>> {
    let mut main = main_salon(settings, phone_class);
    main.cars = conn
        .prepare_cached("SELECT count(*) FROM cars WHERE salon_id IS NULL")?
        .query_row([], |r| r.get(0))?;
    let mut out = vec![main];
    out.extend(others(conn)?);
    Ok(out)
}

/// The salons visitors see: none while the main is the only one (nothing
/// changes for a single salon), else all of them, the main first.
pub fn public(conn: &Connection, settings: &Settings, phone_class: &str) -> AppResult<Vec<Salon>> {
    let others = others(conn)?;
    if others.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = vec![main_salon(settings, phone_class).salon];
    out.extend(others.into_iter().map(|s| s.salon));
    Ok(out)
}

/// One salon, the main from the settings; none for an unknown id.
pub fn get(
    conn: &Connection,
    settings: &Settings,
    phone_class: &str,
    id: i64,
) -> AppResult<Option<SalonRecord>> {
    if id == MAIN {
        return Ok(all(conn, settings, phone_class)?.into_iter().next());
    }
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE s.id = ?1"))?
        .query_row([id], from_row)
        .optional()?)
}

/// Whether `id` names a salon (the main, or a row).
pub fn exists(conn: &Connection, id: i64) -> AppResult<bool> {
    if id == MAIN {
        return Ok(true);
    }
    Ok(conn
        .prepare_cached("SELECT 1 FROM salons WHERE id = ?1")?
        .query_row([id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The stored form of a salon id: NULL for the main.
pub fn column(id: i64) -> Option<i64> {
    (id != MAIN).then_some(id)
}

/// A salon id from its stored form.
pub fn of_column(id: Option<i64>) -> i64 {
    id.unwrap_or(MAIN)
}

/// Adds a further salon.
pub fn create(conn: &Connection, input: SalonInput) -> AppResult<SalonRecord> {
    let input = input.checked()?;
    if others(conn)?.len() + 1 >= MAX_SALONS {
        return Err(AppError::invalid("name", TOO_MANY));
    }
    let now = super::now();
    let id: i64 = conn.query_row(
        "SELECT max(2, coalesce(max(id), 1) + 1) FROM salons",
        [],
        |r| r.get(0),
    )?;
    conn.execute(
        "INSERT INTO salons (id, name, work_schedule, position, created_at, updated_at)
         VALUES (?1, ?2, '', ?1, ?3, ?3)",
        params![id, input.name, now],
    )?;
    write(conn, id, input)?;
    get_other(conn, id)
}

fn get_other(conn: &Connection, id: i64) -> AppResult<SalonRecord> {
    conn.prepare_cached(&format!("{SELECT} WHERE s.id = ?1"))?
        .query_row([id], from_row)
        .optional()?
        .ok_or_else(|| AppError::not_found(NO_SUCH_SALON))
}

fn write(conn: &Connection, id: i64, input: SalonInput) -> AppResult<()> {
    let schedule = input.work_schedule.unwrap_or_default();
    let json = |v: serde_json::Result<String>| v.map_err(|e| AppError::Internal(e.into()));
    let changed = conn.execute(
        "UPDATE salons SET name = ?2, address = ?3, full_address = ?4, latitude = ?5,
            longitude = ?6, phone = ?7, phone_secondary = ?8, phone_class = ?9, email = ?10,
            work_schedule = ?11, notification_email = ?12, telegram_chat_id = ?13,
            lead_recipients = ?14, operator_name = ?15, operator_inn = ?16, operator_ogrn = ?17,
            operator_address = ?18, updated_at = ?19
         WHERE id = ?1",
        params![
            id,
            input.name,
            input.address,
            input.full_address,
            input.latitude,
            input.longitude,
            input.phone,
            input.phone_secondary,
            input.phone_class,
            input.email,
            json(serde_json::to_string(&schedule))?,
            input.notification_email,
            input.telegram_chat_id,
            json(serde_json::to_string(&input.lead_recipients))?,
            input.operator_name,
            input.operator_inn,
            input.operator_ogrn,
            input.operator_address,
            super::now(),
        ],
    )?;
    if changed == 0 {
        return Err(AppError::not_found(NO_SUCH_SALON));
    }
    Ok(())
}

/// Changes a further salon (the main is changed through the settings).
pub fn update(conn: &Connection, id: i64, input: SalonInput) -> AppResult<SalonRecord> {
    let input = input.checked()?;
    write(conn, id, input)?;
    get_other(conn, id)
}

/// The main salon's change as a settings patch (its facts are the
/// settings').
pub fn main_patch(input: SalonInput) -> AppResult<super::settings::SettingsPatch> {
    let input = input.checked()?;
    Ok(super::settings::SettingsPatch {
        salon_name: Some(input.name),
        address: Some(input.address),
        full_address: Some(input.full_address),
        latitude: Some(input.latitude),
        longitude: Some(input.longitude),
        phone: Some(input.phone),
        phone_secondary: Some(input.phone_secondary),
        // The company e-mail stays when the form leaves it empty (the
        // settings require one).
        email: Some(input.email).filter(|e| !e.is_empty()),
        work_schedule: input
            .work_schedule
            .map(|s| serde_json::to_value(s).unwrap_or_default()),
        notification_email: Some(input.notification_email),
        telegram_chat_id: Some(input.telegram_chat_id),
        lead_recipients: Some(input.lead_recipients),
        operator_name: Some(input.operator_name),
        operator_inn: Some(input.operator_inn),
        operator_ogrn: Some(input.operator_ogrn),
        operator_address: Some(input.operator_address),
        ..Default::default()
    })
}

/// Removes a further salon without cars (its feeds and staff fall back to
/// the main; its leads keep naming it as history and are shown under the
/// main).
pub fn delete(conn: &Connection, id: i64) -> AppResult<SalonRecord> {
    if id == MAIN {
        return Err(AppError::conflict(None, MAIN_STAYS));
    }
    let salon = get_other(conn, id)?;
    if salon.cars > 0 {
        return Err(AppError::conflict(None, SALON_HAS_CARS));
    }
    super::atomically(conn, || {
        conn.execute(
            "UPDATE import_feeds SET salon_id = NULL WHERE salon_id = ?1",
            [id],
        )?;
        conn.execute("DELETE FROM staff_salons WHERE salon_id = ?1", [id])?;
        conn.execute("UPDATE leads SET salon_id = NULL WHERE salon_id = ?1", [id])?;
        conn.execute("DELETE FROM salons WHERE id = ?1", [id])?;
        Ok(())
    })?;
    Ok(salon)
}

/// The salon's operator of personal data: its own when it states a name,
/// else the main salon's (the settings').
pub fn operator_of(record: &SalonRecord, settings: &Settings) -> [String; 4] {
    if record.main || record.operator_name.is_empty() {
        let p = &settings.public;
        return [
            p.operator_name.clone(),
            p.operator_inn.clone(),
            p.operator_ogrn.clone(),
            p.operator_address.clone(),
        ];
    }
    [
        record.operator_name.clone(),
        record.operator_inn.clone(),
        record.operator_ogrn.clone(),
        record.operator_address.clone(),
    ]
}

/// Who hears of a lead of `lead_type` in `record`: that type's recipients,
/// else the salon's, else (for a further salon) the main salon's; the chat
/// finally `[telegram] chat_id` (`default_chat`).
pub fn recipients_of(
    record: &SalonRecord,
    settings: &Settings,
    lead_type: LeadType,
    default_chat: &str,
) -> Recipients {
    let main_type = settings.lead_recipients.get(lead_type.as_str());
    let own_type = record.lead_recipients.get(lead_type.as_str());
    let pick = |own: Option<&str>, salon: &str, main: Option<&str>, main_all: &str, last: &str| {
        [own.unwrap_or(""), salon, main.unwrap_or(""), main_all, last]
            .into_iter()
            .find(|v| !v.trim().is_empty())
            .unwrap_or("")
            .to_string()
    };
    let (main_email_type, main_chat_type) = if record.main {
        (None, None)
    } else {
        (
            main_type.map(|r| r.email.as_str()),
            main_type.map(|r| r.telegram_chat_id.as_str()),
        )
    };
    Recipients {
        email: pick(
            own_type.map(|r| r.email.as_str()),
            &record.notification_email,
            main_email_type,
            &settings.notification_email,
            "",
        ),
        telegram_chat_id: pick(
            own_type.map(|r| r.telegram_chat_id.as_str()),
            &record.telegram_chat_id,
            main_chat_type,
            &settings.telegram_chat_id,
            default_chat,
        ),
    }
}

/// The stored salon of a car (None: the main, or no such car).
pub fn car_salon(conn: &Connection, car_id: &str) -> AppResult<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT salon_id FROM cars WHERE id = ?1")?
        .query_row([car_id], |r| r.get::<_, Option<i64>>(0))
        .optional()?
        .flatten())
}

/// The salon a visitor's lead belongs to: a car's (whatever the form
/// says), else the one the visitor chose when it exists, else the main.
pub fn of_lead(conn: &Connection, car_id: Option<&str>, chosen: Option<i64>) -> AppResult<i64> {
    if let Some(car) = car_id.filter(|id| !id.trim().is_empty())
        && let Some(salon) = conn
            .prepare_cached("SELECT salon_id FROM cars WHERE id = ?1")?
            .query_row([car], |r| r.get::<_, Option<i64>>(0))
            .optional()?
    {
        return Ok(of_column(salon));
    }
    match chosen {
        Some(id) if exists(conn, id)? => Ok(id),
        _ => Ok(MAIN),
    }
}

/// The salon of a stored salon id, the main when it is gone.
fn record_of(conn: &Connection, settings: &Settings, salon: Option<i64>) -> AppResult<SalonRecord> {
    let id = of_column(salon);
    if id != MAIN
        && let Some(record) = get(conn, settings, "", id)?
    {
        return Ok(record);
    }
    Ok(main_salon(settings, ""))
}

/// The settings a lead of `salon` and `lead_type` is announced with: its
/// recipients as `notification_email` and `telegram_chat_id` (resolved down
/// to `[telegram] chat_id`, `default_chat`), its salon's name.
pub fn for_announcing(
    conn: &Connection,
    settings: &Settings,
    salon: Option<i64>,
    lead_type: LeadType,
    default_chat: &str,
) -> AppResult<Settings> {
    let record = record_of(conn, settings, salon)?;
    let to = recipients_of(&record, settings, lead_type, default_chat);
    let mut out = settings.clone();
    out.notification_email = to.email;
    out.telegram_chat_id = to.telegram_chat_id;
    out.public.salon_name = record.salon.name;
    Ok(out)
}

/// The working hours a lead of `salon` is answered in.
pub fn schedule_of(
    conn: &Connection,
    settings: &Settings,
    salon: Option<i64>,
) -> AppResult<WorkSchedule> {
    Ok(record_of(conn, settings, salon)?.salon.work_schedule)
}

/// What visitors read (`Settings::published`) with the salons when there
/// are several.
pub fn public_settings(
    conn: &Connection,
    calls: &crate::config_calls::CallTrackingConfig,
) -> AppResult<super::settings::PublicSettings> {
    let settings = super::settings::get(conn)?;
    let salons = public(conn, &settings, calls.phone_class.trim())?;
    let mut shown = settings.published(calls);
    shown.salons = salons;
    Ok(shown)
}
