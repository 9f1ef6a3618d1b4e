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
//! - image views: a `TEX_CONST` of the view's type over its first level and
//!   layer, with the image's tile mode, pitch, layer stride and UBWC flag
//!   buffer, as freedreno's `fdl6_view_init` fills it; storage views the
//!   same without PITCHALIGN and mip levels, cubes as 2D arrays.
//! - samplers: `A6XX_TEX_SAMP` (filters, wrap modes, anisotropy, LOD bias
//!   and clamp, compare function, unnormalised coordinates, reduction mode,
//!   and the border colour's index in the border colour table), as Turnip's
//!   `tu_sampler` fills it.

use parsnip_registers::descriptors::{a6xx, a7xx, UboDescriptor};
use parsnip_registers::encode::FieldError;
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat, A6xxTexSwiz, A6xxTexType, A6xxTileMode};
use parsnip_registers::Chip;

use crate::error::{internal, VkResult};
use crate::formats::Format;
use crate::image::Image;

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
    /// Texels between `iova` and the first one viewed (STARTOFFSETTEXELS).
    start_texel: u32,
}

/// A function filling one generation's `TEX_CONST` for a buffer: the
/// fields are the same on both, the structs differ (a7xx adds MUTABLEEN).
macro_rules! buffer_texture_fn {
    ($name:ident, $ty:ty) => {
        // Inlined so that a caller's constant fields (a storage buffer's
        // format, swap and swizzle) fold into constant bits, and their range
        // checks away, leaving the stores of what varies.
        #[inline(always)]
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
                    d.startoffsettexels = t.start_texel;
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

#[inline(always)]
fn buffer_texture_descriptor(chip: Chip, t: &BufferTexture) -> VkResult<Descriptor> {
    let raw = match chip {
        Chip::A6xx => a6xx_buffer_texture(t),
        Chip::A7xx => a7xx_buffer_texture(t),
    };
    raw.map_err(|e| internal("encoding a buffer descriptor", e))
}

/// The descriptor of `range` bytes of storage buffer at `iova`.
#[inline]
pub fn storage_buffer(chip: Chip, iova: u64, range: u64) -> VkResult<Descriptor> {
    buffer_texture_descriptor(
        chip,
        &BufferTexture {
            fmt: A6xxFormat::FMT6_32_UINT,
            swap: A3xxColorSwap::WZYX,
            swizzle: [A6xxTexSwiz::A6XX_TEX_X; 4],
            elements: range.div_ceil(4),
            iova,
            start_texel: 0,
        },
    )
}

/// The descriptor of `range` bytes of uniform buffer at `iova`.
#[inline]
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
/// from `iova`, which need only be a multiple of the texel's size: the
/// descriptor holds the 64-byte aligned address below it and the texels
/// from there to `iova` (STARTOFFSETTEXELS, at most 63), which the texture
/// unit and the SP skip before counting `elements`, as freedreno's
/// `fdl6_buffer_view_init` writes them.
pub fn texel_buffer(chip: Chip, format: &Format, iova: u64, elements: u64) -> VkResult<Descriptor> {
    let base = iova & !(TEXEL_BUFFER_BASE_ALIGN - 1);
    let below = iova - base;
    let bytes = u64::from(format.bytes);
    if bytes == 0 || !below.is_multiple_of(bytes) {
        return Err(internal(
            "encoding a texel buffer descriptor",
            format!("{iova:#x} is not a multiple of the {bytes}-byte texel"),
        ));
    }
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
            iova: base,
            start_texel: (below / bytes) as u32,
        },
    )
}

/// The alignment of a buffer descriptor's base address (its low six bits
/// are not stored).
pub const TEXEL_BUFFER_BASE_ALIGN: u64 = 64;

