//! Running one dispatch: its work groups one after another, each as waves
//! of `wave_size` fibers, with the built-in inputs in the registers the
//! dispatch names and the waves of a group meeting at barriers.
//!
//! Fibers are numbered in the work group linearly (x fastest, then y, then
//! z) and cut into waves in that order. a7xx can also assign local ids to
//! fibers in tiles (HLSQ_CS_CNTL_1.WORKITEMRASTORDER); that changes only
//! which fibers share a wave, which Vulkan leaves to the implementation.
//!
//! The waves of a work group run in turn, each until it ends or reaches a
//! `bar`; when every wave that has not ended waits at a barrier, all are
//! released. Work groups run one at a time, so an atomic is atomic and
//! memory is coherent between work groups without further modelling.

use super::const_file::ConstFile;
use super::descriptors::DescriptorCache;
use super::program::Program;
use super::trap::{error, Trap};
use super::wave::{Wave, WaveState};
use super::wave_registers::WaveRegisters;
use super::SpStats;
use crate::compute_dispatch::{ComputeDispatch, RegId};
use crate::memory::AddressSpace;
use crate::report::{ShaderFailure, ShaderSite};

/// The largest work group the hardware runs: Turnip reports
/// maxComputeWorkGroupInvocations = 1024 on a6xx and a7xx.
pub const MAX_WORK_GROUP_THREADS: u32 = 1024;

/// What the waves of a dispatch share.
pub(crate) struct DispatchContext<'a> {
    pub d: &'a ComputeDispatch,
    pub memory: &'a AddressSpace,
    pub consts: ConstFile,
    pub descriptors: DescriptorCache,
    /// Instructions executed so far, against `budget`.
    pub executed: u64,
    pub budget: u64,
    /// When the dispatch's wall-clock budget runs out, if it has one.
    pub deadline: Option<std::time::Instant>,
    /// A wave reached `shps`: the preamble has run (or is running).
    pub preamble_started: bool,
    /// The current work group: its id and shared memory.
    pub group_id: [u32; 3],
    pub shared: Vec<u8>,
    pub stats: SpStats,
}

/// Runs `d` against `memory`; `index` numbers the dispatch for reports.
pub(crate) fn run(
    d: &ComputeDispatch,
    index: u32,
    memory: &AddressSpace,
) -> Result<SpStats, ShaderFailure> {
    let fail = |message: String| ShaderFailure::Error { message, at: None };
    check(d).map_err(fail)?;
    let threads: u32 = d.local_size.iter().product();
    let waves_per_group = threads.div_ceil(d.wave_size);

    let mut ctx = DispatchContext {
        d,
        memory,
        consts: ConstFile::new(&d.consts),
        descriptors: DescriptorCache::default(),
        executed: 0,
        budget: d.instruction_budget,
        deadline: d.time_budget.map(|t| std::time::Instant::now() + t),
        preamble_started: false,
        group_id: [0; 3],
        shared: vec![0; d.shared_size as usize],
        stats: SpStats::default(),
    };
    let mut program = Program::new(d.program_iova, d.a7xx);
    let mut waves: Vec<Wave> = (0..waves_per_group)
        .map(|_| Wave::new(WaveRegisters::new(d)))
        .collect();

    let [gx, gy, gz] = d.group_count;
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                ctx.group_id = [x, y, z];
                // Shared memory starts undefined on hardware; zero here.
                ctx.shared.fill(0);
                run_group(&mut waves, threads, &mut program, &mut ctx)
                    .map_err(|(trap, wave, pc)| failure(trap, index, &ctx, wave, pc, &program))?;
                ctx.stats.work_groups += 1;
                ctx.stats.waves += u64::from(waves_per_group);
            }
        }
    }
    ctx.stats.instructions = ctx.executed;
    ctx.stats.program_instructions = program.fetched;
    Ok(ctx.stats)
}

impl DispatchContext<'_> {
    /// Whether the dispatch has used up its budget. The clock is read once
    /// every 64K instructions only: reading it per instruction would cost
    /// more than most instructions do.
    pub fn out_of_budget(&self) -> bool {
        self.executed >= self.budget
            || (self.executed.is_multiple_of(1 << 16)
                && self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d))
    }
}

