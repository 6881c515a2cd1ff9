//! Domain objects and the SQL that stores them: one module per object, each
//! owning its queries. Functions take a connection so callers can compose
//! them in one transaction; HTTP handlers and CLI commands call them.

pub mod ads;
pub mod audit;
pub mod banks;
pub mod body_types;
pub mod brands;
pub mod call_figures;
pub mod calls;
pub mod car_figures;
pub mod car_index;
pub mod cars;
pub mod checks;
pub mod credit_payment;
pub mod credit_programs;
pub mod data_requests;
pub mod destruction_acts;
pub mod email;
pub mod erasure_ledger;
pub mod erasure_reapply;
pub mod form;
pub mod hours;
pub mod imports;
pub mod lead_assignment;
pub mod lead_comments;
pub mod leads;
pub mod left_out;
pub mod legal;
pub mod mail_cap;
pub mod marketplace_ads;
pub mod marketplace_runs;
pub mod money;
pub mod operator_ids;
pub mod outbox;
pub mod person_data;
pub mod person_export;
pub mod phone;
pub mod price_changes;
pub mod promotions;
pub mod response_times;
pub mod retention;
pub mod reviews;
pub mod roles;
pub mod salons;
pub mod saved_searches;
pub mod sessions;
pub mod settings;
pub mod slug;
pub mod staff;
pub mod users;
pub mod withdrawal;

use chrono::{SecondsFormat, Utc};

/// Current time as stored: RFC 3339 UTC with milliseconds.
pub fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// An id that sorts by creation time (UUIDv7) for rows written at a high
/// rate (leads): each insert lands at the end of the indexes keyed by it
/// (the lead's own and its deliveries'), instead of touching a random page
/// of each, which a group commit would have to write out again.
pub fn new_ordered_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Defines a text enum stored as its code in SQLite and in JSON.
macro_rules! text_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $code:tt),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        pub enum $name {
            $(#[serde(rename = $code)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $code),+ }
            }

            pub fn parse(code: &str) -> Option<Self> {
                match code { $($code => Some($name::$variant),)+ _ => None }
            }
        }

        impl rusqlite::types::ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(self.as_str().into())
            }
        }

        impl rusqlite::types::FromSql for $name {
            fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
                let text = value.as_str()?;
                Self::parse(text).ok_or_else(|| rusqlite::types::FromSqlError::Other(
                    format!("unknown {} {text:?}", stringify!($name)).into(),
                ))
            }
        }
    };
}
pub(crate) use text_enum;

/// Runs `work` as one unit on a shared connection: inside the caller's
/// transaction when there is one (as a savepoint), its own otherwise. On an
/// error everything `work` wrote is undone.
pub(crate) fn atomically<T>(
    conn: &rusqlite::Connection,
    work: impl FnOnce() -> crate::error::AppResult<T>,
) -> crate::error::AppResult<T> {
    conn.execute_batch("SAVEPOINT atomically")?;
    match work() {
        Ok(value) => {
            conn.execute_batch("RELEASE atomically")?;
            Ok(value)
        }
        Err(err) => {
            if let Err(undo) = conn.execute_batch("ROLLBACK TO atomically; RELEASE atomically") {
                tracing::error!("cannot undo a failed write: {undo}");
            }
            Err(err)
        }
    }
}

/// What an UPDATE of `changed` rows answers: the row read again by `read`,
/// or None when no row has the id.
pub(crate) fn read_again<T>(
    changed: usize,
    read: impl FnOnce() -> crate::error::AppResult<Option<T>>,
) -> crate::error::AppResult<Option<T>> {
    if changed == 0 {
        return Ok(None);
    }
    read()
}

/// Reads a JSON array column.
pub(crate) fn json_column<T: serde::de::DeserializeOwned + Default>(text: &str) -> T {
    serde_json::from_str(text).unwrap_or_default()
}

/// Trims a text and turns an empty one into `None`.
pub fn non_empty(value: Option<String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// The longest address of a picture a form takes (a logo, a banner).
pub const MAX_PICTURE_URL: usize = 500;

/// Checks a text's length in characters (not bytes). The message names the
/// field by `label`, as its form labels it; `field` is the JSON name.
pub fn check_len(
    field: &'static str,
    label: &str,
    value: &str,
    max: usize,
) -> crate::error::AppResult<()> {
    if value.chars().count() > max {
        return Err(crate::error::AppError::invalid(field, too_long(label, max)));
    }
    Ok(())
}

/// The length message: «Поле «Название» не должно быть длиннее 255 символов».
pub fn too_long(label: &str, max: usize) -> String {
    format!("Поле «{label}» не должно быть длиннее {max} символов")
}
