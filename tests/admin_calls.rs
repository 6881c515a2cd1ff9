//! Every admin call with its rules and messages.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::{TestApp, car_input, seed_catalogue};
use serde_json::{Value, json};

#[tokio::test]
async fn cars_crud_and_rules() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let mut body = serde_json::to_value(json!({
        "brandId": cat.lada, "name": "Granta", "slug": "lada-granta-2025", "model": "Granta",
        "year": 2025, "price": "1 150 000", "monthlyPayment": "19900.50", "dailyPrice": null,
        "status": "new", "bodyType": "sedan", "transmission": "manual", "drivetrain": "front",
        "fuelType": "gasoline", "engine": "1.6 л, 90 л.с.", "mileage": 0,
        "mainImage": "", "images": ["/media/a-800.webp", "/media/b-800.webp"],
        "trimLevels": [{"name": "Comfort", "description": "Кондиционер", "link": ""}],
        "inStock": true, "featured": false
    }))
    .unwrap();
    let created = app
        .admin_with(&cookie, Method::POST, "/api/cars", Some(body.clone()))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let car = created.json();
    assert_eq!(car["price"], "1150000.00");
    // A new car keeps no typed payment (docs/pricing.md).
    assert_eq!(car["monthlyPayment"], Value::Null);
    assert_eq!(car["mainImage"], "/media/a-800.webp");
    assert_eq!(car["brandName"], "Lada");
    assert_eq!(car["trimLevels"][0]["name"], "Comfort");
    assert_eq!(car["published"], true);
    let id = car["id"].as_str().unwrap().to_string();
    // It is public at once (the write bumped the content version).
    assert_eq!(
        app.get("/api/cars/slug/lada-granta-2025").await.status,
        StatusCode::OK
    );

    body["price"] = json!("1200000");
    body["published"] = json!(false);
    let updated = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/cars/{id}"),
            Some(body.clone()),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK);
    assert_eq!(updated.json()["price"], "1200000.00");
    // A draft leaves the public site.
    assert_eq!(
        app.get("/api/cars/slug/lada-granta-2025").await.status,
        StatusCode::NOT_FOUND
    );

    let mut renamed = body.clone();
    renamed["slug"] = json!("new-slug");
    let refused = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/cars/{id}"),
            Some(renamed),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.error(), "Slug автомобиля нельзя изменить");

    let duplicate = app
        .admin_with(&cookie, Method::POST, "/api/cars", Some(body.clone()))
        .await;
    assert_eq!(duplicate.status, StatusCode::CONFLICT);
    assert_eq!(duplicate.json()["field"], "slug");

    let next_year = chrono::Datelike::year(&chrono::Utc::now()) + 1;
    let rules = [
        (json!({"price": ""}), "price", Some("Цена обязательна")),
        (json!({"name": " "}), "name", Some("Название обязательно")),
        (json!({"model": ""}), "model", Some("Модель обязательна")),
        (
            json!({"engine": ""}),
            "engine",
            Some("Двигатель обязателен"),
        ),
        (json!({"brandId": ""}), "brandId", Some("Марка обязательна")),
        (
            json!({"brandId": "missing"}),
            "brandId",
            Some("Марка не найдена"),
        ),
        (json!({"slug": ""}), "slug", Some("Slug обязателен")),
        (
            json!({"slug": "Bad Slug"}),
            "slug",
            Some("Slug может содержать только латинские буквы, цифры и дефисы"),
        ),
        (
            json!({"year": 1989}),
            "year",
            Some("Год должен быть от 1990 до"),
        ),
        (
            json!({"year": next_year + 1}),
            "year",
            Some("Год должен быть от 1990 до"),
        ),
        (
            json!({"images": ["1","2","3","4","5","6","7"]}),
            "images",
            Some("Максимум 6 изображений"),
        ),
        (json!({"status": "sold"}), "status", None),
        (json!({"bodyType": "boat"}), "bodyType", None),
    ];
    for (change, field, message) in rules {
        let mut bad = body.clone();
        bad["slug"] = json!("another-slug");
        for (k, v) in change.as_object().unwrap() {
            bad[k] = v.clone();
        }
        let answer = app
            .admin_with(&cookie, Method::POST, "/api/cars", Some(bad))
            .await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{change}: {}",
            answer.text()
        );
        match message {
            Some(m) => {
                assert!(
                    answer.error().starts_with(m),
                    "{change}: {}",
                    answer.error()
                );
                assert_eq!(answer.json()["field"], field);
            }
            // The field is named in `field`, the message is the form's own.
            None => assert_eq!(answer.json()["field"], field, "{change}: {}", answer.text()),
        }
    }
    let mut next = body.clone();
    next["slug"] = json!("lada-granta-next");
    next["year"] = json!(next_year);
    assert_eq!(
        app.admin_with(&cookie, Method::POST, "/api/cars", Some(next))
            .await
            .status,
        StatusCode::CREATED
    );

    let deleted = app
        .admin_with(&cookie, Method::DELETE, &format!("/api/cars/{id}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    let again = app
        .admin_with(&cookie, Method::DELETE, &format!("/api/cars/{id}"), None)
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    let missing = app
        .admin_with(&cookie, Method::PUT, "/api/cars/nope", Some(body))
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bulk_price_change_is_exact() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    {
        let conn = app.db.conn().unwrap();
        let mut c = car_input(&cat.lada, "odd-price");
        c.price = dealership::domain::money::Money::parse("1999999.99").unwrap();
        dealership::domain::cars::create(&conn, &c, 2026).unwrap();
    }
    let cookie = app.login().await;
    let raised = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/cars/prices/bulk",
            Some(json!({"priceMultiplier": 1.1})),
        )
        .await;
    assert_eq!(raised.status, StatusCode::OK, "{}", raised.text());
    assert_eq!(raised.json()["updatedCount"], 8);
    // 1 999 999.99 × 1.1 = 2 199 999.989 → 2 199 999.99
    assert_eq!(
        app.get("/api/cars/slug/odd-price").await.json()["price"],
        "2199999.99"
    );
    let lowered = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/cars/prices/bulk",
            Some(json!({"priceMultiplier": "0.95"})),
        )
        .await;
    assert_eq!(lowered.json()["updatedCount"], 8);
    // 2 199 999.99 × 0.95 = 2 089 999.9905 → 2 089 999.99
    assert_eq!(
        app.get("/api/cars/slug/odd-price").await.json()["price"],
        "2089999.99"
    );
    for bad in [
        json!(0),
        json!(-1.05),
        json!("abc"),
        json!(null),
        json!("0"),
    ] {
        let answer = app
            .admin_with(
                &cookie,
                Method::PUT,
                "/api/cars/prices/bulk",
                Some(json!({"priceMultiplier": bad})),
            )
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert_eq!(answer.error(), "Введите корректный процент");
    }
}

