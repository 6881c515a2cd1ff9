//! Credit programmes (docs/credit.md): admin CRUD with every refusal, the
//! public list of the programmes valid today, an expired one gone at Moscow
//! midnight (from the API, the answer cache and the credit page), the
//! summary figures; the working schedule in the settings.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use chrono::{Duration, NaiveDate};
use common::{TestApp, seed_catalogue};
use dealership::clock::Clock;
use serde_json::{Value, json};

/// An app and the clock its handlers and answer cache read.
fn app_with_clock() -> (TestApp, Arc<Clock>) {
    let mut clock = None;
    let app = TestApp::with_state(|state| clock = Some(state.clock.clone()));
    (app, clock.unwrap())
}

fn bank_id(app: &TestApp, name: &str) -> String {
    app.db
        .conn()
        .unwrap()
        .query_row(
            "SELECT id FROM partner_banks WHERE name = ?1",
            [name],
            |r| r.get(0),
        )
        .unwrap()
}

fn day(date: NaiveDate, days: i64) -> String {
    (date + Duration::days(days)).format("%Y-%m-%d").to_string()
}

fn program(bank: &str, today: NaiveDate) -> Value {
    json!({
        "bankId": bank,
        "name": "Автокредит на новый автомобиль",
        "rateMin": 5.9,
        "rateMax": 19.9,
        "pskMin": 6.214,
        "pskMax": 24.6,
        "termMinMonths": 12,
        "termMaxMonths": 84,
        "minDownPaymentPercent": 10,
        "validFrom": day(today, -10),
        "validTo": day(today, 30),
        "conditions": "При страховании жизни; без него ставка выше на 5 п. п.",
        "active": true,
    })
}

