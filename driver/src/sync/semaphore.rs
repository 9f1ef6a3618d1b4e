//! `VkSemaphore`: a kernel sync object.
//!
//! A timeline semaphore is the object's timeline. A binary semaphore is one
//! too, where the kernel has timelines: each signal operation submitted
//! signals the next point of a counter the driver keeps, and a wait waits
//! for the point of the last signal submitted before it. After a wait the
//! next signal is a new point, so the semaphore behaves as unsignalled
//! without the kernel resetting anything (the scheme of Mesa's emulated
//! binary syncs). Without kernel timelines the binary payload is used as is.

use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;
use parsnip_kernel_if::{Deadline, SyncObj, SyncPoint, WaitMode};

use super::wait_result;
use crate::device::Device;
use crate::error::VkResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SemaphoreKind {
    Binary,
    Timeline,
}

pub struct Semaphore {
    pub device: Arc<Device>,
    pub syncobj: SyncObj,
    pub kind: SemaphoreKind,
    /// For binary semaphores on a timeline object: the last point a submit
    /// was given to signal.
    binary_point: Mutex<u64>,
}

impl Semaphore {
    pub fn new(
        device: &Arc<Device>,
        kind: SemaphoreKind,
        initial: u64,
    ) -> VkResult<Arc<Semaphore>> {
        if kind == SemaphoreKind::Timeline && !device.kernel.info().timeline_syncobjs {
            return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
        }
        let syncobj = device
            .kernel
            .syncobj_create(false)
            .map_err(|e| device.kernel_error("creating a semaphore", e))?;
        let semaphore = Arc::new(Semaphore {
            device: device.clone(),
            syncobj,
            kind,
            binary_point: Mutex::new(0),
        });
        if kind == SemaphoreKind::Timeline && initial > 0 {
            semaphore.signal(initial)?;
        }
        Ok(semaphore)
    }

    fn binary_on_timeline(&self) -> bool {
        self.kind == SemaphoreKind::Binary && self.device.kernel.info().timeline_syncobjs
    }

    /// The point a submit waiting on this semaphore (at `value` for a
    /// timeline) waits for.
    pub fn wait_point(&self, value: u64) -> SyncPoint {
        match self.kind {
            SemaphoreKind::Timeline => SyncPoint::timeline(self.syncobj, value),
            SemaphoreKind::Binary if self.binary_on_timeline() => {
                SyncPoint::timeline(self.syncobj, (*self.binary_point.lock()).max(1))
            }
            SemaphoreKind::Binary => SyncPoint::binary(self.syncobj),
        }
    }

    /// The point a submit signalling this semaphore (at `value` for a
    /// timeline) signals. Call once per signal operation, in submission
    /// order.
    pub fn signal_point(&self, value: u64) -> SyncPoint {
        match self.kind {
            SemaphoreKind::Timeline => SyncPoint::timeline(self.syncobj, value),
            SemaphoreKind::Binary if self.binary_on_timeline() => {
                let mut point = self.binary_point.lock();
                *point += 1;
                SyncPoint::timeline(self.syncobj, *point)
            }
            SemaphoreKind::Binary => SyncPoint::binary(self.syncobj),
        }
    }

    /// `vkSignalSemaphore`.
    pub fn signal(&self, value: u64) -> VkResult<()> {
        self.device
            .kernel
            .syncobj_signal(&[SyncPoint::timeline(self.syncobj, value)])
            .map_err(|e| self.device.kernel_error("signalling a semaphore", e))
    }

    /// `vkGetSemaphoreCounterValue`.
    pub fn counter_value(&self) -> VkResult<u64> {
        self.device
            .kernel
            .syncobj_query(self.syncobj)
            .map_err(|e| self.device.kernel_error("reading a semaphore", e))
    }

    /// `vkWaitSemaphores`: `Err(TIMEOUT)` when the timeout passes first.
    pub fn wait(waits: &[(Arc<Semaphore>, u64)], any: bool, timeout_ns: u64) -> VkResult<()> {
        let Some((first, _)) = waits.first() else {
            return Ok(());
        };
        // Value 0 is always reached; the kernel would read point 0 as a
        // binary payload.
        let points: Vec<SyncPoint> = waits
            .iter()
            .filter(|(_, v)| *v > 0)
            .map(|(s, v)| SyncPoint::timeline(s.syncobj, *v))
            .collect();
        if points.is_empty() {
            return Ok(());
        }
        let mode = if any { WaitMode::Any } else { WaitMode::All };
        let kernel = &first.device.kernel;
        wait_result(
            &first.device,
            "waiting for semaphores",
            kernel.syncobj_wait(&points, mode, Deadline::from_timeout_ns(timeout_ns)),
        )?;
        kernel
            .status()
            .map_err(|e| first.device.kernel_error("waiting for semaphores", e))
    }
}

impl Drop for Semaphore {
    fn drop(&mut self) {
        let _ = self.device.kernel.syncobj_destroy(self.syncobj);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timelines_count_and_binaries_advance_one_point_per_signal() {
        let device = crate::device::tests::null_device("a660");
        let t = Semaphore::new(&device, SemaphoreKind::Timeline, 5).unwrap();
        assert_eq!(t.counter_value(), Ok(5));
        t.signal(9).unwrap();
        assert_eq!(t.counter_value(), Ok(9));
        assert_eq!(Semaphore::wait(&[(t.clone(), 9)], false, 0), Ok(()));
        assert_eq!(
            Semaphore::wait(&[(t.clone(), 10)], false, 1_000_000),
            Err(vk::Result::TIMEOUT)
        );
        let fresh = Semaphore::new(&device, SemaphoreKind::Timeline, 0).unwrap();
        assert_eq!(Semaphore::wait(&[(fresh, 0)], false, 0), Ok(()));

        let b = Semaphore::new(&device, SemaphoreKind::Binary, 0).unwrap();
        assert_eq!(b.signal_point(0).value, 1);
        assert_eq!(b.wait_point(0).value, 1);
        assert_eq!(b.signal_point(0).value, 2);
        assert_eq!(b.wait_point(0).value, 2);
    }
}
