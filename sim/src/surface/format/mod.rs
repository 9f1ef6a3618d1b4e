//! Texel formats: how the bytes of one element (a texel, or a block of a
//! compressed or subsampled format) hold its components, for every
//! `a6xx_format` and `a6xx_depth_format` the hardware has. The one source of
//! texel formats in the model: the texture unit, the storage image path,
//! the 2D engine and the render backend all read and write texels here.
//!
//! Layout rules (a6xx.xml's names; Mesa's `docs/drivers/freedreno` notes on
//! formats and swaps):
//! - A format names its components' sizes in X, Y, Z, W (R, G, B, A) order:
//!   `FMT6_5_5_5_1_UNORM` is X5 Y5 Z5 W1.
//! - The swap labels the component slots from the most significant down,
//!   and each component keeps its size: WZYX (the identity) puts X in the
//!   low bits, WXYZ is B8G8R8A8's (Z lowest), XYZW reverses the order.
//!   Formats of fewer than four components occupy the low slots, so only
//!   swaps that leave the missing components in the leading slots are
//!   meaningful for them (WZYX and, for three components, WXYZ); others
//!   are refused, as what the hardware does with them is not public.
//! - `FMT6_A8_UNORM` is a lone alpha; `FMT6_1_5_5_5_UNORM` reads
//!   (MSB R5 G5 B5 A1 LSB) as if it were A1 R5 G5 B5 and then applies the
//!   swap (Mesa's notes: with WXYZ it is R5G5B5A1, with WZYX B5G5R5A1).
//! - `FMT6_8_8_8_X8_UNORM`: W is padding, read as 1 and written as 0.
//! - `FMT6_Z24_UNORM_S8_UINT` (and `_UINT_S8_UINT`): depth in the low 24
//!   bits, stencil in the high 8. Read as (depth, stencil, 0, 1); what the
//!   texture unit swizzles out of it is the descriptor's business.
//! - Compressed (BCn, ETC, ASTC) and 4:2:2 formats are elements of several
//!   texels: [`element_layout`] knows their size, so they can be copied, but
//!   decoding their texels is not modelled. Multi-planar video formats are
//!   used through their plane formats (`FMT6_NV12_Y`, `FMT6_NV12_UV`).
//!
//! Conversions are in [`numbers`]: Vulkan's rules throughout.

mod depth;
mod numbers;

use parsnip_isa::eval::float::{f16_to_f32, f32_to_f16};
use parsnip_isa::Round;
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat as F};
use parsnip_registers::Chip;

pub use depth::DepthFormat;
pub use numbers::{linear_to_srgb, srgb_to_linear};

use numbers::*;

/// A format or swap the model cannot read or write texels of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormatError {}

/// The name freedreno gives a format, or its number.
pub fn format_name(format: F) -> String {
    format
        .name(Chip::A6xx)
        .map_or_else(|| format!("format {:#x}", format.0), str::to_string)
}

fn swap_name(swap: A3xxColorSwap) -> String {
    swap.name(Chip::A6xx)
        .map_or_else(|| format!("swap {}", swap.0), str::to_string)
}

/// The components of a texel, in X, Y, Z, W order: floats for float and
/// normalized formats, integers (two's complement for signed) for integer
/// formats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Texel {
    Float([f32; 4]),
    Int([u32; 4]),
}

/// How a format's fields encode numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberClass {
    Unorm,
    Snorm,
    Uint,
    Sint,
    /// IEEE halves and singles.
    Float,
    /// Unsigned small floats (11:11:10).
    Ufloat,
    /// 16.16 signed fixed point.
    Fixed,
    /// 9:9:9 mantissas with a shared 5-bit exponent.
    SharedExponent,
    /// Z24 unorm (or uint) with S8.
    DepthStencil,
}

