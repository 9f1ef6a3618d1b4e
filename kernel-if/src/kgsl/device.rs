//! A real Adreno through kgsl.

use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use super::uapi::{self, *};
use crate::bo::{Bo, BoBacking, BoDesc, CpuCaching};
use crate::device::{Backend, DeviceInfo, GpuFacts, KernelDevice, ALWAYS_ON_COUNTER_HZ};
use crate::device_mapping::DeviceMapping;
use crate::error::{Error, Result};
use crate::host_memory::round_to_page;
use crate::ioctl_file::IoctlFile;
use crate::queue_worker::Job;
use crate::software_device::{SoftwareBackend, SoftwareDevice};
use crate::submit::Submit;

/// Queue priorities offered: kgsl's 16 context priorities, used as three
/// levels like msm's scheduler priorities.
const PRIORITIES: u32 = 3;
/// How long one timestamp wait lasts before it is re-issued (kgsl's wait
/// takes a relative timeout in milliseconds; the worker waits as long as
/// the GPU takes, the kernel's own hang detection ends a stuck submit).
const WAIT_SLICE_MS: u32 = 1000;

pub struct KgslDevice {
    file: Arc<IoctlFile>,
    software: SoftwareDevice<Arc<KgslQueue>>,
}

/// A submit queue: one kgsl draw context, destroyed with the queue.
pub struct KgslQueue {
    file: Arc<IoctlFile>,
    context_id: u32,
}

impl Drop for KgslQueue {
    fn drop(&mut self) {
        let arg = KgslDrawctxtDestroy {
            drawctxt_id: self.context_id,
        };
        // Nothing to report to: a context the kernel no longer knows is gone
        // already.
        let _ = self
            .file
            .ioctl_w("DRAWCTXT_DESTROY", uapi::kgsl_drawctxt_destroy, &arg);
    }
}

fn get_property<T: Default>(file: &IoctlFile, kind: u32, value: &mut T) -> Result<()> {
    let mut arg = KgslDeviceGetproperty {
        r#type: kind,
        value: value as *mut T as u64,
        sizebytes: std::mem::size_of::<T>() as u64,
    };
    // `value` outlives the call.
    file.ioctl_rw(
        "DEVICE_GETPROPERTY",
        uapi::kgsl_device_getproperty,
        &mut arg,
    )
}

impl KgslDevice {
    /// Opens the kgsl device `node`.
    pub fn open(node: &Path) -> Result<Self> {
        let file = Arc::new(IoctlFile::open(node)?);
        let mut devinfo = KgslDevinfo::default();
        get_property(&file, KGSL_PROP_DEVICE_INFO, &mut devinfo)?;
        // Where GMEM is for the CP (UCHE's view); older kernels lack the
        // property and use the device info's base.
        let mut gmem_base = devinfo.gmem_gpubaseaddr;
        if get_property(&file, KGSL_PROP_UCHE_GMEM_VADDR, &mut gmem_base).is_err() {
            gmem_base = devinfo.gmem_gpubaseaddr;
        }
        let mut va_size = 0u64;
        let _ = get_property(&file, KGSL_PROP_GPU_VA64_SIZE, &mut va_size);
        let gpu = GpuFacts {
            gpu_id: devinfo.gpu_id,
            chip_id: u64::from(devinfo.chip_id),
            gmem_size: devinfo.gmem_sizebytes,
            gmem_base,
        };
        let info = DeviceInfo {
            gpu,
            backend: Backend::Kgsl {
                node: node.to_path_buf(),
            },
            // kgsl picks every address; userspace never does.
            va_start: 0,
            va_size,
            userspace_iova: false,
            priorities: PRIORITIES,
            // Sync objects live in this process (SyncTable): timelines too.
            timeline_syncobjs: true,
            cached_coherent: true,
            timestamp_frequency: ALWAYS_ON_COUNTER_HZ,
        };
        Ok(Self {
            file,
            software: SoftwareDevice::with_info(info)?,
        })
    }
}

