//! The simulator back end: the device trait over Parsnip's model of the GPU
//! (`parsnip-sim`), selected with `PARSNIP_SIM=<gpu>`.
//!
//! - GPU facts come from the GPU catalogue, as the msm kernel would report
//!   them for that GPU.
//! - A BO is host memory (the CPU's mapping) mapped into the model's address
//!   space at an iova from the software address space, from allocation until
//!   it is freed and no submit that lists it is still running.
//! - Each submit queue is a worker thread with its own model context (its
//!   register file and loaded state: what one GPU context keeps), running
//!   the queue's submits in order and signalling their sync points. Queues
//!   run concurrently; their priorities order nothing, since each has a
//!   thread of its own.
//! - A submit that faults or hangs loses the device: every later call
//!   returns [`Error::DeviceLost`] with the model's report, which reads like
//!   the kernel's (the packet or shader instruction, the iova, the wait).
//!
//! The model's options (strict mode, hang budgets) come from the
//! environment (`parsnip_sim::options`); strict mode is on unless turned off.

mod residency;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use parsnip_registers::gpu::GpuInfo;
use parsnip_sim::memory::Backing;
use parsnip_sim::{Context, Gpu, IbRange, SimOptions};

use crate::bo::{Bo, BoDesc};
use crate::deadline::Deadline;
use crate::device::{Backend, CpuAccess, DeviceInfo, GpuFacts, KernelDevice};
use crate::device_lost::LostState;
use crate::error::{Error, Result};
use crate::host_memory::{allocate_host_bo, HostBo, HostMemory};
use crate::queue_worker::QueueWorker;
use crate::submit::{Fence, QueueId, Submit};
use crate::sync_table::SyncTable;
use crate::syncobj::{SyncObj, SyncPoint, WaitMode};
use crate::va_allocator::VaAllocator;
use residency::Residency;

// The model reads and writes a BO's host memory through this, the same
// bytes the CPU mapping shows.
impl Backing for HostMemory {
    fn as_ptr(&self) -> *mut u8 {
        HostMemory::as_ptr(self)
    }

    fn len(&self) -> usize {
        HostMemory::len(self)
    }
}

/// What the msm kernel reports for `gpu` (adreno_gpu.c's adreno_get_param):
/// MSM_PARAM_GPU_ID is the GPU's revn, which the kernel's catalogue gives
/// only GPUs whose chip id has the legacy core.major.minor.patch form (not
/// a740 or a750, whose ids are 0x43050a01 and 0x43051401), and
/// MSM_PARAM_GMEM_BASE is 0 on the a650 family (a650, a660, a690) and the
/// a740 family (a740, a750), 0x100000 on the others.
pub fn gpu_facts(gpu: &GpuInfo) -> GpuFacts {
    let legacy_id = gpu.kernel_chip_id >> 24 == gpu.chip.generation();
    let a650_or_a740_family = matches!((gpu.chip.generation(), gpu.gen), (6, 3..) | (7, 2..));
    GpuFacts {
        gpu_id: if legacy_id { gpu.gpu_id } else { 0 },
        chip_id: u64::from(gpu.kernel_chip_id),
        gmem_size: u64::from(gpu.gmem_bytes),
        gmem_base: if a650_or_a740_family { 0 } else { 0x10_0000 },
    }
}

struct SimQueue {
    worker: QueueWorker,
    context: Arc<Mutex<Context>>,
}

pub struct SimDevice {
    info: DeviceInfo,
    gpu: Gpu,
    va: Arc<Mutex<VaAllocator>>,
    residency: Arc<Residency>,
    syncs: Arc<SyncTable>,
    lost: Arc<LostState>,
    queues: RwLock<HashMap<u32, Arc<SimQueue>>>,
    next_queue: AtomicU32,
    next_bo: AtomicU32,
}

impl SimDevice {
    /// A simulated `gpu` (from the GPU catalogue) with `options`.
    pub fn new(gpu: &'static GpuInfo, options: SimOptions) -> Result<Self> {
        let info = DeviceInfo::software(gpu_facts(gpu), Backend::Simulator);
        Ok(Self {
            va: Arc::new(Mutex::new(VaAllocator::new(info.va_start, info.va_size)?)),
            info,
            gpu: Gpu::new(gpu, options),
            residency: Residency::new(),
            syncs: Arc::new(SyncTable::new()),
            lost: Arc::new(LostState::new()),
            queues: RwLock::new(HashMap::new()),
            next_queue: AtomicU32::new(1),
            next_bo: AtomicU32::new(1),
        })
    }

    /// The model this device runs on (tests and tools inspect it).
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    fn queue(&self, id: QueueId) -> Result<Arc<SimQueue>> {
        self.queues
            .read()
            .get(&id.0)
            .cloned()
            .ok_or_else(|| Error::InvalidArgument(format!("submit queue {} does not exist", id.0)))
    }
}

