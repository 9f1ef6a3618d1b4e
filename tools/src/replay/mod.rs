//! Replaying an `.rd` trace on Parsnip's model of the GPU: the library
//! behind `parsnip-replay`.
//!
//! The trace names its GPU (RD_CHIP_ID or RD_GPU_ID); the model is built for
//! that GPU of the catalogue, with strict mode and the hang budgets as the
//! environment sets them. Each submit is loaded and run in trace order:
//! - loading writes every buffer the submit dumped, in dump order, into the
//!   model's memory, mapping memory where none is mapped yet (so a later
//!   dump overwrites an earlier one where they overlap, the rd crate's rule
//!   within a submit, and a buffer dumped again by a later submit is
//!   reloaded with the captured bytes, as freedreno's replay does). Ranges a
//!   submit declared without dumping them are mapped zero-filled: the
//!   buffer existed, its contents were not captured;
//! - running hands the submit's command streams to the model as IB1s, on
//!   one context for the whole trace (its register file carries over from
//!   submit to submit, as the GPU's does within a process).
//!
//! A fault, hang or stream error stops the replay with the model's report
//! and the submit and command stream it happened in.
//!
//! ```no_run
//! use parsnip_tools::replay::{DumpRequest, Replay};
//! let trace = parsnip_rd::Trace::open("compute.rd.gz")?;
//! let mut replay = Replay::new(trace, parsnip_sim::SimOptions::from_env()?)?;
//! replay.run_all()?;
//! replay.dump(&DumpRequest::parse("0x100026000:1024:result.bin")?)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod draw_images;
mod dump;

use std::fmt;
use std::sync::Arc;

use parsnip_rd::{DeviceId, Trace};
use parsnip_registers::gpu::{self, GpuInfo, UnknownGpu};
use parsnip_sim::memory::OwnedBacking;
use parsnip_sim::sp::SpStats;
use parsnip_sim::{Context, Gpu, GpuError, IbRange, SimOptions, SubmitStats};

pub use draw_images::DrawImages;
pub use dump::{BadDump, DumpRequest};

/// Why a replay stopped.
#[derive(Debug)]
pub enum ReplayError {
    /// The trace names no GPU.
    NoDevice,
    /// The trace's GPU is not one Parsnip models.
    UnknownGpu(UnknownGpu),
    /// Host memory for a buffer could not be had.
    Memory { iova: u64, size: u64, why: String },
    /// The model stopped on a submit: a fault, hang or bad stream.
    Gpu {
        submit: usize,
        /// The command stream's number in the trace (`cmdstream[N]` in
        /// freedreno's decoder).
        cmdstream: usize,
        error: GpuError,
    },
    /// A requested dump could not be read from the model or written.
    Dump { request: DumpRequest, why: String },
    /// A submit number past the trace's last.
    NoSuchSubmit { submit: usize, submits: usize },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::NoDevice => f.write_str(
                "the trace names no GPU (it has no RD_CHIP_ID or non-zero RD_GPU_ID section)",
            ),
            ReplayError::UnknownGpu(e) => write!(f, "the trace's GPU: {e}"),
            ReplayError::Memory { iova, size, why } => {
                write!(
                    f,
                    "mapping the buffer at {iova:#x} ({size:#x} bytes): {why}"
                )
            }
            ReplayError::Gpu {
                submit,
                cmdstream,
                error,
            } => write!(f, "submit {submit}, cmdstream[{cmdstream}]: {error}"),
            ReplayError::Dump { request, why } => write!(
                f,
                "dumping {:#x}+{:#x} to {}: {why}",
                request.iova,
                request.size,
                request.path.display()
            ),
            ReplayError::NoSuchSubmit { submit, submits } => {
                write!(f, "submit {submit} does not exist: the trace has {submits}")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// The GPU a trace was captured on, from the catalogue.
pub fn trace_gpu(trace: &Trace) -> Result<&'static GpuInfo, ReplayError> {
    match trace.device().map(|d| d.id) {
        None => Err(ReplayError::NoDevice),
        Some(DeviceId::ChipId(id)) => gpu::by_chip_id(id).map_err(ReplayError::UnknownGpu),
        Some(DeviceId::GpuId(id)) => gpu::by_gpu_id(id).map_err(ReplayError::UnknownGpu),
    }
}

/// The GMEM base the traces' kernel reported (MSM_PARAM_GMEM_BASE): a
/// trace does not record it, and drivers put it in the texture descriptors
/// of attachments they sample from GMEM. Freedreno's noop drm-shim, which
/// the reference traces were captured on, and the msm kernel before the
/// a650 family both report 0x100000 (Turnip's GMEM input attachments in
/// the reference traces point there on a660 and a740 alike).
pub const TRACE_GMEM_BASE: u64 = 0x10_0000;

/// A trace being replayed on a model.
pub struct Replay {
    trace: Trace,
    gpu: Gpu,
    ctx: Context,
    /// What each dispatch of the last run submit executed, over all its
    /// command streams.
    dispatch_stats: Vec<SpStats>,
}

impl Replay {
    /// A replay of `trace` on a model of the GPU it names, with GMEM mapped
    /// at [`TRACE_GMEM_BASE`], where the reference traces' driver was told
    /// it is.
    pub fn new(trace: Trace, options: SimOptions) -> Result<Self, ReplayError> {
        Self::with_gmem_base(trace, options, Some(TRACE_GMEM_BASE))
    }

