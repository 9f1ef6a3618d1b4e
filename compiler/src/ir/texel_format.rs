//! Texel formats as the reference interpreter reads and writes texel buffers, and as the
//! front end counts a storage image format's components.
//!
//! A format is its components' widths, from the lowest bits of the texel up (Vulkan's
//! R, G, B, A order for the formats SPIR-V names), and what they hold. The conversions are
//! Vulkan's ("Fixed-Point Data Conversions" and "Texel Input Operations"): a normalised
//! component reads as c / (2^b - 1) (unsigned) or max(c / (2^(b-1) - 1), -1) (signed) and
//! is written rounded to nearest after clamping to the representable range; a component
//! the format lacks reads as 0, alpha as 1 (0 and 1 for integers).

use super::eval::{f16_to_f32, f32_to_f16};
use super::TexelType;
use rspirv::spirv::ImageFormat;

/// What a format's components hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Numeric {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Float,
}

/// A texel format: up to four components of `widths` bits, lowest bits first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelFormat {
    pub widths: &'static [u32],
    pub numeric: Numeric,
}

impl TexelFormat {
    /// The format a SPIR-V image format names; `None` for `Unknown` and for the formats
    /// texel buffers do not take (64-bit integers, packed floats).
    pub fn from_spirv(f: ImageFormat) -> Option<TexelFormat> {
        use ImageFormat as I;
        use Numeric::*;
        let (widths, numeric): (&'static [u32], Numeric) = match f {
            I::Rgba32f => (&[32; 4], Float),
            I::Rgba16f => (&[16; 4], Float),
            I::R32f => (&[32], Float),
            I::Rg32f => (&[32; 2], Float),
            I::Rg16f => (&[16; 2], Float),
            I::R16f => (&[16], Float),
            I::Rgba8 => (&[8; 4], Unorm),
            I::Rgba16 => (&[16; 4], Unorm),
            I::Rgb10A2 => (&[10, 10, 10, 2], Unorm),
            I::Rg16 => (&[16; 2], Unorm),
            I::Rg8 => (&[8; 2], Unorm),
            I::R16 => (&[16], Unorm),
            I::R8 => (&[8], Unorm),
            I::Rgba8Snorm => (&[8; 4], Snorm),
            I::Rgba16Snorm => (&[16; 4], Snorm),
            I::Rg16Snorm => (&[16; 2], Snorm),
            I::Rg8Snorm => (&[8; 2], Snorm),
            I::R16Snorm => (&[16], Snorm),
            I::R8Snorm => (&[8], Snorm),
            I::Rgba32i => (&[32; 4], Sint),
            I::Rgba16i => (&[16; 4], Sint),
            I::Rgba8i => (&[8; 4], Sint),
            I::R32i => (&[32], Sint),
            I::Rg32i => (&[32; 2], Sint),
            I::Rg16i => (&[16; 2], Sint),
            I::Rg8i => (&[8; 2], Sint),
            I::R16i => (&[16], Sint),
            I::R8i => (&[8], Sint),
            I::Rgba32ui => (&[32; 4], Uint),
            I::Rgba16ui => (&[16; 4], Uint),
            I::Rgba8ui => (&[8; 4], Uint),
            I::R32ui => (&[32], Uint),
            I::Rgb10a2ui => (&[10, 10, 10, 2], Uint),
            I::Rg32ui => (&[32; 2], Uint),
            I::Rg16ui => (&[16; 2], Uint),
            I::Rg8ui => (&[8; 2], Uint),
            I::R16ui => (&[16], Uint),
            I::R8ui => (&[8], Uint),
            I::Unknown | I::R11fG11fB10f | I::R64ui | I::R64i => return None,
        };
        Some(TexelFormat { widths, numeric })
    }

    pub fn components(&self) -> usize {
        self.widths.len()
    }

    pub fn bytes(&self) -> usize {
        self.widths.iter().sum::<u32>() as usize / 8
    }

    pub fn is_integer(&self) -> bool {
        matches!(self.numeric, Numeric::Uint | Numeric::Sint)
    }

    /// The four components of the texel in `bytes` as a load returns them: f32 bit
    /// patterns for float and normalised formats, 32-bit integers (sign-extended for
    /// signed ones) for integer formats.
    pub fn read(&self, bytes: &[u8]) -> [u32; 4] {
        let mut out = if self.is_integer() {
            [0, 0, 0, 1]
        } else {
            [0, 0, 0, 1.0f32.to_bits()]
        };
        let mut bit = 0;
        for (c, &w) in self.widths.iter().enumerate() {
            let raw = field(bytes, bit, w);
            bit += w;
            let top = 1u64 << (w - 1);
            let signed = (raw ^ top).wrapping_sub(top) as i64;
            out[c] = match self.numeric {
                Numeric::Uint => raw as u32,
                Numeric::Sint => signed as u32,
                Numeric::Unorm => (((raw as f64) / ((1u64 << w) - 1) as f64) as f32).to_bits(),
                Numeric::Snorm => (((signed as f64) / (top - 1) as f64).max(-1.0) as f32).to_bits(),
                Numeric::Float if w == 16 => f16_to_f32(raw as u16).to_bits(),
                Numeric::Float => raw as u32,
            };
        }
        out
    }

