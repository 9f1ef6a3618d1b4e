//! Subgroup operations on 16- and 64-bit values (shaderSubgroupExtendedTypes), made
//! of the 32-bit ones the back end selects.
//!
//! - Moves between fibers (broadcasts, quad operations) move the value's bits: a
//!   16-bit value zero-extended to 32 bits and truncated back, a 64-bit one as its two
//!   32-bit halves.
//! - 16-bit integer reductions and scans, and 16-bit float minimum and maximum, are
//!   exact in 32 bits: sums, products and bitwise operations wrap alike modulo 2^16 on
//!   the zero-extended values, signed minimum and maximum compare the sign-extended
//!   ones, float minimum and maximum the values converted to fp32 (exactly).
//! - 64-bit bitwise reductions and scans work on each half alone.
//! - What needs the full width in every step (16-bit float sums and products, which
//!   must be rounded to fp16 at each step; 64-bit sums with their carries, products,
//!   minimum and maximum) runs over the subgroup's invocations in order: each one's
//!   value, broadcast to all, is combined into the accumulator of every invocation
//!   that includes it (all active ones for a reduction, those up to or before itself
//!   for a scan). That is a valid order of the operation, and each step is an
//!   ordinary ALU operation of the value's own size.

use super::function::Translator;
use crate::error::{CompileError, Result};
use crate::ir::*;

/// Invocations a subgroup can have: a ballot's four dwords.
const MAX_SUBGROUP: u32 = 128;

