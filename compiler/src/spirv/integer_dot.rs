//! Integer dot products (SPV_KHR_integer_dot_product): OpSDot, OpUDot, OpSUDot and
//! their saturating-accumulate forms, on vectors of 16-, 32- and 64-bit integers or on
//! 32-bit scalars holding four packed 8-bit lanes (PackedVectorFormat4x8Bit).
//!
//! The GPUs have no instruction the compiler uses for them (a6xx and a7xx's `dp4acc`
//! is not selected), so they are ordinary integer arithmetic, and the driver reports
//! no form as accelerated. Without saturation the result is the low bits of the exact
//! sum, so products and sums are taken at the result's width. With saturation the
//! exact sum of the products and the accumulator is needed before clamping: each
//! product is taken in 128 bits (from 32-bit halves) and the sum of up to four of them
//! and the accumulator in 192, three 64-bit words, which no input overflows.

use super::function::{err, Comp, Ids, Translator};
use crate::error::Result;
use crate::ir::*;
use rspirv::dr;
use rspirv::spirv::Op as SpvOp;

/// A 192-bit two's complement value as (top, high, low) 64-bit words.
type Wide = [Src; 3];

const LOW32: u64 = 0xffff_ffff;

impl Translator<'_> {
    pub(super) fn integer_dot(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Comp> {
        use SpvOp as O;
        let op = inst.class.opcode;
        let (a_signed, b_signed) = match op {
            O::SDot | O::SDotAccSat => (true, true),
            O::UDot | O::UDotAccSat => (false, false),
            _ => (true, false),
        };
        let saturate = matches!(op, O::SDotAccSat | O::UDotAccSat | O::SUDotAccSat);
        let result = match self.result_sizes(inst)?.as_slice() {
            [s] if *s != BitSize::B1 => *s,
            _ => return Err(err(inst, "the result is not an integer scalar")),
        };
        let packed = inst
            .operands
            .iter()
            .any(|o| matches!(o, dr::Operand::PackedVectorFormat(_)));
        let a = self.dot_lanes(ids, inst, 0, packed, a_signed)?;
        let b = self.dot_lanes(ids, inst, 1, packed, b_signed)?;
        if a.len() != b.len() || a.iter().zip(&b).any(|(x, y)| x.1 != y.1) {
            return Err(err(inst, "the two vectors do not match"));
        }
        if a.iter().any(|l| l.1.bits() > result.bits()) {
            return Err(err(
                inst,
                "the result is narrower than the vectors' components",
            ));
        }
        let value = if saturate {
            let acc = self.comp(ids, inst, 2)?;
            if acc.len() != 1 || acc.sizes[0] != result {
                return Err(err(inst, "the accumulator does not match the result type"));
            }
            // The result is signed for SDot and SUDot.
            self.saturating_dot(&a, &b, (a_signed, b_signed), acc.srcs[0], result)?
        } else {
            let mut sum = Src::Imm(0);
            for ((x, xs), (y, ys)) in a.iter().zip(&b) {
                let x = self.extend(*x, *xs, result, a_signed)?;
                let y = self.extend(*y, *ys, result, b_signed)?;
                let p = self.alu(AluOp::IMul, result, &[x, y])?;
                sum = self.alu(AluOp::IAdd, result, &[sum, p])?;
            }
            sum
        };
        Ok(Comp::new(vec![value], vec![result]))
    }

    /// The lanes of operand `i`: a vector's components with their sizes, or the four
    /// bytes of a packed 32-bit scalar, already extended to 32 bits.
    fn dot_lanes(
        &mut self,
        ids: &Ids,
        inst: &dr::Instruction,
        i: usize,
        packed: bool,
        signed: bool,
    ) -> Result<Vec<(Src, BitSize)>> {
        let v = self.comp(ids, inst, i)?;
        if packed {
            if v.len() != 1 || v.sizes[0] != BitSize::B32 {
                return Err(err(inst, "a packed 4x8-bit vector is a 32-bit scalar"));
            }
            let extract = if signed {
                AluOp::SBitfieldExtract
            } else {
                AluOp::UBitfieldExtract
            };
            return (0..4u64)
                .map(|k| {
                    let lane = self.alu(
                        extract,
                        BitSize::B32,
                        &[v.srcs[0], Src::Imm(8 * k), Src::Imm(8)],
                    )?;
                    Ok((lane, BitSize::B32))
                })
                .collect();
        }
        if v.sizes.contains(&BitSize::B1) {
            return Err(err(
                inst,
                "dot products of booleans are not integer dot products",
            ));
        }
        Ok(v.srcs
            .iter()
            .copied()
            .zip(v.sizes.iter().copied())
            .collect())
    }

    fn extend(&mut self, v: Src, from: BitSize, to: BitSize, signed: bool) -> Result<Src> {
        if from == to {
            return Ok(v);
        }
        self.convert(ConvKind::I2I { signed }, from, to, v)
    }

    fn a64(&mut self, op: AluOp, srcs: &[Src]) -> Result<Src> {
        self.alu(op, BitSize::B64, srcs)
    }

    /// The sign of `v` as a whole 64-bit word (all ones or zero), or zero.
    fn sign_word(&mut self, v: Src, signed: bool) -> Result<Src> {
        if signed {
            self.a64(AluOp::SShr, &[v, Src::Imm(63)])
        } else {
            Ok(Src::Imm(0))
        }
    }

    /// `x * y` of two 64-bit values (each signed or not) exactly, in 192 bits: the
    /// unsigned product from four 32x32-bit products, then, for a negative signed
    /// operand, the other subtracted from the high word.
    fn multiply_wide(&mut self, x: Src, xs: bool, y: Src, ys: bool) -> Result<Wide> {
        use AluOp as A;
        let m = Src::Imm(LOW32);
        let (xl, xh) = (
            self.a64(A::And, &[x, m])?,
            self.a64(A::UShr, &[x, Src::Imm(32)])?,
        );
        let (yl, yh) = (
            self.a64(A::And, &[y, m])?,
            self.a64(A::UShr, &[y, Src::Imm(32)])?,
        );
        let ll = self.a64(A::IMul, &[xl, yl])?;
        let lh = self.a64(A::IMul, &[xl, yh])?;
        let hl = self.a64(A::IMul, &[xh, yl])?;
        let hh = self.a64(A::IMul, &[xh, yh])?;
        let ll_hi = self.a64(A::UShr, &[ll, Src::Imm(32)])?;
        let lh_lo = self.a64(A::And, &[lh, m])?;
        let hl_lo = self.a64(A::And, &[hl, m])?;
        let mid = self.a64(A::IAdd, &[lh_lo, hl_lo])?;
        let mid = self.a64(A::IAdd, &[mid, ll_hi])?;
        let ll_lo = self.a64(A::And, &[ll, m])?;
        let mid_up = self.a64(A::Shl, &[mid, Src::Imm(32)])?;
        let lo = self.a64(A::Or, &[ll_lo, mid_up])?;
        let mut hi = hh;
        for part in [lh, hl, mid] {
            let up = self.a64(A::UShr, &[part, Src::Imm(32)])?;
            hi = self.a64(A::IAdd, &[hi, up])?;
        }
        for (neg, other, signed) in [(x, y, xs), (y, x, ys)] {
            if signed {
                let below = self.a64(A::SLt, &[neg, Src::Imm(0)])?;
                let sub = self.a64(A::Select, &[below, other, Src::Imm(0)])?;
                hi = self.a64(A::ISub, &[hi, sub])?;
            }
        }
        let top = self.sign_word(hi, xs || ys)?;
        Ok([top, hi, lo])
    }

    /// `a + b` and whether it carried out, of one word and a carry in (0 or 1).
    fn add_carry(&mut self, a: Src, b: Src, carry: Src) -> Result<(Src, Src)> {
        use AluOp as A;
        let t = self.a64(A::IAdd, &[a, b])?;
        let c1 = self.a64(A::ULt, &[t, b])?;
        let r = self.a64(A::IAdd, &[t, carry])?;
        let c2 = self.a64(A::ULt, &[r, t])?;
        let c = self.alu(A::Or, BitSize::B1, &[c1, c2])?;
        let c = self.a64(A::Select, &[c, Src::Imm(1), Src::Imm(0)])?;
        Ok((r, c))
    }

    fn add_wide(&mut self, a: Wide, b: Wide) -> Result<Wide> {
        let (lo, c) = self.add_carry(a[2], b[2], Src::Imm(0))?;
        let (hi, c) = self.add_carry(a[1], b[1], c)?;
        let top = self.a64(AluOp::IAdd, &[a[0], b[0]])?;
        let top = self.a64(AluOp::IAdd, &[top, c])?;
        Ok([top, hi, lo])
    }

    /// The exact `acc + a . b`, clamped to the result's range.
    fn saturating_dot(
        &mut self,
        a: &[(Src, BitSize)],
        b: &[(Src, BitSize)],
        (a_signed, b_signed): (bool, bool),
        acc: Src,
        result: BitSize,
    ) -> Result<Src> {
        use AluOp as A;
        let signed = a_signed || b_signed;
        let acc64 = self.extend(acc, result, BitSize::B64, signed)?;
        let acc_sign = self.sign_word(acc64, signed)?;
        let mut sum = [acc_sign, acc_sign, acc64];
        for ((x, xs), (y, ys)) in a.iter().zip(b) {
            let x = self.extend(*x, *xs, BitSize::B64, a_signed)?;
            let y = self.extend(*y, *ys, BitSize::B64, b_signed)?;
            let p = self.multiply_wide(x, a_signed, y, b_signed)?;
            sum = self.add_wide(sum, p)?;
        }
        let [top, hi, lo] = sum;
        let n = result.bits();
        let clamped = if signed {
            let min = (-(1i128 << (n - 1))) as i64 as u64;
            let max = ((1u128 << (n - 1)) - 1) as u64;
            // The value fits in 64 bits when both upper words repeat the low one's sign.
            let sign = self.a64(A::SShr, &[lo, Src::Imm(63)])?;
            let hi_fits = self.a64(A::IEq, &[hi, sign])?;
            let top_fits = self.a64(A::IEq, &[top, sign])?;
            let mut fits = self.alu(A::And, BitSize::B1, &[hi_fits, top_fits])?;
            if n < 64 {
                let above_min = self.a64(A::SLe, &[Src::Imm(min), lo])?;
                let below_max = self.a64(A::SLe, &[lo, Src::Imm(max)])?;
                fits = self.alu(A::And, BitSize::B1, &[fits, above_min])?;
                fits = self.alu(A::And, BitSize::B1, &[fits, below_max])?;
            }
            let negative = self.a64(A::SLt, &[top, Src::Imm(0)])?;
            let bound = self.a64(A::Select, &[negative, Src::Imm(min), Src::Imm(max)])?;
            self.a64(A::Select, &[fits, lo, bound])?
        } else {
            let max = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            let upper = self.a64(A::Or, &[top, hi])?;
            let mut fits = self.a64(A::IEq, &[upper, Src::Imm(0)])?;
            if n < 64 {
                let below_max = self.a64(A::ULe, &[lo, Src::Imm(max)])?;
                fits = self.alu(A::And, BitSize::B1, &[fits, below_max])?;
            }
            self.a64(A::Select, &[fits, lo, Src::Imm(max)])?
        };
        if result == BitSize::B64 {
            Ok(clamped)
        } else {
            self.convert(
                ConvKind::I2I { signed: false },
                BitSize::B64,
                result,
                clamped,
            )
        }
    }
}
