//! cat2 and cat3: the one, two and three source ALU operations.
//!
//! Rules, and where they are known from:
//! - Float operations are IEEE, computed exactly and rounded once to nearest
//!   even at the destination's precision; `mad.f*` is not fused: the product
//!   is rounded before the add ("at least on a6xx+ mad is unfused",
//!   `ir3_compiler_nir.c`). `min.f`/`max.f` return the other operand when
//!   one is NaN (Mesa maps `fmin`/`fmax`, which NIR defines as C's `fmin`,
//!   straight to them) and order -0 below +0 (our choice; not documented).
//!   Denormals are kept (not documented either way).
//! - Comparisons write 1 for true and 0 for false, in 16- or 32-bit
//!   registers (Mesa's `ir3_compiler_nir.c`: "Adreno's comparisons produce a
//!   1 for true and 0 for false"). Ordered for `lt`..`eq`, so NaN compares
//!   false; `ne` is unordered (Mesa implements `fneu` with `cmps.f.ne`).
//! - `(sat)` on a float operation clamps to [0, 1] with NaN going to 0 (NIR's
//!   `fsat`); on `add.u`/`add.s`/`sub.u`/`sub.s` it saturates to the type's
//!   range (Mesa implements `uadd_sat`, `iadd_sat`, `usub_sat`, `isub_sat` so).
//!   Mesa's `is_sat_compatible` says it does not work on `sel.*` and
//!   `bary.f`; elsewhere its meaning is not documented and is refused.
//! - `(ei)` on `add.u`/`add.s` halves the sum without overflow (Mesa's
//!   `nir_op_uhadd`/`ihadd`).
//! - Shifts use the amount modulo the operand width. Mesa lowers NIR's
//!   `ishl`/`ishr`/`ushr`, which NIR defines with that masking (SM5's rule),
//!   to a bare `shl.b`/`ashr.b`/`shr.b` (16-bit shifts take a 16-bit amount,
//!   `resize_shift_amount`), so Mesa relies on the hardware masking. This is
//!   an inference: no public document states it, and SPIR-V leaves larger
//!   amounts undefined.
//! - `clz.b` counts leading zeros and gives -1 for 0; `clz.s` counts the
//!   leading bits equal to the sign bit and gives -1 for 0 and -1. Both follow
//!   from Mesa's lowering of `ufind_msb`, `ifind_msb` and `find_lsb`.
//! - `mul.u24`/`mul.s24` multiply the low 24 bits (zero- or sign-extended);
//!   `mull.u` multiplies the low 16 bits (NIR's `umul_low`, which Mesa maps to
//!   it); `madsh.m16` is `((a & 0xffff) * (b >> 16) << 16) + c`: Turnip
//!   multiplies by 3 with `mull.u t, x, 3` and `madsh.m16 d, c[3], x, t`
//!   alone (turnip/*/int64.pipeline-executable.txt), which is the product
//!   only if the first source's low half meets the second's high half, and
//!   the replay matches lavapipe so (NIR's constant folding of
//!   `imadsh_mix16` reads the halves the other way round; ir3's own
//!   algebraic rules treat a zero low half of `a` as a zero product, as the
//!   hardware does); `mad.s24` is `sext24(a) * sext24(b) + c` (NIR's
//!   `imad24_ir3`).
//! - `sad.s*` adds its three sources: Mesa lowers NIR's `iadd3` to it.
//! - `sel.b*` picks src1 when src2 is non-zero, else src3 (Mesa's `bcsel`).
//!   `sel.s*`/`sel.f*` pick src1 when src2 is not negative (its sign bit is
//!   clear), the rule freedreno's early a3xx emulator used; Mesa's compiler
//!   emits only `sel.b*`.
//! - `shrm`/`shlm`/`shrg`/`shlg`/`andg` and `dp2acc`/`dp4acc` compute what
//!   their `<doc>` in `ir3-cat3.xml` says; the sign of dp4acc's second source
//!   follows the packing bit as Mesa's "compliant" dp4acc uses it.

use super::float::{f16_to_f32, f64_to_f16};
use super::{unknown, AluOp, EvalError};
use crate::opcode::{Opcode, ValueKind};
use crate::types::Cond;

