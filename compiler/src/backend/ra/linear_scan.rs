//! Linear scan over live intervals, in order of their start: each interval takes the
//! lowest free run of scalars below the register budget (below the half register file's
//! end for half values); when none is free, the spillable scalar in that range whose
//! interval ends last is chosen for spilling, and the scan goes on as if it were gone, so
//! that one pass finds every value to spill.

use super::liveness::{fixed_ends, Interval};
use super::HALF_SCALARS;
use crate::backend::mir::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub enum Outcome {
    /// The first scalar of every virtual register (`u32::MAX` for those that never occur).
    Done(Vec<u32>),
    /// Values to spill before trying again (empty: nothing can be spilled).
    Spill(Vec<VReg>),
}

/// Who holds a scalar: until which position, and which virtual register (`None` for a
/// hardware-written input).
type Owner = Option<(u32, Option<VReg>)>;

/// Allocates `ivs` (sorted by start) in the first `limit` scalars.
pub fn allocate(m: &MShader, ivs: &[Interval], no_spill: &[bool], limit: u32) -> Outcome {
    let limit = limit as usize;
    let mut owner: Vec<Owner> = vec![None; limit];
    // Hardware-written inputs in the budget stay put until their last read.
    for (r, end) in fixed_ends(m) {
        if (r as usize) < limit {
            owner[r as usize] = Some((end, None));
        }
    }
    let mut expiring: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::new();
    for (k, o) in owner.iter().enumerate() {
        if let Some((end, _)) = o {
            expiring.push(Reverse((*end, k)));
        }
    }
    let spillable =
        |v: VReg| !no_spill.get(v.0 as usize).copied().unwrap_or(true) && m.info(v).size == 1;
    let mut phys = vec![u32::MAX; m.vregs.len()];
    let mut victims: Vec<VReg> = Vec::new();
    for iv in ivs {
        // Free what ended before this interval starts.
        while let Some(&Reverse((end, k))) = expiring.peek() {
            if end >= iv.start {
                break;
            }
            expiring.pop();
            if owner[k].is_some_and(|(e, _)| e == end) {
                owner[k] = None;
            }
        }
        let info = m.info(iv.vreg);
        let size = info.size as usize;
        let region = if info.half {
            limit.min(HALF_SCALARS as usize)
        } else {
            limit
        };
        loop {
            let found = (0..=region.saturating_sub(size))
                .find(|&k| k + size <= region && owner[k..k + size].iter().all(Option::is_none));
            if let Some(k) = found {
                for (j, o) in owner[k..k + size].iter_mut().enumerate() {
                    *o = Some((iv.end, Some(iv.vreg)));
                    expiring.push(Reverse((iv.end, k + j)));
                }
                phys[iv.vreg.0 as usize] = k as u32;
                break;
            }
            // Spill the value in reach that ends last, this one included.
            let mut best: Option<(u32, VReg)> = None;
            let held = owner[..region]
                .iter()
                .flatten()
                .filter_map(|&(end, v)| v.map(|v| (end, v)));
            for (end, v) in held.chain(std::iter::once((iv.end, iv.vreg))) {
                if spillable(v) && best.is_none_or(|b| end > b.0) {
                    best = Some((end, v));
                }
            }
            let Some((_, v)) = best else {
                return Outcome::Spill(Vec::new());
            };
            victims.push(v);
            if v == iv.vreg {
                break;
            }
            phys[v.0 as usize] = u32::MAX;
            for o in owner.iter_mut() {
                if o.is_some_and(|(_, w)| w == Some(v)) {
                    *o = None;
                }
            }
        }
    }
    if victims.is_empty() {
        Outcome::Done(phys)
    } else {
        Outcome::Spill(victims)
    }
}
