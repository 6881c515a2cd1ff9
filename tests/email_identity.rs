//! One address, one person (docs/personal-data.md, "One address, one
//! person", issue 42): a Cyrillic, mixed-case address and its punycode
//! spelling through find, export, erase with its destruction act, saved
//! searches, the mail cap and the withdrawal link, with a real SMTP server
//! offering SMTPUTF8; the withdrawal link's rate limit; an erasure that a
//! restore of an older archive does not undo.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;
mod running;

use std::time::Duration;

use axum::http::{Method, StatusCode, header};
use common::TestApp;
use common::scan::anywhere;
use common::smtp::{SmtpSink, eventually, free_port, mailing_app};
use dealership::domain::settings;
use serde_json::{Value, json};

const TYPED: &str = "Зоя.Тест@Почта.рф";
const SPELLINGS: [&str; 4] = [
    "Зоя.Тест@Почта.рф",
    "зоя.тест@почта.рф",
    "ЗОЯ.ТЕСТ@ПОЧТА.РФ",
    "зоя.тест@xn--80a1acny.xn--p1ai",
];
const NAME: &str = "Зоя Тестова";

const OTHER: &str = "Иван Другой";

async fn lead(app: &TestApp, name: &str, email: &str, phone: &str) -> String {
    let answer = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": name, "phone": phone, "email": email,
                    "message": "Перезвоните", "consent": true}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    answer.json()["id"].as_str().unwrap().to_string()
}

fn lead_row(app: &TestApp, id: &str) -> (String, String, Option<String>) {
    app.db
        .conn()
        .unwrap()
        .query_row(
            "SELECT name, phone, email FROM leads WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
}

#[tokio::test]
async fn a_cyrillic_address_in_any_spelling_is_found_exported_and_erased() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let id = lead(&app, NAME, TYPED, "+7 921 444-55-66").await;
    let other = lead(&app, OTHER, "zoya.test@mail.ru", "+7 921 444-55-67").await;
    let call = |path: &'static str, body: Value| {
        let (app, cookie) = (&app, &cookie);
        async move { app.admin_with(cookie, Method::POST, path, Some(body)).await }
    };

    for spelling in SPELLINGS {
        let found = call("/api/admin/personal-data/find", json!({"email": spelling})).await;
        assert_eq!(found.status, StatusCode::OK, "{}", found.text());
        let leads = found.json()["leads"].as_array().unwrap().clone();
        assert_eq!(leads.len(), 1, "{spelling}: {leads:?}");
        assert_eq!(leads[0]["id"], id.as_str());
        // The staff see the address as it was typed.
        assert_eq!(leads[0]["email"], TYPED);
    }
    let export = call(
        "/api/admin/personal-data/export",
        json!({"email": "ЗОЯ.ТЕСТ@xn--80a1acny.xn--p1ai", "format": "json"}),
    )
    .await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.text());
    let text = export.text();
    assert!(text.contains(&id) && text.contains(TYPED), "{text}");
    assert!(!text.contains(&other), "{text}");

    let erased = call(
        "/api/admin/personal-data/erase",
        json!({"email": "зоя.тест@xn--80a1acny.xn--p1ai"}),
    )
    .await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text());
    assert_eq!(erased.json()["leads"], 1);
    assert_eq!(
        lead_row(&app, &id),
        ("[удалено]".to_string(), String::new(), None)
    );
    for mark in [TYPED, "зоя.тест", NAME, "79214445566"] {
        assert_eq!(anywhere(&app, mark), Vec::<String>::new(), "{mark}");
    }
    // Another person is untouched.
    assert_eq!(lead_row(&app, &other).0, OTHER);

    let acts = app
        .admin_with(&cookie, Method::GET, "/api/admin/personal-data/acts", None)
        .await
        .json();
    assert_eq!(acts[0]["leads"], 1, "{acts}");
    let act = app
        .admin_with(
            &cookie,
            Method::GET,
            &format!("/api/admin/personal-data/acts/{}", acts[0]["id"]),
            None,
        )
        .await
        .text();
    assert!(act.contains(&id), "the act's extract names the lead");
}

