//! cat1 `mov`/`cov`: moves and conversions between the types of `#type`.
//!
//! Rules, and where they are known from:
//! - Same source and destination type: the bits move unchanged.
//! - Float to float and integer to float round by the instruction's rounding
//!   field; its unmarked value rounds toward zero (`ROUND_ZERO`, which Mesa's
//!   ir3 sets for `nir_op_f2f16_rtz`, and `(even)` for `_rtne`, in
//!   `ir3_compiler_nir.c` `create_cov`). Denormals are kept (IEEE; whether
//!   the hardware flushes them is not publicly documented).
//! - Float to integer rounds the same way (toward zero unless marked), then
//!   clamps to the destination's range, NaN giving 0, so a 16-bit
//!   destination clamps (`cov.f32u16` of 70000.0 is 65535) rather than
//!   wrapping. SPIR-V leaves out-of-range conversions undefined; Mesa reaches
//!   8 bits from a float only through a 16-bit `cov` followed by a truncation,
//!   which gives GLSL's results only if that `cov` clamps. No public document
//!   states the NaN result.
//! - Integer to a narrower integer truncates: Mesa's `nir_op_bit_count`
//!   lowering reads the low half of a value with `cov.u32u16`.
//! - An 8-bit source (`u8`, and `u8_32`) is sign-extended: Mesa notes that
//!   "zero-extension of 8-bit values doesn't work with `cov`" and uses
//!   `cov.u8s16`/`cov.u8s32` to sign-extend. Converting an 8-bit value to a
//!   float, or a float to 8 bits, "doesn't work with a simple cov" (same
//!   file): those are refused as unknown.

use super::float::{f16_to_f32, f32_to_f16, f64_to_f16, f64_to_f32};
use super::{unknown, AluOp, EvalError};
use crate::types::{Round, Type};

/// Rounds `x` to an integer in `mode`.
fn round_to_integer(x: f64, mode: Round) -> f64 {
    match mode {
        Round::Zero => x.trunc(),
        Round::Even => x.round_ties_even(),
        Round::PosInf => x.ceil(),
        Round::NegInf => x.floor(),
    }
}

/// The range of an integer type.
fn range(ty: Type) -> (i64, i64) {
    match ty {
        Type::U16 => (0, u16::MAX as i64),
        Type::S16 => (i16::MIN as i64, i16::MAX as i64),
        Type::U32 => (0, u32::MAX as i64),
        Type::S32 => (i32::MIN as i64, i32::MAX as i64),
        _ => (i8::MIN as i64, u8::MAX as i64),
    }
}

pub(super) fn convert(op: &AluOp, bits: u32) -> Result<u32, EvalError> {
    let (st, dt, round) = (op.src_type, op.dst_type, op.round);
    let dst_mask = if dt.is_half_cat1() { 0xffff } else { u32::MAX };
    if st == dt {
        return Ok(bits & dst_mask);
    }
    let is8 = |t: Type| matches!(t, Type::U8 | Type::U8_32);
    if st.is_float() {
        let x = if st == Type::F16 {
            f16_to_f32(bits as u16)
        } else {
            f32::from_bits(bits)
        };
        return match dt {
            Type::F16 => Ok(f32_to_f16(x, round) as u32),
            Type::F32 => Ok(x.to_bits()),
            _ if is8(dt) => unknown(op.opcode, "a float to 8-bit conversion"),
            _ if x.is_nan() => Ok(0),
            _ => {
                let (lo, hi) = range(dt);
                let n = round_to_integer(x as f64, round).clamp(lo as f64, hi as f64) as i64;
                Ok(n as u32 & dst_mask)
            }
        };
    }
    let n: i64 = match st {
        Type::U16 => (bits & 0xffff) as i64,
        Type::S16 => bits as u16 as i16 as i64,
        Type::U32 => bits as i64,
        Type::S32 => bits as i32 as i64,
        _ => bits as u8 as i8 as i64,
    };
    match dt {
        _ if is8(st) && dt.is_float() => unknown(op.opcode, "an 8-bit to float conversion"),
        Type::F16 => Ok(f64_to_f16(n as f64, round) as u32),
        Type::F32 => Ok(f64_to_f32(n as f64, round).to_bits()),
        // An 8-bit result in a half register: what the hardware leaves in
        // the upper byte is not documented; we clear it.
        _ if is8(dt) => Ok(n as u32 & 0xff),
        _ => Ok(n as u32 & dst_mask),
    }
}
