//! Fences: one-shot "this work is done" events, as the kernel's dma-fences
//! are. A submit's fence signals when the model has run it (or recovery has
//! retired it); syncobjs, sync files and BOs hold them.
//!
//! Every wait in the shim re-checks its condition when anything signals, on
//! one process-wide condition variable: waits are few and short-lived, and
//! one wake-up source keeps mixed waits (any of several syncobjs, a point
//! not yet submitted) simple.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use parking_lot::{Condvar, Mutex};

type Callback = Box<dyn FnOnce() + Send>;

pub struct Fence {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    signaled: bool,
    on_signal: Vec<Callback>,
}

static GENERATION: Mutex<u64> = Mutex::new(0);
static CHANGED: Condvar = Condvar::new();

/// Wakes every waiter to re-check (a fence signalled, a syncobj changed).
pub fn notify_all() {
    *GENERATION.lock() += 1;
    CHANGED.notify_all();
}

/// Waits until `done()` holds or `deadline` passes; returns whether it holds.
/// `None` waits forever.
pub fn wait_until(mut done: impl FnMut() -> bool, deadline: Option<Instant>) -> bool {
    let mut generation = GENERATION.lock();
    loop {
        if done() {
            return true;
        }
        match deadline {
            Some(d) => {
                if CHANGED.wait_until(&mut generation, d).timed_out() {
                    drop(generation);
                    return done();
                }
            }
            None => CHANGED.wait(&mut generation),
        }
    }
}

impl Fence {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(State::default()),
        })
    }

    /// A fence that has already signalled (the kernel's stub fence).
    pub fn signaled() -> Arc<Self> {
        // Nobody can be waiting for it: no wake-up (which also makes this
        // safe to call from a wait's condition).
        Arc::new(Self {
            state: Mutex::new(State {
                signaled: true,
                on_signal: Vec::new(),
            }),
        })
    }

    /// A fence that signals once all of `fences` have (a dma-fence array).
    pub fn all(fences: Vec<Arc<Fence>>) -> Arc<Self> {
        let pending: Vec<_> = fences.into_iter().filter(|f| !f.is_signaled()).collect();
        match pending.len() {
            0 => Self::signaled(),
            1 => pending.into_iter().next().expect("one"),
            n => {
                let all = Self::new();
                let left = Arc::new(AtomicUsize::new(n));
                for f in pending {
                    let (all, left) = (all.clone(), left.clone());
                    f.on_signal(move || {
                        if left.fetch_sub(1, Ordering::AcqRel) == 1 {
                            all.signal();
                        }
                    });
                }
                all
            }
        }
    }

    pub fn is_signaled(&self) -> bool {
        self.state.lock().signaled
    }

    pub fn signal(&self) {
        let callbacks = {
            let mut s = self.state.lock();
            if s.signaled {
                return;
            }
            s.signaled = true;
            std::mem::take(&mut s.on_signal)
        };
        for c in callbacks {
            c();
        }
        notify_all();
    }

    /// Runs `f` once the fence signals (at once if it has).
    pub fn on_signal(&self, f: impl FnOnce() + Send + 'static) {
        let mut s = self.state.lock();
        if s.signaled {
            drop(s);
            f();
        } else {
            s.on_signal.push(Box::new(f));
        }
    }

    /// Waits for the fence; false if `deadline` passed first.
    pub fn wait(&self, deadline: Option<Instant>) -> bool {
        wait_until(|| self.is_signaled(), deadline)
    }
}

/// The `Instant` of an absolute CLOCK_MONOTONIC time (the kernel's msm and
/// syncobj timeouts are absolute), `None` for "never" (negative or beyond
/// what an `Instant` holds).
pub fn deadline_from_monotonic_ns(abs_ns: i64) -> Option<Instant> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let now_ns = now.tv_sec as i128 * 1_000_000_000 + now.tv_nsec as i128;
    let remaining = i128::from(abs_ns) - now_ns;
    if remaining <= 0 {
        return Some(Instant::now());
    }
    let remaining = u64::try_from(remaining).ok()?;
    Instant::now().checked_add(std::time::Duration::from_nanos(remaining))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_fence_signals_after_its_last_member() {
        let (a, b) = (Fence::new(), Fence::new());
        let all = Fence::all(vec![a.clone(), b.clone(), Fence::signaled()]);
        a.signal();
        assert!(!all.is_signaled());
        b.signal();
        assert!(all.is_signaled());
        assert!(Fence::all(vec![]).is_signaled());
    }

    #[test]
    fn a_wait_ends_at_its_deadline_or_at_the_signal() {
        let f = Fence::new();
        let soon = Instant::now() + std::time::Duration::from_millis(20);
        assert!(!f.wait(Some(soon)));
        let g = f.clone();
        let t = std::thread::spawn(move || g.signal());
        assert!(f.wait(None));
        t.join().unwrap();
    }
}