fn with(base: &Value, changes: Value) -> Value {
    let mut body = base.clone();
    for (k, v) in changes.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

#[tokio::test]
async fn programmes_are_kept_with_every_refusal_named_and_audited() {
    let (app, clock) = app_with_clock();
    seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    let today = clock.moscow_today();
    let sber = bank_id(&app, "Сбербанк");
    let base = program(&sber, today);

    let created = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/credit-programs",
            Some(base.clone()),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let created = created.json();
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["bankName"], "Сбербанк");
    assert_eq!(created["bankLogo"], "/media/bank-800.webp");
    assert_eq!(created["rateMin"], 5.9);
    assert_eq!(created["pskMin"], 6.214);
    assert_eq!(created["termMaxMonths"], 84);
    assert_eq!(created["minDownPaymentPercent"], 10);
    assert_eq!(created["validTo"], day(today, 30));
    assert_eq!(created["expired"], false);
    assert_eq!(created["active"], true);

    // Numbers may come as text with a decimal comma; validTo may be empty.
    let lenient = with(
        &base,
        json!({"rateMin": "4,9", "termMinMonths": "6", "validTo": ""}),
    );
    let answer = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/credit-programs",
            Some(lenient),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    assert_eq!(answer.json()["rateMin"], 4.9);
    assert_eq!(answer.json()["validTo"], Value::Null);
    let second = answer.json()["id"].as_str().unwrap().to_string();

    let refusals = [
        (json!({"bankId": ""}), "bankId", "Выберите банк"),
        (json!({"bankId": "nope"}), "bankId", "Банк не найден"),
        (
            json!({"name": "  "}),
            "name",
            "Название программы обязательно",
        ),
        (
            json!({"rateMin": null}),
            "rateMin",
            "Укажите минимальную ставку",
        ),
        (
            json!({"rateMin": 0}),
            "rateMin",
            "Ставка должна быть больше 0 и меньше 100%",
        ),
        (
            json!({"rateMin": "много"}),
            "rateMin",
            "Ставка должна быть больше 0 и меньше 100%",
        ),
        (
            json!({"rateMax": 100}),
            "rateMax",
            "Ставка должна быть больше 0 и меньше 100%",
        ),
        (
            json!({"rateMin": 12, "rateMax": 11.9, "pskMin": 12.5}),
            "rateMax",
            "Максимальная ставка не может быть меньше минимальной",
        ),
        (
            json!({"pskMin": 120}),
            "pskMin",
            "ПСК должна быть больше 0 и меньше 100%",
        ),
        (
            json!({"pskMin": 5.8}),
            "pskMin",
            "ПСК не может быть меньше минимальной ставки",
        ),
        (
            json!({"pskMax": 6.2}),
            "pskMax",
            "Максимальная ПСК не может быть меньше минимальной",
        ),
        (
            json!({"termMinMonths": 0}),
            "termMinMonths",
            "Срок кредита: от 1 до 360 месяцев",
        ),
        (
            json!({"termMaxMonths": 361}),
            "termMaxMonths",
            "Срок кредита: от 1 до 360 месяцев",
        ),
        (
            json!({"termMinMonths": 36, "termMaxMonths": 24}),
            "termMaxMonths",
            "Максимальный срок не может быть меньше минимального",
        ),
        (
            json!({"minDownPaymentPercent": 91}),
            "minDownPaymentPercent",
            "Первоначальный взнос: от 0 до 90%",
        ),
        (
            json!({"minDownPaymentPercent": -1}),
            "minDownPaymentPercent",
            "Первоначальный взнос: от 0 до 90%",
        ),
        (
            json!({"validFrom": ""}),
            "validFrom",
            "Укажите дату начала действия программы",
        ),
        (
            json!({"validFrom": "01.12.2026"}),
            "validFrom",
            "Дата указывается как ГГГГ-ММ-ДД",
        ),
        (
            json!({"validTo": "2026-02-30"}),
            "validTo",
            "Дата указывается как ГГГГ-ММ-ДД",
        ),
        (
            json!({"validTo": day(today, -11)}),
            "validTo",
            "Дата окончания не может быть раньше даты начала",
        ),
    ];
    let programmes_before = app.count("SELECT count(*) FROM credit_programs");
    for (change, field, message) in refusals {
        let body = with(&base, change.clone());
        for (method, path) in [
            (Method::POST, "/api/admin/credit-programs".to_string()),
            (Method::PUT, format!("/api/admin/credit-programs/{id}")),
        ] {
            let answer = app
                .admin_with(&cookie, method.clone(), &path, Some(body.clone()))
                .await;
            assert_eq!(
                answer.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{change} {method}"
            );
            assert_eq!(answer.json()["field"], field, "{change}");
            assert_eq!(answer.error(), message, "{change}");
        }
    }
    assert_eq!(
        app.count("SELECT count(*) FROM credit_programs"),
        programmes_before
    );

    // Edit, then delete; unknown ids are 404.
    let edited = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/admin/credit-programs/{id}"),
            Some(with(
                &created,
                json!({"name": "Семейный автомобиль", "rateMin": 4.9}),
            )),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
    assert_eq!(edited.json()["name"], "Семейный автомобиль");
    assert_eq!(edited.json()["rateMin"], 4.9);
    let list = app
        .admin_with(&cookie, Method::GET, "/api/admin/credit-programs", None)
        .await;
    assert_eq!(list.json()["items"].as_array().unwrap().len(), 2);
    let missing = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/admin/credit-programs/nope",
            Some(base.clone()),
        )
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.error(), "Кредитная программа не найдена");
    let deleted = app
        .admin_with(
            &cookie,
            Method::DELETE,
            &format!("/api/admin/credit-programs/{second}"),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    let again = app
        .admin_with(
            &cookie,
            Method::DELETE,
            &format!("/api/admin/credit-programs/{second}"),
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);

    // Without credentials: 401.
    assert_eq!(
        app.get("/api/admin/credit-programs").await.status,
        StatusCode::UNAUTHORIZED
    );

    // Audit: two created, one changed, one deleted.
    let audit = |action: &str| {
        app.count(&format!(
            "SELECT count(*) FROM audit_log WHERE object_type = 'credit_program' AND action = '{action}'"
        ))
    };
    assert_eq!(
        (audit("create"), audit("update"), audit("delete")),
        (2, 1, 1)
    );
    let summary: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT summary FROM audit_log WHERE object_type = 'credit_program' AND action = 'update'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        summary,
        "Изменена кредитная программа: Семейный автомобиль (Сбербанк)"
    );

    // A bank's programmes go with it.
    let bank = app
        .admin_with(
            &cookie,
            Method::DELETE,
            &format!("/api/partner-banks/{sber}"),
            None,
        )
        .await;
    assert_eq!(bank.status, StatusCode::NO_CONTENT);
    assert_eq!(app.count("SELECT count(*) FROM credit_programs"), 0);
}

