//! The server-rendered HTML shell of the public pages: head tags, JSON-LD,
//! embedded first-screen data, 404s, sitemap and robots.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{StatusCode, header};
use common::{Answer, TestApp, car_input};
use dealership::domain::brands::{self, BrandInput};
use dealership::domain::cars::{self, BodyType, CarStatus};
use dealership::domain::money::Money;
use serde_json::Value;
use std::collections::BTreeSet;

const BASE: &str = "http://localhost:8080";

/// Two brands; Haval has a new, a used and a draft car.
fn seed(app: &TestApp) -> String {
    let conn = app.db.conn().unwrap();
    let brand = |name: &str, slug: &str, description: &str| {
        brands::create(
            &conn,
            &BrandInput {
                name: name.into(),
                slug: slug.into(),
                logo: String::new(),
                description: description.into(),
            },
        )
        .unwrap()
        .id
    };
    let haval = brand("Haval", "haval", "Китайские кроссоверы </script><b>");
    brand("Lada", "lada", "");
    let mut new = car_input(&haval, "haval-jolion-new");
    new.price = Money::from_rubles(2_150_000);
    cars::create(&conn, &new, 2026).unwrap();
    let mut used = car_input(&haval, "haval-f7-used");
    used.name = "F7".into();
    used.model = "F7".into();
    used.status = CarStatus::Used;
    used.mileage = 45_000;
    cars::create(&conn, &used, 2026).unwrap();
    let mut draft = car_input(&haval, "haval-h9-draft");
    draft.published = false;
    cars::create(&conn, &draft, 2026).unwrap();
    haval
}

fn html(answer: &Answer) -> String {
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "text/html; charset=utf-8"
    );
    assert_eq!(answer.headers[header::CACHE_CONTROL], "no-cache");
    answer.text()
}

