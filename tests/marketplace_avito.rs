//! The Avito client against a fake Avito written from its documentation
//! (`tests/fakes/avito.rs`): tokens issued, reused and renewed when one
//! ends mid-run, refused keys, 429 and 5xx outwaited, the autoload report
//! over its pages of 20, stats in calls of at most 200 ads and 270 days,
//! calls in pages of 1000, and a secret readable by others refused.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

#[path = "fakes/avito.rs"]
mod avito_fake;

use std::os::unix::fs::PermissionsExt;

use avito_fake::{FakeAvito, Fault, State, moscow_today};
use chrono::{Days, Duration, TimeZone, Utc};
use dealership::config::AvitoConfig;
use dealership::marketplaces::avito::Avito;
use dealership::marketplaces::{AdStatus, MarketError, Patience};
use serde_json::{Value, json};

struct Keys {
    _dir: tempfile::TempDir,
    config: AvitoConfig,
}

fn keys(fake: &FakeAvito, secret: &str, mode: u32) -> Keys {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("avito-secret");
    std::fs::write(&path, format!("{secret}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    let config = AvitoConfig {
        api_url: format!("{}/", fake.url),
        client_id: "client-1".into(),
        client_secret_file: path,
        user_id: String::new(),
    };
    Keys { _dir: dir, config }
}

fn client(keys: &Keys) -> Avito {
    Avito::new(&keys.config, Avito::http_client(), Patience::brief()).unwrap()
}

async fn started(state: State) -> (FakeAvito, Keys) {
    let fake = FakeAvito::start(state).await;
    let keys = keys(&fake, "secret-1", 0o600);
    (fake, keys)
}

#[tokio::test]
async fn a_token_is_issued_once_and_reused_with_the_account_checked() {
    let (fake, keys) = started(State::default()).await;
    let avito = client(&keys);
    let line = avito.check().await.unwrap();
    assert_eq!(line, "Подключено: аккаунт 12345 (Автосалон на Садовой)");
    assert_eq!(avito.user_id().await.unwrap(), "12345");
    avito.last_upload().await.unwrap();
    avito.report().await.unwrap();
    fake.with(|s| {
        assert_eq!(s.tokens_issued, 1);
        let token = s.on("/token");
        assert_eq!(token.len(), 1);
        assert_eq!(
            token[0].body,
            json!({"grant_type": "client_credentials", "client_id": "client-1", "client_secret": "secret-1"})
        );
        for seen in s.seen.iter().filter(|seen| seen.path != "/token") {
            assert_eq!(seen.bearer.as_deref(), Some("token-1"), "{}", seen.path);
        }
        // The account is asked once: the check keeps its number.
        assert_eq!(s.on("/core/v1/accounts/self").len(), 1);
    });
}

#[tokio::test]
async fn a_token_ending_mid_run_is_renewed_and_the_run_completes() {
    let mut state = State::default();
    state.uploads = vec![upload(1, "success")];
    state.items = (0..45)
        .map(|n| published(&format!("car-{n}"), 900 + n))
        .collect();
    // The report's second call (its second page) meets a revoked token.
    state.revoke_at_call = Some(2);
    let (fake, keys) = started(state).await;
    let avito = client(&keys);
    let ads = avito.report().await.unwrap();
    assert_eq!(ads.len(), 45);
    fake.with(|s| {
        assert_eq!(s.tokens_issued, 2);
        let pages = s.on("/autoload/v4/uploads/last_successful/items");
        let asked: Vec<(&str, Option<&str>)> = pages
            .iter()
            .map(|p| (p.query["page"].as_str(), p.bearer.as_deref()))
            .collect();
        assert_eq!(
            asked,
            vec![
                ("1", Some("token-1")),
                ("2", Some("token-1")),
                ("2", Some("token-2")),
                ("3", Some("token-2"))
            ]
        );
    });
}

#[tokio::test]
async fn a_refused_secret_is_unauthorized_with_avitos_words() {
    let fake = FakeAvito::start(State::default()).await;
    let keys = keys(&fake, "wrong-secret", 0o600);
    let avito = client(&keys);
    let err = avito.check().await.unwrap_err();
    assert_eq!(
        err,
        MarketError::Unauthorized {
            status: 400,
            message: "Неверный client_id или client_secret".into()
        }
    );
    assert!(
        err.to_string().contains("площадка не приняла ключи"),
        "{err}"
    );
    // Once: keys refused are not retried.
    fake.with(|s| assert_eq!(s.on("/token").len(), 1));
}

#[tokio::test]
async fn a_secret_others_can_read_is_refused_before_any_call() {
    let fake = FakeAvito::start(State::default()).await;
    let keys = keys(&fake, "secret-1", 0o644);
    let err = Avito::new(&keys.config, Avito::http_client(), Patience::brief())
        .err()
        .unwrap();
    let MarketError::Secret(message) = &err else {
        panic!("{err:?}");
    };
    assert!(message.contains("avito.client_secret_file"), "{message}");
    assert!(message.contains("chmod 600"), "{message}");
    fake.with(|s| assert!(s.seen.is_empty()));
    let mut off = keys.config.clone();
    off.client_id = String::new();
    assert!(matches!(
        Avito::new(&off, Avito::http_client(), Patience::brief()),
        Err(MarketError::NotConfigured(_))
    ));
}

#[tokio::test]
async fn too_many_requests_are_outwaited_as_retry_after_asks() {
    let mut state = State::default();
    state.faults.push_back(Fault::TooMany { retry_after: 1 });
    state.faults.push_back(Fault::TooMany { retry_after: 1 });
    let (fake, keys) = started(state).await;
    let avito = client(&keys);
    assert!(avito.check().await.unwrap().starts_with("Подключено"));
    fake.with(|s| assert_eq!(s.on("/token").len(), 3));
}

#[tokio::test]
async fn a_server_failing_twice_is_tried_again_and_one_down_is_unavailable() {
    let mut state = State::default();
    state.faults.push_back(Fault::Status(503));
    state.faults.push_back(Fault::Status(503));
    let (fake, keys) = started(state).await;
    let avito = client(&keys);
    avito.check().await.unwrap();
    fake.with(|s| assert_eq!(s.seen.len(), 4)); // 503, 503, token, account

    let mut state = State::default();
    state.always = Some(503);
    let (down, keys) = started(state).await;
    let avito = client(&keys);
    let err = avito.check().await.unwrap_err();
    assert!(matches!(err, MarketError::Unavailable(_)), "{err:?}");
    assert!(err.to_string().contains("HTTP 503"), "{err}");
    down.with(|s| assert_eq!(s.seen.len(), Patience::brief().attempts as usize));
}

#[tokio::test]
async fn the_report_reads_every_page_of_20_with_refusals_and_their_messages() {
    let mut state = State::default();
    state.uploads = vec![upload(2, "processing"), upload(1, "success_warning")];
    for n in 0..50u64 {
        let id = format!("car-{n}");
        state.items.push(match n % 10 {
            3 => refused(&id, "WheelType", "Обязательное поле не заполнено"),
            7 => json!({
                "section": {"slug": "successful", "title": "Успешно опубликовано"},
                "ad_id": id, "avito_id": 4000 + n, "feed_name": "",
                "url": null, "messages": [], "avito_date_end": null, "avito_status": "old"
            }),
            _ => published(&id, 4000 + n),
        });
    }
    // Refused ads never got an Avito id from the report; one did earlier.
    state.avito_ids.insert("car-13".into(), 7013);
    let (fake, keys) = started(state).await;
    let avito = client(&keys);

    let upload = avito.last_upload().await.unwrap().unwrap();
    assert_eq!(
        (upload.id.as_str(), upload.status.as_str()),
        ("2", "processing")
    );
    assert!(upload.started_at.is_some());

    let ads = avito.report().await.unwrap();
    assert_eq!(ads.len(), 50);
    let car = |id: &str| ads.iter().find(|ad| ad.feed_id == id).unwrap();
    let ok = car("car-0");
    assert_eq!(ok.status, AdStatus::Published);
    assert_eq!(ok.market_id.as_deref(), Some("4000"));
    assert_eq!(
        ok.url.as_deref(),
        Some("https://www.avito.ru/moskva/avtomobili/4000")
    );
    assert!(
        ok.messages.is_empty(),
        "info messages are not shown: {:?}",
        ok.messages
    );
    let no = car("car-3");
    assert_eq!(no.status, AdStatus::Refused);
    assert_eq!(no.market_id, None);
    assert_eq!(
        no.messages,
        vec!["Обязательное поле не заполнено: Поле WheelType не заполнено".to_string()]
    );
    assert_eq!(car("car-13").market_id.as_deref(), Some("7013"));
    assert_eq!(car("car-47").status, AdStatus::Removed);
    assert_eq!(
        ads.iter()
            .filter(|ad| ad.status == AdStatus::Refused)
            .count(),
        5
    );

    let refused_only = avito.report_in(&["error"]).await.unwrap();
    assert_eq!(refused_only.len(), 5);
    assert!(refused_only.iter().all(|ad| ad.status == AdStatus::Refused));

    fake.with(|s| {
        let pages = s.on("/autoload/v4/uploads/last_successful/items");
        assert_eq!(pages.len(), 4); // 3 pages, then the refused in one
        assert!(pages.iter().all(|p| p.query["perPage"] == "20"));
        assert_eq!(pages[3].query["sections"], "error");
        let asked = s.on("/autoload/v2/items/avito_ids");
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].query["query"], "car-3,car-13,car-23,car-33,car-43");
    });
}

