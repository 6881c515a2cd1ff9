//! The server's log leaves the process off the request path: a request only
//! puts its line in a bounded queue, and one thread writes the queue to
//! standard output (`docs/operations.md`, "Logs"). A write that fails (a
//! full disk under the log file, a closed pipe) or a queue that is full (a
//! journald that stalls) drops lines and counts them; nothing panics,
//! nothing waits, and the next line that can be written is.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

/// Bytes of lines the queue holds before new ones are dropped: a few
/// seconds of a busy site's request lines (about 16,000 of them).
const QUEUE_BYTES: usize = 2 * 1024 * 1024;

/// How often the writing thread takes what is queued. A request never
/// wakes it (a wake-up a line cost a third of a cached answer's time): it
/// wakes by itself, or when the queue is half full.
const WRITE_EVERY: Duration = Duration::from_millis(50);

/// Lines whose write failed, and lines dropped because the queue was full.
static LOST: AtomicU64 = AtomicU64::new(0);

/// Log lines lost since the start: writes that failed and lines dropped at
/// a full queue (`/healthz` shows it).
pub fn lost_lines() -> u64 {
    LOST.load(Ordering::Relaxed)
}

fn lines_in(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|b| **b == b'\n').count().max(1) as u64
}

/// A writer whose failures are counted and forgotten: the thread writing
/// the queue goes on to the next batch.
pub struct Forgiving<W>(pub W);

