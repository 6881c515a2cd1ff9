//! The two XML formats: the reader of Auto.ru's `<data><cars><car>` and
//! Avito Autoload's `<Ads><Ad>` into records, and each format's record made
//! a [`FeedCar`] (`autoru_car`, `avito_car`).

use super::car_fields::{self, car_fields};
use super::condition::{ConditionFacts, condition};
use super::fields::{
    EngineFacts, FeedCarParts, RowResult, car, check_currency, discounts_of, doors_of, drive_of,
    drive_warning, engine_of, external_id, field_error, mapped, mileage_of, model_and_generation,
    name_of, optional_text, parse_price, parse_vin, parse_year, photos, quoted, required,
    short_text, text_field, trim_warning,
};
use super::parsed::{
    FeedCar, FeedError, FeedFormat, MAX_DOCUMENT_DEPTH, MAX_RECORD_BYTES, MAX_RECORD_DEPTH, Parsed,
    RowError,
};
use super::record::{Lines, Record};
use super::skip::skip_element;
use crate::domain::cars::FuelType;
use crate::parser::mapping;
use encoding_rs::Encoding;
use quick_xml::Reader;
use quick_xml::events::Event;
use std::borrow::Cow;

/// A reader of `bytes` from `offset`: it keeps no stack of its own
/// (ours is bounded, [`MAX_DOCUMENT_DEPTH`]), so it can start again past
/// skipped content.
fn reader_at(bytes: &[u8], offset: usize) -> Reader<&[u8]> {
    let mut reader = Reader::from_reader(&bytes[offset..]);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    reader
}

/// Why a record is refused as a whole (a row error naming its car).
enum Refusal {
    Deep(String),
    Large,
}

/// The longest element name read: a longer one refuses the feed.
const MAX_NAME_BYTES: usize = 1000;

/// The text a refused record still gathers for an element (to name its car).
const NAMING_TEXT: usize = 400;

/// The record being read.
struct Open {
    record: Record,
    /// Our stack's length with the record's element on it.
    depth: usize,
    /// Where its element starts in the feed.
    start: usize,
    /// The path of the element being read, below the record.
    path: String,
    /// Where each open element's name starts in `path`.
    path_starts: Vec<usize>,
    text: String,
    refused: Option<Refusal>,
}

impl Open {
    fn enter(&mut self, name: &str) {
        self.path_starts.push(self.path.len());
        if !self.path.is_empty() {
            self.path.push('/');
        }
        self.path.push_str(name);
    }

    fn leave(&mut self) {
        let start = self.path_starts.pop().unwrap_or(0);
        self.path.truncate(start);
    }

    /// How much more text the element being read may gather: a refused
    /// record keeps only short texts (its car's name).
    fn room(&self) -> usize {
        match self.refused {
            None => usize::MAX,
            Some(_) => NAMING_TEXT.saturating_sub(self.text.len()),
        }
    }

    fn add_text(&mut self, text: &str) {
        let room = self.room();
        if text.len() <= room {
            self.text.push_str(text);
        } else {
            let mut end = room;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            self.text.push_str(&text[..end]);
        }
    }

    fn keep(&mut self, path: &str, value: String) {
        let naming_only = self.refused.is_some();
        self.record.push(path, value, naming_only);
    }
}

/// A text of the feed as UTF-8: a feed in an encoding of its declaration
/// (windows-1251) is decoded piece by piece, never as a whole.
fn decode<'a>(encoding: &'static Encoding, raw: &'a [u8]) -> Result<Cow<'a, str>, String> {
    if encoding == encoding_rs::UTF_8 {
        std::str::from_utf8(raw)
            .map(Cow::Borrowed)
            .map_err(|err| format!("текст не в UTF-8 ({err})"))
    } else {
        Ok(encoding.decode_without_bom_handling(raw).0)
    }
}

fn lossy(encoding: &'static Encoding, raw: &[u8]) -> String {
    encoding.decode_without_bom_handling(raw).0.into_owned()
}

fn cut_name(name: &str) -> String {
    name.chars().take(100).collect()
}

