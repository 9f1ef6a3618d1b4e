//! Spilling to private memory: a spilled value is stored (`stp`) after each definition and
//! reloaded (`ldp`) into a short-lived register before each use.
//!
//! Every access addresses the spill area through one base register, set once at the start
//! of the shader and live throughout (Mesa's ir3_spill.c keeps such a base register too):
//! ldp/stp take a 13-bit signed immediate byte offset (freedreno's cat6 XML), so slots up
//! to 4095 bytes from the base are reached directly; for a slot farther away the access
//! forms its address in a register of its own first.
//!
//! Slots are reused: the values spilled together get slots by colouring their intervals,
//! so that two values never live at once share one.

use super::liveness::Interval;
use crate::backend::isel::fits_local_offset;
use crate::backend::mir::*;
use parsnip_isa::{Opcode, Round, Type};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The spill area of a shader: where it starts in the fiber's private memory, the base
/// register holding that address, and the bytes used so far.
pub struct SpillArea {
    pub start: u32,
    base: Option<VReg>,
    pub bytes: u32,
}

/// Bytes of one slot: a 32-bit value (or a 16-bit one, in the low half).
const SLOT_BYTES: u32 = 4;

impl SpillArea {
    pub fn new(start: u32) -> SpillArea {
        SpillArea {
            start: start.next_multiple_of(SLOT_BYTES),
            base: None,
            bytes: 0,
        }
    }

    /// Gives each of `victims` a byte offset from the start of the area, after the slots
    /// of earlier rounds: values whose intervals do not overlap share slots.
    pub fn assign(&mut self, victims: &[VReg], ivs: &[Option<Interval>]) -> HashMap<VReg, u32> {
        let mut order: Vec<Interval> = victims.iter().filter_map(|v| ivs[v.0 as usize]).collect();
        order.sort_by_key(|i| (i.start, i.vreg.0));
        // Slots in use (by the end of their interval) and slots free again, lowest first.
        let mut busy: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
        let mut free: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
        let mut slots = 0u32;
        let mut at = HashMap::new();
        for iv in order {
            while let Some(&Reverse((end, slot))) = busy.peek() {
                if end >= iv.start {
                    break;
                }
                busy.pop();
                free.push(Reverse(slot));
            }
            let slot = free.pop().map_or_else(
                || {
                    slots += 1;
                    slots - 1
                },
                |Reverse(s)| s,
            );
            busy.push(Reverse((iv.end, slot)));
            at.insert(iv.vreg, self.bytes + slot * SLOT_BYTES);
        }
        self.bytes += slots * SLOT_BYTES;
        at
    }

    /// The base register, made (and set at the start of the shader) on first use.
    fn base(&mut self, m: &mut MShader, no_spill: &mut Vec<bool>) -> VReg {
        if let Some(b) = self.base {
            return b;
        }
        let b = new_temp(m, no_spill, false);
        m.blocks[0].instrs.insert(0, mov_imm(b, self.start));
        self.base = Some(b);
        b
    }

    /// An `ldp`/`stp` of `reg` at byte `offset` of the area, with the instruction forming
    /// its address first when the offset does not fit the immediate.
    fn access(
        &self,
        m: &mut MShader,
        no_spill: &mut Vec<bool>,
        op: Opcode,
        reg: VReg,
        offset: u32,
        out: &mut Vec<MOp>,
    ) {
        let ty = if m.info(reg).half {
            Type::U16
        } else {
            Type::U32
        };
        let base = self
            .base
            .expect("the base register exists before any access");
        let (addr, offset) = if fits_local_offset(offset as i64) {
            (base, offset as i32)
        } else {
            let near = offset % 4096;
            let a = new_temp(m, no_spill, false);
            out.push(mov_imm(a, self.start + offset - near));
            (a, near as i32)
        };
        out.push(MOp::Local {
            op,
            ty,
            reg: reg.into(),
            addr: addr.into(),
            offset,
        });
    }

    /// Rewrites every value of `slots` to live in private memory, in one pass.
    pub fn rewrite(
        &mut self,
        m: &mut MShader,
        slots: &HashMap<VReg, u32>,
        no_spill: &mut Vec<bool>,
    ) {
        if slots.is_empty() {
            return;
        }
        self.base(m, no_spill);
        for b in 0..m.blocks.len() {
            let old = std::mem::take(&mut m.blocks[b].instrs);
            let mut out = Vec::with_capacity(old.len() + old.len() / 4);
            for mut op in old {
                let mut renamed: Vec<(VReg, VReg)> = Vec::new();
                for c in op.uses() {
                    if let Some(&at) = slots.get(&c.0) {
                        if !renamed.iter().any(|r| r.0 == c.0) {
                            let t = new_temp(m, no_spill, m.info(c.0).half);
                            self.access(m, no_spill, Opcode::Ldp, t, at, &mut out);
                            renamed.push((c.0, t));
                        }
                    }
                }
                let mut stores: Vec<(VReg, u32)> = Vec::new();
                for c in op.defs() {
                    if let Some(&at) = slots.get(&c.0) {
                        let t = match renamed.iter().find(|r| r.0 == c.0) {
                            Some(r) => r.1,
                            None => {
                                let t = new_temp(m, no_spill, m.info(c.0).half);
                                renamed.push((c.0, t));
                                t
                            }
                        };
                        if !stores.iter().any(|s| s.0 == t) {
                            stores.push((t, at));
                        }
                    }
                }
                if !renamed.is_empty() {
                    op.for_each_comp_mut(|c| {
                        if let Some(r) = renamed.iter().find(|r| r.0 == c.0) {
                            c.0 = r.1;
                        }
                    });
                }
                out.push(op);
                for (t, at) in stores {
                    self.access(m, no_spill, Opcode::Stp, t, at, &mut out);
                }
            }
            if let MTerm::Branch { cond, .. } = m.blocks[b].term {
                if let Some(&at) = slots.get(&cond.0) {
                    let t = new_temp(m, no_spill, m.info(cond.0).half);
                    self.access(m, no_spill, Opcode::Ldp, t, at, &mut out);
                    if let MTerm::Branch { cond, .. } = &mut m.blocks[b].term {
                        cond.0 = t;
                    }
                }
            }
            m.blocks[b].instrs = out;
        }
    }
}

/// A register for one spill access, never spilled itself.
fn new_temp(m: &mut MShader, no_spill: &mut Vec<bool>, half: bool) -> VReg {
    let r = m.new_vreg(1, half);
    no_spill.resize(m.vregs.len(), false);
    no_spill[r.0 as usize] = true;
    r
}

fn mov_imm(dst: VReg, value: u32) -> MOp {
    MOp::Mov {
        dst: dst.into(),
        src: MSrc::Imm(value as i32),
        src_type: Type::U32,
        dst_type: Type::U32,
        round: Round::Zero,
    }
}
