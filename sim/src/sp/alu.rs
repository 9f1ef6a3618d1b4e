//! cat1..cat4: moves, conversions and the ALU and SFU operations, executed
//! fiber by fiber through the ISA's evaluation functions (the meaning of an
//! opcode is written once, in `parsnip_isa::eval`).
//!
//! Operands: register sources, consts (half-precision consts are demoted,
//! see [`super::const_file`]), relative registers and consts (`r<a0.x + n>`,
//! `c<a0.x + n>`, the index in components), immediates and the float
//! lookup table.
//!
//! `(rptN)` executes the instruction N more times, each repetition on the
//! next destination register and on the next register of each source marked
//! `(r)` (freedreno's ISA XML, `#rptN`; Mesa's `ir3_rpt.c`); a repetition
//! sees what the earlier ones wrote. `(nopN)`, `(ss)`, `(sy)`, `(ul)` and
//! `(last)` only change timing or scheduling: a functional model that
//! finishes every instruction before starting the next needs none of them.
//!
//! A write to a shared register (r48..r55) takes the value of the first
//! active fiber: Mesa's `ir3_lower_subgroups.c` notes that "moves to shared
//! registers read the first active fiber" and relies on it for
//! `readFirstInvocation`.

use parsnip_isa::eval::{eval_alu, AluOp};
use parsnip_isa::{Mov, MovDst, MovMsk, MovMulti, Opcode, Operand, SrcKind, ValueKind};

use super::const_file::ConstFile;
use super::lanes::lanes;
use super::trap::{error, Trap};
use super::wave_registers::{Loc, WaveRegisters};

/// A source resolved for one repetition of an instruction.
#[derive(Clone, Copy)]
enum Src {
    /// A register, read per fiber.
    Reg(Loc),
    /// The same value for every fiber (const, immediate).
    Value(u32),
    /// `r<a0.x + off>`, resolved per fiber.
    RelReg { off: i64, half: bool },
    /// `c<a0.x + off>`, resolved per fiber.
    RelConst { off: i64, half: bool, float: bool },
}

fn resolve(
    regs: &WaveRegisters,
    consts: &ConstFile,
    op: &Operand,
    step: u32,
    float: bool,
) -> Result<Src, Trap> {
    let step = if op.r { i64::from(step) } else { 0 };
    Ok(match op.kind {
        SrcKind::Reg(n) => Src::Reg(regs.locate(i64::from(n) + step, op.half)?),
        SrcKind::Const(n) => {
            let n = i64::from(n) + step;
            Src::Value(if op.half {
                consts.read_half(n, float)?
            } else {
                consts.read(n)?
            })
        }
        SrcKind::RelReg(off) => Src::RelReg {
            off: i64::from(off) + step,
            half: op.half,
        },
        SrcKind::RelConst(off) => Src::RelConst {
            off: i64::from(off) + step,
            half: op.half,
            float,
        },
        SrcKind::Imm(_) | SrcKind::FLut(_) => match op.immediate_bits() {
            Some(v) => Src::Value(v),
            None => return error("a float lookup-table source outside the table"),
        },
    })
}

#[inline]
fn read(regs: &WaveRegisters, consts: &ConstFile, src: Src, lane: usize) -> Result<u32, Trap> {
    match src {
        Src::Reg(loc) => regs.read(loc, lane),
        Src::Value(v) => Ok(v),
        Src::RelReg { off, half } => regs.read(regs.locate(regs.a0(lane) + off, half)?, lane),
        Src::RelConst { off, half, float } => {
            let n = regs.a0(lane) + off;
            if half {
                consts.read_half(n, float)
            } else {
                consts.read(n)
            }
        }
    }
}

/// The source for every fiber of `mask` (the others are left as they are).
fn read_lanes(
    regs: &WaveRegisters,
    consts: &ConstFile,
    src: Src,
    mask: u128,
    out: &mut [u32; 128],
) -> Result<(), Trap> {
    match src {
        Src::Reg(loc) => regs.read_lanes(loc, out),
        Src::Value(v) => {
            out.fill(v);
            Ok(())
        }
        _ => {
            for lane in lanes(mask) {
                out[lane] = read(regs, consts, src, lane)?;
            }
            Ok(())
        }
    }
}

/// The fibers an instruction writing `dst` executes for: only the first
/// active one when the destination is a shared register.
fn writers(dst: Loc, mask: u128) -> u128 {
    if dst.is_shared() {
        mask & mask.wrapping_neg()
    } else {
        mask
    }
}

fn eval(op: &AluOp, srcs: &[u32]) -> Result<u32, Trap> {
    eval_alu(op, srcs).map_err(|e| Trap::Error(e.to_string()))
}

