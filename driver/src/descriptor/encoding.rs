//! The GPU's descriptor formats, written through the register database's
//! descriptor structs.
//!
//! Every descriptor takes one 16-dword (64-byte) slot of its set, the size
//! SP_BINDLESS_BASE's BINDLESS_DESCRIPTOR_64B selects (a6xx.xml), which the
//! compiler's descriptor layout assumes:
//!
//! - storage buffers: a linear `TEX_CONST` of type `A6XX_TEX_BUFFER` in
//!   32-bit elements (`FMT6_32_UINT`), the element count spread over WIDTH
//!   (low 15 bits) and HEIGHT (high 15 bits), as the texture unit reads a
//!   buffer's size; the SP's untyped `ldib`/`stib` address it in units of
//!   the instruction's type. Turnip writes the same descriptor (plus a 16-bit
//!   one on parts with 16-bit storage, which this driver does not offer).
//! - uniform buffers: the 2-dword `A6XX_UBO` (base, size in vec4s) that
//!   `ldc` reads, in the first dwords of the slot.
//! - texel buffers: a linear `TEX_CONST` of type `A6XX_TEX_BUFFER` with the
//!   view's format and the identity swizzle.

use parsnip_registers::descriptors::{a6xx, a7xx, UboDescriptor};
use parsnip_registers::encode::FieldError;
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat, A6xxTexSwiz, A6xxTexType, A6xxTileMode};
use parsnip_registers::Chip;

use crate::error::{internal, VkResult};
use crate::formats::Format;

/// Dwords in one descriptor slot.
pub const DESCRIPTOR_DWORDS: usize = 16;

/// One descriptor slot's contents.
pub type Descriptor = [u32; DESCRIPTOR_DWORDS];

/// How a buffer texture descriptor views memory.
struct BufferTexture {
    fmt: A6xxFormat,
    swap: A3xxColorSwap,
    swizzle: [A6xxTexSwiz; 4],
    elements: u64,
    iova: u64,
}

/// A function filling one generation's `TEX_CONST` for a buffer: the
/// fields are the same on both, the structs differ (a7xx adds MUTABLEEN).
macro_rules! buffer_texture_fn {
    ($name:ident, $ty:ty) => {
        fn $name(t: &BufferTexture) -> Result<Descriptor, FieldError> {
            <$ty>::default()
                .tap(|d| {
                    d.tile_mode = A6xxTileMode::TILE6_LINEAR;
                    [d.swiz_x, d.swiz_y, d.swiz_z, d.swiz_w] = t.swizzle;
                    d.fmt = t.fmt;
                    d.swap = t.swap;
                    d.width = (t.elements & 0x7fff) as u32;
                    d.height = (t.elements >> 15) as u32;
                    d.structsizetexels = 1;
                    d.r#type = A6xxTexType::A6XX_TEX_BUFFER;
                    d.base_lo = t.iova as u32;
                    d.base_hi = (t.iova >> 32) as u32;
                })
                .try_to_raw()
        }
    };
}

