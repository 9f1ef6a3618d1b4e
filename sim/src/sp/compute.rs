//! Running one compute dispatch: its work groups one after another, each
//! as waves of `wave_size` fibers, with the built-in inputs in the registers
//! the dispatch names and the waves of a group meeting at barriers.
//!
//! Fibers are numbered in the work group linearly (x fastest, then y, then
//! z) and cut into waves in that order. a7xx can also assign local ids to
//! fibers in tiles (HLSQ_CS_CNTL_1.WORKITEMRASTORDER); that changes only
//! which fibers share a wave, which Vulkan leaves to the implementation.
//!
//! The waves of a work group run in turn, each until it ends or reaches a
//! `bar`; when every wave that has not ended waits at a barrier, all are
//! released. Work groups run one at a time, so an atomic is atomic and
//! memory is coherent between work groups without further modelling. Shared
//! memory holds a poison pattern when a work group starts (its contents are
//! undefined on the hardware).

use super::dispatch::{check_wave_size, failure, DispatchContext};
use super::program::Program;
use super::trap::{error, Trap};
use super::wave::{Wave, WaveState};
use super::wave_registers::WaveRegisters;
use super::SpStats;
use crate::compute_dispatch::{ComputeDispatch, RegId};
use crate::memory::AddressSpace;
use crate::report::{Launch, ShaderFailure};

/// The largest work group the hardware runs: Turnip reports
/// maxComputeWorkGroupInvocations = 1024 on a6xx and a7xx.
pub const MAX_WORK_GROUP_THREADS: u32 = 1024;

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

    let mut ctx = DispatchContext::new(&d.shader, memory);
    ctx.shared = vec![0; d.shared_size as usize];
    let mut program = Program::new(d.program_iova, d.a7xx);
    let mut waves: Vec<Wave> = (0..waves_per_group)
        .map(|_| Wave::new(WaveRegisters::new(d)))
        .collect();

    let [gx, gy, gz] = d.group_count;
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                ctx.group_id = [x, y, z];
                // Shared memory starts undefined on hardware, holding what the
                // last work group on the SP left: a pattern here, different for
                // each group, so that a shader reading it before writing it (or a
                // compiler that forgot a zero initializer) gives wrong results.
                poison_shared(&mut ctx.shared, ctx.stats.work_groups);
                run_group(d, &mut waves, threads, &mut program, &mut ctx).map_err(
                    |(trap, wave, pc)| {
                        let launch = Launch::Dispatch {
                            dispatch: index,
                            work_group: ctx.group_id,
                        };
                        failure(trap, launch, &ctx, wave, pc, &program)
                    },
                )?;
                ctx.stats.work_groups += 1;
                ctx.stats.waves += u64::from(waves_per_group);
            }
        }
    }
    ctx.stats.instructions = ctx.executed;
    ctx.stats.program_instructions = program.fetched;
    Ok(ctx.stats)
}

/// Fills shared memory with a byte pattern that is never zero and changes with
/// the work group.
fn poison_shared(shared: &mut [u8], group: u64) {
    for (i, b) in shared.iter_mut().enumerate() {
        *b = 0x80 | ((i as u64 ^ group.wrapping_mul(0x35)) & 0x7f) as u8;
    }
}

/// The dispatch is one the hardware can run.
fn check(d: &ComputeDispatch) -> Result<(), String> {
    check_wave_size(d)?;
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
    d: &ComputeDispatch,
    waves: &mut [Wave],
    threads: u32,
    program: &mut Program,
    ctx: &mut DispatchContext,
) -> Result<(), (Trap, u32, u32)> {
    let size = d.wave_size;
    for (i, w) in waves.iter_mut().enumerate() {
        let i = i as u32;
        let first = i * size;
        w.start(i, first, (threads - first).min(size));
        write_inputs(d, w, ctx).map_err(|t| (t, i, 0))?;
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
fn write_inputs(d: &ComputeDispatch, w: &mut Wave, ctx: &DispatchContext) -> Result<(), Trap> {
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
