//! The settings' values: what visitors see (`PublicSettings`, the banners),
//! what only staff see, the limits and their messages, and the defaults
//! (the consent text and the privacy policy).

use crate::domain::hours::WorkSchedule;
use crate::domain::lead_assignment::AssignmentRule;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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
    /// The main salon's coordinates (WGS 84 degrees) for a map link; absent:
    /// not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latitude: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub longitude: Option<f64>,
    pub email: String,
    /// The hours as shown (the footer), one line per run of days with the
    /// same hours ("Пн–Пт: 09:00–21:00"): drawn from `workSchedule`, never
    /// set on its own (`docs/admin.md`, "One source per fact").
    #[serde(default)]
    #[schema(read_only)]
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
    /// The CSS class every shown salon phone carries for the call-tracking
    /// script's substitution (`[call_tracking] phone_class`,
    /// `docs/calls.md`); empty: none. From the configuration, never saved.
    #[serde(default)]
    #[schema(read_only)]
    pub phone_class: String,
    /// The call-tracking vendor's script, loaded only after the visitor
    /// accepted the counters (`[call_tracking] script_url`); empty: none.
    #[serde(default)]
    #[schema(read_only)]
    pub call_tracking_script: String,
    /// The operator of personal data (`docs/personal-data.md`): the legal
    /// name, ИНН, ОГРН and legal address the consent texts and the privacy
    /// policy name through their placeholders, and the footer of every page
    /// names (the site's one source of its requisites).
    pub operator_name: String,
    /// 10 digits (an organisation) or 12 (an entrepreneur); empty: not given.
    pub operator_inn: String,
    /// 13 digits (ОГРН) or 15 (ОГРНИП); empty: not given.
    pub operator_ogrn: String,
    pub operator_address: String,
    /// Version of the personal-data consent text the forms link to.
    pub consent_version: i64,
    #[serde(flatten)]
    pub banners: Banners,
    /// The banners that are ads, marked (`docs/advertising.md`): by the
    /// desktop picture's key ("homeBanner"), its token and advertiser.
    #[serde(default)]
    pub banner_ads: std::collections::BTreeMap<String, crate::domain::ads::AdMark>,
    pub updated_at: String,
    /// Every salon, the main first (its facts are the fields above), when
    /// the install has more than one (`docs/salons.md`); absent for a
    /// single salon. Read-only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(read_only)]
    pub salons: Vec<crate::domain::salons::values::Salon>,
}

/// Everything, for the admin.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[serde(flatten)]
    pub public: PublicSettings,
    pub notification_email: String,
    /// The main salon's Telegram chat for leads; empty: `[telegram] chat_id`.
    #[serde(default)]
    pub telegram_chat_id: String,
    /// The main salon's recipients for some lead types, over
    /// `notificationEmail` and the chat (`docs/salons.md`).
    #[serde(default)]
    pub lead_recipients: crate::domain::salons::values::LeadRecipients,
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
    /// The days the dashboard's «Смотрят, но не звонят» looks back over,
    /// 3 to 90 (`docs/admin.md`, "Cars nobody calls about").
    #[schema(minimum = 3, maximum = 90, example = 14)]
    pub quiet_car_days: i64,
    /// The views over those days from which a car with no contact and no
    /// call is listed, 1 to 100 000.
    #[schema(minimum = 1, maximum = 100000, example = 100)]
    pub quiet_car_views: i64,
}

