//! Own advertising marked (issue 26, `docs/advertising.md`), through the
//! real router on a real SQLite file: promotions, partner banks' offers and
//! page banners take an ad token (erid) and an advertiser, checked as the
//! advertising data operators issue them, published to visitors, and the
//! self-check `ad_without_token` lists ads shown without a token.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::{TestApp, seed_catalogue};
use dealership::domain::ads::BAD_ERID;
use serde_json::{Value, json};

async fn unmarked(app: &TestApp, cookie: &str) -> Vec<String> {
    let report = app
        .admin_with(cookie, Method::GET, "/api/admin/checks", None)
        .await
        .json();
    report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["check"] == "ad_without_token")
        .map(|p| {
            assert_eq!(p["title"], "Реклама без токена (erid)");
            assert_eq!(p["severity"], "error");
            p["detail"].as_str().unwrap().to_string()
        })
        .collect()
}

fn promotion(advertiser: &str, erid: &str) -> Value {
    json!({"title": "Haval Jolion: выгода 300 000 ₽", "description": "Спецпредложение производителя",
           "validUntil": "31.12.2099", "isActive": true,
           "adAdvertiser": advertiser, "adErid": erid})
}

#[tokio::test]
async fn promotions_banks_and_banners_carry_their_mark_and_the_check_lists_those_without() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    seed_catalogue(&app);
    // The seeded bank is marked; the salon's own promotions are not ads.
    assert_eq!(unmarked(&app, &cookie).await, Vec::<String>::new());

    // A maker's campaign: an ad, and without its token it is listed.
    let created = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/promotions",
            Some(promotion("ООО «Хавейл Мотор Рус»", "")),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let id = created.json()["id"].as_str().unwrap().to_string();
    let listed = unmarked(&app, &cookie).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(
        listed[0].starts_with("Акция «Haval Jolion: выгода 300 000 ₽»: реклама в интернете"),
        "{listed:?}"
    );
    for bad in ["токен", "2Vtz qwd", "a-b"] {
        let refused = app
            .admin_with(
                &cookie,
                Method::PUT,
                &format!("/api/promotions/{id}"),
                Some(promotion("ООО «Хавейл Мотор Рус»", bad)),
            )
            .await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert_eq!(refused.json()["field"], "adErid");
        assert_eq!(refused.error(), BAD_ERID);
    }
    let marked = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/promotions/{id}"),
            Some(promotion("ООО «Хавейл Мотор Рус»", "erid: 2VtzqwdWzZL")),
        )
        .await;
    assert_eq!(marked.status, StatusCode::OK, "{}", marked.text());
    assert_eq!(marked.json()["adErid"], "2VtzqwdWzZL");
    assert_eq!(unmarked(&app, &cookie).await, Vec::<String>::new());
    // Visitors get the mark with the promotion.
    let public = app.get("/api/promotions").await.json();
    let shown = public
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id.as_str())
        .unwrap();
    assert_eq!(shown["adAdvertiser"], "ООО «Хавейл Мотор Рус»");
    assert_eq!(shown["adErid"], "2VtzqwdWzZL");

    // A bank's offer is always an ad: a new bank without a token is listed.
    let bank = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/partner-banks",
            Some(json!({"name": "Банк Нева", "logo": "/media/bank-800.webp",
                        "requirements": "Паспорт", "advantages": "Ставка от 9,9%"})),
        )
        .await;
    assert_eq!(bank.status, StatusCode::CREATED, "{}", bank.text());
    let bank_id = bank.json()["id"].as_str().unwrap().to_string();
    let listed = unmarked(&app, &cookie).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(listed[0].starts_with("Предложение банка «Банк Нева»"));
    let marked = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/partner-banks/{bank_id}"),
            Some(json!({"name": "Банк Нева", "logo": "/media/bank-800.webp",
                        "requirements": "Паспорт", "advantages": "Ставка от 9,9%",
                        "adErid": "Kra23f3QL", "adAdvertiser": "АО «Банк Нева»"})),
        )
        .await;
    assert_eq!(marked.status, StatusCode::OK, "{}", marked.text());
    // The show/hide toggle keeps the mark.
    let hidden = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/partner-banks/{bank_id}"),
            Some(json!({"active": true})),
        )
        .await
        .json();
    assert_eq!(hidden["adErid"], "Kra23f3QL");
    assert_eq!(unmarked(&app, &cookie).await, Vec::<String>::new());
    // Its programmes carry the mark to the credit calculator; the seeded
    // bank names no advertiser: its own name stands.
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let programme = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/admin/credit-programs",
            Some(
                json!({"bankId": bank_id, "name": "Автокредит", "rateMin": 9.9,
                "rateMax": 19.9, "pskMin": 10.5, "pskMax": 21.3, "termMinMonths": 12,
                "termMaxMonths": 84, "validFrom": today, "conditions": "При КАСКО"}),
            ),
        )
        .await;
    assert_eq!(
        programme.status,
        StatusCode::CREATED,
        "{}",
        programme.text()
    );
    let offers = app.get("/api/credit-programs").await.json();
    let marks: Vec<&Value> = offers["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["bankAd"])
        .collect();
    assert!(
        marks.contains(&&json!({"erid": "Kra23f3QL", "advertiser": "АО «Банк Нева»"})),
        "{offers}"
    );

    // A banner naming an advertiser, shown without a token.
    let put = |body: Value| {
        let (app, cookie) = (&app, &cookie);
        async move {
            app.admin_with(cookie, Method::PUT, "/api/settings", Some(body))
                .await
        }
    };
    let saved = put(json!({"homeBanner": "/media/banner-800.webp",
        "bannerAds": {"homeBanner": {"advertiser": "ООО «Хавейл Мотор Рус»", "erid": ""},
                      "usedCarsBanner": {"advertiser": "", "erid": ""}}}))
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let listed = unmarked(&app, &cookie).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(listed[0].starts_with("Баннер страницы «Главная»"));
    for (body, message) in [
        (
            json!({"bannerAds": {"sideBanner": {"advertiser": "X", "erid": ""}}}),
            "Неизвестный баннер: sideBanner",
        ),
        (
            json!({"bannerAds": {"homeBanner": {"advertiser": "X", "erid": "не токен"}}}),
            BAD_ERID,
        ),
    ] {
        let refused = put(body).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused.json()["field"], "bannerAds");
        assert_eq!(refused.error(), message);
    }
    let saved = put(json!({"bannerAds": {"homeBanner":
        {"advertiser": "ООО «Хавейл Мотор Рус»", "erid": "LjN8Kaaxi"}}}))
    .await;
    assert_eq!(saved.status, StatusCode::OK);
    assert_eq!(unmarked(&app, &cookie).await, Vec::<String>::new());
    let public = app.get("/api/settings").await.json();
    assert_eq!(
        public["bannerAds"],
        json!({"homeBanner": {"advertiser": "ООО «Хавейл Мотор Рус»", "erid": "LjN8Kaaxi"}})
    );
}

