//! Sampled textures and samplers for the draw fixture (`common::draw`): their bindless
//! descriptors in descriptor-set memory at the slots the compiler's `DescriptorLayout`
//! gives, bound at the graphics bind point by `parsnip_hw_state::descriptors` (the
//! driver's code for it).
//!
//! Textures are linear 2D images of 32-bit texels whose levels follow each other, each level's rows
//! `pitch` bytes apart (the layout the model reads a TILE6_LINEAR descriptor with).

use super::dispatch::SimGpu;
use parsnip_hw_state::descriptors::{bind_sets, BindPoint};
use parsnip_hw_state::sink::{PacketSink, StateWriter};
use parsnip_kernel_if::Bo;
use parsnip_registers::descriptors::{a6xx as desc6, a7xx as desc7, SamplerDescriptor};
use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xxFormat, A6xxTexClamp, A6xxTexFilter, A6xxTexSwiz,
    A6xxTexType, A6xxTileMode,
};
use parsnip_registers::Chip;

/// Dwords in one bindless descriptor (BINDLESS_DESCRIPTOR_64B).
const DESCRIPTOR_DWORDS: usize = 16;

/// What one bindless descriptor slot holds.
pub enum Slot {
    /// A 2D image (with `cube`, six square faces ARRAY_PITCH apart, +X, -X, +Y, -Y, +Z,
    /// -Z) of 32-bit texels of `format` (RGBA8 UNORM or R32 FLOAT), `size` texels and
    /// `levels` levels; `texels` its bytes.
    Image {
        cube: bool,
        format: A6xxFormat,
        size: (u32, u32),
        levels: u32,
        pitch: u32,
        texels: Vec<u8>,
    },
    Sampler(SamplerDescriptor),
}

/// A descriptor at slot `descriptor` of set `set`.
pub struct Bound {
    pub set: u32,
    pub descriptor: u32,
    pub slot: Slot,
}

/// A sampler with one filter for magnification and minification, nearest mips (or
/// linear), clamping to the edge.
pub fn sampler(filter: A6xxTexFilter, mip_linear: bool) -> SamplerDescriptor {
    SamplerDescriptor {
        mipfilter_linear_near: mip_linear,
        xy_mag: filter,
        xy_min: filter,
        wrap_s: A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
        wrap_t: A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
        wrap_r: A6xxTexClamp::A6XX_TEX_CLAMP_TO_EDGE,
        // VK_LOD_CLAMP_NONE as Turnip clamps it to the field.
        max_lod: 15.0,
        ..Default::default()
    }
}

/// The bytes of a linear image whose level `k` (`size >> k`) has texel (i, j) =
/// `texel(k, i, j)`, rows `pitch` bytes apart, levels one after another.
pub fn linear_levels(
    size: (u32, u32),
    levels: u32,
    pitch: u32,
    texel: impl Fn(u32, u32, u32) -> [u8; 4],
) -> Vec<u8> {
    let mut bytes = Vec::new();
    for k in 0..levels {
        let (w, h) = ((size.0 >> k).max(1), (size.1 >> k).max(1));
        let start = bytes.len();
        bytes.resize(start + (pitch * h) as usize, 0);
        for j in 0..h {
            for i in 0..w {
                let at = start + (j * pitch + 4 * i) as usize;
                bytes[at..at + 4].copy_from_slice(&texel(k, i, j));
            }
        }
    }
    bytes
}

/// Bytes from one layer (cube face) of an image to the next (ARRAY_PITCH's unit).
pub const LAYER_BYTES: u32 = 0x1000;

