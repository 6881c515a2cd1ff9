//! The inventory parser's imports through the real router on a real SQLite
//! file: preview and apply, a changed feed, broken and hostile documents,
//! private addresses, size limits, photos from a local server, the schedule.
#![allow(clippy::unwrap_used)]

mod common;
mod parser_support;

use axum::http::{Method, StatusCode};
use common::{TestApp, car_input};
use dealership::config::Config;
use dealership::domain::cars;
use dealership::domain::money::Money;
use parser_support::{AdminSession, Files, file_server, png};
use serde_json::{Value, json};

const HEADER: &str = "id;vin;brand;model;year;price;status;body_type;transmission;drivetrain;fuel_type;engine;mileage;color;photos";

fn csv(rows: &[&str]) -> Vec<u8> {
    let mut text = String::from(HEADER);
    for row in rows {
        text.push('\n');
        text.push_str(row);
    }
    text.push('\n');
    text.into_bytes()
}

const JOLION: &str = "A-1;LGWEF6A59NH000001;Haval;Jolion;2024;2199000;Новый;Кроссовер;Робот;Передний;Бензин;1.5 л, 150 л.с.;0;белый;";
const F7: &str = "A-2;;Haval;F7;2021;1750000.50;С пробегом;Внедорожник;Автомат;Полный;Бензин;2.0 л, 190 л.с.;45000;;";
const VESTA: &str =
    "A-3;;LADA (ВАЗ);Vesta;2023;1200000;new;wagon;MT;front;petrol;1.6 л, 106 л.с.;0;;";
const BAD_YEAR: &str =
    "A-4;;Haval;Dargo;1985;3399000;new;Кабриолет;AT;Полный;бензин;2.0 л, 192 л.с.;0;;";

fn app() -> TestApp {
    TestApp::with_config(|c| c.parser.allow_private_hosts = true)
}

fn count(app: &TestApp, sql: &str) -> i64 {
    app.count(sql)
}

#[tokio::test]
async fn csv_preview_changes_nothing_then_apply_writes_it() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    // A car the admin made by hand, in no feed: never touched.
    let lada = {
        let conn = app.db.conn().unwrap();
        let brand = dealership::domain::brands::create(
            &conn,
            &dealership::domain::brands::BrandInput {
                name: "Lada".into(),
                slug: "lada".into(),
                logo: String::new(),
                description: String::new(),
            },
        )
        .unwrap();
        let mut own = car_input(&brand.id, "hand-made");
        own.external_id = None;
        cars::create(&conn, &own, 2026).unwrap();
        brand.id
    };

    let answer = admin
        .upload("stock.csv", &csv(&[JOLION, F7, VESTA, BAD_YEAR]))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let run = answer.json();
    assert_eq!(run["status"], "preview");
    assert_eq!(run["format"], "csv");
    assert_eq!(run["source"], json!({"kind": "file", "name": "stock.csv"}));
    assert_eq!(
        run["counts"],
        json!({"new": 3, "changed": 0, "unchanged": 0, "gone": 0, "left": 0, "errors": 1, "warnings": 1})
    );
    // A 2023 Vesta stated new looks used by its year: a warning, not an error.
    assert_eq!(run["warnings"][0]["field"], "status");
    assert_eq!(
        run["warnings"][0]["message"],
        "Похоже на автомобиль с пробегом (2023 год выпуска), а будет опубликован как новый: \
         проверьте состояние"
    );
    // The bad row is named by its line and field.
    assert_eq!(run["errors"][0]["row"], 5);
    assert_eq!(run["errors"][0]["field"], "year");
    assert!(
        run["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("от 1990")
    );
    // Haval is a new brand; "LADA (ВАЗ)" is our Lada.
    assert_eq!(run["newBrands"], json!(["Haval"]));
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 1);

    let id = run["id"].as_str().unwrap();
    let listed = admin.call(Method::GET, "/api/admin/imports", None).await;
    assert_eq!(listed.json()["items"][0]["id"], id);

    let applied = admin.apply(id).await;
    assert_eq!(applied["status"], "applied");
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 4);
    let conn = app.db.conn().unwrap();
    let f7: (i64, String, String, i64) = conn
        .query_row(
            "SELECT price_kopecks, status, body_type, mileage FROM cars WHERE external_id = 'A-2'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(f7, (175_000_050, "used".into(), "coupe".into(), 45_000));
    let vesta_brand: String = conn
        .query_row(
            "SELECT brand_id FROM cars WHERE external_id = 'A-3'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(vesta_brand, lada);
    // The audit trail has the run.
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'import' AND object_type = 'import'"
        ),
        1
    );
    // And the preview before it.
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM audit_log WHERE action = 'create' AND object_type = 'import'"
        ),
        1
    );
    // Applying twice is refused.
    let again = admin
        .call(
            Method::POST,
            &format!("/api/admin/imports/{id}/apply"),
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.error(), "Импорт уже применён");
}

