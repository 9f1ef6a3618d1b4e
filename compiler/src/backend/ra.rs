//! Register allocation: linear scan over live intervals computed from block liveness,
//! with spilling to private memory (`stp`/`ldp`) when the values live at once do not fit.
//!
//! Every value takes full-register scalars (`r0.x` = 0, `r0.y` = 1, ... `r47.w` = 191; r48
//! and up are the shared registers, a6xx.xml / parsnip-isa). A half value uses the low half
//! of its scalar, half register 2k in the merged register file, so it must sit below
//! scalar 128 for the 8-bit half register number to reach it.

use super::mir::*;
use crate::error::{CompileError, Result};
use parsnip_isa::{Opcode, Round, Type};

/// Scalars of the full register file a shader may use: r0.x to r47.w.
pub const FULL_SCALARS: u32 = 48 * 4;
/// Half values must be in the first 128 scalars (half register numbers 0..=255).
const HALF_SCALARS: u32 = 128;

/// Where each virtual register ended up.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// First scalar of each virtual register.
    pub phys: Vec<u32>,
    /// Values spilled to private memory.
    pub spills: u32,
    /// Bytes of private memory the spills take.
    pub spill_bytes: u32,
}

#[derive(Clone, Copy, Debug)]
struct Interval {
    vreg: VReg,
    start: u32,
    end: u32,
}

/// Position of instruction `k` (in layout order): uses at 2k, definitions at 2k + 1.
fn positions(m: &MShader) -> Vec<u32> {
    let mut first = Vec::with_capacity(m.blocks.len());
    let mut k = 0u32;
    for b in &m.blocks {
        first.push(k);
        k += b.instrs.len() as u32 + 1;
    }
    first
}

/// Memory instructions read their sources after issue: keep those registers from being
/// reused by the instruction's own destination.
fn late_reader(op: &MOp) -> bool {
    matches!(
        op,
        MOp::Ibo { .. }
            | MOp::Local { .. }
            | MOp::LocalAtomic { .. }
            | MOp::Ldc { .. }
            | MOp::Resinfo { .. }
            | MOp::Tex { .. }
    )
}

fn live_sets(m: &MShader) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let n = m.vregs.len();
    let words = n.div_ceil(64);
    let nb = m.blocks.len();
    let mut uses = vec![vec![0u64; words]; nb];
    let mut defs = vec![vec![0u64; words]; nb];
    let set = |s: &mut Vec<u64>, v: VReg| s[v.0 as usize / 64] |= 1 << (v.0 % 64);
    let get = |s: &Vec<u64>, v: VReg| s[v.0 as usize / 64] & (1 << (v.0 % 64)) != 0;
    for (b, block) in m.blocks.iter().enumerate() {
        for op in &block.instrs {
            for u in op.uses() {
                if !get(&defs[b], u.0) {
                    set(&mut uses[b], u.0);
                }
            }
            for d in op.defs() {
                set(&mut defs[b], d.0);
            }
        }
        if let MTerm::Branch { cond, .. } = &block.term {
            if !get(&defs[b], cond.0) {
                set(&mut uses[b], cond.0);
            }
        }
    }
    let mut live_in = vec![vec![0u64; words]; nb];
    let mut live_out = vec![vec![0u64; words]; nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = vec![0u64; words];
            for s in m.successors(b) {
                for (o, i) in out.iter_mut().zip(&live_in[s]) {
                    *o |= i;
                }
            }
            let mut inn = out.clone();
            for w in 0..words {
                inn[w] = uses[b][w] | (out[w] & !defs[b][w]);
            }
            if inn != live_in[b] || out != live_out[b] {
                live_in[b] = inn;
                live_out[b] = out;
                changed = true;
            }
        }
    }
    (live_in, live_out)
}

