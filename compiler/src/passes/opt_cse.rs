//! Common subexpression elimination: a pure operation identical to one in a dominating
//! position (same operation, same operands, commutative operands in either order) reuses
//! that one's result.

use crate::ir::cfg::Dominators;
use crate::ir::*;
use std::collections::HashMap;

fn key(op: &Op) -> Option<Op> {
    if !op.is_pure() || matches!(op, Op::Undef) {
        return None;
    }
    let mut k = op.clone();
    if let Op::Alu(a) = &mut k {
        if a.op.is_commutative() && a.srcs.len() == 2 && order(&a.srcs[1]) < order(&a.srcs[0]) {
            a.srcs.swap(0, 1);
        }
    }
    Some(k)
}

fn order(s: &Src) -> (u8, u64) {
    match s {
        Src::Val(v) => (0, v.0 as u64),
        Src::Imm(i) => (1, *i),
    }
}

enum Visit {
    Enter(BlockId),
    Exit(Vec<Op>),
}

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let doms = Dominators::compute(shader);
    let children = doms.children();
    let mut available: HashMap<Op, Value> = HashMap::new();
    let mut replace: HashMap<Value, Src> = HashMap::new();
    let mut visits = vec![Visit::Enter(BlockId::ENTRY)];
    while let Some(v) = visits.pop() {
        let b = match v {
            Visit::Exit(added) => {
                for k in added {
                    available.remove(&k);
                }
                continue;
            }
            Visit::Enter(b) => b,
        };
        let mut added = Vec::new();
        let block = shader.block_mut(b);
        block.instrs.retain_mut(|instr| {
            instr.op.for_each_src_mut(|s| {
                if let Some(n) = s.as_val().and_then(|v| replace.get(&v)) {
                    *s = *n;
                }
            });
            let (Some(d), Some(k)) = (instr.dst, key(&instr.op)) else {
                return true;
            };
            match available.get(&k) {
                Some(&prev) => {
                    replace.insert(d, prev.into());
                    false
                }
                None => {
                    available.insert(k.clone(), d);
                    added.push(k);
                    true
                }
            }
        });
        visits.push(Visit::Exit(added));
        for &c in children[b.index()].iter().rev() {
            visits.push(Visit::Enter(c));
        }
    }
    let changed = !replace.is_empty();
    shader.replace_uses(&replace);
    changed
}
