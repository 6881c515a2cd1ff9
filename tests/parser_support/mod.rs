//! What the parser tests share: a local HTTP server for feeds and photos,
//! multipart uploads as an admin, and waiting for a run's photos.
#![allow(dead_code)]
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::common::{Answer, TestApp};

/// A file's content type and bytes.
type File = (String, Vec<u8>);

/// Files a local server answers, by path ("/feed.xml"); other paths 404.
#[derive(Clone, Default)]
pub struct Files(pub Arc<Mutex<HashMap<String, File>>>);

impl Files {
    pub fn put(&self, path: &str, content_type: &str, body: impl Into<Vec<u8>>) {
        self.0
            .lock()
            .unwrap()
            .insert(path.to_string(), (content_type.to_string(), body.into()));
    }
}

async fn serve_file(State(files): State<Files>, Path(path): Path<String>) -> Response {
    let found = files.0.lock().unwrap().get(&format!("/{path}")).cloned();
    match found {
        Some((content_type, body)) => {
            ([(header::CONTENT_TYPE, content_type)], body).into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Starts a server of `files` on 127.0.0.1; gives its base URL.
pub async fn file_server(files: Files) -> String {
    let app = Router::new()
        .route("/{*path}", axum::routing::get(serve_file))
        .with_state(files);
    serve(app).await
}

/// Serves a router on a free local port; gives "http://127.0.0.1:port".
pub async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap();
    });
    format!("http://{addr}")
}

/// Every car of the catalogue, drafts included.
pub fn all_cars(app: &TestApp) -> Vec<dealership::domain::cars::Car> {
    dealership::domain::cars::list_all(
        &app.db.conn().unwrap(),
        &dealership::domain::cars::CarFilter {
            include_drafts: true,
            ..Default::default()
        },
    )
    .unwrap()
}

/// A small PNG of one colour.
pub fn png(width: u32, height: u32, shade: u8) -> Vec<u8> {
    let image =
        image::RgbImage::from_pixel(width, height, image::Rgb([shade, 80, 200 - shade / 2]));
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// An admin with one session for many calls.
pub struct AdminSession<'a> {
    pub app: &'a TestApp,
    pub cookie: String,
}

impl<'a> AdminSession<'a> {
    pub async fn new(app: &'a TestApp) -> AdminSession<'a> {
        app.create_admin();
        let cookie = app.login().await;
        AdminSession { app, cookie }
    }

    pub async fn call(&self, method: Method, path: &str, body: Option<Value>) -> Answer {
        self.app.admin_with(&self.cookie, method, path, body).await
    }

    /// Uploads a feed file as `POST /api/admin/imports`.
    pub async fn upload(&self, name: &str, bytes: &[u8]) -> Answer {
        self.upload_to(None, name, bytes).await
    }

    /// Uploads a feed file to one feed (`feedId` first, as the panel sends
    /// it), or to the file feed of its name.
    pub async fn upload_to(&self, feed_id: Option<&str>, name: &str, bytes: &[u8]) -> Answer {
        let mut parts = Vec::new();
        if let Some(id) = feed_id {
            parts.push(("feedId", None, id.as_bytes().to_vec()));
        }
        parts.push(("file", Some(name), bytes.to_vec()));
        self.multipart("/api/admin/imports", &parts).await
    }

    /// A picture uploaded as the admin panel uploads one; gives its URL.
    pub async fn picture(&self, bytes: &[u8]) -> String {
        let answer = self
            .multipart(
                "/api/objects/upload",
                &[("file", Some("photo.png"), bytes.to_vec())],
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
        answer.json()["url"].as_str().unwrap().to_string()
    }

    async fn multipart(&self, path: &str, parts: &[(&str, Option<&str>, Vec<u8>)]) -> Answer {
        let boundary = "----parser-test-boundary";
        let mut body = Vec::new();
        for (name, file, bytes) in parts {
            let disposition = match file {
                Some(file) => format!(
                    "form-data; name=\"{name}\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream"
                ),
                None => format!("form-data; name=\"{name}\""),
            };
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n").as_bytes(),
            );
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::COOKIE, &self.cookie)
            .header(header::ORIGIN, "http://localhost:8080")
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(Body::from(body))
            .unwrap();
        self.app.send(request).await
    }

    /// Uploads a feed and applies its preview; gives the applied run.
    pub async fn import(&self, name: &str, bytes: &[u8]) -> Value {
        let preview = self.upload(name, bytes).await;
        assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
        let run = preview.json();
        assert_eq!(run["status"], "preview", "{run}");
        self.apply(run["id"].as_str().unwrap()).await
    }

    pub async fn apply(&self, id: &str) -> Value {
        let applied = self
            .call(
                Method::POST,
                &format!("/api/admin/imports/{id}/apply"),
                None,
            )
            .await;
        assert_eq!(applied.status, StatusCode::OK, "{}", applied.text());
        applied.json()
    }

    /// Waits until every photo of the run is fetched or failed.
    pub async fn photos_done(&self, id: &str) -> Value {
        for _ in 0..3000 {
            let run = self
                .call(Method::GET, &format!("/api/admin/imports/{id}"), None)
                .await
                .json();
            let photos = &run["photos"];
            let finished = photos["done"].as_i64().unwrap() + photos["failed"].as_i64().unwrap();
            if finished >= photos["total"].as_i64().unwrap() {
                return run;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("photos of run {id} not done in time");
    }
}
