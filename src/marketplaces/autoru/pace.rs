//! The client's own pace: Auto.ru allows 300 requests a minute and blocks
//! the account for minutes past that (429), so one run spaces its requests
//! by a minimum interval (250 ms by default: 240 a minute, room left for the
//! dealer's other tools). Retries count too: each extra attempt a call took
//! pushes the next slot back by one interval.

use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

/// The default interval between two requests of one client.
pub const DEFAULT_INTERVAL: Duration = Duration::from_millis(250);

/// Hands out request slots at least `interval` apart.
#[derive(Debug)]
pub struct Pace {
    interval: Duration,
    next: Mutex<Option<Instant>>,
}

impl Pace {
    pub fn new(interval: Duration) -> Self {
        Self {
            interval,
            next: Mutex::new(None),
        }
    }

    /// Waits for this request's slot.
    pub async fn wait(&self) {
        let at = {
            let mut next = self.next.lock().await;
            let now = Instant::now();
            let at = next.map_or(now, |slot| slot.max(now));
            *next = Some(at + self.interval);
            at
        };
        tokio::time::sleep_until(at).await;
    }

    /// Counts `extra` requests sent beyond the slot taken (a call's retries).
    pub async fn charge(&self, extra: u32) {
        if extra == 0 {
            return;
        }
        let mut next = self.next.lock().await;
        let base = next.unwrap_or_else(Instant::now).max(Instant::now());
        *next = Some(base + self.interval.saturating_mul(extra));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn slots_are_an_interval_apart_and_retries_push_the_next_back() {
        let pace = Pace::new(Duration::from_millis(40));
        let start = Instant::now();
        pace.wait().await;
        pace.wait().await;
        pace.wait().await;
        assert!(start.elapsed() >= Duration::from_millis(80));
        pace.charge(2).await;
        pace.wait().await;
        assert!(start.elapsed() >= Duration::from_millis(200));
    }
}
