//! Numbers per source without breaking pages (issue 45 item 4,
//! `docs/calls.md`, "Numbers per source"): every phone the site draws is one
//! element with the configured call-tracking class and the salon's own
//! number; the vendor's script is only named to the page (loaded by the
//! browser after consent, `ui/src/lib/consent.ts`), allowed by the
//! Content-Security-Policy and named in the policy's processors; what the
//! server draws and keeps never carries another number.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{StatusCode, header};
use common::TestApp;
use dealership::config::Config;
use dealership::domain::{legal, settings};
use dealership::http::pages::Renderer;

const SCRIPT: &str = "https://mod.calltouch.ru/init.js?id=abc123";
const SALON: &str = "+7 (812) 000-00-00";

fn tracked(config: &mut Config) {
    config.call_tracking.phone_class = "call_phone_1".into();
    config.call_tracking.script_url = SCRIPT.into();
}

#[tokio::test]
async fn every_drawn_phone_is_one_element_with_the_class_and_the_salons_number() {
    assert!(Renderer::available(), "run `npm run build` in ui/ first");
    let app = TestApp::with_config(tracked);
    for route in ["/", "/new-cars", "/auto-credit", "/trade-in"] {
        let first = app.get(route).await;
        assert_eq!(first.status, StatusCode::OK, "{route}");
        let html = first.text();
        let marked = format!("<span class=\"salon-phone call_phone_1\">{SALON}</span>");
        let header_number =
            format!("<span class=\"salon-phone header-phone-number call_phone_1\">{SALON}</span>");
        assert!(
            html.contains(&header_number),
            "{route}: the header's number"
        );
        assert!(html.contains(&marked), "{route}: the footer's number");
        // Every shown salon number is in such an element, inside its link.
        let drawn = html.matches(SALON).count();
        let in_elements = html
            .matches(&format!("call_phone_1\">{SALON}</span>"))
            .count();
        let data = html.matches(&format!("\"phone\":\"{SALON}\"")).count();
        assert_eq!(
            drawn,
            in_elements + data,
            "{route}: a number outside the element"
        );
        assert!(html.contains("href=\"tel:+78120000000\""), "{route}");
        // The page's settings name the class and the script for the browser.
        assert!(html.contains("\"phoneClass\":\"call_phone_1\""), "{route}");
        assert!(
            html.contains(&format!(
                "\"callTrackingScript\":\"{}\"",
                SCRIPT.replace('&', "\\u0026")
            )) || html.contains(SCRIPT),
            "{route}"
        );
        // ...and never load it themselves: only the browser does, after consent.
        assert!(!html.contains(&format!("src=\"{SCRIPT}\"")), "{route}");
        // The kept answer is the same page, with the salon's number.
        let kept = app.get(route).await;
        assert_eq!(kept.text(), html, "{route}: the kept answer");
    }
}

#[tokio::test]
async fn the_settings_name_the_class_and_the_script_and_without_them_nothing() {
    let app = TestApp::with_config(tracked);
    let settings = app.get("/api/settings").await.json();
    assert_eq!(settings["phoneClass"], "call_phone_1");
    assert_eq!(settings["callTrackingScript"], SCRIPT);
    assert_eq!(settings["phone"], SALON);

    let plain = TestApp::new();
    let settings = plain.get("/api/settings").await.json();
    assert_eq!(settings["phoneClass"], "");
    assert_eq!(settings["callTrackingScript"], "");
    let html = plain.get("/").await.text();
    assert!(html.contains(&format!("<span class=\"salon-phone\">{SALON}</span>")));
    let csp = plain.get("/").await.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(csp, dealership::http::router::CONTENT_SECURITY_POLICY);
}

