//! A load-op clear value as the resolve engine writes it into GMEM: the
//! bits of one GMEM element, little-endian from RB_BLIT_CLEAR_COLOR_DW0,
//! components one after the other in the hardware format's order (GMEM
//! is never swapped: a B8G8R8A8 attachment is R, G, B, A there, its swap
//! being applied on the way to memory), and the CLEAR_MASK of the
//! aspects cleared. Turnip packs its GMEM clears so
//! (a660 triangle_gmem.log: (0.1, 0.2, 0.3, 1.0) in RGBA8 is 0xff4c331a).
//!
//! Formats whose components all have the same width (8, 16 or 32 bits)
//! and the depth formats are packed here; a pass clearing another format
//! is rendered in sysmem, where the 2D engine converts the value.

use ash::vk;
use parsnip_compiler::ir::eval::f32_to_f16;

use crate::cmd::clear_image::linear_to_srgb;
use crate::formats::{Class, Format};

/// The GMEM clear of an attachment: element bits and CLEAR_MASK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GmemClear {
    pub value: [u32; 4],
    pub mask: u32,
}

/// Components and bits each of a colour format whose components are all
/// alike.
fn uniform_components(format: vk::Format) -> Option<(usize, u32)> {
    use vk::Format as F;
    Some(match format {
        F::R8_UNORM | F::R8_SNORM | F::R8_UINT | F::R8_SINT | F::R8_SRGB => (1, 8),
        F::R8G8_UNORM | F::R8G8_SNORM | F::R8G8_UINT | F::R8G8_SINT | F::R8G8_SRGB => (2, 8),
        F::R8G8B8A8_UNORM
        | F::R8G8B8A8_SNORM
        | F::R8G8B8A8_UINT
        | F::R8G8B8A8_SINT
        | F::R8G8B8A8_SRGB
        | F::B8G8R8A8_UNORM
        | F::B8G8R8A8_SRGB
        | F::A8B8G8R8_UNORM_PACK32
        | F::A8B8G8R8_SNORM_PACK32
        | F::A8B8G8R8_UINT_PACK32
        | F::A8B8G8R8_SINT_PACK32
        | F::A8B8G8R8_SRGB_PACK32 => (4, 8),
        F::R16_UNORM | F::R16_SNORM | F::R16_UINT | F::R16_SINT | F::R16_SFLOAT => (1, 16),
        F::R16G16_UNORM | F::R16G16_SNORM | F::R16G16_UINT | F::R16G16_SINT | F::R16G16_SFLOAT => {
            (2, 16)
        }
        F::R16G16B16A16_UNORM
        | F::R16G16B16A16_SNORM
        | F::R16G16B16A16_UINT
        | F::R16G16B16A16_SINT
        | F::R16G16B16A16_SFLOAT => (4, 16),
        F::R32_UINT | F::R32_SINT | F::R32_SFLOAT => (1, 32),
        F::R32G32_UINT | F::R32G32_SINT | F::R32G32_SFLOAT => (2, 32),
        F::R32G32B32A32_UINT | F::R32G32B32A32_SINT | F::R32G32B32A32_SFLOAT => (4, 32),
        _ => return None,
    })
}

/// Whether a clear of `format` can be packed for GMEM.
pub fn packs(format: &Format) -> bool {
    matches!(
        format.vk,
        vk::Format::D16_UNORM
            | vk::Format::D32_SFLOAT
            | vk::Format::X8_D24_UNORM_PACK32
            | vk::Format::D24_UNORM_S8_UINT
    ) || uniform_components(format.vk).is_some()
}

fn unorm(v: f32, bits: u32) -> u32 {
    let max = ((1u64 << bits) - 1) as f32;
    (v.clamp(0.0, 1.0) * max).round_ties_even() as u32
}

fn snorm(v: f32, bits: u32) -> u32 {
    let max = ((1u64 << (bits - 1)) - 1) as f32;
    let mask = ((1u64 << bits) - 1) as u32;
    ((v.clamp(-1.0, 1.0) * max).round_ties_even() as i32 as u32) & mask
}

