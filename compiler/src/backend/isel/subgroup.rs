//! Selection of subgroup operations: the subgroup is the wave. The fiber's index is
//! `getfiberid`; the quad operations are `quad_shuffle`; everything that looks at the
//! other active fibers (elect, votes, ballots, broadcasts, reductions and scans) is a
//! [`MOp::SubgroupMacro`], whose flow control `backend::subgroup_macro` writes out, as
//! Mesa's ir3 lowers its `*.macro` instructions (`ir3_lower_subgroups.c`).

use super::{err, Sel};
use crate::backend::mir::*;
use crate::error::Result;
use crate::ir::{AluOp, BitSize, Subgroup, SubgroupOp};
use parsnip_isa::{Cond, Opcode};

/// The macro's operation for an IR reduction operator.
fn scan_op(op: AluOp) -> Result<ScanOp> {
    Ok(match op {
        AluOp::IAdd => ScanOp::AddU,
        AluOp::IMul => ScanOp::MulU,
        AluOp::UMin => ScanOp::MinU,
        AluOp::UMax => ScanOp::MaxU,
        AluOp::SMin => ScanOp::MinS,
        AluOp::SMax => ScanOp::MaxS,
        AluOp::And => ScanOp::And,
        AluOp::Or => ScanOp::Or,
        AluOp::Xor => ScanOp::Xor,
        AluOp::FAdd => ScanOp::AddF,
        AluOp::FMul => ScanOp::MulF,
        AluOp::FMin => ScanOp::MinF,
        AluOp::FMax => ScanOp::MaxF,
        other => return Err(err(format!("{} is not a subgroup reduction", other.name()))),
    })
}

impl Sel<'_> {
    /// The fiber's index in its wave.
    pub(super) fn fiber_id(&mut self, dst: Comp) {
        self.emit(MOp::FiberId { dst });
    }

    fn subgroup_macro(&mut self, kind: SubgroupMacro, dst: Comp, src: Option<Comp>) {
        self.emit(MOp::SubgroupMacro { kind, dst, src });
    }

    pub(super) fn sel_subgroup(&mut self, dst: Comp, g: &Subgroup) -> Result<()> {
        if !matches!(g.size, BitSize::B1 | BitSize::B32) {
            return Err(err(format!(
                "subgroup operations on {}-bit values are not supported \
                 (shaderSubgroupExtendedTypes is not offered)",
                g.size.bits()
            )));
        }
        let wave = self.ir.subgroup_size;
        let src = |t: &mut Self, i: usize| -> Result<Comp> {
            let s = *g
                .srcs
                .get(i)
                .ok_or_else(|| err("a subgroup operation is missing an operand"))?;
            Ok(t.reg(s, false))
        };
        match g.op {
            SubgroupOp::Elect => self.subgroup_macro(SubgroupMacro::Elect, dst, None),
            SubgroupOp::Any | SubgroupOp::All => {
                let all = g.op == SubgroupOp::All;
                let c = src(self, 0)?;
                self.subgroup_macro(SubgroupMacro::Vote { all }, dst, Some(c));
            }
            SubgroupOp::Ballot(dword) => {
                if u32::from(dword) * 32 >= wave {
                    // Beyond the wave: no fiber there.
                    self.copy(dst, MSrc::Imm(0), false);
                } else {
                    let c = src(self, 0)?;
                    self.subgroup_macro(SubgroupMacro::Ballot { dword }, dst, Some(c));
                }
            }
            SubgroupOp::BroadcastFirst => {
                let v = src(self, 0)?;
                self.subgroup_macro(SubgroupMacro::ReadFirst, dst, Some(v));
            }
            SubgroupOp::Broadcast | SubgroupOp::Shuffle => {
                if g.op == SubgroupOp::Shuffle {
                    return Err(err("subgroup shuffles are not supported"));
                }
                // The value of the one fiber whose index is the lane.
                let pair = self.m.new_vreg(2, false);
                self.copy_value(Comp(pair, 0), g.srcs[0], false);
                let id = self.new_reg(false);
                self.fiber_id(id.into());
                let lane = self.int_src(g.srcs[1], false);
                self.alu(
                    Opcode::CmpsU,
                    Comp(pair, 1),
                    &[Self::plain(MSrc::Reg(id.into())), Self::plain(lane)],
                    Cond::Eq,
                    false,
                );
                self.subgroup_macro(SubgroupMacro::ReadCond, dst, Some(Comp(pair, 0)));
            }
            SubgroupOp::Reduce(op)
            | SubgroupOp::InclusiveScan(op)
            | SubgroupOp::ExclusiveScan(op) => {
                let kind = match g.op {
                    SubgroupOp::Reduce(_) => ScanKind::Reduce,
                    SubgroupOp::InclusiveScan(_) => ScanKind::Inclusive,
                    _ => ScanKind::Exclusive,
                };
                let mut op = scan_op(op)?;
                // Booleans are 0 and 1: their "and" starts from 1, not all ones.
                if g.size == BitSize::B1 && op == ScanOp::And {
                    op = ScanOp::MinU;
                }
                let v = src(self, 0)?;
                self.subgroup_macro(SubgroupMacro::Scan { op, kind }, dst, Some(v));
            }
            SubgroupOp::QuadBroadcast => {
                let v = src(self, 0)?;
                let lane = src(self, 1)?;
                self.emit(MOp::QuadShuffle {
                    op: Opcode::QuadShuffleBrcst,
                    dst,
                    src: v,
                    lane: Some(lane),
                });
            }
            SubgroupOp::QuadSwap(n) => {
                let op = match n {
                    1 => Opcode::QuadShuffleHoriz,
                    2 => Opcode::QuadShuffleVert,
                    _ => Opcode::QuadShuffleDiag,
                };
                let v = src(self, 0)?;
                self.emit(MOp::QuadShuffle {
                    op,
                    dst,
                    src: v,
                    lane: None,
                });
            }
        }
        Ok(())
    }
}
