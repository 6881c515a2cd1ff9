//! The server's log leaves the process off the request path: a request only
//! puts its line in a bounded queue, and one thread writes the queue to
//! standard output (`docs/operations.md`, "Logs"). A write that fails (a
//! full disk under the log file, a closed pipe) or a queue that is full (a
//! journald that stalls) drops lines and counts them; nothing panics,
//! nothing waits, and the next line that can be written is.

use std::io::{self, Write};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use tracing_appender::non_blocking::{ErrorCounter, NonBlockingBuilder, WorkerGuard};

/// Lines the queue holds before new ones are dropped: a few seconds of a
/// busy site's request lines.
const QUEUE_LINES: usize = 16_384;

/// Lines whose write failed.
static FAILED: AtomicU64 = AtomicU64::new(0);
/// Lines dropped because the queue was full.
static DROPPED: OnceLock<ErrorCounter> = OnceLock::new();

/// Log lines lost since the start: writes that failed and lines dropped at
/// a full queue (`/healthz` shows it).
pub fn lost_lines() -> u64 {
    FAILED.load(Ordering::Relaxed) + DROPPED.get().map_or(0, |d| d.dropped_lines() as u64)
}

/// A writer whose failures are counted and forgotten: the thread writing
/// the queue goes on to the next line.
pub struct Forgiving<W>(pub W);

impl<W: Write> Write for Forgiving<W> {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        if self.0.write_all(line).is_err() {
            FAILED.fetch_add(1, Ordering::Relaxed);
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}

/// The server's writer: `out` (standard output) behind a bounded queue and a
/// thread of its own. Keep the guard while serving: dropped, it writes what
/// is queued and ends the thread.
pub fn off_the_request_path<W: Write + Send + Sync + 'static>(
    out: W,
) -> (tracing_appender::non_blocking::NonBlocking, WorkerGuard) {
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(QUEUE_LINES)
        .thread_name("log-writer")
        .finish(Forgiving(out));
    let _ = DROPPED.set(writer.error_counter());
    (writer, guard)
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
        let before = FAILED.load(Ordering::Relaxed);
        assert_eq!(out.write(b"lost\n").unwrap(), 5);
        out.flush().unwrap();
        assert_eq!(FAILED.load(Ordering::Relaxed), before + 1);
        full.store(false, Ordering::SeqCst);
        out.write_all(b"kept\n").unwrap();
        assert_eq!(&*written.lock().unwrap(), b"kept\n");
    }
}
