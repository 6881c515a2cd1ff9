//! Each car's fate and figures stored and shown (issue 44;
//! `docs/marketplaces.md`, "What the admin shows"): marketplaces' reports
//! and day figures recorded as the API clients record them, read through
//! the real router over a real SQLite file; the site's own card views.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use chrono::{Days, NaiveDate};
use common::{TestApp, seed_catalogue};
use dealership::domain::{car_figures, marketplace_ads};
use dealership::http::held::site_views::SiteViews;
use dealership::marketplaces::{AdReport, AdStatus, Channel, DayFigures};
use serde_json::{Value, json};

fn today() -> NaiveDate {
    dealership::clock::Clock::default().moscow_today()
}

fn ago(days: u64) -> NaiveDate {
    today().checked_sub_days(Days::new(days)).unwrap()
}

fn car_id(app: &TestApp, slug: &str) -> String {
    app.db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM cars WHERE slug = ?1", [slug], |r| r.get(0))
        .unwrap()
}

fn ad(feed_id: &str, market_id: &str, status: AdStatus, messages: &[&str]) -> AdReport {
    AdReport {
        feed_id: feed_id.into(),
        market_id: Some(market_id.into()),
        status,
        messages: messages.iter().map(|m| m.to_string()).collect(),
        url: (status == AdStatus::Published)
            .then(|| format!("https://auto.ru/cars/used/sale/{market_id}/")),
    }
}

fn report(app: &TestApp, channel: Channel, ads: &[AdReport]) {
    let conn = app.db.conn().unwrap();
    marketplace_ads::record_report(&conn, channel, ads, chrono::Utc::now()).unwrap();
}

fn day(market_id: &str, day: NaiveDate, views: u32, contacts: u32, calls: u32) -> DayFigures {
    DayFigures {
        market_id: market_id.into(),
        day,
        views,
        contacts,
        favourites: 1,
        calls,
    }
}

fn record(app: &TestApp, channel: Channel, days: &[DayFigures]) -> car_figures::RecordedDays {
    car_figures::record_days(&app.db.conn().unwrap(), channel, days).unwrap()
}

async fn owner_get(app: &TestApp, cookie: &str, path: &str) -> common::Answer {
    app.admin_with(cookie, Method::GET, path, None).await
}

/// A catalogue, its owner's session, and the Haval Jolion's id (external id
/// `J-0` in the feeds) and the Lada's (no external id: its own id).
async fn setup() -> (TestApp, String, String, String) {
    let app = TestApp::new();
    seed_catalogue(&app);
    app.create_admin();
    let jolion = car_id(&app, "haval-jolion-0");
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE cars SET external_id = 'J-0' WHERE id = ?1",
            [&jolion],
        )
        .unwrap();
    let lada = car_id(&app, "lada-vesta-sw");
    let cookie = app.login().await;
    (app, cookie, jolion, lada)
}

#[tokio::test]
async fn a_report_is_shown_on_the_car_and_a_fixed_car_leaves_the_refused_list() {
    let (app, cookie, jolion, lada) = setup().await;
    report(
        &app,
        Channel::Avito,
        &[
            ad(
                "J-0",
                "4001",
                AdStatus::Refused,
                &["Неверный цвет «Серебристый»"],
            ),
            ad(&lada, "4002", AdStatus::Published, &[]),
        ],
    );
    report(
        &app,
        Channel::Autoru,
        &[ad("J-0", "1100-aa", AdStatus::Published, &[])],
    );
    let shown = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{jolion}/marketplaces"),
    )
    .await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text());
    let ads = shown.json()["ads"].as_array().unwrap().clone();
    assert_eq!(ads.len(), 2);
    assert_eq!(ads[0]["channel"], "avito");
    assert_eq!(ads[0]["channelLabel"], "Авито");
    assert_eq!(ads[0]["status"], "refused");
    assert_eq!(ads[0]["statusLabel"], "отклонено");
    assert_eq!(ads[0]["messages"], json!(["Неверный цвет «Серебристый»"]));
    assert_eq!(ads[1]["channel"], "autoru");
    assert_eq!(ads[1]["statusLabel"], "опубликовано");
    assert_eq!(ads[1]["url"], "https://auto.ru/cars/used/sale/1100-aa/");
    assert!(ads[1]["reportedAt"].as_str().unwrap().ends_with('Z'));

    let refused = owner_get(&app, &cookie, "/api/admin/marketplaces/refused").await;
    assert_eq!(refused.status, StatusCode::OK);
    let refused = refused.json();
    assert_eq!(refused.as_array().unwrap().len(), 1, "{refused}");
    assert_eq!(refused[0]["carId"], jolion.as_str());
    assert_eq!(refused[0]["carName"], "Haval Jolion 2025");
    assert_eq!(refused[0]["slug"], "haval-jolion-0");
    assert_eq!(refused[0]["price"], "2100000.00");
    assert_eq!(refused[0]["messages"][0], "Неверный цвет «Серебристый»");
    // The self-check names it, with the editor's link.
    let checks = owner_get(&app, &cookie, "/api/admin/checks").await.json();
    let found: Vec<&Value> = checks["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["check"] == "marketplace_refused")
        .collect();
    assert_eq!(found.len(), 1, "{checks}");
    assert_eq!(found[0]["link"], format!("/admin/cars?edit={jolion}"));
    assert!(
        found[0]["detail"]
            .as_str()
            .unwrap()
            .contains("Неверный цвет «Серебристый»"),
        "{}",
        found[0]["detail"]
    );

    // Fixed: the next report publishes it; an ad missing from the report
    // (the Lada's) keeps its row.
    report(
        &app,
        Channel::Avito,
        &[ad("J-0", "4001", AdStatus::Published, &[])],
    );
    let refused = owner_get(&app, &cookie, "/api/admin/marketplaces/refused").await;
    assert_eq!(refused.json(), json!([]));
    let checks = owner_get(&app, &cookie, "/api/admin/checks").await.json();
    assert!(
        !checks.to_string().contains("marketplace_refused"),
        "the held checks saw the new report: {checks}"
    );
    let lada_ads = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{lada}/marketplaces"),
    )
    .await
    .json();
    assert_eq!(lada_ads["ads"][0]["statusLabel"], "опубликовано");
}

