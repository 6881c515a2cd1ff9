//! The audit trail: who changed what and when, one entry per admin write,
//! written in the same transaction as the write (`docs/admin.md`).

use rusqlite::{Connection, Row, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::text_enum;
use crate::error::AppResult;

text_enum!(
    /// What was done.
    AuditAction {
        Create = "create",
        Update = "update",
        Delete = "delete",
        Status = "status",
        Approve = "approve",
        BulkPrice = "bulk_price",
        Upload = "upload",
        Settings = "settings",
        Import = "import",
        Block = "block",
        Unblock = "unblock",
        Password = "password",
        Assign = "assign",
        Erase = "erase",
        Export = "export",
        Move = "move",
    }
);

text_enum!(
    /// What kind of object it was done to.
    AuditObject {
        Car = "car",
        Brand = "brand",
        Review = "review",
        Lead = "lead",
        Promotion = "promotion",
        PartnerBank = "partner_bank",
        CreditProgram = "credit_program",
        Settings = "settings",
        BodyType = "body_type",
        Banner = "banner",
        Import = "import",
        User = "user",
        PersonalData = "personal_data",
        Salon = "salon",
    }
);

/// One field's value before and after; `None` where there was none (a
/// created or deleted object).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Change {
    /// The field's JSON name, as the API speaks it.
    pub field: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// A stored entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    /// When, RFC 3339 UTC.
    pub at: String,
    /// The admin's login.
    pub username: String,
    pub action: AuditAction,
    pub object_type: AuditObject,
    /// The object's id; none for the settings and bulk changes.
    pub object_id: Option<String>,
    /// What happened, in Russian, for a person.
    pub summary: String,
    pub changes: Vec<Change>,
}

/// An entry to record.
#[derive(Debug, Clone)]
pub struct NewEntry {
    pub action: AuditAction,
    pub object_type: AuditObject,
    pub object_id: Option<String>,
    pub summary: String,
    pub changes: Vec<Change>,
}

impl NewEntry {
    pub fn new(
        action: AuditAction,
        object_type: AuditObject,
        object_id: Option<&str>,
        summary: impl Into<String>,
    ) -> NewEntry {
        NewEntry {
            action,
            object_type,
            object_id: object_id.map(str::to_string),
            summary: summary.into(),
            changes: Vec::new(),
        }
    }

    pub fn with_changes(mut self, changes: Vec<Change>) -> NewEntry {
        self.changes = changes;
        self
    }

    /// A created object: its filled fields, from none.
    pub fn created<T: Serialize>(
        object_type: AuditObject,
        id: &str,
        summary: impl Into<String>,
        after: &T,
    ) -> NewEntry {
        NewEntry::new(AuditAction::Create, object_type, Some(id), summary).with_changes(
            fields(after)
                .map(|(f, v)| change(&f, None, Some(v)))
                .collect(),
        )
    }

    /// A changed object: the fields that differ.
    pub fn updated<T: Serialize>(
        object_type: AuditObject,
        id: &str,
        summary: impl Into<String>,
        before: &T,
        after: &T,
    ) -> NewEntry {
        NewEntry::new(AuditAction::Update, object_type, Some(id), summary).with_changes(diff(
            before,
            after,
            NOT_AUDITED,
        ))
    }

    /// A deleted object: its filled fields, to none, so the history keeps
    /// what was lost.
    pub fn deleted<T: Serialize>(
        object_type: AuditObject,
        id: &str,
        summary: impl Into<String>,
        before: &T,
    ) -> NewEntry {
        NewEntry::new(AuditAction::Delete, object_type, Some(id), summary).with_changes(
            fields(before)
                .map(|(f, v)| change(&f, Some(v), None))
                .collect(),
        )
    }
}

/// Fields that say nothing about an admin's change: ids, timestamps and
/// values derived from others (the brand's name stands for its id).
pub const NOT_AUDITED: &[&str] = &[
    "id",
    "createdAt",
    "updatedAt",
    "carCount",
    "brandId",
    "brandSlug",
    "hasImages",
    "mainImage",
];

/// The filled fields of an object as the API shows it (not empty texts,
/// lists or nulls), by name, without [`NOT_AUDITED`] ones.
fn fields<T: Serialize>(object: &T) -> impl Iterator<Item = (String, String)> {
    let map = match serde_json::to_value(object) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    map.into_iter().filter_map(|(field, value)| {
        let empty = match &value {
            Value::String(s) => s.is_empty(),
            Value::Array(a) => a.is_empty(),
            _ => false,
        };
        if empty || NOT_AUDITED.contains(&field.as_str()) {
            return None;
        }
        shown(&value).map(|v| (field, v))
    })
}

/// Longest value kept in a change, in characters: long texts (the privacy
/// policy, a description) are cut with '…'.
pub const MAX_VALUE_CHARS: usize = 300;

fn shorten(value: String) -> String {
    match value.char_indices().nth(MAX_VALUE_CHARS) {
        Some((cut, _)) => format!("{}…", &value[..cut]),
        None => value,
    }
}

/// A JSON value as a change shows it: text as is, numbers and booleans as
/// written, lists and objects as compact JSON; null is none.
fn shown(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Bool(_) | Value::Number(_) | Value::Array(_) | Value::Object(_) => {
            Some(value.to_string())
        }
    }
}