fn image_descriptor(
    chip: Chip,
    iova: u64,
    cube: bool,
    format: A6xxFormat,
    size: (u32, u32),
    levels: u32,
    pitch: u32,
) -> Result<[u32; 16], String> {
    macro_rules! fill {
        ($t:ty) => {{
            let mut d = <$t>::default();
            d.tile_mode = A6xxTileMode::TILE6_LINEAR;
            [d.swiz_x, d.swiz_y, d.swiz_z, d.swiz_w] = [
                A6xxTexSwiz::A6XX_TEX_X,
                A6xxTexSwiz::A6XX_TEX_Y,
                A6xxTexSwiz::A6XX_TEX_Z,
                A6xxTexSwiz::A6XX_TEX_W,
            ];
            d.miplvls = levels - 1;
            d.samples = A3xxMsaaSamples::MSAA_ONE;
            d.fmt = format;
            d.swap = A3xxColorSwap::WZYX;
            d.width = size.0;
            d.height = size.1;
            d.pitch = pitch;
            d.r#type = if cube {
                A6xxTexType::A6XX_TEX_CUBE
            } else {
                A6xxTexType::A6XX_TEX_2D
            };
            d.array_pitch = u64::from(LAYER_BYTES);
            d.depth = 1;
            d.base_lo = iova as u32;
            d.base_hi = (iova >> 32) as u32;
            d.try_to_raw().map_err(|e| e.to_string())
        }};
    }
    match chip {
        Chip::A6xx => fill!(desc6::TextureDescriptor),
        Chip::A7xx => fill!(desc7::TextureDescriptor),
    }
}

/// Writes the images and the descriptor sets `bound` needs into new buffer objects and
/// points the bindless bases at the sets; returns the objects the draw reads.
pub fn bind(gpu: &SimGpu, s: &mut StateWriter, bound: &[Bound]) -> Result<Vec<Bo>, String> {
    let mut bos = Vec::new();
    let sets = bound.iter().map(|b| b.set + 1).max().unwrap_or(0);
    let mut bases = Vec::new();
    let chip = s.chip();
    let e = |e: parsnip_registers::RegisterError| e.to_string();
    for set in 0..sets {
        let in_set: Vec<&Bound> = bound.iter().filter(|b| b.set == set).collect();
        let Some(slots) = in_set.iter().map(|b| b.descriptor + 1).max() else {
            bases.push(None);
            continue;
        };
        let mut words = vec![0u32; slots as usize * DESCRIPTOR_DWORDS];
        for b in in_set {
            let raw: Vec<u32> = match &b.slot {
                Slot::Image {
                    cube,
                    format,
                    size,
                    levels,
                    pitch,
                    texels,
                } => {
                    let bo = gpu.bo_with(texels, "texture")?;
                    let d =
                        image_descriptor(chip, bo.iova(), *cube, *format, *size, *levels, *pitch)?;
                    bos.push(bo);
                    d.to_vec()
                }
                Slot::Sampler(d) => d.try_to_raw().map_err(|e| e.to_string())?.to_vec(),
            };
            let at = b.descriptor as usize * DESCRIPTOR_DWORDS;
            words[at..at + raw.len()].copy_from_slice(&raw);
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let set_bo = gpu.bo_with(&bytes, "descriptor set")?;
        bases.push(Some(set_bo.iova()));
        bos.push(set_bo);
    }
    bind_sets(s, BindPoint::Graphics, &bases).map_err(e)?;
    Ok(bos)
}

/// Texel (i, j) of level k of newref.c's `mip_lod` texture (8x8 RGBA8, 4 levels): a
/// one-texel checkerboard of two colours of the level's own (red/white, green/black,
/// blue/yellow, magenta/cyan), the first at (0, 0).
pub fn mip_lod_texel(k: u32, i: u32, j: u32) -> [u8; 4] {
    const COLOURS: [[[u8; 4]; 2]; 4] = [
        [[255, 0, 0, 255], [255, 255, 255, 255]],
        [[0, 255, 0, 255], [0, 0, 0, 255]],
        [[0, 0, 255, 255], [255, 255, 0, 255]],
        [[255, 0, 255, 255], [0, 255, 255, 255]],
    ];
    COLOURS[k as usize][((i + j) & 1) as usize]
}

/// The `mip_lod` texture as a combined image sampler at set 0 descriptors 0 (texture)
/// and 1 (its nearest/nearest/mip-nearest sampler).
pub fn mip_lod_bindings() -> Vec<Bound> {
    vec![
        Bound {
            set: 0,
            descriptor: 0,
            slot: Slot::Image {
                cube: false,
                format: A6xxFormat::FMT6_8_8_8_8_UNORM,
                size: (8, 8),
                levels: 4,
                pitch: 64,
                texels: linear_levels((8, 8), 4, 64, mip_lod_texel),
            },
        },
        Bound {
            set: 0,
            descriptor: 1,
            slot: Slot::Sampler(sampler(A6xxTexFilter::A6XX_TEX_NEAREST, false)),
        },
    ]
}
