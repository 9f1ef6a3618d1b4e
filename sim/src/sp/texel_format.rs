//! Texel formats of storage images and textures: how the bytes of one texel
//! hold its components, for the uncompressed formats compute shaders use.
//!
//! Layouts follow a6xx.xml's `a6xx_format` names: components from the least
//! significant bits up, in the order the name lists them, with the WZYX
//! swap (the identity on Adreno: the first component in the low bits).
//! Conversions are Vulkan's: UNORM/SNORM to float divide by 2^b - 1 or
//! 2^(b-1) - 1 (SNORM clamped at -1), and back round to nearest; a missing
//! component reads as 0, alpha as 1. `FMT6_11_11_10_FLOAT` holds unsigned
//! floats (Vulkan's "Unsigned 11-Bit/10-Bit Floating-Point Numbers": a
//! 5-bit exponent biased by 15 and a 6- or 5-bit mantissa, no sign); it is
//! read, and writing it is not modelled.

use parsnip_isa::eval::float::{f16_to_f32, f32_to_f16};
use parsnip_isa::Round;
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat as F};

use super::trap::{error, Trap};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Float,
    /// Unsigned small floats (11:11:10).
    Ufloat,
}

/// The components of a texel: floats for float and normalized formats,
/// integers (two's complement for signed) for integer formats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Texel {
    Float([f32; 4]),
    Int([u32; 4]),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TexelFormat {
    pub bytes: u32,
    bits: &'static [u32],
    class: Class,
}

/// The layout of `format`, or an error for one the model does not read.
pub(crate) fn texel_format(format: F, swap: A3xxColorSwap) -> Result<TexelFormat, Trap> {
    use Class::*;
    let (bits, class): (&'static [u32], Class) = match format {
        F::FMT6_8_UNORM => (&[8], Unorm),
        F::FMT6_8_SNORM => (&[8], Snorm),
        F::FMT6_8_UINT => (&[8], Uint),
        F::FMT6_8_SINT => (&[8], Sint),
        F::FMT6_8_8_UNORM => (&[8, 8], Unorm),
        F::FMT6_8_8_SNORM => (&[8, 8], Snorm),
        F::FMT6_8_8_UINT => (&[8, 8], Uint),
        F::FMT6_8_8_SINT => (&[8, 8], Sint),
        F::FMT6_8_8_8_8_UNORM => (&[8, 8, 8, 8], Unorm),
        F::FMT6_8_8_8_8_SNORM => (&[8, 8, 8, 8], Snorm),
        F::FMT6_8_8_8_8_UINT => (&[8, 8, 8, 8], Uint),
        F::FMT6_8_8_8_8_SINT => (&[8, 8, 8, 8], Sint),
        F::FMT6_10_10_10_2_UNORM => (&[10, 10, 10, 2], Unorm),
        F::FMT6_10_10_10_2_UINT => (&[10, 10, 10, 2], Uint),
        F::FMT6_11_11_10_FLOAT => (&[11, 11, 10], Ufloat),
        F::FMT6_16_UNORM => (&[16], Unorm),
        F::FMT6_16_SNORM => (&[16], Snorm),
        F::FMT6_16_UINT => (&[16], Uint),
        F::FMT6_16_SINT => (&[16], Sint),
        F::FMT6_16_FLOAT => (&[16], Float),
        F::FMT6_16_16_UNORM => (&[16, 16], Unorm),
        F::FMT6_16_16_SNORM => (&[16, 16], Snorm),
        F::FMT6_16_16_UINT => (&[16, 16], Uint),
        F::FMT6_16_16_SINT => (&[16, 16], Sint),
        F::FMT6_16_16_FLOAT => (&[16, 16], Float),
        F::FMT6_16_16_16_16_UNORM => (&[16, 16, 16, 16], Unorm),
        F::FMT6_16_16_16_16_SNORM => (&[16, 16, 16, 16], Snorm),
        F::FMT6_16_16_16_16_UINT => (&[16, 16, 16, 16], Uint),
        F::FMT6_16_16_16_16_SINT => (&[16, 16, 16, 16], Sint),
        F::FMT6_16_16_16_16_FLOAT => (&[16, 16, 16, 16], Float),
        F::FMT6_32_UINT => (&[32], Uint),
        F::FMT6_32_SINT => (&[32], Sint),
        F::FMT6_32_FLOAT => (&[32], Float),
        F::FMT6_32_32_UINT => (&[32, 32], Uint),
        F::FMT6_32_32_SINT => (&[32, 32], Sint),
        F::FMT6_32_32_FLOAT => (&[32, 32], Float),
        F::FMT6_32_32_32_UINT => (&[32, 32, 32], Uint),
        F::FMT6_32_32_32_SINT => (&[32, 32, 32], Sint),
        F::FMT6_32_32_32_FLOAT => (&[32, 32, 32], Float),
        F::FMT6_32_32_32_32_UINT => (&[32, 32, 32, 32], Uint),
        F::FMT6_32_32_32_32_SINT => (&[32, 32, 32, 32], Sint),
        F::FMT6_32_32_32_32_FLOAT => (&[32, 32, 32, 32], Float),
        other => {
            return error(format!(
                "texel format {:#x} (a6xx_format) is not modelled",
                other.0
            ))
        }
    };
    if swap != A3xxColorSwap::WZYX {
        return error(format!(
            "a texel component swap of {} (only WZYX, the identity, is modelled)",
            swap.0
        ));
    }
    Ok(TexelFormat {
        bytes: bits.iter().sum::<u32>() / 8,
        bits,
        class,
    })
}

fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

impl TexelFormat {
    pub fn is_integer(&self) -> bool {
        matches!(self.class, Class::Uint | Class::Sint)
    }

    /// The components of the texel in `bytes` (little endian).
    pub fn decode(&self, bytes: &[u8]) -> Texel {
        let mut raw = [0u8; 16];
        raw[..bytes.len()].copy_from_slice(bytes);
        let packed = u128::from_le_bytes(raw);
        let mut shift = 0;
        let mut fields = [0u64; 4];
        for (f, &b) in fields.iter_mut().zip(self.bits) {
            *f = (packed >> shift) as u64 & ones(b);
            shift += b;
        }
        let n = self.bits.len();
        if self.is_integer() {
            let mut v = [0, 0, 0, 1];
            for i in 0..n {
                let b = self.bits[i];
                v[i] = match self.class {
                    Class::Sint if b < 32 => (((fields[i] << (64 - b)) as i64) >> (64 - b)) as u32,
                    _ => fields[i] as u32,
                };
            }
            Texel::Int(v)
        } else {
            let mut v = [0.0, 0.0, 0.0, 1.0];
            for i in 0..n {
                let b = self.bits[i];
                let x = fields[i];
                v[i] = match self.class {
                    Class::Unorm => (x as f64 / ones(b) as f64) as f32,
                    Class::Snorm => {
                        let s = ((x << (64 - b)) as i64) >> (64 - b);
                        ((s as f64) / ones(b - 1) as f64).max(-1.0) as f32
                    }
                    Class::Ufloat => ufloat_to_f32(x, b - 5),
                    _ if b == 16 => f16_to_f32(x as u16),
                    _ => f32::from_bits(x as u32),
                };
            }
            Texel::Float(v)
        }
    }

    /// The bytes of a texel with these components.
    pub fn encode(&self, texel: Texel) -> Result<Vec<u8>, Trap> {
        if self.class == Class::Ufloat {
            return error("stores to an 11:11:10 float image are not modelled");
        }
        let mut packed: u128 = 0;
        let mut shift = 0;
        for (i, &b) in self.bits.iter().enumerate() {
            let field: u64 = match (self.class, texel) {
                (Class::Uint | Class::Sint, Texel::Int(v)) => u64::from(v[i]) & ones(b),
                (Class::Uint | Class::Sint, Texel::Float(v)) => u64::from(v[i].to_bits()) & ones(b),
                (_, Texel::Int(v)) => u64::from(v[i]) & ones(b),
                (Class::Unorm, Texel::Float(v)) => {
                    let x = if v[i].is_nan() {
                        0.0
                    } else {
                        v[i].clamp(0.0, 1.0)
                    };
                    (f64::from(x) * ones(b) as f64).round_ties_even() as u64
                }
                (Class::Snorm, Texel::Float(v)) => {
                    let x = if v[i].is_nan() {
                        0.0
                    } else {
                        v[i].clamp(-1.0, 1.0)
                    };
                    let s = (f64::from(x) * ones(b - 1) as f64).round_ties_even() as i64;
                    s as u64 & ones(b)
                }
                (_, Texel::Float(v)) if b == 16 => u64::from(f32_to_f16(v[i], Round::Even)),
                (_, Texel::Float(v)) => u64::from(v[i].to_bits()),
            };
            packed |= u128::from(field) << shift;
            shift += b;
        }
        Ok(packed.to_le_bytes()[..self.bytes as usize].to_vec())
    }
}

