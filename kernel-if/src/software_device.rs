//! The half of a device that the back ends running on the host (null and
//! simulator) share: the software address space, sync objects in a
//! [`SyncTable`], one [`QueueWorker`] per submit queue, the device-lost
//! state, and with them every [`KernelDevice`] method that only plumbs
//! those. A back end says what differs through [`SoftwareBackend`]: its
//! clock, how a BO becomes visible to its GPU, what a queue keeps beside
//! its worker, and the job that runs a submit.
//!
//! The msm back end is not one of these: the kernel does all of this there.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};

use crate::bo::{Bo, BoDesc};
use crate::deadline::Deadline;
use crate::device::{CpuAccess, DeviceInfo, GpuFacts, KernelDevice};
use crate::device_lost::LostState;
use crate::error::{Error, Result};
use crate::queue_worker::{Job, QueueWorker};
use crate::submit::{Fence, QueueId, Submit};
use crate::sync_table::SyncTable;
use crate::syncobj::{SyncObj, SyncPoint, WaitMode};
use crate::va_allocator::VaAllocator;

/// One submit queue: its worker thread and what the back end keeps for it.
pub(crate) struct SoftwareQueue<Q> {
    pub worker: QueueWorker,
    pub state: Q,
}

/// The shared half of a host back end's device, `Q` being what each of its
/// queues keeps (nothing for null, a model context for the simulator).
pub(crate) struct SoftwareDevice<Q> {
    pub info: DeviceInfo,
    pub va: Arc<Mutex<VaAllocator>>,
    pub syncs: Arc<SyncTable>,
    pub lost: Arc<LostState>,
    queues: RwLock<HashMap<u32, Arc<SoftwareQueue<Q>>>>,
    next_queue: AtomicU32,
    next_bo: AtomicU32,
}

impl<Q> SoftwareDevice<Q> {
    pub fn new(gpu: GpuFacts, backend: crate::device::Backend) -> Result<Self> {
        Self::with_info(DeviceInfo::software(gpu, backend))
    }

    /// A device half with `info` as the device's facts.
    pub fn with_info(info: DeviceInfo) -> Result<Self> {
        Ok(Self {
            va: Arc::new(Mutex::new(VaAllocator::new(info.va_start, info.va_size)?)),
            info,
            syncs: Arc::new(SyncTable::new()),
            lost: Arc::new(LostState::new()),
            queues: RwLock::new(HashMap::new()),
            next_queue: AtomicU32::new(1),
            next_bo: AtomicU32::new(1),
        })
    }

    /// The handle of the next BO.
    pub fn next_bo_handle(&self) -> u32 {
        self.next_bo.fetch_add(1, Ordering::Relaxed)
    }

    fn queue(&self, id: QueueId) -> Result<Arc<SoftwareQueue<Q>>> {
        self.queues
            .read()
            .get(&id.0)
            .cloned()
            .ok_or_else(|| Error::InvalidArgument(format!("submit queue {} does not exist", id.0)))
    }
}

impl<Q> Drop for SoftwareDevice<Q> {
    fn drop(&mut self) {
        for (_, q) in self.queues.write().drain() {
            q.worker.close();
        }
    }
}

/// What a host back end adds to [`SoftwareDevice`]; every such back end is
/// a [`KernelDevice`] through it.
pub(crate) trait SoftwareBackend: Send + Sync {
    /// What each submit queue keeps beside its worker.
    type QueueState: Send + Sync;

    fn software(&self) -> &SoftwareDevice<Self::QueueState>;

    /// [`KernelDevice::open_context`]: a new device of the same GPU and
    /// options, with nothing of this one's state.
    fn reopen(&self) -> Result<Arc<dyn KernelDevice>>;

    /// [`KernelDevice::timestamp`]: the back end's clock.
    fn read_timestamp(&self) -> Result<u64>;

    /// [`KernelDevice::bo_new`]: the BO, visible to the back end's GPU.
    fn new_bo(&self, desc: &BoDesc) -> Result<Bo>;

