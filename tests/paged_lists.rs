//! The lease cars and a brand's page in numbered pages the server draws
//! (`docs/catalogue.md`): however many cars a dealer has, every page holds
//! at most one page of cards, drawn in its HTML, and every car is a link
//! away; a brand's counters and models come from the API, not from a whole
//! list sent to the browser.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::collections::BTreeSet;

use axum::http::StatusCode;
use common::{
    TestApp, app_markup, car_input, embedded_data, needs_the_server_build, seed_catalogue,
    visible_text as text,
};
use dealership::domain::cars::{self, CarStatus};
use dealership::domain::money::Money;

/// 44 more lease cars of `brand` beside the seed's one: "H9" (even, slugs
/// `lease-h9-NN`) and "H6" (odd, `lease-h6-NN`), the price rising with NN.
fn seed_lease(app: &TestApp, brand: &str) {
    let conn = app.db.conn().unwrap();
    for i in 0..44 {
        let model = if i % 2 == 0 { "H9" } else { "H6" };
        let mut car = car_input(brand, &format!("lease-{}-{i:02}", model.to_lowercase()));
        car.name = format!("{model} {i:02}");
        car.model = model.into();
        car.status = CarStatus::Lease;
        car.daily_price = Some(Money::from_rubles(3_000));
        car.price = Money::from_rubles(2_000_000 + i * 10_000);
        cars::create(&conn, &car, 2026).unwrap();
    }
}

/// The car pages a piece of markup links to, in order, once each.
fn car_links(markup: &str) -> Vec<String> {
    let mut seen = Vec::new();
    for rest in markup.split("href=\"/car/").skip(1) {
        let slug = rest.split('"').next().unwrap().to_string();
        if !seen.contains(&slug) {
            seen.push(slug);
        }
    }
    seen
}

/// The markup of a brand page's section (`new`, `used`, `lease`).
fn section<'a>(markup: &'a str, status: &str) -> &'a str {
    let start = markup
        .find(&format!("id=\"section-{status}\""))
        .unwrap_or_else(|| panic!("no {status} section"));
    let end = markup[start..].find("</section>").unwrap() + start;
    &markup[start..end]
}

#[tokio::test]
async fn the_lease_cars_come_in_pages_each_drawn_whole() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_lease(&app, &seeded.haval);

    let mut every = BTreeSet::new();
    for (page, cards) in [(1, 20), (2, 20), (3, 5)] {
        let url = if page == 1 {
            "/lease-cars".to_string()
        } else {
            format!("/lease-cars?page={page}")
        };
        let answer = app.get(&url).await;
        assert_eq!(answer.status, StatusCode::OK, "{url}");
        let html = answer.text();
        let markup = app_markup(&html);
        let shown = car_links(markup);
        assert_eq!(shown.len(), cards, "{url}: {shown:?}");
        // Each card has its booking button.
        assert_eq!(
            text(markup).matches("Забронировать").count(),
            cards,
            "{url}"
        );
        every.extend(shown);
        // The other pages are links; the page holds no whole list.
        for other in [1, 2, 3].into_iter().filter(|p| *p != page) {
            let link = if other == 1 {
                "href=\"/lease-cars\"".to_string()
            } else {
                format!("href=\"/lease-cars?page={other}\"")
            };
            assert!(markup.contains(&link), "{url}: no {link}");
        }
        assert!(html.len() < 400_000, "{url}: {} bytes", html.len());
    }
    assert_eq!(every.len(), 45, "every lease car on some page");

    // A page past the last shows no card and still links back.
    let past = app.get("/lease-cars?page=9").await.text();
    assert!(car_links(app_markup(&past)).is_empty());
    assert!(app_markup(&past).contains("href=\"/lease-cars?page=3\""));
}

