//! Leads given out by the owner's rule (issue 25, `docs/leads.md` "Who
//! answers a lead"), through the real router on a real SQLite file: round
//! robin and least loaded over many leads, only among the active managers
//! whose working hours (their own or the salon's) include the moment the
//! lead arrives, at known moments of the server's clock; the assignee told
//! by e-mail through a real SMTP server; response times counted for the
//! assignee.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::collections::BTreeMap;
use std::time::Duration as StdDuration;

use axum::http::{Method, StatusCode};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use common::smtp::{SmtpSink, eventually, free_port, mailing_app};
use common::time::{msk, set_clock};
use common::{Answer, TestApp};
use dealership::clock::Clock;
use dealership::domain::roles::Role;
use dealership::http::AppState;
use serde_json::{Value, json};

/// A Wednesday three weeks ago (Moscow): the outbox delivers at once.
fn wednesday() -> NaiveDate {
    let today = Clock::default().moscow_today();
    today - Duration::days(i64::from(today.weekday().num_days_from_monday()) + 21 - 2)
}

/// Seven days of the same hours.
fn every_day(open: &str, close: &str) -> Value {
    json!({ "days": vec![json!({"open": open, "close": close}); 7] })
}

struct Office<'a> {
    app: &'a TestApp,
    clock: &'a Clock,
    owner: String,
}

