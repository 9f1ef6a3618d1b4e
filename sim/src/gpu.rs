//! The GPU model: a GPU of the catalogue, its address space, and contexts
//! that run command streams on it.
//!
//! ```
//! use std::sync::Arc;
//! use parsnip_registers::{gpu, pm4};
//! use parsnip_sim::memory::OwnedBacking;
//! use parsnip_sim::{Gpu, IbRange, SimOptions};
//!
//! let gpu = Gpu::new(gpu::by_name("a660")?, SimOptions::default());
//! let iova = 0x1_0000_0000;
//! gpu.memory().map(iova, Arc::new(OwnedBacking::zeroed(4096)?))?;
//! // CP_MEM_WRITE of 42 to iova + 0x100.
//! let op = pm4::opcode_by_name(gpu.info().chip, "CP_MEM_WRITE").unwrap();
//! let stream = [pm4::pkt7(op, 3), (iova + 0x100) as u32, (iova >> 32) as u32, 42];
//! let bytes: Vec<u8> = stream.iter().flat_map(|d| d.to_le_bytes()).collect();
//! gpu.memory().write(iova, &bytes)?;
//! let mut ctx = gpu.new_context();
//! gpu.submit(&mut ctx, &[IbRange { iova, dwords: 4 }])?;
//! assert_eq!(gpu.memory().read_u32(iova + 0x100)?, 42);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A [`Context`] holds what a command stream leaves behind: the register
//! file, the state CP_LOAD_STATE6 loaded, draw-state groups, predicates. The
//! kernel interface's simulator back end makes one per submit queue; replay
//! one per trace. After a fault or hang a context is lost, as the kernel
//! kills the context of a submit that hung the GPU.

use std::sync::Arc;

use parsnip_registers::gpu::GpuInfo;

use crate::always_on_counter::AlwaysOnCounter;
use crate::cp::{CommandProcessor, CpState};
use crate::gmem::Gmem;
use crate::memory::{AddressSpace, MapError};
use crate::options::SimOptions;
use crate::register_file::RegisterFile;
use crate::report::{CpSite, ErrorKind, GpuError};
use crate::shader_core::ShaderCore;
use crate::sp::ShaderProcessor;
use crate::sp::SpStats;

/// A command stream handed to submit: `dwords` dwords at `iova`, run as an
/// IB1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IbRange {
    pub iova: u64,
    pub dwords: u32,
}

/// What a submit did, for tools that print it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubmitStats {
    /// Packets executed (type 4 and type 7), in every IB level.
    pub packets: u64,
    /// Register writes.
    pub register_writes: u64,
    /// Compute dispatches launched.
    pub dispatches: u32,
    /// BLIT events run (GMEM clears, loads, stores and sysmem clears).
    pub blit_events: u32,
    /// CP_BLITs run (the 2D engine).
    pub blits_2d: u32,
    /// Draws run (each draw of a CP_DRAW_INDIRECT_MULTI counts one).
    pub draws: u32,
    /// Draws a binning pass binned.
    pub binned_draws: u32,
    /// Draws bin rendering skipped: the visibility stream said the bin
    /// has none of their geometry.
    pub skipped_draws: u32,
    /// IB2s that IB2 skipping (CP_SKIP_IB2_ENABLE_*) skipped or left
    /// early, the bin seeing no more draws.
    pub ib2_skips: u32,
    /// Fragments the fragment shader ran for.
    pub fragments_shaded: u64,
    /// Fragments LRZ rejected before the fragment shader.
    pub lrz_rejected: u64,
}

impl std::ops::AddAssign for SubmitStats {
    /// The counts of two submits (or command streams) together.
    fn add_assign(&mut self, other: SubmitStats) {
        let SubmitStats {
            packets,
            register_writes,
            dispatches,
            blit_events,
            blits_2d,
            draws,
            binned_draws,
            skipped_draws,
            ib2_skips,
            fragments_shaded,
            lrz_rejected,
        } = other;
        self.packets += packets;
        self.register_writes += register_writes;
        self.dispatches += dispatches;
        self.blit_events += blit_events;
        self.blits_2d += blits_2d;
        self.draws += draws;
        self.binned_draws += binned_draws;
        self.skipped_draws += skipped_draws;
        self.ib2_skips += ib2_skips;
        self.fragments_shaded += fragments_shaded;
        self.lrz_rejected += lrz_rejected;
    }
}

