//! Several salons in one install (issue 46, `docs/salons.md`), through the
//! real router on a real SQLite file: the owner adds a salon and moves a
//! car there (audited); the catalogue filters by salon; the car page names
//! its salon's dealer; a lead goes to its car's (or chosen) salon, is given to that
//! salon's managers in its hours only, is announced to its recipients and
//! records the consent naming its operator.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::routing::post;
use chrono::{Datelike, Duration, NaiveDate};
use common::smtp::eventually;
use common::time::{msk, set_clock};
use common::{Answer, TestApp, app_markup, needs_the_server_build, seed_catalogue};
use dealership::clock::Clock;
use dealership::domain::roles::Role;
use dealership::http::AppState;
use serde_json::{Value, json};

fn every_day(open: &str, close: &str) -> Value {
    json!({ "days": vec![json!({"open": open, "close": close}); 7] })
}

/// The second salon as the owner's form sends it.
fn vyborgskaya() -> Value {
    json!({
        "name": "Салон на Выборгской",
        "address": "Выборгское шоссе, 15",
        "fullAddress": "194356, Санкт-Петербург, Выборгское шоссе, 15",
        "latitude": 60.0412,
        "longitude": 30.3205,
        "phone": "+7 (812) 555-44-33",
        "phoneClass": "ct-north",
        "workSchedule": every_day("10:00", "19:00"),
        "telegramChatId": "-100north",
        "notificationEmail": "north@salon.example",
    })
}

async fn owner_of(app: &TestApp) -> String {
    app.create_user("boss", Role::Owner);
    app.login_as("boss").await
}

async fn add_salon(app: &TestApp, owner: &str, body: Value) -> Answer {
    app.admin_with(owner, Method::POST, "/api/admin/salons", Some(body))
        .await
}

fn car_id(app: &TestApp, slug: &str) -> String {
    let conn = app.db.conn().unwrap();
    conn.query_row("SELECT id FROM cars WHERE slug = ?1", [slug], |r| r.get(0))
        .unwrap()
}

