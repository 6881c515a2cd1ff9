//! The published catalogue held in memory, each car's JSON rendered once, so
//! a filtered page of the public list is a walk over at most every car and a
//! copy of its bytes: no query, no encoding per request (`docs/cache.md`,
//! "The catalogue in memory"). Built at one content version and replaced
//! when the version moves; catalogues above [`MAX_CARS`] published cars are
//! not held (their lists are read from SQLite as before).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::Mutex;

use chrono::NaiveDate;
use rusqlite::Connection;

use super::cars::{self, CarFilter, CarSort, RenderedCar};
use super::credit_payment::CreditRule;
use crate::error::AppResult;

/// Largest catalogue held: about 1.3 KB of JSON a car, so some 26 MB.
pub const MAX_CARS: usize = 20_000;

/// Filters whose counts are kept with the catalogue (a filter's every page
/// shows its count, a walk over every car); past it the kept counts are
/// dropped and kept afresh.
const COUNTS_KEPT: usize = 1024;

pub struct CarIndex {
    /// The content version the cars were read at (or an older one).
    pub version: i64,
    /// The Moscow date whose credit programmes gave the monthly figures.
    pub day: NaiveDate,
    /// Newest first: created_at descending, then rowid descending.
    cars: Vec<RenderedCar>,
    /// Positions in `cars` by price ascending, then rowid ascending.
    by_price: Vec<u32>,
    /// Positions in `cars` by price descending, then rowid ascending.
    by_price_desc: Vec<u32>,
    /// The published cars of each brand that has any, by brand id.
    by_brand: HashMap<Box<str>, i64>,
    /// Counts of the filters asked for, by their terms ([`count_key`]).
    counts: Mutex<HashMap<String, i64>>,
}

impl CarIndex {
    /// Reads the published catalogue; None when it has more than
    /// `max_cars` cars ([`MAX_CARS`] for the server). The version is read
    /// first, so the cars are at least as new as the version the index claims;
    /// the monthly figures are those of the programmes valid on `day`.
    pub fn build(
        conn: &Connection,
        max_cars: usize,
        day: NaiveDate,
    ) -> AppResult<Option<CarIndex>> {
        let version = crate::db::content_version(conn)?;
        let rule = CreditRule::today(conn, day)?;
        let Some(cars) = cars::published_rendered(conn, max_cars, &rule)? else {
            return Ok(None);
        };
        let mut by_price: Vec<u32> = (0..cars.len() as u32).collect();
        by_price.sort_unstable_by_key(|&i| (cars[i as usize].price, cars[i as usize].rowid));
        let mut by_price_desc = by_price.clone();
        by_price_desc
            .sort_unstable_by_key(|&i| (Reverse(cars[i as usize].price), cars[i as usize].rowid));
        let mut by_brand = HashMap::new();
        for car in &cars {
            *by_brand.entry(car.brand_id.clone()).or_insert(0) += 1;
        }
        Ok(Some(CarIndex {
            version,
            day,
            cars,
            by_price,
            by_price_desc,
            by_brand,
            counts: Mutex::default(),
        }))
    }

    /// Cars held.
    pub fn len(&self) -> usize {
        self.cars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cars.is_empty()
    }

    /// The cars matching `filter`, in its order.
    fn matching<'a>(
        &'a self,
        filter: &'a CarFilter,
    ) -> Box<dyn Iterator<Item = &'a RenderedCar> + 'a> {
        let min = filter.min_price.map(|m| m.kopecks());
        let max = filter.max_price.map(|m| m.kopecks());
        let pick = move |car: &&RenderedCar| matches(car, filter);
        match filter.sort {
            CarSort::Newest => Box::new(
                self.cars
                    .iter()
                    .filter(move |c| {
                        min.is_none_or(|m| c.price >= m) && max.is_none_or(|m| c.price <= m)
                    })
                    .filter(pick),
            ),
            CarSort::PriceAsc => {
                // The price limits are a range of the price order.
                let from = min.map_or(0, |m| {
                    self.by_price
                        .partition_point(|&i| self.cars[i as usize].price < m)
                });
                let to = max.map_or(self.by_price.len(), |m| {
                    self.by_price
                        .partition_point(|&i| self.cars[i as usize].price <= m)
                });
                Box::new(
                    self.by_price[from..to.max(from)]
                        .iter()
                        .map(|&i| &self.cars[i as usize])
                        .filter(pick),
                )
            }
            CarSort::PriceDesc => {
                let from = max.map_or(0, |m| {
                    self.by_price_desc
                        .partition_point(|&i| self.cars[i as usize].price > m)
                });
                let to = min.map_or(self.by_price_desc.len(), |m| {
                    self.by_price_desc
                        .partition_point(|&i| self.cars[i as usize].price >= m)
                });
                Box::new(
                    self.by_price_desc[from..to.max(from)]
                        .iter()
                        .map(|&i| &self.cars[i as usize])
                        .filter(pick),
                )
            }
        }
    }

    /// The page [`cars::list_json`] gives for a public filter, byte for byte.
    pub fn page_json(&self, filter: &CarFilter, limit: u32, offset: u32) -> Vec<u8> {
        let limit = limit.min(cars::MAX_LIMIT) as usize;
        let page: Vec<&RenderedCar> = self
            .matching(filter)
            .skip(offset as usize)
            .take(limit)
            .collect();
        let size = 2 + page.iter().map(|c| c.json.len() + 1).sum::<usize>();
        let mut out = Vec::with_capacity(size);
        out.push(b'[');
        for (n, car) in page.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            out.extend_from_slice(&car.json);
        }
        out.push(b']');
        out
    }

    /// The published cars of each brand that has any, by brand id
    /// (counted once, when the catalogue is read).
    pub fn counts_by_brand(&self) -> &HashMap<Box<str>, i64> {
        &self.by_brand
    }

    /// What [`cars::count`] gives for a public filter: counted once per
    /// filter while this catalogue is held (the count of a filter's pages
    /// is the same on each of them).
    pub fn count(&self, filter: &CarFilter) -> i64 {
        let key = count_key(filter);
        let kept = self
            .counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        if let Some(count) = kept {
            return count;
        }
        // Counted without the lock: another filter's count need not wait.
        let count = self.matching(filter).count() as i64;
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() >= COUNTS_KEPT {
            counts.clear();
        }
        counts.insert(key, count);
        count
    }
}

/// A filter's terms that decide which cars it counts (its order does not).
fn count_key(filter: &CarFilter) -> String {
    let terms = CarFilter {
        sort: CarSort::Newest,
        ..filter.clone()
    };
    format!("{terms:?}")
}

/// The public filter's terms other than the price (which each order applies
/// its own way), as `cars::where_clause` puts them. Drafts are never held.
fn matches(car: &RenderedCar, filter: &CarFilter) -> bool {
    (filter.statuses.is_empty() || filter.statuses.contains(&car.status))
        && filter
            .brand_id
            .as_deref()
            .is_none_or(|b| *car.brand_id == *b)
        && filter
            .body_type
            .as_ref()
            .is_none_or(|b| &car.body_type == b)
        && filter.featured.is_none_or(|f| car.featured == f)
        && filter.in_stock.is_none_or(|s| car.in_stock == s)
        && filter.model.as_deref().is_none_or(|m| *car.model == *m)
        && filter
            .salon
            .is_none_or(|s| crate::domain::salons::column(s) == car.salon_id)
}
