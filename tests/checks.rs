//! The self-checks (`docs/self-checks.md`) through the real router on a real
//! SQLite file: each problem provoked through the admin API (or a feed
//! import), found with its severity and link, then fixed and gone; the
//! date-driven ones by moving the app's clock, with no write.
#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/logs.rs"]
mod logs;
mod parser_support;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use chrono::{Duration, NaiveDate};
use common::TestApp;
use dealership::clock::Clock;
use dealership::domain::checks::SelfChecks;
use logs::Logs;
use parser_support::AdminSession;
use serde_json::{Value, json};

struct Site {
    app: TestApp,
    cookie: String,
    clock: Arc<Clock>,
    checks: Arc<SelfChecks>,
}

impl Site {
    /// A site with an admin, its operator named.
    async fn new() -> Site {
        let site = Site::bare().await;
        // The operator named (its own check is in tests/personal_data.rs).
        let named = site
            .app
            .admin_with(
                &site.cookie,
                Method::PUT,
                "/api/settings",
                Some(json!({"operatorName": "ООО «Невский Автоцентр»",
                            "operatorInn": "7810453273", "operatorOgrn": "1177847123453",
                            "operatorAddress": "Санкт-Петербург, Пулковское шоссе, 44к2"})),
            )
            .await;
        assert_eq!(named.status, StatusCode::OK, "{}", named.text());
        site
    }

