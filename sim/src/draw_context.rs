//! What the graphics units share while a draw runs through them: the
//! context's register file and loaded state, the GPU's memory, and the
//! error a unit stops the draw with.
//!
//! Each unit reads the registers it consumes through [`DrawContext::reg`]
//! and friends, naming itself, so that in strict mode a register nothing
//! programmed is reported by the unit that read it ("VFD: strict mode:
//! VFD_FETCH[0x1].STRIDE ... is read but was never written ...").

use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::regs::{ArrayRegister, Register};
use parsnip_registers::Chip;

use crate::cp::StateBlocks;
use crate::memory::{AddressSpace, Fault};
use crate::options::SimOptions;
use crate::register_file::RegisterFile;
use crate::report::{ShaderFailure, Unit, UnitProblem};

/// Why a draw stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DrawError {
    /// A graphics unit stopped it.
    Unit { unit: Unit, problem: UnitProblem },
    /// A shader of the draw faulted, hung or could not run.
    Shader(ShaderFailure),
}

impl DrawError {
    pub fn bad_state(unit: Unit, why: impl Into<String>) -> DrawError {
        DrawError::Unit {
            unit,
            problem: UnitProblem::BadState(why.into()),
        }
    }

    pub fn not_modelled(unit: Unit, what: impl Into<String>) -> DrawError {
        DrawError::Unit {
            unit,
            problem: UnitProblem::NotModelled(what.into()),
        }
    }

    pub fn fault(unit: Unit, fault: Fault) -> DrawError {
        DrawError::Unit {
            unit,
            problem: UnitProblem::Fault(fault),
        }
    }
}

/// What the units of one draw share.
pub(crate) struct DrawContext<'a> {
    pub regs: &'a RegisterFile,
    /// What CP_LOAD_STATE6 loaded: consts and descriptors per stage.
    pub state: &'a StateBlocks,
    pub memory: &'a AddressSpace,
    /// The GPU's GMEM, where bin passes render.
    pub gmem: &'a crate::gmem::Gmem,
    /// With strict caches, the CCU the RB writes memory through.
    pub ccu: Option<&'a crate::ccu::Ccu>,
    pub info: &'static GpuInfo,
    pub options: &'a SimOptions,
    /// The draw's number in its submit, for reports.
    pub draw: u32,
}

impl DrawContext<'_> {
    pub fn chip(&self) -> Chip {
        self.info.chip
    }

    /// The raw value of register `R`, read by `unit` (strict-checked).
    pub fn reg<R: Register>(&self, unit: Unit) -> Result<u64, DrawError> {
        self.regs.programmed::<R>().map_err(|e| DrawError::Unit {
            unit,
            problem: UnitProblem::Register(e),
        })
    }

    /// [`Self::reg`] of a 32-bit register.
    pub fn reg32<R: Register>(&self, unit: Unit) -> Result<u32, DrawError> {
        self.reg::<R>(unit).map(|v| v as u32)
    }

    /// The raw value of entry `index` of array register `R`, read by
    /// `unit` (strict-checked).
    pub fn reg_at<R: ArrayRegister>(&self, unit: Unit, index: u32) -> Result<u64, DrawError> {
        self.regs
            .programmed_at::<R>(index)
            .map_err(|e| DrawError::Unit {
                unit,
                problem: UnitProblem::Register(e),
            })
    }

    /// [`Self::reg_at`] of a 32-bit register.
    pub fn reg32_at<R: ArrayRegister>(&self, unit: Unit, index: u32) -> Result<u32, DrawError> {
        self.reg_at::<R>(unit, index).map(|v| v as u32)
    }

    /// Whether entry `index` of `R` was programmed, with no strict check:
    /// for state a unit reads only when something else enables it.
    pub fn is_programmed_at<R: ArrayRegister>(&self, index: u32) -> bool {
        self.regs.is_programmed_at::<R>(index)
    }
}
