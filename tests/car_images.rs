//! A car's pictures as `car_images` rows: what forms write, what lists and
//! the API read, plain-SQL reordering, and the picture cleanup's view of them.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::StatusCode;
use common::{TestApp, car_input};
use dealership::domain::brands::{self, BrandInput};
use dealership::domain::cars::{self, CarFilter};
use dealership::error::AppError;

fn brand(app: &TestApp) -> String {
    brands::create(
        &app.db.conn().unwrap(),
        &BrandInput {
            name: "Haval".into(),
            slug: "haval".into(),
            logo: String::new(),
            description: String::new(),
        },
    )
    .unwrap()
    .id
}

fn rows(app: &TestApp, car_id: &str) -> Vec<(i64, String)> {
    app.db
        .conn()
        .unwrap()
        .prepare("SELECT position, url FROM car_images WHERE car_id = ?1 ORDER BY position")
        .unwrap()
        .query_map([car_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn urls(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| format!("/media/{n}-800.webp"))
        .collect()
}

#[test]
fn the_main_picture_is_stored_first_and_each_picture_once() {
    let app = TestApp::new();
    let brand = brand(&app);
    let conn = app.db.conn().unwrap();

    // No main picture named: the first listed is the main one.
    let plain = cars::create(&conn, &car_input(&brand, "plain"), 2026).unwrap();
    assert_eq!(plain.main_image, "/media/aaaa-800.webp");
    assert_eq!(plain.images, urls(&["aaaa", "bbbb"]));
    assert!(plain.has_images);
    assert_eq!(
        rows(&app, &plain.id),
        [
            (0, urls(&["aaaa"])[0].clone()),
            (1, urls(&["bbbb"])[0].clone())
        ]
    );

    // A main picture named apart from the list comes first; repeats go.
    let mut input = car_input(&brand, "named");
    input.main_image = "/media/main-800.webp".into();
    input.images = urls(&["a", "main", "b", "a"]);
    let named = cars::create(&conn, &input, 2026).unwrap();
    assert_eq!(named.main_image, "/media/main-800.webp");
    assert_eq!(named.images, urls(&["main", "a", "b"]));

    // No pictures.
    let mut input = car_input(&brand, "bare");
    input.images = vec![];
    let bare = cars::create(&conn, &input, 2026).unwrap();
    assert_eq!(bare.main_image, "");
    assert!(bare.images.is_empty());
    assert!(!bare.has_images);
}

#[test]
fn more_than_six_pictures_with_the_main_one_are_refused_and_nothing_is_written() {
    let app = TestApp::new();
    let brand = brand(&app);
    let conn = app.db.conn().unwrap();
    let mut input = car_input(&brand, "crowded");
    input.main_image = "/media/main-800.webp".into();
    input.images = urls(&["1", "2", "3", "4", "5", "6"]);
    match cars::create(&conn, &input, 2026) {
        Err(AppError::Invalid { field, message }) => {
            assert_eq!(field, Some("images"));
            assert_eq!(message, "Максимум 6 изображений");
        }
        other => panic!("expected a validation error, got {other:?}"),
    }
    assert_eq!(app.count("SELECT count(*) FROM cars"), 0);
    assert_eq!(app.count("SELECT count(*) FROM car_images"), 0);
}

#[test]
fn an_update_replaces_the_pictures_and_a_deleted_car_takes_them_along() {
    let app = TestApp::new();
    let brand = brand(&app);
    let conn = app.db.conn().unwrap();
    let mut input = car_input(&brand, "changing");
    input.images = urls(&["a", "b", "c"]);
    let car = cars::create(&conn, &input, 2026).unwrap();

    input.images = urls(&["c", "a"]);
    let updated = cars::update(&conn, &car.id, &input, 2026).unwrap().unwrap();
    assert_eq!(updated.main_image, "/media/c-800.webp");
    assert_eq!(updated.images, urls(&["c", "a"]));
    assert_eq!(rows(&app, &car.id).len(), 2);

    // A refused update leaves the pictures as they were.
    input.images = urls(&["1", "2", "3", "4", "5", "6", "7"]);
    assert!(cars::update(&conn, &car.id, &input, 2026).is_err());
    assert_eq!(
        cars::get(&conn, &car.id, true).unwrap().unwrap().images,
        urls(&["c", "a"])
    );

    assert!(cars::delete(&conn, &car.id).unwrap());
    assert_eq!(app.count("SELECT count(*) FROM car_images"), 0);
}

#[test]
fn reordering_is_plain_sql() {
    let app = TestApp::new();
    let brand = brand(&app);
    let conn = app.db.conn().unwrap();
    let mut input = car_input(&brand, "reordered");
    input.images = urls(&["a", "b", "c"]);
    let car = cars::create(&conn, &input, 2026).unwrap();
    // Make "c" the main picture, moving the others one place down: the
    // positions stay, the pictures move.
    conn.execute(
        "UPDATE car_images SET url = CASE position
             WHEN 0 THEN '/media/c-800.webp'
             WHEN 1 THEN '/media/a-800.webp'
             WHEN 2 THEN '/media/b-800.webp' END
         WHERE car_id = ?1",
        [&car.id],
    )
    .unwrap();
    let read = cars::get(&conn, &car.id, true).unwrap().unwrap();
    assert_eq!(read.main_image, "/media/c-800.webp");
    assert_eq!(read.images, urls(&["c", "a", "b"]));
    // Or with the domain's helper, as an import would.
    cars::set_images(&conn, &car.id, &urls(&["b"])).unwrap();
    assert_eq!(
        cars::get(&conn, &car.id, true).unwrap().unwrap().images,
        urls(&["b"])
    );
    // The schema keeps the limit of six.
    let seventh = conn.execute(
        "INSERT INTO car_images (car_id, position, url) VALUES (?1, 6, '/media/x-800.webp')",
        [&car.id],
    );
    assert!(seventh.is_err());
}

#[tokio::test]
async fn lists_carry_each_cars_pictures_in_order() {
    let app = TestApp::new();
    let brand = brand(&app);
    {
        let conn = app.db.conn().unwrap();
        for (i, pictures) in [vec!["a", "b"], vec![], vec!["c", "d", "e"]]
            .into_iter()
            .enumerate()
        {
            let mut input = car_input(&brand, &format!("car-{i}"));
            input.images = urls(&pictures);
            cars::create(&conn, &input, 2026).unwrap();
        }
        let none = dealership::domain::credit_payment::CreditRule::new(Vec::new());
        let listed = cars::list(&conn, &CarFilter::default(), 10, 0, &none).unwrap();
        let mut by_slug: Vec<(String, Vec<String>)> =
            listed.into_iter().map(|c| (c.slug, c.images)).collect();
        by_slug.sort();
        assert_eq!(
            by_slug,
            [
                ("car-0".to_string(), urls(&["a", "b"])),
                ("car-1".to_string(), vec![]),
                ("car-2".to_string(), urls(&["c", "d", "e"])),
            ]
        );
    }
    let answer = app.get("/api/cars/fast?limit=10").await;
    assert_eq!(answer.status, StatusCode::OK);
    let json = answer.json();
    let list = json.as_array().unwrap();
    let car = list.iter().find(|c| c["slug"] == "car-2").unwrap();
    assert_eq!(car["mainImage"], "/media/c-800.webp");
    assert_eq!(car["images"][0], "/media/c-800.webp");
    assert_eq!(car["images"].as_array().unwrap().len(), 3);
    assert_eq!(car["hasImages"], true);
    let bare = list.iter().find(|c| c["slug"] == "car-1").unwrap();
    assert_eq!(bare["mainImage"], "");
    assert_eq!(bare["images"], serde_json::json!([]));
    assert_eq!(bare["hasImages"], false);
}

#[test]
fn the_picture_cleanup_keeps_what_cars_show() {
    let app = TestApp::new();
    let brand = brand(&app);
    let media = app.dir.path().join("media");
    let conn = app.db.conn().unwrap();
    let shown = "0123456789abcdef0123456789abcdef";
    let dropped = "fedcba9876543210fedcba9876543210";
    for hash in [shown, dropped] {
        conn.execute(
            "INSERT INTO media (hash, source_mime, width, height, created_at)
             VALUES (?1, 'image/jpeg', 10, 10, '2026-01-01T00:00:00.000Z')",
            [hash],
        )
        .unwrap();
        std::fs::write(media.join(format!("{hash}-800.webp")), b"webp").unwrap();
    }
    let mut input = car_input(&brand, "shown");
    input.images = vec![format!("/media/{shown}-800.webp")];
    cars::create(&conn, &input, 2026).unwrap();
    let removed =
        dealership::media::cleanup::collect_garbage(&conn, &media, chrono::Duration::hours(1))
            .unwrap();
    assert_eq!(removed, 1);
    assert!(media.join(format!("{shown}-800.webp")).exists());
    assert!(!media.join(format!("{dropped}-800.webp")).exists());
}
