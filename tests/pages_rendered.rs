//! Pages that arrive rendered (`docs/rendering.md`): each public route's
//! HTML, fetched as a crawler fetches it, holds the page itself (heading,
//! prices, specs, links, pages as real links), drawn on the server by the
//! UI's own components (`ui/dist-server/render.js` in QuickJS); the answer
//! cache keeps one drawing per URL and content version, and parameters no
//! page reads make no new entry.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::StatusCode;
use common::{
    TestApp, app_markup, car_input, needs_the_server_build, seed_catalogue, seed_tanks,
    visible_text as text,
};
use dealership::domain::cars::{self, CarStatus};
use dealership::domain::money::Money;

/// Every `href` of the markup.
fn links(markup: &str) -> Vec<String> {
    markup
        .split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|href| href.replace("&amp;", "&"))
        .collect()
}

fn h1(markup: &str) -> String {
    let start = markup.find("<h1").expect("a heading");
    let end = markup[start..].find("</h1>").unwrap() + start;
    text(&markup[start..end + 5])
}

#[tokio::test]
async fn every_public_route_arrives_with_its_content() {
    needs_the_server_build();
    let app = TestApp::new();
    seed_catalogue(&app);
    let new_car = cars::list(
        &app.db.conn().unwrap(),
        &cars::CarFilter {
            statuses: vec![CarStatus::New],
            ..Default::default()
        },
        1,
        0,
        &dealership::domain::credit_payment::CreditRule::new(Vec::new()),
    )
    .unwrap()
    .remove(0);
    let new_car_price = format!("{} ₽", dealership_rubles(new_car.price));

    // (route, heading, texts on the page, links on the page)
    let pages: Vec<(String, String, Vec<String>, Vec<String>)> = vec![
        (
            "/new-cars".into(),
            "Новые автомобили".into(),
            vec![new_car_price.clone(), "Найдено:".into()],
            vec![format!("/car/{}", new_car.slug), "/used-cars".into()],
        ),
        (
            "/used-cars".into(),
            "Автомобили с пробегом".into(),
            vec!["1 750 000 ₽".into(), "Год 2021".into()],
            vec!["/car/haval-f7-used".into()],
        ),
        (
            "/lease-cars".into(),
            "Аренда с выкупом".into(),
            vec!["M6".into(), "2 900 ₽/сут".into()],
            vec!["/car/haval-m6-lease".into()],
        ),
        (
            "/car/haval-f7-used".into(),
            "Haval F7".into(),
            vec!["1 750 000 ₽".into(), "45 000 км".into(), "2021".into()],
            vec!["/used-cars".into()],
        ),
        (
            "/brand/haval".into(),
            "Haval".into(),
            vec!["F7".into()],
            vec!["/car/haval-f7-used".into()],
        ),
        (
            "/body-type/crossover".into(),
            "Кроссоверы".into(),
            vec!["Найдено:".into(), "2 500 000 ₽".into()],
            vec!["/car/haval-jolion-1".into()],
        ),
        ("/trade-in".into(), "Трейд-ин".into(), vec![], vec![]),
        (
            "/auto-credit".into(),
            "Автокредит".into(),
            vec!["Сбербанк".into()],
            vec![],
        ),
        (
            "/auto-selection".into(),
            "Подбор автомобиля".into(),
            vec![],
            vec![],
        ),
        ("/favorites".into(), "Избранное".into(), vec![], vec![]),
        (
            "/compare".into(),
            "Сравнение автомобилей".into(),
            vec![],
            vec![],
        ),
    ];
    for (route, heading, texts, hrefs) in pages {
        let answer = app.get(&route).await;
        assert_eq!(answer.status, StatusCode::OK, "{route}");
        let html = answer.text();
        let markup = app_markup(&html);
        assert_eq!(h1(markup), heading, "{route}: the heading");
        let shown = text(markup);
        for expected in texts {
            assert!(
                shown.contains(&expected),
                "{route}: no {expected:?} in {shown}"
            );
        }
        let found = links(markup);
        for expected in hrefs {
            assert!(found.contains(&expected), "{route}: no link to {expected}");
        }
        // Every page has the header's links and the salon's phone as a link.
        for nav in [
            "/new-cars",
            "/used-cars",
            "/lease-cars",
            "/trade-in",
            "/auto-credit",
        ] {
            assert!(
                found.iter().any(|l| l == nav),
                "{route}: no menu link {nav}"
            );
        }
        assert!(
            !html.contains("Для работы сайта включите JavaScript"),
            "{route}"
        );
    }

    // The car page's photos come with their width variants.
    let car = app.get("/car/haval-f7-used").await.text();
    assert!(
        app_markup(&car).contains("/media/aaaa-400.webp 400w, /media/aaaa-800.webp 800w"),
        "the car's photo has its srcset"
    );

    // The home page: the offers, the cars, the body types as links.
    let home = app.get("/").await.text();
    let markup = app_markup(&home);
    let shown = text(markup);
    assert!(shown.contains("Скидка 10%"), "{shown}");
    assert!(shown.contains(&new_car_price), "{shown}");
    assert!(links(markup).iter().any(|l| l.starts_with("/car/")));
}