/// The content of `<meta property|name="{key}" content="…">`.
fn meta(html: &str, key: &str) -> Option<String> {
    for attr in ["property", "name"] {
        let marker = format!("<meta {attr}=\"{key}\" content=\"");
        if let Some(start) = html.find(&marker) {
            let rest = &html[start + marker.len()..];
            return Some(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    None
}

fn between<'a>(html: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = html.find(start)? + start.len();
    let to = html[from..].find(end)? + from;
    Some(&html[from..to])
}

fn title(html: &str) -> String {
    between(html, "<title>", "</title>").unwrap().to_string()
}

fn canonical(html: &str) -> Option<String> {
    between(html, "<link rel=\"canonical\" href=\"", "\"").map(str::to_string)
}

fn embedded(html: &str) -> Value {
    let text = between(
        html,
        "<script type=\"application/json\" id=\"preload-data\">",
        "</script>",
    )
    .expect("embedded data");
    serde_json::from_str(text).unwrap()
}

fn json_ld(html: &str) -> Option<Value> {
    between(html, "<script type=\"application/ld+json\">", "</script>")
        .map(|t| serde_json::from_str(t).unwrap())
}

#[tokio::test]
async fn home_has_default_head_and_first_screen_data() {
    let app = TestApp::new();
    seed(&app);
    let answer = app.get("/").await;
    assert_eq!(answer.status, StatusCode::OK);
    let page = html(&answer);
    assert!(page.starts_with("<!doctype html>"));
    assert!(page.contains("<html lang=\"ru\""));
    assert!(page.contains("<meta name=\"viewport\""));
    assert_eq!(title(&page), "Автосалон — автосалон в Санкт-Петербурге");
    assert!(
        meta(&page, "description")
            .unwrap()
            .contains("Санкт-Петербурге")
    );
    assert_eq!(canonical(&page).unwrap(), format!("{BASE}/"));
    assert_eq!(meta(&page, "og:url").unwrap(), format!("{BASE}/"));
    assert_eq!(meta(&page, "og:type").unwrap(), "website");
    assert_eq!(meta(&page, "og:locale").unwrap(), "ru_RU");
    assert!(meta(&page, "og:title").is_some());
    assert!(json_ld(&page).is_none());
    let data = embedded(&page);
    assert_eq!(data["/api/settings"]["salonName"], "Автосалон");
    // Lada has no car: not listed (docs/catalogue.md, "Brands on the site").
    assert_eq!(data["/api/brands/fast"].as_array().unwrap().len(), 1);
    let featured = &data["/api/cars/fast?featured=true&status=new,used&limit=12"];
    assert!(featured.is_array());
    let catalogue = data["/api/cars/fast?status=new,used&limit=12"]
        .as_array()
        .unwrap();
    assert_eq!(catalogue.len(), 2, "drafts stay out");
    assert!(data["/api/reviews?approved=true"].is_array());
    assert!(data["/api/promotions?active=true"].is_array());
    assert!(data["/api/body-types"].is_array());
}

#[tokio::test]
async fn every_public_route_has_its_own_title_and_canonical_link() {
    let app = TestApp::new();
    seed(&app);
    let pages = [
        ("/new-cars", "Новые автомобили — Автосалон"),
        ("/used-cars", "Автомобили с пробегом — Автосалон"),
        ("/lease-cars", "Аренда с выкупом — Автосалон"),
        ("/trade-in", "Трейд-ин — Автосалон"),
        ("/auto-credit", "Автокредит — Автосалон"),
        ("/auto-selection", "Подбор автомобиля — Автосалон"),
        ("/body-type/crossover", "Кроссоверы — Автосалон"),
        ("/body-type/coupe", "Внедорожники — Автосалон"),
        ("/brand/haval", "Автомобили Haval — Автосалон"),
        (
            "/consent",
            "Согласие на обработку персональных данных — Автосалон",
        ),
        (
            "/privacy",
            "Политика обработки персональных данных — Автосалон",
        ),
    ];
    let mut descriptions = std::collections::HashSet::new();
    for (path, expected) in pages {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        let page = html(&answer);
        assert_eq!(title(&page), expected, "{path}");
        assert_eq!(canonical(&page).unwrap(), format!("{BASE}{path}"));
        assert_eq!(
            meta(&page, "og:title").unwrap(),
            expected.replace(" — Автосалон", "")
        );
        descriptions.insert(meta(&page, "description").unwrap());
    }
    assert_eq!(
        descriptions.len(),
        pages.len(),
        "each page describes itself"
    );
}

#[tokio::test]
async fn car_page_carries_json_ld_with_an_offer_in_rubles() {
    let app = TestApp::new();
    seed(&app);
    let page = html(&app.get("/car/haval-jolion-new").await);
    assert_eq!(title(&page), "Haval Jolion — Автосалон");
    let description = meta(&page, "description").unwrap();
    assert!(
        description.contains("от 2\u{a0}150\u{a0}000 ₽"),
        "{description}"
    );
    assert_eq!(meta(&page, "og:type").unwrap(), "product");
    assert_eq!(
        meta(&page, "og:image").unwrap(),
        format!("{BASE}/media/aaaa-800.webp")
    );
    // A picture that is not in the media store: no size is claimed.
    assert!(meta(&page, "og:image:width").is_none());
    assert!(meta(&page, "og:image:height").is_none());
    assert!(page.contains("imagesrcset=\"/media/aaaa-400.webp 400w, /media/aaaa-800.webp 800w, /media/aaaa-1600.webp 1600w\""));
    let ld = json_ld(&page).expect("JSON-LD");
    assert_eq!(ld["@context"], "https://schema.org");
    assert_eq!(ld["@type"], "Car");
    assert_eq!(ld["brand"]["@type"], "Brand");
    assert_eq!(ld["brand"]["name"], "Haval");
    assert_eq!(ld["model"], "Jolion");
    assert_eq!(ld["vehicleModelDate"], "2025");
    assert_eq!(ld["itemCondition"], "https://schema.org/NewCondition");
    assert_eq!(ld["image"], format!("{BASE}/media/aaaa-800.webp"));
    assert_eq!(ld["offers"]["@type"], "Offer");
    assert_eq!(ld["offers"]["price"], "2150000.00");
    assert_eq!(ld["offers"]["priceCurrency"], "RUB");
    assert_eq!(ld["offers"]["url"], format!("{BASE}/car/haval-jolion-new"));
    let data = embedded(&page);
    assert_eq!(
        data["/api/cars/slug/haval-jolion-new"]["slug"],
        "haval-jolion-new"
    );
    assert!(data["/api/cars/body-type/crossover/fast?limit=5"].is_array());

    let used = html(&app.get("/car/haval-f7-used").await);
    let ld = json_ld(&used).unwrap();
    assert_eq!(ld["itemCondition"], "https://schema.org/UsedCondition");
    assert_eq!(ld["mileageFromOdometer"]["value"], 45_000);
}

#[tokio::test]
async fn missing_and_draft_cars_answer_404_with_the_not_found_page() {
    let app = TestApp::new();
    seed(&app);
    for path in ["/car/no-such-car", "/car/haval-h9-draft"] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        let page = html(&answer);
        assert!(title(&page).starts_with("Автомобиль не найден"));
        assert_eq!(
            meta(&page, "description").unwrap(),
            "Автомобиль с таким идентификатором не существует"
        );
        assert_eq!(meta(&page, "robots").unwrap(), "noindex, nofollow");
        assert!(json_ld(&page).is_none());
        let key = format!("/api/cars/slug/{}", &path[5..]);
        assert!(embedded(&page)[&key].is_null(), "a known 404 for the UI");
    }
}

#[tokio::test]
async fn missing_brands_body_types_and_unknown_paths_answer_404() {
    let app = TestApp::new();
    seed(&app);
    let answer = app.get("/brand/no-such-brand").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let page = html(&answer);
    assert!(title(&page).starts_with("Марка не найдена"));
    assert_eq!(
        meta(&page, "description").unwrap(),
        "Марка с таким идентификатором не существует"
    );
    for path in ["/no/such/page", "/body-type/tank", "/new-cars/extra"] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        let page = html(&answer);
        assert_eq!(
            meta(&page, "description").unwrap(),
            "Такой страницы нет. Возможно, она была удалена или адрес набран с ошибкой."
        );
    }
    // The API keeps its JSON 404.
    let api = app.get("/api/no-such-endpoint").await;
    assert_eq!(api.status, StatusCode::NOT_FOUND);
    assert!(api.json()["error"].is_string());
}

