//! Reading a feed: Auto.ru dealer XML (`<data><cars><car>`), Avito Autoload
//! XML (`<Ads><Ad>`) or CSV, told apart by content. Each record becomes a
//! [`FeedCar`] or a [`RowError`] naming the row and the field; a document
//! that cannot be read at all (broken XML, a DOCTYPE declaring entities) is
//! a [`FeedError`]: nothing of it is used, so a truncated feed never makes
//! the cars after the break look gone. Rules: `docs/parser.md`.

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::mapping;
use crate::domain::cars::{CarStatus, Drivetrain, FuelType, Transmission};
use crate::domain::money::Money;

crate::domain::text_enum!(
    /// autoru | avito | csv
    FeedFormat { Autoru = "autoru", Avito = "avito", Csv = "csv" }
);

/// Conditional discounts as Auto.ru carries them (`docs/pricing.md`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Discounts {
    pub credit: Option<Money>,
    pub tradein: Option<Money>,
    pub insurance: Option<Money>,
    pub max: Option<Money>,
}

/// What a car's feed leaves unstated: the car imports, and the preview
/// shows the warning (`docs/parser.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FieldWarning {
    /// drivetrain | engine | power | trim | vin | discount
    pub field: String,
    pub message: String,
}

/// One usable car of a feed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedCar {
    /// CSV line or XML element number.
    pub row: u32,
    /// The line of the file the car starts on.
    #[serde(default)]
    pub line: u32,
    pub external_id: Option<String>,
    pub vin: Option<String>,
    pub brand: String,
    pub model: String,
    /// Model and trim ("GX Executive"), or the model.
    pub name: String,
    /// The complectation ("Executive").
    #[serde(default)]
    pub trim: Option<String>,
    /// The generation ("III").
    #[serde(default)]
    pub generation: Option<String>,
    #[serde(default)]
    pub doors: Option<i64>,
    pub year: i32,
    pub price: Money,
    pub status: CarStatus,
    /// The feed's body word ("Внедорожник 5 дв."), resolved against the
    /// dealership's body types when the run is planned.
    #[serde(alias = "body_type")]
    pub body: String,
    pub transmission: Transmission,
    /// None: not stated.
    pub drivetrain: Option<Drivetrain>,
    pub fuel_type: FuelType,
    pub engine: String,
    pub mileage: i64,
    pub color: Option<String>,
    /// Picture URLs in order; empty: the feed carries none (the car's own
    /// pictures are kept).
    pub photos: Vec<String>,
    /// `None`: the format carries no discounts (the car's are kept).
    pub discounts: Option<Discounts>,
    #[serde(default)]
    pub warnings: Vec<FieldWarning>,
}

impl FeedCar {
    /// The feed's external id, else the VIN.
    pub fn key(&self) -> String {
        self.external_id
            .clone()
            .or_else(|| self.vin.clone())
            .unwrap_or_default()
    }

    pub fn title(&self) -> String {
        format!("{} {} {}", self.brand, self.name, self.year)
    }
}

/// A row the import cannot use, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RowError {
    /// CSV line, or the XML record's number (1 = the first `<car>`/`<Ad>`).
    pub row: u32,
    /// The line of the file the row starts on.
    pub line: u32,
    /// The feed's field name, when one field is wrong.
    pub field: Option<String>,
    pub message: String,
}

/// A document that cannot be used at all.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct FeedError(pub String);

#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub format: Option<FeedFormat>,
    pub cars: Vec<FeedCar>,
    pub errors: Vec<RowError>,
}

/// Longest external id, as `cars.external_id` allows.
const MAX_EXTERNAL_ID: usize = 100;
pub const MAX_PHOTOS: usize = crate::domain::cars::MAX_IMAGES;

/// The encoding an XML declaration names (`encoding="windows-1251"`).
fn declared_encoding(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(200)];
    let end = head.windows(2).position(|w| w == b"?>")?;
    let decl = std::str::from_utf8(&head[..end]).ok()?;
    let at = decl.find("encoding")? + "encoding".len();
    let value = decl[at..].trim_start().strip_prefix('=')?.trim_start();
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let label = value[1..].split(quote).next()?;
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
}

