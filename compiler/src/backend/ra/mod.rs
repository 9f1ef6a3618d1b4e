//! Register allocation: linear scan over live intervals ([`linear_scan`], intervals from
//! [`liveness`]) within a register budget, spilling to private memory ([`spill`]) when
//! the values live at once do not fit.
//!
//! Every value takes full-register scalars (`r0.x` = 0, `r0.y` = 1, ... `r47.w` = 191; r48
//! and up are the shared registers, a6xx.xml / parsnip-isa). A half value uses the low half
//! of its scalar, half register 2k in the merged register file; the half registers a
//! shader can name are hr0.x..hr47.w (192 of them: Mesa's ir3 RA has `RA_HALF_SIZE` of
//! 4 * 48, and parsnip-sim's register file rejects hr48 and up outside the shared
//! registers), so half values sit below scalar 96.
//!
//! The budget is the whole file unless the caller gives less: a work group with a barrier
//! must have all its waves resident at once, which bounds the registers each may take
//! ([`super::occupancy`]).
//!
//! Each round allocates the whole program; values that did not fit are spilled and the
//! next round allocates the rewritten program, whose reload and store registers are never
//! spilled. Every round is linear in the program's size (times the register file's), and
//! the rounds after the first only see the few short registers the spill code adds.

mod linear_scan;
mod liveness;
mod spill;

use super::mir::*;
use crate::error::{CompileError, Result};
use linear_scan::Outcome;
use spill::SpillArea;

/// Scalars of the full register file a shader may use: r0.x to r47.w.
pub const FULL_SCALARS: u32 = 48 * 4;
/// Half values must be in the first 96 scalars (half registers hr0.x..hr47.w).
pub const HALF_SCALARS: u32 = 96;

/// Rounds of allocation and spilling before giving up. Each round after the first spills
/// only to make room for the previous round's reloads, which converges in two or three.
const MAX_ROUNDS: usize = 16;

/// Where each virtual register ended up.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// First scalar of each virtual register (`u32::MAX` for one that no longer occurs).
    pub phys: Vec<u32>,
    /// Values spilled to private memory.
    pub spills: u32,
    /// Bytes of private memory the spills take.
    pub spill_bytes: u32,
}

/// Allocates registers in the first `budget` scalars (at most [`FULL_SCALARS`]), spilling
/// to private memory from byte `scratch_base` on.
pub fn allocate(m: &mut MShader, scratch_base: u32, budget: u32) -> Result<Allocation> {
    let budget = budget.min(FULL_SCALARS);
    let mut no_spill = vec![false; m.vregs.len()];
    let mut area = SpillArea::new(scratch_base);
    let mut spills = 0u32;
    for _ in 0..MAX_ROUNDS {
        let ivs = liveness::intervals(m);
        let mut order: Vec<_> = ivs.iter().flatten().copied().collect();
        order.sort_by_key(|i| (i.start, i.vreg.0));
        match linear_scan::allocate(m, &order, &no_spill, budget) {
            Outcome::Done(phys) => {
                return Ok(Allocation {
                    phys,
                    spills,
                    spill_bytes: area.bytes,
                })
            }
            Outcome::Spill(victims) if victims.is_empty() => {
                return Err(CompileError::new(format!(
                    "register allocation failed: the values live at one point do not fit in {} registers even after spilling",
                    budget / 4
                )))
            }
            Outcome::Spill(victims) => {
                let slots = area.assign(&victims, &ivs);
                area.rewrite(m, &slots, &mut no_spill);
                spills += victims.len() as u32;
            }
        }
    }
    Err(CompileError::new(format!(
        "register allocation did not converge in {MAX_ROUNDS} rounds of spilling"
    )))
}
