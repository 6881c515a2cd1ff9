//! Pages drawn ahead (`docs/rendering.md`, "Pages drawn ahead"): after every
//! change to what the site shows (and at the start, and at Moscow
//! midnight), once every card is drawn ahead, the job "pages ahead" asks the
//! site for the first page of each public route as a browser would. Each
//! goes into the answer cache with its brotli form, and its own fragments
//! (the header row with that route's menu link marked, a catalogue's brand
//! strip and filters, the home page's sections) into the fragment store: a
//! visitor's first page of a route, or any page of it no one has asked for,
//! then draws only what is its own (its list, its page links).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension};

use crate::clock::Clock;
use crate::db::Db;
use crate::error::AppResult;
use crate::http::held::render::Renderer;
use crate::http::pages::STATIC_PAGES;
use crate::http::router::Site;
use crate::http::screen::{Screen, draws_by_screen};
use crate::http::state::AppState;

/// How often the job looks whether the site changed.
pub const EVERY: Duration = Duration::from_secs(3);

/// The pages whose lists live in the browser: not in the sitemap
/// (`noindex`), drawn ahead beside its fixed pages ([`STATIC_PAGES`]).
const SAVED_PAGES: [&str; 2] = ["/favorites", "/compare"];

/// The job with what it reads (`server::serve`).
#[derive(Clone)]
pub struct PagesAhead {
    pub site: Site,
    pub db: Db,
    pub clock: Arc<Clock>,
    pub renderer: Arc<Renderer>,
    /// The content version and Moscow date the pages were last drawn at.
    pub drawn_at: Arc<Mutex<Option<(i64, chrono::NaiveDate)>>>,
}

impl PagesAhead {
    /// The job for `state`'s `site`. Starts the rendering threads: pages
    /// (and every card) are drawn from the start, not from the first page
    /// a visitor asks for.
    pub fn new(state: &AppState, site: Site) -> PagesAhead {
        state.renderer.start();
        PagesAhead {
            site,
            db: state.db.clone(),
            clock: state.clock.clone(),
            renderer: state.renderer.clone(),
            drawn_at: Arc::default(),
        }
    }

    /// Runs the job every [`EVERY`].
    pub fn start(self, jobs: &mut crate::jobs::Supervisor) {
        jobs.every("pages ahead", EVERY, move || {
            let job = self.clone();
            async move {
                job.pass().await?;
                Ok(())
            }
        });
    }

    /// Draws the entry pages when the site changed since they were drawn,
    /// the rendering threads run and no card waits to be drawn ahead;
    /// answers how many pages were asked for.
    pub async fn pass(&self) -> AppResult<usize> {
        if !self.renderer.started() || self.renderer.ahead().0 > 0 {
            return Ok(0);
        }
        let day = self.clock.moscow_today();
        let version = self.db.call(|c| Ok(crate::db::content_version(c)?)).await?;
        let now = Some((version, day));
        if *self.drawn_at.lock().unwrap_or_else(|e| e.into_inner()) == now {
            return Ok(0);
        }
        // The stylesheet's compressed forms first: a page before them is
        // compressed whole, and these are kept until the next change.
        let _ = tokio::task::spawn_blocking(crate::http::pages::prepare_inline_styles).await;
        let paths = self.db.call(|c| entry_paths(c)).await?;
        for path in &paths {
            // A catalogue a phone's way too (`http::screen`).
            let screens = if draws_by_screen(path) {
                &[Screen::Wide, Screen::Phone][..]
            } else {
                &[Screen::Wide][..]
            };
            for &screen in screens {
                // One page at a time: visitors' pages share the threads.
                let status = self.site.draw_ahead(path, screen).await;
                if !status.is_success() {
                    tracing::warn!("pages ahead: {path} ({}) answered {status}", screen.name());
                }
            }
        }
        *self.drawn_at.lock().unwrap_or_else(|e| e.into_inner()) = now;
        Ok(paths.len())
    }
}

/// Each public route's first page: the sitemap's fixed pages, the saved
/// lists' pages, and the first brand's page, the body type with the most
/// cars and the newest car, when there are.
pub fn entry_paths(c: &Connection) -> AppResult<Vec<String>> {
    let fixed = STATIC_PAGES.iter().map(|(path, _)| *path);
    let mut paths: Vec<String> = fixed.chain(SAVED_PAGES).map(str::to_string).collect();
    if let Some(brand) = crate::domain::brands::list(c)?.into_iter().next() {
        paths.push(format!("/brand/{}", brand.slug));
    }
    let body_type: Option<String> = c
        .query_row(
            "SELECT body_type FROM cars WHERE published = 1
             GROUP BY body_type ORDER BY count(*) DESC, body_type LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(body_type) = body_type {
        paths.push(format!("/body-type/{body_type}"));
    }
    let car: Option<String> = c
        .query_row(
            "SELECT slug FROM cars WHERE published = 1 ORDER BY created_at DESC, rowid DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(car) = car {
        paths.push(format!("/car/{car}"));
    }
    Ok(paths)
}
