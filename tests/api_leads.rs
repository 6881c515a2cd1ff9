//! POST /api/leads: every type, every rule, abuse handling.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::StatusCode;
use common::{TestApp, seed_catalogue};
use serde_json::{Value, json};

const PHONE_RULE: &str = "Номер телефона должен начинаться с +7 или 8 и содержать 11 цифр";

fn lead(kind: &str) -> Value {
    json!({
        "type": kind,
        "name": "Иван Петров",
        "phone": "+7 (921) 555-12-34",
        "sourceUrl": "https://auto.example.ru/car/haval-jolion-0",
        "consent": true
    })
}

fn with(mut base: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

#[tokio::test]
async fn every_type_is_stored_as_new() {
    let app = TestApp::new();
    for kind in [
        "auto_credit",
        "trade_in",
        "auto_selection",
        "lease_booking",
        "contact_form",
    ] {
        let answer = app.post_json("/api/leads", &lead(kind)).await;
        assert_eq!(
            answer.status,
            StatusCode::CREATED,
            "{kind}: {}",
            answer.text()
        );
        let stored = answer.json();
        assert_eq!(stored["type"], kind);
        assert_eq!(stored["status"], "new");
        assert_eq!(stored["phone"], "+79215551234");
        assert_eq!(stored["name"], "Иван Петров");
        assert_eq!(
            stored["sourceUrl"],
            "https://auto.example.ru/car/haval-jolion-0"
        );
        assert_eq!(stored["consentVersion"], 1);
        assert_eq!(stored["consentIp"], "203.0.113.7");
        assert!(stored["consentAt"].as_str().unwrap().ends_with('Z'));
        let id = stored["id"].as_str().unwrap();
        let in_db = app.count(&format!(
            "SELECT count(*) FROM leads WHERE id = '{id}' AND status = 'new' AND phone = '+79215551234'"
        ));
        assert_eq!(in_db, 1, "{kind} not stored");
    }
    assert_eq!(app.count("SELECT count(*) FROM leads"), 5);
}

#[tokio::test]
async fn car_and_type_specific_fields_are_kept() {
    let app = TestApp::new();
    seed_catalogue(&app);
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
    let body = with(
        lead("trade_in"),
        json!({
            "carId": car_id,
            "carInfo": "Lada Vesta SW",
            "carPrice": "1 200 000 ₽",
            "carStatus": "new",
            "carBrand": "Kia",
            "carModel": "Rio",
            "carYear": 2017,
            "carMileage": 98000,
            "carCondition": "хорошее",
            "email": "ivan@example.ru",
            "message": "Хочу обменять",
            "advertisingConsent": true,
            "utmSource": "yandex",
            "utmMedium": "cpc",
            "utmCampaign": "spb-trade-in",
            "utmTerm": "трейд ин",
            "utmContent": "banner-1",
            "analyticsClientId": "1700000000123456789"
        }),
    );
    let stored = app.post_json("/api/leads", &body).await.json();
    assert_eq!(stored["carId"], car_id.as_str());
    assert_eq!(stored["carInfo"], "Lada Vesta SW");
    assert_eq!(stored["carPrice"], "1 200 000 ₽");
    assert_eq!(stored["carBrand"], "Kia");
    assert_eq!(stored["carYear"], 2017);
    assert_eq!(stored["carMileage"], 98000);
    assert_eq!(stored["email"], "ivan@example.ru");
    assert_eq!(stored["advertisingConsent"], true);
    assert_eq!(stored["utmSource"], "yandex");
    assert_eq!(stored["utmTerm"], "трейд ин");
    assert_eq!(stored["analyticsClientId"], "1700000000123456789");

    let selection = with(
        lead("auto_selection"),
        json!({"budget": "3000000", "bodyType": "crossover", "transmission": "automatic", "fuelTypes": "gasoline,hybrid", "preferredBrand": "Haval"}),
    );
    let stored = app.post_json("/api/leads", &selection).await.json();
    assert_eq!(stored["budget"], "3000000.00");
    assert_eq!(stored["fuelTypes"], "gasoline,hybrid");

    let credit = with(
        lead("auto_credit"),
        json!({"desiredAmount": 1500000.5, "monthlyIncome": "120000"}),
    );
    let stored = app.post_json("/api/leads", &credit).await.json();
    assert_eq!(stored["desiredAmount"], "1500000.50");
    assert_eq!(stored["monthlyIncome"], "120000.00");
    assert_eq!(
        app.count("SELECT desired_amount_kopecks FROM leads WHERE type = 'auto_credit'"),
        150_000_050
    );
}

#[tokio::test]
async fn a_deleted_car_does_not_lose_the_lead() {
    let app = TestApp::new();
    let body = with(
        lead("auto_credit"),
        json!({"carId": "gone", "carInfo": "Haval Jolion"}),
    );
    let answer = app.post_json("/api/leads", &body).await;
    assert_eq!(answer.status, StatusCode::CREATED);
    assert_eq!(answer.json()["carId"], Value::Null);
    assert_eq!(answer.json()["carInfo"], "Haval Jolion");
}

async fn refused(app: &TestApp, body: Value) -> (StatusCode, String, String) {
    let answer = app.post_json("/api/leads", &body).await;
    let json = answer.json();
    (
        answer.status,
        json["error"].as_str().unwrap_or_default().to_string(),
        json["field"].as_str().unwrap_or_default().to_string(),
    )
}

#[tokio::test]
async fn required_fields_have_each_forms_message() {
    let app = TestApp::new();
    let cases = [
        ("auto_credit", "Пожалуйста, заполните обязательные поля"),
        ("contact_form", "Пожалуйста, заполните обязательные поля"),
        ("trade_in", "Пожалуйста, заполните обязательные поля"),
        ("lease_booking", "Пожалуйста, заполните все поля"),
        (
            "auto_selection",
            "Пожалуйста, заполните все обязательные поля",
        ),
    ];
    for (kind, message) in cases {
        let no_name = with(lead(kind), json!({"name": "  "}));
        assert_eq!(
            refused(&app, no_name).await,
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                message.into(),
                "name".into()
            )
        );
        let mut no_phone = lead(kind);
        no_phone.as_object_mut().unwrap().remove("phone");
        assert_eq!(
            refused(&app, no_phone).await,
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                message.into(),
                "phone".into()
            )
        );
    }
    assert_eq!(app.count("SELECT count(*) FROM leads"), 0);
}

