//! The audit trail: every admin write leaves one entry, in the same
//! transaction, with who, when, what and the values before and after.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;

use axum::http::{Method, StatusCode};
use common::{ADMIN, TestApp, seed_catalogue};
use serde_json::{Value, json};

struct Admin<'a> {
    app: &'a TestApp,
    cookie: String,
}

impl Admin<'_> {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        let answer = self
            .app
            .admin_with(&self.cookie, method.clone(), path, body)
            .await;
        assert!(
            answer.status.is_success(),
            "{method} {path}: {} {}",
            answer.status,
            answer.text()
        );
        if answer.body.is_empty() {
            Value::Null
        } else {
            answer.json()
        }
    }

    async fn audit(&self, query: &str) -> Value {
        self.call(Method::GET, &format!("/api/admin/audit?{query}"), None)
            .await
    }

    /// The newest entry.
    async fn last(&self) -> Value {
        self.audit("limit=1").await["items"][0].clone()
    }

    async fn total(&self) -> i64 {
        self.audit("").await["total"].as_i64().unwrap()
    }
}

/// The `from` and `to` of a field in an entry's changes.
fn change(entry: &Value, field: &str) -> (Value, Value) {
    let found = entry["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["field"] == field)
        .unwrap_or_else(|| panic!("no change of {field} in {entry}"));
    (found["from"].clone(), found["to"].clone())
}

fn expect(entry: &Value, action: &str, object_type: &str, object_id: Option<&str>, summary: &str) {
    assert_eq!(entry["action"], action, "{entry}");
    assert_eq!(entry["objectType"], object_type, "{entry}");
    assert_eq!(entry["objectId"], json!(object_id), "{entry}");
    assert_eq!(entry["summary"], summary, "{entry}");
    assert_eq!(entry["username"], ADMIN, "{entry}");
    assert!(entry["at"].as_str().unwrap().ends_with('Z'), "{entry}");
}

fn car_body(brand: &str) -> Value {
    json!({
        "brandId": brand, "name": "Granta", "slug": "lada-granta-2025", "model": "Granta",
        "year": 2025, "price": "1 150 000", "status": "new", "bodyType": "sedan",
        "transmission": "manual", "drivetrain": "front", "fuelType": "gasoline",
        "engine": "1.6 л, 90 л.с.", "images": ["/media/a-800.webp"]
    })
}

#[tokio::test]
async fn car_and_brand_writes_are_recorded() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    let admin = Admin {
        app: &app,
        cookie: app.login().await,
    };
    assert_eq!(admin.total().await, 0, "seeding is not an admin write");

    let car = admin
        .call(Method::POST, "/api/cars", Some(car_body(&cat.lada)))
        .await;
    let id = car["id"].as_str().unwrap().to_string();
    let entry = admin.last().await;
    expect(
        &entry,
        "create",
        "car",
        Some(&id),
        "Добавлен автомобиль: Lada Granta",
    );
    assert_eq!(change(&entry, "price"), (Value::Null, json!("1150000.00")));
    assert_eq!(change(&entry, "brandName"), (Value::Null, json!("Lada")));

    // A price change: only the price, from and to.
    let mut body = car_body(&cat.lada);
    body["price"] = json!("1200000");
    admin
        .call(Method::PUT, &format!("/api/cars/{id}"), Some(body.clone()))
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "car",
        Some(&id),
        "Изменена цена: Lada Granta",
    );
    assert_eq!(
        entry["changes"],
        json!([{"field": "price", "from": "1150000.00", "to": "1200000.00"}])
    );

    // Unpublished, and moved to another brand.
    body["published"] = json!(false);
    admin
        .call(Method::PUT, &format!("/api/cars/{id}"), Some(body.clone()))
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "car",
        Some(&id),
        "Снят с публикации автомобиль: Lada Granta",
    );
    assert_eq!(change(&entry, "published"), (json!("true"), json!("false")));
    body["brandId"] = json!(cat.haval);
    body["images"] = json!(["/media/b-800.webp", "/media/a-800.webp"]);
    admin
        .call(Method::PUT, &format!("/api/cars/{id}"), Some(body))
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "car",
        Some(&id),
        "Изменён автомобиль: Lada Granta",
    );
    assert_eq!(change(&entry, "brandName"), (json!("Lada"), json!("Haval")));
    assert_eq!(
        change(&entry, "images"),
        (
            json!(r#"["/media/a-800.webp"]"#),
            json!(r#"["/media/b-800.webp","/media/a-800.webp"]"#)
        )
    );

    // Bulk price change: one entry with the factor and the count.
    admin
        .call(
            Method::PUT,
            "/api/cars/prices/bulk",
            Some(json!({"priceMultiplier": "1.05"})),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "bulk_price",
        "car",
        None,
        "Массовое изменение цен на +5%: 8 автомобилей",
    );
    assert_eq!(
        change(&entry, "priceMultiplier"),
        (Value::Null, json!("1.05"))
    );
    assert_eq!(change(&entry, "updatedCount"), (Value::Null, json!("8")));

    admin
        .call(Method::DELETE, &format!("/api/cars/{id}"), None)
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "delete",
        "car",
        Some(&id),
        "Удалён автомобиль: Haval Granta",
    );
    assert_eq!(change(&entry, "price"), (json!("1260000.00"), Value::Null));

    // Brands.
    let brand = admin
        .call(
            Method::POST,
            "/api/brands",
            Some(json!({"name": "Chery", "slug": "chery", "logo": "", "description": ""})),
        )
        .await;
    let brand_id = brand["id"].as_str().unwrap().to_string();
    expect(
        &admin.last().await,
        "create",
        "brand",
        Some(&brand_id),
        "Добавлена марка: Chery",
    );
    admin
        .call(
            Method::PUT,
            &format!("/api/brands/{brand_id}"),
            Some(
                json!({"name": "Chery Auto", "slug": "chery", "logo": "", "description": "Китай"}),
            ),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "brand",
        Some(&brand_id),
        "Изменена марка: Chery",
    );
    assert_eq!(
        change(&entry, "name"),
        (json!("Chery"), json!("Chery Auto"))
    );
    assert_eq!(change(&entry, "description"), (json!(""), json!("Китай")));
    admin
        .call(Method::DELETE, &format!("/api/brands/{brand_id}"), None)
        .await;
    expect(
        &admin.last().await,
        "delete",
        "brand",
        Some(&brand_id),
        "Удалена марка: Chery Auto",
    );

    // A refused write leaves no entry.
    let before = admin.total().await;
    let refused = app
        .admin_with(
            &admin.cookie,
            Method::DELETE,
            &format!("/api/brands/{}", cat.haval),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let mut invalid = car_body(&cat.lada);
    invalid["year"] = json!(1950);
    let refused = app
        .admin_with(&admin.cookie, Method::POST, "/api/cars", Some(invalid))
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let missing = app
        .admin_with(&admin.cookie, Method::DELETE, "/api/cars/nope", None)
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(admin.total().await, before);
}

#[tokio::test]
async fn content_writes_are_recorded() {
    let app = TestApp::new();
    app.create_admin();
    seed_catalogue(&app);
    let admin = Admin {
        app: &app,
        cookie: app.login().await,
    };

    // Reviews: create, edit, approve, delete.
    let review = admin
        .call(
            Method::POST,
            "/api/reviews",
            Some(json!({"customerName": "Анна", "rating": 4, "text": "Хорошо"})),
        )
        .await;
    let id = review["id"].as_str().unwrap().to_string();
    let entry = admin.last().await;
    expect(
        &entry,
        "create",
        "review",
        Some(&id),
        "Добавлен отзыв: Анна",
    );
    assert_eq!(change(&entry, "rating"), (Value::Null, json!("4")));
    admin
        .call(
            Method::PUT,
            &format!("/api/reviews/{id}"),
            Some(json!({"customerName": "Анна", "rating": 5, "text": "Отлично"})),
        )
        .await;
    let entry = admin.last().await;
    expect(&entry, "update", "review", Some(&id), "Изменён отзыв: Анна");
    assert_eq!(change(&entry, "rating"), (json!("4"), json!("5")));
    assert_eq!(change(&entry, "text"), (json!("Хорошо"), json!("Отлично")));
    admin
        .call(Method::PUT, &format!("/api/reviews/{id}/approve"), None)
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "approve",
        "review",
        Some(&id),
        "Одобрен отзыв: Анна",
    );
    assert_eq!(change(&entry, "approved"), (json!("false"), json!("true")));
    admin
        .call(Method::DELETE, &format!("/api/reviews/{id}"), None)
        .await;
    expect(
        &admin.last().await,
        "delete",
        "review",
        Some(&id),
        "Удалён отзыв: Анна",
    );

    // Promotions.
    let promotion = admin
        .call(
            Method::POST,
            "/api/promotions",
            Some(json!({"title": "Зимние шины", "description": "В подарок"})),
        )
        .await;
    let id = promotion["id"].as_str().unwrap().to_string();
    expect(
        &admin.last().await,
        "create",
        "promotion",
        Some(&id),
        "Добавлена акция: Зимние шины",
    );
    admin
        .call(
            Method::PUT,
            &format!("/api/promotions/{id}"),
            Some(json!({"title": "Зимние шины", "description": "В подарок", "isActive": false})),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "promotion",
        Some(&id),
        "Изменена акция: Зимние шины",
    );
    assert_eq!(change(&entry, "isActive"), (json!("true"), json!("false")));
    admin
        .call(Method::DELETE, &format!("/api/promotions/{id}"), None)
        .await;
    expect(
        &admin.last().await,
        "delete",
        "promotion",
        Some(&id),
        "Удалена акция: Зимние шины",
    );

    // Partner banks: create, hide, edit, delete.
    let bank = admin
        .call(
            Method::POST,
            "/api/partner-banks",
            Some(json!({"name": "ВТБ", "logo": "/media/v-800.webp", "requirements": "Паспорт", "advantages": "Быстро"})),
        )
        .await;
    let id = bank["id"].as_str().unwrap().to_string();
    expect(
        &admin.last().await,
        "create",
        "partner_bank",
        Some(&id),
        "Добавлен банк-партнёр: ВТБ",
    );
    admin
        .call(
            Method::PUT,
            &format!("/api/partner-banks/{id}"),
            Some(json!({"active": false})),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "partner_bank",
        Some(&id),
        "Скрыт банк-партнёр: ВТБ",
    );
    assert_eq!(
        entry["changes"],
        json!([{"field": "active", "from": "true", "to": "false"}])
    );
    admin
        .call(
            Method::PUT,
            &format!("/api/partner-banks/{id}"),
            Some(json!({"name": "ВТБ", "logo": "/media/v-800.webp", "requirements": "Паспорт, СНИЛС", "advantages": "Быстро", "active": false})),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "partner_bank",
        Some(&id),
        "Изменён банк-партнёр: ВТБ",
    );
    assert_eq!(
        change(&entry, "requirements"),
        (json!("Паспорт"), json!("Паспорт, СНИЛС"))
    );
    admin
        .call(Method::DELETE, &format!("/api/partner-banks/{id}"), None)
        .await;
    expect(
        &admin.last().await,
        "delete",
        "partner_bank",
        Some(&id),
        "Удалён банк-партнёр: ВТБ",
    );

    // Body types.
    admin
        .call(
            Method::PUT,
            "/api/body-types/coupe",
            Some(json!({"labelPlural": "Купе", "labelSingle": "Купе"})),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "update",
        "body_type",
        Some("coupe"),
        "Изменён тип кузова: Внедорожники",
    );
    assert_eq!(
        change(&entry, "labelPlural"),
        (json!("Внедорожники"), json!("Купе"))
    );

    // Settings: the company form, then banners only.
    admin
        .call(
            Method::POST,
            "/api/settings",
            Some(json!({"salonName": "Автомир", "phone": "+7 (812) 111-22-33", "address": "СПб"})),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "settings",
        "settings",
        None,
        "Изменены настройки сайта",
    );
    assert_eq!(
        change(&entry, "salonName"),
        (json!("Автосалон"), json!("Автомир"))
    );
    admin
        .call(
            Method::PUT,
            "/api/settings",
            Some(
                json!({"homeBanner": "/media/h-800.webp", "homeBannerMobile": "/media/m-800.webp"}),
            ),
        )
        .await;
    let entry = admin.last().await;
    expect(
        &entry,
        "settings",
        "banner",
        None,
        "Изменены баннеры страниц",
    );
    assert_eq!(
        change(&entry, "homeBanner"),
        (json!(""), json!("/media/h-800.webp"))
    );
    assert_eq!(entry["changes"].as_array().unwrap().len(), 2);
    // A long text is kept cut, on a character.
    let policy = "Политика. ".repeat(100);
    admin
        .call(
            Method::PUT,
            "/api/settings",
            Some(json!({"privacyPolicy": policy})),
        )
        .await;
    let (_, to) = change(&admin.last().await, "privacyPolicy");
    assert_eq!(to.as_str().unwrap().chars().count(), 301);
    assert!(to.as_str().unwrap().ends_with('…'));
}

