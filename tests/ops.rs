//! Running the site for real (`docs/operations.md`): backups taken while
//! leads come in restore every acknowledged lead and every picture, restore
//! refuses damaged archives and a running server, SIGTERM under load loses
//! no acknowledged lead, `check`, `/healthz` and the request log.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod common;
mod running;

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use running::{Server, run, text};

const NAME: &str = "Иван Петров";
const PHONE: &str = "+7 (921) 555-12-34";
const PHONE_DIGITS: &str = "9215551234";

/// Sends a lead; gives its id when the server acknowledged it (201).
fn post_lead(port: u16) -> Option<String> {
    let body = serde_json::json!({
        "type": "contact_form",
        "name": NAME,
        "phone": PHONE,
        "sourceUrl": "https://auto.example.ru/contacts",
        "consent": true
    })
    .to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "POST /api/leads HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    let answer = String::from_utf8_lossy(&answer);
    if !answer.starts_with("HTTP/1.1 201") {
        return None;
    }
    let (_, json) = answer.split_once("\r\n\r\n")?;
    let lead: serde_json::Value = serde_json::from_str(json).ok()?;
    Some(lead["id"].as_str()?.to_string())
}

/// Threads that send leads until stopped; every acknowledged id is kept.
struct Writers {
    stop: Arc<AtomicBool>,
    acknowledged: Arc<Mutex<Vec<String>>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Writers {
    fn start(port: u16, count: usize) -> Writers {
        let stop = Arc::new(AtomicBool::new(false));
        let acknowledged = Arc::new(Mutex::new(Vec::new()));
        let threads = (0..count)
            .map(|_| {
                let (stop, acknowledged) = (stop.clone(), acknowledged.clone());
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        match post_lead(port) {
                            Some(id) => acknowledged.lock().unwrap().push(id),
                            None => std::thread::sleep(Duration::from_millis(5)),
                        }
                    }
                })
            })
            .collect();
        Writers {
            stop,
            acknowledged,
            threads,
        }
    }

    fn acknowledged(&self) -> Vec<String> {
        self.acknowledged.lock().unwrap().clone()
    }

    fn wait_for(&self, count: usize) {
        let started = std::time::Instant::now();
        while self.acknowledged.lock().unwrap().len() < count {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "leads are not being acknowledged"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn stop(self) -> Vec<String> {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads {
            thread.join().unwrap();
        }
        self.acknowledged.lock().unwrap().clone()
    }
}

fn lead_ids(data: &Path) -> BTreeSet<String> {
    let conn = rusqlite::Connection::open(data.join("dealership.db")).unwrap();
    conn.prepare("SELECT id FROM leads")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A data directory with the demo dealership (cars with pictures).
fn demo_data(data: &Path) {
    let db = dealership::db::Db::open(&data.join("dealership.db")).unwrap();
    std::fs::create_dir_all(data.join("media")).unwrap();
    assert!(dealership::demo::seed(&db, &data.join("media")).unwrap());
}

#[test]
fn a_backup_taken_while_leads_come_in_restores_them_and_every_picture() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    demo_data(&data);
    let server = Server::start(&data, &[("DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE", "0")]);
    let writers = Writers::start(server.port, 8);
    writers.wait_for(40);

    let before_backup = writers.acknowledged();
    let archive = dir.path().join("site.tar.gz");
    let out = run(&data, &["backup", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let during = writers.acknowledged().len();
    writers.wait_for(during + 20);
    let all = writers.stop();
    assert!(all.len() > before_backup.len());
    assert!(text(&out).contains("Backup written"), "{}", text(&out));

    let restored = dir.path().join("restored");
    // `run` starts in the data directory, so it is made first.
    std::fs::create_dir(&restored).unwrap();
    let out = run(&restored, &["restore", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let ids = lead_ids(&restored);
    let lost: Vec<&String> = before_backup
        .iter()
        .filter(|id| !ids.contains(*id))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged leads lost",
        lost.len(),
        before_backup.len()
    );
    // Nothing but acknowledged (or about to be) leads: no half-written row.
    let live = lead_ids(&data);
    assert!(ids.iter().all(|id| live.contains(id)));

    let conn = rusqlite::Connection::open(restored.join("dealership.db")).unwrap();
    let urls: Vec<String> = conn
        .prepare("SELECT url FROM car_images")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!urls.is_empty(), "the demo cars have pictures");
    for url in &urls {
        let name = url.strip_prefix("/media/").unwrap();
        assert!(restored.join("media").join(name).is_file(), "{url}");
    }
    let files: Vec<String> = std::fs::read_dir(restored.join("media"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    for hash in dealership::media::cleanup::used_hashes(&conn).unwrap() {
        assert!(files.iter().any(|f| f.starts_with(&hash)), "{hash}");
    }

    // The restored directory serves.
    drop(server);
    let mut again = Server::start(&restored, &[]);
    let health = running::get(again.port, "/healthz").unwrap();
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let (status, _) = again.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());
}

/// A small data directory (no demo pictures) and its backup.
fn small_backup(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let data = dir.join("data");
    std::fs::create_dir(&data).unwrap();
    assert!(run(&data, &["migrate"]).status.success());
    std::fs::create_dir_all(data.join("media")).unwrap();
    std::fs::write(data.join("media/0123-800.webp"), b"picture bytes").unwrap();
    let archive = dir.join("small.tar.gz");
    let out = run(&data, &["backup", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    (data, archive)
}

#[test]
fn restore_refuses_a_damaged_archive() {
    let dir = tempfile::tempdir().unwrap();
    let (_data, archive) = small_backup(dir.path());
    let target = dir.path().join("target");
    std::fs::create_dir(&target).unwrap();

    // A byte changed in the compressed stream.
    let mut bytes = std::fs::read(&archive).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    let flipped = dir.path().join("flipped.tar.gz");
    std::fs::write(&flipped, &bytes).unwrap();
    let out = run(&target, &["restore", flipped.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out).contains("cannot be restored"), "{}", text(&out));
    assert!(!target.join("dealership.db").exists());

    // Cut short.
    let cut = dir.path().join("cut.tar.gz");
    std::fs::write(&cut, &std::fs::read(&archive).unwrap()[..middle]).unwrap();
    let out = run(&target, &["restore", cut.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out).contains("cut short"), "{}", text(&out));

    // Well-formed, but a picture changed after the manifest was written.
    let tampered = dir.path().join("tampered.tar.gz");
    repack(&archive, &tampered, |path, content| {
        if path == "media/0123-800.webp" {
            content[0] ^= 1;
        }
    });
    let out = run(&target, &["restore", tampered.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("media/0123-800.webp does not match its checksum"),
        "{}",
        text(&out)
    );

    // A database that fails SQLite's integrity check, with checksums that
    // match it (the manifest rewritten).
    let broken_db = dir.path().join("broken.tar.gz");
    repack(&archive, &broken_db, |path, content| {
        if path == "dealership.db" {
            // Page 2 onwards overwritten: the schema still reads, the
            // b-trees do not.
            let page = 4096.min(content.len() / 2);
            for byte in &mut content[page..page + 64] {
                *byte = 0xFF;
            }
        }
    });
    let out = run(&target, &["restore", broken_db.to_str().unwrap()]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("damaged") || said.contains("malformed") || said.contains("not a database"),
        "{said}"
    );
    assert!(!target.join("dealership.db").exists(), "nothing restored");
    let left: Vec<_> = std::fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "dealership.lock")
        .collect();
    assert!(left.is_empty(), "no staging left behind: {left:?}");
}

/// Rewrites an archive with its files changed by `change`; the manifest is
/// kept as it was unless the database changed, when its line is updated.
fn repack(from: &Path, to: &Path, change: impl Fn(&str, &mut Vec<u8>)) {
    use sha2::Digest;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(from).unwrap(),
    ));
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().to_str().unwrap().to_string();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        files.push((path, content));
    }
    let mut db_line = None;
    for (path, content) in &mut files {
        let before = content.clone();
        change(path, content);
        if path == "dealership.db" && *content != before {
            db_line = Some((content.len(), hex::encode(sha2::Sha256::digest(&content))));
        }
    }
    if let Some((size, sha)) = db_line {
        let manifest = files
            .iter_mut()
            .find(|(p, _)| p == "manifest.json")
            .unwrap();
        let mut json: serde_json::Value = serde_json::from_slice(&manifest.1).unwrap();
        for file in json["files"].as_array_mut().unwrap() {
            if file["path"] == "dealership.db" {
                file["size"] = size.into();
                file["sha256"] = sha.clone().into();
            }
        }
        manifest.1 = serde_json::to_vec(&json).unwrap();
    }
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(to).unwrap(),
        flate2::Compression::fast(),
    );
    let mut builder = tar::Builder::new(gz);
    for (path, content) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(content.len() as u64);
        header.set_mode(0o640);
        builder
            .append_data(&mut header, path, content.as_slice())
            .unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap();
}

#[test]
fn restore_refuses_a_running_server_and_keeps_the_data_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let (data, archive) = small_backup(dir.path());
    // Data written after the backup, which the restore must not lose.
    std::fs::write(data.join("media/later-800.webp"), b"later").unwrap();

    let mut server = Server::start(&data, &[]);
    let out = run(&data, &["restore", archive.to_str().unwrap()]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("refusing to restore while a server uses the data directory")
            && said.contains(&server.child.id().to_string())
            && said.contains("systemctl stop dealership"),
        "{said}"
    );
    assert!(data.join("media/later-800.webp").exists());
    assert!(
        running::get(server.port, "/healthz").is_some(),
        "still serves"
    );
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());

    let out = run(&data, &["restore", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("is kept in"), "{}", text(&out));
    assert_eq!(
        std::fs::read(data.join("media/0123-800.webp")).unwrap(),
        b"picture bytes"
    );
    assert!(!data.join("media/later-800.webp").exists());
    let previous: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("before-restore-")
        })
        .collect();
    assert_eq!(previous.len(), 1, "{previous:?}");
    assert!(previous[0].join("media/later-800.webp").exists());
    assert!(previous[0].join("dealership.db").exists());
    // The restored site starts.
    let mut server = Server::start(&data, &[]);
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());
}

