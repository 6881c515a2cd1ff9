//! What an admin sends to create or change a car (`CarInput`) and its rules:
//! the checks of every field, the pictures, the references to brands and
//! body types, and the form's description for the UI.

use super::car::{
    Car, CarStatus, Drivetrain, FuelType, MAX_IMAGES, MAX_TRIM_DESCRIPTION, MAX_TRIM_LEVELS,
    MAX_TRIM_LINK, MAX_TRIM_NAME, TOO_MANY_TRIM_LEVELS, Transmission, TrimLevel,
};
use super::car::{CarState, Wheel};
use crate::domain::body_types::BodyType;
use crate::domain::form::{self, Form};
use crate::domain::money::Money;
use crate::error::{AppError, AppResult};
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// What an admin or an import sends to create or change a car.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CarInput {
    pub brand_id: String,
    pub name: String,
    pub slug: String,
    pub model: String,
    pub year: i32,
    pub price: Money,
    /// A lease car's monthly payment. Not stored for a new or used car (its
    /// figure comes from the credit programmes, `docs/pricing.md`): read as
    /// an amount, then dropped.
    #[serde(default)]
    pub monthly_payment: Option<Money>,
    #[serde(default)]
    pub daily_price: Option<Money>,
    pub status: CarStatus,
    pub body_type: BodyType,
    pub transmission: Transmission,
    /// Null or absent: not stated.
    #[serde(default)]
    pub drivetrain: Option<Drivetrain>,
    pub fuel_type: FuelType,
    pub engine: String,
    #[serde(default)]
    pub mileage: i64,
    #[serde(default)]
    pub main_image: String,
    #[serde(default)]
    pub images: Vec<String>,
    /// At most 20 (`docs/catalogue.md`, "Limits of a car").
    #[serde(default)]
    #[schema(max_items = 20)]
    pub trim_levels: Vec<TrimLevel>,
    #[serde(default = "yes")]
    pub in_stock: bool,
    #[serde(default)]
    pub featured: bool,
    #[serde(default = "yes")]
    pub published: bool,
    #[serde(default)]
    pub vin: Option<String>,
    #[serde(default)]
    pub color: Option<String>,
    #[serde(default)]
    pub external_id: Option<String>,
    #[serde(default)]
    pub credit_discount: Option<Money>,
    #[serde(default)]
    pub tradein_discount: Option<Money>,
    #[serde(default)]
    pub insurance_discount: Option<Money>,
    #[serde(default)]
    pub max_discount: Option<Money>,
    /// The car's complectation ("Executive"), at most 100.
    #[serde(default)]
    pub trim: Option<String>,
    /// The generation ("III"), at most 50.
    #[serde(default)]
    pub generation: Option<String>,
    /// 2 to 5.
    #[serde(default)]
    pub doors: Option<i64>,
    /// Owners by the vehicle passport, 0 to 99; null: not stated.
    #[serde(default)]
    pub owners: Option<i64>,
    /// Whether the car was in an accident; null: not stated.
    #[serde(default)]
    pub accident: Option<bool>,
    /// A used car's state; null: not stated.
    #[serde(default)]
    pub state: Option<CarState>,
    /// The steering wheel's side; left when absent.
    #[serde(default)]
    pub wheel: Wheel,
    /// The salon it stands in (`docs/salons.md`); absent or 1: the main.
    #[serde(default)]
    pub salon_id: Option<i64>,
}

/// A change of a stored car as sent (`PUT /api/cars/{id}`), before the
/// stored car fills what it leaves out ([`CarChange::over`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(transparent)]
pub struct CarChange(pub Map<String, Value>);

impl Form for CarChange {
    // Read as a whole object here; its fields are read by `CarInput`'s list.
    const FIELDS: &'static [form::Field] = &[];
}

/// The pictures: sent together (the main one and the others) or kept
/// together.
const PICTURES: [&str; 2] = ["mainImage", "images"];

