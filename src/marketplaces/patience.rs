//! How a marketplace call is retried: 429 (the marketplace's rate limit,
//! honouring `Retry-After`), 5xx and a dropped connection are tried again
//! after a growing pause, within a bound, so a nightly job outwaits a busy
//! API and never hammers it. Every job runs off the request path: the site
//! never waits on a marketplace.

use std::time::Duration;

use super::report::MarketError;

/// How many times a call is tried and how long it waits between tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patience {
    pub attempts: u32,
    /// The first pause; each next one doubles, up to `longest`.
    pub first: Duration,
    pub longest: Duration,
}

impl Default for Patience {
    /// Six tries over about two minutes: Auto.ru's limit is per minute
    /// (300 requests), so one full minute's wait is within the bound.
    fn default() -> Self {
        Self {
            attempts: 6,
            first: Duration::from_secs(2),
            longest: Duration::from_secs(60),
        }
    }
}

impl Patience {
    /// Tests' patience: the same tries, pauses of milliseconds.
    pub fn brief() -> Self {
        Self {
            attempts: 6,
            first: Duration::from_millis(5),
            longest: Duration::from_millis(50),
        }
    }

    fn pause(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let grown = self
            .first
            .saturating_mul(2u32.saturating_pow(attempt))
            .min(self.longest);
        retry_after.map_or(grown, |asked| asked.min(self.longest))
    }
}

fn retry_after(answer: &reqwest::Response) -> Option<Duration> {
    let value = answer.headers().get(reqwest::header::RETRY_AFTER)?;
    value
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(Duration::from_secs)
}

/// Sends the request `make` builds, again after a pause while the answer is
/// 429 or 5xx or the connection fails, at most `patience.attempts` times.
/// Any other answer (2xx, 401, 404…) is the caller's to read.
pub async fn send(
    make: impl Fn() -> reqwest::RequestBuilder,
    patience: &Patience,
) -> Result<reqwest::Response, MarketError> {
    let mut last = String::new();
    for attempt in 0..patience.attempts.max(1) {
        let wait = match make().send().await {
            Ok(answer) => {
                let status = answer.status();
                if status.as_u16() != 429 && !status.is_server_error() {
                    return Ok(answer);
                }
                last = format!("HTTP {}", status.as_u16());
                retry_after(&answer)
            }
            Err(err) => {
                last = err.without_url().to_string();
                None
            }
        };
        if attempt + 1 < patience.attempts {
            tokio::time::sleep(patience.pause(attempt, wait)).await;
        }
    }
    Err(MarketError::Unavailable(format!(
        "{last} после {} попыток",
        patience.attempts.max(1)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_up_to_the_longest_and_honour_retry_after_within_it() {
        let p = Patience {
            attempts: 6,
            first: Duration::from_secs(2),
            longest: Duration::from_secs(60),
        };
        assert_eq!(p.pause(0, None), Duration::from_secs(2));
        assert_eq!(p.pause(1, None), Duration::from_secs(4));
        assert_eq!(p.pause(5, None), Duration::from_secs(60));
        assert_eq!(
            p.pause(0, Some(Duration::from_secs(30))),
            Duration::from_secs(30)
        );
        assert_eq!(
            p.pause(0, Some(Duration::from_secs(600))),
            Duration::from_secs(60)
        );
    }
}
