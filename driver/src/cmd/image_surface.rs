//! What the 2D engine sees of images and buffers: the surface of one
//! level and layer of an image plane, the format a copy, blit or clear
//! moves texels in, and the row-by-row split of buffer rectangles the
//! engine cannot address in one go.
//!
//! Copy formats (Turnip's `copy_format`): a copy moves bits, so it uses a
//! format whose path through the engine is lossless. Block-compressed
//! texels and formats the RB cannot write move as unsigned integers of the
//! block size; SNORM as the integer format of the same layout (the INT8
//! and INT16 paths keep every bit; Turnip's UNORM has the same effect);
//! sRGB without conversion; depth as 16_UNORM and 32_FLOAT through FLOAT32
//! (exact for both), stencil as 8_UINT.

use ash::vk;
use parsnip_registers::enums::{A3xxColorSwap, A6xx2dIfmt, A6xxFormat};
use parsnip_registers::Chip;

use super::blit2d::{DstKind, Surface};
use crate::error::VkResult;
use crate::formats::{Class, Format};
use crate::image::Image;

/// How texels move through the 2D engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlitFormat {
    pub hw: A6xxFormat,
    /// The linear swap of this format (tiled surfaces store unswapped).
    pub swap: A3xxColorSwap,
    pub ifmt: A6xx2dIfmt,
    pub kind: DstKind,
    pub srgb: bool,
    /// Bytes per texel block.
    pub bytes: u32,
}

