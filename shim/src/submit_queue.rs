//! A submit queue: a worker thread that runs the queue's submits on the
//! model in order, each once the fences it waits for have signalled, with
//! its own model context (the GPU state one ring's submits build up).
//!
//! A submit that hangs or faults is recovered from as the kernel's
//! recover_worker does: the fault is counted on the queue and on the
//! context that submitted it, a crash report is written, the GPU state is
//! reset (a fresh model context), and the submit is retired, its fence
//! signalled, so that nothing waits forever; later submits run normally.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

use parking_lot::Mutex;
use parsnip_sim::IbRange;

use crate::crash_report::{self, Task};
use crate::device::Device;
use crate::fence::Fence;
use crate::gpu_vm::{GpuVm, VmMapping};

/// One submit, ready to run.
pub struct Job {
    pub streams: Vec<IbRange>,
    pub waits: Vec<Arc<Fence>>,
    /// The mappings the submit uses, held until it retires.
    pub holds: Vec<Arc<VmMapping>>,
    pub done: Arc<Fence>,
}

/// What a hang or fault is charged to.
pub struct FaultCounters {
    /// The submitting context's count (msm's per-address-space faults).
    pub context: Arc<AtomicU64>,
    /// Who the crash report names (msm lets userspace override it with
    /// MSM_PARAM_COMM/CMDLINE).
    pub task: Arc<Mutex<Task>>,
}

pub struct SubmitQueue {
    pub id: u32,
    pub priority: u32,
    /// Hangs and faults of this queue's submits (MSM_SUBMITQUEUE_PARAM_FAULTS).
    pub faults: Arc<AtomicU32>,
    sender: Mutex<Option<mpsc::Sender<Job>>>,
}

impl SubmitQueue {
    pub fn start(
        device: &'static Device,
        vm: Arc<GpuVm>,
        id: u32,
        priority: u32,
        counters: FaultCounters,
    ) -> Result<Arc<Self>, i32> {
        let (sender, receiver) = mpsc::channel::<Job>();
        let faults = Arc::new(AtomicU32::new(0));
        let queue_faults = faults.clone();
        std::thread::Builder::new()
            .name(format!("shim-queue-{id}"))
            .spawn(move || {
                let mut context = vm.gpu.new_context();
                for job in receiver {
                    for w in &job.waits {
                        w.wait(None);
                    }
                    if let Err(e) = vm.gpu.submit(&mut context, &job.streams) {
                        let kind = if e.is_hang() { "GPU hang" } else { "GPU fault" };
                        queue_faults.fetch_add(1, Ordering::AcqRel);
                        counters.context.fetch_add(1, Ordering::AcqRel);
                        let task = counters.task.lock().clone();
                        crash_report::write(device, kind, &task, id, &e.to_string());
                        // Recovery resets the GPU: the queue's state is gone.
                        context = vm.gpu.new_context();
                    }
                    // Unpin before retiring, so a waiter that reuses the
                    // freed range finds it free.
                    drop(job.holds);
                    job.done.signal();
                }
            })
            .map_err(|_| libc::ENOMEM)?;
        Ok(Arc::new(Self {
            id,
            priority,
            faults,
            sender: Mutex::new(Some(sender)),
        }))
    }

    /// Queues a job; `ENOENT` once the queue is closed.
    pub fn push(&self, job: Job) -> Result<(), i32> {
        match self.sender.lock().as_ref() {
            Some(s) => s.send(job).map_err(|_| libc::ENOENT),
            None => Err(libc::ENOENT),
        }
    }

    /// Stops taking jobs; those queued still run.
    pub fn close(&self) {
        self.sender.lock().take();
    }
}

impl Drop for SubmitQueue {
    fn drop(&mut self) {
        self.close();
    }
}
