//! The CPU time of the calling thread: the clock of the model's dispatch
//! hang budget. A launch runs on one thread from start to end, so its own
//! CPU time is what it cost, whatever else the machine is doing; the wall
//! clock would call a long dispatch a hang when other processes load the
//! machine.

use std::time::Duration;

use rustix::time::{clock_gettime, ClockId};

/// CPU time the calling thread has used since it started.
pub(crate) fn now() -> Duration {
    let t = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::now;

    #[test]
    fn counts_work_and_not_sleep() {
        let before = now();
        std::thread::sleep(std::time::Duration::from_millis(200));
        let slept = now() - before;
        // Waking up costs microseconds, not the 200 ms slept.
        assert!(slept < std::time::Duration::from_millis(50), "{slept:?}");
        // Spinning for 30 ms of wall time uses some CPU time however loaded
        // the machine is, and never more than the wall time passed.
        // The wall clock starts first and stops last, so the CPU time read
        // between them cannot exceed it (a millisecond allows for the two
        // clocks' granularities).
        let wall = std::time::Instant::now();
        let before = now();
        let mut x = 1u64;
        while wall.elapsed() < std::time::Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let worked = now() - before;
        let elapsed = wall.elapsed();
        assert!(worked > std::time::Duration::ZERO);
        assert!(
            worked <= elapsed + std::time::Duration::from_millis(1),
            "{worked:?} of CPU time in {elapsed:?}"
        );
    }
}
