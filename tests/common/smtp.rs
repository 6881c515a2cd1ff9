//! The real SMTP server of a test: Debian's python3-aiosmtpd writing each
//! message as JSON (`tests/fixtures/smtp_sink.py`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dealership::http::AppState;
use dealership::jobs::Supervisor;
use serde_json::Value;

use super::TestApp;

/// A port free on loopback now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits up to `wait` for `check` to give something.
pub async fn eventually<T>(what: &str, wait: Duration, check: impl Fn() -> Option<T>) -> T {
    let deadline = Instant::now() + wait;
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// An app mailing through `127.0.0.1:port` with quick retries, `prepare`d
/// (settings, users) before its jobs (the outbox worker, the reminders)
/// start, and its state (the clock).
pub fn mailing_app(port: u16, prepare: impl FnOnce(&TestApp)) -> (TestApp, AppState, Supervisor) {
    let mut captured = None;
    let app = TestApp::with_state(|state| {
        let mut config = (*state.config).clone();
        config.notifications.retry_first_ms = 200;
        config.notifications.retry_max_seconds = 1;
        config.notifications.attempt_timeout_seconds = 5;
        config.smtp.host = "127.0.0.1".into();
        config.smtp.port = port;
        config.smtp.security = "none".into();
        state.config = Arc::new(config);
        state.channels = Arc::new(dealership::notify::Channels::new(
            state.config.clone(),
            state.db.clone(),
        ));
        captured = Some(state.clone());
    });
    let state: AppState = captured.unwrap();
    prepare(&app);
    let jobs = dealership::server::start_jobs(&state);
    (app, state, jobs)
}

/// The real SMTP server of a test; stopped when dropped.
pub struct SmtpSink {
    child: Child,
    pub port: u16,
    pub dir: PathBuf,
}

impl SmtpSink {
    pub fn start(port: u16, dir: &Path) -> SmtpSink {
        std::fs::create_dir_all(dir).unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/smtp_sink.py");
        let mut child = Command::new("/usr/bin/python3")
            .arg(script)
            .arg(port.to_string())
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 with aiosmtpd (apt-get install python3-aiosmtpd)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP server did not start");
        SmtpSink {
            child,
            port,
            dir: dir.to_path_buf(),
        }
    }

    /// The messages received so far, oldest first.
    pub fn messages(&self) -> Vec<Value> {
        read_messages(&self.dir)
    }
}

pub fn read_messages(dir: &Path) -> Vec<Value> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "json")
                        && !p.file_name().unwrap().to_string_lossy().starts_with('.')
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
