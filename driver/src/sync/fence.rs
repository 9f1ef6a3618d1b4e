//! `VkFence`: a kernel sync object's binary payload, signalled by the last
//! submit of a `vkQueueSubmit` and reset by `vkResetFences`.

use std::sync::Arc;

use ash::vk;
use parsnip_kernel_if::{Deadline, SyncObj, SyncPoint, WaitMode};

use super::wait_result;
use crate::device::Device;
use crate::error::VkResult;

pub struct Fence {
    pub device: Arc<Device>,
    pub syncobj: SyncObj,
}

/// Waits for `points` of `device`'s sync objects, then checks the device is
/// not lost (a lost device signals everything so that nobody sleeps).
fn wait_points(device: &Device, points: &[SyncPoint], all: bool, timeout_ns: u64) -> VkResult<()> {
    let mode = if all { WaitMode::All } else { WaitMode::Any };
    wait_result(
        device,
        "waiting for fences",
        device
            .kernel
            .syncobj_wait(points, mode, Deadline::from_timeout_ns(timeout_ns)),
    )?;
    device
        .kernel
        .status()
        .map_err(|e| device.kernel_error("waiting for fences", e))
}

impl Fence {
    pub fn new(device: &Arc<Device>, signaled: bool) -> VkResult<Arc<Fence>> {
        let syncobj = device
            .kernel
            .syncobj_create(signaled)
            .map_err(|e| device.kernel_error("creating a fence", e))?;
        Ok(Arc::new(Fence {
            device: device.clone(),
            syncobj,
        }))
    }

    pub fn point(&self) -> SyncPoint {
        SyncPoint::binary(self.syncobj)
    }

    pub fn reset(fences: &[Arc<Fence>]) -> VkResult<()> {
        let Some(first) = fences.first() else {
            return Ok(());
        };
        let objects: Vec<SyncObj> = fences.iter().map(|f| f.syncobj).collect();
        first
            .device
            .kernel
            .syncobj_reset(&objects)
            .map_err(|e| first.device.kernel_error("resetting fences", e))
    }

    /// `vkGetFenceStatus`: `SUCCESS` or `NOT_READY`.
    pub fn status(&self) -> VkResult<vk::Result> {
        match wait_points(&self.device, &[self.point()], true, 0) {
            Ok(()) => Ok(vk::Result::SUCCESS),
            Err(vk::Result::TIMEOUT) => Ok(vk::Result::NOT_READY),
            Err(e) => Err(e),
        }
    }

    /// `vkWaitForFences`: `Err(TIMEOUT)` when the timeout passes first.
    pub fn wait(fences: &[Arc<Fence>], all: bool, timeout_ns: u64) -> VkResult<()> {
        let Some(first) = fences.first() else {
            return Ok(());
        };
        let points: Vec<SyncPoint> = fences.iter().map(|f| f.point()).collect();
        wait_points(&first.device, &points, all, timeout_ns)
    }
}

impl Drop for Fence {
    fn drop(&mut self) {
        // Nothing to report a failure to.
        let _ = self.device.kernel.syncobj_destroy(self.syncobj);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_signal_reset_and_time_out() {
        let device = crate::device::tests::null_device("a660");
        let on = Fence::new(&device, true).unwrap();
        let off = Fence::new(&device, false).unwrap();
        assert_eq!(on.status(), Ok(vk::Result::SUCCESS));
        assert_eq!(off.status(), Ok(vk::Result::NOT_READY));
        assert_eq!(
            Fence::wait(&[on.clone(), off.clone()], true, 1_000_000),
            Err(vk::Result::TIMEOUT)
        );
        assert_eq!(Fence::wait(&[on.clone(), off.clone()], false, 0), Ok(()));
        Fence::reset(std::slice::from_ref(&on)).unwrap();
        assert_eq!(on.status(), Ok(vk::Result::NOT_READY));
    }
}