#[tokio::test]
async fn embedded_data_cannot_close_its_script_element() {
    let app = TestApp::new();
    seed(&app);
    let page = html(&app.get("/brand/haval").await);
    assert!(!page.contains("</script><b>"));
    let data = embedded(&page);
    assert_eq!(
        data["/api/brands/slug/haval"]["description"],
        "Китайские кроссоверы </script><b>"
    );
    // The description meta is HTML-escaped.
    assert!(
        page.contains("Китайские кроссоверы &#60;/script&#62;&#60;b&#62;")
            || page.contains("Китайские кроссоверы &lt;/script&gt;&lt;b&gt;")
    );
}

#[tokio::test]
async fn new_cars_embeds_the_list_its_url_asks_for() {
    let app = TestApp::new();
    let haval = seed(&app);
    let page = html(
        &app.get("/new-cars?brand=haval&body=crossover&price=3000000&page=1")
            .await,
    );
    let data = embedded(&page);
    let key = format!(
        "/api/cars/fast?status=new&brandId={haval}&bodyType=crossover&maxPrice=3000000&limit=20&offset=0"
    );
    assert_eq!(data[&key].as_array().unwrap().len(), 1, "{data}");
    let count =
        format!("/api/cars/count?status=new&brandId={haval}&bodyType=crossover&maxPrice=3000000");
    assert_eq!(data[&count]["count"], 1);
    // The canonical link leaves the filters out.
    assert_eq!(canonical(&page).unwrap(), format!("{BASE}/new-cars"));
    let plain = embedded(&html(&app.get("/new-cars").await));
    assert!(plain["/api/cars/fast?status=new&limit=20&offset=0"].is_array());
    assert_eq!(plain["/api/cars/count?status=new"]["count"], 1);
}

#[tokio::test]
async fn sitemap_lists_pages_published_cars_brands_and_body_types() {
    let app = TestApp::new();
    seed(&app);
    let answer = app.get("/sitemap.xml").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "application/xml; charset=utf-8"
    );
    let xml = answer.text();
    assert!(xml.starts_with("<?xml"));
    for path in [
        "/",
        "/new-cars",
        "/used-cars",
        "/lease-cars",
        "/trade-in",
        "/auto-credit",
        "/auto-selection",
        "/consent",
        "/privacy",
        "/car/haval-jolion-new",
        "/car/haval-f7-used",
        "/brand/haval",
        "/body-type/sedan",
        "/body-type/pickup",
    ] {
        assert!(
            xml.contains(&format!("<loc>{BASE}{path}</loc>")),
            "{path} missing"
        );
    }
    assert!(!xml.contains("haval-h9-draft"), "drafts stay out");
    assert!(
        !xml.contains("/brand/lada"),
        "a brand without a car stays out"
    );
    assert!(!xml.contains("/admin"));
}

