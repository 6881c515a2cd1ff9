//! Upgrades of databases from V28 on: one feed owning its cars (V29),
//! e-mail comparison keys (V30), one source for the operator's details and
//! hours (V31), a run's report a line an item (V32), a typed monthly
//! payment only for lease cars (V33).

use rusqlite::{Connection, params};

use super::tests::{T, insert_brand, texts};
use super::{migrate, migrate_to};

/// Before V29 there was one schedule: the upgrade makes it a feed that owns
/// every earlier run and imported car, and remembers what it stated of
/// each; a car the import had unpublished is not listed by it.
#[test]
fn v28_imports_upgrade_to_one_feed_that_owns_its_cars() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(28)).unwrap();
    insert_brand(&conn);
    for (id, external) in [("car-1", "A-1"), ("car-2", "A-2")] {
        conn.execute(
            "INSERT INTO cars (id, brand_id, name, slug, model, year, price_kopecks, status,
                body_type, transmission, drivetrain, fuel_type, engine, external_id,
                created_at, updated_at)
             VALUES (?1, 'brand-1', ?1, ?1, 'M', 2024, 100000000, 'new', 'sedan', 'automatic',
                'front', 'gasoline', '1.6', ?2, ?3, ?3)",
            params![id, external, T],
        )
        .unwrap();
    }
    conn.execute_batch(&format!(
        "INSERT INTO imported_cars (car_id, unpublished_by_import, last_run_id, feed_values)
             VALUES ('car-1', 0, 'run-1', '{{\"price\":\"1000000.00\"}}'),
                    ('car-2', 1, 'run-1', '{{}}');
         INSERT INTO import_runs (id, created_at, trigger, source_kind, source_name, status)
             VALUES ('run-1', '{T}', 'schedule', 'url', 'https://dealer.example.ru/a.xml',
                'applied');
         UPDATE parser_settings SET feed_url = 'https://dealer.example.ru/a.xml',
             interval_hours = 6, last_run_at = '{T}';"
    ))
    .unwrap();
    migrate(&mut conn).unwrap();
    let feed: (String, String, String, i64, Option<String>) = conn
        .query_row(
            "SELECT id, source_kind, source, interval_hours, last_run_at FROM import_feeds",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .unwrap();
    assert_eq!(feed.1, "url");
    assert_eq!(feed.2, "https://dealer.example.ru/a.xml");
    assert_eq!((feed.3, feed.4.as_deref()), (6, Some(T)));
    assert_eq!(
        texts(&conn, "SELECT feed_id FROM import_runs", []),
        std::slice::from_ref(&feed.0)
    );
    let owned: Vec<(String, String, String, i64)> = conn
        .prepare("SELECT car_id, feed_key, feed_values, listed FROM feed_cars ORDER BY car_id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        owned,
        [
            (
                "car-1".into(),
                "A-1".into(),
                "{\"price\":\"1000000.00\"}".into(),
                1
            ),
            ("car-2".into(), "A-2".into(), "{}".into(), 0),
        ]
    );
}

/// A database that never imported gets no feed.
#[test]
fn a_database_that_never_imported_gets_no_feed() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    migrate(&mut conn).unwrap();
    let feeds: i64 = conn
        .query_row("SELECT count(*) FROM import_feeds", [], |r| r.get(0))
        .unwrap();
    assert_eq!(feeds, 0);
}

#[test]
fn v29_addresses_get_their_comparison_keys_after_upgrading() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(29)).unwrap();
    conn.execute_batch(&format!(
        "INSERT INTO leads (id, type, name, phone, email, consent_version, consent_at,
             consent_ip, created_at, updated_at)
             VALUES ('lead-1', 'contact_form', 'Зоя', '+79991234567', 'Зоя.Тест@Почта.рф', 1,
             '{T}', '127.0.0.1', '{T}', '{T}'),
             ('lead-2', 'contact_form', 'Иван', '+79991234568', NULL, 1,
             '{T}', '127.0.0.1', '{T}', '{T}');
         INSERT INTO forget_tokens (token_hash, email, created_at)
             VALUES ('h1', 'зоя.тест@xn--80a1acny.xn--p1ai', '{T}');
         INSERT INTO data_requests (kind, email, subject, received_on, due_on, created_at)
             VALUES ('access', 'ЗОЯ.ТЕСТ@ПОЧТА.РФ', 'ЗОЯ.ТЕСТ@ПОЧТА.РФ', '2026-03-01',
             '2026-03-13', '{T}');"
    ))
    .unwrap();
    migrate(&mut conn).unwrap();
    let key = "зоя.тест@xn--80a1acny.xn--p1ai";
    let keys: Vec<Option<String>> = conn
        .prepare(
            "SELECT email_key FROM leads
             UNION ALL SELECT email_key FROM forget_tokens
             UNION ALL SELECT email_key FROM data_requests",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        keys,
        vec![Some(key.into()), None, Some(key.into()), Some(key.into())]
    );
    // The address as typed is kept.
    let typed: String = conn
        .query_row("SELECT email FROM leads WHERE id = 'lead-1'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(typed, "Зоя.Тест@Почта.рф");
    // Nothing left to fill: the next start does nothing.
    assert_eq!(crate::domain::email::fill_keys(&conn).unwrap(), 0);
}

