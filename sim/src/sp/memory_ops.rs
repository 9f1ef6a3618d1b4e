//! cat6 instructions on memory a fiber addresses itself: global memory
//! (`ldg`, `stg` and their `.a` forms, `ldg.k`, `atomic.g.*`), the work
//! group's shared memory (`ldl`, `stl`, `ldlw`, `stlw`, `atomic.*.l`),
//! private memory (`ldp`, `stp`), the const file (`stc`), the id queries
//! and `shfl`. The instructions that go through a descriptor are in
//! [`super::buffer_ops`].
//!
//! Element types (freedreno's ISA XML, `#type`): 32-bit types move between
//! full registers and 4 bytes; 16-bit types between half registers and 2
//! bytes; `u8` between half registers and one byte, zero-extended on load;
//! `u8_32` likewise but sign-extended (Qualcomm's OpenCL compiler loads a
//! `char` with `ldg.u8_32` and reads it back as an s16).
//!
//! Addresses:
//! - `ldg`/`stg g[rN + off]`: the 64-bit address in rN (low) and rN+1
//!   (high) plus a signed byte offset (Mesa's `emit_intrinsic_load_global_ir3`
//!   puts the dword offset times 4 there);
//! - `ldg.a` on a6xx: base + (((index << shift) + off) << type size shift),
//!   without 32-bit overflow (the XML's `ldg.a` doc); on a7xx base + index +
//!   off in bytes, as the XML displays it (Mesa scales the index itself on
//!   a7xx);
//! - `ldl`/`stl l[rN + off]`: a byte offset in the work group's shared
//!   memory; beyond SHARED_SIZE it is an error (on hardware it would reach
//!   another work group's memory);
//! - `ldp`/`stp p[rN + off]`: a byte offset in the fiber's private memory.
//!   How the hardware lays fibers out in SP_CS_PVT_MEM_ADDR is not public;
//!   the model gives each fiber of a work group its own MEMSIZEPERITEM bytes
//!   from the start of it, which Turnip's allocation (per-fiber size times
//!   the fibers of every SP) always covers.

use parsnip_isa::eval::atomic::{eval_atomic, AtomicOp};
use parsnip_isa::{
    AddrSrc, Atomic, ConstDst, GetId, Global, GlobalAddr, LdgK, Local, Mem, Opcode, Shfl, ShflMode,
    Src8, Stc, Stsc, Type,
};

use super::buffer_ops;
use super::dispatch::DispatchContext;
use super::lanes::{first_lane, lanes};
use super::trap::{error, Trap};
use super::wave::Wave;
use super::wave_registers::WaveRegisters;

pub(crate) fn execute(
    w: &mut Wave,
    m: &Mem,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    match m {
        Mem::Global(g) => global(&mut w.regs, g, mask, ctx),
        Mem::LdgK(k) => ldg_k(&w.regs, k, mask, ctx),
        Mem::Local(l) => match l.op {
            Opcode::Ldp | Opcode::Stp => private(w, l, mask, ctx),
            _ => shared(&mut w.regs, l, mask, ctx),
        },
        Mem::Stc(s) => stc(&w.regs, s, mask, ctx),
        Mem::Atomic(a) => atomic(&mut w.regs, a, mask, ctx),
        Mem::GetId(g) => get_id(w, g, mask),
        Mem::Shfl(s) => shfl(&mut w.regs, s, mask, ctx),
        Mem::Ldc(l) => buffer_ops::ldc(&mut w.regs, l, mask, ctx),
        Mem::Ibo(i) => buffer_ops::ibo(&mut w.regs, i, mask, ctx),
        Mem::ResinfoB(r) => buffer_ops::resinfo(&mut w.regs, r, mask, ctx),
        Mem::Ldlv(l) => super::varyings::ldlv(w, l, mask, ctx),
        Mem::Stsc(s) => stsc(s, mask, ctx),
        Mem::Resinfo(_) => error("the a3xx-style resinfo is not used from a6xx on: not modelled"),
        Mem::Ray(_) => error("ray_intersection is not modelled"),
    }
}

/// Size in bytes of an element of `ty` in memory, whether it lives in a half
/// register, and whether a load sign-extends it.
pub(crate) fn element(ty: Type) -> (usize, bool, bool) {
    match ty {
        Type::U8 => (1, true, false),
        Type::U8_32 => (1, true, true),
        t if t.is_half() => (2, true, false),
        _ => (4, false, false),
    }
}