/// The feed as UTF-8: an XML feed in the encoding its declaration names, a
/// CSV in windows-1251 (what Excel and 1C write in Russia) decoded. Both are
/// common in dealers' exports.
fn as_utf8(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let xml = start.is_some_and(|s| bytes[s] == b'<');
    let encoding = if xml {
        declared_encoding(bytes).filter(|e| *e != encoding_rs::UTF_8)
    } else if std::str::from_utf8(bytes).is_err()
        // A UTF-8 file with one broken line stays UTF-8 (and fails on it):
        // windows-1251 text has no UTF-8 Cyrillic pairs.
        && !bytes
            .windows(2)
            .any(|w| matches!(w[0], 0xD0 | 0xD1) && (0x80..=0xBF).contains(&w[1]))
    {
        Some(encoding_rs::WINDOWS_1251)
    } else {
        None
    };
    match encoding {
        Some(encoding) => {
            let (text, _, _) = encoding.decode(bytes);
            std::borrow::Cow::Owned(text.into_owned().into_bytes())
        }
        None => std::borrow::Cow::Borrowed(bytes),
    }
}

/// Reads a feed of any of the three formats.
pub fn parse(bytes: &[u8], current_year: i32) -> Result<Parsed, FeedError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let bytes = as_utf8(bytes);
    let bytes: &[u8] = &bytes;
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return Err(FeedError("Файл пуст".into()));
    };
    let mut parsed = if bytes[start] == b'<' {
        parse_xml(bytes, current_year)?
    } else {
        parse_csv(bytes, current_year)?
    };
    refuse_repeats(&mut parsed);
    Ok(parsed)
}

/// A record's fields: path below the record ("mark_id", "images/image",
/// "Images/Image@url") to its texts in order.
#[derive(Default)]
struct Record {
    fields: HashMap<String, Vec<String>>,
    row: u32,
    line: u32,
}

impl Record {
    fn first(&self, names: &[&str]) -> Option<(String, String)> {
        for name in names {
            if let Some(value) = self
                .fields
                .get(*name)
                .and_then(|v| v.iter().find(|t| !t.trim().is_empty()))
            {
                return Some(((*name).to_string(), value.trim().to_string()));
            }
        }
        None
    }

    fn all(&self, name: &str) -> Vec<String> {
        self.fields.get(name).cloned().unwrap_or_default()
    }
}

/// Counts lines as the reader moves on.
struct Lines<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u32,
}

impl Lines<'_> {
    fn line_at(&mut self, offset: usize) -> u32 {
        let offset = offset.min(self.bytes.len());
        if offset > self.at {
            self.line += self.bytes[self.at..offset]
                .iter()
                .filter(|b| **b == b'\n')
                .count() as u32;
            self.at = offset;
        }
        self.line
    }
}

fn parse_xml(bytes: &[u8], current_year: i32) -> Result<Parsed, FeedError> {
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

fn finish(parsed: &mut Parsed, format: Option<FeedFormat>, record: &Record, current_year: i32) {
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

type RowResult<T> = Result<T, (Option<String>, String)>;

fn field_error<T>(field: &str, message: impl Into<String>) -> RowResult<T> {
    Err((Some(field.to_string()), message.into()))
}

fn required(record: &Record, names: &[&str], what: &str) -> RowResult<(String, String)> {
    record
        .first(names)
        .map_or_else(|| field_error(names[0], format!("Не указано: {what}")), Ok)
}

/// A value mapped by one of [`mapping`]'s functions, or the row's error.
fn mapped<T>(field: &str, value: &str, what: &str, map: fn(&str) -> Option<T>) -> RowResult<T> {
    map(value).map_or_else(
        || field_error(field, format!("Неизвестное значение «{value}»: {what}")),
        Ok,
    )
}

/// A number as feeds write it: spaces (also no-break and thin) between the
/// digits, a decimal comma, a unit after it ("1 250 000 руб.", "45 000 км").
fn number_text(value: &str) -> String {
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

fn parse_money(field: &str, value: &str) -> RowResult<Money> {
    let cleaned = number_text(value);
    match Money::parse(&cleaned) {
        Ok(m) if m <= crate::domain::money::MAX_DECIMAL_12_2 => Ok(m),
        _ => field_error(field, format!("Не число: «{value}»")),
    }
}

/// A car's price: a number above zero (a car at 0 ₽ is never published).
fn parse_price(field: &str, value: &str) -> RowResult<Money> {
    let price = parse_money(field, value)?;
    if price == Money(0) {
        return field_error(field, crate::domain::cars::PRICE_ZERO);
    }
    Ok(price)
}

fn parse_int(field: &str, value: &str) -> RowResult<i64> {
    let cleaned = number_text(value);
    cleaned.parse::<i64>().ok().filter(|n| *n >= 0).map_or_else(
        || field_error(field, format!("Не целое число: «{value}»")),
        Ok,
    )
}

fn parse_year(field: &str, value: &str, current_year: i32) -> RowResult<i32> {
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
fn parse_vin(value: Option<String>, warnings: &mut Vec<FieldWarning>) -> Option<String> {
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
                "VIN «{vin}» не из 17 латинских букв и цифр (номер кузова?): не сохранён"
            ),
        });
        return None;
    }
    Some(vin)
}

