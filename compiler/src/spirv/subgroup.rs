//! Subgroup instructions (SPV_KHR_shader_ballot, SPV_KHR_subgroup_vote and the
//! GroupNonUniform* instructions of SPIR-V 1.3) and the subgroup mask built-ins, as IR
//! subgroup operations and the ALU arithmetic on ballots around them.
//!
//! A ballot is a uvec4 of which each component is one [`SubgroupOp::Ballot`] dword; the
//! bit operations on ballots (inverse ballot, bit extract, bit count, find LSB/MSB) are
//! ordinary arithmetic on those dwords and the invocation's index.

use super::function::{err, Comp, Ids, Translator};
use super::operands::id_at;
use crate::error::Result;
use crate::ir::*;
use rspirv::dr;
use rspirv::spirv::{BuiltIn, GroupOperation, Op as SpvOp};

/// SPIR-V's Subgroup scope.
const SCOPE_SUBGROUP: u64 = 3;

/// Which subgroup mask built-in.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Mask {
    Eq,
    Ge,
    Gt,
    Le,
    Lt,
}

impl Mask {
    pub(super) fn of(b: BuiltIn) -> Option<Mask> {
        Some(match b {
            BuiltIn::SubgroupEqMask => Mask::Eq,
            BuiltIn::SubgroupGeMask => Mask::Ge,
            BuiltIn::SubgroupGtMask => Mask::Gt,
            BuiltIn::SubgroupLeMask => Mask::Le,
            BuiltIn::SubgroupLtMask => Mask::Lt,
            _ => return None,
        })
    }
}

