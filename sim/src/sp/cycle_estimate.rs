//! Executed-work statistics and the cycle estimate they feed, counted once
//! per wave per instruction: how our compiler's code and Turnip's compare
//! on the same model, not a timing model of the hardware.
//!
//! The estimate, per instruction a wave executes (the model's own table;
//! the figures are round numbers of the order freedreno's ir3 scheduler
//! assumes, not measurements):
//!
//! | what                                   | cycles        |
//! |----------------------------------------|---------------|
//! | issue                                  | 1             |
//! | each `(rptN)` repetition               | 1 (N in all)  |
//! | `(nopN)` on cat2/cat3                  | N             |
//! | a cat0 `nop` (with its `(rptN)`)       | 1 + N         |
//! | an `(ss)` wait (SFU, shared memory)    | [`SS_WAIT`]   |
//! | a `(sy)` wait (texture, memory)        | [`SY_WAIT`]   |
//!
//! "Nop cycles" counts the `(nopN)` cycles and the cycles of cat0 `nop`s.

use parsnip_isa::{Instr, Op, Opcode};

use super::SpStats;

/// Cycles an `(ss)` wait is taken to cost.
pub const SS_WAIT: u64 = 10;
/// Cycles a `(sy)` wait is taken to cost.
pub const SY_WAIT: u64 = 100;

/// Counts one wave's execution of `instr`.
pub(crate) fn account(stats: &mut SpStats, instr: &Instr) {
    let (repeat, nops) = match &instr.op {
        Op::Flow(f) if f.op == Opcode::Nop => (0, 1 + u64::from(f.repeat)),
        Op::Flow(f) => (u64::from(f.repeat), 0),
        Op::Alu(a) => (u64::from(a.repeat), u64::from(a.nop)),
        Op::Alu3(a) => (u64::from(a.repeat), u64::from(a.nop)),
        Op::Sfu(s) => (u64::from(s.repeat), 0),
        Op::Mov(m) => (u64::from(m.repeat), 0),
        _ => (0, 0),
    };
    let is_nop = matches!(&instr.op, Op::Flow(f) if f.op == Opcode::Nop);
    stats.nop_cycles += nops;
    stats.ss_waits += u64::from(instr.ss);
    stats.sy_waits += u64::from(instr.sy);
    stats.estimated_cycles += if is_nop { nops } else { 1 + repeat + nops }
        + SS_WAIT * u64::from(instr.ss)
        + SY_WAIT * u64::from(instr.sy);
}
