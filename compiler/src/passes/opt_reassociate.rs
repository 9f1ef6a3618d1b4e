//! Moves constant terms of integer arithmetic outward, so that an address ends as
//! `base + constant`, which ir3's memory instructions take as an immediate offset:
//! `(x + c) << s` becomes `(x << s) + (c << s)`, `(x + c) * k` becomes `x * k + c * k`,
//! and `(x + c1) + c2` becomes `x + (c1 + c2)`, with `x - c` taken as `x + (-c)`. Each
//! holds in wrapping arithmetic (and with the shift amount below the width, which the
//! rule requires).

use crate::ir::eval::eval_alu;
use crate::ir::*;
use std::collections::HashMap;

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let mut defs: HashMap<Value, Alu> = HashMap::new();
    for block in &shader.blocks {
        for instr in &block.instrs {
            if let (Some(d), Op::Alu(a)) = (instr.dst, &instr.op) {
                defs.insert(d, a.clone());
            }
        }
    }
    let mut changed = false;
    for b in shader.block_ids().collect::<Vec<_>>() {
        let instrs = std::mem::take(&mut shader.block_mut(b).instrs);
        let mut out = Vec::with_capacity(instrs.len());
        for instr in instrs {
            let rewritten = match (&instr.op, instr.dst) {
                (Op::Alu(a), Some(d)) if a.size == BitSize::B32 || a.size == BitSize::B16 => {
                    rewrite(a, &defs).map(|(first, second)| (d, a.size, first, second))
                }
                _ => None,
            };
            match rewritten {
                Some((d, size, (op1, srcs1), (op2, k))) => {
                    let t = shader.new_value(size);
                    out.push(Instr {
                        dst: Some(t),
                        op: Op::alu(op1, size, &srcs1),
                    });
                    out.push(Instr {
                        dst: Some(d),
                        op: Op::alu(op2, size, &[t.into(), Src::Imm(k)]),
                    });
                    changed = true;
                }
                None => out.push(instr),
            }
        }
        shader.block_mut(b).instrs = out;
    }
    changed
}

type Step = (AluOp, Vec<Src>);

/// For `a` = f(x + c, k): (x-part, (iadd, constant)).
fn rewrite(a: &Alu, defs: &HashMap<Value, Alu>) -> Option<(Step, (AluOp, u64))> {
    let size = a.size;
    let (Src::Val(t), Src::Imm(k)) = (a.srcs.first().copied()?, a.srcs.get(1).copied()?) else {
        return None;
    };
    let inner = defs.get(&t)?;
    if !matches!(inner.op, AluOp::IAdd | AluOp::ISub) || inner.size != size {
        return None;
    }
    let (Src::Val(x), Src::Imm(c)) = (inner.srcs[0], inner.srcs[1]) else {
        return None;
    };
    // x - c is x + (-c) in wrapping arithmetic.
    let c = if inner.op == AluOp::ISub {
        eval_alu(AluOp::INeg, size, &[c])?
    } else {
        c
    };
    match a.op {
        AluOp::Shl if k < size.bits() as u64 => {
            let ck = eval_alu(AluOp::Shl, size, &[c, k])?;
            Some(((AluOp::Shl, vec![x.into(), Src::Imm(k)]), (AluOp::IAdd, ck)))
        }
        AluOp::IMul => {
            let ck = eval_alu(AluOp::IMul, size, &[c, k])?;
            Some((
                (AluOp::IMul, vec![x.into(), Src::Imm(k)]),
                (AluOp::IAdd, ck),
            ))
        }
        AluOp::IAdd => {
            let ck = eval_alu(AluOp::IAdd, size, &[c, k])?;
            Some(((AluOp::Mov, vec![x.into()]), (AluOp::IAdd, ck)))
        }
        _ => None,
    }
}