pub const QUIET_DAYS_FIELD: &str = "quietCarDays";
pub const QUIET_DAYS_RANGE: &str = "Период «Смотрят, но не звонят» — от 3 до 90 дней";
pub const QUIET_VIEWS_FIELD: &str = "quietCarViews";
pub const QUIET_VIEWS_RANGE: &str = "Порог просмотров «Смотрят, но не звонят» — от 1 до 100 000";

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
                latitude: None,
                longitude: None,
                email: String::new(),
                working_hours: WorkSchedule::default().lines(),
                work_schedule: WorkSchedule::default(),
                hero_title: "Автомобили с гарантией и выгодой".into(),
                hero_subtitle: "Новые и с пробегом, в кредит, трейд-ин и аренда с выкупом".into(),
                favicon: String::new(),
                google_analytics_id: String::new(),
                yandex_metrika_id: String::new(),
                phone_class: String::new(),
                call_tracking_script: String::new(),
                operator_name: String::new(),
                operator_inn: String::new(),
                operator_ogrn: String::new(),
                operator_address: String::new(),
                consent_version: 1,
                banners: Banners::default(),
                banner_ads: Default::default(),
                updated_at: String::new(),
                salons: Vec::new(),
            },
            notification_email: String::new(),
            telegram_chat_id: String::new(),
            lead_recipients: Default::default(),
            from_email: String::new(),
            email_notifications_enabled: true,
            consent_text: DEFAULT_CONSENT_TEXT.into(),
            privacy_policy: DEFAULT_PRIVACY_POLICY.into(),
            response_threshold_minutes: DEFAULT_RESPONSE_THRESHOLD_MINUTES,
            lead_assignment: AssignmentRule::Manual,
            google_analytics_enabled: false,
            retention_years: 3,
            cancelled_retention_months: 6,
            visitor_mail_daily_limit: crate::domain::mail_cap::DEFAULT_DAILY_LIMIT,
            quiet_car_days: 14,
            quiet_car_views: 100,
        }
    }
}

pub const DEFAULT_CONSENT_TEXT: &str = "Я даю согласие оператору — {оператор} (ИНН {ИНН}, ОГРН {ОГРН}, адрес: {адрес оператора}) — на обработку моих персональных данных (фамилия, имя, отчество, номер телефона, адрес электронной почты, сведения об автомобиле и иные данные, которые я указал в заявке) с целью рассмотрения заявки, связи со мной и подготовки предложения по покупке, кредиту, трейд-ину или аренде автомобиля.\n\nОбработка включает сбор, запись, систематизацию, накопление, хранение, уточнение, использование, передачу банкам-партнёрам по моей заявке на кредит, обезличивание, блокирование, удаление и уничтожение, с использованием средств автоматизации и без них.\n\nОператор вправе поручить обработку:\n{обработчики}\n\nСогласие действует до достижения целей обработки или до его отзыва. Я могу отозвать согласие, направив письменное заявление оператору по адресу, указанному на сайте, или на его электронную почту.\n\nСогласие дано в соответствии с Федеральным законом от 27.07.2006 № 152-ФЗ «О персональных данных».";

pub const DEFAULT_PRIVACY_POLICY: &str = "Политика обработки персональных данных\n\n1. Настоящая политика определяет порядок обработки персональных данных посетителей сайта автосалона и меры по их защите в соответствии с Федеральным законом № 152-ФЗ «О персональных данных». Оператор: {оператор}, ИНН {ИНН}, ОГРН {ОГРН}, адрес: {адрес оператора}.\n\n2. Мы обрабатываем данные, которые вы указываете в заявках: имя, номер телефона, адрес электронной почты, сведения об интересующем или вашем автомобиле, а также технические данные посещения (адрес IP, метки рекламных кампаний).\n\n3. Цели обработки: рассмотрение заявок, обратная связь, подготовка предложений по покупке, кредиту, трейд-ину и аренде автомобилей; с вашего отдельного согласия — информирование об акциях.\n\n4. Данные хранятся на серверах в Российской Федерации и не передаются третьим лицам, кроме банков-партнёров по вашей заявке на кредит и случаев, предусмотренных законом. Обработку по поручению оператора ведут:\n{обработчики}\n\n5. Вы вправе получить сведения об обработке ваших данных, потребовать их уточнения или удаления и отозвать согласие, обратившись к оператору по контактам, указанным на сайте.";
