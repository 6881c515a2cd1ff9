//! The dealership's business settings: one row, edited in the admin.

use rusqlite::{Connection, OptionalExtension, Row};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::hours::WorkSchedule;
use super::lead_assignment::{self, AssignmentRule};
use crate::error::AppResult;

/// The twelve page-banner image URLs (desktop and mobile for six pages).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Banners {
    pub home_banner: String,
    pub home_banner_mobile: String,
    pub new_cars_banner: String,
    pub new_cars_banner_mobile: String,
    pub used_cars_banner: String,
    pub used_cars_banner_mobile: String,
    pub trade_in_banner: String,
    pub trade_in_banner_mobile: String,
    pub auto_credit_banner: String,
    pub auto_credit_banner_mobile: String,
    pub auto_selection_banner: String,
    pub auto_selection_banner_mobile: String,
}

/// Banner field names as the API speaks them, with their columns.
pub const BANNER_FIELDS: [(&str, &str); 12] = [
    ("homeBanner", "home_banner"),
    ("homeBannerMobile", "home_banner_mobile"),
    ("newCarsBanner", "new_cars_banner"),
    ("newCarsBannerMobile", "new_cars_banner_mobile"),
    ("usedCarsBanner", "used_cars_banner"),
    ("usedCarsBannerMobile", "used_cars_banner_mobile"),
    ("tradeInBanner", "trade_in_banner"),
    ("tradeInBannerMobile", "trade_in_banner_mobile"),
    ("autoCreditBanner", "auto_credit_banner"),
    ("autoCreditBannerMobile", "auto_credit_banner_mobile"),
    ("autoSelectionBanner", "auto_selection_banner"),
    ("autoSelectionBannerMobile", "auto_selection_banner_mobile"),
];

impl Banners {
    /// A banner by its API name; the mobile one falls back to the desktop one.
    pub fn get(&self, name: &str) -> Option<&str> {
        let value = match name {
            "homeBanner" => &self.home_banner,
            "homeBannerMobile" => &self.home_banner_mobile,
            "newCarsBanner" => &self.new_cars_banner,
            "newCarsBannerMobile" => &self.new_cars_banner_mobile,
            "usedCarsBanner" => &self.used_cars_banner,
            "usedCarsBannerMobile" => &self.used_cars_banner_mobile,
            "tradeInBanner" => &self.trade_in_banner,
            "tradeInBannerMobile" => &self.trade_in_banner_mobile,
            "autoCreditBanner" => &self.auto_credit_banner,
            "autoCreditBannerMobile" => &self.auto_credit_banner_mobile,
            "autoSelectionBanner" => &self.auto_selection_banner,
            "autoSelectionBannerMobile" => &self.auto_selection_banner_mobile,
            _ => return None,
        };
        match (value.is_empty(), name.strip_suffix("Mobile")) {
            (true, Some(desktop)) => self.get(desktop),
            _ => Some(value),
        }
    }
}

/// What every visitor may read.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PublicSettings {
    pub salon_name: String,
    pub phone: String,
    pub phone_secondary: String,
    pub address: String,
    pub full_address: String,
    pub email: String,
    /// One day per line, for display.
    pub working_hours: String,
    /// Opening hours by weekday, Monday first, Moscow time (test-drive
    /// slots, working minutes).
    #[serde(default)]
    pub work_schedule: WorkSchedule,
    pub hero_title: String,
    pub hero_subtitle: String,
    /// Favicon URL, empty for the default.
    pub favicon: String,
    pub google_analytics_id: String,
    pub yandex_metrika_id: String,
    pub legal_entity: String,
    /// Version of the personal-data consent text the forms link to.
    pub consent_version: i64,
    #[serde(flatten)]
    pub banners: Banners,
    /// The banners that are ads, marked (`docs/advertising.md`): by the
    /// desktop picture's key ("homeBanner"), its token and advertiser.
    #[serde(default)]
    pub banner_ads: std::collections::BTreeMap<String, super::ads::AdMark>,
    pub updated_at: String,
}