fn slugs(answer: &Answer) -> Vec<String> {
    let json = answer.json();
    let list = json.as_array().cloned().unwrap_or_default();
    let mut out: Vec<String> = list
        .iter()
        .map(|c| c["slug"].as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn a_salon_is_added_checked_and_a_car_moved_there_shows_it() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let owner = owner_of(&app).await;
    // One salon: nothing of salons in what visitors read.
    let settings = app.get("/api/settings").await.json();
    assert!(settings.get("salons").is_none(), "{settings}");

    // The form's rules.
    let refused = add_salon(&app, &owner, json!({"name": "  "})).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json()["field"], "name");
    let mut half = vyborgskaya();
    half["longitude"] = Value::Null;
    let refused = add_salon(&app, &owner, half).await;
    assert_eq!(refused.json()["field"], "longitude");
    let mut bad_inn = vyborgskaya();
    bad_inn["operatorInn"] = json!("1234567890");
    let refused = add_salon(&app, &owner, bad_inn).await;
    assert_eq!(refused.json()["field"], "operatorInn");
    let mut bad_type = vyborgskaya();
    bad_type["leadRecipients"] = json!({"no_such_type": {"email": "a@b.ru"}});
    assert_eq!(
        add_salon(&app, &owner, bad_type).await.json()["field"],
        "leadRecipients"
    );
    // A manager may read the salons, not add one.
    app.create_user("mila", Role::Manager);
    let mila = app.login_as("mila").await;
    assert_eq!(
        add_salon(&app, &mila, vyborgskaya()).await.status,
        StatusCode::FORBIDDEN
    );

    let added = add_salon(&app, &owner, vyborgskaya()).await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
    let salon = added.json();
    assert_eq!(salon["id"], 2);
    assert_eq!(salon["workingHours"], "Пн–Вс: 10:00–19:00");
    let listed = app
        .admin_with(&mila, Method::GET, "/api/admin/salons", None)
        .await
        .json();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Автосалон", "Салон на Выборгской"]);

    // Visitors now read both, the main first.
    let settings = app.get("/api/settings").await.json();
    assert_eq!(settings["salons"].as_array().unwrap().len(), 2);
    assert_eq!(settings["salons"][1]["phone"], "+7 (812) 555-44-33");
    assert!(settings["salons"][1].get("telegramChatId").is_none());

    // The move: one action, audited with both salons' names.
    let id = car_id(&app, "haval-f7-used");
    let moved = app
        .admin_with(
            &owner,
            Method::PUT,
            &format!("/api/admin/cars/{id}/salon"),
            Some(json!({"salonId": 2})),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text());
    assert_eq!(moved.json()["salonId"], 2);
    let audit: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT summary FROM audit_log WHERE action = 'move' AND object_id = ?1",
            [&id],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        audit.contains("из салона «Автосалон» в «Салон на Выборгской»"),
        "{audit}"
    );
    let unknown = app
        .admin_with(
            &owner,
            Method::PUT,
            &format!("/api/admin/cars/{id}/salon"),
            Some(json!({"salonId": 9})),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);

    // The catalogue by salon.
    let second = app.get("/api/cars/fast?salon=2&limit=100").await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text());
    assert_eq!(slugs(&second), ["haval-f7-used"]);
    let main = slugs(&app.get("/api/cars/fast?salon=1&limit=100").await);
    assert!(!main.is_empty() && !main.contains(&"haval-f7-used".to_string()));
    assert_eq!(app.get("/api/cars/count?salon=2").await.json()["count"], 1);
    // The server-drawn catalogue page filters the same.
    let page = app.get("/used-cars?salon=2").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text().contains("status=used&salon=2")
            || page.text().contains("status=used\\u0026salon=2")
    );

    // The car page's offer names the dealer holding it.
    let page = app.get("/car/haval-f7-used").await.text();
    assert!(page.contains("\"AutoDealer\""), "no AutoDealer");
    assert!(page.contains("Выборгское шоссе, 15"));
    assert!(page.contains("\"latitude\":60.0412"));
    // Another car's offer names the main salon's dealer.
    let other = app.get("/car/haval-jolion-0").await.text();
    assert!(other.contains("\"name\":\"Автосалон\""), "{other}");

    // A salon with cars stays; the main salon always.
    let refused = app
        .admin_with(&owner, Method::DELETE, "/api/admin/salons/2", None)
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let refused = app
        .admin_with(&owner, Method::DELETE, "/api/admin/salons/1", None)
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    // Moved back, it can go.
    app.admin_with(
        &owner,
        Method::PUT,
        &format!("/api/admin/cars/{id}/salon"),
        Some(json!({"salonId": 1})),
    )
    .await;
    let gone = app
        .admin_with(&owner, Method::DELETE, "/api/admin/salons/2", None)
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    let settings = app.get("/api/settings").await.json();
    assert!(settings.get("salons").is_none());
}

#[tokio::test]
async fn the_main_salon_is_the_company_settings() {
    let app = TestApp::new();
    let owner = owner_of(&app).await;
    let mut main = vyborgskaya();
    main["name"] = json!("Нева Моторс");
    main["leadRecipients"] = json!({"trade_in": {"email": "tradein@neva.example"}});
    let changed = app
        .admin_with(&owner, Method::PUT, "/api/admin/salons/1", Some(main))
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
    let settings = app
        .admin_with(&owner, Method::GET, "/api/admin/settings", None)
        .await
        .json();
    assert_eq!(settings["salonName"], "Нева Моторс");
    assert_eq!(settings["telegramChatId"], "-100north");
    assert_eq!(
        settings["leadRecipients"]["trade_in"]["email"],
        "tradein@neva.example"
    );
    let public = app.get("/api/settings").await.json();
    assert_eq!(public["latitude"], 60.0412);
    assert!(public.get("salons").is_none());
}