impl SoftwareBackend for KgslDevice {
    type QueueState = Arc<KgslQueue>;

    fn software(&self) -> &SoftwareDevice<Self::QueueState> {
        &self.software
    }

    /// Opens the device again: kgsl gives each open file its own address
    /// space and contexts.
    fn reopen(&self) -> Result<Arc<dyn KernelDevice>> {
        Ok(Arc::new(KgslDevice::open(self.file.path())?))
    }

    /// kgsl has no ioctl that reads the GPU's always-on counter (its users
    /// map a timer page the kernel exports only on some SoCs).
    fn read_timestamp(&self) -> Result<u64> {
        Err(Error::InvalidArgument(format!(
            "{}: kgsl offers no ioctl reading the GPU's timestamp counter",
            self.file.path().display()
        )))
    }

    fn new_bo(&self, desc: &BoDesc) -> Result<Bo> {
        if let Some(iova) = desc.fixed_iova {
            return Err(Error::InvalidArgument(format!(
                "BO at fixed iova {iova:#x}: kgsl does not let userspace choose iovas"
            )));
        }
        let size = round_to_page(desc.size).filter(|&s| s > 0).ok_or_else(|| {
            Error::InvalidArgument(format!("BO size {:#x} is zero or too large", desc.size))
        })?;
        let mut flags = match desc.caching {
            CpuCaching::WriteCombined => KGSL_CACHEMODE_WRITECOMBINE << KGSL_CACHEMODE_SHIFT,
            CpuCaching::Cached => KGSL_CACHEMODE_WRITEBACK << KGSL_CACHEMODE_SHIFT,
            CpuCaching::CachedCoherent => {
                (KGSL_CACHEMODE_WRITEBACK << KGSL_CACHEMODE_SHIFT) | KGSL_MEMFLAGS_IOCOHERENT
            }
        };
        if desc.gpu_read_only {
            flags |= KGSL_MEMFLAGS_GPUREADONLY;
        }
        let mut alloc = KgslGpuobjAlloc {
            size,
            flags,
            ..KgslGpuobjAlloc::default()
        };
        self.file
            .ioctl_rw("GPUOBJ_ALLOC", uapi::kgsl_gpuobj_alloc, &mut alloc)?;
        let mut info = KgslGpuobjInfo {
            id: alloc.id,
            ..KgslGpuobjInfo::default()
        };
        let mut backing = KgslBo {
            file: self.file.clone(),
            id: alloc.id,
            size: alloc.mmapsize.max(size),
            map: DeviceMapping::default(),
        };
        if let Err(e) = self
            .file
            .ioctl_rw("GPUOBJ_INFO", uapi::kgsl_gpuobj_info, &mut info)
        {
            let _ = backing.release();
            return Err(e);
        }
        Ok(Bo::new(alloc.id, info.gpuaddr, size, Box::new(backing)))
    }

    fn new_queue(&self, id: u32, priority: u32) -> Result<(String, Self::QueueState)> {
        // Priority 0 is the highest, on both interfaces.
        let kgsl_priority = priority * 15 / (PRIORITIES - 1).max(1);
        let mut arg = KgslDrawctxtCreate {
            flags: KGSL_CONTEXT_PREAMBLE
                | KGSL_CONTEXT_NO_GMEM_ALLOC
                | KGSL_CONTEXT_PER_CONTEXT_TS
                | KGSL_CONTEXT_INVALIDATE_ON_FAULT
                | (KGSL_CONTEXT_TYPE_VK << KGSL_CONTEXT_TYPE_SHIFT)
                | (kgsl_priority << KGSL_CONTEXT_PRIORITY_SHIFT),
            drawctxt_id: 0,
        };
        self.file
            .ioctl_rw("DRAWCTXT_CREATE", uapi::kgsl_drawctxt_create, &mut arg)?;
        Ok((
            format!("kgsl queue {id} (context {})", arg.drawctxt_id),
            Arc::new(KgslQueue {
                file: self.file.clone(),
                context_id: arg.drawctxt_id,
            }),
        ))
    }

