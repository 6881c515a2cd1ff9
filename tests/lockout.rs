//! The login lockout under parallel guesses, the bound on parallel password
//! checks, and the rule that keeps a stranger from locking an admin out
//! (`docs/admin.md`, lockout).
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use base64::Engine;
use common::{ADMIN, ADMIN_PASSWORD};
use dealership::config::Config;
use dealership::db::Db;
use dealership::http::auth::{LOCKED_OUT, PASSWORDS_BUSY, PasswordChecks, WRONG_CREDENTIALS};
use dealership::http::router::Site;
use dealership::http::{AppState, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio::task::JoinSet;
use tower::ServiceExt;

struct App {
    _dir: tempfile::TempDir,
    db: Db,
    checks: Arc<PasswordChecks>,
    router: Site,
}

struct Answer {
    status: StatusCode,
    error: String,
    took: Duration,
}

impl App {
    /// The real router on a fresh database with one admin, checking at most
    /// `parallel` passwords at once with `queue` more waiting.
    fn new(parallel: usize, queue: usize) -> App {
        let dir = tempfile::tempdir().unwrap();
        let config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        std::fs::create_dir_all(config.media_dir()).unwrap();
        let db = Db::open(&config.database_path()).unwrap();
        dealership::domain::users::create(
            &db.conn().unwrap(),
            ADMIN,
            ADMIN_PASSWORD,
            dealership::domain::roles::Role::Owner,
        )
        .unwrap();
        let mut state = AppState::new(db.clone(), config);
        state.password_checks = Arc::new(PasswordChecks::new(parallel, queue));
        App {
            _dir: dir,
            db,
            checks: state.password_checks.clone(),
            router: router(state),
        }
    }

    fn count(&self, sql: &str) -> i64 {
        self.db
            .conn()
            .unwrap()
            .query_row(sql, [], |r| r.get(0))
            .unwrap()
    }
}

fn from(mut request: Request<Body>, ip: &str) -> Request<Body> {
    let peer: SocketAddr = format!("{ip}:4000").parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    request
}

fn login(login: &str, password: &str, ip: &str) -> Request<Body> {
    let body = json!({"login": login, "password": password}).to_string();
    from(
        Request::builder()
            .method(Method::POST)
            .uri("/api/admin/login")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap(),
        ip,
    )
}

fn basic(login: &str, password: &str, ip: &str) -> Request<Body> {
    let credential =
        base64::engine::general_purpose::STANDARD.encode(format!("{login}:{password}"));
    from(
        Request::get("/api/admin/me")
            .header(header::AUTHORIZATION, format!("Basic {credential}"))
            .body(Body::empty())
            .unwrap(),
        ip,
    )
}

async fn send(router: Site, request: Request<Body>) -> Answer {
    let started = Instant::now();
    let response = router.oneshot(request).await.unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let took = started.elapsed();
    let error = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_default();
    Answer {
        status,
        error,
        took,
    }
}

/// Sends all requests at once and gives the answers.
async fn in_parallel(app: &App, requests: Vec<Request<Body>>) -> Vec<Answer> {
    let mut set = JoinSet::new();
    for request in requests {
        set.spawn(send(app.router.clone(), request));
    }
    set.join_all().await
}

fn tally(answers: &[Answer], status: StatusCode, error: &str) -> usize {
    answers
        .iter()
        .filter(|a| a.status == status && a.error == error)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_guesses_from_one_address_stop_at_the_address_limit() {
    // A queue long enough for every request: only the lockout stops them.
    let app = App::new(2, 200);
    let requests = (0..100)
        .map(|i| login(&format!("guess{i}"), "wrong-password", "203.0.113.7"))
        .collect();
    let answers = in_parallel(&app, requests).await;
    assert_eq!(
        tally(&answers, StatusCode::UNAUTHORIZED, WRONG_CREDENTIALS),
        20
    );
    assert_eq!(
        tally(&answers, StatusCode::TOO_MANY_REQUESTS, LOCKED_OUT),
        80
    );
    assert_eq!(app.checks.checked(), 20, "passwords hashed");
    assert_eq!(
        app.count("SELECT count(*) FROM login_attempts WHERE successful = 0"),
        20
    );
    assert_eq!(app.count("SELECT count(*) FROM login_attempts"), 20);
    // The right password is refused now, from that address, and not checked.
    let right = send(
        app.router.clone(),
        login(ADMIN, ADMIN_PASSWORD, "203.0.113.7"),
    )
    .await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(right.error, LOCKED_OUT);
    assert_eq!(app.checks.checked(), 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_guesses_for_one_login_stop_at_the_login_limit() {
    let app = App::new(2, 200);
    // Form and Basic together, from one address.
    let requests = (0..60)
        .map(|i| match i % 2 {
            0 => login(ADMIN, &format!("guess-{i}"), "198.51.100.20"),
            _ => basic(ADMIN, &format!("guess-{i}"), "198.51.100.20"),
        })
        .collect();
    let answers = in_parallel(&app, requests).await;
    assert_eq!(
        tally(&answers, StatusCode::UNAUTHORIZED, WRONG_CREDENTIALS),
        5
    );
    assert_eq!(
        tally(&answers, StatusCode::TOO_MANY_REQUESTS, LOCKED_OUT),
        55
    );
    assert_eq!(app.checks.checked(), 5, "passwords hashed");
    assert_eq!(
        app.count("SELECT count(*) FROM login_attempts WHERE username = 'manager'"),
        5
    );
    let right = send(
        app.router.clone(),
        login(ADMIN, ADMIN_PASSWORD, "198.51.100.20"),
    )
    .await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn beyond_the_queue_password_checks_are_refused_at_once() {
    // One check at a time, one waiting.
    let app = App::new(1, 1);
    // Different addresses and logins: the lockout stops none of them.
    let requests = (0..30)
        .map(|i| {
            login(
                &format!("user{i}"),
                "wrong-password",
                &format!("192.0.2.{i}"),
            )
        })
        .collect();
    let answers = in_parallel(&app, requests).await;
    let busy: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.status == StatusCode::TOO_MANY_REQUESTS && a.error == PASSWORDS_BUSY)
        .collect();
    let wrong = tally(&answers, StatusCode::UNAUTHORIZED, WRONG_CREDENTIALS);
    assert_eq!(busy.len() + wrong, 30);
    assert!(busy.len() >= 10, "only {} refused as busy", busy.len());
    for answer in &busy {
        assert!(answer.took < Duration::from_secs(1), "{:?}", answer.took);
    }
    // Refused attempts were neither hashed nor recorded.
    assert_eq!(app.checks.checked(), wrong as u64);
    assert_eq!(
        app.count("SELECT count(*) FROM login_attempts"),
        wrong as i64
    );
    // Once the flood is over, checks run again.
    let right = send(
        app.router.clone(),
        login(ADMIN, ADMIN_PASSWORD, "192.0.2.200"),
    )
    .await;
    assert_eq!(right.status, StatusCode::OK);
}

#[tokio::test]
async fn a_stranger_cannot_keep_an_admin_out() {
    let app = App::new(2, 8);
    let stranger = "198.51.100.66";
    for _ in 0..5 {
        let answer = send(app.router.clone(), login(ADMIN, "guess", stranger)).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let answer = send(app.router.clone(), login(ADMIN, "guess", stranger)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(answer.error, LOCKED_OUT);

    // The admin, from an address with no failure, gets in with the right password.
    let admin = send(
        app.router.clone(),
        login(ADMIN, ADMIN_PASSWORD, "203.0.113.7"),
    )
    .await;
    assert_eq!(admin.status, StatusCode::OK);
    assert_eq!(
        app.count(
            "SELECT count(*) FROM login_attempts WHERE ip_address = '203.0.113.7' AND successful = 1"
        ),
        1
    );
    // The stranger is still locked, even with the right password.
    let answer = send(app.router.clone(), login(ADMIN, ADMIN_PASSWORD, stranger)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    // A clean address has one guess at a locked login: after a failure it is
    // refused by the login's lock too.
    let other = "192.0.2.77";
    let guess = send(app.router.clone(), login(ADMIN, "guess", other)).await;
    assert_eq!(guess.status, StatusCode::UNAUTHORIZED);
    let right = send(app.router.clone(), login(ADMIN, ADMIN_PASSWORD, other)).await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS);
    // Basic keeps the login's lock for every address.
    let script = send(
        app.router.clone(),
        basic(ADMIN, ADMIN_PASSWORD, "192.0.2.88"),
    )
    .await;
    assert_eq!(script.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(app.checks.checked(), 7);
}

#[tokio::test]
async fn basic_successes_are_not_kept_and_failures_are() {
    let app = App::new(2, 8);
    let ok = send(
        app.router.clone(),
        basic(ADMIN, ADMIN_PASSWORD, "192.0.2.5"),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK);
    assert_eq!(app.count("SELECT count(*) FROM login_attempts"), 0);
    let wrong = send(app.router.clone(), basic(ADMIN, "wrong", "192.0.2.5")).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.count("SELECT count(*) FROM login_attempts WHERE successful = 0"),
        1
    );
    assert_eq!(app.checks.checked(), 2);
}
