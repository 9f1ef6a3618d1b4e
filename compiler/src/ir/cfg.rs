//! Control-flow facts about a shader: predecessors, orders, dominators, and the removal of
//! blocks nothing reaches.

use super::{BlockId, Shader, Src, Terminator};
use std::collections::HashMap;

/// Predecessors of each block (with repetition when a block branches twice to the same
/// successor).
pub fn predecessors(shader: &Shader) -> Vec<Vec<BlockId>> {
    let mut preds = vec![Vec::new(); shader.blocks.len()];
    for b in reverse_postorder(shader) {
        for s in shader.block(b).term.successors() {
            if !preds[s.index()].contains(&b) {
                preds[s.index()].push(b);
            }
        }
    }
    preds
}

/// Blocks reachable from the entry, in reverse postorder (every block before its successors,
/// back edges aside).
pub fn reverse_postorder(shader: &Shader) -> Vec<BlockId> {
    let n = shader.blocks.len();
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // Iterative DFS: (block, next successor index).
    let mut stack = vec![(BlockId::ENTRY, 0usize)];
    visited[0] = true;
    while let Some((b, i)) = stack.pop() {
        let succs = shader.block(b).term.successors();
        if i < succs.len() {
            stack.push((b, i + 1));
            let s = succs[i];
            if !visited[s.index()] {
                visited[s.index()] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

/// Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm). The entry's is
/// itself; unreachable blocks have none.
pub struct Dominators {
    idom: Vec<Option<BlockId>>,
    rpo_index: Vec<usize>,
}

impl Dominators {
    pub fn compute(shader: &Shader) -> Dominators {
        let rpo = reverse_postorder(shader);
        let preds = predecessors(shader);
        let n = shader.blocks.len();
        let mut rpo_index = vec![usize::MAX; n];
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[b.index()] = i;
        }
        let mut idom: Vec<Option<BlockId>> = vec![None; n];
        idom[0] = Some(BlockId::ENTRY);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<BlockId> = None;
                for &p in &preds[b.index()] {
                    if idom[p.index()].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => {
                            let (mut x, mut y) = (p, cur);
                            while x != y {
                                while rpo_index[x.index()] > rpo_index[y.index()] {
                                    x = idom[x.index()].unwrap_or(BlockId::ENTRY);
                                }
                                while rpo_index[y.index()] > rpo_index[x.index()] {
                                    y = idom[y.index()].unwrap_or(BlockId::ENTRY);
                                }
                            }
                            x
                        }
                    });
                }
                if new.is_some() && idom[b.index()] != new {
                    idom[b.index()] = new;
                    changed = true;
                }
            }
        }
        Dominators { idom, rpo_index }
    }

    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        if b == BlockId::ENTRY {
            None
        } else {
            self.idom[b.index()]
        }
    }

    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.idom[b.index()].is_some()
    }

    /// Whether `a` dominates `b`.
    pub fn dominates(&self, a: BlockId, mut b: BlockId) -> bool {
        if !self.is_reachable(b) {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            match self.idom(b) {
                Some(p) => b = p,
                None => return false,
            }
        }
    }

    /// Children in the dominator tree.
    pub fn children(&self) -> Vec<Vec<BlockId>> {
        let mut c = vec![Vec::new(); self.idom.len()];
        for (i, d) in self.idom.iter().enumerate() {
            if let Some(d) = d {
                if i != 0 {
                    c[d.index()].push(BlockId(i as u32));
                }
            }
        }
        for list in &mut c {
            list.sort_by_key(|b| self.rpo_index[b.index()]);
        }
        c
    }

    /// Dominance frontiers, for phi placement.
    pub fn frontiers(&self, preds: &[Vec<BlockId>]) -> Vec<Vec<BlockId>> {
        let mut df = vec![Vec::new(); self.idom.len()];
        for (b, ps) in preds.iter().enumerate() {
            if ps.len() < 2 || !self.is_reachable(BlockId(b as u32)) {
                continue;
            }
            let stop = self.idom[b];
            for &p in ps {
                let mut runner = Some(p);
                while let Some(r) = runner {
                    if Some(r) == stop || !self.is_reachable(r) {
                        break;
                    }
                    if !df[r.index()].contains(&BlockId(b as u32)) {
                        df[r.index()].push(BlockId(b as u32));
                    }
                    runner = self.idom(r);
                }
            }
        }
        df
    }
}

