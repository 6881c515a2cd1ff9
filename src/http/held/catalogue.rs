//! The published catalogue in memory the state keeps (`AppState::catalogue`):
//! one `CarIndex` per content version and Moscow date (its monthly figures
//! come from the credit programmes valid that day), rebuilt by the first
//! request that needs a newer one. The public car lists read it (`http::public::cars`).

use std::sync::{Arc, RwLock};

use chrono::NaiveDate;

use crate::db::Db;
use crate::domain::car_index::{CarIndex, MAX_CARS};
use crate::error::AppResult;

/// The catalogue in memory (`CarIndex`), rebuilt by the first request that
/// needs a newer content version while the others wait for it.
#[derive(Default)]
pub struct HeldCatalogue {
    current: RwLock<Option<Arc<CarIndex>>>,
    /// The version at which the catalogue was too large to hold.
    too_large_at: RwLock<Option<i64>>,
    building: tokio::sync::Mutex<()>,
}

impl HeldCatalogue {
    fn fresh(&self, version: i64, day: NaiveDate) -> Option<Arc<CarIndex>> {
        let current = self.current.read().unwrap_or_else(|e| e.into_inner());
        current
            .as_ref()
            .filter(|i| i.version >= version && i.day == day)
            .cloned()
    }

    fn too_large(&self, version: i64) -> bool {
        *self.too_large_at.read().unwrap_or_else(|e| e.into_inner()) == Some(version)
    }

    /// The version and size of the catalogue held now.
    pub fn held(&self) -> Option<(i64, usize)> {
        let current = self.current.read().unwrap_or_else(|e| e.into_inner());
        current.as_ref().map(|i| (i.version, i.len()))
    }

    /// The catalogue at `version` or newer, of the Moscow date `day`; None
    /// when it is too large to hold.
    pub async fn at(
        &self,
        version: i64,
        day: NaiveDate,
        db: &Db,
    ) -> AppResult<Option<Arc<CarIndex>>> {
        if let Some(index) = self.fresh(version, day) {
            return Ok(Some(index));
        }
        if self.too_large(version) {
            return Ok(None);
        }
        let _building = self.building.lock().await;
        if let Some(index) = self.fresh(version, day) {
            return Ok(Some(index));
        }
        if self.too_large(version) {
            return Ok(None);
        }
        match db.call(move |c| CarIndex::build(c, MAX_CARS, day)).await? {
            Some(index) => {
                let index = Arc::new(index);
                *self.current.write().unwrap_or_else(|e| e.into_inner()) = Some(index.clone());
                Ok(Some(index))
            }
            None => {
                // Free the old one: it cannot be served again.
                *self.current.write().unwrap_or_else(|e| e.into_inner()) = None;
                *self.too_large_at.write().unwrap_or_else(|e| e.into_inner()) = Some(version);
                Ok(None)
            }
        }
    }
}
