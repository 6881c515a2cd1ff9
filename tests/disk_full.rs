//! A bad day on a real filesystem: the data directory and the server's log
//! on a small tmpfs that fills up during a lead flood. Every request is
//! answered, a lead that cannot be stored gets 503 with `Retry-After` and the
//! dealer's phone, `/healthz` says why, no acknowledged lead is lost, and
//! intake works again when space returns, without a restart
//! (`docs/operations.md`, "Health"). Mounting the tmpfs needs root, as the
//! test machines run.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod running;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmpfs of `megabytes` mounted on a fresh directory; unmounted when
/// dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(megabytes: u32) -> SmallDisk {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(
            mounted.status.success(),
            "this test mounts a small tmpfs and must run as root: {}",
            String::from_utf8_lossy(&mounted.stderr)
        );
        SmallDisk { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// Fills the filesystem of `path` with one file until a write fails for
/// lack of space; gives the file.
fn fill(path: &Path) -> PathBuf {
    let ballast = path.join("ballast");
    let mut file = std::fs::File::create(&ballast).unwrap();
    for chunk in [1 << 20, 4096, 512, 1] {
        let bytes = vec![0x55u8; chunk];
        while file.write_all(&bytes).is_ok() {}
    }
    let _ = file.sync_all();
    ballast
}

fn lead(n: usize) -> (String, String) {
    let digits = format!(
        "{:03}{:02}{:02}",
        (n / 10_000) % 1000,
        (n / 100) % 100,
        n % 100
    );
    let phone = format!("+7921{digits}");
    let body = serde_json::json!({
        "type": "auto_selection",
        "name": format!("Посетитель {n} {}", "с длинным именем ".repeat(10)),
        "phone": phone,
        "sourceUrl": "https://auto.example.ru/",
        "consent": true
    })
    .to_string();
    (phone, body)
}

fn status(answer: &str) -> u16 {
    answer[9..12].parse().unwrap()
}

fn body(answer: &str) -> serde_json::Value {
    serde_json::from_str(&answer[answer.find("\r\n\r\n").unwrap() + 4..]).unwrap()
}

#[test]
fn a_full_disk_refuses_leads_with_503_loses_none_and_intake_returns_with_space() {
    let disk = SmallDisk::mount(48);
    let data = disk.path().join("data");
    std::fs::create_dir(&data).unwrap();
    // The log on the same filesystem, as `>> site.log 2>&1` would.
    let log = std::fs::File::create(disk.path().join("site.log")).unwrap();
    let mut server = running::Server::start_logging_to(
        &data,
        &[
            ("DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE", "0"),
            ("DEALERSHIP_HEALTH_MIN_FREE_DISK_MB", "4"),
        ],
        log,
    );
    let port = server.port;
    let health = running::get(port, "/healthz").unwrap();
    assert_eq!(status(&health), 200, "{health}");

    // A flood before and while the disk fills: 8 senders at once.
    let mut acknowledged = Vec::new();
    for n in 0..40 {
        let (phone, lead) = lead(n);
        let answer = running::post_json_within(port, "/api/leads", &lead, Duration::from_secs(10))
            .unwrap_or_else(|| panic!("lead {n} got no answer"));
        assert_eq!(status(&answer), 201, "{answer}");
        acknowledged.push(phone);
    }
    let ballast = fill(disk.path());
    let senders: Vec<_> = (0..8)
        .map(|sender| {
            std::thread::spawn(move || {
                (0..40)
                    .map(|i| {
                        let (phone, lead) = lead(1000 + sender * 100 + i);
                        let answer = running::post_json_within(
                            port,
                            "/api/leads",
                            &lead,
                            Duration::from_secs(10),
                        )
                        .unwrap_or_else(|| panic!("a lead got no answer"));
                        (phone, answer)
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut refused = None;
    for sender in senders {
        for (phone, answer) in sender.join().unwrap() {
            match status(&answer) {
                201 => acknowledged.push(phone),
                503 => refused = Some(answer),
                other => panic!("{other}: {answer}"),
            }
        }
    }
    let refused = refused.expect("a full disk refused no lead");
    assert!(
        refused
            .to_ascii_lowercase()
            .contains("\r\nretry-after: 60\r\n"),
        "{refused}"
    );
    let said = body(&refused)["error"].as_str().unwrap().to_string();
    assert!(
        said.starts_with("Не удалось сохранить заявку")
            && said.ends_with("позвоните нам: +7 (812) 000-00-00"),
        "{said}"
    );
    // The site still answers everything, and says what is wrong.
    for path in ["/robots.txt", "/api/settings", "/healthz"] {
        let answer = running::get(port, path).unwrap_or_else(|| panic!("{path}: no answer"));
        assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
    }
    let health = running::get(port, "/healthz").unwrap();
    assert_eq!(status(&health), 503, "{health}");
    let problems = body(&health)["problems"].to_string();
    assert!(
        problems.contains("Мало места на диске: свободно 0 МБ"),
        "{problems}"
    );

    // Space returns: intake works again without a restart.
    std::fs::remove_file(&ballast).unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    let back = loop {
        let (phone, lead) = lead(5_000_000 + acknowledged.len());
        let answer = running::post_json_within(port, "/api/leads", &lead, Duration::from_secs(10))
            .expect("no answer after space returned");
        if status(&answer) == 201 {
            acknowledged.push(phone);
            break true;
        }
        if Instant::now() > deadline {
            break false;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(back, "intake did not come back once space returned");
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let health = running::get(port, "/healthz").unwrap();
        if status(&health) == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "still unhealthy: {health}");
        std::thread::sleep(Duration::from_millis(500));
    }
    let (exit, _) = server.terminate(Duration::from_secs(10));
    assert!(exit.unwrap().success());

    // Every lead answered 201 is on disk, and the file is whole.
    let conn = rusqlite::Connection::open(data.join("dealership.db")).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let stored: i64 = conn
        .query_row("SELECT count(*) FROM leads", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored as usize, acknowledged.len());
    let mut find = conn
        .prepare("SELECT count(*) FROM leads WHERE phone = ?1")
        .unwrap();
    for phone in &acknowledged {
        let found: i64 = find.query_row([phone], |r| r.get(0)).unwrap();
        assert_eq!(found, 1, "acknowledged lead {phone} is not stored");
    }
}
