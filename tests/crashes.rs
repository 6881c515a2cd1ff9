//! The process killed (SIGKILL) in the middle of its work, at several
//! moments: an import's apply through the running server, `restore` and
//! `backup`. Whenever the kill lands, the database is whole (SQLite's
//! integrity check), an import is applied whole or not at all, a restore
//! leaves the old data or the restored data (never a mix), and a backup
//! leaves no archive under its final name that does not restore, nor harms
//! the live database. Each test also asserts that some kill did land while
//! the work was under way, so it cannot pass by killing too early or late.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod running;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use running::{Server, run, text};

fn spawn(data: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    running::command(data)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// SIGKILL; gives whether the process was still running when it came.
fn kill9(child: &mut Child) -> bool {
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    running
}

/// `dealership check` passes.
fn check_passes(data: &Path) {
    let out = run(data, &["check"]);
    assert!(out.status.success(), "check failed:\n{}", text(&out));
}

fn integrity(db: &Path) -> String {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let rows: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.join("; ")
}

/// Copies a folder with `cp -a` (a fresh copy each round).
fn copy_dir(from: &Path, to: &Path) {
    if to.exists() {
        std::fs::remove_dir_all(to).unwrap();
    }
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

fn names_starting(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(prefix))
        .collect();
    found.sort();
    found
}

// ---------------------------------------------------------------------------
// Backup and restore: two data sets told apart by their leads and pictures.

/// Leads and pictures of a data set: enough that a backup and a restore take
/// a measurable time (about 20 MB, little of it compressible: a second or
/// two in a debug build).
const LEADS: usize = 3000;
const PICTURES: usize = 800;

/// Bytes that do not compress, from a seed.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A data directory holding set `set` ('a' or 'b'): its leads are named
/// `set-<set>-<leads>-<pictures>`, its pictures' names start with the letter.
fn data_set(data: &Path, set: char, leads: usize, pictures: usize) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(data.join("media")).unwrap();
    // Personal data: `check` wants the directory closed to others.
    std::fs::set_permissions(data, std::fs::Permissions::from_mode(0o700)).unwrap();
    drop(dealership::db::Db::open(&data.join("dealership.db")).unwrap());
    let mut conn = rusqlite::Connection::open(data.join("dealership.db")).unwrap();
    let tx = conn.transaction().unwrap();
    tx.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
         INSERT INTO leads (id, type, name, phone, message, consent_version, consent_at,
                            consent_ip, created_at, updated_at)
         SELECT ?2 || '-' || i, 'contact_form', ?2, '+79215551234', hex(randomblob(1200)), 1,
                '2026-01-01T00:00:00.000Z', '127.0.0.1', '2026-01-01T00:00:00.000Z',
                '2026-01-01T00:00:00.000Z'
         FROM n",
        rusqlite::params![leads as i64, format!("set-{set}-{leads}-{pictures}")],
    )
    .unwrap();
    tx.commit().unwrap();
    drop(conn);
    for i in 0..pictures {
        let name = format!("{set}{i:07x}-800.webp");
        std::fs::write(
            data.join("media").join(name),
            noise(i as u64 + 1, 16 * 1024),
        )
        .unwrap();
    }
}

/// The set the database file holds right now, whole (the integrity check,
/// every lead of one set), and how many pictures that set has.
fn db_set(data: &Path) -> (char, usize) {
    let db = data.join("dealership.db");
    assert_eq!(integrity(&db), "ok", "{}", db.display());
    let conn =
        rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let names: Vec<(String, i64)> = conn
        .prepare("SELECT name, count(*) FROM leads GROUP BY name")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(names.len(), 1, "leads of both sets: {names:?}");
    let parts: Vec<&str> = names[0].0.split('-').collect();
    let leads: i64 = parts[2].parse().unwrap();
    assert_eq!(names[0].1, leads, "a set's leads lost: {names:?}");
    (parts[1].chars().next().unwrap(), parts[3].parse().unwrap())
}

/// The set of the pictures in the media folder, when they are one set's and
/// all `count` of them.
fn media_set(data: &Path, count: usize) -> Option<char> {
    let names: Vec<String> = std::fs::read_dir(data.join("media"))
        .ok()?
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let first = names.first()?.chars().next()?;
    (names.len() == count && names.iter().all(|n| n.starts_with(first))).then_some(first)
}

/// Which set the data directory holds, whole: its database and all its
/// pictures. Panics on a mix.
fn whole_set(data: &Path) -> char {
    let (set, pictures) = db_set(data);
    assert_eq!(
        media_set(data, pictures),
        Some(set),
        "the pictures are not the database's"
    );
    set
}

