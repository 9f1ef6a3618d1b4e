//! Output copies coalesced away: a graphics shader's outputs are register groups the
//! hardware reads at `end` (SP_VS_OUT, SP_FS_OUTPUT), and instruction selection fills
//! them with a copy of each value. When the value is one scalar whose only use is that
//! copy, and the copy is the only write of the output's component (which nothing reads
//! before `end`), the value's instruction writes the output component itself and the
//! copy goes: on every path the component then holds what the copy would have put there,
//! and where the copy did not run it was undefined anyway (what
//! ir3's register allocator achieves by placing the value there: Turnip's triangle
//! fragment shader writes its `bary.f` results straight into the colour registers).

use super::mir::*;
use std::collections::{HashMap, HashSet};

/// Rewrites `m` in place; returns the number of copies removed.
pub fn outputs(m: &mut MShader) -> usize {
    let outputs: HashSet<VReg> = m.outputs.iter().copied().collect();
    if outputs.is_empty() {
        return 0;
    }
    // Uses and definitions of every scalar, terminators included.
    let mut uses: HashMap<Comp, usize> = HashMap::new();
    let mut defs: HashMap<Comp, usize> = HashMap::new();
    for b in &m.blocks {
        for op in &b.instrs {
            for u in op.uses() {
                *uses.entry(u).or_default() += 1;
            }
            for d in op.defs() {
                *defs.entry(d).or_default() += 1;
            }
        }
        if let MTerm::Branch { cond, .. } = b.term {
            *uses.entry(cond).or_default() += 1;
        }
    }
    let mut removed = 0;
    for bi in 0..m.blocks.len() {
        // Only copies in a block that ends the shader, which no loop contains: the copy
        // runs once, after every write of the value, so it copies the value's last one.
        if m.blocks[bi].term != MTerm::End {
            continue;
        }
        let mut k = 0;
        while k < m.blocks[bi].instrs.len() {
            let Some((db, d)) = candidate(m, &m.blocks[bi].instrs[k], &outputs, &uses, &defs)
            else {
                k += 1;
                continue;
            };
            let MOp::Mov { dst: out, .. } = m.blocks[bi].instrs[k] else {
                unreachable!("candidate checked the copy")
            };
            set_dst(&mut m.blocks[db].instrs[d], out);
            m.blocks[bi].instrs.remove(k);
            removed += 1;
        }
    }
    removed
}

/// Where the instruction computing the value `copy` puts into an output is (block,
/// index), when it can write the output instead.
fn candidate(
    m: &MShader,
    copy: &MOp,
    outputs: &HashSet<VReg>,
    uses: &HashMap<Comp, usize>,
    defs: &HashMap<Comp, usize>,
) -> Option<(usize, usize)> {
    let MOp::Mov {
        dst: out,
        src: MSrc::Reg(v),
        src_type,
        dst_type,
        ..
    } = *copy
    else {
        return None;
    };
    let (vi, oi) = (m.info(v.0), m.info(out.0));
    if !outputs.contains(&out.0)
        || src_type != dst_type
        || vi.size != 1
        || vi.half != oi.half
        || outputs.contains(&v.0)
        || uses.get(&v) != Some(&1)
        || defs.get(&v) != Some(&1)
        || defs.get(&out) != Some(&1)
        || uses.contains_key(&out)
    {
        return None;
    }
    m.blocks.iter().enumerate().find_map(|(b, block)| {
        block
            .instrs
            .iter()
            .position(|op| {
                matches!(
                    *op,
                    MOp::Alu { dst, .. } | MOp::Mov { dst, .. } | MOp::Sfu { dst, .. } if dst == v
                )
            })
            .map(|d| (b, d))
    })
}

fn set_dst(op: &mut MOp, to: Comp) {
    match op {
        MOp::Alu { dst, .. } | MOp::Mov { dst, .. } | MOp::Sfu { dst, .. } => *dst = to,
        _ => unreachable!("candidate checked the definition"),
    }
}
