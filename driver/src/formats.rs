//! Every Vulkan format the hardware supports, as the hardware names it, and
//! the Vulkan format features the driver offers for each.
//!
//! One table, [`FORMATS`]: per format the texture unit's (and 2D engine
//! source's) `FMT6_*`, the RB's (render target and 2D engine destination)
//! format where the RB can write it, the component swap of its linear
//! layout, the size of its texel block, its numeric class and what a texel
//! buffer view may do with it. The hardware formats and swaps are from
//! a6xx.xml's `a6xx_format` enum and freedreno's format table
//! (`fd6_format_table.c`); packed Vulkan formats name components from the
//! high bits and the hardware from the low, hence their swaps.
//!
//! Tiled planes are stored without the swap, their linear narrow levels
//! too (Turnip's `fd6_texture_swap`/`fd6_color_swap` return `WZYX` for any
//! non-mutable surface of a tiled layout): [`Format::swap_for`] gives the
//! swap a plane's surfaces use.
//!
//! What is offered ([`format_properties`]): texel buffer features from the
//! table; for images, transfer source and destination wherever the 2D
//! engine copies the format (every format with a block size of 1, 2, 4, 8
//! or 16 bytes but D24S8 and X8_D24), blit source/destination for the
//! colour formats the 2D engine scales and converts (those with an RB
//! format; integer formats without linear filtering), sampled images for
//! uncompressed colour formats, and storage images (with atomics) for the
//! formats storage texel buffers take. Attachment features need the
//! graphics work, so they are not offered.

use ash::vk;
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat};

/// How a format's components are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Sfloat,
    /// Unsigned floats (B10G11R11, E5B9G9R9, BC6H unsigned).
    Ufloat,
    Srgb,
    Depth,
    Stencil,
    DepthStencil,
}

/// What a texel buffer view of the format may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelBuffer {
    None,
    /// Uniform texel buffers (fetches through the texture unit).
    Uniform,
    /// Also storage texel buffers (typed image loads and stores).
    Storage,
    /// Also storage texel buffer atomics (32-bit integers).
    Atomic,
}

/// What the hardware does with one Vulkan format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub vk: vk::Format,
    /// The texture unit's and 2D engine source's format.
    pub hw: A6xxFormat,
    /// The RB's format (render targets, 2D engine destination), where the
    /// RB can write the format.
    pub color: Option<A6xxFormat>,
    /// The component swap of a linear surface.
    pub swap: A3xxColorSwap,
    /// Bytes per texel block.
    pub bytes: u32,
    pub class: Class,
    pub texel_buffer: TexelBuffer,
    /// Texel block width and height (1x1 unless block-compressed).
    pub block: [u32; 2],
}

impl Format {
    /// Usable as a storage texel buffer.
    pub fn storage(&self) -> bool {
        matches!(
            self.texel_buffer,
            TexelBuffer::Storage | TexelBuffer::Atomic
        )
    }

    /// Storage texel buffer atomics.
    pub fn atomic(&self) -> bool {
        self.texel_buffer == TexelBuffer::Atomic
    }

    pub fn is_compressed(&self) -> bool {
        self.block != [1, 1]
    }

    pub fn is_depth_or_stencil(&self) -> bool {
        matches!(
            self.class,
            Class::Depth | Class::Stencil | Class::DepthStencil
        )
    }

    /// Two 8-bit components (R8G8 and kin), which tile and compress in
    /// their own blocks (freedreno's `is_r8g8`).
    pub fn is_r8g8(&self) -> bool {
        matches!(
            self.hw,
            H::FMT6_8_8_UNORM | H::FMT6_8_8_SNORM | H::FMT6_8_8_UINT | H::FMT6_8_8_SINT
        ) && !self.is_depth_or_stencil()
    }

    pub fn is_integer(&self) -> bool {
        matches!(self.class, Class::Uint | Class::Sint)
    }

    /// The swap the surfaces of a plane use: a tiled plane is stored
    /// unswapped.
    pub fn swap_for(&self, tiled_plane: bool) -> A3xxColorSwap {
        if tiled_plane {
            A3xxColorSwap::WZYX
        } else {
            self.swap
        }
    }

    /// Whether the linear layout swaps components.
    pub fn has_swap(&self) -> bool {
        self.swap != A3xxColorSwap::WZYX
    }

    /// The aspects an image of this format has.
    pub fn aspects(&self) -> vk::ImageAspectFlags {
        match self.class {
            Class::Depth => vk::ImageAspectFlags::DEPTH,
            Class::Stencil => vk::ImageAspectFlags::STENCIL,
            Class::DepthStencil => vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL,
            _ => vk::ImageAspectFlags::COLOR,
        }
    }

    /// The 2D engine copies blocks of 1, 2, 4, 8 and 16 bytes (as the
    /// integer or UNORM8 formats of that size); 3-, 6- and 12-byte texels
    /// have no RB format. D24S8 and X8_D24 are not copied yet: their
    /// depth and stencil aspects share a texel, and copying one aspect
    /// needs the RB's per-component write masks (Turnip's
    /// RB_2D_UNKNOWN_8C01 values), which are not public beyond those
    /// magic numbers.
    pub fn copyable(&self) -> bool {
        matches!(self.bytes, 1 | 2 | 4 | 8 | 16) && self.hw != H::FMT6_Z24_UNORM_S8_UINT
    }
}

#[allow(clippy::too_many_arguments)]
const fn f(
    vk: vk::Format,
    hw: A6xxFormat,
    color: Option<A6xxFormat>,
    swap: A3xxColorSwap,
    bytes: u32,
    class: Class,
    texel_buffer: TexelBuffer,
    block: [u32; 2],
) -> Format {
    Format {
        vk,
        hw,
        color,
        swap,
        bytes,
        class,
        texel_buffer,
        block,
    }
}

use vk::Format as F;
use A3xxColorSwap as S;
use A6xxFormat as H;
use Class as C;
use TexelBuffer as T;