/// The register value of an element read from memory.
pub(crate) fn from_bytes(bytes: &[u8], sign_extend: bool) -> u32 {
    match bytes.len() {
        1 if sign_extend => u32::from(bytes[0] as i8 as u16),
        1 => u32::from(bytes[0]),
        2 => u32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        _ => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}

/// A full register of fiber `lane`.
pub(crate) fn full(regs: &WaveRegisters, num: u32, lane: usize) -> Result<u32, Trap> {
    regs.read(regs.locate(i64::from(num), false)?, lane)
}

/// Loads `count` elements of `ty` from `bytes` into registers from `reg`.
pub(crate) fn load_elements(
    regs: &mut WaveRegisters,
    reg: u32,
    ty: Type,
    bytes: &[u8],
    lane: usize,
) -> Result<(), Trap> {
    let (size, half, sext) = element(ty);
    for (i, e) in bytes.chunks_exact(size).enumerate() {
        let loc = regs.locate(i64::from(reg) + i as i64, half)?;
        regs.write(loc, lane, from_bytes(e, sext));
    }
    Ok(())
}

/// The bytes of `count` elements of `ty` in registers from `reg`.
pub(crate) fn store_elements(
    regs: &WaveRegisters,
    reg: u32,
    ty: Type,
    count: usize,
    lane: usize,
) -> Result<Vec<u8>, Trap> {
    let (size, half, _) = element(ty);
    let mut out = Vec::with_capacity(count * size);
    for i in 0..count {
        let v = regs.read(regs.locate(i64::from(reg) + i as i64, half)?, lane)?;
        out.extend_from_slice(&v.to_le_bytes()[..size]);
    }
    Ok(out)
}

fn src8(regs: &WaveRegisters, s: Src8, lane: usize) -> Result<u32, Trap> {
    match s {
        Src8::Imm(v) => Ok(u32::from(v)),
        Src8::Reg(n) => full(regs, u32::from(n), lane),
    }
}

fn global_address(
    regs: &WaveRegisters,
    ctx: &DispatchContext,
    g: &Global,
    lane: usize,
) -> Result<u64, Trap> {
    let base = match g.base {
        AddrSrc::Reg(r) => {
            u64::from(full(regs, u32::from(r), lane)?)
                | u64::from(full(regs, u32::from(r) + 1, lane)?) << 32
        }
        AddrSrc::Const(c) => {
            u64::from(ctx.consts.read(i64::from(c))?)
                | u64::from(ctx.consts.read(i64::from(c) + 1)?) << 32
        }
    };
    let type_shift = g.ty.shift();
    Ok(match g.addr {
        GlobalAddr::Offset(off) => base.wrapping_add(off as i64 as u64),
        GlobalAddr::Scaled {
            index,
            shift,
            offset,
        } => {
            let i = u64::from(full(regs, u32::from(index), lane)?);
            base.wrapping_add(((i << shift) + u64::from(offset)) << type_shift)
        }
        GlobalAddr::Indexed { index, offset } => {
            let i = u64::from(full(regs, u32::from(index), lane)?);
            base.wrapping_add(i).wrapping_add(u64::from(offset))
        }
    })
}

fn global(
    regs: &mut WaveRegisters,
    g: &Global,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let (size, _, _) = element(g.ty);
    let count = usize::from(g.size);
    let store = matches!(g.op, Opcode::Stg | Opcode::StgA);
    for lane in lanes(mask) {
        let addr = global_address(regs, ctx, g, lane)?;
        if store {
            let bytes = store_elements(regs, u32::from(g.reg), g.ty, count, lane)?;
            ctx.memory.write(addr, &bytes)?;
        } else {
            let mut bytes = vec![0u8; count * size];
            ctx.memory.read(addr, &mut bytes)?;
            load_elements(regs, u32::from(g.reg), g.ty, &bytes, lane)?;
        }
    }
    Ok(())
}

/// The const component a `c[N]` or `c[a1.x + N]` destination names, for
/// the fiber executing it.
fn const_dst(regs: &WaveRegisters, d: ConstDst, lane: usize) -> i64 {
    match d {
        ConstDst::Imm(n) => i64::from(n),
        ConstDst::A1(n) => i64::from(regs.a1(lane)) + i64::from(n),
    }
}

/// `ldg.k c[dst], g[rN + off], size`: dwords of global memory into the const
/// file. The const file is one for the whole dispatch, so the first active
/// fiber's address is the one used.
fn ldg_k(
    regs: &WaveRegisters,
    k: &LdgK,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let Some(lane) = first_lane(mask) else {
        return Ok(());
    };
    let base = u64::from(full(regs, u32::from(k.base), lane)?)
        | u64::from(full(regs, u32::from(k.base) + 1, lane)?) << 32;
    let addr = base.wrapping_add(k.offset as i64 as u64);
    let dst = const_dst(regs, k.dst, lane);
    let values = ctx.memory.read_dwords(addr, usize::from(k.size))?;
    for (i, v) in values.into_iter().enumerate() {
        ctx.consts.write(dst + i as i64, v)?;
    }
    Ok(())
}

/// `stc c[dst], rN, size` (the XML's doc): `size` registers into the const
/// file; 16-bit types store the half registers one after the other from the
/// low half of the first const. The first active fiber's values are stored.
fn stc(regs: &WaveRegisters, s: &Stc, mask: u128, ctx: &mut DispatchContext) -> Result<(), Trap> {
    let Some(lane) = first_lane(mask) else {
        return Ok(());
    };
    let dst = const_dst(regs, s.dst, lane);
    let half = s.ty.is_half();
    for i in 0..i64::from(s.size) {
        let v = regs.read(regs.locate(i64::from(s.src) + i, half)?, lane)?;
        if half {
            let n = dst + i / 2;
            let old = if i % 2 == 1 { ctx.consts.read(n)? } else { 0 };
            let packed = if i % 2 == 0 {
                v & 0xffff
            } else {
                (old & 0xffff) | v << 16
            };
            ctx.consts.write(n, packed)?;
        } else {
            ctx.consts.write(dst + i, v)?;
        }
    }
    Ok(())
}

/// `stsc c[dst], src, size` (a7xx; the XML's doc): `size` dwords of
/// HLSQ_SHARED_CONSTS_IMM from entry `src` into the const file from
/// component `dst`. Turnip's a7xx preambles copy the push constants so
/// (turnip/a740/loop_push: `stsc.u32 c[0], 0, 4`, then c0.x..w are
/// {n, mul, add, stride}). An entry the command stream never wrote is an
/// error, as any unloaded const.
fn stsc(s: &Stsc, mask: u128, ctx: &mut DispatchContext) -> Result<(), Trap> {
    if mask == 0 {
        return Ok(());
    }
    let imm = &ctx.d.shared_consts.imm;
    for i in 0..usize::from(s.size) {
        let from = usize::from(s.src) + i;
        let v = match imm.get(from) {
            Some(Some(v)) => *v,
            Some(None) => {
                return error(format!(
                    "stsc copies HLSQ_SHARED_CONSTS_IMM[{from}], which was never written"
                ))
            }
            None => {
                return error(format!(
                    "stsc copies HLSQ_SHARED_CONSTS_IMM[{from}]: this GPU has {} of them",
                    imm.len()
                ))
            }
        };
        ctx.consts.write(i64::from(s.dst) + i as i64, v)?;
    }
    Ok(())
}

/// The byte range `addr + off .. + len` of the work group's shared memory.
fn shared_range(
    ctx: &DispatchContext,
    addr: i64,
    len: usize,
) -> Result<std::ops::Range<usize>, Trap> {
    let size = ctx.shared.len();
    match usize::try_from(addr) {
        Ok(a) if a + len <= size => Ok(a..a + len),
        _ => error(format!(
            "shared memory access to bytes {addr}..{} outside the work group's {size} bytes \
             (SP_CS_UNKNOWN_A9B1.SHARED_SIZE)",
            addr + len as i64
        )),
    }
}

fn shared(
    regs: &mut WaveRegisters,
    l: &Local,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let (size, _, _) = element(l.ty);
    let count = usize::from(l.size);
    let store = matches!(l.op, Opcode::Stl | Opcode::Stlw);
    for lane in lanes(mask) {
        let addr = i64::from(full(regs, u32::from(l.addr), lane)?) + i64::from(l.offset);
        let range = shared_range(ctx, addr, count * size)?;
        if store {
            let bytes = store_elements(regs, u32::from(l.reg), l.ty, count, lane)?;
            ctx.shared[range].copy_from_slice(&bytes);
        } else {
            let bytes = ctx.shared[range].to_vec();
            load_elements(regs, u32::from(l.reg), l.ty, &bytes, lane)?;
        }
    }
    Ok(())
}

fn private(w: &mut Wave, l: &Local, mask: u128, ctx: &mut DispatchContext) -> Result<(), Trap> {
    let per_fiber = u64::from(ctx.d.private_per_fiber);
    let (size, _, _) = element(l.ty);
    let len = usize::from(l.size) * size;
    for lane in lanes(mask) {
        let off = i64::from(full(&w.regs, u32::from(l.addr), lane)?) + i64::from(l.offset);
        if off < 0 || off as u64 + len as u64 > per_fiber {
            return error(format!(
                "private memory access to bytes {off}..{} outside the fiber's {per_fiber} \
                 (SP_CS_PVT_MEM_PARAM.MEMSIZEPERITEM)",
                off + len as i64
            ));
        }
        let fiber = u64::from(w.first_thread) + lane as u64;
        let addr = ctx.d.private_iova + fiber * per_fiber + off as u64;
        if l.op == Opcode::Stp {
            let bytes = store_elements(&w.regs, u32::from(l.reg), l.ty, usize::from(l.size), lane)?;
            ctx.memory.write(addr, &bytes)?;
        } else {
            let mut bytes = vec![0u8; len];
            ctx.memory.read(addr, &mut bytes)?;
            load_elements(&mut w.regs, u32::from(l.reg), l.ty, &bytes, lane)?;
        }
    }
    Ok(())
}

/// The operation of an atomic opcode of any form.
pub(crate) fn atomic_op(op: Opcode) -> Result<AtomicOp, Trap> {
    AtomicOp::of(op).map_or_else(|| error(format!("{op} is not an atomic")), Ok)
}

/// Global (`atomic.g.*`, the address in a register pair) and shared memory
/// (`atomic.*` with `.l`) atomics. The operand register holds the value; for
/// `cmpxchg` it is followed by the comparand: Mesa's ir3 packs NIR's swap
/// value first and its comparator second (`emit_intrinsic_atomic_global`,
/// `emit_intrinsic_atomic_shared`). The old value goes to the destination.
/// Type `u64` (value 6 of `#type-atomic`) works on 64-bit values in register
/// pairs, global memory only.
fn atomic(
    regs: &mut WaveRegisters,
    a: &Atomic,
    mask: u128,
    ctx: &mut DispatchContext,
) -> Result<(), Trap> {
    let op = atomic_op(a.op)?;
    let global = a.op.name().starts_with("atomic.g.");
    let wide = global && a.ty == Type::U8;
    if !global && !matches!(a.ty, Type::U32 | Type::S32) {
        return error(format!(
            "a shared memory atomic on {}: only 32-bit ones are modelled",
            a.ty.name()
        ));
    }
    if wide && op == AtomicOp::CmpXchg {
        return error("a 64-bit compare-exchange: its operand layout is not publicly documented");
    }
    let signed = a.ty == Type::S32;
    let Src8::Reg(data) = a.src2 else {
        return error("an atomic whose operand is an immediate");
    };
    for lane in lanes(mask) {
        let value = atomic_operand(regs, u32::from(data), 0, wide, lane)?;
        let compare = if op == AtomicOp::CmpXchg {
            atomic_operand(regs, u32::from(data), 1, wide, lane)?
        } else {
            0
        };
        let old = if global {
            let Src8::Reg(r) = a.src1 else {
                return error("a global atomic whose address is an immediate");
            };
            let addr = u64::from(full(regs, u32::from(r), lane)?)
                | u64::from(full(regs, u32::from(r) + 1, lane)?) << 32;
            atomic_in_memory(ctx, addr, op, signed, wide, value, compare)?
        } else {
            let addr = i64::from(src8(regs, a.src1, lane)?);
            let range = shared_range(ctx, addr, 4)?;
            let s = &mut ctx.shared[range];
            let old = u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
            let new = eval_atomic(op, signed, 32, old, value, compare);
            s.copy_from_slice(&(new as u32).to_le_bytes());
            old
        };
        write_atomic_result(regs, u32::from(a.dst), old, wide, lane)?;
    }
    Ok(())
}

/// Operand `k` of an atomic whose operands start at register `reg`: one
/// register each, or a pair (low first) for 64-bit atomics.
pub(crate) fn atomic_operand(
    regs: &WaveRegisters,
    reg: u32,
    k: u32,
    wide: bool,
    lane: usize,
) -> Result<u64, Trap> {
    Ok(if wide {
        u64::from(full(regs, reg + 2 * k, lane)?)
            | u64::from(full(regs, reg + 2 * k + 1, lane)?) << 32
    } else {
        u64::from(full(regs, reg + k, lane)?)
    })
}

/// Applies an atomic to the 4 or 8 bytes at `addr`; returns the old value.
pub(crate) fn atomic_in_memory(
    ctx: &DispatchContext,
    addr: u64,
    op: AtomicOp,
    signed: bool,
    wide: bool,
    value: u64,
    compare: u64,
) -> Result<u64, Trap> {
    let bytes = if wide { 8 } else { 4 };
    let mut buf = [0u8; 8];
    ctx.memory.read(addr, &mut buf[..bytes])?;
    let old = u64::from_le_bytes(buf);
    let new = eval_atomic(op, signed, bytes as u32 * 8, old, value, compare);
    ctx.memory.write(addr, &new.to_le_bytes()[..bytes])?;
    Ok(old)
}

/// Writes an atomic's old value to its destination (a pair for 64 bits).
pub(crate) fn write_atomic_result(
    regs: &mut WaveRegisters,
    dst: u32,
    old: u64,
    wide: bool,
    lane: usize,
) -> Result<(), Trap> {
    regs.write(regs.locate(i64::from(dst), false)?, lane, old as u32);
    if wide {
        regs.write(
            regs.locate(i64::from(dst) + 1, false)?,
            lane,
            (old >> 32) as u32,
        );
    }
    Ok(())
}

/// `getspid` (the model has one shader processor: 0), `getwid` (the wave's
/// index in its work group) and `getfiberid` (the fiber's index in its wave,
/// gl_SubgroupInvocationID per the XML's doc).
fn get_id(w: &mut Wave, g: &GetId, mask: u128) -> Result<(), Trap> {
    let half = g.ty.is_half();
    let loc = w.regs.locate(i64::from(g.dst), half)?;
    for lane in lanes(mask) {
        let v = match g.op {
            Opcode::Getspid => 0,
            Opcode::Getwid => w.index,
            _ => lane as u32,
        };
        w.regs.write(loc, lane, v);
    }
    Ok(())
}

/// `shfl.<mode> dst, src1, src2`: each fiber reads `src1` of another fiber
/// of the wave: `up` from fiber i - n, `down` from i + n, `xor` from i ^ n,
/// `rup`/`rdown` the same rotated around the wave (Mesa's
/// `ir3_nir_lower_shuffle` builds `shuffle` from a rotate). `n` must be the
/// same for every fiber (Mesa: "its index has to be dynamically uniform"),
/// so the first active fiber's is used. A fiber whose source fiber is
/// inactive or outside the wave keeps its destination ("shfl does not update
/// its dst when its src is inactive").
fn shfl(regs: &mut WaveRegisters, s: &Shfl, mask: u128, ctx: &DispatchContext) -> Result<(), Trap> {
    let Some(first) = first_lane(mask) else {
        return Ok(());
    };
    let n = src8(regs, s.src2, first)? as i64;
    let size = i64::from(ctx.d.wave_size);
    let half = s.ty.is_half();
    let src = regs.locate(i64::from(s.src1), half)?;
    let dst = regs.locate(i64::from(s.dst), half)?;
    let mut results = Vec::new();
    for lane in lanes(mask) {
        let i = lane as i64;
        let j = match s.mode {
            ShflMode::Up => i - n,
            ShflMode::Down => i + n,
            ShflMode::Xor => i ^ n,
            ShflMode::Rup => (i - n).rem_euclid(size),
            ShflMode::Rdown => (i + n).rem_euclid(size),
        };
        if (0..size).contains(&j) && mask >> j & 1 != 0 {
            results.push((lane, regs.read(src, j as usize)?));
        }
    }
    for (lane, v) in results {
        regs.write(dst, lane, v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_by_type() {
        assert_eq!(element(Type::U32), (4, false, false));
        assert_eq!(element(Type::F16), (2, true, false));
        assert_eq!(element(Type::U8), (1, true, false));
        assert_eq!(element(Type::U8_32), (1, true, true));
        assert_eq!(from_bytes(&[0xc8], true), 0xffc8);
        assert_eq!(from_bytes(&[0xc8], false), 0xc8);
    }
}