/// The first component's width, from the hardware format's name
/// (`FMT6_10_10_10_2_UINT`: 10).
fn first_component_bits(hw: A6xxFormat) -> u32 {
    hw.name(Chip::A6xx)
        .and_then(|n| {
            n.trim_start_matches("FMT6_")
                .split('_')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(32)
}

/// The intermediate format a format converts through (Turnip's
/// `format_to_ifmt`): the red component's width and the numeric class.
pub fn ifmt(hw: A6xxFormat, class: Class) -> A6xx2dIfmt {
    let bits = first_component_bits(hw);
    match class {
        Class::Depth | Class::DepthStencil => A6xx2dIfmt::R2D_FLOAT32,
        Class::Stencil => A6xx2dIfmt::R2D_INT8,
        Class::Uint | Class::Sint => match bits {
            0..=8 => A6xx2dIfmt::R2D_INT8,
            9..=16 => A6xx2dIfmt::R2D_INT16,
            _ => A6xx2dIfmt::R2D_INT32,
        },
        Class::Sfloat | Class::Ufloat => match bits {
            0..=16 => A6xx2dIfmt::R2D_FLOAT16,
            _ => A6xx2dIfmt::R2D_FLOAT32,
        },
        Class::Unorm | Class::Snorm | Class::Srgb => match bits {
            0..=8 => A6xx2dIfmt::R2D_UNORM8,
            9..=11 => A6xx2dIfmt::R2D_FLOAT16,
            _ => A6xx2dIfmt::R2D_FLOAT32,
        },
    }
}

fn kind(class: Class) -> DstKind {
    match class {
        Class::Uint | Class::Stencil => DstKind::Uint,
        Class::Sint => DstKind::Sint,
        _ => DstKind::Float,
    }
}

/// The unsigned integer format of a texel size.
pub fn raw_format(bytes: u32) -> Option<BlitFormat> {
    let (hw, ifmt) = match bytes {
        1 => (A6xxFormat::FMT6_8_UINT, A6xx2dIfmt::R2D_INT8),
        2 => (A6xxFormat::FMT6_16_UINT, A6xx2dIfmt::R2D_INT16),
        4 => (A6xxFormat::FMT6_32_UINT, A6xx2dIfmt::R2D_INT32),
        8 => (A6xxFormat::FMT6_32_32_UINT, A6xx2dIfmt::R2D_INT32),
        16 => (A6xxFormat::FMT6_32_32_32_32_UINT, A6xx2dIfmt::R2D_INT32),
        _ => return None,
    };
    Some(BlitFormat {
        hw,
        swap: A3xxColorSwap::WZYX,
        ifmt,
        kind: DstKind::Uint,
        srgb: false,
        bytes,
    })
}

/// The integer format of an SNORM layout.
fn snorm_as_integer(hw: A6xxFormat) -> A6xxFormat {
    use A6xxFormat as H;
    match hw {
        H::FMT6_8_SNORM => H::FMT6_8_UINT,
        H::FMT6_8_8_SNORM => H::FMT6_8_8_UINT,
        H::FMT6_8_8_8_8_SNORM => H::FMT6_8_8_8_8_UINT,
        H::FMT6_16_SNORM => H::FMT6_16_UINT,
        H::FMT6_16_16_SNORM => H::FMT6_16_16_UINT,
        H::FMT6_16_16_16_16_SNORM => H::FMT6_16_16_16_16_UINT,
        other => other,
    }
}

/// The format a copy of the plane of `f` moves texels in.
pub fn copy_format(f: &Format) -> Option<BlitFormat> {
    if !f.copyable() {
        return None;
    }
    let Some(color) = f.color.filter(|_| !f.is_compressed()) else {
        return raw_format(f.bytes);
    };
    let (hw, class) = match f.class {
        Class::Snorm => (snorm_as_integer(color), Class::Uint),
        Class::Srgb => (color, Class::Unorm),
        c => (color, c),
    };
    Some(BlitFormat {
        hw,
        swap: f.swap,
        ifmt: ifmt(hw, class),
        kind: kind(class),
        srgb: false,
        bytes: f.bytes,
    })
}

/// The format a blit or clear writes `f` in (its own, converting).
pub fn render_format(f: &Format) -> Option<BlitFormat> {
    let color = f.color.filter(|_| f.copyable() && !f.is_compressed())?;
    Some(BlitFormat {
        hw: color,
        swap: f.swap,
        ifmt: ifmt(color, f.class),
        kind: kind(f.class),
        srgb: f.class == Class::Srgb,
        bytes: f.bytes,
    })
}

/// The format a blit reads `f` in.
pub fn sample_format(f: &Format) -> BlitFormat {
    BlitFormat {
        hw: f.hw,
        swap: f.swap,
        ifmt: ifmt(f.hw, f.class),
        kind: kind(f.class),
        srgb: f.class == Class::Srgb,
        bytes: f.bytes,
    }
}

/// One level and layer (or 3D slice) of an image plane as a 2D surface in
/// `format`; `raw_swap` makes a tiled surface present its texels in the
/// byte order of the format's linear layout (for copies between formats).
pub fn image_surface(
    image: &Image,
    aspect: vk::ImageAspectFlags,
    level: u32,
    layer: u32,
    format: &BlitFormat,
    raw_swap: Option<A3xxColorSwap>,
) -> Surface {
    let plane = image.plane(aspect);
    let l = &plane.layout;
    let lv = &l.levels[level as usize];
    let base = plane.offset + l.offset(level, layer);
    // A tiled plane stores all its levels unswapped, its linear narrow
    // levels too (Turnip's swaps follow the layout's tile mode).
    let swap = match (l.tiled, raw_swap) {
        (false, Some(_)) => A3xxColorSwap::WZYX,
        (true, Some(linear_swap)) => linear_swap,
        (false, None) => format.swap,
        (true, None) => A3xxColorSwap::WZYX,
    };
    Surface {
        iova: image.iova(base),
        pitch: lv.pitch,
        format: format.hw,
        swap,
        tile_mode: lv.tile_mode,
        srgb: format.srgb,
        flags: l
            .ubwc_offset(level, layer)
            .zip(lv.ubwc)
            .map(|(off, u)| (image.iova(plane.offset + off), u.pitch)),
        width: lv.width,
        height: lv.height,
        buffer: false,
        samples: image.desc.samples,
    }
}

/// A rectangle of a buffer the engine reads or writes as a linear surface:
/// its rows at `iova + y * pitch`, `width` texels of `bytes` each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferRect {
    pub iova: u64,
    pub pitch: u32,
    pub width: u32,
    pub height: u32,
}

/// A piece of a buffer rectangle the engine addresses in one blit: the
/// surface's base and pitch, the first texel's x within it, and the rows
/// it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferPiece {
    pub base: u64,
    pub pitch: u32,
    pub x: u32,
    pub first_row: u32,
    pub rows: u32,
}

/// Splits a buffer rectangle into what the engine can address: RB
/// destinations (and a6xx sources) need a 64-byte aligned base and pitch;
/// otherwise each row is its own blit from the aligned address below it,
/// starting `x` texels in (Turnip's copies do the same). a7xx sources take
/// any base and pitch (see `blit2d`).
pub fn buffer_pieces(r: &BufferRect, bytes: u32, chip: Chip, is_source: bool) -> Vec<BufferPiece> {
    let aligned = r.iova.is_multiple_of(64) && r.pitch.is_multiple_of(64);
    if aligned || (is_source && chip == Chip::A7xx) {
        return vec![BufferPiece {
            base: r.iova,
            pitch: r.pitch,
            x: 0,
            first_row: 0,
            rows: r.height,
        }];
    }
    (0..r.height)
        .map(|y| {
            let row = r.iova + u64::from(y) * u64::from(r.pitch);
            // A one-row surface's pitch is never used; Turnip writes the
            // row pitch rounded down to the field's 64-byte unit.
            BufferPiece {
                base: row & !63,
                pitch: r.pitch & !63,
                x: (row & 63) as u32 / bytes,
                first_row: y,
                rows: 1,
            }
        })
        .collect()
}

