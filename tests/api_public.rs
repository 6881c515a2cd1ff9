//! The public reads on the real router.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::StatusCode;
use common::{TestApp, seed_catalogue};
use serde_json::Value;

fn slugs(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c["slug"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn settings_have_defaults_and_banners() {
    let app = TestApp::new();
    let answer = app.get("/api/settings").await;
    assert_eq!(answer.status, StatusCode::OK);
    let s = answer.json();
    assert_eq!(s["salonName"], "Автосалон");
    assert_eq!(s["homeBanner"], "");
    assert_eq!(s["consentVersion"], 1);
    // Admin-only fields never reach the public.
    assert!(s.get("notificationEmail").is_none());
    assert!(s.get("consentText").is_none());

    let banner = app.get("/api/settings/banner/homeBannerMobile").await;
    assert_eq!(banner.status, StatusCode::OK);
    assert_eq!(banner.json()["imageUrl"], "");
    let unknown = app.get("/api/settings/banner/sideBanner").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(unknown.error().contains("sideBanner"));
}

#[tokio::test]
async fn mobile_banner_falls_back_to_desktop() {
    let app = TestApp::new();
    {
        let conn = app.db.conn().unwrap();
        let mut s = dealership::domain::settings::get(&conn).unwrap();
        s.public.banners.home_banner = "/media/home-800.webp".into();
        dealership::domain::settings::save(&conn, &s).unwrap();
    }
    let banner = app.get("/api/settings/banner/homeBannerMobile").await;
    assert_eq!(banner.json()["imageUrl"], "/media/home-800.webp");
}

#[tokio::test]
async fn legal_documents() {
    let app = TestApp::new();
    let consent = app.get("/api/legal/consent").await.json();
    assert_eq!(
        consent["title"],
        "Согласие на обработку персональных данных"
    );
    assert!(consent["text"].as_str().unwrap().contains("152-ФЗ"));
    assert_eq!(consent["version"], 1);
    let privacy = app.get("/api/legal/privacy").await.json();
    assert!(privacy["text"].as_str().unwrap().contains("Политика"));
    assert_eq!(
        app.get("/api/legal/terms").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn brands_lists_and_lookups() {
    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    let fast = app.get("/api/brands/fast").await.json();
    let names: Vec<&str> = fast
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    // Zotye has no car: in no public list (tests/brands_shown.rs).
    assert_eq!(names, ["Haval", "Lada"]);
    // Drafts are not counted.
    assert_eq!(fast[0]["carCount"], 5);
    assert!(fast[0].get("description").is_none());

    let full = app.get("/api/brands").await.json();
    assert_eq!(full[1]["description"], "Lada: описание");
    assert_eq!(full[1]["slug"], "lada");

    let by_id = app.get(&format!("/api/brands/{}", cat.lada)).await;
    assert_eq!(by_id.status, StatusCode::OK);
    assert_eq!(by_id.json()["name"], "Lada");
    let by_slug = app.get("/api/brands/slug/haval").await.json();
    assert_eq!(by_slug["id"], cat.haval.as_str());
    let logo = app
        .get(&format!("/api/brands/{}/logo", cat.haval))
        .await
        .json();
    assert_eq!(logo["imageUrl"], "/media/haval-800.webp");

    for path in [
        "/api/brands/nope",
        "/api/brands/slug/nope",
        "/api/brands/nope/logo",
    ] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(answer.error(), "Марка не найдена");
    }
}

#[tokio::test]
async fn car_list_shape_and_default_limit() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let list = app.get("/api/cars/fast").await;
    assert_eq!(list.status, StatusCode::OK);
    let list = list.json();
    // Drafts never appear.
    assert_eq!(list.as_array().unwrap().len(), 6);
    assert!(!slugs(&list).contains(&"haval-h9-draft".to_string()));
    let car = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slug"] == "haval-f7-used")
        .unwrap();
    assert_eq!(car["brandName"], "Haval");
    assert_eq!(car["brandSlug"], "haval");
    assert_eq!(car["price"], "1750000.50");
    // A used car's figure comes from the credit programmes: none is valid.
    assert_eq!(car["monthlyPayment"], Value::Null);
    assert_eq!(car["dailyPrice"], Value::Null);
    assert_eq!(car["status"], "used");
    assert_eq!(car["bodyType"], "sedan");
    assert_eq!(car["mileage"], 45000);
    assert_eq!(car["mainImage"], "/media/aaaa-800.webp");
    assert_eq!(car["images"].as_array().unwrap().len(), 2);
    assert_eq!(car["hasImages"], true);
    assert_eq!(car["inStock"], true);
    for key in [
        "id",
        "brandId",
        "name",
        "model",
        "year",
        "transmission",
        "drivetrain",
        "fuelType",
        "engine",
        "featured",
        "color",
    ] {
        assert!(car.get(key).is_some(), "missing {key}");
    }
    // A list carries cards, never a car's whole record (docs/catalogue.md).
    for key in [
        "trimLevels",
        "vin",
        "externalId",
        "published",
        "createdAt",
        "updatedAt",
    ] {
        assert!(car.get(key).is_none(), "a card carries {key}");
    }
}

#[tokio::test]
async fn default_limit_is_twelve_and_pages_are_stable() {
    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    {
        let conn = app.db.conn().unwrap();
        for i in 0..20 {
            dealership::domain::cars::create(
                &conn,
                &common::car_input(&cat.lada, &format!("lada-granta-{i}")),
                2026,
            )
            .unwrap();
        }
    }
    let first = app.get("/api/cars/fast").await.json();
    assert_eq!(first.as_array().unwrap().len(), 12);
    let mut seen = Vec::new();
    for offset in (0..30).step_by(7) {
        let page = app
            .get(&format!("/api/cars/fast?limit=7&offset={offset}"))
            .await
            .json();
        seen.extend(slugs(&page));
    }
    let total = app.get("/api/cars/count").await.json()["count"]
        .as_i64()
        .unwrap();
    assert_eq!(total, 26);
    assert_eq!(seen.len(), 26);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 26, "pages overlap");
    let most = app.get("/api/cars/fast?limit=100").await.json();
    assert_eq!(most.as_array().unwrap().len(), 26);
    // Bounds are checked, never clamped (docs/api.md).
    for bad in ["limit=101", "limit=0", "offset=2147483648"] {
        let answer = app.get(&format!("/api/cars/fast?{bad}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(!answer.error().is_empty(), "{bad}");
    }
}

#[tokio::test]
async fn car_filters() {
    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    let count = |q: &str| {
        let q = q.to_string();
        let app = &app;
        async move {
            let list = app.get(&format!("/api/cars/fast?limit=100&{q}")).await;
            assert_eq!(list.status, StatusCode::OK, "{q}");
            let n = list.json().as_array().unwrap().len() as i64;
            let c = app.get(&format!("/api/cars/count?{q}")).await.json()["count"]
                .as_i64()
                .unwrap();
            assert_eq!(n, c, "list and count disagree for {q}");
            n
        }
    };
    assert_eq!(count("status=new").await, 4);
    assert_eq!(count("status=used").await, 1);
    assert_eq!(count("status=lease").await, 1);
    assert_eq!(count("status=new,used").await, 5);
    assert_eq!(count("featured=true").await, 1);
    assert_eq!(count(&format!("brandId={}", cat.lada)).await, 1);
    assert_eq!(count(&format!("brandId={}", cat.empty_brand)).await, 0);
    assert_eq!(count("bodyType=crossover").await, 4);
    assert_eq!(count("maxPrice=2000000").await, 3);
    assert_eq!(count("maxPrice=1750000.50").await, 2);
    assert_eq!(count("maxPrice=1750000.49").await, 1);
    assert_eq!(count("minPrice=2500000").await, 2);
    assert_eq!(
        count("status=new&bodyType=crossover&maxPrice=3000000").await,
        2
    );
    assert_eq!(count("model=Vesta").await, 1);

    let by_price = app
        .get("/api/cars/fast?sort=price_asc&limit=100")
        .await
        .json();
    let prices: Vec<f64> = by_price
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["price"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");

    for bad in [
        "status=sold",
        "bodyType=Boat!",
        "maxPrice=cheap",
        "sort=random",
        "limit=-1",
        "featured=maybe",
    ] {
        // An unknown body type in the query is a bad parameter; in the path
        // (`/api/cars/body-type/{bodyType}/fast`) a page not found.
        let answer = app.get(&format!("/api/cars/fast?{bad}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(!answer.error().is_empty(), "{bad}");
    }
}

#[tokio::test]
async fn car_by_slug_images_brand_and_body_type() {
    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    let car = app.get("/api/cars/slug/lada-vesta-sw").await;
    assert_eq!(car.status, StatusCode::OK);
    let car = car.json();
    assert_eq!(car["name"], "Vesta SW");
    assert_eq!(car["brandName"], "Lada");

    let images = app
        .get(&format!("/api/cars/{}/images", car["id"].as_str().unwrap()))
        .await
        .json();
    assert_eq!(images["mainImage"], "/media/aaaa-800.webp");
    assert_eq!(images["images"][1], "/media/bbbb-800.webp");

    let missing = app.get("/api/cars/slug/no-such-car").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.error(), "Автомобиль не найден");
    // A draft is invisible by slug and by id.
    assert_eq!(
        app.get("/api/cars/slug/haval-h9-draft").await.status,
        StatusCode::NOT_FOUND
    );
    let draft_id: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT id FROM cars WHERE slug = 'haval-h9-draft'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        app.get(&format!("/api/cars/{draft_id}/images"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    let of_brand = app
        .get(&format!("/api/cars/brand/{}/fast?limit=100", cat.haval))
        .await
        .json();
    assert_eq!(of_brand.as_array().unwrap().len(), 5);
    let used_of_brand = app
        .get(&format!("/api/cars/brand/{}/fast?status=used", cat.haval))
        .await
        .json();
    assert_eq!(slugs(&used_of_brand), ["haval-f7-used"]);

    let wagons = app.get("/api/cars/body-type/wagon/fast").await.json();
    assert_eq!(slugs(&wagons), ["lada-vesta-sw"]);
    let none = app.get("/api/cars/body-type/pickup/fast").await;
    assert_eq!(none.status, StatusCode::OK);
    assert_eq!(none.json(), serde_json::json!([]));
    assert_eq!(
        app.get("/api/cars/body-type/boat/fast").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn body_types_have_spec_labels() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let list = app.get("/api/body-types").await.json();
    let labels: Vec<(String, String, String)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["bodyType"].as_str().unwrap().into(),
                t["labelPlural"].as_str().unwrap().into(),
                t["labelSingle"].as_str().unwrap().into(),
            )
        })
        .collect();
    let expected = [
        ("sedan", "Седаны", "Седан"),
        ("hatchback", "Хэтчбеки", "Хэтчбек"),
        ("crossover", "Кроссоверы", "Кроссовер"),
        ("wagon", "Универсалы", "Универсал"),
        ("coupe", "Внедорожники", "Внедорожник"),
        ("pickup", "Пикапы", "Пикап"),
    ];
    for (got, want) in labels.iter().zip(expected) {
        assert_eq!((got.0.as_str(), got.1.as_str(), got.2.as_str()), want);
    }
    assert_eq!(list[2]["carCount"], 4);
    let one = app.get("/api/body-types/wagon").await.json();
    assert_eq!(one["labelPlural"], "Универсалы");
    assert_eq!(
        app.get("/api/body-types/boat").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn reviews_promotions_banks_are_public_only() {
    let app = TestApp::new();
    seed_catalogue(&app);
    for path in ["/api/reviews?approved=true", "/api/reviews"] {
        let reviews = app.get(path).await.json();
        assert_eq!(reviews.as_array().unwrap().len(), 2, "{path}");
        assert!(
            reviews
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r["approved"] == true)
        );
        assert_eq!(reviews[0]["rating"], 5);
        assert_eq!(reviews[0]["carModel"], "Haval Jolion");
    }
    let promotions = app.get("/api/promotions?active=true").await.json();
    assert_eq!(promotions.as_array().unwrap().len(), 1);
    assert_eq!(promotions[0]["title"], "Скидка 10%");
    assert_eq!(promotions[0]["isActive"], true);
    assert_eq!(promotions[0]["validUntil"], "2099-12-31");
    let all_promotions = app.get("/api/promotions").await.json();
    assert_eq!(all_promotions.as_array().unwrap().len(), 1);
    let id = promotions[0]["id"].as_str().unwrap();
    let image = app.get(&format!("/api/promotions/{id}/image")).await.json();
    assert_eq!(image["imageUrl"], "/media/promo-800.webp");
    let inactive_id: String = app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM promotions WHERE is_active = 0", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        app.get(&format!("/api/promotions/{inactive_id}/image"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    let banks = app.get("/api/partner-banks").await.json();
    assert_eq!(banks.as_array().unwrap().len(), 1);
    assert_eq!(banks[0]["name"], "Сбербанк");
    assert_eq!(
        banks[0]["advantages"],
        "Ставка от 5.6%, Решение за 30 минут"
    );
}

#[tokio::test]
async fn answers_carry_etag_and_304() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let first = app.get("/api/cars/fast?limit=3").await;
    let etag = first.headers["etag"].to_str().unwrap().to_string();
    assert_eq!(first.headers["cache-control"], "no-cache");
    let again = app.get("/api/cars/fast?limit=3").await;
    assert_eq!(again.body, first.body);
    assert_eq!(again.headers["etag"].to_str().unwrap(), etag);
    let not_modified = app
        .get_with("/api/cars/fast?limit=3", "if-none-match", &etag)
        .await;
    assert_eq!(not_modified.status, StatusCode::NOT_MODIFIED);
    assert!(not_modified.body.is_empty());
    let other = app
        .get_with("/api/cars/fast?limit=3", "if-none-match", "\"other\"")
        .await;
    assert_eq!(other.status, StatusCode::OK);
}

#[tokio::test]
async fn unknown_api_paths_are_json_404() {
    let app = TestApp::new();
    let answer = app.get("/api/nothing/here").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.error(), "Не найдено");
    let wrong_method = app
        .post_raw("/api/cars/count", Some("application/json"), b"{}".to_vec())
        .await;
    assert_eq!(wrong_method.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong_method.error(), "Метод не поддерживается");
}

#[tokio::test]
async fn security_headers_on_every_answer() {
    let app = TestApp::new();
    for path in ["/api/settings", "/api/nothing", "/some/page"] {
        let answer = app.get(path).await;
        assert_eq!(
            answer.headers["x-content-type-options"], "nosniff",
            "{path}"
        );
        assert!(
            answer.headers["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("frame-ancestors 'none'")
        );
        assert!(answer.headers.contains_key("referrer-policy"));
    }
}

/// The lists are written straight from the rows (`cars::list_json`): the
/// bytes are those of the `CarBrief` values `cars::list` reads, escapes,
/// missing values and pictures included, and no trim levels.
#[tokio::test]
async fn list_answers_are_the_bytes_of_the_cars() {
    use dealership::domain::cars::{self, CarFilter, CarSort, CarStatus, TrimLevel};
    use dealership::domain::credit_payment::CreditRule;
    use dealership::domain::money::Money;

    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    {
        let conn = app.db.conn().unwrap();
        let mut odd = common::car_input(&cat.lada, "lada-niva-legend");
        odd.name = "Niva \"Legend\"\n\\ 4×4 \u{1F697}".into();
        odd.engine = "1.7 л </script>".into();
        odd.images = vec![];
        odd.vin = Some("XTA21214071234567".into());
        odd.color = Some("Белый \"снежный\"".into());
        odd.external_id = Some("ext/1".into());
        odd.daily_price = Some(Money::parse("1999.99").unwrap());
        odd.trim_levels = vec![
            TrimLevel {
                name: "Comfort \"+\"".into(),
                description: "Кондиционер,\tподогрев\u{7f}".into(),
                link: String::new(),
            },
            TrimLevel::default(),
        ];
        cars::create(&conn, &odd, 2026).unwrap();
    }
    let cases = [
        ("/api/cars/fast?limit=100", CarFilter::default(), 100, 0),
        (
            "/api/cars/fast?status=new,used&sort=price_desc&limit=3&offset=1",
            CarFilter {
                statuses: vec![CarStatus::New, CarStatus::Used],
                sort: CarSort::PriceDesc,
                ..Default::default()
            },
            3,
            1,
        ),
        (
            "/api/cars/fast?maxPrice=2500000&limit=10",
            CarFilter {
                max_price: Some(Money::from_rubles(2_500_000)),
                ..Default::default()
            },
            10,
            0,
        ),
    ];
    for (path, filter, limit, offset) in cases {
        let expected = {
            let conn = app.db.conn().unwrap();
            // No credit programme is valid: no monthly figure.
            let none = CreditRule::new(Vec::new());
            let cars = cars::list(&conn, &filter, limit, offset, &none).unwrap();
            assert!(!cars.is_empty(), "{path}");
            serde_json::to_vec(&cars).unwrap()
        };
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.headers["content-type"], "application/json");
        assert_eq!(
            String::from_utf8(answer.body.clone()).unwrap(),
            String::from_utf8(expected).unwrap(),
            "{path}"
        );
    }
    let all = app.get("/api/cars/fast?limit=100").await.json();
    let niva = all
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slug"] == "lada-niva-legend")
        .unwrap();
    assert!(niva.get("trimLevels").is_none());
    assert_eq!(niva["color"], "Белый \"снежный\"");
    assert_eq!(niva["images"], serde_json::json!([]));
}

/// The steps of SQLite's plan for a list query, one line each.
fn plan_of(app: &TestApp, filter: &dealership::domain::cars::CarFilter) -> Vec<String> {
    let (sql, values) = dealership::domain::cars::list_query(filter, 20, 0);
    let conn = app.db.conn().unwrap();
    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    stmt.query_map(rusqlite::params_from_iter(values), |r| {
        r.get::<_, String>(3)
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// A filtered list in date order walks a newest-first index from its newest
/// end and stops after the page (`migrations/V5__car_newest_indexes.sql`):
/// no step scans the table or sorts every car of the filter. Only the ties
/// of `created_at` are put in order (`LAST TERM`), and the 20 rows of the page.
#[tokio::test]
async fn filtered_lists_walk_a_newest_first_index() {
    use dealership::domain::cars::{BodyType, CarFilter, CarSort, CarStatus};
    use dealership::domain::money::Money;

    let app = TestApp::new();
    seed_catalogue(&app);
    let price = Some(Money::from_rubles(3_000_000));
    let cases = [
        // bench/uncached_list.lua's question.
        (
            CarFilter {
                statuses: vec![CarStatus::Used],
                body_type: Some(BodyType::CROSSOVER),
                max_price: price,
                ..Default::default()
            },
            "cars_newest_status_body",
        ),
        (
            CarFilter {
                statuses: vec![CarStatus::New],
                max_price: price,
                ..Default::default()
            },
            "cars_newest_status",
        ),
        (
            CarFilter {
                body_type: Some(BodyType::SEDAN),
                max_price: price,
                ..Default::default()
            },
            "cars_newest_body",
        ),
    ];
    for (filter, index) in cases {
        let plan = plan_of(&app, &filter);
        let page = plan
            .iter()
            .position(|step| step.contains("LIST SUBQUERY"))
            .unwrap_or_else(|| panic!("{plan:#?}"));
        assert!(
            plan[page + 1].starts_with(&format!("SEARCH c USING COVERING INDEX {index} (")),
            "{plan:#?}"
        );
        assert!(
            plan[page + 2].contains("LAST TERM OF ORDER BY")
                || plan[page + 2].contains("RIGHT PART OF ORDER BY"),
            "only the ties are sorted: {plan:#?}"
        );
        assert!(!plan.iter().any(|s| s.starts_with("SCAN c")), "{plan:#?}");
    }

    // A model filter reads its own index, not every car.
    let by_model = plan_of(
        &app,
        &CarFilter {
            model: Some("Jolion".into()),
            ..Default::default()
        },
    );
    assert!(
        by_model.iter().any(|s| s.contains("INDEX cars_model (")),
        "{by_model:#?}"
    );
    assert!(
        !by_model.iter().any(|s| s.starts_with("SCAN c")),
        "{by_model:#?}"
    );

    // In price order the price is a range of the filter index, which gives
    // that order itself.
    let by_price = plan_of(
        &app,
        &CarFilter {
            statuses: vec![CarStatus::Used],
            body_type: Some(BodyType::CROSSOVER),
            max_price: price,
            sort: CarSort::PriceAsc,
            ..Default::default()
        },
    );
    assert!(
        by_price
            .iter()
            .any(|s| s.contains("COVERING INDEX cars_filter") && s.contains("price_kopecks<?")),
        "{by_price:#?}"
    );
}
