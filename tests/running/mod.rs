//! `dealership serve` run as a process, for the tests that need real sockets
//! and signals.
#![allow(dead_code)]
#![allow(clippy::unwrap_used)] // a test helper may unwrap: a failure is a failed test

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A GET with `Connection: close`; the whole answer, or None when nothing
/// answers within `wait`.
pub fn get_within(port: u16, path: &str, wait: Duration) -> Option<String> {
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    exchange(port, request.as_bytes(), wait)
}

/// A POST of a JSON body with `Connection: close`; the whole answer, or
/// None when nothing answers within `wait`.
pub fn post_json_within(port: u16, path: &str, body: &str, wait: Duration) -> Option<String> {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    exchange(port, request.as_bytes(), wait)
}

fn exchange(port: u16, request: &[u8], wait: Duration) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(wait)).unwrap();
    stream.write_all(request).ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    (!answer.is_empty()).then(|| String::from_utf8_lossy(&answer).into_owned())
}

pub fn get(port: u16, path: &str) -> Option<String> {
    get_within(port, path, Duration::from_secs(10))
}

/// The `dealership` binary with `--data DIR`, in DIR, without the caller's
/// `DEALERSHIP_*` settings.
pub fn command(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dealership"));
    command.arg("--data").arg(data).current_dir(data);
    for (name, _) in std::env::vars() {
        if name.starts_with("DEALERSHIP_") {
            command.env_remove(name);
        }
    }
    command
}

/// Runs a `dealership` command on `data` to its end, with no input.
pub fn run(data: &Path, args: &[&str]) -> std::process::Output {
    command(data)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// What a command printed, standard output then standard error.
pub fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A running `dealership serve`; killed when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
    log: Arc<Mutex<String>>,
}

impl Server {
    /// Starts a server on `data` with extra environment variables and waits
    /// until it answers.
    pub fn start(data: &Path, env: &[(&str, &str)]) -> Server {
        Server::spawn(data, env).answering()
    }

    /// This server, once it answers (30 seconds at most).
    fn answering(self) -> Server {
        let started = Instant::now();
        while get_within(self.port, "/robots.txt", Duration::from_secs(5)).is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the server did not start: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        self
    }

    /// Starts a server without waiting for it.
    pub fn spawn(data: &Path, env: &[(&str, &str)]) -> Server {
        Server::spawn_logging_to(data, env, None)
    }

    /// Starts a server whose log and errors (stdout and stderr, as `>> log
    /// 2>&1` would) go to `out` (`/dev/full`: a disk with no room), and
    /// waits until it answers. [`Server::log`] stays empty.
    pub fn start_logging_to(data: &Path, env: &[(&str, &str)], out: std::fs::File) -> Server {
        Server::spawn_logging_to(data, env, Some(out)).answering()
    }

    fn spawn_logging_to(data: &Path, env: &[(&str, &str)], out: Option<std::fs::File>) -> Server {
        let port = free_port();
        let (stdout, stderr) = match out {
            Some(file) => (Stdio::from(file.try_clone().unwrap()), Stdio::from(file)),
            None => (Stdio::piped(), Stdio::piped()),
        };
        let mut child = command(data)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .spawn()
            .unwrap();
        // The log (stdout) and the errors (stderr), drained all along, so the
        // server never blocks on a full pipe.
        let log = Arc::new(Mutex::new(String::new()));
        let streams: Vec<Box<dyn Read + Send>> = [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
        ]
        .into_iter()
        .flatten()
        .collect();
        for mut stream in streams {
            std::thread::spawn({
                let log = log.clone();
                move || {
                    let mut buffer = [0u8; 4096];
                    while let Ok(n) = stream.read(&mut buffer) {
                        if n == 0 {
                            break;
                        }
                        log.lock()
                            .unwrap()
                            .push_str(&String::from_utf8_lossy(&buffer[..n]));
                    }
                }
            });
        }
        Server { child, port, log }
    }

    /// What the server wrote so far (its log on stdout, errors on stderr).
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Whether the log holds `needle` within `wait`: the server writes its
    /// log lines from a queue every 50 ms (`dealership::logging`), so a line
    /// logged before the port answered may not be written yet.
    pub fn logs_within(&self, needle: &str, wait: Duration) -> bool {
        let started = Instant::now();
        loop {
            if self.log().contains(needle) {
                return true;
            }
            if started.elapsed() >= wait {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits up to `wait` for the process to end.
    pub fn wait(&mut self, wait: Duration) -> Option<ExitStatus> {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader take the last lines.
                std::thread::sleep(Duration::from_millis(50));
                return Some(status);
            }
            if started.elapsed() > wait {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM and gives the exit status and how long the process took
    /// to end (at most `wait`; None when it did not).
    pub fn terminate(&mut self, wait: Duration) -> (Option<ExitStatus>, Duration) {
        let term = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(term.success());
        let stopping = Instant::now();
        let status = self.wait(wait);
        (status, stopping.elapsed())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Opens `count` connections that send the start of a request and nothing
/// more.
pub fn half_sent(port: u16, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
            stream
        })
        .collect()
}

/// Whether the server closed `stream` (end of file, a reset, or an answer
/// such as 408 followed by the end) within `wait`.
pub fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    let mut buffer = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}
