//! Sync objects in software, for the back ends that have no DRM syncobjs.
//!
//! Each object holds one number, the last point signalled: a binary payload
//! is that number being non-zero (point 0 waits for >= 1), a timeline point
//! `v` is signalled once the number reaches `v`. The number only grows, as a
//! timeline does; a reset sets it back to 0 (the binary unsignal). One mutex
//! guards the table and one condition variable wakes every waiter on any
//! change, so a wait on several objects, all or any, re-checks them together
//! and never misses a signal that lands between two checks.

use std::collections::HashMap;

use parking_lot::{Condvar, Mutex};

use crate::deadline::Deadline;
use crate::error::{Error, Result};
use crate::syncobj::{SyncObj, SyncPoint, WaitMode};

#[derive(Default)]
pub struct SyncTable {
    state: Mutex<TableState>,
    changed: Condvar,
}

#[derive(Default)]
struct TableState {
    /// Handle -> last signalled point.
    objects: HashMap<u32, u64>,
    next_handle: u32,
}

impl TableState {
    fn value(&self, syncobj: SyncObj) -> Result<u64> {
        self.objects
            .get(&syncobj.0)
            .copied()
            .ok_or_else(|| Error::InvalidArgument(format!("syncobj {} does not exist", syncobj.0)))
    }

    fn reached(&self, point: &SyncPoint) -> Result<bool> {
        Ok(self.value(point.syncobj)? >= point.value.max(1))
    }

    fn satisfied(&self, points: &[SyncPoint], mode: WaitMode) -> Result<bool> {
        let mut any = false;
        let mut all = true;
        for p in points {
            let r = self.reached(p)?;
            any |= r;
            all &= r;
        }
        Ok(match mode {
            WaitMode::All => all,
            WaitMode::Any => any || points.is_empty(),
        })
    }
}

impl SyncTable {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn create(&self, signaled: bool) -> SyncObj {
        let mut s = self.state.lock();
        // Handles start at 1 and are not reused until the counter wraps, as
        // DRM handles are never 0; skip any still live after a wrap.
        loop {
            s.next_handle = s.next_handle.wrapping_add(1).max(1);
            let h = s.next_handle;
            if let std::collections::hash_map::Entry::Vacant(slot) = s.objects.entry(h) {
                slot.insert(u64::from(signaled));
                return SyncObj(h);
            }
        }
    }

    pub fn destroy(&self, syncobj: SyncObj) -> Result<()> {
        let removed = self.state.lock().objects.remove(&syncobj.0);
        // A waiter on it must notice it is gone.
        self.changed.notify_all();
        removed
            .map(|_| ())
            .ok_or_else(|| Error::InvalidArgument(format!("syncobj {} does not exist", syncobj.0)))
    }

    /// Unsignals each object's binary payload (its value returns to 0).
    pub fn reset(&self, syncobjs: &[SyncObj]) -> Result<()> {
        let mut s = self.state.lock();
        for &o in syncobjs {
            s.value(o)?;
        }
        for o in syncobjs {
            s.objects.insert(o.0, 0);
        }
        Ok(())
    }

    /// Signals every point (all handles are checked first: either all are
    /// signalled or none). A point below the object's value changes nothing.
    pub fn signal(&self, points: &[SyncPoint]) -> Result<()> {
        let mut s = self.state.lock();
        for p in points {
            s.value(p.syncobj)?;
        }
        for p in points {
            let v = s.objects.get_mut(&p.syncobj.0).expect("checked above");
            *v = (*v).max(p.value.max(1));
        }
        drop(s);
        self.changed.notify_all();
        Ok(())
    }

    /// Checks every point's object exists, as the kernel checks a submit's
    /// sync points before queueing it.
    pub fn check(&self, points: &[SyncPoint]) -> Result<()> {
        let s = self.state.lock();
        points
            .iter()
            .try_for_each(|p| s.value(p.syncobj).map(|_| ()))
    }

    /// The object's value: its last signalled timeline point, or 0/1 for a
    /// binary payload.
    pub fn query(&self, syncobj: SyncObj) -> Result<u64> {
        self.state.lock().value(syncobj)
    }

    /// Waits until all or any of `points` are signalled.
    pub fn wait(&self, points: &[SyncPoint], mode: WaitMode, deadline: Deadline) -> Result<()> {
        self.wait_or_abort(points, mode, deadline, &|| false)
            .map(|_| ())
    }

    /// [`SyncTable::wait`] that also gives up, returning `Ok(false)`, once
    /// `abort` returns true. Whoever makes `abort` true calls
    /// [`SyncTable::wake_all`] so the waiter re-checks it (a queue being
    /// closed while its worker waits).
    pub fn wait_or_abort(
        &self,
        points: &[SyncPoint],
        mode: WaitMode,
        deadline: Deadline,
        abort: &dyn Fn() -> bool,
    ) -> Result<bool> {
        let mut s = self.state.lock();
        loop {
            if s.satisfied(points, mode)? {
                return Ok(true);
            }
            if abort() {
                return Ok(false);
            }
            match deadline {
                Deadline::Never => self.changed.wait(&mut s),
                Deadline::At(at) => {
                    if self.changed.wait_until(&mut s, at).timed_out()
                        && !s.satisfied(points, mode)?
                    {
                        return Err(Error::Timeout {
                            waiting_for: describe(points, mode),
                        });
                    }
                }
            }
        }
    }

