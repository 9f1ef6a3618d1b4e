//! The msm DRM driver, as a process sees it through `/dev/dri/renderD128`:
//! each open file is a context (drm_file plus msm_file_private) with its own
//! GPU address space, GEM handles, syncobjs and submit queues; ioctls are
//! answered as msm_drv.c, msm_gem_submit.c and DRM core answer them,
//! errors included.
//!
//! The version is 1.9.0, the msm interface of Linux 6.1 (the header Debian
//! installs), with timeline syncobjs.

mod drm_core;
pub mod drm_uapi;
mod gem_ioctls;
mod params;
mod submit;
mod syncobj_ioctls;

use std::collections::HashMap;
use std::ffi::{c_int, c_ulong};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use parking_lot::Mutex;
use parsnip_kernel_if::msm::uapi::*;

use crate::crash_report::Task;
use crate::device::{self, Device};
use crate::fd_table::{self, FdObject};
use crate::gem::GemObject;
use crate::gpu_vm::{GpuVm, VmMapping};
use crate::handle_table::HandleTable;
use crate::ioctl_arg::{self, pod, IoctlResult};
use crate::syncobj::SyncObj;
use submit::MsmQueue;

pod!(
    MsmParam,
    MsmGemNew,
    MsmGemInfo,
    MsmGemCpuPrep,
    MsmGemCpuFini,
    MsmGemSubmitCmd,
    MsmGemSubmitBo,
    MsmGemSubmitSyncobj,
    MsmGemSubmit,
    MsmWaitFence,
    MsmSubmitqueue,
    MsmSubmitqueueQuery,
    MsmGemMadvise,
);

pub const VERSION: (i32, i32, i32) = (1, 9, 0);

/// The end of the driver-private command range (drm.h's DRM_COMMAND_END).
const DRM_COMMAND_END: u8 = 0xa0;

/// A GEM handle of one file: the object, and its mapping in the file's
/// address space once it has an iova.
struct Handle {
    object: Arc<GemObject>,
    mapping: Option<Arc<VmMapping>>,
}

#[derive(Default)]
struct FileState {
    handles: HandleTable<Handle>,
    syncobjs: HandleTable<Arc<SyncObj>>,
    queues: HashMap<u32, Arc<MsmQueue>>,
    /// The next submit queue id: 0 is the default queue the kernel makes
    /// for every file.
    next_queue: u32,
}

pub struct MsmFile {
    device: &'static Device,
    vm: Arc<GpuVm>,
    /// The node it was opened as (128: the render node, 0: the primary).
    pub minor: u32,
    state: Mutex<FileState>,
    /// Hangs and faults of this file's submits (its address space's).
    faults: Arc<AtomicU64>,
    task: Arc<Mutex<Task>>,
}

/// Opens the node of `minor`: a new context. Returns the descriptor or
/// the errno.
pub fn open_node(minor: u32, flags: c_int) -> Result<c_int, i32> {
    let device = device::get().map_err(|_| libc::ENODEV)?;
    let vm = GpuVm::new(device.config.gpu, device.options.clone()).map_err(|e| {
        eprintln!("parsnip-shim: {e}");
        libc::ENOMEM
    })?;
    let file = Arc::new(MsmFile {
        device,
        vm,
        minor,
        state: Mutex::new(FileState::default()),
        faults: Arc::new(AtomicU64::new(0)),
        task: Arc::new(Mutex::new(Task::current())),
    });
    submit::create_default_queue(&file)?;
    let name = if minor == crate::sysfs::RENDER_MINOR {
        c"parsnip-shim-renderD128"
    } else {
        c"parsnip-shim-card0"
    };
    let cloexec = if flags & libc::O_CLOEXEC != 0 {
        libc::MFD_CLOEXEC
    } else {
        0
    };
    // SAFETY: a NUL-terminated name; memfd_create takes no other pointer.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), cloexec) };
    if fd < 0 {
        return Err(libc::EMFILE);
    }
    fd_table::insert(fd, FdObject::Msm(file));
    Ok(fd)
}