/// A Wednesday three weeks ago (Moscow): the outbox delivers at once.
fn wednesday() -> NaiveDate {
    let today = Clock::default().moscow_today();
    today - Duration::days(i64::from(today.weekday().num_days_from_monday()) + 21 - 2)
}

#[derive(Clone, Default)]
struct Chats(Arc<Mutex<Vec<(String, String)>>>);

async fn send_message(State(chats): State<Chats>, Json(body): Json<Value>) -> Json<Value> {
    let chat = body["chat_id"].as_str().unwrap_or_default().to_string();
    let text = body["text"].as_str().unwrap_or_default().to_string();
    chats.0.lock().unwrap().push((chat, text));
    Json(json!({"ok": true, "result": {"message_id": 1}}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lead_goes_to_its_salon_its_managers_in_its_hours_and_its_chat() {
    let chats = Chats::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let fake = axum::Router::new()
        .route("/{bot}/sendMessage", post(send_message))
        .with_state(chats.clone());
    tokio::spawn(async move { axum::serve(listener, fake).await.unwrap() });
    let mut captured = None;
    let app = TestApp::with_state(|state| {
        let mut config = (*state.config).clone();
        config.telegram.bot_token = "1:TOKEN".into();
        config.telegram.chat_id = "-100main".into();
        config.telegram.api_url = format!("http://127.0.0.1:{port}");
        state.config = Arc::new(config);
        state.channels = Arc::new(dealership::notify::Channels::new(
            state.config.clone(),
            state.db.clone(),
        ));
        captured = Some(state.clone());
    });
    let state: AppState = captured.unwrap();
    let jobs = dealership::server::start_jobs(&state);
    seed_catalogue(&app);
    let owner = owner_of(&app).await;
    let rule = app
        .admin_with(
            &owner,
            Method::PUT,
            "/api/settings",
            Some(json!({"leadAssignment": "round_robin"})),
        )
        .await;
    assert_eq!(rule.status, StatusCode::OK, "{}", rule.text());
    assert_eq!(
        add_salon(&app, &owner, vyborgskaya()).await.status,
        StatusCode::CREATED
    );
    // Anna works in the main salon, Boris in the second.
    for (login, salon) in [("anna", 1), ("boris", 2)] {
        let added = app
            .admin_with(
                &owner,
                Method::POST,
                "/api/admin/users",
                Some(json!({"username": login, "role": "manager",
                    "password": "Secret-password-1", "salonIds": [salon]})),
            )
            .await;
        assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
        assert_eq!(added.json()["user"]["salonIds"], json!([salon]));
        app.db
            .conn()
            .unwrap()
            .execute(
                "UPDATE users SET must_change_password = 0 WHERE username = ?1",
                [login],
            )
            .unwrap();
    }
    let car = car_id(&app, "haval-f7-used");
    app.admin_with(
        &owner,
        Method::PUT,
        &format!("/api/admin/cars/{car}/salon"),
        Some(json!({"salonId": 2})),
    )
    .await;
    let lead = |extra: Value| {
        let mut body = json!({"type": "contact_form", "name": "Иван", "phone": "+79991234567",
            "consent": true});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let post = |body: Value| {
        let app = &app;
        async move {
            let answer = app.post_json("/api/leads", &body).await;
            assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
            answer.json()
        }
    };
    let who = |id: &str| -> Option<String> {
        app.db
            .conn()
            .unwrap()
            .query_row(
                "SELECT u.username FROM leads l LEFT JOIN users u ON u.id = l.assignee_id
                 WHERE l.id = ?1",
                [id],
                |r| r.get(0),
            )
            .unwrap()
    };

    // 09:30: the main salon is open (09–21), the second not yet (10–19).
    set_clock(&state.clock, msk(wednesday(), 9, 30));
    let early = post(lead(json!({"carId": car}))).await;
    assert_eq!(early["salonId"], 2);
    assert_eq!(who(early["id"].as_str().unwrap()), None);
    let main = post(lead(json!({}))).await;
    assert!(main.get("salonId").is_none());
    assert_eq!(who(main["id"].as_str().unwrap()).as_deref(), Some("anna"));
    // The car's salon whatever the form says.
    let about_car = post(lead(json!({"carId": car, "salonId": 1}))).await;
    assert_eq!(about_car["salonId"], 2);

    // 12:00: both open; the second salon's leads go to Boris only.
    set_clock(&state.clock, msk(wednesday(), 12, 0));
    for _ in 0..3 {
        let chosen = post(lead(json!({"salonId": 2}))).await;
        assert_eq!(
            who(chosen["id"].as_str().unwrap()).as_deref(),
            Some("boris")
        );
    }
    let unknown = post(lead(json!({"salonId": 77}))).await;
    assert!(unknown.get("salonId").is_none());

    // Anna does not see the second salon's unassigned lead; Boris does.
    let anna = app.login_with("anna", "Secret-password-1").await;
    let early_id = early["id"].as_str().unwrap();
    let seen = app
        .admin_with(&anna, Method::GET, &format!("/api/leads/{early_id}"), None)
        .await;
    assert_eq!(seen.status, StatusCode::FORBIDDEN);
    let listed = app
        .admin_with(&anna, Method::GET, "/api/leads", None)
        .await
        .json();
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["id"] != early["id"])
    );
    let unassigned = app
        .admin_with(&anna, Method::GET, "/api/leads?assignee=none", None)
        .await
        .json();
    assert!(
        unassigned
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["id"] != early["id"])
    );
    let boris = app.login_with("boris", "Secret-password-1").await;
    let unassigned = app
        .admin_with(&boris, Method::GET, "/api/leads?assignee=none", None)
        .await
        .json();
    assert!(
        unassigned
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["id"] == early["id"])
    );
    let seen = app
        .admin_with(&boris, Method::GET, &format!("/api/leads/{early_id}"), None)
        .await;
    assert_eq!(seen.status, StatusCode::OK);

    // The dashboard's figures in all and per salon.
    let figures = |query: &'static str| {
        let app = &app;
        let owner = owner.clone();
        async move {
            let answer = app
                .admin_with(
                    &owner,
                    Method::GET,
                    &format!("/api/admin/dashboard{query}"),
                    None,
                )
                .await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
            answer.json()
        }
    };
    let all = figures("").await;
    let second = figures("?salon=2").await;
    let main_salon = figures("?salon=1").await;
    assert_eq!(all["leadsTotal"], 7);
    assert_eq!(
        (
            second["leadsTotal"].as_i64(),
            main_salon["leadsTotal"].as_i64()
        ),
        (Some(5), Some(2))
    );
    assert_eq!(second["carsPublished"], 1);
    assert_eq!(
        main_salon["carsPublished"].as_i64().unwrap() + 1,
        all["carsPublished"].as_i64().unwrap()
    );
    let times = app
        .admin_with(
            &owner,
            Method::GET,
            "/api/admin/response-times?salon=2",
            None,
        )
        .await;
    assert_eq!(times.status, StatusCode::OK, "{}", times.text());
    let refused = app
        .admin_with(
            &owner,
            Method::GET,
            "/api/admin/response-times?salon=x",
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    for bad in [
        "/api/admin/response-times?salon=0",
        "/api/admin/dashboard?salon=0",
    ] {
        let refused = app.admin_with(&owner, Method::GET, bad, None).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{bad}");
    }
    assert_eq!(
        app.get("/api/cars/fast?salon=0").await.status,
        StatusCode::BAD_REQUEST
    );
    let unknown = app
        .admin_with(
            &owner,
            Method::DELETE,
            "/api/admin/salons/9223372036854775808",
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.json()["error"], "Салон не найден");

    // Each lead in its salon's chat: 5 in the second's, 2 in the main's.
    let chats_seen = eventually("the Telegram messages", StdDuration::from_secs(15), || {
        let seen = chats.0.lock().unwrap().clone();
        (seen.len() >= 7).then_some(seen)
    })
    .await;
    let north = chats_seen.iter().filter(|(c, _)| c == "-100north").count();
    let main_chat = chats_seen.iter().filter(|(c, _)| c == "-100main").count();
    assert_eq!((north, main_chat), (5, 2), "{chats_seen:?}");
    assert!(jobs.stop(StdDuration::from_secs(5)).await);
}