/// Refuses an image that is not bound yet: its address would be 0.
pub fn bound(image: &Image, command: &str) -> VkResult<()> {
    if image.binding().is_none() {
        eprintln!("parsnip: {command}: the image has no memory bound");
        return Err(vk::Result::ERROR_UNKNOWN);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::format;

    #[test]
    fn copy_formats_keep_every_bit() {
        let c = |f| copy_format(format(f).unwrap()).unwrap();
        // storage_image.log: R32_UINT copies as FMT6_32_UINT through INT32,
        // RGBA8 as FMT6_8_8_8_8_UNORM through UNORM8.
        assert_eq!(
            (c(vk::Format::R32_UINT).hw, c(vk::Format::R32_UINT).ifmt),
            (A6xxFormat::FMT6_32_UINT, A6xx2dIfmt::R2D_INT32)
        );
        let rgba = c(vk::Format::R8G8B8A8_UNORM);
        assert_eq!(
            (rgba.hw, rgba.ifmt),
            (A6xxFormat::FMT6_8_8_8_8_UNORM, A6xx2dIfmt::R2D_UNORM8)
        );
        let srgb = c(vk::Format::R8G8B8A8_SRGB);
        assert_eq!(
            (srgb.hw, srgb.srgb),
            (A6xxFormat::FMT6_8_8_8_8_UNORM, false)
        );
        let snorm = c(vk::Format::R16G16_SNORM);
        assert_eq!(
            (snorm.hw, snorm.ifmt),
            (A6xxFormat::FMT6_16_16_UINT, A6xx2dIfmt::R2D_INT16)
        );
        let bc1 = c(vk::Format::BC1_RGB_UNORM_BLOCK);
        assert_eq!((bc1.hw, bc1.bytes), (A6xxFormat::FMT6_32_32_UINT, 8));
        let e5 = c(vk::Format::E5B9G9R9_UFLOAT_PACK32);
        assert_eq!(e5.hw, A6xxFormat::FMT6_32_UINT);
        let half = c(vk::Format::R16G16B16A16_SFLOAT);
        assert_eq!(half.ifmt, A6xx2dIfmt::R2D_FLOAT16);
        let d16 = c(vk::Format::D16_UNORM);
        assert_eq!(
            (d16.hw, d16.ifmt),
            (A6xxFormat::FMT6_16_UNORM, A6xx2dIfmt::R2D_FLOAT32)
        );
        let u10 = c(vk::Format::A2B10G10R10_UINT_PACK32);
        assert_eq!(u10.ifmt, A6xx2dIfmt::R2D_INT16);
        assert!(copy_format(format(vk::Format::R8G8B8_UNORM).unwrap()).is_none());
        assert_eq!(c(vk::Format::B8G8R8A8_UNORM).swap, A3xxColorSwap::WXYZ);
    }

    #[test]
    fn unaligned_buffer_rows_are_blitted_one_by_one() {
        let r = BufferRect {
            iova: 0x1000_0010,
            pitch: 40,
            width: 10,
            height: 3,
        };
        let p = buffer_pieces(&r, 4, Chip::A6xx, true);
        assert_eq!(p.len(), 3);
        assert_eq!((p[0].base, p[0].x, p[0].pitch), (0x1000_0000, 4, 0));
        // Row 1 at 0x38: 14 texels into 0x1000_0000.
        assert_eq!((p[1].base, p[1].x), (0x1000_0000, 14));
        assert_eq!((p[2].base, p[2].x), (0x1000_0040, 8));
        // a7xx sources take the rectangle whole.
        assert_eq!(buffer_pieces(&r, 4, Chip::A7xx, true).len(), 1);
        assert_eq!(buffer_pieces(&r, 4, Chip::A7xx, false).len(), 3);
        let aligned = BufferRect {
            iova: 0x1000_0040,
            pitch: 64,
            ..r
        };
        assert_eq!(buffer_pieces(&aligned, 4, Chip::A6xx, false).len(), 1);
    }
}
