//! DRM format modifiers (`VK_EXT_image_drm_format_modifier`): the three
//! layouts an Adreno image may be shared in, as the Linux DRM names them
//! (`drm_fourcc.h`: vendor 0x05 is Qualcomm):
//!
//! - `DRM_FORMAT_MOD_LINEAR` (0): linear, any texel size the 2D engine
//!   copies;
//! - `DRM_FORMAT_MOD_QCOM_TILED3` (`fourcc_mod_code(QCOM, 3)`): `TILE6_3`
//!   without compression;
//! - `DRM_FORMAT_MOD_QCOM_COMPRESSED` (`fourcc_mod_code(QCOM, 1)`): UBWC,
//!   `TILE6_3` with the flag buffer first (the layout the kernel and other
//!   drivers expect), for the formats UBWC compresses on the GPU.
//!
//! A modifier's image is 2D, single-level, single-layer, single-sample
//! (as Turnip allows), and of one memory plane.

use ash::vk;
use parsnip_registers::gpu::UbwcFacts;

use super::{ubwc_possible, ImageDesc};
use crate::formats::{self, Format};

pub const LINEAR: u64 = 0;
pub const QCOM_COMPRESSED: u64 = 0x0500_0000_0000_0001;
pub const QCOM_TILED3: u64 = 0x0500_0000_0000_0003;

/// A layout a modifier names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    Linear,
    Tiled,
    Compressed,
}

impl Modifier {
    pub fn from_drm(m: u64) -> Option<Modifier> {
        match m {
            LINEAR => Some(Modifier::Linear),
            QCOM_TILED3 => Some(Modifier::Tiled),
            QCOM_COMPRESSED => Some(Modifier::Compressed),
            _ => None,
        }
    }

    pub fn drm(self) -> u64 {
        match self {
            Modifier::Linear => LINEAR,
            Modifier::Tiled => QCOM_TILED3,
            Modifier::Compressed => QCOM_COMPRESSED,
        }
    }
}

/// A single-level, single-layer 2D image of `f` for `usage`: what a
/// modifier's image may be (its extent stands for any wide enough to
/// tile).
pub(crate) fn shape(f: &Format, usage: vk::ImageUsageFlags) -> ImageDesc {
    ImageDesc {
        image_type: vk::ImageType::TYPE_2D,
        format: f.vk,
        extent: vk::Extent3D {
            width: 64,
            height: 64,
            depth: 1,
        },
        levels: 1,
        layers: 1,
        samples: 1,
        tiling: vk::ImageTiling::DRM_FORMAT_MODIFIER_EXT,
        usage,
        flags: vk::ImageCreateFlags::empty(),
        view_formats_swap: false,
    }
}

/// The modifiers `format` may have, best first, with the features each
/// gives (`VkDrmFormatModifierPropertiesEXT`).
pub fn modifiers(format: vk::Format, gpu: &UbwcFacts) -> Vec<(Modifier, vk::FormatFeatureFlags)> {
    let Some(f) = formats::format(format) else {
        return Vec::new();
    };
    let features = formats::image_features(f);
    if features.is_empty() || f.is_depth_or_stencil() || f.is_compressed() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if f.bytes.is_power_of_two() {
        if ubwc_possible(f, &shape(f, vk::ImageUsageFlags::TRANSFER_DST), gpu) {
            out.push((Modifier::Compressed, features));
        }
        out.push((Modifier::Tiled, features));
    }
    out.push((Modifier::Linear, features));
    out
}

/// The modifier an image with the offered `list` gets: the best one the
/// format and usage allow.
pub fn choose(desc: &ImageDesc, list: &[u64], gpu: &UbwcFacts) -> Option<Modifier> {
    let f = formats::format(desc.format)?;
    modifiers(desc.format, gpu)
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| list.contains(&m.drm()))
        .find(|m| *m != Modifier::Compressed || ubwc_possible(f, desc, gpu))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::gpu;

    #[test]
    fn formats_offer_compressed_tiled_and_linear_where_the_gpu_allows() {
        let a660 = &gpu::by_name("a660").unwrap().ubwc;
        let a630 = &gpu::by_name("a630").unwrap().ubwc;
        let names = |f, g| {
            modifiers(f, g)
                .iter()
                .map(|(m, _)| m.drm())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(vk::Format::R8G8B8A8_UNORM, a660),
            [QCOM_COMPRESSED, QCOM_TILED3, LINEAR]
        );
        // 8-bit UBWC only on a6xx gen 1.
        assert_eq!(names(vk::Format::R8_UNORM, a660), [QCOM_TILED3, LINEAR]);
        assert_eq!(names(vk::Format::R8_UNORM, a630)[0], QCOM_COMPRESSED);
        assert!(names(vk::Format::D16_UNORM, a660).is_empty());
        assert!(names(vk::Format::R8G8B8_UNORM, a660).is_empty());
    }

    #[test]
    fn the_best_offered_modifier_the_usage_allows_is_chosen() {
        let a660 = &gpu::by_name("a660").unwrap().ubwc;
        let mut desc = shape(
            formats::format(vk::Format::R8G8B8A8_UNORM).unwrap(),
            vk::ImageUsageFlags::TRANSFER_DST,
        );
        let all = [LINEAR, QCOM_TILED3, QCOM_COMPRESSED];
        assert_eq!(choose(&desc, &all, a660), Some(Modifier::Compressed));
        // Storage images are not compressed on a660.
        desc.usage |= vk::ImageUsageFlags::STORAGE;
        assert_eq!(choose(&desc, &all, a660), Some(Modifier::Tiled));
        assert_eq!(choose(&desc, &[LINEAR], a660), Some(Modifier::Linear));
        assert_eq!(choose(&desc, &[0x1234], a660), None);
    }
}