/// Every format the hardware supports. D32_SFLOAT_S8_UINT is two planes
/// (a 32-bit float depth plane, described here, and an 8-bit stencil
/// plane), as Turnip lays it out: the RB has no interleaved 32+8 format.
#[rustfmt::skip]
pub static FORMATS: &[Format] = &[
    f(F::R8_UNORM, H::FMT6_8_UNORM, Some(H::FMT6_8_UNORM), S::WZYX, 1, C::Unorm, T::Storage, [1, 1]),
    f(F::R8_SNORM, H::FMT6_8_SNORM, Some(H::FMT6_8_SNORM), S::WZYX, 1, C::Snorm, T::Storage, [1, 1]),
    f(F::R8_UINT, H::FMT6_8_UINT, Some(H::FMT6_8_UINT), S::WZYX, 1, C::Uint, T::Storage, [1, 1]),
    f(F::R8_SINT, H::FMT6_8_SINT, Some(H::FMT6_8_SINT), S::WZYX, 1, C::Sint, T::Storage, [1, 1]),
    f(F::R8_SRGB, H::FMT6_8_UNORM, Some(H::FMT6_8_UNORM), S::WZYX, 1, C::Srgb, T::None, [1, 1]),
    f(F::R8G8_UNORM, H::FMT6_8_8_UNORM, Some(H::FMT6_8_8_UNORM), S::WZYX, 2, C::Unorm, T::Storage, [1, 1]),
    f(F::R8G8_SNORM, H::FMT6_8_8_SNORM, Some(H::FMT6_8_8_SNORM), S::WZYX, 2, C::Snorm, T::Storage, [1, 1]),
    f(F::R8G8_UINT, H::FMT6_8_8_UINT, Some(H::FMT6_8_8_UINT), S::WZYX, 2, C::Uint, T::Storage, [1, 1]),
    f(F::R8G8_SINT, H::FMT6_8_8_SINT, Some(H::FMT6_8_8_SINT), S::WZYX, 2, C::Sint, T::Storage, [1, 1]),
    f(F::R8G8_SRGB, H::FMT6_8_8_UNORM, Some(H::FMT6_8_8_UNORM), S::WZYX, 2, C::Srgb, T::None, [1, 1]),
    f(F::R16_UNORM, H::FMT6_16_UNORM, Some(H::FMT6_16_UNORM), S::WZYX, 2, C::Unorm, T::Storage, [1, 1]),
    f(F::R16_SNORM, H::FMT6_16_SNORM, Some(H::FMT6_16_SNORM), S::WZYX, 2, C::Snorm, T::Storage, [1, 1]),
    f(F::R16_UINT, H::FMT6_16_UINT, Some(H::FMT6_16_UINT), S::WZYX, 2, C::Uint, T::Storage, [1, 1]),
    f(F::R16_SINT, H::FMT6_16_SINT, Some(H::FMT6_16_SINT), S::WZYX, 2, C::Sint, T::Storage, [1, 1]),
    f(F::R16_SFLOAT, H::FMT6_16_FLOAT, Some(H::FMT6_16_FLOAT), S::WZYX, 2, C::Sfloat, T::Storage, [1, 1]),
    f(F::R5G6B5_UNORM_PACK16, H::FMT6_5_6_5_UNORM, Some(H::FMT6_5_6_5_UNORM), S::WXYZ, 2, C::Unorm, T::None, [1, 1]),
    f(F::B5G6R5_UNORM_PACK16, H::FMT6_5_6_5_UNORM, Some(H::FMT6_5_6_5_UNORM), S::WZYX, 2, C::Unorm, T::None, [1, 1]),
    f(F::R4G4B4A4_UNORM_PACK16, H::FMT6_4_4_4_4_UNORM, Some(H::FMT6_4_4_4_4_UNORM), S::XYZW, 2, C::Unorm, T::None, [1, 1]),
    f(F::B4G4R4A4_UNORM_PACK16, H::FMT6_4_4_4_4_UNORM, Some(H::FMT6_4_4_4_4_UNORM), S::ZYXW, 2, C::Unorm, T::None, [1, 1]),
    f(F::R5G5B5A1_UNORM_PACK16, H::FMT6_5_5_5_1_UNORM, Some(H::FMT6_5_5_5_1_UNORM), S::XYZW, 2, C::Unorm, T::None, [1, 1]),
    f(F::B5G5R5A1_UNORM_PACK16, H::FMT6_5_5_5_1_UNORM, Some(H::FMT6_5_5_5_1_UNORM), S::ZYXW, 2, C::Unorm, T::None, [1, 1]),
    f(F::A1R5G5B5_UNORM_PACK16, H::FMT6_5_5_5_1_UNORM, Some(H::FMT6_5_5_5_1_UNORM), S::WXYZ, 2, C::Unorm, T::None, [1, 1]),
    f(F::R8G8B8_UNORM, H::FMT6_8_8_8_UNORM, None, S::WZYX, 3, C::Unorm, T::None, [1, 1]),
    f(F::B8G8R8_UNORM, H::FMT6_8_8_8_UNORM, None, S::WXYZ, 3, C::Unorm, T::None, [1, 1]),
    f(F::R8G8B8_SNORM, H::FMT6_8_8_8_SNORM, None, S::WZYX, 3, C::Snorm, T::None, [1, 1]),
    f(F::B8G8R8_SNORM, H::FMT6_8_8_8_SNORM, None, S::WXYZ, 3, C::Snorm, T::None, [1, 1]),
    f(F::R8G8B8_UINT, H::FMT6_8_8_8_UINT, None, S::WZYX, 3, C::Uint, T::None, [1, 1]),
    f(F::B8G8R8_UINT, H::FMT6_8_8_8_UINT, None, S::WXYZ, 3, C::Uint, T::None, [1, 1]),
    f(F::R8G8B8_SINT, H::FMT6_8_8_8_SINT, None, S::WZYX, 3, C::Sint, T::None, [1, 1]),
    f(F::B8G8R8_SINT, H::FMT6_8_8_8_SINT, None, S::WXYZ, 3, C::Sint, T::None, [1, 1]),
    f(F::R32_UINT, H::FMT6_32_UINT, Some(H::FMT6_32_UINT), S::WZYX, 4, C::Uint, T::Atomic, [1, 1]),
    f(F::R32_SINT, H::FMT6_32_SINT, Some(H::FMT6_32_SINT), S::WZYX, 4, C::Sint, T::Atomic, [1, 1]),
    f(F::R32_SFLOAT, H::FMT6_32_FLOAT, Some(H::FMT6_32_FLOAT), S::WZYX, 4, C::Sfloat, T::Storage, [1, 1]),
    f(F::R16G16_UNORM, H::FMT6_16_16_UNORM, Some(H::FMT6_16_16_UNORM), S::WZYX, 4, C::Unorm, T::Storage, [1, 1]),
    f(F::R16G16_SNORM, H::FMT6_16_16_SNORM, Some(H::FMT6_16_16_SNORM), S::WZYX, 4, C::Snorm, T::Storage, [1, 1]),
    f(F::R16G16_UINT, H::FMT6_16_16_UINT, Some(H::FMT6_16_16_UINT), S::WZYX, 4, C::Uint, T::Storage, [1, 1]),
    f(F::R16G16_SINT, H::FMT6_16_16_SINT, Some(H::FMT6_16_16_SINT), S::WZYX, 4, C::Sint, T::Storage, [1, 1]),
    f(F::R16G16_SFLOAT, H::FMT6_16_16_FLOAT, Some(H::FMT6_16_16_FLOAT), S::WZYX, 4, C::Sfloat, T::Storage, [1, 1]),
    f(F::R8G8B8A8_UNORM, H::FMT6_8_8_8_8_UNORM, Some(H::FMT6_8_8_8_8_UNORM), S::WZYX, 4, C::Unorm, T::Storage, [1, 1]),
    f(F::R8G8B8A8_SNORM, H::FMT6_8_8_8_8_SNORM, Some(H::FMT6_8_8_8_8_SNORM), S::WZYX, 4, C::Snorm, T::Storage, [1, 1]),
    f(F::R8G8B8A8_UINT, H::FMT6_8_8_8_8_UINT, Some(H::FMT6_8_8_8_8_UINT), S::WZYX, 4, C::Uint, T::Storage, [1, 1]),
    f(F::R8G8B8A8_SINT, H::FMT6_8_8_8_8_SINT, Some(H::FMT6_8_8_8_8_SINT), S::WZYX, 4, C::Sint, T::Storage, [1, 1]),
    f(F::R8G8B8A8_SRGB, H::FMT6_8_8_8_8_UNORM, Some(H::FMT6_8_8_8_8_UNORM), S::WZYX, 4, C::Srgb, T::None, [1, 1]),
    f(F::B8G8R8A8_UNORM, H::FMT6_8_8_8_8_UNORM, Some(H::FMT6_8_8_8_8_UNORM), S::WXYZ, 4, C::Unorm, T::None, [1, 1]),
    f(F::B8G8R8A8_SNORM, H::FMT6_8_8_8_8_SNORM, Some(H::FMT6_8_8_8_8_SNORM), S::WXYZ, 4, C::Snorm, T::None, [1, 1]),
    f(F::B8G8R8A8_UINT, H::FMT6_8_8_8_8_UINT, Some(H::FMT6_8_8_8_8_UINT), S::WXYZ, 4, C::Uint, T::None, [1, 1]),
    f(F::B8G8R8A8_SINT, H::FMT6_8_8_8_8_SINT, Some(H::FMT6_8_8_8_8_SINT), S::WXYZ, 4, C::Sint, T::None, [1, 1]),
    f(F::B8G8R8A8_SRGB, H::FMT6_8_8_8_8_UNORM, Some(H::FMT6_8_8_8_8_UNORM), S::WXYZ, 4, C::Srgb, T::None, [1, 1]),
    f(F::A8B8G8R8_UNORM_PACK32, H::FMT6_8_8_8_8_UNORM, Some(H::FMT6_8_8_8_8_UNORM), S::WZYX, 4, C::Unorm, T::Storage, [1, 1]),
    f(F::A8B8G8R8_SNORM_PACK32, H::FMT6_8_8_8_8_SNORM, Some(H::FMT6_8_8_8_8_SNORM), S::WZYX, 4, C::Snorm, T::Storage, [1, 1]),
    f(F::A8B8G8R8_UINT_PACK32, H::FMT6_8_8_8_8_UINT, Some(H::FMT6_8_8_8_8_UINT), S::WZYX, 4, C::Uint, T::Storage, [1, 1]),
    f(F::A8B8G8R8_SINT_PACK32, H::FMT6_8_8_8_8_SINT, Some(H::FMT6_8_8_8_8_SINT), S::WZYX, 4, C::Sint, T::Storage, [1, 1]),
    f(F::A8B8G8R8_SRGB_PACK32, H::FMT6_8_8_8_8_UNORM, Some(H::FMT6_8_8_8_8_UNORM), S::WZYX, 4, C::Srgb, T::None, [1, 1]),
    f(F::A2R10G10B10_UNORM_PACK32, H::FMT6_10_10_10_2_UNORM, Some(H::FMT6_10_10_10_2_UNORM_DEST), S::WXYZ, 4, C::Unorm, T::None, [1, 1]),
    f(F::A2R10G10B10_UINT_PACK32, H::FMT6_10_10_10_2_UINT, Some(H::FMT6_10_10_10_2_UINT), S::WXYZ, 4, C::Uint, T::None, [1, 1]),
    f(F::A2B10G10R10_UNORM_PACK32, H::FMT6_10_10_10_2_UNORM, Some(H::FMT6_10_10_10_2_UNORM_DEST), S::WZYX, 4, C::Unorm, T::Uniform, [1, 1]),
    f(F::A2B10G10R10_UINT_PACK32, H::FMT6_10_10_10_2_UINT, Some(H::FMT6_10_10_10_2_UINT), S::WZYX, 4, C::Uint, T::Uniform, [1, 1]),
    f(F::B10G11R11_UFLOAT_PACK32, H::FMT6_11_11_10_FLOAT, Some(H::FMT6_11_11_10_FLOAT), S::WZYX, 4, C::Ufloat, T::Uniform, [1, 1]),
    f(F::E5B9G9R9_UFLOAT_PACK32, H::FMT6_9_9_9_E5_FLOAT, None, S::WZYX, 4, C::Ufloat, T::None, [1, 1]),
    f(F::R16G16B16A16_UNORM, H::FMT6_16_16_16_16_UNORM, Some(H::FMT6_16_16_16_16_UNORM), S::WZYX, 8, C::Unorm, T::Storage, [1, 1]),
    f(F::R16G16B16A16_SNORM, H::FMT6_16_16_16_16_SNORM, Some(H::FMT6_16_16_16_16_SNORM), S::WZYX, 8, C::Snorm, T::Storage, [1, 1]),
    f(F::R16G16B16A16_UINT, H::FMT6_16_16_16_16_UINT, Some(H::FMT6_16_16_16_16_UINT), S::WZYX, 8, C::Uint, T::Storage, [1, 1]),
    f(F::R16G16B16A16_SINT, H::FMT6_16_16_16_16_SINT, Some(H::FMT6_16_16_16_16_SINT), S::WZYX, 8, C::Sint, T::Storage, [1, 1]),
    f(F::R16G16B16A16_SFLOAT, H::FMT6_16_16_16_16_FLOAT, Some(H::FMT6_16_16_16_16_FLOAT), S::WZYX, 8, C::Sfloat, T::Storage, [1, 1]),
    f(F::R32G32_UINT, H::FMT6_32_32_UINT, Some(H::FMT6_32_32_UINT), S::WZYX, 8, C::Uint, T::Storage, [1, 1]),
    f(F::R32G32_SINT, H::FMT6_32_32_SINT, Some(H::FMT6_32_32_SINT), S::WZYX, 8, C::Sint, T::Storage, [1, 1]),
    f(F::R32G32_SFLOAT, H::FMT6_32_32_FLOAT, Some(H::FMT6_32_32_FLOAT), S::WZYX, 8, C::Sfloat, T::Storage, [1, 1]),
    f(F::R32G32B32_UINT, H::FMT6_32_32_32_UINT, None, S::WZYX, 12, C::Uint, T::None, [1, 1]),
    f(F::R32G32B32_SINT, H::FMT6_32_32_32_SINT, None, S::WZYX, 12, C::Sint, T::None, [1, 1]),
    f(F::R32G32B32_SFLOAT, H::FMT6_32_32_32_FLOAT, None, S::WZYX, 12, C::Sfloat, T::None, [1, 1]),
    f(F::R32G32B32A32_UINT, H::FMT6_32_32_32_32_UINT, Some(H::FMT6_32_32_32_32_UINT), S::WZYX, 16, C::Uint, T::Storage, [1, 1]),
    f(F::R32G32B32A32_SINT, H::FMT6_32_32_32_32_SINT, Some(H::FMT6_32_32_32_32_SINT), S::WZYX, 16, C::Sint, T::Storage, [1, 1]),
    f(F::R32G32B32A32_SFLOAT, H::FMT6_32_32_32_32_FLOAT, Some(H::FMT6_32_32_32_32_FLOAT), S::WZYX, 16, C::Sfloat, T::Storage, [1, 1]),
    f(F::D16_UNORM, H::FMT6_16_UNORM, Some(H::FMT6_16_UNORM), S::WZYX, 2, C::Depth, T::None, [1, 1]),
    f(F::X8_D24_UNORM_PACK32, H::FMT6_Z24_UNORM_S8_UINT, Some(H::FMT6_Z24_UNORM_S8_UINT), S::WZYX, 4, C::Depth, T::None, [1, 1]),
    f(F::D32_SFLOAT, H::FMT6_32_FLOAT, Some(H::FMT6_32_FLOAT), S::WZYX, 4, C::Depth, T::None, [1, 1]),
    f(F::S8_UINT, H::FMT6_8_UINT, Some(H::FMT6_8_UINT), S::WZYX, 1, C::Stencil, T::None, [1, 1]),
    f(F::D24_UNORM_S8_UINT, H::FMT6_Z24_UNORM_S8_UINT, Some(H::FMT6_Z24_UNORM_S8_UINT), S::WZYX, 4, C::DepthStencil, T::None, [1, 1]),
    f(F::D32_SFLOAT_S8_UINT, H::FMT6_32_FLOAT, Some(H::FMT6_32_FLOAT), S::WZYX, 4, C::DepthStencil, T::None, [1, 1]),
    f(F::BC1_RGB_UNORM_BLOCK, H::FMT6_DXT1, None, S::WZYX, 8, C::Unorm, T::None, [4, 4]),
    f(F::BC1_RGB_SRGB_BLOCK, H::FMT6_DXT1, None, S::WZYX, 8, C::Srgb, T::None, [4, 4]),
    f(F::BC1_RGBA_UNORM_BLOCK, H::FMT6_DXT1, None, S::WZYX, 8, C::Unorm, T::None, [4, 4]),
    f(F::BC1_RGBA_SRGB_BLOCK, H::FMT6_DXT1, None, S::WZYX, 8, C::Srgb, T::None, [4, 4]),
    f(F::BC2_UNORM_BLOCK, H::FMT6_DXT3, None, S::WZYX, 16, C::Unorm, T::None, [4, 4]),
    f(F::BC2_SRGB_BLOCK, H::FMT6_DXT3, None, S::WZYX, 16, C::Srgb, T::None, [4, 4]),
    f(F::BC3_UNORM_BLOCK, H::FMT6_DXT5, None, S::WZYX, 16, C::Unorm, T::None, [4, 4]),
    f(F::BC3_SRGB_BLOCK, H::FMT6_DXT5, None, S::WZYX, 16, C::Srgb, T::None, [4, 4]),
    f(F::BC4_UNORM_BLOCK, H::FMT6_RGTC1_UNORM, None, S::WZYX, 8, C::Unorm, T::None, [4, 4]),
    f(F::BC4_SNORM_BLOCK, H::FMT6_RGTC1_SNORM, None, S::WZYX, 8, C::Snorm, T::None, [4, 4]),
    f(F::BC5_UNORM_BLOCK, H::FMT6_RGTC2_UNORM, None, S::WZYX, 16, C::Unorm, T::None, [4, 4]),
    f(F::BC5_SNORM_BLOCK, H::FMT6_RGTC2_SNORM, None, S::WZYX, 16, C::Snorm, T::None, [4, 4]),
    f(F::BC6H_UFLOAT_BLOCK, H::FMT6_BPTC_UFLOAT, None, S::WZYX, 16, C::Ufloat, T::None, [4, 4]),
    f(F::BC6H_SFLOAT_BLOCK, H::FMT6_BPTC_FLOAT, None, S::WZYX, 16, C::Sfloat, T::None, [4, 4]),
    f(F::BC7_UNORM_BLOCK, H::FMT6_BPTC, None, S::WZYX, 16, C::Unorm, T::None, [4, 4]),
    f(F::BC7_SRGB_BLOCK, H::FMT6_BPTC, None, S::WZYX, 16, C::Srgb, T::None, [4, 4]),
    f(F::ETC2_R8G8B8_UNORM_BLOCK, H::FMT6_ETC2_RGB8, None, S::WZYX, 8, C::Unorm, T::None, [4, 4]),
    f(F::ETC2_R8G8B8_SRGB_BLOCK, H::FMT6_ETC2_RGB8, None, S::WZYX, 8, C::Srgb, T::None, [4, 4]),
    f(F::ETC2_R8G8B8A1_UNORM_BLOCK, H::FMT6_ETC2_RGB8A1, None, S::WZYX, 8, C::Unorm, T::None, [4, 4]),
    f(F::ETC2_R8G8B8A1_SRGB_BLOCK, H::FMT6_ETC2_RGB8A1, None, S::WZYX, 8, C::Srgb, T::None, [4, 4]),
    f(F::ETC2_R8G8B8A8_UNORM_BLOCK, H::FMT6_ETC2_RGBA8, None, S::WZYX, 16, C::Unorm, T::None, [4, 4]),
    f(F::ETC2_R8G8B8A8_SRGB_BLOCK, H::FMT6_ETC2_RGBA8, None, S::WZYX, 16, C::Srgb, T::None, [4, 4]),
    f(F::EAC_R11_UNORM_BLOCK, H::FMT6_ETC2_R11_UNORM, None, S::WZYX, 8, C::Unorm, T::None, [4, 4]),
    f(F::EAC_R11_SNORM_BLOCK, H::FMT6_ETC2_R11_SNORM, None, S::WZYX, 8, C::Snorm, T::None, [4, 4]),
    f(F::EAC_R11G11_UNORM_BLOCK, H::FMT6_ETC2_RG11_UNORM, None, S::WZYX, 16, C::Unorm, T::None, [4, 4]),
    f(F::EAC_R11G11_SNORM_BLOCK, H::FMT6_ETC2_RG11_SNORM, None, S::WZYX, 16, C::Snorm, T::None, [4, 4]),
    f(F::ASTC_4X4_UNORM_BLOCK, H::FMT6_ASTC_4x4, None, S::WZYX, 16, C::Unorm, T::None, [4, 4]),
    f(F::ASTC_4X4_SRGB_BLOCK, H::FMT6_ASTC_4x4, None, S::WZYX, 16, C::Srgb, T::None, [4, 4]),
    f(F::ASTC_5X4_UNORM_BLOCK, H::FMT6_ASTC_5x4, None, S::WZYX, 16, C::Unorm, T::None, [5, 4]),
    f(F::ASTC_5X4_SRGB_BLOCK, H::FMT6_ASTC_5x4, None, S::WZYX, 16, C::Srgb, T::None, [5, 4]),
    f(F::ASTC_5X5_UNORM_BLOCK, H::FMT6_ASTC_5x5, None, S::WZYX, 16, C::Unorm, T::None, [5, 5]),
    f(F::ASTC_5X5_SRGB_BLOCK, H::FMT6_ASTC_5x5, None, S::WZYX, 16, C::Srgb, T::None, [5, 5]),
    f(F::ASTC_6X5_UNORM_BLOCK, H::FMT6_ASTC_6x5, None, S::WZYX, 16, C::Unorm, T::None, [6, 5]),
    f(F::ASTC_6X5_SRGB_BLOCK, H::FMT6_ASTC_6x5, None, S::WZYX, 16, C::Srgb, T::None, [6, 5]),
    f(F::ASTC_6X6_UNORM_BLOCK, H::FMT6_ASTC_6x6, None, S::WZYX, 16, C::Unorm, T::None, [6, 6]),
    f(F::ASTC_6X6_SRGB_BLOCK, H::FMT6_ASTC_6x6, None, S::WZYX, 16, C::Srgb, T::None, [6, 6]),
    f(F::ASTC_8X5_UNORM_BLOCK, H::FMT6_ASTC_8x5, None, S::WZYX, 16, C::Unorm, T::None, [8, 5]),
    f(F::ASTC_8X5_SRGB_BLOCK, H::FMT6_ASTC_8x5, None, S::WZYX, 16, C::Srgb, T::None, [8, 5]),
    f(F::ASTC_8X6_UNORM_BLOCK, H::FMT6_ASTC_8x6, None, S::WZYX, 16, C::Unorm, T::None, [8, 6]),
    f(F::ASTC_8X6_SRGB_BLOCK, H::FMT6_ASTC_8x6, None, S::WZYX, 16, C::Srgb, T::None, [8, 6]),
    f(F::ASTC_8X8_UNORM_BLOCK, H::FMT6_ASTC_8x8, None, S::WZYX, 16, C::Unorm, T::None, [8, 8]),
    f(F::ASTC_8X8_SRGB_BLOCK, H::FMT6_ASTC_8x8, None, S::WZYX, 16, C::Srgb, T::None, [8, 8]),
    f(F::ASTC_10X5_UNORM_BLOCK, H::FMT6_ASTC_10x5, None, S::WZYX, 16, C::Unorm, T::None, [10, 5]),
    f(F::ASTC_10X5_SRGB_BLOCK, H::FMT6_ASTC_10x5, None, S::WZYX, 16, C::Srgb, T::None, [10, 5]),
    f(F::ASTC_10X6_UNORM_BLOCK, H::FMT6_ASTC_10x6, None, S::WZYX, 16, C::Unorm, T::None, [10, 6]),
    f(F::ASTC_10X6_SRGB_BLOCK, H::FMT6_ASTC_10x6, None, S::WZYX, 16, C::Srgb, T::None, [10, 6]),
    f(F::ASTC_10X8_UNORM_BLOCK, H::FMT6_ASTC_10x8, None, S::WZYX, 16, C::Unorm, T::None, [10, 8]),
    f(F::ASTC_10X8_SRGB_BLOCK, H::FMT6_ASTC_10x8, None, S::WZYX, 16, C::Srgb, T::None, [10, 8]),
    f(F::ASTC_10X10_UNORM_BLOCK, H::FMT6_ASTC_10x10, None, S::WZYX, 16, C::Unorm, T::None, [10, 10]),
    f(F::ASTC_10X10_SRGB_BLOCK, H::FMT6_ASTC_10x10, None, S::WZYX, 16, C::Srgb, T::None, [10, 10]),
    f(F::ASTC_12X10_UNORM_BLOCK, H::FMT6_ASTC_12x10, None, S::WZYX, 16, C::Unorm, T::None, [12, 10]),
    f(F::ASTC_12X10_SRGB_BLOCK, H::FMT6_ASTC_12x10, None, S::WZYX, 16, C::Srgb, T::None, [12, 10]),
    f(F::ASTC_12X12_UNORM_BLOCK, H::FMT6_ASTC_12x12, None, S::WZYX, 16, C::Unorm, T::None, [12, 12]),
    f(F::ASTC_12X12_SRGB_BLOCK, H::FMT6_ASTC_12x12, None, S::WZYX, 16, C::Srgb, T::None, [12, 12]),
];

