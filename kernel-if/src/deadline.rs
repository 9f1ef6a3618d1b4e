//! When a wait gives up.
//!
//! Waits take an absolute deadline rather than a duration, so a caller that
//! waits on several things in turn (a fence, then a syncobj) keeps one budget,
//! and the kernel ioctls, which take absolute `CLOCK_MONOTONIC` times, get the
//! same instant.

use std::time::{Duration, Instant};

use nix::time::{clock_gettime, ClockId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// Wait as long as it takes.
    Never,
    /// Give up at this instant (an instant already past means "poll").
    At(Instant),
}

impl Deadline {
    /// A deadline `timeout` from now; one too far to represent waits forever.
    pub fn after(timeout: Duration) -> Self {
        Instant::now()
            .checked_add(timeout)
            .map_or(Deadline::Never, Deadline::At)
    }

    /// A deadline from a Vulkan-style timeout in nanoseconds, where
    /// `u64::MAX` means forever.
    pub fn from_timeout_ns(timeout_ns: u64) -> Self {
        if timeout_ns == u64::MAX {
            Deadline::Never
        } else {
            Self::after(Duration::from_nanos(timeout_ns))
        }
    }

    /// A deadline that has already passed: check without blocking.
    pub fn now() -> Self {
        Deadline::At(Instant::now())
    }

    /// The deadline as nanoseconds of `CLOCK_MONOTONIC`, what DRM syncobj
    /// waits take; [`Deadline::Never`] is `i64::MAX`.
    pub fn monotonic_ns(self) -> i64 {
        match self {
            Deadline::Never => i64::MAX,
            Deadline::At(at) => {
                let remaining = at.saturating_duration_since(Instant::now());
                // CLOCK_MONOTONIC cannot fail on Linux; if it somehow did,
                // "now" = 0 only makes the wait shorter, never endless.
                let now = clock_gettime(ClockId::CLOCK_MONOTONIC)
                    .map(|t| Duration::from(t).as_nanos())
                    .unwrap_or(0);
                i64::try_from(now + remaining.as_nanos()).unwrap_or(i64::MAX)
            }
        }
    }

    /// The deadline as `CLOCK_MONOTONIC` seconds and nanoseconds, what the msm
    /// wait ioctls take.
    pub fn monotonic_timespec(self) -> (i64, i64) {
        let ns = self.monotonic_ns();
        (ns / 1_000_000_000, ns % 1_000_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_monotonic_deadline_lies_ahead_of_the_clock_by_the_timeout() {
        let before = Duration::from(clock_gettime(ClockId::CLOCK_MONOTONIC).unwrap()).as_nanos();
        let deadline = Deadline::after(Duration::from_secs(5)).monotonic_ns() as u128;
        let after = Duration::from(clock_gettime(ClockId::CLOCK_MONOTONIC).unwrap()).as_nanos();
        assert!(deadline >= before + 4_000_000_000 && deadline <= after + 5_000_000_000);
        assert_eq!(Deadline::from_timeout_ns(u64::MAX), Deadline::Never);
        assert_eq!(Deadline::Never.monotonic_ns(), i64::MAX);
    }
}
