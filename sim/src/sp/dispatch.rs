//! Launching waves, whatever the stage: what the waves of one launch share
//! (the program's state, its consts and descriptors, the instruction
//! budget), and the report a trap becomes.
//!
//! A launch is a compute dispatch ([`super::compute`]) or one stage of a
//! draw ([`super::vertex`], [`super::fragment`]). Each fills the registers
//! of its waves with the stage's inputs, runs them with
//! [`super::wave::Wave::run`] and reads what they leave behind; only that
//! differs between stages.

use super::const_file::ConstFile;
use super::descriptors::DescriptorCache;
use super::fragment::FragmentWave;
use super::program::Program;
use super::sampling::TextureCache;
use super::trap::Trap;
use super::SpStats;
use crate::memory::AddressSpace;
use crate::report::{Launch, ShaderFailure, ShaderSite};
use crate::shader_state::ShaderState;
use crate::thread_cpu_time;

/// What the waves of a launch share.
pub(crate) struct DispatchContext<'a> {
    pub d: &'a ShaderState,
    pub memory: &'a AddressSpace,
    pub consts: ConstFile,
    pub descriptors: DescriptorCache,
    /// The textures and samplers decoded so far.
    pub textures: TextureCache,
    /// Instructions executed so far, against `budget`.
    pub executed: u64,
    pub budget: u64,
    /// The thread CPU time at which the launch's budget runs out, if it
    /// has one.
    pub deadline: Option<std::time::Duration>,
    /// A wave reached `shps`: the preamble has run (or is running).
    pub preamble_started: bool,
    /// Compute: the current work group, its id and shared memory.
    pub group_id: [u32; 3],
    pub shared: Vec<u8>,
    /// Fragment shaders: the quads and primitives of the wave running.
    pub fragment: Option<FragmentWave>,
    pub stats: SpStats,
}

impl<'a> DispatchContext<'a> {
    pub fn new(d: &'a ShaderState, memory: &'a AddressSpace) -> Self {
        DispatchContext {
            d,
            memory,
            consts: ConstFile::with_shared(&d.consts, &d.shared_consts),
            descriptors: DescriptorCache::default(),
            textures: TextureCache::default(),
            executed: 0,
            budget: d.instruction_budget,
            deadline: d.time_budget.map(|t| thread_cpu_time::now() + t),
            preamble_started: false,
            group_id: [0; 3],
            shared: Vec::new(),
            fragment: None,
            stats: SpStats::default(),
        }
    }

    /// Whether the launch has used up its budget. The clock is read once
    /// every 64K instructions only: reading it per instruction would cost
    /// more than most instructions do.
    pub fn out_of_budget(&self) -> bool {
        self.executed >= self.budget
            || (self.executed.is_multiple_of(1 << 16)
                && self.deadline.is_some_and(|d| thread_cpu_time::now() >= d))
    }
}

/// The wave size is one the shader core has.
pub(crate) fn check_wave_size(d: &ShaderState) -> Result<(), String> {
    if d.wave_size != 64 && d.wave_size != 128 {
        return Err(format!(
            "a wave size of {} threads; the shader core runs waves of 64 or 128",
            d.wave_size
        ));
    }
    Ok(())
}

/// The report for a trap in wave `wave` of `launch` at `pc`.
pub(crate) fn failure(
    trap: Trap,
    launch: Launch,
    ctx: &DispatchContext,
    wave: u32,
    pc: u32,
    program: &Program,
) -> ShaderFailure {
    let at = ShaderSite {
        launch,
        wave,
        pc,
        instruction: program.describe(pc, ctx.memory),
    };
    match trap {
        Trap::Fault(fault) => ShaderFailure::Fault { fault, at },
        Trap::Budget => ShaderFailure::Hang {
            executed: ctx.executed,
            at,
        },
        Trap::Error(message) => ShaderFailure::Error {
            message,
            at: Some(at),
        },
    }
}
