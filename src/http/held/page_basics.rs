//! What every public page reads the same between two changes of the
//! content: the settings with the salons, the credit programs (the footer's
//! disclosure) and the body types with their counts. Read once per content
//! version and Moscow date and kept, not read again for each page: at 10,000
//! cars the body types' counts alone (six counts over the published cars)
//! were 4 % of a cold list page's samples in perf (`docs/rendering.md`,
//! "Read once: what every page embeds").

use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use rusqlite::Connection;
use serde_json::value::RawValue;

use crate::config_calls::CallTrackingConfig;
use crate::domain::body_types::{self, BodyTypeInfo};
use crate::domain::credit_programs;
use crate::domain::settings::PublicSettings;
use crate::error::AppResult;

/// The answers of one content version and date.
pub struct PageBasics {
    version: i64,
    day: NaiveDate,
    pub settings: PublicSettings,
    /// `/api/settings` as embedded.
    pub settings_json: Box<RawValue>,
    /// `/api/credit-programs` as embedded.
    pub credit_programs_json: Box<RawValue>,
    pub body_types: Vec<BodyTypeInfo>,
    /// `/api/body-types` as embedded.
    pub body_types_json: Box<RawValue>,
}

/// The last [`PageBasics`] read.
#[derive(Default)]
pub struct HeldBasics {
    last: Mutex<Option<Arc<PageBasics>>>,
}

impl HeldBasics {
    /// The basics at content `version` (None when it cannot be read: then
    /// read and not kept) on `day`, read on `conn` when they are not kept.
    /// Read after the version, so they are at least as new as it; a later
    /// request at a newer version reads them again.
    pub fn at(
        &self,
        version: Option<i64>,
        day: NaiveDate,
        conn: &Connection,
        calls: &CallTrackingConfig,
    ) -> AppResult<Arc<PageBasics>> {
        if let Some(version) = version
            && let Some(kept) = self.kept(version, day)
        {
            return Ok(kept);
        }
        let basics = Arc::new(PageBasics::read(version.unwrap_or(-1), day, conn, calls)?);
        if version.is_some() {
            *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(basics.clone());
        }
        Ok(basics)
    }

    /// The basics kept for content `version` on `day`, if they are.
    pub fn kept(&self, version: i64, day: NaiveDate) -> Option<Arc<PageBasics>> {
        let last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        last.as_ref()
            .filter(|b| b.version == version && b.day == day)
            .cloned()
    }
}

impl PageBasics {
    fn read(
        version: i64,
        day: NaiveDate,
        conn: &Connection,
        calls: &CallTrackingConfig,
    ) -> AppResult<PageBasics> {
        let settings = crate::domain::salons::public_settings(conn, calls)?;
        let credit = credit_programs::public(conn, day)?;
        let body_types = body_types::list(conn)?;
        Ok(PageBasics {
            version,
            day,
            settings_json: raw(&settings)?,
            credit_programs_json: raw(&credit)?,
            body_types_json: raw(&body_types)?,
            settings,
            body_types,
        })
    }
}

/// `value` as embedded JSON.
fn raw<T: serde::Serialize>(value: &T) -> AppResult<Box<RawValue>> {
    Ok(serde_json::value::to_raw_value(value).map_err(anyhow::Error::from)?)
}
