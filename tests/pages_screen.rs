//! A phone's own catalogue (`docs/rendering.md`, "A phone's own page"): a
//! request that says it comes from a phone (`Sec-CH-UA-Mobile: ?1`, or a
//! user agent with `Mobi`) gets the catalogues drawn as a phone shows them,
//! 10 cars a page, and the home page with rows of 6 cars, marked for the
//! browser to take over as drawn; the
//! answer cache keeps the phone's page apart from the desktop's and says
//! what the answer varies on. Every other page is one page for all screens.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use common::{
    TestApp, app_markup, embedded_data, needs_the_server_build, seed_catalogue, seed_tanks,
};
use dealership::http::pages::Renderer;
use dealership::http::screen::Screen;

const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) \
    AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";
const ANDROID_TABLET: &str = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 \
    (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

/// The slugs of the cards of a page's markup, in order.
fn card_slugs(markup: &str) -> Vec<String> {
    markup
        .split("data-testid=\"car-card\"")
        .skip(1)
        .filter_map(|card| card.split("href=\"/car/").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

/// The highest page a page's numbered links go to.
fn last_page_link(markup: &str) -> u32 {
    markup
        .split("?page=")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .max()
        .unwrap_or(1)
}

#[tokio::test]
async fn a_phone_gets_the_catalogue_as_a_phone_shows_it() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_tanks(&app, &seeded.haval);
    let count = app.get("/api/cars/count?status=new").await.json()["count"]
        .as_i64()
        .unwrap();
    assert!(count > 20, "{count} new cars: more than a desktop's page");
    let pages = |size: i64| u32::try_from((count + size - 1) / size).unwrap();

    for _ in 0..2 {
        // Asked in turn, twice: the answer cache keeps each screen's own.
        let phone = app.get_with("/new-cars", "user-agent", IPHONE).await;
        let html = phone.text();
        assert!(html.contains("<div id=\"app\" data-screen=\"phone\">"));
        let markup = app_markup(&html);
        assert_eq!(card_slugs(markup).len(), 10);
        assert_eq!(last_page_link(markup), pages(10));
        let vary = phone.headers["vary"].to_str().unwrap();
        assert!(
            vary.contains("sec-ch-ua-mobile") && vary.contains("user-agent"),
            "{vary}"
        );

        let desktop = app.get("/new-cars").await.text();
        assert!(desktop.contains("<div id=\"app\">"));
        let markup = app_markup(&desktop);
        assert_eq!(card_slugs(markup).len(), 20);
        assert_eq!(last_page_link(markup), pages(20));

        // Chromium's client hint says it, whatever the user agent.
        let hinted = app.get_with("/new-cars", "sec-ch-ua-mobile", "?1").await;
        assert_eq!(card_slugs(app_markup(&hinted.text())).len(), 10);
        // A tablet is not a phone.
        let tablet = app
            .get_with("/new-cars", "user-agent", ANDROID_TABLET)
            .await;
        assert_eq!(card_slugs(app_markup(&tablet.text())).len(), 20);
    }
}

#[tokio::test]
async fn a_phones_second_page_shows_and_fetches_its_own_cars_first() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_tanks(&app, &seeded.haval);
    let desktop_first = card_slugs(app_markup(&app.get("/new-cars").await.text()));
    let html = app
        .get_with("/new-cars?page=2", "sec-ch-ua-mobile", "?1")
        .await
        .text();
    let shown = card_slugs(app_markup(&html));
    // A phone's second page is the desktop's first page's second half.
    assert_eq!(shown, desktop_first[10..20].to_vec());
    // Its first card's picture is the one preloaded (the page's largest
    // paint), not the desktop's page's.
    let first_card = app_markup(&html)
        .split("data-testid=\"car-card\"")
        .nth(1)
        .unwrap();
    let picture = first_card
        .split(" src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    let preload = html
        .split("<link rel=\"preload\" as=\"image\" href=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    assert_eq!(preload, picture);
    let desktop_second = app.get("/new-cars?page=2").await.text();
    assert_ne!(card_slugs(app_markup(&desktop_second)), shown);
}

#[tokio::test]
async fn every_other_page_draws_the_same_for_a_phone() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_tanks(&app, &seeded.haval);
    let renderer = Renderer::with_threads(1);
    let routes = [
        "/",
        "/brand/haval",
        "/car/tank-03",
        "/trade-in",
        "/auto-credit",
        "/auto-selection",
        "/consent",
        "/privacy",
        "/favorites",
        "/compare",
        "/new-cars",
        "/used-cars",
        "/lease-cars",
        "/body-type/crossover",
    ];
    for route in routes {
        let page = app.get_with(route, "sec-ch-ua-mobile", "?1").await.text();
        let data = embedded_data(&page);
        // A lazy page's first drawing has its loading marks: drawn once before.
        renderer.render(route, data, Screen::Wide).await.unwrap();
        let wide = renderer.render(route, data, Screen::Wide).await.unwrap();
        let phone = renderer.render(route, data, Screen::Phone).await.unwrap();
        // The server tells a phone's page from a desktop's on the routes
        // whose drawing may differ (`http::screen::draws_by_screen`); any
        // other draws the same (the seed's used and lease cars fit on one
        // page of either size: only the catalogues of more than 10 differ).
        let drawn_apart = Screen::Phone.for_path(route) == Screen::Phone;
        assert_eq!(
            page.contains("data-screen=\"phone\""),
            drawn_apart,
            "{route}"
        );
        if !drawn_apart {
            assert_eq!(wide, phone, "{route}");
        } else if route == "/" || route == "/new-cars" || route.starts_with("/body-type/") {
            assert_ne!(wide, phone, "{route}");
        }
    }
}

/// The cards of the home page's row whose title has this id, in order.
fn row_slugs(markup: &str, title_id: &str) -> Vec<String> {
    let row = markup
        .split(&format!("aria-labelledby=\"{title_id}\""))
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .unwrap_or_default();
    card_slugs(row)
}

#[tokio::test]
async fn a_phone_gets_the_home_page_with_rows_of_six_cars() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_tanks(&app, &seeded.haval);
    let listed = app
        .get("/api/cars/fast?status=new,used&limit=12")
        .await
        .json();
    let listed: Vec<String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|car| car["slug"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed.len(), 12, "the seed fills the desktop's row");

    for _ in 0..2 {
        // Asked in turn, twice: the answer cache keeps each screen's own.
        let phone = app.get_with("/", "user-agent", IPHONE).await;
        let vary = phone.headers["vary"].to_str().unwrap();
        assert!(
            vary.contains("sec-ch-ua-mobile") && vary.contains("user-agent"),
            "{vary}"
        );
        let phone = phone.text();
        assert!(phone.contains("data-screen=\"phone\""));
        assert_eq!(row_slugs(&phone, "catalogue-title"), listed[..6]);

        let tablet = app.get_with("/", "user-agent", ANDROID_TABLET).await.text();
        assert!(!tablet.contains("data-screen=\"phone\""));
        assert_eq!(row_slugs(&tablet, "catalogue-title"), listed);
    }
}