/// Everything, for the admin.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[serde(flatten)]
    pub public: PublicSettings,
    pub notification_email: String,
    pub from_email: String,
    pub email_notifications_enabled: bool,
    pub consent_text: String,
    pub privacy_policy: String,
    /// Working minutes after which a lead still `new` is overdue and
    /// reminded once more, 1 to 480 (`docs/response-times.md`).
    #[schema(minimum = 1, maximum = 480, example = 15)]
    pub response_threshold_minutes: i64,
    /// How a new lead finds its assignee: `none` (by hand), `round_robin`
    /// or `least_loaded`, among the active managers at work
    /// (`docs/leads.md`, "Who answers a lead").
    pub lead_assignment: AssignmentRule,
    /// The operator of personal data (`docs/personal-data.md`): the legal
    /// name, ИНН, ОГРН and legal address the consent texts and the privacy
    /// policy name through their placeholders.
    pub operator_name: String,
    /// 10 digits (an organisation) or 12 (an entrepreneur); empty: not given.
    pub operator_inn: String,
    /// 13 digits (ОГРН) or 15 (ОГРНИП); empty: not given.
    pub operator_ogrn: String,
    pub operator_address: String,
    /// Google Analytics sends data abroad: it starts (with the visitor's
    /// consent) only when the owner turned it on here.
    pub google_analytics_enabled: bool,
    /// Years a person's data is kept after their last contact, 1 to 10
    /// (`docs/personal-data.md`, "Forgetting on time").
    #[schema(minimum = 1, maximum = 10, example = 3)]
    pub retention_years: i64,
    /// Months a lead closed as cancelled is kept after it was closed, 1 to 36.
    #[schema(minimum = 1, maximum = 36, example = 6)]
    pub cancelled_retention_months: i64,
    /// Mails visitors may trigger to any address (saved searches'
    /// confirmations), for the whole site in any 24 hours, 1 to 10 000
    /// (`docs/saved-searches.md`, "Mail a stranger can trigger").
    #[schema(minimum = 1, maximum = 10000, example = 300)]
    pub visitor_mail_daily_limit: i64,
}

pub const RETENTION_YEARS_FIELD: &str = "retentionYears";
pub const RETENTION_YEARS_RANGE: &str = "Срок хранения — от 1 до 10 лет";
pub const CANCELLED_RETENTION_FIELD: &str = "cancelledRetentionMonths";
pub const CANCELLED_RETENTION_RANGE: &str = "Срок для отменённых заявок — от 1 до 36 месяцев";

/// The default response threshold, in working minutes.
pub const DEFAULT_RESPONSE_THRESHOLD_MINUTES: i64 = 15;
/// The field of the response threshold and its refusal.
pub const RESPONSE_THRESHOLD_FIELD: &str = "responseThresholdMinutes";
pub const RESPONSE_THRESHOLD_RANGE: &str = "Порог ответа — от 1 до 480 минут";

impl Default for Settings {
    fn default() -> Self {
        Settings {
            public: PublicSettings {
                salon_name: "Автосалон".into(),
                phone: "+7 (812) 000-00-00".into(),
                phone_secondary: String::new(),
                address: "Санкт-Петербург".into(),
                full_address: String::new(),
                email: String::new(),
                working_hours: "Пн–Вс: 9:00–21:00".into(),
                work_schedule: WorkSchedule::default(),
                hero_title: "Автомобили с гарантией и выгодой".into(),
                hero_subtitle: "Новые и с пробегом, в кредит, трейд-ин и аренда с выкупом".into(),
                favicon: String::new(),
                google_analytics_id: String::new(),
                yandex_metrika_id: String::new(),
                legal_entity: String::new(),
                consent_version: 1,
                banners: Banners::default(),
                banner_ads: Default::default(),
                updated_at: String::new(),
            },
            notification_email: String::new(),
            from_email: String::new(),
            email_notifications_enabled: true,
            consent_text: DEFAULT_CONSENT_TEXT.into(),
            privacy_policy: DEFAULT_PRIVACY_POLICY.into(),
            response_threshold_minutes: DEFAULT_RESPONSE_THRESHOLD_MINUTES,
            lead_assignment: AssignmentRule::Manual,
            operator_name: String::new(),
            operator_inn: String::new(),
            operator_ogrn: String::new(),
            operator_address: String::new(),
            google_analytics_enabled: false,
            retention_years: 3,
            cancelled_retention_months: 6,
            visitor_mail_daily_limit: super::mail_cap::DEFAULT_DAILY_LIMIT,
        }
    }
}

