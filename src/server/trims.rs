//! When the server hands its free memory back to the system
//! (`crate::allocator::give_memory_back`; `docs/operations.md`, "Memory"):
//! after a wave of closed connections, after a burst of large pages or
//! answers, and once it has been quiet for a while after any work.

use std::time::Duration;

/// How often the server looks at its connections and its memory budget.
pub(super) const LOOK_EVERY: Duration = Duration::from_secs(2);
/// Connections closed between two looks from which the memory they held is
/// given back to the system.
const AFTER_CLOSED: usize = 200;
/// Bytes of the memory budget (pages drawn, answers built and sent: see
/// `http::held::render::BUDGET`) held at once since the last look from
/// which the memory is given back once they are done.
const AFTER_BUDGET_BYTES: usize = 16 * 1024 * 1024;
/// Time without a new connection and with nothing drawn or built after
/// which the memory freed since the last trim is given back (as the
/// rendering threads drop their runtimes: `IDLE_RUNTIME`).
const QUIET_FOR: Duration = Duration::from_secs(10);
const QUIET_LOOKS: u32 = (QUIET_FOR.as_secs() / LOOK_EVERY.as_secs()) as u32;

/// What one look saw since the one before.
pub(super) struct Seen {
    /// Connections fewer than at the most open (see `OpenConnections`).
    pub closed: usize,
    /// Whether a connection was opened.
    pub opened: bool,
    /// The most bytes of the memory budget held at once.
    pub budget_peak: usize,
    /// Bytes of the memory budget held now.
    pub budget_in_use: usize,
}

/// Decides at each look whether to give the memory back.
///
/// glibc keeps memory freed in its per-thread arenas for reuse: after 2,000
/// connections holding 31 KB of headers the server stayed at 87 MB against
/// 28 MB at rest (bench/big_headers.py), and a home page of 15 MB drawn for
/// 64 visitors at once left the process at 2 GB before the budget and
/// this. So after a wave of [`AFTER_CLOSED`] closes, or once a burst that
/// held [`AFTER_BUDGET_BYTES`] of the budget is down to a quarter, the free
/// pages go back at once. Smaller work leaves a few MB free in the arenas
/// each time (the boot test's memory test ended 24 MB over rest, 7 MB of
/// it free, after 4 uploads answered 429); that goes back after
/// [`QUIET_FOR`] without work. A steady load is never quiet and pays
/// nothing between its waves.
#[derive(Default)]
pub(super) struct Trims {
    /// The most of the budget held since the last trim.
    burst: usize,
    /// Whether anything happened since the last trim.
    worked: bool,
    /// Looks in a row that saw nothing happen.
    quiet_looks: u32,
}

impl Trims {
    /// Takes one look's findings; true when the memory is to be given back now.
    pub(super) fn look(&mut self, seen: &Seen) -> bool {
        self.burst = self.burst.max(seen.budget_peak);
        if seen.opened || seen.closed > 0 || seen.budget_peak > 0 {
            self.worked = true;
            self.quiet_looks = 0;
        } else {
            self.quiet_looks = self.quiet_looks.saturating_add(1);
        }
        let burst_over = self.burst >= AFTER_BUDGET_BYTES && seen.budget_in_use <= self.burst / 4;
        let quiet = self.worked && self.quiet_looks >= QUIET_LOOKS;
        if seen.closed >= AFTER_CLOSED || burst_over || quiet {
            *self = Trims::default();
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nothing() -> Seen {
        Seen {
            closed: 0,
            opened: false,
            budget_peak: 0,
            budget_in_use: 0,
        }
    }

    #[test]
    fn a_wave_of_closes_is_trimmed_at_once() {
        let mut trims = Trims::default();
        assert!(!trims.look(&Seen {
            closed: AFTER_CLOSED - 1,
            opened: true,
            ..nothing()
        }));
        assert!(trims.look(&Seen {
            closed: AFTER_CLOSED,
            ..nothing()
        }));
    }

    #[test]
    fn a_burst_of_the_budget_is_trimmed_once_it_is_down_to_a_quarter() {
        let mut trims = Trims::default();
        let held = |peak, in_use| Seen {
            opened: true,
            budget_peak: peak,
            budget_in_use: in_use,
            ..nothing()
        };
        assert!(!trims.look(&held(AFTER_BUDGET_BYTES, AFTER_BUDGET_BYTES)));
        assert!(!trims.look(&held(AFTER_BUDGET_BYTES / 2, AFTER_BUDGET_BYTES / 2)));
        assert!(trims.look(&held(AFTER_BUDGET_BYTES / 4, AFTER_BUDGET_BYTES / 4)));
        // Small pages alone are no burst.
        assert!(!trims.look(&held(1024 * 1024, 0)));
    }

    #[test]
    fn small_work_is_trimmed_once_after_a_quiet_while_and_an_idle_server_never() {
        let mut trims = Trims::default();
        // Idle from the start: nothing to give back.
        for _ in 0..3 * QUIET_LOOKS {
            assert!(!trims.look(&nothing()));
        }
        // A few requests (each connection opened, pages drawn), then quiet.
        assert!(!trims.look(&Seen {
            opened: true,
            budget_peak: 300 * 1024,
            ..nothing()
        }));
        for _ in 1..QUIET_LOOKS {
            assert!(!trims.look(&nothing()));
        }
        assert!(trims.look(&nothing()), "trimmed after {QUIET_FOR:?}");
        // Once: it stays quiet.
        for _ in 0..3 * QUIET_LOOKS {
            assert!(!trims.look(&nothing()));
        }
    }

    #[test]
    fn a_steady_load_is_never_quiet() {
        let mut trims = Trims::default();
        for _ in 0..10 * QUIET_LOOKS {
            assert!(!trims.look(&Seen {
                opened: true,
                budget_peak: 200 * 1024,
                ..nothing()
            }));
        }
    }
}