#[tokio::test]
async fn the_consent_names_the_operator_of_a_salon_that_is_its_own_company() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let owner = owner_of(&app).await;
    let main_version = app.get("/api/legal/consent").await.json()["version"]
        .as_i64()
        .unwrap();
    let mut own = vyborgskaya();
    own["operatorName"] = json!("ООО «Север Авто»");
    own["operatorInn"] = json!("7707083893");
    own["operatorOgrn"] = json!("1027700132195");
    own["operatorAddress"] = json!("Санкт-Петербург, Выборгское шоссе, 15");
    assert_eq!(
        add_salon(&app, &owner, own).await.status,
        StatusCode::CREATED
    );
    let consent = app.get("/api/legal/consent?salon=2").await.json();
    let text = consent["text"].as_str().unwrap();
    assert!(text.contains("ООО «Север Авто» (ИНН 7707083893"), "{text}");
    let version = consent["version"].as_i64().unwrap();
    assert_ne!(version, main_version);
    // The consent page arrives drawn with the salon's texts.
    let page = app.get("/consent?salon=2").await.text();
    assert!(
        page.contains("ООО «Север Авто»"),
        "the salon's consent page"
    );
    assert!(!app.get("/consent").await.text().contains("Север Авто"));
    let main = app.get("/api/legal/consent").await.json();
    assert_eq!(main["version"].as_i64().unwrap(), main_version);
    assert!(!main["text"].as_str().unwrap().contains("Север Авто"));
    // A lead about a car of that salon records its texts' version.
    let car = car_id(&app, "haval-f7-used");
    app.admin_with(
        &owner,
        Method::PUT,
        &format!("/api/admin/cars/{car}/salon"),
        Some(json!({"salonId": 2})),
    )
    .await;
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": "Иван", "phone": "+79991234567",
                "consent": true, "carId": car}),
        )
        .await
        .json();
    assert_eq!(lead["consentVersion"].as_i64().unwrap(), version);
    let plain = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": "Иван", "phone": "+79991234567",
                "consent": true}),
        )
        .await
        .json();
    assert_eq!(plain["consentVersion"].as_i64().unwrap(), main_version);
}

