//! Shared test harness: a real router over a fresh SQLite file.
#![allow(dead_code)]
// Test helpers may unwrap: a failure here is a failed test.
#![allow(clippy::unwrap_used)]

pub mod scan;
pub mod smtp;
pub mod time;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use dealership::config::Config;
use dealership::db::Db;
use dealership::domain::banks::{self, PartnerBankInput};
use dealership::domain::brands::{self, BrandInput};
use dealership::domain::cars::{
    self, BodyType, CarInput, CarStatus, Drivetrain, FuelType, Transmission, Wheel,
};
use dealership::domain::money::Money;
use dealership::domain::promotions::{self, PromotionInput};
use dealership::domain::reviews::{self, ReviewInput};
use dealership::http::cache::AnswerCache;
use dealership::http::router::Site;
use dealership::http::{AppState, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

pub struct TestApp {
    pub dir: tempfile::TempDir,
    pub db: Db,
    /// The SQLite file, for writers other than the app (CLI, sqlite3).
    pub db_path: PathBuf,
    /// The router's answer cache, to read its figures.
    pub answers: Arc<AnswerCache>,
    pub app: Site,
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The `error` message of an error answer.
    pub fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

impl TestApp {
    pub fn new() -> TestApp {
        Self::with_config(|_| {})
    }

    pub fn with_config(change: impl FnOnce(&mut Config)) -> TestApp {
        Self::build(change, None, |_| {})
    }

    /// An app whose answer cache holds at most `bytes`.
    pub fn with_cache_bytes(bytes: u64) -> TestApp {
        Self::build(|_| {}, Some(bytes), |_| {})
    }

    /// An app whose state is changed before the router is built.
    pub fn with_state(change: impl FnOnce(&mut AppState)) -> TestApp {
        Self::build(|_| {}, None, change)
    }

    fn build(
        change: impl FnOnce(&mut Config),
        cache_bytes: Option<u64>,
        change_state: impl FnOnce(&mut AppState),
    ) -> TestApp {
        Self::build_in(
            tempfile::tempdir().unwrap(),
            change,
            cache_bytes,
            change_state,
        )
    }

    /// A new app on this one's database file (a restart): what the old one
    /// held in memory is gone, what it wrote is kept.
    pub fn restart(self, change_state: impl FnOnce(&mut AppState)) -> TestApp {
        let TestApp { dir, db, app, .. } = self;
        drop(app);
        drop(db);
        Self::build_in(dir, |_| {}, None, change_state)
    }

    fn build_in(
        dir: tempfile::TempDir,
        change: impl FnOnce(&mut Config),
        cache_bytes: Option<u64>,
        change_state: impl FnOnce(&mut AppState),
    ) -> TestApp {
        let mut config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        config.leads.rate_limit_per_minute = 0;
        change(&mut config);
        std::fs::create_dir_all(config.media_dir()).unwrap();
        let db_path = config.database_path();
        let db = Db::open(&db_path).unwrap();
        let mut state = AppState::new(db.clone(), config);
        if let Some(bytes) = cache_bytes {
            state.answers = Arc::new(AnswerCache::open(&db_path, bytes));
        }
        change_state(&mut state);
        let answers = state.answers.clone();
        let app = router(state);
        TestApp {
            dir,
            db,
            db_path,
            answers,
            app,
        }
    }

    pub async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec();
        Answer {
            status,
            headers,
            body,
        }
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(Request::get(path).body(Body::empty()).unwrap())
            .await
    }

    pub async fn get_with(&self, path: &str, name: &str, value: &str) -> Answer {
        self.send(
            Request::get(path)
                .header(name, value)
                .body(Body::empty())
                .unwrap(),
        )
        .await
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Answer {
        self.post_json_from(path, body, "203.0.113.7:5000").await
    }

    pub async fn post_json_from(&self, path: &str, body: &Value, peer: &str) -> Answer {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let peer: SocketAddr = peer.parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(peer));
        self.send(request).await
    }

    pub async fn post_raw(&self, path: &str, content_type: Option<&str>, body: Vec<u8>) -> Answer {
        let mut builder = Request::builder().method(Method::POST).uri(path);
        if let Some(ct) = content_type {
            builder = builder.header(header::CONTENT_TYPE, ct);
        }
        self.send(builder.body(Body::from(body)).unwrap()).await
    }

    /// The content version the triggers keep.
    pub fn content_version(&self) -> i64 {
        self.count("SELECT version FROM content_version")
    }

    /// Runs a query on the test database.
    pub fn count(&self, sql: &str) -> i64 {
        self.db
            .conn()
            .unwrap()
            .query_row(sql, [], |r| r.get(0))
            .unwrap()
    }
}

pub fn car_input(brand_id: &str, slug: &str) -> CarInput {
    CarInput {
        brand_id: brand_id.into(),
        name: "Jolion".into(),
        slug: slug.into(),
        model: "Jolion".into(),
        year: 2025,
        price: Money::from_rubles(2_000_000),
        monthly_payment: Some(Money::from_rubles(35_000)),
        daily_price: None,
        status: CarStatus::New,
        body_type: BodyType::CROSSOVER,
        transmission: Transmission::Robotic,
        drivetrain: Some(Drivetrain::Front),
        fuel_type: FuelType::Gasoline,
        engine: "1.5 л, 150 л.с.".into(),
        mileage: 0,
        main_image: String::new(),
        images: vec!["/media/aaaa-800.webp".into(), "/media/bbbb-800.webp".into()],
        trim_levels: vec![],
        in_stock: true,
        featured: false,
        published: true,
        vin: None,
        color: None,
        external_id: None,
        credit_discount: None,
        tradein_discount: None,
        insurance_discount: None,
        max_discount: None,
        trim: None,
        generation: None,
        doors: None,
        owners: None,
        accident: None,
        state: None,
        wheel: Wheel::Left,
        salon_id: None,
    }
}

/// A small known catalogue.
pub struct Catalogue {
    pub haval: String,
    pub lada: String,
    pub empty_brand: String,
}

pub fn seed_catalogue(app: &TestApp) -> Catalogue {
    let conn = app.db.conn().unwrap();
    let brand = |name: &str, slug: &str| {
        brands::create(
            &conn,
            &BrandInput {
                name: name.into(),
                slug: slug.into(),
                logo: format!("/media/{slug}-800.webp"),
                description: format!("{name}: описание"),
            },
        )
        .unwrap()
        .id
    };
    let haval = brand("Haval", "haval");
    let lada = brand("Lada", "lada");
    let empty_brand = brand("Zotye", "zotye");
    let car = |input: CarInput| cars::create(&conn, &input, 2026).unwrap();
    // Haval: 3 new crossovers, one featured; 1 used sedan; 1 lease; 1 draft.
    for (i, price) in [2_100_000, 2_500_000, 3_900_000].iter().enumerate() {
        let mut c = car_input(&haval, &format!("haval-jolion-{i}"));
        c.price = Money::from_rubles(*price);
        c.featured = i == 0;
        car(c);
    }
    let mut used = car_input(&haval, "haval-f7-used");
    used.name = "F7".into();
    used.model = "F7".into();
    used.status = CarStatus::Used;
    used.body_type = BodyType::SEDAN;
    used.mileage = 45_000;
    used.year = 2021;
    used.price = Money::parse("1750000.50").unwrap();
    car(used);
    let mut lease = car_input(&haval, "haval-m6-lease");
    lease.name = "M6".into();
    lease.model = "M6".into();
    lease.status = CarStatus::Lease;
    lease.daily_price = Some(Money::from_rubles(2_900));
    lease.price = Money::from_rubles(1_900_000);
    car(lease);
    let mut draft = car_input(&haval, "haval-h9-draft");
    draft.name = "H9".into();
    draft.model = "H9".into();
    draft.published = false;
    draft.featured = true;
    car(draft);
    // Lada: 1 new wagon at 1.2 mln.
    let mut vesta = car_input(&lada, "lada-vesta-sw");
    vesta.name = "Vesta SW".into();
    vesta.model = "Vesta".into();
    vesta.body_type = BodyType::WAGON;
    vesta.price = Money::from_rubles(1_200_000);
    vesta.transmission = Transmission::Manual;
    car(vesta);

    for (i, approved) in [true, true, false].iter().enumerate() {
        reviews::create(
            &conn,
            &ReviewInput {
                customer_name: format!("Клиент {i}"),
                car_id: None,
                car_model: Some("Haval Jolion".into()),
                rating: 5,
                text: format!("Отзыв {i}"),
                photo: None,
                approved: *approved,
            },
        )
        .unwrap();
    }
    for (title, active) in [("Скидка 10%", true), ("Старая акция", false)] {
        promotions::create(
            &conn,
            &PromotionInput {
                title: title.into(),
                description: "Описание".into(),
                image: "/media/promo-800.webp".into(),
                discount: "-10%".into(),
                valid_until: "31.12.2099".into(),
                is_active: active,
                ad_erid: String::new(),
                ad_advertiser: String::new(),
            },
        )
        .unwrap();
    }
    for (name, active) in [("Сбербанк", true), ("Закрытый банк", false)] {
        banks::create(
            &conn,
            &PartnerBankInput {
                name: name.into(),
                logo: "/media/bank-800.webp".into(),
                requirements: "Паспорт, права".into(),
                advantages: "Ставка от 5.6%, Решение за 30 минут".into(),
                active,
                // A bank's offer is an ad: marked (docs/advertising.md).
                ad_erid: "LjN8Kaaxi".into(),
                ad_advertiser: String::new(),
            },
        )
        .unwrap();
    }
    Catalogue {
        haval,
        lada,
        empty_brand,
    }
}

pub const ADMIN: &str = "manager";
pub const ADMIN_PASSWORD: &str = "correct-horse";

impl TestApp {
    pub fn create_admin(&self) {
        dealership::domain::users::create(
            &self.db.conn().unwrap(),
            ADMIN,
            ADMIN_PASSWORD,
            dealership::domain::roles::Role::Owner,
        )
        .unwrap();
    }

    /// A staff member with `role` (the password is `ADMIN_PASSWORD`).
    pub fn create_user(&self, name: &str, role: dealership::domain::roles::Role) {
        dealership::domain::users::create(&self.db.conn().unwrap(), name, ADMIN_PASSWORD, role)
            .unwrap();
    }

    /// Logs in and gives the session cookie ("name=value").
    pub async fn login(&self) -> String {
        self.login_as(ADMIN).await
    }

    /// Logs `name` in (password `ADMIN_PASSWORD`) and gives the cookie.
    pub async fn login_as(&self, name: &str) -> String {
        self.login_with(name, ADMIN_PASSWORD).await
    }

    /// Logs `name` in with `password` and gives the cookie.
    pub async fn login_with(&self, name: &str, password: &str) -> String {
        let answer = self
            .post_json(
                "/api/admin/login",
                &serde_json::json!({"login": name, "password": password}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        let cookie = answer.headers[header::SET_COOKIE].to_str().unwrap();
        cookie.split(';').next().unwrap().to_string()
    }

    /// A request as a logged-in admin from the site's own pages.
    pub async fn admin(&self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let cookie = self.login().await;
        self.admin_with(&cookie, method, path, body).await
    }

    pub async fn admin_with(
        &self,
        cookie: &str,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Answer {
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(header::COOKIE, cookie)
            .header(header::ORIGIN, "http://localhost:8080");
        let body = match body {
            Some(json) => {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
                Body::from(json.to_string())
            }
            None => Body::empty(),
        };
        self.send(builder.body(body).unwrap()).await
    }

    /// A request with HTTP Basic credentials.
    pub async fn basic(
        &self,
        method: Method,
        path: &str,
        password: &str,
        body: Option<Value>,
    ) -> Answer {
        use base64::Engine;
        let credential =
            base64::engine::general_purpose::STANDARD.encode(format!("{ADMIN}:{password}"));
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(header::AUTHORIZATION, format!("Basic {credential}"));
        let body = match body {
            Some(json) => {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
                Body::from(json.to_string())
            }
            None => Body::empty(),
        };
        let mut request = builder.body(body).unwrap();
        let peer: SocketAddr = "192.0.2.10:4000".parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(peer));
        self.send(request).await
    }
}

/// The visible text of some markup: tags dropped, entities of the five
/// kinds read, white space collapsed.
pub fn visible_text(markup: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in markup.chars() {
        match ch {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            _ if !in_tag => out.push(ch),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .replace('\u{a0}', " ");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The markup the server drew into a page's `<div id="app">`.
/// Fails with the way out when the UI's server build is missing (the tests
/// of pages drawn on the server need it).
pub fn needs_the_server_build() {
    assert!(
        dealership::http::pages::Renderer::available(),
        "ui/dist-server/render.js is missing: run `npm run build` in ui/ first"
    );
}

/// A drawn page's embedded data (its API answers by URL), as the renderer
/// gets it.
pub fn embedded_data(html: &str) -> &str {
    let start = html
        .find("id=\"preload-data\"")
        .and_then(|at| html[at..].find('>').map(|end| at + end + 1))
        .expect("the page's data");
    let end = html[start..].find("</script>").unwrap() + start;
    &html[start..end]
}

pub fn app_markup(html: &str) -> &str {
    // `<div id="app">`, or with the screen it was drawn for.
    let opening = html.find("<div id=\"app\"").expect("the app element");
    let start = html[opening..].find('>').unwrap() + opening + 1;
    let end = html
        .rfind("</div>\n</body>")
        .expect("the end of the app element");
    &html[start..end]
}

/// 25 more new cars of `brand` ("Tank 00" to "Tank 24", slugs `tank-NN`),
/// beside the shared seed's: two pages of a catalogue.
pub fn seed_tanks(app: &TestApp, brand: &str) {
    let conn = app.db.conn().unwrap();
    for i in 0..25 {
        let mut car = car_input(brand, &format!("tank-{i:02}"));
        car.name = format!("Tank {i:02}");
        car.model = "Tank".into();
        car.price = dealership::domain::money::Money::from_rubles(3_000_000 + i * 10_000);
        dealership::domain::cars::create(&conn, &car, 2026).unwrap();
    }
}