/// What an image view's descriptor describes.
pub struct ImageViewArgs<'a> {
    pub image: &'a Image,
    pub aspect: ash::vk::ImageAspectFlags,
    pub format: &'a Format,
    pub view_type: ash::vk::ImageViewType,
    pub base_level: u32,
    pub levels: u32,
    pub base_layer: u32,
    pub layers: u32,
    pub swizzle: [A6xxTexSwiz; 4],
    pub min_lod: f32,
}

/// The texture unit's type for a view (storage cubes are 2D arrays).
fn tex_type(view_type: ash::vk::ImageViewType, storage: bool) -> A6xxTexType {
    use ash::vk::ImageViewType as V;
    match view_type {
        V::TYPE_1D | V::TYPE_1D_ARRAY => A6xxTexType::A6XX_TEX_1D,
        V::CUBE | V::CUBE_ARRAY if !storage => A6xxTexType::A6XX_TEX_CUBE,
        V::TYPE_3D => A6xxTexType::A6XX_TEX_3D,
        _ => A6xxTexType::A6XX_TEX_2D,
    }
}

/// The fields of an image view's `TEX_CONST`, computed once for either
/// generation's struct.
struct ViewFields {
    tile_mode: A6xxTileMode,
    srgb: bool,
    fmt: A6xxFormat,
    swap: A3xxColorSwap,
    swizzle: [A6xxTexSwiz; 4],
    miplvls: u32,
    width: u32,
    height: u32,
    pitchalign: u32,
    pitch: u32,
    r#type: A6xxTexType,
    array_pitch: u64,
    min_layersz: u32,
    tile_all: bool,
    base: u64,
    depth: u32,
    min_lod_clamp: f32,
    flags: Option<(u64, u32, u32, u32, u32)>,
}

macro_rules! image_texture_fn {
    ($name:ident, $ty:ty) => {
        fn $name(v: &ViewFields) -> Result<Descriptor, FieldError> {
            <$ty>::default()
                .tap(|d| {
                    d.tile_mode = v.tile_mode;
                    d.srgb = v.srgb;
                    [d.swiz_x, d.swiz_y, d.swiz_z, d.swiz_w] = v.swizzle;
                    d.miplvls = v.miplvls;
                    d.fmt = v.fmt;
                    d.swap = v.swap;
                    d.width = v.width;
                    d.height = v.height;
                    d.pitchalign = v.pitchalign;
                    d.pitch = v.pitch;
                    d.r#type = v.r#type;
                    d.array_pitch = v.array_pitch;
                    d.min_layersz = v.min_layersz;
                    d.tile_all = v.tile_all;
                    d.base_lo = v.base as u32;
                    d.base_hi = (v.base >> 32) as u32;
                    d.depth = v.depth;
                    d.min_lod_clamp = v.min_lod_clamp;
                    if let Some((iova, array_pitch, pitch, logw, logh)) = v.flags {
                        d.flag = true;
                        d.flag_lo = iova as u32;
                        d.flag_hi = (iova >> 32) as u32;
                        d.flag_buffer_array_pitch = array_pitch;
                        d.flag_buffer_pitch = pitch;
                        d.flag_buffer_logw = logw;
                        d.flag_buffer_logh = logh;
                    }
                })
                .try_to_raw()
        }
    };
}

image_texture_fn!(a6xx_image_texture, a6xx::TextureDescriptor);
image_texture_fn!(a7xx_image_texture, a7xx::TextureDescriptor);