    /// Wakes every waiter to re-check its condition.
    pub fn wake_all(&self) {
        // Taking the lock orders this after a waiter's check of `abort`, so
        // the wake cannot fall between its check and its sleep.
        drop(self.state.lock());
        self.changed.notify_all();
    }
}

fn describe(points: &[SyncPoint], mode: WaitMode) -> String {
    let list: Vec<String> = points
        .iter()
        .map(|p| format!("syncobj {} point {}", p.syncobj.0, p.value))
        .collect();
    let which = match mode {
        WaitMode::All => "all of",
        WaitMode::Any => "any of",
    };
    format!("{which} [{}]", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    fn soon() -> Deadline {
        Deadline::after(Duration::from_secs(10))
    }

    #[test]
    fn binary_signal_wait_and_reset() {
        let t = SyncTable::new();
        let a = t.create(false);
        let b = t.create(true);
        let pa = SyncPoint::binary(a);
        let pb = SyncPoint::binary(b);
        t.wait(&[pb], WaitMode::All, Deadline::now()).unwrap();
        assert!(matches!(
            t.wait(&[pa], WaitMode::All, Deadline::now()),
            Err(Error::Timeout { .. })
        ));
        t.signal(&[pa]).unwrap();
        t.wait(&[pa, pb], WaitMode::All, Deadline::now()).unwrap();
        t.reset(&[a]).unwrap();
        assert_eq!(t.query(a).unwrap(), 0);
        assert!(t.wait(&[pa], WaitMode::All, Deadline::now()).is_err());
        t.destroy(a).unwrap();
        assert!(t.signal(&[pa]).is_err(), "destroyed");
        assert!(t.destroy(a).is_err());
    }

    #[test]
    fn a_timeline_wait_returns_when_another_thread_reaches_the_point() {
        let t = Arc::new(SyncTable::new());
        let tl = t.create(false);
        let signaller = {
            let t = t.clone();
            std::thread::spawn(move || {
                for v in 1..=5 {
                    std::thread::sleep(Duration::from_millis(2));
                    t.signal(&[SyncPoint::timeline(tl, v)]).unwrap();
                }
            })
        };
        t.wait(&[SyncPoint::timeline(tl, 5)], WaitMode::All, soon())
            .unwrap();
        assert_eq!(t.query(tl).unwrap(), 5);
        signaller.join().unwrap();
        // The value never goes back.
        t.signal(&[SyncPoint::timeline(tl, 3)]).unwrap();
        assert_eq!(t.query(tl).unwrap(), 5);
        assert!(t
            .wait(
                &[SyncPoint::timeline(tl, 6)],
                WaitMode::All,
                Deadline::now()
            )
            .is_err());
    }

    #[test]
    fn wait_any_returns_on_one_of_several() {
        let t = Arc::new(SyncTable::new());
        let objs: Vec<SyncObj> = (0..3).map(|_| t.create(false)).collect();
        let points: Vec<SyncPoint> = objs.iter().map(|&o| SyncPoint::timeline(o, 2)).collect();
        let third = objs[2];
        let signaller = {
            let t = t.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(5));
                t.signal(&[SyncPoint::timeline(third, 2)]).unwrap();
            })
        };
        t.wait(&points, WaitMode::Any, soon()).unwrap();
        signaller.join().unwrap();
        assert!(matches!(
            t.wait(&points, WaitMode::All, Deadline::now()),
            Err(Error::Timeout { .. })
        ));
    }

    #[test]
    fn a_wait_past_its_deadline_is_a_timeout_error_naming_the_points() {
        let t = SyncTable::new();
        let o = t.create(false);
        let err = t
            .wait(
                &[SyncPoint::timeline(o, 9)],
                WaitMode::All,
                Deadline::after(Duration::from_millis(20)),
            )
            .unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(err, Error::Timeout { .. })
                && text.contains(&format!("syncobj {} point 9", o.0)),
            "{text}"
        );
    }

    #[test]
    fn an_aborted_wait_returns_false() {
        let t = Arc::new(SyncTable::new());
        let o = t.create(false);
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let aborter = {
            let (t, stop) = (t.clone(), stop.clone());
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(5));
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
                t.wake_all();
            })
        };
        let done = t
            .wait_or_abort(
                &[SyncPoint::binary(o)],
                WaitMode::All,
                Deadline::Never,
                &|| stop.load(std::sync::atomic::Ordering::SeqCst),
            )
            .unwrap();
        assert!(!done);
        aborter.join().unwrap();
    }
}
