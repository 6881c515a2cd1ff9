//! The marketplaces wired in (issue 44; `docs/marketplaces.md`, "Jobs and
//! checks"; `docs/leads.md`, "Calls as leads"), on the real router and a
//! real SQLite file against the two fakes written from the APIs'
//! documentation: the connection checked (OK, refused keys, a secret others
//! can read), a sync filling each car's fate and figures, a token expiring
//! mid-run and a rate limit losing no day, calls made leads once each with
//! their car (a caller's open lead joined), and `dealership check`.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

#[path = "fakes/autoru.rs"]
mod autoru_fake;
#[path = "fakes/avito.rs"]
mod avito_fake;
mod common;

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::time::Duration;

use autoru_fake::{FakeAutoru, FakeState, FeedTask};
use avito_fake::{FakeAvito, State};
use axum::http::{Method, StatusCode};
use chrono::{Days, NaiveDate, Utc};
use common::{TestApp, seed_catalogue};
use dealership::config::{AutoruConfig, AvitoConfig, Config};
use dealership::marketplaces::Channel;
use dealership::marketplaces::sync::{self, MarketSync, Marketplaces};
use serde_json::{Value, json};

/// Secret files of mode 600 (or `mode`), kept while the test runs.
struct Secrets {
    dir: tempfile::TempDir,
}

