//! The server's clock and the Moscow calendar. Everything that depends on
//! the date (which credit programmes are valid, which test-drive slots are
//! still ahead, when a kept public answer turns stale at midnight) reads the
//! same [`Clock`], so a test can move it to another day.

use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};

/// Moscow time: UTC+3 all year.
pub fn moscow() -> FixedOffset {
    FixedOffset::east_opt(3 * 3600).expect("valid offset")
}

/// Real time, shifted by an offset that is zero unless a test moves it.
#[derive(Debug, Default)]
pub struct Clock {
    offset_ms: AtomicI64,
}

impl Clock {
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + chrono::Duration::milliseconds(self.offset_ms.load(Ordering::Relaxed))
    }

    /// The moment now in Moscow time.
    pub fn moscow_now(&self) -> DateTime<FixedOffset> {
        self.now().with_timezone(&moscow())
    }

    /// Today's date in Moscow.
    pub fn moscow_today(&self) -> NaiveDate {
        self.moscow_now().date_naive()
    }

    /// Moves the clock by `by` (tests simulate another day with it).
    pub fn advance(&self, by: chrono::Duration) {
        self.offset_ms
            .fetch_add(by.num_milliseconds(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_moves_the_moscow_date() {
        let clock = Clock::default();
        let today = clock.moscow_today();
        clock.advance(chrono::Duration::days(1));
        assert_eq!(clock.moscow_today(), today.succ_opt().unwrap_or(today));
    }
}