#[test]
fn backups_into_a_folder_keep_the_newest_and_none_past_the_retention_period() {
    let dir = tempfile::tempdir().unwrap();
    let (data, _) = small_backup(dir.path());
    let backups = dir.path().join("backups");
    std::fs::create_dir(&backups).unwrap();
    let name = |days_ago: i64| {
        let at = chrono::Utc::now() - chrono::Duration::days(days_ago);
        format!("dealership-{}.tar.gz", at.format("%Y%m%d-%H%M%S"))
    };
    // Named once: the time moves on while the backup runs.
    let old = [3, 2, 1].map(name);
    for file in &old {
        std::fs::write(backups.join(file), b"old").unwrap();
    }
    std::fs::write(backups.join("notes.txt"), b"not a backup").unwrap();
    let out = run(
        &data,
        &["backup", "--dir", backups.to_str().unwrap(), "--keep", "2"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(&backups)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let names = listing();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names[0], old[2]);
    assert!(names[1].starts_with("dealership-20") && names[1] != names[0]);
    assert_eq!(names[2], "notes.txt");
    assert!(text(&out).contains("Removed the old backup"));

    // Within the count, an archive older than the retention period (3
    // years by default) is not kept: it holds what the site has forgotten.
    let (past, within) = (name(3 * 366 + 1), name(2 * 365));
    std::fs::write(backups.join(&past), b"old").unwrap();
    std::fs::write(backups.join(&within), b"old").unwrap();
    // A new second: archive names carry the time.
    std::thread::sleep(Duration::from_millis(1100));
    let out = run(
        &data,
        &["backup", "--dir", backups.to_str().unwrap(), "--keep", "10"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let names = listing();
    assert!(!names.contains(&past), "{names:?}");
    assert!(names.contains(&within), "{names:?}");
    assert_eq!(names.len(), 5, "{names:?}");

    let out = run(&data, &["backup", "--keep", "2", "x.tar.gz"]);
    assert!(!out.status.success(), "--keep needs --dir");
    assert!(text(&out).contains("give --dir too"), "{}", text(&out));
}

#[test]
fn sigterm_under_load_loses_no_acknowledged_lead() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    assert!(run(data, &["migrate"]).status.success());
    let mut server = Server::start(data, &[("DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE", "0")]);
    let writers = Writers::start(server.port, 8);
    writers.wait_for(50);
    let (status, took) = server.terminate(Duration::from_secs(10));
    let acknowledged = writers.stop();
    assert!(status.unwrap().success(), "{}", server.log());
    assert!(took < Duration::from_secs(5), "stopped in {took:?}");
    let stored = lead_ids(data);
    let lost: Vec<&String> = acknowledged
        .iter()
        .filter(|id| !stored.contains(*id))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged leads lost",
        lost.len(),
        acknowledged.len()
    );
}

#[test]
fn the_request_log_has_one_plain_line_per_request_without_personal_data() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path(), &[]);
    assert!(post_lead(server.port).is_some());
    running::get(
        server.port,
        &format!("/api/cars/fast?search={PHONE_DIGITS}&name=%D0%98%D0%B2%D0%B0%D0%BD"),
    )
    .unwrap();
    running::get(server.port, "/api/brands/slug/ivan-9215551234").unwrap();
    // The second is a kept answer, served before routing: logged all the same.
    running::get(server.port, "/api/cars/count").unwrap();
    running::get(server.port, "/api/cars/count").unwrap();
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());
    let log = server.log();
    assert_eq!(log.matches(" GET /api/cars/count 200 ").count(), 2, "{log}");
    let line = |needle: &str| {
        log.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?}:\n{log}"))
            .to_string()
    };
    let lead = line("POST /api/leads 201 ");
    assert!(lead.trim_end().ends_with("ms"), "{lead}");
    line("GET /api/cars/fast ");
    line("GET /robots.txt 200 ");
    line("GET /api/brands/slug/{slug} 404 ");
    assert!(!log.contains(PHONE_DIGITS), "{log}");
    assert!(!log.contains("Иван"), "{log}");
    assert!(!log.contains("555-12-34"), "{log}");
    assert!(!log.contains('\u{1b}'), "no colour codes in a pipe: {log}");
}