pub const DEFAULT_CONSENT_TEXT: &str = "Я даю согласие оператору — {оператор} (ИНН {ИНН}, ОГРН {ОГРН}, адрес: {адрес оператора}) — на обработку моих персональных данных (фамилия, имя, отчество, номер телефона, адрес электронной почты, сведения об автомобиле и иные данные, которые я указал в заявке) с целью рассмотрения заявки, связи со мной и подготовки предложения по покупке, кредиту, трейд-ину или аренде автомобиля.\n\nОбработка включает сбор, запись, систематизацию, накопление, хранение, уточнение, использование, передачу банкам-партнёрам по моей заявке на кредит, обезличивание, блокирование, удаление и уничтожение, с использованием средств автоматизации и без них.\n\nОператор вправе поручить обработку:\n{обработчики}\n\nСогласие действует до достижения целей обработки или до его отзыва. Я могу отозвать согласие, направив письменное заявление оператору по адресу, указанному на сайте, или на его электронную почту.\n\nСогласие дано в соответствии с Федеральным законом от 27.07.2006 № 152-ФЗ «О персональных данных».";

pub const DEFAULT_PRIVACY_POLICY: &str = "Политика обработки персональных данных\n\n1. Настоящая политика определяет порядок обработки персональных данных посетителей сайта автосалона и меры по их защите в соответствии с Федеральным законом № 152-ФЗ «О персональных данных». Оператор: {оператор}, ИНН {ИНН}, ОГРН {ОГРН}, адрес: {адрес оператора}.\n\n2. Мы обрабатываем данные, которые вы указываете в заявках: имя, номер телефона, адрес электронной почты, сведения об интересующем или вашем автомобиле, а также технические данные посещения (адрес IP, метки рекламных кампаний).\n\n3. Цели обработки: рассмотрение заявок, обратная связь, подготовка предложений по покупке, кредиту, трейд-ину и аренде автомобилей; с вашего отдельного согласия — информирование об акциях.\n\n4. Данные хранятся на серверах в Российской Федерации и не передаются третьим лицам, кроме банков-партнёров по вашей заявке на кредит и случаев, предусмотренных законом. Обработку по поручению оператора ведут:\n{обработчики}\n\n5. Вы вправе получить сведения об обработке ваших данных, потребовать их уточнения или удаления и отозвать согласие, обратившись к оператору по контактам, указанным на сайте.";

const SELECT: &str = "SELECT salon_name, phone, phone_secondary, address, full_address, email,
    working_hours, work_schedule, hero_title, hero_subtitle, favicon, google_analytics_id, yandex_metrika_id,
    legal_entity, consent_version, home_banner, home_banner_mobile, new_cars_banner,
    new_cars_banner_mobile, used_cars_banner, used_cars_banner_mobile, trade_in_banner,
    trade_in_banner_mobile, auto_credit_banner, auto_credit_banner_mobile, auto_selection_banner,
    auto_selection_banner_mobile, updated_at, notification_email, from_email,
    email_notifications_enabled, consent_text, privacy_policy, response_threshold_minutes,
    lead_assignment, operator_name, operator_inn, operator_ogrn, operator_address,
    google_analytics_enabled, retention_years, cancelled_retention_months, banner_ads,
    visitor_mail_daily_limit
    FROM settings WHERE id = 1";

fn from_row(row: &Row) -> rusqlite::Result<Settings> {
    Ok(Settings {
        public: PublicSettings {
            salon_name: row.get("salon_name")?,
            phone: row.get("phone")?,
            phone_secondary: row.get("phone_secondary")?,
            address: row.get("address")?,
            full_address: row.get("full_address")?,
            email: row.get("email")?,
            working_hours: row.get("working_hours")?,
            work_schedule: super::json_column(&row.get::<_, String>("work_schedule")?),
            hero_title: row.get("hero_title")?,
            hero_subtitle: row.get("hero_subtitle")?,
            favicon: row.get("favicon")?,
            google_analytics_id: row.get("google_analytics_id")?,
            yandex_metrika_id: row.get("yandex_metrika_id")?,
            legal_entity: row.get("legal_entity")?,
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
            banner_ads: super::json_column(&row.get::<_, String>("banner_ads")?),
            updated_at: row.get("updated_at")?,
        },
        notification_email: row.get("notification_email")?,
        from_email: row.get("from_email")?,
        email_notifications_enabled: row.get("email_notifications_enabled")?,
        consent_text: row.get("consent_text")?,
        privacy_policy: row.get("privacy_policy")?,
        response_threshold_minutes: row.get("response_threshold_minutes")?,
        lead_assignment: row.get("lead_assignment")?,
        operator_name: row.get("operator_name")?,
        operator_inn: row.get("operator_inn")?,
        operator_ogrn: row.get("operator_ogrn")?,
        operator_address: row.get("operator_address")?,
        google_analytics_enabled: row.get("google_analytics_enabled")?,
        retention_years: row.get("retention_years")?,
        cancelled_retention_months: row.get("cancelled_retention_months")?,
        visitor_mail_daily_limit: row.get("visitor_mail_daily_limit")?,
    })
}