/// The texture (or, with `storage`, storage) descriptor of an image view.
pub fn image_view(chip: Chip, a: &ImageViewArgs<'_>, storage: bool) -> VkResult<Descriptor> {
    let plane = a.image.plane(a.aspect);
    let l = &plane.layout;
    let lv = &l.levels[a.base_level as usize];
    let offset = plane.offset + l.offset(a.base_level, a.base_layer);
    let base = a.image.iova(offset);
    // Blocks of a compressed image seen as texels, and the reverse.
    let (mut width, mut height) = (
        (a.image.desc.extent.width >> a.base_level).max(1),
        (a.image.desc.extent.height >> a.base_level).max(1),
    );
    let (pb, vb) = (plane.format.block, a.format.block);
    if pb != vb {
        width = width.div_ceil(pb[0]) * vb[0];
        height = height.div_ceil(pb[1]) * vb[1];
    }
    let is_3d = a.view_type == ash::vk::ImageViewType::TYPE_3D;
    let storage_depth = if is_3d {
        (a.image.desc.extent.depth >> a.base_level).max(1)
    } else {
        a.layers
    };
    let r#type = tex_type(a.view_type, storage);
    let depth = if r#type == A6xxTexType::A6XX_TEX_CUBE {
        storage_depth / 6
    } else {
        storage_depth
    };
    let flags = match (lv.ubwc, l.ubwc_offset(a.base_level, a.base_layer)) {
        (Some(u), Some(off)) => {
            let block = ubwc_block_of(a.format, plane.layout.cpp);
            let log2_ceil = |x: u32| 32 - (x.max(1) - 1).leading_zeros();
            Some((
                a.image.iova(plane.offset + off),
                // The field holds the quarter of the flag layer size (the
                // value freedreno writes), stored >> 4.
                (l.ubwc_layer_size >> 2) as u32,
                u.pitch,
                log2_ceil(width.div_ceil(block[0])),
                log2_ceil(height.div_ceil(block[1])),
            ))
        }
        _ => None,
    };
    let v = ViewFields {
        tile_mode: lv.tile_mode,
        srgb: a.format.class == crate::formats::Class::Srgb,
        fmt: a.format.hw,
        swap: a.format.swap_for(l.tiled),
        swizzle: a.swizzle,
        miplvls: if storage { 0 } else { a.levels - 1 },
        width,
        height,
        pitchalign: if storage { 0 } else { l.pitch_align_log2 - 6 },
        pitch: lv.pitch,
        r#type,
        array_pitch: l.layer_stride(a.base_level),
        min_layersz: if is_3d {
            l.levels[l.levels.len() - 1].size as u32
        } else {
            0
        },
        tile_all: l.tile_all,
        base,
        depth,
        min_lod_clamp: if storage {
            0.0
        } else {
            (a.min_lod - a.base_level as f32).max(0.0)
        },
        flags,
    };
    let raw = match chip {
        Chip::A6xx => a6xx_image_texture(&v),
        Chip::A7xx => a7xx_image_texture(&v),
    };
    raw.map_err(|e| internal("encoding an image view descriptor", e))
}

/// The UBWC block of a view's format (for the flag buffer's LOGW/LOGH).
fn ubwc_block_of(f: &Format, cpp: u32) -> [u32; 2] {
    if f.is_r8g8() {
        return [16, 8];
    }
    match cpp {
        8 => [8, 4],
        16 => [4, 4],
        32 => [4, 2],
        _ => [16, 4],
    }
}

/// A sampler's state, in Vulkan terms the descriptor takes directly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerArgs {
    pub mag: ash::vk::Filter,
    pub min: ash::vk::Filter,
    pub mipmap: ash::vk::SamplerMipmapMode,
    pub address: [ash::vk::SamplerAddressMode; 3],
    pub lod_bias: f32,
    pub anisotropy: Option<f32>,
    pub compare: Option<ash::vk::CompareOp>,
    pub min_lod: f32,
    pub max_lod: f32,
    /// Index of the border colour in the device's border colour table.
    pub border_color: u32,
    pub unnormalized: bool,
    pub reduction: ash::vk::SamplerReductionMode,
    pub seamless_cube: bool,
}

/// The largest LOD the descriptor holds (12 bits, 8 of them fractional).
pub const MAX_SAMPLER_LOD: f32 = 4095.0 / 256.0;

