//! One monthly figure (issue 43; docs/credit.md, "One monthly figure"): a new
//! or used car's «от … ₽/мес» is the credit calculator's first figure,
//! computed on the server from the programmes valid on the Moscow date. The
//! car's JSON, its card in a list, the compare list and its page (description
//! and embedded data) agree with what the calculator starts from; no valid
//! programme, no figure; a lease car keeps its typed payment; a changed
//! programme changes the figure at once, an expired one stops counting the
//! next Moscow day. The shared table `tests/fixtures/credit_payment.json` is
//! checked here and by the UI's unit tests.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use chrono::{Duration, NaiveDate};
use common::{TestApp, car_input, seed_catalogue};
use dealership::clock::Clock;
use dealership::domain::cars::{self, CarStatus};
use dealership::domain::credit_payment::{CreditRule, Terms, annuity};
use dealership::domain::money::Money;
use serde_json::{Value, json};

fn fixture() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/credit_payment.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn milli(rate: &Value) -> i64 {
    (rate.as_f64().unwrap() * 1000.0).round() as i64
}

fn money(value: &Value) -> Option<Money> {
    value.as_str().map(|t| Money::parse(t).unwrap())
}

/// A programme of the API (`GET /api/credit-programs`, the fixture) as the rule reads it.
fn terms(program: &Value) -> Terms {
    Terms {
        rate_min_milli: milli(&program["rateMin"]),
        term_min_months: program["termMinMonths"].as_i64().unwrap(),
        term_max_months: program["termMaxMonths"].as_i64().unwrap(),
        min_down_payment_percent: program["minDownPaymentPercent"].as_i64().unwrap(),
    }
}

fn rule_of(programs: &Value) -> CreditRule {
    CreditRule::new(programs.as_array().unwrap().iter().map(terms).collect())
}

#[test]
fn the_server_gives_every_line_of_the_shared_table() {
    let table = fixture();
    for line in table["annuity"].as_array().unwrap() {
        assert_eq!(
            annuity(
                line["principal"].as_i64().unwrap(),
                milli(&line["rate"]),
                line["months"].as_i64().unwrap()
            ),
            line["payment"].as_i64().unwrap(),
            "{line}"
        );
    }
    for car in table["cars"].as_array().unwrap() {
        let rule = rule_of(&car["programs"]);
        let price = money(&car["price"]).unwrap();
        let shown = rule.monthly(
            price,
            money(&car["creditDiscount"]),
            money(&car["maxDiscount"]),
        );
        assert_eq!(shown, money(&car["monthly"]), "{}", car["name"]);
        // The calculator's first input: its down payment and term.
        let off = money(&car["creditDiscount"]).map_or(0, Money::kopecks);
        let off = money(&car["maxDiscount"]).map_or(off, |cap| off.min(cap.kopecks()));
        let start = rule.start(price.kopecks() - off);
        assert_eq!(
            start.map(|s| Money(s.down_payment)),
            money(&car["downPayment"]),
            "{}",
            car["name"]
        );
        assert_eq!(
            start.map(|s| s.term_months),
            car["termMonths"].as_i64(),
            "{}",
            car["name"]
        );
    }
}

/// An app and the clock its handlers and answer cache read.
fn app_with_clock() -> (TestApp, Arc<Clock>) {
    let mut clock = None;
    let app = TestApp::with_state(|state| clock = Some(state.clock.clone()));
    (app, clock.unwrap())
}

fn day(date: NaiveDate, days: i64) -> String {
    (date + Duration::days(days)).format("%Y-%m-%d").to_string()
}

/// A programme of Сбербанк valid from ten days ago to `valid_to`.
fn program(app: &TestApp, today: NaiveDate, rate_min: f64, valid_to: &str) -> Value {
    let bank: String = app
        .db
        .conn()
        .unwrap()
        .query_row(
            "SELECT id FROM partner_banks WHERE name = 'Сбербанк'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    json!({
        "bankId": bank, "name": "Автокредит", "rateMin": rate_min, "rateMax": 19.9,
        "pskMin": 6.5, "pskMax": 24.6, "termMinMonths": 12, "termMaxMonths": 84,
        "minDownPaymentPercent": 10, "validFrom": day(today, -10), "validTo": valid_to,
        "conditions": "При страховании жизни", "active": true,
    })
}

