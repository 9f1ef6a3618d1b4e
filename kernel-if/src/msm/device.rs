//! A real Adreno through the msm kernel driver.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use drm::control::Device as _;
use drm::Device as _;
use drm::DriverCapability;
use parking_lot::Mutex;

use super::bo::{MsmBo, MsmShared, UserVa};
use super::deferred::{points_available, Deferred, SubmitArgs};
use super::drm_file::DrmFile;
use super::uapi::{self, *};
use crate::bo::{Bo, BoDesc, CpuCaching};
use crate::deadline::Deadline;
use crate::device::{Backend, CpuAccess, DeviceInfo, GpuFacts, KernelDevice, ALWAYS_ON_COUNTER_HZ};
use crate::device_lost::LostState;
use crate::device_mapping::DeviceMapping;
use crate::error::{Error, Result};
use crate::host_memory::round_to_page;
use crate::submit::{Fence, QueueId, Submit};
use crate::syncobj::{SyncObj, SyncPoint, WaitMode};
use crate::va_allocator::VaAllocator;

/// msm 1.6 added syncobjs to GEM_SUBMIT (MSM_SUBMIT_SYNCOBJ_IN/OUT), which
/// Vulkan semaphores need; 1.8 added MSM_BO_CACHED_COHERENT (the version
/// history in the kernel's msm_drv.c).
const MIN_VERSION: (i32, i32) = (1, 6);
const CACHED_COHERENT_VERSION: (i32, i32) = (1, 8);
/// msm 1.9 lets userspace choose submit seqnos (MSM_SUBMIT_FENCE_SN_IN).
const FENCE_SN_IN_VERSION: (i32, i32) = (1, 9);

pub struct MsmDevice {
    shared: Arc<MsmShared>,
    info: DeviceInfo,
    /// MSM_PARAM_FAULTS when the device was opened; `None` on kernels that
    /// do not count faults (then only failed ioctls reveal a lost device).
    faults_at_open: Option<u64>,
    lost: Arc<LostState>,
    /// Whether the kernel takes seqnos from userspace
    /// (MSM_SUBMIT_FENCE_SN_IN), which holding submits needs.
    fence_sn_in: bool,
}

impl MsmDevice {
    /// Opens the render node `node`, which must be driven by msm.
    pub fn open(node: &Path) -> Result<Self> {
        let file = DrmFile::open(node)?;
        let driver = file
            .get_driver()
            .map_err(|e| Error::from_io("VERSION", e))?;
        let name = driver.name().to_string_lossy().into_owned();
        if name != "msm" {
            return Err(Error::InvalidArgument(format!(
                "{} is driven by {name}, not msm",
                node.display()
            )));
        }
        let version = driver.version;
        if (version.0, version.1) < MIN_VERSION {
            return Err(Error::NoDevice(format!(
                "{}: msm {}.{}.{} is too old: Parsnip needs msm {}.{} (syncobjs in GEM_SUBMIT)",
                node.display(),
                version.0,
                version.1,
                version.2,
                MIN_VERSION.0,
                MIN_VERSION.1
            )));
        }
        let cap = |c| file.get_driver_capability(c).unwrap_or(0);
        if cap(DriverCapability::SyncObj) == 0 {
            return Err(Error::NoDevice(format!(
                "{}: the kernel offers no DRM syncobjs",
                node.display()
            )));
        }
        let timeline_syncobjs = cap(DriverCapability::TimelineSyncObj) != 0;

        let gpu = GpuFacts {
            gpu_id: file.get_param(MSM_PARAM_GPU_ID)? as u32,
            chip_id: file.get_param(MSM_PARAM_CHIP_ID)?,
            gmem_size: file.get_param(MSM_PARAM_GMEM_SIZE)?,
            gmem_base: file.get_param(MSM_PARAM_GMEM_BASE)?,
        };
        let priorities = file.get_param(MSM_PARAM_PRIORITIES)? as u32;
        let faults_at_open = file.get_param(MSM_PARAM_FAULTS).ok();
        // Kernels that let userspace place BOs say where (and older ones
        // refuse the query): the same test Turnip makes.
        let va = file
            .get_param(MSM_PARAM_VA_START)
            .and_then(|start| Ok((start, file.get_param(MSM_PARAM_VA_SIZE)?)))
            .ok();
        let user_va = match va {
            Some((start, size)) => Some(Mutex::new(UserVa::new(VaAllocator::new(start, size)?))),
            None => None,
        };
        let (va_start, va_size) = va.unwrap_or((0, 0));

        let info = DeviceInfo {
            gpu,
            backend: Backend::Msm {
                node: node.to_path_buf(),
                version,
            },
            va_start,
            va_size,
            userspace_iova: user_va.is_some(),
            priorities,
            timeline_syncobjs,
            cached_coherent: (version.0, version.1) >= CACHED_COHERENT_VERSION,
            timestamp_frequency: ALWAYS_ON_COUNTER_HZ,
        };
        Ok(Self {
            shared: Arc::new(MsmShared {
                file,
                user_va,
                last_seqnos: Mutex::new(HashMap::new()),
                deferred: Arc::new(Deferred::default()),
            }),
            info,
            faults_at_open,
            lost: Arc::new(LostState::new()),
            fence_sn_in: (version.0, version.1) >= FENCE_SN_IN_VERSION,
        })
    }

