//! cat0: branches, the end of the program, predication and the preamble.
//!
//! What each instruction does, and where it is known from:
//! - `br p0.c, #t` jumps the fibers whose predicate is true (`!p0.c`:
//!   false); `brao`/`braa` test two predicates, or-ed/and-ed (the XML's
//!   `BRANCH_OR`/`BRANCH_AND`). `bany`/`ball` jump the whole group when any
//!   or all of its fibers' predicates are true: Mesa uses them for
//!   `subgroupAny`/`subgroupAll` as uniform branches
//!   (`ir3_lower_subgroups.c`).
//! - `jump #t` jumps every fiber; `call #t` also pushes the return address,
//!   per fiber, and `ret` pops it (a call through a subroutine; Mesa does
//!   not emit them, Qualcomm's compiler does for `sin`).
//! - `getone #t`: every fiber but the first active one jumps (Mesa's
//!   `elect()`; the elected fiber falls through, as in Turnip's a740
//!   preamble, `shps #l4; getone #l4; <prefetch>; shpe; l4:`).
//! - `getlast.wN #t`: the XML's doc: "Perform a jump for all fibers in the
//!   first cluster with any active fibers, except for the last fiber in the
//!   cluster", clusters of 8 whatever N says.
//! - `shps #t` starts the preamble that stores uniform values in the const
//!   file (`stc`) and `shpe` ends it. The preamble runs once per dispatch:
//!   its results are in the const file every later wave reads, so the
//!   model lets the first wave that reaches `shps` run it and makes every
//!   later one jump to the target, past the preamble.
//! - `predt`/`predf`/`prede`: predication (see [`super::wave`]).
//! - `end` ends the fibers that execute it.
//! - `nop` does nothing; `(rptN)` only makes it longer.
//!
//! Not modelled, each an error naming it: `kill` (fragment shaders),
//! `emit`/`cut` (geometry), `chmask`/`chsh` (tessellation stage hand-off),
//! and `brac`, `brax`, `bkt`, `flow_rev`, whose behaviour is not publicly
//! documented.

use parsnip_isa::{Flow as FlowInstr, Opcode, Pred};

use super::dispatch::DispatchContext;
use super::lanes::lanes;
use super::trap::{error, Trap};
use super::wave::{Flow, Group, PredMode, Wave};

/// Cluster size `getlast` behaves with (the XML's doc: "it behaves as if
/// CLUSTER_SIZE is always 8").
const GETLAST_CLUSTER: u32 = 8;

fn target(g: Group, f: &FlowInstr) -> Result<u32, Trap> {
    let t = i64::from(g.pc) + i64::from(f.target);
    u32::try_from(t).or_else(|_| error(format!("a branch to instruction {t}, before the program")))
}

/// The fibers of `mask` whose predicate `p` holds.
fn predicate_mask(w: &Wave, p: Option<Pred>, mask: u128) -> u128 {
    let Some(p) = p else { return 0 };
    let mut m = 0;
    for lane in lanes(mask) {
        if w.regs.predicate(p.comp as usize, lane) != p.inv {
            m |= 1 << lane;
        }
    }
    m
}

pub(crate) fn execute(
    w: &mut Wave,
    f: &FlowInstr,
    g: Group,
    ctx: &mut DispatchContext,
) -> Result<Flow, Trap> {
    Ok(match f.op {
        Opcode::Nop | Opcode::Shpe => Flow::Next,
        Opcode::Br => Flow::Jump {
            taken: predicate_mask(w, f.pred, g.mask),
            target: target(g, f)?,
        },
        Opcode::Brao | Opcode::Braa => {
            let a = predicate_mask(w, f.pred, g.mask);
            let b = predicate_mask(w, f.pred2, g.mask);
            Flow::Jump {
                taken: if f.op == Opcode::Brao { a | b } else { a & b },
                target: target(g, f)?,
            }
        }
        Opcode::Bany | Opcode::Ball => {
            let t = predicate_mask(w, f.pred, g.mask);
            let jump = if f.op == Opcode::Bany {
                t != 0
            } else {
                t == g.mask
            };
            Flow::Jump {
                taken: if jump { g.mask } else { 0 },
                target: target(g, f)?,
            }
        }
        Opcode::Jump => Flow::Jump {
            taken: g.mask,
            target: target(g, f)?,
        },
        Opcode::Call => {
            if w.call_stacks.is_empty() {
                w.call_stacks = vec![Vec::new(); 128];
            }
            for lane in lanes(g.mask) {
                w.call_stacks[lane].push(g.pc + 1);
            }
            Flow::Jump {
                taken: g.mask,
                target: target(g, f)?,
            }
        }
        Opcode::Ret => {
            let mut parts: Vec<(u128, u32)> = Vec::new();
            for lane in lanes(g.mask) {
                let Some(ra) = w.call_stacks.get_mut(lane).and_then(Vec::pop) else {
                    return error("ret without a call to return from");
                };
                match parts.iter_mut().find(|(_, pc)| *pc == ra) {
                    Some((m, _)) => *m |= 1 << lane,
                    None => parts.push((1 << lane, ra)),
                }
            }
            Flow::Scatter(parts)
        }
        Opcode::Getone => Flow::Jump {
            // All but the lowest fiber.
            taken: g.mask & (g.mask - 1),
            target: target(g, f)?,
        },
        Opcode::Getlast => {
            let first = g.mask.trailing_zeros() / GETLAST_CLUSTER * GETLAST_CLUSTER;
            let cluster = (0xffu128 << first) & g.mask;
            let last = 1u128 << (127 - cluster.leading_zeros());
            Flow::Jump {
                taken: cluster & !last,
                target: target(g, f)?,
            }
        }
        Opcode::Shps => {
            let jump = ctx.preamble_started;
            ctx.preamble_started = true;
            Flow::Jump {
                taken: if jump { g.mask } else { 0 },
                target: target(g, f)?,
            }
        }
        Opcode::Predt | Opcode::Predf => {
            w.pred_mask = predicate_mask(
                w,
                Some(Pred {
                    comp: 0,
                    inv: false,
                }),
                w.fibers,
            );
            w.pred_mode = if f.op == Opcode::Predt {
                PredMode::True
            } else {
                PredMode::False
            };
            Flow::Next
        }
        Opcode::Prede => {
            w.pred_mode = PredMode::None;
            Flow::Next
        }
        Opcode::End => Flow::End { ended: g.mask },
        Opcode::Kill => {
            super::fragment::kill(w, f.pred, g.mask, ctx)?;
            Flow::Next
        }
        Opcode::Emit | Opcode::Cut | Opcode::Chmask | Opcode::Chsh => {
            return error(format!(
                "{} hands work between graphics stages; compute shaders have none",
                f.op
            ))
        }
        op => {
            return error(format!(
                "{op} is not modelled: what it does is not publicly documented"
            ))
        }
    })
}
