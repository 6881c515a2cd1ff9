//! The second page (`docs/rendering.md`): a first page carries its
//! stylesheet inline; a browser whose `styles` cookie names that sheet's
//! hash (it fetched the file, cached as immutable) gets the same page
//! linking it instead, kept beside the inline form in the answer cache.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{TestApp, seed_catalogue};

/// The `href` of the page's first disabled stylesheet link.
fn inline_sheet(html: &str) -> String {
    let at = html.find("\" disabled>").expect("an inline stylesheet");
    let start = html[..at].rfind("href=\"").unwrap() + 6;
    html[start..at].to_string()
}

fn body_of(html: &str) -> &str {
    &html[html.find("<body>").unwrap()..]
}

async fn get(app: &TestApp, path: &str, headers: &[(header::HeaderName, &str)]) -> common::Answer {
    let mut request = Request::get(path);
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    app.send(request.body(Body::empty()).unwrap()).await
}

#[tokio::test]
async fn a_browser_keeping_the_stylesheet_gets_it_linked() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let first = app.get("/new-cars").await;
    assert_eq!(first.status, StatusCode::OK);
    let first_html = first.text();
    let href = inline_sheet(&first_html);
    // The build's hash may hold a `-` itself (`main-Czr-sWkE.css`).
    let hash = href
        .strip_prefix("/assets/main-")
        .and_then(|name| name.strip_suffix(".css"))
        .unwrap()
        .to_string();
    assert!(
        first_html.contains("<style>"),
        "the first page carries its styles"
    );
    let vary = first.headers[header::VARY].to_str().unwrap();
    assert!(vary.contains("cookie"), "{vary}");

    let cookie = format!("consent=1; styles={hash}");
    let second = get(&app, "/new-cars", &[(header::COOKIE, &cookie)]).await;
    let html = second.text();
    assert!(
        html.contains(&format!("<link rel=\"stylesheet\" href=\"{href}\">")),
        "the sheet linked"
    );
    assert!(!html.contains("disabled>"), "no inline sheet left");
    assert!(
        html.len() + 50_000 < first_html.len(),
        "{} bytes against {}",
        html.len(),
        first_html.len()
    );
    // The page itself is the same.
    assert_eq!(body_of(&html), body_of(&first_html));
    let etag = second.headers[header::ETAG].to_str().unwrap().to_string();
    assert_ne!(etag, first.headers[header::ETAG].to_str().unwrap());

    // Asked again: the linked form from the cache, and 304 for its tag.
    let again = get(
        &app,
        "/new-cars",
        &[(header::COOKIE, &cookie), (header::IF_NONE_MATCH, &etag)],
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    let compressed = get(
        &app,
        "/new-cars",
        &[(header::COOKIE, &cookie), (header::ACCEPT_ENCODING, "br")],
    )
    .await;
    assert_eq!(compressed.headers[header::CONTENT_ENCODING], "br");
    assert_eq!(compressed.headers[header::ETAG].to_str().unwrap(), etag);

    // A browser keeping another build's sheet gets the styles inline.
    let other = get(&app, "/new-cars", &[(header::COOKIE, "styles=Zz00Zz00")]).await;
    assert_eq!(other.text(), first_html);

    // The file is served, cached for good.
    let sheet = app.get(&href).await;
    assert_eq!(sheet.status, StatusCode::OK);
    assert!(
        sheet.headers[header::CACHE_CONTROL]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
}

#[tokio::test]
async fn the_api_answers_the_same_whatever_the_cookie() {
    let app = TestApp::new();
    seed_catalogue(&app);
    let plain = app.get("/api/cars/fast?limit=5").await;
    let with_cookie = get(
        &app,
        "/api/cars/fast?limit=5",
        &[(header::COOKIE, "styles=AbCdEf12")],
    )
    .await;
    assert_eq!(plain.body, with_cookie.body);
    assert_eq!(plain.headers[header::VARY], "accept-encoding");
}
