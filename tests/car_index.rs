//! The catalogue in memory answers every public list and count exactly as
//! the SQL does, byte for byte, and follows every write.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::Method;
use common::{TestApp, car_input};
use dealership::domain::brands::{self, BrandInput};
use dealership::domain::car_index::CarIndex;
use dealership::domain::cars::{self, BodyType, CarFilter, CarSort, CarStatus};
use dealership::domain::credit_payment::CreditRule;
use dealership::domain::money::Money;
use serde_json::json;

/// 240 cars over 3 brands, every status, body type and flag, few distinct
/// prices and creation times (so both orders have ties), some drafts.
fn seed(app: &TestApp) -> Vec<String> {
    let conn = app.db.conn().unwrap();
    let brand_ids: Vec<String> = ["Haval", "Lada", "Chery"]
        .iter()
        .map(|name| {
            brands::create(
                &conn,
                &BrandInput {
                    name: (*name).into(),
                    slug: name.to_lowercase(),
                    logo: String::new(),
                    description: String::new(),
                },
            )
            .unwrap()
            .id
        })
        .collect();
    let statuses = [CarStatus::New, CarStatus::Used, CarStatus::Lease];
    let bodies = [BodyType::SEDAN, BodyType::CROSSOVER, BodyType::HATCHBACK];
    for i in 0..240_usize {
        let mut car = car_input(&brand_ids[i % 3], &format!("car-{i}"));
        car.status = statuses[(i / 3) % 3];
        car.body_type = bodies[(i / 7) % 3].clone();
        car.model = ["Jolion", "Granta", "Tiggo 7"][(i / 5) % 3].into();
        car.price = Money::from_rubles(1_000_000 + (i as i64 * 7919 % 13) * 250_000);
        car.featured = i % 4 == 0;
        car.in_stock = i % 6 != 0;
        car.published = i % 11 != 0;
        car.mileage = if car.status == CarStatus::Used {
            10_000
        } else {
            0
        };
        if i % 9 == 0 {
            car.credit_discount = Some(Money::from_rubles(50_000));
        }
        let created = cars::create(&conn, &car, 2026).unwrap();
        // Eight creation times only: ties broken by rowid.
        conn.execute(
            "UPDATE cars SET created_at = ?2 WHERE id = ?1",
            rusqlite::params![created.id, format!("2026-01-0{}T10:00:00.000Z", 1 + i % 8)],
        )
        .unwrap();
    }
    brand_ids
}

fn filters(brand_ids: &[String]) -> Vec<CarFilter> {
    let mut all = Vec::new();
    for sort in [CarSort::Newest, CarSort::PriceAsc, CarSort::PriceDesc] {
        for statuses in [
            vec![],
            vec![CarStatus::Used],
            vec![CarStatus::New, CarStatus::Lease],
        ] {
            for (min, max) in [
                (None, None),
                (None, Some(2_000_000)),
                (Some(1_750_000), None),
                (Some(1_500_000), Some(3_000_000)),
                (Some(2_500_000), Some(2_500_000)),
                (Some(3_000_000), Some(1_000_000)),
            ] {
                all.push(CarFilter {
                    statuses: statuses.clone(),
                    min_price: min.map(Money::from_rubles),
                    max_price: max.map(Money::from_rubles),
                    sort,
                    ..CarFilter::default()
                });
            }
            all.push(CarFilter {
                statuses: statuses.clone(),
                brand_id: Some(brand_ids[1].clone()),
                body_type: Some(BodyType::CROSSOVER),
                sort,
                ..CarFilter::default()
            });
            all.push(CarFilter {
                statuses: statuses.clone(),
                featured: Some(true),
                in_stock: Some(false),
                model: Some("Tiggo 7".into()),
                sort,
                ..CarFilter::default()
            });
            all.push(CarFilter {
                model: Some("tiggo 7".into()),
                brand_id: Some("no-such-brand".into()),
                sort,
                ..CarFilter::default()
            });
        }
    }
    all
}