    fn file(&self) -> &DrmFile {
        &self.shared.file
    }

    /// Marks the device lost if the kernel has counted a fault or hang since
    /// it was opened.
    fn check_faults(&self) -> Result<()> {
        if let (false, Some(at_open)) = (self.lost.is_lost(), self.faults_at_open) {
            let faults = self.file().get_param(MSM_PARAM_FAULTS)?;
            if faults > at_open {
                self.lost.set(format!(
                    "the msm kernel driver counted {} GPU fault(s) or hang(s) since {} was \
                     opened; the kernel log and /sys/class/devcoredump have the details",
                    faults - at_open,
                    self.file().path().display()
                ));
            }
        }
        self.lost.check()
    }

    /// Makes a submit at once, the kernel choosing its seqno.
    fn submit_now(&self, args: &SubmitArgs) -> Result<u32> {
        let seqno = match args.submit(self.file()) {
            Ok(seqno) => seqno,
            Err(e) => {
                self.check_faults()?;
                return Err(e);
            }
        };
        self.shared.last_seqnos.lock().insert(args.queue, seqno);
        Ok(seqno)
    }

    /// Makes a submit with the queue's next seqno, or holds it (see
    /// [`super::deferred`]) when a point it waits on has no fence yet or
    /// the queue already holds submits.
    fn submit_or_hold(&self, mut args: SubmitArgs) -> Result<u32> {
        let held = self.shared.deferred.holds_queue(args.queue)
            || !points_available(
                self.file(),
                &args.waits,
                self.info.timeline_syncobjs,
                Deadline::now(),
            )?;
        let mut last = self.shared.last_seqnos.lock();
        let seqno = last.get(&args.queue).copied().unwrap_or(0).wrapping_add(1);
        args.flags |= MSM_SUBMIT_FENCE_SN_IN;
        args.seqno = seqno;
        let queue = args.queue;
        if held {
            self.shared.deferred.hold(
                self.shared.clone(),
                self.lost.clone(),
                self.info.timeline_syncobjs,
                args,
            )?;
        } else if let Err(e) = args.submit(self.file()) {
            drop(last);
            self.check_faults()?;
            return Err(e);
        }
        last.insert(queue, seqno);
        Ok(seqno)
    }

    fn syncobj_handles(syncobjs: &[SyncObj]) -> Result<Vec<drm::control::syncobj::Handle>> {
        syncobjs
            .iter()
            .map(|s| {
                drm::control::from_u32(s.0)
                    .ok_or_else(|| Error::InvalidArgument("syncobj handle 0 is never valid".into()))
            })
            .collect()
    }