/// The table entry for `format`.
pub fn format(format: vk::Format) -> Option<&'static Format> {
    FORMATS.iter().find(|f| f.vk == format)
}

/// The entry for `format` when buffer views may use it.
pub fn buffer_format(format: vk::Format) -> Option<&'static Format> {
    self::format(format).filter(|f| f.texel_buffer != TexelBuffer::None)
}

/// The image features Parsnip implements for `f` (the same for linear and
/// optimal tiling: the 2D engine, the texture unit and the SP's typed image
/// access read and write both).
pub fn image_features(f: &Format) -> vk::FormatFeatureFlags {
    use vk::FormatFeatureFlags as Ff;
    let mut out = Ff::empty();
    if f.copyable() {
        out |= Ff::TRANSFER_SRC | Ff::TRANSFER_DST;
    }
    if f.copyable() && !f.is_compressed() && !f.is_depth_or_stencil() {
        // Compute shaders fetch and sample colour views; block-compressed and
        // depth/stencil views (a plane of a depth format, D24S8's stencil as
        // 8_8_8_8_UINT) are not offered until something tests them.
        out |= Ff::SAMPLED_IMAGE;
        if f.storage() {
            out |= Ff::STORAGE_IMAGE;
        }
        if f.atomic() {
            out |= Ff::STORAGE_IMAGE_ATOMIC;
        }
    }
    if f.copyable() && f.color.is_some() && !f.is_compressed() {
        // Render-pass attachments: what a pass does to one without a draw
        // (load-op clears, vkCmdClearAttachments, stores) is the 2D
        // engine's, so what it clears can be attached; draws write them
        // through the RB, which blends the non-integer ones (integer
        // formats cannot blend, in Vulkan as on the RB).
        out |= if f.is_depth_or_stencil() {
            Ff::DEPTH_STENCIL_ATTACHMENT
        } else if f.is_integer() {
            Ff::COLOR_ATTACHMENT
        } else {
            Ff::COLOR_ATTACHMENT | Ff::COLOR_ATTACHMENT_BLEND
        };
    }
    if f.hw == H::FMT6_Z24_UNORM_S8_UINT && f.is_depth_or_stencil() {
        // D24S8 and X8_D24 are not copied (`copyable`), but what a pass
        // does to them without a draw is a clear, which the 2D engine
        // writes through their R8G8B8A8 view with an aspect mask
        // (cmd/clear_image.rs): they can be attached.
        out |= Ff::DEPTH_STENCIL_ATTACHMENT;
    }
    if f.copyable() && f.color.is_some() && !f.is_depth_or_stencil() {
        out |= Ff::BLIT_SRC | Ff::BLIT_DST;
        if !f.is_integer() {
            out |= Ff::SAMPLED_IMAGE_FILTER_LINEAR;
        }
    }
    out
}

