//! The Auto.ru dealer API client against a fake written from Auto.ru's
//! reference pages (`tests/fakes/autoru.rs`): the login and its session
//! renewed mid-run, refused keys, 429 and 5xx, the feed report over pages,
//! figures per ad with an unknown one, calls over pages, the client's pace
//! within the rate limit, and a secret file others can read.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

#[path = "fakes/autoru.rs"]
mod fake;

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use chrono::{NaiveDate, TimeZone, Utc};
use dealership::config::AutoruConfig;
use dealership::marketplaces::autoru::Autoru;
use dealership::marketplaces::{AdStatus, MarketError, Patience};
use fake::{FakeAutoru, FakeState, FeedTask};
use serde_json::{Value, json};

/// The dealer's keys in files of `mode`, and `[autoru]` pointing at `url`.
struct Keys {
    _dir: tempfile::TempDir,
    config: AutoruConfig,
}

fn keys(url: &str, token: &str, password: &str, mode: u32) -> Keys {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{text}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    };
    let config = AutoruConfig {
        api_url: url.to_string(),
        api_key_file: write("autoru-token", token),
        login: "dealer@salon.example".into(),
        password_file: write("autoru-password", password),
        dealer_id: "20101".into(),
    };
    Keys { _dir: dir, config }
}

/// A client of the fake with the real keys, no pace (the pace test sets one).
fn client(fake: &FakeAutoru) -> (Keys, Autoru) {
    let keys = keys(&fake.url, "autoru-token-1", "cabinet-password", 0o600);
    let client = Autoru::new(&keys.config, reqwest::Client::new(), Patience::brief())
        .unwrap()
        .with_pace(Duration::ZERO);
    (keys, client)
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 5, d).unwrap()
}

fn counters(views: u64) -> Vec<Value> {
    (1..=3u64)
        .map(|d| {
            json!({"date": format!("2024-05-0{d}"), "views": views + d,
                   "phone_views": d, "phone_calls": d - 1})
        })
        .collect()
}

fn offer_ids(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("110{i}-ab{i}")).collect()
}

