//! The OpenAPI document the UI's types are generated from
//! (`ui/src/api/openapi.json`, see ui/README.md) is the one the router serves.
//! `UPDATE_OPENAPI=1 cargo test --test openapi_committed` rewrites it.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::path::Path;

use axum::http::StatusCode;
use common::TestApp;
use serde_json::Value;

const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/api/openapi.json");

#[tokio::test]
async fn the_committed_document_is_the_served_one() {
    let app = TestApp::new();
    let answer = app.get("/api/openapi.json").await;
    assert_eq!(answer.status, StatusCode::OK);
    let served = answer.json();
    if std::env::var_os("UPDATE_OPENAPI").is_some_and(|v| v == "1") {
        let text = serde_json::to_string_pretty(&served).unwrap() + "\n";
        std::fs::write(COMMITTED, text).unwrap();
        return;
    }
    let committed: Value = match std::fs::read_to_string(Path::new(COMMITTED)) {
        Ok(text) => serde_json::from_str(&text).unwrap_or(Value::Null),
        Err(_) => Value::Null,
    };
    assert!(
        committed == served,
        "ui/src/api/openapi.json differs from the served /api/openapi.json. Run `cd ui && npm \
         run api:gen`: it rewrites the file (`UPDATE_OPENAPI=1 cargo test --test \
         openapi_committed`) and regenerates the UI's types from it; commit both."
    );
}
