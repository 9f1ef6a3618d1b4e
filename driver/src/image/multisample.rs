//! Multisampled images: which formats and sample counts Parsnip creates,
//! and the bits of one element of such an image, for the clears.
//!
//! An N-sample surface stores a pixel's samples together, one after the
//! other: freedreno's layout (`fdl6_layout`) multiplies the texel size by
//! the sample count (its `cpp`) and tiles by that size, and the model does
//! the same (`sim/src/surface`). So a multisampled level is, bit for bit,
//! a single-sampled surface of the same pitch whose texels are `N * cpp`
//! bytes: the 2D engine, which does not write multisampled destinations
//! (Turnip draws to those, with its 3D blit path), clears one as that
//! surface, every sample of a texel at once, with the element repeated N
//! times as the solid colour; `vkCmdCopyImage` between two N-sample
//! images copies those texels as raw bits. The clears need the element's
//! bits on the CPU, so multisampling is offered for the formats whose
//! components are all of the width the 2D engine's intermediate format
//! hands over (8-bit components through UNORM8 or INT8, 16-bit through
//! FLOAT16 or INT16, 32-bit through FLOAT32 or INT32; D16 from its float
//! depth), where all N samples make 16 bytes at most (the widest 2D
//! engine texel). UBWC is not used for them: the flag blocks of an
//! N-sample surface are not those of its single-sampled alias.
//!
//! Sample counts are Turnip's: 1, 2 and 4 (its `sample_counts`). The
//! hardware also rasterizes 8 (MSAA_EIGHT), which Turnip does not offer;
//! neither does Parsnip.

use ash::vk;
use parsnip_registers::enums::{A6xx2dIfmt, A6xxFormat};
use parsnip_registers::Chip;

use crate::cmd::image_surface::ifmt;
use crate::formats::{self, Class, Format};

/// The sample counts a multisampled image may have.
pub const SAMPLE_COUNTS: vk::SampleCountFlags = vk::SampleCountFlags::from_raw(
    vk::SampleCountFlags::TYPE_1.as_raw()
        | vk::SampleCountFlags::TYPE_2.as_raw()
        | vk::SampleCountFlags::TYPE_4.as_raw(),
);

/// The widest texel the 2D engine moves.
const WIDEST_TEXEL: u32 = 16;

/// The usages a multisampled image may have: attachments and transfers
/// (resolves and clears read and write it). Shaders do not read
/// multisampled images yet (no sampled or storage multisampled views).
pub const USAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::from_raw(
    vk::ImageUsageFlags::COLOR_ATTACHMENT.as_raw()
        | vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT.as_raw()
        | vk::ImageUsageFlags::TRANSIENT_ATTACHMENT.as_raw()
        | vk::ImageUsageFlags::TRANSFER_SRC.as_raw()
        | vk::ImageUsageFlags::TRANSFER_DST.as_raw(),
);

