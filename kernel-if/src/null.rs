//! The null back end: a device that accepts everything a real one would,
//! checks it the same way, and executes nothing.
//!
//! It exists to measure the driver's own CPU cost (recording, submitting,
//! synchronising) with no GPU and no simulator in the way. BOs are real host
//! memory, so the driver can write command streams and read back whatever it
//! wrote; submits go through a real worker per queue, so fences and sync
//! points pass in order and wait-before-signal behaves as on hardware.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Instant;

use parking_lot::{Mutex, RwLock};

use crate::bo::{Bo, BoDesc};
use crate::deadline::Deadline;
use crate::device::{Backend, CpuAccess, DeviceInfo, GpuFacts, KernelDevice};
use crate::device_lost::LostState;
use crate::error::{Error, Result};
use crate::host_memory::{allocate_host_bo, HostBo};
use crate::queue_worker::QueueWorker;
use crate::submit::{Fence, QueueId, Submit};
use crate::sync_table::SyncTable;
use crate::syncobj::{SyncObj, SyncPoint, WaitMode};
use crate::va_allocator::VaAllocator;

pub struct NullDevice {
    info: DeviceInfo,
    va: Arc<Mutex<VaAllocator>>,
    syncs: Arc<SyncTable>,
    lost: Arc<LostState>,
    queues: RwLock<HashMap<u32, Arc<QueueWorker>>>,
    next_queue: AtomicU32,
    next_bo: AtomicU32,
    epoch: Instant,
}

impl NullDevice {
    /// A null device posing as the GPU `gpu` describes (from the GPU
    /// catalogue).
    pub fn new(gpu: GpuFacts) -> Result<Self> {
        let info = DeviceInfo::software(gpu, Backend::Null);
        Ok(Self {
            va: Arc::new(Mutex::new(VaAllocator::new(info.va_start, info.va_size)?)),
            info,
            syncs: Arc::new(SyncTable::new()),
            lost: Arc::new(LostState::new()),
            queues: RwLock::new(HashMap::new()),
            next_queue: AtomicU32::new(1),
            next_bo: AtomicU32::new(1),
            epoch: Instant::now(),
        })
    }

    fn queue(&self, id: QueueId) -> Result<Arc<QueueWorker>> {
        self.queues
            .read()
            .get(&id.0)
            .cloned()
            .ok_or_else(|| Error::InvalidArgument(format!("submit queue {} does not exist", id.0)))
    }
}

impl KernelDevice for NullDevice {
    fn info(&self) -> &DeviceInfo {
        &self.info
    }

    fn status(&self) -> Result<()> {
        self.lost.check()
    }

    fn timestamp(&self) -> Result<u64> {
        let ns = self.epoch.elapsed().as_nanos();
        Ok((ns * u128::from(self.info.timestamp_frequency) / 1_000_000_000) as u64)
    }

    fn bo_new(&self, desc: &BoDesc) -> Result<Bo> {
        let (iova, memory) = allocate_host_bo(&self.va, desc)?;
        let va = self.va.clone();
        let handle = self.next_bo.fetch_add(1, Ordering::Relaxed);
        Ok(HostBo::new_bo(
            handle,
            iova,
            memory,
            Box::new(move || va.lock().free(iova)),
        ))
    }

    /// Waits for every queue to drain: nothing executes, so this is only the
    /// ordering a real kernel would enforce, conservatively.
    fn bo_cpu_prep(&self, _bo: &Bo, _access: CpuAccess, deadline: Deadline) -> Result<()> {
        let queues: Vec<_> = self.queues.read().values().cloned().collect();
        for q in queues {
            q.wait_idle(deadline)?;
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
            format!("null queue {id}"),
            self.syncs.clone(),
            self.lost.clone(),
        )?;
        self.queues.write().insert(id, Arc::new(worker));
        Ok(QueueId(id))
    }

    fn queue_close(&self, queue: QueueId) -> Result<()> {
        let worker = self.queues.write().remove(&queue.0).ok_or_else(|| {
            Error::InvalidArgument(format!("submit queue {} does not exist", queue.0))
        })?;
        worker.close();
        Ok(())
    }

    fn submit(&self, submit: &Submit<'_>) -> Result<Fence> {
        self.lost.check()?;
        submit.validate_commands()?;
        self.syncs.check(submit.waits)?;
        self.syncs.check(submit.signals)?;
        let queue = self.queue(submit.queue)?;
        let seqno = queue.submit(
            submit.waits.to_vec(),
            submit.signals.to_vec(),
            Box::new(|| Ok(())),
        )?;
        Ok(Fence {
            queue: submit.queue,
            seqno,
        })
    }

    fn fence_wait(&self, fence: Fence, deadline: Deadline) -> Result<()> {
        self.queue(fence.queue)?.wait(fence.seqno, deadline)
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

impl Drop for NullDevice {
    fn drop(&mut self) {
        for (_, q) in self.queues.write().drain() {
            q.close();
        }
    }
}