/// Reads an XML feed in one pass, in time linear in its size: at most
/// [`MAX_DOCUMENT_DEPTH`] open elements are kept; a record keeps its fields
/// within the limits of [`Record::push`] and [`MAX_RECORD_BYTES`], and its
/// content deeper than [`MAX_RECORD_DEPTH`] is skipped unread (a row error).
pub(super) fn parse_xml(
    bytes: &[u8],
    encoding: &'static Encoding,
    current_year: i32,
) -> Result<Parsed, FeedError> {
    let mut base = 0usize;
    let mut reader = reader_at(bytes, base);
    let mut lines = Lines {
        bytes,
        at: 0,
        line: 1,
    };
    let mut stack: Vec<String> = Vec::new();
    let mut format: Option<FeedFormat> = None;
    let mut open: Option<Open> = None;
    let mut count = 0u32;
    let mut parsed = Parsed::default();
    loop {
        let before = base + reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            let line = lines.line_at(base + reader.error_position() as usize);
            FeedError(format!(
                "XML повреждён в строке {line}: {e}. Импорт не выполнен: исправьте файл фида"
            ))
        })?;
        let after = base + reader.buffer_position() as usize;
        let here = lines.line_at(before);
        let broken = |message: String| FeedError(format!("Ошибка XML в строке {here}: {message}"));
        if let Some(o) = open.as_mut()
            && o.refused.is_none()
            && after - o.start > MAX_RECORD_BYTES
        {
            o.refused = Some(Refusal::Large);
            o.text = String::new();
        }
        match event {
            Event::DocType(doctype) => {
                let raw: &[u8] = &doctype;
                let declares = raw.windows(8).any(|w| w.eq_ignore_ascii_case(b"<!ENTITY"));
                if declares {
                    return Err(FeedError(
                        "Документ объявляет сущности XML (<!ENTITY> в DOCTYPE): такие фиды не \
                         принимаются из соображений безопасности"
                            .into(),
                    ));
                }
            }
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                if e.name().as_ref().len() > MAX_NAME_BYTES {
                    return Err(broken(format!(
                        "имя элемента длиннее {MAX_NAME_BYTES} символов: такой фид не принимается"
                    )));
                }
                let name = lossy(encoding, e.name().as_ref());
                if stack.is_empty() {
                    format = Some(match name.as_str() {
                        "data" => FeedFormat::Autoru,
                        "Ads" => FeedFormat::Avito,
                        other => {
                            return Err(FeedError(format!(
                                "Неизвестный формат XML: корневой элемент <{}>. Ожидается \
                                 <data> (Авто.ру) или <Ads> (Авито)",
                                cut_name(other)
                            )));
                        }
                    });
                    parsed.format = format;
                }
                let is_record = open.is_none()
                    && match format {
                        Some(FeedFormat::Autoru) => {
                            name == "car" && stack.len() == 2 && stack[1] == "cars"
                        }
                        Some(FeedFormat::Avito) => name == "Ad" && stack.len() == 1,
                        _ => false,
                    };
                if is_record {
                    count += 1;
                    let record = Record {
                        row: count,
                        line: here,
                        ..Record::default()
                    };
                    if empty {
                        finish(&mut parsed, format, &record, None, current_year);
                        continue;
                    }
                    open = Some(Open {
                        record,
                        depth: stack.len() + 1,
                        start: before,
                        path: String::new(),
                        path_starts: Vec::new(),
                        text: String::new(),
                        refused: None,
                    });
                } else if let Some(o) = open.as_mut() {
                    let level = stack.len() + 1 - o.depth;
                    if level > MAX_RECORD_DEPTH {
                        // Nothing of a car is this deep: the record is
                        // refused, and this element skipped unread.
                        if o.refused.is_none() {
                            let top = o.path.split('/').next().unwrap_or_default();
                            o.refused = Some(Refusal::Deep(cut_name(top)));
                            o.text = String::new();
                        }
                        if !empty {
                            let Some(end) = skip_element(bytes, after) else {
                                return Err(FeedError(format!(
                                    "XML обрывается: не закрыт элемент <{}> (файл загружен не \
                                     полностью?)",
                                    cut_name(&name)
                                )));
                            };
                            base = end;
                            reader = reader_at(bytes, base);
                        }
                        continue;
                    }
                    o.enter(&name);
                    if o.refused.is_none() {
                        let mut attributes = e.attributes();
                        for attribute in attributes.with_checks(false) {
                            let attribute =
                                attribute.map_err(|err| broken(format!("атрибут: {err}")))?;
                            let key = lossy(encoding, attribute.key.as_ref());
                            let value = decode(encoding, &attribute.value)
                                .and_then(|raw| {
                                    quick_xml::escape::unescape(&raw)
                                        .map(|v| v.into_owned())
                                        .map_err(|err| err.to_string())
                                })
                                .map_err(|err| {
                                    broken(format!("атрибут {}: {err}", cut_name(&key)))
                                })?;
                            let path = format!("{}@{key}", o.path);
                            o.keep(&path, value);
                        }
                    }
                    if empty {
                        let path = std::mem::take(&mut o.path);
                        o.keep(&path, String::new());
                        o.path = path;
                        o.leave();
                    }
                } else if !empty && stack.len() >= MAX_DOCUMENT_DEPTH {
                    return Err(broken(format!(
                        "элементы вложены глубже {MAX_DOCUMENT_DEPTH} уровней: такой фид не \
                         принимается"
                    )));
                }
                if !empty {
                    stack.push(name);
                    if let Some(o) = open.as_mut() {
                        o.text.clear();
                    }
                }
            }
            Event::Text(e) => {
                if let Some(o) = open.as_mut().filter(|o| o.room() > 0) {
                    let decoded = decode(encoding, &e).map_err(broken)?;
                    o.add_text(&decoded);
                }
            }
            Event::CData(e) => {
                if let Some(o) = open.as_mut().filter(|o| o.room() > 0) {
                    let decoded = decode(encoding, &e).map_err(broken)?;
                    o.add_text(&decoded);
                }
            }
            Event::GeneralRef(e) => {
                let resolved = match e
                    .resolve_char_ref()
                    .map_err(|err| broken(err.to_string()))?
                {
                    Some(c) => c.to_string(),
                    None => {
                        let name = e.decode().map_err(|err| broken(err.to_string()))?;
                        match quick_xml::escape::resolve_predefined_entity(&name) {
                            Some(value) => value.to_string(),
                            // Never expanded: custom entities are refused.
                            None => {
                                return Err(broken(format!(
                                    "неизвестная сущность &{}; (сущности XML не раскрываются)",
                                    cut_name(&name)
                                )));
                            }
                        }
                    }
                };
                if let Some(o) = open.as_mut() {
                    o.add_text(&resolved);
                }
            }
            Event::End(e) => {
                let Some(name) = stack.pop() else {
                    return Err(broken("лишний закрывающий тег".into()));
                };
                if name.as_bytes() != e.name().as_ref() {
                    return Err(FeedError(format!(
                        "XML повреждён в строке {here}: ожидался закрывающий тег </{}>, а \
                         найден </{}>. Импорт не выполнен: исправьте файл фида",
                        cut_name(&name),
                        cut_name(&lossy(encoding, e.name().as_ref()))
                    )));
                }
                if let Some(o) = open.as_mut() {
                    if stack.len() + 1 == o.depth {
                        if let Some(done) = open.take() {
                            finish(
                                &mut parsed,
                                format,
                                &done.record,
                                done.refused.as_ref(),
                                current_year,
                            );
                        }
                    } else {
                        let text = std::mem::take(&mut o.text);
                        let path = std::mem::take(&mut o.path);
                        o.keep(&path, text);
                        o.path = path;
                        o.leave();
                    }
                }
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) => {}
        }
    }
    if let Some(last) = stack.last() {
        return Err(FeedError(format!(
            "XML обрывается: не закрыт элемент <{}> (файл загружен не полностью?)",
            cut_name(last)
        )));
    }
    if format.is_none() {
        return Err(FeedError("В файле нет XML-документа".into()));
    }
    Ok(parsed)
}