    /// A replay of `trace` with GMEM's aperture where the traced driver's
    /// kernel reported it (MSM_PARAM_GMEM_BASE), or not mapped at all for
    /// `None` (the msm kernel reports 0 on the a650 and a740 families, and
    /// then a driver cannot address GMEM through memory).
    pub fn with_gmem_base(
        trace: Trace,
        options: SimOptions,
        gmem_base: Option<u64>,
    ) -> Result<Self, ReplayError> {
        let info = trace_gpu(&trace)?;
        let gpu = Gpu::new(info, options);
        if let Some(base) = gmem_base {
            gpu.map_gmem_aperture(base)
                .map_err(|e| ReplayError::Memory {
                    iova: base,
                    size: u64::from(info.gmem_bytes),
                    why: format!("GMEM's aperture: {e}"),
                })?;
        }
        Ok(Self::on(gpu, trace))
    }

    /// A replay of `trace` on `gpu` (a model the caller built, e.g. with its
    /// own shader core); `gpu` should model the trace's GPU.
    pub fn on(gpu: Gpu, trace: Trace) -> Self {
        let ctx = gpu.new_context();
        Self {
            trace,
            gpu,
            ctx,
            dispatch_stats: Vec::new(),
        }
    }

    /// What each compute dispatch of the last [`Self::run_submit`]
    /// executed, in launch order.
    pub fn dispatch_stats(&self) -> &[SpStats] {
        &self.dispatch_stats
    }

    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The model, for reading or patching its memory between steps.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    pub fn submits(&self) -> usize {
        self.trace.submits().len()
    }

    fn submit(&self, i: usize) -> Result<&parsnip_rd::Submit, ReplayError> {
        self.trace
            .submits()
            .get(i)
            .ok_or(ReplayError::NoSuchSubmit {
                submit: i,
                submits: self.submits(),
            })
    }

    /// Loads submit `i`'s buffers into the model's memory.
    pub fn load_submit(&mut self, i: usize) -> Result<(), ReplayError> {
        let submit = self.submit(i)?;
        for u in &submit.uncaptured {
            self.ensure_mapped(u.iova, u64::from(u.size))?;
        }
        for buffer in &submit.buffers {
            let bytes = self.trace.contents(buffer);
            self.ensure_mapped(buffer.iova, bytes.len() as u64)?;
            self.gpu
                .memory()
                .write(buffer.iova, bytes)
                .map_err(|f| ReplayError::Memory {
                    iova: buffer.iova,
                    size: bytes.len() as u64,
                    why: f.to_string(),
                })?;
        }
        Ok(())
    }

    /// Maps zeroed memory over the parts of `iova..iova+size` nothing maps.
    fn ensure_mapped(&self, iova: u64, size: u64) -> Result<(), ReplayError> {
        let end = iova.saturating_add(size);
        let mut holes = Vec::new();
        let mut at = iova;
        for (start, len) in self.gpu.memory().mappings() {
            let stop = start + len;
            if stop <= at {
                continue;
            }
            if start >= end {
                break;
            }
            if start > at {
                holes.push((at, start));
            }
            at = at.max(stop);
        }
        if at < end {
            holes.push((at, end));
        }
        for (start, stop) in holes {
            let err = |why: String| ReplayError::Memory { iova, size, why };
            let len = usize::try_from(stop - start).map_err(|e| err(e.to_string()))?;
            let backing = OwnedBacking::zeroed(len).map_err(|e| err(e.to_string()))?;
            self.gpu
                .memory()
                .map(start, Arc::new(backing))
                .map_err(|e| err(e.to_string()))?;
        }
        Ok(())
    }

    /// Runs submit `i`'s command streams (after [`Replay::load_submit`]).
    pub fn run_submit(&mut self, i: usize) -> Result<SubmitStats, ReplayError> {
        let cmdstreams = self.submit(i)?.cmdstreams.clone();
        let mut total = SubmitStats::default();
        self.dispatch_stats.clear();
        for cs in &cmdstreams {
            let stats = self
                .gpu
                .submit(
                    &mut self.ctx,
                    &[IbRange {
                        iova: cs.iova,
                        dwords: cs.dwords,
                    }],
                )
                .map_err(|error| ReplayError::Gpu {
                    submit: i,
                    cmdstream: cs.number,
                    error,
                })?;
            total += stats;
            self.dispatch_stats.extend(self.gpu.take_dispatch_stats());
        }
        Ok(total)
    }

    /// Loads and runs every submit in order; returns what each did.
    pub fn run_all(&mut self) -> Result<Vec<SubmitStats>, ReplayError> {
        (0..self.submits())
            .map(|i| {
                self.load_submit(i)?;
                self.run_submit(i)
            })
            .collect()
    }

    /// The bytes of a range of the model's memory.
    pub fn read(&self, iova: u64, size: u64) -> Result<Vec<u8>, String> {
        let len = usize::try_from(size).map_err(|e| e.to_string())?;
        let mut bytes = vec![0u8; len];
        self.gpu
            .memory()
            .read(iova, &mut bytes)
            .map_err(|f| format!("the range is not all mapped ({f})"))?;
        Ok(bytes)
    }

    /// Writes the range `request` names to its file.
    pub fn dump(&self, request: &DumpRequest) -> Result<(), ReplayError> {
        let fail = |why: String| ReplayError::Dump {
            request: request.clone(),
            why,
        };
        let bytes = self.read(request.iova, request.size).map_err(fail)?;
        std::fs::write(&request.path, bytes).map_err(|e| fail(e.to_string()))
    }
}