pub(crate) struct GpuShared {
    pub(crate) info: &'static GpuInfo,
    pub(crate) memory: Arc<AddressSpace>,
    pub(crate) options: SimOptions,
    pub(crate) clock: AlwaysOnCounter,
    pub(crate) shader_core: Box<dyn ShaderCore>,
    pub(crate) gmem: Gmem,
    /// What each dispatch of the current submit executed, in launch order.
    pub(crate) dispatch_stats: std::sync::Mutex<Vec<SpStats>>,
    /// Memory through UCHE and the CCU's caches over it, with strict
    /// caches.
    pub(crate) uche: Option<Arc<AddressSpace>>,
    pub(crate) ccu: Option<crate::ccu::Ccu>,
    /// Called after each draw and blit.
    pub(crate) work_observer: std::sync::Mutex<Option<crate::capture::WorkObserver>>,
}

impl GpuShared {
    /// The memory the GPU's units other than the CP see: through UCHE with
    /// strict caches.
    pub(crate) fn unit_memory(&self) -> &AddressSpace {
        self.uche.as_deref().unwrap_or(&self.memory)
    }

    /// With strict caches, the first byte of `iova..iova+len` a cache holds
    /// newer than memory, which cache, and the event that writes it back:
    /// what a CP read of the range would get stale.
    pub(crate) fn stale_for_cp(
        &self,
        iova: u64,
        len: usize,
    ) -> Option<(u64, &'static str, &'static str)> {
        let memory = &*self.memory;
        if let Some(ccu) = &self.ccu {
            for (part, name, event) in [
                (
                    crate::ccu::CcuPart::Color,
                    "the CCU's colour part (the RB or the 2D engine wrote it)",
                    "a CCU colour flush (PC_CCU_FLUSH_COLOR_TS, a7xx CCU_CLEAN_COLOR) and \
                     CACHE_FLUSH_TS (a7xx CACHE_CLEAN)",
                ),
                (
                    crate::ccu::CcuPart::Depth,
                    "the CCU's depth part (the RB wrote it)",
                    "a CCU depth flush (PC_CCU_FLUSH_DEPTH_TS, a7xx CCU_CLEAN_DEPTH) and \
                     CACHE_FLUSH_TS (a7xx CACHE_CLEAN)",
                ),
            ] {
                let at = ccu
                    .part(part)
                    .cache()
                    .and_then(|c| c.first_difference(memory, iova, len));
                if let Some(at) = at {
                    return Some((at, name, event));
                }
            }
        }
        let uche = self.uche.as_deref().and_then(AddressSpace::cache)?;
        uche.first_difference(memory, iova, len).map(|at| {
            (
                at,
                "UCHE (a shader or another unit wrote it)",
                "CACHE_FLUSH_TS (a7xx CACHE_CLEAN)",
            )
        })
    }

    /// A read through UCHE, since the last call, of bytes the CCU holds
    /// newer: its address and the CCU part.
    pub(crate) fn take_stale_unit_read(&self) -> Option<(u64, &'static str)> {
        self.uche
            .as_deref()
            .and_then(AddressSpace::cache)?
            .take_stale()
    }

    /// Writes the CCU into UCHE and UCHE into memory.
    pub(crate) fn flush_caches(&self) -> Result<(), crate::memory::Fault> {
        if let Some(ccu) = &self.ccu {
            ccu.flush(crate::ccu::CcuPart::Color)?;
            ccu.flush(crate::ccu::CcuPart::Depth)?;
        }
        self.flush_uche()
    }

    /// Writes UCHE into memory.
    pub(crate) fn flush_uche(&self) -> Result<(), crate::memory::Fault> {
        match self.uche.as_deref().and_then(AddressSpace::cache) {
            Some(c) => c.flush(),
            None => Ok(()),
        }
    }
}

/// A model of one GPU. Cheap to clone: clones share the address space.
#[derive(Clone)]
pub struct Gpu {
    shared: Arc<GpuShared>,
}

/// The state one stream of submits builds up on the GPU.
pub struct Context {
    pub(crate) regs: RegisterFile,
    pub(crate) cp: CpState,
    lost: bool,
}

impl Context {
    /// The register file (for tools and tests that inspect it).
    pub fn registers(&self) -> &RegisterFile {
        &self.regs
    }

    /// Whether an earlier submit on this context faulted or hung.
    pub fn is_lost(&self) -> bool {
        self.lost
    }
}

