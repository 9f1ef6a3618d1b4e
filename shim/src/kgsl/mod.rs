//! Android's kgsl driver, as a process sees it through `/dev/kgsl-3d0`:
//! each open file has its own GPU address space, GPU objects by id, and
//! draw contexts, each a submit queue whose submits get increasing
//! timestamps. Answered as kgsl.c and adreno's dispatcher answer, errors
//! included: `EINVAL` for unknown ids and contexts, `EDEADLK` for a context
//! invalidated by a fault it caused, `ETIMEDOUT` for an expired wait.

mod ioctls;

use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_int, c_ulong};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use parsnip_kernel_if::kgsl::uapi::*;

use crate::crash_report::Task;
use crate::device::{self, Device};
use crate::fd_table::{self, FdObject};
use crate::fence::Fence;
use crate::gpu_vm::{GpuVm, VmMapping};
use crate::handle_table::HandleTable;
use crate::ioctl_arg::{pod, IoctlResult};
use crate::submit_queue::SubmitQueue;

pod!(
    KgslDevinfo,
    KgslVersion,
    KgslDeviceGetproperty,
    KgslDeviceWaittimestampCtxtid,
    KgslCmdstreamReadtimestampCtxtid,
    KgslDrawctxtCreate,
    KgslDrawctxtDestroy,
    KgslGpumemAllocId,
    KgslGpumemFreeId,
    KgslGpumemGetInfo,
    KgslGpuobjAlloc,
    KgslGpuobjFree,
    KgslGpuobjInfo,
    KgslGpuobjImport,
    KgslGpuobjImportDmaBuf,
    KgslCommandObject,
    KgslCommandSyncpoint,
    KgslCmdSyncpointTimestamp,
    KgslCmdSyncpointFence,
    KgslGpuCommand,
    KgslTimestampEvent,
    KgslTimestampEventFence,
);

/// A GPU object of a kgsl file.
struct KgslObject {
    mapping: Arc<VmMapping>,
    flags: u64,
}

/// A draw context: a submit queue and its timestamps.
struct KgslContext {
    queue: Arc<SubmitQueue>,
    timestamps: Mutex<Timestamps>,
}

#[derive(Default)]
struct Timestamps {
    /// The last timestamp handed out.
    queued: u32,
    /// Fences of timestamps not known to be retired.
    pending: BTreeMap<u32, Arc<Fence>>,
}

impl KgslContext {
    /// The last timestamp whose submit has retired (submits retire in order).
    fn retired(&self) -> u32 {
        let mut t = self.timestamps.lock();
        while let Some((&ts, f)) = t.pending.first_key_value() {
            if !f.is_signaled() {
                return ts.wrapping_sub(1);
            }
            t.pending.remove(&ts);
        }
        t.queued
    }

    /// The fence of timestamp `ts` (signalled if retired); `EINVAL` for a
    /// timestamp not yet handed out.
    fn fence_of(&self, ts: u32) -> Result<Arc<Fence>, i32> {
        let t = self.timestamps.lock();
        if (ts.wrapping_sub(t.queued) as i32) > 0 {
            return Err(libc::EINVAL);
        }
        // A timestamp no longer pending has retired.
        Ok(t.pending.get(&ts).cloned().unwrap_or_else(Fence::signaled))
    }

    /// Whether a fault it caused has invalidated it.
    fn invalidated(&self) -> bool {
        self.queue.faults.load(Ordering::Acquire) > 0
    }
}

#[derive(Default)]
struct KgslState {
    objects: HandleTable<KgslObject>,
    contexts: HashMap<u32, Arc<KgslContext>>,
    next_context: u32,
}

pub struct KgslFile {
    device: &'static Device,
    vm: Arc<GpuVm>,
    state: Mutex<KgslState>,
    faults: Arc<AtomicU64>,
    task: Arc<Mutex<Task>>,
}

/// Opens `/dev/kgsl-3d0`: a new file with its own address space.
pub fn open_node(flags: c_int) -> Result<c_int, i32> {
    let device = device::get().map_err(|_| libc::ENODEV)?;
    let vm = GpuVm::new(device.config.gpu, device.options.clone()).map_err(|e| {
        eprintln!("parsnip-shim: {e}");
        libc::ENOMEM
    })?;
    let file = Arc::new(KgslFile {
        device,
        vm,
        state: Mutex::new(KgslState {
            next_context: 1,
            ..KgslState::default()
        }),
        faults: Arc::new(AtomicU64::new(0)),
        task: Arc::new(Mutex::new(Task::current())),
    });
    let cloexec = if flags & libc::O_CLOEXEC != 0 {
        libc::MFD_CLOEXEC
    } else {
        0
    };
    // SAFETY: a NUL-terminated name; memfd_create takes no other pointer.
    let fd = unsafe { libc::memfd_create(c"parsnip-shim-kgsl-3d0".as_ptr(), cloexec) };
    if fd < 0 {
        return Err(libc::EMFILE);
    }
    fd_table::insert(fd, FdObject::Kgsl(file));
    Ok(fd)
}

impl KgslFile {
    pub fn ioctl(self: &Arc<Self>, request: c_ulong, arg: u64) -> IoctlResult {
        ioctls::ioctl(self, request, arg)
    }

    /// What `mmap(len, offset)` maps: object `offset >> 12`'s pool offset
    /// (kgsl's mmap offset is the id in pages).
    pub fn mmap_offset(&self, offset: u64, len: u64) -> Result<u64, i32> {
        let id = u32::try_from(offset >> 12).map_err(|_| libc::EINVAL)?;
        let state = self.state.lock();
        let o = state.objects.get(id).ok_or(libc::EINVAL)?;
        if offset & 0xfff != 0 || len > o.mapping.object.size {
            return Err(libc::EINVAL);
        }
        Ok(o.mapping.object.offset)
    }
}