impl Secrets {
    fn new() -> Secrets {
        Secrets {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn write(&self, name: &str, text: &str, mode: u32) -> std::path::PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, format!("{text}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    }

    fn avito(&self, fake: &FakeAvito, secret: &str, mode: u32) -> AvitoConfig {
        AvitoConfig {
            api_url: format!("{}/", fake.url),
            client_id: "client-1".into(),
            client_secret_file: self.write("avito-secret", secret, mode),
            user_id: String::new(),
        }
    }

    fn autoru(&self, fake: &FakeAutoru) -> AutoruConfig {
        AutoruConfig {
            api_url: fake.url.clone(),
            api_key_file: self.write("autoru-token", "autoru-token-1", 0o600),
            login: "dealer@salon.example".into(),
            password_file: self.write("autoru-password", "cabinet-password", 0o600),
            dealer_id: String::new(),
        }
    }
}

/// An app whose marketplaces are `change`d in its config, with the tests'
/// brief clients; its catalogue seeded, an owner, and the runs' context.
fn app_with(change: impl FnOnce(&mut Config)) -> (TestApp, MarketSync) {
    let mut sync = None;
    let app = TestApp::with_state(|state| {
        let mut config = (*state.config).clone();
        change(&mut config);
        state.marketplaces = Arc::new(Marketplaces::brief(&config));
        state.config = Arc::new(config);
        sync = Some(state.market_sync());
    });
    seed_catalogue(&app);
    app.create_admin();
    (app, sync.unwrap())
}

fn today() -> NaiveDate {
    dealership::clock::Clock::default().moscow_today()
}

fn ago(days: u64) -> NaiveDate {
    today().checked_sub_days(Days::new(days)).unwrap()
}

fn car_id(app: &TestApp, slug: &str) -> String {
    app.db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM cars WHERE slug = ?1", [slug], |r| r.get(0))
        .unwrap()
}

/// The Jolion's feed id is `J-0`, the Lada's its own id.
fn feed_ids(app: &TestApp) -> (String, String) {
    let jolion = car_id(app, "haval-jolion-0");
    let conn = app.db.conn().unwrap();
    conn.execute(
        "UPDATE cars SET external_id = 'J-0', vin = 'XTA21703000001234' WHERE id = ?1",
        [&jolion],
    )
    .unwrap();
    (jolion, car_id(app, "lada-vesta-sw"))
}

/// `n` more cars like the Jolion, their feed ids `A-1` … `A-n`.
fn copies_of_jolion(app: &TestApp, n: usize) {
    let conn = app.db.conn().unwrap();
    for i in 1..=n {
        conn.execute(
            "INSERT INTO cars (id, brand_id, name, slug, model, year, price_kopecks, status,
                body_type, transmission, fuel_type, engine, external_id, created_at, updated_at)
             SELECT ?1, brand_id, name, ?2, model, year, price_kopecks, status, body_type,
                transmission, fuel_type, engine, ?3, created_at, updated_at
             FROM cars WHERE slug = 'haval-jolion-0'",
            [
                format!("copy-{i}"),
                format!("jolion-copy-{i}"),
                format!("A-{i}"),
            ],
        )
        .unwrap();
    }
}

fn avito_ad(id: &str, avito_id: u64, refused: Option<&str>) -> Value {
    match refused {
        None => json!({
            "section": {"slug": "success_added", "title": "Опубликованы"},
            "ad_id": id, "avito_id": avito_id, "feed_name": "",
            "url": format!("https://www.avito.ru/moskva/avtomobili/{avito_id}"),
            "messages": [], "avito_date_end": null, "avito_status": "active"
        }),
        Some(words) => json!({
            "section": {"slug": "error", "title": "Ошибки"},
            "ad_id": id, "avito_id": avito_id, "feed_name": "", "url": null,
            "messages": [{"code": 1001, "title": "Ошибка", "description": words, "type": "error",
                          "updated_at": "2026-07-01T11:57:44Z"}],
            "avito_date_end": null, "avito_status": "rejected"
        }),
    }
}

/// A finished run of Avito's autoload (its report is of the last one).
fn uploaded() -> Vec<Value> {
    vec![json!({
        "upload_id": 77, "status": "success", "source": "url",
        "started_at": "2026-07-01T16:48:02Z",
        "stats": {}, "events": [],
        "feed_urls": [{"name": "", "url": "https://salon.example/feeds/avito.xml"}]
    })]
}

fn avito_days(days: std::ops::RangeInclusive<u64>, views: u64) -> Vec<Value> {
    days.map(|n| {
        json!({"date": ago(n).to_string(), "uniqViews": views + n, "uniqContacts": 1,
               "uniqFavorites": 0})
    })
    .collect()
}

fn autoru_days(days: std::ops::RangeInclusive<u64>) -> Vec<Value> {
    days.map(|n| json!({"date": ago(n).to_string(), "views": 10 + n, "phone_views": 2, "phone_calls": 1}))
        .collect()
}

fn autoru_task(offers: Vec<Value>) -> FeedTask {
    FeedTask {
        id: "901".into(),
        section: "USED".into(),
        created_at: "2026-05-01T03:00:00Z".into(),
        finished_at: Some("2026-05-01T03:05:00Z".into()),
        offers,
    }
}

fn days_of(app: &TestApp, car: &str, channel: &str) -> Vec<(String, i64)> {
    let conn = app.db.conn().unwrap();
    let mut stmt = conn
        .prepare("SELECT day, views FROM car_channel_days WHERE car_id = ?1 AND channel = ?2 ORDER BY day")
        .unwrap();
    stmt.query_map([car, channel], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_is_checked_and_a_refused_key_or_secret_says_why() {
    let fake = FakeAvito::start(State::default()).await;
    let secrets = Secrets::new();
    let good = secrets.avito(&fake, "secret-1", 0o600);
    let (app, _) = app_with(|c| c.avito = good);
    let answer = app
        .admin(Method::POST, "/api/admin/marketplaces/avito/check", None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(
        answer.json(),
        json!({"ok": true, "message": "Подключено: аккаунт 12345 (Автосалон на Садовой)"})
    );
    let listed = app
        .admin(Method::GET, "/api/admin/marketplaces/connections", None)
        .await
        .json();
    assert_eq!(listed[0]["channel"], "avito");
    assert_eq!(listed[0]["configured"], true);
    assert_eq!(listed[0]["runs"][0]["job"], "check");
    assert_eq!(listed[0]["runs"][0]["ok"], true);
    assert_eq!(listed[1]["channel"], "autoru");
    assert_eq!(listed[1]["configured"], false);
    let unset = app
        .admin(Method::POST, "/api/admin/marketplaces/autoru/check", None)
        .await
        .json();
    assert_eq!(unset["ok"], false);
    assert!(unset["message"].as_str().unwrap().contains("не настроено"));

    // Wrong keys: Avito's words.
    let other = Secrets::new();
    let wrong = other.avito(&fake, "not-the-secret", 0o600);
    let (app, _) = app_with(|c| c.avito = wrong);
    let answer = app
        .admin(Method::POST, "/api/admin/marketplaces/avito/check", None)
        .await
        .json();
    assert_eq!(answer["ok"], false);
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.starts_with("площадка не приняла ключи") && message.contains("Неверный client_id"),
        "{message}"
    );
    let runs = app
        .admin(Method::GET, "/api/admin/marketplaces/connections", None)
        .await
        .json();
    assert_eq!(runs[0]["runs"][0]["ok"], false);
    assert_eq!(runs[0]["runs"][0]["message"], message);

    // A secret others can read: the channel's state says so, nothing is sent.
    let third = Secrets::new();
    let open = third.avito(&fake, "secret-1", 0o644);
    let (app, _) = app_with(|c| c.avito = open);
    let listed = app
        .admin(Method::GET, "/api/admin/marketplaces/connections", None)
        .await
        .json();
    assert_eq!(listed[0]["configured"], true);
    assert!(
        listed[0]["error"].as_str().unwrap().contains("chmod 600"),
        "{listed}"
    );
    let refused = app
        .admin(Method::POST, "/api/admin/marketplaces/avito/sync", None)
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let unknown = app
        .admin(Method::POST, "/api/admin/marketplaces/ozon/check", None)
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_fills_each_car_s_fate_and_figures_from_both_marketplaces() {
    let avito = FakeAvito::start(State::default()).await;
    let autoru = FakeAutoru::start(FakeState::default()).await;
    let secrets = Secrets::new();
    let (avito_config, autoru_config) = (
        secrets.avito(&avito, "secret-1", 0o600),
        secrets.autoru(&autoru),
    );
    let (app, _) = app_with(|c| {
        c.avito = avito_config;
        c.autoru = autoru_config;
    });
    let (jolion, lada) = feed_ids(&app);
    avito.with(|s| {
        s.uploads = uploaded();
        s.items = vec![
            avito_ad("J-0", 4001, None),
            avito_ad(&lada, 4002, Some("Поле WheelType не заполнено")),
        ];
        s.stats.insert(4001, avito_days(1..=3, 100));
    });
    {
        let mut s = autoru.state.lock().unwrap();
        s.tasks = vec![autoru_task(vec![json!({
            "position": 1, "status": "UPDATED", "offer_id": "1100-aa",
            "unique_id": "J-0", "errors": []
        })])];
        s.stats.insert("1100-aa".into(), autoru_days(1..=2));
    }
    for channel in ["avito", "autoru"] {
        let started = app
            .admin(
                Method::POST,
                &format!("/api/admin/marketplaces/{channel}/sync"),
                None,
            )
            .await;
        assert_eq!(started.status, StatusCode::ACCEPTED, "{}", started.text());
        assert_eq!(started.json()["message"], "Обновление запущено");
    }
    // Both syncs end (each records its three runs).
    let mut listed = Value::Null;
    for _ in 0..500 {
        listed = app
            .admin(Method::GET, "/api/admin/marketplaces/connections", None)
            .await
            .json();
        let done = listed.as_array().unwrap().iter().all(|c| {
            c["busy"] == false
                && c["runs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|r| !r["finishedAt"].is_null())
                    .count()
                    == 3
        });
        if done {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for connection in listed.as_array().unwrap() {
        for run in connection["runs"].as_array().unwrap() {
            assert_eq!(run["ok"], true, "{connection}");
        }
    }
    // The refused car shows Avito's words; the Jolion is published on both.
    let lada_ads = app
        .admin(
            Method::GET,
            &format!("/api/admin/cars/{lada}/marketplaces"),
            None,
        )
        .await
        .json();
    assert_eq!(lada_ads["ads"][0]["channel"], "avito");
    assert_eq!(lada_ads["ads"][0]["status"], "refused");
    assert!(
        lada_ads["ads"][0]["messages"][0]
            .as_str()
            .unwrap()
            .contains("Поле WheelType не заполнено"),
        "{lada_ads}"
    );
    let jolion_ads = app
        .admin(
            Method::GET,
            &format!("/api/admin/cars/{jolion}/marketplaces"),
            None,
        )
        .await
        .json();
    let statuses: Vec<(&str, &str)> = jolion_ads["ads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["channel"].as_str().unwrap(),
                a["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(statuses.len(), 2, "{jolion_ads}");
    assert!(statuses.iter().all(|(_, s)| *s == "published"));
    // Figures of each day from both.
    assert_eq!(
        days_of(&app, &jolion, "avito"),
        vec![
            (ago(3).to_string(), 103),
            (ago(2).to_string(), 102),
            (ago(1).to_string(), 101)
        ]
    );
    assert_eq!(
        days_of(&app, &jolion, "autoru"),
        vec![(ago(2).to_string(), 12), (ago(1).to_string(), 11)]
    );
    // Avito was asked 270 days back the first time (clamped to what it keeps).
    let asked = avito.with(|s| s.on("/stats/v1/accounts/12345/items"));
    assert_eq!(asked[0].body["dateFrom"], ago(269).to_string());
    assert_eq!(asked[0].body["dateTo"], ago(1).to_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_ending_mid_run_and_a_rate_limit_lose_no_day() {
    let avito = FakeAvito::start(State::default()).await;
    let autoru = FakeAutoru::start(FakeState::default()).await;
    let secrets = Secrets::new();
    let (avito_config, autoru_config) = (
        secrets.avito(&avito, "secret-1", 0o600),
        secrets.autoru(&autoru),
    );
    let (app, sync) = app_with(|c| {
        c.avito = avito_config;
        c.autoru = autoru_config;
    });
    let (jolion, _) = feed_ids(&app);
    // Avito: 250 ads (two calls of stats), the token revoked between them.
    avito.with(|s| {
        s.uploads = uploaded();
        s.items = (0..250)
            .map(|n| {
                let id = if n == 0 {
                    "J-0".to_string()
                } else {
                    format!("X-{n}")
                };
                avito_ad(&id, 5000 + n, None)
            })
            .collect();
        s.stats.insert(5000, avito_days(1..=5, 0));
    });
    assert!(
        sync::run_report(&sync, Channel::Avito)
            .await
            .unwrap()
            .is_ok()
    );
    avito.with(|s| s.revoke_at_call = Some(s.api_calls + 2));
    let ran = sync::run_stats(&sync, Channel::Avito).await.unwrap();
    assert!(ran.is_ok(), "{ran:?}");
    assert_eq!(days_of(&app, &jolion, "avito").len(), 5);
    assert!(avito.with(|s| s.tokens_issued) >= 2);

    // Auto.ru: 15 cars' offers (two batches), a rate limit that outlasts the
    // tries in the second batch.
    copies_of_jolion(&app, 14);
    let offers: Vec<Value> = (0..15)
        .map(|n| {
            let unique = if n == 0 {
                "J-0".to_string()
            } else {
                format!("A-{n}")
            };
            json!({"position": n + 1, "status": "UPDATED", "offer_id": format!("77{n:02}-x"),
                   "unique_id": unique, "errors": []})
        })
        .collect();
    {
        let mut s = autoru.state.lock().unwrap();
        s.tasks = vec![autoru_task(offers)];
        for n in 0..15 {
            s.stats.insert(format!("77{n:02}-x"), autoru_days(1..=4));
        }
    }
    assert!(
        sync::run_report(&sync, Channel::Autoru)
            .await
            .unwrap()
            .is_ok()
    );
    // Already recorded through 5 days ago: this run reads the last 4 days.
    app.db
        .conn()
        .unwrap()
        .execute(
            "INSERT INTO marketplace_runs (channel, job, started_at, through)
             VALUES ('autoru', 'stats', '2026-01-01T00:00:00Z', ?1)",
            [ago(5).to_string()],
        )
        .unwrap();
    let sent = autoru.seen().len();
    autoru.state.lock().unwrap().window = Some((Duration::from_secs(600), sent + 13));
    let failed = sync::run_stats(&sync, Channel::Autoru).await.unwrap();
    let why = failed.unwrap_err();
    assert!(why.contains("площадка не ответила"), "{why}");
    assert!(
        why.contains(&format!(
            "следующий запуск начнёт с {}",
            ago(4).format("%d.%m.%Y")
        )),
        "{why}"
    );
    // The first batch (the Jolion's among it) was kept, the rest not read.
    assert_eq!(days_of(&app, &jolion, "autoru").len(), 4);
    let car_days = app.count("SELECT count(*) FROM car_channel_days WHERE channel = 'autoru'");
    assert_eq!(car_days, 10 * 4);
    let through: Option<String> = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT through FROM marketplace_runs WHERE channel = 'autoru' AND job = 'stats'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(through, Some(ago(5).to_string()));
    // The limit lifts: the next run reads the same days, every ad.
    autoru.state.lock().unwrap().window = None;
    let before = autoru.seen().len();
    let ran = sync::run_stats(&sync, Channel::Autoru).await.unwrap();
    assert!(ran.is_ok(), "{ran:?}");
    let asked: Vec<_> = autoru.seen()[before..]
        .iter()
        .filter(|s| s.path.ends_with("/stats"))
        .cloned()
        .collect();
    assert_eq!(asked.len(), 15);
    assert!(asked.iter().all(|s| s.query["from"] == ago(4).to_string()));
    let car_days = app.count("SELECT count(*) FROM car_channel_days WHERE channel = 'autoru'");
    assert_eq!(car_days, 15 * 4);
    let through: Option<String> = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT through FROM marketplace_runs WHERE channel = 'autoru' AND job = 'stats'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(through, Some(ago(1).to_string()));
    // Nothing left to read today.
    let again = sync::run_stats(&sync, Channel::Autoru)
        .await
        .unwrap()
        .unwrap();
    assert!(again.starts_with("Цифры уже записаны"), "{again}");
}

fn avito_call(id: u64, item: u64, phone: &str, minutes_ago: i64, talk: u64) -> Value {
    json!({
        "callId": id, "itemId": item, "buyerPhone": phone,
        "sellerPhone": "+79990000101", "virtualPhone": "+79990000102",
        "callTime": (Utc::now() - chrono::Duration::minutes(minutes_ago)).to_rfc3339(),
        "talkDuration": talk, "waitingDuration": 4
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_arrive_once_each_as_leads_with_their_car_and_join_an_open_lead() {
    let avito = FakeAvito::start(State::default()).await;
    let autoru = FakeAutoru::start(FakeState::default()).await;
    let secrets = Secrets::new();
    let (avito_config, autoru_config) = (
        secrets.avito(&avito, "secret-1", 0o600),
        secrets.autoru(&autoru),
    );
    let (app, sync) = app_with(|c| {
        c.avito = avito_config;
        c.autoru = autoru_config;
    });
    let (jolion, lada) = feed_ids(&app);
    avito.with(|s| {
        s.uploads = uploaded();
        s.items = vec![avito_ad("J-0", 4001, None), avito_ad(&lada, 4002, None)];
    });
    sync::run_report(&sync, Channel::Avito)
        .await
        .unwrap()
        .unwrap();
    // A visitor who sent a form and then calls: the call joins that lead.
    let form = app
        .post_json(
            "/api/leads",
            &json!({"type": "contact_form", "name": "Ольга", "phone": "+7 (905) 111-22-33",
                    "consent": true}),
        )
        .await;
    assert_eq!(form.status, StatusCode::CREATED, "{}", form.text());
    let open_lead = form.json()["id"].as_str().unwrap().to_string();
    avito.with(|s| {
        s.calls = vec![
            avito_call(501, 4001, "79261234567", 90, 200),
            avito_call(502, 4002, "79267654321", 60, 0),
            avito_call(503, 4001, "79051112233", 30, 45),
        ];
    });
    let ran = sync::run_calls(&sync, Channel::Avito).await.unwrap();
    assert_eq!(
        ran.unwrap(),
        "Звонков новых 2, к открытым заявкам 1, уже записанных 0"
    );
    let leads = app
        .admin(Method::GET, "/api/leads?type=marketplace_call", None)
        .await
        .json();
    let leads = leads.as_array().unwrap();
    assert_eq!(leads.len(), 2);
    let answered = leads.iter().find(|l| l["phone"] == "+79261234567").unwrap();
    assert_eq!(answered["name"], "Звонок с Авито");
    assert_eq!(answered["status"], "in_progress");
    assert_eq!(answered["carId"], jolion.as_str());
    assert!(
        answered["message"]
            .as_str()
            .unwrap()
            .starts_with("Звонок с Авито: 3 мин 20 с, Haval Jolion"),
        "{answered}"
    );
    assert_eq!(answered["utmSource"], "avito.ru");
    assert_eq!(
        answered["sourceUrl"],
        "https://www.avito.ru/moskva/avtomobili/4001"
    );
    let missed = leads.iter().find(|l| l["phone"] == "+79267654321").unwrap();
    assert_eq!(missed["status"], "new");
    assert_eq!(missed["carId"], lada.as_str());
    let words = missed["message"].as_str().unwrap();
    assert!(
        words.starts_with("Пропущенный звонок с Авито — перезвонить до "),
        "{words}"
    );
    let comments = app
        .admin(
            Method::GET,
            &format!("/api/leads/{open_lead}/comments"),
            None,
        )
        .await
        .json();
    assert_eq!(comments[0]["authorName"], "Авито");
    assert!(
        comments[0]["body"]
            .as_str()
            .unwrap()
            .starts_with("Звонок с Авито: 45 с"),
        "{comments}"
    );
    // A second poll sees the same calls: nothing more.
    let again = sync::run_calls(&sync, Channel::Avito).await.unwrap();
    assert_eq!(
        again.unwrap(),
        "Звонков новых 0, к открытым заявкам 0, уже записанных 3"
    );
    assert_eq!(app.count("SELECT count(*) FROM leads"), 3);
    assert_eq!(app.count("SELECT count(*) FROM lead_comments"), 1);
    // It asked from an hour before the newest call seen.
    let asked = avito.with(|s| s.on("/calltracking/v1/getCalls/"));
    let from = chrono::DateTime::parse_from_rfc3339(
        asked.last().unwrap().body["dateTimeFrom"].as_str().unwrap(),
    )
    .unwrap();
    let newest = Utc::now() - chrono::Duration::minutes(30);
    assert!(
        (newest - chrono::Duration::hours(1) - from.to_utc())
            .num_seconds()
            .abs()
            < 120
    );

    // Auto.ru: the car found by the VIN when the offer is unknown.
    autoru.state.lock().unwrap().calls = vec![json!({
        "call_id": "au-1", "result": "SUCCESS",
        "source": {"raw": "79031230000"}, "proxy": {"proxy_number": "74951234567"},
        "timestamp": (Utc::now() - chrono::Duration::minutes(5)).to_rfc3339(),
        "talk_duration": {"seconds": 61}, "wait_duration": {"seconds": 3},
        "offer": {"id": "unknown-offer", "documents": {"vin": "XTA21703000001234"}}
    })];
    let ran = sync::run_calls(&sync, Channel::Autoru)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        ran,
        "Звонков новых 1, к открытым заявкам 0, уже записанных 0"
    );
    let from_autoru: (String, String) = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT car_id, message FROM leads WHERE utm_source = 'auto.ru'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(from_autoru.0, jolion);
    assert!(from_autoru.1.starts_with("Звонок с Авто.ру: 1 мин 1 с"));
    // A deleted lead takes the caller's number out of its calls; the call
    // stays known.
    let answered_id = answered["id"].as_str().unwrap().to_string();
    let deleted = app
        .admin(Method::DELETE, &format!("/api/leads/{answered_id}"), None)
        .await;
    assert!(deleted.status.is_success(), "{}", deleted.text());
    assert_eq!(
        app.count("SELECT count(*) FROM calls WHERE call_id = '501' AND caller IS NULL"),
        1
    );
    // A form cannot claim to be a call.
    let forged = app
        .post_json(
            "/api/leads",
            &json!({"type": "marketplace_call", "name": "Бот", "phone": "+79050000000",
                    "consent": true}),
        )
        .await;
    assert_eq!(forged.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dealership_check_checks_each_configured_marketplace() {
    let avito = FakeAvito::start(State::default()).await;
    let secrets = Secrets::new();
    let avito_config = secrets.avito(&avito, "secret-1", 0o600);
    let data = tempfile::tempdir().unwrap();
    let config_file = data.path().join("dealership.toml");
    std::fs::write(
        &config_file,
        format!(
            "data_dir = \"{}\"\n\n[avito]\napi_url = \"{}\"\nclient_id = \"client-1\"\nclient_secret_file = \"{}\"\n",
            data.path().join("data").display(),
            avito_config.api_url,
            avito_config.client_secret_file.display()
        ),
    )
    .unwrap();
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_dealership"))
            .arg("--config")
            .arg(&config_file)
            .arg("check")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(
        printed.contains("ok: marketplace Авито: Подключено: аккаунт 12345 (Автосалон на Садовой)"),
        "{printed}"
    );
    assert!(
        printed.contains("note: marketplace Авто.ру is not configured ([autoru])"),
        "{printed}"
    );
}