    fn check_timeline(&self, points: &[SyncPoint]) -> Result<()> {
        if !self.info.timeline_syncobjs {
            if let Some(p) = points.iter().find(|p| p.value != 0) {
                return Err(Error::InvalidArgument(format!(
                    "timeline point {} of syncobj {}: this kernel has no timeline syncobjs",
                    p.value, p.syncobj.0
                )));
            }
        }
        Ok(())
    }

    fn submit_syncobjs(points: &[SyncPoint]) -> Vec<MsmGemSubmitSyncobj> {
        points
            .iter()
            .map(|p| MsmGemSubmitSyncobj {
                handle: p.syncobj.0,
                flags: 0,
                point: p.value,
            })
            .collect()
    }
}

impl KernelDevice for MsmDevice {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Opens the render node again: the kernel gives each open file its own
    /// context (address space, submit queues, fault count).
    fn open_context(&self) -> Result<Arc<dyn KernelDevice>> {
        Ok(Arc::new(MsmDevice::open(self.file().path())?))
    }

    fn status(&self) -> Result<()> {
        self.check_faults()
    }

    fn timestamp(&self) -> Result<u64> {
        self.file().get_param(MSM_PARAM_TIMESTAMP)
    }

    fn bo_new(&self, desc: &BoDesc) -> Result<Bo> {
        let size = round_to_page(desc.size).filter(|&s| s > 0).ok_or_else(|| {
            Error::InvalidArgument(format!("BO size {:#x} is zero or too large", desc.size))
        })?;
        let mut flags = match desc.caching {
            CpuCaching::WriteCombined => MSM_BO_WC,
            CpuCaching::Cached => MSM_BO_CACHED,
            CpuCaching::CachedCoherent if self.info.cached_coherent => MSM_BO_CACHED_COHERENT,
            CpuCaching::CachedCoherent => {
                return Err(Error::InvalidArgument(
                    "cached-coherent BOs need msm 1.8".into(),
                ))
            }
        };
        if desc.gpu_read_only {
            flags |= MSM_BO_GPU_READONLY;
        }
        // Reserve the address first, so a refusal leaves no GEM object.
        let user_iova = if self.info.userspace_iova {
            Some(self.shared.alloc_va(size, desc.fixed_iova)?)
        } else if let Some(iova) = desc.fixed_iova {
            return Err(Error::InvalidArgument(format!(
                "BO at fixed iova {iova:#x}: this kernel does not let userspace choose iovas"
            )));
        } else {
            None
        };
        let mut new = MsmGemNew {
            size,
            flags,
            handle: 0,
        };
        if let Err(e) = self.file().ioctl_rw("GEM_NEW", uapi::msm_gem_new, &mut new) {
            if let Some(iova) = user_iova {
                let _ = self.shared.free_va_now(iova);
            }
            return Err(e);
        }
        let iova = match user_iova {
            Some(iova) => self
                .shared
                .gem_info(new.handle, MSM_INFO_SET_IOVA, iova)
                .map(|_| iova),
            None => self.shared.gem_info(new.handle, MSM_INFO_GET_IOVA, 0),
        };
        let iova = match iova {
            Ok(iova) => iova,
            Err(e) => {
                let _ = self.file().gem_close(new.handle);
                if let Some(iova) = user_iova {
                    let _ = self.shared.free_va_now(iova);
                }
                return Err(e);
            }
        };
        Ok(Bo::new(
            new.handle,
            iova,
            size,
            Box::new(MsmBo {
                shared: self.shared.clone(),
                handle: new.handle,
                size,
                iova,
                user_iova: user_iova.is_some(),
                map: DeviceMapping::default(),
            }),
        ))
    }