impl CarChange {
    /// The car's form once the stored car fills every optional field the
    /// change leaves out: a field the sender does not show (the feed's
    /// `externalId`, a used car's mileage on a new one) is kept, and only
    /// an explicit `null` (or an empty value) clears it. The pictures are
    /// kept only when neither `mainImage` nor `images` is sent.
    pub fn over(self, stored: &Car) -> AppResult<CarInput> {
        let mut body = self.0;
        let Ok(Value::Object(stored)) = serde_json::to_value(stored) else {
            return Err(AppError::Internal(anyhow::anyhow!(
                "a car is not an object"
            )));
        };
        let pictures_sent = PICTURES.iter().any(|name| body.contains_key(*name));
        for field in CarInput::FIELDS.iter().filter(|f| f.required.is_none()) {
            let picture = PICTURES.contains(&field.name);
            if body.contains_key(field.name) || (picture && pictures_sent) {
                continue;
            }
            if let Some(value) = stored.get(field.name) {
                body.insert(field.name.to_string(), value.clone());
            }
        }
        form::read(Value::Object(body))
    }
}

pub(super) fn yes() -> bool {
    true
}

/// The field of the owners' count and its refusal.
pub const OWNERS_FIELD: &str = "owners";
pub const OWNERS_RANGE: &str = "Владельцев по ПТС — от 0 до 99";

/// A published car at 0 ₽ would show "0 ₽" to buyers.
pub const PRICE_ZERO: &str = "Укажите цену: автомобиль за 0 ₽ не публикуется";
/// Longest stored picture URL, as `car_images.url` allows.
pub(super) const MAX_IMAGE_URL: usize = 500;

/// The pictures of a form in their stored order: the main one first (the
/// first listed unless the form names another), then the others, each once.
pub(super) fn pictures(input: &CarInput) -> Vec<String> {
    let mut list: Vec<String> = Vec::with_capacity(input.images.len() + 1);
    let main = input.main_image.trim();
    for url in std::iter::once(main).chain(input.images.iter().map(|u| u.trim())) {
        if !url.is_empty() && !list.iter().any(|u| u == url) {
            list.push(url.to_string());
        }
    }
    list
}

/// Replaces a car's pictures with `urls`, in that order (the first is the
/// main one). At most [`MAX_IMAGES`]; the caller validates.
pub fn set_images(conn: &Connection, car_id: &str, urls: &[String]) -> AppResult<()> {
    conn.prepare_cached("DELETE FROM car_images WHERE car_id = ?1")?
        .execute([car_id])?;
    let mut insert =
        conn.prepare_cached("INSERT INTO car_images (car_id, position, url) VALUES (?1, ?2, ?3)")?;
    for (position, url) in (0_i64..).zip(urls) {
        insert.execute(rusqlite::params![car_id, position, url])?;
    }
    Ok(())
}