/// An unsigned float with a 5-bit exponent (bias 15) above `mantissa` bits.
fn ufloat_to_f32(x: u64, mantissa: u32) -> f32 {
    let exp = (x >> mantissa) as i32;
    let m = (x & ones(mantissa)) as f64 / (1u64 << mantissa) as f64;
    match exp {
        0 => (m * 2f64.powi(-14)) as f32,
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => ((1.0 + m) * 2f64.powi(e - 15)) as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: F) -> TexelFormat {
        texel_format(f, A3xxColorSwap::WZYX).unwrap()
    }

    #[test]
    fn unorm_round_trips_and_fills_alpha() {
        let f = fmt(F::FMT6_8_8_UNORM);
        assert_eq!(f.bytes, 2);
        assert_eq!(
            f.decode(&[0xff, 0x80]),
            Texel::Float([1.0, 128.0 / 255.0, 0.0, 1.0])
        );
        assert_eq!(
            f.encode(Texel::Float([0.5, 2.0, 0.0, 0.0])).unwrap(),
            [128, 255]
        );
    }

    #[test]
    fn signed_and_half_float_components() {
        let f = fmt(F::FMT6_16_16_SINT);
        assert_eq!(
            f.decode(&[0xfe, 0xff, 5, 0]),
            Texel::Int([(-2i32) as u32, 5, 0, 1])
        );
        assert_eq!(
            f.encode(Texel::Int([(-2i32) as u32, 5, 0, 0])).unwrap(),
            [0xfe, 0xff, 5, 0]
        );
        let h = fmt(F::FMT6_16_FLOAT);
        assert_eq!(h.decode(&[0x00, 0x3c]), Texel::Float([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(
            fmt(F::FMT6_8_SNORM).decode(&[0x80]),
            Texel::Float([-1.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            fmt(F::FMT6_10_10_10_2_UINT).decode(&[0xff, 0x03, 0, 0xc0]),
            Texel::Int([1023, 0, 0, 3])
        );
    }

    #[test]
    fn packed_unsigned_floats_read_and_refuse_writes() {
        // In 11 bits R = 1.0 (exponent 15, mantissa 0) and G = 2^-1 * (1 + 1/64)
        // (exponent 14, mantissa 1); in 10 bits B = 2^-14 * 3/32 (a denormal).
        let r = 15u32 << 6;
        let g = 14u32 << 6 | 1;
        let b = 3u32;
        let bytes = (r | g << 11 | b << 22).to_le_bytes();
        let f = fmt(F::FMT6_11_11_10_FLOAT);
        assert_eq!(f.bytes, 4);
        assert_eq!(
            f.decode(&bytes),
            Texel::Float([
                1.0,
                0.5 * (1.0 + 1.0 / 64.0),
                3.0 / 32.0 * 2f32.powi(-14),
                1.0
            ])
        );
        let inf = (31u32 << 6).to_le_bytes();
        assert_eq!(f.decode(&inf), Texel::Float([f32::INFINITY, 0.0, 0.0, 1.0]));
        assert!(f.encode(Texel::Float([1.0; 4])).is_err());
    }

    #[test]
    fn unmodelled_formats_and_swaps_are_errors() {
        assert!(texel_format(F::FMT6_DXT1, A3xxColorSwap::WZYX).is_err());
        assert!(texel_format(F::FMT6_32_UINT, A3xxColorSwap::XYZW).is_err());
    }
}