fn refusal_error(record: &Record, refusal: &Refusal) -> RowError {
    let (field, message) = match refusal {
        Refusal::Deep(field) => (
            Some(field.clone()).filter(|f| !f.is_empty()),
            format!(
                "{}: вложенность элементов глубже {MAX_RECORD_DEPTH} уровней — у автомобиля \
                 нет таких полей; запись не импортирована",
                record.who()
            ),
        ),
        Refusal::Large => (
            None,
            format!(
                "{}: запись больше {} МБ; запись не импортирована",
                record.who(),
                MAX_RECORD_BYTES / (1024 * 1024)
            ),
        ),
    };
    RowError {
        row: record.row,
        line: record.line,
        field,
        message,
    }
}

fn finish(
    parsed: &mut Parsed,
    format: Option<FeedFormat>,
    record: &Record,
    refused: Option<&Refusal>,
    current_year: i32,
) {
    if let Some(refusal) = refused {
        parsed.errors.push(refusal_error(record, refusal));
        return;
    }
    let result = match format {
        Some(FeedFormat::Autoru) => autoru_car(record, current_year),
        Some(FeedFormat::Avito) => avito_car(record, current_year),
        _ => return,
    };
    match result {
        Ok(car) => parsed.cars.push(car),
        Err((field, message)) => parsed.errors.push(RowError {
            row: record.row,
            line: record.line,
            field,
            message,
        }),
    }
}

