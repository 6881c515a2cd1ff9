//! Test-drive requests and the calculator's credit request (docs/leads.md):
//! accepted within the working hours, every refusal in Russian, the admin
//! filter, and a test drive end to end to a real SMTP server.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::Arc;
use std::time::{Duration as StdDuration, Instant};

use axum::http::{Method, StatusCode};
use chrono::{Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};
use common::smtp::SmtpSink;
use common::{TestApp, seed_catalogue};
use dealership::clock::{Clock, moscow};
use dealership::http::AppState;
use serde_json::{Value, json};

/// Moves `clock` so that it is `time` (Moscow) on the day after today.
fn set_tomorrow_at(clock: &Clock, time: NaiveTime) -> NaiveDate {
    let date = clock.moscow_today() + Duration::days(1);
    let target = moscow()
        .from_local_datetime(&date.and_time(time))
        .unwrap()
        .with_timezone(&Utc);
    clock.advance(target - clock.now());
    assert_eq!(clock.moscow_today(), date);
    date
}

fn text(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// The next date after `from` falling on `weekday`.
fn next(from: NaiveDate, weekday: Weekday) -> NaiveDate {
    let mut d = from + Duration::days(1);
    while d.weekday() != weekday {
        d += Duration::days(1);
    }
    d
}

fn car_id(app: &TestApp, slug: &str) -> String {
    app.db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM cars WHERE slug = ?1", [slug], |r| r.get(0))
        .unwrap()
}

fn test_drive(car: &str, date: &str, time: &str) -> Value {
    json!({
        "type": "test_drive",
        "name": "Павел Соколов",
        "phone": "+7 921 440-27-63",
        "consent": true,
        "carId": car,
        "carInfo": "Haval Jolion",
        "preferredDate": date,
        "preferredTime": time,
    })
}

#[tokio::test]
async fn test_drives_fit_the_working_hours_or_are_refused_in_russian() {
    let mut clock = None;
    let app = TestApp::with_state(|state| clock = Some(state.clock.clone()));
    let clock = clock.unwrap();
    seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    // Saturdays 10:00–18:00, Sundays closed.
    let day = |open: &str, close: &str| json!({"open": open, "close": close});
    let schedule = json!({"days": [
        day("09:00", "21:00"), day("09:00", "21:00"), day("09:00", "21:00"),
        day("09:00", "21:00"), day("09:00", "21:00"), day("10:00", "18:00"), null,
    ]});
    let saved = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"workSchedule": schedule})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());

    let today = set_tomorrow_at(&clock, NaiveTime::from_hms_opt(12, 0, 0).unwrap());
    let car = car_id(&app, "haval-jolion-1");
    let weekday = |from: NaiveDate| {
        let mut d = from;
        while matches!(d.weekday(), Weekday::Sat | Weekday::Sun) {
            d += Duration::days(1);
        }
        d
    };
    let workday = weekday(today + Duration::days(1));
    let saturday = next(today, Weekday::Sat);
    let sunday = next(today, Weekday::Sun);

    // Accepted: a weekday slot, the last one of a Saturday, later today when open.
    let accepted = app
        .post_json("/api/leads", &test_drive(&car, &text(workday), "09:30"))
        .await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.text());
    let lead = accepted.json();
    assert_eq!(lead["type"], "test_drive");
    assert_eq!(lead["preferredDate"], text(workday));
    assert_eq!(lead["preferredTime"], "09:30");
    assert_eq!(lead["carId"], car);
    assert_eq!(lead["termMonths"], Value::Null);
    let mut more = vec![(saturday, "17:30")];
    let last_day = today + Duration::days(60);
    if last_day.weekday() != Weekday::Sun {
        more.push((last_day, "10:00"));
    }
    for (date, time) in more {
        let answer = app
            .post_json("/api/leads", &test_drive(&car, &text(date), time))
            .await;
        assert_eq!(
            answer.status,
            StatusCode::CREATED,
            "{date} {time}: {}",
            answer.text()
        );
    }
    if !matches!(today.weekday(), Weekday::Sun) {
        let answer = app
            .post_json("/api/leads", &test_drive(&car, &text(today), "17:00"))
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    }

    // Every refusal, with its field.
    let hours = "Выберите время с 09:00 до 20:30";
    let mut no_car = test_drive(&car, &text(workday), "10:00");
    no_car.as_object_mut().unwrap().remove("carId");
    let mut no_date = test_drive(&car, &text(workday), "10:00");
    no_date.as_object_mut().unwrap().remove("preferredDate");
    let mut no_time = test_drive(&car, &text(workday), "10:00");
    no_time.as_object_mut().unwrap().remove("preferredTime");
    let refusals = [
        (no_car, "carId", "Выберите автомобиль".to_string()),
        (no_date, "preferredDate", "Выберите дату тест-драйва".into()),
        (
            test_drive(&car, "завтра", "10:00"),
            "preferredDate",
            "Выберите дату тест-драйва".into(),
        ),
        (
            test_drive(&car, &text(today - Duration::days(1)), "10:00"),
            "preferredDate",
            "Дата тест-драйва уже прошла".into(),
        ),
        (
            test_drive(&car, &text(today + Duration::days(61)), "10:00"),
            "preferredDate",
            "Запись возможна не более чем на 60 дней вперёд".into(),
        ),
        (
            test_drive(&car, &text(sunday), "12:00"),
            "preferredDate",
            "В этот день салон не работает".into(),
        ),
        (no_time, "preferredTime", hours.into()),
        (
            test_drive(&car, &text(workday), "08:30"),
            "preferredTime",
            hours.into(),
        ),
        (
            test_drive(&car, &text(workday), "20:45"),
            "preferredTime",
            hours.into(),
        ),
        (
            test_drive(&car, &text(workday), "21:00"),
            "preferredTime",
            hours.into(),
        ),
        (
            test_drive(&car, &text(workday), "10:15"),
            "preferredTime",
            hours.into(),
        ),
        (
            test_drive(&car, &text(saturday), "18:00"),
            "preferredTime",
            "Выберите время с 10:00 до 17:30".into(),
        ),
    ];
    let stored = app.count("SELECT count(*) FROM leads");
    for (body, field, message) in refusals {
        let answer = app.post_json("/api/leads", &body).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer.json()["field"], field, "{body}");
        assert_eq!(answer.error(), message, "{body}");
    }
    // Today's slots already begun (it is 12:00 now), on an open day.
    if !matches!(today.weekday(), Weekday::Sun) {
        for time in ["11:30", "12:00"] {
            let answer = app
                .post_json("/api/leads", &test_drive(&car, &text(today), time))
                .await;
            assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{time}");
            assert_eq!(answer.json()["field"], "preferredTime");
            assert_eq!(answer.error(), "Это время уже прошло");
        }
    }
    // The usual rules come first: consent.
    let mut no_consent = test_drive(&car, &text(workday), "10:00");
    no_consent["consent"] = json!(false);
    let answer = app.post_json("/api/leads", &no_consent).await;
    assert_eq!(answer.json()["field"], "consent");
    assert_eq!(app.count("SELECT count(*) FROM leads"), stored);

    // Other types ignore the test-drive fields.
    let other = app
        .post_json(
            "/api/leads",
            &json!({"type": "trade_in", "name": "Иван", "phone": "89215551234", "consent": true,
                    "preferredDate": "завтра", "preferredTime": "когда-нибудь"}),
        )
        .await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.text());
    assert_eq!(other.json()["preferredDate"], Value::Null);

    // The admin list filters by the type.
    let list = app
        .admin_with(&cookie, Method::GET, "/api/leads?type=test_drive", None)
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
    let list = list.json();
    let items = list.as_array().unwrap();
    assert!(items.len() >= 2);
    assert!(items.iter().all(|l| l["type"] == "test_drive"));
    let all = app
        .admin_with(&cookie, Method::GET, "/api/leads", None)
        .await
        .json();
    assert_eq!(all.as_array().unwrap().len(), items.len() + 1);
}

