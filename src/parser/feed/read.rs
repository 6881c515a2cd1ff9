//! A feed read whatever its format: the encoding found (texts decoded as
//! they are read), XML or CSV told apart, and a key met twice refused.

use super::csv::parse_csv;
use super::parsed::{FeedError, Parsed, RowError};
use super::xml::parse_xml;
use std::collections::HashMap;

/// The encoding an XML declaration names (`encoding="windows-1251"`).
pub(super) fn declared_encoding(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(200)];
    let end = head.windows(2).position(|w| w == b"?>")?;
    let decl = std::str::from_utf8(&head[..end]).ok()?;
    let at = decl.find("encoding")? + "encoding".len();
    let value = decl[at..].trim_start().strip_prefix('=')?.trim_start();
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let label = value[1..].split(quote).next()?;
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
}

/// The encoding a feed is read in: an XML feed's as its declaration names
/// it, a CSV that is not UTF-8 in windows-1251 (what Excel and 1C write in
/// Russia). Both are common in dealers' exports.
pub(super) fn encoding_of(bytes: &[u8], xml: bool) -> &'static encoding_rs::Encoding {
    if xml {
        declared_encoding(bytes).unwrap_or(encoding_rs::UTF_8)
    } else if std::str::from_utf8(bytes).is_err()
        // A UTF-8 file with one broken line stays UTF-8 (and fails on it):
        // windows-1251 text has no UTF-8 Cyrillic pairs.
        && !bytes
            .windows(2)
            .any(|w| matches!(w[0], 0xD0 | 0xD1) && (0x80..=0xBF).contains(&w[1]))
    {
        encoding_rs::WINDOWS_1251
    } else {
        encoding_rs::UTF_8
    }
}

/// Reads a feed of any of the three formats. The feed is never copied
/// whole: its texts are decoded one by one as they are read (only an
/// encoding that is not ASCII-compatible, UTF-16, is decoded first).
pub fn parse(bytes: &[u8], current_year: i32) -> Result<Parsed, FeedError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return Err(FeedError("Файл пуст".into()));
    };
    let xml = bytes[start] == b'<';
    let encoding = encoding_of(bytes, xml);
    let mut parsed = if !encoding.is_ascii_compatible() {
        let (text, _, _) = encoding.decode(bytes);
        let text = text.into_owned().into_bytes();
        if xml {
            parse_xml(&text, encoding_rs::UTF_8, current_year)?
        } else {
            parse_csv(&text, encoding_rs::UTF_8, current_year)?
        }
    } else if xml {
        parse_xml(bytes, encoding, current_year)?
    } else {
        parse_csv(bytes, encoding, current_year)?
    };
    refuse_repeats(&mut parsed);
    Ok(parsed)
}

/// A key (external id, VIN) met twice: the later rows are refused.
pub(super) fn refuse_repeats(parsed: &mut Parsed) {
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
