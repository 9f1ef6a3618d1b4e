//! Legalisation: lays the blocks out, turns terminators into `br`/`jump`/`end`, and makes
//! the program obey the hardware's timing rules, which ir3 leaves to the compiler:
//! - an ALU result may be read by an ALU instruction only after `alu_to_alu` cycles, and
//!   by a flow, SFU, texture or memory instruction after `alu_to_non_alu` (Mesa's
//!   ir3_delay.c; the numbers per generation come from the [`ShaderModel`]); a `mad`
//!   reads its third source later, so that source may come sooner;
//! - SFU results and shared-memory loads are waited for with `(ss)`; texture, buffer,
//!   private-memory and const-file loads with `(sy)`; a register that a texture or memory
//!   instruction reads asynchronously is overwritten only after `(ss)` (Mesa's
//!   ir3_legalize.c needs_ss / needs_sy / needs_ss_war);
//! - cat5 and cat6 have no `(ss)` bit, so a nop carries it for them;
//! - `(jp)` marks every block a branch can land on or that more than one predecessor
//!   reaches: the points where diverged fibers may meet again (Mesa MR 1318).
//!
//! The state flowing out of each block is merged into its successors until it no longer
//! changes, so loops are handled.

use super::mir::*;
use super::ra::Allocation;
use super::subgroup_macro;
use crate::target::ShaderModel;
use parsnip_isa::{Latency, Opcode};
use std::collections::{BTreeMap, BTreeSet};

/// One instruction of the laid-out program.
#[derive(Clone, Debug, PartialEq)]
pub enum LOp {
    M(MOp),
    /// The instruction again with `.p`: a fine derivative (`dsxpp.1`/`dsypp.1`) is the
    /// pair of the two, one after the other with nothing between (ir3_legalize.c's
    /// expansion of its fine derivative macros).
    WithP(MOp),
    /// `cmps.u.ne p0.x, cond, 0`, before a branch.
    SetP0(Comp),
    /// The compare computing the branch condition, writing p0.x instead of a register.
    CmpP0(MOp),
    /// `br p0.x` (or `br !p0.x`) to a block.
    Br {
        target: usize,
        inv: bool,
    },
    Jump {
        target: usize,
    },
    End,
    /// `kill p0.x`.
    Kill,
    /// `(rptN)nop`: `repeat + 1` cycles.
    Nop {
        repeat: u8,
    },
    /// An instruction of a written-out subgroup macro, on physical registers, its
    /// branches relative within the macro.
    Raw(parsnip_isa::Op),
}

#[derive(Clone, Debug, PartialEq)]
pub struct LInstr {
    pub op: LOp,
    pub ss: bool,
    pub sy: bool,
    pub jp: bool,
}

/// Register identities for hazard tracking: full scalars (and the fixed inputs, which are
/// scalars too), and p0.x.
const P0: u32 = 0x1000;

#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    /// Cycles still to wait before an ALU (.0) or other (.1) instruction may read the
    /// register, and whether it was written as a half register.
    delay: BTreeMap<u32, (u32, u32, bool)>,
    ss: BTreeSet<u32>,
    sy: BTreeSet<u32>,
    war: BTreeSet<u32>,
}

impl State {
    fn merge(&mut self, o: &State) {
        for (r, d) in &o.delay {
            let e = self.delay.entry(*r).or_insert(*d);
            e.0 = e.0.max(d.0);
            e.1 = e.1.max(d.1);
        }
        self.ss.extend(o.ss.iter().copied());
        self.sy.extend(o.sy.iter().copied());
        self.war.extend(o.war.iter().copied());
    }

    fn advance(&mut self, cycles: u32) {
        self.delay.retain(|_, d| {
            d.0 = d.0.saturating_sub(cycles);
            d.1 = d.1.saturating_sub(cycles);
            d.0 > 0 || d.1 > 0
        });
    }
}

/// Physical scalar of a component.
pub fn scalar(alloc: &Allocation, c: Comp) -> u32 {
    alloc.phys[c.0 .0 as usize] + c.1 as u32
}