impl<W: Write> Write for Forgiving<W> {
    fn write(&mut self, lines: &[u8]) -> io::Result<usize> {
        if self.0.write_all(lines).is_err() {
            LOST.fetch_add(lines_in(lines), Ordering::Relaxed);
        }
        Ok(lines.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}

/// The queue the requests' lines go to and the thread writing it.
struct Queue {
    lines: Mutex<Vec<u8>>,
    more: Condvar,
    stop: AtomicBool,
}

/// The server's log writer: lines are appended to a bounded queue (no
/// system call, no wake-up), and a thread of its own writes the queue to
/// `out` every [`WRITE_EVERY`].
#[derive(Clone)]
pub struct Queued(Arc<Queue>);

impl Queued {
    fn push(&self, line: &[u8]) {
        let mut lines = self.0.lines.lock().unwrap_or_else(PoisonError::into_inner);
        if lines.len() + line.len() > QUEUE_BYTES {
            drop(lines);
            LOST.fetch_add(lines_in(line), Ordering::Relaxed);
            return;
        }
        lines.extend_from_slice(line);
        let half_full = lines.len() > QUEUE_BYTES / 2;
        drop(lines);
        if half_full {
            self.0.more.notify_one();
        }
    }
}

impl<'a> MakeWriter<'a> for Queued {
    type Writer = Queued;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

impl Write for Queued {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        self.push(line);
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Keep it while serving: dropped, it writes what is queued and ends the
/// writing thread.
pub struct WriterGuard {
    queue: Arc<Queue>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for WriterGuard {
    fn drop(&mut self) {
        self.queue.stop.store(true, Ordering::SeqCst);
        self.queue.more.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The server's writer: `out` (standard output) behind a bounded queue and a
/// thread of its own.
pub fn off_the_request_path<W: Write + Send + 'static>(out: W) -> (Queued, WriterGuard) {
    let queue = Arc::new(Queue {
        lines: Mutex::new(Vec::with_capacity(64 * 1024)),
        more: Condvar::new(),
        stop: AtomicBool::new(false),
    });
    let writing = queue.clone();
    let mut out = Forgiving(out);
    let thread = std::thread::Builder::new()
        .name("log-writer".into())
        .spawn(move || {
            let mut batch = Vec::with_capacity(64 * 1024);
            loop {
                let stopping = {
                    let lines = writing.lines.lock().unwrap_or_else(PoisonError::into_inner);
                    let (mut lines, _) = writing
                        .more
                        .wait_timeout_while(lines, WRITE_EVERY, |l| {
                            l.len() <= QUEUE_BYTES / 2 && !writing.stop.load(Ordering::SeqCst)
                        })
                        .unwrap_or_else(PoisonError::into_inner);
                    std::mem::swap(&mut *lines, &mut batch);
                    writing.stop.load(Ordering::SeqCst)
                };
                if !batch.is_empty() {
                    let _ = out.write(&batch);
                    let _ = out.flush();
                    batch.clear();
                    // A burst's big buffer is not kept for good.
                    batch.shrink_to(64 * 1024);
                }
                if stopping {
                    break;
                }
            }
        })
        .ok();
    let guard = WriterGuard {
        queue: queue.clone(),
        thread,
    };
    (Queued(queue), guard)
}

/// The time stamp of a log line written to a file: RFC 3339 in UTC with
/// microseconds, as tracing's own `SystemTime` writes it, but with the date
/// and time to the second spelled once a second per thread instead of seven
/// numbers formatted a line (a busy site writes thousands of lines a second).
/// Under journald no stamp is written at all: it stamps lines itself.
pub struct Stamps;

impl tracing_subscriber::fmt::time::FormatTime for Stamps {
    fn format_time(&self, w: &mut tracing_subscriber::fmt::format::Writer<'_>) -> std::fmt::Result {
        thread_local! {
            static SECOND: std::cell::RefCell<(u64, String)> =
                const { std::cell::RefCell::new((u64::MAX, String::new())) };
        }
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        SECOND.with_borrow_mut(|second| w.write_str(&stamp(since_epoch, second)))
    }
}

/// The stamp of `since_epoch`, reusing `second` (its second and that
/// second's text) when it is the same second.
fn stamp(since_epoch: Duration, second: &mut (u64, String)) -> String {
    let seconds = since_epoch.as_secs();
    if second.0 != seconds {
        second.0 = seconds;
        second.1 = i64::try_from(seconds)
            .ok()
            .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
            .map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string())
            .unwrap_or_default();
    }
    let mut micros = since_epoch.subsec_micros();
    let mut digits = *b".000000Z";
    for digit in digits[1..7].iter_mut().rev() {
        *digit = b'0' + (micros % 10) as u8;
        micros /= 10;
    }
    let mut text = String::with_capacity(second.1.len() + digits.len());
    text.push_str(&second.1);
    text.push_str(std::str::from_utf8(&digits).unwrap_or_default());
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disk that is full until told otherwise.
    struct Disk {
        full: std::sync::Arc<std::sync::atomic::AtomicBool>,
        written: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    }

    impl Write for Disk {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.full.load(Ordering::SeqCst) {
                return Err(io::Error::from_raw_os_error(28)); // ENOSPC
            }
            self.written.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_is_counted_and_the_next_line_is_written() {
        let full = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let written = std::sync::Arc::default();
        let mut out = Forgiving(Disk {
            full: full.clone(),
            written: std::sync::Arc::clone(&written),
        });
        let before = LOST.load(Ordering::Relaxed);
        assert_eq!(out.write(b"lost\nlost too\n").unwrap(), 14);
        out.flush().unwrap();
        assert!(LOST.load(Ordering::Relaxed) >= before + 2);
        full.store(false, Ordering::SeqCst);
        out.write_all(b"kept\n").unwrap();
        assert_eq!(&*written.lock().unwrap(), b"kept\n");
    }

    #[test]
    fn queued_lines_are_written_by_the_thread_and_all_of_them_at_the_end() {
        let written: std::sync::Arc<std::sync::Mutex<Vec<u8>>> = std::sync::Arc::default();
        let disk = Disk {
            full: std::sync::Arc::default(),
            written: written.clone(),
        };
        let (writer, guard) = off_the_request_path(disk);
        let mut line = writer.make_writer();
        line.write_all(b"first\n").unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while written.lock().unwrap().is_empty() {
            assert!(std::time::Instant::now() < deadline, "never written");
            std::thread::sleep(Duration::from_millis(5));
        }
        for n in 0..1000 {
            writer
                .make_writer()
                .write_all(format!("line {n}\n").as_bytes())
                .unwrap();
        }
        drop(guard);
        let text = String::from_utf8(written.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("first\nline 0\n"), "{text}");
        assert!(
            text.ends_with("line 999\n"),
            "the queue is written out at the end"
        );
        assert_eq!(text.lines().count(), 1001);
    }

    #[test]
    fn stamps_are_rfc_3339_with_microseconds_like_tracings_own() {
        let mut second = (u64::MAX, String::new());
        for (secs, micros) in [
            (1_795_000_000, 7),
            (1_795_000_000, 999_999),
            (1_795_000_001, 120_000),
            (0, 0),
        ] {
            let at = Duration::from_secs(secs) + Duration::from_micros(micros);
            let expected = chrono::DateTime::from_timestamp(secs as i64, micros as u32 * 1000)
                .unwrap()
                .format("%Y-%m-%dT%H:%M:%S%.6fZ")
                .to_string();
            assert_eq!(stamp(at, &mut second), expected);
        }
        assert_eq!(
            stamp(Duration::from_millis(1_795_000_000_250), &mut second),
            "2026-11-18T11:06:40.250000Z"
        );
    }
}
