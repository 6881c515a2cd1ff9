//! The CSV format: its columns ([`CSV_COLUMNS`]), the reader (separator and
//! quotes) and a row made a [`FeedCar`].

use super::condition::{ConditionFacts, condition};
use super::fields::{
    EngineFacts, FeedCarParts, RowResult, car, discounts_of, doors_of, drive_of, drive_warning,
    engine_of, external_id, mapped, mileage_of, name_of, optional_text, parse_price, parse_vin,
    parse_year, photos, required, short_text, text_field, trim_warning,
};
use super::parsed::{FeedCar, FeedError, FeedFormat, FieldWarning, Parsed, RowError};
use super::record::Record;
use crate::parser::mapping;
use std::collections::HashMap;

/// The CSV header (`docs/parser.md`, README): these names, in any order;
/// `;` or `,` separated. Required: brand, model, year, price, body_type,
/// transmission, fuel_type, and id or vin.
pub const CSV_COLUMNS: &[&str] = &[
    "id",
    "vin",
    "brand",
    "model",
    "name",
    "year",
    "price",
    "status",
    "body_type",
    "transmission",
    "drivetrain",
    "fuel_type",
    "engine",
    "mileage",
    "owners",
    "color",
    "photos",
    "credit_discount",
    "tradein_discount",
    "insurance_discount",
    "max_discount",
    "trim",
    "generation",
    "doors",
];

pub(super) fn parse_csv(bytes: &[u8], current_year: i32) -> Result<Parsed, FeedError> {
    let first_line = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let delimiter = if first_line.contains(&b';') {
        b';'
    } else {
        b','
    };
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(bytes);
    let headers = reader
        .headers()
        .map_err(|e| {
            FeedError(format!(
                "CSV: не удалось прочитать заголовок (строка 1): {e}"
            ))
        })?
        .clone();
    let names: Vec<String> = headers.iter().map(|h| h.trim().to_lowercase()).collect();
    for name in &names {
        if !CSV_COLUMNS.contains(&name.as_str()) {
            return Err(FeedError(format!(
                "CSV: неизвестная колонка «{name}» в заголовке (строка 1). Допустимые колонки: {}",
                CSV_COLUMNS.join(", ")
            )));
        }
    }
    for needed in [
        "brand",
        "model",
        "year",
        "price",
        "body_type",
        "transmission",
        "fuel_type",
    ] {
        if !names.iter().any(|n| n == needed) {
            return Err(FeedError(format!(
                "CSV: в заголовке (строка 1) нет колонки «{needed}»"
            )));
        }
    }
    if !names.iter().any(|n| n == "id" || n == "vin") {
        return Err(FeedError(
            "CSV: в заголовке (строка 1) нужна колонка «id» или «vin»".into(),
        ));
    }
    let has_discounts = names.iter().any(|n| n.ends_with("_discount"));
    let has_trim = names.iter().any(|n| n == "trim");
    let mut parsed = Parsed {
        format: Some(FeedFormat::Csv),
        ..Parsed::default()
    };
    for result in reader.records() {
        let record = match result {
            Ok(record) => record,
            Err(err) => {
                let line = err.position().map_or(0, |p| p.line() as u32);
                return Err(FeedError(format!(
                    "CSV повреждён в строке {line}: {err}. Импорт не выполнен"
                )));
            }
        };
        let line = record.position().map_or(0, |p| p.line() as u32);
        if record.iter().all(|v| v.trim().is_empty()) {
            continue;
        }
        let mut fields: HashMap<String, Vec<String>> = HashMap::new();
        for (name, value) in names.iter().zip(record.iter()) {
            fields.insert(name.clone(), vec![value.to_string()]);
        }
        let row = Record {
            fields,
            row: line,
            line,
        };
        match csv_car(&row, current_year, has_discounts, has_trim) {
            Ok(car) => parsed.cars.push(car),
            Err((field, message)) => parsed.errors.push(RowError {
                row: line,
                line,
                field,
                message,
            }),
        }
    }
    Ok(parsed)
}

pub(super) fn csv_car(
    record: &Record,
    current_year: i32,
    has_discounts: bool,
    has_trim: bool,
) -> RowResult<FeedCar> {
    let (_, brand) = required(record, &["brand"], "марка")?;
    let (_, model) = required(record, &["model"], "модель")?;
    let model = text_field(model, "model", 100)?;
    let trim = optional_text(record, &["trim"], 100)?;
    let name = match record.first(&["name"]) {
        Some((_, name)) => text_field(name, "name", 255)?,
        None => name_of(&model, trim.as_ref()),
    };
    let (_, year) = required(record, &["year"], "год выпуска")?;
    let year = parse_year("year", &year, current_year)?;
    let (_, price) = required(record, &["price"], "цена")?;
    let price = parse_price("price", &price)?;
    let (_, body) = required(record, &["body_type"], "тип кузова")?;
    let (_, gear) = required(record, &["transmission"], "коробка передач")?;
    let transmission = mapped(
        "transmission",
        &gear,
        "коробка передач",
        mapping::transmission,
    )?;
    let mut warnings = Vec::new();
    let drivetrain = drive_of(record, &["drivetrain"], None, &mut warnings);
    let (_, fuel) = required(record, &["fuel_type"], "тип двигателя")?;
    let fuel_type = mapped("fuel_type", &fuel, "тип двигателя", mapping::fuel_type)?;
    let engine = match record.first(&["engine"]) {
        Some((_, engine)) => {
            let engine = text_field(engine, "engine", 100)?;
            if mapping::engine_figures(&engine).1.is_none() {
                warnings.push(FieldWarning {
                    field: "power".into(),
                    message: "Мощность не указана в фиде".into(),
                });
            }
            engine
        }
        None => engine_of(
            EngineFacts {
                volume: None,
                power: None,
                text: None,
            },
            fuel_type,
            transmission,
            &mut warnings,
        ),
    };
    drive_warning(drivetrain, &mut warnings);
    if has_trim {
        trim_warning(trim.as_ref(), &mut warnings);
    }
    let mileage = mileage_of(record, &["mileage"])?;
    let found = condition(
        &ConditionFacts {
            mileage,
            year,
            ..ConditionFacts::of(record, &["status"], &["owners"], &[])
        },
        current_year,
    );
    let vin = parse_vin(record.first(&["vin"]).map(|(_, v)| v), &mut warnings);
    let external_id = external_id("id", record.first(&["id"]).map(|(_, v)| v))?;
    let discounts = if has_discounts {
        Some(discounts_of(record, price, &mut warnings)?)
    } else {
        None
    };
    let urls = record
        .first(&["photos"])
        .map(|(_, v)| v.split('|').map(str::to_string).collect::<Vec<_>>())
        .unwrap_or_default();
    let color = short_text(record, &["color"], 50);
    car(FeedCarParts {
        row: record.row,
        line: record.line,
        external_id,
        vin,
        brand,
        name,
        model,
        trim,
        generation: optional_text(record, &["generation"], 50)?,
        doors: doors_of(record, &["doors"]),
        year,
        price,
        status: found.status,
        body,
        transmission,
        drivetrain,
        fuel_type,
        engine,
        mileage,
        used_signs: found.used_signs,
        color,
        photos: photos(urls),
        discounts,
        warnings,
    })
}