/// The GMEM clear of `aspects` of `format` to `value`; `None` for a
/// format [`packs`] refuses.
pub fn gmem_clear(
    format: &Format,
    aspects: vk::ImageAspectFlags,
    value: &vk::ClearValue,
) -> Option<GmemClear> {
    if format.is_depth_or_stencil() {
        // SAFETY: a depth/stencil attachment's clear value is its
        // depth_stencil member.
        let ds = unsafe { value.depth_stencil };
        let depth = aspects.contains(vk::ImageAspectFlags::DEPTH);
        let stencil = aspects.contains(vk::ImageAspectFlags::STENCIL);
        // CLEAR_MASK of a depth blit: 1 depth, 2 stencil (a6xx.xml).
        let mask = u32::from(depth) | u32::from(stencil) << 1;
        let bits = match format.vk {
            vk::Format::D16_UNORM => unorm(ds.depth, 16),
            vk::Format::D32_SFLOAT => ds.depth.to_bits(),
            vk::Format::X8_D24_UNORM_PACK32 | vk::Format::D24_UNORM_S8_UINT => {
                unorm(ds.depth, 24) | (ds.stencil & 0xff) << 24
            }
            _ => return None,
        };
        return Some(GmemClear {
            value: [bits, 0, 0, 0],
            mask,
        });
    }
    let (components, bits) = uniform_components(format.vk)?;
    // SAFETY: reading a colour clear value's union as the type the
    // format's class gives it.
    let (floats, uints) = unsafe { (value.color.float32, value.color.uint32) };
    let mut out = [0u32; 4];
    let mut at = 0;
    for c in 0..components {
        let v = match format.class {
            Class::Unorm => unorm(floats[c], bits),
            Class::Srgb if c < 3 => unorm(linear_to_srgb(floats[c]), bits),
            Class::Srgb => unorm(floats[c], bits),
            Class::Snorm => snorm(floats[c], bits),
            Class::Sfloat if bits == 16 => u32::from(f32_to_f16(floats[c])),
            Class::Sfloat => floats[c].to_bits(),
            Class::Uint | Class::Sint if bits == 32 => uints[c],
            Class::Uint | Class::Sint => uints[c] & ((1 << bits) - 1),
            _ => return None,
        };
        out[at / 32] |= v << (at % 32);
        at += bits as usize;
    }
    Some(GmemClear {
        value: out,
        mask: 0xf,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::format;

    fn color(c: [f32; 4]) -> vk::ClearValue {
        vk::ClearValue {
            color: vk::ClearColorValue { float32: c },
        }
    }

    #[test]
    fn clears_pack_as_turnips_gmem_clears() {
        // a660 triangle_gmem.log: RB_BLIT_CLEAR_COLOR_DW0 0xff4c331a for
        // (0.1, 0.2, 0.3, 1.0) in R8G8B8A8_UNORM, CLEAR_MASK 0xf.
        let rgba8 = format(vk::Format::R8G8B8A8_UNORM).unwrap();
        let c = gmem_clear(
            rgba8,
            vk::ImageAspectFlags::COLOR,
            &color([0.1, 0.2, 0.3, 1.0]),
        );
        assert_eq!(
            c,
            Some(GmemClear {
                value: [0xff4c_331a, 0, 0, 0],
                mask: 0xf
            })
        );
        let rg16f = format(vk::Format::R16G16_SFLOAT).unwrap();
        let c = gmem_clear(
            rg16f,
            vk::ImageAspectFlags::COLOR,
            &color([1.0, -2.0, 0.0, 0.0]),
        );
        assert_eq!(c.unwrap().value, [0xc000_3c00, 0, 0, 0]);
        let rgba32 = format(vk::Format::R32G32B32A32_SFLOAT).unwrap();
        let c = gmem_clear(
            rgba32,
            vk::ImageAspectFlags::COLOR,
            &color([0.5, 1.0, 2.0, 4.0]),
        );
        assert_eq!(c.unwrap().value, [0.5f32, 1.0, 2.0, 4.0].map(f32::to_bits));
        let d24s8 = format(vk::Format::D24_UNORM_S8_UINT).unwrap();
        let ds = vk::ClearValue {
            depth_stencil: vk::ClearDepthStencilValue {
                depth: 1.0,
                stencil: 0x5a,
            },
        };
        let all = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
        assert_eq!(
            gmem_clear(d24s8, all, &ds),
            Some(GmemClear {
                value: [0x5aff_ffff, 0, 0, 0],
                mask: 3
            })
        );
        let packed = format(vk::Format::A2B10G10R10_UNORM_PACK32).unwrap();
        assert!(!packs(packed));
        assert!(gmem_clear(packed, vk::ImageAspectFlags::COLOR, &color([0.0; 4])).is_none());
    }
}