/// The admin car form's rules.
pub fn validate(input: &CarInput, current_year: i32) -> AppResult<()> {
    let required = [
        ("brandId", input.brand_id.as_str(), "Марка обязательна"),
        ("name", input.name.as_str(), "Название обязательно"),
        ("model", input.model.as_str(), "Модель обязательна"),
        ("slug", input.slug.as_str(), "Slug обязателен"),
        ("engine", input.engine.as_str(), "Двигатель обязателен"),
    ];
    for (field, value, message) in required {
        if value.trim().is_empty() {
            return Err(AppError::invalid(field, message));
        }
    }
    crate::domain::check_len("name", "Название", &input.name, 255)?;
    crate::domain::check_len("model", "Модель", &input.model, 100)?;
    crate::domain::check_len("engine", "Двигатель", &input.engine, 100)?;
    if !crate::domain::slug::is_valid(&input.slug) {
        return Err(AppError::invalid(
            "slug",
            "Slug может содержать только латинские буквы, цифры и дефисы",
        ));
    }
    if input.year < 1990 || input.year > current_year + 1 {
        return Err(AppError::invalid(
            "year",
            format!("Год должен быть от 1990 до {}", current_year + 1),
        ));
    }
    if input.price > crate::domain::money::MAX_DECIMAL_12_2 {
        return Err(AppError::invalid("price", "Цена слишком большая"));
    }
    if input.published && input.price == Money(0) {
        return Err(AppError::invalid("price", PRICE_ZERO));
    }
    // A new or used car's payment is not stored (`written_values`): its
    // size does not matter.
    let typed_monthly = input
        .monthly_payment
        .filter(|_| input.status == CarStatus::Lease);
    for (field, value) in [
        ("monthlyPayment", typed_monthly),
        ("dailyPrice", input.daily_price),
    ] {
        if value.is_some_and(|m| m > crate::domain::money::MAX_DECIMAL_10_2) {
            return Err(AppError::invalid(field, "Сумма слишком большая"));
        }
    }
    for (field, value) in [
        ("creditDiscount", input.credit_discount),
        ("tradeinDiscount", input.tradein_discount),
        ("insuranceDiscount", input.insurance_discount),
        ("maxDiscount", input.max_discount),
    ] {
        if value.is_some_and(|m| m > input.price) {
            return Err(AppError::invalid(
                field,
                "Скидка не может быть больше цены автомобиля",
            ));
        }
    }
    if input.mileage < 0 {
        return Err(AppError::invalid(
            "mileage",
            "Пробег не может быть отрицательным",
        ));
    }
    let pictures = pictures(input);
    if pictures.len() > MAX_IMAGES {
        return Err(AppError::invalid(
            "images",
            format!("Максимум {MAX_IMAGES} изображений"),
        ));
    }
    for url in &pictures {
        crate::domain::check_len("images", "Фото", url, MAX_IMAGE_URL)?;
    }
    check_trim_levels(&input.trim_levels)?;
    if let Some(vin) = &input.vin
        && !vin.is_empty()
        && (vin.len() != 17 || !vin.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return Err(AppError::invalid(
            "vin",
            "VIN должен содержать 17 латинских букв и цифр",
        ));
    }
    if let Some(color) = &input.color {
        crate::domain::check_len("color", "Цвет", color, 50)?;
    }
    if let Some(external) = &input.external_id {
        crate::domain::check_len("externalId", "Внешний идентификатор", external, 100)?;
    }
    if input
        .trim
        .as_ref()
        .is_some_and(|t| t.trim().chars().count() > 100)
    {
        return Err(AppError::invalid("trim", "Комплектация — до 100 символов"));
    }
    if input
        .generation
        .as_ref()
        .is_some_and(|t| t.trim().chars().count() > 50)
    {
        return Err(AppError::invalid(
            "generation",
            "Поколение — до 50 символов",
        ));
    }
    if input.doors.is_some_and(|d| !(2..=5).contains(&d)) {
        return Err(AppError::invalid("doors", "Число дверей — от 2 до 5"));
    }
    if input.owners.is_some_and(|n| !(0..=99).contains(&n)) {
        return Err(AppError::invalid(OWNERS_FIELD, OWNERS_RANGE));
    }
    Ok(())
}

/// At most [`MAX_TRIM_LEVELS`] trim levels, each text within its length.
fn check_trim_levels(trims: &[TrimLevel]) -> AppResult<()> {
    if trims.len() > MAX_TRIM_LEVELS {
        return Err(AppError::invalid("trimLevels", TOO_MANY_TRIM_LEVELS));
    }
    for trim in trims {
        for (label, value, max) in [
            ("Название комплектации", &trim.name, MAX_TRIM_NAME),
            (
                "Описание комплектации",
                &trim.description,
                MAX_TRIM_DESCRIPTION,
            ),
            ("Ссылка комплектации", &trim.link, MAX_TRIM_LINK),
        ] {
            crate::domain::check_len("trimLevels", label, value, max)?;
        }
    }
    Ok(())
}