    /// A site with an admin and nothing else.
    async fn bare() -> Site {
        let mut held = None;
        let app = TestApp::with_state(|state| {
            held = Some((state.clock.clone(), state.checks.clone()));
        });
        let (clock, checks) = held.unwrap();
        app.create_admin();
        let cookie = app.login().await;
        Site {
            app,
            cookie,
            clock,
            checks,
        }
    }

    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        let answer = self
            .app
            .admin_with(&self.cookie, method.clone(), path, body)
            .await;
        assert!(
            answer.status.is_success(),
            "{method} {path}: {} {}",
            answer.status,
            answer.text()
        );
        if answer.body.is_empty() {
            Value::Null
        } else {
            answer.json()
        }
    }

    async fn create(&self, path: &str, body: Value) -> String {
        self.call(Method::POST, path, Some(body)).await["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    async fn report(&self) -> Value {
        let report = self.call(Method::GET, "/api/admin/checks", None).await;
        let problems = report["problems"].as_array().unwrap();
        assert_eq!(report["count"], problems.len(), "{report}");
        // Errors first, then warnings.
        let severities: Vec<&str> = problems
            .iter()
            .map(|p| p["severity"].as_str().unwrap())
            .collect();
        let first_warning = severities
            .iter()
            .position(|s| *s == "warning")
            .unwrap_or(severities.len());
        assert!(
            severities[first_warning..].iter().all(|s| *s == "warning"),
            "{severities:?}"
        );
        report
    }

    /// The problems of `check` about `object` (null: the settings).
    async fn found(&self, check: &str, object: Option<&str>) -> Vec<Value> {
        let report = self.report().await;
        report["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["check"] == check && p["objectId"].as_str() == object)
            .cloned()
            .collect()
    }

    /// Exactly one problem of `check` about `object`, with its severity and
    /// link; gives it.
    async fn expect(&self, check: &str, object: Option<&str>, severity: &str, link: &str) -> Value {
        let found = self.found(check, object).await;
        assert_eq!(
            found.len(),
            1,
            "{check} {object:?}: {:#}",
            self.report().await
        );
        let problem = found[0].clone();
        assert_eq!(problem["severity"], severity, "{problem}");
        assert_eq!(problem["link"], link, "{problem}");
        assert!(!problem["title"].as_str().unwrap().is_empty());
        assert!(!problem["detail"].as_str().unwrap().is_empty());
        problem
    }

    async fn cleared(&self, check: &str, object: Option<&str>) {
        let found = self.found(check, object).await;
        assert!(
            found.is_empty(),
            "{check} {object:?} still listed: {found:?}"
        );
    }

    fn today(&self) -> NaiveDate {
        self.clock.moscow_today()
    }

    async fn bank(&self, name: &str) -> String {
        self.create(
            "/api/partner-banks",
            // Marked as an ad (tests/ads.rs checks the unmarked).
            json!({"name": name, "logo": "/media/bank-800.webp",
                "requirements": "Паспорт", "advantages": "Решение за час",
                "adErid": "LjN8Kaaxi"}),
        )
        .await
    }

    /// A programme of `bank` valid from today, with its ПСК.
    async fn programme(&self, bank: &str, psk: (f64, f64)) -> String {
        self.create(
            "/api/admin/credit-programs",
            json!({"bankId": bank, "name": "Автокредит", "rateMin": 5.9, "rateMax": 9.9,
                "pskMin": psk.0, "pskMax": psk.1, "termMinMonths": 12, "termMaxMonths": 60,
                "validFrom": day(self.today()), "conditions": "При КАСКО"}),
        )
        .await
    }

    async fn brand(&self, slug: &str) -> String {
        self.create(
            "/api/brands",
            json!({"name": slug.to_uppercase(), "slug": slug, "logo": "", "description": ""}),
        )
        .await
    }
}

fn day(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

fn ru(date: NaiveDate) -> String {
    date.format("%d.%m.%Y").to_string()
}

fn promotion(title: &str, description: &str, valid_until: &str) -> Value {
    json!({"title": title, "description": description, "discount": "",
        "validUntil": valid_until, "isActive": true})
}

fn car(brand: &str, slug: &str) -> Value {
    json!({
        "brandId": brand, "name": "Granta", "slug": slug, "model": "Granta",
        "year": 2025, "price": "1 150 000", "status": "new", "bodyType": "sedan",
        "transmission": "manual", "drivetrain": "front", "fuelType": "gasoline",
        "engine": "1.6 л, 90 л.с.", "images": ["/media/a-800.webp"],
        "vin": "XTA219070P0123456"
    })
}

#[tokio::test]
async fn an_empty_site_is_clean_and_the_call_needs_an_admin() {
    let site = Site::new().await;
    let report = site.report().await;
    assert_eq!(report["count"], 0, "{report}");
    assert!(report["checkedAt"].as_str().unwrap().ends_with('Z'));
    for path in ["/api/admin/checks", "/api/admin/dashboard"] {
        let anonymous = site.app.get(path).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{path}");
        assert!(!anonymous.error().is_empty());
    }
}

#[tokio::test]
async fn a_promotion_ends_and_expires_by_the_calendar_alone() {
    let site = Site::new().await;
    let last_day = site.today() + Duration::days(2);
    let id = site
        .create(
            "/api/promotions",
            promotion("Зимние шины", "Шины в подарок", &ru(last_day)),
        )
        .await;
    let link = format!("/admin/promotions?edit={id}");
    let ending = site
        .expect("promotion_ending", Some(&id), "warning", &link)
        .await;
    assert!(
        ending["detail"]
            .as_str()
            .unwrap()
            .contains("«Зимние шины» заканчивается послезавтра"),
        "{ending}"
    );
    site.cleared("promotion_expired", Some(&id)).await;

    // Its last day: still running.
    let version = site.app.content_version();
    site.clock.advance(Duration::days(2));
    let ending = site
        .expect("promotion_ending", Some(&id), "warning", &link)
        .await;
    assert!(ending["detail"].as_str().unwrap().contains("сегодня"));
    let shown = |list: Value| {
        list.as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"].as_str() == Some(id.as_str()))
    };
    assert!(shown(site.app.get("/api/promotions").await.json()));
    // The day after: expired, and nobody wrote anything; the site no
    // longer shows it.
    site.clock.advance(Duration::days(1));
    assert!(!shown(site.app.get("/api/promotions").await.json()));
    let expired = site
        .expect("promotion_expired", Some(&id), "error", &link)
        .await;
    assert!(
        expired["detail"].as_str().unwrap().contains(&ru(last_day)),
        "{expired}"
    );
    site.cleared("promotion_ending", Some(&id)).await;
    assert_eq!(site.app.content_version(), version, "no write");

    // Fixed by extending it (a date written the ISO way is read too)...
    let next_month = site.today() + Duration::days(30);
    site.call(
        Method::PUT,
        &format!("/api/promotions/{id}"),
        Some(promotion("Зимние шины", "Шины в подарок", &day(next_month))),
    )
    .await;
    site.cleared("promotion_expired", Some(&id)).await;
    site.cleared("promotion_ending", Some(&id)).await;
    // ...or by taking it off the site.
    site.clock.advance(Duration::days(31));
    site.expect("promotion_expired", Some(&id), "error", &link)
        .await;
    let mut hidden = promotion("Зимние шины", "Шины в подарок", &day(next_month));
    hidden["isActive"] = json!(false);
    site.call(Method::PUT, &format!("/api/promotions/{id}"), Some(hidden))
        .await;
    site.cleared("promotion_expired", Some(&id)).await;

    // A promotion without a last day is not judged.
    let open = site
        .create("/api/promotions", promotion("Трейд-ин", "Выгода", ""))
        .await;
    site.cleared("promotion_expired", Some(&open)).await;
    site.cleared("promotion_ending", Some(&open)).await;
}

#[tokio::test]
async fn banks_and_programmes_need_a_psk() {
    let site = Site::new().await;
    let bank = site.bank("Сбербанк").await;
    let bank_link = format!("/admin/partner-banks?edit={bank}");
    let problem = site
        .expect("bank_without_psk", Some(&bank), "error", &bank_link)
        .await;
    assert!(problem["detail"].as_str().unwrap().contains("«Сбербанк»"));

    // A programme whose ПСК only repeats the rate: the bank has a programme,
    // the programme has no ПСК.
    let programme = site.programme(&bank, (5.9, 9.9)).await;
    site.cleared("bank_without_psk", Some(&bank)).await;
    let program_link = format!("/admin/credit-programs?edit={programme}");
    let problem = site
        .expect(
            "program_without_psk",
            Some(&programme),
            "error",
            &program_link,
        )
        .await;
    assert!(
        problem["detail"].as_str().unwrap().contains("5,9–9,9%"),
        "{problem}"
    );

    // Fixed with the bank's ПСК; the programme ends tomorrow.
    let tomorrow = site.today() + Duration::days(1);
    site.call(
        Method::PUT,
        &format!("/api/admin/credit-programs/{programme}"),
        Some(
            json!({"bankId": bank, "name": "Автокредит", "rateMin": "5,9", "rateMax": 9.9,
            "pskMin": "6,213", "pskMax": 12.5, "termMinMonths": 12, "termMaxMonths": 60,
            "validFrom": day(site.today()), "validTo": day(tomorrow),
            "conditions": "При КАСКО"}),
        ),
    )
    .await;
    site.cleared("program_without_psk", Some(&programme)).await;
    site.cleared("bank_without_psk", Some(&bank)).await;

    // The day after its last day the bank is without a ПСК again, with no write.
    site.clock.advance(Duration::days(2));
    site.expect("bank_without_psk", Some(&bank), "error", &bank_link)
        .await;
    // Hiding the bank clears it.
    site.call(
        Method::PUT,
        &format!("/api/partner-banks/{bank}"),
        Some(json!({"name": "Сбербанк", "logo": "/media/bank-800.webp",
            "requirements": "Паспорт", "advantages": "Решение за час", "active": false})),
    )
    .await;
    site.cleared("bank_without_psk", Some(&bank)).await;
}

#[tokio::test]
async fn a_credit_rate_needs_the_bank_named() {
    let site = Site::new().await;
    let bank = site.bank("Сбербанк").await;
    site.programme(&bank, (6.2, 12.5)).await;

    // A promotion.
    let id = site
        .create(
            "/api/promotions",
            promotion(
                "Автокредит на всё",
                "Новые автомобили в кредит от 4,9% на 5 лет",
                "",
            ),
        )
        .await;
    let link = format!("/admin/promotions?edit={id}");
    let problem = site
        .expect("rate_without_bank", Some(&id), "error", &link)
        .await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail
            .starts_with("Акция «Автокредит на всё»: «Новые автомобили в кредит от 4,9% на 5 лет»"),
        "{detail}"
    );
    site.call(
        Method::PUT,
        &format!("/api/promotions/{id}"),
        Some(promotion(
            "Автокредит на всё",
            "Новые автомобили в кредит от 4,9% на 5 лет в СБЕРБАНКЕ",
            "",
        )),
    )
    .await;
    site.cleared("rate_without_bank", Some(&id)).await;
    // A discount is not a rate.
    let discount = site
        .create(
            "/api/promotions",
            promotion("Скидка", "Скидка 10% при покупке в кредит", ""),
        )
        .await;
    site.cleared("rate_without_bank", Some(&discount)).await;

    // The home page's hero texts.
    site.call(
        Method::PUT,
        "/api/settings",
        Some(json!({"heroSubtitle": "Автомобили в рассрочку: 0 % годовых"})),
    )
    .await;
    let problem = site
        .expect("rate_without_bank", None, "error", "/admin/settings")
        .await;
    assert!(problem["detail"].as_str().unwrap().contains("0 % годовых"));
    site.call(
        Method::PUT,
        "/api/settings",
        Some(json!({"heroSubtitle": "Автомобили в рассрочку: 0 % годовых от Сбербанка"})),
    )
    .await;
    site.cleared("rate_without_bank", None).await;

    // A car's trim descriptions.
    let brand = site.brand("lada").await;
    let mut body = car(&brand, "lada-granta");
    body["trimLevels"] = json!([{"name": "Comfort", "description": "Ставка 5.5 % годовых"}]);
    let car_id = site.create("/api/cars", body.clone()).await;
    site.expect(
        "rate_without_bank",
        Some(&car_id),
        "error",
        &format!("/admin/cars?edit={car_id}"),
    )
    .await;
    body["trimLevels"] = json!([{"name": "Comfort", "description": "Кондиционер, круиз-контроль"}]);
    site.call(Method::PUT, &format!("/api/cars/{car_id}"), Some(body))
        .await;
    site.cleared("rate_without_bank", Some(&car_id)).await;

    // A brand's description.
    site.call(
        Method::PUT,
        &format!("/api/brands/{brand}"),
        Some(json!({"name": "LADA", "slug": "lada", "logo": "",
            "description": "Lada в кредит: ПСК от 7,5%"})),
    )
    .await;
    site.expect(
        "rate_without_bank",
        Some(&brand),
        "error",
        &format!("/admin/brands?edit={brand}"),
    )
    .await;
    site.call(
        Method::PUT,
        &format!("/api/brands/{brand}"),
        Some(json!({"name": "LADA", "slug": "lada", "logo": "",
            "description": "Lada в кредит"})),
    )
    .await;
    site.cleared("rate_without_bank", Some(&brand)).await;
}

#[tokio::test]
async fn published_cars_need_photos_a_vin_and_a_price() {
    let site = Site::new().await;
    let brand = site.brand("lada").await;
    let mut body = car(&brand, "lada-granta");
    body["images"] = json!([]);
    body["vin"] = Value::Null;
    let id = site.create("/api/cars", body.clone()).await;
    // A published car at 0 ₽ is refused now; one stored before that rule
    // (or written by hand in the database) is still found.
    site.app
        .db
        .conn()
        .unwrap()
        .execute("UPDATE cars SET price_kopecks = 0 WHERE id = ?1", [&id])
        .unwrap();
    let link = format!("/admin/cars?edit={id}");
    site.expect("car_without_photos", Some(&id), "error", &link)
        .await;
    site.expect("car_zero_price", Some(&id), "error", &link)
        .await;
    let vin = site
        .expect("car_without_vin", Some(&id), "warning", &link)
        .await;
    assert!(vin["detail"].as_str().unwrap().contains("LADA Granta 2025"));
    // The warning comes after the errors.
    let report = site.report().await;
    assert_eq!(report["count"], 3);
    assert_eq!(report["problems"][2]["check"], "car_without_vin");

    // A new car on order has no VIN yet: no warning.
    body["inStock"] = json!(false);
    site.call(Method::PUT, &format!("/api/cars/{id}"), Some(body.clone()))
        .await;
    site.cleared("car_without_vin", Some(&id)).await;
    // That save carried a price: the 0 ₽ is gone with it.
    site.cleared("car_zero_price", Some(&id)).await;
    // A draft is nobody's business.
    body["published"] = json!(false);
    body["inStock"] = json!(true);
    site.call(Method::PUT, &format!("/api/cars/{id}"), Some(body.clone()))
        .await;
    assert_eq!(site.report().await["count"], 0);

    // Published again, then fixed one by one.
    body["published"] = json!(true);
    site.call(Method::PUT, &format!("/api/cars/{id}"), Some(body.clone()))
        .await;
    assert_eq!(site.report().await["count"], 2);
    body["images"] = json!(["/media/a-800.webp"]);
    site.call(Method::PUT, &format!("/api/cars/{id}"), Some(body.clone()))
        .await;
    site.cleared("car_without_photos", Some(&id)).await;
    body["vin"] = json!("XTA219070P0123456");
    site.call(Method::PUT, &format!("/api/cars/{id}"), Some(body))
        .await;
    assert_eq!(site.report().await["count"], 0);
}

const HEADER: &str = "id;vin;brand;model;year;price;status;body_type;transmission;drivetrain;fuel_type;engine;mileage;color;photos";
const JOLION: &str = "A-1;LGWEF6A59NH000001;Haval;Jolion;2024;2199000;Новый;Кроссовер;Робот;Передний;Бензин;1.5 л, 150 л.с.;0;белый;";
const F7: &str = "A-2;LGWEF6A59NH000002;Haval;F7;2021;1750000;С пробегом;Внедорожник;Автомат;Полный;Бензин;2.0 л, 190 л.с.;45000;;";

fn csv(rows: &[&str]) -> Vec<u8> {
    let mut text = String::from(HEADER);
    for row in rows {
        text.push('\n');
        text.push_str(row);
    }
    text.push('\n');
    text.into_bytes()
}

#[tokio::test]
async fn a_car_the_feed_dropped_must_stay_off_the_site() {
    let site = Site::new().await;
    let admin = AdminSession {
        app: &site.app,
        cookie: site.cookie.clone(),
    };
    admin.import("stock.csv", &csv(&[JOLION, F7])).await;
    let f7: String = site
        .app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM cars WHERE external_id = 'A-2'", [], |r| {
            r.get(0)
        })
        .unwrap();
    // Gone from the next feed: the import unpublished it, nothing to fix.
    let run = admin.import("stock.csv", &csv(&[JOLION])).await;
    assert_eq!(run["counts"]["gone"], 1);
    site.cleared("car_gone_published", Some(&f7)).await;

    // An admin publishes it again.
    let publish = |published: bool| {
        let site = &site;
        let f7 = f7.clone();
        async move {
            let mut body = site
                .call(Method::GET, &format!("/api/admin/cars/{f7}"), None)
                .await;
            body["published"] = json!(published);
            site.call(Method::PUT, &format!("/api/cars/{f7}"), Some(body))
                .await;
        }
    };
    publish(true).await;
    let link = format!("/admin/cars?edit={f7}");
    let problem = site
        .expect("car_gone_published", Some(&f7), "error", &link)
        .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("Haval F7 2021")
    );

    // Back in the next feed (an import that changes no car): cleared.
    let run = admin.import("stock.csv", &csv(&[JOLION, F7])).await;
    assert_eq!(run["counts"]["gone"], 0);
    site.cleared("car_gone_published", Some(&f7)).await;

    // Gone again and published again; the admin takes it off: cleared.
    admin.import("stock.csv", &csv(&[JOLION])).await;
    publish(true).await;
    site.expect("car_gone_published", Some(&f7), "error", &link)
        .await;
    publish(false).await;
    site.cleared("car_gone_published", Some(&f7)).await;
}