#[tokio::test]
async fn days_replace_their_values_and_unknown_ads_are_skipped() {
    let (app, cookie, jolion, _) = setup().await;
    report(
        &app,
        Channel::Avito,
        &[ad("J-0", "4001", AdStatus::Published, &[])],
    );
    let figures = [
        day("4001", ago(1), 40, 3, 1),
        day("4001", ago(0), 12, 1, 0),
        day("9999", ago(0), 500, 50, 5),
    ];
    let first = record(&app, Channel::Avito, &figures);
    assert_eq!((first.written, first.skipped), (2, 1));
    assert_eq!(first.unknown, vec!["9999".to_string()]);
    // The same day totals again: nothing changes.
    record(&app, Channel::Avito, &figures);
    // An Avito id is unknown on Auto.ru.
    let other = record(&app, Channel::Autoru, &[day("4001", ago(0), 1, 1, 1)]);
    assert_eq!((other.written, other.skipped), (0, 1));
    let shown = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{jolion}/marketplaces?days=30"),
    )
    .await
    .json();
    assert_eq!(
        shown["days"],
        json!([
            {"channel": "avito", "day": ago(1).to_string(), "views": 40, "contacts": 3,
             "favourites": 1, "calls": 1},
            {"channel": "avito", "day": ago(0).to_string(), "views": 12, "contacts": 1,
             "favourites": 1, "calls": 0},
        ])
    );
    assert_eq!(
        app.count("SELECT count(*) FROM car_channel_days"),
        2,
        "the unknown ad wrote nothing"
    );
    // A later figure of a day replaces it.
    record(&app, Channel::Avito, &[day("4001", ago(0), 20, 2, 0)]);
    let shown = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{jolion}/marketplaces"),
    )
    .await
    .json();
    assert_eq!(shown["days"][1]["views"], 20);
    // Only the asked days.
    let one = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{jolion}/marketplaces?days=1"),
    )
    .await
    .json();
    assert_eq!(one["days"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_car_removed_from_the_feed_keeps_its_history() {
    let (app, cookie, jolion, _) = setup().await;
    report(
        &app,
        Channel::Autoru,
        &[ad("J-0", "1100-aa", AdStatus::Published, &[])],
    );
    record(&app, Channel::Autoru, &[day("1100-aa", ago(2), 7, 1, 1)]);
    // Left the feed: unpublished, and the next report does not name it.
    let unpublished = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/cars/publication",
            Some(json!({"ids": [jolion], "published": false})),
        )
        .await;
    assert_eq!(unpublished.status, StatusCode::OK, "{}", unpublished.text());
    report(&app, Channel::Autoru, &[]);
    let shown = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{jolion}/marketplaces"),
    )
    .await
    .json();
    assert_eq!(shown["ads"].as_array().unwrap().len(), 1);
    assert_eq!(shown["days"][0]["views"], 7);
    // Its day figures still find it by the marketplace's id.
    let again = record(&app, Channel::Autoru, &[day("1100-aa", ago(1), 3, 0, 0)]);
    assert_eq!(again.written, 1);
}