/// The log and the errors on a disk with no room (`/dev/full` answers every
/// write with ENOSPC, as `dealership serve >> site.log 2>&1` on a full disk
/// would): every request is still answered, the lost lines are counted.
/// (Before the log had a thread of its own, the logger's fallback to stderr
/// panicked in the request and no request was answered.)
#[test]
fn a_log_that_cannot_be_written_takes_no_request_down() {
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut server = running::Server::start_logging_to(dir.path(), &[], full);
    for n in 0..300 {
        let path = ["/robots.txt", "/api/settings", "/no-such-page"][n % 3];
        let answer = running::get_within(server.port, path, Duration::from_secs(5))
            .unwrap_or_else(|| panic!("request {n} ({path}) got no answer"));
        assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
    }
    let health = running::get(server.port, "/healthz").unwrap();
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let body = &health[health.find("\r\n\r\n").unwrap() + 4..];
    let lost = body
        .split("\"logLinesLost\":")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no count of lost lines: {health}"));
    assert!(lost >= 300, "{lost} lines counted lost: {health}");
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());
}

#[tokio::test]
async fn healthz_answers_while_the_database_is_usable() {
    let app = common::TestApp::new();
    let answer = app.get("/healthz").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.json()["status"], "ok");
    assert!(answer.json()["logLinesLost"].is_u64(), "{}", answer.text());
    assert_eq!(answer.headers["cache-control"], "no-store");

    // A database that reads but does not take the probe's write.
    app.db
        .conn()
        .unwrap()
        .execute_batch("DROP TABLE health_probe")
        .unwrap();
    tokio::time::sleep(dealership::http::health::PROBE_FRESH).await;
    let answer = app.get("/healthz").await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        answer
            .error()
            .starts_with("База данных не принимает записи: no such table: health_probe"),
        "{}",
        answer.text()
    );
    assert_eq!(answer.json()["problems"].as_array().unwrap().len(), 1);

    // A database that cannot answer the query.
    app.db
        .conn()
        .unwrap()
        .execute_batch("DROP TABLE refinery_schema_history")
        .unwrap();
    let answer = app.get("/healthz").await;
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(answer.error(), "База данных недоступна");
    assert_eq!(answer.headers["cache-control"], "no-store");
}