    /// The bytes of a texel whose components a store of type `ty` gives as `values`
    /// (components beyond the format's are dropped).
    pub fn write(&self, values: [u32; 4], ty: TexelType) -> Vec<u8> {
        let mut bytes = vec![0u8; self.bytes()];
        let mut bit = 0;
        for (c, &w) in self.widths.iter().enumerate() {
            let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let as_float = || match ty {
                TexelType::Float => f32::from_bits(values[c]),
                TexelType::Sint => values[c] as i32 as f32,
                TexelType::Uint => values[c] as f32,
            };
            let raw = match self.numeric {
                Numeric::Uint | Numeric::Sint => u64::from(values[c]) & mask,
                Numeric::Unorm => {
                    let x = as_float();
                    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
                    (f64::from(x) * mask as f64).round_ties_even() as u64
                }
                Numeric::Snorm => {
                    let x = as_float();
                    let x = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
                    let scale = ((1u64 << (w - 1)) - 1) as f64;
                    ((f64::from(x) * scale).round_ties_even() as i64 as u64) & mask
                }
                Numeric::Float if w == 16 => u64::from(f32_to_f16(as_float())),
                Numeric::Float => u64::from(as_float().to_bits()),
            };
            set_field(&mut bytes, bit, w, raw);
            bit += w;
        }
        bytes
    }
}

/// The `width`-bit field at bit `at` of a little-endian byte string.
fn field(bytes: &[u8], at: u32, width: u32) -> u64 {
    (0..width).fold(0u64, |v, i| {
        let b = (at + i) as usize;
        let set = bytes.get(b / 8).is_some_and(|x| x >> (b % 8) & 1 != 0);
        v | (u64::from(set) << i)
    })
}

fn set_field(bytes: &mut [u8], at: u32, width: u32, v: u64) {
    for i in 0..width {
        let b = (at + i) as usize;
        if v >> i & 1 != 0 {
            bytes[b / 8] |= 1 << (b % 8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: ImageFormat) -> TexelFormat {
        TexelFormat::from_spirv(f).unwrap()
    }

    #[test]
    fn components_read_as_vulkan_converts_them() {
        let rgba8 = fmt(ImageFormat::Rgba8);
        assert_eq!(rgba8.bytes(), 4);
        let v = rgba8.read(&[0, 255, 51, 128]);
        assert_eq!(
            v.map(f32::from_bits),
            [0.0, 1.0, 0.2, 128.0 / 255.0].map(|x: f64| x as f32)
        );
        assert_eq!(
            fmt(ImageFormat::R8Snorm).read(&[0x80])[0],
            (-1.0f32).to_bits()
        );
        assert_eq!(
            fmt(ImageFormat::Rg16i).read(&[0xfe, 0xff, 3, 0]),
            [(-2i32) as u32, 3, 0, 1]
        );
        assert_eq!(
            fmt(ImageFormat::R16f).read(&[0x00, 0x3c]),
            [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]
        );
        assert_eq!(
            fmt(ImageFormat::Rgb10a2ui).read(&[0xff, 0x03, 0, 0xc0]),
            [1023, 0, 0, 3]
        );
    }

    #[test]
    fn writes_clamp_round_and_drop_extra_components() {
        let rg8 = fmt(ImageFormat::Rg8);
        let v = [0.5f32, 2.0, 7.0, 7.0].map(f32::to_bits);
        assert_eq!(rg8.write(v, TexelType::Float), [128, 255]);
        let r16i = fmt(ImageFormat::R16i);
        assert_eq!(
            r16i.write([(-3i32) as u32, 9, 9, 9], TexelType::Sint),
            [0xfd, 0xff]
        );
        let rgba16f = fmt(ImageFormat::Rgba16f);
        let bytes = rgba16f.write(
            [1.5f32, -2.0, 0.0, 65504.0].map(f32::to_bits),
            TexelType::Float,
        );
        assert_eq!(
            rgba16f.read(&bytes).map(f32::from_bits),
            [1.5, -2.0, 0.0, 65504.0]
        );
    }

    #[test]
    fn formats_texel_buffers_do_not_take_have_none() {
        assert!(TexelFormat::from_spirv(ImageFormat::Unknown).is_none());
        assert!(TexelFormat::from_spirv(ImageFormat::R64ui).is_none());
    }
}