#[tokio::test]
async fn brands_crud_and_delete_refused_while_it_has_cars() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let list = app
        .admin_with(&cookie, Method::GET, "/api/admin/brands", None)
        .await;
    assert_eq!(list.json().as_array().unwrap().len(), 3);

    let created = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/brands",
            Some(
                json!({"name": "Tank", "slug": "tank", "logo": "", "description": "Внедорожники"}),
            ),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let id = created.json()["id"].as_str().unwrap().to_string();
    let updated = app
        .admin_with(&cookie, Method::PUT, &format!("/api/brands/{id}"), Some(json!({"name": "TANK", "slug": "tank", "logo": "/media/t-800.webp", "description": ""})))
        .await;
    assert_eq!(updated.json()["name"], "TANK");
    assert_eq!(updated.json()["logo"], "/media/t-800.webp");
    // Without a published car the site does not show it (docs/catalogue.md).
    assert_eq!(
        app.get("/api/brands/slug/tank").await.status,
        StatusCode::NOT_FOUND
    );

    for (body, field, message) in [
        (
            json!({"name": "", "slug": "x"}),
            "name",
            "Название марки обязательно",
        ),
        (json!({"name": "X", "slug": ""}), "slug", "Slug обязателен"),
        (
            json!({"name": "X", "slug": "with space"}),
            "slug",
            "Slug может содержать только латинские буквы, цифры и дефисы",
        ),
    ] {
        let answer = app
            .admin_with(&cookie, Method::POST, "/api/brands", Some(body))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(answer.error(), message);
        assert_eq!(answer.json()["field"], field);
    }
    let duplicate = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/brands",
            Some(json!({"name": "Haval 2", "slug": "haval"})),
        )
        .await;
    assert_eq!(duplicate.status, StatusCode::CONFLICT);
    assert_eq!(duplicate.error(), "Такой slug уже используется");

    let refused = app
        .admin_with(
            &cookie,
            Method::DELETE,
            &format!("/api/brands/{}", cat.haval),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(
        refused.error().starts_with("Нельзя удалить марку"),
        "{}",
        refused.error()
    );
    let deleted = app
        .admin_with(
            &cookie,
            Method::DELETE,
            &format!("/api/brands/{}", cat.empty_brand),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(
        app.admin_with(&cookie, Method::GET, "/api/admin/brands", None)
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[tokio::test]
async fn reviews_moderation() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    let all = app
        .admin_with(&cookie, Method::GET, "/api/admin/reviews", None)
        .await
        .json();
    assert_eq!(
        all.as_array().unwrap().len(),
        3,
        "admins see pending reviews"
    );
    assert_eq!(
        app.get("/api/reviews")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        2
    );

    let created = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/reviews",
            Some(json!({"customerName": "Анна", "text": "Отлично", "carModel": "Lada Vesta"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let review = created.json();
    assert_eq!(review["rating"], 5, "rating defaults to 5");
    assert_eq!(review["approved"], false);
    let id = review["id"].as_str().unwrap();
    let approved = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/reviews/{id}/approve"),
            None,
        )
        .await;
    assert_eq!(approved.json()["approved"], true);
    assert_eq!(
        app.get("/api/reviews")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        3
    );

    let edited = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/reviews/{id}"),
            Some(json!({"customerName": "Анна", "text": "Хорошо", "rating": 4, "approved": false})),
        )
        .await;
    assert_eq!(edited.json()["rating"], 4);
    assert_eq!(edited.json()["approved"], false);

    for (body, field, message) in [
        (
            json!({"customerName": "", "text": "x"}),
            "customerName",
            "Имя клиента обязательно",
        ),
        (
            json!({"customerName": "A", "text": " "}),
            "text",
            "Текст отзыва обязателен",
        ),
        (
            json!({"customerName": "A", "text": "x", "rating": 6}),
            "rating",
            "Оценка должна быть от 1 до 5",
        ),
        (
            json!({"customerName": "A", "text": "x", "rating": 0}),
            "rating",
            "Оценка должна быть от 1 до 5",
        ),
    ] {
        let answer = app
            .admin_with(&cookie, Method::POST, "/api/reviews", Some(body))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(answer.error(), message);
        assert_eq!(answer.json()["field"], field);
    }
    assert_eq!(
        app.admin_with(&cookie, Method::DELETE, &format!("/api/reviews/{id}"), None)
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        app.admin_with(&cookie, Method::PUT, "/api/reviews/nope/approve", None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn leads_list_filter_status_and_delete() {
    let app = TestApp::new();
    app.create_admin();
    for kind in ["auto_credit", "trade_in", "trade_in"] {
        let answer = app
            .post_json(
                "/api/leads",
                &json!({"type": kind, "name": "Иван", "phone": "89215551234", "consent": true}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED);
    }
    let cookie = app.login().await;
    let all = app
        .admin_with(&cookie, Method::GET, "/api/leads", None)
        .await
        .json();
    assert_eq!(all.as_array().unwrap().len(), 3);
    let trade_in = app
        .admin_with(&cookie, Method::GET, "/api/leads?type=trade_in", None)
        .await
        .json();
    assert_eq!(trade_in.as_array().unwrap().len(), 2);
    let id = trade_in[0]["id"].as_str().unwrap().to_string();
    let changed = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/leads/{id}/status"),
            Some(json!({"status": "in_progress"})),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_eq!(changed.json()["status"], "in_progress");
    let in_progress = app
        .admin_with(
            &cookie,
            Method::GET,
            "/api/leads?status=in_progress&type=trade_in",
            None,
        )
        .await
        .json();
    assert_eq!(in_progress.as_array().unwrap().len(), 1);
    // One lead on its own (the details' deep link).
    let one = app
        .admin_with(&cookie, Method::GET, &format!("/api/leads/{id}"), None)
        .await;
    assert_eq!(one.status, StatusCode::OK);
    assert_eq!(one.json()["id"], id.as_str());
    assert_eq!(one.json()["status"], "in_progress");
    let bad = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/leads/{id}/status"),
            Some(json!({"status": "lost"})),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        app.admin_with(&cookie, Method::GET, "/api/leads?status=lost", None)
            .await
            .status,
        StatusCode::BAD_REQUEST
    );

    let dashboard = app
        .admin_with(&cookie, Method::GET, "/api/admin/dashboard", None)
        .await
        .json();
    assert_eq!(dashboard["leadsTotal"], 3);
    assert_eq!(dashboard["leadsNew"], 2);
    assert_eq!(dashboard["leadsInProgress"], 1);
    assert_eq!(dashboard["leadsToday"], 3);

    assert_eq!(
        app.admin_with(&cookie, Method::DELETE, &format!("/api/leads/{id}"), None)
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        app.admin_with(&cookie, Method::DELETE, &format!("/api/leads/{id}"), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let gone = app
        .admin_with(&cookie, Method::GET, &format!("/api/leads/{id}"), None)
        .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert_eq!(gone.error(), "Лид не найден");
    assert_eq!(app.count("SELECT count(*) FROM leads"), 2);
}

#[tokio::test]
async fn dashboard_figures() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let d = app
        .admin(Method::GET, "/api/admin/dashboard", None)
        .await
        .json();
    assert_eq!(d["carsPublished"], 6);
    assert_eq!(d["carsDrafts"], 1);
    assert_eq!(d["brands"], 3);
    assert_eq!(d["reviewsApproved"], 2);
    assert_eq!(d["reviewsPending"], 1);
    assert_eq!(d["leadsNew"], 0);
}

#[tokio::test]
async fn promotions_and_banks() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    assert_eq!(
        app.admin_with(&cookie, Method::GET, "/api/admin/promotions", None)
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let created = app
        .admin_with(&cookie, Method::POST, "/api/promotions", Some(json!({"title": "Зимняя акция", "description": "Шины в подарок", "discount": "-5%", "validUntil": "28.02.2027"})))
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    assert_eq!(created.json()["isActive"], true, "active by default");
    let id = created.json()["id"].as_str().unwrap().to_string();
    let off = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/promotions/{id}"),
            Some(json!({"title": "Зимняя акция", "description": "Шины", "isActive": false})),
        )
        .await;
    assert_eq!(off.json()["isActive"], false);
    assert_eq!(
        app.get("/api/promotions?active=true")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    for (body, message) in [
        (
            json!({"title": "", "description": "x"}),
            "Название акции обязательно",
        ),
        (
            json!({"title": "x", "description": ""}),
            "Описание акции обязательно",
        ),
    ] {
        let answer = app
            .admin_with(&cookie, Method::POST, "/api/promotions", Some(body))
            .await;
        assert_eq!(answer.error(), message);
    }
    assert_eq!(
        app.admin_with(
            &cookie,
            Method::DELETE,
            &format!("/api/promotions/{id}"),
            None
        )
        .await
        .status,
        StatusCode::NO_CONTENT
    );

    let bank = app
        .admin_with(&cookie, Method::POST, "/api/partner-banks", Some(json!({"name": "ВТБ", "logo": "/media/vtb-800.webp", "requirements": "Паспорт", "advantages": "Без КАСКО, Ставка от 9%"})))
        .await;
    assert_eq!(bank.status, StatusCode::CREATED);
    let id = bank.json()["id"].as_str().unwrap().to_string();
    assert_eq!(
        app.get("/api/partner-banks")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let hidden = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/partner-banks/{id}"),
            Some(json!({"active": false})),
        )
        .await;
    assert_eq!(hidden.status, StatusCode::OK);
    assert_eq!(hidden.json()["active"], false);
    assert_eq!(hidden.json()["name"], "ВТБ");
    assert_eq!(
        app.get("/api/partner-banks")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        app.admin_with(&cookie, Method::GET, "/api/admin/partner-banks", None)
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let full = app
        .admin_with(&cookie, Method::PUT, &format!("/api/partner-banks/{id}"), Some(json!({"name": "ВТБ Банк", "logo": "/media/vtb-800.webp", "requirements": "Паспорт", "advantages": "Быстро", "active": true})))
        .await;
    assert_eq!(full.json()["name"], "ВТБ Банк");
    for (body, field) in [
        (
            json!({"name": "", "logo": "l", "requirements": "r", "advantages": "a"}),
            "name",
        ),
        (
            json!({"name": "n", "logo": "", "requirements": "r", "advantages": "a"}),
            "logo",
        ),
        (
            json!({"name": "n", "logo": "l", "requirements": "", "advantages": "a"}),
            "requirements",
        ),
        (
            json!({"name": "n", "logo": "l", "requirements": "r", "advantages": ""}),
            "advantages",
        ),
    ] {
        let answer = app
            .admin_with(&cookie, Method::POST, "/api/partner-banks", Some(body))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(answer.json()["field"], field);
    }
    assert_eq!(
        app.admin_with(
            &cookie,
            Method::DELETE,
            &format!("/api/partner-banks/{id}"),
            None
        )
        .await
        .status,
        StatusCode::NO_CONTENT
    );
}

/// The admin lists hold everything; their filters narrow them.
#[tokio::test]
async fn admin_lists_and_their_filters() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    for (path, len) in [
        ("/api/admin/reviews", 3),
        ("/api/admin/reviews?approved=true", 2),
        ("/api/admin/reviews?limit=2", 2),
        ("/api/admin/reviews?limit=2&offset=2", 1),
        ("/api/admin/promotions", 2),
        ("/api/admin/promotions?active=true", 1),
        ("/api/admin/partner-banks", 2),
        ("/api/admin/partner-banks?active=true", 1),
    ] {
        let answer = app.admin_with(&cookie, Method::GET, path, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.json().as_array().unwrap().len(), len, "{path}");
    }
    let pending = app
        .admin_with(&cookie, Method::GET, "/api/admin/reviews", None)
        .await
        .json();
    assert!(
        pending
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["approved"] == false)
    );
    assert_eq!(
        app.admin_with(
            &cookie,
            Method::GET,
            "/api/admin/reviews?approved=maybe",
            None
        )
        .await
        .status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn settings_forms() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let current = app
        .admin_with(&cookie, Method::GET, "/api/admin/settings", None)
        .await
        .json();
    assert_eq!(current["emailNotificationsEnabled"], true);
    assert!(current["consentText"].as_str().unwrap().contains("152-ФЗ"));

    let company = json!({
        "salonName": "Невский Автоцентр", "phone": "+7 (812) 555-00-00", "address": "Санкт-Петербург, Невский пр., 1",
        "email": "info@nevsky-auto.ru", "heroTitle": "Автомобили",
        "heroSubtitle": "В наличии", "googleAnalyticsId": "", "yandexMetrikaId": "12345678"
    });
    let saved = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/settings",
            Some(company.clone()),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert_eq!(
        app.get("/api/settings").await.json()["salonName"],
        "Невский Автоцентр"
    );

    for (field, value, message) in [
        ("salonName", json!(""), "Название салона обязательно"),
        ("phone", json!(" "), "Телефон обязателен"),
        ("address", json!(""), "Адрес обязателен"),
        ("email", json!("info@"), "Неверный формат email"),
    ] {
        let mut bad = company.clone();
        bad[field] = value;
        let answer = app
            .admin_with(&cookie, Method::POST, "/api/settings", Some(bad))
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert_eq!(answer.error(), message);
        assert_eq!(answer.json()["field"], field);
    }

    let email = app
        .admin_with(&cookie, Method::PUT, "/api/settings", Some(json!({"notificationEmail": "", "fromEmail": "robot@nevsky-auto.ru", "emailNotificationsEnabled": false})))
        .await;
    assert_eq!(email.status, StatusCode::OK);
    assert_eq!(email.json()["emailNotificationsEnabled"], false);
    assert_eq!(
        email.json()["salonName"],
        "Невский Автоцентр",
        "other fields kept"
    );
    let bad_email = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"notificationEmail": "not-an-email"})),
        )
        .await;
    assert_eq!(bad_email.error(), "Неверный формат email");
    assert_eq!(bad_email.json()["field"], "notificationEmail");

    let banners = app
        .admin_with(&cookie, Method::PUT, "/api/settings", Some(json!({"newCarsBanner": "/media/n-800.webp", "autoSelectionBanner": "/media/s-800.webp"})))
        .await;
    assert_eq!(banners.status, StatusCode::OK);
    assert_eq!(
        app.get("/api/settings/banner/newCarsBannerMobile")
            .await
            .json()["imageUrl"],
        "/media/n-800.webp"
    );
    assert_eq!(
        app.get("/api/settings").await.json()["autoSelectionBanner"],
        "/media/s-800.webp"
    );

    let unknown = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"color": "red"})),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn body_type_labels_and_banners() {
    let app = TestApp::new();
    app.create_admin();
    let answer = app
        .admin(Method::PUT, "/api/body-types/coupe", Some(json!({"labelPlural": "Купе", "labelSingle": "Купе", "imageUrl": "/media/c-800.webp"})))
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    let public = app.get("/api/body-types/coupe").await.json();
    assert_eq!(public["labelPlural"], "Купе");
    assert_eq!(public["imageUrl"], "/media/c-800.webp");
    let empty = app
        .admin(
            Method::PUT,
            "/api/body-types/coupe",
            Some(json!({"labelPlural": ""})),
        )
        .await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        app.admin(Method::PUT, "/api/body-types/boat", Some(json!({})))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn admin_brands_count_drafts_that_block_delete() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let admin_list = app
        .admin_with(&cookie, Method::GET, "/api/admin/brands", None)
        .await
        .json();
    let count_of = |list: &serde_json::Value, id: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|b| b["id"] == id)
            .unwrap()["carCount"]
            .as_i64()
            .unwrap()
    };
    let public = app.get("/api/brands").await.json();
    // Haval has one draft: visitors do not count it, the admin does (the
    // brand cannot be deleted while it exists).
    assert_eq!(
        count_of(&admin_list, &cat.haval),
        count_of(&public, &cat.haval) + 1
    );
    assert_eq!(count_of(&admin_list, &cat.empty_brand), 0);
}

