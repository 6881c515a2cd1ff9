//! How fast the staff answer leads (docs/response-times.md), through the
//! real router on a real SQLite file: leads created and answered at known
//! moments of the server's clock, the figures read from
//! `GET /api/admin/response-times`, the threshold setting, and the reminder
//! through a real SMTP server on loopback.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use axum::http::{Method, StatusCode, header};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use common::smtp::{SmtpSink, eventually, free_port};
use common::time::{msk, set_clock};
use common::{ADMIN, TestApp};
use dealership::clock::Clock;
use dealership::http::AppState;
use dealership::notify::reminder::Reminders;
use serde_json::{Value, json};

/// A second staff user.
const ANNA: &str = "anna";
const ANNA_PASSWORD: &str = "another-horse";

/// The Monday three weeks before today (Moscow): every test lives in the
/// past, where the outbox delivers at once.
fn base_monday() -> NaiveDate {
    let today = Clock::default().moscow_today();
    today - Duration::days(i64::from(today.weekday().num_days_from_monday()) + 21)
}

/// Answers and reports are read half a minute into the minute they name,
/// so whole working minutes since an arrival (at the minute's start) are
/// exact whatever milliseconds the clock moved on.
const INTO_THE_MINUTE: Duration = Duration::seconds(30);

/// The stored form of a moment, cut to the second.
fn to_second(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        .trim_end_matches('Z')
        .to_string()
}