#[tokio::test]
async fn only_valid_programmes_are_public_and_one_ends_at_moscow_midnight() {
    let (app, clock) = app_with_clock();
    seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    let today = clock.moscow_today();
    let sber = bank_id(&app, "Сбербанк");
    let hidden_bank = bank_id(&app, "Закрытый банк");
    let post = |body: Value| {
        let app = &app;
        let cookie = cookie.clone();
        async move {
            let answer = app
                .admin_with(
                    &cookie,
                    Method::POST,
                    "/api/admin/credit-programs",
                    Some(body),
                )
                .await;
            assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
        }
    };
    let base = program(&sber, today);
    // Open-ended.
    post(with(
        &base,
        json!({"name": "Бессрочная", "validTo": null, "rateMin": 7.5, "pskMin": 8.1}),
    ))
    .await;
    // Its last day is today: gone at midnight.
    post(with(&base, json!({"name": "До сегодня", "validTo": day(today, 0), "rateMin": 4.9, "pskMin": 5.3, "termMinMonths": 6}))).await;
    // Ended yesterday, starts tomorrow, hidden, of a hidden bank: not shown today.
    post(with(
        &base,
        json!({"name": "Вчерашняя", "validFrom": day(today, -30), "validTo": day(today, -1)}),
    ))
    .await;
    post(with(&base, json!({"name": "С завтра", "validFrom": day(today, 1), "validTo": null, "rateMax": 21.5, "pskMax": 27.456}))).await;
    post(with(&base, json!({"name": "Выключенная", "active": false}))).await;
    post(with(
        &base,
        json!({"bankId": hidden_bank, "name": "Скрытого банка"}),
    ))
    .await;

    let admin = app
        .admin_with(&cookie, Method::GET, "/api/admin/credit-programs", None)
        .await;
    let items = admin.json()["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 6);
    let expired: Vec<&str> = items
        .iter()
        .filter(|p| p["expired"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(expired, ["Вчерашняя"]);

    let names = |answer: &Value| -> Vec<String> {
        answer["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    let first = app.get("/api/credit-programs").await;
    assert_eq!(first.status, StatusCode::OK);
    let body = first.json();
    // Cheapest rate first.
    assert_eq!(names(&body), ["До сегодня", "Бессрочная"]);
    let item = &body["items"][0];
    for absent in ["active", "createdAt", "updatedAt", "expired"] {
        assert!(item.get(absent).is_none(), "{absent} is admin-only");
    }
    assert_eq!(item["bankName"], "Сбербанк");
    assert_eq!(
        item["conditions"],
        "При страховании жизни; без него ставка выше на 5 п. п."
    );
    assert_eq!(
        body["summary"],
        json!({
            "rateMin": 4.9, "rateMax": 19.9, "pskMin": 5.3, "pskMax": 24.6,
            "termMinMonths": 6, "termMaxMonths": 84, "banks": ["Сбербанк"],
        })
    );
    // The credit page names the banks and the ПСК range before the rate.
    let page = app.get("/auto-credit").await.text();
    let description = "Автокредит на новые автомобили и автомобили с пробегом в банках Сбербанк: \
                       ПСК от 5,3% до 24,6%, ставка от 4,9% до 19,9%, срок от 6 до 84 месяцев.";
    assert!(page.contains(description), "{page}");
    assert!(
        page.contains("\"До сегодня\""),
        "the page embeds the programmes"
    );

    // Kept by the answer cache while the day lasts.
    let hits = app.answers.stats().hits;
    let again = app.get("/api/credit-programs").await;
    assert_eq!(app.answers.stats().hits, hits + 1);
    assert_eq!(again.body, first.body);

    // Moscow midnight: no write, yet the answer changes.
    let version = app.content_version();
    clock.advance(Duration::days(1));
    let tomorrow = app.get("/api/credit-programs").await;
    assert_eq!(app.content_version(), version);
    assert_eq!(
        app.answers.stats().hits,
        hits + 1,
        "not served from the cache"
    );
    let body = tomorrow.json();
    assert_eq!(names(&body), ["С завтра", "Бессрочная"]);
    assert_eq!(body["summary"]["rateMin"], 5.9);
    assert_eq!(body["summary"]["pskMax"], 27.456);
    assert_eq!(body["summary"]["termMinMonths"], 12);
    let page = app.get("/auto-credit").await.text();
    assert!(!page.contains("\"До сегодня\""));
    assert!(
        page.contains("ПСК от 6,214% до 27,456%, ставка от 5,9% до 21,5%"),
        "{page}"
    );
    // And the admin marks it expired.
    let admin = app
        .admin_with(&cookie, Method::GET, "/api/admin/credit-programs", None)
        .await;
    let expired = admin.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["expired"] == true)
        .count();
    assert_eq!(expired, 2);

    // With nothing valid: no summary, and the page names no rate at all.
    app.db
        .conn()
        .unwrap()
        .execute("DELETE FROM credit_programs", [])
        .unwrap();
    let none = app.get("/api/credit-programs").await.json();
    assert_eq!(none, json!({"items": [], "summary": null}));
    let page = app.get("/auto-credit").await.text();
    let head = &page[..page.find("</head>").unwrap()];
    let description = head
        .split("<meta name=\"description\" content=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert!(!description.contains('%'), "{description}");
}

#[tokio::test]
async fn car_pages_embed_the_programmes_valid_today() {
    let (app, clock) = app_with_clock();
    seed_catalogue(&app);
    let today = clock.moscow_today();
    let sber = bank_id(&app, "Сбербанк");
    let conn = app.db.conn().unwrap();
    let input: dealership::domain::credit_programs::CreditProgramInput =
        serde_json::from_value(program(&sber, today)).unwrap();
    dealership::domain::credit_programs::create(&conn, &input, today).unwrap();
    let page = app.get("/car/haval-jolion-1").await.text();
    assert!(page.contains("\"/api/credit-programs\""), "{page}");
    assert!(page.contains("Автокредит на новый автомобиль"));
}

#[tokio::test]
async fn the_working_schedule_is_kept_and_checked() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    // The default: every day 09:00–21:00.
    let public = app.get("/api/settings").await.json();
    assert_eq!(public["workSchedule"]["days"].as_array().unwrap().len(), 7);
    assert_eq!(
        public["workSchedule"]["days"][6],
        json!({"open": "09:00", "close": "21:00"})
    );

    let day = |open: &str, close: &str| json!({"open": open, "close": close});
    let week = |sunday: Value| {
        json!({"days": [
            day("09:00", "21:00"), day("09:00", "21:00"), day("09:00", "21:00"),
            day("09:00", "21:00"), day("09:00", "20:00"), day("10:00", "18:00"), sunday,
        ]})
    };
    let saved = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"workSchedule": week(Value::Null)})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert_eq!(saved.json()["workSchedule"], week(Value::Null));
    let public = app.get("/api/settings").await.json();
    assert_eq!(public["workSchedule"], week(Value::Null));
    assert_eq!(public["workSchedule"]["days"][6], Value::Null);

    let refusals = [
        (
            week(day("9:00", "18:00")),
            "Воскресенье: время указывается как ЧЧ:ММ, например 09:00",
        ),
        (
            week(day("18:00", "10:00")),
            "Воскресенье: время открытия должно быть раньше времени закрытия",
        ),
        (
            week(day("10:00", "10:00")),
            "Воскресенье: время открытия должно быть раньше времени закрытия",
        ),
        (
            json!({"days": [null, null]}),
            "График работы: нужно указать все семь дней недели",
        ),
        (
            json!({"days": "каждый день"}),
            "График работы: семь дней с понедельника, у каждого время открытия и закрытия (ЧЧ:ММ) или «выходной»",
        ),
        (
            week(json!({"open": "10:00"})),
            "График работы: семь дней с понедельника, у каждого время открытия и закрытия (ЧЧ:ММ) или «выходной»",
        ),
    ];
    for (schedule, message) in refusals {
        let answer = app
            .admin_with(
                &cookie,
                Method::PUT,
                "/api/settings",
                Some(json!({"workSchedule": schedule})),
            )
            .await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{schedule}"
        );
        assert_eq!(answer.json()["field"], "workSchedule");
        assert_eq!(answer.error(), message);
    }
    // Unchanged by the refusals.
    assert_eq!(
        app.get("/api/settings").await.json()["workSchedule"],
        week(Value::Null)
    );
}
