//! The outbox survives `kill -9`: leads queued while the mail server is
//! down are delivered, each once, by the next server process.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod running;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use dealership::db::Db;
use running::{Server, free_port};
use serde_json::{Value, json};

/// Debian's aiosmtpd writing each message to `dir` (tests/fixtures/smtp_sink.py).
fn start_sink(port: u16, dir: &Path) -> Child {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/smtp_sink.py");
    let mut child = Command::new("/usr/bin/python3")
        .arg(script)
        .arg(port.to_string())
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready");
    child
}

fn mails(dir: &Path) -> Vec<Value> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.file_name().unwrap().to_string_lossy().starts_with('.')
        })
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

fn post_lead(port: u16, name: &str) -> String {
    let body = json!({"type": "auto_selection", "name": name, "phone": "89991112233",
        "consent": true})
    .to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "POST /api/leads HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let json: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    json["id"].as_str().unwrap().to_string()
}

fn count(db: &Db, sql: &str) -> i64 {
    db.conn().unwrap().query_row(sql, [], |r| r.get(0)).unwrap()
}

fn wait_for(what: &str, wait: Duration, check: impl Fn() -> bool) {
    let deadline = Instant::now() + wait;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn queued_deliveries_survive_kill_9_and_go_once() {
    let data = tempfile::tempdir().unwrap();
    let sink_dir = tempfile::tempdir().unwrap();
    let smtp_port = free_port().to_string();
    let env = [
        ("DEALERSHIP_SMTP_HOST", "127.0.0.1"),
        ("DEALERSHIP_SMTP_PORT", smtp_port.as_str()),
        ("DEALERSHIP_SMTP_SECURITY", "none"),
        ("DEALERSHIP_NOTIFICATIONS_RETRY_FIRST_MS", "200"),
        ("DEALERSHIP_NOTIFICATIONS_RETRY_MAX_SECONDS", "1"),
        ("DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE", "0"),
    ];
    let mut server = Server::start(data.path(), &env);
    let db = Db::open(&data.path().join("dealership.db")).unwrap();
    {
        let conn = db.conn().unwrap();
        let mut settings = dealership::domain::settings::get(&conn).unwrap();
        settings.notification_email = "sales@salon.example".into();
        dealership::domain::settings::save(&conn, &settings).unwrap();
    }
    let leads: Vec<String> = (0..5)
        .map(|i| post_lead(server.port, &format!("Клиент {i}")))
        .collect();
    wait_for("failed tries", Duration::from_secs(15), || {
        count(
            &db,
            "SELECT count(*) FROM outbox WHERE attempts >= 1 AND last_error IS NOT NULL",
        ) == 5
    });
    // kill -9: nothing is cleaned up.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    // A row the dead worker had claimed (its claim would last a while).
    db.conn()
        .unwrap()
        .execute(
            "UPDATE outbox SET claimed_at = '2026-01-01T00:00:00.000Z',
                next_attempt_at = '2999-01-01T00:00:00.000Z'
             WHERE id = (SELECT min(id) FROM outbox)",
            [],
        )
        .unwrap();

    let mut sink = start_sink(smtp_port.parse().unwrap(), sink_dir.path());
    let mut server = Server::start(data.path(), &env);
    wait_for("every mail", Duration::from_secs(20), || {
        mails(sink_dir.path()).len() >= 5
    });
    std::thread::sleep(Duration::from_secs(2));
    let received = mails(sink_dir.path());
    assert_eq!(received.len(), 5, "{received:?}");
    for lead in &leads {
        let copies = received
            .iter()
            .filter(|m| m["message_id"].as_str().unwrap().contains(lead.as_str()))
            .count();
        assert_eq!(copies, 1, "lead {lead}");
    }
    wait_for("all marked sent", Duration::from_secs(5), || {
        count(&db, "SELECT count(*) FROM outbox WHERE status = 'sent'") == 5
    });
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "{}", server.log());
    let _ = sink.kill();
    let _ = sink.wait();
}
