//! One truth per fact (`docs/admin.md`, "One source per fact"): the
//! operator's requisites, the working hours and what an erasure removed are
//! each read from one source, and every page, text and act that shows them
//! says the same.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use chrono::{Datelike, NaiveDate, Weekday};
use common::time::{msk, set_clock};
use common::{TestApp, needs_the_server_build, seed_catalogue, visible_text as visible};
use serde_json::{Value, json};

/// The footer's visible text, as the server drew it.
fn footer(html: &str) -> String {
    let start = html
        .find("<footer class=\"site-footer")
        .expect("the site footer");
    let end = html[start..].find("</footer>").unwrap() + start;
    visible(&html[start..end])
}

fn car_id(app: &TestApp, slug: &str) -> String {
    app.db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM cars WHERE slug = ?1", [slug], |r| r.get(0))
        .unwrap()
}

async fn save(app: &TestApp, cookie: &str, body: Value) -> common::Answer {
    app.admin_with(cookie, Method::PUT, "/api/settings", Some(body))
        .await
}

#[tokio::test]
async fn the_footer_the_policy_and_the_consent_name_one_operator() {
    needs_the_server_build();
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let saved = save(
        &app,
        &cookie,
        json!({"operatorName": "ПАО «Сбербанк»", "operatorInn": "7707083893",
               "operatorOgrn": "1027700132195",
               "operatorAddress": "117312, Москва, ул. Вавилова, д. 19"}),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    // The settings hold no second text of the requisites, and refuse one.
    let public = app.get("/api/settings").await.json();
    assert_eq!(public["operatorInn"], "7707083893");
    assert!(public.get("legalEntity").is_none(), "{public}");
    let second = save(
        &app,
        &cookie,
        json!({"legalEntity": "ООО «Другое», ИНН 7810453273"}),
    )
    .await;
    assert_eq!(second.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(second.error(), "Неизвестное поле «legalEntity»");

    let line =
        "ПАО «Сбербанк», ИНН 7707083893, ОГРН 1027700132195, 117312, Москва, ул. Вавилова, д. 19";
    for path in ["/", "/privacy", "/consent", "/new-cars"] {
        let page = app.get(path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        let html = page.text();
        let footer = footer(&html);
        assert!(footer.contains(line), "{path}: {footer}");
        assert!(!footer.contains("7810453273"), "{path}: {footer}");
        if path != "/" && path != "/new-cars" {
            let text = visible(&html);
            assert!(
                text.contains("ИНН 7707083893"),
                "{path}: the text names it too"
            );
        }
    }
}

#[tokio::test]
async fn the_hours_shown_are_the_schedule_and_test_drives_keep_within_it() {
    needs_the_server_build();
    let mut clock = None;
    let app = TestApp::with_state(|state| clock = Some(state.clock.clone()));
    let clock = clock.unwrap();
    // Wednesday 25 November 2026, noon in Moscow.
    let wednesday = NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
    set_clock(&clock, msk(wednesday, 12, 0));
    seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    let day = |open: &str, close: &str| json!({"open": open, "close": close});
    let week = json!({"days": [
        day("09:00", "21:00"), day("09:00", "21:00"), day("09:00", "21:00"),
        day("09:00", "21:00"), day("09:00", "21:00"), day("10:00", "20:00"),
        day("10:00", "19:00"),
    ]});
    let saved = save(&app, &cookie, json!({"workSchedule": week})).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let hours = "Пн–Пт: 09:00–21:00\nСб: 10:00–20:00\nВс: 10:00–19:00";
    assert_eq!(saved.json()["workingHours"], hours);
    assert_eq!(app.get("/api/settings").await.json()["workingHours"], hours);
    let footer = footer(&app.get("/").await.text());
    assert!(
        footer.contains("Пн–Пт: 09:00–21:00 Сб: 10:00–20:00 Вс: 10:00–19:00"),
        "{footer}"
    );

    // The text cannot be set apart from the schedule; sent back as loaded, it is kept.
    let apart = save(&app, &cookie, json!({"workingHours": "Вс: 10:00–22:00"})).await;
    assert_eq!(apart.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(apart.json()["field"], "workingHours");
    assert_eq!(
        apart.error(),
        "Часы работы составляются из графика работы: измените «График работы»"
    );
    let same = save(&app, &cookie, json!({"workingHours": hours})).await;
    assert_eq!(same.status, StatusCode::OK, "{}", same.text());

    // A test drive on Sunday at 20:30 is outside the hours: refused at its field.
    let mut sunday = wednesday;
    while sunday.weekday() != Weekday::Sun {
        sunday = sunday.succ_opt().unwrap();
    }
    let car = car_id(&app, "haval-jolion-1");
    let booking = |time: &str| {
        json!({"type": "test_drive", "name": "Павел Соколов", "phone": "+7 921 440-27-63",
               "consent": true, "carId": car, "carInfo": "Haval Jolion",
               "preferredDate": sunday.format("%Y-%m-%d").to_string(), "preferredTime": time})
    };
    let late = app.post_json("/api/leads", &booking("20:30")).await;
    assert_eq!(
        late.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        late.text()
    );
    assert_eq!(late.json()["field"], "preferredTime");
    assert_eq!(late.error(), "Выберите время с 10:00 до 18:30");
    let within = app.post_json("/api/leads", &booking("18:30")).await;
    assert_eq!(within.status, StatusCode::CREATED, "{}", within.text());
}

#[tokio::test]
async fn a_destruction_act_lists_only_what_the_lead_held() {
    let app = TestApp::new();
    seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    // A name, a phone, a car and the page it was sent from: no e-mail, no
    // income, no credit amount, no analytics id.
    let lead = app
        .post_json_from(
            "/api/leads",
            &json!({"type": "contact_form", "name": "Анна Стёртая", "phone": "+7 921 555-00-11",
                    "consent": true, "carId": car_id(&app, "haval-jolion-1"), "carInfo": "Haval Jolion",
                    "sourceUrl": "https://nevsky-avto.ru/car/haval-jolion-1"}),
            "203.0.113.7:5000",
        )
        .await;
    assert_eq!(lead.status, StatusCode::CREATED, "{}", lead.text());
    let erased = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/personal-data/erase",
            Some(json!({"phone": "+79215550011"})),
        )
        .await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text());
    let acts = app
        .admin_with(&cookie, Method::GET, "/api/admin/personal-data/acts", None)
        .await
        .json();
    assert_eq!(
        acts[0]["categories"],
        json!([
            "фамилия, имя, отчество",
            "номер телефона",
            "адрес страницы обращения",
            "IP-адрес при даче согласия"
        ]),
        "{acts}"
    );
}
