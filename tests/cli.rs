//! The `dealership` command line, run as a user would.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn dealership(data: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dealership"))
        .arg("--data")
        .arg(data)
        .args(args)
        .env_remove("DEALERSHIP_LISTEN")
        .current_dir(data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn help_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
        vec!["user", "--help"],
        vec!["user", "create", "--help"],
        vec!["user", "password", "--help"],
        vec!["user", "list", "--help"],
        vec!["user", "delete", "--help"],
        vec!["backup", "--help"],
        vec!["restore", "--help"],
        vec!["check", "--help"],
    ] {
        let out = dealership(dir.path(), &args, None);
        assert!(out.status.success(), "{args:?}");
        assert!(stdout(&out).contains("Usage"), "{args:?}");
    }
}

#[test]
fn users_are_created_listed_changed_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let out = dealership(data, &["user", "list"], None);
    assert!(out.status.success());
    assert!(stdout(&out).contains("No users yet"));

    let out = dealership(
        data,
        &["user", "create", "manager", "--password-stdin"],
        Some("first-secret\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("User manager created"));

    let db = rusqlite::Connection::open(data.join("dealership.db")).unwrap();
    let hash: String = db
        .query_row(
            "SELECT password_hash FROM users WHERE username = 'manager'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(dealership::domain::users::verify_password(
        "first-secret",
        &hash
    ));

    let out = dealership(
        data,
        &["user", "create", "manager", "--password-stdin"],
        Some("other-secret\n"),
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("уже существует"), "{}", stderr(&out));

    let out = dealership(
        data,
        &["user", "create", "short", "--password-stdin"],
        Some("abc\n"),
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Пароль должен быть не короче 8"),
        "{}",
        stderr(&out)
    );

    let out = dealership(
        data,
        &["user", "password", "manager", "--password-stdin"],
        Some("second-secret\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let hash: String = db
        .query_row(
            "SELECT password_hash FROM users WHERE username = 'manager'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(dealership::domain::users::verify_password(
        "second-secret",
        &hash
    ));
    assert!(!dealership::domain::users::verify_password(
        "first-secret",
        &hash
    ));

    let out = dealership(
        data,
        &["user", "password", "nobody", "--password-stdin"],
        Some("second-secret\n"),
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no user named"));

    // A role other than the owner's, named on the command line.
    let out = dealership(
        data,
        &[
            "user",
            "create",
            "olga",
            "--role",
            "editor",
            "--password-stdin",
        ],
        Some("olga-secret\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("User olga created (editor)"));
    let out = dealership(
        data,
        &[
            "user",
            "create",
            "boss",
            "--role",
            "admin",
            "--password-stdin",
        ],
        Some("boss-secret\n"),
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Роль: owner, manager, editor или viewer"),
        "{}",
        stderr(&out)
    );

    let out = dealership(data, &["user", "list"], None);
    let list = stdout(&out);
    assert!(
        list.contains("manager\towner"),
        "created without --role: an owner\n{list}"
    );
    assert!(list.contains("olga\teditor"), "{list}");
    assert!(!list.contains("boss"), "{list}");

    let out = dealership(data, &["user", "delete", "manager"], None);
    assert!(out.status.success());
    let out = dealership(data, &["user", "delete", "manager"], None);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).lines().count(),
        1,
        "one clear line: {}",
        stderr(&out)
    );
}

#[test]
fn migrate_and_bad_config() {
    let dir = tempfile::tempdir().unwrap();
    let out = dealership(dir.path(), &["migrate"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("dealership.db").exists());

    let config = dir.path().join("bad.toml");
    std::fs::write(&config, "[leads]\nrate_limit_per_minute = -3\n").unwrap();
    let out = dealership(
        dir.path(),
        &["--config", config.to_str().unwrap(), "migrate"],
        None,
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("leads.rate_limit_per_minute"),
        "{}",
        stderr(&out)
    );

    let out = Command::new(env!("CARGO_BIN_EXE_dealership"))
        .args(["--data", dir.path().to_str().unwrap(), "migrate"])
        .env("DEALERSHIP_BASE_URL", "ftp://nowhere")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("base_url"), "{}", stderr(&out));

    let out = dealership(
        dir.path(),
        &["--config", "/no/such/file.toml", "migrate"],
        None,
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("/no/such/file.toml"));
}

#[test]
fn refuses_a_database_from_a_newer_version() {
    let dir = tempfile::tempdir().unwrap();
    assert!(dealership(dir.path(), &["migrate"], None).status.success());
    let db = rusqlite::Connection::open(dir.path().join("dealership.db")).unwrap();
    db.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (999, 'future', '2030-01-01T00:00:00.000000000Z', '0')",
        [],
    )
    .unwrap();
    let out = dealership(dir.path(), &["migrate"], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("newer version"), "{}", stderr(&out));
}

#[test]
fn backup_of_a_database_being_written_is_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    assert!(dealership(&data, &["migrate"], None).status.success());
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let stop = stop.clone();
        let written = written.clone();
        let path = data.join("dealership.db");
        std::thread::spawn(move || {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.busy_timeout(std::time::Duration::from_secs(5))
                .unwrap();
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                conn.execute(
                    "INSERT INTO leads (id, type, name, phone, consent_version, consent_at, consent_ip, created_at, updated_at)
                     VALUES (?1, 'auto_credit', 'Тест', '+79215551234', 1, 'now', '127.0.0.1', 'now', 'now')",
                    [format!("lead-{i}")],
                )
                .unwrap();
                i += 1;
                written.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    while written.load(Ordering::Relaxed) < 200 {
        std::thread::yield_now();
    }
    let target = data.join("copy.tar.gz");
    let out = dealership(&data, &["backup", target.to_str().unwrap()], None);
    let during = written.load(Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Backup written"));
    assert!(written.load(Ordering::Relaxed) > 200);

    // The archive's database, taken out of it.
    let unpacked = data.join("copy.db");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(&target).unwrap(),
    ));
    let mut entry = archive
        .entries()
        .unwrap()
        .map(Result::unwrap)
        .find(|e| e.path().unwrap().to_str() == Some("dealership.db"))
        .expect("the archive holds the database");
    entry.unpack(&unpacked).unwrap();
    drop(entry);
    let copy = rusqlite::Connection::open(&unpacked).unwrap();
    let check: String = copy
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let leads: i64 = copy
        .query_row("SELECT count(*) FROM leads", [], |r| r.get(0))
        .unwrap();
    assert!(
        leads >= 200 && leads as usize <= during + 1,
        "{leads} of {during}"
    );
    let mode: String = copy
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");

    // An existing file is never overwritten.
    let out = dealership(&data, &["backup", target.to_str().unwrap()], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists"));
}