/// The size of one element of a format: what a copy moves, whether or not
/// the model can read its texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementLayout {
    pub format: F,
    /// Bytes of one element.
    pub bytes: u32,
    /// Texels one element covers (1x1 except for compressed and 4:2:2
    /// formats).
    pub block: (u32, u32),
}

/// What the element layout of `format` is.
pub fn element_layout(format: F) -> Result<ElementLayout, FormatError> {
    let (bytes, block) = match shape(format)? {
        Shape::Fields { sizes, .. } => {
            (sizes.iter().map(|&s| u32::from(s)).sum::<u32>() / 8, (1, 1))
        }
        Shape::Alpha8 => (1, (1, 1)),
        Shape::Rev1555 => (2, (1, 1)),
        Shape::SharedExponent | Shape::DepthStencil { .. } => (4, (1, 1)),
        Shape::Opaque { bytes, block, .. } => (bytes, block),
    };
    Ok(ElementLayout {
        format,
        bytes,
        block,
    })
}

/// The facts of one format, before a swap places its components.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// Components of the given sizes (X, Y, Z, W; 0: absent) in bit fields
    /// of one little-endian word.
    Fields {
        sizes: [u8; 4],
        class: NumberClass,
        /// W is padding (`X8`).
        padding_w: bool,
    },
    Alpha8,
    Rev1555,
    SharedExponent,
    DepthStencil {
        unorm: bool,
    },
    /// Copyable elements whose texels the model does not decode.
    Opaque {
        bytes: u32,
        block: (u32, u32),
        why: &'static str,
    },
}