#[tokio::test]
async fn phone_rule_on_every_type() {
    let app = TestApp::new();
    for kind in [
        "auto_credit",
        "trade_in",
        "auto_selection",
        "lease_booking",
        "contact_form",
    ] {
        for phone in [
            "79215551234",
            "+7 921 555 12 3",
            "+1 921 555 12 34",
            "8-921-555-12-345",
            "телефон",
        ] {
            let (status, message, field) =
                refused(&app, with(lead(kind), json!({"phone": phone}))).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{kind} {phone}");
            assert_eq!(message, PHONE_RULE);
            assert_eq!(field, "phone");
        }
    }
    let ok = app
        .post_json(
            "/api/leads",
            &with(lead("trade_in"), json!({"phone": "8 921 555 12 34"})),
        )
        .await;
    assert_eq!(ok.json()["phone"], "+79215551234");
}

#[tokio::test]
async fn consent_is_required() {
    let app = TestApp::new();
    for consent in [json!(false), Value::Null] {
        let mut body = lead("auto_credit");
        if consent.is_null() {
            body.as_object_mut().unwrap().remove("consent");
        } else {
            body["consent"] = consent;
        }
        let (status, message, field) = refused(&app, body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            message,
            "Необходимо согласие на обработку персональных данных"
        );
        assert_eq!(field, "consent");
    }
}