/// Whether the VFD fetches `f` as a vertex attribute: formats of one to
/// four 8-, 16- or 32-bit components (not three of 8 or 16 bits, whose
/// elements are not whole dwords or halves), numeric but not sRGB, as the
/// hardware format names them (FMT6_16_16_SNORM).
pub fn vertex_fetch(f: &Format) -> bool {
    if f.is_compressed() || f.is_depth_or_stencil() {
        return false;
    }
    if !matches!(
        f.class,
        Class::Unorm | Class::Snorm | Class::Uint | Class::Sint | Class::Sfloat
    ) {
        return false;
    }
    let Some(name) = f.hw.name(parsnip_registers::Chip::A6xx) else {
        return false;
    };
    let widths: Vec<u32> = name
        .trim_start_matches("FMT6_")
        .split('_')
        .map_while(|p| p.parse().ok())
        .collect();
    let same = widths.windows(2).all(|w| w[0] == w[1]);
    match (widths.first(), widths.len()) {
        (Some(8 | 16), 3) => false,
        (Some(8 | 16 | 32), 1..=4) => same && widths.iter().sum::<u32>() == f.bytes * 8,
        _ => false,
    }
}

/// `VkFormatProperties` for `format`. `texel_buffers` says whether texel
/// buffer views are offered at all.
pub fn format_properties(format: vk::Format, texel_buffers: bool) -> vk::FormatProperties {
    use vk::FormatFeatureFlags as Ff;
    let Some(f) = self::format(format) else {
        return vk::FormatProperties::default();
    };
    let mut buffer = Ff::empty();
    if texel_buffers && f.texel_buffer != TexelBuffer::None {
        buffer |= Ff::UNIFORM_TEXEL_BUFFER;
        if f.storage() {
            buffer |= Ff::STORAGE_TEXEL_BUFFER;
        }
        if f.atomic() {
            buffer |= Ff::STORAGE_TEXEL_BUFFER_ATOMIC;
        }
    }
    if vertex_fetch(f) {
        buffer |= Ff::VERTEX_BUFFER;
    }
    let image = image_features(f);
    vk::FormatProperties {
        linear_tiling_features: image,
        optimal_tiling_features: image,
        buffer_features: buffer,
    }
}

