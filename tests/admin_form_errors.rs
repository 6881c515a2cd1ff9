//! Every rule of the admin forms answers with its Russian message and the
//! field's name, never a parser's text: empty, missing, null and wrongly
//! typed values included (`docs/admin.md`, error messages).
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use chrono::Datelike;
use common::{TestApp, seed_catalogue};
use serde_json::{Value, json};

/// A body with `changes` applied: `null` in `changes` removes a key when
/// `remove` lists it, otherwise it is sent as null.
fn with(base: &Value, changes: Value, remove: &[&str]) -> Value {
    let mut body = base.clone();
    let map = body.as_object_mut().unwrap();
    for (k, v) in changes.as_object().unwrap() {
        map.insert(k.clone(), v.clone());
    }
    for k in remove {
        map.remove(*k);
    }
    body
}

struct Case {
    what: String,
    method: Method,
    path: String,
    body: Value,
    status: StatusCode,
    error: String,
    field: Option<&'static str>,
}

fn refused(
    what: impl Into<String>,
    method: Method,
    path: &str,
    body: Value,
    error: impl Into<String>,
    field: &'static str,
) -> Case {
    Case {
        what: what.into(),
        method,
        path: path.into(),
        body,
        status: StatusCode::UNPROCESSABLE_ENTITY,
        error: error.into(),
        field: Some(field),
    }
}

/// Cases for a required field: missing, null, empty and blank.
fn required(
    cases: &mut Vec<Case>,
    method: Method,
    path: &str,
    base: &Value,
    field: &'static str,
    message: &str,
) {
    let variants = [
        ("missing", with(base, json!({}), &[field])),
        ("null", with(base, json!({ field: null }), &[])),
        ("empty", with(base, json!({ field: "" }), &[])),
        ("blank", with(base, json!({ field: "   " }), &[])),
    ];
    for (how, body) in variants {
        cases.push(refused(
            format!("{path} {field} {how}"),
            method.clone(),
            path,
            body,
            message,
            field,
        ));
    }
}