/// The fields whose values differ between two objects as the API shows
/// them, by field name, leaving out `ignored` ones (ids,
/// timestamps, derived fields).
pub fn diff<T: Serialize>(before: &T, after: &T, ignored: &[&str]) -> Vec<Change> {
    let (Ok(Value::Object(before)), Ok(Value::Object(after))) =
        (serde_json::to_value(before), serde_json::to_value(after))
    else {
        return Vec::new();
    };
    after
        .iter()
        .filter(|(field, _)| !ignored.contains(&field.as_str()))
        .filter_map(|(field, to)| {
            let from = before.get(field).unwrap_or(&Value::Null);
            (from != to).then(|| Change {
                field: field.clone(),
                from: shown(from),
                to: shown(to),
            })
        })
        .collect()
}

/// One change with its values.
pub fn change(field: &str, from: Option<String>, to: Option<String>) -> Change {
    Change {
        field: field.into(),
        from,
        to,
    }
}

/// Stores an entry for `username`, now. Call it on the connection (or
/// transaction) of the write it records.
pub fn record(conn: &Connection, username: &str, entry: NewEntry) -> AppResult<i64> {
    record_at(conn, &super::now(), username, entry)
}

/// [`record`] at the moment `at` (RFC 3339 UTC): the admin calls stamp
/// their entries with the server's clock (`crate::clock`), which tests move.
pub fn record_at(conn: &Connection, at: &str, username: &str, entry: NewEntry) -> AppResult<i64> {
    let changes: Vec<Change> = entry
        .changes
        .into_iter()
        .map(|c| Change {
            field: c.field,
            from: c.from.map(shorten),
            to: c.to.map(shorten),
        })
        .collect();
    conn.prepare_cached(
        "INSERT INTO audit_log (at, username, action, object_type, object_id, summary, changes)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        at,
        username,
        entry.action,
        entry.object_type,
        entry.object_id,
        entry.summary,
        serde_json::to_string(&changes).unwrap_or_else(|_| "[]".into()),
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Runs an admin write and records its entry in one transaction: `write`
/// gives its result and the entry, or no entry when nothing was written
/// (the object was not found). An error undoes both.
pub fn audited<T>(
    conn: &mut Connection,
    username: &str,
    write: impl FnOnce(&Connection) -> AppResult<(T, Option<NewEntry>)>,
) -> AppResult<T> {
    audited_at(conn, &super::now(), username, write)
}

/// [`audited`] with the entry stamped `at` (RFC 3339 UTC).
pub fn audited_at<T>(
    conn: &mut Connection,
    at: &str,
    username: &str,
    write: impl FnOnce(&Connection) -> AppResult<(T, Option<NewEntry>)>,
) -> AppResult<T> {
    // Immediate: the write usually reads first (the object before), and a
    // deferred transaction could not take the write lock after another
    // writer committed (SQLITE_BUSY without waiting).
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let (value, entry) = write(&tx)?;
    if let Some(entry) = entry {
        record_at(&tx, at, username, entry)?;
    }
    tx.commit()?;
    Ok(value)
}

/// Which entries a list shows; empty fields do not filter.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub object_type: Option<AuditObject>,
    pub object_id: Option<String>,
}

fn from_row(row: &Row) -> rusqlite::Result<AuditEntry> {
    Ok(AuditEntry {
        id: row.get("id")?,
        at: row.get("at")?,
        username: row.get("username")?,
        action: row.get("action")?,
        object_type: row.get("object_type")?,
        object_id: row.get("object_id")?,
        summary: row.get("summary")?,
        changes: super::json_column(row.get_ref("changes")?.as_str()?),
    })
}

/// Entries newest first by the time they record (then by entry number), and
/// how many match in all.
pub fn list(
    conn: &Connection,
    filter: &AuditFilter,
    limit: u32,
    offset: u32,
) -> AppResult<(Vec<AuditEntry>, i64)> {
    let clause = "WHERE (?1 IS NULL OR object_type = ?1) AND (?2 IS NULL OR object_id = ?2)";
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) FROM audit_log {clause}"))?
        .query_row(params![filter.object_type, filter.object_id], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id, at, username, action, object_type, object_id, summary, changes
         FROM audit_log {clause} ORDER BY at DESC, id DESC LIMIT ?3 OFFSET ?4"
    ))?;
    let rows = stmt.query_map(
        params![filter.object_type, filter.object_id, limit, offset],
        from_row,
    )?;
    Ok((rows.collect::<Result<_, _>>()?, total))
}

/// One entry by its number.
pub fn by_id(conn: &Connection, id: i64) -> AppResult<Option<AuditEntry>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .prepare_cached(
            "SELECT id, at, username, action, object_type, object_id, summary, changes
             FROM audit_log WHERE id = ?1",
        )?
        .query_row([id], from_row)
        .optional()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Thing {
        id: u32,
        price: String,
        in_stock: bool,
        note: Option<String>,
    }

    #[test]
    fn diff_lists_changed_fields_only() {
        let before = Thing {
            id: 1,
            price: "100.00".into(),
            in_stock: true,
            note: None,
        };
        let after = Thing {
            id: 2,
            price: "120.00".into(),
            in_stock: true,
            note: Some("новая".into()),
        };
        assert_eq!(
            diff(&before, &after, &["id"]),
            vec![
                change("note", None, Some("новая".into())),
                change("price", Some("100.00".into()), Some("120.00".into())),
            ]
        );
    }

    #[test]
    fn long_values_are_cut_on_a_character() {
        let long = "я".repeat(MAX_VALUE_CHARS + 5);
        let cut = shorten(long);
        assert_eq!(cut.chars().count(), MAX_VALUE_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(shorten("коротко".into()), "коротко");
    }
}
