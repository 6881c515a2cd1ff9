//! The CSV format: its columns ([`CSV_COLUMNS`]), the reader (separator and
//! quotes, linear in time and bounded in memory whatever a row holds) and a
//! row made a [`FeedCar`].

use super::car_fields::{self, car_fields};
use super::condition::{ConditionFacts, condition};
use super::fields::{
    EngineFacts, FeedCarParts, RowResult, car, discounts_of, doors_of, drive_of, drive_warning,
    engine_of, external_id, mapped, mileage_of, name_of, optional_text, parse_price, parse_vin,
    parse_year, photos, quoted, required, short_text, text_field, trim_warning,
};
use super::parsed::{
    FeedCar, FeedError, FeedFormat, FieldWarning, MAX_RECORD_BYTES, Parsed, RowError,
};
use super::record::{Lines, Record};
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
    "accident",
    "state",
    "wheel",
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

/// The most fields a CSV row keeps (the columns are fewer).
const MAX_CSV_FIELDS: usize = 64;

/// A CSV row as read: its fields (each cut to 100 bytes once the row passed
/// [`MAX_RECORD_BYTES`]) and where it starts.
struct Row {
    fields: Vec<Vec<u8>>,
    start: usize,
    large: bool,
}

/// Reads a CSV's rows one by one, in time linear in its size, keeping at
/// most [`MAX_RECORD_BYTES`] of a row (`csv_core`: no row is held whole).
struct Rows<'a> {
    bytes: &'a [u8],
    at: usize,
    reader: ::csv_core::Reader,
    chunk: Vec<u8>,
}

impl Rows<'_> {
    fn next_row(&mut self) -> Option<Row> {
        let mut start = self.at;
        while self
            .bytes
            .get(start)
            .is_some_and(|b| *b == b'\r' || *b == b'\n')
        {
            start += 1;
        }
        let mut row = Row {
            fields: Vec::new(),
            start,
            large: false,
        };
        let mut field = Vec::new();
        let mut kept = 0usize;
        let mut any = false;
        loop {
            let (result, read, written) = self
                .reader
                .read_field(&self.bytes[self.at..], &mut self.chunk);
            self.at += read;
            if !row.large && self.at - start > MAX_RECORD_BYTES {
                row.large = true;
                for kept in &mut row.fields {
                    kept.truncate(100);
                }
                field.truncate(100);
            }
            let room = if row.large {
                100usize.saturating_sub(field.len())
            } else {
                MAX_RECORD_BYTES.saturating_sub(kept)
            };
            let piece = &self.chunk[..written.min(room)];
            kept += piece.len();
            field.extend_from_slice(piece);
            match result {
                ::csv_core::ReadFieldResult::InputEmpty
                | ::csv_core::ReadFieldResult::OutputFull => {}
                ::csv_core::ReadFieldResult::Field { record_end } => {
                    any = true;
                    let done = std::mem::take(&mut field);
                    if row.fields.len() < MAX_CSV_FIELDS {
                        row.fields.push(done);
                    }
                    if record_end {
                        return Some(row);
                    }
                }
                ::csv_core::ReadFieldResult::End => return any.then_some(row),
            }
        }
    }
}

pub(super) fn parse_csv(
    bytes: &[u8],
    encoding: &'static encoding_rs::Encoding,
    current_year: i32,
) -> Result<Parsed, FeedError> {
    let first_line = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let delimiter = if first_line.contains(&b';') {
        b';'
    } else {
        b','
    };
    let mut rows = Rows {
        bytes,
        at: 0,
        reader: ::csv_core::ReaderBuilder::new()
            .delimiter(delimiter)
            .build(),
        chunk: vec![0; 8192],
    };
    let mut lines = Lines {
        bytes,
        at: 0,
        line: 1,
    };
    let text = |field: Vec<u8>, line: u32| -> Result<String, FeedError> {
        if encoding != encoding_rs::UTF_8 {
            return Ok(encoding.decode_without_bom_handling(&field).0.into_owned());
        }
        String::from_utf8(field).map_err(|_| {
            FeedError(format!(
                "CSV повреждён в строке {line}: текст не в UTF-8 и не в windows-1251. Импорт не \
                 выполнен"
            ))
        })
    };
    let header = match rows.next_row() {
        Some(row) if row.large => {
            return Err(FeedError(format!(
                "CSV: заголовок (строка 1) больше {} МБ",
                MAX_RECORD_BYTES / (1024 * 1024)
            )));
        }
        Some(row) => row.fields,
        None => Vec::new(),
    };
    let mut names: Vec<String> = Vec::new();
    for name in header {
        names.push(text(name, 1)?.trim().to_lowercase());
    }
    for name in &names {
        if !CSV_COLUMNS.contains(&name.as_str()) {
            return Err(FeedError(format!(
                "CSV: неизвестная колонка «{}» в заголовке (строка 1). Допустимые колонки: {}",
                quoted(name),
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
    while let Some(read) = rows.next_row() {
        let line = lines.line_at(read.start);
        let large = read.large;
        let mut values = Vec::with_capacity(read.fields.len());
        for field in read.fields {
            values.push(if large {
                encoding.decode_without_bom_handling(&field).0.into_owned()
            } else {
                text(field, line)?
            });
        }
        if values.iter().all(|v| v.trim().is_empty()) {
            continue;
        }
        let mut fields: HashMap<String, Vec<String>> = HashMap::new();
        for (name, value) in names.iter().zip(values) {
            fields.insert(name.clone(), vec![value]);
        }
        let row = Record {
            fields,
            row: line,
            line,
            ..Record::default()
        };
        if large {
            parsed.errors.push(RowError {
                row: line,
                line,
                field: None,
                message: format!(
                    "{}: строка больше {} МБ; строка не импортирована",
                    row.who(),
                    MAX_RECORD_BYTES / (1024 * 1024)
                ),
            });
            continue;
        }
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
        photos: photos(urls, 0, &mut warnings),
        discounts,
        car_fields: car_fields(record, &car_fields::CSV, &mut warnings),
        warnings,
    })
}