impl Settings {
    /// What every visitor may read: Google Analytics' id only while the
    /// owner has it turned on, so the browser never starts it otherwise.
    pub fn published(self) -> PublicSettings {
        let mut public = self.public;
        if !self.google_analytics_enabled {
            public.google_analytics_id.clear();
        }
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
        "INSERT OR REPLACE INTO settings (id, salon_name, phone, phone_secondary, address,
            full_address, email, working_hours, hero_title, hero_subtitle, favicon,
            google_analytics_id, yandex_metrika_id, legal_entity, consent_version, home_banner,
            home_banner_mobile, new_cars_banner, new_cars_banner_mobile, used_cars_banner,
            used_cars_banner_mobile, trade_in_banner, trade_in_banner_mobile, auto_credit_banner,
            auto_credit_banner_mobile, auto_selection_banner, auto_selection_banner_mobile,
            updated_at, notification_email, from_email, email_notifications_enabled,
            consent_text, privacy_policy, work_schedule, response_threshold_minutes,
            lead_assignment, operator_name, operator_inn, operator_ogrn, operator_address,
            google_analytics_enabled, retention_years, cancelled_retention_months, banner_ads,
            visitor_mail_daily_limit)
         VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34,
            ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44)",
        rusqlite::params![
            p.salon_name,
            p.phone,
            p.phone_secondary,
            p.address,
            p.full_address,
            p.email,
            p.working_hours,
            p.hero_title,
            p.hero_subtitle,
            p.favicon,
            p.google_analytics_id,
            p.yandex_metrika_id,
            p.legal_entity,
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
            super::now(),
            next.notification_email,
            next.from_email,
            next.email_notifications_enabled,
            next.consent_text,
            next.privacy_policy,
            serde_json::to_string(&p.work_schedule)
                .map_err(|e| crate::error::AppError::Internal(e.into()))?,
            next.response_threshold_minutes,
            next.lead_assignment,
            next.operator_name,
            next.operator_inn,
            next.operator_ogrn,
            next.operator_address,
            next.google_analytics_enabled,
            next.retention_years,
            next.cancelled_retention_months,
            serde_json::to_string(&p.banner_ads)
                .map_err(|e| crate::error::AppError::Internal(e.into()))?,
            next.visitor_mail_daily_limit,
        ],
    )?;
    get(conn)
}

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
    pub email: Option<String>,
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
    pub legal_entity: Option<String>,
    pub notification_email: Option<String>,
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
    /// The banners' ad marks, all of them (a page left out is unmarked).
    pub banner_ads: Option<std::collections::BTreeMap<String, super::ads::AdMark>>,
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
}