#[tokio::test]
async fn no_successful_upload_yet_is_an_empty_report() {
    let (_fake, keys) = started(State::default()).await;
    let avito = client(&keys);
    assert_eq!(avito.last_upload().await.unwrap(), None);
    assert!(avito.report().await.unwrap().is_empty());
}

#[tokio::test]
async fn stats_ask_200_ads_at_most_within_270_days_and_ignore_strangers() {
    let today = moscow_today();
    let yesterday = today.checked_sub_days(Days::new(1)).unwrap();
    let mut state = State::default();
    let ids: Vec<u64> = (1..=450).map(|n| 100_000 + n).collect();
    for id in &ids {
        state.stats.insert(
            *id,
            vec![json!({"date": yesterday.to_string(), "uniqViews": id % 97, "uniqContacts": 2, "uniqFavorites": 1})],
        );
    }
    state.stranger = Some(999);
    state.stats.insert(
        999,
        vec![json!({"date": yesterday.to_string(), "uniqViews": 5})],
    );
    let (fake, keys) = started(state).await;
    let avito = client(&keys);
    let mut asked: Vec<String> = ids.iter().map(u64::to_string).collect();
    asked.push("not-a-number".into());
    let from = today.checked_sub_days(Days::new(400)).unwrap();
    let days = avito.stats(&asked, from, today, today).await.unwrap();
    assert_eq!(days.len(), 450);
    assert!(days.iter().all(|d| d.market_id != "999"));
    let one = days.iter().find(|d| d.market_id == "100097").unwrap();
    assert_eq!(
        (one.day, one.views, one.contacts, one.favourites, one.calls),
        (yesterday, 90, 2, 1, 0)
    );
    fake.with(|s| {
        let calls = s.on("/stats/v1/accounts/12345/items");
        let sizes: Vec<usize> = calls
            .iter()
            .map(|c| c.body["itemIds"].as_array().unwrap().len())
            .collect();
        assert_eq!(sizes, vec![200, 200, 50]);
        let earliest = today.checked_sub_days(Days::new(269)).unwrap().to_string();
        for call in &calls {
            assert_eq!(call.body["dateFrom"], earliest.as_str());
            assert_eq!(call.body["dateTo"], today.to_string().as_str());
            assert_eq!(call.body["periodGrouping"], "day");
            assert_eq!(
                call.body["fields"],
                json!(["uniqViews", "uniqContacts", "uniqFavorites"])
            );
        }
        // The account's number was asked of Avito once.
        assert_eq!(s.on("/core/v1/accounts/self").len(), 1);
    });
}

