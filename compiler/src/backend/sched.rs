//! Pre-allocation scheduling, one block at a time: a list scheduler over the block's
//! dependency graph that issues, at each cycle, the ready instruction with the longest
//! latency-weighted path to the block's end, so that the delay slots after ALU results
//! and the waits on SFU and memory results are filled with independent work instead of
//! nops. Correctness never depends on it: the legaliser inserts whatever waits remain.

use super::mir::*;
use crate::target::ShaderModel;
use parsnip_isa::{Latency, Opcode};
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
            | MOp::LocalAtomic { .. }
            | MOp::Barrier { .. }
            | MOp::Resinfo { .. }
            | MOp::Tex { .. }
    )
}

/// Reorders the instructions of every block.
pub fn schedule(m: &mut MShader, model: &dyn ShaderModel) {
    for b in 0..m.blocks.len() {
        let last = match m.blocks[b].term {
            MTerm::Branch { cond, .. } => Some(cond.0),
            _ => None,
        };
        let instrs = std::mem::take(&mut m.blocks[b].instrs);
        m.blocks[b].instrs = schedule_block(instrs, model, last);
    }
}

/// `last`: the branch condition, whose compare goes last so that the legaliser can make
/// it write p0 directly.
fn schedule_block(instrs: Vec<MOp>, model: &dyn ShaderModel, last: Option<VReg>) -> Vec<MOp> {
    let n = instrs.len();
    if n < 2 {
        return instrs;
    }
    // Edges (from, to, delay).
    let mut preds: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
    let mut last_def: HashMap<VReg, usize> = HashMap::new();
    let mut uses_since_def: HashMap<VReg, Vec<usize>> = HashMap::new();
    let mut last_side_effect: Option<usize> = None;
    let mut mem_since_side_effect: Vec<usize> = Vec::new();
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
        // Reading the hardware's input registers stays first.
        if let MOp::Mov {
            src: MSrc::Fixed(_),
            ..
        } = op
        {
            let is_input = |o: &MOp| {
                matches!(
                    o,
                    MOp::Mov {
                        src: MSrc::Fixed(_),
                        ..
                    }
                )
            };
            for (j, other) in instrs[..i].iter().enumerate() {
                if !is_input(other) {
                    preds[i].push((j, 0));
                }
            }
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
    if let Some(c) = last {
        let is_cmp = |op: &MOp| {
            matches!(
                op,
                MOp::Alu {
                    op: Opcode::CmpsU | Opcode::CmpsS | Opcode::CmpsF,
                    ..
                }
            )
        };
        let def = instrs
            .iter()
            .rposition(|op| op.defs().iter().any(|d| d.0 == c));
        let used = instrs.iter().any(|op| op.uses().iter().any(|u| u.0 == c));
        if let (Some(d), false) = (def, used) {
            if is_cmp(&instrs[d]) {
                for j in 0..n {
                    if j != d && !preds[j].iter().any(|p| p.0 == d) {
                        preds[d].push((j, 0));
                    }
                }
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
    let mut remaining: Vec<usize> = preds.iter().map(|p| p.len()).collect();
    let mut ready_at = vec![0u32; n];
    let mut ready: Vec<usize> = (0..n).filter(|&i| remaining[i] == 0).collect();
    let mut order = Vec::with_capacity(n);
    let mut cycle = 0u32;
    while !ready.is_empty() {
        // Among instructions whose operands are ready now, the highest priority; if none
        // is, the one that becomes ready first. Ties go to program order.
        let pick = ready
            .iter()
            .copied()
            .filter(|&i| ready_at[i] <= cycle)
            .max_by_key(|&i| (prio[i], std::cmp::Reverse(i)))
            .or_else(|| ready.iter().copied().min_by_key(|&i| (ready_at[i], i)))
            .expect("ready is not empty");
        ready.retain(|&i| i != pick);
        cycle = cycle.max(ready_at[pick]) + 1;
        order.push(pick);
        for &(s, d) in &succs[pick] {
            ready_at[s] = ready_at[s].max(cycle - 1 + d);
            remaining[s] -= 1;
            if remaining[s] == 0 {
                ready.push(s);
            }
        }
    }
    debug_assert_eq!(order.len(), n, "the dependency graph of a block is acyclic");
    let mut slots: Vec<Option<MOp>> = instrs.into_iter().map(Some).collect();
    order
        .into_iter()
        .map(|i| slots[i].take().expect("each instruction once"))
        .collect()
}

/// Whether an opcode's result is waited for with (ss) (SFU, and shared-memory loads).
pub fn produces_ss(op: Opcode) -> bool {
    op.info().latency == Latency::Sfu || matches!(op, Opcode::Ldl | Opcode::Ldlw | Opcode::Ldlv)
}
