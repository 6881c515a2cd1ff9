//! A fixed-window counter per client address (or per any other key: the
//! withdrawal link counts per e-mail address too).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

pub struct RateLimiter<K = IpAddr> {
    per_minute: u32,
    started: Instant,
    windows: Mutex<HashMap<K, (u64, u32)>>,
}

impl<K: Hash + Eq> RateLimiter<K> {
    /// `per_minute` = 0 turns the limit off.
    pub fn per_minute(per_minute: u32) -> RateLimiter<K> {
        RateLimiter {
            per_minute,
            started: Instant::now(),
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request; false when the address has used up this minute.
    pub fn allow(&self, ip: K) -> bool {
        if self.per_minute == 0 {
            return true;
        }
        let minute = self.started.elapsed().as_secs() / 60;
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > 100_000 {
            windows.retain(|_, (m, _)| *m == minute);
        }
        let entry = windows.entry(ip).or_insert((minute, 0));
        if entry.0 != minute {
            *entry = (minute, 0);
        }
        if entry.1 >= self.per_minute {
            return false;
        }
        entry.1 += 1;
        true
    }

    /// Seconds until the current window ends (`Retry-After` of a refusal).
    pub fn retry_after(&self) -> u64 {
        60 - self.started.elapsed().as_secs() % 60
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_address() {
        let limiter = RateLimiter::per_minute(2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(limiter.allow(a));
        assert!(limiter.allow(a));
        assert!(!limiter.allow(a));
        assert!(limiter.allow(b));
        let off = RateLimiter::per_minute(0);
        assert!((0..1000).all(|_| off.allow(a)));
    }
}
