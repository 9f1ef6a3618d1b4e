//! What each IR operation computes, on bit patterns. The constant folder and the reference
//! interpreter both use these functions, so the two can never disagree.
//!
//! A result is `None` where SPIR-V leaves it undefined (division by zero, bit fields past
//! the end of the value): the folder then leaves the operation for the hardware to compute.
//!
//! Operations that instruction selection maps to a single ir3 instruction take their
//! meaning from parsnip-isa's evaluation functions (the one place an opcode's meaning is
//! written, which the simulator executes too), so folding can only assume what the
//! hardware does; the rest are defined here.

use super::{AluOp, BitSize, ConvKind};
use parsnip_isa as isa;

fn sext(v: u64, size: BitSize) -> i64 {
    let bits = size.bits();
    if bits == 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

/// Converts a half-precision bit pattern to f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = if exp == 0 {
        if mant == 0 {
            sign
        } else {
            // Subnormal half: value = mant * 2^-24; renormalise.
            let shift = mant.leading_zeros() - 21;
            let m = (mant << shift) & 0x3ff;
            let e = 127 - 15 + 1 - shift;
            sign | (e << 23) | (m << 13)
        }
    } else if exp == 0x1f {
        sign | 0x7f80_0000 | (mant << 13)
    } else {
        sign | ((exp + 127 - 15) << 23) | (mant << 13)
    };
    f32::from_bits(bits)
}

/// Converts f32 to a half-precision bit pattern, rounding to nearest even.
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let mant = x & 0x7f_ffff;
    if exp == 0xff {
        let nan = if mant != 0 {
            0x200 | (mant >> 13) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal: shift the mantissa (with its implicit one) into place and round.
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rem > mid || (rem == mid && half & 1 == 1);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rem = mant & 0x1fff;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 == 1);
    sign | (half + round as u32) as u16
}

