//! Uploads: real pictures become WebP variants; hostile files are refused.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use std::time::Duration;

use common::{ADMIN_PASSWORD, TestApp};
use dealership::media::Gate;
use image::{ImageFormat, RgbImage, RgbaImage};

fn multipart(file_name: &str, content_type: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----dealership-test-boundary";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: {content_type}\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn upload(
    app: &TestApp,
    query: &str,
    file_name: &str,
    content_type: &str,
    bytes: &[u8],
) -> common::Answer {
    app.send(upload_request(query, file_name, content_type, bytes))
        .await
}

fn upload_request(query: &str, file_name: &str, content_type: &str, bytes: &[u8]) -> Request<Body> {
    use base64::Engine;
    let (ct, body) = multipart(file_name, content_type, bytes);
    let credential =
        base64::engine::general_purpose::STANDARD.encode(format!("manager:{ADMIN_PASSWORD}"));
    Request::builder()
        .method(Method::POST)
        .uri(format!("/api/objects/upload{query}"))
        .header(header::CONTENT_TYPE, ct)
        .header(header::AUTHORIZATION, format!("Basic {credential}"))
        .body(Body::from(body))
        .unwrap()
}

fn encode(image: &image::DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn photo(width: u32, height: u32) -> Vec<u8> {
    let img = RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([
            (x * 255 / width) as u8,
            (y * 255 / height) as u8,
            ((x + y) % 256) as u8,
        ])
    });
    encode(&image::DynamicImage::ImageRgb8(img), ImageFormat::Jpeg)
}

fn webp_width(bytes: &[u8]) -> u32 {
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WEBP");
    image::load_from_memory_with_format(bytes, ImageFormat::WebP)
        .unwrap()
        .width()
}

