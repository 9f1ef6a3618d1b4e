//! msm buffer objects: GEM objects, their iovas, and their CPU mappings.
//!
//! Where the kernel lets userspace choose iovas (MSM_INFO_SET_IOVA), we
//! allocate them from our own [`VaAllocator`]. A freed BO's range cannot be
//! reused at once: the kernel keeps the GEM object, and its mapping at that
//! iova, until every submit that used it retires, and a SET_IOVA onto a range
//! still mapped fails. So a freed range waits as a "zombie" until the fences
//! last submitted on every queue at the time of the free have passed, and is
//! only then returned to the allocator.

use std::collections::HashMap;
use std::ptr::NonNull;
use std::sync::Arc;

use parking_lot::Mutex;

use super::deferred::Deferred;
use super::drm_file::DrmFile;
use super::uapi::{self, MsmGemInfo, MsmTimespec, MsmWaitFence, MSM_INFO_GET_OFFSET};
use crate::bo::BoBacking;
use crate::deadline::Deadline;
use crate::device_mapping::DeviceMapping;
use crate::error::{Error, Result};
use crate::host_memory::PAGE_SIZE;
use crate::va_allocator::VaAllocator;

/// What the device and its BOs share.
pub struct MsmShared {
    pub file: DrmFile,
    /// Present when userspace chooses iovas.
    pub user_va: Option<Mutex<UserVa>>,
    /// The last fence seqno submitted on each open queue.
    pub last_seqnos: Mutex<HashMap<u32, u32>>,
    /// Submits held for their wait points.
    pub deferred: Arc<Deferred>,
}

pub struct UserVa {
    pub alloc: VaAllocator,
    zombies: Vec<Zombie>,
}

impl UserVa {
    pub fn new(alloc: VaAllocator) -> Self {
        Self {
            alloc,
            zombies: Vec::new(),
        }
    }
}

/// A freed range and the (queue, seqno) fences it waits for.
struct Zombie {
    iova: u64,
    fences: Vec<(u32, u32)>,
}

impl MsmShared {
    /// Reserves an iova range of `size` bytes, at `fixed` if given.
    pub fn alloc_va(&self, size: u64, fixed: Option<u64>) -> Result<u64> {
        let user_va = self.user_va()?;
        let mut va = user_va.lock();
        self.retire_zombies(&mut va);
        match fixed {
            Some(iova) => va.alloc.alloc_at(iova, size).map(|()| iova),
            None => va.alloc.alloc(size, PAGE_SIZE),
        }
    }

    /// Returns a range no GEM object was ever bound to.
    pub fn free_va_now(&self, iova: u64) -> Result<()> {
        self.user_va()?.lock().alloc.free(iova)
    }

    /// Returns the range of a closed GEM object once its submits retire.
    pub fn free_va_after_work(&self, iova: u64) -> Result<()> {
        let fences: Vec<(u32, u32)> = self
            .last_seqnos
            .lock()
            .iter()
            .map(|(&q, &s)| (q, s))
            .collect();
        let mut va = self.user_va()?.lock();
        va.zombies.push(Zombie { iova, fences });
        Ok(())
    }

    fn user_va(&self) -> Result<&Mutex<UserVa>> {
        self.user_va.as_ref().ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{}: the kernel does not let userspace choose iovas",
                self.file.path().display()
            ))
        })
    }

    fn retire_zombies(&self, va: &mut UserVa) {
        let mut i = 0;
        while i < va.zombies.len() {
            let zombie = &mut va.zombies[i];
            zombie.fences.retain(|&(q, s)| !self.fence_passed(q, s));
            if zombie.fences.is_empty() {
                let iova = va.zombies.swap_remove(i).iova;
                // The range came from this allocator; freeing cannot fail.
                let _ = va.alloc.free(iova);
            } else {
                i += 1;
            }
        }
    }

    /// Whether the fence has passed, without blocking. A queue the kernel no
    /// longer knows (closed since) counts as passed: its submits were
    /// accepted and the kernel retires them on its own.
    pub fn fence_passed(&self, queue: u32, seqno: u32) -> bool {
        !self.deferred.holds(queue, seqno)
            && !matches!(
                self.wait_fence(queue, seqno, Deadline::now()),
                Err(Error::Timeout { .. })
            )
    }

    pub fn wait_fence(&self, queue: u32, seqno: u32, deadline: Deadline) -> Result<()> {
        self.deferred.wait_made(queue, seqno, deadline)?;
        let (tv_sec, tv_nsec) = deadline.monotonic_timespec();
        let arg = MsmWaitFence {
            fence: seqno,
            pad: 0,
            timeout: MsmTimespec { tv_sec, tv_nsec },
            queueid: queue,
        };
        self.file.ioctl_w("WAIT_FENCE", uapi::msm_wait_fence, &arg)
    }

    /// GEM_INFO returning a value.
    pub fn gem_info(&self, handle: u32, info: u32, value: u64) -> Result<u64> {
        let mut arg = MsmGemInfo {
            handle,
            info,
            value,
            ..MsmGemInfo::default()
        };
        self.file
            .ioctl_rw("GEM_INFO", uapi::msm_gem_info, &mut arg)?;
        Ok(arg.value)
    }
}

/// The msm half of a [`crate::Bo`].
pub struct MsmBo {
    pub shared: Arc<MsmShared>,
    pub handle: u32,
    pub size: u64,
    pub iova: u64,
    /// The iova came from our allocator and goes back to it.
    pub user_iova: bool,
    pub map: DeviceMapping,
}

impl BoBacking for MsmBo {
    fn map(&self) -> Result<NonNull<u8>> {
        self.map.get(
            self.shared.file.file(),
            || self.shared.gem_info(self.handle, MSM_INFO_GET_OFFSET, 0),
            self.size,
            || format!("GEM object {}", self.handle),
        )
    }

    fn release(&mut self) -> Result<()> {
        self.map.unmap();
        self.shared.file.gem_close(self.handle)?;
        if self.user_iova {
            self.shared.free_va_after_work(self.iova)?;
        }
        Ok(())
    }
}