#[tokio::test]
async fn a_changed_feed_shows_and_applies_price_changes_gone_and_new_cars() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    admin.import("stock.csv", &csv(&[JOLION, F7, VESTA])).await;
    // The admin features the Jolion: the feed does not carry that flag.
    app.db
        .conn()
        .unwrap()
        .execute("UPDATE cars SET featured = 1 WHERE external_id = 'A-1'", [])
        .unwrap();
    let hand_made = {
        let conn = app.db.conn().unwrap();
        let brand: String = conn
            .query_row("SELECT id FROM brands LIMIT 1", [], |r| r.get(0))
            .unwrap();
        cars::create(&conn, &car_input(&brand, "hand-made"), 2026)
            .unwrap()
            .id
    };

    let cheaper = JOLION.replace("2199000", "2099000");
    let tiggo =
        "A-9;;Chery;Tiggo 4;2024;1799000;new;crossover;CVT;front;бензин;1.5 л, 113 л.с.;0;;";
    let preview = admin
        .upload("stock.csv", &csv(&[&cheaper, VESTA, tiggo]))
        .await
        .json();
    assert_eq!(
        preview["counts"],
        json!({"new": 1, "changed": 1, "unchanged": 1, "gone": 1, "left": 0, "errors": 0, "warnings": 1})
    );
    let change = &preview["changed"][0];
    assert_eq!(change["key"], "A-1");
    assert_eq!(
        change["changes"],
        json!([{"field": "price", "label": "Цена", "old": "2199000.00", "new": "2099000.00"}])
    );
    assert_eq!(preview["gone"][0]["externalId"], "A-2");
    assert_eq!(preview["new"][0]["key"], "A-9");
    assert_eq!(preview["new"][0]["price"], "1799000.00");

    admin.apply(preview["id"].as_str().unwrap()).await;
    let conn = app.db.conn().unwrap();
    let jolion: (i64, bool) = conn
        .query_row(
            "SELECT price_kopecks, featured FROM cars WHERE external_id = 'A-1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(jolion, (209_900_000, true), "price changed, featured kept");
    // Gone: unpublished, never deleted.
    let f7_published: bool = conn
        .query_row(
            "SELECT published FROM cars WHERE external_id = 'A-2'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!f7_published);
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 5);
    let hand: (bool, i64) = conn
        .query_row(
            "SELECT published, price_kopecks FROM cars WHERE id = ?1",
            [&hand_made],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(hand, (true, Money::from_rubles(2_000_000).kopecks()));

    // The F7 comes back: published again.
    let back = admin
        .upload("stock.csv", &csv(&[&cheaper, F7, VESTA, tiggo]))
        .await
        .json();
    assert_eq!(back["counts"]["changed"], 1);
    assert_eq!(back["changed"][0]["changes"][0]["field"], "published");
    admin.apply(back["id"].as_str().unwrap()).await;
    let published: bool = conn
        .query_row(
            "SELECT published FROM cars WHERE external_id = 'A-2'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(published);
}

#[tokio::test]
async fn a_car_made_by_hand_is_matched_by_vin() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let conn = app.db.conn().unwrap();
    let brand = dealership::domain::brands::create(
        &conn,
        &dealership::domain::brands::BrandInput {
            name: "Haval".into(),
            slug: "haval".into(),
            logo: String::new(),
            description: String::new(),
        },
    )
    .unwrap();
    let mut own = car_input(&brand.id, "my-jolion");
    own.vin = Some("LGWEF6A59NH000001".into());
    own.trim_levels = vec![cars::TrimLevel {
        name: "Elite".into(),
        description: "Кожа".into(),
        link: String::new(),
    }];
    let own = cars::create(&conn, &own, 2026).unwrap();
    let jolion_by_vin = JOLION.replacen("A-1", "", 1);
    let preview = admin
        .upload("stock.csv", &csv(&[&jolion_by_vin]))
        .await
        .json();
    assert_eq!(preview["counts"]["changed"], 1, "{preview}");
    assert_eq!(preview["changed"][0]["carId"], own.id.as_str());
    admin.apply(preview["id"].as_str().unwrap()).await;
    let after = cars::get(&conn, &own.id, true).unwrap().unwrap();
    assert_eq!(after.price, Money::from_rubles(2_199_000));
    assert_eq!(after.slug, "my-jolion");
    assert_eq!(
        after.trim_levels.len(),
        1,
        "trim levels the feed lacks are kept"
    );
}

#[tokio::test]
async fn broken_xml_and_csv_are_reported_with_their_lines() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let broken = "<?xml version=\"1.0\"?>\n<data>\n<cars>\n<car>\n<mark_id>Haval</folder_id>\n</car>\n</cars>\n</data>\n";
    let run = admin.upload("autoru.xml", broken.as_bytes()).await.json();
    assert_eq!(run["status"], "failed");
    let error = run["error"].as_str().unwrap();
    assert!(error.contains("строке 5"), "{error}");
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 0);

    let truncated = "<data><cars><car><mark_id>Haval</mark_id>";
    let run = admin
        .upload("autoru.xml", truncated.as_bytes())
        .await
        .json();
    assert_eq!(run["status"], "failed");
    assert!(
        run["error"].as_str().unwrap().contains("обрывается"),
        "{run}"
    );

    // A bad value on line 3, an unreadable line 4.
    let mut bad = csv(&[JOLION, &F7.replace("2021", "20x1")]);
    bad.extend_from_slice(b"A-5;;Haval;\xff\xfe;2024;1;new;sedan;AT;front;petrol;1.5;0;;\n");
    let run = admin.upload("stock.csv", &bad).await.json();
    assert_eq!(run["status"], "failed", "{run}");
    assert!(run["error"].as_str().unwrap().contains("строке 4"), "{run}");
    let run = admin
        .upload("stock.csv", &csv(&[JOLION, &F7.replace("2021", "20x1")]))
        .await
        .json();
    assert_eq!(run["status"], "preview");
    assert_eq!(
        run["errors"],
        json!([{"row": 3, "line": 3, "field": "year", "message": "Не целое число: «20x1»"}])
    );
    let unknown_column = b"id;brand;colour\nA-1;Haval;red\n".to_vec();
    let run = admin.upload("stock.csv", &unknown_column).await.json();
    assert_eq!(run["status"], "failed");
    assert!(run["error"].as_str().unwrap().contains("colour"), "{run}");

    // The dashboard shows the latest run when it failed.
    let dashboard = admin
        .call(Method::GET, "/api/admin/dashboard", None)
        .await
        .json();
    assert_eq!(dashboard["importFailed"]["id"], run["id"]);
}

