//! Personal data by the law (issue 26, `docs/personal-data.md`), through
//! the real router on a real SQLite file: the operator named and checked
//! (ИНН and ОГРН with their control digits), the texts shown and kept in
//! the consent ledger with the placeholders substituted, the processors
//! derived from what is set up, Google Analytics off until turned on, and
//! the self-checks of all this.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::TestApp;
use common::scan::{anywhere, on_disk};
use dealership::domain::legal::{self, BAD_INN, BAD_OGRN};
use serde_json::{Value, json};

const OPERATOR: &str = "ООО «Нева Моторс»";

async fn put(app: &TestApp, cookie: &str, body: Value) -> common::Answer {
    app.admin_with(cookie, Method::PUT, "/api/settings", Some(body))
        .await
}

fn operator() -> Value {
    json!({"operatorName": OPERATOR, "operatorInn": "7810453273",
           "operatorOgrn": "1177847123453",
           "operatorAddress": "196158, Санкт-Петербург, Пулковское шоссе, д. 44"})
}

async fn checks(app: &TestApp, cookie: &str) -> Vec<String> {
    let report = app
        .admin_with(cookie, Method::GET, "/api/admin/checks", None)
        .await
        .json();
    report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["check"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_operators_inn_and_ogrn_are_checked_by_their_control_digits() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    for (body, field, message) in [
        (json!({"operatorInn": "7810453274"}), "operatorInn", BAD_INN),
        (json!({"operatorInn": "78104532"}), "operatorInn", BAD_INN),
        (json!({"operatorInn": "78104532 3"}), "operatorInn", BAD_INN),
        (
            json!({"operatorOgrn": "1177847123454"}),
            "operatorOgrn",
            BAD_OGRN,
        ),
        (
            json!({"operatorOgrn": "304500116000158"}),
            "operatorOgrn",
            BAD_OGRN,
        ),
    ] {
        let answer = put(&app, &cookie, body.clone()).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer.json()["field"], field, "{body}");
        assert_eq!(answer.error(), message, "{body}");
    }
    // An entrepreneur: 12-digit ИНН, 15-digit ОГРНИП.
    let entrepreneur = put(
        &app,
        &cookie,
        json!({"operatorInn": "500100732259", "operatorOgrn": "304500116000157"}),
    )
    .await;
    assert_eq!(
        entrepreneur.status,
        StatusCode::OK,
        "{}",
        entrepreneur.text()
    );
    let saved = put(&app, &cookie, operator()).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert_eq!(saved.json()["operatorInn"], "7810453273");
    // Spaces around are dropped.
    let spaced = put(&app, &cookie, json!({"operatorInn": " 7810453273 "})).await;
    assert_eq!(spaced.json()["operatorInn"], "7810453273");
}