#[test]
fn every_page_and_count_equals_the_sql_answer() {
    let app = TestApp::new();
    let brand_ids = seed(&app);
    let conn = app.db.conn().unwrap();
    let day = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let rule = CreditRule::today(&conn, day).unwrap();
    let index = CarIndex::build(&conn, 218, day).unwrap().unwrap();
    assert_eq!(index.len(), 240 - 22, "drafts are not held");
    assert!(
        CarIndex::build(&conn, 217, day).unwrap().is_none(),
        "a catalogue above the limit is not held"
    );
    let mut compared = 0;
    for filter in filters(&brand_ids) {
        assert_eq!(
            index.count(&filter),
            cars::count(&conn, &filter).unwrap(),
            "{filter:?}"
        );
        for (limit, offset) in [(12, 0), (20, 0), (7, 14), (100, 0), (500, 3), (12, 400)] {
            let held = index.page_json(&filter, limit, offset);
            let sql = cars::list_json(&conn, &filter, limit, offset, &rule).unwrap();
            assert_eq!(
                String::from_utf8(held).unwrap(),
                String::from_utf8(sql).unwrap(),
                "{filter:?} limit {limit} offset {offset}"
            );
            compared += 1;
        }
    }
    assert!(compared > 400);
    // Counted again, the other way round: each filter's count is kept,
    // and no filter gets another's.
    for filter in filters(&brand_ids).iter().rev() {
        assert_eq!(
            index.count(filter),
            cars::count(&conn, filter).unwrap(),
            "{filter:?} counted again"
        );
    }
}

#[tokio::test]
async fn the_lists_follow_every_write() {
    let mut held = None;
    let app = TestApp::with_state(|state| held = Some(state.catalogue.clone()));
    let held = held.unwrap();
    let brand_ids = seed(&app);
    app.create_admin();
    let cookie = app.login().await;
    let url = "/api/cars/fast?status=used&sort=price_asc&limit=100";
    let before = app.get(url).await.json();
    let count_url = "/api/cars/count?status=used";
    let count_before = app.get(count_url).await.json()["count"].as_i64().unwrap();
    let cheapest = before[0]["id"].as_str().unwrap().to_string();
    // Answered from memory: the catalogue is held at the current version.
    let (version, cars) = held.held().unwrap();
    assert_eq!(version, app.content_version());
    assert_eq!(cars, 240 - 22);

    // A price change reorders the list at once.
    let mut car = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!("/api/admin/cars/{cheapest}"),
            None,
        )
        .await
        .json();
    car["price"] = json!("9000000");
    let saved = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/cars/{cheapest}"),
            Some(car.clone()),
        )
        .await;
    assert_eq!(saved.status, 200, "{}", saved.text());
    let after = app.get(url).await.json();
    let last = after.as_array().unwrap().last().unwrap();
    assert_eq!(last["id"], cheapest.as_str());
    assert_eq!(last["price"], "9000000.00");

    // A draft leaves the list and the count.
    car["published"] = json!(false);
    car["price"] = json!("9000000");
    app.admin_with(
        &cookie,
        Method::PUT,
        &format!("/api/cars/{cheapest}"),
        Some(car),
    )
    .await;
    let count_after = app.get(count_url).await.json()["count"].as_i64().unwrap();
    assert_eq!(count_after, count_before - 1);
    assert!(
        !app.get(url)
            .await
            .json()
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == cheapest.as_str())
    );

    // A brand's new name shows in its cars.
    let conn = app.db.conn().unwrap();
    conn.execute(
        "UPDATE brands SET name = 'Лада' WHERE id = ?1",
        [&brand_ids[1]],
    )
    .unwrap();
    let lada = app
        .get(&format!("/api/cars/brand/{}/fast?limit=3", brand_ids[1]))
        .await
        .json();
    assert_eq!(lada[0]["brandName"], "Лада");
    assert_eq!(held.held().unwrap().0, app.content_version());
}
