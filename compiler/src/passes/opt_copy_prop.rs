//! Copy propagation: uses of a `mov`'s result, or of a phi whose sources are all one value,
//! read that value directly.

use crate::ir::*;
use std::collections::HashMap;

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let mut map: HashMap<Value, Src> = HashMap::new();
    for block in &mut shader.blocks {
        block.instrs.retain(|instr| match (&instr.op, instr.dst) {
            (
                Op::Alu(Alu {
                    op: AluOp::Mov,
                    srcs,
                    ..
                }),
                Some(d),
            ) => {
                map.insert(d, srcs[0]);
                false
            }
            _ => true,
        });
        block.phis.retain(|phi| {
            // Sources other than the phi itself (a loop that does not change the value).
            let mut unique = phi
                .srcs
                .iter()
                .map(|s| s.1)
                .filter(|s| *s != Src::Val(phi.dst));
            match unique.next() {
                Some(first) if unique.all(|s| s == first) => {
                    map.insert(phi.dst, first);
                    false
                }
                _ => true,
            }
        });
    }
    let changed = !map.is_empty();
    shader.replace_uses(&map);
    changed
}