/// Applies `f` to a value and returns it.
trait Tap: Sized {
    fn tap(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}
impl<T> Tap for T {}

buffer_texture_fn!(a6xx_buffer_texture, a6xx::TextureDescriptor);
buffer_texture_fn!(a7xx_buffer_texture, a7xx::TextureDescriptor);

fn buffer_texture_descriptor(chip: Chip, t: &BufferTexture) -> VkResult<Descriptor> {
    let raw = match chip {
        Chip::A6xx => a6xx_buffer_texture(t),
        Chip::A7xx => a7xx_buffer_texture(t),
    };
    raw.map_err(|e| internal("encoding a buffer descriptor", e))
}

/// The descriptor of `range` bytes of storage buffer at `iova`.
pub fn storage_buffer(chip: Chip, iova: u64, range: u64) -> VkResult<Descriptor> {
    buffer_texture_descriptor(
        chip,
        &BufferTexture {
            fmt: A6xxFormat::FMT6_32_UINT,
            swap: A3xxColorSwap::WZYX,
            swizzle: [A6xxTexSwiz::A6XX_TEX_X; 4],
            elements: range.div_ceil(4),
            iova,
        },
    )
}

/// The descriptor of `range` bytes of uniform buffer at `iova`.
pub fn uniform_buffer(iova: u64, range: u64) -> VkResult<Descriptor> {
    let ubo = UboDescriptor {
        base_lo: iova as u32,
        base_hi: (iova >> 32) as u32,
        size: range.div_ceil(16) as u32,
    };
    let raw = ubo
        .try_to_raw()
        .map_err(|e| internal("encoding a UBO descriptor", e))?;
    let mut out = [0u32; DESCRIPTOR_DWORDS];
    out[..raw.len()].copy_from_slice(&raw);
    Ok(out)
}

/// The descriptor of a texel buffer view: `elements` texels of `format`
/// from `iova`.
pub fn texel_buffer(chip: Chip, format: &Format, iova: u64, elements: u64) -> VkResult<Descriptor> {
    buffer_texture_descriptor(
        chip,
        &BufferTexture {
            fmt: format.hw,
            swap: format.swap,
            swizzle: [
                A6xxTexSwiz::A6XX_TEX_X,
                A6xxTexSwiz::A6XX_TEX_Y,
                A6xxTexSwiz::A6XX_TEX_Z,
                A6xxTexSwiz::A6XX_TEX_W,
            ],
            elements,
            iova,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storage_buffer_decodes_to_a_linear_32_bit_buffer_texture() {
        let d = storage_buffer(Chip::A6xx, 0x1_0002_6040, 1024).unwrap();
        let t = a6xx::TextureDescriptor::from_raw(&d);
        assert_eq!(t.tile_mode, A6xxTileMode::TILE6_LINEAR);
        assert_eq!(t.fmt, A6xxFormat::FMT6_32_UINT);
        assert_eq!(t.r#type, A6xxTexType::A6XX_TEX_BUFFER);
        assert_eq!(t.width, 256);
        assert_eq!(t.height, 0);
        assert_eq!(t.structsizetexels, 1);
        assert_eq!(
            u64::from(t.base_lo) | u64::from(t.base_hi) << 32,
            0x1_0002_6040
        );
        // The 8 high dwords (flag buffer, min LOD) stay zero.
        assert!(d[6..].iter().all(|&w| w == 0));
    }

    #[test]
    fn turnips_storage_descriptor_layout_is_the_one_written() {
        // The a660 compute trace's descriptor (compute.log, at 0x100027000):
        // 06000000 00000200 80000010 00000000 00026000 00000001, a 16-bit
        // view of the same 1024 bytes. Ours differs only in format and count.
        let d = storage_buffer(Chip::A6xx, 0x1_0002_6000, 1024).unwrap();
        let fmt_field = 0xffu32 << 22;
        assert_eq!(d[0] & !fmt_field, 0x0600_0000 & !fmt_field);
        assert_eq!(d[0] & fmt_field, A6xxFormat::FMT6_32_UINT.0 << 22);
        assert_eq!(d[1], 0x200 / 2);
        assert_eq!(&d[2..6], &[0x8000_0010, 0, 0x0002_6000, 1]);
    }

    #[test]
    fn large_buffers_spill_their_count_into_height() {
        let d = storage_buffer(Chip::A7xx, 0x1_0000_0000, 1 << 27).unwrap();
        let t = a7xx::TextureDescriptor::from_raw(&d);
        assert_eq!(u64::from(t.width) | u64::from(t.height) << 15, 1 << 25);
    }

    #[test]
    fn a_ubo_descriptor_counts_vec4s() {
        let d = uniform_buffer(0x1_2345_6780, 100).unwrap();
        let u = UboDescriptor::from_raw(&[d[0], d[1]]);
        assert_eq!(u.base_lo, 0x2345_6780);
        assert_eq!(u.base_hi, 1);
        assert_eq!(u.size, 7);
        assert!(d[2..].iter().all(|&w| w == 0));
    }

    #[test]
    fn texel_buffers_carry_their_format_and_identity_swizzle() {
        let f = crate::formats::buffer_format(ash::vk::Format::R16G16_SFLOAT).unwrap();
        let d = texel_buffer(Chip::A6xx, f, 0x1_0000_0040, 10).unwrap();
        let t = a6xx::TextureDescriptor::from_raw(&d);
        assert_eq!(t.fmt, A6xxFormat::FMT6_16_16_FLOAT);
        assert_eq!(
            [t.swiz_x, t.swiz_y, t.swiz_z, t.swiz_w],
            [
                A6xxTexSwiz::A6XX_TEX_X,
                A6xxTexSwiz::A6XX_TEX_Y,
                A6xxTexSwiz::A6XX_TEX_Z,
                A6xxTexSwiz::A6XX_TEX_W
            ]
        );
        assert_eq!(t.width, 10);
        // A misaligned base is refused, not truncated.
        assert!(texel_buffer(Chip::A6xx, f, 0x1_0000_0004, 1).is_err());
    }
}
