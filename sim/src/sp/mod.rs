//! The shader processor: runs the ir3 programs of compute dispatches and of
//! the vertex and fragment stages of draws.
//!
//! The command processor gathers each CP_EXEC_CS into a
//! [`ComputeDispatch`] and hands it to a [`ShaderCore`]; [`ShaderProcessor`]
//! is the model's. A draw launches its vertex and fragment waves itself
//! (`crate::pc`), with the same wave executor. It fetches the program from memory (the ISA of
//! `parsnip-isa` decodes it), runs every work group as waves of 64 or 128
//! fibers and reports what stops it as a [`ShaderFailure`]: a fault (the
//! iova, and the work group, wave, PC and instruction), a hang (the
//! instruction budget ran out) or an error (an illegal instruction, an
//! access a descriptor or the register footprint does not allow, an
//! instruction the model does not execute).
//!
//! The model is functional: each instruction completes before the next
//! starts, so what only schedules the hardware's pipelines (`(ss)`, `(sy)`,
//! `(nopN)`, `(ul)`, `(last)`, `fence`, the cache maintenance instructions)
//! has nothing to do, and each file says where it relies on that.
//!
//! Where things are: `dispatch` (what the waves of any launch share, and
//! reports), `compute` (work groups, built-in inputs, barriers), `vertex`
//! and `fragment` (the graphics stages' waves, their inputs and outputs;
//! `kill`), `varyings` (`bary.f`, `flat.b`, `ldlv`), `derivatives`
//! (`dsx`/`dsy` across quads), `sampling` (`sam` and the other lookups
//! the texture processor, [`crate::tp`], filters), `wave` (fibers' PCs, divergence and reconvergence,
//! predication), `control_flow` (cat0), `alu` (cat1..cat4 through
//! `parsnip_isa::eval`), `memory_ops` (global, shared and private memory,
//! global and shared atomics, const stores, `shfl`), `buffer_ops` (UBOs,
//! storage buffers and images), `texture` (cat5), `descriptors` and
//! `texel_format` (what descriptors say and how texels are laid out),
//! `wave_registers` and `const_file` (the register and const files),
//! `program` (fetching and decoding), `texture_alias` (a7xx `alias.tex`).
//!
//! ```
//! use std::sync::Arc;
//! use parsnip_registers::gpu;
//! use parsnip_sim::memory::AddressSpace;
//! use parsnip_sim::sp::ShaderProcessor;
//! use parsnip_sim::{Gpu, SimOptions};
//!
//! // A model of an a740 whose CP_EXEC_CS runs on the shader processor.
//! let gpu = Gpu::with_shader_core(
//!     gpu::by_name("a740")?,
//!     SimOptions::default(),
//!     Arc::new(AddressSpace::new()),
//!     Box::new(ShaderProcessor),
//! );
//! # let _ = gpu;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`ComputeDispatch`]: crate::compute_dispatch::ComputeDispatch
//! [`ShaderCore`]: crate::shader_core::ShaderCore
//! [`ShaderFailure`]: crate::report::ShaderFailure

mod alu;
mod buffer_ops;
mod compute;
mod const_file;
mod control_flow;
pub mod cycle_estimate;
mod derivatives;
mod descriptors;
mod dispatch;
pub(crate) mod fragment;
mod lanes;
mod matrix;
mod memory_ops;
mod program;
mod sampling;
pub(crate) mod texel_format;
mod texture;
mod texture_alias;
pub(crate) mod trap;
mod varyings;
pub(crate) mod vertex;
mod wave;
mod wave_registers;

use crate::compute_dispatch::ComputeDispatch;
use crate::memory::AddressSpace;
use crate::report::ShaderFailure;
use crate::shader_core::ShaderCore;

pub use compute::MAX_WORK_GROUP_THREADS;
pub use fragment::FragmentInputRegs;

/// What a dispatch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpStats {
    /// Instructions executed, counted once per wave (an instruction run by
    /// a wave's 64 fibers counts one).
    pub instructions: u64,
    pub work_groups: u64,
    pub waves: u64,
    /// Barriers that released the waves of a work group.
    pub barriers: u64,
    /// Distinct instructions fetched from memory and decoded.
    pub program_instructions: u32,
    /// Cycles of `(nopN)` and of cat0 `nop`s ([`cycle_estimate`]).
    pub nop_cycles: u64,
    /// Instructions that waited with `(ss)` and with `(sy)`.
    pub ss_waits: u64,
    pub sy_waits: u64,
    /// The estimate of [`cycle_estimate`]'s table.
    pub estimated_cycles: u64,
}

/// Runs `dispatch` to completion against `memory`; `index` numbers the
/// dispatch in its submit, for reports.
pub fn run_compute(
    dispatch: &ComputeDispatch,
    index: u32,
    memory: &AddressSpace,
) -> Result<SpStats, ShaderFailure> {
    compute::run(dispatch, index, memory)
}

/// The model's shader processor, as the command processor calls it.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShaderProcessor;

impl ShaderCore for ShaderProcessor {
    fn run_compute(
        &self,
        dispatch: &ComputeDispatch,
        index: u32,
        memory: &AddressSpace,
    ) -> Result<SpStats, ShaderFailure> {
        run_compute(dispatch, index, memory)
    }
}
