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

fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Accumulates fields into a raw value, remembering the first field that
/// did not fit.
#[derive(Debug)]
pub struct Packer {
    raw: u64,
    what: &'static str,
    error: Option<FieldError>,
}

impl Packer {
    pub fn new(what: &'static str) -> Self {
        Packer {
            raw: 0,
            what,
            error: None,
        }
    }

    fn fail(&mut self, field: &'static str, problem: FieldProblem) {
        if self.error.is_none() {
            self.error = Some(FieldError {
                register: self.what,
                field,
                problem,
            });
        }
    }

    fn put(&mut self, low: u32, high: u32, bits: u64) {
        self.raw |= (bits & ones(high - low + 1)) << low;
    }

    pub fn bit(&mut self, _field: &'static str, pos: u32, value: bool) {
        self.put(pos, pos, u64::from(value));
    }

    /// An unsigned value stored `>> shr` in bits `low..=high`.
    pub fn uint(&mut self, field: &'static str, low: u32, high: u32, shr: u32, value: u64) {
        let width = high - low + 1;
        let alignment = 1u64 << shr;
        if value & (alignment - 1) != 0 {
            self.fail(field, FieldProblem::Misaligned { value, alignment });
        }
        let stored = value >> shr;
        if stored > ones(width) {
            let max = i128::from(ones(width)) << shr;
            self.fail(
                field,
                FieldProblem::OutOfRange {
                    value: i128::from(value),
                    min: 0,
                    max,
                },
            );
        }
        self.put(low, high, stored);
    }

    /// A two's complement value stored `>> shr` in bits `low..=high`.
    pub fn int(&mut self, field: &'static str, low: u32, high: u32, shr: u32, value: i64) {
        let width = high - low + 1;
        let alignment = 1i64 << shr;
        if value & (alignment - 1) != 0 {
            self.fail(
                field,
                FieldProblem::Misaligned {
                    value: value as u64,
                    alignment: alignment as u64,
                },
            );
        }
        let stored = value >> shr;
        let min = -(1i128 << (width - 1));
        let max = (1i128 << (width - 1)) - 1;
        if i128::from(stored) < min || i128::from(stored) > max {
            self.fail(
                field,
                FieldProblem::OutOfRange {
                    value: i128::from(value),
                    min: min << shr,
                    max: max << shr,
                },
            );
        }
        self.put(low, high, stored as u64);
    }

    /// A fixed-point value with `radix` fraction bits. Values between two
    /// steps are rounded to the nearest one; out-of-range values are errors.
    pub fn fixed(
        &mut self,
        field: &'static str,
        low: u32,
        high: u32,
        radix: u32,
        signed: bool,
        value: f64,
    ) {
        let width = high - low + 1;
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
            self.fail(field, FieldProblem::NotRepresentable { value });
        }
        self.put(low, high, scaled as i64 as u64);
    }

    /// An IEEE float of the field's width (32 bits, or 16 for a half).
    pub fn float(&mut self, field: &'static str, low: u32, high: u32, value: f32) {
        let bits = if high - low + 1 == 16 {
            match f32_to_half(value) {
                Some(h) => u64::from(h),
                None => {
                    self.fail(
                        field,
                        FieldProblem::NotRepresentable {
                            value: f64::from(value),
                        },
                    );
                    0
                }
            }
        } else {
            u64::from(value.to_bits())
        };
        self.put(low, high, bits);
    }

    /// The packed value, or the first field that did not fit.
    pub fn finish(self) -> Result<u64, FieldError> {
        match self.error {
            None => Ok(self.raw),
            Some(e) => Err(e),
        }
    }

    /// The packed value with out-of-range fields truncated to their bits;
    /// a debug build asserts that none was.
    pub fn finish_masked(self) -> u64 {
        debug_assert!(
            self.error.is_none(),
            "{}",
            self.error
                .as_ref()
                .map(|e| e.to_string())
                .unwrap_or_default()
        );
        self.raw
    }
}

/// Bit `pos` of `raw`.
pub fn bit(raw: u64, pos: u32) -> bool {
    raw >> pos & 1 != 0
}

/// The unsigned value of bits `low..=high`, shifted back left by `shr`.
pub fn uint(raw: u64, low: u32, high: u32, shr: u32) -> u64 {
    (raw >> low & ones(high - low + 1)) << shr
}

/// The sign-extended value of bits `low..=high`, shifted back by `shr`.
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
pub fn fixed(raw: u64, low: u32, high: u32, radix: u32, signed: bool) -> f64 {
    let v = if signed {
        int(raw, low, high, 0) as f64
    } else {
        uint(raw, low, high, 0) as f64
    };
    v / (1u64 << radix) as f64
}

/// An IEEE float of bits `low..=high` (32, or 16 for a half).
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
