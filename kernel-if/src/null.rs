//! The null back end: a device that accepts everything a real one would,
//! checks it the same way, and executes nothing.
//!
//! It exists to measure the driver's own CPU cost (recording, submitting,
//! synchronising) with no GPU and no simulator in the way. BOs are real host
//! memory, so the driver can write command streams and read back whatever it
//! wrote; submits go through a real worker per queue, so fences and sync
//! points pass in order and wait-before-signal behaves as on hardware.

use std::sync::Arc;
use std::time::Instant;

use crate::bo::{Bo, BoDesc};
use crate::device::{Backend, GpuFacts, KernelDevice};
use crate::error::Result;
use crate::host_memory::{allocate_host_bo, HostBo};
use crate::queue_worker::Job;
use crate::software_device::{SoftwareBackend, SoftwareDevice};
use crate::submit::Submit;

pub struct NullDevice {
    software: SoftwareDevice<()>,
    epoch: Instant,
}

impl NullDevice {
    /// A null device posing as the GPU `gpu` describes (from the GPU
    /// catalogue).
    pub fn new(gpu: GpuFacts) -> Result<Self> {
        Ok(Self {
            software: SoftwareDevice::new(gpu, Backend::Null)?,
            epoch: Instant::now(),
        })
    }
}

impl SoftwareBackend for NullDevice {
    type QueueState = ();

    fn software(&self) -> &SoftwareDevice<()> {
        &self.software
    }

    fn reopen(&self) -> Result<Arc<dyn KernelDevice>> {
        Ok(Arc::new(NullDevice::new(self.software.info.gpu)?))
    }

    fn read_timestamp(&self) -> Result<u64> {
        let ns = self.epoch.elapsed().as_nanos();
        let hz = u128::from(self.software.info.timestamp_frequency);
        Ok((ns * hz / 1_000_000_000) as u64)
    }

    fn new_bo(&self, desc: &BoDesc) -> Result<Bo> {
        let va = self.software.va.clone();
        let (iova, memory) = allocate_host_bo(&va, desc)?;
        Ok(HostBo::new_bo(
            self.software.next_bo_handle(),
            iova,
            memory,
            Box::new(move || va.lock().free(iova)),
        ))
    }

    fn new_queue(&self, id: u32, _priority: u32) -> Result<(String, ())> {
        Ok((format!("null queue {id}"), ()))
    }

    /// Nothing runs: the submit completes once its waits are signalled.
    fn submit_job(&self, _queue: &(), _submit: &Submit<'_>) -> Job {
        Box::new(|| Ok(()))
    }
}