    /// The name of queue `id`'s worker thread, and the queue's state.
    fn new_queue(&self, id: u32, priority: u32) -> Result<(String, Self::QueueState)>;

    /// The work of a submit that has passed the shared checks.
    fn submit_job(&self, queue: &Self::QueueState, submit: &Submit<'_>) -> Job;
}

impl<T: SoftwareBackend> KernelDevice for T {
    fn info(&self) -> &DeviceInfo {
        &self.software().info
    }

    fn open_context(&self) -> Result<Arc<dyn KernelDevice>> {
        self.reopen()
    }

    fn status(&self) -> Result<()> {
        self.software().lost.check()
    }

    fn timestamp(&self) -> Result<u64> {
        self.read_timestamp()
    }

    fn bo_new(&self, desc: &BoDesc) -> Result<Bo> {
        self.new_bo(desc)
    }

    /// Waits for every queue to drain: host memory is coherent, so once the
    /// work is done the CPU sees all of it (and with nothing executing, this
    /// is only the ordering a real kernel would enforce, conservatively).
    fn bo_cpu_prep(&self, _bo: &Bo, _access: CpuAccess, deadline: Deadline) -> Result<()> {
        let queues: Vec<_> = self.software().queues.read().values().cloned().collect();
        for q in queues {
            q.worker.wait_idle(deadline)?;
        }
        Ok(())
    }

    fn bo_cpu_fini(&self, _bo: &Bo) -> Result<()> {
        Ok(())
    }

    fn queue_new(&self, priority: u32) -> Result<QueueId> {
        let dev = self.software();
        if priority >= dev.info.priorities {
            return Err(Error::InvalidArgument(format!(
                "queue priority {priority} is not below the {} priorities",
                dev.info.priorities
            )));
        }
        let id = dev.next_queue.fetch_add(1, Ordering::Relaxed);
        let (name, state) = self.new_queue(id, priority)?;
        let worker = QueueWorker::start(name, dev.syncs.clone(), dev.lost.clone())?;
        dev.queues
            .write()
            .insert(id, Arc::new(SoftwareQueue { worker, state }));
        Ok(QueueId(id))
    }

    fn queue_close(&self, queue: QueueId) -> Result<()> {
        let q = self
            .software()
            .queues
            .write()
            .remove(&queue.0)
            .ok_or_else(|| {
                Error::InvalidArgument(format!("submit queue {} does not exist", queue.0))
            })?;
        q.worker.close();
        Ok(())
    }

    fn submit(&self, submit: &Submit<'_>) -> Result<Fence> {
        let dev = self.software();
        dev.lost.check()?;
        submit.validate_commands()?;
        dev.syncs.check(submit.waits)?;
        dev.syncs.check(submit.signals)?;
        let queue = dev.queue(submit.queue)?;
        let job = self.submit_job(&queue.state, submit);
        let seqno = queue
            .worker
            .submit(submit.waits.to_vec(), submit.signals.to_vec(), job)?;
        Ok(Fence {
            queue: submit.queue,
            seqno,
        })
    }

    fn fence_wait(&self, fence: Fence, deadline: Deadline) -> Result<()> {
        self.software()
            .queue(fence.queue)?
            .worker
            .wait(fence.seqno, deadline)
    }

    fn syncobj_create(&self, signaled: bool) -> Result<SyncObj> {
        Ok(self.software().syncs.create(signaled))
    }

    fn syncobj_destroy(&self, syncobj: SyncObj) -> Result<()> {
        self.software().syncs.destroy(syncobj)
    }

    fn syncobj_reset(&self, syncobjs: &[SyncObj]) -> Result<()> {
        self.software().syncs.reset(syncobjs)
    }

    fn syncobj_signal(&self, points: &[SyncPoint]) -> Result<()> {
        self.software().syncs.signal(points)
    }

    fn syncobj_wait(&self, points: &[SyncPoint], mode: WaitMode, deadline: Deadline) -> Result<()> {
        self.software().syncs.wait(points, mode, deadline)
    }

    fn syncobj_query(&self, syncobj: SyncObj) -> Result<u64> {
        self.software().syncs.query(syncobj)
    }
}
