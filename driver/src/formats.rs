//! Vulkan formats as the hardware names them, and what the driver offers
//! for each.
//!
//! The driver has no image support yet: only buffers. A format is usable in
//! a texel buffer view when the texture unit reads it (uniform texel buffer)
//! or the SP's image instructions read and write it (storage texel buffer).
//! Which `FMT6_*` encodes a Vulkan format, with which component swap, is
//! from a6xx.xml's `a6xx_format` enum and Turnip's format table
//! (`tu_formats.cc`); every buffer format here uses the identity swap
//! `WZYX`, components in memory order.

use ash::vk;
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat};

/// What the hardware does with one Vulkan format in a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferFormat {
    pub vk: vk::Format,
    pub hw: A6xxFormat,
    pub swap: A3xxColorSwap,
    /// Bytes per texel.
    pub bytes: u32,
    /// Usable as a storage texel buffer (typed image loads and stores).
    pub storage: bool,
    /// Storage texel buffer atomics (32-bit integer formats).
    pub atomic: bool,
}

const fn fmt(
    vk: vk::Format,
    hw: A6xxFormat,
    bytes: u32,
    storage: bool,
    atomic: bool,
) -> BufferFormat {
    BufferFormat {
        vk,
        hw,
        swap: A3xxColorSwap::WZYX,
        bytes,
        storage,
        atomic,
    }
}

use vk::Format as F;
use A6xxFormat as H;

/// Every format a buffer view may use. Storage support follows the
/// formats Vulkan requires for storage texel buffers plus the 8/16-bit
/// integer and normalised ones Turnip offers.
pub static BUFFER_FORMATS: &[BufferFormat] = &[
    fmt(F::R8_UNORM, H::FMT6_8_UNORM, 1, true, false),
    fmt(F::R8_SNORM, H::FMT6_8_SNORM, 1, true, false),
    fmt(F::R8_UINT, H::FMT6_8_UINT, 1, true, false),
    fmt(F::R8_SINT, H::FMT6_8_SINT, 1, true, false),
    fmt(F::R8G8_UNORM, H::FMT6_8_8_UNORM, 2, true, false),
    fmt(F::R8G8_SNORM, H::FMT6_8_8_SNORM, 2, true, false),
    fmt(F::R8G8_UINT, H::FMT6_8_8_UINT, 2, true, false),
    fmt(F::R8G8_SINT, H::FMT6_8_8_SINT, 2, true, false),
    fmt(F::R8G8B8A8_UNORM, H::FMT6_8_8_8_8_UNORM, 4, true, false),
    fmt(F::R8G8B8A8_SNORM, H::FMT6_8_8_8_8_SNORM, 4, true, false),
    fmt(F::R8G8B8A8_UINT, H::FMT6_8_8_8_8_UINT, 4, true, false),
    fmt(F::R8G8B8A8_SINT, H::FMT6_8_8_8_8_SINT, 4, true, false),
    // A8B8G8R8_*_PACK32 words hold R in their low byte: the bytes of R8G8B8A8.
    fmt(
        F::A8B8G8R8_UNORM_PACK32,
        H::FMT6_8_8_8_8_UNORM,
        4,
        true,
        false,
    ),
    fmt(
        F::A8B8G8R8_SNORM_PACK32,
        H::FMT6_8_8_8_8_SNORM,
        4,
        true,
        false,
    ),
    fmt(
        F::A8B8G8R8_UINT_PACK32,
        H::FMT6_8_8_8_8_UINT,
        4,
        true,
        false,
    ),
    fmt(
        F::A8B8G8R8_SINT_PACK32,
        H::FMT6_8_8_8_8_SINT,
        4,
        true,
        false,
    ),
    fmt(F::R16_UNORM, H::FMT6_16_UNORM, 2, true, false),
    fmt(F::R16_SNORM, H::FMT6_16_SNORM, 2, true, false),
    fmt(F::R16_UINT, H::FMT6_16_UINT, 2, true, false),
    fmt(F::R16_SINT, H::FMT6_16_SINT, 2, true, false),
    fmt(F::R16_SFLOAT, H::FMT6_16_FLOAT, 2, true, false),
    fmt(F::R16G16_UNORM, H::FMT6_16_16_UNORM, 4, true, false),
    fmt(F::R16G16_SNORM, H::FMT6_16_16_SNORM, 4, true, false),
    fmt(F::R16G16_UINT, H::FMT6_16_16_UINT, 4, true, false),
    fmt(F::R16G16_SINT, H::FMT6_16_16_SINT, 4, true, false),
    fmt(F::R16G16_SFLOAT, H::FMT6_16_16_FLOAT, 4, true, false),
    fmt(
        F::R16G16B16A16_UNORM,
        H::FMT6_16_16_16_16_UNORM,
        8,
        true,
        false,
    ),
    fmt(
        F::R16G16B16A16_SNORM,
        H::FMT6_16_16_16_16_SNORM,
        8,
        true,
        false,
    ),
    fmt(
        F::R16G16B16A16_UINT,
        H::FMT6_16_16_16_16_UINT,
        8,
        true,
        false,
    ),
    fmt(
        F::R16G16B16A16_SINT,
        H::FMT6_16_16_16_16_SINT,
        8,
        true,
        false,
    ),
    fmt(
        F::R16G16B16A16_SFLOAT,
        H::FMT6_16_16_16_16_FLOAT,
        8,
        true,
        false,
    ),
    fmt(F::R32_UINT, H::FMT6_32_UINT, 4, true, true),
    fmt(F::R32_SINT, H::FMT6_32_SINT, 4, true, true),
    fmt(F::R32_SFLOAT, H::FMT6_32_FLOAT, 4, true, false),
    fmt(F::R32G32_UINT, H::FMT6_32_32_UINT, 8, true, false),
    fmt(F::R32G32_SINT, H::FMT6_32_32_SINT, 8, true, false),
    fmt(F::R32G32_SFLOAT, H::FMT6_32_32_FLOAT, 8, true, false),
    fmt(
        F::R32G32B32A32_UINT,
        H::FMT6_32_32_32_32_UINT,
        16,
        true,
        false,
    ),
    fmt(
        F::R32G32B32A32_SINT,
        H::FMT6_32_32_32_32_SINT,
        16,
        true,
        false,
    ),
    fmt(
        F::R32G32B32A32_SFLOAT,
        H::FMT6_32_32_32_32_FLOAT,
        16,
        true,
        false,
    ),
    fmt(
        F::A2B10G10R10_UNORM_PACK32,
        H::FMT6_10_10_10_2_UNORM,
        4,
        false,
        false,
    ),
    fmt(
        F::A2B10G10R10_UINT_PACK32,
        H::FMT6_10_10_10_2_UINT,
        4,
        false,
        false,
    ),
    fmt(
        F::B10G11R11_UFLOAT_PACK32,
        H::FMT6_11_11_10_FLOAT,
        4,
        false,
        false,
    ),
];