#[tokio::test]
async fn every_admin_form_rule_answers_its_message_and_field() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let next_year = chrono::Utc::now().year() + 1;

    let car = json!({
        "brandId": cat.lada, "name": "Granta", "slug": "lada-granta-new", "model": "Granta",
        "year": 2025, "price": "1 150 000", "status": "new", "bodyType": "sedan",
        "transmission": "manual", "drivetrain": "front", "fuelType": "gasoline",
        "engine": "1.6 л, 90 л.с."
    });
    let brand = json!({"name": "Chery", "slug": "chery"});
    let review = json!({"customerName": "Анна", "text": "Хорошо", "rating": 5});
    let promotion = json!({"title": "Акция", "description": "Описание"});
    let bank = json!({"name": "ВТБ", "logo": "/media/v-800.webp", "requirements": "Паспорт", "advantages": "Быстро"});
    let company = json!({"salonName": "Автомир", "phone": "+7 812 111-22-33", "address": "СПб"});

    let mut cases = Vec::new();
    // The car form: every required field, on create and on edit.
    let car_id: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT id FROM cars WHERE slug = 'lada-vesta-sw'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let car_put = format!("/api/cars/{car_id}");
    let existing = with(
        &car,
        json!({"slug": "lada-vesta-sw", "brandId": cat.lada}),
        &[],
    );
    for (field, message) in [
        ("price", "Цена обязательна"),
        ("brandId", "Марка обязательна"),
        ("name", "Название обязательно"),
        ("model", "Модель обязательна"),
        ("slug", "Slug обязателен"),
        ("engine", "Двигатель обязателен"),
        ("bodyType", "Тип кузова обязателен"),
        ("transmission", "Коробка передач обязательна"),
        ("fuelType", "Тип топлива обязателен"),
        ("status", "Состояние обязательно"),
        ("year", "Год обязателен"),
    ] {
        required(&mut cases, Method::POST, "/api/cars", &car, field, message);
        required(&mut cases, Method::PUT, &car_put, &existing, field, message);
    }
    let car_rules: Vec<(Value, &str, String)> = vec![
        (
            json!({"price": "0", "published": true}),
            "price",
            "Укажите цену: автомобиль за 0 ₽ не публикуется".into(),
        ),
        (
            json!({"price": "сто тысяч"}),
            "price",
            "Цена должна быть числом".into(),
        ),
        (
            json!({"price": true}),
            "price",
            "Цена должна быть числом".into(),
        ),
        (
            json!({"year": 1989}),
            "year",
            format!("Год должен быть от 1990 до {next_year}"),
        ),
        (
            json!({"year": next_year + 1}),
            "year",
            format!("Год должен быть от 1990 до {next_year}"),
        ),
        (
            json!({"year": "двадцатый"}),
            "year",
            "Год должен быть числом".into(),
        ),
        (
            json!({"year": 2020.5}),
            "year",
            "Год должен быть числом".into(),
        ),
        (
            json!({"status": "broken"}),
            "status",
            "Выберите состояние: новый, с пробегом или аренда".into(),
        ),
        (
            json!({"bodyType": "boat"}),
            "bodyType",
            "Выберите тип кузова из списка".into(),
        ),
        (
            json!({"transmission": 1}),
            "transmission",
            "Выберите коробку передач из списка".into(),
        ),
        (
            json!({"drivetrain": "4wd"}),
            "drivetrain",
            "Выберите привод из списка".into(),
        ),
        (
            json!({"fuelType": "coal"}),
            "fuelType",
            "Выберите тип топлива из списка".into(),
        ),
        (
            json!({"mileage": "много"}),
            "mileage",
            "Пробег должен быть целым числом".into(),
        ),
        (
            json!({"mileage": -5}),
            "mileage",
            "Пробег не может быть отрицательным".into(),
        ),
        (
            json!({"monthlyPayment": "abc"}),
            "monthlyPayment",
            "Ежемесячный платёж должен быть числом".into(),
        ),
        (
            json!({"dailyPrice": [1]}),
            "dailyPrice",
            "Цена за сутки должна быть числом".into(),
        ),
        (
            json!({"images": (1..=7).map(|i| format!("/media/{i}-800.webp")).collect::<Vec<_>>()}),
            "images",
            "Максимум 6 изображений".into(),
        ),
        (
            json!({"images": (1..=7).map(|i| format!("/media/{i}-800.webp")).collect::<Vec<_>>().join("\n")}),
            "images",
            "Максимум 6 изображений".into(),
        ),
        (
            json!({"images": [1, 2]}),
            "images",
            "Изображения: список адресов, по одному в строке".into(),
        ),
        (
            json!({"trimLevels": "Comfort"}),
            "trimLevels",
            "Комплектации: список с названием, описанием и ссылкой".into(),
        ),
        (
            json!({"inStock": "может быть"}),
            "inStock",
            "Значение должно быть «да» или «нет»".into(),
        ),
        (
            json!({"slug": "Гранта!"}),
            "slug",
            "Slug может содержать только латинские буквы, цифры и дефисы".into(),
        ),
    ];
    for (change, field, message) in car_rules {
        cases.push(refused(
            format!("car {change}"),
            Method::POST,
            "/api/cars",
            with(&car, change, &[]),
            message,
            field,
        ));
    }

    // Bulk price change: a number greater than 0.
    for value in [
        json!(0),
        json!(-1.05),
        json!("0"),
        json!("abc"),
        json!(""),
        json!(null),
        json!(true),
    ] {
        cases.push(refused(
            format!("bulk {value}"),
            Method::PUT,
            "/api/cars/prices/bulk",
            json!({ "priceMultiplier": value }),
            "Введите корректный процент",
            "priceMultiplier",
        ));
    }
    cases.push(refused(
        "bulk missing",
        Method::PUT,
        "/api/cars/prices/bulk",
        json!({}),
        "Введите корректный процент",
        "priceMultiplier",
    ));

    // Brands.
    required(
        &mut cases,
        Method::POST,
        "/api/brands",
        &brand,
        "name",
        "Название марки обязательно",
    );
    required(
        &mut cases,
        Method::POST,
        "/api/brands",
        &brand,
        "slug",
        "Slug обязателен",
    );
    let brand_put = format!("/api/brands/{}", cat.empty_brand);
    required(
        &mut cases,
        Method::PUT,
        &brand_put,
        &brand,
        "name",
        "Название марки обязательно",
    );

    // Reviews.
    required(
        &mut cases,
        Method::POST,
        "/api/reviews",
        &review,
        "customerName",
        "Имя клиента обязательно",
    );
    required(
        &mut cases,
        Method::POST,
        "/api/reviews",
        &review,
        "text",
        "Текст отзыва обязателен",
    );
    for rating in [json!(0), json!(6), json!("пять"), json!(4.5), json!(null)] {
        cases.push(refused(
            format!("review rating {rating}"),
            Method::POST,
            "/api/reviews",
            with(&review, json!({ "rating": rating }), &[]),
            "Оценка должна быть от 1 до 5",
            "rating",
        ));
    }

    // Promotions.
    required(
        &mut cases,
        Method::POST,
        "/api/promotions",
        &promotion,
        "title",
        "Название акции обязательно",
    );
    required(
        &mut cases,
        Method::POST,
        "/api/promotions",
        &promotion,
        "description",
        "Описание акции обязательно",
    );

    // Partner banks, on create and on edit.
    let bank_id: String = app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM partner_banks LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let bank_put = format!("/api/partner-banks/{bank_id}");
    for (field, message) in [
        ("name", "Название банка обязательно"),
        ("logo", "Логотип обязателен"),
        ("requirements", "Требования обязательны"),
        ("advantages", "Преимущества обязательны"),
    ] {
        required(
            &mut cases,
            Method::POST,
            "/api/partner-banks",
            &bank,
            field,
            message,
        );
        required(&mut cases, Method::PUT, &bank_put, &bank, field, message);
    }
    cases.push(refused(
        "bank toggle",
        Method::PUT,
        &bank_put,
        json!({"active": "нет"}),
        "Значение должно быть «да» или «нет»",
        "active",
    ));

    // Settings: the company form's required fields, and e-mails.
    for (field, message) in [
        ("salonName", "Название салона обязательно"),
        ("phone", "Телефон обязателен"),
        ("address", "Адрес обязателен"),
    ] {
        required(
            &mut cases,
            Method::POST,
            "/api/settings",
            &company,
            field,
            message,
        );
        cases.push(refused(
            format!("settings PUT {field} empty"),
            Method::PUT,
            "/api/settings",
            json!({ field: "" }),
            message,
            field,
        ));
    }
    for field in ["email", "notificationEmail", "fromEmail"] {
        for value in [json!("не почта"), json!("a@b"), json!(5)] {
            cases.push(refused(
                format!("settings {field} {value}"),
                Method::PUT,
                "/api/settings",
                json!({ field: value }),
                "Неверный формат email",
                field,
            ));
        }
    }
    cases.push(refused(
        "settings email empty",
        Method::POST,
        "/api/settings",
        with(&company, json!({"email": ""}), &[]),
        "Неверный формат email",
        "email",
    ));
    cases.push(refused(
        "settings switch",
        Method::PUT,
        "/api/settings",
        json!({"emailNotificationsEnabled": "да"}),
        "Значение должно быть «да» или «нет»",
        "emailNotificationsEnabled",
    ));

    // Body types.
    for field in ["labelPlural", "labelSingle"] {
        cases.push(refused(
            format!("body type {field}"),
            Method::PUT,
            "/api/body-types/sedan",
            json!({ field: " " }),
            "Название обязательно",
            field,
        ));
    }

    // Lead status.
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "auto_credit", "name": "Иван", "phone": "89215551234", "consent": true}),
        )
        .await;
    let lead_status = format!("/api/leads/{}/status", lead.json()["id"].as_str().unwrap());
    for (body, message) in [
        (json!({}), "Выберите статус заявки"),
        (json!({"status": ""}), "Выберите статус заявки"),
        (json!({"status": "done"}), "Неизвестный статус заявки"),
        (json!({"status": 3}), "Неизвестный статус заявки"),
    ] {
        cases.push(refused(
            format!("lead status {body}"),
            Method::PUT,
            &lead_status,
            body,
            message,
            "status",
        ));
    }

    // Unknown fields are named; a body that is not JSON is a 400.
    cases.push(Case {
        what: "unknown settings field".into(),
        method: Method::PUT,
        path: "/api/settings".into(),
        body: json!({"salonColour": "red"}),
        status: StatusCode::UNPROCESSABLE_ENTITY,
        error: "Неизвестное поле «salonColour»".into(),
        field: None,
    });
    cases.push(Case {
        what: "an array".into(),
        method: Method::POST,
        path: "/api/cars".into(),
        body: json!([1, 2]),
        status: StatusCode::BAD_REQUEST,
        error: "Неверные данные".into(),
        field: None,
    });

    let before = app.count("SELECT count(*) FROM audit_log");
    for case in &cases {
        let answer = app
            .admin_with(
                &cookie,
                case.method.clone(),
                &case.path,
                Some(case.body.clone()),
            )
            .await;
        assert_eq!(
            answer.status,
            case.status,
            "{}: {}",
            case.what,
            answer.text()
        );
        let json = answer.json();
        assert_eq!(json["error"], case.error, "{}", case.what);
        assert_eq!(json["field"], json!(case.field), "{}", case.what);
    }
    assert!(cases.len() > 200, "{} cases", cases.len());
    // Nothing was written.
    assert_eq!(app.count("SELECT count(*) FROM audit_log"), before);

    // Broken JSON is 400 'Неверные данные', not the parser's words.
    for path in ["/api/cars", "/api/brands", "/api/settings"] {
        let request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::COOKIE, &cookie)
            .header(header::ORIGIN, "http://localhost:8080")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from("{\"price\": "))
            .unwrap();
        let answer = app.send(request).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(answer.json(), json!({"error": "Неверные данные"}), "{path}");
    }
}