fn to_f64(v: u64, size: BitSize) -> f64 {
    match size {
        BitSize::B16 => f16_to_f32(v as u16) as f64,
        BitSize::B32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}

/// Float results are computed in f32 (the precision ir3's full ALU has) and rounded to the
/// operation's size.
fn to_f32(v: u64, size: BitSize) -> f32 {
    to_f64(v, size) as f32
}

fn from_f32(f: f32, size: BitSize) -> u64 {
    match size {
        BitSize::B16 => f32_to_f16(f) as u64,
        BitSize::B32 => f.to_bits() as u64,
        _ => (f as f64).to_bits(),
    }
}

fn float_unop(op: AluOp, a: f32) -> f32 {
    match op {
        AluOp::FNeg => -a,
        AluOp::FAbs => a.abs(),
        AluOp::FSign => {
            if a > 0.0 {
                1.0
            } else if a < 0.0 {
                -1.0
            } else {
                0.0 * a
            }
        }
        AluOp::FSat => {
            if a.is_nan() {
                0.0
            } else {
                a.clamp(0.0, 1.0)
            }
        }
        AluOp::FFloor => a.floor(),
        AluOp::FCeil => a.ceil(),
        AluOp::FTrunc => a.trunc(),
        AluOp::FRoundEven => a.round_ties_even(),
        AluOp::FFract => a - a.floor(),
        AluOp::FSqrt => a.sqrt(),
        AluOp::FRsq => 1.0 / a.sqrt(),
        AluOp::FRcp => 1.0 / a,
        AluOp::FExp2 => a.exp2(),
        AluOp::FLog2 => a.log2(),
        AluOp::FSin => a.sin(),
        AluOp::FCos => a.cos(),
        _ => unreachable!("not a float unary op"),
    }
}

/// The ir3 operation instruction selection uses for `op` at `size`, with the order of its
/// sources in the IR's operands, when it is a single instruction on register values.
fn ir3_equivalent(op: AluOp, size: BitSize) -> Option<(isa::eval::AluOp, [usize; 3])> {
    use isa::Opcode as O;
    use AluOp::*;
    let half = match size {
        BitSize::B16 => true,
        BitSize::B32 => false,
        _ => return None,
    };
    let plain = [0, 1, 2];
    let mk = |opcode: O| isa::eval::AluOp::new(opcode, half);
    let cmp = |opcode: O, cond: isa::Cond| {
        let mut a = isa::eval::AluOp::new(opcode, half);
        a.cond = cond;
        // Comparisons write a full 0/1 boolean.
        a.dst_half = false;
        a
    };
    Some(match op {
        IAdd => (mk(O::AddU), plain),
        ISub => (mk(O::SubU), plain),
        UMin => (mk(O::MinU), plain),
        UMax => (mk(O::MaxU), plain),
        SMin => (mk(O::MinS), plain),
        SMax => (mk(O::MaxS), plain),
        And => (mk(O::AndB), plain),
        Or => (mk(O::OrB), plain),
        Xor => (mk(O::XorB), plain),
        Not => (mk(O::NotB), plain),
        Shl => (mk(O::ShlB), plain),
        UShr => (mk(O::ShrB), plain),
        SShr => (mk(O::AshrB), plain),
        BitReverse => (mk(O::BfrevB), plain),
        IEq => (cmp(O::CmpsU, isa::Cond::Eq), plain),
        INe => (cmp(O::CmpsU, isa::Cond::Ne), plain),
        ULt => (cmp(O::CmpsU, isa::Cond::Lt), plain),
        ULe => (cmp(O::CmpsU, isa::Cond::Le), plain),
        SLt => (cmp(O::CmpsS, isa::Cond::Lt), plain),
        SLe => (cmp(O::CmpsS, isa::Cond::Le), plain),
        FEq => (cmp(O::CmpsF, isa::Cond::Eq), plain),
        FNeU => (cmp(O::CmpsF, isa::Cond::Ne), plain),
        FLt => (cmp(O::CmpsF, isa::Cond::Lt), plain),
        FLe => (cmp(O::CmpsF, isa::Cond::Le), plain),
        FAdd => (mk(O::AddF), plain),
        FSub => {
            let mut a = mk(O::AddF);
            a.mods[1].neg = true;
            (a, plain)
        }
        FMul => (mk(O::MulF), plain),
        FMin => (mk(O::MinF), plain),
        FMax => (mk(O::MaxF), plain),
        FFma => (mk(if half { O::MadF16 } else { O::MadF32 }), plain),
        FNeg => {
            let mut a = mk(O::AbsnegF);
            a.mods[0].neg = true;
            (a, plain)
        }
        FAbs => {
            let mut a = mk(O::AbsnegF);
            a.mods[0].abs = true;
            (a, plain)
        }
        FSat => {
            let mut a = mk(O::AbsnegF);
            a.sat = true;
            (a, plain)
        }
        FSign => (mk(O::SignF), plain),
        FFloor => (mk(O::FloorF), plain),
        FCeil => (mk(O::CeilF), plain),
        FTrunc => (mk(O::TruncF), plain),
        FRoundEven => (mk(O::RndneF), plain),
        // sel.b reads (chosen-if-true, condition, chosen-if-false).
        Select if size == BitSize::B32 => (mk(O::SelB32), [1, 0, 2]),
        _ => return None,
    })
}

/// Evaluates through parsnip-isa when the operation is one ir3 instruction. `Some(None)`
/// means the hardware's result is not known, so the caller must not fold.
fn eval_ir3(op: AluOp, size: BitSize, s: &[u64]) -> Option<Option<u64>> {
    let (isa_op, order) = ir3_equivalent(op, size)?;
    let mut srcs = [0u32; 3];
    for (i, src) in srcs.iter_mut().enumerate().take(op.arity()) {
        *src = s[order[i]] as u32;
    }
    Some(
        isa::eval::eval_alu(&isa_op, &srcs[..op.arity()])
            .ok()
            .map(|r| r as u64 & op.result_size(size).mask()),
    )
}

/// Evaluates an ALU operation whose operands are all known. `size` is the operation's
/// size, `s` the operand bit patterns (masked to their sizes).
pub fn eval_alu(op: AluOp, size: BitSize, s: &[u64]) -> Option<u64> {
    use AluOp::*;
    if s.len() != op.arity() {
        return None;
    }
    if let Some(r) = eval_ir3(op, size, s) {
        return r;
    }
    let mut masked = [0u64; 4];
    for (i, v) in s.iter().enumerate() {
        masked[i] = v & op.src_size(size, i).mask();
    }
    let s = &masked[..s.len()];
    let bits = size.bits();
    let mask = size.mask();
    let b = |v: bool| v as u64;
    let r = match op {
        Mov => s[0],
        IAdd => s[0].wrapping_add(s[1]),
        ISub => s[0].wrapping_sub(s[1]),
        IMul => s[0].wrapping_mul(s[1]),
        UMulHigh => ((s[0] as u128 * s[1] as u128) >> bits) as u64,
        IMulHigh => ((sext(s[0], size) as i128 * sext(s[1], size) as i128) >> bits) as u64,
        INeg => s[0].wrapping_neg(),
        IAbs => sext(s[0], size).wrapping_abs() as u64,
        ISign => sext(s[0], size).signum() as u64,
        UDiv => s[0].checked_div(s[1])?,
        UMod => s[0].checked_rem(s[1])?,
        SDiv | SRem | SMod => {
            let (x, y) = (sext(s[0], size), sext(s[1], size));
            if y == 0 {
                return None;
            }
            match op {
                SDiv => x.wrapping_div(y) as u64,
                SRem => x.wrapping_rem(y) as u64,
                _ => {
                    let r = x.wrapping_rem(y);
                    if r != 0 && (r < 0) != (y < 0) {
                        (r + y) as u64
                    } else {
                        r as u64
                    }
                }
            }
        }
        UMin => s[0].min(s[1]),
        UMax => s[0].max(s[1]),
        SMin => sext(s[0], size).min(sext(s[1], size)) as u64,
        SMax => sext(s[0], size).max(sext(s[1], size)) as u64,
        And => s[0] & s[1],
        Or => s[0] | s[1],
        Xor => s[0] ^ s[1],
        Not => !s[0],
        Shl => s[0] << (s[1] % bits as u64),
        UShr => s[0] >> (s[1] % bits as u64),
        SShr => (sext(s[0], size) >> (s[1] % bits as u64)) as u64,
        BitCount => s[0].count_ones() as u64,
        BitReverse => s[0].reverse_bits() >> (64 - bits),
        FindLsb => {
            if s[0] == 0 {
                u32::MAX as u64
            } else {
                s[0].trailing_zeros() as u64
            }
        }
        UFindMsb => {
            if s[0] == 0 {
                u32::MAX as u64
            } else {
                (63 - s[0].leading_zeros()) as u64
            }
        }
        SFindMsb => {
            let v = sext(s[0], size);
            let v = if v < 0 { !v } else { v } as u64 & mask;
            if v == 0 {
                u32::MAX as u64
            } else {
                (63 - v.leading_zeros()) as u64
            }
        }
        UBitfieldExtract | SBitfieldExtract => {
            let (off, count) = (s[1], s[2]);
            if off + count > bits as u64 {
                return None;
            }
            if count == 0 {
                0
            } else {
                let field = (s[0] >> off) & (u64::MAX >> (64 - count));
                if op == SBitfieldExtract && (field >> (count - 1)) & 1 == 1 {
                    field | (u64::MAX << count)
                } else {
                    field
                }
            }
        }
        BitfieldInsert => {
            let (off, count) = (s[2], s[3]);
            if off + count > bits as u64 {
                return None;
            }
            if count == 0 {
                s[0]
            } else {
                let m = (u64::MAX >> (64 - count)) << off;
                (s[0] & !m) | ((s[1] << off) & m)
            }
        }
        IEq => b(s[0] == s[1]),
        INe => b(s[0] != s[1]),
        ULt => b(s[0] < s[1]),
        ULe => b(s[0] <= s[1]),
        SLt => b(sext(s[0], size) < sext(s[1], size)),
        SLe => b(sext(s[0], size) <= sext(s[1], size)),
        FAdd | FSub | FMul | FDiv | FMin | FMax => {
            let (x, y) = (to_f32(s[0], size), to_f32(s[1], size));
            let r = match op {
                FAdd => x + y,
                FSub => x - y,
                FMul => x * y,
                FDiv => x / y,
                FMin => x.min(y),
                _ => x.max(y),
            };
            from_f32(r, size)
        }
        FFma => {
            let (x, y, z) = (to_f32(s[0], size), to_f32(s[1], size), to_f32(s[2], size));
            from_f32(x.mul_add(y, z), size)
        }
        FNeg | FAbs | FSign | FSat | FFloor | FCeil | FTrunc | FRoundEven | FFract | FSqrt
        | FRsq | FRcp | FExp2 | FLog2 | FSin | FCos => {
            from_f32(float_unop(op, to_f32(s[0], size)), size)
        }
        FEq => b(to_f64(s[0], size) == to_f64(s[1], size)),
        FNeU => b(to_f64(s[0], size) != to_f64(s[1], size)),
        FLt => b(to_f64(s[0], size) < to_f64(s[1], size)),
        FLe => b(to_f64(s[0], size) <= to_f64(s[1], size)),
        FIsNan => b(to_f64(s[0], size).is_nan()),
        FIsInf => b(to_f64(s[0], size).is_infinite()),
        // A derivative depends on the neighbouring fragments' values, not on the operand's.
        FDdx | FDdy | FDdxFine | FDdyFine => return None,
        Select => {
            if s[0] & 1 != 0 {
                s[1]
            } else {
                s[2]
            }
        }
        Pack64 => (s[0] & 0xffff_ffff) | (s[1] << 32),
        Unpack64Lo => s[0] & 0xffff_ffff,
        Unpack64Hi => s[0] >> 32,
        Pack32 => (s[0] & 0xffff) | ((s[1] & 0xffff) << 16),
        Unpack32Lo => s[0] & 0xffff,
        Unpack32Hi => (s[0] >> 16) & 0xffff,
    };
    Some(r & op.result_size(size).mask())
}

/// Evaluates a conversion.
pub fn eval_convert(kind: ConvKind, from: BitSize, to: BitSize, v: u64) -> Option<u64> {
    let v = v & from.mask();
    let r = match kind {
        ConvKind::F2F => from_f32(to_f32(v, from), to),
        ConvKind::F2I { signed } => {
            let f = to_f64(v, from);
            if signed {
                let (lo, hi) = (
                    sext(1 << (to.bits() - 1), to),
                    !sext(1 << (to.bits() - 1), to),
                );
                (f.clamp(lo as f64, hi as f64) as i64) as u64
            } else {
                (f.clamp(0.0, to.mask() as f64) as u64) & to.mask()
            }
        }
        ConvKind::I2F { signed } => {
            let f = if signed {
                sext(v, from) as f32
            } else {
                v as f32
            };
            from_f32(f, to)
        }
        ConvKind::I2I { signed } => {
            if signed {
                sext(v, from) as u64
            } else {
                v
            }
        }
        ConvKind::Bool => {
            if from == BitSize::B1 {
                v & 1
            } else {
                (v != 0) as u64
            }
        }
    };
    Some(r & to.mask())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_trip_and_round_to_nearest_even() {
        // Values and encodings from the IEEE 754 binary16 definition.
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.0), 0xc000);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(5.960_464_5e-8), 0x0001);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        // 1 + 2^-11 is halfway between 1 and the next half; ties go to even (1.0).
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0), 0x3c02);
        for h in 0..0x7c00u16 {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
        }
    }

    #[test]
    fn shifts_take_the_amount_modulo_the_size() {
        assert_eq!(eval_alu(AluOp::Shl, BitSize::B32, &[1, 33]), Some(2));
        assert_eq!(
            eval_alu(AluOp::UShr, BitSize::B16, &[0x8000, 17]),
            Some(0x4000)
        );
        assert_eq!(
            eval_alu(AluOp::SShr, BitSize::B32, &[0x8000_0000, 31]),
            Some(0xffff_ffff)
        );
    }

    #[test]
    fn signed_remainder_and_modulo_differ_in_sign() {
        let m = |v: i32| v as u32 as u64;
        assert_eq!(
            eval_alu(AluOp::SRem, BitSize::B32, &[m(-7), 3]),
            Some(m(-1))
        );
        assert_eq!(eval_alu(AluOp::SMod, BitSize::B32, &[m(-7), 3]), Some(2));
        assert_eq!(eval_alu(AluOp::UDiv, BitSize::B32, &[7, 0]), None);
    }

    #[test]
    fn float_to_int_saturates() {
        let f = |v: f32| v.to_bits() as u64;
        let c = |s, v| eval_convert(ConvKind::F2I { signed: s }, BitSize::B32, BitSize::B32, v);
        assert_eq!(c(true, f(-3.7)), Some((-3i32) as u32 as u64));
        assert_eq!(c(true, f(3e10)), Some(i32::MAX as u64));
        assert_eq!(c(false, f(-1.0)), Some(0));
        assert_eq!(c(false, f(5e9)), Some(u32::MAX as u64));
    }
}