fn shape(format: F) -> Result<Shape, FormatError> {
    use NumberClass::*;
    let fields = |sizes: [u8; 4], class| Shape::Fields {
        sizes,
        class,
        padding_w: false,
    };
    const COMPRESSED: &str = "decoding its compressed blocks is not modelled";
    let compressed = |bytes, w, h| Shape::Opaque {
        bytes,
        block: (w, h),
        why: COMPRESSED,
    };
    Ok(match format {
        F::FMT6_A8_UNORM => Shape::Alpha8,
        F::FMT6_8_UNORM | F::FMT6_NV12_Y => fields([8, 0, 0, 0], Unorm),
        F::FMT6_8_SNORM => fields([8, 0, 0, 0], Snorm),
        F::FMT6_8_UINT => fields([8, 0, 0, 0], Uint),
        F::FMT6_8_SINT => fields([8, 0, 0, 0], Sint),
        F::FMT6_4_4_4_4_UNORM => fields([4, 4, 4, 4], Unorm),
        F::FMT6_5_5_5_1_UNORM => fields([5, 5, 5, 1], Unorm),
        F::FMT6_1_5_5_5_UNORM => Shape::Rev1555,
        F::FMT6_5_6_5_UNORM => fields([5, 6, 5, 0], Unorm),
        F::FMT6_8_8_UNORM | F::FMT6_NV12_UV => fields([8, 8, 0, 0], Unorm),
        F::FMT6_8_8_SNORM => fields([8, 8, 0, 0], Snorm),
        F::FMT6_8_8_UINT => fields([8, 8, 0, 0], Uint),
        F::FMT6_8_8_SINT => fields([8, 8, 0, 0], Sint),
        F::FMT6_16_UNORM => fields([16, 0, 0, 0], Unorm),
        F::FMT6_16_SNORM => fields([16, 0, 0, 0], Snorm),
        F::FMT6_16_FLOAT => fields([16, 0, 0, 0], Float),
        F::FMT6_16_UINT => fields([16, 0, 0, 0], Uint),
        F::FMT6_16_SINT => fields([16, 0, 0, 0], Sint),
        F::FMT6_8_8_8_UNORM => fields([8, 8, 8, 0], Unorm),
        F::FMT6_8_8_8_SNORM => fields([8, 8, 8, 0], Snorm),
        F::FMT6_8_8_8_UINT => fields([8, 8, 8, 0], Uint),
        F::FMT6_8_8_8_SINT => fields([8, 8, 8, 0], Sint),
        F::FMT6_8_8_8_8_UNORM | F::FMT6_Z24_UNORM_S8_UINT_AS_R8G8B8A8 => {
            fields([8, 8, 8, 8], Unorm)
        }
        F::FMT6_8_8_8_X8_UNORM => Shape::Fields {
            sizes: [8, 8, 8, 8],
            class: Unorm,
            padding_w: true,
        },
        F::FMT6_8_8_8_8_SNORM => fields([8, 8, 8, 8], Snorm),
        F::FMT6_8_8_8_8_UINT => fields([8, 8, 8, 8], Uint),
        F::FMT6_8_8_8_8_SINT => fields([8, 8, 8, 8], Sint),
        F::FMT6_9_9_9_E5_FLOAT => Shape::SharedExponent,
        F::FMT6_10_10_10_2_UNORM | F::FMT6_10_10_10_2_UNORM_DEST => fields([10, 10, 10, 2], Unorm),
        F::FMT6_10_10_10_2_SNORM => fields([10, 10, 10, 2], Snorm),
        F::FMT6_10_10_10_2_UINT => fields([10, 10, 10, 2], Uint),
        F::FMT6_10_10_10_2_SINT => fields([10, 10, 10, 2], Sint),
        F::FMT6_11_11_10_FLOAT => fields([11, 11, 10, 0], Ufloat),
        F::FMT6_16_16_UNORM => fields([16, 16, 0, 0], Unorm),
        F::FMT6_16_16_SNORM => fields([16, 16, 0, 0], Snorm),
        F::FMT6_16_16_FLOAT => fields([16, 16, 0, 0], Float),
        F::FMT6_16_16_UINT => fields([16, 16, 0, 0], Uint),
        F::FMT6_16_16_SINT => fields([16, 16, 0, 0], Sint),
        F::FMT6_32_UNORM => fields([32, 0, 0, 0], Unorm),
        F::FMT6_32_SNORM => fields([32, 0, 0, 0], Snorm),
        F::FMT6_32_FLOAT => fields([32, 0, 0, 0], Float),
        F::FMT6_32_UINT => fields([32, 0, 0, 0], Uint),
        F::FMT6_32_SINT => fields([32, 0, 0, 0], Sint),
        F::FMT6_32_FIXED => fields([32, 0, 0, 0], Fixed),
        F::FMT6_16_16_16_UNORM => fields([16, 16, 16, 0], Unorm),
        F::FMT6_16_16_16_SNORM => fields([16, 16, 16, 0], Snorm),
        F::FMT6_16_16_16_FLOAT => fields([16, 16, 16, 0], Float),
        F::FMT6_16_16_16_UINT => fields([16, 16, 16, 0], Uint),
        F::FMT6_16_16_16_SINT => fields([16, 16, 16, 0], Sint),
        F::FMT6_16_16_16_16_UNORM => fields([16, 16, 16, 16], Unorm),
        F::FMT6_16_16_16_16_SNORM => fields([16, 16, 16, 16], Snorm),
        F::FMT6_16_16_16_16_FLOAT => fields([16, 16, 16, 16], Float),
        F::FMT6_16_16_16_16_UINT => fields([16, 16, 16, 16], Uint),
        F::FMT6_16_16_16_16_SINT => fields([16, 16, 16, 16], Sint),
        F::FMT6_32_32_UNORM => fields([32, 32, 0, 0], Unorm),
        F::FMT6_32_32_SNORM => fields([32, 32, 0, 0], Snorm),
        F::FMT6_32_32_FLOAT => fields([32, 32, 0, 0], Float),
        F::FMT6_32_32_UINT => fields([32, 32, 0, 0], Uint),
        F::FMT6_32_32_SINT => fields([32, 32, 0, 0], Sint),
        F::FMT6_32_32_FIXED => fields([32, 32, 0, 0], Fixed),
        F::FMT6_32_32_32_UNORM => fields([32, 32, 32, 0], Unorm),
        F::FMT6_32_32_32_SNORM => fields([32, 32, 32, 0], Snorm),
        F::FMT6_32_32_32_UINT => fields([32, 32, 32, 0], Uint),
        F::FMT6_32_32_32_SINT => fields([32, 32, 32, 0], Sint),
        F::FMT6_32_32_32_FLOAT => fields([32, 32, 32, 0], Float),
        F::FMT6_32_32_32_FIXED => fields([32, 32, 32, 0], Fixed),
        F::FMT6_32_32_32_32_UNORM => fields([32, 32, 32, 32], Unorm),
        F::FMT6_32_32_32_32_SNORM => fields([32, 32, 32, 32], Snorm),
        F::FMT6_32_32_32_32_FLOAT => fields([32, 32, 32, 32], Float),
        F::FMT6_32_32_32_32_UINT => fields([32, 32, 32, 32], Uint),
        F::FMT6_32_32_32_32_SINT => fields([32, 32, 32, 32], Sint),
        F::FMT6_32_32_32_32_FIXED => fields([32, 32, 32, 32], Fixed),
        F::FMT6_Z24_UNORM_S8_UINT => Shape::DepthStencil { unorm: true },
        F::FMT6_Z24_UINT_S8_UINT => Shape::DepthStencil { unorm: false },
        F::FMT6_G8R8B8R8_422_UNORM | F::FMT6_R8G8R8B8_422_UNORM => Shape::Opaque {
            bytes: 4,
            block: (2, 1),
            why: "decoding 4:2:2 texels is not modelled",
        },
        F::FMT6_L8_A8_UNORM => Shape::Opaque {
            bytes: 2,
            block: (1, 1),
            why: "which components luminance-alpha texels read as is not public",
        },
        F::FMT6_NV12_VU | F::FMT6_P010_Y | F::FMT6_P010_UV => Shape::Opaque {
            bytes: if format == F::FMT6_P010_UV { 4 } else { 2 },
            block: (1, 1),
            why: "how the hardware reads this video plane's values is not public",
        },
        F::FMT6_ETC2_R11_UNORM
        | F::FMT6_ETC2_R11_SNORM
        | F::FMT6_ETC1
        | F::FMT6_ETC2_RGB8
        | F::FMT6_ETC2_RGB8A1
        | F::FMT6_DXT1
        | F::FMT6_RGTC1_UNORM
        | F::FMT6_RGTC1_SNORM => compressed(8, 4, 4),
        F::FMT6_ETC2_RG11_UNORM
        | F::FMT6_ETC2_RG11_SNORM
        | F::FMT6_ETC2_RGBA8
        | F::FMT6_DXT3
        | F::FMT6_DXT5
        | F::FMT6_RGTC2_UNORM
        | F::FMT6_RGTC2_SNORM
        | F::FMT6_BPTC_UFLOAT
        | F::FMT6_BPTC_FLOAT
        | F::FMT6_BPTC => compressed(16, 4, 4),
        F::FMT6_ASTC_4x4 => compressed(16, 4, 4),
        F::FMT6_ASTC_5x4 => compressed(16, 5, 4),
        F::FMT6_ASTC_5x5 => compressed(16, 5, 5),
        F::FMT6_ASTC_6x5 => compressed(16, 6, 5),
        F::FMT6_ASTC_6x6 => compressed(16, 6, 6),
        F::FMT6_ASTC_8x5 => compressed(16, 8, 5),
        F::FMT6_ASTC_8x6 => compressed(16, 8, 6),
        F::FMT6_ASTC_8x8 => compressed(16, 8, 8),
        F::FMT6_ASTC_10x5 => compressed(16, 10, 5),
        F::FMT6_ASTC_10x6 => compressed(16, 10, 6),
        F::FMT6_ASTC_10x8 => compressed(16, 10, 8),
        F::FMT6_ASTC_10x10 => compressed(16, 10, 10),
        F::FMT6_ASTC_12x10 => compressed(16, 12, 10),
        F::FMT6_ASTC_12x12 => compressed(16, 12, 12),
        F::FMT6_R8_G8B8_2PLANE_420_UNORM
        | F::FMT6_NV21
        | F::FMT6_R8_G8_B8_3PLANE_420_UNORM
        | F::FMT6_NV12_4R
        | F::FMT6_NV12_4R_Y
        | F::FMT6_NV12_4R_UV
        | F::FMT6_P010
        | F::FMT6_TP10
        | F::FMT6_TP10_Y
        | F::FMT6_TP10_UV => {
            return Err(FormatError(format!(
                "{}: multi-planar and packed 10-bit video formats are not modelled (the \
                 model reads video surfaces through their plane formats)",
                format_name(format)
            )))
        }
        other => {
            return Err(FormatError(format!(
                "{} is not a texel format the hardware has",
                format_name(other)
            )))
        }
    })
}