#[tokio::test]
async fn a_photo_becomes_three_webp_variants() {
    let app = TestApp::new();
    app.create_admin();
    let answer = upload(&app, "", "car.jpg", "image/jpeg", &photo(2000, 1500)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let stored = answer.json();
    let url = stored["url"].as_str().unwrap();
    assert!(
        url.starts_with("/media/") && url.ends_with("-800.webp"),
        "{url}"
    );
    assert_eq!(stored["width"], 2000);
    assert_eq!(stored["height"], 1500);
    let srcset = stored["srcset"].as_str().unwrap();
    for (width, expected) in [(400, 400), (800, 800), (1600, 1600)] {
        let variant = url.replace("-800.webp", &format!("-{width}.webp"));
        assert!(srcset.contains(&format!("{variant} {width}w")), "{srcset}");
        let served = app.get(&variant).await;
        assert_eq!(served.status, StatusCode::OK, "{variant}");
        assert_eq!(served.headers[header::CONTENT_TYPE], "image/webp");
        assert!(
            served.headers[header::CACHE_CONTROL]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
        assert_eq!(webp_width(&served.body), expected);
    }
    assert_eq!(app.count("SELECT count(*) FROM media"), 1);
    // No base64 anywhere: the answer is URLs.
    assert!(!answer.text().contains("base64"));
}

#[tokio::test]
async fn a_small_png_with_alpha_is_not_upscaled() {
    let app = TestApp::new();
    app.create_admin();
    let img = RgbaImage::from_fn(300, 200, |x, _| image::Rgba([200, 30, 30, (x % 256) as u8]));
    let png = encode(&image::DynamicImage::ImageRgba8(img), ImageFormat::Png);
    let answer = upload(&app, "", "logo.png", "image/png", &png).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let url = answer.json()["url"].as_str().unwrap().to_string();
    let big = app.get(&url.replace("-800", "-1600")).await;
    assert_eq!(webp_width(&big.body), 300);
}

#[tokio::test]
async fn hostile_and_wrong_files_are_refused() {
    let app = TestApp::new();
    app.create_admin();
    // A text file named like a picture.
    let renamed = upload(
        &app,
        "",
        "photo.jpg",
        "image/jpeg",
        b"just some text, not a picture",
    )
    .await;
    assert_eq!(renamed.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(renamed.error(), "Пожалуйста, выберите файл изображения");
    // A PDF sent as a PNG.
    let pdf = upload(
        &app,
        "",
        "x.png",
        "image/png",
        b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n",
    )
    .await;
    assert_eq!(pdf.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Over 5 MB.
    let mut big = photo(64, 64);
    big.resize(5 * 1024 * 1024 + 10, 0);
    let oversize = upload(&app, "", "big.jpg", "image/jpeg", &big).await;
    assert_eq!(oversize.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(oversize.error(), "Размер файла не должен превышать 5MB");
    let mut huge = photo(64, 64);
    huge.resize(8 * 1024 * 1024, 0);
    let way_over = upload(&app, "", "huge.jpg", "image/jpeg", &huge).await;
    assert_eq!(way_over.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(way_over.error(), "Размер файла не должен превышать 5MB");
    // A decompression bomb: a tiny PNG that claims 100000 x 100000 pixels.
    let bomb = upload(
        &app,
        "",
        "bomb.png",
        "image/png",
        &bomb_png(100_000, 100_000),
    )
    .await;
    assert_eq!(
        bomb.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bomb.text()
    );
    assert!(
        bomb.error().starts_with("Изображение слишком большое"),
        "{}",
        bomb.error()
    );
    // Not multipart at all.
    let plain = app
        .basic(
            Method::POST,
            "/api/objects/upload",
            ADMIN_PASSWORD,
            Some(serde_json::json!({})),
        )
        .await;
    assert_eq!(plain.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // A field the form does not have (the document says `file` alone).
    let (ct, body) = multipart("a.jpg", "image/jpeg", &photo(40, 30));
    let body = [
        b"--" as &[u8],
        b"----dealership-test-boundary\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n",
        &body,
    ]
    .concat();
    let mut request = upload_request("", "a.jpg", "image/jpeg", &[]);
    request
        .headers_mut()
        .insert(header::CONTENT_TYPE, ct.parse().unwrap());
    *request.body_mut() = Body::from(body);
    let extra = app.send(request).await;
    assert_eq!(extra.status, StatusCode::BAD_REQUEST, "{}", extra.text());
    assert!(extra.error().contains("«note»"), "{}", extra.error());
    // After the file too.
    let (ct, body) = multipart("a.jpg", "image/jpeg", &photo(40, 30));
    let end = b"------dealership-test-boundary--\r\n";
    let body = [
        &body[..body.len() - end.len()],
        b"------dealership-test-boundary\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n",
        end,
    ]
    .concat();
    let mut request = upload_request("", "a.jpg", "image/jpeg", &[]);
    request
        .headers_mut()
        .insert(header::CONTENT_TYPE, ct.parse().unwrap());
    *request.body_mut() = Body::from(body);
    let after = app.send(request).await;
    assert_eq!(after.status, StatusCode::BAD_REQUEST, "{}", after.text());
    assert_eq!(app.count("SELECT count(*) FROM media"), 0);
    assert_eq!(
        std::fs::read_dir(app.dir.path().join("media"))
            .unwrap()
            .count(),
        0
    );
}

/// A real 1x1 PNG whose header is rewritten to claim a huge size.
fn bomb_png(width: u32, height: u32) -> Vec<u8> {
    let tiny = image::DynamicImage::ImageRgb8(RgbImage::new(1, 1));
    let mut png = encode(&tiny, ImageFormat::Png);
    png[16..20].copy_from_slice(&width.to_be_bytes());
    png[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    png
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[tokio::test]
async fn favicons() {
    let app = TestApp::new();
    app.create_admin();
    let icon = image::DynamicImage::ImageRgba8(RgbaImage::from_pixel(
        32,
        32,
        image::Rgba([10, 80, 200, 255]),
    ));
    let ico = encode(&icon, ImageFormat::Ico);
    let answer = upload(&app, "?kind=favicon", "favicon.ico", "image/x-icon", &ico).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let url = answer.json()["url"].as_str().unwrap().to_string();
    assert!(url.ends_with(".ico"), "{url}");
    assert_eq!(answer.json()["srcset"], "");
    let served = app.get(&url).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.body, ico);

    let png = encode(&icon, ImageFormat::Png);
    assert_eq!(
        upload(&app, "?kind=favicon", "f.png", "image/png", &png)
            .await
            .status,
        StatusCode::CREATED
    );

    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#;
    let refused = upload(&app, "?kind=favicon", "f.svg", "image/svg+xml", svg).await;
    assert_eq!(refused.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        refused.error(),
        "SVG не поддерживается: загрузите иконку ICO или PNG"
    );

    let mut big = png.clone();
    big.resize(1024 * 1024 + 1, 0);
    let too_big = upload(&app, "?kind=favicon", "f.png", "image/png", &big).await;
    assert_eq!(too_big.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(too_big.error(), "Размер файла не должен превышать 1MB");

    let text = upload(&app, "?kind=favicon", "f.ico", "image/x-icon", b"hello").await;
    assert_eq!(text.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn pictures_nothing_uses_are_removed() {
    let app = TestApp::new();
    app.create_admin();
    let kept = upload(&app, "", "a.jpg", "image/jpeg", &photo(900, 600))
        .await
        .json();
    let dropped = upload(&app, "", "b.jpg", "image/jpeg", &photo(700, 500))
        .await
        .json();
    let brand = app
        .basic(
            Method::POST,
            "/api/brands",
            ADMIN_PASSWORD,
            Some(serde_json::json!({"name": "Haval", "slug": "haval", "logo": kept["url"]})),
        )
        .await;
    assert_eq!(brand.status, StatusCode::CREATED);
    let media = app.dir.path().join("media");
    // Three variants each, and the folder of their originals.
    assert_eq!(std::fs::read_dir(&media).unwrap().count(), 7);
    let originals = media.join(dealership::media::ORIGINALS_FOLDER);
    assert_eq!(std::fs::read_dir(&originals).unwrap().count(), 2);
    // Fresh uploads are kept for a while, a form may not have saved them yet.
    let conn = app.db.conn().unwrap();
    let none =
        dealership::media::cleanup::collect_garbage(&conn, &media, chrono::Duration::hours(1))
            .unwrap();
    assert_eq!(none, 0);
    let removed =
        dealership::media::cleanup::collect_garbage(&conn, &media, chrono::Duration::zero())
            .unwrap();
    assert_eq!(removed, 1);
    let left: Vec<String> = std::fs::read_dir(&media)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != dealership::media::ORIGINALS_FOLDER)
        .collect();
    assert_eq!(left.len(), 3);
    // The unused picture's original went with it.
    let originals_left: Vec<String> = std::fs::read_dir(&originals)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(originals_left, [kept["hash"].as_str().unwrap()]);
    let kept_hash = kept["hash"].as_str().unwrap();
    assert!(left.iter().all(|n| n.starts_with(kept_hash)), "{left:?}");
    assert!(
        !left
            .iter()
            .any(|n| n.starts_with(dropped["hash"].as_str().unwrap()))
    );
    assert_eq!(
        app.get(kept["url"].as_str().unwrap()).await.status,
        StatusCode::OK
    );
}

/// A photo cut short in the middle of its picture data, as a failed
/// transfer leaves it.
fn truncated_photo() -> Vec<u8> {
    let mut jpeg = photo(800, 600);
    assert_eq!(&jpeg[jpeg.len() - 2..], &[0xFF, 0xD9]);
    jpeg.truncate(jpeg.len() * 6 / 10);
    jpeg
}

#[tokio::test]
async fn a_truncated_jpeg_is_refused() {
    let app = TestApp::new();
    app.create_admin();
    let answer = upload(&app, "", "cut.jpg", "image/jpeg", &truncated_photo()).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text()
    );
    assert_eq!(answer.error(), dealership::media::TRUNCATED_IMAGE);
    assert_eq!(answer.json()["field"], "image");
    assert_eq!(app.count("SELECT count(*) FROM media"), 0);
    // The whole file is accepted.
    let whole = upload(&app, "", "whole.jpg", "image/jpeg", &photo(800, 600)).await;
    assert_eq!(whole.status, StatusCode::CREATED, "{}", whole.text());
}

#[tokio::test]
async fn a_sixteen_bit_png_is_stored_at_eight_bits() {
    let app = TestApp::new();
    app.create_admin();
    let img = image::ImageBuffer::<image::Rgba<u16>, _>::from_fn(1000, 500, |x, y| {
        image::Rgba([(x * 65) as u16, (y * 131) as u16, 40_000, 65_535])
    });
    let png = encode(&image::DynamicImage::ImageRgba16(img), ImageFormat::Png);
    let answer = upload(&app, "", "deep.png", "image/png", &png).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
    let stored = answer.json();
    assert_eq!(
        (stored["width"].as_u64(), stored["height"].as_u64()),
        (Some(1000), Some(500))
    );
    let url = stored["url"].as_str().unwrap();
    let variant = app.get(url).await;
    assert_eq!(webp_width(&variant.body), 800);
    // The blue channel (40000 of 65535) comes out as 8 bits (~156).
    let decoded = image::load_from_memory_with_format(&variant.body, ImageFormat::WebP)
        .unwrap()
        .to_rgb8();
    let blue = decoded.get_pixel(400, 200)[2];
    assert!((150..=162).contains(&blue), "blue {blue}");
}

fn gated_app(gate: &std::sync::Arc<Gate>) -> TestApp {
    let app = TestApp::with_state(|state| state.image_gate = gate.clone());
    app.create_admin();
    app
}

#[tokio::test]
async fn uploads_beyond_the_queue_are_told_the_server_is_busy() {
    // One picture at a time, one more waiting.
    let gate = std::sync::Arc::new(Gate::new(1, 1, 64 << 20, Duration::from_secs(10)));
    let app = gated_app(&gate);
    let jpeg = photo(400, 300);
    // Another picture is being worked on and one waits: no place is left.
    let working = gate.turn(gate.enter().unwrap(), 0).await.unwrap();
    let waiting = gate.enter().unwrap();
    let refused = upload(&app, "", "a.jpg", "image/jpeg", &jpeg).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text()
    );
    assert_eq!(refused.error(), dealership::media::gate::BUSY);
    assert_eq!(refused.headers["retry-after"], "10");
    // The waiting place frees: an upload queues until the work ends.
    drop(waiting);
    let queued = upload(&app, "", "b.jpg", "image/jpeg", &jpeg);
    let release = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        drop(working);
    };
    let (queued, ()) = tokio::join!(queued, release);
    assert_eq!(queued.status, StatusCode::CREATED, "{}", queued.text());
    assert_eq!(app.count("SELECT count(*) FROM media"), 1);
}

#[tokio::test]
async fn a_queued_upload_waits_briefly_then_is_told_the_server_is_busy() {
    let gate = std::sync::Arc::new(Gate::new(1, 4, 64 << 20, Duration::from_millis(300)));
    let app = gated_app(&gate);
    let _working = gate.turn(gate.enter().unwrap(), 0).await.unwrap();
    let started = std::time::Instant::now();
    let answer = upload(&app, "", "a.jpg", "image/jpeg", &photo(400, 300)).await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.text()
    );
    assert_eq!(answer.error(), dealership::media::gate::BUSY);
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(app.count("SELECT count(*) FROM media"), 0);
}

#[tokio::test]
async fn parallel_uploads_share_the_gate_and_all_finish() {
    use tower::ServiceExt;
    // Two at a time, eight waiting: ten parallel uploads all succeed.
    let gate = std::sync::Arc::new(Gate::new(2, 8, 256 << 20, Duration::from_secs(60)));
    // The uploads share one session, as the admin panel does: ten parallel
    // Basic sign-ins would be taken for a password guessing attack.
    let app = gated_app(&gate);
    let cookie = app.login().await;
    let mut uploads = tokio::task::JoinSet::new();
    for i in 0..10 {
        let mut request = upload_request("", "p.jpg", "image/jpeg", &photo(300 + i, 200));
        let headers = request.headers_mut();
        headers.remove(header::AUTHORIZATION);
        headers.insert(header::COOKIE, cookie.parse().unwrap());
        headers.insert(header::ORIGIN, "http://localhost:8080".parse().unwrap());
        let router = app.app.clone();
        uploads.spawn(async move {
            let answer = router.oneshot(request).await.unwrap();
            let status = answer.status();
            let body = http_body_util::BodyExt::collect(answer.into_body())
                .await
                .unwrap();
            (
                status,
                String::from_utf8_lossy(&body.to_bytes()).into_owned(),
            )
        });
    }
    while let Some(answer) = uploads.join_next().await {
        let (status, text) = answer.unwrap();
        assert_eq!(status, StatusCode::CREATED, "{text}");
    }
    assert_eq!(app.count("SELECT count(*) FROM media"), 10);
}