#[tokio::test]
async fn conditional_discounts_are_kept_and_limited_by_the_price() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let mut body = json!({
        "brandId": cat.haval, "name": "Jolion", "slug": "haval-jolion-discounts",
        "model": "Jolion", "year": 2025, "price": "2000000", "status": "new",
        "bodyType": "crossover", "transmission": "robotic", "drivetrain": "front",
        "fuelType": "gasoline", "engine": "1.5 л, 150 л.с."
    });
    body["creditDiscount"] = json!("100 000");
    body["tradeinDiscount"] = json!(150000);
    body["insuranceDiscount"] = json!("50000.50");
    body["maxDiscount"] = json!("200000");
    let created = app
        .admin_with(&cookie, Method::POST, "/api/cars", Some(body.clone()))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let public = app
        .get("/api/cars/slug/haval-jolion-discounts")
        .await
        .json();
    assert_eq!(public["price"], "2000000.00");
    assert_eq!(public["creditDiscount"], "100000.00");
    assert_eq!(public["tradeinDiscount"], "150000.00");
    assert_eq!(public["insuranceDiscount"], "50000.50");
    assert_eq!(public["maxDiscount"], "200000.00");
    // The list answer (written straight from the rows) carries them alike.
    let list = app.get("/api/cars/fast").await.json();
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slug"] == "haval-jolion-discounts")
        .unwrap()
        .clone();
    assert_eq!(listed["tradeinDiscount"], "150000.00");
    assert_eq!(listed["maxDiscount"], "200000.00");

    body["tradeinDiscount"] = json!("2000000.01");
    let id = created.json()["id"].as_str().unwrap().to_string();
    let refused = app
        .admin_with(&cookie, Method::PUT, &format!("/api/cars/{id}"), Some(body))
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.json(),
        json!({"error": "Скидка не может быть больше цены автомобиля", "field": "tradeinDiscount"})
    );
}