impl Gpu {
    /// A model of `info` with an empty address space, running dispatches on
    /// the model's shader processor.
    pub fn new(info: &'static GpuInfo, options: SimOptions) -> Self {
        Self::with_shader_core(
            info,
            options,
            Arc::new(AddressSpace::new()),
            Box::new(ShaderProcessor),
        )
    }

    /// A model of `info` on `memory`, running shaders on `shader_core`.
    pub fn with_shader_core(
        info: &'static GpuInfo,
        options: SimOptions,
        memory: Arc<AddressSpace>,
        shader_core: Box<dyn ShaderCore>,
    ) -> Self {
        let uche = options.strict_caches.then(|| crate::uche::view(&memory));
        let ccu = uche.as_ref().map(crate::ccu::Ccu::new);
        Self {
            shared: Arc::new(GpuShared {
                info,
                uche,
                ccu,
                memory,
                options,
                clock: AlwaysOnCounter::new(),
                shader_core,
                gmem: Gmem::new(info),
                dispatch_stats: Default::default(),
                work_observer: Default::default(),
            }),
        }
    }

    pub fn info(&self) -> &'static GpuInfo {
        self.shared.info
    }

    /// What each compute dispatch of the last submit executed, in launch
    /// order (`parsnip-replay --stats`); each submit starts the list anew,
    /// so it never grows past one submit's dispatches.
    pub fn take_dispatch_stats(&self) -> Vec<SpStats> {
        std::mem::take(&mut self.shared.dispatch_stats.lock().expect("never poisoned"))
    }

    /// Has `observer` called after every draw, blit event and CP_BLIT from
    /// now on (`None`: no longer).
    pub fn set_work_observer(&self, observer: Option<crate::capture::WorkObserver>) {
        *self.shared.work_observer.lock().expect("never poisoned") = observer;
    }

    pub fn options(&self) -> &SimOptions {
        &self.shared.options
    }

    /// The GPU's address space: map buffer objects here.
    pub fn memory(&self) -> &Arc<AddressSpace> {
        &self.shared.memory
    }

    /// The GPU's GMEM (for tools and tests that look into it).
    pub fn gmem(&self) -> &Gmem {
        &self.shared.gmem
    }

    /// Makes GMEM visible in the address space at `base`, as the kernel
    /// does at start-up with UCHE_GMEM_RANGE_MIN/MAX (msm's a6xx_gpu.c;
    /// `base` is what it reports as MSM_PARAM_GMEM_BASE): the texture unit
    /// reads GMEM there when drivers sample an attachment that lives in it
    /// (Turnip's input attachments in a bin pass). A GPU without GMEM maps
    /// nothing.
    pub fn map_gmem_aperture(&self, base: u64) -> Result<(), MapError> {
        match self.shared.gmem.backing() {
            Some(backing) => self.shared.memory.map(base, backing),
            None => Ok(()),
        }
    }

    /// The always-on counter (19.2 MHz), as CP timestamps read it.
    pub fn timestamp(&self) -> u64 {
        self.shared.clock.read()
    }

    /// A context with nothing programmed.
    pub fn new_context(&self) -> Context {
        Context {
            regs: RegisterFile::new(self.shared.info.chip, self.shared.options.strict),
            cp: CpState::new(),
            lost: false,
        }
    }

    /// Runs `streams` in order on `ctx`, each as an IB1. The first fault,
    /// hang or stream error ends the submit and loses the context.
    pub fn submit(&self, ctx: &mut Context, streams: &[IbRange]) -> Result<SubmitStats, GpuError> {
        if ctx.lost {
            return Err(GpuError {
                kind: ErrorKind::ContextLost,
                site: CpSite::default(),
            });
        }
        self.shared
            .dispatch_stats
            .lock()
            .expect("never poisoned")
            .clear();
        let mut cp = CommandProcessor::new(&self.shared, &mut ctx.regs, &mut ctx.cp);
        let mut result = streams
            .iter()
            .try_for_each(|s| cp.run_submitted_ib(s.iova, s.dwords));
        let stats = cp.stats();
        // The end of a submit writes the caches back (the kernel ends each
        // submit with CACHE_FLUSH_TS before the fence the CPU waits on):
        // strict caches catch what a submit's own work reads too early.
        if let Err(fault) = self.shared.flush_caches() {
            result = result.and(Err(GpuError {
                kind: ErrorKind::Fault {
                    fault,
                    shader: None,
                },
                site: CpSite::default(),
            }));
        }
        match result {
            Ok(()) => Ok(stats),
            Err(e) => {
                ctx.lost = true;
                Err(e)
            }
        }
    }
}