/// A car's figure everywhere the public reads it: the car's JSON, its card
/// in the catalogue list (the catalogue in memory), the compare list
/// (by slugs), its page (the description and the embedded car). Each must
/// say the same; that one value is returned.
/// Creates a programme as the admin (`cookie`); gives its id.
async fn create_program(app: &TestApp, cookie: &str, body: Value) -> String {
    let created = app
        .admin_with(
            cookie,
            Method::POST,
            "/api/admin/credit-programs",
            Some(body),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    created.json()["id"].as_str().unwrap().to_string()
}

async fn figure(app: &TestApp, slug: &str) -> Value {
    let car = app.get(&format!("/api/cars/slug/{slug}")).await;
    assert_eq!(car.status, StatusCode::OK);
    let from_car = car.json()["monthlyPayment"].clone();

    let list = app.get("/api/cars/fast?limit=100").await.json();
    let card = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slug"] == slug)
        .unwrap();
    assert_eq!(card["monthlyPayment"], from_car, "the card of {slug}");

    let compare = app.get(&format!("/api/cars/by-slugs?slugs={slug}")).await;
    assert_eq!(
        compare.json()["items"][0]["monthlyPayment"],
        from_car,
        "the compare list of {slug}"
    );

    let page = app.get(&format!("/car/{slug}")).await.text();
    let description = page
        .split("<meta name=\"description\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_string();
    match from_car.as_str() {
        Some(amount) => {
            let rubles = Money::parse(amount).unwrap().rubles();
            let grouped = group(rubles);
            assert!(
                description.contains(&format!("от {grouped} ₽/мес")),
                "the page of {slug}: {description}"
            );
        }
        None => assert!(
            !description.contains("₽/мес"),
            "the page of {slug}: {description}"
        ),
    }
    let embedded = page
        .split("<script type=\"application/json\" id=\"preload-data\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    let embedded: Value = serde_json::from_str(embedded).unwrap();
    assert_eq!(
        embedded[format!("/api/cars/slug/{slug}")]["monthlyPayment"],
        from_car,
        "the page's data of {slug}"
    );
    from_car
}

/// 38572 → "38 572" (non-breaking space), as the site prints rubles.
fn group(rubles: i64) -> String {
    let digits = rubles.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{a0}');
        }
        out.push(c);
    }
    out
}

/// What the calculator starts from for a car: its programmes
/// (`GET /api/credit-programs`) and its price less the credit discount.
async fn calculator_figure(app: &TestApp, slug: &str) -> Option<Money> {
    let programs = app.get("/api/credit-programs").await.json();
    let car = app.get(&format!("/api/cars/slug/{slug}")).await.json();
    rule_of(&programs["items"]).monthly(
        money(&car["price"]).unwrap(),
        money(&car["creditDiscount"]),
        money(&car["maxDiscount"]),
    )
}

#[tokio::test]
async fn the_car_page_the_card_and_the_calculator_show_one_figure() {
    let (app, clock) = app_with_clock();
    seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    let today = clock.moscow_today();

    // No programme valid: no new or used car shows a figure (the payment
    // typed before was dropped); the lease car keeps its own.
    assert_eq!(figure(&app, "haval-jolion-1").await, Value::Null);
    assert_eq!(figure(&app, "haval-f7-used").await, Value::Null);
    assert_eq!(figure(&app, "haval-m6-lease").await, "35000.00");

    let id = create_program(&app, &cookie, program(&app, today, 5.9, &day(today, 30))).await;

    // 2,500,000 ₽: 500,000 down (20 %), 60 months at 5.9 %: 38 572,67 ₽.
    assert_eq!(figure(&app, "haval-jolion-1").await, "38572.00");
    assert_eq!(
        calculator_figure(&app, "haval-jolion-1").await,
        Some(Money::from_rubles(38_572))
    );
    assert_eq!(figure(&app, "haval-f7-used").await, "26808.00");
    assert_eq!(
        calculator_figure(&app, "haval-f7-used").await,
        Some(Money::from_rubles(26_808))
    );
    assert_eq!(figure(&app, "haval-m6-lease").await, "35000.00");

    // A changed programme changes the figure at once, cached answers and
    // the catalogue in memory included.
    let changed = app
        .admin_with(
            &cookie,
            Method::PUT,
            &format!("/api/admin/credit-programs/{id}"),
            Some(program(&app, today, 4.9, &day(today, 30))),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
    assert_eq!(figure(&app, "haval-jolion-1").await, "37650.00");
    assert_eq!(figure(&app, "haval-f7-used").await, "26167.00");
    assert_eq!(
        calculator_figure(&app, "haval-jolion-1").await,
        Some(Money::from_rubles(37_650))
    );
}

#[tokio::test]
async fn a_programme_ending_today_stops_counting_the_next_moscow_day() {
    let (app, clock) = app_with_clock();
    seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    let today = clock.moscow_today();
    create_program(&app, &cookie, program(&app, today, 5.9, &day(today, 0))).await;
    assert_eq!(figure(&app, "haval-jolion-1").await, "38572.00");

    // Midnight in Moscow: no write to the database, yet the programme is
    // gone, and so is every figure made from it.
    clock.advance(Duration::days(1));
    assert_eq!(
        app.get("/api/credit-programs").await.json()["items"],
        json!([])
    );
    assert_eq!(figure(&app, "haval-jolion-1").await, Value::Null);
    assert_eq!(figure(&app, "haval-f7-used").await, Value::Null);
    assert_eq!(figure(&app, "haval-m6-lease").await, "35000.00");
}

#[tokio::test]
async fn only_a_lease_car_keeps_a_typed_payment() {
    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    app.create_admin();
    let cookie = app.login().await;
    let body = |slug: &str, status: &str| {
        json!({
            "brandId": cat.lada, "name": "Granta", "slug": slug, "model": "Granta",
            "year": 2025, "price": "1 150 000", "monthlyPayment": "19900", "status": status,
            "bodyType": "sedan", "transmission": "manual", "fuelType": "gasoline",
            "engine": "1.6 л, 90 л.с.", "mileage": 10,
        })
    };
    for (slug, status, kept) in [
        ("granta-new", "new", Value::Null),
        ("granta-used", "used", Value::Null),
        ("granta-lease", "lease", json!("19900.00")),
    ] {
        let created = app
            .admin_with(&cookie, Method::POST, "/api/cars", Some(body(slug, status)))
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        assert_eq!(created.json()["monthlyPayment"], kept, "{slug}");
    }
    // A lease car turned used loses its typed payment.
    let conn = app.db.conn().unwrap();
    let lease = cars::get_by_slug(&conn, "granta-lease", true)
        .unwrap()
        .unwrap();
    let mut input = car_input(&cat.lada, "granta-lease");
    input.status = CarStatus::Used;
    input.monthly_payment = lease.monthly_payment;
    input.mileage = 10;
    let used = cars::update(&conn, &lease.id, &input, 2026)
        .unwrap()
        .unwrap();
    assert_eq!(used.monthly_payment, None);
}