#[tokio::test]
async fn visitors_see_the_operator_and_the_ledger_keeps_what_each_version_said() {
    let app = TestApp::with_config(|config| {
        config.telegram.bot_token = "123:abc".into();
        config.telegram.chat_id = "-100".into();
    });
    app.create_admin();
    let cookie = app.login().await;
    // Before the operator is named, the texts say so.
    let consent = app.get("/api/legal/consent").await.json();
    let text = consent["text"].as_str().unwrap();
    assert!(text.contains(legal::NOT_STATED), "{text}");
    assert!(!text.contains("{оператор}"), "{text}");
    assert_eq!(checks(&app, &cookie).await, ["operator_missing"]);

    let before = put(&app, &cookie, json!({})).await.json()["consentVersion"]
        .as_i64()
        .unwrap();
    let saved = put(&app, &cookie, operator()).await.json();
    let version = saved["consentVersion"].as_i64().unwrap();
    assert!(version > before, "{before} -> {version}");
    // The raw texts keep their placeholders for editing.
    assert!(
        saved["consentText"]
            .as_str()
            .unwrap()
            .contains("{оператор}")
    );

    let consent = app.get("/api/legal/consent").await.json();
    assert_eq!(consent["version"], version);
    let text = consent["text"].as_str().unwrap();
    assert!(
        text.contains("Я даю согласие оператору — ООО «Нева Моторс» (ИНН 7810453273, ОГРН 1177847123453, адрес: 196158, Санкт-Петербург, Пулковское шоссе, д. 44)"),
        "{text}"
    );
    // The processors in use: Telegram is set up, nothing else.
    assert!(text.contains("— Telegram (серверы за пределами"), "{text}");
    assert!(!text.contains("Яндекс Метрика"), "{text}");
    let policy = app.get("/api/legal/privacy").await.json();
    let policy = policy["text"].as_str().unwrap();
    assert!(
        policy.contains("Оператор: ООО «Нева Моторс», ИНН 7810453273"),
        "{policy}"
    );
    assert!(policy.contains("— Telegram"), "{policy}");
    // The public page says the same.
    let page = app.get("/consent").await.text();
    assert!(page.contains("ООО «Нева Моторс»"), "the /consent page");

    // A lead records the version, and the ledger says what it was.
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": "Иван", "phone": "89215551234",
                    "consent": true}),
        )
        .await
        .json();
    assert_eq!(lead["consentVersion"], version);
    let kept: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT consent_text FROM consent_documents WHERE version = ?1",
            [version],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(kept, text);

    // Metrika set up: the texts change, a new version; the old one's text
    // is still in the ledger.
    let metrika = put(&app, &cookie, json!({"yandexMetrikaId": "12345678"})).await;
    let next = metrika.json()["consentVersion"].as_i64().unwrap();
    assert_eq!(next, version + 1);
    let policy = app.get("/api/legal/privacy").await.json();
    assert!(
        policy["text"]
            .as_str()
            .unwrap()
            .contains("ООО «Яндекс», Яндекс Метрика"),
        "{policy}"
    );
    let old: i64 = app.count(&format!(
        "SELECT count(*) FROM consent_documents WHERE version = {version} AND consent_text NOT LIKE '%Метрика%'"
    ));
    assert_eq!(old, 1);
    // Saving without a change makes no new version.
    let same = put(&app, &cookie, json!({"yandexMetrikaId": "12345678"})).await;
    assert_eq!(same.json()["consentVersion"], next);
    assert!(checks(&app, &cookie).await.is_empty());
}

#[tokio::test]
async fn google_analytics_starts_only_when_turned_on_and_the_policy_must_say_so() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    put(&app, &cookie, operator()).await;
    let with_id = put(&app, &cookie, json!({"googleAnalyticsId": "G-TEST123"})).await;
    assert_eq!(with_id.json()["googleAnalyticsEnabled"], false);
    // An id alone: visitors' pages do not get it.
    let public = app.get("/api/settings").await.json();
    assert_eq!(public["googleAnalyticsId"], "");
    assert!(checks(&app, &cookie).await.is_empty());

    let on = put(&app, &cookie, json!({"googleAnalyticsEnabled": true})).await;
    assert_eq!(on.status, StatusCode::OK);
    let public = app.get("/api/settings").await.json();
    assert_eq!(public["googleAnalyticsId"], "G-TEST123");
    assert_eq!(checks(&app, &cookie).await, ["analytics_abroad"]);
    let policy = app.get("/api/legal/privacy").await.json();
    assert!(
        policy["text"]
            .as_str()
            .unwrap()
            .contains("Google LLC (США), Google Analytics"),
        "{policy}"
    );

    // A policy of the dealer's own that does not name it.
    let own = put(
        &app,
        &cookie,
        json!({"privacyPolicy": "Политика. Данные обрабатывает только салон."}),
    )
    .await;
    assert_eq!(own.status, StatusCode::OK);
    let report = app
        .admin_with(&cookie, Method::GET, "/api/admin/checks", None)
        .await
        .json();
    let unlisted = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["check"] == "processors_unlisted")
        .unwrap()
        .clone();
    assert_eq!(unlisted["severity"], "error");
    assert!(
        unlisted["detail"]
            .as_str()
            .unwrap()
            .starts_with("Подключены, но не названы в политике: Google Analytics."),
        "{unlisted}"
    );
    // Named in its own words: the check is satisfied.
    put(
        &app,
        &cookie,
        json!({"privacyPolicy": "Политика. Статистику ведёт Google Analytics (Google LLC)."}),
    )
    .await;
    assert_eq!(checks(&app, &cookie).await, ["analytics_abroad"]);
}