/// A missing object is named in its own words, never with a "(а)"
/// placeholder (issue 23, item 4).
#[tokio::test]
async fn a_missing_object_is_named_in_its_own_words() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    for (method, path, message) in [
        (
            Method::PUT,
            "/api/reviews/nonexist/approve",
            "Отзыв не найден",
        ),
        (Method::DELETE, "/api/reviews/nonexist", "Отзыв не найден"),
        (
            Method::DELETE,
            "/api/promotions/nonexist",
            "Акция не найдена",
        ),
        (
            Method::DELETE,
            "/api/partner-banks/nonexist",
            "Банк не найден",
        ),
        (
            Method::DELETE,
            "/api/body-types/nonexist",
            "Тип кузова не найден",
        ),
    ] {
        let answer = app.admin_with(&cookie, method, path, None).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(answer.json()["error"], message, "{path}");
        assert!(!answer.text().contains("(а)"), "{path}");
    }
}

/// A bulk price change applies to the cars the list's search and filters
/// find, refuses 0%, and is undone once, leaving cars changed since alone.
#[tokio::test]
async fn a_filtered_bulk_price_change_and_its_undo() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let cookie = app.login().await;
    let prices = |app: &TestApp| -> Vec<(String, i64, String)> {
        let conn = app.db.conn().unwrap();
        let mut stmt = conn
            .prepare("SELECT id, price_kopecks, status FROM cars ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let before = prices(&app);
    let used = before.iter().filter(|(_, _, s)| s == "used").count();
    assert!(used > 0 && used < before.len());

    let zero = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/cars/prices/bulk",
            Some(json!({"priceMultiplier": "1.00"})),
        )
        .await;
    assert_eq!(zero.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(zero.json()["field"], "priceMultiplier");
    assert_eq!(
        zero.error(),
        "Изменение на 0% не меняет цен: укажите другой процент"
    );
    assert_eq!(prices(&app), before);

    let raised = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/cars/prices/bulk",
            Some(json!({"priceMultiplier": "1.1", "condition": "used"})),
        )
        .await;
    assert_eq!(raised.status, StatusCode::OK, "{}", raised.text());
    let answer = raised.json();
    assert_eq!(answer["updatedCount"], used);
    assert!(
        answer["summary"]
            .as_str()
            .unwrap()
            .starts_with("Массовое изменение цен на +10%:"),
        "{answer}"
    );
    assert!(
        answer["summary"]
            .as_str()
            .unwrap()
            .ends_with("(с пробегом)")
    );
    let after = prices(&app);
    for ((id, was, status), (_, now, _)) in before.iter().zip(&after) {
        if status == "used" {
            assert_eq!(*now, was + was / 10, "{id}");
        } else {
            assert_eq!(now, was, "{id} is not used: untouched");
        }
    }

    // The cars screen offers it for undo.
    let offered = app
        .admin_with(&cookie, Method::GET, "/api/admin/price-changes", None)
        .await
        .json();
    assert_eq!(offered[0]["id"], answer["auditId"]);
    assert_eq!(offered[0]["keptCount"], used);

    // One car is changed by hand since: the undo leaves it alone.
    let (changed_id, _, _) = before.iter().find(|(_, _, s)| s == "used").unwrap();
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE cars SET price_kopecks = 123400 WHERE id = ?1",
            [changed_id],
        )
        .unwrap();
    let undo = format!("/api/cars/prices/bulk/{}/undo", answer["auditId"]);
    let undone = app.admin_with(&cookie, Method::POST, &undo, None).await;
    assert_eq!(undone.status, StatusCode::OK, "{}", undone.text());
    assert_eq!(
        undone.json(),
        json!({"restoredCount": used - 1, "skippedCount": 1})
    );
    for ((id, was, _), (_, now, _)) in before.iter().zip(prices(&app)) {
        if id == changed_id {
            assert_eq!(now, 123400);
        } else {
            assert_eq!(now, *was, "{id} back to its price");
        }
    }
    let last = app
        .admin_with(&cookie, Method::GET, "/api/admin/audit?limit=1", None)
        .await
        .json();
    assert!(
        last["items"][0]["summary"]
            .as_str()
            .unwrap()
            .starts_with("Отменено: Массовое изменение цен на +10%"),
        "{last}"
    );

    // Once only; an unknown change is not found.
    let again = app.admin_with(&cookie, Method::POST, &undo, None).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.error(), "Это изменение цен уже отменено");
    let offered = app
        .admin_with(&cookie, Method::GET, "/api/admin/price-changes", None)
        .await
        .json();
    assert_eq!(offered, json!([]));
    let unknown = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/cars/prices/bulk/999999/undo",
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.error(), "Массовое изменение цен не найдено");
}
