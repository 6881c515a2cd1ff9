//! The feed's pictures: a car's photo sources set and its pictures rebuilt
//! from the fetched ones; the pictures still to fetch, which are due, and a
//! fetch's outcome (stored, or failed with its reason) recorded for the
//! run's progress.

use super::items::add_photo_error;
use super::report::PhotoError;
use crate::domain::audit::{self, AuditAction, AuditObject, NewEntry};
use crate::domain::cars;
use crate::error::AppResult;
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashSet;

/// Gives a car the feed's picture URLs: a position keeps its stored picture
/// while its URL is the same; a new URL waits for the photo fetch. The car's
/// pictures become the stored ones, in order.
pub(super) fn set_sources(conn: &Connection, car_id: &str, urls: &[String]) -> AppResult<()> {
    let current: Vec<(String, Option<String>)> = conn
        .prepare_cached(
            "SELECT source_url, media_url FROM car_photo_sources WHERE car_id = ?1 ORDER BY position",
        )?
        .query_map([car_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    conn.prepare_cached("DELETE FROM car_photo_sources WHERE car_id = ?1")?
        .execute([car_id])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO car_photo_sources (car_id, position, source_url, media_url)
         VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (position, url) in (0_i64..).zip(urls) {
        let kept = current
            .iter()
            .find(|(source, _)| source == url)
            .and_then(|(_, media)| media.clone());
        insert.execute(params![car_id, position, url, kept])?;
    }
    rebuild(conn, car_id)?;
    Ok(())
}

/// Who the photo pass's changes to a car are recorded as in the audit
/// trail.
pub const PHOTO_PASS_USER: &str = "фото из фида";

/// A car's pictures: its fetched feed photos in the feed's order, then the
/// pictures a person added (every picture the photo pass never stored for
/// it), which no import and no photo pass removes; the feed's are cut when
/// both pass the limit. While the set is the same the order stays (a
/// person may have reordered them). Gives the pictures before and after
/// when they changed.
pub(super) fn rebuild(
    conn: &Connection,
    car_id: &str,
) -> AppResult<Option<(Vec<String>, Vec<String>)>> {
    let fetched: Vec<String> = conn
        .prepare_cached(
            "SELECT media_url FROM car_photo_sources
             WHERE car_id = ?1 AND media_url IS NOT NULL ORDER BY position",
        )?
        .query_map([car_id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let current: Vec<String> = conn
        .prepare_cached("SELECT url FROM car_images WHERE car_id = ?1 ORDER BY position")?
        .query_map([car_id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let feeds: HashSet<String> = conn
        .prepare_cached("SELECT media_url FROM car_feed_pictures WHERE car_id = ?1")?
        .query_map([car_id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let persons: Vec<String> = current
        .iter()
        .filter(|u| !feeds.contains(*u) && !fetched.contains(u))
        .cloned()
        .collect();
    let room = cars::MAX_IMAGES.saturating_sub(persons.len());
    let mut wanted: Vec<String> = fetched.into_iter().take(room).collect();
    wanted.extend(persons);
    let same_set = {
        let mut a = current.clone();
        let mut b = wanted.clone();
        a.sort();
        b.sort();
        a == b
    };
    if same_set {
        return Ok(None);
    }
    cars::set_images(conn, car_id, &wanted)?;
    conn.prepare_cached("UPDATE cars SET updated_at = ?2 WHERE id = ?1")?
        .execute(params![car_id, crate::domain::now()])?;
    Ok(Some((current, wanted)))
}

/// The pictures a car had before and has after, when they changed.
pub type PictureChange = Option<(Vec<String>, Vec<String>)>;

/// [`rebuild`] for the photo pass, which records what it changed once per
/// car at its end ([`record_photo_pass`]).
pub fn rebuild_images(conn: &Connection, car_id: &str) -> AppResult<PictureChange> {
    rebuild(conn, car_id)
}

/// Records in the audit trail, as the photo pass's, what it changed of a
/// car's pictures in all.
pub fn record_photo_pass(
    conn: &Connection,
    car_id: &str,
    before: &[String],
    after: &[String],
) -> AppResult<()> {
    if before == after {
        return Ok(());
    }
    let title: String = conn
        .query_row(
            "SELECT coalesce(b.name, '') || ' ' || c.name || ' ' || c.year
             FROM cars c LEFT JOIN brands b ON b.id = c.brand_id WHERE c.id = ?1",
            [car_id],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or_default();
    let entry = NewEntry::new(
        AuditAction::Import,
        AuditObject::Car,
        Some(car_id),
        format!(
            "Фото из фида у «{}»: было {}, стало {}",
            title.trim(),
            before.len(),
            after.len()
        ),
    )
    .with_changes(vec![audit::change(
        "images",
        Some(before.len().to_string()),
        Some(after.len().to_string()),
    )]);
    audit::record(conn, PHOTO_PASS_USER, entry)?;
    Ok(())
}

/// One picture still to fetch.
#[derive(Debug, Clone)]
pub struct PendingPhoto {
    pub car_id: String,
    pub position: i64,
    pub source_url: String,
    pub car_title: String,
}

pub(super) fn pending_photo_count(conn: &Connection) -> AppResult<i64> {
    Ok(conn.query_row(
        "SELECT count(*) FROM car_photo_sources WHERE media_url IS NULL",
        [],
        |r| r.get(0),
    )?)
}

/// The most recently applied run: the one the photos being fetched count in.
pub fn last_applied_run(conn: &Connection) -> AppResult<Option<String>> {
    Ok(conn
        .query_row(
            "SELECT id FROM import_runs WHERE status = 'applied'
             ORDER BY finished_at DESC, rowid DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?)
}

/// Every feed picture not stored and not yet tried since the last apply
/// (which makes the ones that failed before untried again).
pub fn untried_photos(conn: &Connection) -> AppResult<Vec<PendingPhoto>> {
    let mut stmt = conn.prepare(
        "SELECT s.car_id, s.position, s.source_url,
            coalesce(b.name, '') || ' ' || c.name || ' ' || c.year
         FROM car_photo_sources s JOIN cars c ON c.id = s.car_id
         LEFT JOIN brands b ON b.id = c.brand_id
         WHERE s.media_url IS NULL AND s.error IS NULL ORDER BY s.car_id, s.position",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(PendingPhoto {
            car_id: r.get(0)?,
            position: r.get(1)?,
            source_url: r.get(2)?,
            car_title: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Records a fetched picture (when its source is still the same) and
/// counts it in the run; gives the car's pictures before and after.
pub fn photo_stored(
    conn: &Connection,
    run_id: &str,
    photo: &PendingPhoto,
    media_url: &str,
) -> AppResult<PictureChange> {
    crate::domain::atomically(conn, || {
        conn.prepare_cached(
            "UPDATE car_photo_sources SET media_url = ?4, error = NULL
             WHERE car_id = ?1 AND position = ?2 AND source_url = ?3",
        )?
        .execute(params![
            photo.car_id,
            photo.position,
            photo.source_url,
            media_url
        ])?;
        conn.prepare_cached(
            "INSERT OR IGNORE INTO car_feed_pictures (car_id, media_url)
             SELECT car_id, media_url FROM car_photo_sources
             WHERE car_id = ?1 AND position = ?2 AND media_url = ?3",
        )?
        .execute(params![photo.car_id, photo.position, media_url])?;
        let changed = rebuild(conn, &photo.car_id)?;
        conn.prepare_cached("UPDATE import_runs SET photos_done = photos_done + 1 WHERE id = ?1")?
            .execute([run_id])?;
        Ok(changed)
    })
}

/// Records a picture that could not be fetched: retried on the next run.
pub fn photo_failed(
    conn: &Connection,
    run_id: &str,
    photo: &PendingPhoto,
    error: &str,
) -> AppResult<()> {
    crate::domain::atomically(conn, || {
        conn.prepare_cached(
            "UPDATE car_photo_sources SET error = ?4
             WHERE car_id = ?1 AND position = ?2 AND source_url = ?3",
        )?
        .execute(params![
            photo.car_id,
            photo.position,
            photo.source_url,
            error
        ])?;
        add_photo_error(
            conn,
            run_id,
            &PhotoError {
                car_title: photo.car_title.clone(),
                url: photo.source_url.clone(),
                error: error.to_string(),
            },
        )?;
        conn.prepare_cached(
            "UPDATE import_runs SET photos_failed = photos_failed + 1 WHERE id = ?1",
        )?
        .execute([run_id])?;
        Ok(())
    })
}
