//! Function and private variables out of memory: every variable whose slots are only
//! reached with constant indices becomes SSA values (phis placed on the iterated dominance
//! frontier of its stores, then renamed along the dominator tree); a variable indexed
//! dynamically goes to per-invocation scratch memory (ir3's private memory, ldp/stp).

use crate::ir::cfg::{predecessors, Dominators};
use crate::ir::*;
use std::collections::HashMap;

/// Runs the pass; afterwards no `Space::Local` access remains.
pub fn run(shader: &mut Shader) {
    let n = shader.locals.len();
    if n == 0 {
        return;
    }
    let mut dynamic = vec![false; n];
    for block in &shader.blocks {
        for instr in &block.instrs {
            if let Some((var, offset)) = local_access(&instr.op) {
                let slots = shader.locals[var as usize].slots.len() as u64;
                if offset.as_imm().is_none_or(|o| o >= slots) {
                    dynamic[var as usize] = true;
                }
            }
        }
    }
    to_scratch(shader, &dynamic);
    to_ssa(shader, &dynamic);
    shader.locals.clear();
}

fn local_access(op: &Op) -> Option<(u32, Src)> {
    match op {
        Op::Load(Load {
            space: Space::Local(v),
            offset,
            ..
        })
        | Op::Store(Store {
            space: Space::Local(v),
            offset,
            ..
        }) => Some((*v, *offset)),
        _ => None,
    }
}

fn to_scratch(shader: &mut Shader, dynamic: &[bool]) {
    // Each variable gets a region; a slot takes 4 bytes, or 8 in a variable with 64-bit
    // slots, so every slot is naturally aligned.
    let mut base = vec![0u32; dynamic.len()];
    let mut stride = vec![4u32; dynamic.len()];
    let mut bytes = shader.scratch_bytes.next_multiple_of(8);
    for (v, local) in shader.locals.iter().enumerate() {
        if !dynamic[v] {
            continue;
        }
        if local.slots.contains(&BitSize::B64) {
            stride[v] = 8;
        }
        base[v] = bytes;
        // Saturating: a shader needing more than the hardware's private memory is refused
        // by the back end, whatever the offsets.
        let end = u64::from(bytes) + u64::from(stride[v]) * local.slots.len() as u64;
        bytes = end.next_multiple_of(8).min(u64::from(!7u32)) as u32;
    }
    shader.scratch_bytes = bytes;
    for b in shader.block_ids().collect::<Vec<_>>() {
        let old = std::mem::take(&mut shader.block_mut(b).instrs);
        let mut out = Vec::with_capacity(old.len());
        for instr in old {
            let Some((var, offset)) = local_access(&instr.op) else {
                out.push(instr);
                continue;
            };
            let v = var as usize;
            if !dynamic[v] {
                out.push(instr);
                continue;
            }
            let byte_offset = match offset {
                Src::Imm(i) => Src::Imm(base[v] as u64 + i * stride[v] as u64),
                Src::Val(_) => {
                    let scaled = shader.new_value(BitSize::B32);
                    out.push(Instr {
                        dst: Some(scaled),
                        op: Op::alu(
                            AluOp::IMul,
                            BitSize::B32,
                            &[offset, Src::Imm(stride[v] as u64)],
                        ),
                    });
                    let sum = shader.new_value(BitSize::B32);
                    out.push(Instr {
                        dst: Some(sum),
                        op: Op::alu(
                            AluOp::IAdd,
                            BitSize::B32,
                            &[scaled.into(), Src::Imm(base[v] as u64)],
                        ),
                    });
                    sum.into()
                }
            };
            match instr.op {
                Op::Load(l) if l.size == BitSize::B1 => {
                    let word = shader.new_value(BitSize::B32);
                    out.push(Instr {
                        dst: Some(word),
                        op: Op::Load(Load {
                            space: Space::Scratch,
                            offset: byte_offset,
                            size: BitSize::B32,
                        }),
                    });
                    out.push(Instr {
                        dst: instr.dst,
                        op: Op::Convert(Convert {
                            kind: ConvKind::Bool,
                            from: BitSize::B32,
                            to: BitSize::B1,
                            src: word.into(),
                        }),
                    });
                }
                Op::Load(l) => out.push(Instr {
                    dst: instr.dst,
                    op: Op::Load(Load {
                        space: Space::Scratch,
                        offset: byte_offset,
                        size: l.size,
                    }),
                }),
                Op::Store(s) if s.size == BitSize::B1 => {
                    let word = shader.new_value(BitSize::B32);
                    out.push(Instr {
                        dst: Some(word),
                        op: Op::Convert(Convert {
                            kind: ConvKind::Bool,
                            from: BitSize::B1,
                            to: BitSize::B32,
                            src: s.value,
                        }),
                    });
                    out.push(Instr {
                        dst: None,
                        op: Op::Store(Store {
                            space: Space::Scratch,
                            offset: byte_offset,
                            value: word.into(),
                            size: BitSize::B32,
                        }),
                    });
                }
                Op::Store(s) => out.push(Instr {
                    dst: None,
                    op: Op::Store(Store {
                        space: Space::Scratch,
                        offset: byte_offset,
                        value: s.value,
                        size: s.size,
                    }),
                }),
                _ => unreachable!("local_access matched a load or store"),
            }
        }
        shader.block_mut(b).instrs = out;
    }
}

