//! Packing typed field values into raw register bits and back, with range
//! checks. The generated register, packet and descriptor structs call these.

use std::fmt;

/// A field value that does not fit its bits.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// The register, packet dword or descriptor.
    pub register: &'static str,
    pub field: &'static str,
    pub problem: FieldProblem,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FieldProblem {
    /// An integer outside `min..=max`.
    OutOfRange { value: i128, min: i128, max: i128 },
    /// A value whose low `shr` bits the register cannot hold.
    Misaligned { value: u64, alignment: u64 },
    /// A fixed-point or float value that is not representable.
    NotRepresentable { value: f64 },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}: ", self.register, self.field)?;
        match &self.problem {
            FieldProblem::OutOfRange { value, min, max } => {
                write!(f, "{value} is outside {min}..={max}")
            }
            FieldProblem::Misaligned { value, alignment } => {
                write!(f, "{value:#x} is not a multiple of {alignment}")
            }
            FieldProblem::NotRepresentable { value } => {
                write!(f, "{value} does not fit the field")
            }
        }
    }
}

impl std::error::Error for FieldError {}

/// The mask of the low `bits` bits.
#[inline(always)]
pub const fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

// The checks below are what the generated `try_to_raw`s (and, in debug
// builds, `to_raw`s) run for each field: one comparison or two on the normal
// path, which folds away for constant values once inlined; the error itself
// is built out of line.