#[test]
fn v30_requisites_and_hours_upgrade_to_one_source_each() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(30)).unwrap();
    conn.execute(
        "INSERT INTO settings (id, salon_name, phone, address, updated_at, legal_entity, working_hours)
         VALUES (1, 'Салон', '+7 812 000-00-00', 'СПб', '2026-01-01T00:00:00Z', ?1, ?2)",
        params![
            "ООО «Нева Моторс», ИНН 7810453273, КПП 781001001, ОГРН 1177847123453",
            "Пн–Вс: 10:00–22:00"
        ],
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let settings = crate::domain::settings::get(&conn).unwrap();
    // The free text's name becomes the operator's; the rest is not guessed.
    assert_eq!(settings.public.operator_name, "ООО «Нева Моторс»");
    assert_eq!(settings.public.operator_inn, "");
    // The hours shown are the schedule's (the default: every day 09:00–21:00).
    assert_eq!(settings.public.working_hours, "Пн–Вс: 09:00–21:00");
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('settings')")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        !columns
            .iter()
            .any(|c| c == "legal_entity" || c == "working_hours")
    );

    // An operator already named keeps its name.
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    migrate_to(&mut conn, Some(30)).unwrap();
    conn.execute(
        "INSERT INTO settings (id, salon_name, phone, address, updated_at, legal_entity, operator_name)
         VALUES (1, 'Салон', '+7 812 000-00-00', 'СПб', '2026-01-01T00:00:00Z', 'ИП Иванов', ?1)",
        ["Индивидуальный предприниматель Иванов Иван Иванович"],
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let settings = crate::domain::settings::get(&conn).unwrap();
    assert_eq!(
        settings.public.operator_name,
        "Индивидуальный предприниматель Иванов Иван Иванович"
    );
}

/// Before V32 a run's report, rows and photo errors were JSON documents:
/// the upgrade moves them a line an item, keeps the counts beside the run
/// (a car with two warnings counted once) and leaves the documents empty.
#[test]
fn v31_import_reports_upgrade_to_lines_and_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(31)).unwrap();
    let report = r#"{"new": [{"key": "A-1"}, {"key": "A-2"}], "changed": [], "unchanged": [],
        "gone": [{"carId": "car-9"}], "errors": [{"row": 4, "line": 4, "message": "год"}],
        "warnings": [{"row": 1, "field": "drivetrain"}, {"row": 1, "field": "trim"},
            {"row": 2, "field": "trim"}],
        "newBrands": ["Haval"], "newBodyTypes": []}"#;
    conn.execute(
        "INSERT INTO import_runs (id, created_at, trigger, source_kind, source_name, status,
            report, rows, photo_errors)
         VALUES ('run-1', '2026-01-01T00:00:00.000Z', 'manual', 'file', 'a.xml', 'preview',
            ?1, '[{\"row\": 1}, {\"row\": 2}]', '[{\"url\": \"http://a/1.jpg\"}]')",
        [report],
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let lists = texts(
        &conn,
        "SELECT list || ':' || position || ':' || item FROM import_run_items
         WHERE run_id = 'run-1' ORDER BY list, position",
        [],
    );
    assert_eq!(
        lists,
        [
            r#"errors:0:{"row":4,"line":4,"message":"год"}"#,
            r#"gone:0:{"carId":"car-9"}"#,
            r#"new:0:{"key":"A-1"}"#,
            r#"new:1:{"key":"A-2"}"#,
            r#"photoErrors:0:{"url":"http://a/1.jpg"}"#,
            r#"warnings:0:{"row":1,"field":"drivetrain"}"#,
            r#"warnings:1:{"row":1,"field":"trim"}"#,
            r#"warnings:2:{"row":2,"field":"trim"}"#,
        ]
    );
    assert_eq!(
        texts(
            &conn,
            "SELECT car FROM import_run_rows ORDER BY position",
            []
        ),
        [r#"{"row":1}"#, r#"{"row":2}"#]
    );
    let (counts, rest, rows, photo_errors): (String, String, String, String) = conn
        .query_row(
            "SELECT counts, report, rows, photo_errors FROM import_runs",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    let counts: serde_json::Value = serde_json::from_str(&counts).unwrap();
    assert_eq!(
        counts,
        serde_json::json!({"new": 2, "changed": 0, "unchanged": 0, "gone": 1, "left": 0,
            "errors": 1, "warnings": 2})
    );
    assert_eq!(rest, r#"{"newBrands":["Haval"],"newBodyTypes":[]}"#);
    assert_eq!((rows.as_str(), photo_errors.as_str()), ("[]", "[]"));
}

/// Before V33 any car could carry a typed monthly payment; a new or used
/// car's figure now comes from the credit programmes, so the upgrade drops
/// theirs and keeps a lease car's (docs/pricing.md, "Car price fields").
#[test]
fn v32_typed_monthly_payments_upgrade_to_lease_cars_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(32)).unwrap();
    insert_brand(&conn);
    for status in ["new", "used", "lease"] {
        conn.execute(
            "INSERT INTO cars (id, brand_id, name, slug, model, year, price_kopecks,
                monthly_payment_kopecks, status, body_type, transmission, drivetrain, fuel_type,
                engine, created_at, updated_at)
             VALUES (?1, 'brand-1', ?1, ?1, 'M', 2024, 100000000, 9820000, ?1, 'sedan',
                'automatic', 'front', 'gasoline', '1.6', ?2, ?2)",
            params![status, T],
        )
        .unwrap();
    }
    migrate(&mut conn).unwrap();
    assert_eq!(
        texts(
            &conn,
            "SELECT status || ':' || coalesce(monthly_payment_kopecks, 'none') FROM cars
             ORDER BY status",
            [],
        ),
        ["lease:9820000", "new:none", "used:none"]
    );
}