#[test]
fn check_says_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o750)).unwrap();

    let out = run(&data, &["check"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no database at"), "{}", text(&out));

    assert!(run(&data, &["migrate"]).status.success());
    let db = data.join("dealership.db");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = run(&data, &["check"]);
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("passes SQLite's integrity check"), "{said}");
    assert!(said.contains("the one this binary knows"), "{said}");
    assert!(said.contains("No problems found"), "{said}");

    // Readable by everyone: personal data. Not when the directory is closed.
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(run(&data, &["check"]).status.success());
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = run(&data, &["check"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("can be read by every user"),
        "{}",
        text(&out)
    );
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o640)).unwrap();
    assert!(run(&data, &["check"]).status.success());
    // Writable by everyone.
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = run(&data, &["check"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("can be written by every user"),
        "{}",
        text(&out)
    );
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o750)).unwrap();

    // A configuration with a password, readable by everyone.
    let config = dir.path().join("dealership.toml");
    std::fs::write(&config, "[smtp]\npassword = \"secret\"\n").unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();
    let with_config = |args: &[&str]| {
        let mut all = vec!["--config", config.to_str().unwrap()];
        all.extend_from_slice(args);
        run(&data, &all)
    };
    let out = with_config(&["check"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("holds passwords and can be read by every user"),
        "{}",
        text(&out)
    );
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o640)).unwrap();
    assert!(with_config(&["check"]).status.success());
    // Without a password, anyone may read it.
    std::fs::write(&config, "[smtp]\npassword = \"\"\n").unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(with_config(&["check"]).status.success());

    // Migrated by a newer binary: both versions named, and serve refuses.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
         VALUES (900, 'future', '2030-01-01T00:00:00Z', '0')",
        [],
    )
    .unwrap();
    drop(conn);
    let out = run(&data, &["check"]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("schema is at version 900") && said.contains("knows versions up to"),
        "{said}"
    );
    let out = run(&data, &["serve", "--listen", "127.0.0.1:0"]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("schema version 900") && said.contains("versions up to"),
        "{said}"
    );

    // A damaged file.
    std::fs::write(&db, b"this is not a database at all, not even close").unwrap();
    let out = run(&data, &["check"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("PROBLEM"), "{}", text(&out));
}

