//! Depth buffer formats (`a6xx_depth_format`, what RB_DEPTH_BUFFER_INFO
//! names): D16 as a 16-bit unorm, D24S8 with the depth in the low 24 bits
//! and stencil in the high byte (the same bytes as `FMT6_Z24_UNORM_S8_UINT`),
//! D32 as a single float. With D32 (and for S8 alone) stencil lives in a
//! separate 8-bit buffer (RB_STENCIL_INFO.SEPARATE_STENCIL).
//!
//! Depth to fixed point follows Vulkan ("Fixed-Point Data Conversions"):
//! clamped to [0, 1] and rounded to nearest.

use parsnip_registers::enums::A6xxDepthFormat;
use parsnip_registers::Chip;

use super::numbers::{f32_to_unorm, unorm_to_f32};
use super::FormatError;

/// A depth buffer format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthFormat {
    pub format: A6xxDepthFormat,
    /// Bytes of one sample.
    pub bytes: u32,
}

impl DepthFormat {
    pub fn new(format: A6xxDepthFormat) -> Result<Self, FormatError> {
        let bytes = match format {
            A6xxDepthFormat::DEPTH6_16 => 2,
            A6xxDepthFormat::DEPTH6_24_8 | A6xxDepthFormat::DEPTH6_32 => 4,
            other => {
                return Err(FormatError(format!(
                    "depth format {}: no depth buffer",
                    other
                        .name(Chip::A6xx)
                        .map_or_else(|| other.0.to_string(), str::to_string)
                )))
            }
        };
        Ok(Self { format, bytes })
    }

    /// Whether stencil shares the depth buffer's texels.
    pub fn has_stencil(&self) -> bool {
        self.format == A6xxDepthFormat::DEPTH6_24_8
    }

    fn word(bytes: &[u8]) -> u32 {
        let mut w = [0u8; 4];
        let n = bytes.len().min(4);
        w[..n].copy_from_slice(&bytes[..n]);
        u32::from_le_bytes(w)
    }

    /// The depth value stored in `bytes`.
    pub fn read_depth(&self, bytes: &[u8]) -> f32 {
        let w = Self::word(bytes);
        match self.format {
            A6xxDepthFormat::DEPTH6_16 => unorm_to_f32(u64::from(w & 0xffff), 16),
            A6xxDepthFormat::DEPTH6_24_8 => unorm_to_f32(u64::from(w & 0xff_ffff), 24),
            _ => f32::from_bits(w),
        }
    }

    /// Stores depth `d` in `out`, keeping a shared stencil byte.
    pub fn write_depth(&self, d: f32, out: &mut [u8]) {
        match self.format {
            A6xxDepthFormat::DEPTH6_16 => {
                out[..2].copy_from_slice(&(f32_to_unorm(d, 16) as u16).to_le_bytes())
            }
            A6xxDepthFormat::DEPTH6_24_8 => {
                let w = Self::word(out) & 0xff00_0000 | f32_to_unorm(d, 24) as u32;
                out[..4].copy_from_slice(&w.to_le_bytes());
            }
            _ => out[..4].copy_from_slice(&d.to_bits().to_le_bytes()),
        }
    }

    /// The stencil value of a D24S8 texel (None for formats without one).
    pub fn read_stencil(&self, bytes: &[u8]) -> Option<u8> {
        self.has_stencil().then(|| (Self::word(bytes) >> 24) as u8)
    }

    /// Stores a D24S8 texel's stencil, keeping its depth.
    pub fn write_stencil(&self, s: u8, out: &mut [u8]) {
        if self.has_stencil() {
            out[3] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_formats_store_what_vulkan_says() {
        let d16 = DepthFormat::new(A6xxDepthFormat::DEPTH6_16).unwrap();
        let mut b = [0u8; 4];
        // 0.5 * 65535 = 32767.5: ties to even.
        d16.write_depth(0.5, &mut b);
        assert_eq!(&b[..2], &0x8000u16.to_le_bytes());
        assert_eq!(d16.read_depth(&[0xff, 0xff]), 1.0);
        assert!(!d16.has_stencil());

        let d24 = DepthFormat::new(A6xxDepthFormat::DEPTH6_24_8).unwrap();
        let mut b = 0xab00_0000u32.to_le_bytes();
        d24.write_depth(1.0, &mut b);
        assert_eq!(u32::from_le_bytes(b), 0xabff_ffff, "the stencil byte stays");
        assert_eq!(d24.read_stencil(&b), Some(0xab));
        d24.write_stencil(7, &mut b);
        assert_eq!(u32::from_le_bytes(b), 0x07ff_ffff);

        let d32 = DepthFormat::new(A6xxDepthFormat::DEPTH6_32).unwrap();
        d32.write_depth(0.25, &mut b);
        assert_eq!(u32::from_le_bytes(b), 0.25f32.to_bits());
        assert_eq!(d32.read_stencil(&b), None);
        assert!(DepthFormat::new(A6xxDepthFormat::DEPTH6_NONE).is_err());
    }
}
