//! The GPU's always-on counter (CP_ALWAYS_ON_COUNTER in a6xx.xml), which CP
//! timestamps and Turnip's timestamp queries read. It counts at 19.2 MHz on
//! a6xx/a7xx (Turnip's timestampPeriod is 1e9 / 19.2e6 ns).
//!
//! The model derives it from host time, and never returns the same value
//! twice, so two timestamps taken in order always compare in order even when
//! the host clock has not advanced a tick between them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Ticks per second.
pub const ALWAYS_ON_COUNTER_HZ: u64 = 19_200_000;

pub struct AlwaysOnCounter {
    epoch: Instant,
    last: AtomicU64,
}

impl Default for AlwaysOnCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl AlwaysOnCounter {
    pub fn new() -> Self {
        Self {
            epoch: Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    /// The counter now: later than every value returned before.
    pub fn read(&self) -> u64 {
        let ns = self.epoch.elapsed().as_nanos();
        let now = (ns * u128::from(ALWAYS_ON_COUNTER_HZ) / 1_000_000_000) as u64;
        let mut prev = self.last.load(Ordering::Relaxed);
        loop {
            let next = now.max(prev + 1);
            match self
                .last
                .compare_exchange_weak(prev, next, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return next,
                Err(seen) => prev = seen,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_strictly_increase() {
        let c = AlwaysOnCounter::new();
        let reads: Vec<u64> = (0..1000).map(|_| c.read()).collect();
        assert!(reads.windows(2).all(|w| w[0] < w[1]));
    }
}
