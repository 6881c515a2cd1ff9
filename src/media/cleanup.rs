//! Removes stored pictures that no entity uses any more. A grace period
//! keeps fresh uploads that a form has not saved yet. A picture's files go
//! with it (its variants and its original); its copy in the replica's
//! bucket stays: a point-in-time restore may still name it
//! (`crate::ops::bucket`).

use std::collections::HashSet;
use std::path::Path;

use chrono::{Duration, SecondsFormat, Utc};
use rusqlite::Connection;

use super::names::{URL_PREFIX, original_path};
use crate::error::AppResult;

/// Every column that may hold one of our media URLs.
const REFERENCES: &str = "
    SELECT url FROM car_images
    UNION ALL SELECT logo FROM brands
    UNION ALL SELECT image FROM promotions
    UNION ALL SELECT logo FROM partner_banks
    UNION ALL SELECT photo FROM reviews
    UNION ALL SELECT image_url FROM body_types UNION ALL SELECT image_url_mobile FROM body_types
    UNION ALL SELECT favicon || ' ' || home_banner || ' ' || home_banner_mobile || ' ' ||
        new_cars_banner || ' ' || new_cars_banner_mobile || ' ' || used_cars_banner || ' ' ||
        used_cars_banner_mobile || ' ' || trade_in_banner || ' ' || trade_in_banner_mobile || ' ' ||
        auto_credit_banner || ' ' || auto_credit_banner_mobile || ' ' || auto_selection_banner ||
        ' ' || auto_selection_banner_mobile FROM settings";

/// The hashes named by `/media/<hash>` in a text.
fn hashes_in(text: &str, into: &mut HashSet<String>) {
    for (start, _) in text.match_indices(URL_PREFIX) {
        let rest = &text[start + URL_PREFIX.len()..];
        let hash: String = rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
        if hash.len() == 32 {
            into.insert(hash);
        }
    }
}

/// The hashes of the pictures some entity uses (backups check that each is
/// in the archive).
pub fn used_hashes(conn: &Connection) -> AppResult<HashSet<String>> {
    let mut used = HashSet::new();
    let mut stmt = conn.prepare(REFERENCES)?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        if let Some(text) = row.get::<_, Option<String>>(0)? {
            hashes_in(&text, &mut used);
        }
    }
    Ok(used)
}

/// Deletes the files and rows of pictures that nothing references and that
/// are older than `grace`; gives how many pictures went.
pub fn collect_garbage(conn: &Connection, media_dir: &Path, grace: Duration) -> AppResult<usize> {
    let used = used_hashes(conn)?;
    let cutoff = (Utc::now() - grace).to_rfc3339_opts(SecondsFormat::Millis, true);
    let stored: Vec<String> = conn
        .prepare("SELECT hash FROM media WHERE created_at <= ?1")?
        .query_map([cutoff], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let files: Vec<String> = std::fs::read_dir(media_dir)
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    let mut removed = 0;
    for hash in stored.iter().filter(|h| !used.contains(*h)) {
        for name in files.iter().filter(|n| n.starts_with(hash.as_str())) {
            if let Err(err) = std::fs::remove_file(media_dir.join(name)) {
                tracing::warn!(%name, %err, "cannot remove unused picture");
            }
        }
        let original = original_path(media_dir, hash);
        match std::fs::remove_file(&original) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => tracing::warn!(%hash, %err, "cannot remove an unused picture's original"),
        }
        // Its place in the upload queue goes with it (the foreign key
        // cascades too; said here for connections without foreign keys).
        conn.execute("DELETE FROM media_uploads WHERE hash = ?1", [hash])?;
        conn.execute("DELETE FROM media WHERE hash = ?1", [hash])?;
        removed += 1;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_hashes_in_any_text() {
        let mut found = HashSet::new();
        let a = "0123456789abcdef0123456789abcdef";
        let b = "fedcba9876543210fedcba9876543210";
        hashes_in(
            &format!("[\"/media/{a}-800.webp\",\"/media/{b}-800.webp\"]"),
            &mut found,
        );
        hashes_in("/media/short-800.webp and /media/", &mut found);
        assert_eq!(found, HashSet::from([a.to_string(), b.to_string()]));
    }
}
