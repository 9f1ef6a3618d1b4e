//! Constant arrays out of memory: a dynamically indexed local array whose every element
//! is a constant written once (GLSL's `vec2 pos[3] = vec2[](...)` indexed by
//! gl_VertexIndex) is read with compares and selects instead of going to scratch memory
//! (`stp`s at the start, `ldp`s for the reads). Turnip's ir3 takes such arrays out of
//! memory too, into constants.
//!
//! It applies to a variable whose stores all write a constant to a constant slot, each
//! slot once, all in one block that dominates every read of the variable and precedes
//! those in that block. A read at slot `scale * i + c` (through shifts, multiplications
//! and additions of constants) can only read the slots `c`, `c + scale`, ... inside the
//! variable: it becomes `i == 0 ? e0 : i == 1 ? e1 : ... : e_last`, the compares shared
//! between the reads by CSE. The variable is then read at constant slots only, so
//! `lower_vars_to_ssa` keeps it out of memory. Runs before that pass.

use crate::ir::cfg::Dominators;
use crate::ir::*;
use std::collections::HashMap;

/// Elements a read may choose among; more are left in memory.
const MAX_ELEMENTS: u64 = 16;

/// Returns whether anything changed.
pub fn run(shader: &mut Shader) -> bool {
    let doms = Dominators::compute(shader);
    let defs = definitions(shader);
    let mut changed = false;
    for var in 0..shader.locals.len() as u32 {
        let Some(elements) = constant_elements(shader, &doms, var) else {
            continue;
        };
        let slots = shader.locals[var as usize].slots.len() as u64;
        for b in shader.block_ids().collect::<Vec<_>>() {
            let old = std::mem::take(&mut shader.block_mut(b).instrs);
            let mut new = Vec::with_capacity(old.len());
            for instr in old {
                let choice = match &instr.op {
                    Op::Load(l) if l.space == Space::Local(var) && l.offset.as_imm().is_none() => {
                        choices(&defs, l.offset, &elements, slots).map(|c| (c, l.size))
                    }
                    _ => None,
                };
                // The index is compared as a 32-bit integer.
                let choice =
                    choice.filter(|((index, _), _)| shader.value_size(*index) == BitSize::B32);
                match (choice, instr.dst) {
                    (Some(((index, values), size)), Some(dst)) => {
                        let v = select_chain(shader, &mut new, index, &values, size);
                        new.push(Instr {
                            dst: Some(dst),
                            op: Op::alu(AluOp::Mov, size, &[v]),
                        });
                        changed = true;
                    }
                    _ => new.push(instr),
                }
            }
            shader.block_mut(b).instrs = new;
        }
    }
    changed
}

/// The constant in each slot of local `var`, if its stores all write constants to
/// constant slots, each once, in one block that dominates its reads and precedes the
/// reads in that block.
fn constant_elements(shader: &Shader, doms: &Dominators, var: u32) -> Option<HashMap<u64, u64>> {
    let mut block = None;
    let mut elements = HashMap::new();
    let mut reads = Vec::new();
    for b in shader.block_ids() {
        for (k, instr) in shader.block(b).instrs.iter().enumerate() {
            match &instr.op {
                Op::Store(s) if s.space == Space::Local(var) => {
                    let (Some(offset), Some(value)) = (s.offset.as_imm(), s.value.as_imm()) else {
                        return None;
                    };
                    if block.is_some_and(|x| x != b)
                        || elements.insert(offset, value).is_some()
                        || reads.iter().any(|&(rb, _)| rb == b)
                    {
                        return None;
                    }
                    block = Some(b);
                }
                Op::Load(l) if l.space == Space::Local(var) => reads.push((b, k)),
                _ => {}
            }
        }
    }
    let block = block?;
    reads
        .iter()
        .all(|&(b, _)| doms.dominates(block, b))
        .then_some(elements)
}

/// Each value's defining operation.
fn definitions(shader: &Shader) -> HashMap<Value, Op> {
    shader
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .filter_map(|i| i.dst.map(|d| (d, i.op.clone())))
        .collect()
}

/// `offset` as `scale * base + add`, following constant shifts, multiplications and
/// additions.
fn affine(defs: &HashMap<Value, Op>, offset: Src) -> Option<(Value, u64, u64)> {
    let v = match offset {
        Src::Val(v) => v,
        Src::Imm(_) => return None,
    };
    let Some(Op::Alu(a)) = defs.get(&v) else {
        return Some((v, 1, 0));
    };
    if a.size != BitSize::B32 {
        return Some((v, 1, 0));
    }
    let imm = |i: usize| a.srcs.get(i).and_then(|s| s.as_imm());
    let inner = |s: Src| affine(defs, s);
    let (base, scale, add) = match a.op {
        AluOp::Shl if imm(1).is_some_and(|k| k < 16) => {
            let (b, s, c) = inner(a.srcs[0])?;
            let k = imm(1)?;
            (b, s << k, c << k)
        }
        AluOp::IMul if imm(1).is_some() => {
            let (b, s, c) = inner(a.srcs[0])?;
            (b, s * imm(1)?, c * imm(1)?)
        }
        AluOp::IMul if imm(0).is_some() => {
            let (b, s, c) = inner(a.srcs[1])?;
            (b, s * imm(0)?, c * imm(0)?)
        }
        AluOp::IAdd if imm(1).is_some() => {
            let (b, s, c) = inner(a.srcs[0])?;
            (b, s, c + imm(1)?)
        }
        AluOp::IAdd if imm(0).is_some() => {
            let (b, s, c) = inner(a.srcs[1])?;
            (b, s, c + imm(0)?)
        }
        _ => return Some((v, 1, 0)),
    };
    // Keep the arithmetic far from wrapping (offsets are small).
    (scale < 1 << 16 && add < 1 << 20).then_some((base, scale, add))
}

/// The index and the values a read at slot `offset` of a variable of `slots` slots
/// chooses among: those at `add`, `add + scale`, ... inside the variable.
fn choices(
    defs: &HashMap<Value, Op>,
    offset: Src,
    elements: &HashMap<u64, u64>,
    slots: u64,
) -> Option<(Value, Vec<u64>)> {
    let (index, scale, add) = affine(defs, offset)?;
    if scale == 0 || add >= slots {
        return None;
    }
    let count = (slots - add).div_ceil(scale);
    if count > MAX_ELEMENTS {
        return None;
    }
    // Every slot the read may reach must hold its constant.
    let values = (0..count)
        .map(|j| elements.get(&(add + scale * j)).copied())
        .collect::<Option<Vec<u64>>>()?;
    Some((index, values))
}

/// `index == 0 ? values[0] : index == 1 ? values[1] : ... : values[last]`, appended to
/// `out`.
fn select_chain(
    shader: &mut Shader,
    out: &mut Vec<Instr>,
    index: Value,
    values: &[u64],
    size: BitSize,
) -> Src {
    let mut emit = |op: Op, size: BitSize| {
        let d = shader.new_value(size);
        out.push(Instr { dst: Some(d), op });
        Src::Val(d)
    };
    let (last, rest) = values.split_last().expect("at least one value");
    let mut v = Src::Imm(*last);
    for (j, value) in rest.iter().enumerate().rev() {
        let is_j = emit(
            Op::alu(
                AluOp::IEq,
                BitSize::B32,
                &[Src::Val(index), Src::Imm(j as u64)],
            ),
            BitSize::B1,
        );
        v = emit(
            Op::alu(AluOp::Select, size, &[is_j, Src::Imm(*value), v]),
            size,
        );
    }
    v
}
