//! Cards drawn ahead (`docs/rendering.md`, "Cards drawn ahead"): once the
//! site has drawn a page, every published car's card is drawn into the
//! fragment store while no page waits, so a page no one has asked for yet
//! takes its cards from the store, with the markup a whole drawing gives;
//! a changed car's card alone is drawn again. Pages drawn ahead ("Pages
//! drawn ahead"): each route's first page is kept before a visitor asks,
//! once per change.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{TestApp, app_markup, car_input, embedded_data, seed_catalogue, seed_tanks};
use dealership::clock::Clock;
use dealership::config::{Config, PagesConfig};
use dealership::domain::cars;
use dealership::domain::money::Money;
use dealership::http::held::cards_ahead::{HandedOver, hand_over};
use dealership::http::pages::Renderer;
use dealership::http::pages_ahead::PagesAhead;
use dealership::http::screen::Screen;

struct Parts {
    renderer: Arc<Renderer>,
    config: Arc<Config>,
    clock: Arc<Clock>,
}

fn app() -> (TestApp, Parts) {
    let mut parts = None;
    let app = TestApp::with_state(|state| {
        parts = Some(Parts {
            renderer: state.renderer.clone(),
            config: state.config.clone(),
            clock: state.clock.clone(),
        });
    });
    (app, parts.unwrap())
}

/// Waits (without a deadline of its own: the test's) until the cards
/// handed over are drawn; answers how many were drawn in all.
async fn drawn_ahead(renderer: &Renderer) -> u64 {
    loop {
        // Batches waiting or being drawn.
        let (waiting, drawn) = renderer.ahead();
        if waiting == 0 {
            return drawn;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_no_one_asked_for_takes_every_card_from_the_store() {
    assert!(
        Renderer::available(),
        "ui/dist-server/render.js is missing: run `npm run build` in ui/ first"
    );
    let (app, parts) = app();
    let seeded = seed_catalogue(&app);
    seed_tanks(&app, &seeded.haval);
    let handed = Mutex::new(HandedOver::default());
    let hand = || {
        hand_over(
            &app.db,
            &parts.config,
            &parts.clock,
            &parts.renderer,
            &handed,
        )
    };

    // Nothing is drawn ahead before the site has drawn a page.
    hand().await.unwrap();
    assert_eq!(parts.renderer.ahead(), (0, 0));

    assert_eq!(app.get("/consent").await.status, 200);
    hand().await.unwrap();
    let published = {
        let conn = app.db.conn().unwrap();
        cars::count(&conn, &cars::CarFilter::default()).unwrap()
    };
    let drawn = drawn_ahead(&parts.renderer).await;
    assert_eq!(drawn, published as u64, "every published car's card");

    // A catalogue page no one asked for: its grid, brand strip and filters
    // are new, its cards are not, the first (its picture the page's largest
    // paint, loaded first) included.
    let store = parts.renderer.fragments().unwrap();
    let before = store.stats();
    let page = app.get("/new-cars?page=1&price=9000000").await.text();
    let after = store.stats();
    assert!(
        after.misses - before.misses <= 4,
        "cards drawn again: {before:?} → {after:?}"
    );
    assert!(after.hits - before.hits >= 20, "{before:?} → {after:?}");
    let first_picture = page
        .split("data-testid=\"car-card\"")
        .nth(1)
        .and_then(|card| card.split("<img ").nth(1))
        .unwrap();
    assert!(
        first_picture.contains("fetchpriority=\"high\"")
            && first_picture.contains("loading=\"eager\""),
        "{first_picture}"
    );

    // The same markup as the page drawn whole, with no store.
    let whole = Renderer::for_config(&PagesConfig {
        fragment_cache_mb: 0,
        ..PagesConfig::default()
    });
    let drawn_whole = whole
        .render(
            "/new-cars?page=1&price=9000000",
            embedded_data(&page),
            Screen::Wide,
        )
        .await
        .expect("drawn without a store");
    assert_eq!(app_markup(&page), drawn_whole);

    // A new price: that card alone is drawn again.
    let conn = app.db.conn().unwrap();
    let tank = cars::get_by_slug(&conn, "tank-07", false).unwrap().unwrap();
    let mut input = car_input(&seeded.haval, "tank-07");
    input.name = "Tank 07".into();
    input.model = "Tank".into();
    input.price = Money::from_rubles(3_456_000);
    cars::update(&conn, &tank.id, &input, 2026).unwrap();
    drop(conn);
    hand().await.unwrap();
    assert_eq!(drawn_ahead(&parts.renderer).await, drawn + 1);
    // Nothing new: nothing handed over.
    hand().await.unwrap();
    assert_eq!(parts.renderer.ahead(), (0, drawn + 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_routes_first_page_is_drawn_ahead_once_per_change() {
    let mut state = None;
    let app = TestApp::with_state(|s| state = Some(s.clone()));
    let state = state.unwrap();
    let seeded = seed_catalogue(&app);
    let ahead = PagesAhead::new(&state, app.app.clone());
    assert!(
        state.renderer.started(),
        "the rendering threads run from the start"
    );

    // Eleven routes, a brand, a body type and a car; the home page and the
    // four catalogues (new, used, lease cars, the body type) a phone's way too.
    let before = app.answers.stats();
    assert_eq!(ahead.pass().await.unwrap(), 14);
    let drawn = app.answers.stats();
    assert_eq!(drawn.stored - before.stored, 19, "{before:?} → {drawn:?}");
    // A visitor's first page is kept, drawn with its cards.
    let home = app.get("/").await;
    assert_eq!(home.status, 200);
    assert!(home.text().contains("data-testid=\"car-card\""));
    let newest = app.get("/new-cars").await;
    assert!(newest.text().contains("data-testid=\"car-card\""));
    // Kept compressed around the stylesheet (made before the pass): the
    // stylesheet at quality 11 makes it smaller than the page at quality 5.
    let br = app.get_with("/new-cars", "accept-encoding", "br").await;
    assert_eq!(br.headers["content-encoding"], "br");
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut brotli::Decompressor::new(&br.body[..], 4096),
        &mut plain,
    )
    .unwrap();
    assert_eq!(plain, newest.body);
    let mut whole = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 5,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &plain[..], &mut whole, &params).unwrap();
    assert!(
        br.body.len() < whole.len(),
        "{} vs {} whole",
        br.body.len(),
        whole.len()
    );
    let phone = app.get_with("/new-cars", "sec-ch-ua-mobile", "?1").await;
    assert!(phone.text().contains("data-screen=\"phone\""));
    let phone_home = app.get_with("/", "sec-ch-ua-mobile", "?1").await;
    assert!(phone_home.text().contains("data-screen=\"phone\""));
    let after = app.answers.stats();
    assert_eq!(after.misses, drawn.misses, "{drawn:?} → {after:?}");
    assert_eq!(after.hits - drawn.hits, 5);

    // Nothing changed: nothing drawn.
    assert_eq!(ahead.pass().await.unwrap(), 0);
    // A change (new cars): drawn again, the new cars on the home page.
    assert!(!app.get("/").await.text().contains("Tank 24"));
    seed_tanks(&app, &seeded.haval);
    assert_eq!(ahead.pass().await.unwrap(), 14);
    let home = app.get("/").await.text();
    assert!(home.contains("Tank 24"), "the changed home page");
}
