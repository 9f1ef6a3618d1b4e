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
//!   Only this device: [`crate::KernelDevice::open_context`] gives another
//!   one on the same GPU model, which a loss here does not touch.
//!
//! The model's options (strict mode, hang budgets) come from the
//! environment (`parsnip_sim::options`); strict mode is on unless turned off.

mod residency;

use std::sync::Arc;

use parking_lot::Mutex;
use parsnip_registers::gpu::GpuInfo;
use parsnip_sim::memory::Backing;
use parsnip_sim::{Context, Gpu, IbRange, SimOptions};

use crate::bo::{Bo, BoDesc};
use crate::device::{Backend, GpuFacts, KernelDevice};
use crate::error::{Error, Result};
use crate::host_memory::{allocate_host_bo, HostBo, HostMemory};
use crate::queue_worker::Job;
use crate::software_device::{SoftwareBackend, SoftwareDevice};
use crate::submit::Submit;
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

/// `gpu` as the kernel leaves it at start-up: on GPUs whose GMEM it maps
/// into the UCHE's address range (UCHE_GMEM_RANGE_MIN/MAX at 0x100000,
/// reported as MSM_PARAM_GMEM_BASE), GMEM is visible there; the a650 and
/// a730/a740 families get no such range (a6xx_gpu.c's hw_init skips it and
/// adreno_gpu.c reports base 0), so nothing is mapped and address 0 still
/// faults. Buffer objects are placed far above either.
pub fn with_gmem_aperture(gpu: Gpu, gmem_base: u64) -> Result<Gpu> {
    if gmem_base != 0 {
        gpu.map_gmem_aperture(gmem_base).map_err(|e| {
            Error::InvalidArgument(format!("GMEM's aperture at {gmem_base:#x}: {e}"))
        })?;
    }
    Ok(gpu)
}

pub struct SimDevice {
    /// Each queue's model context (its register file and loaded state).
    software: SoftwareDevice<Arc<Mutex<Context>>>,
    gpu: Gpu,
    residency: Arc<Residency>,
}

impl SimDevice {
    /// A simulated `gpu` (from the GPU catalogue) with `options`.
    pub fn new(gpu: &'static GpuInfo, options: SimOptions) -> Result<Self> {
        let facts = gpu_facts(gpu);
        Ok(Self {
            software: SoftwareDevice::new(facts, Backend::Simulator)?,
            gpu: with_gmem_aperture(Gpu::new(gpu, options), facts.gmem_base)?,
            residency: Residency::new(),
        })
    }

    /// The model this device runs on (tests and tools inspect it).
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }
}

impl SoftwareBackend for SimDevice {
    type QueueState = Arc<Mutex<Context>>;

    fn software(&self) -> &SoftwareDevice<Self::QueueState> {
        &self.software
    }

    /// A model of the same GPU with its own address space and contexts: the
    /// kernel gives each open of the render node its own page tables, and
    /// recovers from a hang by resetting only the guilty context.
    fn reopen(&self) -> Result<Arc<dyn KernelDevice>> {
        Ok(Arc::new(SimDevice::new(
            self.gpu.info(),
            self.gpu.options().clone(),
        )?))
    }

    /// The model's always-on counter, which CP timestamps also read.
    fn read_timestamp(&self) -> Result<u64> {
        Ok(self.gpu.timestamp())
    }

    fn new_bo(&self, desc: &BoDesc) -> Result<Bo> {
        let va = self.software.va.clone();
        let (iova, memory) = allocate_host_bo(&va, desc)?;
        if let Err(e) = self.gpu.memory().map(iova, memory.clone()) {
            let _ = va.lock().free(iova);
            return Err(Error::InvalidArgument(format!(
                "mapping a BO into the model: {e}"
            )));
        }
        let (gpu, residency) = (self.gpu.clone(), self.residency.clone());
        let unmap = move || {
            gpu.memory().unmap(iova);
            va.lock().free(iova)
        };
        Ok(HostBo::new_bo(
            self.software.next_bo_handle(),
            iova,
            memory,
            Box::new(move || residency.release(iova, Box::new(unmap))),
        ))
    }

    fn new_queue(&self, id: u32, _priority: u32) -> Result<(String, Self::QueueState)> {
        let name = format!("sim {} queue {id}", self.gpu.info().name);
        Ok((name, Arc::new(Mutex::new(self.gpu.new_context()))))
    }

    /// Runs the command buffers on the queue's context, holding every BO the
    /// submit lists resident until it is done.
    fn submit_job(&self, context: &Self::QueueState, submit: &Submit<'_>) -> Job {
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
        let (gpu, context) = (self.gpu.clone(), context.clone());
        Box::new(move || {
            let _holds = holds;
            let mut ctx = context.lock();
            gpu.submit(&mut ctx, &streams)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
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

    #[test]
    fn gmem_is_visible_where_the_kernel_says_it_is() {
        let device = |name| SimDevice::new(gpu::by_name(name).unwrap(), SimOptions::default());
        // a630: GMEM at 0x100000, and a write there lands in it.
        let a630 = device("a630").unwrap();
        let facts = gpu_facts(a630.gpu().info());
        let memory = a630.gpu().memory();
        assert!(memory.is_mapped(0x10_0000, facts.gmem_size));
        memory.write_u32(0x10_0040, 0x6d656d67).unwrap();
        let mut word = [0u8; 4];
        a630.gpu().gmem().read(0x40, &mut word).unwrap();
        assert_eq!(u32::from_le_bytes(word), 0x6d656d67);
        assert!(!memory.is_mapped(0x10_0000 + facts.gmem_size, 4));
        // The a650 and a740 families: no aperture; a null address faults.
        for name in ["a660", "a740"] {
            let d = device(name).unwrap();
            assert!(!d.gpu().memory().is_mapped(0, 4), "{name}");
            assert!(d.gpu().memory().read_u32(0).is_err(), "{name}");
        }
    }
}