#[tokio::test]
async fn a_billion_laughs_document_is_refused_unexpanded() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let mut laughs =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
    for level in 1..=9 {
        let prev = if level == 1 {
            "lol".to_string()
        } else {
            format!("lol{}", level - 1)
        };
        let refs = format!("&{prev};").repeat(10);
        laughs.push_str(&format!("<!ENTITY lol{level} \"{refs}\">\n"));
    }
    laughs.push_str("]>\n<Ads><Ad><Id>1</Id><Make>&lol9;</Make></Ad></Ads>\n");
    let started = std::time::Instant::now();
    let run = admin.upload("avito.xml", laughs.as_bytes()).await.json();
    assert!(started.elapsed().as_secs() < 5);
    assert_eq!(run["status"], "failed");
    assert!(run["error"].as_str().unwrap().contains("ENTITY"), "{run}");
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 0);
}

#[tokio::test]
async fn feed_urls_on_private_addresses_are_refused() {
    let app = TestApp::new();
    let admin = AdminSession::new(&app).await;
    let files = Files::default();
    files.put("/feed.csv", "text/csv", csv(&[JOLION]));
    let base = file_server(files).await;
    // An IP literal: refused before any request.
    let answer = admin
        .call(
            Method::POST,
            "/api/admin/imports",
            Some(json!({"url": format!("{base}/feed.csv")})),
        )
        .await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text()
    );
    assert_eq!(answer.json()["field"], "url");
    // The refusal names the address and the key that lifts it.
    assert!(
        answer
            .error()
            .starts_with("Адрес 127.0.0.1 — внутренняя сеть")
            && answer
                .error()
                .contains("включите parser.allow_private_hosts в dealership.toml"),
        "{}",
        answer.error()
    );
    // A name that resolves to loopback: refused by the resolver.
    let port = base.rsplit(':').next().unwrap();
    let answer = admin
        .call(
            Method::POST,
            "/api/admin/imports",
            Some(json!({"url": format!("http://localhost:{port}/feed.csv")})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let run = answer.json();
    assert_eq!(run["status"], "failed");
    let error = run["error"].as_str().unwrap();
    assert!(
        error.contains("Адрес localhost — внутренняя сеть")
            && error.contains("parser.allow_private_hosts"),
        "{run}"
    );
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 0);
    // Not a web address at all.
    let answer = admin
        .call(
            Method::POST,
            "/api/admin/imports",
            Some(json!({"url": "file:///etc/passwd"})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn feeds_over_the_size_limit_are_refused() {
    let app = TestApp::with_config(|c| {
        c.parser.allow_private_hosts = true;
        c.parser.max_feed_bytes = 2048;
    });
    let admin = AdminSession::new(&app).await;
    let big: Vec<u8> = csv(&vec![JOLION; 40]);
    assert!(big.len() > 4096);
    let answer = admin.upload("stock.csv", &big).await;
    assert_eq!(
        answer.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        answer.text()
    );
    assert!(answer.error().contains("больше"), "{}", answer.error());

    let files = Files::default();
    files.put("/big.csv", "text/csv", big);
    let base = file_server(files).await;
    let run = admin
        .call(
            Method::POST,
            "/api/admin/imports",
            Some(json!({"url": format!("{base}/big.csv")})),
        )
        .await
        .json();
    assert_eq!(run["status"], "failed");
    assert!(run["error"].as_str().unwrap().contains("больше"), "{run}");
}

fn avito_feed(base: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Ads formatVersion="3" target="Avito.ru">
  <Ad>
    <Id>av-1</Id>
    <Category>Автомобили</Category>
    <Make>Haval</Make>
    <Model>Jolion</Model>
    <Year>2024</Year>
    <Price>2199000</Price>
    <Kilometrage>0</Kilometrage>
    <BodyType>Внедорожник</BodyType>
    <Transmission>Робот</Transmission>
    <DriveType>Передний</DriveType>
    <FuelType>Бензин</FuelType>
    <EngineSize>1.5</EngineSize>
    <Power>150</Power>
    <Images>
      <Image url="{base}/a.png"/>
      <Image url="{base}/b.png"/>
    </Images>
  </Ad>
  <Ad>
    <Id>av-2</Id>
    <Category>Автомобили</Category>
    <Make>Haval</Make>
    <Model>F7</Model>
    <Year>2021</Year>
    <Price>1750000</Price>
    <Kilometrage>45000</Kilometrage>
    <BodyType>Внедорожник</BodyType>
    <Transmission>Автомат</Transmission>
    <DriveType>Полный</DriveType>
    <FuelType>Бензин</FuelType>
    <EngineSize>2.0</EngineSize>
    <Images><Image url="{base}/missing.png"/></Images>
  </Ad>
</Ads>
"#
    )
}

#[tokio::test]
async fn photos_come_from_the_feed_and_a_failed_one_is_retried_next_run() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let files = Files::default();
    files.put("/a.png", "image/png", png(640, 480, 10));
    files.put("/b.png", "image/png", png(320, 240, 90));
    let base = file_server(files.clone()).await;
    let feed = avito_feed(&base);

    let applied = admin.import("avito.xml", feed.as_bytes()).await;
    assert_eq!(applied["counts"]["new"], 2);
    let run = admin.photos_done(applied["id"].as_str().unwrap()).await;
    assert_eq!(run["photos"], json!({"total": 3, "done": 2, "failed": 1}));
    assert_eq!(run["photoErrors"][0]["url"], format!("{base}/missing.png"));
    assert!(
        run["photoErrors"][0]["error"]
            .as_str()
            .unwrap()
            .contains("404"),
        "{run}"
    );
    let conn = app.db.conn().unwrap();
    let jolion = cars::list_all(
        &conn,
        &cars::CarFilter {
            include_drafts: true,
            ..Default::default()
        },
    )
    .unwrap()
    .into_iter()
    .find(|c| c.external_id.as_deref() == Some("av-1"))
    .unwrap();
    assert_eq!(jolion.images.len(), 2);
    for url in &jolion.images {
        let hash = dealership::media::hash_of_url(url).unwrap();
        assert!(dealership::media::is_recorded(&conn, hash).unwrap());
    }

    // Next run: the same feed; only the failed photo is fetched again, and
    // now it is there.
    files.put("/missing.png", "image/png", png(200, 200, 200));
    let preview = admin.upload("avito.xml", feed.as_bytes()).await.json();
    assert_eq!(preview["counts"]["unchanged"], 2, "{preview}");
    let applied = admin.apply(preview["id"].as_str().unwrap()).await;
    let run = admin.photos_done(applied["id"].as_str().unwrap()).await;
    assert_eq!(run["photos"], json!({"total": 1, "done": 1, "failed": 0}));
    let images: i64 = conn
        .query_row(
            "SELECT count(*) FROM car_images i JOIN cars c ON c.id = i.car_id
             WHERE c.external_id = 'av-2'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(images, 1);
    // Not an image: refused like an upload, reported, the import stands.
    files.put(
        "/b.png",
        "image/png",
        b"<html>not a picture</html>".to_vec(),
    );
    let changed = feed.replace("/b.png", "/b.png?v=2");
    let applied = admin.import("avito.xml", changed.as_bytes()).await;
    let run = admin.photos_done(applied["id"].as_str().unwrap()).await;
    assert_eq!(run["photos"]["failed"], 1, "{run}");
    assert_eq!(run["status"], "applied");
}

/// One pass of the job `imported photos`, then the run `id` as the admin
/// reads it.
async fn photo_pass(
    app: &TestApp,
    admin: &AdminSession<'_>,
    config: &std::sync::Arc<Config>,
    id: &str,
) -> Value {
    dealership::parser::fetch_photos(app.db.clone(), config.clone())
        .await
        .unwrap();
    admin
        .call(Method::GET, &format!("/api/admin/imports/{id}"), None)
        .await
        .json()
}

/// A photo the site could not store (its media directory unusable, as on a
/// full disk) is not a failed photo: it waits untried, and a later pass of
/// the job `imported photos` fetches it and counts it in the same run.
#[tokio::test]
async fn photos_the_site_could_not_store_are_fetched_by_a_later_pass() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let files = Files::default();
    files.put("/a.png", "image/png", png(640, 480, 10));
    files.put("/b.png", "image/png", png(320, 240, 90));
    let base = file_server(files.clone()).await;
    let config = std::sync::Arc::new(config_of(&app));
    let media = config.media_dir();
    let _ = std::fs::remove_dir_all(&media);
    std::fs::write(&media, b"not a directory").unwrap();

    let row = format!("{JOLION}{base}/a.png|{base}/b.png");
    let applied = admin.import("feed.csv", &csv(&[&row])).await;
    let id = applied["id"].as_str().unwrap().to_string();
    // The pass after apply ends before this one starts (one at a time).
    let run = photo_pass(&app, &admin, &config, &id).await;
    assert_eq!(
        run["photos"],
        json!({"total": 2, "done": 0, "failed": 0}),
        "{run}"
    );
    assert_eq!(run["photoErrors"], json!([]));
    assert_eq!(count(&app, "SELECT count(*) FROM car_images"), 0);
    assert_eq!(
        count(
            &app,
            "SELECT count(*) FROM car_photo_sources WHERE error IS NULL AND media_url IS NULL"
        ),
        2
    );

    // Space again: the next pass stores both, in the same run.
    std::fs::remove_file(&media).unwrap();
    let run = photo_pass(&app, &admin, &config, &id).await;
    assert_eq!(
        run["photos"],
        json!({"total": 2, "done": 2, "failed": 0}),
        "{run}"
    );
    assert_eq!(count(&app, "SELECT count(*) FROM car_images"), 2);
    // Nothing is left for a pass to do: the run's figures stay as they are.
    let run = photo_pass(&app, &admin, &config, &id).await;
    assert_eq!(
        run["photos"],
        json!({"total": 2, "done": 2, "failed": 0}),
        "{run}"
    );
}

fn config_of(app: &TestApp) -> Config {
    let mut config = Config {
        data_dir: app.dir.path().to_path_buf(),
        ..Config::default()
    };
    config.parser.allow_private_hosts = true;
    config
}

#[tokio::test]
async fn the_schedule_runs_a_feed_and_a_failed_run_shows_on_the_dashboard() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let settings = admin
        .call(Method::GET, "/api/admin/parser/settings", None)
        .await
        .json();
    assert_eq!(
        settings["feeds"][0]["url"],
        "http://localhost:8080/feeds/avito.xml"
    );
    let refused = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(json!({"name": "Склад", "kind": "url", "url": "", "intervalHours": 6})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json()["field"], "url");
    assert_eq!(refused.error(), "Укажите адрес фида");
    let refused = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(
                json!({"name": "Склад", "kind": "url", "url": "https://example.ru/f.xml",
                "intervalHours": 200}),
            ),
        )
        .await;
    assert_eq!(refused.json()["field"], "intervalHours");
    let refused = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(json!({"name": "Файл 1С", "kind": "file", "intervalHours": 6})),
        )
        .await;
    assert_eq!(refused.json()["field"], "intervalHours");
    assert_eq!(
        refused.error(),
        "Расписание — только для фида по адресу: файл загружают вручную"
    );

    let files = Files::default();
    files.put("/feed.csv", "text/csv", csv(&[JOLION, F7]));
    let base = file_server(files).await;
    let saved = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(
                json!({"name": "Склад", "kind": "url", "url": format!("{base}/feed.csv"),
                "intervalHours": 6}),
            ),
        )
        .await;
    assert_eq!(saved.status, StatusCode::CREATED, "{}", saved.text());
    let feed = saved.json();
    assert!(feed["nextRunAt"].is_string());
    let feed_id = feed["id"].as_str().unwrap().to_string();
    let taken = admin
        .call(
            Method::POST,
            "/api/admin/feeds",
            Some(json!({"name": "Другой", "kind": "url", "url": format!("{base}/feed.csv")})),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    assert_eq!(taken.error(), "Этот адрес уже у фида «Склад»");

    let config = config_of(&app);
    let now = chrono::Utc::now();
    let runs = dealership::parser::run_schedule_if_due(&app.db, &config, now)
        .await
        .unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run.summary.status.as_str(), "applied");
    assert_eq!(run.summary.trigger.as_str(), "schedule");
    assert_eq!(run.summary.feed_id.as_deref(), Some(feed_id.as_str()));
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 2);
    // Not due again within the interval.
    assert!(
        dealership::parser::run_schedule_if_due(&app.db, &config, now)
            .await
            .unwrap()
            .is_empty()
    );
    let dashboard = admin
        .call(Method::GET, "/api/admin/dashboard", None)
        .await
        .json();
    assert_eq!(dashboard["importFailed"], Value::Null);

    // The feed disappears: the next run fails and the dashboard says so.
    let moved = admin
        .call(
            Method::PUT,
            &format!("/api/admin/feeds/{feed_id}"),
            Some(
                json!({"name": "Склад", "kind": "url", "url": format!("{base}/gone.csv"),
                "intervalHours": 6}),
            ),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text());
    let later = now + chrono::Duration::hours(7);
    let runs = dealership::parser::run_schedule_if_due(&app.db, &config, later)
        .await
        .unwrap();
    let run = &runs[0];
    assert_eq!(run.summary.status.as_str(), "failed");
    let dashboard = admin
        .call(Method::GET, "/api/admin/dashboard", None)
        .await
        .json();
    assert_eq!(dashboard["importFailed"]["id"], run.summary.id.as_str());
    assert!(
        dashboard["importFailed"]["error"]
            .as_str()
            .unwrap()
            .contains("404")
    );
    // Nothing was unpublished by a failed run.
    assert_eq!(
        count(&app, "SELECT count(*) FROM cars WHERE published = 1"),
        2
    );
    // The feed's history has both runs.
    let history = admin
        .call(
            Method::GET,
            &format!("/api/admin/imports?feedId={feed_id}"),
            None,
        )
        .await
        .json();
    assert_eq!(history["items"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_preview_can_be_discarded() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let run = admin.upload("stock.csv", &csv(&[JOLION])).await.json();
    let id = run["id"].as_str().unwrap();
    let gone = admin
        .call(Method::DELETE, &format!("/api/admin/imports/{id}"), None)
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    let refused = admin
        .call(
            Method::POST,
            &format!("/api/admin/imports/{id}/apply"),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let missing = admin
        .call(Method::GET, "/api/admin/imports/nope", None)
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 0);
}

/// A large preview's lists come a page at a time: the run's answer carries
/// the first 100 items of each and each list's size, the history its
/// counts, and `GET /api/admin/imports/{id}/items` the rest, in the feed's
/// order; applying it pages the same way.
#[tokio::test]
async fn a_large_preview_pages_its_lists() {
    let app = app();
    let admin = AdminSession::new(&app).await;
    let rows: Vec<String> = (0..130)
        .map(|i| {
            // Every car with a warning (no drive), every tenth a bad year.
            let year = if i % 10 == 9 { 1985 } else { 2024 };
            format!(
                "P-{i};;Haval;Jolion;{year};{};Новый;Кроссовер;Робот;;Бензин;1.5 л, 150 л.с.;0;;",
                2_000_000 + i
            )
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let commits_before = dealership::db::commits();
    let answer = admin.upload("big.csv", &csv(&rows)).await;
    let commits = dealership::db::commits() - commits_before;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    // Its 117 rows and about 250 report lines are one commit (a few more
    // for the upload's audit and the tests running beside this one), not
    // one each: each commit syncs the log and takes the writer's lock from
    // the leads.
    assert!(commits < 60, "the preview took {commits} commits");
    let run = answer.json();
    let id = run["id"].as_str().unwrap().to_string();
    assert_eq!(run["counts"]["new"], 117, "{}", run["counts"]);
    assert_eq!(run["counts"]["errors"], 13);
    assert_eq!(run["lists"]["new"], 117);
    assert_eq!(run["lists"]["errors"], 13);
    assert_eq!(run["new"].as_array().unwrap().len(), 100);
    assert_eq!(run["errors"].as_array().unwrap().len(), 13);
    assert_eq!(run["new"][0]["key"], "P-0");
    let warned = run["lists"]["warnings"].as_u64().unwrap();
    assert!(warned >= 117, "{}", run["lists"]);
    assert_eq!(run["warnings"].as_array().unwrap().len(), 100);

    // The history shows the counts without the lists.
    let history = admin.call(Method::GET, "/api/admin/imports", None).await;
    let listed = &history.json()["items"][0];
    assert_eq!(listed["counts"], run["counts"]);
    assert!(listed.get("new").is_none(), "{listed}");

    let page = admin
        .call(
            Method::GET,
            &format!("/api/admin/imports/{id}/items?list=new&offset=100"),
            None,
        )
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let page = page.json();
    assert_eq!(
        (
            page["list"].clone(),
            page["offset"].clone(),
            page["total"].clone()
        ),
        (json!("new"), json!(100), json!(117))
    );
    let keys: Vec<&str> = page["new"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    // The 117 new cars are P-0..P-129 but P-9, P-19, ...: the 101st is P-111.
    assert_eq!(keys.len(), 17);
    assert_eq!((keys[0], keys[16]), ("P-111", "P-128"));
    assert_eq!(page["errors"], json!([]));
    let rest = admin
        .call(
            Method::GET,
            &format!("/api/admin/imports/{id}/items?list=warnings&offset=100&limit=500"),
            None,
        )
        .await
        .json();
    assert_eq!(
        rest["warnings"].as_array().unwrap().len() as u64,
        warned - 100
    );
    for (query, status) in [
        ("list=cars", StatusCode::BAD_REQUEST),
        ("list=new&limit=501", StatusCode::BAD_REQUEST),
        ("list=new&limit=0", StatusCode::BAD_REQUEST),
    ] {
        let answer = admin
            .call(
                Method::GET,
                &format!("/api/admin/imports/{id}/items?{query}"),
                None,
            )
            .await;
        assert_eq!(answer.status, status, "{query}: {}", answer.text());
    }
    let unknown = admin
        .call(
            Method::GET,
            "/api/admin/imports/no-such-run/items?list=new",
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    // Applied, the report is the apply's, paged alike; the rows are gone.
    let applied = admin
        .call(
            Method::POST,
            &format!("/api/admin/imports/{id}/apply"),
            None,
        )
        .await;
    assert_eq!(applied.status, StatusCode::OK, "{}", applied.text());
    let applied = applied.json();
    assert_eq!(applied["lists"]["new"], 117);
    assert_eq!(applied["new"].as_array().unwrap().len(), 100);
    assert_eq!(count(&app, "SELECT count(*) FROM cars"), 117);
    assert_eq!(count(&app, "SELECT count(*) FROM import_run_rows"), 0);
}