#[tokio::test]
async fn types_emails_years_and_lengths() {
    let app = TestApp::new();
    let cases = [
        (json!({"type": "spam"}), "type", "Неизвестный тип заявки"),
        (json!({"type": ""}), "type", "Не указан тип заявки"),
        (json!({"email": "ivan@"}), "email", "Неверный формат email"),
        (
            json!({"carYear": 1800}),
            "carYear",
            "Год выпуска должен быть от 1950",
        ),
        (
            json!({"carYear": 1949}),
            "carYear",
            "Год выпуска должен быть от 1950",
        ),
        (
            json!({"carMileage": -5}),
            "carMileage",
            "Пробег указан неверно",
        ),
        (
            json!({"name": "я".repeat(256)}),
            "name",
            "не должно быть длиннее 255",
        ),
        (
            json!({"email": format!("{}@example.ru", "a".repeat(250))}),
            "email",
            "255",
        ),
        (json!({"carBrand": "б".repeat(101)}), "carBrand", "100"),
        (json!({"carModel": "б".repeat(101)}), "carModel", "100"),
        (
            json!({"carCondition": "б".repeat(51)}),
            "carCondition",
            "50",
        ),
        (json!({"bodyType": "б".repeat(51)}), "bodyType", "50"),
        (
            json!({"sourceUrl": format!("https://x.ru/{}", "a".repeat(490))}),
            "sourceUrl",
            "500",
        ),
        (json!({"carInfo": "б".repeat(256)}), "carInfo", "255"),
        (json!({"carPrice": "1".repeat(101)}), "carPrice", "100"),
        (json!({"carStatus": "б".repeat(51)}), "carStatus", "50"),
        (json!({"utmSource": "u".repeat(256)}), "utmSource", "255"),
        (
            json!({"budget": "99999999999"}),
            "budget",
            "Сумма слишком большая",
        ),
    ];
    for (extra, field, message) in cases {
        let (status, got_message, got_field) =
            refused(&app, with(lead("auto_credit"), extra.clone())).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{extra}");
        assert_eq!(got_field, field, "{extra}");
        assert!(got_message.contains(message), "{extra}: {got_message}");
    }
    // Exactly at the limits passes.
    let at_limit = with(
        lead("auto_credit"),
        json!({"name": "я".repeat(255), "carInfo": "x".repeat(255)}),
    );
    assert_eq!(
        app.post_json("/api/leads", &at_limit).await.status,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn the_server_owns_id_status_and_dates() {
    let app = TestApp::new();
    for field in ["id", "status", "createdAt", "updatedAt"] {
        let body = with(lead("auto_credit"), json!({ field: "x" }));
        let answer = app.post_json("/api/leads", &body).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert!(answer.error().contains(field), "{}", answer.error());
    }
    assert_eq!(app.count("SELECT count(*) FROM leads"), 0);
}

#[tokio::test]
async fn malformed_bodies() {
    let app = TestApp::new();
    let broken = app
        .post_raw(
            "/api/leads",
            Some("application/json"),
            b"{\"type\": ".to_vec(),
        )
        .await;
    assert_eq!(broken.status, StatusCode::BAD_REQUEST);
    assert_eq!(broken.error(), "Неверный JSON");

    let no_type = app
        .post_raw(
            "/api/leads",
            None,
            lead("auto_credit").to_string().into_bytes(),
        )
        .await;
    assert_eq!(no_type.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(no_type.error().contains("JSON"));

    let form = app
        .post_raw(
            "/api/leads",
            Some("application/x-www-form-urlencoded"),
            b"name=a".to_vec(),
        )
        .await;
    assert_eq!(form.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    let wrong_shape = app
        .post_raw("/api/leads", Some("application/json"), b"[1,2]".to_vec())
        .await;
    assert_eq!(wrong_shape.status, StatusCode::UNPROCESSABLE_ENTITY);

    let huge = with(
        lead("auto_credit"),
        json!({"message": "x".repeat(70 * 1024)}),
    );
    let too_large = app
        .post_raw(
            "/api/leads",
            Some("application/json"),
            huge.to_string().into_bytes(),
        )
        .await;
    assert_eq!(too_large.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(too_large.error(), "Слишком большой запрос");
    assert_eq!(app.count("SELECT count(*) FROM leads"), 0);
}

#[tokio::test]
async fn repeated_submissions_are_rate_limited_per_address() {
    let app = TestApp::with_config(|c| c.leads.rate_limit_per_minute = 3);
    for _ in 0..3 {
        let answer = app
            .post_json_from("/api/leads", &lead("auto_credit"), "198.51.100.1:1000")
            .await;
        assert_eq!(answer.status, StatusCode::CREATED);
    }
    let limited = app
        .post_json_from("/api/leads", &lead("auto_credit"), "198.51.100.1:1001")
        .await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        limited.error().starts_with("Слишком много заявок"),
        "{}",
        limited.error()
    );
    // Another address is not affected.
    let other = app
        .post_json_from("/api/leads", &lead("auto_credit"), "198.51.100.2:1000")
        .await;
    assert_eq!(other.status, StatusCode::CREATED);
    assert_eq!(app.count("SELECT count(*) FROM leads"), 4);
}

#[tokio::test]
async fn the_honeypot_accepts_silently_without_storing() {
    let app = TestApp::new();
    let bot = with(
        lead("auto_credit"),
        json!({"website": "http://spam.example"}),
    );
    let answer = app.post_json("/api/leads", &bot).await;
    assert_eq!(answer.status, StatusCode::CREATED);
    assert_eq!(answer.json()["status"], "new");
    assert_eq!(app.count("SELECT count(*) FROM leads"), 0);
    // An empty honeypot is a person.
    let person = with(lead("auto_credit"), json!({"website": ""}));
    assert_eq!(
        app.post_json("/api/leads", &person).await.status,
        StatusCode::CREATED
    );
    assert_eq!(app.count("SELECT count(*) FROM leads"), 1);
}

#[tokio::test]
async fn consent_version_follows_the_consent_text() {
    let app = TestApp::new();
    {
        let conn = app.db.conn().unwrap();
        let mut s = dealership::domain::settings::get(&conn).unwrap();
        dealership::domain::settings::save(&conn, &s).unwrap();
        s.consent_text = "Новый текст согласия".into();
        let saved = dealership::domain::settings::save(&conn, &s).unwrap();
        assert_eq!(saved.public.consent_version, 2);
    }
    let stored = app
        .post_json("/api/leads", &lead("auto_credit"))
        .await
        .json();
    assert_eq!(stored["consentVersion"], 2);
}

#[tokio::test]
async fn names_of_only_invisible_characters_count_as_empty() {
    let app = TestApp::new();
    let invisible = [
        "\u{200B}",                  // zero-width space
        "\u{FEFF}",                  // BOM
        "\u{2060}\u{2060}",          // word joiner
        "\u{200C}\u{200D}",          // zero-width non-joiner and joiner
        "\u{00A0}\u{00A0}",          // no-break spaces
        " \u{3000} ",                // spaces, ideographic space
        "\u{200B} \u{00A0}\u{FEFF}", // a mix
        "\u{2800}",                  // braille blank
        "\u{3164}",                  // Hangul filler
    ];
    for name in invisible {
        assert_eq!(
            refused(&app, with(lead("auto_credit"), json!({"name": name}))).await,
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "Пожалуйста, заполните обязательные поля".into(),
                "name".into()
            ),
            "{name:?}"
        );
    }
    assert_eq!(app.count("SELECT count(*) FROM leads"), 0);
    // Invisible characters around a real name are trimmed like spaces.
    let answer = app
        .post_json(
            "/api/leads",
            &with(
                lead("auto_credit"),
                json!({"name": "\u{200B}\u{FEFF}Иван Петров\u{2060}\u{00A0}"}),
            ),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    assert_eq!(answer.json()["name"], "Иван Петров");
}

#[tokio::test]
async fn control_characters_are_refused_in_every_field() {
    let app = TestApp::new();
    let fields = [
        "name",
        "phone",
        "email",
        "carBrand",
        "carModel",
        "carCondition",
        "preferredBrand",
        "bodyType",
        "transmission",
        "fuelTypes",
        "sourceUrl",
        "carId",
        "carInfo",
        "carPrice",
        "carStatus",
        "utmSource",
        "utmMedium",
        "utmCampaign",
        "utmTerm",
        "utmContent",
        "analyticsClientId",
    ];
    let controls = [
        "\r", "\n", "\r\n", "\0", "\t", "\u{7}", "\u{1b}", "\u{7f}", "\u{85}", "\u{9b}", "\u{2028}",
    ];
    for field in fields {
        for control in controls {
            // In the middle and at the end (where trimming would hide it).
            for value in [
                format!("Иван{control}Петров"),
                format!("+7 921 123 45 67{control}"),
            ] {
                let body = with(lead("auto_credit"), json!({ field: value }));
                let (status, message, got_field) = refused(&app, body).await;
                assert_eq!(
                    status,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "{field} {control:?}"
                );
                assert_eq!(got_field, field, "{control:?}");
                assert_eq!(
                    message,
                    format!(
                        "Поле {field} содержит недопустимые символы: переносы строк и управляющие символы не допускаются"
                    )
                );
            }
        }
    }
    assert_eq!(app.count("SELECT count(*) FROM leads"), 0);
}

#[tokio::test]
async fn a_message_keeps_its_line_breaks_and_nothing_else() {
    let app = TestApp::new();
    let text = "Здравствуйте!\nПерезвоните вечером.\r\nСпасибо";
    let answer = app
        .post_json(
            "/api/leads",
            &with(lead("contact_form"), json!({"message": text})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    assert_eq!(answer.json()["message"], text);
    for bad in ["a\rb", "a\0b", "a\tb", "a\u{1b}[31mb", "a\u{85}b", "a\r"] {
        assert_eq!(
            refused(&app, with(lead("contact_form"), json!({"message": bad}))).await,
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "Поле message содержит недопустимые управляющие символы: допускаются только переносы строк".into(),
                "message".into()
            ),
            "{bad:?}"
        );
    }
    assert_eq!(app.count("SELECT count(*) FROM leads"), 1);
}

#[tokio::test]
async fn every_commit_is_synced_to_disk() {
    // synchronous = FULL (2) on every pooled connection: an acknowledged
    // lead survives a power cut (docs/schema.md).
    let app = TestApp::new();
    for _ in 0..3 {
        let conn = app.db.conn().unwrap();
        let level: i64 = conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        assert_eq!(level, 2);
    }
}