#[tokio::test]
async fn lenient_values_are_read_as_people_type_them() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let body = json!({
        "brandId": cat.lada, "name": "Granta", "slug": "lada-granta-lenient", "model": "Granta",
        "year": "2024", "price": " 1 150 000 ", "monthlyPayment": "", "dailyPrice": null,
        "status": "used", "bodyType": "sedan", "transmission": "manual", "drivetrain": "front",
        "fuelType": "gasoline", "engine": "1.6 л", "mileage": "45 000",
        "images": "/media/a-800.webp\n\n  /media/b-800.webp  \n", "inStock": "false"
    });
    let answer = app
        .admin_with(&cookie, Method::POST, "/api/cars", Some(body))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let car = answer.json();
    assert_eq!(car["year"], 2024);
    assert_eq!(car["price"], "1150000.00");
    assert_eq!(car["monthlyPayment"], Value::Null);
    assert_eq!(car["mileage"], 45_000);
    assert_eq!(
        car["images"],
        json!(["/media/a-800.webp", "/media/b-800.webp"])
    );
    assert_eq!(car["inStock"], false);
    // A review's rating defaults to 5; an empty mileage is 0.
    let review = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/reviews",
            Some(json!({"customerName": "Анна", "text": "Хорошо"})),
        )
        .await;
    assert_eq!(review.status, StatusCode::CREATED);
    assert_eq!(review.json()["rating"], 5);
    // The notification addresses may be empty.
    let settings = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"notificationEmail": "", "fromEmail": "", "emailNotificationsEnabled": false})),
        )
        .await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text());
}