/// The buffer format for `format`, or `None` when buffers cannot use it.
pub fn buffer_format(format: vk::Format) -> Option<&'static BufferFormat> {
    BUFFER_FORMATS.iter().find(|f| f.vk == format)
}

/// `VkFormatProperties` for `format`: no image (tiling) features, since the
/// driver has no images, and the texel buffer features the table gives.
/// `texel_buffers` says whether texel buffer views are offered at all.
pub fn format_properties(format: vk::Format, texel_buffers: bool) -> vk::FormatProperties {
    let mut buffer = vk::FormatFeatureFlags::empty();
    if let Some(f) = buffer_format(format).filter(|_| texel_buffers) {
        buffer |= vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER;
        if f.storage {
            buffer |= vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER;
        }
        if f.atomic {
            buffer |= vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER_ATOMIC;
        }
    }
    vk::FormatProperties {
        linear_tiling_features: vk::FormatFeatureFlags::empty(),
        optimal_tiling_features: vk::FormatFeatureFlags::empty(),
        buffer_features: buffer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_buffer_format_has_the_texel_size_its_hardware_format_names() {
        // The FMT6 name spells the component widths: its sum is the size.
        for f in BUFFER_FORMATS {
            let name =
                f.hw.name(parsnip_registers::Chip::A6xx)
                    .expect("named format");
            let bits: u32 = name
                .trim_start_matches("FMT6_")
                .split('_')
                .filter_map(|part| part.parse::<u32>().ok())
                .sum();
            assert_eq!(bits, f.bytes * 8, "{:?} is {name}", f.vk);
        }
    }

    #[test]
    fn the_table_has_each_vulkan_format_once_and_atomics_only_on_32_bit_integers() {
        for (i, a) in BUFFER_FORMATS.iter().enumerate() {
            assert!(
                BUFFER_FORMATS[i + 1..].iter().all(|b| b.vk != a.vk),
                "{:?}",
                a.vk
            );
            if a.atomic {
                assert!(matches!(a.vk, F::R32_UINT | F::R32_SINT));
            }
        }
    }

    #[test]
    fn unknown_formats_have_no_features() {
        let p = format_properties(vk::Format::D32_SFLOAT, true);
        assert!(p.buffer_features.is_empty() && p.optimal_tiling_features.is_empty());
        let p = format_properties(vk::Format::R32_UINT, true);
        assert!(p
            .buffer_features
            .contains(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER_ATOMIC));
        assert!(format_properties(vk::Format::R32_UINT, false)
            .buffer_features
            .is_empty());
    }
}
