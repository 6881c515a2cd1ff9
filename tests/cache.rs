//! The answer cache of the public reads: fresh after every write, whoever
//! writes; untouched by logins and leads; compressed once; bounded by bytes.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{Method, Request, StatusCode, header};
use axum::middleware;
use axum::routing::get;
use common::{ADMIN_PASSWORD, TestApp, seed_catalogue};
use dealership::http::cache::{self, AnswerCache, CacheStats, OTHER_WRITERS_SEEN_WITHIN};
use serde_json::{Value, json};
use tower::ServiceExt;

const VESTA: &str = "/api/cars/slug/lada-vesta-sw";

fn stats(app: &TestApp) -> CacheStats {
    app.answers.stats()
}

/// sqlite3, a script or another program: a plain connection to the file.
fn plain_connection(app: &TestApp) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(&app.db_path).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .unwrap();
    conn
}

#[tokio::test]
async fn a_write_by_another_process_is_seen_within_a_tenth_of_a_second() {
    let app = TestApp::new();
    seed_catalogue(&app);
    assert_eq!(app.get(VESTA).await.json()["price"], "1200000.00");
    assert_eq!(app.get(VESTA).await.json()["price"], "1200000.00");
    assert_eq!(stats(&app).hits, 1, "the second read came from memory");
    let reviews = app.get("/api/reviews").await.json();
    assert_eq!(reviews.as_array().unwrap().len(), 2);
    let before = app.content_version();

    let other = plain_connection(&app);
    other
        .execute(
            "UPDATE cars SET price_kopecks = 130000000 WHERE slug = 'lada-vesta-sw'",
            [],
        )
        .unwrap();
    assert!(app.content_version() > before);
    tokio::time::sleep(OTHER_WRITERS_SEEN_WITHIN).await;
    assert_eq!(app.get(VESTA).await.json()["price"], "1300000.00");

    other
        .execute(
            "DELETE FROM reviews WHERE approved = 1 AND text = 'Отзыв 0'",
            [],
        )
        .unwrap();
    tokio::time::sleep(OTHER_WRITERS_SEEN_WITHIN).await;
    let reviews = app.get("/api/reviews").await.json();
    assert_eq!(reviews.as_array().unwrap().len(), 1);

    other
        .execute(
            "UPDATE body_types SET label_plural = 'Вседорожники' WHERE body_type = 'coupe'",
            [],
        )
        .unwrap();
    tokio::time::sleep(OTHER_WRITERS_SEEN_WITHIN).await;
    let coupe = app.get("/api/body-types/coupe").await.json();
    assert_eq!(coupe["labelPlural"], "Вседорожники");
}