/// The component widths of a hardware format, from its name
/// (`FMT6_16_16_FLOAT`: 16, 16).
fn component_bits(hw: A6xxFormat) -> Vec<u32> {
    hw.name(Chip::A6xx)
        .map(|n| {
            n.trim_start_matches("FMT6_")
                .split('_')
                .map_while(|p| p.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The component width an intermediate format hands over as it is.
fn ifmt_bits(i: A6xx2dIfmt) -> u32 {
    match i {
        A6xx2dIfmt::R2D_UNORM8 | A6xx2dIfmt::R2D_UNORM8_SRGB | A6xx2dIfmt::R2D_INT8 => 8,
        A6xx2dIfmt::R2D_FLOAT16 | A6xx2dIfmt::R2D_INT16 => 16,
        _ => 32,
    }
}

/// The formats of the planes of `f` (depth then stencil for D32S8).
fn planes(f: &'static Format) -> Vec<&'static Format> {
    if f.vk == vk::Format::D32_SFLOAT_S8_UINT {
        vec![
            f,
            formats::format(vk::Format::S8_UINT).expect("S8 in the table"),
        ]
    } else {
        vec![f]
    }
}

/// The bytes of one element of a plane of `f` (written by the 2D engine as
/// `hw` through `i`) holding `solid`, the solid colour in the intermediate
/// format's packing; `None` where the components are not what the
/// intermediate format hands over.
pub fn element_bytes(
    f: &Format,
    hw: A6xxFormat,
    i: A6xx2dIfmt,
    solid: [u32; 4],
) -> Option<Vec<u8>> {
    let bits = component_bits(hw);
    if bits.is_empty() || bits.len() > 4 {
        return None;
    }
    let mut words = solid;
    let width = ifmt_bits(i);
    if f.class == Class::Depth && bits == [16] && i == A6xx2dIfmt::R2D_FLOAT32 {
        // D16 is cleared from its float depth: UNORM16, rounded.
        let d = f32::from_bits(solid[0]).clamp(0.0, 1.0);
        words[0] = (f64::from(d) * 65535.0).round() as u32;
    } else if bits.iter().any(|&b| b != width) {
        return None;
    }
    let mut out = Vec::new();
    for (k, &b) in bits.iter().enumerate() {
        out.extend_from_slice(&words[k].to_le_bytes()[..(b / 8) as usize]);
    }
    (out.len() as u32 == f.bytes).then_some(out)
}

/// Whether an image of `f` may have `samples` samples.
pub fn supported(f: &'static Format, samples: u32) -> bool {
    if samples == 1 {
        return true;
    }
    if !SAMPLE_COUNTS.contains(vk::SampleCountFlags::from_raw(samples)) {
        return false;
    }
    planes(f).into_iter().all(|p| {
        let Some(hw) = p.color.filter(|_| p.copyable() && !p.is_compressed()) else {
            return false;
        };
        p.bytes * samples <= WIDEST_TEXEL
            && element_bytes(p, hw, ifmt(hw, p.class), [0; 4]).is_some()
    })
}

/// The sample counts images of `f` with `usage` may have (2D, optimal
/// tiling, no cube compatibility: the caller checks those).
pub fn sample_counts(f: &'static Format, usage: vk::ImageUsageFlags) -> vk::SampleCountFlags {
    let attachment =
        vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
    let mut out = vk::SampleCountFlags::TYPE_1;
    if !USAGE.contains(usage) || !usage.intersects(attachment) {
        return out;
    }
    for n in [2, 4] {
        if supported(f, n) {
            out |= vk::SampleCountFlags::from_raw(n);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::format;

    fn fmt(f: vk::Format) -> &'static Format {
        format(f).unwrap()
    }

    #[test]
    fn texels_up_to_16_bytes_with_all_samples_are_offered() {
        let color = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
        let all = SAMPLE_COUNTS;
        assert_eq!(sample_counts(fmt(vk::Format::R8G8B8A8_UNORM), color), all);
        assert_eq!(sample_counts(fmt(vk::Format::B8G8R8A8_SRGB), color), all);
        assert_eq!(sample_counts(fmt(vk::Format::R32_SFLOAT), color), all);
        // 8 bytes: 2 samples fit 16 bytes, 4 do not.
        assert_eq!(
            sample_counts(fmt(vk::Format::R16G16B16A16_SFLOAT), color),
            vk::SampleCountFlags::TYPE_1 | vk::SampleCountFlags::TYPE_2
        );
        assert_eq!(
            sample_counts(fmt(vk::Format::R32G32B32A32_SFLOAT), color),
            vk::SampleCountFlags::TYPE_1
        );
        let depth = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
        assert_eq!(sample_counts(fmt(vk::Format::D16_UNORM), depth), all);
        assert_eq!(sample_counts(fmt(vk::Format::D32_SFLOAT), depth), all);
        // Sampled multisampled images are not offered.
        assert_eq!(
            sample_counts(
                fmt(vk::Format::R8G8B8A8_UNORM),
                color | vk::ImageUsageFlags::SAMPLED
            ),
            vk::SampleCountFlags::TYPE_1
        );
    }

    #[test]
    fn elements_hold_the_components_in_order() {
        // RGBA8 (26, 51, 76, 255) as UNORM8 hands it over.
        let rgba = fmt(vk::Format::R8G8B8A8_UNORM);
        assert_eq!(
            element_bytes(
                rgba,
                A6xxFormat::FMT6_8_8_8_8_UNORM,
                A6xx2dIfmt::R2D_UNORM8,
                [26, 51, 76, 255]
            ),
            Some(vec![26, 51, 76, 255])
        );
        // D16 from depth 0.5: 32768 (0.5 * 65535 = 32767.5, rounded up).
        let d16 = fmt(vk::Format::D16_UNORM);
        assert_eq!(
            element_bytes(
                d16,
                A6xxFormat::FMT6_16_UNORM,
                A6xx2dIfmt::R2D_FLOAT32,
                [0.5f32.to_bits(), 0, 0, 0]
            ),
            Some(vec![0x00, 0x80])
        );
        // 10_10_10_2 is not handed over per component.
        let a2 = fmt(vk::Format::A2B10G10R10_UNORM_PACK32);
        assert!(!supported(a2, 4));
    }
}