impl SettingsPatch {
    /// Applies the patch and checks the settings form's rules.
    pub fn apply(self, to: &mut Settings) -> crate::error::AppResult<()> {
        use crate::error::AppError;
        // E-mail rules apply to the fields this change sends.
        let email_sent = [
            self.email.is_some(),
            self.notification_email.is_some(),
            self.from_email.is_some(),
        ];
        let p = &mut to.public;
        let b = &mut p.banners;
        let text_fields: [(&'static str, &str, Option<String>, &mut String, usize); 33] = [
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
            ("email", "Email", self.email, &mut p.email, 255),
            (
                "workingHours",
                "Часы работы",
                self.working_hours,
                &mut p.working_hours,
                1000,
            ),
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
                "legalEntity",
                "Реквизиты юридического лица",
                self.legal_entity,
                &mut p.legal_entity,
                1000,
            ),
            (
                "operatorName",
                "Полное наименование оператора",
                self.operator_name,
                &mut to.operator_name,
                500,
            ),
            (
                "operatorInn",
                "ИНН оператора",
                self.operator_inn,
                &mut to.operator_inn,
                12,
            ),
            (
                "operatorOgrn",
                "ОГРН оператора",
                self.operator_ogrn,
                &mut to.operator_ogrn,
                15,
            ),
            (
                "operatorAddress",
                "Юридический адрес оператора",
                self.operator_address,
                &mut to.operator_address,
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
                super::check_len(field, label, &value, max)?;
                *slot = value;
            }
        }
        if let Some(schedule) = self.work_schedule {
            let schedule: WorkSchedule = serde_json::from_value(schedule).map_err(|_| {
                AppError::invalid(
                    super::hours::FIELD,
                    "График работы: семь дней с понедельника, у каждого время открытия и закрытия (ЧЧ:ММ) или «выходной»",
                )
            })?;
            schedule.validate()?;
            to.public.work_schedule = schedule;
        }
        if let Some(enabled) = self.email_notifications_enabled {
            to.email_notifications_enabled = enabled;
        }
        if let Some(enabled) = self.google_analytics_enabled {
            to.google_analytics_enabled = enabled;
        }
        if let Some(marks) = self.banner_ads {
            to.public.banner_ads = super::ads::check_banner_ads(marks)?;
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
            use super::mail_cap::{DAILY_LIMIT_MAX, DAILY_LIMIT_MIN};
            if !(DAILY_LIMIT_MIN..=DAILY_LIMIT_MAX).contains(&limit) {
                return Err(AppError::invalid(
                    super::mail_cap::DAILY_LIMIT_FIELD,
                    super::mail_cap::DAILY_LIMIT_RANGE,
                ));
            }
            to.visitor_mail_daily_limit = limit;
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
        super::legal::check_operator(to)?;
        // email must be an e-mail; the notification addresses may be empty.
        let emails = [
            ("email", &to.public.email, false),
            ("notificationEmail", &to.notification_email, true),
            ("fromEmail", &to.from_email, true),
        ];
        for ((field, value, may_be_empty), sent) in emails.into_iter().zip(email_sent) {
            let fine = (value.is_empty() && may_be_empty) || super::leads::is_email(value);
            if sent && !fine {
                return Err(AppError::invalid(field, "Неверный формат email"));
            }
        }
        Ok(())
    }
}

/// Every field is optional here: the company form's required ones are
/// checked by [`SettingsPatch::apply`] and by the handler of the full form.
impl super::form::Form for SettingsPatch {
    const FIELDS: &'static [super::form::Field] = {
        use super::form::{Field, Kind};
        &[
            Field::optional("salonName", Kind::Text),
            Field::optional("phone", Kind::Text),
            Field::optional("phoneSecondary", Kind::Text),
            Field::optional("address", Kind::Text),
            Field::optional("fullAddress", Kind::Text),
            Field::optional("email", Kind::Text).invalid("Неверный формат email"),
            Field::optional("workingHours", Kind::Text),
            Field::optional("workSchedule", Kind::List),
            Field::optional("heroTitle", Kind::Text),
            Field::optional("heroSubtitle", Kind::Text),
            Field::optional("favicon", Kind::Text),
            Field::optional("googleAnalyticsId", Kind::Text),
            Field::optional("yandexMetrikaId", Kind::Text),
            Field::optional("legalEntity", Kind::Text),
            Field::optional("notificationEmail", Kind::Text).invalid("Неверный формат email"),
            Field::optional("fromEmail", Kind::Text).invalid("Неверный формат email"),
            Field::optional("emailNotificationsEnabled", Kind::Bool),
            Field::optional("consentText", Kind::Text),
            Field::optional("privacyPolicy", Kind::Text),
            Field::optional("responseThresholdMinutes", Kind::Integer)
                .invalid(RESPONSE_THRESHOLD_RANGE),
            Field::optional("visitorMailDailyLimit", Kind::Integer)
                .invalid(super::mail_cap::DAILY_LIMIT_RANGE),
            Field::optional("leadAssignment", Kind::Code).invalid(lead_assignment::UNKNOWN_RULE),
            Field::optional("operatorName", Kind::Text),
            Field::optional("operatorInn", Kind::Text).invalid(super::legal::BAD_INN),
            Field::optional("operatorOgrn", Kind::Text).invalid(super::legal::BAD_OGRN),
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
        ]
    };
}