#[tokio::test]
async fn calls_are_paged_by_1000_each_once_with_the_caller_in_e164() {
    let start = Utc.with_ymd_and_hms(2026, 5, 1, 0, 0, 0).unwrap();
    let mut state = State::default();
    state.calls = (0..1005)
        .map(|n| {
            json!({
                "callId": 50_000 + n,
                "itemId": 4000 + n % 7,
                "buyerPhone": format!("7999{:07}", n),
                "sellerPhone": "+79990000101",
                "virtualPhone": "+79990000102",
                "callTime": (start + Duration::minutes(n)).to_rfc3339(),
                "talkDuration": if n % 5 == 0 { 0 } else { 30 + n % 60 },
                "waitingDuration": 4.5
            })
        })
        .collect();
    let (fake, keys) = started(state).await;
    let avito = client(&keys);
    let calls = avito.calls(start, start + Duration::days(2)).await.unwrap();
    assert_eq!(calls.len(), 1005);
    let first = &calls[0];
    assert_eq!(first.call_id, "50000");
    assert_eq!(first.market_id.as_deref(), Some("4000"));
    assert_eq!(first.caller.as_deref(), Some("+79990000000"));
    assert_eq!(first.called.as_deref(), Some("+79990000102"));
    assert!(!first.answered);
    assert!(calls[1].answered);
    assert_eq!(calls.iter().filter(|c| !c.answered).count(), 201);
    fake.with(|s| {
        let pages: Vec<(u64, u64)> = s
            .on("/calltracking/v1/getCalls/")
            .iter()
            .map(|p| {
                (
                    p.body["limit"].as_u64().unwrap(),
                    p.body["offset"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(pages, vec![(1000, 0), (1000, 1000)]);
    });
}

#[tokio::test]
async fn a_long_range_of_calls_is_asked_in_windows_the_api_accepts() {
    let (fake, keys) = started(State::default()).await;
    let avito = client(&keys);
    let start = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    // Five months; the API takes at most three after dateTimeFrom.
    let calls = avito
        .calls(start, start + Duration::days(150))
        .await
        .unwrap();
    assert!(calls.is_empty());
    fake.with(|s| assert_eq!(s.on("/calltracking/v1/getCalls/").len(), 5));
}

#[tokio::test]
async fn a_calls_answer_carrying_its_own_error_is_an_error_not_an_empty_day() {
    let mut state = State::default();
    state.calls_error = Some((500, "Внутренняя ошибка".into()));
    let (_fake, keys) = started(state).await;
    let avito = client(&keys);
    let start = Utc.with_ymd_and_hms(2026, 5, 1, 0, 0, 0).unwrap();
    let err = avito
        .calls(start, start + Duration::days(1))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        MarketError::Answer("звонки: ошибка 500: Внутренняя ошибка".into())
    );
}

fn upload(id: u64, status: &str) -> Value {
    json!({
        "upload_id": id, "status": status, "source": "url",
        "started_at": "2026-07-01T16:48:02Z",
        "stats": {"title": "Обработано объявлений", "slug": "sections_stats", "count": 50, "sections": []},
        "events": [],
        "feed_urls": [{"name": "", "url": "https://salon.example/feeds/avito.xml"}]
    })
}

fn published(id: &str, avito_id: u64) -> Value {
    json!({
        "section": {"slug": "success_skipped", "title": "Без изменений"},
        "ad_id": id, "avito_id": avito_id, "feed_name": "",
        "url": format!("https://www.avito.ru/moskva/avtomobili/{avito_id}"),
        "messages": [{"code": 3002, "title": "", "description": "Объявление активировалось", "type": "info", "updated_at": "2026-06-26T01:11:13Z"}],
        "avito_date_end": "2026-07-26T04:12:33.530000+03:00",
        "avito_status": "active"
    })
}

fn refused(id: &str, field: &str, title: &str) -> Value {
    json!({
        "section": {"slug": "error", "title": "Ошибки"},
        "ad_id": id, "avito_id": null, "feed_name": "", "url": null,
        "messages": [{"code": 1001, "title": title, "description": format!("Поле {field} не заполнено"), "type": "error", "updated_at": "2026-07-01T11:57:44Z"}],
        "avito_date_end": null,
        "avito_status": "rejected"
    })
}