#[tokio::test]
async fn the_cars_list_sorts_by_contacts_and_views_with_the_30_day_figures() {
    let (app, cookie, jolion, lada) = setup().await;
    let used = car_id(&app, "haval-f7-used");
    report(
        &app,
        Channel::Avito,
        &[
            ad("J-0", "1", AdStatus::Published, &[]),
            ad(&lada, "2", AdStatus::Published, &[]),
            ad(&used, "3", AdStatus::Published, &[]),
        ],
    );
    record(
        &app,
        Channel::Avito,
        &[
            day("1", ago(3), 900, 1, 0),
            day("2", ago(3), 100, 9, 0),
            day("3", ago(3), 300, 4, 0),
            // Older than 30 days: not in the totals.
            day("1", ago(40), 5000, 500, 0),
        ],
    );
    let page = owner_get(&app, &cookie, "/api/admin/cars?sort=contacts&perPage=3").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let page = page.json();
    let ids: Vec<&str> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [lada.as_str(), used.as_str(), jolion.as_str()]);
    assert_eq!(page["items"][0]["contacts30"], 9);
    assert_eq!(page["items"][0]["views30"], 100);
    assert_eq!(
        page["items"][0]["slug"], "lada-vesta-sw",
        "the car's fields too"
    );
    assert_eq!(page["total"], 7);
    let by_views = owner_get(&app, &cookie, "/api/admin/cars?sort=views&perPage=1")
        .await
        .json();
    assert_eq!(by_views["items"][0]["id"], jolion.as_str());
    assert_eq!(by_views["items"][0]["views30"], 900);
    // Newest first still carries the figures; a search keeps the order.
    let newest = owner_get(&app, &cookie, "/api/admin/cars").await.json();
    assert!(newest["items"][0]["views30"].is_number());
    let searched = owner_get(&app, &cookie, "/api/admin/cars?sort=contacts&q=haval")
        .await
        .json();
    assert_eq!(searched["items"][0]["id"], used.as_str());
    let bad = owner_get(&app, &cookie, "/api/admin/cars?sort=price").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn quiet_cars_are_those_seen_and_not_called_about_or_hardly_seen() {
    let (app, cookie, jolion, lada) = setup().await;
    // Every car has been on the site for a month.
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE cars SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 days')",
            [],
        )
        .unwrap();
    let used = car_id(&app, "haval-f7-used");
    report(
        &app,
        Channel::Avito,
        &[
            ad("J-0", "1", AdStatus::Published, &[]),
            ad(&lada, "2", AdStatus::Published, &[]),
            ad(&used, "3", AdStatus::Published, &[]),
        ],
    );
    record(
        &app,
        Channel::Avito,
        &[
            // Seen 150 times, nobody asked: quiet.
            day("1", ago(2), 150, 0, 0),
            // Seen and called: fine.
            day("2", ago(2), 400, 0, 1),
            // Seen 60 times: fine with the default 100, quiet from 50.
            day("3", ago(2), 60, 0, 0),
            // Outside the 14 days.
            day("2", ago(20), 0, 0, 0),
        ],
    );
    let quiet = owner_get(&app, &cookie, "/api/admin/marketplaces/quiet").await;
    assert_eq!(quiet.status, StatusCode::OK, "{}", quiet.text());
    let quiet = quiet.json();
    assert_eq!(
        (quiet["days"].clone(), quiet["minViews"].clone()),
        (json!(14), json!(100))
    );
    let cars = quiet["cars"].as_array().unwrap();
    assert_eq!(quiet["total"], cars.len());
    assert_eq!(cars[0]["carId"], jolion.as_str());
    assert_eq!(cars[0]["reason"], "no_contacts");
    assert_eq!(cars[0]["views"], 150);
    assert_eq!(cars[0]["price"], "2100000.00");
    assert_eq!(cars[0]["daysInStock"], 31);
    assert_eq!(
        cars[0]["why"],
        "150 просмотров за 14 дней, ни одного обращения и звонка"
    );
    // The published cars in stock never seen are «почти не видят».
    let few: Vec<&Value> = cars.iter().filter(|c| c["reason"] == "few_views").collect();
    assert!(!few.is_empty());
    assert!(few.iter().all(|c| c["views"].as_i64().unwrap() < 5));
    assert!(
        !cars
            .iter()
            .any(|c| c["carId"] == lada.as_str() || c["carId"] == used.as_str())
    );
    // The threshold is a setting, with its range.
    let set = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"quietCarViews": 50, "quietCarDays": 7})),
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text());
    let quiet = owner_get(&app, &cookie, "/api/admin/marketplaces/quiet")
        .await
        .json();
    assert_eq!(quiet["days"], 7);
    assert!(quiet["cars"].to_string().contains(used.as_str()));
    for (body, field, message) in [
        (
            json!({"quietCarDays": 2}),
            "quietCarDays",
            "Период «Смотрят, но не звонят» — от 3 до 90 дней",
        ),
        (
            json!({"quietCarViews": 100_001}),
            "quietCarViews",
            "Порог просмотров «Смотрят, но не звонят» — от 1 до 100 000",
        ),
    ] {
        let refused = app
            .admin_with(&cookie, Method::PUT, "/api/settings", Some(body))
            .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.json(), json!({"error": message, "field": field}));
    }
}