#[tokio::test]
async fn a_credit_request_carries_the_calculators_term_and_down_payment() {
    let app = TestApp::new();
    let body = |extra: Value| {
        let mut b = json!({"type": "auto_credit", "name": "Анна", "phone": "89115553322",
                           "consent": true, "desiredAmount": "1800000"});
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    let answer = app
        .post_json(
            "/api/leads",
            &body(json!({"termMonths": 60, "downPayment": "500000.50"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let lead = answer.json();
    assert_eq!(lead["termMonths"], 60);
    assert_eq!(lead["downPayment"], "500000.50");
    assert_eq!(lead["desiredAmount"], "1800000.00");
    assert_eq!(lead["preferredDate"], Value::Null);
    // Optional.
    let answer = app.post_json("/api/leads", &body(json!({}))).await;
    assert_eq!(answer.status, StatusCode::CREATED);
    assert_eq!(answer.json()["termMonths"], Value::Null);
    for (extra, field, message) in [
        (
            json!({"termMonths": 0}),
            "termMonths",
            "Срок кредита: от 1 до 360 месяцев",
        ),
        (
            json!({"termMonths": 361}),
            "termMonths",
            "Срок кредита: от 1 до 360 месяцев",
        ),
        (
            json!({"downPayment": "10000000000"}),
            "downPayment",
            "Сумма слишком большая",
        ),
    ] {
        let answer = app.post_json("/api/leads", &body(extra.clone())).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{extra}");
        assert_eq!(answer.json()["field"], field);
        assert_eq!(answer.error(), message);
    }
    let answer = app
        .post_json("/api/leads", &body(json!({"downPayment": "9999999999.99"})))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_test_drive_reaches_the_mailbox_with_its_day_and_time() {
    let sink_dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let sink = SmtpSink::start(port, sink_dir.path());
    let mut captured = None;
    let app = TestApp::with_state(|state| {
        let mut config = (*state.config).clone();
        config.smtp.host = "127.0.0.1".into();
        config.smtp.port = sink.port;
        config.smtp.security = "none".into();
        state.config = Arc::new(config);
        state.channels = Arc::new(dealership::notify::Channels::new(
            state.config.clone(),
            state.db.clone(),
        ));
        captured = Some(state.clone());
    });
    let state: AppState = captured.unwrap();
    let jobs = dealership::server::start_jobs(&state);
    {
        let conn = app.db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.notification_email = "sales@salon.example".into();
        settings.from_email = "robot@salon.example".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    }
    seed_catalogue(&app);
    let car = car_id(&app, "haval-jolion-1");
    // A Monday ahead: open 09:00–21:00 by default.
    let monday = next(state.clock.moscow_today(), Weekday::Mon);
    let answer = app
        .post_json("/api/leads", &test_drive(&car, &text(monday), "14:30"))
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());

    let deadline = Instant::now() + StdDuration::from_secs(10);
    let mail = loop {
        if let Some(mail) = sink.messages().into_iter().next() {
            break mail;
        }
        assert!(Instant::now() < deadline, "timed out waiting for the mail");
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    };
    assert_eq!(mail["subject"], "Новая заявка: Тест-драйв — Павел Соколов");
    let body = mail["text"].as_str().unwrap().replace("\r\n", "\n");
    let date = format!("{} (понедельник)", monday.format("%d.%m.%Y"));
    for expected in [
        "Тип заявки: Тест-драйв".to_string(),
        format!("Дата тест-драйва: {date}"),
        "Время тест-драйва: 14:30 (МСК)".into(),
        "Автомобиль: Haval Jolion (http://localhost:8080/car/haval-jolion-1)".into(),
        "Телефон: +79214402763".into(),
    ] {
        assert!(body.contains(&expected), "{expected:?} not in {body}");
    }
    let html = mail["html"].as_str().unwrap();
    assert!(html.contains("Время тест-драйва"), "{html}");
    assert!(html.contains(&date));
    assert!(jobs.stop(StdDuration::from_secs(5)).await);
}