/// A single-salon database of V38 upgraded (V39, several salons): nothing
/// new to fill, and what it answers is what it answered: the settings, the
/// car and the lead read back the same, with no salon in any answer.
#[test]
fn v38_single_salon_upgrades_with_nothing_changed() {
    use crate::domain::{cars, leads, salons, settings};
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(38)).unwrap();
    insert_brand(&conn);
    conn.execute(
        "INSERT INTO settings (id, salon_name, phone, address, updated_at, operator_name,
            notification_email)
         VALUES (1, 'Нева Моторс', '+7 (812) 111-22-33', 'Невский, 1', ?1, 'ООО «Нева»',
            'sales@neva.example')",
        [T],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO cars (id, brand_id, name, slug, model, year, price_kopecks, status,
            body_type, transmission, drivetrain, fuel_type, engine, created_at, updated_at)
         VALUES ('car-1', 'brand-1', 'X', 'car-1', 'M', 2024, 100000000, 'new', 'sedan',
            'automatic', 'front', 'gasoline', '1.6', ?1, ?1)",
        [T],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO leads (id, type, status, name, phone, consent_version, consent_at,
            consent_ip, created_at, updated_at)
         VALUES ('lead-1', 'contact_form', 'new', 'Иван', '+79991234567', 1, ?1, '', ?1, ?1)",
        [T],
    )
    .unwrap();
    migrate(&mut conn).unwrap();
    let read = settings::get(&conn).unwrap();
    assert_eq!(read.public.salon_name, "Нева Моторс");
    assert_eq!(read.notification_email, "sales@neva.example");
    assert_eq!((read.public.latitude, read.public.longitude), (None, None));
    assert!(read.lead_recipients.is_empty() && read.telegram_chat_id.is_empty());
    assert!(!salons::several(&conn).unwrap());
    let public = crate::domain::salons::public_settings(&conn, &Default::default()).unwrap();
    let json = serde_json::to_value(&public).unwrap();
    for absent in ["salons", "latitude", "longitude"] {
        assert!(json.get(absent).is_none(), "{absent} in {json}");
    }
    let car = cars::get(&conn, "car-1", true).unwrap().unwrap();
    assert_eq!(car.salon_id, None);
    assert!(serde_json::to_value(&car).unwrap().get("salonId").is_none());
    let lead = leads::get(&conn, "lead-1").unwrap().unwrap();
    assert!(
        serde_json::to_value(&lead)
            .unwrap()
            .get("salonId")
            .is_none()
    );
    let all = salons::all(&conn, &read, "").unwrap();
    assert_eq!(all.len(), 1);
    assert!(all[0].main && all[0].salon.name == "Нева Моторс" && all[0].cars == 1);
}
