//! Constant folding: operations whose operands are all known are computed at compile time
//! (with the same evaluation functions the interpreter uses), and branches on known
//! conditions become jumps.

use crate::ir::eval::{eval_alu, eval_convert};
use crate::ir::*;
use std::collections::HashMap;

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let mut map: HashMap<Value, Src> = HashMap::new();
    loop {
        let before = map.len();
        for block in &mut shader.blocks {
            block.instrs.retain_mut(|instr| {
                instr.op.for_each_src_mut(|s| {
                    if let Some(n) = s.as_val().and_then(|v| map.get(&v)) {
                        *s = *n;
                    }
                });
                let Some(d) = instr.dst else { return true };
                let folded = match &instr.op {
                    Op::Alu(a) => a
                        .srcs
                        .iter()
                        .map(|s| s.as_imm())
                        .collect::<Option<Vec<u64>>>()
                        .and_then(|imms| eval_alu(a.op, a.size, &imms)),
                    Op::Convert(c) => c
                        .src
                        .as_imm()
                        .and_then(|v| eval_convert(c.kind, c.from, c.to, v)),
                    _ => None,
                };
                match folded {
                    Some(v) => {
                        map.insert(d, Src::Imm(v));
                        false
                    }
                    None => true,
                }
            });
        }
        if map.len() == before {
            break;
        }
    }
    let mut changed = !map.is_empty();
    shader.replace_uses(&map);
    if cfg::fold_constant_branches(shader) {
        cfg::remove_unreachable_blocks(shader);
        changed = true;
    }
    changed
}
