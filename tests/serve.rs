//! `dealership serve` as a service manager runs it: SIGTERM stops the HTTP
//! server and the background jobs, and the process exits cleanly.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn get(port: u16, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    Some(answer)
}

#[test]
fn sigterm_stops_the_server_and_its_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dealership"))
        .arg("--data")
        .arg(dir.path())
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("RUST_LOG", "info,dealership::jobs=debug")
        .env_remove("DEALERSHIP_LISTEN")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();

    let started = Instant::now();
    let answer = loop {
        if let Some(answer) = get(port, "/robots.txt") {
            break answer;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the server did not start");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let stopping = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if stopping.elapsed() > Duration::from_secs(15) {
            let _ = child.kill();
            panic!("the server did not stop after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // The server logs to stdout (journald under systemd).
    let mut log = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(status.success(), "{status:?}\n{log}");
    assert!(
        stopping.elapsed() < Duration::from_secs(5),
        "stopped promptly"
    );
    assert!(log.contains("shutting down"), "{log}");
    assert!(log.contains("job stopped"), "the jobs stopped too: {log}");
    assert!(
        get(port, "/robots.txt").is_none(),
        "nothing listens any more"
    );
}