#[tokio::test]
async fn login_names_the_missing_field() {
    let app = TestApp::new();
    app.create_admin();
    for (body, field) in [
        (json!({"login": "", "password": "x"}), "login"),
        (json!({"password": "x"}), "login"),
        (json!({"login": "manager", "password": ""}), "password"),
        (json!({"login": "manager"}), "password"),
        (json!({"login": 5, "password": "x"}), "login"),
    ] {
        let answer = app.post_json("/api/admin/login", &body).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer.error(), "Введите логин и пароль", "{body}");
        assert_eq!(answer.json()["field"], field, "{body}");
    }
}

#[tokio::test]
async fn the_consent_version_follows_both_legal_texts() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let put = |body: Value| {
        let cookie = cookie.clone();
        let app = &app;
        async move {
            let answer = app
                .admin_with(&cookie, Method::PUT, "/api/settings", Some(body))
                .await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
            answer.json()["consentVersion"].as_i64().unwrap()
        }
    };
    // Before any save the defaults are version 1; saving them keeps it.
    assert_eq!(put(json!({"heroTitle": "Новые автомобили"})).await, 1);
    assert_eq!(put(json!({"consentText": "Согласие, редакция 2"})).await, 2);
    assert_eq!(put(json!({"consentText": "Согласие, редакция 2"})).await, 2);
    assert_eq!(
        put(json!({"privacyPolicy": "Политика, редакция 2"})).await,
        3
    );
    assert_eq!(put(json!({"salonName": "Автомир"})).await, 3);
    // A lead records the version it agreed to.
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "auto_credit", "name": "Иван", "phone": "89215551234", "consent": true}),
        )
        .await;
    assert_eq!(lead.json()["consentVersion"], 3);
    // The change is in the audit trail.
    let entry = app
        .admin_with(&cookie, Method::GET, "/api/admin/audit?limit=3", None)
        .await
        .json();
    let changes = &entry["items"][1]["changes"];
    assert!(
        changes
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["field"] == "consentVersion" && c["from"] == "2" && c["to"] == "3"),
        "{changes}"
    );
}

/// A car at 0 ₽ may wait as a draft; published, it is refused.
#[tokio::test]
async fn a_draft_may_wait_for_its_price() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let car = json!({
        "brandId": cat.lada, "name": "Granta", "slug": "lada-granta-draft", "model": "Granta",
        "year": 2025, "price": "0", "status": "new", "bodyType": "sedan",
        "transmission": "manual", "fuelType": "gasoline", "engine": "1.6 л, 90 л.с.",
        "published": false
    });
    let draft = app
        .admin_with(&cookie, Method::POST, "/api/cars", Some(car.clone()))
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text());
    let id = draft.json()["id"].as_str().unwrap().to_string();
    let publish = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/cars/{id}"),
            Some(with(&car, json!({"published": true}), &[])),
        )
        .await;
    assert_eq!(publish.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(publish.json()["field"], "price");
    assert_eq!(
        publish.error(),
        "Укажите цену: автомобиль за 0 ₽ не публикуется"
    );
}