fn external_id(field: &str, value: Option<String>) -> RowResult<Option<String>> {
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

fn check_currency(record: &Record, names: &[&str]) -> RowResult<()> {
    if let Some((field, currency)) = record.first(names) {
        let upper = currency.to_uppercase();
        if !matches!(upper.as_str(), "RUR" | "RUB" | "РУБ" | "РУБ.") {
            return field_error(
                &field,
                format!("Валюта «{currency}» не поддерживается: цены только в рублях"),
            );
        }
    }
    Ok(())
}

fn optional_money(record: &Record, name: &str) -> RowResult<Option<Money>> {
    match record.first(&[name]) {
        Some((field, value)) => parse_money(&field, &value).map(Some),
        None => Ok(None),
    }
}

/// Photo URLs: http(s) only, each once, at most [`MAX_PHOTOS`].
fn photos(urls: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut list: Vec<String> = Vec::new();
    for url in urls {
        for part in url.split(|c: char| c.is_whitespace() || c == ',') {
            let part = part.trim();
            let web = part.starts_with("http://") || part.starts_with("https://");
            if web && part.len() <= 2000 && !list.iter().any(|u| u == part) {
                list.push(part.to_string());
            }
        }
    }
    list.truncate(MAX_PHOTOS);
    list
}

/// new or used from the feed's word, else (no word, or one of no meaning
/// here) by the mileage: none is new.
fn status_of(record: &Record, names: &[&str], mileage: i64) -> RowResult<CarStatus> {
    Ok(
        match record.first(names).and_then(|(_, v)| mapping::status(&v)) {
            Some(status) => status,
            None if mileage > 0 => CarStatus::Used,
            None => CarStatus::New,
        },
    )
}

/// A discount above the price is a feed's slip: dropped, with a warning.
fn check_discounts(price: Money, discounts: &mut Discounts, warnings: &mut Vec<FieldWarning>) {
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
fn drive_of(
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
                        "Привод «{value}» не распознан: на сайте он будет скрыт, пока его не \
                         укажут в карточке"
                    ),
                });
                token
            }
        },
        None => token,
    }
}

fn text_field(value: String, field: &str, max: usize) -> RowResult<String> {
    if value.chars().count() > max {
        return field_error(field, format!("Длиннее {max} символов"));
    }
    Ok(value)
}