#[tokio::test]
async fn the_policy_allows_the_vendors_hosts_and_nothing_more() {
    let app = TestApp::with_config(tracked);
    for path in ["/", "/api/settings", "/robots.txt"] {
        let answer = app.get(path).await;
        let csp = answer.headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .to_string();
        let directive = |name: &str| {
            csp.split("; ")
                .find(|d| d.starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("no {name} in {csp}"))
                .to_string()
        };
        for name in ["script-src", "img-src", "connect-src", "frame-src"] {
            let d = directive(name);
            assert!(d.contains("https://*.calltouch.ru"), "{path}: {d}");
            assert!(d.contains("https://calltouch.ru"), "{path}: {d}");
        }
        assert!(directive("connect-src").contains("wss://*.calltouch.ru"));
        assert_eq!(directive("default-src"), "default-src 'self'");
        assert_eq!(directive("object-src"), "object-src 'none'");
        // The counters' sources and the loader's hash stay.
        assert!(directive("script-src").contains("https://mc.yandex.ru"));
        assert!(directive("script-src").contains("'sha256-"));
    }
}

#[test]
fn the_configuration_refuses_a_class_or_a_script_a_page_could_not_use() {
    let bad_class = ["call phone", "1phone", "a\"b", "phone;", &"x".repeat(65)];
    for class in bad_class {
        let mut config = Config::default();
        config.call_tracking.phone_class = class.to_string();
        let err = config.call_tracking.validate().unwrap_err();
        assert!(err.contains("call_tracking.phone_class"), "{class}: {err}");
    }
    let bad_script = [
        "http://mod.calltouch.ru/init.js",
        "javascript:alert(1)",
        "//mod.calltouch.ru/init.js",
        "https://mod.calltouch.ru/init.js?a=\"><script>",
        "https://user@mod.calltouch.ru/init.js",
        "mod.calltouch.ru/init.js",
    ];
    for script in bad_script {
        let mut config = Config::default();
        config.call_tracking.script_url = script.to_string();
        let err = config.call_tracking.validate().unwrap_err();
        assert!(err.contains("call_tracking.script_url"), "{script}: {err}");
    }
    let mut config = Config::default();
    config.call_tracking.phone_class = "comagic_phone-2".into();
    config.call_tracking.script_url = "https://app.uiscom.ru/static/cs.min.js?k=abc".into();
    config.call_tracking.validate().unwrap();
    assert_eq!(
        config.call_tracking.script_sources().unwrap(),
        "https://uiscom.ru https://*.uiscom.ru wss://uiscom.ru wss://*.uiscom.ru"
    );
    // A test's fake on this machine: its exact origin.
    config.call_tracking.script_url = "http://127.0.0.1:4567/fake.js".into();
    config.call_tracking.validate().unwrap();
    assert_eq!(
        config.call_tracking.script_sources().unwrap(),
        "http://127.0.0.1:4567"
    );
}

#[test]
fn the_policy_names_the_script_as_a_processor() {
    let mut config = Config::default();
    let settings = settings::Settings::default();
    let named = |config: &Config| {
        legal::processors(config, &settings)
            .into_iter()
            .map(|p| p.line)
            .filter(|line| line.contains("номер телефона на сайте"))
            .collect::<Vec<_>>()
    };
    assert!(named(&config).is_empty());
    tracked(&mut config);
    assert_eq!(
        named(&config),
        [
            "сервис учёта звонков (mod.calltouch.ru) — номер телефона на сайте по источнику визита, \
          только с согласия посетителя"
        ]
    );
    config.call_tracking.processor = "ООО «Колтач Рус», ИНН 7701234567".into();
    assert_eq!(
        named(&config),
        [
            "ООО «Колтач Рус», ИНН 7701234567 (mod.calltouch.ru) — номер телефона на сайте по \
          источнику визита, только с согласия посетителя"
        ]
    );
}

#[tokio::test]
async fn the_settings_form_sends_back_what_it_loaded() {
    let app = TestApp::with_config(tracked);
    app.create_admin();
    let loaded = app
        .admin(axum::http::Method::GET, "/api/admin/settings", None)
        .await
        .json();
    let mut sent = loaded.clone();
    sent["email"] = "info@salon.example".into();
    sent["phoneClass"] = "other".into();
    sent["callTrackingScript"] = "https://evil.example/x.js".into();
    let saved = app
        .admin(axum::http::Method::PUT, "/api/settings", Some(sent))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    // Read-only: the configuration's values stay.
    let settings = app.get("/api/settings").await.json();
    assert_eq!(settings["phoneClass"], "call_phone_1");
    assert_eq!(settings["callTrackingScript"], SCRIPT);
}