/// The dispatch is one the hardware can run.
fn check(d: &ComputeDispatch) -> Result<(), String> {
    if d.wave_size != 64 && d.wave_size != 128 {
        return Err(format!(
            "a wave size of {} threads; the shader core runs waves of 64 or 128",
            d.wave_size
        ));
    }
    let threads: u64 = d.local_size.iter().map(|&n| u64::from(n)).product();
    if threads == 0 || threads > u64::from(MAX_WORK_GROUP_THREADS) {
        return Err(format!(
            "a work group of {:?} = {threads} threads; the hardware runs 1 to {} \
             (HLSQ_CS_NDRANGE_0)",
            d.local_size, MAX_WORK_GROUP_THREADS
        ));
    }
    if d.group_offset != [0; 3] {
        return Err(format!(
            "a global offset of {:?} (HLSQ_CS_NDRANGE_2/4/6): where the hardware adds it is \
             not publicly documented, so the model does not run it",
            d.group_offset
        ));
    }
    if d.work_group_offset.is_used() {
        return Err(format!(
            "SP_CS_CNTL_0.WGOFFSETCONSTID names r{}.{}: what the hardware writes there is not \
             publicly documented",
            d.work_group_offset.0 >> 2,
            ['x', 'y', 'z', 'w'][(d.work_group_offset.0 & 3) as usize]
        ));
    }
    Ok(())
}

/// Runs one work group to completion.
fn run_group(
    waves: &mut [Wave],
    threads: u32,
    program: &mut Program,
    ctx: &mut DispatchContext,
) -> Result<(), (Trap, u32, u32)> {
    let size = ctx.d.wave_size;
    for (i, w) in waves.iter_mut().enumerate() {
        let i = i as u32;
        let first = i * size;
        w.start(i, first, (threads - first).min(size));
        write_inputs(w, ctx).map_err(|t| (t, i, 0))?;
    }
    loop {
        for w in waves.iter_mut() {
            if w.state == WaveState::Running {
                w.run(program, ctx).map_err(|(t, pc)| (t, w.index, pc))?;
            }
        }
        if waves.iter().all(|w| w.state == WaveState::Ended) {
            return Ok(());
        }
        // Every wave still alive waits at a barrier: release them all.
        ctx.stats.barriers += 1;
        for w in waves.iter_mut() {
            if w.state == WaveState::AtBarrier {
                w.state = WaveState::Running;
            }
        }
    }
}

/// Writes the built-in inputs into the wave's registers before its first
/// instruction: the work group id, local id (x, y, z in three consecutive
/// registers), linear local id and work group size, where
/// SP_CS_CNTL_0/1 (HLSQ_CS_CNTL_0/1) put them.
fn write_inputs(w: &mut Wave, ctx: &DispatchContext) -> Result<(), Trap> {
    let d = ctx.d;
    let [sx, sy, _] = d.local_size;
    let regs = &mut w.regs;
    let mut put = |reg: RegId, lane: usize, values: &[u32]| -> Result<(), Trap> {
        if !reg.is_used() {
            return Ok(());
        }
        for (i, &v) in values.iter().enumerate() {
            let num = u32::from(reg.0) + i as u32;
            if num > 255 {
                return error(format!("a built-in input past the register file at {num}"));
            }
            regs.write_input(num, lane, v)?;
        }
        Ok(())
    };
    for lane in super::lanes::lanes(w.fibers) {
        let t = w.first_thread + lane as u32;
        let local = [t % sx, t / sx % sy, t / (sx * sy)];
        put(d.work_group_id, lane, &ctx.group_id)?;
        put(d.local_id, lane, &local)?;
        put(d.linear_local_id, lane, &[t])?;
        put(d.local_size_reg, lane, &d.local_size)?;
    }
    Ok(())
}

/// The report for a trap in wave `wave` at `pc`.
fn failure(
    trap: Trap,
    dispatch: u32,
    ctx: &DispatchContext,
    wave: u32,
    pc: u32,
    program: &Program,
) -> ShaderFailure {
    let at = ShaderSite {
        dispatch,
        work_group: ctx.group_id,
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
