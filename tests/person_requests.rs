//! A person's request answered and data forgotten on time (issue 26,
//! `docs/personal-data.md`), through the real router on a real SQLite file:
//! the register of requests with their deadlines, the export as JSON and as
//! a readable page, the erasure closing its request with a destruction act,
//! the retention run with a moved clock, and the withdrawal link of a
//! visitor mail, followed without logging in.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use chrono::{Months, NaiveDate};
use common::TestApp;
use common::scan::{anywhere, on_disk};
use common::smtp::{SmtpSink, eventually, free_port, mailing_app};
use common::time::{msk, set_clock};
use dealership::clock::Clock;
use dealership::domain::{retention, settings};
use serde_json::{Value, json};

const OPERATOR: &str = "ООО «Нева Моторс»";

fn app_with_clock() -> (TestApp, Arc<Clock>) {
    let mut clock = None;
    let app = TestApp::with_state(|state| clock = Some(state.clock.clone()));
    (app, clock.unwrap())
}

async fn lead(app: &TestApp, body: Value) -> String {
    let answer = app.post_json("/api/leads", &body).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    answer.json()["id"].as_str().unwrap().to_string()
}

async fn name_the_operator(app: &TestApp, cookie: &str) {
    let saved = app
        .admin_with(
            cookie,
            Method::PUT,
            "/api/settings",
            Some(
                json!({"operatorName": OPERATOR, "operatorInn": "7810453273",
                        "operatorOgrn": "1177847123453",
                        "operatorAddress": "196158, Санкт-Петербург, Пулковское шоссе, д. 44"}),
            ),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
}

#[tokio::test]
async fn a_request_is_registered_exported_erased_and_closed_with_an_act() {
    let (app, clock) = app_with_clock();
    // Thursday 26 November 2026, noon in Moscow.
    let thursday = NaiveDate::from_ymd_opt(2026, 11, 26).unwrap();
    set_clock(&clock, msk(thursday, 12, 0));
    app.create_admin();
    let cookie = app.login().await;
    name_the_operator(&app, &cookie).await;
    let (name, phone) = ("Пётр Запросов", "79217778899");
    let id = lead(
        &app,
        json!({"type": "contact_form", "name": name, "phone": "+7 921 777-88-99",
               "email": "petr.zaprosov@example.ru", "message": "Хочу узнать, что вы храните",
               "consent": true}),
    )
    .await;
    let call = |method: Method, path: &'static str, body: Option<Value>| {
        let (app, cookie) = (&app, &cookie);
        async move { app.admin_with(cookie, method, path, body).await }
    };

    // Registered, due in 10 working days: Thursday 10 December.
    let created = call(
        Method::POST,
        "/api/admin/personal-data/requests",
        Some(json!({"kind": "erase", "phone": "8 (921) 777-88-99", "note": "Письмо от 26.11"})),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let created = created.json();
    assert_eq!(created["receivedOn"], "2026-11-26");
    assert_eq!(created["dueOn"], "2026-12-10");
    assert_eq!(created["phone"], "+79217778899");
    assert_eq!(created["subject"], "+79217778899");
    assert_eq!(created["overdue"], false);
    assert_eq!(created["createdBy"], "manager");
    let request_id = created["id"].as_i64().unwrap();
    for (body, field, message) in [
        (
            json!({"kind": "access"}),
            "phone",
            "Укажите телефон или e-mail человека",
        ),
        (
            json!({"kind": "access", "phone": "89217778899", "receivedOn": "2026-11-27"}),
            "receivedOn",
            "Дата обращения — не позже сегодняшней и не раньше чем год назад",
        ),
        (
            json!({"kind": "access", "phone": "89217778899", "receivedOn": "26.11.2026"}),
            "receivedOn",
            "Дата обращения — не позже сегодняшней и не раньше чем год назад",
        ),
        (
            json!({"kind": "access", "email": "x@y.ru", "note": "я".repeat(2001)}),
            "note",
            "Не длиннее 2000 символов",
        ),
    ] {
        let refused = call(
            Method::POST,
            "/api/admin/personal-data/requests",
            Some(body),
        )
        .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.json()["field"], field);
        assert_eq!(refused.error(), message);
    }
    // A second one, for the other answers.
    let access = call(
        Method::POST,
        "/api/admin/personal-data/requests",
        Some(json!({"kind": "access", "email": "nobody@example.ru", "receivedOn": "2026-11-10"})),
    )
    .await
    .json();
    // 10 working days after Tuesday 10 November: Tuesday 24 November, past.
    assert_eq!(access["dueOn"], "2026-11-24");
    assert_eq!(access["overdue"], true);
    let listed = call(Method::GET, "/api/admin/personal-data/requests", None)
        .await
        .json();
    let order: Vec<i64> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    assert_eq!(order, vec![access["id"].as_i64().unwrap(), request_id]);

    // The export: JSON and a readable page, both whole.
    let json_file = call(
        Method::POST,
        "/api/admin/personal-data/export",
        Some(json!({"phone": "89217778899", "format": "json"})),
    )
    .await;
    assert_eq!(json_file.status, StatusCode::OK, "{}", json_file.text());
    assert_eq!(json_file.headers["content-type"], "application/json");
    assert_eq!(
        json_file.headers["content-disposition"],
        "attachment; filename=\"personal-data-2026-11-26.json\""
    );
    let exported = json_file.json();
    assert_eq!(exported["operator"]["name"], OPERATOR);
    assert_eq!(exported["data"]["leads"][0]["name"], name);
    assert_eq!(exported["data"]["leads"][0]["phone"], "+79217778899");
    assert!(
        exported["consentTexts"][0]["consentText"]
            .as_str()
            .unwrap()
            .contains(OPERATOR)
    );
    let page = call(
        Method::POST,
        "/api/admin/personal-data/export",
        Some(json!({"phone": "89217778899", "format": "html"})),
    )
    .await;
    assert_eq!(page.headers["content-type"], "text/html; charset=utf-8");
    let page = page.text();
    for needle in [
        "<h1>Сведения о персональных данных</h1>",
        name,
        "Хочу узнать, что вы храните",
        "Рассрочка",
        "ИНН 7810453273",
        // The phone as the panel shows it, the status in the panel's word.
        "<td>+7 921 777-88-99</td>",
        "<td>Новый</td>",
    ] {
        assert!(page.contains(needle), "{needle} in {page}");
    }
    assert!(!page.contains("Новая<"), "{page}");
    let bad = call(
        Method::POST,
        "/api/admin/personal-data/export",
        Some(json!({"phone": "89217778899", "format": "pdf"})),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Closed by hand: a refusal needs its reason; closed once.
    let path = format!("/api/admin/personal-data/requests/{}/answer", access["id"]);
    let refused = app
        .admin_with(
            &cookie,
            Method::POST,
            &path,
            Some(json!({"outcome": "refused"})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.error(), "Укажите причину отказа");
    let closed = app
        .admin_with(
            &cookie,
            Method::POST,
            &path,
            Some(json!({"outcome": "nothing_held"})),
        )
        .await;
    assert_eq!(closed.status, StatusCode::OK, "{}", closed.text());
    let closed = closed.json();
    assert_eq!(closed["outcome"], "nothing_held");
    assert_eq!(closed["email"], Value::Null);
    assert_eq!(closed["subject"], "n***@example.ru");
    assert_eq!(closed["overdue"], false);
    let again = app
        .admin_with(
            &cookie,
            Method::POST,
            &path,
            Some(json!({"outcome": "provided"})),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.error(), "Запрос уже закрыт");

    // Erased by the request alone: it is closed, and an act is written.
    let erased = call(
        Method::POST,
        "/api/admin/personal-data/erase",
        Some(json!({"requestId": request_id})),
    )
    .await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text());
    assert_eq!(erased.json()["leads"], 1);
    let listed = call(Method::GET, "/api/admin/personal-data/requests", None)
        .await
        .json();
    let request = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == request_id)
        .unwrap();
    assert_eq!(request["outcome"], "erased");
    assert_eq!(request["subject"], "+7 *** ***-88-99");
    assert_eq!(request["phone"], Value::Null);
    let twice = call(
        Method::POST,
        "/api/admin/personal-data/erase",
        Some(json!({"requestId": request_id})),
    )
    .await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    for mark in [phone, "petr.zaprosov@example.ru", name] {
        assert_eq!(anywhere(&app, mark), Vec::<String>::new(), "{mark}");
        assert_eq!(on_disk(&app, mark), Vec::<String>::new(), "{mark} on disk");
    }
    let acts = call(Method::GET, "/api/admin/personal-data/acts", None)
        .await
        .json();
    let act = &acts[0];
    assert_eq!(act["reason"], "request");
    assert_eq!(act["subjects"], 1);
    assert_eq!(act["leads"], 1);
    assert_eq!(act["by"], "manager");
    assert!(
        act["categories"]
            .as_array()
            .unwrap()
            .contains(&json!("номер телефона"))
    );
    let download = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!("/api/admin/personal-data/acts/{}", act["id"]),
            None,
        )
        .await;
    assert_eq!(download.status, StatusCode::OK);
    assert_eq!(download.headers["content-type"], "text/html; charset=utf-8");
    let text = download.text();
    for needle in [
        "Акт об уничтожении персональных данных №",
        OPERATOR,
        "ИНН 7810453273",
        &format!("заявки {id}"),
        &format!("(запрос № {request_id})"),
        "Выгрузка из журнала регистрации событий",
        "secure_delete",
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    assert!(!text.contains(phone) && !text.contains(name));
    let missing = call(Method::GET, "/api/admin/personal-data/acts/999", None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// Sets a lead's last change (the retention counts from it).
fn touched(app: &TestApp, id: &str, at: chrono::DateTime<chrono::Utc>, status: &str) {
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE leads SET updated_at = ?2, created_at = min(created_at, ?2), status = ?3
             WHERE id = ?1",
            rusqlite::params![
                id,
                at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
                status
            ],
        )
        .unwrap();
}

#[tokio::test]
async fn people_past_the_period_are_forgotten_by_the_nightly_run() {
    let (app, clock) = app_with_clock();
    app.create_admin();
    let cookie = app.login().await;
    let now = clock.now();
    let years_ago = |months: u32| now.checked_sub_months(Months::new(months)).unwrap();
    // Olga wrote twice, the last time 3 years and a month ago: forgotten.
    let olga_old = lead(
        &app,
        json!({"type": "contact_form", "name": "Ольга Старая",
        "phone": "89211110001", "email": "olga.old@example.ru", "consent": true}),
    )
    .await;
    let olga_older = lead(
        &app,
        json!({"type": "trade_in", "name": "Ольга Старая",
        "phone": "89211110001", "carBrand": "Lada", "consent": true}),
    )
    .await;
    touched(&app, &olga_old, years_ago(37), "completed");
    touched(&app, &olga_older, years_ago(40), "completed");
    // Igor's old lead is kept: he wrote again, by e-mail, last year.
    let igor_old = lead(
        &app,
        json!({"type": "contact_form", "name": "Игорь Вернувшийся",
        "phone": "89211110002", "email": "igor@example.ru", "consent": true}),
    )
    .await;
    let igor_new = lead(
        &app,
        json!({"type": "auto_selection", "name": "Игорь",
        "phone": "89211110003", "email": "IGOR@example.ru", "consent": true}),
    )
    .await;
    touched(&app, &igor_old, years_ago(48), "completed");
    touched(&app, &igor_new, years_ago(12), "in_progress");
    // Vera's cancelled lead is 7 months old: erased alone; her newer one stays.
    let vera_cancelled = lead(
        &app,
        json!({"type": "contact_form", "name": "Вера Отменившая",
        "phone": "89211110004", "consent": true}),
    )
    .await;
    let vera_open = lead(
        &app,
        json!({"type": "contact_form", "name": "Вера",
        "phone": "89211110004", "consent": true}),
    )
    .await;
    touched(&app, &vera_cancelled, years_ago(7), "cancelled");
    // Sergei's cancelled lead is 5 months old: within its 6 months.
    let sergei = lead(
        &app,
        json!({"type": "contact_form", "name": "Сергей Недавний",
        "phone": "89211110005", "consent": true}),
    )
    .await;
    touched(&app, &sergei, years_ago(5), "cancelled");

    let due = app
        .admin_with(
            &cookie,
            Method::GET,
            "/api/admin/personal-data/retention",
            None,
        )
        .await
        .json();
    assert_eq!(due, json!({"subjects": 2, "leads": 3, "subscriptions": 0}));

    // The nightly run: not before 03:00 Moscow time, then once a night.
    let conn = app.db.conn().unwrap();
    let day = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
    let settings = settings::get(&conn).unwrap();
    let early = msk(day, 2, 59);
    assert!(
        retention::nightly(&conn, &settings, early)
            .unwrap()
            .is_none()
    );
    // The lead dates count from the real now; the run's clock is noon of
    // the next Moscow day, whatever the hour the test runs at.
    let tomorrow = now
        .with_timezone(&dealership::clock::moscow())
        .date_naive()
        .succ_opt()
        .unwrap();
    let night = msk(tomorrow, 12, 0);
    let ran = retention::nightly(&conn, &settings, night)
        .unwrap()
        .expect("ran");
    let act = ran.expect("erased something");
    assert_eq!(act.reason.as_str(), "retention");
    assert_eq!(act.subjects, 2);
    assert_eq!(act.leads, 3);
    assert_eq!(
        act.reason_text,
        "Истёк срок хранения: 3 года после последнего обращения; отменённые заявки — 6 мес. после закрытия"
    );
    assert!(
        retention::nightly(&conn, &settings, night + chrono::Duration::hours(2))
            .unwrap()
            .is_none(),
        "once a night"
    );
    drop(conn);
    for mark in [
        "Ольга Старая",
        "89211110001",
        "olga.old@example.ru",
        "Вера Отменившая",
    ] {
        assert_eq!(anywhere(&app, mark), Vec::<String>::new(), "{mark}");
    }
    for kept in [
        "Игорь Вернувшийся",
        "igor@example.ru",
        "Сергей Недавний",
        "+79211110004",
    ] {
        assert!(!anywhere(&app, kept).is_empty(), "{kept} kept");
    }
    let vera = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!("/api/leads/{vera_open}"),
            None,
        )
        .await
        .json();
    assert_eq!(vera["name"], "Вера");

    // A shorter period, run by the owner now: Igor's last year goes too
    // once the period is a year and the clock moves on a month.
    let saved = app
        .admin_with(
            &cookie,
            Method::PUT,
            "/api/settings",
            Some(json!({"retentionYears": 1, "cancelledRetentionMonths": 4})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    for (body, field, message) in [
        (
            json!({"retentionYears": 0}),
            "retentionYears",
            "Срок хранения — от 1 до 10 лет",
        ),
        (
            json!({"retentionYears": 11}),
            "retentionYears",
            "Срок хранения — от 1 до 10 лет",
        ),
        (
            json!({"cancelledRetentionMonths": 37}),
            "cancelledRetentionMonths",
            "Срок для отменённых заявок — от 1 до 36 месяцев",
        ),
    ] {
        let refused = app
            .admin_with(&cookie, Method::PUT, "/api/settings", Some(body))
            .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.json()["field"], field);
        assert_eq!(refused.error(), message);
    }
    set_clock(&clock, now + chrono::Duration::days(31));
    let run = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/personal-data/retention/run",
            None,
        )
        .await;
    assert_eq!(run.status, StatusCode::OK, "{}", run.text());
    let act = run.json()["act"].clone();
    // Igor (both leads) and Sergei's cancelled lead (now past 4 months).
    assert_eq!(act["subjects"], 2, "{act}");
    assert_eq!(act["leads"], 3, "{act}");
    assert_eq!(act["by"], "manager");
    for mark in ["Игорь", "igor@example.ru", "Сергей Недавний"] {
        assert_eq!(anywhere(&app, mark), Vec::<String>::new(), "{mark}");
    }
    let nothing = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/personal-data/retention/run",
            None,
        )
        .await
        .json();
    assert_eq!(nothing["act"], Value::Null);
    let acts = app
        .admin_with(&cookie, Method::GET, "/api/admin/personal-data/acts", None)
        .await
        .json();
    assert_eq!(acts.as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_withdrawal_link_of_a_mail_forgets_the_address_without_a_login() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, _state, _jobs) = mailing_app(sink.port, |app| {
        let conn = app.db.conn().unwrap();
        let mut s = settings::get(&conn).unwrap();
        s.from_email = "robot@salon.example".into();
        settings::save(&conn, &s).unwrap();
    });
    let email = "nina.forget@example.ru";
    lead(
        &app,
        json!({"type": "contact_form", "name": "Нина Отозвавшая",
        "phone": "89212223344", "email": "Nina.Forget@example.ru", "consent": true}),
    )
    .await;
    let subscribed = app
        .post_json(
            "/api/saved-searches",
            &json!({"email": email, "filter": {"status": "new"},
                    "pageUrl": "http://localhost:8080/new-cars", "consent": true,
                    "advertisingConsent": true, "website": ""}),
        )
        .await;
    assert_eq!(
        subscribed.status,
        StatusCode::ACCEPTED,
        "{}",
        subscribed.text()
    );
    let mail = eventually("the confirmation", Duration::from_secs(10), || {
        sink.messages().into_iter().next()
    })
    .await;
    let text = mail["text"].as_str().unwrap().replace("\r\n", "\n");
    assert!(
        text.contains("Отозвать согласие на обработку персональных данных и удалить их: http://localhost:8080/personal-data/forget?token="),
        "{text}"
    );
    assert!(
        mail["html"]
            .as_str()
            .unwrap()
            .contains("/personal-data/forget?token=")
    );
    let marker = "/personal-data/forget?token=";
    let start = text.find(marker).unwrap() + marker.len();
    let token: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    // Once sent, the mail's row no longer holds it.
    eventually("the token dropped", Duration::from_secs(5), || {
        (app.count(
            "SELECT count(*) FROM outbox WHERE json_extract(payload, '$.forgetToken') IS NOT NULL",
        ) == 0)
            .then_some(())
    })
    .await;

    // The page asks before it sends anything: opening it (as a mail
    // scanner does) forgets nothing.
    let page = app
        .get(&format!("/personal-data/forget?token={token}"))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text().contains("noindex"));
    assert!(page.text().contains("n***@example.ru"), "{}", page.text());
    assert_eq!(app.count("SELECT count(*) FROM data_requests"), 0);

    let wrong = app
        .post_json("/api/personal-data/forget", &json!({"token": "nope"}))
        .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);
    assert_eq!(wrong.error(), "Ссылка недействительна или устарела");
    let forgotten = app
        .post_json("/api/personal-data/forget", &json!({"token": token}))
        .await;
    assert_eq!(forgotten.status, StatusCode::OK, "{}", forgotten.text());
    assert_eq!(forgotten.json(), json!({"email": "n***@example.ru"}));
    for mark in [email, "Нина Отозвавшая"] {
        assert_eq!(anywhere(&app, mark), Vec::<String>::new(), "{mark}");
    }
    // The lead's phone went with it (the lead was found by the address).
    assert_eq!(anywhere(&app, "79212223344"), Vec::<String>::new());
    let spent = app
        .post_json("/api/personal-data/forget", &json!({"token": token}))
        .await;
    assert_eq!(spent.status, StatusCode::NOT_FOUND);
    // Recorded: an answered withdrawal and its act.
    assert_eq!(
        app.count(
            "SELECT count(*) FROM data_requests WHERE kind = 'withdrawal'
             AND outcome = 'erased' AND subject = 'n***@example.ru' AND email IS NULL"
        ),
        1
    );
    assert_eq!(
        app.count(
            "SELECT count(*) FROM destruction_acts WHERE reason = 'withdrawal'
             AND leads = 1 AND subscriptions = 1"
        ),
        1
    );
    // Once spent, the page says at once that the link does not work.
    let page = app
        .get(&format!("/personal-data/forget?token={token}"))
        .await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.text().contains("noindex"));
}