/// cat2, cat3 and cat4: `dst = op(srcs)` for each fiber in `mask`.
pub(crate) fn execute_alu(
    regs: &mut WaveRegisters,
    consts: &ConstFile,
    op: &AluOp,
    dst: parsnip_isa::Reg,
    operands: &[&Operand],
    repeat: u8,
    mask: u128,
) -> Result<(), Trap> {
    let float = op.opcode.info().src == ValueKind::Float;
    let n = operands.len();
    let mut values = [[0u32; 128]; 3];
    let mut results = [0u32; 128];
    for step in 0..=u32::from(repeat) {
        let dst_loc = regs.locate(i64::from(dst.num) + i64::from(step), dst.half)?;
        let fibers = writers(dst_loc, mask);
        for (v, o) in values.iter_mut().zip(operands) {
            let src = resolve(regs, consts, o, step, float)?;
            read_lanes(regs, consts, src, fibers, v)?;
        }
        for lane in lanes(fibers) {
            let srcs = [values[0][lane], values[1][lane], values[2][lane]];
            results[lane] = eval(op, &srcs[..n])?;
        }
        regs.write_lanes(dst_loc, fibers, &results);
    }
    Ok(())
}

fn mov_dst(
    regs: &WaveRegisters,
    dst: MovDst,
    step: u32,
    half: bool,
    lane: usize,
) -> Result<Loc, Trap> {
    match dst {
        MovDst::Reg(n) => regs.locate(i64::from(n) + i64::from(step), half),
        MovDst::Rel(off) => regs.locate(regs.a0(lane) + i64::from(off) + i64::from(step), half),
    }
}

/// `mov`/`cov`/`mova`/`mova1`: a conversion from the source type to the
/// destination type.
pub(crate) fn execute_mov(
    regs: &mut WaveRegisters,
    consts: &ConstFile,
    m: &Mov,
    op: &AluOp,
    mask: u128,
) -> Result<(), Trap> {
    let dst_half = m.dst_type.is_half_cat1();
    for step in 0..=u32::from(m.repeat) {
        let src = resolve(regs, consts, &m.src, step, m.src_type.is_float())?;
        // The destination is the same for every fiber unless relative.
        let fixed_dst = match m.dst {
            MovDst::Reg(_) => Some(mov_dst(regs, m.dst, step, dst_half, 0)?),
            MovDst::Rel(_) => None,
        };
        let fibers = fixed_dst.map_or(mask, |d| writers(d, mask));
        for lane in lanes(fibers) {
            let v = eval(op, &[read(regs, consts, src, lane)?])?;
            let dst = match fixed_dst {
                Some(d) => d,
                None => mov_dst(regs, m.dst, step, dst_half, lane)?,
            };
            regs.write(dst, lane, v);
        }
    }
    Ok(())
}

/// `swz`, `gat`, `sct`: several conversions at once, every source read
/// before any destination is written (the ISA's `MovMulti`).
pub(crate) fn execute_mov_multi(
    regs: &mut WaveRegisters,
    m: &MovMulti,
    mask: u128,
) -> Result<(), Trap> {
    let op = AluOp::conversion(m.src_type, m.dst_type, m.round);
    let src_half = m.src_type.is_half_cat1();
    let dst_half = m.dst_type.is_half_cat1();
    let (srcs, dsts): (Vec<u8>, Vec<u8>) = match m.op {
        Opcode::Swz => (m.srcs[..2].to_vec(), m.dsts[..2].to_vec()),
        Opcode::Gat => (m.srcs.to_vec(), (0..4).map(|i| m.dsts[0] + i).collect()),
        _ => ((0..4).map(|i| m.srcs[0] + i).collect(), m.dsts.to_vec()),
    };
    let src_locs = srcs
        .iter()
        .map(|&n| regs.locate(i64::from(n), src_half))
        .collect::<Result<Vec<_>, _>>()?;
    let dst_locs = dsts
        .iter()
        .map(|&n| regs.locate(i64::from(n), dst_half))
        .collect::<Result<Vec<_>, _>>()?;
    for lane in lanes(mask) {
        let mut values = [0u32; 4];
        for (v, &loc) in values.iter_mut().zip(&src_locs) {
            *v = eval(&op, &[regs.read(loc, lane)?])?;
        }
        for (&loc, &v) in dst_locs.iter().zip(&values) {
            regs.write(loc, lane, v);
        }
    }
    Ok(())
}

/// `movmsk.wN`: the execution mask, 32 fibers per register (the ISA's
/// `MovMsk`), written to every active fiber.
pub(crate) fn execute_movmsk(
    regs: &mut WaveRegisters,
    m: &MovMsk,
    exec_mask: u128,
) -> Result<(), Trap> {
    for k in 0..=u32::from(m.repeat) {
        let bits = (exec_mask >> (32 * k)) as u32;
        let fixed = match m.dst {
            MovDst::Reg(_) => Some(mov_dst(regs, m.dst, k, false, 0)?),
            MovDst::Rel(_) => None,
        };
        let fibers = fixed.map_or(exec_mask, |d| writers(d, exec_mask));
        for lane in lanes(fibers) {
            let dst = match fixed {
                Some(d) => d,
                None => mov_dst(regs, m.dst, k, false, lane)?,
            };
            regs.write(dst, lane, bits);
        }
    }
    Ok(())
}