/// The features of [`format_properties`] as `VkFormatProperties3` holds
/// them (VK_KHR_format_feature_flags2): the same bits, which the 64-bit
/// flags give the same values, and those only the 64-bit flags can say.
/// Storage images and storage texel buffers are read and written without a
/// format in the shader (shaderStorageImageReadWithoutFormat and
/// WriteWithoutFormat are offered: the compiler takes the format from the
/// descriptor), so every format that has them has both _WITHOUT_FORMAT
/// bits. SAMPLED_IMAGE_DEPTH_COMPARISON is never set: no depth format is
/// sampled (`image_features`).
pub fn format_properties3(
    format: vk::Format,
    texel_buffers: bool,
) -> vk::FormatProperties3<'static> {
    let p = format_properties(format, texel_buffers);
    vk::FormatProperties3 {
        linear_tiling_features: features2(p.linear_tiling_features),
        optimal_tiling_features: features2(p.optimal_tiling_features),
        buffer_features: features2(p.buffer_features),
        ..Default::default()
    }
}

/// `features` as 64-bit flags, with the _2-only bits they imply.
pub fn features2(features: vk::FormatFeatureFlags) -> vk::FormatFeatureFlags2 {
    use vk::FormatFeatureFlags as Ff;
    use vk::FormatFeatureFlags2 as Ff2;
    let mut out = Ff2::from_raw(u64::from(features.as_raw()));
    if features.intersects(Ff::STORAGE_IMAGE | Ff::STORAGE_TEXEL_BUFFER) {
        out |= Ff2::STORAGE_READ_WITHOUT_FORMAT | Ff2::STORAGE_WRITE_WITHOUT_FORMAT;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_64_bit_features_extend_the_32_bit_ones() {
        for format in [
            vk::Format::R8G8B8A8_UNORM,
            vk::Format::R32_UINT,
            vk::Format::D16_UNORM,
            vk::Format::BC1_RGB_UNORM_BLOCK,
        ] {
            let p = format_properties(format, true);
            let p3 = format_properties3(format, true);
            for (old, new) in [
                (p.linear_tiling_features, p3.linear_tiling_features),
                (p.optimal_tiling_features, p3.optimal_tiling_features),
                (p.buffer_features, p3.buffer_features),
            ] {
                // Bit 31 is STORAGE_READ_WITHOUT_FORMAT, only 64-bit.
                assert_eq!(
                    new.as_raw() & 0x7fff_ffff,
                    u64::from(old.as_raw()),
                    "{format:?}"
                );
                let storage = old.intersects(
                    vk::FormatFeatureFlags::STORAGE_IMAGE
                        | vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
                );
                assert_eq!(
                    new.contains(vk::FormatFeatureFlags2::STORAGE_READ_WITHOUT_FORMAT),
                    storage,
                    "{format:?}"
                );
            }
        }
        let r32 = format_properties3(vk::Format::R32_UINT, true);
        assert!(r32
            .buffer_features
            .contains(vk::FormatFeatureFlags2::STORAGE_WRITE_WITHOUT_FORMAT));
    }

    /// The component widths a `FMT6_*` name spells, where it spells them.
    fn named_bits(hw: A6xxFormat) -> Option<u32> {
        let name = hw
            .name(parsnip_registers::Chip::A6xx)
            .expect("named format");
        let parts: Vec<&str> = name.trim_start_matches("FMT6_").split('_').collect();
        let widths: Vec<u32> = parts.iter().filter_map(|p| p.parse().ok()).collect();
        (!widths.is_empty() && parts[0].parse::<u32>().is_ok()).then(|| widths.iter().sum())
    }

    #[test]
    fn vertex_buffers_take_whole_components_of_numeric_formats() {
        let vertex = |v| vertex_fetch(format(v).unwrap());
        assert!(vertex(F::R32G32B32_SFLOAT));
        assert!(vertex(F::R32G32B32A32_SFLOAT));
        assert!(vertex(F::R8G8B8A8_UNORM));
        assert!(vertex(F::R16G16_SINT));
        assert!(vertex(F::R32_UINT));
        assert!(!vertex(F::R8G8B8_UNORM));
        assert!(!vertex(F::R8G8B8A8_SRGB));
        assert!(!vertex(F::D32_SFLOAT));
        assert!(!vertex(F::BC1_RGB_UNORM_BLOCK));
        assert!(!vertex(F::B10G11R11_UFLOAT_PACK32));
        let props = format_properties(F::R32G32_SFLOAT, false);
        assert!(props
            .buffer_features
            .contains(vk::FormatFeatureFlags::VERTEX_BUFFER));
    }

    #[test]
    fn every_uncompressed_format_has_the_texel_size_its_hardware_format_names() {
        for f in FORMATS.iter().filter(|f| !f.is_compressed()) {
            match named_bits(f.hw) {
                // 9_9_9_E5: three 9-bit mantissas and a shared 5-bit exponent.
                Some(27) => assert_eq!(f.hw, H::FMT6_9_9_9_E5_FLOAT),
                Some(bits) => assert_eq!(bits, f.bytes * 8, "{:?}", f.vk),
                // Z24_UNORM_S8_UINT spells no widths.
                None => assert!(matches!(f.hw, H::FMT6_Z24_UNORM_S8_UINT), "{:?}", f.vk),
            }
        }
    }

    #[test]
    fn the_table_has_each_vulkan_format_once_and_atomics_only_on_32_bit_integers() {
        for (i, a) in FORMATS.iter().enumerate() {
            assert!(FORMATS[i + 1..].iter().all(|b| b.vk != a.vk), "{:?}", a.vk);
            if a.atomic() {
                assert!(matches!(a.vk, F::R32_UINT | F::R32_SINT));
            }
        }
        // The 43 texel buffer formats the driver offered before images.
        assert_eq!(
            FORMATS.iter().filter(|f| f.texel_buffer != T::None).count(),
            43
        );
        assert_eq!(FORMATS.len(), 133);
    }

    #[test]
    fn swapped_formats_store_tiled_surfaces_unswapped() {
        let bgra = format(F::B8G8R8A8_UNORM).unwrap();
        assert_eq!(bgra.swap_for(false), S::WXYZ);
        assert_eq!(bgra.swap_for(true), S::WZYX);
        // R5G6B5_UNORM_PACK16 has red in its high bits: the hardware's
        // 5_6_5 (red low) with red and blue swapped.
        assert_eq!(format(F::R5G6B5_UNORM_PACK16).unwrap().swap, S::WXYZ);
        assert_eq!(format(F::B5G6R5_UNORM_PACK16).unwrap().swap, S::WZYX);
    }

    #[test]
    fn features_follow_what_the_2d_engine_does() {
        use vk::FormatFeatureFlags as Ff;
        let p = format_properties(F::R8G8B8A8_UNORM, true);
        assert!(p
            .optimal_tiling_features
            .contains(Ff::TRANSFER_SRC | Ff::TRANSFER_DST | Ff::BLIT_SRC | Ff::BLIT_DST));
        assert!(p.buffer_features.contains(Ff::STORAGE_TEXEL_BUFFER));
        // Integers blit without filtering; 3-byte texels have no 2D copy;
        // depth copies but does not blit; compressed blocks copy.
        let p = format_properties(F::R32_UINT, true);
        assert!(!p
            .optimal_tiling_features
            .contains(Ff::SAMPLED_IMAGE_FILTER_LINEAR));
        assert!(p.buffer_features.contains(Ff::STORAGE_TEXEL_BUFFER_ATOMIC));
        assert!(format_properties(F::R8G8B8_UNORM, true)
            .optimal_tiling_features
            .is_empty());
        // Depth copies and is attached, compressed blocks copy; neither is
        // sampled yet.
        let d = format_properties(F::D16_UNORM, true).optimal_tiling_features;
        assert_eq!(
            d,
            Ff::TRANSFER_SRC | Ff::TRANSFER_DST | Ff::DEPTH_STENCIL_ATTACHMENT
        );
        let bc = format_properties(F::BC1_RGB_UNORM_BLOCK, true).optimal_tiling_features;
        assert_eq!(bc, Ff::TRANSFER_SRC | Ff::TRANSFER_DST);
        // Colour formats are sampled, storage formats stored, R32 integers
        // take atomics; colour formats the 2D engine clears are attached,
        // integer ones without blending.
        assert!(p
            .optimal_tiling_features
            .contains(Ff::SAMPLED_IMAGE | Ff::STORAGE_IMAGE | Ff::STORAGE_IMAGE_ATOMIC));
        assert_eq!(p.linear_tiling_features, p.optimal_tiling_features);
        assert!(p.optimal_tiling_features.contains(Ff::COLOR_ATTACHMENT));
        assert!(!p
            .optimal_tiling_features
            .intersects(Ff::COLOR_ATTACHMENT_BLEND | Ff::DEPTH_STENCIL_ATTACHMENT));
        assert!(format_properties(F::R8G8B8A8_UNORM, true)
            .optimal_tiling_features
            .contains(Ff::COLOR_ATTACHMENT | Ff::COLOR_ATTACHMENT_BLEND));
        // D24S8 is attached (its clears are aspect-masked 2D blits) but
        // not copied.
        assert_eq!(
            format_properties(F::D24_UNORM_S8_UINT, true).optimal_tiling_features,
            Ff::DEPTH_STENCIL_ATTACHMENT
        );
        let srgb = format_properties(F::R8G8B8A8_SRGB, true).optimal_tiling_features;
        assert!(srgb.contains(Ff::SAMPLED_IMAGE) && !srgb.contains(Ff::STORAGE_IMAGE));
        let rgba8 = format_properties(F::R8G8B8A8_UNORM, true).optimal_tiling_features;
        assert!(rgba8.contains(Ff::STORAGE_IMAGE) && !rgba8.contains(Ff::STORAGE_IMAGE_ATOMIC));
        // Without texel buffers only vertex fetch is left of a buffer's.
        assert_eq!(
            format_properties(F::R32_UINT, false).buffer_features,
            Ff::VERTEX_BUFFER
        );
        let yuv = format_properties(F::G8B8G8R8_422_UNORM, true);
        assert!(yuv.optimal_tiling_features.is_empty() && yuv.buffer_features.is_empty());
    }
}