    fn bo_cpu_prep(&self, bo: &Bo, access: CpuAccess, deadline: Deadline) -> Result<()> {
        let (tv_sec, tv_nsec) = deadline.monotonic_timespec();
        let op = match access {
            CpuAccess::Read => MSM_PREP_READ,
            CpuAccess::Write => MSM_PREP_WRITE,
            CpuAccess::ReadWrite => MSM_PREP_READ | MSM_PREP_WRITE,
        };
        let arg = MsmGemCpuPrep {
            handle: bo.handle(),
            op,
            timeout: MsmTimespec { tv_sec, tv_nsec },
        };
        self.file()
            .ioctl_w("GEM_CPU_PREP", uapi::msm_gem_cpu_prep, &arg)
    }

    fn bo_cpu_fini(&self, bo: &Bo) -> Result<()> {
        let arg = MsmGemCpuFini {
            handle: bo.handle(),
        };
        self.file()
            .ioctl_w("GEM_CPU_FINI", uapi::msm_gem_cpu_fini, &arg)
    }

    fn queue_new(&self, priority: u32) -> Result<QueueId> {
        let mut arg = MsmSubmitqueue {
            flags: 0,
            prio: priority,
            id: 0,
        };
        self.file()
            .ioctl_rw("SUBMITQUEUE_NEW", uapi::msm_submitqueue_new, &mut arg)?;
        self.shared.last_seqnos.lock().insert(arg.id, 0);
        Ok(QueueId(arg.id))
    }

    fn queue_close(&self, queue: QueueId) -> Result<()> {
        self.file()
            .ioctl_w("SUBMITQUEUE_CLOSE", uapi::msm_submitqueue_close, &queue.0)?;
        self.shared.last_seqnos.lock().remove(&queue.0);
        Ok(())
    }

    fn submit(&self, submit: &Submit<'_>) -> Result<Fence> {
        self.lost.check()?;
        submit.validate_commands()?;
        self.check_timeline(submit.waits)?;
        self.check_timeline(submit.signals)?;

        // The BO table: every listed BO once, then command buffers' BOs not
        // listed. Command BOs are marked for crash dumps, so a devcoredump
        // shows the stream that hung.
        let mut bos: Vec<MsmGemSubmitBo> = Vec::with_capacity(submit.bos.len() + 1);
        let mut index: HashMap<u32, u32> = HashMap::with_capacity(submit.bos.len() + 1);
        let mut add = |handle: u32, flags: u32| -> u32 {
            let i = *index.entry(handle).or_insert_with(|| {
                bos.push(MsmGemSubmitBo {
                    flags: 0,
                    handle,
                    presumed: 0,
                });
                bos.len() as u32 - 1
            });
            bos[i as usize].flags |= flags;
            i
        };
        for u in submit.bos {
            let mut flags = MSM_SUBMIT_BO_READ;
            if u.write {
                flags |= MSM_SUBMIT_BO_WRITE;
            }
            if u.dump {
                flags |= MSM_SUBMIT_BO_DUMP;
            }
            add(u.bo.handle(), flags);
        }
        let mut cmds = Vec::with_capacity(submit.commands.len());
        for (i, c) in submit.commands.iter().enumerate() {
            let submit_offset = u32::try_from(c.offset).map_err(|_| {
                Error::InvalidArgument(format!(
                    "command buffer {i} starts at offset {:#x}, beyond msm's 32-bit offsets",
                    c.offset
                ))
            })?;
            cmds.push(MsmGemSubmitCmd {
                r#type: MSM_SUBMIT_CMD_BUF,
                submit_idx: add(c.bo.handle(), MSM_SUBMIT_BO_READ | MSM_SUBMIT_BO_DUMP),
                submit_offset,
                size: c.dwords * 4,
                ..MsmGemSubmitCmd::default()
            });
        }
        let args = SubmitArgs {
            queue: submit.queue.0,
            // Vulkan synchronisation is explicit: the kernel must not add
            // implicit waits on other users of these BOs.
            flags: MSM_PIPE_3D0 | MSM_SUBMIT_NO_IMPLICIT,
            seqno: 0,
            bos,
            cmds,
            waits: Self::submit_syncobjs(submit.waits),
            signals: Self::submit_syncobjs(submit.signals),
        };
        let seqno = if self.fence_sn_in {
            self.submit_or_hold(args)?
        } else {
            self.submit_now(&args)?
        };
        Ok(Fence {
            queue: submit.queue,
            seqno,
        })
    }

