//! Slow and idle clients cannot hold the server: request headers must come
//! within the header timeout, the number of connections is bounded, and
//! SIGTERM ends the process within a few seconds whatever clients do.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

mod running;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use dealership::server::{HEADER_READ_TIMEOUT, SHUTDOWN_WAIT};
use running::{Server, closed_within, get_within, half_sent};

#[test]
fn half_sent_requests_do_not_hold_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path(), &[]);
    let opened = Instant::now();
    let mut slow = half_sent(server.port, 200);

    // A visitor is answered at once beside them.
    let asked = Instant::now();
    let answer = get_within(server.port, "/robots.txt", Duration::from_secs(5))
        .expect("answered beside 200 half-sent requests");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );

    // An idle kept-alive connection is timed the same way.
    let mut idle = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    idle.write_all(b"GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    let idle_since = Instant::now();
    let mut buffer = [0u8; 4096];
    idle.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let n = idle.read(&mut buffer).unwrap();
    assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 200"));

    // The half-sent ones stay open for the header timeout, not longer.
    assert!(
        !closed_within(&mut slow[0], Duration::from_secs(3)),
        "closed before the timeout"
    );
    for stream in slow.iter_mut().chain([&mut idle]) {
        let left = (HEADER_READ_TIMEOUT + Duration::from_secs(5)).saturating_sub(opened.elapsed());
        assert!(
            closed_within(stream, left),
            "still open {:?} after it was opened",
            opened.elapsed()
        );
    }
    assert!(opened.elapsed() >= HEADER_READ_TIMEOUT - Duration::from_secs(1));
    assert!(idle_since.elapsed() >= HEADER_READ_TIMEOUT - Duration::from_secs(1));

    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success(), "{}", server.log());
}

#[test]
fn at_the_connection_limit_a_visitor_takes_the_place_of_a_half_sent_request() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path(), &[("DEALERSHIP_MAX_CONNECTIONS", "20")]);
    assert!(
        server.log().contains("at most 20 connections at once"),
        "{}",
        server.log()
    );
    let mut slow = half_sent(server.port, 20);
    std::thread::sleep(Duration::from_millis(300));
    for visitor in 0..5 {
        let asked = Instant::now();
        let answer = get_within(server.port, "/robots.txt", Duration::from_secs(5))
            .unwrap_or_else(|| panic!("visitor {visitor} was not served"));
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "{:?}",
            asked.elapsed()
        );
    }
    // The oldest half-sent request made room (the next visitors took the
    // first one's place again), the newest are still open.
    assert!(closed_within(&mut slow[0], Duration::from_secs(1)));
    assert!(!closed_within(&mut slow[19], Duration::from_millis(500)));
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success(), "{}", server.log());
}

#[test]
fn at_the_connection_limit_requests_in_progress_are_not_cut() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(
        dir.path(),
        &[
            ("DEALERSHIP_MAX_CONNECTIONS", "20"),
            // The lead limit would answer most of them before their bodies.
            ("DEALERSHIP_LEADS_RATE_LIMIT_PER_MINUTE", "0"),
        ],
    );
    // Twenty requests whose bodies are still coming.
    let busy: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
            stream
                .write_all(
                    b"POST /api/leads HTTP/1.1\r\nHost: localhost\r\n\
                      Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
                )
                .unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // Every slot is in a request: a visitor waits...
    let visitor = std::thread::spawn({
        let port = server.port;
        move || {
            let asked = Instant::now();
            let answer = get_within(port, "/robots.txt", Duration::from_secs(20));
            (answer, asked.elapsed())
        }
    });
    std::thread::sleep(Duration::from_secs(2));
    assert!(!visitor.is_finished(), "a 21st connection was served");
    // ...until one of them ends.
    drop(busy);
    let (answer, waited) = visitor.join().unwrap();
    let answer = answer.expect("served once a slot was free");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(waited < Duration::from_secs(8), "{waited:?}");
    let (status, _) = server.terminate(Duration::from_secs(10));
    assert!(status.unwrap().success(), "{}", server.log());
}

#[test]
fn sigterm_ends_the_server_promptly_with_half_sent_requests_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path(), &[]);
    let _slow = half_sent(server.port, 100);
    // And one request waiting beyond the limit would not matter either.
    std::thread::sleep(Duration::from_millis(200));
    let (status, took) = server.terminate(Duration::from_secs(15));
    let log = server.log();
    let status = status.unwrap_or_else(|| panic!("still running 15 s after SIGTERM: {log}"));
    assert!(status.success(), "{status:?}\n{log}");
    assert!(
        took < SHUTDOWN_WAIT + Duration::from_secs(2),
        "took {took:?}: {log}"
    );
    assert!(log.contains("shutting down"), "{log}");
    assert!(log.contains("connections still open"), "{log}");
    assert!(
        get_within(server.port, "/robots.txt", Duration::from_secs(1)).is_none(),
        "nothing listens any more"
    );
}