/// A source read as a signed integer of its width.
pub(super) fn signed(v: u32, half: bool) -> i64 {
    if half {
        v as u16 as i16 as i64
    } else {
        v as i32 as i64
    }
}

fn unsigned(v: u32, half: bool) -> i64 {
    if half {
        (v & 0xffff) as i64
    } else {
        v as i64
    }
}

pub(super) fn float(v: u32, half: bool) -> f64 {
    if half {
        f16_to_f32(v as u16) as f64
    } else {
        f32::from_bits(v) as f64
    }
}

/// Rounds a float result to the destination precision (nearest even).
/// A NaN result is the default quiet NaN (how the hardware forms NaNs is not
/// documented).
pub(super) fn float_bits(x: f64, half: bool) -> u32 {
    match (half, x.is_nan()) {
        (true, true) => 0x7e00,
        (false, true) => 0x7fc0_0000,
        (true, false) => f64_to_f16(x, crate::types::Round::Even) as u32,
        (false, false) => (x as f32).to_bits(),
    }
}

/// IEEE 754 minNum/maxNum with -0 < +0.
fn min_max(a: f64, b: f64, max: bool) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => f64::NAN,
        (true, false) => b,
        (false, true) => a,
        // Equal values can differ only in the sign of a zero.
        _ if a == b && a.is_sign_negative() != b.is_sign_negative() => {
            if max == a.is_sign_negative() {
                b
            } else {
                a
            }
        }
        _ if (a < b) != max => a,
        _ => b,
    }
}

fn compare<T: PartialOrd>(cond: Cond, a: T, b: T) -> bool {
    match cond {
        Cond::Lt => a < b,
        Cond::Le => a <= b,
        Cond::Gt => a > b,
        Cond::Ge => a >= b,
        Cond::Eq => a == b,
        Cond::Ne => a != b,
    }
}

/// Leading zeros of `v` within `width` bits, -1 for zero.
fn clz(v: u64, width: u32) -> i64 {
    if v == 0 {
        -1
    } else {
        (v.leading_zeros() - (64 - width)) as i64
    }
}

fn shift_amount(v: u32, half: bool) -> u32 {
    v & if half { 15 } else { 31 }
}

/// The result of an integer operation at the destination width: truncated,
/// or widened by sign or zero extension.
fn int_bits(x: i64, op: &AluOp, signed_kind: bool) -> u32 {
    let src_width_value = if op.half {
        if signed_kind {
            x as i16 as i64
        } else {
            x as u16 as i64
        }
    } else if signed_kind {
        x as i32 as i64
    } else {
        x as u32 as i64
    };
    let bits = src_width_value as u32;
    if op.dst_half {
        bits & 0xffff
    } else {
        bits
    }
}

fn saturate(x: i64, half: bool, signed_kind: bool) -> i64 {
    let (lo, hi) = match (half, signed_kind) {
        (true, true) => (i16::MIN as i64, i16::MAX as i64),
        (true, false) => (0, u16::MAX as i64),
        (false, true) => (i32::MIN as i64, i32::MAX as i64),
        (false, false) => (0, u32::MAX as i64),
    };
    x.clamp(lo, hi)
}

/// The 8-bit lanes `lanes` of `v`, starting at lane `first`.
fn bytes(v: u32, first: u32, lanes: u32, signed_lanes: bool) -> impl Iterator<Item = i64> {
    (first..first + lanes).map(move |i| {
        let b = (v >> (8 * i)) as u8;
        if signed_lanes {
            b as i8 as i64
        } else {
            b as i64
        }
    })
}