impl MsmFile {
    /// Runs the ioctl `request` with argument address `arg`.
    pub fn ioctl(self: &Arc<Self>, request: c_ulong, arg: u64) -> IoctlResult {
        let (nr, kind) = ioctl_arg::nr_and_type(request);
        if kind != DRM_IOCTL_BASE {
            return Err(libc::ENOTTY);
        }
        // Driver commands are DRM_COMMAND_BASE up to DRM_COMMAND_END (0xa0);
        // core commands are below and above (the syncobj ones are 0xbf on).
        if (DRM_COMMAND_BASE..DRM_COMMAND_END).contains(&nr) {
            return self.driver_ioctl(nr - DRM_COMMAND_BASE, request, arg);
        }
        drm_core::ioctl(self, nr, request, arg)
    }

    fn driver_ioctl(self: &Arc<Self>, nr: u8, request: c_ulong, arg: u64) -> IoctlResult {
        use ioctl_arg::with_arg;
        match nr {
            DRM_MSM_GET_PARAM => with_arg(request, arg, |a| params::get_param(self, a)),
            DRM_MSM_SET_PARAM => with_arg(request, arg, |a| params::set_param(self, a)),
            DRM_MSM_GEM_NEW => with_arg(request, arg, |a| gem_ioctls::gem_new(self, a)),
            DRM_MSM_GEM_INFO => with_arg(request, arg, |a| gem_ioctls::gem_info(self, a)),
            DRM_MSM_GEM_CPU_PREP => with_arg(request, arg, |a| gem_ioctls::cpu_prep(self, a)),
            DRM_MSM_GEM_CPU_FINI => with_arg(request, arg, |a| gem_ioctls::cpu_fini(self, a)),
            DRM_MSM_GEM_MADVISE => with_arg(request, arg, |a| gem_ioctls::madvise(self, a)),
            DRM_MSM_GEM_SUBMIT => with_arg(request, arg, |a| submit::gem_submit(self, a)),
            DRM_MSM_WAIT_FENCE => with_arg(request, arg, |a| submit::wait_fence(self, a)),
            DRM_MSM_SUBMITQUEUE_NEW => with_arg(request, arg, |a| submit::queue_new(self, a)),
            DRM_MSM_SUBMITQUEUE_CLOSE => {
                with_arg(request, arg, |a: &mut u32| submit::queue_close(self, *a))
            }
            DRM_MSM_SUBMITQUEUE_QUERY => with_arg(request, arg, |a| submit::queue_query(self, a)),
            _ => Err(libc::EINVAL),
        }
    }

    /// What `mmap(len, offset)` on this file maps: the pool offset of a
    /// GEM object this file has a handle to, as drm_gem_mmap allows (the
    /// offset names the object; `EACCES` for another file's object,
    /// `EINVAL` for a range past its end).
    pub fn mmap_offset(&self, offset: u64, len: u64) -> Result<u64, i32> {
        let state = self.state.lock();
        let found = state
            .handles
            .iter()
            .find(|(_, h)| h.object.offset == offset)
            .map(|(_, h)| h.object.clone());
        match found {
            Some(o) if len <= o.size => Ok(o.offset),
            Some(_) => Err(libc::EINVAL),
            None => Err(libc::EACCES),
        }
    }

    fn object(&self, handle: u32) -> Result<Arc<GemObject>, i32> {
        self.state
            .lock()
            .handles
            .get(handle)
            .map(|h| h.object.clone())
            .ok_or(libc::ENOENT)
    }

    /// The handle this file has for `object`, making one if it has none
    /// (PRIME import finds the existing handle, as drm_prime does).
    fn handle_for(&self, object: &Arc<GemObject>) -> u32 {
        let mut state = self.state.lock();
        if let Some((&h, _)) = state.handles.iter().find(|(_, h)| h.object.id == object.id) {
            return h;
        }
        state.handles.insert(Handle {
            object: object.clone(),
            mapping: None,
        })
    }

    /// The object's mapping in this file's address space, made at a kernel-
    /// chosen iova if it has none (msm_gem_get_iova).
    fn mapping(&self, handle: u32) -> Result<Arc<VmMapping>, i32> {
        let mut state = self.state.lock();
        let h = state.handles.entries_mut(handle).ok_or(libc::EINVAL)?;
        if let Some(m) = &h.mapping {
            return Ok(m.clone());
        }
        let m = self.vm.map(&h.object, None)?;
        h.mapping = Some(m.clone());
        Ok(m)
    }

    fn syncobj(&self, handle: u32) -> Option<Arc<SyncObj>> {
        self.state.lock().syncobjs.get(handle).cloned()
    }
}
