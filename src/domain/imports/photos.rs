//! The feed's pictures: a car's photo sources set and its pictures rebuilt
//! from the fetched ones; the pictures still to fetch, which are due, and a
//! fetch's outcome (stored, or failed with its reason) recorded for the
//! run's progress.

use super::report::PhotoError;
use super::runs::internal;
use crate::domain::cars;
use crate::error::AppResult;
use rusqlite::{Connection, OptionalExtension, params};

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
    rebuild_images(conn, car_id)
}

/// A car's pictures from its fetched feed photos, in the feed's order.
pub fn rebuild_images(conn: &Connection, car_id: &str) -> AppResult<()> {
    let urls: Vec<String> = conn
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
    if current != urls {
        cars::set_images(conn, car_id, &urls)?;
        conn.prepare_cached("UPDATE cars SET updated_at = ?2 WHERE id = ?1")?
            .execute(params![car_id, crate::domain::now()])?;
    }
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
/// counts it in the run.
pub fn photo_stored(
    conn: &Connection,
    run_id: &str,
    photo: &PendingPhoto,
    media_url: &str,
) -> AppResult<()> {
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
        rebuild_images(conn, &photo.car_id)?;
        conn.prepare_cached("UPDATE import_runs SET photos_done = photos_done + 1 WHERE id = ?1")?
            .execute([run_id])?;
        Ok(())
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
        let entry = serde_json::to_string(&PhotoError {
            car_title: photo.car_title.clone(),
            url: photo.source_url.clone(),
            error: error.to_string(),
        })
        .map_err(internal)?;
        conn.prepare_cached(
            "UPDATE import_runs SET photos_failed = photos_failed + 1,
                photo_errors = json_insert(photo_errors, '$[#]', json(?2))
             WHERE id = ?1",
        )?
        .execute(params![run_id, entry])?;
        Ok(())
    })
}