pub(super) fn autoru_car(record: &Record, current_year: i32) -> RowResult<FeedCar> {
    let (_, brand) = required(record, &["mark_id", "mark"], "марка")?;
    let (model_field, folder) = required(record, &["folder_id", "model"], "модель")?;
    let (model, generation) = model_and_generation(&folder);
    let model = text_field(model, &model_field, 100)?;
    let generation = generation.map(|g| g.chars().take(50).collect::<String>());
    let modification = record
        .first(&["modification_id", "modification"])
        .map(|(_, v)| v)
        .unwrap_or_default();
    let tokens = mapping::modification(&modification);
    let (year_field, year) = required(record, &["year"], "год выпуска")?;
    let year = parse_year(&year_field, &year, current_year)?;
    let (price_field, price) = required(record, &["price"], "цена")?;
    let price = parse_price(&price_field, &price)?;
    check_currency(record, &["currency"])?;
    let (_, body) = required(record, &["body_type"], "тип кузова")?;
    let transmission = match record.first(&["gearbox", "transmission", "gear_type"]) {
        Some((field, value)) => mapped(&field, &value, "коробка передач", mapping::transmission)?,
        None => tokens.transmission.map_or_else(
            || {
                field_error(
                    "modification_id",
                    "Не указана коробка передач (AT, MT, AMT, CVT)",
                )
            },
            Ok,
        )?,
    };
    let mut warnings = Vec::new();
    let drivetrain = drive_of(
        record,
        &["drive", "wheel_drive", "gear"],
        tokens.drivetrain,
        &mut warnings,
    );
    let fuel_type = match record.first(&["engine_type", "fuel_type"]) {
        Some((field, value)) => mapped(&field, &value, "тип двигателя", mapping::fuel_type)?,
        // Auto.ru marks diesel, hybrid and electric modifications; an
        // unmarked one is petrol.
        None => tokens.fuel_type.unwrap_or(FuelType::Gasoline),
    };
    let trim = optional_text(record, &["complectation_name", "complectation"], 100)?;
    let engine = engine_of(
        EngineFacts {
            text: (!tokens.is_catalogue() && !modification.is_empty())
                .then(|| modification.clone()),
            volume: tokens.volume.clone(),
            power: tokens.power,
        },
        fuel_type,
        transmission,
        &mut warnings,
    );
    drive_warning(drivetrain, &mut warnings);
    trim_warning(trim.as_ref(), &mut warnings);
    let mileage = mileage_of(record, &["run"])?;
    // Auto.ru's `state` is the car's condition ("Отличное"): only used cars
    // have one, so it is evidence, not a statement.
    let found = condition(
        &ConditionFacts {
            mileage,
            state: record.first(&["state"]).map(|(_, v)| v),
            registry_year: record.first(&["registry_year"]).map(|(_, v)| v),
            year,
            ..ConditionFacts::of(
                record,
                &["section", "status"],
                &["owners_number"],
                &[("description", "описании")],
            )
        },
        current_year,
    );
    let vin = parse_vin(record.first(&["vin"]).map(|(_, v)| v), &mut warnings);
    let external_id = external_id("unique_id", record.first(&["unique_id"]).map(|(_, v)| v))?;
    let discounts = discounts_of(record, price, &mut warnings)?;
    let (mut urls, mut unkept) = (record.all("images/image"), record.unkept("images/image"));
    if urls.is_empty() {
        (urls, unkept) = (record.all("images"), record.unkept("images"));
    }
    let color = short_text(record, &["color"], 50);
    car(FeedCarParts {
        row: record.row,
        line: record.line,
        external_id,
        vin,
        brand,
        name: name_of(&model, trim.as_ref()),
        model,
        trim,
        generation,
        doors: doors_of(record, &["doors", "doors_count"]),
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
        photos: photos(urls, unkept, &mut warnings),
        discounts: Some(discounts),
        car_fields: car_fields(record, &car_fields::AUTORU, &mut warnings),
        warnings,
    })
}