/// The `A6XX_TEX_SAMP` of a sampler.
pub fn sampler(s: &SamplerArgs) -> VkResult<Descriptor> {
    use parsnip_registers::descriptors::SamplerDescriptor;
    use parsnip_registers::enums::{
        A6xxReductionMode, A6xxTexAniso, A6xxTexClamp, A6xxTexFilter, AdrenoCompareFunc,
    };
    let aniso = s
        .anisotropy
        .map_or(0, |a| (a.clamp(1.0, 16.0) as u32).ilog2());
    let filter = |f: ash::vk::Filter| match f {
        ash::vk::Filter::NEAREST => A6xxTexFilter::A6XX_TEX_NEAREST,
        ash::vk::Filter::LINEAR if aniso > 0 => A6xxTexFilter::A6XX_TEX_ANISO,
        ash::vk::Filter::LINEAR => A6xxTexFilter::A6XX_TEX_LINEAR,
        _ => A6xxTexFilter::A6XX_TEX_CUBIC,
    };
    let wrap = |m: ash::vk::SamplerAddressMode| {
        use ash::vk::SamplerAddressMode as M;
        match m {
            M::REPEAT => A6xxTexClamp::A6XX_TEX_REPEAT,
            M::MIRRORED_REPEAT => A6xxTexClamp::A6XX_TEX_MIRROR_REPEAT,
            M::CLAMP_TO_EDGE => A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
            M::CLAMP_TO_BORDER => A6xxTexClamp::A6XX_TEX_CLAMP_TO_BORDER,
            _ => A6xxTexClamp::A6XX_TEX_MIRROR_CLAMP,
        }
    };
    let d = SamplerDescriptor {
        mipfilter_linear_near: s.mipmap == ash::vk::SamplerMipmapMode::LINEAR,
        xy_mag: filter(s.mag),
        xy_min: filter(s.min),
        wrap_s: wrap(s.address[0]),
        wrap_t: wrap(s.address[1]),
        wrap_r: wrap(s.address[2]),
        aniso: A6xxTexAniso(aniso),
        lod_bias: s.lod_bias.clamp(-16.0, 4095.0 / 256.0),
        // Vulkan's compare ops are in the hardware's order.
        compare_func: AdrenoCompareFunc(s.compare.map_or(0, |c| c.as_raw() as u32)),
        cubemapseamlessfiltoff: !s.seamless_cube,
        unnorm_coords: s.unnormalized,
        min_lod: s.min_lod.clamp(0.0, MAX_SAMPLER_LOD),
        max_lod: s.max_lod.clamp(0.0, MAX_SAMPLER_LOD),
        reduction_mode: match s.reduction {
            ash::vk::SamplerReductionMode::MIN => A6xxReductionMode::A6XX_REDUCTION_MODE_MIN,
            ash::vk::SamplerReductionMode::MAX => A6xxReductionMode::A6XX_REDUCTION_MODE_MAX,
            _ => A6xxReductionMode::A6XX_REDUCTION_MODE_AVERAGE,
        },
        bcolor: s.border_color,
        ..Default::default()
    };
    let raw = d
        .try_to_raw()
        .map_err(|e| internal("encoding a sampler descriptor", e))?;
    let mut out = [0u32; DESCRIPTOR_DWORDS];
    out[..raw.len()].copy_from_slice(&raw);
    Ok(out)
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
        assert_eq!((t.width, t.startoffsettexels), (10, 0));
        // A base one texel past a 64-byte boundary: the boundary, and one
        // texel to skip.
        let d = texel_buffer(Chip::A7xx, f, 0x1_0000_007c, 3).unwrap();
        let t = a7xx::TextureDescriptor::from_raw(&d);
        assert_eq!((t.base_lo, t.startoffsettexels, t.width), (0x40, 15, 3));
        // A base inside a texel is refused, not truncated.
        assert!(texel_buffer(Chip::A6xx, f, 0x1_0000_0042, 1).is_err());
    }
}
