//! Moments of the server's clock in tests: Moscow times, and moving the
//! clock to one.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use dealership::clock::{Clock, moscow};

/// A Moscow date and time as a moment.
pub fn msk(date: NaiveDate, hour: u32, minute: u32) -> DateTime<Utc> {
    moscow()
        .from_local_datetime(&date.and_time(NaiveTime::from_hms_opt(hour, minute, 0).unwrap()))
        .unwrap()
        .with_timezone(&Utc)
}

/// Moves the clock to `at` (or a few milliseconds after: time goes on).
pub fn set_clock(clock: &Clock, at: DateTime<Utc>) {
    clock.advance(at - clock.now() + Duration::milliseconds(1));
    assert!(clock.now() >= at);
}
