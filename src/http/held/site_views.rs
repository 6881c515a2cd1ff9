//! The site's own card views, counted without cookies (`AppState::site_views`):
//! a person's browser asking for a car's page (`/car/{slug}`) or its public
//! answer (`/api/cars/slug/{slug}`, what the site asks on a move between
//! pages) adds one to a counter in memory, per car address and Moscow day.
//! `Site` counts before the answer cache answers, so a kept page counts too;
//! nothing is written on the answer's path. The job `site views` writes the
//! counters to `car_channel_days` (channel `site`) every minute, at
//! shutdown, and early when they hold [`MAX_ENTRIES`] (`docs/marketplaces.md`,
//! "What the admin shows").

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::http::{HeaderMap, Method, header};
use chrono::NaiveDate;
use tokio::sync::Notify;

use crate::clock::Clock;
use crate::db::Db;
use crate::error::AppResult;

/// Counters held at most: past this a new car-day is not counted until the
/// early write (some 5 MB at the longest addresses).
pub const MAX_ENTRIES: usize = 50_000;
/// The longest car address counted (a car's slug is far shorter).
const MAX_SLUG_BYTES: usize = 100;

/// The paths a car is viewed at, before its slug.
const CAR_PATHS: [&str; 2] = ["/car/", "/api/cars/slug/"];

/// Words of a user agent that is not a person's browser (lower case).
const NOT_A_PERSON: [&str; 8] = [
    "bot", "crawl", "spider", "yandex", "google", "slurp", "headless", "preview",
];

/// Card views not yet written.
pub struct SiteViews {
    clock: Arc<Clock>,
    counts: Mutex<HashMap<(Box<str>, NaiveDate), u32>>,
    /// Wakes the writer when the counters are full.
    full: Notify,
    /// Views not counted because the counters were full.
    lost: AtomicU64,
}

impl SiteViews {
    pub fn new(clock: Arc<Clock>) -> SiteViews {
        SiteViews {
            clock,
            counts: Mutex::default(),
            full: Notify::new(),
            lost: AtomicU64::new(0),
        }
    }

    /// Counts a request when it is a person's view of a car: a GET of a
    /// car's page or public answer from a browser that is not a crawler
    /// (nor a prefetch). Gives whether it counted.
    pub fn count(&self, method: &Method, path: &str, headers: &HeaderMap) -> bool {
        if method != Method::GET {
            return false;
        }
        let Some(slug) = CAR_PATHS.iter().find_map(|p| path.strip_prefix(p)) else {
            return false;
        };
        if slug.is_empty() || slug.len() > MAX_SLUG_BYTES || slug.contains('/') {
            return false;
        }
        if !is_person(headers) {
            return false;
        }
        let day = self.clock.moscow_today();
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&(Box::from(slug), day)) {
            *n = n.saturating_add(1);
            return true;
        }
        if counts.len() >= MAX_ENTRIES {
            self.lost.fetch_add(1, Ordering::Relaxed);
            self.full.notify_one();
            return false;
        }
        counts.insert((Box::from(slug), day), 1);
        if counts.len() >= MAX_ENTRIES {
            self.full.notify_one();
        }
        true
    }

    /// The counters held now.
    pub fn held(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Views not counted because the counters were full, since the start.
    pub fn lost(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }

    /// Writes the counters to the database in one transaction and empties
    /// them; on a failure they are kept for the next write. Gives the
    /// views written (of published cars).
    pub async fn flush(&self, db: &Db) -> AppResult<u64> {
        let taken: Vec<(String, NaiveDate, u32)> = {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            counts
                .drain()
                .map(|((slug, day), n)| (slug.into_string(), day, n))
                .collect()
        };
        if taken.is_empty() {
            return Ok(0);
        }
        let kept = taken.clone();
        let written = db
            .call(move |c| {
                let tx = c.transaction()?;
                let added = crate::domain::car_figures::add_site_views_by_slug(&tx, &taken)?;
                tx.commit()?;
                Ok(added)
            })
            .await;
        if written.is_err() {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            for (slug, day, n) in kept {
                let slot = counts.entry((slug.into_boxed_str(), day)).or_default();
                *slot = slot.saturating_add(n);
            }
        }
        written
    }

    /// Writes the counters every `period`, and at once when they are full,
    /// until `stop`; then once more.
    pub async fn keep_writing(
        &self,
        db: &Db,
        period: std::time::Duration,
        stop: tokio_util::sync::CancellationToken,
    ) -> AppResult<()> {
        loop {
            tokio::select! {
                () = tokio::time::sleep(period) => {}
                () = self.full.notified() => {}
                () = stop.cancelled() => break,
            }
            if let Err(err) = self.flush(db).await {
                tracing::warn!("site views not written yet: {err}");
            }
        }
        self.flush(db).await.map(|_| ())
    }
}