/// (register, read as half, source index) of everything an instruction reads.
fn reads(op: &LOp, m: &MShader, alloc: &Allocation) -> Vec<(u32, bool, usize)> {
    let half = |c: Comp| m.info(c.0).half;
    match op {
        LOp::M(mop) => {
            let mut r: Vec<(u32, bool, usize)> = mop
                .uses()
                .iter()
                .enumerate()
                .map(|(i, c)| (scalar(alloc, *c), half(*c), i))
                .collect();
            let fixed = match mop {
                MOp::Mov {
                    src: MSrc::Fixed(f),
                    ..
                } => Some(*f),
                MOp::Alu { srcs, .. } => srcs.iter().find_map(|(s, _)| match s {
                    MSrc::Fixed(f) => Some(*f),
                    _ => None,
                }),
                _ => None,
            };
            if let Some(f) = fixed {
                r.push((f as u32, false, 0));
            }
            r
        }
        LOp::SetP0(c) => vec![(scalar(alloc, *c), half(*c), 0)],
        LOp::CmpP0(op) => op
            .uses()
            .iter()
            .enumerate()
            .map(|(i, c)| (scalar(alloc, *c), half(*c), i))
            .collect(),
        LOp::Br { .. } | LOp::Kill => vec![(P0, false, 0)],
        // The second half of a pair the first half synchronised for: nothing may come
        // between them, not even a sync (ir3_legalize.c), so it adds no hazard.
        LOp::WithP(_) => Vec::new(),
        // The hardware reads the outputs when the shader ends.
        LOp::End => m
            .outputs
            .iter()
            .flat_map(|&o| (0..m.info(o).size).map(move |k| (scalar(alloc, Comp(o, k)), false, 0)))
            .collect(),
        _ => Vec::new(),
    }
}

fn writes(op: &LOp, m: &MShader, alloc: &Allocation) -> Vec<(u32, bool)> {
    match op {
        LOp::M(mop) => mop
            .defs()
            .iter()
            .map(|c| (scalar(alloc, *c), m.info(c.0).half))
            .collect(),
        LOp::SetP0(_) | LOp::CmpP0(_) => vec![(P0, false)],
        _ => Vec::new(),
    }
}

fn category(op: &LOp) -> u8 {
    match op {
        LOp::M(m) | LOp::WithP(m) => m.opcode().cat(),
        LOp::SetP0(_) | LOp::CmpP0(_) => 2,
        _ => 0,
    }
}

