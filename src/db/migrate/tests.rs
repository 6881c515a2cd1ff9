//! Upgrades of databases built at an older schema version.

use rusqlite::{Connection, params};

use super::{known_version, migrate, migrate_to};
use crate::domain::cars;

/// A database file at schema V2, opened the way the pool opens connections
/// (foreign keys on).
fn v2_database() -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(2)).unwrap();
    (dir, conn)
}

fn schema_version(conn: &Connection) -> i64 {
    conn.query_row(
        "SELECT max(version) FROM refinery_schema_history",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

pub(super) const T: &str = "2026-03-01T10:00:00.000Z";

fn insert_v2_car(conn: &Connection, id: &str, body: &str, main_image: &str, images: &str) {
    conn.execute(
        "INSERT INTO cars (id, brand_id, name, slug, model, year, price_kopecks, status, body_type,
            transmission, drivetrain, fuel_type, engine, main_image, images, created_at, updated_at)
         VALUES (?1, 'brand-1', ?1, ?1, 'M', 2024, 100000000, 'new', ?2, 'automatic', 'front',
            'gasoline', '1.6', ?3, ?4, ?5, ?5)",
        params![id, body, main_image, images, T],
    )
    .unwrap();
}

/// The brand every car of these tests belongs to.
pub(super) fn insert_brand(conn: &Connection) {
    conn.execute(
        "INSERT INTO brands (id, name, slug, created_at, updated_at)
         VALUES ('brand-1', 'Haval', 'haval', ?1, ?1)",
        [T],
    )
    .unwrap();
}

/// The texts of a one-column query, in its order.
pub(super) fn texts(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Vec<String> {
    conn.prepare(sql)
        .unwrap()
        .query_map(params, |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Each car's id and rowid (a rebuilt table must keep the rowids).
fn rowids_of(conn: &Connection) -> Vec<(String, i64)> {
    conn.prepare("SELECT id, rowid FROM cars ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn images_of(conn: &Connection, car_id: &str) -> Vec<String> {
    texts(
        conn,
        "SELECT url FROM car_images WHERE car_id = ?1 ORDER BY position",
        [car_id],
    )
}

#[test]
fn v2_data_upgrades_to_v3_with_every_reference_and_picture_kept() {
    let (_dir, mut conn) = v2_database();
    assert_eq!(schema_version(&conn), 2);
    insert_brand(&conn);
    // The main picture also listed: kept once, first.
    insert_v2_car(
        &conn,
        "car-a",
        "crossover",
        "/media/a-800.webp",
        r#"["/media/b-800.webp","/media/a-800.webp","/media/c-800.webp"]"#,
    );
    // No main picture named: the list as it was.
    insert_v2_car(
        &conn,
        "car-b",
        "sedan",
        "",
        r#"["/media/x-800.webp","/media/y-800.webp","/media/x-800.webp"]"#,
    );
    // Only a main picture.
    insert_v2_car(&conn, "car-c", "pickup", "/media/m-800.webp", "[]");
    // No pictures at all.
    insert_v2_car(&conn, "car-d", "coupe", "", "[]");
    // A main picture outside a full list: it comes first, the sixth goes.
    insert_v2_car(
        &conn,
        "car-e",
        "wagon",
        "/media/main-800.webp",
        r#"["/media/1-800.webp","/media/2-800.webp","/media/3-800.webp","/media/4-800.webp","/media/5-800.webp","/media/6-800.webp"]"#,
    );
    let rowids = rowids_of(&conn);
    conn.execute(
        "INSERT INTO reviews (id, customer_name, car_id, rating, text, approved, created_at, updated_at)
         VALUES ('review-1', 'Анна', 'car-a', 5, 'Отлично', 1, ?1, ?1)",
        [T],
    )
    .unwrap();
    for (id, car) in [("lead-1", "car-b"), ("lead-2", "car-e")] {
        conn.execute(
            "INSERT INTO leads (id, type, name, phone, car_id, consent_version, consent_at,
                consent_ip, created_at, updated_at)
             VALUES (?1, 'auto_credit', 'Иван', '+79990000000', ?2, 1, ?3, '203.0.113.1', ?3, ?3)",
            params![id, car, T],
        )
        .unwrap();
    }
    conn.execute(
        "INSERT INTO outbox (id, channel, lead_id, next_attempt_at, created_at)
         VALUES (7, 'telegram', 'lead-1', ?1, ?1)",
        [T],
    )
    .unwrap();

    migrate(&mut conn).unwrap();

    assert!(schema_version(&conn) >= 3, "migrated past V3");
    let enforced: bool = conn
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .unwrap();
    assert!(enforced, "the connection's foreign keys are on again");
    let review_car: Option<String> = conn
        .query_row(
            "SELECT car_id FROM reviews WHERE id = 'review-1'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(review_car.as_deref(), Some("car-a"));
    let lead_cars: Vec<Option<String>> = conn
        .prepare("SELECT car_id FROM leads ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(lead_cars, [Some("car-b".into()), Some("car-e".into())]);
    let outbox: (String, Option<String>) = conn
        .query_row(
            "SELECT channel, lead_id FROM outbox WHERE id = 7",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(outbox, ("telegram".into(), Some("lead-1".into())));
    let rowids_after = rowids_of(&conn);
    assert_eq!(rowids_after, rowids);

    assert_eq!(
        images_of(&conn, "car-a"),
        [
            "/media/a-800.webp",
            "/media/b-800.webp",
            "/media/c-800.webp"
        ]
    );
    assert_eq!(
        images_of(&conn, "car-b"),
        ["/media/x-800.webp", "/media/y-800.webp"]
    );
    assert_eq!(images_of(&conn, "car-c"), ["/media/m-800.webp"]);
    assert!(images_of(&conn, "car-d").is_empty());
    assert_eq!(
        images_of(&conn, "car-e"),
        [
            "/media/main-800.webp",
            "/media/1-800.webp",
            "/media/2-800.webp",
            "/media/3-800.webp",
            "/media/4-800.webp",
            "/media/5-800.webp"
        ]
    );

    // The cars read as before, through the domain.
    let a = cars::get(&conn, "car-a", true).unwrap().unwrap();
    assert_eq!(a.main_image, "/media/a-800.webp");
    assert_eq!(a.images.len(), 3);
    assert!(a.has_images);
    let d = cars::get(&conn, "car-d", true).unwrap().unwrap();
    assert_eq!(d.main_image, "");
    assert!(d.images.is_empty() && !d.has_images);

    // The indexes came back with the rebuilt tables.
    for index in [
        "cars_public_order",
        "cars_filter",
        "cars_body_filter",
        "cars_brand_filter",
        "outbox_due",
    ] {
        let found: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?1",
                [index],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(found, 1, "{index}");
    }

    // Deleting a car now sets its references to NULL and drops its pictures.
    conn.execute("DELETE FROM cars WHERE id = 'car-a'", [])
        .unwrap();
    let review_car: Option<String> = conn
        .query_row(
            "SELECT car_id FROM reviews WHERE id = 'review-1'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(review_car, None);
    assert!(images_of(&conn, "car-a").is_empty());
}

#[test]
fn body_types_and_outbox_channels_are_references() {
    let mut conn = Connection::open_in_memory().unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate(&mut conn).unwrap();
    insert_brand(&conn);
    let insert_car = |body: &str| {
        conn.execute(
            "INSERT INTO cars (id, brand_id, name, slug, model, year, price_kopecks, status,
                body_type, transmission, drivetrain, fuel_type, engine, created_at, updated_at)
             VALUES (?1, 'brand-1', ?1, ?1, 'M', 2024, 100, 'new', ?1, 'manual', 'front',
                'gasoline', '1.6', ?2, ?2)",
            params![body, T],
        )
    };
    insert_car("sedan").unwrap();
    let unknown = insert_car("limousine").unwrap_err().to_string();
    assert!(unknown.contains("FOREIGN KEY"), "{unknown}");

    let queue = |channel: &str| {
        conn.execute(
            "INSERT INTO outbox (channel, next_attempt_at, created_at) VALUES (?1, ?2, ?2)",
            params![channel, T],
        )
    };
    queue("email").unwrap();
    assert!(queue("max").is_err());
    // A new channel is a row, not a table rebuild.
    conn.execute("INSERT INTO outbox_channels (name) VALUES ('max')", [])
        .unwrap();
    queue("max").unwrap();
}

#[test]
fn a_broken_reference_after_migrating_is_an_error() {
    let (_dir, mut conn) = v2_database();
    // Written with foreign keys off: a review of a car that does not exist.
    conn.pragma_update(None, "foreign_keys", false).unwrap();
    conn.execute(
        "INSERT INTO reviews (id, customer_name, car_id, rating, text, created_at, updated_at)
         VALUES ('review-1', 'Анна', 'no-such-car', 5, 'Отлично', ?1, ?1)",
        [T],
    )
    .unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    let err = migrate(&mut conn).unwrap_err().to_string();
    assert!(
        err.contains("1 reference(s) point at missing rows"),
        "{err}"
    );
    assert!(err.contains("reviews row 1 -> cars"), "{err}");
    let enforced: bool = conn
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .unwrap();
    assert!(enforced);
    // The database is back as it was, at V2, with its row.
    assert_eq!(schema_version(&conn), 2);
    let review: String = conn
        .query_row(
            "SELECT car_id FROM reviews WHERE id = 'review-1'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(review, "no-such-car");
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'car_images'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 0, "V3 undone");
    assert!(err.contains("left as it was"), "{err}");
    let dir = conn
        .path()
        .map(|p| std::path::PathBuf::from(p).with_file_name(""));
    let leftovers: Vec<_> = std::fs::read_dir(dir.unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains("before-migration"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// The names of the tables and indexes of a database, for comparing schemas.
fn schema_of(conn: &Connection) -> Vec<String> {
    texts(
        conn,
        "SELECT type || ' ' || name FROM sqlite_schema ORDER BY 1",
        [],
    )
}

#[test]
fn a_failing_migration_leaves_the_database_as_it_was() {
    let (_dir, mut conn) = v2_database();
    insert_brand(&conn);
    insert_v2_car(&conn, "car-a", "sedan", "/media/a-800.webp", "[]");
    // The last migration (V6) creates this table: V3 to V5 run, then V6 fails.
    conn.execute_batch("CREATE TABLE audit_log (id INTEGER PRIMARY KEY)")
        .unwrap();
    let before = schema_of(&conn);

    let err = migrate(&mut conn).unwrap_err().to_string();
    assert!(err.contains("migration failed"), "{err}");
    assert!(err.contains("audit_log"), "{err}");

    assert_eq!(schema_version(&conn), 2, "no migration recorded");
    assert_eq!(schema_of(&conn), before, "V3 to V5 were rolled back");
    let images: String = conn
        .query_row("SELECT images FROM cars WHERE id = 'car-a'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(images, "[]", "the V2 car is as it was");
    let enforced: bool = conn
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .unwrap();
    assert!(enforced);

    // Once the obstacle is gone, the same upgrade goes through.
    conn.execute_batch("DROP TABLE audit_log").unwrap();
    migrate(&mut conn).unwrap();
    assert_eq!(
        i32::try_from(schema_version(&conn)).unwrap(),
        known_version()
    );
}

#[test]
fn a_database_of_a_newer_binary_is_refused_with_both_versions() {
    let mut conn = Connection::open_in_memory().unwrap();
    migrate(&mut conn).unwrap();
    let known = known_version();
    let newer = known + 3;
    conn.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
         VALUES (?1, 'future', '2030-01-01T00:00:00Z', '0')",
        [newer],
    )
    .unwrap();
    let before = schema_of(&conn);
    let err = migrate(&mut conn).unwrap_err().to_string();
    assert!(
        err.contains(&format!("schema version {newer}")),
        "names the database's version: {err}"
    );
    assert!(
        err.contains(&format!("versions up to {known}")),
        "names this binary's: {err}"
    );
    assert!(err.contains(env!("CARGO_PKG_VERSION")), "{err}");
    assert!(err.contains("newer version"), "{err}");
    assert_eq!(schema_of(&conn), before);
}

#[test]
fn v9_leads_upgrade_to_v11_with_their_deliveries_and_indexes() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(9)).unwrap();
    conn.execute_batch(&format!(
        "INSERT INTO settings (id, salon_name, phone, address, updated_at)
             VALUES (1, 'Салон', '+7', 'СПб', '{T}');
         INSERT INTO leads (id, type, name, phone, desired_amount_kopecks, consent_version,
             consent_at, consent_ip, created_at, updated_at, amocrm_lead_id)
             VALUES ('lead-1', 'auto_credit', 'Иван', '+79991234567', 150000000, 1, '{T}',
             '127.0.0.1', '{T}', '{T}', 42);
         INSERT INTO outbox (channel, lead_id, next_attempt_at, created_at)
             VALUES ('email', 'lead-1', '{T}', '{T}');"
    ))
    .unwrap();
    let rowid: i64 = conn
        .query_row("SELECT rowid FROM leads WHERE id = 'lead-1'", [], |r| {
            r.get(0)
        })
        .unwrap();
    migrate(&mut conn).unwrap();
    let (kept_rowid, amount, amo, date): (i64, i64, i64, Option<String>) = conn
        .query_row(
            "SELECT rowid, desired_amount_kopecks, amocrm_lead_id, preferred_date FROM leads
             WHERE id = 'lead-1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(
        (kept_rowid, amount, amo, date),
        (rowid, 150000000, 42, None)
    );
    let delivery: String = conn
        .query_row("SELECT lead_id FROM outbox", [], |r| r.get(0))
        .unwrap();
    assert_eq!(delivery, "lead-1");
    let indexes: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'leads' AND sql IS NOT NULL ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        indexes,
        [
            "leads_assignee",
            "leads_created",
            // V30's, on the address's comparison key.
            "leads_email_key",
            // V36's: a caller's open lead found by the phone.
            "leads_phone",
            // V39's: a further salon's leads.
            "leads_salon",
            "leads_status",
            "leads_type"
        ]
    );
    // The new type is accepted, an unknown one still refused.
    let insert = |kind: &str| {
        conn.execute(
            "INSERT INTO leads (id, type, name, phone, consent_version, consent_at, consent_ip,
                 created_at, updated_at, preferred_date, preferred_time)
             VALUES (?1, ?1, 'П', '+7', 1, ?2, 'ip', ?2, ?2, '2026-12-01', '10:00')",
            params![kind, T],
        )
    };
    assert!(insert("test_drive").is_ok());
    assert!(insert("no_such_type").is_err());
    // Deleting a lead still detaches its deliveries (the reference is the new table's).
    conn.execute("DELETE FROM leads WHERE id = 'lead-1'", [])
        .unwrap();
    let detached: Option<String> = conn
        .query_row("SELECT lead_id FROM outbox", [], |r| r.get(0))
        .unwrap();
    assert_eq!(detached, None);
    // The stored settings got the default schedule.
    let schedule: String = conn
        .query_row("SELECT work_schedule FROM settings", [], |r| r.get(0))
        .unwrap();
    let schedule: crate::domain::hours::WorkSchedule = serde_json::from_str(&schedule).unwrap();
    assert_eq!(schedule, crate::domain::hours::WorkSchedule::default());
}

#[test]
fn v21_deliveries_upgrade_to_v22_with_every_column_and_the_new_kind() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = Connection::open(dir.path().join("old.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate_to(&mut conn, Some(21)).unwrap();
    conn.execute_batch(&format!(
        "INSERT INTO leads (id, type, name, phone, consent_version, consent_at, consent_ip,
             created_at, updated_at)
             VALUES ('lead-1', 'contact_form', 'Иван', '+79991234567', 1, '{T}', '127.0.0.1',
             '{T}', '{T}');
         INSERT INTO outbox (id, kind, channel, lead_id, payload, status, attempts,
             next_attempt_at, last_error, created_at, sent_at, claimed_at, retry_since)
             VALUES (7, 'reminder', 'telegram', 'lead-1', '{{\"waitingMinutes\":20}}', 'failed',
             3, '{T}', 'timeout', '{T}', NULL, '{T}', '{T}');"
    ))
    .unwrap();
    migrate(&mut conn).unwrap();
    let row: (String, String, String, String, i64, String, String) = conn
        .query_row(
            "SELECT kind, channel, lead_id, payload, attempts, last_error, claimed_at
             FROM outbox WHERE id = 7",
            [],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            },
        )
        .unwrap();
    assert_eq!(
        row,
        (
            "reminder".into(),
            "telegram".into(),
            "lead-1".into(),
            "{\"waitingMinutes\":20}".into(),
            3,
            "timeout".into(),
            T.into()
        )
    );
    let insert = |kind: &str| {
        conn.execute(
            "INSERT INTO outbox (kind, channel, lead_id, next_attempt_at, created_at)
             VALUES (?1, 'email', 'lead-1', ?2, ?2)",
            params![kind, T],
        )
    };
    assert!(insert("assigned").is_ok());
    assert!(insert("gossip").is_err());
    let indexes: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'outbox' AND sql IS NOT NULL ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(indexes, ["outbox_due", "outbox_lead"]);
    // Still detached when its lead goes.
    conn.execute("DELETE FROM leads WHERE id = 'lead-1'", [])
        .unwrap();
    let detached: i64 = conn
        .query_row(
            "SELECT count(*) FROM outbox WHERE lead_id IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(detached, 2);
}

#[test]
fn program_versions_are_kept_as_one_number() {
    use super::{decode_version, encode_version};
    assert_eq!(encode_version("0.1.0"), Some(1_000));
    assert_eq!(encode_version("2.13.7-rc.1"), Some(2_013_007));
    assert_eq!(decode_version(2_013_007).as_deref(), Some("2.13.7"));
    assert_eq!(encode_version("1.1000.0"), None);
    assert_eq!(encode_version("1.2"), None);
    assert_eq!(decode_version(0), None);
    let this = env!("CARGO_PKG_VERSION");
    assert_eq!(
        decode_version(encode_version(this).unwrap()).as_deref(),
        Some(this.split('-').next().unwrap())
    );
}