/// Set 'a' in `dir/pristine-<tag>`, and an archive of set 'b'.
fn two_sets(dir: &Path, tag: &str, leads: usize, pictures: usize) -> (PathBuf, PathBuf) {
    let pristine = dir.join(format!("pristine-{tag}"));
    data_set(&pristine, 'a', leads, pictures);
    let other = dir.join("other");
    data_set(&other, 'b', leads, pictures);
    let archive = dir.join(format!("b-{tag}.tar.gz"));
    let out = run(&other, &["backup", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    std::fs::remove_dir_all(&other).unwrap();
    (pristine, archive)
}

/// After a killed restore and the `check` that follows it: set 'a' as it
/// was, or set 'b' with set 'a' kept whole in `before-restore-*`; nothing
/// half-unpacked left behind.
fn restored_or_old(data: &Path) -> char {
    check_passes(data);
    assert!(names_starting(data, ".restore-").is_empty());
    let set = whole_set(data);
    if set == 'b' {
        let previous = names_starting(data, "before-restore-");
        assert_eq!(previous.len(), 1, "{previous:?}");
        assert_eq!(whole_set(&previous[0]), 'a');
    }
    set
}

#[test]
fn a_restore_killed_at_any_moment_leaves_the_old_data_or_the_restored_data() {
    let dir = tempfile::tempdir().unwrap();
    let (pristine, archive) = two_sets(dir.path(), "big", LEADS, PICTURES);
    let archive = archive.to_str().unwrap();
    let work = dir.path().join("work");

    // The whole restore, timed.
    copy_dir(&pristine, &work);
    let started = Instant::now();
    let out = run(&work, &["restore", archive]);
    let whole = started.elapsed();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(restored_or_old(&work), 'b');

    // Killed at increasing moments of the same restore.
    let mut landed = 0;
    let mut outcomes = Vec::new();
    for tenth in [1u32, 3, 5, 7, 10] {
        copy_dir(&pristine, &work);
        let mut restore = spawn(&work, &["restore", archive], &[]);
        std::thread::sleep(whole * tenth / 10);
        let running = kill9(&mut restore);
        // Right after the kill, before any command: one whole database.
        let (raw, _) = db_set(&work);
        let unpacked = !names_starting(&work, ".restore-").is_empty();
        if running && unpacked {
            landed += 1;
        }
        let set = restored_or_old(&work);
        if !unpacked {
            assert_eq!(set, raw);
        }
        outcomes.push((tenth, running, unpacked, raw, set));
    }
    eprintln!("restore: {whole:?} whole; (tenth, running, unpacked, raw, after): {outcomes:?}");
    assert!(
        landed >= 1,
        "no kill landed while the restore ran ({whole:?} for a whole one): {outcomes:?}"
    );

    // Killed at each step of putting the checked archive in place (held
    // there by a debug-build pause): the next command finishes the restore.
    // A small archive: these kills wait for its check to end.
    let (pristine, archive) = two_sets(dir.path(), "small", 200, 50);
    let archive = archive.to_str().unwrap();
    let pause = Duration::from_millis(400);
    let mut mixed_on_disk = 0;
    for step in 0..4u32 {
        copy_dir(&pristine, &work);
        let mut restore = spawn(
            &work,
            &["restore", archive],
            &[("CRASH_TEST_RESTORE_PAUSE_MS", "400")],
        );
        let started = Instant::now();
        let ready = loop {
            if let Some(staging) = names_starting(&work, ".restore-").first()
                && staging.join(".ready").exists()
            {
                break Instant::now();
            }
            assert!(
                restore.try_wait().unwrap().is_none(),
                "the restore ended before its archive was marked ready"
            );
            assert!(started.elapsed() < Duration::from_secs(30));
            std::thread::sleep(Duration::from_millis(2));
        };
        std::thread::sleep((pause * step + pause / 2).saturating_sub(ready.elapsed()));
        assert!(kill9(&mut restore), "step {step}: the restore had ended");
        // One whole database at every step, even when the pictures moved.
        let (raw, pictures) = db_set(&work);
        if media_set(&work, pictures) != Some(raw) {
            mixed_on_disk += 1;
        }
        assert_eq!(restored_or_old(&work), 'b', "step {step}");
    }
    assert!(
        mixed_on_disk >= 2,
        "no kill caught the pictures and the database apart"
    );
    // The restored site starts.
    let mut server = Server::start(&work, &[]);
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());
}

#[test]
fn a_backup_killed_at_any_moment_leaves_no_partial_archive_and_the_database_whole() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    data_set(&data, 'a', LEADS, PICTURES);
    let backups = dir.path().join("backups");
    let backups_arg = backups.to_str().unwrap().to_string();
    let scratch = dir.path().join("scratch");

    let started = Instant::now();
    let out = run(&data, &["backup", "--dir", &backups_arg]);
    let whole = started.elapsed();
    assert!(out.status.success(), "{}", text(&out));
    for archive in names_starting(&backups, "dealership-") {
        std::fs::remove_file(archive).unwrap();
    }

    let mut landed = 0;
    let mut outcomes = Vec::new();
    for tenth in [1u32, 3, 5, 7, 9, 11] {
        let mut backup = spawn(&data, &["backup", "--dir", &backups_arg], &[]);
        std::thread::sleep(whole * tenth / 10);
        let running = kill9(&mut backup);
        // The live data untouched.
        assert_eq!(whole_set(&data), 'a');
        let left: Vec<PathBuf> = names_starting(&backups, "dealership-");
        let partial = left
            .iter()
            .any(|p| p.to_str().unwrap().ends_with(".partial"));
        if running && partial {
            landed += 1;
        }
        // An archive under its final name is complete: it restores.
        for archive in left
            .iter()
            .filter(|p| p.to_str().unwrap().ends_with(".tar.gz"))
        {
            std::fs::create_dir_all(&scratch).unwrap();
            let out = run(&scratch, &["restore", archive.to_str().unwrap()]);
            assert!(
                out.status.success(),
                "{}: {}",
                archive.display(),
                text(&out)
            );
            assert_eq!(whole_set(&scratch), 'a');
            std::fs::remove_dir_all(&scratch).unwrap();
            std::fs::remove_file(archive).unwrap();
        }
        outcomes.push((tenth, running, partial));
        // A new second: the next archive gets a new name.
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("backup: {whole:?} whole; (tenth, running, partial left): {outcomes:?}");
    assert!(
        landed >= 2,
        "no kill landed while the backup ran ({whole:?} for a whole one): {outcomes:?}"
    );

    // The next backup clears what the killed ones left, and restores.
    let out = run(&data, &["backup", "--dir", &backups_arg]);
    assert!(out.status.success(), "{}", text(&out));
    let left = names_starting(&backups, "");
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].to_str().unwrap().ends_with(".tar.gz"));
    assert!(
        names_starting(&data, ".backup-").is_empty(),
        "snapshots of killed backups left"
    );
    std::fs::create_dir_all(&scratch).unwrap();
    let out = run(&scratch, &["restore", left[0].to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(whole_set(&scratch), 'a');
    check_passes(&data);
}

// ---------------------------------------------------------------------------
// An import's apply, through the running server.

const PASSWORD: &str = "crash-test-password-1";
const HEADER: &str = "id;vin;brand;model;year;price;status;body_type;transmission;drivetrain;fuel_type;engine;mileage;color;photos";
const BRANDS: [&str; 5] = ["Haval", "Chery", "Geely", "Lada", "Kia"];

/// A CSV feed (`docs/parser.md`) of cars `ids`, priced by `price`.
fn feed(ids: std::ops::Range<usize>, price: impl Fn(usize) -> u64) -> Vec<u8> {
    let mut text = String::from(HEADER);
    for i in ids {
        let brand = BRANDS[i % BRANDS.len()];
        text.push_str(&format!(
            "\nC-{i:05};;{brand};Model {};{};{};С пробегом;Кроссовер;Автомат;Передний;Бензин;\
             1.5 л, 150 л.с.;{};белый;",
            i % 37,
            2015 + i % 10,
            price(i),
            1000 + i * 7
        ));
    }
    text.push('\n');
    text.into_bytes()
}

fn basic() -> String {
    use base64::Engine;
    let credential = base64::engine::general_purpose::STANDARD.encode(format!("admin:{PASSWORD}"));
    format!("Basic {credential}")
}

/// Sends a request as the admin; gives the status and body, or None when
/// the connection ends without an answer.
fn admin_call(
    port: u16,
    method: &str,
    path: &str,
    content_type: Option<&str>,
    body: &[u8],
    wait: Duration,
) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Authorization: {}\r\nContent-Length: {}\r\n",
        basic(),
        body.len()
    );
    if let Some(content_type) = content_type {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.get(9..12)?.parse().ok()?;
    let (_, body) = answer.split_once("\r\n\r\n")?;
    Some((status, body.to_string()))
}