impl Translator<'_> {
    pub(super) fn subgroup_value(
        &mut self,
        op: SubgroupOp,
        size: BitSize,
        srcs: &[Src],
        result: BitSize,
    ) -> Result<Src> {
        if matches!(size, BitSize::B16 | BitSize::B64) {
            return self.subgroup_wide(op, size, srcs);
        }
        self.value(
            Op::Subgroup(Subgroup {
                op,
                size,
                srcs: srcs.iter().copied().collect(),
            }),
            result,
        )
    }

    fn u32op(&mut self, op: AluOp, srcs: &[Src]) -> Result<Src> {
        self.alu(op, BitSize::B32, srcs)
    }

    /// Dword `k` of a subgroup mask built-in: the invocations of the subgroup whose
    /// index is equal to, at least, above, at most or below this invocation's.
    pub(super) fn subgroup_mask(&mut self, mask: Mask, k: u64) -> Result<Src> {
        use AluOp as A;
        let id = self.value(Op::SysVal(SysVal::SubgroupInvocationId), BitSize::B32)?;
        let size = self.value(Op::SysVal(SysVal::SubgroupSize), BitSize::B32)?;
        let ones = Src::Imm(0xffff_ffff);
        // The bits of dword k that name invocations of the subgroup.
        let full = self.u32op(A::ULe, &[Src::Imm(32 * (k + 1)), size])?;
        let some = self.u32op(A::ULt, &[Src::Imm(32 * k), size])?;
        let rest = self.u32op(A::ISub, &[size, Src::Imm(32 * k)])?;
        let part = self.u32op(A::Shl, &[Src::Imm(1), rest])?;
        let part = self.u32op(A::ISub, &[part, Src::Imm(1)])?;
        let part = self.u32op(A::Select, &[some, part, Src::Imm(0)])?;
        let valid = self.u32op(A::Select, &[full, ones, part])?;
        // Which dword this invocation's bit is in, and the bit.
        let hi = self.u32op(A::UShr, &[id, Src::Imm(5)])?;
        let here = self.u32op(A::IEq, &[hi, Src::Imm(k)])?;
        let bit = self.u32op(A::Shl, &[Src::Imm(1), id])?;
        let eq = self.u32op(A::Select, &[here, bit, Src::Imm(0)])?;
        let ge = {
            let below = self.u32op(A::ULt, &[hi, Src::Imm(k)])?;
            let from = self.u32op(A::Shl, &[ones, id])?;
            let from = self.u32op(A::Select, &[here, from, Src::Imm(0)])?;
            let ge = self.u32op(A::Select, &[below, ones, from])?;
            self.u32op(A::And, &[ge, valid])?
        };
        let gt = |t: &mut Self| -> Result<Src> {
            let not_eq = t.u32op(A::Not, &[eq])?;
            t.u32op(A::And, &[ge, not_eq])
        };
        Ok(match mask {
            Mask::Eq => eq,
            Mask::Ge => ge,
            Mask::Gt => gt(self)?,
            Mask::Le => {
                let gt = gt(self)?;
                let le = self.u32op(A::Not, &[gt])?;
                self.u32op(A::And, &[le, valid])?
            }
            Mask::Lt => {
                let lt = self.u32op(A::Not, &[ge])?;
                self.u32op(A::And, &[lt, valid])?
            }
        })
    }

    /// The four dwords of the ballot of a boolean.
    fn ballot(&mut self, pred: Src) -> Result<Comp> {
        let mut srcs = Vec::new();
        for d in 0..4 {
            srcs.push(self.subgroup_value(
                SubgroupOp::Ballot(d),
                BitSize::B1,
                &[pred],
                BitSize::B32,
            )?);
        }
        Ok(Comp::new(srcs, vec![BitSize::B32; 4]))
    }

    /// Bit `index` of a ballot's four dwords, as a boolean.
    fn ballot_bit(&mut self, ballot: &Comp, index: Src) -> Result<Src> {
        use AluOp as A;
        let dword = self.u32op(A::UShr, &[index, Src::Imm(5)])?;
        let mut word = ballot.srcs[3];
        for d in (0..3).rev() {
            let is = self.u32op(A::IEq, &[dword, Src::Imm(d)])?;
            word = self.u32op(A::Select, &[is, ballot.srcs[d as usize], word])?;
        }
        let shifted = self.u32op(A::UShr, &[word, index])?;
        let bit = self.u32op(A::And, &[shifted, Src::Imm(1)])?;
        self.u32op(A::INe, &[bit, Src::Imm(0)])
    }

    fn check_scope(&self, inst: &dr::Instruction) -> Result<()> {
        let id = id_at(inst, 0)?;
        match self.m.scalar_constant(id) {
            Some(SCOPE_SUBGROUP) => Ok(()),
            Some(s) => Err(err(
                inst,
                format!("scope {s}: only subgroup-scope group operations are supported"),
            )),
            None => Err(err(inst, format!("the scope %{id} is not a constant"))),
        }
    }

    /// A value operand's components, each applied `f` to.
    fn per_component(
        &mut self,
        v: &Comp,
        mut f: impl FnMut(&mut Self, Src, BitSize) -> Result<Src>,
    ) -> Result<Comp> {
        let mut srcs = Vec::new();
        for (s, size) in v.srcs.iter().zip(&v.sizes) {
            srcs.push(f(self, *s, *size)?);
        }
        Ok(Comp::new(srcs, v.sizes.clone()))
    }

    fn scalar_operand(&self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<Src> {
        let c = self.comp(ids, inst, i)?;
        match c.srcs.as_slice() {
            [s] => Ok(*s),
            _ => Err(err(inst, format!("operand {i} must be a scalar"))),
        }
    }

    /// Translates a subgroup instruction.
    pub(super) fn subgroup(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Comp> {
        use AluOp as A;
        use SpvOp as O;
        let op = inst.class.opcode;
        // The KHR instructions have no scope operand.
        let khr = matches!(
            op,
            O::SubgroupBallotKHR
                | O::SubgroupFirstInvocationKHR
                | O::SubgroupAllKHR
                | O::SubgroupAnyKHR
                | O::SubgroupAllEqualKHR
                | O::SubgroupReadInvocationKHR
        );
        let first = if khr {
            0
        } else {
            self.check_scope(inst)?;
            1
        };
        let b1 = |s: Src| Comp::new(vec![s], vec![BitSize::B1]);
        let u32c = |s: Src| Comp::new(vec![s], vec![BitSize::B32]);
        Ok(match op {
            O::GroupNonUniformElect => {
                b1(self.subgroup_value(SubgroupOp::Elect, BitSize::B1, &[], BitSize::B1)?)
            }
            O::GroupNonUniformAll
            | O::SubgroupAllKHR
            | O::GroupNonUniformAny
            | O::SubgroupAnyKHR => {
                let p = self.scalar_operand(ids, inst, first)?;
                let which = if matches!(op, O::GroupNonUniformAll | O::SubgroupAllKHR) {
                    SubgroupOp::All
                } else {
                    SubgroupOp::Any
                };
                b1(self.subgroup_value(which, BitSize::B1, &[p], BitSize::B1)?)
            }
            O::GroupNonUniformAllEqual | O::SubgroupAllEqualKHR => {
                // Every component equal to the lowest active invocation's, in all.
                let v = self.comp(ids, inst, first)?;
                let mut all = Src::Imm(1);
                for (s, size) in v.srcs.iter().zip(&v.sizes) {
                    let f = self.subgroup_value(SubgroupOp::BroadcastFirst, *size, &[*s], *size)?;
                    let same = self.alu(A::IEq, *size, &[*s, f])?;
                    all = self.alu(A::And, BitSize::B1, &[all, same])?;
                }
                b1(self.subgroup_value(SubgroupOp::All, BitSize::B1, &[all], BitSize::B1)?)
            }
            O::GroupNonUniformBroadcastFirst | O::SubgroupFirstInvocationKHR => {
                let v = self.comp(ids, inst, first)?;
                self.per_component(&v, |t, s, size| {
                    t.subgroup_value(SubgroupOp::BroadcastFirst, size, &[s], size)
                })?
            }
            O::GroupNonUniformBroadcast | O::SubgroupReadInvocationKHR => {
                let v = self.comp(ids, inst, first)?;
                let lane = self.scalar_operand(ids, inst, first + 1)?;
                self.per_component(&v, |t, s, size| {
                    t.subgroup_value(SubgroupOp::Broadcast, size, &[s, lane], size)
                })?
            }
            O::GroupNonUniformShuffle
            | O::GroupNonUniformShuffleXor
            | O::GroupNonUniformShuffleUp
            | O::GroupNonUniformShuffleDown => {
                let v = self.comp(ids, inst, first)?;
                let k = self.scalar_operand(ids, inst, first + 1)?;
                let id = self.value(Op::SysVal(SysVal::SubgroupInvocationId), BitSize::B32)?;
                let lane = match op {
                    O::GroupNonUniformShuffle => k,
                    O::GroupNonUniformShuffleXor => self.u32op(A::Xor, &[id, k])?,
                    O::GroupNonUniformShuffleUp => self.u32op(A::ISub, &[id, k])?,
                    _ => self.u32op(A::IAdd, &[id, k])?,
                };
                self.per_component(&v, |t, s, size| t.shuffle(s, size, lane))?
            }
            O::GroupNonUniformBallot | O::SubgroupBallotKHR => {
                let p = self.scalar_operand(ids, inst, first)?;
                self.ballot(p)?
            }
            O::GroupNonUniformInverseBallot => {
                let v = self.comp(ids, inst, first)?;
                let id = self.value(Op::SysVal(SysVal::SubgroupInvocationId), BitSize::B32)?;
                b1(self.ballot_bit(&v, id)?)
            }
            O::GroupNonUniformBallotBitExtract => {
                let v = self.comp(ids, inst, first)?;
                let index = self.scalar_operand(ids, inst, first + 1)?;
                b1(self.ballot_bit(&v, index)?)
            }
            O::GroupNonUniformBallotBitCount => {
                let group = group_operation(inst)?;
                let v = self.comp(ids, inst, 2)?;
                let mask = match group {
                    GroupOperation::Reduce => None,
                    GroupOperation::InclusiveScan => Some(Mask::Le),
                    GroupOperation::ExclusiveScan => Some(Mask::Lt),
                    other => {
                        return Err(err(inst, format!("group operation {other:?} on a ballot")))
                    }
                };
                let mut total = Src::Imm(0);
                for k in 0..4 {
                    let mut word = v.srcs[k];
                    if let Some(m) = mask {
                        let m = self.subgroup_mask(m, k as u64)?;
                        word = self.u32op(A::And, &[word, m])?;
                    }
                    let n = self.u32op(A::BitCount, &[word])?;
                    total = self.u32op(A::IAdd, &[total, n])?;
                }
                u32c(total)
            }
            O::GroupNonUniformBallotFindLSB => {
                // The lowest dword with a bit set gives the answer.
                let v = self.comp(ids, inst, first)?;
                let mut r = Src::Imm(0xffff_ffff);
                for k in (0..4).rev() {
                    let lsb = self.u32op(A::FindLsb, &[v.srcs[k]])?;
                    let at = self.u32op(A::IAdd, &[lsb, Src::Imm(32 * k as u64)])?;
                    let set = self.u32op(A::INe, &[v.srcs[k], Src::Imm(0)])?;
                    r = self.u32op(A::Select, &[set, at, r])?;
                }
                u32c(r)
            }
            O::GroupNonUniformBallotFindMSB => {
                let v = self.comp(ids, inst, first)?;
                let mut r = Src::Imm(0xffff_ffff);
                for k in 0..4 {
                    let msb = self.u32op(A::UFindMsb, &[v.srcs[k]])?;
                    let at = self.u32op(A::IAdd, &[msb, Src::Imm(32 * k as u64)])?;
                    let set = self.u32op(A::INe, &[v.srcs[k], Src::Imm(0)])?;
                    r = self.u32op(A::Select, &[set, at, r])?;
                }
                u32c(r)
            }
            O::GroupNonUniformIAdd
            | O::GroupNonUniformFAdd
            | O::GroupNonUniformIMul
            | O::GroupNonUniformFMul
            | O::GroupNonUniformSMin
            | O::GroupNonUniformUMin
            | O::GroupNonUniformFMin
            | O::GroupNonUniformSMax
            | O::GroupNonUniformUMax
            | O::GroupNonUniformFMax
            | O::GroupNonUniformBitwiseAnd
            | O::GroupNonUniformBitwiseOr
            | O::GroupNonUniformBitwiseXor
            | O::GroupNonUniformLogicalAnd
            | O::GroupNonUniformLogicalOr
            | O::GroupNonUniformLogicalXor => {
                let alu = match op {
                    O::GroupNonUniformIAdd => A::IAdd,
                    O::GroupNonUniformFAdd => A::FAdd,
                    O::GroupNonUniformIMul => A::IMul,
                    O::GroupNonUniformFMul => A::FMul,
                    O::GroupNonUniformSMin => A::SMin,
                    O::GroupNonUniformUMin => A::UMin,
                    O::GroupNonUniformFMin => A::FMin,
                    O::GroupNonUniformSMax => A::SMax,
                    O::GroupNonUniformUMax => A::UMax,
                    O::GroupNonUniformFMax => A::FMax,
                    O::GroupNonUniformBitwiseAnd | O::GroupNonUniformLogicalAnd => A::And,
                    O::GroupNonUniformBitwiseOr | O::GroupNonUniformLogicalOr => A::Or,
                    _ => A::Xor,
                };
                let which = match group_operation(inst)? {
                    GroupOperation::Reduce => SubgroupOp::Reduce(alu),
                    GroupOperation::InclusiveScan => SubgroupOp::InclusiveScan(alu),
                    GroupOperation::ExclusiveScan => SubgroupOp::ExclusiveScan(alu),
                    other => {
                        return Err(err(
                            inst,
                            format!("group operation {other:?} is not supported"),
                        ))
                    }
                };
                let v = self.comp(ids, inst, 2)?;
                self.per_component(&v, |t, s, size| t.subgroup_value(which, size, &[s], size))?
            }
            O::GroupNonUniformQuadBroadcast => {
                let v = self.comp(ids, inst, 1)?;
                let lane = self.scalar_operand(ids, inst, 2)?;
                self.per_component(&v, |t, s, size| {
                    t.subgroup_value(SubgroupOp::QuadBroadcast, size, &[s, lane], size)
                })?
            }
            O::GroupNonUniformQuadSwap => {
                let v = self.comp(ids, inst, 1)?;
                let dir = id_at(inst, 2)?;
                let n = match self.m.scalar_constant(dir) {
                    Some(d @ 0..=2) => d as u8 + 1,
                    _ => return Err(err(inst, "the quad swap direction must be 0, 1 or 2")),
                };
                self.per_component(&v, |t, s, size| {
                    t.subgroup_value(SubgroupOp::QuadSwap(n), size, &[s], size)
                })?
            }
            other => return Err(err(inst, format!("Op{other:?} is not supported"))),
        })
    }
}

fn group_operation(inst: &dr::Instruction) -> Result<GroupOperation> {
    match inst.operands.get(1) {
        Some(dr::Operand::GroupOperation(g)) => Ok(*g),
        _ => Err(err(inst, "operand 1 is not a group operation")),
    }
}

/// Whether `op` is a subgroup instruction [`Translator::subgroup`] translates.
pub(super) fn is_subgroup_op(op: SpvOp) -> bool {
    use SpvOp as O;
    matches!(
        op,
        O::GroupNonUniformElect
            | O::GroupNonUniformAll
            | O::GroupNonUniformAny
            | O::GroupNonUniformAllEqual
            | O::GroupNonUniformBroadcast
            | O::GroupNonUniformBroadcastFirst
            | O::GroupNonUniformShuffle
            | O::GroupNonUniformShuffleXor
            | O::GroupNonUniformShuffleUp
            | O::GroupNonUniformShuffleDown
            | O::GroupNonUniformBallot
            | O::GroupNonUniformInverseBallot
            | O::GroupNonUniformBallotBitExtract
            | O::GroupNonUniformBallotBitCount
            | O::GroupNonUniformBallotFindLSB
            | O::GroupNonUniformBallotFindMSB
            | O::GroupNonUniformIAdd
            | O::GroupNonUniformFAdd
            | O::GroupNonUniformIMul
            | O::GroupNonUniformFMul
            | O::GroupNonUniformSMin
            | O::GroupNonUniformUMin
            | O::GroupNonUniformFMin
            | O::GroupNonUniformSMax
            | O::GroupNonUniformUMax
            | O::GroupNonUniformFMax
            | O::GroupNonUniformBitwiseAnd
            | O::GroupNonUniformBitwiseOr
            | O::GroupNonUniformBitwiseXor
            | O::GroupNonUniformLogicalAnd
            | O::GroupNonUniformLogicalOr
            | O::GroupNonUniformLogicalXor
            | O::GroupNonUniformQuadBroadcast
            | O::GroupNonUniformQuadSwap
            | O::SubgroupBallotKHR
            | O::SubgroupFirstInvocationKHR
            | O::SubgroupAllKHR
            | O::SubgroupAnyKHR
            | O::SubgroupAllEqualKHR
            | O::SubgroupReadInvocationKHR
    )
}