#[tokio::test]
async fn a_chart_of_days_outside_1_to_400_is_refused_and_the_calls_need_staff() {
    let (app, cookie, jolion, _) = setup().await;
    for days in [0, 401] {
        let refused = owner_get(
            &app,
            &cookie,
            &format!("/api/admin/cars/{jolion}/marketplaces?days={days}"),
        )
        .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{days}");
        assert_eq!(
            refused.json(),
            json!({"error": "Период графика — от 1 до 400 дней", "field": "days"})
        );
    }
    let ok = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{jolion}/marketplaces?days=400"),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK);
    let missing = owner_get(&app, &cookie, "/api/admin/cars/nope/marketplaces").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    for path in [
        format!("/api/admin/cars/{jolion}/marketplaces"),
        "/api/admin/marketplaces/refused".into(),
        "/api/admin/marketplaces/quiet".into(),
    ] {
        assert_eq!(
            app.get(&path).await.status,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        // The cars' read capability: every role has it (docs/admin.md, "Roles").
        let route = path.replace(&jolion, "{id}");
        assert_eq!(
            dealership::http::permissions::required(&Method::GET, &route),
            Some(dealership::domain::roles::Capability::CatalogueRead),
            "{route}"
        );
    }
}

const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const YANDEX_BOT: &str = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)";

#[tokio::test]
async fn a_persons_views_of_a_car_are_counted_and_a_crawlers_are_not() {
    let mut views: Option<Arc<SiteViews>> = None;
    let app = TestApp::with_state(|s| views = Some(s.site_views.clone()));
    let views = views.unwrap();
    seed_catalogue(&app);
    app.create_admin();
    let jolion = car_id(&app, "haval-jolion-0");
    let api = "/api/cars/slug/haval-jolion-0";
    // Twice: the second answer is kept by the cache and served before routing.
    for _ in 0..2 {
        let seen = app.get_with(api, "user-agent", FIREFOX).await;
        assert_eq!(seen.status, StatusCode::OK);
    }
    assert!(
        app.answers.stats().hits >= 1,
        "the second view was a cache hit"
    );
    app.get_with("/car/haval-jolion-0", "user-agent", YANDEX_BOT)
        .await;
    app.get_with(api, "user-agent", YANDEX_BOT).await;
    // A draft's or an unknown car's address is no view.
    app.get_with("/car/haval-h9-draft", "user-agent", FIREFOX)
        .await;
    app.get_with("/car/no-such-car", "user-agent", FIREFOX)
        .await;
    let written = views.flush(&app.db).await.unwrap();
    assert_eq!(written, 2);
    let cookie = app.login().await;
    let shown = owner_get(
        &app,
        &cookie,
        &format!("/api/admin/cars/{jolion}/marketplaces"),
    )
    .await
    .json();
    assert_eq!(
        shown["days"],
        json!([{"channel": "site", "day": today().to_string(), "views": 2, "contacts": 0,
                "favourites": 0, "calls": 0}])
    );
    // A page view adds to the same day; the list's totals follow.
    app.get_with("/car/haval-jolion-0", "user-agent", FIREFOX)
        .await;
    views.flush(&app.db).await.unwrap();
    let page = owner_get(&app, &cookie, "/api/admin/cars?sort=views&perPage=1")
        .await
        .json();
    assert_eq!(page["items"][0]["id"], jolion.as_str());
    assert_eq!(page["items"][0]["views30"], 3);
    assert_eq!(views.held(), 0, "written and emptied");
}

#[tokio::test]
async fn old_days_are_pruned_after_400_days() {
    let (app, _, _, _) = setup().await;
    report(
        &app,
        Channel::Avito,
        &[ad("J-0", "1", AdStatus::Published, &[])],
    );
    record(
        &app,
        Channel::Avito,
        &[
            day("1", ago(400), 1, 0, 0),
            day("1", ago(399), 1, 0, 0),
            day("1", ago(0), 1, 0, 0),
        ],
    );
    let pruned = car_figures::nightly(&app.db.conn().unwrap(), today()).unwrap();
    assert_eq!(pruned, 1);
    assert_eq!(app.count("SELECT count(*) FROM car_channel_days"), 2);
}