/// A saved search asked in four spellings of one address.
fn search(email: &str, max_price: i64) -> Value {
    json!({"email": email, "filter": {"maxPrice": max_price}, "pageUrl": "/new-cars",
           "consent": true, "advertisingConsent": true, "website": ""})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_searches_the_mail_cap_and_the_withdrawal_link_see_one_person() {
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(free_port(), sink_dir.path());
    let (app, _state, _jobs) = mailing_app(sink.port, |app| {
        let conn = app.db.conn().unwrap();
        let mut s = settings::get(&conn).unwrap();
        s.from_email = "robot@salon.example".into();
        settings::save(&conn, &s).unwrap();
    });
    let id = lead(&app, NAME, TYPED, "+7 921 444-55-66").await;

    // The same search in another spelling is the same subscription.
    for spelling in [SPELLINGS[0], SPELLINGS[3]] {
        let asked = app
            .post_json("/api/saved-searches", &search(spelling, 1_000_000))
            .await;
        assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text());
    }
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_subscriptions"),
        1
    );
    // Three more searches in three spellings: the cap of three mails a day
    // to one address counts them all as one.
    for (n, spelling) in [SPELLINGS[2], SPELLINGS[3], SPELLINGS[1]]
        .into_iter()
        .enumerate()
    {
        let asked = app
            .post_json(
                "/api/saved-searches",
                &search(spelling, 2_000_000 + n as i64),
            )
            .await;
        assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text());
    }
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_subscriptions"),
        4
    );
    assert_eq!(
        app.count("SELECT count(*) FROM outbox WHERE kind = 'search_confirm'"),
        3
    );
    assert_eq!(
        app.count("SELECT count(*) FROM visitor_mail_ledger WHERE held = 1"),
        1
    );

    // Delivered to the Cyrillic address, with SMTPUTF8 asked for.
    let mails = eventually("three confirmations", Duration::from_secs(15), || {
        let mails = sink.messages();
        (mails.len() == 3).then_some(mails)
    })
    .await;
    for mail in &mails {
        let to = mail["rcpt_tos"][0].as_str().unwrap();
        assert_eq!(
            dealership::domain::email::canonical(to),
            "зоя.тест@xn--80a1acny.xn--p1ai"
        );
        let options: Vec<&str> = mail["mail_options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        assert!(options.contains(&"SMTPUTF8"), "{options:?}");
    }
    assert!(
        mails
            .iter()
            .any(|m| m["rcpt_tos"][0] == "зоя.тест@почта.рф"),
        "{mails:?}"
    );

    // The link of the mail to the punycode spelling forgets every spelling.
    let text = mails
        .iter()
        .map(|m| m["text"].as_str().unwrap().replace("\r\n", "\n"))
        .find(|t| t.contains("/personal-data/forget?token="))
        .unwrap();
    let marker = "/personal-data/forget?token=";
    let start = text.find(marker).unwrap() + marker.len();
    let token: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let forgotten = app
        .post_json("/api/personal-data/forget", &json!({"token": token}))
        .await;
    assert_eq!(forgotten.status, StatusCode::OK, "{}", forgotten.text());
    assert_eq!(
        app.count("SELECT count(*) FROM saved_search_subscriptions"),
        0
    );
    assert_eq!(
        app.count("SELECT count(*) FROM forget_tokens"),
        0,
        "every link of the address dies with its data"
    );
    assert_eq!(
        lead_row(&app, &id),
        ("[удалено]".to_string(), String::new(), None)
    );
    for mark in ["Зоя.Тест", "зоя.тест", NAME] {
        assert_eq!(anywhere(&app, mark), Vec::<String>::new(), "{mark}");
    }
}

#[tokio::test]
async fn the_withdrawal_link_is_rate_limited_like_the_lead_form() {
    let app = TestApp::with_config(|c| c.leads.rate_limit_per_minute = 2);
    for _ in 0..2 {
        let answer = app
            .post_json("/api/personal-data/forget", &json!({"token": "guessed"}))
            .await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND);
    }
    let refused = app
        .post_json("/api/personal-data/forget", &json!({"token": "guessed"}))
        .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        refused.error(),
        "Слишком много запросов с вашего адреса. Пожалуйста, подождите минуту и попробуйте снова."
    );
    let wait: u64 = refused.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    // Another client is not held up.
    let other = app
        .post_json_from(
            "/api/personal-data/forget",
            &json!({"token": "guessed"}),
            "10.9.9.9:5000",
        )
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_erasure_outlives_the_restore_of_an_older_archive() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    let id = lead(&app, NAME, TYPED, "+7 921 444-55-66").await;
    let kept = lead(&app, OTHER, "ivan@example.ru", "+7 921 000-00-01").await;
    let data = app.dir.path().to_path_buf();
    let backups = tempfile::tempdir().unwrap();
    let archive = backups.path().join("before.tar.gz");
    let config = dealership::config::Config {
        data_dir: data.clone(),
        ..dealership::config::Config::default()
    };
    dealership::ops::backup::backup(&config, &archive).unwrap();

    let erased = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/personal-data/erase",
            Some(json!({"email": "зоя.тест@почта.рф", "phone": "89214445566"})),
        )
        .await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text());
    // The ledger holds no personal data; its key is private.
    let ledger = std::fs::read_to_string(data.join("erasures.log")).unwrap();
    assert_eq!(ledger.lines().count(), 1);
    for mark in ["зоя", "Зоя", "xn--80a1acny", "9214445566"] {
        assert!(!ledger.contains(mark), "{ledger}");
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(data.join("erasure.key"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);

    let TestApp { dir, db, app, .. } = app;
    drop(app);
    drop(db);
    let out = running::run(dir.path(), &["restore", archive.to_str().unwrap()]);
    let said = running::text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("Erasures re-applied: 1 made after the copy (leads erased again: 1"),
        "{said}"
    );
    let conn = rusqlite::Connection::open(data.join("dealership.db")).unwrap();
    let row = |id: &str| -> (String, String, Option<String>) {
        conn.query_row(
            "SELECT name, phone, email FROM leads WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    assert_eq!(row(&id), ("[удалено]".to_string(), String::new(), None));
    assert_eq!(row(&kept).0, OTHER);
    drop(conn);

    // The same archive restored again is as old as before: the erasure
    // is applied to it again.
    let again = running::run(dir.path(), &["restore", archive.to_str().unwrap()]);
    let said = running::text(&again);
    assert!(again.status.success(), "{said}");
    assert!(said.contains("Erasures re-applied: 1 made"), "{said}");

    // On another host: the archive's folder holds the ledger and the key
    // once a backup was made there after the erasure.
    let later = backups.path().join("later.tar.gz");
    dealership::ops::backup::backup(&config, &later).unwrap();
    assert!(backups.path().join("erasures.log").exists());
    assert!(backups.path().join("erasure.key").exists());
    let elsewhere = tempfile::tempdir().unwrap();
    let out = running::run(elsewhere.path(), &["restore", archive.to_str().unwrap()]);
    let said = running::text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("Erasures re-applied: 1 made after the copy (leads erased again: 1"),
        "{said}"
    );
}