#[tokio::test]
async fn a_leads_status_history() {
    let app = TestApp::new();
    app.create_admin();
    for name in ["Иван", "Пётр"] {
        let answer = app
            .post_json(
                "/api/leads",
                &json!({"type": "auto_credit", "name": name, "phone": "89215551234", "consent": true}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED);
    }
    let admin = Admin {
        app: &app,
        cookie: app.login().await,
    };
    let leads = admin.call(Method::GET, "/api/leads", None).await;
    let id_of = |name: &str| {
        leads
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (ivan, petr) = (id_of("Иван"), id_of("Пётр"));
    let petr_arrived = leads
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "Пётр")
        .unwrap()["createdAt"]
        .as_str()
        .unwrap()
        .to_string();
    for status in ["in_progress", "completed"] {
        admin
            .call(
                Method::PUT,
                &format!("/api/leads/{ivan}/status"),
                Some(json!({"status": status})),
            )
            .await;
    }
    admin
        .call(
            Method::PUT,
            &format!("/api/leads/{petr}/status"),
            Some(json!({"status": "cancelled"})),
        )
        .await;
    admin
        .call(Method::DELETE, &format!("/api/leads/{petr}"), None)
        .await;

    // Ivan's history, newest first.
    let history = admin
        .audit(&format!("objectType=lead&objectId={ivan}"))
        .await;
    assert_eq!(history["total"], 2);
    let items = history["items"].as_array().unwrap();
    expect(
        &items[0],
        "status",
        "lead",
        Some(&ivan),
        "Статус заявки «Иван»: В работе → Завершён",
    );
    assert_eq!(
        change(&items[0], "status"),
        (json!("in_progress"), json!("completed"))
    );
    expect(
        &items[1],
        "status",
        "lead",
        Some(&ivan),
        "Статус заявки «Иван»: Новый → В работе",
    );
    assert_eq!(
        change(&items[1], "status"),
        (json!("new"), json!("in_progress"))
    );
    assert!(items[0]["id"].as_i64() > items[1]["id"].as_i64());

    // Petr's, deleted.
    let history = admin
        .audit(&format!("objectType=lead&objectId={petr}"))
        .await;
    let items = history["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    expect(
        &items[0],
        "delete",
        "lead",
        Some(&petr),
        // Which lead, never whose: no name, no phone.
        &format!(
            "Удалена заявка «{}» от {}",
            dealership::notify::message::type_label(
                dealership::domain::leads::LeadType::AutoCredit
            ),
            dealership::notify::message::moscow_time(&petr_arrived)
        ),
    );
    let summary = items[0]["summary"].as_str().unwrap();
    assert!(
        !summary.contains("Пётр") && !summary.contains("79215551234"),
        "{summary}"
    );
    assert_eq!(items[1]["action"], "status");

    // All entries, newest first, paged; filtered by type.
    let all = admin.audit("").await;
    assert_eq!(all["total"], 4);
    let ids: Vec<i64> = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "{ids:?}");
    let second = admin.audit("limit=1&offset=1").await;
    assert_eq!(second["items"][0]["id"], ids[1]);
    assert_eq!(second["total"], 4);
    assert_eq!(admin.audit("objectType=car").await["total"], 0);
    assert_eq!(admin.audit("objectType=lead").await["total"], 4);
    let unknown = app
        .admin_with(
            &admin.cookie,
            Method::GET,
            "/api/admin/audit?objectType=boat",
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_trail_is_for_admins_and_kept_with_the_write() {
    let app = TestApp::new();
    app.create_admin();
    let cat = seed_catalogue(&app);
    assert_eq!(
        app.get("/api/admin/audit").await.status,
        StatusCode::UNAUTHORIZED
    );
    // Basic credentials name the admin too.
    let created = app
        .basic(
            Method::POST,
            "/api/cars",
            common::ADMIN_PASSWORD,
            Some(car_body(&cat.lada)),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let id = created.json()["id"].as_str().unwrap().to_string();
    assert_eq!(
        app.count(
            "SELECT count(*) FROM audit_log WHERE username = 'manager' AND action = 'create'"
        ),
        1
    );
    // When the entry cannot be written, the write is undone with it.
    app.db
        .conn()
        .unwrap()
        .execute_batch("DROP TABLE audit_log")
        .unwrap();
    let mut body = car_body(&cat.lada);
    body["price"] = json!("999999");
    let failed = app
        .basic(
            Method::PUT,
            &format!("/api/cars/{id}"),
            common::ADMIN_PASSWORD,
            Some(body),
        )
        .await;
    assert_eq!(failed.status, StatusCode::INTERNAL_SERVER_ERROR);
    let price = app.count(&format!("SELECT price_kopecks FROM cars WHERE id = '{id}'"));
    assert_eq!(price, 115_000_000);
}

/// The trail reads newest first by the time each entry records, even when an
/// entry was written after a later one (the demo's history, a status set
/// from a mail link); one object's trail likewise.
#[tokio::test]
async fn the_trail_is_ordered_by_the_time_of_the_change() {
    let app = TestApp::new();
    app.create_admin();
    let admin = Admin {
        app: &app,
        cookie: app.login().await,
    };
    let conn = app.db.conn().unwrap();
    for (at, summary) in [
        ("2026-11-20T10:00:00.000Z", "вторая"),
        ("2026-11-21T10:00:00.000Z", "третья"),
        ("2026-11-19T10:00:00.000Z", "первая"),
    ] {
        conn.execute(
            "INSERT INTO audit_log (at, username, action, object_type, object_id, summary)
             VALUES (?1, 'manager', 'update', 'lead', 'L-1', ?2)",
            [at, summary],
        )
        .unwrap();
    }
    let summaries = |page: &Value| -> Vec<String> {
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["summary"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        summaries(&admin.audit("").await),
        ["третья", "вторая", "первая"]
    );
    assert_eq!(
        summaries(&admin.audit("objectType=lead&objectId=L-1&limit=2").await),
        ["третья", "вторая"]
    );
}
