//! What the readers share: a record's fields by path (kept within the
//! limits of [`super::parsed`]: values counted beyond them, never stored),
//! the car a record names for its row errors, and the count of lines as a
//! reader moves on.

use super::parsed::{MAX_FIELD_PATH, MAX_RECORD_FIELDS, MAX_VALUES_PER_FIELD};
use std::collections::HashMap;

/// A record's fields: path below the record ("mark_id", "images/image",
/// "Images/Image@url") to its texts in order.
#[derive(Default)]
pub(super) struct Record {
    pub(super) fields: HashMap<String, Vec<String>>,
    /// Values met beyond [`MAX_VALUES_PER_FIELD`] of a path (or of a path
    /// beyond [`MAX_RECORD_FIELDS`]): counted, not kept.
    pub(super) unkept: HashMap<String, usize>,
    /// Values of paths not kept at all (beyond [`MAX_RECORD_FIELDS`]).
    pub(super) unkept_paths: usize,
    pub(super) row: u32,
    pub(super) line: u32,
}

/// The fields a record's car is named by in its row errors.
const NAMING: &[&str] = &[
    "unique_id",
    "Id",
    "id",
    "vin",
    "VIN",
    "mark_id",
    "mark",
    "Make",
    "brand",
    "folder_id",
    "model",
    "Model",
];

impl Record {
    pub(super) fn first(&self, names: &[&str]) -> Option<(String, String)> {
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

    pub(super) fn all(&self, name: &str) -> Vec<String> {
        self.fields.get(name).cloned().unwrap_or_default()
    }

    /// How many values of `name` were met but not kept.
    pub(super) fn unkept(&self, name: &str) -> usize {
        self.unkept.get(name).copied().unwrap_or(0)
    }

    /// Keeps a value of `path` within the limits: at most
    /// [`MAX_VALUES_PER_FIELD`] a path and [`MAX_RECORD_FIELDS`] paths; a
    /// path longer than [`MAX_FIELD_PATH`] names no field and is not kept.
    /// `naming_only`: a refused record keeps only the first value of the
    /// fields that name its car.
    pub(super) fn push(&mut self, path: &str, value: String, naming_only: bool) {
        if naming_only {
            if NAMING.contains(&path) && !self.fields.contains_key(path) {
                self.fields
                    .insert(path.to_string(), vec![value.chars().take(100).collect()]);
            }
            return;
        }
        if path.len() > MAX_FIELD_PATH {
            self.unkept_paths += 1;
            return;
        }
        let room = self.fields.len() < MAX_RECORD_FIELDS;
        match self.fields.get_mut(path) {
            Some(values) if values.len() < MAX_VALUES_PER_FIELD => values.push(value),
            // An empty element beyond the limit (`<Image url=".."/>`'s own
            // text) is not a value.
            Some(_) if value.trim().is_empty() => {}
            Some(_) => match self.unkept.get_mut(path) {
                Some(n) => *n += 1,
                None => {
                    self.unkept.insert(path.to_string(), 1);
                }
            },
            None if room => {
                self.fields.insert(path.to_string(), vec![value]);
            }
            None => self.unkept_paths += 1,
        }
    }

    /// The car as its row errors name it: «id», the VIN, «brand model», or
    /// its number in the feed.
    pub(super) fn who(&self) -> String {
        let cut = |v: String| -> String {
            let mut short: String = v.chars().take(60).collect();
            if short.len() < v.len() {
                short.push('…');
            }
            short
        };
        if let Some((_, id)) = self.first(&["unique_id", "Id", "id"]) {
            return format!("Автомобиль «{}»", cut(id));
        }
        if let Some((_, vin)) = self.first(&["vin", "VIN"]) {
            return format!("Автомобиль с VIN {}", cut(vin));
        }
        let brand = self.first(&["mark_id", "mark", "Make", "brand"]);
        let model = self.first(&["folder_id", "model", "Model"]);
        match (brand, model) {
            (Some((_, b)), Some((_, m))) => format!("Автомобиль «{}»", cut(format!("{b} {m}"))),
            (Some((_, one)), None) | (None, Some((_, one))) => {
                format!("Автомобиль «{}»", cut(one))
            }
            (None, None) => format!("Автомобиль №{}", self.row),
        }
    }
}

/// Counts lines as the reader moves on.
pub(super) struct Lines<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
    pub(super) line: u32,
}

impl Lines<'_> {
    pub(super) fn line_at(&mut self, offset: usize) -> u32 {
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