#[tokio::test]
async fn consent_and_privacy_texts_must_be_there() {
    let site = Site::new().await;
    let saved = site.call(Method::GET, "/api/admin/settings", None).await;
    site.call(
        Method::PUT,
        "/api/settings",
        Some(json!({"consentText": "", "privacyPolicy": "  \n "})),
    )
    .await;
    site.expect(
        "consent_text_missing",
        None,
        "error",
        "/admin/settings#consent",
    )
    .await;
    site.expect(
        "privacy_policy_missing",
        None,
        "error",
        "/admin/settings#privacy",
    )
    .await;
    site.call(
        Method::PUT,
        "/api/settings",
        Some(json!({"consentText": saved["consentText"]})),
    )
    .await;
    site.cleared("consent_text_missing", None).await;
    site.call(
        Method::PUT,
        "/api/settings",
        Some(json!({"privacyPolicy": saved["privacyPolicy"]})),
    )
    .await;
    site.cleared("privacy_policy_missing", None).await;
    assert_eq!(site.report().await["count"], 0);
}

#[tokio::test]
async fn the_result_is_kept_until_a_change_or_midnight_and_the_dashboard_counts_it() {
    let site = Site::new().await;
    let tomorrow = site.today() + Duration::days(1);
    site.create(
        "/api/promotions",
        promotion("Распродажа", "Последние автомобили", &ru(tomorrow)),
    )
    .await;
    site.bank("ВТБ").await;
    let first = site.report().await;
    assert_eq!(first["count"], 2, "{first}");
    let again = site.report().await;
    assert_eq!(again["checkedAt"], first["checkedAt"], "kept");
    let dashboard = site.call(Method::GET, "/api/admin/dashboard", None).await;
    assert_eq!(dashboard["checksCount"], first["count"]);

    // A change to the content: computed again.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    site.create("/api/promotions", promotion("Подарок", "Коврики", ""))
        .await;
    let changed = site.report().await;
    assert_ne!(changed["checkedAt"], first["checkedAt"]);
    assert_eq!(changed["count"], 2);

    // The nightly job logs once a day; after midnight it computes the new
    // day's result by itself, so the screen shows it as computed then.
    let nightly = || site.checks.nightly(&site.app.db, &site.clock);
    let (logs, guard) = Logs::capture();
    assert_eq!(nightly().await.unwrap(), Some(2));
    assert_eq!(nightly().await.unwrap(), None);
    site.clock.advance(Duration::days(2));
    assert_eq!(nightly().await.unwrap(), Some(2));
    drop(guard);
    let text = logs.text();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("self-checks for"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines
            .iter()
            .all(|l| l.contains("WARN") && l.contains("2 problems")),
        "{text}"
    );
    assert!(
        lines[1].contains("promotion_expired,bank_without_psk"),
        "{text}"
    );
    let night = site
        .checks
        .current(&site.app.db, &site.clock)
        .await
        .unwrap();
    let report = site.report().await;
    assert_eq!(report["checkedAt"], night.checked_at.as_str());
    assert_ne!(report["checkedAt"], changed["checkedAt"]);
    let checks: Vec<&str> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["check"].as_str().unwrap())
        .collect();
    assert_eq!(checks, ["promotion_expired", "bank_without_psk"]);
    let dashboard = site.call(Method::GET, "/api/admin/dashboard", None).await;
    assert_eq!(dashboard["checksCount"], report["count"]);
}