#[tokio::test]
async fn an_editor_marks_the_banners_they_change() {
    let app = TestApp::new();
    app.create_admin();
    app.create_user("editor", dealership::domain::roles::Role::Editor);
    let editor = app.login_as("editor").await;
    let marks = json!({"bannerAds": {"tradeInBanner":
        {"advertiser": "ООО «Хавейл Мотор Рус»", "erid": "LjN8Kaaxi"}}});
    let saved = app
        .admin_with(&editor, Method::PUT, "/api/settings", Some(marks))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    assert_eq!(
        saved.json()["bannerAds"]["tradeInBanner"]["erid"],
        "LjN8Kaaxi"
    );
    // The rest of the settings stays the owner's.
    let refused = app
        .admin_with(
            &editor,
            Method::PUT,
            "/api/settings",
            Some(json!({"bannerAds": {}, "salonName": "Другой"})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_promotion_of_a_partner_banks_credit_is_an_ad_whoever_it_names() {
    let app = TestApp::new();
    app.create_admin();
    let cookie = app.login().await;
    seed_catalogue(&app);
    let bank: String = app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT name FROM partner_banks LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let offer = |advertiser: &str, erid: &str| {
        json!({"title": format!("Автокредит с банком {bank}"),
               "description": "ПСК от 5,213% годовых, первый взнос от 20%",
               "validUntil": "31.12.2099", "isActive": true,
               "adAdvertiser": advertiser, "adErid": erid})
    };
    // No advertiser named: still the bank's product, listed.
    let created = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/promotions",
            Some(offer("", "")),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let id = created.json()["id"].as_str().unwrap().to_string();
    let listed = unmarked(&app, &cookie).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(
        listed[0].starts_with(&format!(
            "Акция «Автокредит с банком {bank}» (продукт банка «{bank}»)"
        )),
        "{listed:?}"
    );
    // A token without its advertiser is not the whole mark.
    let path = format!("/api/promotions/{id}");
    let half = app
        .admin_with(&cookie, Method::PUT, &path, Some(offer("", "2VtzqvWgr8P")))
        .await;
    assert_eq!(half.status, StatusCode::OK, "{}", half.text());
    assert_eq!(unmarked(&app, &cookie).await.len(), 1);
    let whole = app
        .admin_with(
            &cookie,
            Method::PUT,
            &path,
            Some(offer("ПАО Сбербанк", "2VtzqvWgr8P")),
        )
        .await;
    assert_eq!(whole.status, StatusCode::OK, "{}", whole.text());
    assert_eq!(unmarked(&app, &cookie).await, Vec::<String>::new());
    // The home page shows it marked as the calculator marks the bank.
    if dealership::http::pages::Renderer::available() {
        let home = app.get("/").await.text();
        assert!(
            home.contains("Реклама · ПАО Сбербанк · erid: 2VtzqvWgr8P"),
            "the home page's promotion carries its mark"
        );
    }
}
