//! The rules of a record's fields, shared by every format: numbers, prices,
//! years, VIN, status, drive, engine, texts and pictures read and checked,
//! with the warnings a field earns, and the checked parts made a [`FeedCar`].

use super::parsed::{CarFields, Discounts, FeedCar, FieldWarning, MAX_EXTERNAL_ID, MAX_PHOTOS};
use super::record::Record;
use crate::domain::cars::{CarStatus, Drivetrain, FuelType, Transmission};
use crate::domain::money::Money;
use crate::parser::mapping;

pub(super) type RowResult<T> = Result<T, (Option<String>, String)>;

pub(super) fn field_error<T>(field: &str, message: impl Into<String>) -> RowResult<T> {
    Err((Some(field.to_string()), message.into()))
}

pub(super) fn required(record: &Record, names: &[&str], what: &str) -> RowResult<(String, String)> {
    record
        .first(names)
        .map_or_else(|| field_error(names[0], format!("Не указано: {what}")), Ok)
}

/// A value mapped by one of [`mapping`]'s functions, or the row's error.
pub(super) fn mapped<T>(
    field: &str,
    value: &str,
    what: &str,
    map: fn(&str) -> Option<T>,
) -> RowResult<T> {
    map(value).map_or_else(
        || {
            field_error(
                field,
                format!("Неизвестное значение «{}»: {what}", quoted(value)),
            )
        },
        Ok,
    )
}

/// A number as feeds write it: spaces (also no-break and thin) between the
/// digits, a decimal comma, a unit after it ("1 250 000 руб.", "45 000 км").
pub(super) fn number_text(value: &str) -> String {
    let cleaned: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{202f}' | '\u{2009}'))
        .collect::<String>()
        .replace(',', ".");
    let lower = cleaned.to_lowercase();
    for unit in ["руб.", "руб", "р.", "₽", "rub", "rur", "км", "km"] {
        if let Some(number) = lower.strip_suffix(unit)
            && number.ends_with(|c: char| c.is_ascii_digit())
        {
            return number.to_string();
        }
    }
    cleaned
}

pub(super) fn parse_money(field: &str, value: &str) -> RowResult<Money> {
    let cleaned = number_text(value);
    match Money::parse(&cleaned) {
        Ok(m) if m <= crate::domain::money::MAX_DECIMAL_12_2 => Ok(m),
        _ => field_error(field, format!("Не число: «{}»", quoted(value))),
    }
}

/// A car's price: a number above zero (a car at 0 ₽ is never published).
pub(super) fn parse_price(field: &str, value: &str) -> RowResult<Money> {
    let price = parse_money(field, value)?;
    if price == Money(0) {
        return field_error(field, crate::domain::cars::PRICE_ZERO);
    }
    Ok(price)
}

pub(super) fn parse_int(field: &str, value: &str) -> RowResult<i64> {
    let cleaned = number_text(value);
    cleaned.parse::<i64>().ok().filter(|n| *n >= 0).map_or_else(
        || field_error(field, format!("Не целое число: «{}»", quoted(value))),
        Ok,
    )
}

pub(super) fn parse_year(field: &str, value: &str, current_year: i32) -> RowResult<i32> {
    let year = parse_int(field, value)?;
    if year < 1990 || year > i64::from(current_year) + 1 {
        return field_error(
            field,
            format!("Год должен быть от 1990 до {}", current_year + 1),
        );
    }
    Ok(year as i32)
}

/// A VIN of 17 letters and digits; anything else (a Japanese frame number
/// "GRX130-6012345", a typo) is a warning and not stored: the car still
/// imports when it has its own id.
pub(super) fn parse_vin(value: Option<String>, warnings: &mut Vec<FieldWarning>) -> Option<String> {
    let vin: String = value?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    if vin.is_empty() {
        return None;
    }
    if vin.len() != 17 || !vin.bytes().all(|b| b.is_ascii_alphanumeric()) {
        warnings.push(FieldWarning {
            field: "vin".into(),
            message: format!(
                "VIN «{}» не из 17 латинских букв и цифр (номер кузова?): не сохранён",
                quoted(&vin)
            ),
        });
        return None;
    }
    Some(vin)
}