fn intervals(m: &MShader) -> Vec<Option<Interval>> {
    let first = positions(m);
    let (live_in, live_out) = live_sets(m);
    let mut iv: Vec<Option<Interval>> = vec![None; m.vregs.len()];
    let touch = |v: VReg, p: u32, iv: &mut Vec<Option<Interval>>| {
        let e = &mut iv[v.0 as usize];
        match e {
            Some(i) => {
                i.start = i.start.min(p);
                i.end = i.end.max(p);
            }
            None => {
                *e = Some(Interval {
                    vreg: v,
                    start: p,
                    end: p,
                })
            }
        }
    };
    for (b, block) in m.blocks.iter().enumerate() {
        let k0 = first[b];
        let kend = k0 + block.instrs.len() as u32;
        for v in 0..m.vregs.len() {
            let bit = |s: &Vec<u64>| s[v / 64] & (1 << (v % 64)) != 0;
            if bit(&live_in[b]) {
                touch(VReg(v as u32), 2 * k0, &mut iv);
            }
            if bit(&live_out[b]) {
                touch(VReg(v as u32), 2 * kend + 1, &mut iv);
            }
        }
        for (i, op) in block.instrs.iter().enumerate() {
            let k = k0 + i as u32;
            let use_pos = if late_reader(op) { 2 * k + 1 } else { 2 * k };
            for u in op.uses() {
                touch(u.0, use_pos, &mut iv);
            }
            for d in op.defs() {
                touch(d.0, 2 * k + 1, &mut iv);
            }
        }
        if let MTerm::Branch { cond, .. } = &block.term {
            touch(cond.0, 2 * kend, &mut iv);
        }
    }
    iv
}

/// Last position at which each fixed input register is read.
fn fixed_ends(m: &MShader) -> Vec<(u8, u32)> {
    let first = positions(m);
    let mut ends: Vec<(u8, u32)> = Vec::new();
    for (b, block) in m.blocks.iter().enumerate() {
        for (i, op) in block.instrs.iter().enumerate() {
            if let MOp::Mov {
                src: MSrc::Fixed(r),
                ..
            } = op
            {
                let p = 2 * (first[b] + i as u32);
                match ends.iter_mut().find(|e| e.0 == *r) {
                    Some(e) => e.1 = e.1.max(p),
                    None => ends.push((*r, p)),
                }
            }
        }
    }
    ends
}

enum Outcome {
    Done(Vec<u32>),
    /// Values to spill before trying again (empty: nothing can be spilled).
    Spill(Vec<VReg>),
}

fn try_allocate(m: &MShader, no_spill: &[bool]) -> Outcome {
    let mut ivs: Vec<Interval> = intervals(m).into_iter().flatten().collect();
    ivs.sort_by_key(|i| (i.start, i.vreg.0));
    let mut owner: Vec<Option<(u32, VReg)>> = vec![None; FULL_SCALARS as usize];
    // Hardware-written inputs in the allocatable file stay put until last read.
    for (r, end) in fixed_ends(m) {
        if (r as u32) < FULL_SCALARS {
            owner[r as usize] = Some((end, VReg(u32::MAX)));
        }
    }
    let mut phys = vec![u32::MAX; m.vregs.len()];
    let mut victims: Vec<VReg> = Vec::new();
    for iv in &ivs {
        // Expire what ended before this interval starts.
        for o in owner.iter_mut() {
            if let Some((end, _)) = o {
                if *end < iv.start {
                    *o = None;
                }
            }
        }
        let info = m.info(iv.vreg);
        let size = info.size as usize;
        let limit = if info.half {
            HALF_SCALARS
        } else {
            FULL_SCALARS
        } as usize;
        loop {
            let found = (0..=limit.saturating_sub(size))
                .find(|&k| owner[k..k + size].iter().all(|o| o.is_none()));
            if let Some(k) = found {
                for o in &mut owner[k..k + size] {
                    *o = Some((iv.end, iv.vreg));
                }
                phys[iv.vreg.0 as usize] = k as u32;
                break;
            }
            // Spill the live single-scalar value that ends last (this one included) and
            // carry on, so that one round finds every value to spill.
            let mut best: Option<(u32, VReg)> = None;
            let candidates = owner
                .iter()
                .flatten()
                .copied()
                .chain(std::iter::once((iv.end, iv.vreg)));
            for (end, v) in candidates {
                if v.0 == u32::MAX
                    || no_spill.get(v.0 as usize).copied().unwrap_or(true)
                    || m.info(v).size != 1
                {
                    continue;
                }
                if best.is_none_or(|b| end > b.0) {
                    best = Some((end, v));
                }
            }
            let Some((_, v)) = best else {
                return Outcome::Spill(Vec::new());
            };
            victims.push(v);
            if v == iv.vreg {
                break;
            }
            for o in owner.iter_mut() {
                if o.is_some_and(|(_, w)| w == v) {
                    *o = None;
                }
            }
        }
    }
    if victims.is_empty() {
        Outcome::Done(phys)
    } else {
        Outcome::Spill(victims)
    }
}