#[tokio::test]
async fn a_brands_sections_come_in_pages_cheapest_first() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_lease(&app, &seeded.haval);

    let html = app.get("/brand/haval").await.text();
    let markup = app_markup(&html);
    let shown = text(markup);
    // Counters over every car of the brand: 3 new, 1 used, 45 lease.
    for counter in [
        "49 всего автомобилей",
        "3 новых",
        "1 с пробегом",
        "45 аренда с выкупом",
    ] {
        assert!(shown.contains(counter), "no {counter:?} in {shown}");
    }
    assert!(shown.contains("Аренда с выкупом (45)"), "{shown}");
    let lease = section(markup, "lease");
    let first = car_links(lease);
    // 8 a page on every screen: 6 pages of lease cars.
    assert_eq!(first.len(), 8);
    // Cheapest first: the seed's 1.9 mln M6, then H9 00 (2.0 mln), H6 01…
    assert_eq!(first[..3], ["haval-m6-lease", "lease-h9-00", "lease-h6-01"]);
    assert!(lease.contains("aria-label=\"Страницы: Аренда с выкупом\""));
    assert!(lease.contains("href=\"/brand/haval?lease=6\""), "{lease}");
    // The new cars' section has one page: no page links of its own.
    assert_eq!(car_links(section(markup, "new")).len(), 3);
    assert!(!section(markup, "new").contains("class=\"pagination\""));

    // The section's last page: the 5 dearest; the others stay on their first.
    let last = app.get("/brand/haval?lease=6").await.text();
    let markup = app_markup(&last);
    assert_eq!(
        car_links(section(markup, "lease")),
        [
            "lease-h6-39",
            "lease-h9-40",
            "lease-h6-41",
            "lease-h9-42",
            "lease-h6-43"
        ]
    );
    assert_eq!(car_links(section(markup, "new")).len(), 3);
    assert!(
        markup.contains("aria-current=\"page\" aria-label=\"Страница 6\""),
        "page 6 is the current one"
    );

    // The model filter: H6 only, in its sections; the counters stay the brand's.
    let h6 = app.get("/brand/haval?model=H6&lease=2").await.text();
    let markup = app_markup(&h6);
    let shown = text(markup);
    assert!(shown.contains("49 всего автомобилей"), "{shown}");
    assert!(shown.contains("Аренда с выкупом (22)"), "{shown}");
    let lease = car_links(section(markup, "lease"));
    // The 9th to 16th cheapest H6.
    let expected: Vec<String> = (17..=31)
        .step_by(2)
        .map(|i| format!("lease-h6-{i}"))
        .collect();
    assert_eq!(lease, expected);
    // Sections without the model are left out.
    assert!(!markup.contains("id=\"section-new\""));
    assert!(
        markup.contains("href=\"/brand/haval?model=H6\""),
        "page 1 link"
    );
    // Every model is a choice of the filter.
    for model in ["F7", "H6", "H9", "Jolion", "M6"] {
        assert!(markup.contains(&format!(">{model}</option>")), "no {model}");
    }

    // A model the brand lacks filters nothing.
    let unknown = app.get("/brand/haval?model=Tank").await.text();
    assert!(text(app_markup(&unknown)).contains("Аренда с выкупом (45)"));
}

#[tokio::test]
async fn a_brands_models_come_from_the_api() {
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_lease(&app, &seeded.haval);
    let models = app
        .get(&format!("/api/brands/{}/models", seeded.haval))
        .await;
    assert_eq!(models.status, StatusCode::OK);
    // Published cars' models only (the draft H9 aside, H9 has published cars).
    assert_eq!(
        models.json(),
        serde_json::json!(["F7", "H6", "H9", "Jolion", "M6"])
    );
    let lada = app
        .get(&format!("/api/brands/{}/models", seeded.lada))
        .await;
    assert_eq!(lada.json(), serde_json::json!(["Vesta"]));
    // A brand with no published car is not shown: 404 with the brand's text.
    let empty = app
        .get(&format!("/api/brands/{}/models", seeded.empty_brand))
        .await;
    assert_eq!(empty.status, StatusCode::NOT_FOUND);
    assert_eq!(empty.json()["error"], "Марка не найдена");
    let missing = app.get("/api/brands/no-such-brand/models").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    // A model with a space, as the page's section asks for it.
    {
        let conn = app.db.conn().unwrap();
        let mut car = car_input(&seeded.haval, "haval-big-dog");
        car.model = "Big Dog".into();
        cars::create(&conn, &car, 2026).unwrap();
    }
    let page = app.get("/brand/haval?model=Big+Dog").await.text();
    assert!(
        page.contains("model=Big%20Dog&sort=price_asc&limit=8&offset=0"),
        "the section's list is embedded under the URL the UI reads"
    );
}

#[tokio::test]
async fn without_lease_cars_the_lease_page_says_so() {
    needs_the_server_build();
    let app = TestApp::new();
    let answer = app.get("/lease-cars").await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    let shown = text(app_markup(&html));
    assert!(
        shown.contains("Автомобили для аренды с выкупом не найдены"),
        "{shown}"
    );
    assert!(!html.contains("class=\"pagination\""));
}

/// Every answer a page embeds is what the API answers at its URL: the
/// lists, counts and brands a page takes from the catalogue in memory
/// (docs/cache.md) are the API's.
#[tokio::test]
async fn every_answer_a_page_embeds_is_the_apis() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_lease(&app, &seeded.haval);
    let slug: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT slug FROM brands WHERE id = ?1",
            [&seeded.haval],
            |r| r.get(0),
        )
        .unwrap();
    let brand = format!("/brand/{slug}?lease=2");
    for url in [
        "/",
        "/new-cars",
        "/used-cars?page=2",
        "/lease-cars?page=2",
        brand.as_str(),
        "/body-type/crossover?condition=new",
    ] {
        let page = app.get(url).await;
        assert_eq!(page.status, StatusCode::OK, "{url}");
        let html = page.text();
        let data: serde_json::Value = serde_json::from_str(embedded_data(&html)).unwrap();
        let answers = data.as_object().unwrap();
        assert!(answers.keys().any(|k| k.starts_with("/api/cars/")), "{url}");
        for (api, answer) in answers {
            let from_api = app.get(api).await;
            assert_eq!(from_api.status, StatusCode::OK, "{url}: {api}");
            assert_eq!(&from_api.json(), answer, "{url}: {api}");
        }
    }
}