/// One component's bit field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Field {
    shift: u8,
    bits: u8,
}

/// Component indices from the least significant slot up, per swap.
fn slots_from_lsb(swap: A3xxColorSwap) -> Option<[usize; 4]> {
    Some(match swap {
        A3xxColorSwap::WZYX => [0, 1, 2, 3],
        A3xxColorSwap::WXYZ => [2, 1, 0, 3],
        A3xxColorSwap::ZYXW => [3, 0, 1, 2],
        A3xxColorSwap::XYZW => [3, 2, 1, 0],
        _ => return None,
    })
}

/// A format whose texels the model reads and writes, with its swap and
/// whether its colour components are sRGB-encoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexelFormat {
    pub format: F,
    pub swap: A3xxColorSwap,
    /// Bytes of one texel.
    pub bytes: u32,
    pub class: NumberClass,
    pub srgb: bool,
    /// Each component's field; `bits == 0` where the format has none.
    fields: [Field; 4],
    padding_w: bool,
}

impl TexelFormat {
    /// The layout of `format` with `swap`, or an error for a format whose
    /// texels the model does not read.
    pub fn new(format: F, swap: A3xxColorSwap) -> Result<Self, FormatError> {
        let unusual_swap = || {
            FormatError(format!(
                "{} with {}: what this swap does to the format is not public",
                format_name(format),
                swap_name(swap)
            ))
        };
        let mut fields = [Field::default(); 4];
        let mut padding_w = false;
        let (class, bytes) = match shape(format)? {
            Shape::Fields {
                sizes,
                class,
                padding_w: pad,
            } => {
                padding_w = pad;
                let order = slots_from_lsb(swap).ok_or_else(unusual_swap)?;
                let present = sizes.iter().filter(|&&s| s > 0).count();
                // The format's components must fill the low slots.
                let mut low: Vec<usize> = order[..present].to_vec();
                low.sort_unstable();
                if low != (0..present).collect::<Vec<_>>() {
                    return Err(unusual_swap());
                }
                let mut shift = 0u8;
                for &c in &order[..present] {
                    fields[c] = Field {
                        shift,
                        bits: sizes[c],
                    };
                    shift += sizes[c];
                }
                (class, u32::from(shift) / 8)
            }
            Shape::Alpha8 => {
                if swap != A3xxColorSwap::WZYX {
                    return Err(unusual_swap());
                }
                fields[3] = Field { shift: 0, bits: 8 };
                (NumberClass::Unorm, 1)
            }
            Shape::Rev1555 => {
                // Slots from the most significant: bit 0, then the three
                // 5-bit fields from the top down.
                let slots = [
                    Field { shift: 0, bits: 1 },
                    Field { shift: 11, bits: 5 },
                    Field { shift: 6, bits: 5 },
                    Field { shift: 1, bits: 5 },
                ];
                let order = slots_from_lsb(swap).ok_or_else(unusual_swap)?;
                // `order` lists components from the lowest slot; slot i from
                // the top is `slots[i]`.
                for (i, &c) in order.iter().rev().enumerate() {
                    fields[c] = slots[i];
                }
                (NumberClass::Unorm, 2)
            }
            Shape::SharedExponent => {
                if swap != A3xxColorSwap::WZYX {
                    return Err(unusual_swap());
                }
                (NumberClass::SharedExponent, 4)
            }
            Shape::DepthStencil { unorm } => {
                if swap != A3xxColorSwap::WZYX {
                    return Err(unusual_swap());
                }
                fields[0] = Field { shift: 0, bits: 24 };
                fields[1] = Field { shift: 24, bits: 8 };
                let class = if unorm {
                    NumberClass::DepthStencil
                } else {
                    NumberClass::Uint
                };
                (class, 4)
            }
            Shape::Opaque { why, .. } => {
                return Err(FormatError(format!("{}: {why}", format_name(format))))
            }
        };
        Ok(TexelFormat {
            format,
            swap,
            bytes,
            class,
            srgb: false,
            fields,
            padding_w,
        })
    }

