//! Writes that share a commit (leads): every accepted write is on disk when
//! it is answered, a refused one changes nothing, and one bad write in a batch
//! does not take the others down.
#![allow(clippy::unwrap_used)]

mod common;

use axum::http::StatusCode;
use common::TestApp;
use dealership::db::Db;
use dealership::error::AppError;
use serde_json::json;

fn scratch_db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("data.db")).unwrap();
    db.conn()
        .unwrap()
        .execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        .unwrap();
    (dir, db)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_writes_are_each_answered_after_they_are_stored() {
    let (dir, db) = scratch_db();
    let mut writes = tokio::task::JoinSet::new();
    for i in 0..300_i64 {
        let db = db.clone();
        let path = dir.path().join("data.db");
        writes.spawn(async move {
            db.write_grouped(move |c| {
                c.execute("INSERT INTO notes (id, text) VALUES (?1, 'n')", [i])?;
                Ok(i)
            })
            .await
            .unwrap();
            // Answered: a connection of its own already sees the row.
            let seen: i64 = rusqlite::Connection::open(path)
                .unwrap()
                .query_row("SELECT count(*) FROM notes WHERE id = ?1", [i], |r| {
                    r.get(0)
                })
                .unwrap();
            assert_eq!(seen, 1, "note {i} answered before it was stored");
        });
    }
    while let Some(done) = writes.join_next().await {
        done.unwrap();
    }
    let count: i64 = db
        .conn()
        .unwrap()
        .query_row("SELECT count(*) FROM notes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failing_write_is_rolled_back_alone() {
    let (_dir, db) = scratch_db();
    let mut writes = tokio::task::JoinSet::new();
    for i in 0..200_i64 {
        let db = db.clone();
        writes.spawn(async move {
            let answer = db
                .write_grouped(move |c| {
                    c.execute("INSERT INTO notes (id, text) VALUES (?1, 'first')", [i])?;
                    if i % 3 == 0 {
                        // Its first statement ran; the refusal must undo it.
                        return Err(AppError::invalid("text", "Неверный текст"));
                    }
                    if i % 3 == 1 {
                        // A database error half-way: also undone.
                        c.execute("INSERT INTO notes (id, text) VALUES (?1, NULL)", [i + 1000])?;
                    }
                    Ok(i)
                })
                .await;
            (i, answer)
        });
    }
    while let Some(done) = writes.join_next().await {
        let (i, answer) = done.unwrap();
        match i % 3 {
            0 => assert!(
                matches!(&answer, Err(AppError::Invalid { message, .. }) if message == "Неверный текст"),
                "{i}: {answer:?}"
            ),
            1 => assert!(answer.is_err(), "{i}: {answer:?}"),
            _ => assert_eq!(answer.unwrap(), i),
        }
    }
    let conn = db.conn().unwrap();
    let stored: Vec<i64> = conn
        .prepare("SELECT id FROM notes ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let expected: Vec<i64> = (0..200).filter(|i| i % 3 == 2).collect();
    assert_eq!(stored, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_leads_is_stored_whole() {
    let app = std::sync::Arc::new(TestApp::with_config(|c| c.leads.rate_limit_per_minute = 0));
    let mut posts = tokio::task::JoinSet::new();
    for i in 0..120 {
        let app = app.clone();
        posts.spawn(async move {
            let body = json!({
                "type": "contact_form",
                "name": format!("Покупатель {i}"),
                "phone": format!("+7 (912) {:03}-{:02}-{:02}", 100 + i, i % 100, (i * 7) % 100),
                "consent": true,
            });
            let answer = app
                .post_json_from("/api/leads", &body, &format!("198.51.100.{}:5000", i + 1))
                .await;
            assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text());
            answer.status
        });
    }
    while let Some(status) = posts.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::CREATED);
    }
    assert_eq!(app.count("SELECT count(*) FROM leads"), 120);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_that_panics_fails_alone_and_the_writer_goes_on() {
    let (_dir, db) = scratch_db();
    let broken = db
        .write_grouped(|c| {
            c.execute("INSERT INTO notes (id, text) VALUES (1, 'lost')", [])?;
            if c.is_autocommit() {
                return Ok(());
            }
            panic!("a bug in a write");
        })
        .await;
    assert!(
        broken.is_err(),
        "the panicking write is answered with an error"
    );
    let why = db
        .last_write_failure()
        .expect("the failed batch is remembered");
    assert!(why.contains("a bug in a write"), "{why}");

    let stored = db
        .write_grouped(|c| {
            c.execute("INSERT INTO notes (id, text) VALUES (2, 'kept')", [])?;
            Ok(2)
        })
        .await
        .unwrap();
    assert_eq!(stored, 2);
    assert_eq!(db.last_write_failure(), None, "a batch committed since");
    let notes: Vec<i64> = db
        .conn()
        .unwrap()
        .prepare("SELECT id FROM notes ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(notes, [2], "the panicking batch was rolled back");
}

/// Under replication Litestream holds a read transaction on the log nearly
/// all the time: the TRUNCATE after an erasure must not wait for it, since
/// waiting holds every write (leads) for the busy timeout and fails anyway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_replication_forgetting_old_versions_never_holds_the_writes() {
    use dealership::db::Checkpoints;
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.db");
    for checkpoints in [Checkpoints::LeftToReplication, Checkpoints::Own] {
        let _ = std::fs::remove_file(&path);
        let db = Db::open_with(&path, checkpoints).unwrap();
        assert_eq!(db.checkpoints(), checkpoints);
        db.conn()
            .unwrap()
            .execute_batch("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT)")
            .unwrap();
        // A reader on a snapshot, as Litestream is.
        let reader = rusqlite::Connection::open(&path).unwrap();
        reader.execute_batch("BEGIN").unwrap();
        let _: i64 = reader
            .query_row("SELECT count(*) FROM notes", [], |r| r.get(0))
            .unwrap();
        db.write_grouped(|c| Ok(c.execute("INSERT INTO notes (text) VALUES ('a')", [])?))
            .await
            .unwrap();
        let started = Instant::now();
        let truncated = db.forget_old_versions().await.unwrap();
        let took = started.elapsed();
        assert!(!truncated, "{checkpoints:?}: the reader keeps the log");
        match checkpoints {
            Checkpoints::LeftToReplication => {
                assert!(took < Duration::from_secs(1), "waited {took:?}")
            }
            // The site's own TRUNCATE waits for the reader for the busy timeout.
            Checkpoints::Own => assert!(took >= Duration::from_secs(4), "waited {took:?}"),
        }
        // Still writable, and the reader still reads its snapshot.
        db.write_grouped(|c| Ok(c.execute("INSERT INTO notes (text) VALUES ('b')", [])?))
            .await
            .unwrap();
        reader.execute_batch("COMMIT").unwrap();
        drop(reader);
        assert!(db.forget_old_versions().await.unwrap(), "{checkpoints:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_outwaits_a_long_transaction_of_the_site() {
    use std::time::{Duration, Instant};
    let (dir, db) = scratch_db();
    // Another connection holds the write lock longer than the pool's busy
    // timeout (5 s), as an import's apply of a large feed does.
    let path = dir.path().join("data.db");
    let (locked, is_locked) = std::sync::mpsc::channel();
    let holder = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(path).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        conn.execute("INSERT INTO notes (id, text) VALUES (1, 'import')", [])
            .unwrap();
        locked.send(()).unwrap();
        std::thread::sleep(Duration::from_secs(7));
        conn.execute_batch("COMMIT").unwrap();
    });
    is_locked.recv().unwrap();
    let started = Instant::now();
    db.write_grouped(|c| Ok(c.execute("INSERT INTO notes (id, text) VALUES (2, 'lead')", [])?))
        .await
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(5),
        "the lock was not held"
    );
    holder.join().unwrap();
    let count: i64 = db
        .conn()
        .unwrap()
        .query_row("SELECT count(*) FROM notes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 2);
    // The pool's connections wait as long as before for anything else.
    let conn = db.conn().unwrap();
    let blocker = rusqlite::Connection::open(dir.path().join("data.db")).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    let started = Instant::now();
    assert!(conn.execute_batch("BEGIN IMMEDIATE").is_err());
    assert!(started.elapsed() < Duration::from_secs(10));
}
