//! Dead code elimination: keeps what has an effect (stores, atomics, barriers,
//! terminators) and what it transitively reads; everything else goes, including cycles of
//! phis that only feed each other.

use crate::ir::*;

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let n = shader.value_count();
    let mut live = vec![false; n];
    let mut work: Vec<Value> = Vec::new();
    let mark = |s: &Src, live: &mut Vec<bool>, work: &mut Vec<Value>| {
        if let Src::Val(v) = s {
            if !live[v.0 as usize] {
                live[v.0 as usize] = true;
                work.push(*v);
            }
        }
    };
    // Where each value is defined, to follow operands backwards.
    let mut def: Vec<Option<(usize, Option<usize>)>> = vec![None; n];
    for (b, block) in shader.blocks.iter().enumerate() {
        for (i, phi) in block.phis.iter().enumerate() {
            def[phi.dst.0 as usize] = Some((b, Some(i)));
        }
        for (i, instr) in block.instrs.iter().enumerate() {
            if let Some(d) = instr.dst {
                def[d.0 as usize] = Some((b, Some(i + block.phis.len())));
            }
            if !instr.op.is_removable() {
                instr.op.for_each_src(|s| mark(s, &mut live, &mut work));
                if let Some(d) = instr.dst {
                    live[d.0 as usize] = true;
                }
            }
        }
        if let Some(s) = block.term.src() {
            mark(s, &mut live, &mut work);
        }
    }
    while let Some(v) = work.pop() {
        let Some((b, Some(i))) = def[v.0 as usize] else {
            continue;
        };
        let block = &shader.blocks[b];
        if i < block.phis.len() {
            for (_, s) in &block.phis[i].srcs {
                mark(s, &mut live, &mut work);
            }
        } else {
            block.instrs[i - block.phis.len()]
                .op
                .for_each_src(|s| mark(s, &mut live, &mut work));
        }
    }
    let mut changed = false;
    for block in &mut shader.blocks {
        let before = block.phis.len() + block.instrs.len();
        block.phis.retain(|p| live[p.dst.0 as usize]);
        block
            .instrs
            .retain(|i| !i.op.is_removable() || i.dst.is_some_and(|d| live[d.0 as usize]));
        changed |= before != block.phis.len() + block.instrs.len();
    }
    changed
}
