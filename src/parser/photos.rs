//! Fetching the feed's photos after an import is applied: a few at a time,
//! each with a timeout and a size limit, checked and resized by the media
//! store as an upload is. A failed photo is recorded in the run and fetched
//! again on the next run; it never fails the import (`docs/parser.md`).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::{Mutex, Semaphore};
use tokio::task::JoinSet;

use super::fetch::Fetcher;
use crate::db::Db;
use crate::domain::imports::{self, PendingPhoto};
use crate::error::AppResult;
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

/// Fetches every pending picture and counts them in the run `run_id`.
pub async fn fetch_pending(
    db: Db,
    media_dir: PathBuf,
    allow_private: bool,
    run_id: String,
) -> AppResult<()> {
    let _turn = one_at_a_time().lock().await;
    let pending = db.call(|c| imports::pending_photos(c)).await?;
    {
        let (run, total) = (run_id.clone(), pending.len() as i64);
        db.call(move |c| imports::start_photos(c, &run, total))
            .await?;
    }
    let fetcher = Fetcher::new(allow_private, TIMEOUT);
    let slots = Arc::new(Semaphore::new(PARALLEL));
    let mut tasks = JoinSet::new();
    let cars: BTreeSet<String> = pending.iter().map(|p| p.car_id.clone()).collect();
    for photo in pending {
        let (db, media_dir, fetcher, slots, run_id) = (
            db.clone(),
            media_dir.clone(),
            fetcher.clone(),
            slots.clone(),
            run_id.clone(),
        );
        tasks.spawn(async move {
            let Ok(_slot) = slots.acquire_owned().await else {
                return;
            };
            let outcome = fetch_one(&fetcher, &media_dir, &photo).await;
            let recorded = match outcome {
                Ok(stored) => {
                    db.call(move |c| {
                        media::record(c, &stored)?;
                        imports::photo_stored(c, &run_id, &photo, &stored.url)
                    })
                    .await
                }
                Err(error) => {
                    db.call(move |c| imports::photo_failed(c, &run_id, &photo, &error))
                        .await
                }
            };
            if let Err(err) = recorded {
                tracing::warn!("cannot record an imported photo: {err}");
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    db.call(move |c| {
        for car in &cars {
            imports::rebuild_images(c, car)?;
        }
        Ok(())
    })
    .await
}

async fn fetch_one(
    fetcher: &Fetcher,
    media_dir: &std::path::Path,
    photo: &PendingPhoto,
) -> Result<media::StoredImage, String> {
    let bytes = fetcher
        .get(
            &photo.source_url,
            media::MAX_FILE_BYTES,
            media::FILE_TOO_LARGE,
        )
        .await
        .map_err(|e| e.to_string())?;
    let media_dir = media_dir.to_path_buf();
    tokio::task::spawn_blocking(move || media::process_image(&media_dir, &bytes))
        .await
        .map_err(|e| format!("Обработка изображения прервана: {e}"))?
        .map_err(|e| e.to_string())
}