pub(super) fn external_id(field: &str, value: Option<String>) -> RowResult<Option<String>> {
    let Some(id) = value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
    else {
        return Ok(None);
    };
    if id.chars().count() > MAX_EXTERNAL_ID {
        return field_error(
            field,
            format!("Идентификатор длиннее {MAX_EXTERNAL_ID} символов"),
        );
    }
    Ok(Some(id))
}

pub(super) fn check_currency(record: &Record, names: &[&str]) -> RowResult<()> {
    if let Some((field, currency)) = record.first(names) {
        let upper = currency.to_uppercase();
        if !matches!(upper.as_str(), "RUR" | "RUB" | "РУБ" | "РУБ.") {
            return field_error(
                &field,
                format!(
                    "Валюта «{}» не поддерживается: цены только в рублях",
                    quoted(&currency)
                ),
            );
        }
    }
    Ok(())
}

pub(super) fn optional_money(record: &Record, name: &str) -> RowResult<Option<Money>> {
    match record.first(&[name]) {
        Some((field, value)) => parse_money(&field, &value).map(Some),
        None => Ok(None),
    }
}

/// Photo URLs: http(s) only, each once, at most [`MAX_PHOTOS`]; `unkept`
/// more were met but not kept by the reader. Beyond the limit a warning
/// says how many were dropped.
pub(super) fn photos(
    urls: impl IntoIterator<Item = String>,
    unkept: usize,
    warnings: &mut Vec<FieldWarning>,
) -> Vec<String> {
    let mut list: Vec<String> = Vec::new();
    let mut dropped = unkept;
    for url in urls {
        for part in url.split(|c: char| c.is_whitespace() || c == ',') {
            let part = part.trim();
            let web = part.starts_with("http://") || part.starts_with("https://");
            if web && part.len() <= 2000 && !list.iter().any(|u| u == part) {
                if list.len() < MAX_PHOTOS {
                    list.push(part.to_string());
                } else {
                    dropped += 1;
                }
            }
        }
    }
    if dropped > 0 {
        warnings.push(FieldWarning {
            field: "photos".into(),
            message: format!(
                "Фото в фиде больше {MAX_PHOTOS}: сохранены первые {MAX_PHOTOS}, ещё {dropped} \
                 отброшено"
            ),
        });
    }
    list
}

/// A feed's value as an error quotes it: at most 100 characters.
pub(super) fn quoted(value: &str) -> String {
    let mut short: String = value.chars().take(100).collect();
    if short.len() < value.len() {
        short.push('…');
    }
    short
}

/// The mileage a record carries (`None`: no mileage element, or an empty
/// one).
pub(super) fn mileage_of(record: &Record, names: &[&str]) -> RowResult<Option<i64>> {
    match record.first(names) {
        Some((field, value)) => parse_int(&field, &value).map(Some),
        None => Ok(None),
    }
}

/// The conditional discounts of a record (Auto.ru's and the CSV's columns
/// of the same names), checked against the price.
pub(super) fn discounts_of(
    record: &Record,
    price: Money,
    warnings: &mut Vec<FieldWarning>,
) -> RowResult<Discounts> {
    let mut discounts = Discounts {
        credit: optional_money(record, "credit_discount")?,
        tradein: optional_money(record, "tradein_discount")?,
        insurance: optional_money(record, "insurance_discount")?,
        max: optional_money(record, "max_discount")?,
    };
    check_discounts(price, &mut discounts, warnings);
    Ok(discounts)
}