/// Pictures stored and swapped into a car, and the cleanup removing the
/// replaced ones, while backups run: every picture a backup's database names
/// is in the archive. The cleanup keeps pictures younger than its grace (an
/// hour); here every picture from before a backup counts as old.
#[test]
fn pictures_written_and_removed_during_a_backup_are_in_it_or_not_named_by_it() {
    use dealership::media::{Layout, cleanup, store_pixels};

    let app = common::TestApp::new();
    common::seed_catalogue(&app);
    let data = app.dir.path().to_path_buf();
    let config = dealership::config::Config {
        data_dir: data.clone(),
        ..dealership::config::Config::default()
    };
    let car: String = app
        .db
        .conn()
        .unwrap()
        .query_row("SELECT id FROM cars ORDER BY id LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(0));
    let removed = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (db, stop, media) = (app.db.clone(), stop.clone(), config.media_dir());
        let written = written.clone();
        std::thread::spawn(move || {
            let conn = db.conn().unwrap();
            let mut i = 0u32;
            while !stop.load(Ordering::Relaxed) {
                let pixels: Vec<u8> = (0..16 * 16 * 3)
                    .map(|p| (p as u32 ^ i.wrapping_mul(2_654_435_761)) as u8)
                    .collect();
                // Files first, then the row naming them, as the site does.
                conn.execute_batch("BEGIN IMMEDIATE").unwrap();
                let image = store_pixels(&conn, &media, &pixels, 16, 16, Layout::Rgb).unwrap();
                conn.execute(
                    "INSERT OR REPLACE INTO car_images (car_id, position, url) VALUES (?1, ?2, ?3)",
                    rusqlite::params![car, i % 6, image.url],
                )
                .unwrap();
                conn.execute_batch("COMMIT").unwrap();
                i += 1;
                written.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    let cleaner = {
        let (db, stop, media) = (app.db.clone(), stop.clone(), config.media_dir());
        let removed = removed.clone();
        std::thread::spawn(move || {
            let conn = db.conn().unwrap();
            while !stop.load(Ordering::Relaxed) {
                conn.execute_batch("BEGIN IMMEDIATE").unwrap();
                let gone =
                    cleanup::collect_garbage(&conn, &media, dealership::server::PICTURE_GRACE)
                        .unwrap();
                conn.execute_batch("COMMIT").unwrap();
                removed.fetch_add(gone, Ordering::Relaxed);
                // Lets the writer in (SQLite's lock is not fair).
                std::thread::sleep(Duration::from_millis(3));
            }
        })
    };

    let started = std::time::Instant::now();
    let mut round = 0;
    while round < 6 || written.load(Ordering::Relaxed) < 100 || removed.load(Ordering::Relaxed) < 20
    {
        assert!(started.elapsed() < Duration::from_secs(120), "too slow");
        // What exists now was written over an hour ago: once replaced, the
        // cleanup may remove it while the backup runs.
        app.db
            .conn()
            .unwrap()
            .execute(
                "UPDATE media SET created_at = '2000-01-01T00:00:00.000Z'",
                [],
            )
            .unwrap();
        let archive = data.join(format!("round-{round}.tar.gz"));
        dealership::ops::backup::backup(&config, &archive).unwrap();
        let restored = tempfile::tempdir().unwrap();
        let target = dealership::config::Config {
            data_dir: restored.path().to_path_buf(),
            ..dealership::config::Config::default()
        };
        dealership::ops::restore::restore(&target, &archive).unwrap();
        let conn = rusqlite::Connection::open(target.database_path()).unwrap();
        let urls: Vec<String> = conn
            .prepare("SELECT url FROM car_images")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        for url in urls.iter().filter(|u| u.starts_with("/media/")) {
            let name = url.strip_prefix("/media/").unwrap();
            if name.len() > 40 {
                assert!(
                    target.media_dir().join(name).is_file(),
                    "round {round}: {url} is named but not in the archive"
                );
            }
        }
        std::fs::remove_file(&archive).unwrap();
        round += 1;
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    cleaner.join().unwrap();
}

/// Run by root over a service user's data directory, restore leaves every
/// file to that user, or the service could not write them.
#[test]
fn restored_files_belong_to_the_data_directorys_owner() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let (_, archive) = small_backup(dir.path());
    let target = dir.path().join("service");
    std::fs::create_dir(&target).unwrap();
    let (uid, gid) = (4321, 4321);
    if std::os::unix::fs::chown(&target, Some(uid), Some(gid)).is_err() {
        eprintln!("skipped: only root can give a folder to another user");
        return;
    }
    let out = run(&target, &["restore", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    for path in [
        target.join("dealership.db"),
        target.join("dealership.lock"),
        target.join("media"),
        target.join("media/0123-800.webp"),
    ] {
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (uid, gid), "{}", path.display());
    }
}

/// A replication job that fails (a database too busy for its bookkeeping,
/// a bucket out of reach) is on the admin's system card, but `/healthz`
/// stays about serving; any other job that is down turns it red.
#[tokio::test]
async fn a_replication_job_down_is_on_the_card_but_not_in_healthz() {
    use dealership::jobs::{Supervisor, Workers};
    let workers = Arc::new(Workers::default());
    let app = common::TestApp::with_state(|state| state.workers = workers.clone());
    app.create_admin();
    let mut jobs = Supervisor::with_restart_delay(Duration::from_secs(60), Duration::from_secs(60))
        .reporting_to(workers.clone());
    jobs.worker("media upload", |_stop| async {
        anyhow::bail!("database is locked")
    });
    for _ in 0..200 {
        if !workers.down_now().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(workers.down_now().len(), 1);
    let health = app.get("/healthz").await;
    assert_eq!(health.status, StatusCode::OK, "{}", health.text());
    let dashboard = app
        .admin(axum::http::Method::GET, "/api/admin/dashboard", None)
        .await
        .json();
    assert_eq!(
        dashboard["system"]["problems"],
        serde_json::json!([
            "Фоновая задача «копирование изображений в хранилище реплики» не работает: database is locked"
        ]),
        "{dashboard}"
    );

    // Any other job down is the site's problem.
    jobs.worker("outbox", |_stop| async { anyhow::bail!("disk I/O error") });
    for _ in 0..200 {
        if workers.down_now().len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let health = app.get("/healthz").await;
    assert_eq!(health.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        health.error(),
        "Фоновая задача «отправка уведомлений» не работает: disk I/O error"
    );
    assert!(jobs.stop(Duration::from_secs(5)).await);
}