/// Rewrites `v` to live in private memory at byte `slot`: each definition stores it,
/// each use reloads it into a short-lived register.
fn spill(m: &mut MShader, v: VReg, slot: u32, no_spill: &mut Vec<bool>) {
    let info = m.info(v);
    let ty = if info.half { Type::U16 } else { Type::U32 };
    let fresh = |m: &mut MShader, no_spill: &mut Vec<bool>| {
        let r = m.new_vreg(1, info.half);
        no_spill.resize(m.vregs.len(), false);
        no_spill[r.0 as usize] = true;
        r
    };
    let zero = |m: &mut MShader, no_spill: &mut Vec<bool>, out: &mut Vec<MOp>| {
        let z = m.new_vreg(1, false);
        no_spill.resize(m.vregs.len(), false);
        no_spill[z.0 as usize] = true;
        out.push(MOp::Mov {
            dst: z.into(),
            src: MSrc::Imm(0),
            src_type: Type::U32,
            dst_type: Type::U32,
            round: Round::Zero,
        });
        z
    };
    for b in 0..m.blocks.len() {
        let old = std::mem::take(&mut m.blocks[b].instrs);
        let mut out = Vec::with_capacity(old.len() + 4);
        for mut op in old {
            let reads = op.uses().iter().any(|c| c.0 == v);
            let writes = op.defs().iter().any(|c| c.0 == v);
            let mut t = None;
            if reads || writes {
                let r = fresh(m, no_spill);
                t = Some(r);
                if reads {
                    let z = zero(m, no_spill, &mut out);
                    out.push(MOp::Local {
                        op: Opcode::Ldp,
                        ty,
                        reg: r.into(),
                        addr: z.into(),
                        offset: slot as i32,
                    });
                }
                op.for_each_comp_mut(|c| {
                    if c.0 == v {
                        c.0 = r;
                    }
                });
            }
            out.push(op);
            if let (true, Some(r)) = (writes, t) {
                let z = zero(m, no_spill, &mut out);
                out.push(MOp::Local {
                    op: Opcode::Stp,
                    ty,
                    reg: r.into(),
                    addr: z.into(),
                    offset: slot as i32,
                });
            }
        }
        if let MTerm::Branch { cond, .. } = &mut m.blocks[b].term {
            if cond.0 == v {
                let r = fresh(m, no_spill);
                let z = zero(m, no_spill, &mut out);
                out.push(MOp::Local {
                    op: Opcode::Ldp,
                    ty,
                    reg: r.into(),
                    addr: z.into(),
                    offset: slot as i32,
                });
                if let MTerm::Branch { cond, .. } = &mut m.blocks[b].term {
                    cond.0 = r;
                }
            }
        }
        m.blocks[b].instrs = out;
    }
}

/// Allocates registers, spilling to private memory from byte `scratch_base` on.
pub fn allocate(m: &mut MShader, scratch_base: u32) -> Result<Allocation> {
    let mut no_spill = vec![false; m.vregs.len()];
    let mut spills = 0u32;
    let mut next_slot = scratch_base.next_multiple_of(4);
    loop {
        match try_allocate(m, &no_spill) {
            Outcome::Done(phys) => {
                return Ok(Allocation { phys, spills, spill_bytes: next_slot - scratch_base.next_multiple_of(4) })
            }
            Outcome::Spill(victims) if victims.is_empty() => {
                return Err(CompileError::new(
                    "register allocation failed: the values live at one point do not fit even after spilling",
                ))
            }
            Outcome::Spill(victims) => {
                for v in victims {
                    if !super::isel::fits_local_offset(next_slot as i64) {
                        return Err(CompileError::new("too many spilled values for ldp/stp's 13-bit offset"));
                    }
                    spill(m, v, next_slot, &mut no_spill);
                    next_slot += 4;
                    spills += 1;
                }
            }
        }
    }
}