#[tokio::test]
async fn the_sitemap_is_kept_once_whatever_its_query_and_changes_with_the_cars() {
    let app = TestApp::new();
    seed(&app);
    let first = app.get("/sitemap.xml").await.text();
    assert!(!first.contains("haval-h9-draft"));
    // A stranger's queries ask the database no more: the kept sitemap.
    let hits = app.answers.stats().hits;
    for query in ["?a=1", "?page=2", "?x=y&z=w"] {
        let answer = app.get(&format!("/sitemap.xml{query}")).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.text(), first, "{query}");
    }
    assert_eq!(app.answers.stats().hits, hits + 3);
    // A car published: the next sitemap lists it.
    app.db
        .conn()
        .unwrap()
        .execute(
            "UPDATE cars SET published = 1 WHERE slug = 'haval-h9-draft'",
            [],
        )
        .unwrap();
    let now = app.get("/sitemap.xml?a=1").await.text();
    assert!(
        now.contains(&format!("<loc>{BASE}/car/haval-h9-draft</loc>")),
        "{now}"
    );
}

#[tokio::test]
async fn favorites_and_compare_are_not_indexed_nor_in_the_sitemap() {
    let app = TestApp::new();
    seed(&app);
    for (path, expected) in [
        ("/favorites", "Избранное — Автосалон"),
        ("/compare", "Сравнение автомобилей — Автосалон"),
        (
            "/compare?cars=haval-jolion-new,haval-f7-used",
            "Сравнение автомобилей — Автосалон",
        ),
    ] {
        let answer = app.get(path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        let page = html(&answer);
        assert_eq!(title(&page), expected, "{path}");
        assert_eq!(
            meta(&page, "robots").unwrap(),
            "noindex, nofollow",
            "{path}"
        );
        // Not indexed, so no canonical address either (the two would
        // contradict each other for a search engine).
        assert_eq!(canonical(&page), None, "{path}");
        assert!(embedded(&page)["/api/settings"].is_object(), "{path}");
    }
    let xml = app.get("/sitemap.xml").await.text();
    assert!(!xml.contains("/favorites"));
    assert!(!xml.contains("/compare"));
}

#[tokio::test]
async fn robots_keeps_admin_out_and_points_to_the_sitemap() {
    let app = TestApp::new();
    let answer = app.get("/robots.txt").await;
    assert_eq!(answer.status, StatusCode::OK);
    let text = answer.text();
    assert!(text.contains("User-agent: *"));
    assert!(text.contains("Disallow: /admin"));
    assert!(text.contains(&format!("Sitemap: {BASE}/sitemap.xml")));
}

#[tokio::test]
async fn admin_shell_is_not_indexed_and_favicon_has_a_default() {
    let app = TestApp::new();
    let answer = app.get("/admin/cars").await;
    assert_eq!(answer.status, StatusCode::OK);
    let page = html(&answer);
    assert_eq!(meta(&page, "robots").unwrap(), "noindex, nofollow");
    let icon = app.get("/favicon.svg").await;
    assert_eq!(icon.status, StatusCode::OK);
    assert_eq!(icon.headers[header::CONTENT_TYPE], "image/svg+xml");
    let ico = app.get("/favicon.ico").await;
    assert!(ico.status.is_redirection());
    assert_eq!(
        app.get("/assets/no-such-file.js").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn pages_carry_the_content_security_policy() {
    let app = TestApp::new();
    let answer = app.get("/").await;
    let csp = answer.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    assert!(csp.contains("script-src 'self'"));
    // No inline executable script but JSON data blocks and the loader of the
    // page's code, which the policy allows by its hash (tests/pages_rendered.rs
    // checks the hash).
    let page = answer.text();
    let mut loaders = 0;
    for (i, _) in page.match_indices("<script") {
        let tag = &page[i..i + page[i..].find('>').unwrap()];
        if tag.starts_with("<script data-entry=") {
            loaders += 1;
            continue;
        }
        assert!(
            tag.contains("type=\"application/json\"")
                || tag.contains("type=\"application/ld+json\"")
                || tag.contains("src=\""),
            "inline script: {tag}"
        );
    }
    assert_eq!(loaders, 1);
    assert!(csp.contains("'sha256-"), "{csp}");
}

#[tokio::test]
async fn the_first_screens_largest_picture_is_preloaded() {
    let app = TestApp::new();
    seed(&app);
    {
        let conn = app.db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.public.banners.home_banner = "/media/hero-800.webp".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    }
    let page = html(&app.get("/").await);
    assert!(page.contains(
        "<link rel=\"preload\" as=\"image\" href=\"/media/hero-800.webp\" \
         imagesrcset=\"/media/hero-400.webp 400w, /media/hero-800.webp 800w, /media/hero-1600.webp 1600w\" \
         imagesizes=\"100vw\" media=\"(min-width: 768px)\" fetchpriority=\"high\">"
    ));
    // No mobile banner: phones get the desktop one.
    assert!(page.contains("media=\"(max-width: 767px)\""));
    // Without a banner, a catalogue preloads its first card's picture.
    let page = html(&app.get("/new-cars").await);
    assert!(page.contains("<link rel=\"preload\" as=\"image\" href=\"/media/aaaa-800.webp\""));
    assert_eq!(
        page.matches("<link rel=\"preload\" as=\"image\"").count(),
        1
    );
    // A body type's page: its first card on phones (on their first screen,
    // larger than the short banner), its banner on wider screens.
    {
        let conn = app.db.conn().unwrap();
        dealership::domain::body_types::set_images(
            &conn,
            &BodyType::CROSSOVER,
            "/media/wide-800.webp",
            "/media/narrow-800.webp",
        )
        .unwrap();
    }
    let page = html(&app.get("/body-type/crossover").await);
    let preloads: Vec<&str> = page
        .match_indices("<link rel=\"preload\" as=\"image\"")
        .map(|(i, _)| &page[i..i + page[i..].find('>').unwrap()])
        .collect();
    assert_eq!(preloads.len(), 2, "{preloads:?}");
    assert!(
        preloads[0].contains("href=\"/media/aaaa-800.webp\""),
        "{preloads:?}"
    );
    assert!(
        preloads[0].contains("media=\"(max-width: 767px)\""),
        "{preloads:?}"
    );
    assert!(
        preloads[1].contains("href=\"/media/wide-800.webp\""),
        "{preloads:?}"
    );
    assert!(
        preloads[1].contains("media=\"(min-width: 768px)\""),
        "{preloads:?}"
    );
}

/// A page names its default icon as a `data:` URL: no request for it beside
/// the first screen's picture (docs/rendering.md).
#[tokio::test]
async fn the_default_icon_is_written_into_the_page() {
    let app = TestApp::new();
    let page = html(&app.get("/consent").await);
    let icon = page
        .split("<link rel=\"icon\" href=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    assert!(
        icon.starts_with("data:image/svg+xml,%3Csvg xmlns=&#39;http://www.w3.org/2000/svg&#39;"),
        "{icon}"
    );
    // The salon's own icon, once set, is linked.
    {
        let conn = app.db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.public.favicon = "/media/icon.png".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    }
    let page = html(&app.get("/privacy").await);
    assert!(page.contains("<link rel=\"icon\" href=\"/media/icon.png\">"));
}

/// The keys of a page's embedded data.
fn embedded_keys(html: &str) -> BTreeSet<String> {
    embedded(html)
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

/// tests/fixtures/catalogue-urls.json: the UI's unit tests read it too, and
/// check that the UI asks for exactly these URLs (docs/catalogue.md).
#[tokio::test]
async fn pages_embed_the_urls_of_the_shared_examples() {
    let fixture: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/catalogue-urls.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let app = TestApp::new();
    // The fixture's brand ids stand for the ones the database makes.
    let mut ids = Vec::new();
    {
        let conn = app.db.conn().unwrap();
        for brand in fixture["brands"].as_array().unwrap() {
            let made = brands::create(
                &conn,
                &BrandInput {
                    name: brand["name"].as_str().unwrap().into(),
                    slug: brand["slug"].as_str().unwrap().into(),
                    logo: String::new(),
                    description: String::new(),
                },
            )
            .unwrap();
            ids.push((brand["id"].as_str().unwrap().to_string(), made));
        }
        for car in fixture["cars"].as_array().unwrap() {
            let (_, brand) = ids
                .iter()
                .find(|(_, b)| b.slug == car["brand"].as_str().unwrap())
                .unwrap();
            let mut input = car_input(&brand.id, car["slug"].as_str().unwrap());
            input.body_type = BodyType::parse(car["bodyType"].as_str().unwrap()).unwrap();
            input.status = CarStatus::parse(car["status"].as_str().unwrap()).unwrap();
            input.model = car["model"].as_str().unwrap().into();
            cars::create(&conn, &input, 2026).unwrap();
        }
    }
    let pages = fixture["pages"].as_array().unwrap();
    assert!(pages.len() >= 20);
    for example in pages {
        let url = example["page"].as_str().unwrap();
        let expected: BTreeSet<String> = example["api"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                let mut u = u.as_str().unwrap().to_string();
                for (fixture_id, brand) in &ids {
                    u = u.replace(fixture_id, &brand.id);
                }
                u
            })
            .collect();
        let answer = app.get(url).await;
        assert_eq!(embedded_keys(&html(&answer)), expected, "{url}");
        // The UI reads these URLs as they are: public reads refuse
        // parameters they do not declare, so each must be declared.
        for api in &expected {
            let status = app.get(api).await.status;
            assert!(
                status == StatusCode::OK || status == StatusCode::NOT_FOUND,
                "{url}: {api} answered {status}"
            );
        }
    }
}

/// The server applies a catalogue page's filters (the browser never gets a
/// whole list to filter): brand, body type, condition and price, a page at a
/// time.
#[tokio::test]
async fn catalogue_pages_filter_and_page_on_the_server() {
    let app = TestApp::new();
    let lada = {
        let conn = app.db.conn().unwrap();
        let brand = |name: &str, slug: &str| {
            brands::create(
                &conn,
                &BrandInput {
                    name: name.into(),
                    slug: slug.into(),
                    logo: String::new(),
                    description: String::new(),
                },
            )
            .unwrap()
            .id
        };
        let (haval, lada) = (brand("Haval", "haval"), brand("Lada", "lada"));
        let car = |brand: &str, slug: &str, status: CarStatus, price: i64, body: BodyType| {
            let mut input = car_input(brand, slug);
            input.status = status;
            input.price = Money::from_rubles(price);
            input.body_type = body;
            cars::create(&conn, &input, 2026).unwrap();
        };
        car(
            &haval,
            "h-new",
            CarStatus::New,
            2_000_000,
            BodyType::CROSSOVER,
        );
        car(&haval, "h-used", CarStatus::Used, 900_000, BodyType::SEDAN);
        car(&lada, "l-new", CarStatus::New, 1_200_000, BodyType::SEDAN);
        car(
            &lada,
            "l-lease",
            CarStatus::Lease,
            1_900_000,
            BodyType::SEDAN,
        );
        lada
    };
    /// The slugs of the page's desktop batch and its count.
    async fn listed(app: &TestApp, url: &str) -> (Vec<String>, i64) {
        let data = embedded(&html(&app.get(url).await));
        let object = data.as_object().unwrap();
        let (_, list) = object
            .iter()
            .find(|(k, _)| k.starts_with("/api/cars/fast?"))
            .unwrap_or_else(|| panic!("{url}: no list"));
        let (_, count) = object
            .iter()
            .find(|(k, _)| k.starts_with("/api/cars/count"))
            .unwrap();
        let mut slugs: Vec<String> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["slug"].as_str().unwrap().to_string())
            .collect();
        slugs.sort();
        (slugs, count["count"].as_i64().unwrap())
    }
    let both = |slugs: &[&str]| -> (Vec<String>, i64) {
        let mut v: Vec<String> = slugs.iter().map(|s| s.to_string()).collect();
        v.sort();
        let n = v.len() as i64;
        (v, n)
    };
    // Every status of a body type, then narrowed by brand, condition, price.
    assert_eq!(
        listed(&app, "/body-type/sedan").await,
        both(&["h-used", "l-new", "l-lease"])
    );
    assert_eq!(
        listed(&app, "/body-type/sedan?brand=lada").await,
        both(&["l-new", "l-lease"])
    );
    assert_eq!(
        listed(&app, "/body-type/sedan?condition=used").await,
        both(&["h-used"])
    );
    // The price is an upper bound, inclusive.
    assert_eq!(
        listed(&app, "/body-type/sedan?price=1200000").await,
        both(&["h-used", "l-new"])
    );
    assert_eq!(
        listed(&app, "/new-cars?body=crossover").await,
        both(&["h-new"])
    );
    assert_eq!(
        listed(&app, "/new-cars?brand=haval").await,
        both(&["h-new"])
    );
    assert_eq!(listed(&app, "/used-cars").await, both(&["h-used"]));

    // 25 more used cars: page 2 holds the last 6 on desktop; a phone's page 2
    // (cars 10..19) lies in the first batch, also embedded.
    {
        let conn = app.db.conn().unwrap();
        for i in 0..25 {
            let mut input = car_input(&lada, &format!("l-used-{i:02}"));
            input.status = CarStatus::Used;
            cars::create(&conn, &input, 2026).unwrap();
        }
    }
    let page = html(&app.get("/used-cars?page=2").await);
    let data = embedded(&page);
    assert_eq!(
        data["/api/cars/fast?status=used&limit=20&offset=20"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    assert_eq!(
        data["/api/cars/fast?status=used&limit=20&offset=0"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
    assert_eq!(data["/api/cars/count?status=used"]["count"], 26);
}

/// A stored picture keeps its proportions: the car page names the 800 px
/// variant's width and height, both (issue 23, item 13).
#[tokio::test]
async fn the_car_pages_picture_has_its_width_and_height() {
    let app = TestApp::new();
    seed(&app);
    let conn = app.db.conn().unwrap();
    let picture = image::RgbImage::from_pixel(1200, 675, image::Rgb([90, 120, 200]));
    let mut png = std::io::Cursor::new(Vec::new());
    picture.write_to(&mut png, image::ImageFormat::Png).unwrap();
    let stored =
        dealership::media::store_image(&conn, &app.dir.path().join("media"), png.get_ref())
            .unwrap();
    let car = cars::get_by_slug(&conn, "haval-jolion-new", true)
        .unwrap()
        .unwrap();
    cars::set_images(&conn, &car.id, std::slice::from_ref(&stored.url)).unwrap();
    drop(conn);
    let page = html(&app.get("/car/haval-jolion-new").await);
    assert_eq!(
        meta(&page, "og:image").unwrap(),
        format!("{BASE}{}", stored.url)
    );
    assert_eq!(meta(&page, "og:image:width").unwrap(), "800");
    assert_eq!(meta(&page, "og:image:height").unwrap(), "450");
    assert_eq!(meta(&page, "og:image:type").unwrap(), "image/webp");
}

/// The settings and the body types every page embeds are read once per
/// content version (`http::held::page_basics`): a change shows on the next
/// page, whichever it is.
#[tokio::test]
async fn what_every_page_embeds_is_read_again_after_a_change() {
    let app = TestApp::new();
    let haval = seed(&app);
    let counts = |data: &Value| -> Vec<(String, i64)> {
        data["/api/body-types"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["bodyType"].as_str().unwrap().to_string(),
                    t["carCount"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    let crossovers = |data: &Value| {
        counts(data)
            .into_iter()
            .find(|(body, _)| body == "crossover")
            .map(|(_, n)| n)
            .unwrap()
    };
    let first = embedded(&html(&app.get("/used-cars").await));
    let before = crossovers(&first);
    // A stranger's unknown address embeds the kept settings too.
    let missing = app.get("/no-such-page").await;
    assert_eq!(missing.status, 404);
    assert_eq!(
        embedded(&html(&missing))["/api/settings"],
        first["/api/settings"]
    );
    // Read once: another page at the same version embeds the same.
    let other = embedded(&html(&app.get("/new-cars").await));
    assert_eq!(counts(&other), counts(&first));
    {
        let conn = app.db.conn().unwrap();
        let mut more = car_input(&haval, "haval-dargo-used");
        more.status = CarStatus::Used;
        more.mileage = 12_000;
        more.body_type = BodyType::CROSSOVER;
        cars::create(&conn, &more, 2026).unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.public.salon_name = "Хавал Центр".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    }
    for url in [
        "/used-cars",
        "/new-cars?page=1",
        "/consent",
        "/no-such-page",
    ] {
        let data = embedded(&html(&app.get(url).await));
        assert_eq!(data["/api/settings"]["salonName"], "Хавал Центр", "{url}");
        if url.ends_with("-cars") || url.contains("-cars?") {
            assert_eq!(crossovers(&data), before + 1, "{url}");
        }
    }
}
