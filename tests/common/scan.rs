//! Where a person's data is still held: any table and column of the
//! database, and the bytes of its file and write-ahead log.

use super::TestApp;

/// Whether `needle` is anywhere in the database file or its write-ahead log.
pub fn on_disk(app: &TestApp, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for suffix in ["", "-wal"] {
        let path = format!("{}{suffix}", app.db_path.display());
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            found.push(path);
        }
    }
    found
}

/// Rows of any table, in any column, holding `needle` (ASCII letters in
/// any case, as SQLite's `lower` folds them).
pub fn anywhere(app: &TestApp, needle: &str) -> Vec<String> {
    let conn = app.db.conn().unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut found = Vec::new();
    for table in tables {
        let columns: Vec<String> = conn
            .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        for column in columns {
            let n: i64 = conn
                .query_row(
                    &format!(
                        "SELECT count(*) FROM \"{table}\"
                         WHERE instr(lower(CAST(\"{column}\" AS TEXT)), lower(?1)) > 0"
                    ),
                    [needle],
                    |r| r.get(0),
                )
                .unwrap();
            if n > 0 {
                found.push(format!("{table}.{column}: {n}"));
            }
        }
    }
    found
}