/// Drops blocks the entry cannot reach, renumbers the others (keeping their order), and
/// removes phi sources from dropped or no-longer-preceding blocks.
pub fn remove_unreachable_blocks(shader: &mut Shader) {
    let mut reachable = vec![false; shader.blocks.len()];
    for b in reverse_postorder(shader) {
        reachable[b.index()] = true;
    }
    let kept: Vec<BlockId> = shader
        .block_ids()
        .filter(|b| reachable[b.index()])
        .collect();
    reorder_blocks(shader, &kept);
    // Phi sources must name actual predecessors.
    let preds = predecessors(shader);
    for (i, block) in shader.blocks.iter_mut().enumerate() {
        for phi in &mut block.phis {
            phi.srcs.retain(|(p, _)| preds[i].contains(p));
        }
    }
}

/// Puts the blocks in `order` (the entry first) and drops the others, renaming every
/// reference to a block; phi sources from dropped blocks go.
pub fn reorder_blocks(shader: &mut Shader, order: &[BlockId]) {
    let renumber: HashMap<BlockId, BlockId> = order
        .iter()
        .enumerate()
        .map(|(i, b)| (*b, BlockId(i as u32)))
        .collect();
    let mut old: Vec<Option<super::Block>> = std::mem::take(&mut shader.blocks)
        .into_iter()
        .map(Some)
        .collect();
    let mut kept: Vec<super::Block> = order
        .iter()
        .map(|b| old[b.index()].take().expect("each block once in the order"))
        .collect();
    // A merge or continue target may have been dropped (a loop that never continues):
    // the annotation then names a dropped block; drop it to a jump's meaning by pointing
    // nowhere.
    for block in &mut kept {
        for s in block.term.successors_mut() {
            *s = renumber[s];
        }
        block.merge = block.merge.and_then(|m| match m {
            super::Merge::Selection { merge } => renumber
                .get(&merge)
                .map(|&merge| super::Merge::Selection { merge }),
            super::Merge::Loop { merge, cont } => {
                match (renumber.get(&merge), renumber.get(&cont)) {
                    (Some(&merge), Some(&cont)) => Some(super::Merge::Loop { merge, cont }),
                    (Some(&merge), None) => Some(super::Merge::Loop { merge, cont: merge }),
                    _ => None,
                }
            }
        });
        for phi in &mut block.phis {
            phi.srcs.retain(|(p, _)| renumber.contains_key(p));
            for (p, _) in &mut phi.srcs {
                *p = renumber[p];
            }
        }
    }
    shader.blocks = kept;
}

/// Replaces a two-way branch on a known condition by a jump, dropping the phi sources of
/// the edge no longer taken. Returns whether anything changed.
pub fn fold_constant_branches(shader: &mut Shader) -> bool {
    let mut changed = false;
    for b in shader.block_ids().collect::<Vec<_>>() {
        let (taken, dropped) = match &shader.block(b).term {
            Terminator::Branch {
                cond: Src::Imm(c),
                then_block,
                else_block,
            } => {
                if c & 1 != 0 {
                    (*then_block, *else_block)
                } else {
                    (*else_block, *then_block)
                }
            }
            Terminator::Switch {
                selector: Src::Imm(v),
                cases,
                default,
                ..
            } => {
                let taken = cases.iter().find(|c| c.0 == *v).map_or(*default, |c| c.1);
                let others: Vec<BlockId> = shader
                    .block(b)
                    .term
                    .successors()
                    .into_iter()
                    .filter(|s| *s != taken)
                    .collect();
                let block = shader.block_mut(b);
                block.term = Terminator::Jump(taken);
                if let Some(super::Merge::Selection { .. }) = block.merge {
                    block.merge = None;
                }
                for o in others {
                    for phi in &mut shader.block_mut(o).phis {
                        phi.srcs.retain(|(p, _)| *p != b);
                    }
                }
                changed = true;
                continue;
            }
            _ => continue,
        };
        let block = shader.block_mut(b);
        block.term = Terminator::Jump(taken);
        if let Some(super::Merge::Selection { .. }) = block.merge {
            block.merge = None;
        }
        if dropped != taken {
            for phi in &mut shader.block_mut(dropped).phis {
                phi.srcs.retain(|(p, _)| *p != b);
            }
        }
        changed = true;
    }
    changed
}