/// The brand and the body type must exist.
pub(super) fn check_references(conn: &Connection, input: &CarInput) -> AppResult<()> {
    if !crate::domain::brands::exists(conn, &input.brand_id)? {
        return Err(AppError::invalid("brandId", "Марка не найдена"));
    }
    if !crate::domain::body_types::exists(conn, &input.body_type)? {
        return Err(AppError::invalid(
            "bodyType",
            "Выберите тип кузова из списка",
        ));
    }
    if let Some(salon) = input.salon_id
        && !crate::domain::salons::exists(conn, salon)?
    {
        return Err(AppError::invalid(
            "salonId",
            crate::domain::salons::NO_SUCH_SALON,
        ));
    }
    Ok(())
}

impl Form for CarInput {
    const FIELDS: &'static [form::Field] = {
        use crate::domain::form::{Field, Kind};
        &[
            Field::required("brandId", Kind::Text, "Марка обязательна"),
            Field::required("name", Kind::Text, "Название обязательно"),
            Field::required("model", Kind::Text, "Модель обязательна"),
            Field::required("slug", Kind::Text, "Slug обязателен"),
            Field::required("year", Kind::Integer, "Год обязателен")
                .invalid("Год должен быть числом"),
            Field::required("price", Kind::Money, "Цена обязательна")
                .invalid("Цена должна быть числом"),
            Field::optional("monthlyPayment", Kind::Money)
                .invalid("Ежемесячный платёж должен быть числом"),
            Field::optional("dailyPrice", Kind::Money).invalid("Цена за сутки должна быть числом"),
            Field::required("status", Kind::Code, "Состояние обязательно")
                .invalid("Выберите состояние: новый, с пробегом или аренда"),
            Field::required("bodyType", Kind::Code, "Тип кузова обязателен")
                .invalid("Выберите тип кузова из списка"),
            Field::required("transmission", Kind::Code, "Коробка передач обязательна")
                .invalid("Выберите коробку передач из списка"),
            Field::optional("drivetrain", Kind::Code).invalid("Выберите привод из списка"),
            Field::required("fuelType", Kind::Code, "Тип топлива обязателен")
                .invalid("Выберите тип топлива из списка"),
            Field::required("engine", Kind::Text, "Двигатель обязателен"),
            Field::optional("mileage", Kind::Integer).invalid("Пробег должен быть целым числом"),
            Field::optional("mainImage", Kind::Text),
            Field::optional("images", Kind::Lines)
                .invalid("Изображения: список адресов, по одному в строке"),
            Field::optional("trimLevels", Kind::List)
                .invalid("Комплектации: список с названием, описанием и ссылкой"),
            Field::optional("inStock", Kind::Bool),
            Field::optional("featured", Kind::Bool),
            Field::optional("published", Kind::Bool),
            Field::optional("vin", Kind::Text),
            Field::optional("color", Kind::Text),
            Field::optional("externalId", Kind::Text),
            Field::optional("creditDiscount", Kind::Money)
                .invalid("Скидка при кредите должна быть числом"),
            Field::optional("tradeinDiscount", Kind::Money)
                .invalid("Скидка при трейд-ин должна быть числом"),
            Field::optional("insuranceDiscount", Kind::Money)
                .invalid("Скидка при страховании должна быть числом"),
            Field::optional("maxDiscount", Kind::Money)
                .invalid("Максимальная скидка должна быть числом"),
            Field::optional("trim", Kind::Text),
            Field::optional("generation", Kind::Text),
            Field::optional("doors", Kind::Integer).invalid("Число дверей — от 2 до 5"),
            Field::optional("owners", Kind::Integer).invalid(OWNERS_RANGE),
            Field::optional("accident", Kind::Bool),
            Field::optional("state", Kind::Code)
                .invalid("Выберите состояние: отличное, хорошее, среднее или требует ремонта"),
            Field::optional("wheel", Kind::Code).invalid("Выберите руль: левый или правый"),
            Field::optional("salonId", Kind::Integer).invalid(crate::domain::salons::NO_SUCH_SALON),
        ]
    };
}