#[test]
fn a_processor_set_up_after_the_last_start_is_a_new_consent_version() {
    let dir = tempfile::tempdir().unwrap();
    let db = dealership::db::Db::open(&dir.path().join("ledger.db")).unwrap();
    let conn = db.conn().unwrap();
    let mut settings = dealership::domain::settings::get(&conn).unwrap();
    settings.public.operator_name = OPERATOR.into();
    let settings = dealership::domain::settings::save(&conn, &settings).unwrap();
    let mut config = dealership::config::Config::default();
    let first = legal::record(&conn, &settings, &legal::processors(&config, &settings)).unwrap();
    assert_eq!(first.version, settings.public.consent_version);
    // The same set-up again: the same version.
    let again = legal::record(&conn, &settings, &legal::processors(&config, &settings)).unwrap();
    assert_eq!(again, first);
    // A mail server configured before the next start.
    config.smtp.host = "smtp.yandex.ru".into();
    let settings = dealership::domain::settings::get(&conn).unwrap();
    let next = legal::record(&conn, &settings, &legal::processors(&config, &settings)).unwrap();
    assert_eq!(next.version, first.version + 1);
    assert!(
        next.privacy_policy
            .contains("— ООО «Яндекс», почтовый сервер smtp.yandex.ru — отправка писем"),
        "{}",
        next.privacy_policy
    );
    assert_eq!(
        dealership::domain::settings::get(&conn)
            .unwrap()
            .public
            .consent_version,
        next.version
    );
    assert_eq!(
        legal::documents(&conn, first.version).unwrap().unwrap(),
        first
    );
}

#[tokio::test]
async fn a_deleted_lead_leaves_nothing_in_the_file_or_its_log() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let marks = ["79215557788", "zoya.erased@example.ru", "Зоя Стираемая"];
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": marks[2], "phone": "+7 921 555-77-88",
                    "email": marks[1], "message": "Перезвоните", "consent": true}),
        )
        .await
        .json();
    let id = lead["id"].as_str().unwrap();
    // The lead is there: in the log (or the file, once checkpointed).
    for mark in marks {
        assert!(!on_disk(&app, mark).is_empty(), "{mark} stored");
    }
    let deleted = app
        .admin_with(&cookie, Method::DELETE, &format!("/api/leads/{id}"), None)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    for mark in marks {
        assert_eq!(on_disk(&app, mark), Vec::<String>::new(), "{mark} gone");
    }
}