#[tokio::test]
async fn a_write_through_the_admin_api_is_seen_at_once() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    assert_eq!(
        app.get("/api/brands/fast")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        2,
        "Zotye has no car: not listed"
    );
    let created = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/brands",
            Some(json!({"name": "Tank", "slug": "tank"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let tank = created.json()["id"].as_str().unwrap().to_string();
    // A brand is listed once it has a published car (docs/catalogue.md).
    let car = app
        .admin_with(
            &cookie,
            Method::POST,
            "/api/cars",
            Some(json!({
                "brandId": tank, "name": "300", "slug": "tank-300", "model": "300",
                "year": 2025, "price": "4500000", "status": "new", "bodyType": "crossover",
                "transmission": "automatic", "fuelType": "gasoline", "engine": "2.0 л"
            })),
        )
        .await;
    assert_eq!(car.status, StatusCode::CREATED, "{}", car.text());
    assert_eq!(
        app.get("/api/brands/fast")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        3
    );

    let haval = format!("/api/brands/{}", cat.haval);
    assert_eq!(app.get(&haval).await.json()["name"], "Haval");
    let renamed = app
        .basic(
            Method::PUT,
            &haval,
            ADMIN_PASSWORD,
            Some(json!({"name": "Haval Motors", "slug": "haval"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text());
    assert_eq!(app.get(&haval).await.json()["name"], "Haval Motors");
}

#[tokio::test]
async fn logins_leads_and_admin_reads_keep_the_cache() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let first = app.get("/api/cars/fast?limit=3").await;
    let version = app.content_version();
    let before = stats(&app);
    assert_eq!(before.misses, 1);

    let cookie = app.login().await;
    let lead = app
        .post_json(
            "/api/leads",
            &json!({"type": "trade_in", "name": "Иван", "phone": "89215551234", "consent": true}),
        )
        .await;
    assert_eq!(lead.status, StatusCode::CREATED);
    let wrong = app
        .post_json(
            "/api/admin/login",
            &json!({"login": "manager", "password": "wrong-password"}),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    for path in ["/api/admin/me", "/api/leads", "/api/admin/dashboard"] {
        let answer = app.admin_with(&cookie, Method::GET, path, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
    }
    let logout = app
        .admin_with(&cookie, Method::POST, "/api/admin/logout", None)
        .await;
    assert_eq!(logout.status, StatusCode::NO_CONTENT);

    assert_eq!(app.content_version(), version, "nothing public changed");
    let again = app.get("/api/cars/fast?limit=3").await;
    assert_eq!(again.body, first.body);
    assert_eq!(again.headers[header::ETAG], first.headers[header::ETAG]);
    let after = stats(&app);
    assert_eq!(after.misses, before.misses, "not computed again");
    assert_eq!(after.hits, before.hits + 1);
}

#[tokio::test]
async fn the_cli_and_direct_sql_as_writers() {
    let app = TestApp::new();
    seed_catalogue(&app);
    assert_eq!(app.get(VESTA).await.json()["price"], "1200000.00");
    let version = app.content_version();

    let out = Command::new(env!("CARGO_BIN_EXE_dealership"))
        .arg("--data")
        .arg(app.dir.path())
        .args(["user", "create", "owner", "--password-stdin"])
        .env_remove("DEALERSHIP_LISTEN")
        .current_dir(app.dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"owner-secret-1\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(app.count("SELECT count(*) FROM users"), 1);
    assert_eq!(app.content_version(), version, "a user is not public data");
    let misses = stats(&app).misses;
    assert_eq!(app.get(VESTA).await.json()["price"], "1200000.00");
    assert_eq!(stats(&app).misses, misses, "still served from memory");

    plain_connection(&app)
        .execute(
            "UPDATE cars SET price_kopecks = price_kopecks + 100 WHERE slug = 'lada-vesta-sw'",
            [],
        )
        .unwrap();
    assert_eq!(app.content_version(), version + 1);
    tokio::time::sleep(OTHER_WRITERS_SEEN_WITHIN).await;
    assert_eq!(app.get(VESTA).await.json()["price"], "1200001.00");
    assert_eq!(stats(&app).misses, misses + 1);
}

/// Only the tables public answers show bump the version.
#[tokio::test]
async fn which_tables_bump_the_version() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let conn = plain_connection(&app);
    let bumps = |sql: &str| {
        let before = app.content_version();
        conn.execute_batch(sql).unwrap();
        app.content_version() - before
    };
    for sql in [
        "UPDATE cars SET mileage = mileage + 1",
        "INSERT INTO brands (id, name, slug, created_at, updated_at) VALUES ('b', 'B', 'b', 'now', 'now')",
        "DELETE FROM brands WHERE id = 'b'",
        "UPDATE reviews SET rating = 4 WHERE approved = 0",
        "UPDATE promotions SET discount = '-1%'",
        "UPDATE partner_banks SET advantages = 'Быстро'",
        "UPDATE body_types SET sort_order = sort_order WHERE body_type = 'sedan'",
        "INSERT INTO car_images (car_id, position, url) SELECT id, 5, '/media/x' FROM cars LIMIT 1",
        "UPDATE car_images SET url = '/media/y' WHERE position = 5",
        "DELETE FROM car_images WHERE position = 5",
    ] {
        assert!(bumps(sql) > 0, "{sql}");
    }
    for sql in [
        "INSERT INTO users (id, username, password_hash, created_at) VALUES ('u', 'u', 'x', 'now')",
        "INSERT INTO login_attempts (username, attempted_at, successful, ip_address) VALUES ('u', 'now', 0, '1.2.3.4')",
        "INSERT INTO media (hash, source_mime, width, height, created_at) VALUES ('h', 'image/png', 1, 1, 'now')",
        "INSERT INTO leads (id, type, name, phone, consent_version, consent_at, consent_ip, created_at, updated_at) VALUES ('l', 'trade_in', 'И', '+79215551234', 1, 'now', '1.2.3.4', 'now', 'now')",
        "DELETE FROM leads",
    ] {
        assert_eq!(bumps(sql), 0, "{sql}");
    }
}

/// An answer computed while a write of the server commits is not kept as
/// fresh: the version is read before the handler runs.
#[tokio::test]
async fn an_answer_computed_during_a_write_is_not_kept_as_fresh() {
    let app = TestApp::new();
    let answers = Arc::new(AnswerCache::open(&app.db_path, 1 << 20));
    // Counts the brands, then a writer of the server adds one before the
    // answer is out.
    let handler = move |State(db): State<dealership::db::Db>| async move {
        let conn = db.conn().unwrap();
        let n: i64 = conn
            .query_row("SELECT count(*) FROM brands", [], |r| r.get(0))
            .unwrap();
        conn.execute(
            "INSERT INTO brands (id, name, slug, created_at, updated_at) VALUES (?1, 'X', ?1, 'now', 'now')",
            [format!("brand-{n}")],
        )
        .unwrap();
        n.to_string()
    };
    let router = Router::new()
        .route("/count", get(handler))
        .route_layer(middleware::from_fn_with_state(
            answers.clone(),
            cache::cached,
        ))
        .with_state(app.db.clone());
    let read = |router: Router| async move {
        let response = router
            .oneshot(Request::get("/count").body(Body::empty()).unwrap())
            .await
            .unwrap();
        let body = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .unwrap();
        String::from_utf8(body.to_vec()).unwrap()
    };
    assert_eq!(read(router.clone()).await, "0");
    // Stale the moment it was computed: computed again, never served.
    assert_eq!(read(router.clone()).await, "1");
    assert_eq!(answers.stats().hits, 0);
    assert_eq!(answers.stats().misses, 2);
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[tokio::test]
async fn compressed_forms_are_kept_and_served_by_accept_encoding() {
    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    let path = "/api/cars/fast?limit=100";
    // The first answer (computed) is already encoded.
    let br = app
        .get_with(path, "accept-encoding", "gzip, deflate, br")
        .await;
    let identity = app.get(path).await;
    let gzip = app.get_with(path, "accept-encoding", "gzip").await;
    let prefers_gzip = app
        .get_with(path, "accept-encoding", "br;q=0.5, gzip;q=1")
        .await;
    assert_eq!(stats(&app).misses, 1);
    assert_eq!(stats(&app).hits, 3);

    let json: Value = serde_json::from_slice(&identity.body).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 6);
    assert!(!identity.headers.contains_key(header::CONTENT_ENCODING));
    assert_eq!(br.headers[header::CONTENT_ENCODING], "br");
    assert_eq!(gzip.headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(prefers_gzip.headers[header::CONTENT_ENCODING], "gzip");
    // Encoded once: one decoding gives the identity body.
    assert_eq!(unbrotli(&br.body), identity.body);
    assert_eq!(gunzip(&gzip.body), identity.body);
    assert!(br.body.len() < identity.body.len() / 3);
    for answer in [&br, &identity, &gzip] {
        assert_eq!(answer.headers[header::VARY], "accept-encoding");
        assert_eq!(answer.headers[header::CACHE_CONTROL], "no-cache");
        assert_eq!(answer.headers[header::ETAG], identity.headers[header::ETAG]);
        assert_eq!(
            answer.headers[header::CONTENT_TYPE],
            identity.headers[header::CONTENT_TYPE]
        );
    }
    let etag = identity.headers[header::ETAG].to_str().unwrap();
    let not_modified = app
        .send(
            Request::get(path)
                .header(header::IF_NONE_MATCH, etag)
                .header(header::ACCEPT_ENCODING, "br")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(not_modified.status, StatusCode::NOT_MODIFIED);
    assert!(not_modified.body.is_empty());
    assert_eq!(not_modified.headers[header::VARY], "accept-encoding");

    // A small answer is kept as it is, and the compression layer leaves it so.
    let logo = format!("/api/brands/{}/logo", cat.haval);
    let small = app.get(&logo).await;
    assert!(
        small.body.len() > 32 && small.body.len() < 256,
        "{}",
        small.text()
    );
    for _ in 0..2 {
        let again = app.get_with(&logo, "accept-encoding", "gzip, br").await;
        assert!(!again.headers.contains_key(header::CONTENT_ENCODING));
        assert_eq!(again.body, small.body);
    }

    // Answers outside the cache are still compressed by the compression layer.
    let doc = app
        .get_with("/api/openapi.json", "accept-encoding", "gzip")
        .await;
    assert_eq!(doc.headers[header::CONTENT_ENCODING], "gzip");
    let doc: Value = serde_json::from_slice(&gunzip(&doc.body)).unwrap();
    assert!(doc["paths"].is_object());
}

/// The same body gives the same ETag, whatever the version: an unrelated
/// write does not make browsers download again.
#[tokio::test]
async fn the_etag_follows_the_content() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let first = app.get("/api/brands/fast").await;
    plain_connection(&app)
        .execute("UPDATE promotions SET discount = '-11%'", [])
        .unwrap();
    tokio::time::sleep(OTHER_WRITERS_SEEN_WITHIN).await;
    let second = app.get("/api/brands/fast").await;
    assert_eq!(stats(&app).misses, 2, "computed again after the write");
    assert_eq!(second.headers[header::ETAG], first.headers[header::ETAG]);
    plain_connection(&app)
        .execute("UPDATE brands SET name = 'Лада' WHERE slug = 'lada'", [])
        .unwrap();
    tokio::time::sleep(OTHER_WRITERS_SEEN_WITHIN).await;
    let third = app.get("/api/brands/fast").await;
    assert_ne!(third.headers[header::ETAG], first.headers[header::ETAG]);
}

#[tokio::test]
async fn a_flood_of_unique_urls_stays_in_bounds_and_keeps_the_hot_page() {
    const BOUND: u64 = 256 * 1024;
    let app = TestApp::with_cache_bytes(BOUND);
    seed_catalogue(&app);
    let hot = "/api/cars/fast?limit=12";
    for _ in 0..20 {
        assert_eq!(app.get(hot).await.status, StatusCode::OK);
    }
    let mut largest = 0;
    // Unique by a declared parameter (an invented one is refused, see
    // `unknown_parameters_are_refused_and_never_kept`).
    for i in 0..3000 {
        let answer = app
            .get_with(
                &format!("/api/cars/fast?limit=100&maxPrice={}", 50_000_000 + i),
                "accept-encoding",
                "br",
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK);
        if i % 50 == 0 {
            assert_eq!(app.get(hot).await.status, StatusCode::OK);
        }
        if i % 250 == 0 {
            let size = app.answers.weighted_size();
            largest = largest.max(size);
            assert!(size <= BOUND, "{size} bytes held after {i} unique URLs");
        }
    }
    let size = app.answers.weighted_size();
    assert!(size <= BOUND, "{size} bytes held");
    assert!(largest > BOUND / 2, "the flood filled the cache: {largest}");
    let before = stats(&app);
    assert_eq!(app.get(hot).await.status, StatusCode::OK);
    assert_eq!(stats(&app).hits, before.hits + 1, "the hot page survived");
    assert!(app.answers.entry_count() > 1);
}

/// A public read answers 400 to a parameter its route does not declare, so
/// URLs made unique by an invented parameter are neither kept nor computed.
#[tokio::test]
async fn unknown_parameters_are_refused_and_never_kept() {
    let app = TestApp::new();
    let cat = seed_catalogue(&app);
    let padding = "x".repeat(4000);
    for i in 0..50 {
        let answer = app
            .get(&format!("/api/cars/fast?limit=100&n={i}&p={padding}"))
            .await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST);
        assert_eq!(answer.error(), "Неизвестный параметр запроса «n»");
    }
    assert_eq!(app.answers.entry_count(), 0);
    assert_eq!(stats(&app).stored, 0);

    for path in [
        "/api/cars/count?status=new&page=2",
        "/api/brands/fast?x=1",
        "/api/settings?v=2",
        "/api/reviews?approved=true&sort=new",
        "/api/partner-banks?active=true&limit=3",
    ] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}");
        assert!(
            answer.error().starts_with("Неизвестный параметр запроса «"),
            "{path}"
        );
    }
    // A very long invented name is not sent back whole.
    let long = app
        .get(&format!("/api/brands/fast?{}=1", "n".repeat(500)))
        .await;
    assert_eq!(long.status, StatusCode::BAD_REQUEST);
    assert!(long.error().chars().count() < 80, "{}", long.error());
    assert!(long.error().ends_with("…»"));

    // Every declared parameter still works, on every kind of route.
    for path in [
        "/api/cars/fast?featured=false&status=new,used&brandId=&bodyType=all&maxPrice=9000000&minPrice=1&inStock=true&model=&sort=price_asc&limit=5&offset=0".to_string(),
        "/api/cars/count?status=new&maxPrice=9000000".to_string(),
        format!("/api/cars/brand/{}/fast?status=new&limit=5", cat.haval),
        "/api/cars/body-type/crossover/fast?sort=newest&limit=5".to_string(),
        "/api/reviews?approved=true&limit=5&offset=0".to_string(),
        "/api/promotions?active=true".to_string(),
        "/api/partner-banks?active=true".to_string(),
        "/api/brands/fast".to_string(),
    ] {
        let answer = app.get(&path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.text());
    }
}

/// The key is the decoded parameters in name order: the same question
/// asked in other words is one answer.
#[tokio::test]
async fn two_spellings_of_a_query_share_one_answer() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let first = app.get("/api/cars/fast?status=new,used&limit=3").await;
    assert_eq!(first.status, StatusCode::OK);
    for path in [
        "/api/cars/fast?limit=3&status=new,used",
        "/api/cars/fast?limit=3&status=new%2Cused",
        "/api/cars/fast?%6Cimit=3&status=new,used",
    ] {
        let again = app.get(path).await;
        assert_eq!(again.body, first.body, "{path}");
    }
    assert_eq!(stats(&app).misses, 1);
    assert_eq!(stats(&app).hits, 3);
    assert_eq!(app.answers.entry_count(), 1);
    // Another value is another answer.
    app.get("/api/cars/fast?status=new,used&limit=4").await;
    assert_eq!(stats(&app).misses, 2);
}

/// A path and query longer than 8 KiB is refused before anything is
/// parsed or kept.
#[tokio::test]
async fn an_overlong_uri_is_refused_with_414() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let base = "/api/cars/fast?limit=100&model=";
    let at_limit = format!("{base}{}", "m".repeat(cache::MAX_URI_BYTES - base.len()));
    let answer = app.get(&at_limit).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json(), json!([]));

    let over = format!("{at_limit}m");
    let answer = app.get(&over).await;
    assert_eq!(answer.status, StatusCode::URI_TOO_LONG);
    assert_eq!(answer.error(), cache::URI_TOO_LONG);
    let padded = format!("/api/cars/fast?limit=100&n=1&p={}", "x".repeat(60 * 1024));
    let answer = app.get(&padded).await;
    assert_eq!(answer.status, StatusCode::URI_TOO_LONG);
    assert_eq!(
        stats(&app).stored,
        1,
        "only the answer at the limit is kept"
    );
}

/// Compressed forms are made the first time a client asks for them, not for
/// every answer: a one-off URL read by a client that takes the plain body
/// costs no compression.
#[tokio::test]
async fn compressed_forms_are_made_when_first_asked_for() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let path = "/api/cars/fast?limit=100";
    let plain = app.get(path).await;
    assert!(!plain.headers.contains_key(header::CONTENT_ENCODING));
    let plain_size = app.answers.weighted_size();
    assert!(plain_size > plain.body.len() as u64);
    assert!(
        plain_size < plain.body.len() as u64 + 1024,
        "only the plain body is held: {plain_size} bytes for {}",
        plain.body.len()
    );

    let br = app.get_with(path, "accept-encoding", "br").await;
    assert_eq!(br.headers[header::CONTENT_ENCODING], "br");
    let with_br = app.answers.weighted_size();
    assert_eq!(
        with_br,
        plain_size + br.body.len() as u64,
        "the brotli form is weighed"
    );

    let gzip = app.get_with(path, "accept-encoding", "gzip").await;
    assert_eq!(gzip.headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(
        app.answers.weighted_size(),
        with_br + gzip.body.len() as u64
    );

    // Made once: the same bytes again, and nothing more held.
    let size = app.answers.weighted_size();
    let br_again = app.get_with(path, "accept-encoding", "gzip, br").await;
    assert_eq!(br_again.body, br.body);
    assert_eq!(app.answers.weighted_size(), size);
    assert_eq!(stats(&app).misses, 1);
    assert_eq!(stats(&app).hits, 3);
}

/// A kept answer is served before routing (`router::Site`): with the same
/// headers, security headers included, as the routed answer it repeats, on
/// the API, a page and a feed; over https with HSTS too.
#[tokio::test]
async fn a_hit_served_before_routing_has_the_routed_answers_headers() {
    let app = TestApp::with_config(|c| c.base_url = "https://salon.example".into());
    seed_catalogue(&app);
    for path in [
        "/api/cars/fast?limit=20&status=new",
        "/api/cars/count",
        VESTA,
        "/new-cars",
        "/feeds/avito.xml",
    ] {
        let before = stats(&app);
        let routed = app.get(path).await;
        assert_eq!(routed.status, StatusCode::OK, "{path}");
        let kept = app.get(path).await;
        let after = stats(&app);
        assert_eq!(after.misses, before.misses + 1, "{path}");
        assert_eq!(after.hits, before.hits + 1, "{path}");
        assert_eq!(kept.status, StatusCode::OK, "{path}");
        assert_eq!(kept.body, routed.body, "{path}");
        let names = |answer: &common::Answer| {
            let mut names: Vec<String> = answer
                .headers
                .keys()
                .map(|name| name.as_str().to_string())
                .collect();
            names.sort();
            names
        };
        assert_eq!(names(&kept), names(&routed), "{path}");
        for name in [
            header::STRICT_TRANSPORT_SECURITY,
            header::CONTENT_SECURITY_POLICY,
            header::X_CONTENT_TYPE_OPTIONS,
            header::REFERRER_POLICY,
            header::X_FRAME_OPTIONS,
            header::CONTENT_TYPE,
            header::ETAG,
            header::CACHE_CONTROL,
        ] {
            assert_eq!(
                kept.headers.get(&name),
                routed.headers.get(&name),
                "{path} {name}"
            );
            assert!(kept.headers.contains_key(&name), "{path} {name}");
        }
    }
    // A POST to a kept path is routed, never answered from the cache.
    let post = app.post_json("/api/cars/count", &json!({})).await;
    assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED);
}