fn with_stats(ids: &[String]) -> FakeState {
    let mut state = FakeState::default();
    for (i, id) in ids.iter().enumerate() {
        state.stats.insert(id.clone(), counters(10 * i as u64));
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_in_once_and_sends_the_token_the_session_and_the_dealer_on_every_call() {
    let ids = offer_ids(3);
    let fake = FakeAutoru::start(with_stats(&ids)).await;
    let (_keys, autoru) = client(&fake);
    let line = autoru.check().await.unwrap();
    assert!(line.contains("подключение работает"), "{line}");
    assert!(
        line.contains("счёт 20101") && line.contains("активен"),
        "{line}"
    );
    let figures = autoru.stats(&ids, day(1), day(3)).await.unwrap();
    assert_eq!(figures.len(), 9);
    assert_eq!(fake.logins(), 1, "one session serves the whole run");
    let seen = fake.seen();
    assert_eq!(seen[0].path, "/auth/login");
    assert!(seen.iter().all(|s| s.status == 200), "{seen:?}");
    for call in &seen[1..] {
        assert!(call.session.is_some(), "{call:?}");
        assert_eq!(call.dealer.as_deref(), Some("20101"));
    }
    let first = &figures[0];
    assert_eq!(first.market_id, ids[0]);
    assert_eq!(
        (first.day, first.views, first.contacts, first.calls),
        (day(1), 1, 1, 0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_expiring_mid_run_is_renewed_and_the_run_completes() {
    let ids = offer_ids(6);
    let mut state = with_stats(&ids);
    state.expire_sessions_after = Some(3);
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    let figures = autoru.stats(&ids, day(1), day(3)).await.unwrap();
    assert_eq!(figures.len(), 18, "no ad lost to the expired session");
    assert_eq!(fake.logins(), 2);
    let refused: Vec<_> = fake
        .seen()
        .into_iter()
        .filter(|s| s.status == 401)
        .collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_or_password_is_refused_with_auto_ru_s_words() {
    let fake = FakeAutoru::start(FakeState::default()).await;
    let wrong_token = keys(&fake.url, "not-the-token", "cabinet-password", 0o600);
    let autoru = Autoru::new(
        &wrong_token.config,
        reqwest::Client::new(),
        Patience::brief(),
    )
    .unwrap()
    .with_pace(Duration::ZERO);
    match autoru.check().await {
        Err(MarketError::Unauthorized {
            status: 401,
            message,
        }) => {
            assert!(message.contains("NO_AUTH"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let wrong_password = keys(&fake.url, "autoru-token-1", "guess", 0o600);
    let autoru = Autoru::new(
        &wrong_password.config,
        reqwest::Client::new(),
        Patience::brief(),
    )
    .unwrap()
    .with_pace(Duration::ZERO);
    let err = autoru.feed_report().await.unwrap_err();
    assert_eq!(
        err,
        MarketError::Unauthorized {
            status: 401,
            message: "AUTH_ERROR: Неверный логин или пароль".into()
        }
    );
    assert!(
        err.to_string()
            .starts_with("площадка не приняла ключи (401)")
    );
    assert_eq!(fake.logins(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_with_retry_after_and_a_passing_5xx_are_outwaited() {
    let ids = offer_ids(2);
    let mut state = with_stats(&ids);
    state.fail_429 = 2;
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    assert_eq!(autoru.stats(&ids, day(1), day(3)).await.unwrap().len(), 6);
    assert_eq!(fake.seen().iter().filter(|s| s.status == 429).count(), 2);

    let mut state = with_stats(&ids);
    state.fail_5xx = 3;
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    assert_eq!(autoru.stats(&ids, day(1), day(3)).await.unwrap().len(), 6);
    assert_eq!(fake.seen().iter().filter(|s| s.status == 503).count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5xx_for_ever_ends_as_unavailable() {
    let state = FakeState {
        fail_5xx: u32::MAX,
        ..FakeState::default()
    };
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    match autoru.check().await {
        Err(MarketError::Unavailable(words)) => assert!(words.contains("503"), "{words}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(fake.seen().len(), Patience::brief().attempts as usize);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_that_is_not_json_is_an_error_not_a_panic() {
    let state = FakeState {
        garbage_account: true,
        ..FakeState::default()
    };
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    match autoru.check().await {
        Err(MarketError::Answer(words)) => assert!(words.contains("/dealer/account"), "{words}"),
        other => panic!("{other:?}"),
    }
}

/// 250 used cars (every tenth refused with its errors) and 3 new ones.
fn feed_tasks() -> Vec<FeedTask> {
    let used: Vec<Value> = (0..250)
        .map(|i| {
            if i % 10 == 3 {
                json!({"position": i + 1, "status": "ERROR", "offer_id": null, "vin": null,
                       "unique_id": format!("used-{i}"),
                       "errors": [
                           {"type": "ERROR", "message": "Не указано количество владельцев",
                            "field_name": "owners_number", "field_value": ""},
                           {"type": "NOTICE", "message": "Неизвестный цвет",
                            "field_name": "color", "field_value": "тёмно-синий"}]})
            } else {
                json!({"position": i + 1, "status": "UPDATED", "offer_id": format!("1105{i}-u{i}"),
                       "vin": format!("XTA2170300000{i:04}"), "unique_id": format!("used-{i}"),
                       "errors": []})
            }
        })
        .collect();
    let new: Vec<Value> = (0..3)
        .map(|i| {
            json!({"position": i + 1, "status": "INSERTED", "offer_id": format!("2200{i}-n"),
                   "unique_id": format!("new-{i}"), "errors": []})
        })
        .collect();
    vec![
        FeedTask {
            id: "901".into(),
            section: "USED".into(),
            created_at: "2024-05-01T03:00:00Z".into(),
            finished_at: Some("2024-05-01T03:05:00Z".into()),
            offers: vec![json!({"position": 1, "status": "UPDATED", "unique_id": "stale"})],
        },
        FeedTask {
            id: "902".into(),
            section: "USED".into(),
            created_at: "2024-05-02T03:00:00Z".into(),
            finished_at: Some("2024-05-02T03:05:00Z".into()),
            offers: used,
        },
        FeedTask {
            id: "903".into(),
            section: "USED".into(),
            created_at: "2024-05-02T09:00:00Z".into(),
            finished_at: None,
            offers: Vec::new(),
        },
        FeedTask {
            id: "904".into(),
            section: "NEW".into(),
            created_at: "2024-05-02T03:00:00Z".into(),
            finished_at: Some("2024-05-02T03:01:00Z".into()),
            offers: new,
        },
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_feed_report_reads_every_page_of_each_section_s_last_task() {
    let state = FakeState {
        tasks: feed_tasks(),
        ..FakeState::default()
    };
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    let reports = autoru.feed_report().await.unwrap();
    assert_eq!(reports.len(), 253);
    let pages: Vec<(String, String, String)> = fake
        .seen()
        .into_iter()
        .filter(|s| s.path.starts_with("/feeds/history/"))
        .map(|s| {
            (
                s.path,
                s.query["page"].clone(),
                s.query["page_size"].clone(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> =
        [("902", "1"), ("902", "2"), ("902", "3"), ("904", "1")]
            .iter()
            .map(|(t, p)| {
                (
                    format!("/feeds/history/{t}"),
                    p.to_string(),
                    "100".to_string(),
                )
            })
            .collect();
    assert_eq!(pages, expected);

    let refused: Vec<_> = reports
        .iter()
        .filter(|r| r.status == AdStatus::Refused)
        .collect();
    assert_eq!(refused.len(), 25);
    let car = reports.iter().find(|r| r.feed_id == "used-243").unwrap();
    assert_eq!(car.status, AdStatus::Refused);
    assert_eq!(car.market_id, None);
    assert_eq!(
        car.messages,
        vec![
            "Не указано количество владельцев (owners_number)",
            "Неизвестный цвет (color: тёмно-синий)"
        ]
    );
    let car = reports.iter().find(|r| r.feed_id == "used-249").unwrap();
    assert_eq!(car.status, AdStatus::Published);
    assert_eq!(car.market_id.as_deref(), Some("1105249-u249"));
    assert_eq!(
        car.url.as_deref(),
        Some("https://auto.ru/cars/used/sale/1105249-u249/")
    );
    let car = reports.iter().find(|r| r.feed_id == "new-2").unwrap();
    assert_eq!(
        car.url.as_deref(),
        Some("https://auto.ru/cars/new/sale/22002-n/")
    );
    assert!(!reports.iter().any(|r| r.feed_id == "stale"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn figures_of_several_ads_skip_an_id_auto_ru_does_not_know() {
    let mut ids = offer_ids(3);
    let fake = FakeAutoru::start(with_stats(&ids)).await;
    ids.insert(1, "9999-gone".into());
    let (_keys, autoru) = client(&fake);
    let figures = autoru.stats(&ids, day(2), day(3)).await.unwrap();
    assert_eq!(figures.len(), 6, "two days of the three known ads");
    assert!(figures.iter().all(|f| f.market_id != "9999-gone"));
    let third = figures
        .iter()
        .find(|f| f.market_id == ids[3] && f.day == day(3))
        .unwrap();
    assert_eq!((third.views, third.contacts, third.calls), (23, 3, 2));
    let asked: Vec<_> = fake
        .seen()
        .into_iter()
        .filter(|s| s.path.ends_with("/stats"))
        .collect();
    assert_eq!(asked.len(), 4);
    assert!(
        asked
            .iter()
            .all(|s| s.path.starts_with("/user/offers/cars/"))
    );
    assert_eq!(asked[0].query["from"], "2024-05-02");
    assert_eq!(asked[0].query["to"], "2024-05-03");
    assert_eq!(asked[1].status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_are_read_over_every_page_once_each() {
    let start = Utc.with_ymd_and_hms(2024, 5, 1, 0, 0, 0).unwrap();
    let calls: Vec<Value> = (0..230)
        .map(|i| {
            let at = start + chrono::Duration::minutes(5 * i);
            json!({
                "call_id": format!("call-{i}"),
                "external_id": format!("ext-{i}"),
                "result": if i % 4 == 0 { "MISSED" } else { "SUCCESS" },
                "source": {"raw": "79051112233"},
                "target": {"raw": "74950001122"},
                "proxy": {"proxy_number": "74951234567"},
                "timestamp": at.to_rfc3339(),
                "call_duration": {"seconds": 80},
                "talk_duration": {"seconds": if i % 4 == 0 { 0 } else { 60 }},
                "wait_duration": {"seconds": 20},
                "record_available": i % 4 != 0,
                "is_callback": false,
                "is_unique": true,
                "offer": {"id": format!("1105{i}-u{i}"), "documents": {"vin": format!("XTA2170300000{i:04}")}}
            })
        })
        .collect();
    let mut outside = calls[0].clone();
    outside["call_id"] = json!("call-next-day");
    outside["timestamp"] = json!("2024-05-03T10:00:00Z");
    let mut all = calls;
    all.push(outside);
    let state = FakeState {
        calls: all,
        ..FakeState::default()
    };
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    let to = Utc.with_ymd_and_hms(2024, 5, 2, 0, 0, 0).unwrap();
    let got = autoru.calls(start, to).await.unwrap();
    assert_eq!(got.len(), 230);
    let mut ids: Vec<_> = got.iter().map(|c| c.call_id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 230, "one record per call id");
    let pages = fake
        .seen()
        .into_iter()
        .filter(|s| s.path == "/calltracking")
        .count();
    assert_eq!(pages, 3);
    let missed = &got[4];
    assert_eq!(missed.call_id, "call-4");
    assert!(!missed.answered);
    assert_eq!((missed.talk_seconds, missed.wait_seconds), (0, 20));
    assert_eq!(missed.caller.as_deref(), Some("+79051112233"));
    assert_eq!(missed.called.as_deref(), Some("+74951234567"));
    assert_eq!(missed.market_id.as_deref(), Some("11054-u4"));
    assert_eq!(missed.vin.as_deref(), Some("XTA21703000000004"));
    assert_eq!(missed.at, start + chrono::Duration::minutes(20));
    assert!(got[5].answered);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_s_pace_keeps_a_burst_under_the_rate_limit() {
    // Scaled down: Auto.ru's 300 a minute as 6 per 150 ms; the pace of
    // 40 ms leaves room, as 250 ms (240 a minute) does.
    let window = Duration::from_millis(150);
    let ids = offer_ids(30);
    let mut state = with_stats(&ids);
    state.window = Some((window, 6));
    let fake = FakeAutoru::start(state).await;
    let (_keys, autoru) = client(&fake);
    let autoru = autoru.with_pace(Duration::from_millis(40));
    let figures = autoru.stats(&ids, day(1), day(3)).await.unwrap();
    assert_eq!(figures.len(), 90);
    let seen = fake.seen();
    assert!(seen.iter().all(|s| s.status == 200), "no 429 at the pace");
    assert!(fake.busiest(window) <= 6, "{}", fake.busiest(window));

    // The same burst without the pace trips the limit.
    let mut state = with_stats(&ids);
    state.window = Some((window, 6));
    let fake = FakeAutoru::start(state).await;
    let (_keys, unpaced) = client(&fake);
    let _ = unpaced.stats(&ids, day(1), day(3)).await;
    assert!(fake.seen().iter().any(|s| s.status == 429));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_file_others_can_read_is_refused() {
    let keys = keys("http://127.0.0.1:9/1.0", "autoru-token-1", "pw", 0o644);
    match Autoru::new(&keys.config, reqwest::Client::new(), Patience::brief()) {
        Err(MarketError::Secret(words)) => {
            assert!(words.contains("autoru.api_key_file"), "{words}");
            assert!(words.contains("0644"), "{words}");
        }
        other => panic!("{other:?}"),
    }
    let mut unset = keys.config.clone();
    unset.login = String::new();
    assert!(matches!(
        Autoru::new(&unset, reqwest::Client::new(), Patience::brief()),
        Err(MarketError::NotConfigured(_))
    ));
}