enum Visit {
    Enter(BlockId),
    Exit(Vec<usize>),
}

fn to_ssa(shader: &mut Shader, dynamic: &[bool]) {
    // One SSA "variable" per slot of each promoted variable.
    let mut first = vec![0usize; dynamic.len()];
    let mut sizes = Vec::new();
    for (v, local) in shader.locals.iter().enumerate() {
        first[v] = sizes.len();
        if !dynamic[v] {
            sizes.extend_from_slice(&local.slots);
        }
    }
    if sizes.is_empty() {
        return;
    }
    let key = |var: u32, slot: Src| first[var as usize] + slot.as_imm().unwrap_or(0) as usize;

    // Phi placement.
    let preds = predecessors(shader);
    let doms = Dominators::compute(shader);
    let df = doms.frontiers(&preds);
    let mut def_blocks: Vec<Vec<BlockId>> = vec![Vec::new(); sizes.len()];
    for b in shader.block_ids() {
        for instr in &shader.block(b).instrs {
            if let Op::Store(Store {
                space: Space::Local(v),
                offset,
                ..
            }) = &instr.op
            {
                if !dynamic[*v as usize] {
                    let k = key(*v, *offset);
                    if !def_blocks[k].contains(&b) {
                        def_blocks[k].push(b);
                    }
                }
            }
        }
    }
    let mut phi_var: HashMap<Value, usize> = HashMap::new();
    for (k, defs) in def_blocks.iter().enumerate() {
        let mut has_phi = vec![false; shader.blocks.len()];
        let mut work = defs.clone();
        let mut queued = vec![false; shader.blocks.len()];
        for b in &work {
            queued[b.index()] = true;
        }
        while let Some(b) = work.pop() {
            for &f in &df[b.index()] {
                if has_phi[f.index()] {
                    continue;
                }
                has_phi[f.index()] = true;
                let dst = shader.new_value(sizes[k]);
                shader.block_mut(f).phis.push(Phi {
                    dst,
                    srcs: Vec::new(),
                });
                phi_var.insert(dst, k);
                if !queued[f.index()] {
                    queued[f.index()] = true;
                    work.push(f);
                }
            }
        }
    }

    // Renaming along the dominator tree.
    let children = doms.children();
    let mut stacks: Vec<Vec<Src>> = vec![Vec::new(); sizes.len()];
    let mut undefs: Vec<Option<Value>> = vec![None; sizes.len()];
    let mut replace: HashMap<Value, Src> = HashMap::new();
    let mut visits = vec![Visit::Enter(BlockId::ENTRY)];
    while let Some(visit) = visits.pop() {
        let b = match visit {
            Visit::Exit(pushed) => {
                for k in pushed {
                    stacks[k].pop();
                }
                continue;
            }
            Visit::Enter(b) => b,
        };
        let mut pushed = Vec::new();
        for phi in &shader.block(b).phis {
            if let Some(&k) = phi_var.get(&phi.dst) {
                stacks[k].push(phi.dst.into());
                pushed.push(k);
            }
        }
        let instrs = std::mem::take(&mut shader.block_mut(b).instrs);
        let mut kept = Vec::with_capacity(instrs.len());
        for instr in instrs {
            match &instr.op {
                Op::Load(Load {
                    space: Space::Local(v),
                    offset,
                    ..
                }) if !dynamic[*v as usize] => {
                    let k = key(*v, *offset);
                    let cur = current(&stacks[k], &mut undefs[k], shader, sizes[k]);
                    if let Some(d) = instr.dst {
                        replace.insert(d, cur);
                    }
                }
                Op::Store(Store {
                    space: Space::Local(v),
                    offset,
                    value,
                    ..
                }) if !dynamic[*v as usize] => {
                    let k = key(*v, *offset);
                    stacks[k].push(*value);
                    pushed.push(k);
                }
                _ => kept.push(instr),
            }
        }
        shader.block_mut(b).instrs = kept;
        let mut succs = shader.block(b).term.successors();
        succs.dedup();
        for s in succs {
            let phis: Vec<(usize, usize)> = shader
                .block(s)
                .phis
                .iter()
                .enumerate()
                .filter_map(|(i, p)| phi_var.get(&p.dst).map(|&k| (i, k)))
                .collect();
            for (i, k) in phis {
                let cur = current(&stacks[k], &mut undefs[k], shader, sizes[k]);
                let phi = &mut shader.block_mut(s).phis[i];
                if !phi.srcs.iter().any(|(p, _)| *p == b) {
                    phi.srcs.push((b, cur));
                }
            }
        }
        visits.push(Visit::Exit(pushed));
        for &c in children[b.index()].iter().rev() {
            visits.push(Visit::Enter(c));
        }
    }
    // Reads before any write see an undefined value, defined once at the entry.
    let entry = shader.block_mut(BlockId::ENTRY);
    for u in undefs.into_iter().flatten() {
        entry.instrs.insert(
            0,
            Instr {
                dst: Some(u),
                op: Op::Undef,
            },
        );
    }
    shader.replace_uses(&replace);
}

fn current(stack: &[Src], undef: &mut Option<Value>, shader: &mut Shader, size: BitSize) -> Src {
    match stack.last() {
        Some(s) => *s,
        None => (*undef.get_or_insert_with(|| shader.new_value(size))).into(),
    }
}
