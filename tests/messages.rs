//! Every error message the API can answer, collected and read as a Russian
//! speaker would: no JSON field names, no gender placeholders like '(а)', no
//! parser's English. The sweep walks the OpenAPI document (each operation
//! with unknown ids, an empty body, every text too long and every query
//! parameter unreadable) and every form with each of its texts too long.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use std::collections::BTreeMap;

use axum::http::{Method, StatusCode};
use common::{TestApp, seed_catalogue};
use serde_json::{Map, Value, json};

const LONG: usize = 100_001;

/// Words of Latin script that a Russian form or message legitimately uses:
/// the names people know things by.
const KNOWN_WORDS: &[&str] = &[
    "e",
    "mail",
    "VIN",
    "Email",
    "Google",
    "Analytics",
    "ID",
    "favicon",
    "UTM",
    "JSON",
    "URL",
    "amoCRM",
    "API",
    "SMTP",
    "XML",
    "CSV",
    "YML",
    "Slug",
    "slug",
    "true",
    "false",
    "https",
    "http",
    "webp",
    "png",
    "jpg",
    "jpeg",
    "gif",
    "Content",
    "Type",
    "application",
    "json",
    "MB",
    "KB",
];

/// What a reader would stumble on in `message`, if anything.
fn stumbles(message: &str) -> Option<String> {
    if message.contains("(а)") || message.contains("(а)") || message.contains("(о)") {
        return Some("a gender placeholder".into());
    }
    if !message
        .chars()
        .any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap_or(c)))
    {
        return Some("no Russian at all".into());
    }
    // Quoted names are what the client sent («limit»); everything else is read.
    let mut outside = String::new();
    let mut depth = 0;
    for c in message.chars() {
        match c {
            '«' => depth += 1,
            '»' => depth -= 1,
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    for word in outside
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
    {
        if !KNOWN_WORDS.contains(&word) {
            return Some(format!("the Latin word '{word}'"));
        }
    }
    None
}

#[derive(Default)]
struct Collected {
    /// message -> where it was answered
    messages: BTreeMap<String, String>,
}

impl Collected {
    fn add(&mut self, at: &str, answer: &common::Answer) {
        if !answer.status.is_client_error()
            || answer.status == StatusCode::NOT_FOUND && answer.text().is_empty()
        {
            return;
        }
        let Ok(body) = serde_json::from_slice::<Value>(answer.text().as_bytes()) else {
            return;
        };
        if let Some(message) = body["error"].as_str() {
            self.messages
                .entry(message.to_string())
                .or_insert_with(|| at.to_string());
        }
    }

    fn check(&self, at_least: usize) {
        assert!(
            self.messages.len() >= at_least,
            "only {} messages collected",
            self.messages.len()
        );
        let wrong: Vec<String> = self
            .messages
            .iter()
            .filter_map(|(message, at)| {
                stumbles(message).map(|why| format!("{at}: '{message}' ({why})"))
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}

/// A schema's properties, `$ref`s followed.
fn properties(doc: &Value, schema: &Value) -> Map<String, Value> {
    let schema = match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap();
            &doc["components"]["schemas"][name]
        }
        None => schema,
    };
    schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default()
}

fn is_text(doc: &Value, property: &Value) -> bool {
    let property = match property["$ref"].as_str() {
        Some(reference) => &doc["components"]["schemas"][reference.rsplit('/').next().unwrap()],
        None => property,
    };
    property["type"] == "string"
        || property["type"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t == "string"))
}

#[tokio::test]
async fn every_message_the_api_answers_reads_as_russian() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let cookie = app.login().await;
    let doc = app.get("/api/openapi.json").await.json();
    let mut collected = Collected::default();

    // 1. The sweep over the document.
    for (path, item) in doc["paths"].as_object().unwrap() {
        if path.ends_with("/logout") {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            let Ok(method) = method.to_uppercase().parse::<Method>() else {
                continue;
            };
            let concrete = path
                .split('/')
                .map(|part| {
                    if part.starts_with('{') {
                        "nonexist"
                    } else {
                        part
                    }
                })
                .collect::<Vec<_>>()
                .join("/");
            let at = format!("{method} {path}");
            let schema = &op["requestBody"]["content"]["application/json"]["schema"];
            let body = (method != Method::GET && method != Method::DELETE).then(|| json!({}));
            let answer = app
                .admin_with(&cookie, method.clone(), &concrete, body)
                .await;
            collected.add(&at, &answer);
            if !schema.is_null() {
                let properties = properties(&doc, schema);
                // Every text too long; then every property of the wrong
                // kind: a list where a value goes.
                let long: Map<String, Value> = properties
                    .iter()
                    .filter(|(_, p)| is_text(&doc, p))
                    .map(|(name, _)| (name.clone(), json!("я".repeat(LONG))))
                    .collect();
                let wrong: Map<String, Value> = properties
                    .keys()
                    .map(|name| (name.clone(), json!([[1]])))
                    .collect();
                for body in [long, wrong] {
                    let answer = app
                        .admin_with(
                            &cookie,
                            method.clone(),
                            &concrete,
                            Some(Value::Object(body)),
                        )
                        .await;
                    collected.add(&at, &answer);
                }
            }
            if method == Method::GET {
                let odd = format!("{concrete}?zzz=1");
                let answer = app.admin_with(&cookie, Method::GET, &odd, None).await;
                collected.add(&format!("{at}?zzz"), &answer);
            }
            for parameter in op["parameters"].as_array().into_iter().flatten() {
                if parameter["in"] != "query" {
                    continue;
                }
                let name = parameter["name"].as_str().unwrap();
                let query = format!("{concrete}?{name}=abc%21");
                let answer = app.admin_with(&cookie, method.clone(), &query, None).await;
                collected.add(&format!("{at}?{name}"), &answer);
            }
        }
    }

    // 2. Every form, each of its texts too long on a body it otherwise takes.
    let car = json!({
        "brandId": cat.lada, "name": "Granta", "slug": "lada-granta-msg", "model": "Granta",
        "year": 2025, "price": "1 150 000", "status": "new", "bodyType": "sedan",
        "transmission": "manual", "drivetrain": "front", "fuelType": "gasoline",
        "engine": "1.6 л, 90 л.с.", "color": "Белый", "externalId": "x1",
        "images": ["/media/a-800.webp"], "trim": "Comfort", "generation": "II"
    });
    let forms: Vec<(Method, String, Value)> = vec![
        (Method::POST, "/api/cars".into(), car),
        (
            Method::POST,
            "/api/brands".into(),
            json!({"name": "Chery", "slug": "chery", "description": "Описание", "logo": "/media/c-800.webp"}),
        ),
        (
            Method::POST,
            "/api/reviews".into(),
            json!({"customerName": "Анна", "text": "Хорошо", "rating": 5, "carModel": "Веста", "photo": "/media/r-800.webp"}),
        ),
        (
            Method::POST,
            "/api/promotions".into(),
            json!({"title": "Акция", "description": "Описание", "discount": "5%", "validUntil": "31.12.2030", "image": "/media/p-800.webp"}),
        ),
        (
            Method::POST,
            "/api/partner-banks".into(),
            json!({"name": "ВТБ", "logo": "/media/v-800.webp", "requirements": "Паспорт", "advantages": "Быстро"}),
        ),
        (
            Method::POST,
            "/api/body-types".into(),
            json!({"slug": "liftback", "labelPlural": "Лифтбеки", "labelSingle": "Лифтбек", "imageUrl": "", "imageUrlMobile": ""}),
        ),
        (
            Method::PUT,
            "/api/settings".into(),
            json!({"salonName": "Автомир", "phone": "+7 812 111-22-33", "address": "СПб",
                   "fullAddress": "Санкт-Петербург", "heroTitle": "Т",
                   "heroSubtitle": "П", "operatorName": "ООО", "consentText": "С", "privacyPolicy": "П"}),
        ),
        (
            Method::POST,
            "/api/leads".into(),
            json!({"type": "auto_credit", "name": "Иван", "phone": "89215551234", "consent": true,
                   "message": "Здравствуйте", "carBrand": "Lada", "carModel": "Веста",
                   "sourceUrl": "/", "utmSource": "ya"}),
        ),
    ];
    for (method, path, base) in forms {
        let at = format!("{method} {path}");
        for (name, value) in base.as_object().unwrap() {
            if !value.is_string()
                || [
                    "brandId",
                    "status",
                    "bodyType",
                    "transmission",
                    "drivetrain",
                    "fuelType",
                    "type",
                    "slug",
                ]
                .contains(&name.as_str())
            {
                continue;
            }
            let mut body = base.clone();
            body[name] = json!("я".repeat(LONG));
            let answer = app
                .admin_with(&cookie, method.clone(), &path, Some(body))
                .await;
            assert!(
                answer.status.is_client_error(),
                "{at} {name}: {}",
                answer.status
            );
            collected.add(&format!("{at} {name}"), &answer);
        }
    }

    collected.check(60);
}

#[test]
fn the_reader_stumbles_where_a_person_would() {
    assert!(stumbles("Поле name не должно быть длиннее 255 символов").is_some());
    assert!(stumbles("Акция не найден(а)").is_some());
    assert!(stumbles("Неверный параметр запроса: limit: invalid digit found in string").is_some());
    assert!(stumbles("Not found").is_some());
    assert!(stumbles("Поле «Название» не должно быть длиннее 255 символов").is_none());
    assert!(stumbles("Неверный параметр запроса «limit»: ожидается число").is_none());
    assert!(stumbles("VIN должен содержать 17 латинских букв и цифр").is_none());
}