/// Lays out `m` and applies the timing rules; also returns where each block starts.
pub fn legalize(
    m: &MShader,
    alloc: &Allocation,
    model: &dyn ShaderModel,
) -> (Vec<LInstr>, Vec<usize>) {
    let nb = m.blocks.len();
    // Layout: blocks in order; terminators become flow instructions.
    let mut body: Vec<Vec<LOp>> = Vec::with_capacity(nb);
    let mut targets = vec![false; nb];
    let mut preds = vec![Vec::new(); nb];
    // Uses of each value, by instructions and by branches.
    let mut use_counts = vec![0u32; m.vregs.len()];
    for block in &m.blocks {
        for op in &block.instrs {
            for u in op.uses() {
                use_counts[u.0 .0 as usize] += 1;
            }
        }
        if let MTerm::Branch { cond, .. } = &block.term {
            use_counts[cond.0 .0 as usize] += 1;
        }
    }
    for (b, block) in m.blocks.iter().enumerate() {
        // A move of a register onto itself (an input already where it was allocated) does
        // nothing.
        let self_move = |op: &MOp| match op {
            MOp::Mov {
                dst,
                src: MSrc::Reg(s),
                src_type,
                dst_type,
                ..
            } => {
                src_type == dst_type
                    && scalar(alloc, *dst) == scalar(alloc, *s)
                    && m.info(dst.0).half == m.info(s.0).half
            }
            MOp::Mov {
                dst,
                src: MSrc::Fixed(f),
                src_type,
                dst_type,
                ..
            } => src_type == dst_type && !m.info(dst.0).half && scalar(alloc, *dst) == *f as u32,
            _ => false,
        };
        let mut ops: Vec<LOp> = block
            .instrs
            .iter()
            .filter(|op| !self_move(op))
            .flat_map(|op| match op {
                // kill reads its condition from p0.x.
                MOp::Kill { cond } => vec![LOp::SetP0(*cond), LOp::Kill],
                MOp::Tex {
                    op: Opcode::Dsxpp1 | Opcode::Dsypp1,
                    ..
                } => vec![LOp::M(op.clone()), LOp::WithP(op.clone())],
                op => vec![LOp::M(op.clone())],
            })
            .collect();
        match &block.term {
            MTerm::Jump(t) => {
                if *t != b + 1 {
                    ops.push(LOp::Jump { target: *t });
                    targets[*t] = true;
                }
                preds[*t].push(b);
            }
            MTerm::Branch {
                cond,
                then_block,
                else_block,
            } => {
                // When the block ends with the compare that computes the condition and
                // nothing else reads it, the compare writes p0.x itself.
                let only_use = use_counts[cond.0 .0 as usize] == 1;
                let cmp_last = match ops.last() {
                    Some(LOp::M(
                        op @ MOp::Alu {
                            op: Opcode::CmpsU | Opcode::CmpsS | Opcode::CmpsF,
                            dst,
                            ..
                        },
                    )) => (*dst == *cond).then(|| op.clone()),
                    _ => None,
                };
                match cmp_last {
                    Some(op) if only_use => {
                        ops.pop();
                        ops.push(LOp::CmpP0(op));
                    }
                    _ => ops.push(LOp::SetP0(*cond)),
                }
                if *then_block == b + 1 {
                    ops.push(LOp::Br {
                        target: *else_block,
                        inv: true,
                    });
                    targets[*else_block] = true;
                } else {
                    ops.push(LOp::Br {
                        target: *then_block,
                        inv: false,
                    });
                    targets[*then_block] = true;
                    if *else_block != b + 1 {
                        ops.push(LOp::Jump {
                            target: *else_block,
                        });
                        targets[*else_block] = true;
                    }
                }
                preds[*then_block].push(b);
                preds[*else_block].push(b);
            }
            MTerm::End => ops.push(LOp::End),
        }
        body.push(ops);
    }
    for b in 0..nb {
        // A block that is only a fall-through still needs an instruction to carry (jp).
        if body[b].is_empty() && (targets[b] || preds[b].len() > 1) {
            body[b].push(LOp::Nop { repeat: 0 });
        }
    }
    let jp: Vec<bool> = (0..nb).map(|b| targets[b] || preds[b].len() > 1).collect();

    let alu = model.alu_to_alu_delay();
    let non_alu = model.alu_to_non_alu_delay();
    let mut out_states: Vec<Option<State>> = vec![None; nb];
    let mut result = Vec::new();
    let mut starts = vec![0usize; nb];
    for _round in 0..16 {
        let mut changed = false;
        result.clear();
        for b in 0..nb {
            starts[b] = result.len();
            let mut st = State::default();
            for &p in &preds[b] {
                if let Some(s) = &out_states[p] {
                    st.merge(s);
                }
            }
            let mut first = true;
            for op in &body[b] {
                let rd = reads(op, m, alloc);
                let wr = writes(op, m, alloc);
                let cat = category(op);
                let barrier = matches!(op, LOp::M(MOp::Barrier { .. }));
                let mut need_ss = barrier
                    || rd.iter().any(|r| st.ss.contains(&r.0))
                    || wr
                        .iter()
                        .any(|w| st.war.contains(&w.0) || st.ss.contains(&w.0));
                let need_sy = barrier
                    || rd.iter().any(|r| st.sy.contains(&r.0))
                    || wr.iter().any(|w| st.sy.contains(&w.0));
                // Cycles to wait for ALU results.
                let consumer_alu = matches!(cat, 1..=3);
                let mut wait = 0;
                for (r, half, idx) in &rd {
                    if let Some(&(a, n, whalf)) = st.delay.get(r) {
                        let mut d = if consumer_alu { a } else { n };
                        if consumer_alu && whalf != *half {
                            d += model.half_full_mismatch_penalty();
                        }
                        if let LOp::M(MOp::Alu { op, .. }) = op {
                            if op.cat() == 3 && *idx == 2 {
                                d = d.saturating_sub(model.cat3_src2_read_delay());
                            }
                        }
                        wait = wait.max(d);
                    }
                }
                // Outputs need their (ss)/(sy) before `end` but no ALU delay: ir3 ends on
                // the instruction writing the last output (triangle.ir3-stderr.txt).
                if matches!(op, LOp::End) {
                    wait = 0;
                }
                let mut emit = |i: LInstr, st: &mut State, first: &mut bool| {
                    let mut i = i;
                    if *first && jp[b] {
                        i.jp = true;
                    }
                    *first = false;
                    let cycles = match i.op {
                        LOp::Nop { repeat } => repeat as u32 + 1,
                        _ => 1,
                    };
                    result.push(i);
                    st.advance(cycles);
                };
                // cat5/cat6 have no (ss) bit: a nop carries it.
                if need_ss && matches!(cat, 5 | 6) {
                    emit(
                        LInstr {
                            op: LOp::Nop { repeat: 0 },
                            ss: true,
                            sy: false,
                            jp: false,
                        },
                        &mut st,
                        &mut first,
                    );
                    st.ss.clear();
                    st.war.clear();
                    need_ss = false;
                    wait = wait.saturating_sub(1);
                }
                while wait > 0 {
                    let n = wait.min(8);
                    emit(
                        LInstr {
                            op: LOp::Nop {
                                repeat: (n - 1) as u8,
                            },
                            ss: false,
                            sy: false,
                            jp: false,
                        },
                        &mut st,
                        &mut first,
                    );
                    wait -= n;
                }
                if need_ss {
                    st.ss.clear();
                    st.war.clear();
                }
                if need_sy {
                    st.sy.clear();
                }
                match op {
                    LOp::M(MOp::SubgroupMacro { kind, dst, src }) => {
                        let code = subgroup_macro::expand(
                            *kind,
                            scalar(alloc, *dst) as u8,
                            src.map(|s| scalar(alloc, s) as u8),
                            model,
                        );
                        for (i, mi) in code.into_iter().enumerate() {
                            emit(
                                LInstr {
                                    op: LOp::Raw(mi.op),
                                    ss: need_ss && i == 0,
                                    sy: need_sy && i == 0,
                                    jp: mi.jp,
                                },
                                &mut st,
                                &mut first,
                            );
                        }
                    }
                    _ => emit(
                        LInstr {
                            op: op.clone(),
                            ss: need_ss,
                            sy: need_sy,
                            jp: false,
                        },
                        &mut st,
                        &mut first,
                    ),
                }
                // What this instruction leaves pending.
                for (w, half) in &wr {
                    st.ss.remove(w);
                    st.sy.remove(w);
                    st.delay.remove(w);
                    if let LOp::M(mop) = op {
                        let opc = mop.opcode();
                        match opc.info().latency {
                            Latency::Alu => {
                                st.delay.insert(*w, (alu, non_alu, *half));
                            }
                            Latency::Sfu => {
                                st.ss.insert(*w);
                            }
                            _ if super::sched::produces_ss(opc) => {
                                st.ss.insert(*w);
                            }
                            _ if matches!(mop, MOp::LocalAtomic { .. }) => {
                                st.ss.insert(*w);
                                st.sy.insert(*w);
                            }
                            _ => {
                                st.sy.insert(*w);
                            }
                        }
                    } else {
                        st.delay.insert(*w, (alu, non_alu, *half));
                    }
                }
                if matches!(cat, 5 | 6) {
                    for (r, _, _) in &rd {
                        st.war.insert(*r);
                    }
                }
            }
            if out_states[b].as_ref() != Some(&st) {
                out_states[b] = Some(st);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (result, starts)
}

/// Whether an opcode is a nop for statistics.
pub fn is_nop(op: &LOp) -> bool {
    matches!(op, LOp::Nop { .. })
}

/// The opcode of a laid-out instruction.
pub fn opcode(op: &LOp) -> Opcode {
    match op {
        LOp::M(m) | LOp::WithP(m) => m.opcode(),
        LOp::SetP0(_) => Opcode::CmpsU,
        LOp::CmpP0(op) => op.opcode(),
        LOp::Br { .. } => Opcode::Br,
        LOp::Jump { .. } => Opcode::Jump,
        LOp::End => Opcode::End,
        LOp::Kill => Opcode::Kill,
        LOp::Nop { .. } => Opcode::Nop,
        LOp::Raw(op) => parsnip_isa::Instr::new(op.clone()).opcode(),
    }
}