fn json_of(answer: Option<(u16, String)>, expected: u16) -> serde_json::Value {
    let (status, body) = answer.expect("no answer");
    assert_eq!(status, expected, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Uploads a feed; gives its preview.
fn preview(port: u16, bytes: &[u8]) -> serde_json::Value {
    let boundary = "----crash-test-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"stock.csv\"\r\n\
         Content-Type: text/csv\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let run = json_of(
        admin_call(
            port,
            "POST",
            "/api/admin/imports",
            Some(&format!("multipart/form-data; boundary={boundary}")),
            &body,
            Duration::from_secs(60),
        ),
        200,
    );
    assert_eq!(run["status"], "preview", "{run}");
    run
}

fn apply(port: u16, id: &str, wait: Duration) -> Option<(u16, String)> {
    admin_call(
        port,
        "POST",
        &format!("/api/admin/imports/{id}/apply"),
        None,
        b"",
        wait,
    )
}

fn run_status(port: u16, id: &str) -> String {
    let run = json_of(
        admin_call(
            port,
            "GET",
            &format!("/api/admin/imports/{id}"),
            None,
            b"",
            Duration::from_secs(30),
        ),
        200,
    );
    run["status"].as_str().unwrap().to_string()
}

/// The catalogue as the import sees it: every car's external id, price and
/// whether it is published, in order.
fn catalogue(data: &Path) -> Vec<(String, i64, bool)> {
    let conn = rusqlite::Connection::open_with_flags(
        data.join("dealership.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    conn.prepare("SELECT coalesce(external_id, id), price_kopecks, published FROM cars ORDER BY 1")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn an_import_killed_while_it_applies_is_applied_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let pristine = dir.path().join("pristine");
    std::fs::create_dir(&pristine).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&pristine, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let mut user = running::command(&pristine)
        .args(["user", "create", "admin", "--password-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    writeln!(user.stdin.take().unwrap(), "{PASSWORD}").unwrap();
    assert!(user.wait().unwrap().success());

    // Before: 1,000 cars imported. The import killed: 900 of them at new
    // prices, 100 gone (unpublished), and 2,100 new ones.
    let mut server = Server::start(&pristine, &[]);
    let first = preview(server.port, &feed(0..1000, |i| 1_000_000 + i as u64));
    let id = first["id"].as_str().unwrap();
    json_of(apply(server.port, id, Duration::from_secs(120)), 200);
    let second = preview(server.port, &feed(100..3100, |i| 2_000_000 + i as u64));
    let run_id = second["id"].as_str().unwrap().to_string();
    assert_eq!(second["counts"]["new"], 2100, "{}", second["counts"]);
    assert_eq!(second["counts"]["gone"], 100, "{}", second["counts"]);
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success());
    drop(server);
    let before = catalogue(&pristine);
    assert_eq!(before.len(), 1000);

    // The whole apply, timed (and what it makes).
    let work = dir.path().join("work");
    copy_dir(&pristine, &work);
    let server = Server::start(&work, &[]);
    let started = Instant::now();
    json_of(apply(server.port, &run_id, Duration::from_secs(120)), 200);
    let whole = started.elapsed();
    // What an admin call takes without the apply (the credentials checked).
    let started = Instant::now();
    run_status(server.port, &run_id);
    let overhead = started.elapsed();
    drop(server);
    let after = catalogue(&work);
    assert_eq!(after.len(), 3100);
    assert_ne!(before, after);

    let mut landed = 0;
    let mut outcomes = Vec::new();
    for tenth in [2u32, 5, 8, 10] {
        copy_dir(&pristine, &work);
        let mut server = Server::start(&work, &[]);
        let port = server.port;
        let call = std::thread::spawn({
            let run_id = run_id.clone();
            move || apply(port, &run_id, Duration::from_secs(120))
        });
        let delay = whole * tenth / 10;
        std::thread::sleep(delay);
        let running = kill9(&mut server.child);
        drop(server);
        // Answered or not, the caller was told nothing false.
        let answered = call.join().unwrap();
        let running = running && answered.is_none();
        check_passes(&work);
        assert_eq!(integrity(&work.join("dealership.db")), "ok");
        let now = catalogue(&work);
        let applied = if now == before {
            false
        } else {
            assert_eq!(now, after, "half an import after a kill at {delay:?}");
            true
        };
        // Started again on the same data: the run says what happened.
        let server = Server::start(&work, &[]);
        let status = run_status(server.port, &run_id);
        assert_eq!(
            status,
            if applied { "applied" } else { "preview" },
            "after a kill at {delay:?}"
        );
        if running && !applied && delay > overhead * 2 {
            landed += 1;
            if landed == 1 {
                // The preview applies in full after the restart.
                json_of(apply(server.port, &run_id, Duration::from_secs(120)), 200);
                drop(server);
                assert_eq!(catalogue(&work), after);
            }
        }
        outcomes.push((tenth, running, applied));
    }
    eprintln!(
        "import: {whole:?} whole, {overhead:?} a call; (tenth, running, applied): {outcomes:?}"
    );
    assert!(
        landed >= 1,
        "no kill landed while the import applied ({whole:?} for a whole one, \
         {overhead:?} for a call): {outcomes:?}"
    );
}