pub(super) fn avito_car(record: &Record, current_year: i32) -> RowResult<FeedCar> {
    if let Some((field, category)) = record.first(&["Category"])
        && mapping::normalise(&category) != "автомобили"
    {
        return field_error(
            &field,
            format!("Категория «{}» — не легковой автомобиль", quoted(&category)),
        );
    }
    let (_, brand) = required(record, &["Make"], "марка")?;
    let (model_field, model) = required(record, &["Model"], "модель")?;
    let model = text_field(model, &model_field, 100)?;
    let (year_field, year) = required(record, &["Year"], "год выпуска")?;
    let year = parse_year(&year_field, &year, current_year)?;
    let (price_field, price) = required(record, &["Price"], "цена")?;
    let price = parse_price(&price_field, &price)?;
    let (_, body) = required(record, &["BodyType"], "тип кузова")?;
    let modification = record
        .first(&["Modification"])
        .map(|(_, v)| v)
        .unwrap_or_default();
    let tokens = mapping::modification(&modification);
    let transmission = match record.first(&["Transmission"]) {
        Some((field, value)) => mapped(&field, &value, "коробка передач", mapping::transmission)?,
        None => tokens.transmission.map_or_else(
            || field_error("Transmission", "Не указано: коробка передач"),
            Ok,
        )?,
    };
    let mut warnings = Vec::new();
    let drivetrain = drive_of(record, &["DriveType"], tokens.drivetrain, &mut warnings);
    let fuel_type = match record.first(&["FuelType"]) {
        Some((field, value)) => mapped(&field, &value, "тип двигателя", mapping::fuel_type)?,
        None => tokens.fuel_type.unwrap_or(FuelType::Gasoline),
    };
    let mileage = mileage_of(record, &["Kilometrage", "Mileage"])?;
    let found = condition(
        &ConditionFacts {
            mileage,
            year,
            ..ConditionFacts::of(
                record,
                &["CarType", "Condition"],
                &["Owners"],
                &[("Title", "заголовке"), ("Description", "описании")],
            )
        },
        current_year,
    );
    let volume = match record.first(&["EngineSize"]) {
        Some((_, size)) => {
            let size = size.replace(',', ".");
            match size.parse::<f64>() {
                Ok(litres) if litres > 0.0 && litres < 20.0 => Some(format!("{litres:.1}")),
                _ => None,
            }
        }
        None => None,
    }
    .or(tokens.volume.clone());
    let power = record
        .first(&["Power"])
        .and_then(|(_, p)| p.replace(',', ".").trim().parse::<f64>().ok())
        .filter(|p| *p > 0.0 && *p < 3000.0)
        .map(|p| p.round() as u32)
        .or(tokens.power);
    let trim = match optional_text(record, &["Complectation"], 100)? {
        Some(trim) => Some(trim),
        // Avito's `ComplectationId` is a catalogue number, but dealers fill
        // it with the trim's name («Comfort»): a name is read, a number is not.
        None => optional_text(record, &["ComplectationId"], 100)?
            .filter(|id| !id.chars().all(|c| c.is_ascii_digit())),
    };
    let engine = engine_of(
        EngineFacts {
            text: (!tokens.is_catalogue() && !modification.is_empty())
                .then(|| modification.clone()),
            volume,
            power,
        },
        fuel_type,
        transmission,
        &mut warnings,
    );
    drive_warning(drivetrain, &mut warnings);
    trim_warning(trim.as_ref(), &mut warnings);
    let vin = parse_vin(record.first(&["VIN"]).map(|(_, v)| v), &mut warnings);
    let external_id = external_id("Id", record.first(&["Id"]).map(|(_, v)| v))?;
    let mut urls = record.all("Images/Image@url");
    urls.extend(record.all("Images/Image"));
    let unkept = record.unkept("Images/Image@url") + record.unkept("Images/Image");
    let color = short_text(record, &["Color"], 50);
    let generation = record
        .first(&["Generation"])
        .map(|(_, g)| g.chars().take(50).collect::<String>());
    car(FeedCarParts {
        row: record.row,
        line: record.line,
        external_id,
        vin,
        brand,
        name: name_of(&model, trim.as_ref()),
        model,
        trim,
        generation,
        doors: doors_of(record, &["Doors"]),
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
        photos: photos(urls, unkept, &mut warnings),
        discounts: None,
        car_fields: car_fields(record, &car_fields::AVITO, &mut warnings),
        warnings,
    })
}