fn day(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// An app with its state (for the clock), two staff users.
fn app() -> (TestApp, AppState) {
    let mut captured = None;
    let app = TestApp::with_state(|state| captured = Some(state.clone()));
    let state = captured.unwrap();
    app.create_admin();
    dealership::domain::users::create(
        &app.db.conn().unwrap(),
        ANNA,
        ANNA_PASSWORD,
        dealership::domain::roles::Role::Owner,
    )
    .unwrap();
    (app, state)
}

async fn login_as(app: &TestApp, login: &str, password: &str) -> String {
    let answer = app
        .post_json(
            "/api/admin/login",
            &json!({"login": login, "password": password}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let cookie = answer.headers[header::SET_COOKIE].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
}

/// Staff sessions: the manager's and Anna's.
struct Staff {
    manager: String,
    anna: String,
}

impl Staff {
    async fn log_in(app: &TestApp) -> Staff {
        Staff {
            manager: login_as(app, ADMIN, common::ADMIN_PASSWORD).await,
            anna: login_as(app, ANNA, ANNA_PASSWORD).await,
        }
    }
}

/// A lead arriving at `at`.
async fn lead_at(app: &TestApp, clock: &Clock, at: DateTime<Utc>, name: &str) -> String {
    set_clock(clock, at);
    let answer = app
        .post_json(
            "/api/leads",
            &json!({"type": "auto_credit", "name": name, "phone": "8 (999) 123-45-67", "consent": true}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let lead = answer.json();
    let created = lead["createdAt"].as_str().unwrap();
    assert!(created.starts_with(&to_second(at)), "{created}");
    lead["id"].as_str().unwrap().to_string()
}

/// A status change at `at` by the user of `cookie`.
async fn status_at(
    app: &TestApp,
    clock: &Clock,
    cookie: &str,
    at: DateTime<Utc>,
    lead: &str,
    status: &str,
) {
    set_clock(clock, at + INTO_THE_MINUTE);
    let answer = app
        .admin_with(
            cookie,
            Method::PUT,
            &format!("/api/leads/{lead}/status"),
            Some(json!({"status": status})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
}

/// The report at `at`.
async fn report_at(app: &TestApp, clock: &Clock, cookie: &str, at: DateTime<Utc>) -> Value {
    set_clock(clock, at + INTO_THE_MINUTE);
    let answer = app
        .admin_with(cookie, Method::GET, "/api/admin/response-times", None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    answer.json()
}

fn period<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["periods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["period"] == name)
        .unwrap_or_else(|| panic!("no period {name} in {report}"))
}

fn figures(answered: i64, median: i64, p90: i64) -> Value {
    json!({"answered": answered, "medianMinutes": median, "p90Minutes": p90})
}

fn user(name: &str, answered: i64, median: i64, p90: i64) -> Value {
    json!({"username": name, "answered": answered, "medianMinutes": median, "p90Minutes": p90,
           "missedCalls": {"missed": 0, "calledBack": 0, "inTime": 0}})
}

async fn put_settings(app: &TestApp, cookie: &str, body: Value) -> common::Answer {
    app.admin_with(cookie, Method::PUT, "/api/settings", Some(body))
        .await
}

#[tokio::test]
async fn a_lead_at_2055_answered_at_0910_the_next_day_took_15_minutes() {
    let (app, state) = app();
    let clock = &state.clock;
    let staff = Staff::log_in(&app).await;
    // Every day 09:00–21:00 (the default schedule).
    let monday = base_monday();
    let tuesday = monday + Duration::days(1);
    let lead = lead_at(&app, clock, msk(monday, 20, 55), "Вечерний").await;
    status_at(
        &app,
        clock,
        &staff.manager,
        msk(tuesday, 9, 10),
        &lead,
        "in_progress",
    )
    .await;

    let report = report_at(&app, clock, &staff.manager, msk(tuesday, 12, 0)).await;
    assert_eq!(report["thresholdMinutes"], 15);
    // By its arrival date: Monday, this week; not today (Tuesday).
    let week = period(&report, "thisWeek");
    assert_eq!(week["from"], day(monday));
    assert_eq!(week["to"], day(monday + Duration::days(6)));
    assert_eq!(week["all"], figures(1, 15, 15));
    assert_eq!(week["users"], json!([user(ADMIN, 1, 15, 15)]));
    let today = period(&report, "today");
    assert_eq!(today["from"], day(tuesday));
    assert_eq!(today["to"], day(tuesday));
    assert_eq!(
        today["all"],
        json!({"answered": 0, "medianMinutes": null, "p90Minutes": null})
    );
    assert_eq!(today["users"], json!([]));
    let daily = report["daily"].as_array().unwrap();
    let monday_bar = daily.iter().find(|d| d["date"] == day(monday)).unwrap();
    assert_eq!(monday_bar["answered"], 1);
    assert_eq!(monday_bar["medianMinutes"], 15);
    // Answered, so not overdue.
    assert_eq!(report["overdue"], json!([]));
}

#[tokio::test]
async fn closed_days_do_not_count() {
    let (app, state) = app();
    let clock = &state.clock;
    let staff = Staff::log_in(&app).await;
    let set = put_settings(
        &app,
        &staff.manager,
        json!({"workSchedule": {"days": [
            {"open": "09:00", "close": "21:00"}, {"open": "09:00", "close": "21:00"},
            {"open": "09:00", "close": "21:00"}, {"open": "09:00", "close": "21:00"},
            {"open": "09:00", "close": "21:00"}, {"open": "10:00", "close": "18:00"}, null,
        ]}}),
    )
    .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text());
    let saturday = base_monday() + Duration::days(5);
    let next_monday = saturday + Duration::days(2);
    // 10 minutes on Saturday, Sunday closed, 20 minutes on Monday.
    let lead = lead_at(&app, clock, msk(saturday, 17, 50), "Субботний").await;
    status_at(
        &app,
        clock,
        &staff.anna,
        msk(next_monday, 9, 20),
        &lead,
        "in_progress",
    )
    .await;
    // A lead on the closed day answered before opening: nothing counted.
    let sunday_lead = lead_at(
        &app,
        clock,
        msk(saturday + Duration::days(1), 12, 0),
        "Воскресный",
    )
    .await;
    status_at(
        &app,
        clock,
        &staff.anna,
        msk(next_monday, 8, 30),
        &sunday_lead,
        "cancelled",
    )
    .await;

    let report = report_at(&app, clock, &staff.manager, msk(next_monday, 10, 0)).await;
    let last_week = period(&report, "lastWeek");
    assert_eq!(last_week["from"], day(saturday - Duration::days(5)));
    assert_eq!(last_week["to"], day(saturday + Duration::days(1)));
    assert_eq!(last_week["all"], figures(2, 0, 30));
    assert_eq!(last_week["users"], json!([user(ANNA, 2, 0, 30)]));
    assert_eq!(period(&report, "thisWeek")["all"]["answered"], 0);
}

#[tokio::test]
async fn medians_and_90th_percentiles_by_period_per_user_and_in_all() {
    let (app, state) = app();
    let clock = &state.clock;
    let staff = Staff::log_in(&app).await;
    let last_monday = base_monday();
    let last_tuesday = last_monday + Duration::days(1);
    let monday = last_monday + Duration::days(7);
    let wednesday = monday + Duration::days(2);

    // Last week: the manager answers in 5, 10, 20 and 40 minutes, Anna in 3
    // and 60 (all within the day's hours).
    let mut k = 0;
    for (cookie, minutes) in [
        (&staff.manager, 5),
        (&staff.manager, 10),
        (&staff.manager, 20),
        (&staff.manager, 40),
        (&staff.anna, 3),
        (&staff.anna, 60),
    ] {
        let arrived = msk(last_tuesday, 10, 0) + Duration::minutes(k);
        k += 1;
        let lead = lead_at(&app, clock, arrived, &format!("Клиент {k}")).await;
        let answered = arrived + Duration::minutes(minutes);
        status_at(&app, clock, cookie, answered, &lead, "in_progress").await;
        if minutes == 5 {
            // Only the first status change counts: Anna closing it later
            // changes nobody's figures.
            status_at(
                &app,
                clock,
                &staff.anna,
                answered + Duration::hours(3),
                &lead,
                "completed",
            )
            .await;
        }
    }
    // This week, Monday: the manager in 7, Anna in 2 and 9.
    for (cookie, minutes) in [(&staff.manager, 7), (&staff.anna, 2), (&staff.anna, 9)] {
        let arrived = msk(monday, 11, 0) + Duration::minutes(k);
        k += 1;
        let lead = lead_at(&app, clock, arrived, &format!("Клиент {k}")).await;
        status_at(
            &app,
            clock,
            cookie,
            arrived + Duration::minutes(minutes),
            &lead,
            "in_progress",
        )
        .await;
    }
    // Today (Wednesday): the manager in 30; one lead not answered yet.
    let arrived = msk(wednesday, 9, 30);
    let lead = lead_at(&app, clock, arrived, "Сегодняшний").await;
    status_at(
        &app,
        clock,
        &staff.manager,
        arrived + Duration::minutes(30),
        &lead,
        "in_progress",
    )
    .await;
    let waiting = lead_at(&app, clock, msk(wednesday, 10, 0), "Ждущий").await;

    let report = report_at(&app, clock, &staff.manager, msk(wednesday, 10, 20)).await;
    // Last week: [3, 5, 10, 20, 40, 60]: median rank 3, p90 rank 6.
    let last_week = period(&report, "lastWeek");
    assert_eq!(last_week["from"], day(last_monday));
    assert_eq!(last_week["to"], day(monday - Duration::days(1)));
    assert_eq!(last_week["all"], figures(6, 10, 60));
    assert_eq!(
        last_week["users"],
        json!([user(ADMIN, 4, 10, 40), user(ANNA, 2, 3, 60)])
    );
    // This week: [2, 7, 9, 30]: median rank 2, p90 rank 4.
    let this_week = period(&report, "thisWeek");
    assert_eq!(this_week["from"], day(monday));
    assert_eq!(this_week["all"], figures(4, 7, 30));
    assert_eq!(
        this_week["users"],
        // As many answers each: by name.
        json!([user(ANNA, 2, 2, 9), user(ADMIN, 2, 7, 30)])
    );
    let today = period(&report, "today");
    assert_eq!(today["from"], day(wednesday));
    assert_eq!(today["all"], figures(1, 30, 30));
    assert_eq!(today["users"], json!([user(ADMIN, 1, 30, 30)]));

    // The chart: 14 days ending today, oldest first, every day there.
    let daily = report["daily"].as_array().unwrap();
    assert_eq!(daily.len(), 14);
    assert_eq!(daily[13]["date"], day(wednesday));
    assert_eq!(daily[0]["date"], day(wednesday - Duration::days(13)));
    let bar = |date: NaiveDate| {
        daily
            .iter()
            .find(|d| d["date"] == day(date))
            .unwrap()
            .clone()
    };
    assert_eq!(
        bar(last_tuesday),
        json!({"date": day(last_tuesday), "answered": 6, "medianMinutes": 10, "p90Minutes": 60})
    );
    assert_eq!(
        bar(monday),
        json!({"date": day(monday), "answered": 3, "medianMinutes": 7, "p90Minutes": 9})
    );
    assert_eq!(
        bar(monday + Duration::days(1)),
        json!({"date": day(monday + Duration::days(1)), "answered": 0, "medianMinutes": null, "p90Minutes": null})
    );
    assert_eq!(bar(wednesday)["answered"], 1);

    // The lead waiting 20 minutes is overdue at the default 15.
    let overdue = report["overdue"].as_array().unwrap();
    assert_eq!(overdue.len(), 1);
    assert_eq!(overdue[0]["id"], waiting);
    assert_eq!(overdue[0]["name"], "Ждущий");
    assert_eq!(overdue[0]["phone"], "+79991234567");
    assert_eq!(overdue[0]["type"], "auto_credit");
    let created = overdue[0]["createdAt"].as_str().unwrap();
    assert!(
        created.starts_with(&to_second(msk(wednesday, 10, 0))),
        "{created}"
    );
    assert_eq!(overdue[0]["waitingMinutes"], 20);
    assert_eq!(overdue[0]["remindedAt"], Value::Null);

    // A viewer (no leads, no personal data) sees the same lead waiting,
    // without its name and phone.
    app.create_user("marketer", dealership::domain::roles::Role::Viewer);
    let viewer = app.login_as("marketer").await;
    let seen = report_at(&app, clock, &viewer, msk(wednesday, 10, 20)).await;
    assert_eq!(seen["overdue"][0]["id"], waiting);
    assert_eq!(seen["overdue"][0]["waitingMinutes"], 20);
    assert_eq!(seen["overdue"][0]["name"], "");
    assert_eq!(seen["overdue"][0]["phone"], "");

    // A manager sees the unassigned lead waiting, but not one assigned to
    // someone else, and of the per-user figures only their own.
    app.create_user("misha", dealership::domain::roles::Role::Manager);
    let misha = app.login_as("misha").await;
    let mine = report_at(&app, clock, &misha, msk(wednesday, 10, 20)).await;
    assert_eq!(mine["overdue"][0]["id"], waiting);
    assert_eq!(mine["overdue"][0]["name"], "Ждущий");
    assert_eq!(period(&mine, "lastWeek")["users"], json!([]));
    assert_eq!(
        period(&mine, "lastWeek")["all"],
        period(&report, "lastWeek")["all"]
    );
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE leads SET assignee_id = (SELECT id FROM users WHERE username = ?1)
             WHERE id = ?2",
            rusqlite::params![ANNA, waiting],
        )
        .unwrap();
    let mine = report_at(&app, clock, &misha, msk(wednesday, 10, 20)).await;
    assert_eq!(mine["overdue"], json!([]));
    let all = report_at(&app, clock, &staff.manager, msk(wednesday, 10, 20)).await;
    assert_eq!(all["overdue"][0]["id"], waiting);

    // A week later the same leads are last week's and the week before's.
    let later = report_at(
        &app,
        clock,
        &staff.manager,
        msk(wednesday + Duration::days(7), 12, 0),
    )
    .await;
    assert_eq!(period(&later, "lastWeek")["all"], figures(4, 7, 30));
    assert_eq!(period(&later, "thisWeek")["all"]["answered"], 0);
}

#[tokio::test]
async fn overdue_leads_follow_the_threshold_setting() {
    let (app, state) = app();
    let clock = &state.clock;
    let staff = Staff::log_in(&app).await;
    let wednesday = base_monday() + Duration::days(2);
    let thursday = wednesday + Duration::days(1);
    // Waiting at Thursday 09:30: 90 + 30 = 120, 30 + 30 = 60, 30, 10 working minutes.
    let a = lead_at(&app, clock, msk(wednesday, 19, 30), "Первый").await;
    let b = lead_at(&app, clock, msk(wednesday, 20, 30), "Второй").await;
    let c = lead_at(&app, clock, msk(thursday, 9, 0), "Третий").await;
    let d = lead_at(&app, clock, msk(thursday, 9, 20), "Четвёртый").await;
    // Answered: never overdue.
    let answered = lead_at(&app, clock, msk(wednesday, 18, 0), "Отвеченный").await;
    status_at(
        &app,
        clock,
        &staff.anna,
        msk(thursday, 9, 1),
        &answered,
        "in_progress",
    )
    .await;
    let now = msk(thursday, 9, 30);

    let ids = |report: &Value| -> Vec<(String, i64)> {
        report["overdue"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                (
                    l["id"].as_str().unwrap().to_string(),
                    l["waitingMinutes"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    let report = report_at(&app, clock, &staff.manager, now).await;
    assert_eq!(
        ids(&report),
        vec![(a.clone(), 120), (b.clone(), 60), (c.clone(), 30)]
    );

    // The threshold: 1 to 480, refused in Russian otherwise.
    for bad in [json!(0), json!(481), json!(-5), json!("много"), json!(15.5)] {
        let refused = put_settings(
            &app,
            &staff.manager,
            json!({"responseThresholdMinutes": bad}),
        )
        .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            refused.text()
        );
        assert_eq!(
            refused.json(),
            json!({"error": "Порог ответа — от 1 до 480 минут", "field": "responseThresholdMinutes"}),
            "{bad}"
        );
    }
    let settings = app
        .admin_with(&staff.manager, Method::GET, "/api/admin/settings", None)
        .await
        .json();
    assert_eq!(settings["responseThresholdMinutes"], 15);
    // Not public.
    let public = app.get("/api/settings").await.json();
    assert!(public.get("responseThresholdMinutes").is_none(), "{public}");

    let saved = put_settings(
        &app,
        &staff.manager,
        json!({"responseThresholdMinutes": 60}),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert_eq!(saved.json()["responseThresholdMinutes"], 60);
    let report = report_at(&app, clock, &staff.manager, now).await;
    assert_eq!(report["thresholdMinutes"], 60);
    assert_eq!(ids(&report), vec![(a.clone(), 120), (b.clone(), 60)]);

    for (threshold, expected) in [
        (
            json!(1),
            vec![
                (a.clone(), 120),
                (b.clone(), 60),
                (c.clone(), 30),
                (d.clone(), 10),
            ],
        ),
        (json!("480"), vec![]),
    ] {
        let saved = put_settings(
            &app,
            &staff.manager,
            json!({"responseThresholdMinutes": threshold}),
        )
        .await;
        assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
        let report = report_at(&app, clock, &staff.manager, now).await;
        assert_eq!(ids(&report), expected, "{threshold}");
    }
    assert_eq!(
        app.admin_with(&staff.manager, Method::GET, "/api/admin/settings", None)
            .await
            .json()["responseThresholdMinutes"],
        480
    );
}

#[tokio::test]
async fn staff_only() {
    let (app, _state) = app();
    let answer = app.get("/api/admin/response-times").await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text());
    assert!(!answer.error().is_empty());
    let answer = app
        .send(
            axum::http::Request::put("/api/settings")
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::ORIGIN, "http://localhost:8080")
                .body(axum::body::Body::from(
                    json!({"responseThresholdMinutes": 30}).to_string(),
                ))
                .unwrap(),
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text());
}

/// An app mailing through the SMTP sink on `port`, its jobs running (the
/// outbox worker and the reminders).
fn mailing_app(port: u16) -> (TestApp, AppState, dealership::jobs::Supervisor) {
    let mut captured = None;
    let app = TestApp::with_state(|state| {
        let mut config = (*state.config).clone();
        config.smtp.host = "127.0.0.1".into();
        config.smtp.port = port;
        config.smtp.security = "none".into();
        config.notifications.retry_first_ms = 200;
        config.notifications.retry_max_seconds = 1;
        state.config = Arc::new(config);
        state.channels = Arc::new(dealership::notify::Channels::new(
            state.config.clone(),
            state.db.clone(),
        ));
        captured = Some(state.clone());
    });
    let state: AppState = captured.unwrap();
    app.create_admin();
    dealership::domain::users::create(
        &app.db.conn().unwrap(),
        ANNA,
        ANNA_PASSWORD,
        dealership::domain::roles::Role::Owner,
    )
    .unwrap();
    {
        let conn = app.db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.notification_email = "sales@salon.example".into();
        settings.from_email = "robot@salon.example".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    }
    let jobs = dealership::server::start_jobs(&state);
    (app, state, jobs)
}

fn reminders(state: &AppState) -> Reminders {
    Reminders::new(
        state.db.clone(),
        state.channels.clone(),
        state.clock.clone(),
        state.wake.clone(),
    )
}

fn reminder_mails(sink: &SmtpSink) -> Vec<Value> {
    sink.messages()
        .into_iter()
        .filter(|m| {
            m["subject"]
                .as_str()
                .unwrap()
                .starts_with("Заявка ждёт ответа")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lead_left_new_past_the_threshold_is_reminded_once() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, state, jobs) = mailing_app(sink.port);
    let clock = &state.clock;
    let staff = Staff::log_in(&app).await;
    let wednesday = base_monday() + Duration::days(2);
    let forgotten = lead_at(&app, clock, msk(wednesday, 10, 0), "Иван Забытый").await;
    let quick = lead_at(&app, clock, msk(wednesday, 10, 0), "Пётр Быстров").await;
    status_at(
        &app,
        clock,
        &staff.anna,
        msk(wednesday, 10, 5),
        &quick,
        "in_progress",
    )
    .await;
    // Both leads' own mails.
    eventually("the lead mails", StdDuration::from_secs(10), || {
        (sink.messages().len() == 2).then_some(())
    })
    .await;

    // 10 minutes: not yet due.
    set_clock(clock, msk(wednesday, 10, 10) + INTO_THE_MINUTE);
    let run = reminders(&state);
    assert!(run.run().await.unwrap().is_empty());
    // 20 minutes: due, once however often the job runs.
    set_clock(clock, msk(wednesday, 10, 20) + INTO_THE_MINUTE);
    let reminded = run.run().await.unwrap();
    assert_eq!(reminded.len(), 1);
    assert_eq!(reminded[0].lead_id, forgotten);
    assert_eq!(reminded[0].waiting_minutes, 20);
    assert!(run.run().await.unwrap().is_empty());
    set_clock(clock, msk(wednesday, 15, 0));
    assert!(run.run().await.unwrap().is_empty());

    let mail = eventually("the reminder", StdDuration::from_secs(10), || {
        reminder_mails(&sink).into_iter().next()
    })
    .await;
    assert_eq!(mail["subject"], "Заявка ждёт ответа: Иван Забытый, 20 мин");
    assert_eq!(mail["rcpt_tos"], json!(["sales@salon.example"]));
    assert!(
        mail["message_id"]
            .as_str()
            .unwrap()
            .starts_with(&format!("<reminder-{forgotten}-"))
    );
    let text = mail["text"].as_str().unwrap().replace("\r\n", "\n");
    for expected in [
        "Заявка ждёт ответа: Иван Забытый, 20 мин\n",
        "Имя: Иван Забытый",
        "Телефон: +79991234567",
        "Статус: Новый",
        &format!("http://localhost:8080/admin/leads?lead={forgotten}"),
    ] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    let html = mail["html"].as_str().unwrap();
    assert!(
        html.contains("<h2>Заявка ждёт ответа: Иван Забытый, 20 мин</h2>"),
        "{html}"
    );

    // Still one a while later; none about the lead answered in time.
    tokio::time::sleep(StdDuration::from_millis(500)).await;
    assert_eq!(reminder_mails(&sink).len(), 1);
    assert_eq!(sink.messages().len(), 3);

    // The dashboard says when; the lead's deliveries show the reminder sent.
    let report = report_at(&app, clock, &staff.manager, msk(wednesday, 15, 0)).await;
    let overdue = report["overdue"].as_array().unwrap();
    assert_eq!(overdue.len(), 1);
    assert_eq!(overdue[0]["id"], forgotten);
    assert_eq!(overdue[0]["waitingMinutes"], 300);
    let reminded = overdue[0]["remindedAt"].as_str().unwrap();
    assert!(
        reminded.starts_with(&to_second(msk(wednesday, 10, 20) + INTO_THE_MINUTE)),
        "{reminded}"
    );
    let deliveries = eventually(
        "the reminder marked sent",
        StdDuration::from_secs(5),
        || {
            let count = app
                .count("SELECT count(*) FROM outbox WHERE kind = 'reminder' AND status = 'sent'");
            (count == 1).then_some(())
        },
    );
    deliveries.await;
    let list = app
        .admin_with(
            &staff.manager,
            Method::GET,
            &format!("/api/admin/leads/{forgotten}/deliveries"),
            None,
        )
        .await
        .json();
    let kinds: Vec<(&str, &str)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["kind"].as_str().unwrap(), d["state"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, vec![("lead", "sent"), ("reminder", "sent")]);
    assert_eq!(
        app.count(&format!(
            "SELECT count(*) FROM outbox WHERE kind = 'reminder' AND lead_id = '{quick}'"
        )),
        0
    );
    assert!(jobs.stop(StdDuration::from_secs(5)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_reminder_without_a_channel_and_none_for_a_deleted_lead() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, state, jobs) = mailing_app(sink.port);
    let clock = &state.clock;
    let staff = Staff::log_in(&app).await;
    let wednesday = base_monday() + Duration::days(2);
    // E-mail notifications off: no channel, nothing reminded.
    let off = put_settings(
        &app,
        &staff.manager,
        json!({"emailNotificationsEnabled": false}),
    )
    .await;
    assert_eq!(off.status, StatusCode::OK, "{}", off.text());
    let lead = lead_at(&app, clock, msk(wednesday, 10, 0), "Без канала").await;
    set_clock(clock, msk(wednesday, 11, 0));
    let run = reminders(&state);
    assert!(run.run().await.unwrap().is_empty());
    assert_eq!(
        app.count(&format!(
            "SELECT count(*) FROM leads WHERE id = '{lead}' AND reminded_at IS NULL"
        )),
        1
    );

    // Back on: the reminder is queued; the lead is deleted before the worker
    // takes it (the worker is held by stopping the jobs first).
    assert!(jobs.stop(StdDuration::from_secs(5)).await);
    let on = put_settings(
        &app,
        &staff.manager,
        json!({"emailNotificationsEnabled": true}),
    )
    .await;
    assert_eq!(on.status, StatusCode::OK, "{}", on.text());
    assert_eq!(run.run().await.unwrap().len(), 1);
    let deleted = app
        .admin_with(
            &staff.manager,
            Method::DELETE,
            &format!("/api/leads/{lead}"),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text());
    let jobs = dealership::server::start_jobs(&state);
    eventually("the reminder given up", StdDuration::from_secs(10), || {
        let count = app.count(
            "SELECT count(*) FROM outbox WHERE kind = 'reminder' AND status = 'failed'
             AND last_error = 'Заявка удалена до отправки'",
        );
        (count == 1).then_some(())
    })
    .await;
    assert!(reminder_mails(&sink).is_empty());
    assert!(jobs.stop(StdDuration::from_secs(5)).await);
}

/// A call taken at `at` as a Mango webhook would bring it (the inbox's
/// `take`, in a transaction); the lead it made, if any.
fn call_at(
    app: &TestApp,
    state: &AppState,
    at: DateTime<Utc>,
    id: &str,
    caller: &str,
    answered: bool,
) -> Option<String> {
    use dealership::calltracking::{Provider, inbox};
    use dealership::domain::calls::Call;
    set_clock(&state.clock, at);
    let mut conn = app.db.conn().unwrap();
    let tx = conn.transaction().unwrap();
    let settings = dealership::domain::settings::get(&tx).unwrap();
    let call = Call {
        call_id: id.into(),
        market_id: None,
        vin: None,
        caller: Some(caller.into()),
        called: Some("+78123334455".into()),
        at,
        duration_seconds: if answered { 95 } else { 20 },
        talk_seconds: if answered { 80 } else { 0 },
        wait_seconds: if answered { 15 } else { 20 },
        answered,
        record_url: None,
        source: None,
        utm: Default::default(),
        client_id: None,
        page_url: None,
    };
    inbox::take_all(
        &tx,
        &state.config,
        &settings,
        inbox::Origin::Tracking(Provider::Mango),
        &[call],
        at,
    )
    .unwrap();
    let lead = tx
        .query_row(
            "SELECT lead_id FROM calls WHERE provider = 'mango' AND call_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    tx.commit().unwrap();
    lead
}

async fn assign(app: &TestApp, cookie: &str, lead: &str, login: &str) {
    let user: String = app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM users WHERE username = ?1", [login], |r| {
            r.get(0)
        })
        .unwrap();
    let answer = app
        .admin_with(
            cookie,
            Method::PUT,
            &format!("/api/leads/{lead}/assignee"),
            Some(json!({"assigneeId": user})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
}

#[tokio::test]
async fn calls_count_and_missed_calls_called_back_within_the_deadline_per_manager() {
    let (app, state) = app();
    let clock = &state.clock;
    let staff = Staff::log_in(&app).await;
    let last_tuesday = base_monday() + Duration::days(1);
    let wednesday = last_tuesday + Duration::days(8);

    // Three missed calls: the manager calls the first back in 10 minutes
    // (within the default 15), Anna the second in an hour, nobody the
    // third; a fourth call is taken.
    let first = call_at(
        &app,
        &state,
        msk(last_tuesday, 10, 0),
        "m-1",
        "+79990000001",
        false,
    )
    .expect("a missed call is a lead");
    let second = call_at(
        &app,
        &state,
        msk(last_tuesday, 11, 0),
        "m-2",
        "+79990000002",
        false,
    )
    .expect("a missed call is a lead");
    let third = call_at(
        &app,
        &state,
        msk(last_tuesday, 12, 0),
        "m-3",
        "+79990000003",
        false,
    )
    .expect("a missed call is a lead");
    call_at(
        &app,
        &state,
        msk(last_tuesday, 13, 0),
        "m-4",
        "+79990000004",
        true,
    );
    let types: Vec<String> = app
        .db
        .conn()
        .unwrap()
        .prepare("SELECT type FROM leads WHERE id IN (?1, ?2, ?3)")
        .unwrap()
        .query_map([&first, &second, &third], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(types, ["missed_call"; 3]);
    assign(&app, &staff.anna, &first, ADMIN).await;
    assign(&app, &staff.anna, &second, ANNA).await;
    app.admin_with(
        &staff.anna,
        Method::PUT,
        &format!("/api/leads/{third}/assignee"),
        Some(json!({"assigneeId": null})),
    )
    .await;
    status_at(
        &app,
        clock,
        &staff.manager,
        msk(last_tuesday, 10, 10),
        &first,
        "in_progress",
    )
    .await;
    status_at(
        &app,
        clock,
        &staff.anna,
        msk(last_tuesday, 12, 0),
        &second,
        "in_progress",
    )
    .await;

    let report = report_at(&app, clock, &staff.anna, msk(wednesday, 12, 0)).await;
    let week = period(&report, "lastWeek");
    assert_eq!(
        week["phone"],
        json!({"calls": 4, "missedCalls": 3, "missed": 3, "calledBack": 2, "inTime": 1}),
        "{report}"
    );
    let missed_of = |login: &str| {
        week["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["username"] == login)
            .map(|u| u["missedCalls"].clone())
            .unwrap_or_else(|| panic!("no {login} in {week}"))
    };
    assert_eq!(
        missed_of(ADMIN),
        json!({"missed": 1, "calledBack": 1, "inTime": 1})
    );
    assert_eq!(
        missed_of(ANNA),
        json!({"missed": 1, "calledBack": 1, "inTime": 0})
    );
    // The answers count as any lead's response time.
    assert_eq!(week["all"]["answered"], 2, "{week}");
    // This week had no calls.
    assert_eq!(
        period(&report, "thisWeek")["phone"],
        json!({"calls": 0, "missedCalls": 0, "missed": 0, "calledBack": 0, "inTime": 0})
    );

    // A threshold of 60 minutes puts Anna's call-back within it.
    let answer = put_settings(&app, &staff.anna, json!({"responseThresholdMinutes": 60})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let report = report_at(&app, clock, &staff.anna, msk(wednesday, 12, 0)).await;
    assert_eq!(
        period(&report, "lastWeek")["phone"]["inTime"],
        2,
        "{report}"
    );
}