impl Office<'_> {
    async fn owner(&self, method: Method, path: &str, body: Option<Value>) -> Answer {
        self.app.admin_with(&self.owner, method, path, body).await
    }

    async fn id_of(&self, login: &str) -> String {
        let users = self.owner(Method::GET, "/api/admin/users", None).await;
        let users = users.json();
        let user = users
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["username"] == login);
        user.unwrap()["id"].as_str().unwrap().to_string()
    }

    async fn change(&self, login: &str, change: Value) {
        let id = self.id_of(login).await;
        let answer = self
            .owner(Method::PUT, &format!("/api/admin/users/{id}"), Some(change))
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{login}: {}", answer.text());
    }

    async fn rule(&self, rule: &str) {
        let answer = self
            .owner(
                Method::PUT,
                "/api/settings",
                Some(json!({ "leadAssignment": rule })),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        assert_eq!(answer.json()["leadAssignment"], rule);
    }

    /// A lead arriving at `at`; gives its id.
    async fn lead_at(&self, at: DateTime<Utc>, name: &str) -> String {
        set_clock(self.clock, at);
        let answer = self
            .app
            .post_json(
                "/api/leads",
                &json!({"type": "contact_form", "name": name, "phone": "89215551234",
                        "consent": true}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
        // The visitor is not told who will call.
        assert_eq!(answer.json()["assigneeId"], Value::Null);
        answer.json()["id"].as_str().unwrap().to_string()
    }

    /// Who the lead is assigned to (their login), or "-" for nobody.
    async fn assignee(&self, lead: &str) -> String {
        let lead = self
            .owner(Method::GET, &format!("/api/leads/{lead}"), None)
            .await
            .json();
        match lead["assigneeId"].as_str() {
            Some(id) => {
                let users = self.owner(Method::GET, "/api/admin/users", None).await;
                let users = users.json();
                let user = users.as_array().unwrap().iter().find(|u| u["id"] == id);
                user.unwrap()["username"].as_str().unwrap().to_string()
            }
            None => "-".into(),
        }
    }

    /// Leads arriving at `at` one after another; gives their assignees.
    async fn arrivals(&self, at: DateTime<Utc>, count: usize) -> Vec<String> {
        let mut out = Vec::new();
        for n in 0..count {
            let lead = self.lead_at(at, &format!("Клиент {n}")).await;
            out.push(self.assignee(&lead).await);
        }
        out
    }

    /// Open leads per login, from the team screen.
    async fn open_leads(&self) -> BTreeMap<String, i64> {
        let users = self
            .owner(Method::GET, "/api/admin/users", None)
            .await
            .json();
        users
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["openLeads"].as_i64().unwrap() > 0)
            .map(|u| {
                (
                    u["username"].as_str().unwrap().to_string(),
                    u["openLeads"].as_i64().unwrap(),
                )
            })
            .collect()
    }
}

/// An app with its state (for the clock) and an owner's session.
async fn office_app() -> (TestApp, AppState, String) {
    let mut captured = None;
    let app = TestApp::with_state(|state| captured = Some(state.clone()));
    app.create_user("owner", Role::Owner);
    let owner = app.login_as("owner").await;
    (app, captured.unwrap(), owner)
}

#[tokio::test]
async fn round_robin_goes_in_turn_among_the_managers_at_work() {
    let (app, state, owner) = office_app().await;
    let office = Office {
        app: &app,
        clock: &state.clock,
        owner,
    };
    // The salon works 09:00-21:00 every day (the default).
    app.create_user("anna", Role::Manager); // the salon's hours
    app.create_user("boris", Role::Manager);
    app.create_user("carl", Role::Manager);
    app.create_user("dina", Role::Manager);
    app.create_user("erik", Role::Editor);
    office
        .change(
            "boris",
            json!({"workSchedule": every_day("09:00", "18:00")}),
        )
        .await;
    office
        .change("carl", json!({"workSchedule": every_day("18:00", "23:00")}))
        .await;
    office.change("dina", json!({"blocked": true})).await;
    // Not yet with a password of their own: an invitation, a one-time one.
    for (login, password) in [("fedor", Value::Null), ("gleb", json!("one-time-pass"))] {
        let answer = office
            .owner(
                Method::POST,
                "/api/admin/users",
                Some(json!({"username": login, "role": "manager", "password": password})),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    }
    let day = wednesday();

    // By hand (the default): nobody is picked.
    assert_eq!(office.arrivals(msk(day, 12, 0), 1).await, ["-"]);

    office.rule("round_robin").await;
    // Noon: Anna and Boris (Carl starts at 18:00), in turn.
    assert_eq!(
        office.arrivals(msk(day, 12, 0), 6).await,
        ["anna", "boris", "anna", "boris", "anna", "boris"]
    );
    // 19:00: Boris has gone home; Carl, who never had one, comes first.
    assert_eq!(
        office.arrivals(msk(day, 19, 0), 4).await,
        ["carl", "anna", "carl", "anna"]
    );
    // 22:00: the salon is closed; Carl works till 23:00.
    assert_eq!(office.arrivals(msk(day, 22, 0), 2).await, ["carl", "carl"]);
    // 23:30: nobody at work; the lead waits unassigned.
    assert_eq!(office.arrivals(msk(day, 23, 30), 1).await, ["-"]);
    // Gleb sets his own password: he is in the round from then on.
    let gleb = app.login_with("gleb", "one-time-pass").await;
    let answer = app
        .admin_with(
            &gleb,
            Method::PUT,
            "/api/admin/me/password",
            Some(json!({"currentPassword": "one-time-pass", "password": "his-own-pass"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT, "{}", answer.text());
    let next_day = day + Duration::days(1);
    assert_eq!(
        office.arrivals(msk(next_day, 10, 0), 3).await,
        ["gleb", "boris", "anna"]
    );
    let open = office.open_leads().await;
    assert_eq!(
        open,
        BTreeMap::from([
            ("anna".into(), 6),
            ("boris".into(), 4),
            ("carl".into(), 4),
            ("gleb".into(), 1),
        ])
    );
}

#[tokio::test]
async fn least_loaded_gives_to_the_fewest_open_leads() {
    let (app, state, owner) = office_app().await;
    let office = Office {
        app: &app,
        clock: &state.clock,
        owner,
    };
    app.create_user("anna", Role::Manager);
    app.create_user("boris", Role::Manager);
    app.create_user("carl", Role::Manager);
    office
        .change(
            "carl",
            json!({"workSchedule": {"days": [null, null, null, null, null, null, null]}}),
        )
        .await;
    let day = wednesday();
    let noon = msk(day, 12, 0);
    // Three leads Anna was given by hand.
    let anna_id = office.id_of("anna").await;
    let mut annas = Vec::new();
    for n in 0..3 {
        let lead = office.lead_at(noon, &format!("Ранний {n}")).await;
        let answer = office
            .owner(
                Method::PUT,
                &format!("/api/leads/{lead}/assignee"),
                Some(json!({"assigneeId": anna_id})),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        annas.push(lead);
    }
    office.rule("least_loaded").await;
    // Boris catches up, then they alternate (Carl never works).
    assert_eq!(
        office.arrivals(noon, 5).await,
        ["boris", "boris", "boris", "anna", "boris"]
    );
    // Anna closes two: she has the fewest open until they are level.
    let anna = app.login_as("anna").await;
    for lead in &annas[..2] {
        let answer = app
            .admin_with(
                &anna,
                Method::PUT,
                &format!("/api/leads/{lead}/status"),
                Some(json!({"status": "completed"})),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    }
    assert_eq!(office.arrivals(noon, 3).await, ["anna", "anna", "boris"]);
    // Many more: the load stays level.
    let many = office.arrivals(noon, 41).await;
    let open = office.open_leads().await;
    assert_eq!(
        open,
        BTreeMap::from([("anna".into(), 25), ("boris".into(), 25)])
    );
    assert!(!many.contains(&"carl".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_assignee_is_told_at_their_own_address() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, state, jobs) = mailing_app(sink.port, |app| {
        let conn = app.db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.notification_email = "sales@salon.example".into();
        settings.from_email = "robot@salon.example".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    });
    app.create_user("owner", Role::Owner);
    app.create_user("anna", Role::Manager);
    app.create_user("boris", Role::Manager);
    let office = Office {
        app: &app,
        clock: &state.clock,
        owner: app.login_as("owner").await,
    };
    office
        .change(
            "anna",
            json!({"name": "Анна Петрова", "email": "anna@salon.example"}),
        )
        .await;
    office.rule("round_robin").await;
    let noon = msk(wednesday(), 12, 0);
    let first = office.lead_at(noon, "Иван Первый").await;
    let second = office.lead_at(noon, "Пётр Второй").await;
    assert_eq!(office.assignee(&first).await, "anna");
    assert_eq!(office.assignee(&second).await, "boris");
    // Two lead mails to the sales address, one to Anna; Boris has no
    // address, so nothing for him.
    let mails = eventually("three mails", StdDuration::from_secs(10), || {
        let mails = sink.messages();
        (mails.len() >= 3).then_some(mails)
    })
    .await;
    let to = |address: &str| -> Vec<Value> {
        let mails = sink.messages();
        mails
            .into_iter()
            .filter(|m| m["rcpt_tos"] == json!([address]))
            .collect()
    };
    assert_eq!(mails.len(), 3, "{mails:#?}");
    let annas = to("anna@salon.example");
    assert_eq!(annas.len(), 1);
    assert_eq!(annas[0]["subject"], "Вам передана заявка: Иван Первый");
    let text = annas[0]["text"].as_str().unwrap();
    assert!(text.contains("Ответственный: Анна Петрова"), "{text}");
    assert!(text.contains("Телефон: +79215551234"), "{text}");
    let sales = to("sales@salon.example");
    assert_eq!(sales.len(), 2);
    assert!(
        sales
            .iter()
            .any(|m| m["text"].as_str().unwrap().contains("Ответственный: boris")),
        "{sales:#?}"
    );

    // The owner passes Boris's lead to Anna: she is told; taking one
    // oneself tells nobody.
    let anna_id = office.id_of("anna").await;
    let answer = office
        .owner(
            Method::PUT,
            &format!("/api/leads/{second}/assignee"),
            Some(json!({"assigneeId": anna_id})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    eventually("the passed lead's mail", StdDuration::from_secs(10), || {
        (to("anna@salon.example").len() == 2).then_some(())
    })
    .await;
    let passed = to("anna@salon.example");
    assert_eq!(passed[1]["subject"], "Вам передана заявка: Пётр Второй");
    office.rule("none").await;
    let third = office.lead_at(noon, "Сидор Третий").await;
    let anna = app.login_as("anna").await;
    let answer = app
        .admin_with(
            &anna,
            Method::PUT,
            &format!("/api/leads/{third}/assignee"),
            Some(json!({"assigneeId": anna_id})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    // The third lead's own mail to sales; none more to Anna.
    eventually("the third lead's mail", StdDuration::from_secs(10), || {
        (sink.messages().len() == 5).then_some(())
    })
    .await;
    tokio::time::sleep(StdDuration::from_millis(500)).await;
    assert_eq!(to("anna@salon.example").len(), 2);
    assert!(jobs.stop(StdDuration::from_secs(5)).await);
}

#[tokio::test]
async fn response_times_count_for_the_assignee() {
    let (app, state, owner) = office_app().await;
    let office = Office {
        app: &app,
        clock: &state.clock,
        owner,
    };
    app.create_user("anna", Role::Manager);
    office.rule("round_robin").await;
    let day = wednesday();
    let lead = office.lead_at(msk(day, 12, 0), "Иван").await;
    assert_eq!(office.assignee(&lead).await, "anna");
    // The owner answers Anna's lead 7 minutes later: it counts for Anna.
    set_clock(&state.clock, msk(day, 12, 7) + Duration::seconds(30));
    let answer = office
        .owner(
            Method::PUT,
            &format!("/api/leads/{lead}/status"),
            Some(json!({"status": "in_progress"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    set_clock(&state.clock, msk(day, 13, 0));
    let report = office
        .owner(Method::GET, "/api/admin/response-times", None)
        .await
        .json();
    let today = &report["periods"][0];
    assert_eq!(today["period"], "today");
    assert_eq!(
        today["users"],
        json!([{"username": "anna", "answered": 1, "medianMinutes": 7, "p90Minutes": 7,
                "missedCalls": {"missed": 0, "calledBack": 0, "inTime": 0}}])
    );
}