#[tokio::test]
async fn a_fresh_demo_shows_a_promotion_ending_tomorrow_and_no_error() {
    let site = Site::bare().await;
    assert!(dealership::demo::seed(&site.app.db, &site.app.dir.path().join("media")).unwrap());
    let report = site.report().await;
    let problems = report["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{report:#}");
    let ending = &problems[0];
    assert_eq!(ending["check"], "promotion_ending");
    assert_eq!(ending["severity"], "warning");
    let detail = ending["detail"].as_str().unwrap();
    assert!(
        detail.contains("«Распродажа автомобилей 2025 года» заканчивается завтра"),
        "{detail}"
    );
    let id = ending["objectId"].as_str().unwrap();
    assert_eq!(ending["link"], format!("/admin/promotions?edit={id}"));
    let dashboard = site.call(Method::GET, "/api/admin/dashboard", None).await;
    assert_eq!(dashboard["checksCount"], 1);
}

/// A promotion's last day is a date: 'вчера' is refused, "31.12.2026" and
/// "2026-12-31" are the same day; texts saved before that rule keep their
/// date, or, naming none, move into the description.
#[tokio::test]
async fn a_promotions_last_day_is_a_date() {
    let site = Site::new().await;
    let refused = site
        .app
        .admin_with(
            &site.cookie,
            Method::POST,
            "/api/promotions",
            Some(promotion("Акция", "Описание", "вчера")),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json()["field"], "validUntil");
    assert_eq!(
        refused.error(),
        "Укажите дату окончания, например 31.12.2026"
    );
    for text in ["31.12.2026", "2026-12-31", " 2026-12-31 "] {
        let id = site
            .create("/api/promotions", promotion("Акция", "Описание", text))
            .await;
        let saved = site
            .call(Method::GET, "/api/admin/promotions", None)
            .await
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id.as_str())
            .cloned()
            .unwrap();
        assert_eq!(saved["validUntil"], "2026-12-31", "{text}");
    }

    let conn = site.app.db.conn().unwrap();
    for (id, text) in [
        ("old-1", "по 31 декабря 2026 г."),
        ("old-2", "пока есть автомобили"),
        ("old-3", "2027-01-15"),
    ] {
        conn.execute(
            "INSERT INTO promotions (id, title, description, valid_until, is_active, created_at, updated_at)
             VALUES (?1, 'Старая', 'Шины в подарок', ?2, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
            [id, text],
        )
        .unwrap();
    }
    assert_eq!(dealership::db::settle_free_text_dates(&conn).unwrap(), 2);
    let row = |id: &str| -> (String, String) {
        conn.query_row(
            "SELECT valid_until, description FROM promotions WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    };
    assert_eq!(row("old-1"), ("2026-12-31".into(), "Шины в подарок".into()));
    assert_eq!(
        row("old-2"),
        (
            String::new(),
            "Шины в подарок\n\nСрок действия: пока есть автомобили".into()
        )
    );
    assert_eq!(row("old-3").0, "2027-01-15");
    // Once settled, nothing more to do.
    assert_eq!(dealership::db::settle_free_text_dates(&conn).unwrap(), 0);
}
