//! Pre-allocation scheduling, one block at a time: a list scheduler over the block's
//! dependency graph that issues, at each cycle, the ready instruction with the longest
//! latency-weighted path to the block's end, so that the delay slots after ALU results
//! and the waits on SFU and memory results are filled with independent work instead of
//! nops. Correctness never depends on it: the legaliser inserts whatever waits remain.
//!
//! Filling delay slots moves independent work up, and each value computed early is one
//! more register live: a chain of multiply-adds whose constants were all hoisted ahead of
//! it spilled at 14 live values. So the scheduler counts the scalars live as it goes and,
//! once the next pick would take them past a target (the footprint at which the SP still
//! holds its most waves, `backend::occupancy`), issues instead the instruction that adds
//! the fewest, waiting if it must; and it only looks `WINDOW` instructions ahead.

use super::mir::*;
use crate::target::ShaderModel;
use parsnip_isa::{Latency, Opcode};
use smallvec::SmallVec;
use std::collections::HashMap;

/// Cycles until a result can be read, as the scheduler estimates them. ALU latencies are
/// the generation's delay slots; SFU and memory results arrive asynchronously ((ss)/(sy)),
/// so these are estimates chosen to hide typical latencies.
fn latency(op: &MOp, model: &dyn ShaderModel) -> u32 {
    match op.opcode().info().latency {
        Latency::Alu => model.alu_to_alu_delay() + 1,
        Latency::Sfu => 10,
        Latency::Texture | Latency::Memory => 20,
        Latency::Flow | Latency::Barrier => 1,
    }
}

fn is_memory(op: &MOp) -> bool {
    matches!(
        op,
        MOp::Ibo { .. }
            | MOp::Local { .. }
            | MOp::Global { .. }
            | MOp::GlobalAtomic { .. }
            | MOp::LocalAtomic { .. }
            | MOp::Barrier { .. }
            | MOp::Kill { .. }
            | MOp::Resinfo { .. }
            | MOp::Tex { .. }
    )
}

/// Instructions the scheduler may choose from: those among the next `WINDOW` of the block
/// in program order. Bounding how far an instruction moves up bounds the registers the
/// schedule can add to the program's, and keeps scheduling linear in the block's length.
const WINDOW: usize = 64;

/// Where a virtual register is referenced: only in one block (and not by its terminator),
/// so that its last use there frees its register, or elsewhere too.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Home {
    Unused,
    Block(usize),
    Shared,
}

fn homes(m: &MShader) -> Vec<Home> {
    let mut home = vec![Home::Unused; m.vregs.len()];
    let mut note = |v: VReg, b: usize| {
        let h = &mut home[v.0 as usize];
        *h = match *h {
            Home::Unused => Home::Block(b),
            Home::Block(x) if x == b => Home::Block(b),
            _ => Home::Shared,
        };
    };
    for (b, block) in m.blocks.iter().enumerate() {
        for op in &block.instrs {
            for c in op.uses().iter().chain(op.defs().iter()) {
                note(c.0, b);
            }
        }
    }
    for block in &m.blocks {
        if let MTerm::Branch { cond, .. } = block.term {
            home[cond.0 .0 as usize] = Home::Shared;
        }
    }
    home
}

/// Reorders the instructions of every block, keeping the values live at once within
/// `target` scalars where the block allows.
pub fn schedule(m: &mut MShader, model: &dyn ShaderModel, target: u32) {
    let home = homes(m);
    for b in 0..m.blocks.len() {
        let last = match m.blocks[b].term {
            MTerm::Branch { cond, .. } => Some(cond.0),
            _ => None,
        };
        let instrs = std::mem::take(&mut m.blocks[b].instrs);
        let ctx = Pressure {
            vregs: &m.vregs,
            home: &home,
            block: b,
            target,
        };
        m.blocks[b].instrs = schedule_block(instrs, model, last, &ctx);
    }
}

/// What the scheduler needs to count registers.
struct Pressure<'a> {
    vregs: &'a [VRegInfo],
    home: &'a [Home],
    block: usize,
    target: u32,
}

impl Pressure<'_> {
    fn size(&self, v: VReg) -> i32 {
        i32::from(self.vregs[v.0 as usize].size)
    }
    fn local(&self, v: VReg) -> bool {
        self.home[v.0 as usize] == Home::Block(self.block)
    }
}

