//! The two XML formats: the reader of Auto.ru's `<data><cars><car>` and
//! Avito Autoload's `<Ads><Ad>` into records, and each format's record made
//! a [`FeedCar`] (`autoru_car`, `avito_car`).

use super::condition::{ConditionFacts, condition};
use super::fields::{
    EngineFacts, FeedCarParts, RowResult, car, check_currency, discounts_of, doors_of, drive_of,
    drive_warning, engine_of, external_id, field_error, mapped, mileage_of, model_and_generation,
    name_of, optional_text, parse_price, parse_vin, parse_year, photos, required, short_text,
    text_field, trim_warning,
};
use super::parsed::{FeedCar, FeedError, FeedFormat, Parsed, RowError};
use super::record::{Lines, Record};
use crate::domain::cars::FuelType;
use crate::parser::mapping;
use quick_xml::Reader;
use quick_xml::events::Event;

pub(super) fn parse_xml(bytes: &[u8], current_year: i32) -> Result<Parsed, FeedError> {
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().check_end_names = true;
    let mut lines = Lines {
        bytes,
        at: 0,
        line: 1,
    };
    let mut buf = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    let mut format: Option<FeedFormat> = None;
    let mut record: Option<Record> = None;
    let mut record_depth = 0usize;
    let mut count = 0u32;
    let mut text = String::new();
    let mut parsed = Parsed::default();
    loop {
        buf.clear();
        let before = reader.buffer_position() as usize;
        let event = reader.read_event_into(&mut buf).map_err(|e| {
            let line = lines.line_at(reader.error_position() as usize);
            FeedError(format!(
                "XML повреждён в строке {line}: {e}. Импорт не выполнен: исправьте файл фида"
            ))
        })?;
        let here = lines.line_at(before);
        let broken = |message: String| FeedError(format!("Ошибка XML в строке {here}: {message}"));
        match event {
            Event::DocType(doctype) => {
                let text = String::from_utf8_lossy(doctype.as_ref()).to_uppercase();
                if text.contains("<!ENTITY") {
                    return Err(FeedError(
                        "Документ объявляет сущности XML (<!ENTITY> в DOCTYPE): такие фиды не \
                         принимаются из соображений безопасности"
                            .into(),
                    ));
                }
            }
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                if stack.is_empty() {
                    format = Some(match name.as_str() {
                        "data" => FeedFormat::Autoru,
                        "Ads" => FeedFormat::Avito,
                        other => {
                            return Err(FeedError(format!(
                                "Неизвестный формат XML: корневой элемент <{other}>. Ожидается \
                                 <data> (Авто.ру) или <Ads> (Авито)"
                            )));
                        }
                    });
                    parsed.format = format;
                }
                let is_record = record.is_none()
                    && match format {
                        Some(FeedFormat::Autoru) => {
                            name == "car" && stack.len() == 2 && stack[1] == "cars"
                        }
                        Some(FeedFormat::Avito) => name == "Ad" && stack.len() == 1,
                        _ => false,
                    };
                if is_record {
                    count += 1;
                    record = Some(Record {
                        row: count,
                        line: here,
                        ..Record::default()
                    });
                    record_depth = stack.len() + 1;
                    if empty {
                        if let Some(done) = record.take() {
                            finish(&mut parsed, format, &done, current_year);
                        }
                        continue;
                    }
                } else if let Some(record) = record.as_mut() {
                    let mut path = stack[record_depth..].join("/");
                    if !path.is_empty() {
                        path.push('/');
                    }
                    path.push_str(&name);
                    for attribute in e.attributes().flatten() {
                        let key = String::from_utf8_lossy(attribute.key.as_ref()).into_owned();
                        let value = attribute
                            .unescape_value()
                            .map_err(|err| broken(format!("атрибут {key}: {err}")))?;
                        record
                            .fields
                            .entry(format!("{path}@{key}"))
                            .or_default()
                            .push(value.into_owned());
                    }
                    if empty {
                        record.fields.entry(path).or_default().push(String::new());
                    }
                }
                if !empty {
                    stack.push(name);
                    text.clear();
                }
            }
            Event::Text(e) => {
                let decoded = e.decode().map_err(|err| broken(err.to_string()))?;
                text.push_str(&decoded);
            }
            Event::CData(e) => {
                let decoded = e.decode().map_err(|err| broken(err.to_string()))?;
                text.push_str(&decoded);
            }
            Event::GeneralRef(e) => {
                if let Some(c) = e
                    .resolve_char_ref()
                    .map_err(|err| broken(err.to_string()))?
                {
                    text.push(c);
                } else {
                    let name = e.decode().map_err(|err| broken(err.to_string()))?;
                    match quick_xml::escape::resolve_predefined_entity(&name) {
                        Some(value) => text.push_str(value),
                        // Never expanded: custom entities are refused.
                        None => {
                            return Err(broken(format!(
                                "неизвестная сущность &{name}; (сущности XML не раскрываются)"
                            )));
                        }
                    }
                }
            }
            Event::End(_) => {
                let Some(name) = stack.pop() else {
                    return Err(broken("лишний закрывающий тег".into()));
                };
                if let Some(open) = record.as_mut() {
                    if stack.len() + 1 == record_depth {
                        if let Some(done) = record.take() {
                            finish(&mut parsed, format, &done, current_year);
                        }
                    } else if stack.len() >= record_depth {
                        let mut path = stack[record_depth..].join("/");
                        if !path.is_empty() {
                            path.push('/');
                        }
                        path.push_str(&name);
                        open.fields
                            .entry(path)
                            .or_default()
                            .push(std::mem::take(&mut text));
                    }
                }
                text.clear();
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(FeedError(format!(
            "XML обрывается: не закрыт элемент <{}> (файл загружен не полностью?)",
            stack.last().map_or("", String::as_str)
        )));
    }
    if format.is_none() {
        return Err(FeedError("В файле нет XML-документа".into()));
    }
    Ok(parsed)
}

pub(super) fn finish(
    parsed: &mut Parsed,
    format: Option<FeedFormat>,
    record: &Record,
    current_year: i32,
) {
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
    let mut urls = record.all("images/image");
    if urls.is_empty() {
        urls = record.all("images");
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
        photos: photos(urls),
        discounts: Some(discounts),
        warnings,
    })
}

pub(super) fn avito_car(record: &Record, current_year: i32) -> RowResult<FeedCar> {
    if let Some((field, category)) = record.first(&["Category"])
        && mapping::normalise(&category) != "автомобили"
    {
        return field_error(
            &field,
            format!("Категория «{category}» — не легковой автомобиль"),
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
        photos: photos(urls),
        discounts: None,
        warnings,
    })
}