    /// The same format with sRGB-encoded colour components, or an error for
    /// a format that has no sRGB form (only UNORM ones do).
    pub fn with_srgb(mut self, srgb: bool) -> Result<Self, FormatError> {
        if srgb && self.class != NumberClass::Unorm {
            return Err(FormatError(format!(
                "sRGB {}: only UNORM formats have an sRGB encoding",
                format_name(self.format)
            )));
        }
        self.srgb = srgb;
        Ok(self)
    }

    /// Whether texels are integers ([`Texel::Int`]).
    pub fn is_integer(&self) -> bool {
        matches!(self.class, NumberClass::Uint | NumberClass::Sint)
    }

    /// Whether the format stores component `c` (0 to 3 for X to W).
    pub fn has_component(&self, c: usize) -> bool {
        self.class == NumberClass::SharedExponent && c < 3
            || self.fields[c].bits > 0 && !(c == 3 && self.padding_w)
    }

    /// The bits of a texel that components `mask` (bit 0 for X) occupy.
    pub fn component_bits(&self, mask: u8) -> u128 {
        if self.class == NumberClass::SharedExponent {
            // The exponent is shared: a component cannot be written alone.
            return if mask & 7 != 0 { ones128(32) } else { 0 };
        }
        let mut bits = 0u128;
        for (c, f) in self.fields.iter().enumerate() {
            if mask >> c & 1 != 0 && f.bits > 0 {
                bits |= ones128(u32::from(f.bits)) << f.shift;
            }
        }
        bits
    }