#[tokio::test]
async fn a_persons_data_is_found_and_erased_everywhere() {
    let app = TestApp::with_config(|config| {
        // Mail is set up (its rows wait: no worker runs here).
        config.smtp.host = "127.0.0.1".into();
        config.smtp.port = 9;
    });
    app.create_admin();
    let cookie = app.login().await;
    put(
        &app,
        &cookie,
        json!({"notificationEmail": "sales@salon.example", "fromEmail": "robot@salon.example"}),
    )
    .await;
    let (phone, email, name) = ("79215556677", "maria.person@example.ru", "Мария Заявкина");
    let lead = |body: Value| {
        let app = &app;
        async move {
            let answer = app.post_json("/api/leads", &body).await;
            assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
            answer.json()["id"].as_str().unwrap().to_string()
        }
    };
    let first = lead(
        json!({"type": "contact_form", "name": name, "phone": "8 (921) 555-66-77",
                            "message": "Позвоните после 18:00", "consent": true}),
    )
    .await;
    let second = lead(
        json!({"type": "auto_credit", "name": name, "phone": "+79215556677",
                             "email": "Maria.Person@Example.ru", "monthlyIncome": "120000",
                             "consent": true}),
    )
    .await;
    let other = lead(json!({"type": "contact_form", "name": "Другой Человек",
                            "phone": "89210000001", "consent": true}))
    .await;
    let comment = app
        .admin_with(
            &cookie,
            Method::POST,
            &format!("/api/leads/{first}/comments"),
            Some(json!({"body": "Мария просила перезвонить вечером"})),
        )
        .await;
    assert_eq!(comment.status, StatusCode::CREATED);
    for id in [&first, &other] {
        let status = app
            .admin_with(
                &cookie,
                Method::PUT,
                &format!("/api/leads/{id}/status"),
                Some(json!({"status": "in_progress"})),
            )
            .await;
        assert_eq!(status.status, StatusCode::OK);
    }
    let subscribed = app
        .post_json(
            "/api/saved-searches",
            &json!({"email": "MARIA.PERSON@example.ru", "filter": {"status": "new"},
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
    assert!(!anywhere(&app, phone).is_empty());

    // Found by either, in any spelling.
    let find = |body: Value| {
        let (app, cookie) = (&app, &cookie);
        async move {
            app.admin_with(
                cookie,
                Method::POST,
                "/api/admin/personal-data/find",
                Some(body),
            )
            .await
        }
    };
    let held = find(json!({"phone": "+7 921 555 66 77", "email": "maria.person@EXAMPLE.ru"})).await;
    assert_eq!(held.status, StatusCode::OK, "{}", held.text());
    let held = held.json();
    let ids: Vec<&str> = held["leads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&first.as_str()) && ids.contains(&second.as_str()));
    assert_eq!(held["comments"].as_array().unwrap().len(), 1);
    assert_eq!(held["subscriptions"].as_array().unwrap().len(), 1);
    assert_eq!(held["subscriptions"][0]["consentIp"], "203.0.113.7");
    // Each lead's e-mail to the staff, the subscription's confirmation.
    assert_eq!(held["deliveries"].as_array().unwrap().len(), 3, "{held:#}");
    assert!(!held["audit"].as_array().unwrap().is_empty());
    assert_eq!(held["consentVersions"].as_array().unwrap().len(), 1);
    let by_email = find(json!({"email": "maria.person@example.ru"}))
        .await
        .json();
    assert_eq!(by_email["leads"].as_array().unwrap().len(), 1);

    // Refused: nobody named, a wrong phone or address.
    for (body, field) in [
        (json!({}), "phone"),
        (json!({"phone": " "}), "phone"),
        (json!({"phone": "12345"}), "phone"),
        (json!({"email": "maria@"}), "email"),
    ] {
        let answer = find(body.clone()).await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer.json()["field"], field, "{body}");
    }

    let erased = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/personal-data/erase",
            Some(json!({"phone": "89215556677", "email": email})),
        )
        .await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text());
    let erased = erased.json();
    assert_eq!(erased["leads"], 2);
    assert_eq!(erased["comments"], 1);
    assert_eq!(erased["subscriptions"], 1);
    // Nothing of her is left, in any table or column, in the file or its log.
    for mark in [phone, email, name, "Позвоните после 18:00", "120000"] {
        assert_eq!(anywhere(&app, mark), Vec::<String>::new(), "{mark}");
    }
    for mark in [phone, email, "Мария"] {
        assert_eq!(on_disk(&app, mark), Vec::<String>::new(), "{mark} on disk");
    }
    // What the figures need stays: her leads, their types, statuses, dates.
    let kept = app
        .admin_with(&cookie, Method::GET, &format!("/api/leads/{first}"), None)
        .await
        .json();
    assert_eq!(kept["name"], "[удалено]");
    assert_eq!(kept["phone"], "");
    assert_eq!(kept["status"], "in_progress");
    assert_eq!(kept["type"], "contact_form");
    // The other person is untouched.
    let untouched = app
        .admin_with(&cookie, Method::GET, &format!("/api/leads/{other}"), None)
        .await
        .json();
    assert_eq!(untouched["name"], "Другой Человек");
    assert_eq!(untouched["phone"], "+79210000001");
    assert!(!anywhere(&app, "Другой Человек").is_empty());
    // Found again: nothing.
    let again = find(json!({"phone": "+79215556677", "email": email}))
        .await
        .json();
    assert_eq!(again["leads"], json!([]));
    assert_eq!(again["subscriptions"], json!([]));
    // The trail counts what was erased and names no one.
    let trail = app
        .admin_with(
            &cookie,
            Method::GET,
            "/api/admin/audit?objectType=personal_data",
            None,
        )
        .await
        .json();
    assert_eq!(
        trail["items"][0]["summary"],
        "Удалены персональные данные по запросу: заявок 2, подписок 1, записей журнала 1"
    );
}