    fn fence_wait(&self, fence: Fence, deadline: Deadline) -> Result<()> {
        let waited = self.shared.wait_fence(fence.queue.0, fence.seqno, deadline);
        self.check_faults()?;
        waited
    }

    fn syncobj_create(&self, signaled: bool) -> Result<SyncObj> {
        let h = self
            .file()
            .create_syncobj(signaled)
            .map_err(|e| Error::from_io("SYNCOBJ_CREATE", e))?;
        Ok(SyncObj(u32::from(h)))
    }

    fn syncobj_destroy(&self, syncobj: SyncObj) -> Result<()> {
        let h = Self::syncobj_handles(&[syncobj])?[0];
        self.file()
            .destroy_syncobj(h)
            .map_err(|e| Error::from_io("SYNCOBJ_DESTROY", e))
    }

    fn syncobj_reset(&self, syncobjs: &[SyncObj]) -> Result<()> {
        let handles = Self::syncobj_handles(syncobjs)?;
        self.file()
            .syncobj_reset(&handles)
            .map_err(|e| Error::from_io("SYNCOBJ_RESET", e))
    }

    fn syncobj_signal(&self, points: &[SyncPoint]) -> Result<()> {
        self.check_timeline(points)?;
        let (binary, timeline): (Vec<SyncPoint>, Vec<SyncPoint>) =
            points.iter().partition(|p| p.value == 0);
        if !binary.is_empty() {
            let handles =
                Self::syncobj_handles(&binary.iter().map(|p| p.syncobj).collect::<Vec<_>>())?;
            self.file()
                .syncobj_signal(&handles)
                .map_err(|e| Error::from_io("SYNCOBJ_SIGNAL", e))?;
        }
        if !timeline.is_empty() {
            let handles =
                Self::syncobj_handles(&timeline.iter().map(|p| p.syncobj).collect::<Vec<_>>())?;
            let values: Vec<u64> = timeline.iter().map(|p| p.value).collect();
            self.file()
                .syncobj_timeline_signal(&handles, &values)
                .map_err(|e| Error::from_io("SYNCOBJ_TIMELINE_SIGNAL", e))?;
        }
        Ok(())
    }

    fn syncobj_wait(&self, points: &[SyncPoint], mode: WaitMode, deadline: Deadline) -> Result<()> {
        if points.is_empty() {
            return Ok(());
        }
        self.check_timeline(points)?;
        let handles = Self::syncobj_handles(&points.iter().map(|p| p.syncobj).collect::<Vec<_>>())?;
        let all = mode == WaitMode::All;
        let timeout = deadline.monotonic_ns();
        // WAIT_FOR_SUBMIT: a point whose signalling submit is not made yet is
        // waited for, not an error (Vulkan's wait-before-signal).
        let waited = if self.info.timeline_syncobjs {
            let values: Vec<u64> = points.iter().map(|p| p.value).collect();
            self.file()
                .syncobj_timeline_wait(&handles, &values, timeout, all, true, false)
                .map_err(|e| Error::from_io("SYNCOBJ_TIMELINE_WAIT", e))
        } else {
            self.file()
                .syncobj_wait(&handles, timeout, all, true)
                .map_err(|e| Error::from_io("SYNCOBJ_WAIT", e))
        };
        waited.map(|_| ())
    }

    fn syncobj_query(&self, syncobj: SyncObj) -> Result<u64> {
        let handles = Self::syncobj_handles(&[syncobj])?;
        let mut value = [0u64];
        self.file()
            .syncobj_timeline_query(&handles, &mut value, false)
            .map_err(|e| Error::from_io("SYNCOBJ_QUERY", e))?;
        Ok(value[0])
    }
}