    fn packed(&self, bytes: &[u8]) -> u128 {
        let mut raw = [0u8; 16];
        let n = (self.bytes as usize).min(bytes.len());
        raw[..n].copy_from_slice(&bytes[..n]);
        u128::from_le_bytes(raw)
    }

    /// The components of the texel in `bytes` (little endian).
    pub fn decode(&self, bytes: &[u8]) -> Texel {
        let packed = self.packed(bytes);
        let field = |c: usize| -> u64 {
            let f = self.fields[c];
            (packed >> f.shift) as u64 & ones(u32::from(f.bits))
        };
        match self.class {
            NumberClass::Uint | NumberClass::Sint => {
                let mut v = [0, 0, 0, 1];
                for (c, out) in v.iter_mut().enumerate() {
                    let bits = u32::from(self.fields[c].bits);
                    if bits == 0 {
                        continue;
                    }
                    *out = if self.class == NumberClass::Sint && bits < 32 {
                        sign_extend(field(c), bits) as u32
                    } else {
                        field(c) as u32
                    };
                }
                Texel::Int(v)
            }
            NumberClass::SharedExponent => {
                let [r, g, b] = rgb9e5_to_f32(packed as u64);
                Texel::Float([r, g, b, 1.0])
            }
            NumberClass::DepthStencil => {
                Texel::Float([unorm_to_f32(field(0), 24), field(1) as f32, 0.0, 1.0])
            }
            class => {
                let mut v = [0.0, 0.0, 0.0, 1.0];
                for (c, out) in v.iter_mut().enumerate() {
                    let bits = u32::from(self.fields[c].bits);
                    if bits == 0 || c == 3 && self.padding_w {
                        continue;
                    }
                    let x = field(c);
                    *out = match class {
                        NumberClass::Unorm => unorm_to_f32(x, bits),
                        NumberClass::Snorm => snorm_to_f32(x, bits),
                        NumberClass::Ufloat => ufloat_to_f32(x, bits - 5),
                        NumberClass::Fixed => fixed_to_f32(x),
                        _ if bits == 16 => f16_to_f32(x as u16),
                        _ => f32::from_bits(x as u32),
                    };
                    if self.srgb && c < 3 {
                        *out = srgb_to_linear(*out);
                    }
                }
                Texel::Float(v)
            }
        }
    }