/// "2 150 000" as the UI prints rubles.
fn dealership_rubles(money: Money) -> String {
    let digits = money.rubles().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(ch);
    }
    out
}

#[tokio::test]
async fn unknown_pages_arrive_rendered_with_status_404() {
    needs_the_server_build();
    let app = TestApp::new();
    seed_catalogue(&app);
    for (route, says) in [
        ("/car/no-such-car", "Автомобиль не найден"),
        ("/brand/no-such-brand", "Марка не найдена"),
        ("/no/such/page", "404"),
    ] {
        let answer = app.get(route).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{route}");
        let html = answer.text();
        let markup = app_markup(&html);
        assert!(h1(markup).contains(says), "{route}: {}", text(markup));
        assert!(links(markup).contains(&"/".to_string()), "{route}");
    }
}

#[tokio::test]
async fn catalogue_pages_are_real_links() {
    needs_the_server_build();
    let app = TestApp::new();
    let seeded = seed_catalogue(&app);
    seed_tanks(&app, &seeded.haval);

    let first = app.get("/new-cars").await.text();
    let markup = app_markup(&first);
    let found = links(markup);
    assert!(found.contains(&"/new-cars?page=2".to_string()), "{found:?}");
    // Brands filter by link too.
    assert!(
        found.contains(&"/new-cars?brand=haval".to_string()),
        "{found:?}"
    );

    let second = app.get("/new-cars?page=2").await.text();
    let markup = app_markup(&second);
    let found = links(markup);
    assert!(found.contains(&"/new-cars".to_string()), "{found:?}");
    let cars_on_page: Vec<_> = found
        .iter()
        .filter(|l| l.starts_with("/car/tank-"))
        .collect();
    assert!(!cars_on_page.is_empty(), "page 2 shows cars: {found:?}");
    assert!(
        markup.contains("aria-current=\"page\" aria-label=\"Страница 2\""),
        "page 2 is the current one"
    );

    // A brand's link shows that brand's cars only.
    let haval = app.get("/new-cars?brand=lada").await.text();
    assert!(
        !links(app_markup(&haval))
            .iter()
            .any(|l| l.starts_with("/car/tank-"))
    );
}

#[tokio::test]
async fn a_drawn_page_is_kept_once_whatever_else_its_address_carries() {
    needs_the_server_build();
    let app = TestApp::new();
    seed_catalogue(&app);
    let first = app.get("/new-cars").await;
    assert_eq!(first.status, StatusCode::OK);
    let entries = app.answers.entry_count();
    for junk in [
        "/new-cars?utm_source=yandex",
        "/new-cars?utm_source=vk&utm_campaign=x&yclid=42",
        "/new-cars?fbclid=1",
    ] {
        let answer = app.get(junk).await;
        assert_eq!(answer.status, StatusCode::OK, "{junk}");
        assert_eq!(answer.text(), first.text(), "{junk} is the same page");
    }
    assert_eq!(app.answers.entry_count(), entries);
    let stats = app.answers.stats();
    assert!(stats.hits >= 3, "{stats:?}");

    // A change to the catalogue draws the page again.
    let conn = app.db.conn().unwrap();
    let brand = dealership::domain::brands::list_brief(&conn).unwrap()[0]
        .id
        .clone();
    let mut car = car_input(&brand, "brand-new-one");
    car.name = "Новинка".into();
    cars::create(&conn, &car, 2026).unwrap();
    drop(conn);
    let after = app.get("/new-cars").await.text();
    assert!(text(app_markup(&after)).contains("Новинка"));
}