/// Whether the user agent is a person's browser: every browser names
/// itself "Mozilla/…"; crawlers (Googlebot, YandexBot, …), headless
/// browsers and link previews say what they are. A prefetch is no view.
fn is_person(headers: &HeaderMap) -> bool {
    let prefetch = ["sec-purpose", "purpose"].iter().any(|name| {
        headers
            .get(*name)
            .is_some_and(|v| v.as_bytes().starts_with(b"prefetch"))
    });
    if prefetch {
        return false;
    }
    let Some(agent) = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    if !agent.starts_with("Mozilla/") {
        return false;
    }
    let agent = agent.to_ascii_lowercase();
    !NOT_A_PERSON.iter().any(|word| agent.contains(word))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use axum::http::HeaderValue;

    fn agent(text: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::USER_AGENT, HeaderValue::from_str(text).unwrap());
        headers
    }

    const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    const YANDEX_BROWSER: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 \
        (KHTML, like Gecko) Chrome/120.0.0.0 YaBrowser/24.1.0.0 Safari/537.36";

    #[test]
    fn people_count_and_crawlers_do_not() {
        let views = SiteViews::new(Arc::default());
        let get = Method::GET;
        assert!(views.count(&get, "/car/lada-vesta", &agent(FIREFOX)));
        assert!(views.count(&get, "/api/cars/slug/lada-vesta", &agent(YANDEX_BROWSER)));
        for bot in [
            "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "Mozilla/5.0 (compatible; bingbot/2.0)",
            "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120.0.0.0",
            "curl/8.5.0",
        ] {
            assert!(!views.count(&get, "/car/lada-vesta", &agent(bot)), "{bot}");
        }
        assert!(!views.count(&get, "/car/lada-vesta", &HeaderMap::new()));
        assert!(!views.count(&Method::HEAD, "/car/lada-vesta", &agent(FIREFOX)));
        assert!(!views.count(&get, "/cars/lada-vesta", &agent(FIREFOX)));
        assert!(!views.count(&get, "/api/cars/slug/a/images", &agent(FIREFOX)));
        let mut prefetch = agent(FIREFOX);
        prefetch.insert("sec-purpose", HeaderValue::from_static("prefetch"));
        assert!(!views.count(&get, "/car/lada-vesta", &prefetch));
        assert_eq!(views.held(), 1, "one car, one day");
    }

    #[test]
    fn full_counters_count_what_they_hold_and_lose_the_rest() {
        let views = SiteViews::new(Arc::default());
        let firefox = agent(FIREFOX);
        for i in 0..MAX_ENTRIES {
            assert!(views.count(&Method::GET, &format!("/car/c{i}"), &firefox));
        }
        assert!(
            views.count(&Method::GET, "/car/c0", &firefox),
            "held: counted"
        );
        assert!(!views.count(&Method::GET, "/car/new-one", &firefox));
        assert_eq!((views.held(), views.lost()), (MAX_ENTRIES, 1));
    }
}
