//! The write probe the state keeps (`AppState::write_probe`): the latest
//! tiny write `/healthz` tried, reused while fresh so that a monitor calling
//! often costs one write per [`PROBE_FRESH`]. The report is in `http::health`.

use std::time::{Duration, Instant};

use crate::clock::Clock;
use crate::db::Db;

/// How long the database may take to answer before the site counts as down.
pub const DATABASE_WAIT: Duration = Duration::from_secs(2);

/// How long a write probe's answer stands: a monitor (or a stranger)
/// calling often costs one write per this.
pub const PROBE_FRESH: Duration = Duration::from_secs(5);

/// The last write probe: when, and why it failed.
#[derive(Default)]
pub struct WriteProbe(tokio::sync::Mutex<Option<(Instant, Result<(), String>)>>);

impl WriteProbe {
    /// Why the database does not take a write, when it does not: a fresh
    /// probe's answer, or a new probe (one at a time).
    pub(crate) async fn failure(&self, db: &Db, clock: &Clock) -> Option<String> {
        let mut last = self.0.lock().await;
        if let Some((at, answer)) = last.as_ref()
            && at.elapsed() < PROBE_FRESH
        {
            return answer.clone().err();
        }
        let at = clock.now().to_rfc3339();
        let answer = match tokio::time::timeout(DATABASE_WAIT, db.probe_write(at)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(err)) => Err(cause(&err)),
            Err(_) => Err(format!("no answer within {DATABASE_WAIT:?}")),
        };
        *last = Some((Instant::now(), answer.clone()));
        answer.err()
    }
}

/// The logged cause of an error (an internal one's text is never shown to
/// a visitor, but this report is for the dealer and the monitor).
fn cause(err: &crate::error::AppError) -> String {
    match err {
        crate::error::AppError::Internal(cause) => format!("{cause:#}"),
        other => other.to_string(),
    }
}