    /// Writes the texel with these components to `out` (at least
    /// [`TexelFormat::bytes`] long). Integer components into a float or
    /// normalized format, and float components into an integer format, are
    /// taken as raw bits, as a shader's registers hold them.
    pub fn encode(&self, texel: Texel, out: &mut [u8]) {
        let packed = self.pack(texel);
        let n = self.bytes as usize;
        out[..n].copy_from_slice(&packed.to_le_bytes()[..n]);
    }

    /// Writes only components `mask` (bit 0 for X) of `texel` into the
    /// texel already in `out`.
    pub fn encode_masked(&self, texel: Texel, mask: u8, out: &mut [u8]) {
        let keep = !self.component_bits(mask);
        let packed = self.pack(texel) & !keep | self.packed(out) & keep;
        let n = self.bytes as usize;
        out[..n].copy_from_slice(&packed.to_le_bytes()[..n]);
    }

    fn pack(&self, texel: Texel) -> u128 {
        if self.class == NumberClass::SharedExponent {
            let rgb = match texel {
                Texel::Float(v) => [v[0], v[1], v[2]],
                Texel::Int(v) => return u128::from(v[0]),
            };
            return u128::from(f32_to_rgb9e5(rgb));
        }
        let mut packed = 0u128;
        for (c, f) in self.fields.iter().enumerate() {
            let bits = u32::from(f.bits);
            if bits == 0 || c == 3 && self.padding_w {
                continue;
            }
            let field: u64 = match (self.class, texel) {
                (_, Texel::Int(v)) => u64::from(v[c]),
                (NumberClass::Uint | NumberClass::Sint, Texel::Float(v)) => {
                    u64::from(v[c].to_bits())
                }
                (NumberClass::DepthStencil, Texel::Float(v)) if c == 0 => f32_to_unorm(v[0], 24),
                (NumberClass::DepthStencil, Texel::Float(v)) => {
                    if v[c].is_nan() {
                        0
                    } else {
                        v[c].clamp(0.0, 255.0).round_ties_even() as u64
                    }
                }
                (class, Texel::Float(v)) => {
                    let x = if self.srgb && c < 3 {
                        linear_to_srgb(v[c])
                    } else {
                        v[c]
                    };
                    match class {
                        NumberClass::Unorm => f32_to_unorm(x, bits),
                        NumberClass::Snorm => f32_to_snorm(x, bits),
                        NumberClass::Ufloat => f32_to_ufloat(x, bits - 5),
                        NumberClass::Fixed => f32_to_fixed(x),
                        _ if bits == 16 => u64::from(f32_to_f16(x, Round::Even)),
                        _ => u64::from(x.to_bits()),
                    }
                }
            };
            packed |= u128::from(field & ones(bits)) << f.shift;
        }
        packed
    }
}

fn ones128(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    }
}

#[cfg(test)]
mod tests;