    /// Issues the command buffers as one GPU_COMMAND (its memory objects
    /// listed, for the kernel's bookkeeping and snapshots) and waits for its
    /// timestamp to retire; a context the kernel invalidated for a fault or
    /// hang is the device lost.
    fn submit_job(&self, queue: &Self::QueueState, submit: &Submit<'_>) -> Job {
        let cmds: Vec<KgslCommandObject> = submit
            .commands
            .iter()
            .map(|c| KgslCommandObject {
                gpuaddr: c.iova(),
                size: u64::from(c.dwords) * 4,
                flags: KGSL_CMDLIST_IB,
                id: c.bo.handle(),
                offset: c.offset,
            })
            .collect();
        let objs: Vec<KgslCommandObject> = submit
            .bos
            .iter()
            .map(|u| KgslCommandObject {
                gpuaddr: u.bo.iova(),
                size: u.bo.size(),
                flags: KGSL_OBJLIST_MEMOBJ,
                id: u.bo.handle(),
                offset: 0,
            })
            .collect();
        let queue = queue.clone();
        Box::new(move || {
            let lost = |e: Error| {
                format!(
                    "kgsl context {} on {}: {e}",
                    queue.context_id,
                    queue.file.path().display()
                )
            };
            let mut command = KgslGpuCommand {
                cmdlist: cmds.as_ptr() as u64,
                cmdsize: std::mem::size_of::<KgslCommandObject>() as u32,
                numcmds: cmds.len() as u32,
                objlist: objs.as_ptr() as u64,
                objsize: std::mem::size_of::<KgslCommandObject>() as u32,
                numobjs: objs.len() as u32,
                context_id: queue.context_id,
                ..KgslGpuCommand::default()
            };
            // `cmds` and `objs` outlive the call.
            queue
                .file
                .ioctl_rw("GPU_COMMAND", uapi::kgsl_gpu_command, &mut command)
                .map_err(lost)?;
            let wait = KgslDeviceWaittimestampCtxtid {
                context_id: queue.context_id,
                timestamp: command.timestamp,
                timeout: WAIT_SLICE_MS,
            };
            loop {
                match queue.file.ioctl_w(
                    "DEVICE_WAITTIMESTAMP_CTXTID",
                    uapi::kgsl_device_waittimestamp_ctxtid,
                    &wait,
                ) {
                    Ok(()) => break,
                    Err(Error::Timeout { .. }) => continue,
                    Err(e) => return Err(lost(e)),
                }
            }
            let mut status = queue.context_id;
            get_property(&queue.file, KGSL_PROP_GPU_RESET_STAT, &mut status).map_err(lost)?;
            match status {
                KGSL_CTX_STAT_NO_ERROR => Ok(()),
                KGSL_CTX_STAT_GUILTY_CONTEXT_RESET_EXT => Err(format!(
                    "kgsl reset context {} on {}: its submit faulted or hung the GPU \
                     (the kernel log and the GPU snapshot have the details)",
                    queue.context_id,
                    queue.file.path().display()
                )),
                other => Err(format!(
                    "kgsl reset context {} on {} (reset status {other})",
                    queue.context_id,
                    queue.file.path().display()
                )),
            }
        })
    }
}

/// The kgsl half of a [`Bo`]: a GPU object, mapped at offset `id << 12`.
struct KgslBo {
    file: Arc<IoctlFile>,
    id: u32,
    size: u64,
    map: DeviceMapping,
}

impl BoBacking for KgslBo {
    fn map(&self) -> Result<NonNull<u8>> {
        self.map.get(
            self.file.file(),
            || Ok(u64::from(self.id) << 12),
            self.size,
            || format!("kgsl object {}", self.id),
        )
    }

    fn release(&mut self) -> Result<()> {
        self.map.unmap();
        let arg = KgslGpuobjFree {
            id: self.id,
            ..KgslGpuobjFree::default()
        };
        self.file
            .ioctl_w("GPUOBJ_FREE", uapi::kgsl_gpuobj_free, &arg)
    }
}