/// "GX, III" → ("GX", Some("III")); "Rio" → ("Rio", None).
fn model_and_generation(folder: &str) -> (String, Option<String>) {
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
struct EngineFacts {
    volume: Option<String>,
    power: Option<u32>,
    /// Free text that is not in the catalogue's shape ("1.5 турбо").
    text: Option<String>,
}

fn engine_of(
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

fn drive_warning(drivetrain: Option<Drivetrain>, warnings: &mut Vec<FieldWarning>) {
    if drivetrain.is_none() && !warnings.iter().any(|w| w.field == "drivetrain") {
        warnings.push(FieldWarning {
            field: "drivetrain".into(),
            message: "Привод не указан в фиде: на сайте он будет скрыт, пока его не укажут в \
                      карточке"
                .into(),
        });
    }
}

fn trim_warning(trim: Option<&String>, warnings: &mut Vec<FieldWarning>) {
    if trim.is_none() {
        warnings.push(FieldWarning {
            field: "trim".into(),
            message: "Комплектация не указана в фиде".into(),
        });
    }
}

/// A descriptive text cut to what the catalogue keeps (a colour).
fn short_text(record: &Record, names: &[&str], max: usize) -> Option<String> {
    record
        .first(names)
        .map(|(_, value)| value.chars().take(max).collect())
}

fn optional_text(record: &Record, names: &[&str], max: usize) -> RowResult<Option<String>> {
    record
        .first(names)
        .map(|(field, value)| text_field(value, &field, max))
        .transpose()
}

/// "Executive" → "GX Executive"; a trim that already starts with the model
/// is the whole name.
fn name_of(model: &str, trim: Option<&String>) -> String {
    match trim {
        Some(trim) if trim.to_lowercase().starts_with(&model.to_lowercase()) => trim.clone(),
        Some(trim) => format!("{model} {trim}"),
        None => model.to_string(),
    }
    .chars()
    .take(255)
    .collect()
}

fn doors_of(record: &Record, names: &[&str]) -> Option<i64> {
    record
        .first(names)
        .and_then(|(_, v)| v.trim().parse::<i64>().ok())
        .filter(|d| (2..=5).contains(d))
}

fn autoru_car(record: &Record, current_year: i32) -> RowResult<FeedCar> {
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
    let mileage = match record.first(&["run"]) {
        Some((field, value)) => parse_int(&field, &value)?,
        None => 0,
    };
    // Auto.ru's `state` is the car's condition ("Отличное"), not new/used.
    let status = status_of(record, &["section", "status"], mileage)?;
    let vin = parse_vin(record.first(&["vin"]).map(|(_, v)| v), &mut warnings);
    let external_id = external_id("unique_id", record.first(&["unique_id"]).map(|(_, v)| v))?;
    let mut discounts = Discounts {
        credit: optional_money(record, "credit_discount")?,
        tradein: optional_money(record, "tradein_discount")?,
        insurance: optional_money(record, "insurance_discount")?,
        max: optional_money(record, "max_discount")?,
    };
    check_discounts(price, &mut discounts, &mut warnings);
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
        status,
        body,
        transmission,
        drivetrain,
        fuel_type,
        engine,
        mileage,
        color,
        photos: photos(urls),
        discounts: Some(discounts),
        warnings,
    })
}

fn avito_car(record: &Record, current_year: i32) -> RowResult<FeedCar> {
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
    let mileage = match record.first(&["Kilometrage", "Mileage"]) {
        Some((field, value)) => parse_int(&field, &value)?,
        None => 0,
    };
    let status = status_of(record, &["CarType", "Condition"], mileage)?;
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
    let trim = optional_text(record, &["Complectation"], 100)?;
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
        status,
        body,
        transmission,
        drivetrain,
        fuel_type,
        engine,
        mileage,
        color,
        photos: photos(urls),
        discounts: None,
        warnings,
    })
}

struct FeedCarParts {
    row: u32,
    line: u32,
    external_id: Option<String>,
    vin: Option<String>,
    brand: String,
    name: String,
    model: String,
    trim: Option<String>,
    generation: Option<String>,
    doors: Option<i64>,
    year: i32,
    price: Money,
    status: CarStatus,
    body: String,
    transmission: Transmission,
    drivetrain: Option<Drivetrain>,
    fuel_type: FuelType,
    engine: String,
    mileage: i64,
    color: Option<String>,
    photos: Vec<String>,
    discounts: Option<Discounts>,
    warnings: Vec<FieldWarning>,
}

fn car(parts: FeedCarParts) -> RowResult<FeedCar> {
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
        mileage: parts.mileage,
        color: parts.color.filter(|c| !c.trim().is_empty()),
        photos: parts.photos,
        discounts: parts.discounts,
        warnings,
    })
}

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