/// An unsigned `value` stored `>> shr` in `width` bits.
#[inline(always)]
pub fn check_uint(
    register: &'static str,
    field: &'static str,
    value: u64,
    width: u32,
    shr: u32,
) -> Result<(), FieldError> {
    if value & ones(shr) != 0 || value >> shr > ones(width) {
        return Err(uint_error(register, field, value, width, shr));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn uint_error(
    register: &'static str,
    field: &'static str,
    value: u64,
    width: u32,
    shr: u32,
) -> FieldError {
    let problem = if value & ones(shr) != 0 {
        FieldProblem::Misaligned {
            value,
            alignment: 1u64 << shr,
        }
    } else {
        FieldProblem::OutOfRange {
            value: i128::from(value),
            min: 0,
            max: i128::from(ones(width)) << shr,
        }
    };
    FieldError {
        register,
        field,
        problem,
    }
}

/// A two's complement `value` stored `>> shr` in `width` bits.
#[inline(always)]
pub fn check_int(
    register: &'static str,
    field: &'static str,
    value: i64,
    width: u32,
    shr: u32,
) -> Result<(), FieldError> {
    let stored = i128::from(value >> shr);
    let half = 1i128 << (width - 1);
    if value as u64 & ones(shr) != 0 || stored < -half || stored >= half {
        return Err(int_error(register, field, value, width, shr));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn int_error(
    register: &'static str,
    field: &'static str,
    value: i64,
    width: u32,
    shr: u32,
) -> FieldError {
    let problem = if value as u64 & ones(shr) != 0 {
        FieldProblem::Misaligned {
            value: value as u64,
            alignment: 1u64 << shr,
        }
    } else {
        let half = 1i128 << (width - 1);
        FieldProblem::OutOfRange {
            value: i128::from(value),
            min: -half << shr,
            max: (half - 1) << shr,
        }
    };
    FieldError {
        register,
        field,
        problem,
    }
}

/// The two's complement bits of a fixed-point `value` with `radix` fraction
/// bits, rounded to the nearest step (not yet masked to the field).
#[inline]
pub fn fixed_bits(value: f64, radix: u32) -> u64 {
    (value * (1u64 << radix) as f64).round() as i64 as u64
}

/// A fixed-point `value` with `radix` fraction bits in `width` bits.
#[inline]
pub fn check_fixed(
    register: &'static str,
    field: &'static str,
    value: f64,
    width: u32,
    radix: u32,
    signed: bool,
) -> Result<(), FieldError> {
    let scaled = (value * (1u64 << radix) as f64).round();
    let (min, max) = if signed {
        (
            -((1i128 << (width - 1)) as f64),
            ((1i128 << (width - 1)) - 1) as f64,
        )
    } else {
        (0.0, ones(width) as f64)
    };
    if !scaled.is_finite() || scaled < min || scaled > max {
        return Err(not_representable(register, field, value));
    }
    Ok(())
}

/// The bits of an IEEE float field of `width` bits (32, or 16 for a half;
/// a value no half holds packs as 0, which `check_float` reports).
#[inline]
pub fn float_bits(value: f32, width: u32) -> u64 {
    if width == 16 {
        f32_to_half(value).map_or(0, u64::from)
    } else {
        u64::from(value.to_bits())
    }
}

/// An IEEE float `value` in a field of `width` bits.
#[inline]
pub fn check_float(
    register: &'static str,
    field: &'static str,
    value: f32,
    width: u32,
) -> Result<(), FieldError> {
    if width == 16 && f32_to_half(value).is_none() {
        return Err(not_representable(register, field, f64::from(value)));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn not_representable(register: &'static str, field: &'static str, value: f64) -> FieldError {
    FieldError {
        register,
        field,
        problem: FieldProblem::NotRepresentable { value },
    }
}

/// What a generated `to_raw` does with a field that does not fit: a debug
/// build stops; a release build has already truncated it.
#[cold]
#[inline(never)]
#[track_caller]
pub fn field_overflow(e: &FieldError) -> ! {
    panic!("{e}")
}

/// Bit `pos` of `raw`.
#[inline]
pub fn bit(raw: u64, pos: u32) -> bool {
    raw >> pos & 1 != 0
}

/// The unsigned value of bits `low..=high`, shifted back left by `shr`.
#[inline]
pub fn uint(raw: u64, low: u32, high: u32, shr: u32) -> u64 {
    (raw >> low & ones(high - low + 1)) << shr
}

/// The sign-extended value of bits `low..=high`, shifted back by `shr`.
#[inline]
pub fn int(raw: u64, low: u32, high: u32, shr: u32) -> i64 {
    let width = high - low + 1;
    let v = raw >> low & ones(width);
    let signed = if width < 64 && v >> (width - 1) & 1 != 0 {
        v as i64 - (1i64 << width)
    } else {
        v as i64
    };
    signed << shr
}

/// A fixed-point value of bits `low..=high` with `radix` fraction bits.
#[inline]
pub fn fixed(raw: u64, low: u32, high: u32, radix: u32, signed: bool) -> f64 {
    let v = if signed {
        int(raw, low, high, 0) as f64
    } else {
        uint(raw, low, high, 0) as f64
    };
    v / (1u64 << radix) as f64
}

/// An IEEE float of bits `low..=high` (32, or 16 for a half).
#[inline]
pub fn float(raw: u64, low: u32, high: u32) -> f32 {
    let v = uint(raw, low, high, 0);
    if high - low + 1 == 16 {
        half_to_f32(v as u16)
    } else {
        f32::from_bits(v as u32)
    }
}

/// Widens an IEEE half; exact for every half, NaN payloads included.
pub fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from(h >> 10 & 0x1f);
    let frac = u32::from(h & 0x3ff);
    let bits = match exp {
        0 if frac == 0 => sign,
        0 => {
            // Subnormal half: normalise it.
            let shift = frac.leading_zeros() - 21;
            let frac = (frac << shift) & 0x3ff;
            sign | ((127 - 15 + 1 - shift) << 23) | (frac << 13)
        }
        0x1f => sign | 0x7f80_0000 | (frac << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (frac << 13),
    };
    f32::from_bits(bits)
}

/// Narrows to an IEEE half when that is exact (every value [`half_to_f32`]
/// produces round-trips); `None` otherwise.
pub fn f32_to_half(v: f32) -> Option<u16> {
    let bits = v.to_bits();
    let sign = (bits >> 16 & 0x8000) as u16;
    let exp = (bits >> 23 & 0xff) as i32;
    let frac = bits & 0x7f_ffff;
    if exp == 0xff {
        if frac & 0x1fff != 0 {
            return None;
        }
        return Some(sign | 0x7c00 | (frac >> 13) as u16);
    }
    if exp == 0 && frac == 0 {
        return Some(sign);
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return None;
    }
    if e <= 0 {
        // Subnormal half: the value must be a multiple of 2^-24.
        let mant = frac | 0x80_0000;
        let shift = (14 - e) as u32;
        if shift > 24 || mant & ((1 << shift) - 1) != 0 {
            return None;
        }
        return Some(sign | (mant >> shift) as u16);
    }
    if frac & 0x1fff != 0 {
        return None;
    }
    Some(sign | (e as u16) << 10 | (frac >> 13) as u16)
}