/// A discount above the price is a feed's slip: dropped, with a warning.
pub(super) fn check_discounts(
    price: Money,
    discounts: &mut Discounts,
    warnings: &mut Vec<FieldWarning>,
) {
    for (field, value) in [
        ("credit_discount", &mut discounts.credit),
        ("tradein_discount", &mut discounts.tradein),
        ("insurance_discount", &mut discounts.insurance),
        ("max_discount", &mut discounts.max),
    ] {
        if value.is_some_and(|d| d > price) {
            *value = None;
            warnings.push(FieldWarning {
                field: "discount".into(),
                message: format!("{field}: скидка больше цены автомобиля, не сохранена"),
            });
        }
    }
}

/// A drive in the tables, else not stated: an unknown word is a warning.
pub(super) fn drive_of(
    record: &Record,
    names: &[&str],
    token: Option<Drivetrain>,
    warnings: &mut Vec<FieldWarning>,
) -> Option<Drivetrain> {
    match record.first(names) {
        Some((_, value)) => match mapping::drivetrain(&value) {
            Some(drive) => Some(drive),
            None => {
                warnings.push(FieldWarning {
                    field: "drivetrain".into(),
                    message: format!(
                        "Привод «{}» не распознан: на сайте он будет скрыт, пока его не \
                         укажут в карточке",
                        quoted(&value)
                    ),
                });
                token
            }
        },
        None => token,
    }
}

pub(super) fn text_field(value: String, field: &str, max: usize) -> RowResult<String> {
    if value.chars().count() > max {
        return field_error(field, format!("Длиннее {max} символов"));
    }
    Ok(value)
}

/// "GX, III" → ("GX", Some("III")); "Rio" → ("Rio", None).
pub(super) fn model_and_generation(folder: &str) -> (String, Option<String>) {
    match folder.split_once(',') {
        Some((model, generation)) if !model.trim().is_empty() => (
            model.trim().to_string(),
            Some(generation.trim().to_string()).filter(|g| !g.is_empty()),
        ),
        _ => (folder.trim().to_string(), None),
    }
}

/// Volume, power and fuel as the feed states them, from its modification
/// text and its own elements; the engine text and warnings follow.
pub(super) struct EngineFacts {
    pub(super) volume: Option<String>,
    pub(super) power: Option<u32>,
    /// Free text that is not in the catalogue's shape ("1.5 турбо").
    pub(super) text: Option<String>,
}

pub(super) fn engine_of(
    facts: EngineFacts,
    fuel: FuelType,
    transmission: Transmission,
    warnings: &mut Vec<FieldWarning>,
) -> String {
    if facts.power.is_none() {
        if facts.volume.is_none() && facts.text.is_none() {
            warnings.push(FieldWarning {
                field: "engine".into(),
                message: "Двигатель не указан (ни объёма, ни мощности): описание собрано из \
                          топлива и коробки передач"
                    .into(),
            });
        }
        warnings.push(FieldWarning {
            field: "power".into(),
            message: "Мощность не указана в фиде".into(),
        });
    }
    if facts.volume.is_none()
        && facts.power.is_none()
        && let Some(text) = facts.text
    {
        return text.chars().take(100).collect();
    }
    mapping::engine_text(facts.volume.as_deref(), facts.power, fuel, transmission)
}

pub(super) fn drive_warning(drivetrain: Option<Drivetrain>, warnings: &mut Vec<FieldWarning>) {
    if drivetrain.is_none() && !warnings.iter().any(|w| w.field == "drivetrain") {
        warnings.push(FieldWarning {
            field: "drivetrain".into(),
            message: "Привод не указан в фиде: на сайте он будет скрыт, пока его не укажут в \
                      карточке"
                .into(),
        });
    }
}

pub(super) fn trim_warning(trim: Option<&String>, warnings: &mut Vec<FieldWarning>) {
    if trim.is_none() {
        warnings.push(FieldWarning {
            field: "trim".into(),
            message: "Комплектация не указана в фиде".into(),
        });
    }
}