fn parse_csv(bytes: &[u8], current_year: i32) -> Result<Parsed, FeedError> {
    let first_line = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let delimiter = if first_line.contains(&b';') {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
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

fn csv_car(
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
    let mileage = match record.first(&["mileage"]) {
        Some((_, value)) => parse_int("mileage", &value)?,
        None => 0,
    };
    let status = status_of(record, &["status"], mileage)?;
    let vin = parse_vin(record.first(&["vin"]).map(|(_, v)| v), &mut warnings);
    let external_id = external_id("id", record.first(&["id"]).map(|(_, v)| v))?;
    let discounts = if has_discounts {
        let mut d = Discounts {
            credit: optional_money(record, "credit_discount")?,
            tradein: optional_money(record, "tradein_discount")?,
            insurance: optional_money(record, "insurance_discount")?,
            max: optional_money(record, "max_discount")?,
        };
        check_discounts(price, &mut d, &mut warnings);
        Some(d)
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
        status,
        body,
        transmission,
        drivetrain,
        fuel_type,
        engine,
        mileage,
        color,
        photos: photos(urls),
        discounts,
        warnings,
    })
}

/// A key (external id, VIN) met twice: the later rows are refused.
fn refuse_repeats(parsed: &mut Parsed) {
    let mut seen_ids: HashMap<String, u32> = HashMap::new();
    let mut seen_vins: HashMap<String, u32> = HashMap::new();
    let mut kept = Vec::with_capacity(parsed.cars.len());
    for car in std::mem::take(&mut parsed.cars) {
        let repeat = car
            .external_id
            .as_ref()
            .and_then(|id| seen_ids.get(id).map(|row| ("id", id.clone(), *row)))
            .or_else(|| {
                car.vin
                    .as_ref()
                    .and_then(|vin| seen_vins.get(vin).map(|row| ("vin", vin.clone(), *row)))
            });
        if let Some((field, value, row)) = repeat {
            parsed.errors.push(RowError {
                row: car.row,
                line: car.row,
                field: Some(field.into()),
                message: format!("Повтор: «{value}» уже встречался в строке {row}"),
            });
            continue;
        }
        if let Some(id) = &car.external_id {
            seen_ids.insert(id.clone(), car.row);
        }
        if let Some(vin) = &car.vin {
            seen_vins.insert(vin.clone(), car.row);
        }
        kept.push(car);
    }
    parsed.cars = kept;
    parsed.errors.sort_by_key(|e| e.row);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    const AUTORU: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<data>
  <cars>
    <car>
      <unique_id>A-1</unique_id>
      <mark_id>Hyundai</mark_id>
      <folder_id>Sonata</folder_id>
      <modification_id>2.0 AT (150 л.с.)</modification_id>
      <body_type>Седан</body_type>
      <drive>передний</drive>
      <year>2022</year>
      <price>2575000</price>
      <currency>RUR</currency>
      <vin>XWBCA41ZXDK259205</vin>
      <max_discount>90000</max_discount>
      <images><image>https://example.ru/1.jpg</image><image>https://example.ru/2.jpg</image></images>
    </car>
    <car>
      <unique_id>A-2</unique_id>
      <mark_id>Hyundai</mark_id>
      <folder_id>Creta</folder_id>
      <modification_id>1.6 AT (123 л.с.)</modification_id>
      <body_type>Кабриолет</body_type>
      <drive>передний</drive>
      <year>2022</year>
      <price>2000000</price>
    </car>
  </cars>
</data>"#;

    #[test]
    fn autoru_rows_and_errors() {
        let parsed = parse(AUTORU.as_bytes(), 2026).unwrap();
        assert_eq!(parsed.format, Some(FeedFormat::Autoru));
        assert_eq!(parsed.cars.len(), 2);
        let car = &parsed.cars[0];
        assert_eq!(car.transmission, Transmission::Automatic);
        assert_eq!(car.fuel_type, FuelType::Gasoline);
        assert_eq!(car.photos.len(), 2);
        assert_eq!(
            car.discounts.as_ref().unwrap().max,
            Some(Money::from_rubles(90_000))
        );
        // A body type beyond the six is a car, not an error; its drive is
        // not stated.
        assert_eq!(parsed.errors, vec![]);
        assert_eq!(parsed.cars[1].body, "Кабриолет");
        assert_eq!(parsed.cars[1].drivetrain, Some(Drivetrain::Front));
    }

    #[test]
    fn entities_are_never_expanded() {
        let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<data><cars><car><mark_id>&lol2;</mark_id></car></cars></data>"#;
        let err = parse(laughs.as_bytes(), 2026).unwrap_err();
        assert!(err.0.contains("ENTITY"), "{err}");
        let undeclared = "<data><cars><car><mark_id>&lol;</mark_id></car></cars></data>";
        let err = parse(undeclared.as_bytes(), 2026).unwrap_err();
        assert!(err.0.contains("&lol;"), "{err}");
    }

    #[test]
    fn windows_1251_feeds_read_as_their_declaration_says() {
        let xml = AUTORU.replace(r#"encoding="UTF-8""#, r#"encoding="windows-1251""#);
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&xml);
        let parsed = parse(&bytes, 2026).unwrap();
        assert_eq!(parsed.cars[0].body, "Седан");
        assert_eq!(parsed.cars[0].engine, "2.0 л, 150 л.с.");
        let csv = "id;brand;model;year;price;body_type;transmission;fuel_type\n\
                   K-1;Лада;Веста;2024;1 650 000 руб.;Седан;Механика;Бензин\n";
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(csv);
        assert!(std::str::from_utf8(&bytes).is_err());
        let parsed = parse(&bytes, 2026).unwrap();
        assert_eq!(parsed.cars[0].model, "Веста");
        assert_eq!(parsed.cars[0].price, Money::from_rubles(1_650_000));
        assert_eq!(parsed.cars[0].drivetrain, None);
    }

    #[test]
    fn what_a_car_can_be_sold_without_is_a_warning() {
        let xml = r#"<data><cars><car>
            <unique_id>J-1</unique_id><mark_id>Toyota</mark_id><folder_id>Land Cruiser Prado, 150</folder_id>
            <modification_id>2.8d AT</modification_id><body_type>Внедорожник 5 дв.</body_type>
            <drive>Гусеничный</drive><year>2015</year><price>3 900 000</price><run>210 000 км</run>
            <vin>GRJ150-0012345</vin><section>used</section><state>Отличное</state>
            <max_discount>5000000</max_discount>
        </car></cars></data>"#;
        let parsed = parse(xml.as_bytes(), 2026).unwrap();
        assert_eq!(parsed.errors, vec![]);
        let car = &parsed.cars[0];
        assert_eq!((car.status, car.mileage), (CarStatus::Used, 210_000));
        assert_eq!((car.drivetrain, car.vin.as_deref()), (None, None));
        assert_eq!(car.fuel_type, FuelType::Diesel);
        assert_eq!(car.engine, "2.8 л дизель");
        assert_eq!(car.discounts.as_ref().unwrap().max, None);
        let fields: Vec<&str> = car.warnings.iter().map(|w| w.field.as_str()).collect();
        assert_eq!(fields, ["discount", "drivetrain", "power", "trim", "vin"]);
        assert!(car.warnings[1].message.contains("Гусеничный"));
    }

    #[test]
    fn a_car_at_zero_rubles_is_a_row_error() {
        let csv = "id;brand;model;year;price;body_type;transmission;fuel_type\n\
                   K-1;Лада;Веста;2024;0;Седан;Механика;Бензин\n\
                   K-2;Лада;Веста;2024;1 650 000;Седан;Механика;Бензин\n";
        let parsed = parse(csv.as_bytes(), 2026).unwrap();
        assert_eq!(parsed.cars.len(), 1);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].field.as_deref(), Some("price"));
        assert_eq!(
            parsed.errors[0].message,
            "Укажите цену: автомобиль за 0 ₽ не публикуется"
        );
    }

    #[test]
    fn broken_xml_names_its_line() {
        let broken = "<data>\n<cars>\n<car>\n<mark_id>X</mark>\n</car></cars></data>";
        let err = parse(broken.as_bytes(), 2026).unwrap_err();
        assert!(err.0.contains("строке 4"), "{err}");
    }
}