impl Translator<'_> {
    /// `op` on a 32-bit operand.
    fn sg32(&mut self, op: SubgroupOp, srcs: &[Src]) -> Result<Src> {
        self.value(
            Op::Subgroup(Subgroup {
                op,
                size: BitSize::B32,
                srcs: srcs.iter().copied().collect(),
            }),
            BitSize::B32,
        )
    }

    /// Subgroup operation `op` on a 16- or 64-bit value `srcs[0]` (the other
    /// operands are 32-bit lanes).
    pub(super) fn subgroup_wide(
        &mut self,
        op: SubgroupOp,
        size: BitSize,
        srcs: &[Src],
    ) -> Result<Src> {
        use AluOp as A;
        let x = srcs[0];
        let rest = &srcs[1..];
        match (op, size) {
            (
                SubgroupOp::BroadcastFirst
                | SubgroupOp::Broadcast
                | SubgroupOp::Shuffle
                | SubgroupOp::QuadBroadcast
                | SubgroupOp::QuadSwap(_),
                _,
            ) => self.bitwise_halves(op, size, x, rest),
            (
                SubgroupOp::Reduce(a) | SubgroupOp::InclusiveScan(a) | SubgroupOp::ExclusiveScan(a),
                BitSize::B16,
            ) => match a {
                A::IAdd | A::IMul | A::And | A::Or | A::Xor | A::UMin | A::UMax => {
                    self.widened(op, ConvKind::I2I { signed: false }, x)
                }
                A::SMin | A::SMax => self.widened(op, ConvKind::I2I { signed: true }, x),
                A::FMin | A::FMax => self.widened(op, ConvKind::F2F, x),
                _ => self.in_order(op, a, size, x),
            },
            (
                SubgroupOp::Reduce(a) | SubgroupOp::InclusiveScan(a) | SubgroupOp::ExclusiveScan(a),
                BitSize::B64,
            ) => match a {
                A::And | A::Or | A::Xor => self.bitwise_halves(op, size, x, rest),
                _ => self.in_order(op, a, size, x),
            },
            _ => Err(CompileError::new(format!(
                "subgroup operations on {}-bit values",
                size.bits()
            ))),
        }
    }

    /// `op` on the value's bits, 32 at a time.
    fn bitwise_halves(
        &mut self,
        op: SubgroupOp,
        size: BitSize,
        x: Src,
        rest: &[Src],
    ) -> Result<Src> {
        let with = |t: &mut Self, v: Src| {
            let mut s = vec![v];
            s.extend_from_slice(rest);
            t.sg32(op, &s)
        };
        if size == BitSize::B64 {
            let lo = self.alu(AluOp::Unpack64Lo, BitSize::B64, &[x])?;
            let hi = self.alu(AluOp::Unpack64Hi, BitSize::B64, &[x])?;
            let (lo, hi) = (with(self, lo)?, with(self, hi)?);
            self.alu(AluOp::Pack64, BitSize::B32, &[lo, hi])
        } else {
            let kind = ConvKind::I2I { signed: false };
            let w = self.convert(kind, size, BitSize::B32, x)?;
            let r = with(self, w)?;
            self.convert(kind, BitSize::B32, size, r)
        }
    }

    /// `op` on the 16-bit `x` converted to 32 bits by `kind`, converted back.
    fn widened(&mut self, op: SubgroupOp, kind: ConvKind, x: Src) -> Result<Src> {
        let w = self.convert(kind, BitSize::B16, BitSize::B32, x)?;
        let r = self.sg32(op, &[w])?;
        self.convert(kind, BitSize::B32, BitSize::B16, r)
    }

    /// The reduction or scan `op` of `alu` over the invocations in order.
    fn in_order(&mut self, op: SubgroupOp, alu: AluOp, size: BitSize, x: Src) -> Result<Src> {
        let Some(identity) = identity(alu, size) else {
            return Err(CompileError::new(format!(
                "{}-bit subgroup {}",
                size.bits(),
                alu.name()
            )));
        };
        let mut active = Vec::new();
        for d in 0..4 {
            active.push(self.value(
                Op::Subgroup(Subgroup {
                    op: SubgroupOp::Ballot(d),
                    size: BitSize::B1,
                    srcs: [Src::Imm(1)].into_iter().collect(),
                }),
                BitSize::B32,
            )?);
        }
        let me = self.value(Op::SysVal(SysVal::SubgroupInvocationId), BitSize::B32)?;
        let mut acc = Src::Imm(identity);
        for lane in 0..MAX_SUBGROUP {
            let word = active[(lane / 32) as usize];
            let bit = self.alu(
                AluOp::And,
                BitSize::B32,
                &[word, Src::Imm(1 << (lane % 32))],
            )?;
            let mut counts = self.alu(AluOp::INe, BitSize::B32, &[bit, Src::Imm(0)])?;
            let before = match op {
                SubgroupOp::InclusiveScan(_) => Some(AluOp::ULe),
                SubgroupOp::ExclusiveScan(_) => Some(AluOp::ULt),
                _ => None,
            };
            if let Some(cmp) = before {
                let mine = self.alu(cmp, BitSize::B32, &[Src::Imm(u64::from(lane)), me])?;
                counts = self.alu(AluOp::And, BitSize::B1, &[counts, mine])?;
            }
            let v =
                self.bitwise_halves(SubgroupOp::Broadcast, size, x, &[Src::Imm(u64::from(lane))])?;
            let combined = self.alu(alu, size, &[acc, v])?;
            acc = self.alu(AluOp::Select, size, &[counts, combined, acc])?;
        }
        Ok(acc)
    }
}

/// The value `alu` leaves the other operand unchanged with, at `size`.
fn identity(alu: AluOp, size: BitSize) -> Option<u64> {
    use AluOp as A;
    let bits = size.bits();
    let ones = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let sign = 1u64 << (bits - 1);
    Some(match (alu, size) {
        (A::IAdd | A::Or | A::Xor | A::UMax, _) => 0,
        (A::IMul, _) => 1,
        (A::And | A::UMin, _) => ones,
        (A::SMin, _) => sign - 1,
        (A::SMax, _) => sign,
        // fp16: +0.0 (as the 32-bit scans start from), 1.0, +inf, -inf.
        (A::FAdd, BitSize::B16) => 0,
        (A::FMul, BitSize::B16) => 0x3c00,
        (A::FMin, BitSize::B16) => 0x7c00,
        (A::FMax, BitSize::B16) => 0xfc00,
        _ => return None,
    })
}
