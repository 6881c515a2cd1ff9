//! Reading a feed: Auto.ru dealer XML (`<data><cars><car>`), Avito Autoload
//! XML (`<Ads><Ad>`) or CSV, told apart by content. Each record becomes a
//! [`FeedCar`] or a [`RowError`] naming the row and the field; a document
//! that cannot be read at all (broken XML, a DOCTYPE declaring entities) is
//! a [`FeedError`]: nothing of it is used, so a truncated feed never makes
//! the cars after the break look gone. Rules: `docs/parser.md`.
//!
//! This file keeps the types and the entry ([`parse`]: encoding, the format
//! told apart, repeats refused); the pieces: `xml` (Auto.ru and Avito),
//! `csv`, `fields` (the rules of each field, shared).

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::mapping;
use crate::domain::cars::{CarStatus, Drivetrain, FuelType, Transmission};
use crate::domain::money::Money;

mod csv;
mod fields;
mod xml;

pub use csv::*;
use fields::*;
use xml::*;

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