impl KernelDevice for SimDevice {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }

    fn status(&self) -> Result<()> {
        self.lost.check()
    }

    /// The model's always-on counter, which CP timestamps also read.
    fn timestamp(&self) -> Result<u64> {
        Ok(self.gpu.timestamp())
    }

    fn bo_new(&self, desc: &BoDesc) -> Result<Bo> {
        let (iova, memory) = allocate_host_bo(&self.va, desc)?;
        if let Err(e) = self.gpu.memory().map(iova, memory.clone()) {
            let _ = self.va.lock().free(iova);
            return Err(Error::InvalidArgument(format!(
                "mapping a BO into the model: {e}"
            )));
        }
        let (gpu, va, residency) = (self.gpu.clone(), self.va.clone(), self.residency.clone());
        let unmap = move || {
            gpu.memory().unmap(iova);
            va.lock().free(iova)
        };
        let handle = self.next_bo.fetch_add(1, Ordering::Relaxed);
        Ok(HostBo::new_bo(
            handle,
            iova,
            memory,
            Box::new(move || residency.release(iova, Box::new(unmap))),
        ))
    }

    /// Waits for every queue to drain: the model is coherent, so once the
    /// GPU work is done the CPU sees all of it.
    fn bo_cpu_prep(&self, _bo: &Bo, _access: CpuAccess, deadline: Deadline) -> Result<()> {
        let queues: Vec<_> = self.queues.read().values().cloned().collect();
        for q in queues {
            q.worker.wait_idle(deadline)?;
        }
        Ok(())
    }

    fn bo_cpu_fini(&self, _bo: &Bo) -> Result<()> {
        Ok(())
    }

    fn queue_new(&self, priority: u32) -> Result<QueueId> {
        if priority >= self.info.priorities {
            return Err(Error::InvalidArgument(format!(
                "queue priority {priority} is not below the {} priorities",
                self.info.priorities
            )));
        }
        let id = self.next_queue.fetch_add(1, Ordering::Relaxed);
        let worker = QueueWorker::start(
            format!("sim {} queue {id}", self.gpu.info().name),
            self.syncs.clone(),
            self.lost.clone(),
        )?;
        let queue = SimQueue {
            worker,
            context: Arc::new(Mutex::new(self.gpu.new_context())),
        };
        self.queues.write().insert(id, Arc::new(queue));
        Ok(QueueId(id))
    }

    fn queue_close(&self, queue: QueueId) -> Result<()> {
        let q = self.queues.write().remove(&queue.0).ok_or_else(|| {
            Error::InvalidArgument(format!("submit queue {} does not exist", queue.0))
        })?;
        q.worker.close();
        Ok(())
    }

    fn submit(&self, submit: &Submit<'_>) -> Result<Fence> {
        self.lost.check()?;
        submit.validate_commands()?;
        self.syncs.check(submit.waits)?;
        self.syncs.check(submit.signals)?;
        let queue = self.queue(submit.queue)?;
        let streams: Vec<IbRange> = submit
            .commands
            .iter()
            .map(|c| IbRange {
                iova: c.iova(),
                dwords: c.dwords,
            })
            .collect();
        let used = submit
            .commands
            .iter()
            .map(|c| c.bo.iova())
            .chain(submit.bos.iter().map(|u| u.bo.iova()))
            .collect();
        let holds = self.residency.hold(used);
        let (gpu, context) = (self.gpu.clone(), queue.context.clone());
        let seqno = queue.worker.submit(
            submit.waits.to_vec(),
            submit.signals.to_vec(),
            Box::new(move || {
                let _holds = holds;
                let mut ctx = context.lock();
                gpu.submit(&mut ctx, &streams)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }),
        )?;
        Ok(Fence {
            queue: submit.queue,
            seqno,
        })
    }

    fn fence_wait(&self, fence: Fence, deadline: Deadline) -> Result<()> {
        self.queue(fence.queue)?.worker.wait(fence.seqno, deadline)
    }

    fn syncobj_create(&self, signaled: bool) -> Result<SyncObj> {
        Ok(self.syncs.create(signaled))
    }

    fn syncobj_destroy(&self, syncobj: SyncObj) -> Result<()> {
        self.syncs.destroy(syncobj)
    }

    fn syncobj_reset(&self, syncobjs: &[SyncObj]) -> Result<()> {
        self.syncs.reset(syncobjs)
    }

    fn syncobj_signal(&self, points: &[SyncPoint]) -> Result<()> {
        self.syncs.signal(points)
    }

    fn syncobj_wait(&self, points: &[SyncPoint], mode: WaitMode, deadline: Deadline) -> Result<()> {
        self.syncs.wait(points, mode, deadline)
    }

    fn syncobj_query(&self, syncobj: SyncObj) -> Result<u64> {
        self.syncs.query(syncobj)
    }
}

impl Drop for SimDevice {
    fn drop(&mut self) {
        for (_, q) in self.queues.write().drain() {
            q.worker.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::gpu;

    #[test]
    fn facts_are_what_the_kernel_reports_for_each_gpu() {
        let facts = |name| gpu_facts(gpu::by_name(name).unwrap());
        // adreno_gpu.c: revn and chip id; GMEM base 0 on the a650 and a740
        // families; GMEM sizes from a6xx_catalog.c.
        assert_eq!(
            facts("a660"),
            GpuFacts {
                gpu_id: 660,
                chip_id: 0x0606_0001,
                gmem_size: 1536 * 1024,
                gmem_base: 0,
            }
        );
        assert_eq!(
            facts("a740"),
            GpuFacts {
                gpu_id: 0,
                chip_id: 0x4305_0a01,
                gmem_size: 3 << 20,
                gmem_base: 0,
            }
        );
        assert_eq!(facts("a630").gmem_base, 0x10_0000);
        assert_eq!(facts("a730").gmem_base, 0x10_0000);
        assert_eq!(facts("a730").gpu_id, 730);
    }
}
