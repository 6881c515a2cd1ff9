//! Fetching the feed's photos after an import is applied: a few at a time,
//! each with a timeout and a size limit, checked and resized by the media
//! store as an upload is. A photo the feed's server fails to give is
//! recorded in the run and fetched again on the next run; it never fails the
//! import. A photo not yet tried (the fetch was cut short by a restart, or
//! the site could not store it: a full disk) is fetched by the next pass, and
//! counted in the same run (`docs/parser.md`, "Photos").

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::{Mutex, Semaphore};
use tokio::task::JoinSet;

use super::fetch::Fetcher;
use crate::db::Db;
use crate::domain::imports::{self, PendingPhoto};
use crate::error::{AppError, AppResult};
use crate::media;

/// Photos fetched at once.
pub const PARALLEL: usize = 4;
/// How long one photo may take.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// One photo fetch at a time for the whole server: two runs would fetch the
/// same pending pictures twice.
fn one_at_a_time() -> &'static Mutex<()> {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    LOCK.get_or_init(|| Mutex::new(()))
}

/// Fetches every picture not yet tried since the last apply and counts each
/// in that run. Gives how many were left untried (the site could not store
/// them); the next pass tries those again.
pub async fn fetch_untried(db: Db, media_dir: PathBuf, allow_private: bool) -> AppResult<usize> {
    let _turn = one_at_a_time().lock().await;
    let (run_id, pending) = db
        .call(|c| Ok((imports::last_applied_run(c)?, imports::untried_photos(c)?)))
        .await?;
    if pending.is_empty() {
        return Ok(0);
    }
    let run_id = run_id.unwrap_or_default();
    let fetcher = Fetcher::new(allow_private, TIMEOUT);
    let slots = Arc::new(Semaphore::new(PARALLEL));
    // Set at the first picture the site could not store: the rest wait for
    // the next pass instead of being downloaded for nothing.
    let stuck = Arc::new(AtomicBool::new(false));
    let mut tasks = JoinSet::new();
    let cars: BTreeSet<String> = pending.iter().map(|p| p.car_id.clone()).collect();
    // Each car's pictures before the pass and after its last change: one
    // audit entry per car at the end.
    let changes: Arc<std::sync::Mutex<Changes>> = Arc::default();
    for photo in pending {
        let (db, media_dir, fetcher, slots, run_id, stuck, changes) = (
            db.clone(),
            media_dir.clone(),
            fetcher.clone(),
            slots.clone(),
            run_id.clone(),
            stuck.clone(),
            changes.clone(),
        );
        tasks.spawn(async move {
            let Ok(_slot) = slots.acquire_owned().await else {
                return false;
            };
            if stuck.load(Ordering::Relaxed) {
                return false;
            }
            let source = photo.source_url.clone();
            let recorded = match fetch_one(&fetcher, &media_dir, &photo).await {
                Ok(stored) => {
                    let car = photo.car_id.clone();
                    db.call(move |c| {
                        media::record(c, &stored)?;
                        imports::photo_stored(c, &run_id, &photo, &stored.url)
                    })
                    .await
                    .map(|change| note(&changes, &car, change))
                }
                Err(Failure::Theirs(error)) => {
                    db.call(move |c| imports::photo_failed(c, &run_id, &photo, &error))
                        .await
                }
                Err(Failure::Ours(error)) => Err(error),
            };
            match recorded {
                Ok(()) => true,
                Err(err) => {
                    if !stuck.swap(true, Ordering::Relaxed) {
                        tracing::warn!(
                            "imported photos left for the next pass: cannot store {source}: {err}"
                        );
                    }
                    false
                }
            }
        });
    }
    let mut untried = 0;
    while let Some(done) = tasks.join_next().await {
        untried += usize::from(!matches!(done, Ok(true)));
    }
    let mut changes = std::mem::take(&mut *changes.lock().unwrap_or_else(|p| p.into_inner()));
    db.call(move |c| {
        for car in &cars {
            if let Some((before, after)) = imports::rebuild_images(c, car)? {
                changes.entry(car.clone()).or_insert((before, Vec::new())).1 = after;
            }
        }
        for (car, (before, after)) in &changes {
            imports::record_photo_pass(c, car, before, after)?;
        }
        Ok(())
    })
    .await?;
    Ok(untried)
}

/// Each car's pictures before a pass and after it.
type Changes = std::collections::HashMap<String, (Vec<String>, Vec<String>)>;

fn note(changes: &std::sync::Mutex<Changes>, car: &str, change: imports::PictureChange) {
    if let Some((before, after)) = change {
        let mut changes = changes.lock().unwrap_or_else(|p| p.into_inner());
        changes
            .entry(car.to_string())
            .or_insert((before, Vec::new()))
            .1 = after;
    }
}

/// Why a photo was not stored.
enum Failure {
    /// The feed's side: not found, too large, not a picture. Recorded in the
    /// run; tried again on the next run.
    Theirs(String),
    /// The site's side: the picture could not be written (a full disk). Not
    /// recorded; the next pass tries again.
    Ours(AppError),
}

async fn fetch_one(
    fetcher: &Fetcher,
    media_dir: &std::path::Path,
    photo: &PendingPhoto,
) -> Result<media::StoredImage, Failure> {
    let bytes = fetcher
        .get(
            &photo.source_url,
            media::MAX_FILE_BYTES,
            media::FILE_TOO_LARGE,
        )
        .await
        .map_err(|e| Failure::Theirs(e.to_string()))?;
    let media_dir = media_dir.to_path_buf();
    match tokio::task::spawn_blocking(move || media::process_image(&media_dir, &bytes)).await {
        Ok(Ok(stored)) => Ok(stored),
        // Writing the variants failed (a full disk, a read-only
        // directory): ours. Whatever the picture itself is refused for
        // (size, format, a file no encoder takes) is the feed's, so a
        // picture that can never be stored is not fetched again and again.
        Ok(Err(AppError::Internal(err))) if is_io(&err) => {
            Err(Failure::Ours(AppError::Internal(err)))
        }
        Ok(Err(err)) => Err(Failure::Theirs(err.to_string())),
        Err(err) => Err(Failure::Ours(AppError::Internal(err.into()))),
    }
}

fn is_io(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| cause.is::<std::io::Error>())
}