/// A descriptive text cut to what the catalogue keeps (a colour).
pub(super) fn short_text(record: &Record, names: &[&str], max: usize) -> Option<String> {
    record
        .first(names)
        .map(|(_, value)| value.chars().take(max).collect())
}

pub(super) fn optional_text(
    record: &Record,
    names: &[&str],
    max: usize,
) -> RowResult<Option<String>> {
    record
        .first(names)
        .map(|(field, value)| text_field(value, &field, max))
        .transpose()
}

/// "Executive" → "GX Executive"; a trim that already starts with the model
/// is the whole name.
pub(super) fn name_of(model: &str, trim: Option<&String>) -> String {
    match trim {
        Some(trim) if trim.to_lowercase().starts_with(&model.to_lowercase()) => trim.clone(),
        Some(trim) => format!("{model} {trim}"),
        None => model.to_string(),
    }
    .chars()
    .take(255)
    .collect()
}

pub(super) fn doors_of(record: &Record, names: &[&str]) -> Option<i64> {
    record
        .first(names)
        .and_then(|(_, v)| v.trim().parse::<i64>().ok())
        .filter(|d| (2..=5).contains(d))
}

pub(super) struct FeedCarParts {
    pub(super) row: u32,
    pub(super) line: u32,
    pub(super) external_id: Option<String>,
    pub(super) vin: Option<String>,
    pub(super) brand: String,
    pub(super) name: String,
    pub(super) model: String,
    pub(super) trim: Option<String>,
    pub(super) generation: Option<String>,
    pub(super) doors: Option<i64>,
    pub(super) year: i32,
    pub(super) price: Money,
    pub(super) status: Option<CarStatus>,
    pub(super) body: String,
    pub(super) transmission: Transmission,
    pub(super) drivetrain: Option<Drivetrain>,
    pub(super) fuel_type: FuelType,
    pub(super) engine: String,
    /// None: the record carries no mileage (0 is stored).
    pub(super) mileage: Option<i64>,
    pub(super) used_signs: Vec<String>,
    pub(super) color: Option<String>,
    pub(super) photos: Vec<String>,
    pub(super) discounts: Option<Discounts>,
    pub(super) car_fields: CarFields,
    pub(super) warnings: Vec<FieldWarning>,
}

pub(super) fn car(parts: FeedCarParts) -> RowResult<FeedCar> {
    if parts.external_id.is_none() && parts.vin.is_none() {
        return Err((
            None,
            "Нет ни идентификатора объявления, ни VIN: автомобиль нельзя сопоставить".into(),
        ));
    }
    if parts.brand.chars().count() > 100 {
        return field_error("brand", "Марка длиннее 100 символов");
    }
    if mapping::body_guess(&parts.body).is_none() {
        return field_error("body_type", "Не указано: тип кузова");
    }
    let mut warnings = parts.warnings;
    warnings.sort_by(|a, b| a.field.cmp(&b.field));
    Ok(FeedCar {
        row: parts.row,
        line: parts.line,
        external_id: parts.external_id,
        vin: parts.vin,
        brand: parts.brand.trim().to_string(),
        model: parts.model,
        name: parts.name,
        trim: parts.trim.filter(|t| !t.trim().is_empty()),
        generation: parts.generation.filter(|g| !g.trim().is_empty()),
        doors: parts.doors,
        year: parts.year,
        price: parts.price,
        status: parts.status,
        body: parts.body.trim().to_string(),
        transmission: parts.transmission,
        drivetrain: parts.drivetrain,
        fuel_type: parts.fuel_type,
        engine: parts.engine,
        mileage: parts.mileage.unwrap_or(0),
        mileage_stated: parts.mileage.is_some(),
        used_signs: parts.used_signs,
        color: parts.color.filter(|c| !c.trim().is_empty()),
        photos: parts.photos,
        discounts: parts.discounts,
        owners: parts.car_fields.owners,
        accident: parts.car_fields.accident,
        state: parts.car_fields.state,
        wheel: parts.car_fields.wheel,
        warnings,
    })
}