pub(super) fn eval(op: &AluOp, s: &[u32]) -> Result<u32, EvalError> {
    use Opcode::*;
    let info = op.opcode.info();
    let h = op.half;
    let width = if h { 16 } else { 32 };
    let sat_ok = matches!(info.src, ValueKind::Float)
        && !matches!(op.opcode, SelF16 | SelF32 | CmpsF | CmpvF | BaryF)
        || matches!(op.opcode, AddU | AddS | SubU | SubS | Dp2acc | Dp4acc);
    if op.sat && !sat_ok {
        return unknown(op.opcode, "(sat) on this opcode");
    }
    let f = |i: usize| float(s[i], h);
    let fl = |x: f64| {
        let x = if op.sat {
            if x.is_nan() {
                0.0
            } else {
                x.clamp(0.0, 1.0)
            }
        } else {
            x
        };
        Ok(float_bits(x, op.dst_half))
    };
    let int = |i: usize| signed(s[i], h);
    let uint = |i: usize| unsigned(s[i], h);
    let cmp = |b: bool| Ok(b as u32);
    match op.opcode {
        AddF => fl(f(0) + f(1)),
        MulF => fl(f(0) * f(1)),
        MinF => fl(min_max(f(0), f(1), false)),
        MaxF => fl(min_max(f(0), f(1), true)),
        // GLSL sign(); NaN stays NaN (not documented).
        SignF => fl(match f(0) {
            x if x.is_nan() || x == 0.0 => x,
            x if x > 0.0 => 1.0,
            _ => -1.0,
        }),
        // The modifiers did the work; at one precision the bits pass through
        // (a NaN keeps its sign, as NIR's fneg/fabs keep it).
        AbsnegF if op.dst_half == h && !op.sat => Ok(s[0]),
        AbsnegF => fl(f(0)),
        FloorF => fl(f(0).floor()),
        CeilF => fl(f(0).ceil()),
        RndneF => fl(f(0).round_ties_even()),
        // Round half away from zero (the name; not documented further).
        RndazF => fl(f(0).round()),
        TruncF => fl(f(0).trunc()),
        CmpsF => cmp(compare(op.cond, f(0), f(1))),
        CmpsU => cmp(compare(op.cond, uint(0), uint(1))),
        CmpsS => cmp(compare(op.cond, int(0), int(1))),
        CmpvF | CmpvU | CmpvS => unknown(op.opcode, "the result of cmpv"),
        AddU | AddS | SubU | SubS => {
            let signed_kind = matches!(op.opcode, AddS | SubS);
            let (a, b) = if signed_kind {
                (int(0), int(1))
            } else {
                (uint(0), uint(1))
            };
            let sub = matches!(op.opcode, SubU | SubS);
            let mut x = if sub { a - b } else { a + b };
            if op.halving {
                if op.sat || sub {
                    return unknown(op.opcode, "(ei) with (sat) or on a subtraction");
                }
                x >>= 1;
            } else if op.sat {
                x = saturate(x, h, signed_kind);
            }
            Ok(int_bits(x, op, signed_kind))
        }
        MinU => Ok(int_bits(uint(0).min(uint(1)), op, false)),
        MaxU => Ok(int_bits(uint(0).max(uint(1)), op, false)),
        MinS => Ok(int_bits(int(0).min(int(1)), op, true)),
        MaxS => Ok(int_bits(int(0).max(int(1)), op, true)),
        AbsnegS => Ok(int_bits(int(0), op, true)),
        AndB => Ok(int_bits((s[0] & s[1]) as i64, op, false)),
        OrB => Ok(int_bits((s[0] | s[1]) as i64, op, false)),
        XorB => Ok(int_bits((s[0] ^ s[1]) as i64, op, false)),
        NotB => Ok(int_bits(!s[0] as i64, op, false)),
        MulU24 => Ok(int_bits(
            (uint(0) & 0xff_ffff).wrapping_mul(uint(1) & 0xff_ffff),
            op,
            false,
        )),
        MulS24 => {
            let s24 = |x: i64| (x << 40) >> 40;
            Ok(int_bits(s24(int(0)).wrapping_mul(s24(int(1))), op, true))
        }
        MullU => Ok(int_bits((uint(0) & 0xffff) * (uint(1) & 0xffff), op, false)),
        BfrevB => Ok(int_bits(
            (s[0].reverse_bits() >> (32 - width)) as i64,
            op,
            false,
        )),
        ClzB => Ok(int_bits(clz(uint(0) as u64, width), op, true)),
        ClzS => {
            let x = int(0);
            let v = (if x < 0 { !x } else { x }) as u64 & ((1u64 << width) - 1);
            // The leading bits equal to the sign bit, -1 when all are.
            let n = clz(v, width);
            Ok(int_bits(if n < 0 { -1 } else { n }, op, true))
        }
        ShlB => Ok(int_bits(uint(0) << shift_amount(s[1], h), op, false)),
        ShrB => Ok(int_bits(uint(0) >> shift_amount(s[1], h), op, false)),
        AshrB => Ok(int_bits(int(0) >> shift_amount(s[1], h), op, true)),
        // The bit `src2` of `src1` (from the opcode's name; not documented).
        GetbitB => Ok(int_bits((uint(0) >> shift_amount(s[1], h)) & 1, op, false)),
        // Mesa counts bits with cbits.b on 16-bit halves on a5xx/a6xx; a
        // 32-bit count is our assumption.
        CbitsB => Ok(int_bits(uint(0).count_ones() as i64, op, false)),
        MgenB | Setrm | Shb | Msad => unknown(op.opcode, "what this opcode computes"),
        BaryF | FlatB | Wmm | WmmAccu => Err(EvalError::NotAlu(op.opcode)),

        MadF16 | MadF32 => {
            // Unfused: the product is rounded to the source precision first.
            let product = float(float_bits(f(0) * f(1), h), h);
            fl(product + f(2))
        }
        MadU16 => Ok(int_bits(uint(0) * uint(1) + uint(2), op, false)),
        MadS16 => Ok(int_bits(int(0) * int(1) + int(2), op, true)),
        MadU24 => Ok(int_bits(
            (uint(0) & 0xff_ffff) * (uint(1) & 0xff_ffff) + uint(2),
            op,
            false,
        )),
        MadS24 => {
            let s24 = |x: i64| (x << 40) >> 40;
            Ok(int_bits(s24(int(0)) * s24(int(1)) + int(2), op, true))
        }
        MadshM16 => Ok(int_bits(
            (((uint(0) & 0xffff) * (uint(1) >> 16)) << 16) + uint(2),
            op,
            false,
        )),
        MadshU16 => unknown(op.opcode, "how madsh.u16 differs from madsh.m16"),
        SelB16 | SelB32 => Ok(int_bits(
            (if uint(1) != 0 { s[0] } else { s[2] }) as i64,
            op,
            false,
        )),
        SelS16 | SelS32 | SelF16 | SelF32 => Ok(int_bits(
            (if int(1) >= 0 { s[0] } else { s[2] }) as i64,
            op,
            false,
        )),
        SadS16 | SadS32 => Ok(int_bits(int(0) + int(1) + int(2), op, true)),
        Shrm => Ok(int_bits(
            (uint(1) >> shift_amount(s[0], h)) & uint(2),
            op,
            false,
        )),
        Shlm => Ok(int_bits(
            (uint(1) << shift_amount(s[0], h)) & uint(2),
            op,
            false,
        )),
        Shrg => Ok(int_bits(
            (uint(1) >> shift_amount(s[0], h)) | uint(2),
            op,
            false,
        )),
        Shlg => Ok(int_bits(
            (uint(1) << shift_amount(s[0], h)) | uint(2),
            op,
            false,
        )),
        Andg => Ok(int_bits((uint(1) & uint(0)) | uint(2), op, false)),
        Dp2acc | Dp4acc => {
            let (first, lanes) = match (op.opcode, op.dot.high) {
                (Dp4acc, _) => (0, 4),
                (_, false) => (0, 2),
                (_, true) => (2, 2),
            };
            // dp2acc's second source is unsigned (its XML doc); dp4acc's is
            // signed when marked .high (Mesa's compliant dp4acc).
            let rhs_signed = op.opcode == Dp4acc && op.dot.high;
            let dot: i64 = bytes(s[0], first, lanes, op.dot.mixed)
                .zip(bytes(s[1], first, lanes, rhs_signed))
                .map(|(a, b)| a * b)
                .sum();
            let mixed = op.dot.mixed || rhs_signed;
            let acc = if mixed { int(2) } else { uint(2) };
            let mut x = dot + acc;
            if op.sat {
                if !mixed {
                    return unknown(op.opcode, "(sat) on an unsigned dot product");
                }
                x = saturate(x, false, true);
            }
            Ok(int_bits(x, op, mixed))
        }
        _ => Err(EvalError::NotAlu(op.opcode)),
    }
}
