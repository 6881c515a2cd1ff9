//! What the readers share: a record's fields by path, and the count of
//! lines as a reader moves on.

use std::collections::HashMap;

/// A record's fields: path below the record ("mark_id", "images/image",
/// "Images/Image@url") to its texts in order.
#[derive(Default)]
pub(super) struct Record {
    pub(super) fields: HashMap<String, Vec<String>>,
    pub(super) row: u32,
    pub(super) line: u32,
}

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
