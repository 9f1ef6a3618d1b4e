//! Live intervals of the machine IR's virtual registers, over the program laid out block
//! after block: block liveness by the usual backward dataflow on bit sets, then one
//! interval per virtual register from its first to its last position.

use crate::backend::mir::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub vreg: VReg,
    pub start: u32,
    pub end: u32,
}

/// Index of the first instruction of each block in layout order; each block also takes
/// one index for its terminator. Instruction `k` reads at position 2k and writes at 2k + 1.
pub fn block_starts(m: &MShader) -> Vec<u32> {
    let mut first = Vec::with_capacity(m.blocks.len());
    let mut k = 0u32;
    for b in &m.blocks {
        first.push(k);
        k += b.instrs.len() as u32 + 1;
    }
    first
}

/// Memory instructions read their sources after issue: keep those registers from being
/// reused by the instruction's own destination.
pub fn late_reader(op: &MOp) -> bool {
    matches!(
        op,
        MOp::Ibo { .. }
            | MOp::Local { .. }
            | MOp::LocalAtomic { .. }
            | MOp::Ldc { .. }
            | MOp::Resinfo { .. }
            | MOp::Tex { .. }
    )
}

/// A set of virtual registers.
#[derive(Clone, PartialEq, Eq)]
struct Set(Vec<u64>);

impl Set {
    fn new(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, v: VReg) {
        self.0[v.0 as usize / 64] |= 1 << (v.0 % 64);
    }
    fn contains(&self, v: VReg) -> bool {
        self.0[v.0 as usize / 64] & (1 << (v.0 % 64)) != 0
    }
    fn members(&self) -> impl Iterator<Item = VReg> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Some(VReg(w as u32 * 64 + b))
            })
        })
    }
}

/// Registers live into and out of each block.
fn live_sets(m: &MShader) -> (Vec<Set>, Vec<Set>) {
    let n = m.vregs.len();
    let nb = m.blocks.len();
    let mut uses = vec![Set::new(n); nb];
    let mut defs = vec![Set::new(n); nb];
    for (b, block) in m.blocks.iter().enumerate() {
        for op in &block.instrs {
            for u in op.uses() {
                if !defs[b].contains(u.0) {
                    uses[b].insert(u.0);
                }
            }
            for d in op.defs() {
                defs[b].insert(d.0);
            }
        }
        if let MTerm::Branch { cond, .. } = &block.term {
            if !defs[b].contains(cond.0) {
                uses[b].insert(cond.0);
            }
        }
        // `end` reads the outputs.
        if matches!(block.term, MTerm::End) {
            for &o in &m.outputs {
                if !defs[b].contains(o) {
                    uses[b].insert(o);
                }
            }
        }
    }
    let mut live_in = vec![Set::new(n); nb];
    let mut live_out = vec![Set::new(n); nb];
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| m.successors(b)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = Set::new(n);
            for &s in &succs[b] {
                for (o, i) in out.0.iter_mut().zip(&live_in[s].0) {
                    *o |= i;
                }
            }
            let mut inn = Set::new(n);
            for (w, x) in inn.0.iter_mut().enumerate() {
                *x = uses[b].0[w] | (out.0[w] & !defs[b].0[w]);
            }
            if inn != live_in[b] || out != live_out[b] {
                live_in[b] = inn;
                live_out[b] = out;
                changed = true;
            }
        }
    }
    (live_in, live_out)
}

/// The interval of every virtual register that occurs in the program.
pub fn intervals(m: &MShader) -> Vec<Option<Interval>> {
    let first = block_starts(m);
    let (live_in, live_out) = live_sets(m);
    let mut iv: Vec<Option<Interval>> = vec![None; m.vregs.len()];
    let mut touch = |v: VReg, p: u32| {
        let e = &mut iv[v.0 as usize];
        match e {
            Some(i) => {
                i.start = i.start.min(p);
                i.end = i.end.max(p);
            }
            None => {
                *e = Some(Interval {
                    vreg: v,
                    start: p,
                    end: p,
                })
            }
        }
    };
    for (b, block) in m.blocks.iter().enumerate() {
        let k0 = first[b];
        let kend = k0 + block.instrs.len() as u32;
        for v in live_in[b].members() {
            touch(v, 2 * k0);
        }
        for v in live_out[b].members() {
            touch(v, 2 * kend + 1);
        }
        for (i, op) in block.instrs.iter().enumerate() {
            let k = k0 + i as u32;
            let use_pos = if late_reader(op) { 2 * k + 1 } else { 2 * k };
            for u in op.uses() {
                touch(u.0, use_pos);
            }
            for d in op.defs() {
                touch(d.0, 2 * k + 1);
            }
        }
        if let MTerm::Branch { cond, .. } = &block.term {
            touch(cond.0, 2 * kend);
        }
        if matches!(block.term, MTerm::End) {
            for &o in &m.outputs {
                touch(o, 2 * kend);
            }
        }
    }
    iv
}

/// Last position at which each hardware-written input register is read.
pub fn fixed_ends(m: &MShader) -> Vec<(u8, u32)> {
    let first = block_starts(m);
    let mut ends: Vec<(u8, u32)> = Vec::new();
    for (b, block) in m.blocks.iter().enumerate() {
        for (i, op) in block.instrs.iter().enumerate() {
            let p = 2 * (first[b] + i as u32);
            let mut read = |r: u8| match ends.iter_mut().find(|e| e.0 == r) {
                Some(e) => e.1 = e.1.max(p),
                None => ends.push((r, p)),
            };
            match op {
                MOp::Mov {
                    src: MSrc::Fixed(r),
                    ..
                } => read(*r),
                // `bary.f` reads the ij pair its second source names.
                MOp::Alu { op, srcs, .. } => {
                    for (s, _) in srcs {
                        if let MSrc::Fixed(r) = s {
                            read(*r);
                            if *op == parsnip_isa::Opcode::BaryF {
                                read(*r + 1);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    ends
}
