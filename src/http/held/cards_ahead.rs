//! Cards drawn ahead (`docs/rendering.md`, "Cards drawn ahead"): a page no
//! one has asked for yet (a filter, a page number, a crawler's walk) is
//! mostly cards, and a card drawn in QuickJS costs some 1.5 ms, so a cold
//! list page of twenty took 35-60 ms. Every published car's card is drawn
//! into the fragment store while no page waits, newest first (the
//! catalogues' first pages first), and again when a car or what its card
//! shows (the phone, the salons, the credit programmes) changes; a cold page
//! then takes its cards from the store as a page drawn before does.
//!
//! [`hand_over`] (the job "cards ahead", every [`EVERY`]) reads the cars at
//! a new content version and gives the renderer the cards it has not drawn
//! yet; the rendering threads draw them one batch at a time, one thread at
//! a time, and only while no page waits ([`Ahead`]).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use super::ahead::AheadBatch;
use super::render::Renderer;
use crate::config::Config;
use crate::db::Db;
use crate::domain::cars::{self, CarFilter};
use crate::domain::credit_payment::CreditRule;
use crate::error::AppResult;

/// How often the job looks for a new content version.
pub const EVERY: Duration = Duration::from_secs(3);
/// Cars a batch holds: some 25 ms of one thread (one thread draws ahead
/// at a time, the others stay free for pages).
const BATCH: usize = 16;
/// Cars read from the database at a time.
const READ: u32 = 100;
/// A car whose card data is larger is drawn when a page shows it: the
/// store is for the catalogue, not for one outsized car.
const MAX_CAR_JSON: usize = 8 * 1024;
/// What a card ahead is counted to take in the store (its deflated HTML,
/// about 1 KB, and the entry): the cards ahead fill at most
/// [`STORE_SHARE`] of the store, the rest is for the pages' own fragments.
const CARD_BYTES: u64 = 1_400;
const STORE_SHARE: f64 = 0.75;

/// What the job has handed over: the content version and Moscow date it
/// read last, and the cards (a digest of the settings' and the car's JSON)
/// handed over so far, so a change hands over only the cards it changed.
#[derive(Default)]
pub struct HandedOver {
    read_at: Option<(i64, chrono::NaiveDate)>,
    cards: HashSet<[u8; 16]>,
}

/// The job "cards ahead" with what it reads (`server::start_jobs`).
#[derive(Clone)]
pub struct CardsAhead {
    pub db: Db,
    pub config: Arc<Config>,
    pub clock: Arc<crate::clock::Clock>,
    pub renderer: Arc<Renderer>,
    pub handed: Arc<Mutex<HandedOver>>,
}

impl CardsAhead {
    pub fn new(db: &Db, config: &Arc<Config>, clock: &Arc<crate::clock::Clock>) -> CardsAhead {
        CardsAhead {
            db: db.clone(),
            config: config.clone(),
            clock: clock.clone(),
            renderer: Arc::default(),
            handed: Arc::default(),
        }
    }

    /// Runs the job every [`EVERY`] for `renderer`'s threads.
    pub fn start(mut self, jobs: &mut crate::jobs::Supervisor, renderer: &Arc<Renderer>) {
        self.renderer = renderer.clone();
        jobs.every("cards ahead", EVERY, move || {
            let job = self.clone();
            async move {
                hand_over(&job.db, &job.config, &job.clock, &job.renderer, &job.handed).await?;
                Ok(())
            }
        });
    }
}

/// The job: when the renderer runs and the content version (or the date)
/// moved, hands it the cards of the published cars it has not had yet,
/// newest first.
pub async fn hand_over(
    db: &Db,
    config: &Arc<Config>,
    clock: &crate::clock::Clock,
    renderer: &Renderer,
    handed: &Mutex<HandedOver>,
) -> AppResult<()> {
    let Some(capacity) = renderer.fragments().map(|f| f.capacity()) else {
        return Ok(());
    };
    if !renderer.started() {
        return Ok(());
    }
    let day = clock.moscow_today();
    let version = db.call(|c| Ok(crate::db::content_version(c)?)).await?;
    {
        let handed = handed.lock().unwrap_or_else(|e| e.into_inner());
        if handed.read_at == Some((version, day)) {
            return Ok(());
        }
    }
    let most = (capacity as f64 * STORE_SHARE / CARD_BYTES as f64) as usize;
    let config = config.clone();
    let (settings, cars) = db
        .call(move |c| {
            let settings = crate::domain::salons::public_settings(c, &config.call_tracking)?;
            let rule = CreditRule::today(c, day)?;
            let mut cars = Vec::new();
            let filter = CarFilter::default();
            let mut offset = 0;
            while cars.len() < most {
                // Each car's JSON as a page's list has it, byte for byte:
                // a card's key is a digest of it (`docs/rendering.md`).
                let read = cars::list_json(c, &filter, READ, offset, &rule)?;
                let read: Vec<&RawValue> =
                    serde_json::from_slice(&read).map_err(anyhow::Error::from)?;
                let last = read.len() < READ as usize;
                for car in read {
                    let text = car.get();
                    if text.len() <= MAX_CAR_JSON {
                        cars.push(text.to_string());
                    }
                }
                if last {
                    break;
                }
                offset += READ;
            }
            cars.truncate(most);
            Ok((
                serde_json::to_value(settings).map_err(anyhow::Error::from)?,
                cars,
            ))
        })
        .await?;
    let data: Arc<str> = Arc::from(json!({ "/api/settings": settings }).to_string());
    let mut handed = handed.lock().unwrap_or_else(|e| e.into_inner());
    let mut fresh = Vec::new();
    let mut seen = HashSet::with_capacity(cars.len());
    for car in cars {
        let digest = card_digest(&data, &car);
        seen.insert(digest);
        if !handed.cards.contains(&digest) {
            fresh.push(car);
        }
    }
    let batches = fresh
        .chunks(BATCH)
        .map(|chunk| AheadBatch {
            data: data.clone(),
            cars: format!("[{}]", chunk.join(",")),
        })
        .collect();
    renderer.draw_ahead(batches);
    handed.cards = seen;
    handed.read_at = Some((version, day));
    Ok(())
}

fn card_digest(data: &str, car: &str) -> [u8; 16] {
    let mut hasher = Sha256::new();
    hasher.update(data.as_bytes());
    hasher.update([0]);
    hasher.update(car.as_bytes());
    let digest = hasher.finalize();
    let mut out = [0; 16];
    out.copy_from_slice(&digest[..16]);
    out
}