/// Distinct virtual registers of a list of components.
fn distinct<I: IntoIterator<Item = Comp>>(comps: I) -> SmallVec<[VReg; 4]> {
    let mut v: SmallVec<[VReg; 4]> = SmallVec::new();
    for c in comps {
        if !v.contains(&c.0) {
            v.push(c.0);
        }
    }
    v
}

/// `last`: the branch condition, whose compare goes last so that the legaliser can make
/// it write p0 directly.
fn schedule_block(
    mut instrs: Vec<MOp>,
    model: &dyn ShaderModel,
    last: Option<VReg>,
    pressure: &Pressure,
) -> Vec<MOp> {
    // The compare computing the branch condition, when nothing else in the block reads
    // it, is set aside and put back at the end.
    let mut tail = None;
    if let Some(c) = last {
        let def = instrs
            .iter()
            .rposition(|op| op.defs().iter().any(|d| d.0 == c));
        let used = instrs.iter().any(|op| op.uses().iter().any(|u| u.0 == c));
        if let (Some(d), false) = (def, used) {
            let is_cmp = matches!(
                instrs[d],
                MOp::Alu {
                    op: Opcode::CmpsU | Opcode::CmpsS | Opcode::CmpsF,
                    ..
                }
            );
            // Only a compare no later instruction writes over the sources of.
            let srcs = distinct(instrs[d].uses());
            let clobbered = instrs[d + 1..]
                .iter()
                .any(|op| op.defs().iter().any(|x| srcs.contains(&x.0)));
            if is_cmp && !clobbered {
                tail = Some(instrs.remove(d));
            }
        }
    }
    let n = instrs.len();
    if n < 2 {
        instrs.extend(tail);
        return instrs;
    }
    // Edges (from, to, delay), always from an earlier instruction to a later one.
    let mut preds: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
    let mut last_def: HashMap<VReg, usize> = HashMap::new();
    let mut uses_since_def: HashMap<VReg, Vec<usize>> = HashMap::new();
    let mut last_side_effect: Option<usize> = None;
    let mut mem_since_side_effect: Vec<usize> = Vec::new();
    let is_input = |o: &MOp| {
        matches!(
            o,
            MOp::Mov {
                src: MSrc::Fixed(_),
                ..
            }
        )
    };
    let mut non_inputs: Vec<usize> = Vec::new();
    for (i, op) in instrs.iter().enumerate() {
        for u in op.uses() {
            if let Some(&d) = last_def.get(&u.0) {
                preds[i].push((d, latency(&instrs[d], model)));
            }
            uses_since_def.entry(u.0).or_default().push(i);
        }
        for d in op.defs() {
            // Keep writes after earlier reads and writes of the same register.
            if let Some(&p) = last_def.get(&d.0) {
                preds[i].push((p, 1));
            }
            for &r in uses_since_def
                .get(&d.0)
                .map(|v| v.as_slice())
                .unwrap_or(&[])
            {
                if r != i {
                    preds[i].push((r, 1));
                }
            }
        }
        for d in op.defs() {
            last_def.insert(d.0, i);
            uses_since_def.insert(d.0, Vec::new());
        }
        // Reading the hardware's input registers stays ahead of everything else.
        if is_input(op) {
            for &j in &non_inputs {
                preds[i].push((j, 0));
            }
        } else {
            non_inputs.push(i);
        }
        if is_memory(op) {
            if op.has_side_effects() {
                for &j in &mem_since_side_effect {
                    preds[i].push((j, 1));
                }
                if let Some(j) = last_side_effect {
                    preds[i].push((j, 1));
                }
                last_side_effect = Some(i);
                mem_since_side_effect.clear();
            } else {
                if let Some(j) = last_side_effect {
                    preds[i].push((j, 1));
                }
                mem_since_side_effect.push(i);
            }
        }
    }
    // Priority: the longest delay-weighted path to the end of the block.
    let mut succs: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
    for (i, ps) in preds.iter().enumerate() {
        for &(p, d) in ps {
            succs[p].push((i, d));
        }
    }
    let mut prio = vec![0u32; n];
    for i in (0..n).rev() {
        prio[i] = succs[i]
            .iter()
            .map(|&(s, d)| prio[s] + d)
            .max()
            .unwrap_or(0)
            + 1;
    }

    // Register pressure: unscheduled readers of each value in the block, and the scalars
    // live now (values coming from other blocks counted as live throughout).
    let reads: Vec<SmallVec<[VReg; 4]>> = instrs.iter().map(|op| distinct(op.uses())).collect();
    let writes: Vec<SmallVec<[VReg; 4]>> = instrs.iter().map(|op| distinct(op.defs())).collect();
    let mut readers: HashMap<VReg, u32> = HashMap::new();
    for r in &reads {
        for v in r {
            *readers.entry(*v).or_default() += 1;
        }
    }
    let mut defined: HashMap<VReg, bool> = HashMap::new();
    for w in &writes {
        for v in w {
            defined.insert(*v, false);
        }
    }
    let mut live: i32 = readers
        .keys()
        .filter(|v| !defined.contains_key(v))
        .map(|v| pressure.size(*v))
        .sum();
    // What scheduling `i` now changes the count by.
    let delta = |i: usize, readers: &HashMap<VReg, u32>, defined: &HashMap<VReg, bool>| {
        let mut d = 0i32;
        for v in &writes[i] {
            let live_after = readers.get(v).copied().unwrap_or(0) > 0 || !pressure.local(*v);
            if !defined[v] && live_after {
                d += pressure.size(*v);
            }
        }
        for v in &reads[i] {
            if pressure.local(*v) && readers[v] == 1 && defined.contains_key(v) {
                d -= pressure.size(*v);
            }
        }
        d
    };

    let mut remaining: Vec<usize> = preds.iter().map(|p| p.len()).collect();
    let mut ready_at = vec![0u32; n];
    let mut done = vec![false; n];
    let mut window_end = WINDOW.min(n);
    let mut ready: Vec<usize> = (0..window_end).filter(|&i| remaining[i] == 0).collect();
    let mut lowest = 0usize;
    let mut order = Vec::with_capacity(n);
    let mut cycle = 0u32;
    let target = pressure.target as i32;
    while !ready.is_empty() {
        // Among instructions whose operands are ready now, the highest priority; if none
        // is, the one that becomes ready first. Ties go to program order.
        let by_latency = ready
            .iter()
            .copied()
            .filter(|&i| ready_at[i] <= cycle)
            .max_by_key(|&i| (prio[i], std::cmp::Reverse(i)))
            .or_else(|| ready.iter().copied().min_by_key(|&i| (ready_at[i], i)))
            .expect("ready is not empty");
        // Past the target, the instruction that adds the fewest live values instead,
        // even if it must wait.
        let pick = if live + delta(by_latency, &readers, &defined) <= target {
            by_latency
        } else {
            ready
                .iter()
                .copied()
                .min_by_key(|&i| {
                    (
                        delta(i, &readers, &defined),
                        ready_at[i].max(cycle),
                        std::cmp::Reverse(prio[i]),
                        i,
                    )
                })
                .expect("ready is not empty")
        };
        live += delta(pick, &readers, &defined);
        for v in &reads[pick] {
            if let Some(r) = readers.get_mut(v) {
                *r -= 1;
            }
        }
        for v in &writes[pick] {
            defined.insert(*v, true);
        }
        ready.retain(|&i| i != pick);
        done[pick] = true;
        cycle = cycle.max(ready_at[pick]) + 1;
        order.push(pick);
        for &(s, d) in &succs[pick] {
            ready_at[s] = ready_at[s].max(cycle - 1 + d);
            remaining[s] -= 1;
            if remaining[s] == 0 && s < window_end {
                ready.push(s);
            }
        }
        while lowest < n && done[lowest] {
            lowest += 1;
        }
        let new_end = (lowest + WINDOW).min(n);
        ready.extend((window_end..new_end).filter(|&j| remaining[j] == 0));
        window_end = new_end;
    }
    debug_assert_eq!(order.len(), n, "the dependency graph of a block is acyclic");
    let mut slots: Vec<Option<MOp>> = instrs.into_iter().map(Some).collect();
    let mut out: Vec<MOp> = order
        .into_iter()
        .map(|i| slots[i].take().expect("each instruction once"))
        .collect();
    out.extend(tail);
    out
}

/// Whether an opcode's result is waited for with (ss) (SFU, and shared-memory loads).
pub fn produces_ss(op: Opcode) -> bool {
    op.info().latency == Latency::Sfu || matches!(op, Opcode::Ldl | Opcode::Ldlw | Opcode::Ldlv)
}