/// The values of `attribute="…"` in `markup`, in order.
fn attribute_values<'a>(markup: &'a str, attribute: &str) -> Vec<&'a str> {
    let opening = format!(" {attribute}=\"");
    markup
        .match_indices(&opening)
        .filter_map(|(at, _)| {
            let rest = &markup[at + opening.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

#[tokio::test]
async fn a_form_asking_which_salon_is_drawn_with_one_element_per_id_the_first_time() {
    // The salon select is a part loaded lazily: the first drawing of a
    // rendering thread waits for it and draws it again after the rest of
    // the form, whose ids must go on where the form's left off.
    needs_the_server_build();
    let app = TestApp::new();
    seed_catalogue(&app);
    let owner = owner_of(&app).await;
    assert_eq!(
        add_salon(&app, &owner, vyborgskaya()).await.status,
        StatusCode::CREATED
    );
    for path in ["/trade-in"] {
        let page = app.get(path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        let html = page.text();
        let markup = app_markup(&html);
        assert!(
            markup.contains("data-testid=\"salon-select\""),
            "{path}: the salon select drawn"
        );
        let ids = attribute_values(markup, "id");
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            ids.len(),
            "{path}: ids drawn twice in {ids:?}"
        );
        for target in attribute_values(markup, "for") {
            assert!(
                ids.contains(&target),
                "{path}: a label for {target}, no such element"
            );
        }
    }
}