#[tokio::test]
async fn a_cars_card_is_drawn_once_and_drawn_again_when_the_car_changes() {
    needs_the_server_build();
    let mut renderer = None;
    let app = TestApp::with_state(|state| renderer = Some(state.renderer.clone()));
    let renderer = renderer.unwrap();
    let seeded = seed_catalogue(&app);
    seed_tanks(&app, &seeded.haval);

    let first = app.get("/new-cars").await.text();
    let store = renderer.fragments().expect("a fragment store");
    let drawn = store.stats();
    assert!(drawn.misses >= 20 && drawn.entries >= 20, "{drawn:?}");

    // Another address of the same list (any price is no filter): a new
    // page for the answer cache, its grid (the same answer, so the same
    // digest) from the fragment store as one piece, the same markup.
    let second = app.get("/new-cars?price=10000000").await.text();
    assert_eq!(app_markup(&second), app_markup(&first));
    let reused = store.stats();
    assert!(reused.hits > drawn.hits, "{reused:?}");
    assert!(
        reused.misses < drawn.misses + 5,
        "no card drawn again: {reused:?}"
    );

    // A new price is a new card: never the old drawing.
    let conn = app.db.conn().unwrap();
    let tank = cars::get_by_slug(&conn, "tank-24", false).unwrap().unwrap();
    let mut input = car_input(&seeded.haval, "tank-24");
    input.name = "Tank 24".into();
    input.model = "Tank".into();
    input.price = Money::from_rubles(3_456_000);
    cars::update(&conn, &tank.id, &input, 2026).unwrap();
    drop(conn);
    let before = store.stats();
    let after = app.get("/new-cars").await.text();
    // A new list: its grid is drawn again, with every card but the changed
    // one from the store.
    let redrawn = store.stats();
    assert!(redrawn.hits >= before.hits + 19, "{redrawn:?}");
    assert!(redrawn.misses < before.misses + 5, "{redrawn:?}");
    let shown = text(app_markup(&after));
    assert!(shown.contains("3 456 000 ₽"), "{shown}");
    assert!(
        !shown.contains("3 240 000 ₽"),
        "the old price of tank-24: {shown}"
    );
}

#[tokio::test]
async fn a_page_carries_its_styles_and_waits_for_no_stylesheet() {
    needs_the_server_build();
    let app = TestApp::new();
    for path in ["/", "/new-cars", "/trade-in", "/admin"] {
        let html = app.get(path).await.text();
        let head = &html[..html.find("</head>").expect("a head")];
        // Every stylesheet link is disabled (named for the UI's chunk
        // loader, never fetched): none holds the first paint.
        let links = head.matches(r#"rel="stylesheet""#).count();
        let disabled = head.matches(r#"" disabled>"#).count();
        assert!(links > 0, "{path}: the written sheets are not named");
        assert_eq!(
            links, disabled,
            "{path}: a linked stylesheet holds the first paint"
        );
        assert!(
            head.contains("<style>") && head.contains("--pico-primary"),
            "{path}: the site's styles are not in the page"
        );
    }
}

#[tokio::test]
async fn the_admin_shell_is_not_drawn_on_the_server() {
    let app = TestApp::new();
    let html = app.get("/admin").await.text();
    assert!(
        text(app_markup(&html)).starts_with("Для работы сайта включите JavaScript. Телефон:"),
        "{html}"
    );
}

/// The inline script between `<script data-entry=…>` and `</script>`, with
/// the entry it names and the modules it preloads.
fn loader(html: &str) -> Option<(&str, &str, &str)> {
    let start = html.find("<script data-entry=\"")?;
    let tag = &html[start..];
    let entry = tag["<script data-entry=\"".len()..].split('"').next()?;
    let preload = tag.split("data-preload=\"").nth(1)?.split('"').next()?;
    let body = tag[tag.find('>')? + 1..].split("</script>").next()?;
    Some((entry, preload, body))
}

#[tokio::test]
async fn a_drawn_pages_code_is_started_by_the_loader_the_policy_allows() {
    use base64::Engine;
    use sha2::{Digest, Sha256};
    needs_the_server_build();
    let app = TestApp::new();
    for path in ["/", "/new-cars", "/trade-in", "/no-such-page"] {
        let answer = app.get(path).await;
        let html = answer.text();
        let head = &html[..html.find("</head>").expect("a head")];
        // Nothing the browser would fetch before the first paint: no module
        // script, no module preload.
        assert!(!head.contains("<script type=\"module\""), "{path}: {head}");
        assert!(
            !head.contains("<link rel=\"modulepreload\""),
            "{path}: {head}"
        );
        let (entry, preload, body) = loader(head).unwrap_or_else(|| panic!("{path}: no loader"));
        // The policy lets the browser run it: its hash is in script-src.
        let csp = answer.headers[axum::http::header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap();
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(body));
        let script_src = csp
            .split(';')
            .find(|d| d.trim_start().starts_with("script-src"))
            .unwrap();
        assert!(
            script_src.contains(&format!("'sha256-{hash}'")),
            "{path}: {script_src}"
        );
        assert!(!script_src.contains("unsafe-inline"), "{script_src}");
        // What it starts is served.
        for url in std::iter::once(entry).chain(preload.split(' ')) {
            assert!(url.starts_with("/assets/") && url.ends_with(".js"), "{url}");
            assert_eq!(app.get(url).await.status, StatusCode::OK, "{url}");
        }
        assert!(
            !preload.is_empty(),
            "{path}: the entry's modules are preloaded"
        );
    }
    // The admin panel is drawn by its code: linked at once.
    let html = app.get("/admin").await.text();
    assert!(loader(&html).is_none());
    assert!(html.contains("<script type=\"module\" src=\"/assets/"));
}
