//! Where the hardware expects each texel of an image: one pure function,
//! [`layout`], from the image's shape and the GPU's facts to the offsets,
//! pitches, tile modes and UBWC flag buffers of every level and layer of
//! one plane.
//!
//! The rules are the a6xx/a7xx surface rules as freedreno's `fdl6_layout`
//! and Turnip's `tu_image` apply them (Mesa 25.1), and as Turnip's traces
//! show them (`tests` checks both):
//!
//! - Pitches are aligned to `64 << shift` bytes: the texel size's log2 for
//!   tiled surfaces (1 for 8-bit and R8G8-like formats, 2 for other 16-bit
//!   ones) and for linear ones (of the next power of two for 3-component
//!   texels). A level's pitch is the level 0 pitch halved per level, then
//!   re-aligned.
//! - `TILE6_3` heights are padded to 16 rows (32 for 8-bit and R8G8-like
//!   formats); the last level is padded to 4 rows, because the 2D engine
//!   and GMEM stores work in 16x4 blocks and may fetch past it.
//! - A level narrower than 16 texels is linear, unless every level must be
//!   tiled: depth/stencil (the RB has no linear depth), and UBWC images on
//!   GPUs without the linear mipmap fallback. An image narrower than 16
//!   texels is not compressed and (colour) not tiled at all.
//! - 2D and array images store each layer's levels together ("layer
//!   first"), layers 4 KiB aligned; 3D images store each level's slices
//!   together, the slice size shrinking with the level until it stops
//!   halving, stays 4 KiB aligned, or stops fitting (TEX_CONST's
//!   MIN_LAYERSZ then holds it).
//! - UBWC: a flag buffer of one byte per block (16x4 texels for 1-4 byte
//!   texels, 8x4 for 8, 4x4 for 16, 4x2 for 32; 16x8 for R8G8-like; 8x4,
//!   4x4 and 4x2 for 1- and 2-byte MSAA), its pitch aligned to 64 blocks and
//!   its height to 16 (64 with mipmaps, where the flag surface is sized
//!   for the next power of two), each level 4 KiB aligned, all flag
//!   surfaces first in the image (the kernel expects them at the start).
//!   No UBWC for non-power-of-two texels, above 32 bytes, or for mipmapped
//!   3D images.

use parsnip_registers::enums::A6xxTileMode;
use parsnip_registers::gpu::UbwcFacts;

/// Texel rows of a `TILE6_3` tile for most formats, and for 8-bit and
/// R8G8-like ones.
const TILE_HEIGHT: u32 = 16;
const TILE_HEIGHT_8BIT: u32 = 32;
/// Narrower levels are linear; narrower images are neither tiled (colour)
/// nor compressed (`FDL_MIN_UBWC_WIDTH`).
pub const MIN_TILED_WIDTH: u32 = 16;
/// Flag buffer pitch alignment in blocks, and height alignment in rows
/// (`RGB_TILE_WIDTH_ALIGNMENT`, `RGB_TILE_HEIGHT_ALIGNMENT`).
const UBWC_PITCH_ALIGN: u32 = 64;
const UBWC_HEIGHT_ALIGN: u32 = 16;
const UBWC_HEIGHT_ALIGN_MIPMAPPED: u32 = 64;
/// Flag surfaces, UBWC levels and array layers are page aligned.
const PAGE: u64 = 4096;

/// The tiling an image asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiling {
    Linear,
    Tiled,
}

/// What kind of texels a plane holds, as far as the layout cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaneKind {
    Color,
    /// A two-component 16-bit format (R8G8 and kin): its own UBWC blocks
    /// and tile height. A mutable image's R8G8 plane is laid out as
    /// `Color`, so that 16-bit views of it agree.
    TwoByEight,
    /// Depth and/or stencil (never linear).
    DepthStencil,
}

/// The shape of one plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutParams {
    /// Bytes per texel block (before multisampling).
    pub block_bytes: u32,
    /// Texel block size (1x1 unless compressed).
    pub block: [u32; 2],
    pub kind: PlaneKind,
    pub samples: u32,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub levels: u32,
    pub layers: u32,
    pub is_3d: bool,
    pub tiling: Tiling,
    /// UBWC wanted (the layout may still refuse it).
    pub ubwc: bool,
}

/// One level's flag buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UbwcLevel {
    /// From the start of the image (layer 0).
    pub offset: u64,
    /// Bytes per row of flag blocks.
    pub pitch: u32,
    pub size: u64,
}

/// One mip level of the plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Offset of layer 0 (slice 0) from the start of the image.
    pub offset: u64,
    /// Bytes of one layer (one slice for 3D) of this level.
    pub size: u64,
    /// Bytes per row of texel blocks.
    pub pitch: u32,
    pub tile_mode: A6xxTileMode,
    pub ubwc: Option<UbwcLevel>,
    /// Texel blocks across and down (not padded).
    pub width: u32,
    pub height: u32,
    pub depth: u32,
}

/// The layout of one plane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub levels: Vec<Level>,
    /// Bytes per texel block including samples (freedreno's `cpp`).
    pub cpp: u32,
    /// Whether layers hold their levels together (2D/array) rather than
    /// levels holding their slices (3D).
    pub layer_first: bool,
    /// Stride between array layers, for `layer_first` layouts.
    pub layer_size: u64,
    /// Stride between the flag surfaces of array layers (or slices).
    pub ubwc_layer_size: u64,
    /// Whether the plane is compressed.
    pub ubwc: bool,
    /// Bytes the plane takes, flag surfaces included.
    pub size: u64,
    /// Alignment the plane's base address needs.
    pub base_align: u32,
    /// log2 of the pitch alignment.
    pub pitch_align_log2: u32,
    /// Slices of 3D levels past this one keep its size (TEX_CONST's
    /// MIN_LAYERSZ); 0 while they still shrink.
    pub min_3d_layer_size: u64,
    /// Whether the plane is tiled (its narrow levels may still be linear);
    /// a tiled plane stores every level unswapped.
    pub tiled: bool,
    /// Whether every level is tiled, narrow ones included (TEX_CONST's
    /// TILE_ALL).
    pub tile_all: bool,
}

/// Why a plane cannot be laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError(pub String);

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn minify(x: u32, level: u32) -> u32 {
    (x >> level).max(1)
}

fn align(x: u32, a: u32) -> u32 {
    x.div_ceil(a) * a
}

fn align64(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// The UBWC block (in texels) of a plane, or `None` when the texel size has
/// no compressed form.
fn ubwc_block(p: &LayoutParams, cpp: u32) -> Option<[u32; 2]> {
    if p.kind == PlaneKind::TwoByEight && p.samples == 1 {
        return Some([16, 8]);
    }
    if p.block_bytes <= 2 && p.samples > 1 {
        return match p.samples {
            2 => Some([8, 4]),
            4 => Some([4, 4]),
            8 => Some([4, 2]),
            _ => None,
        };
    }
    match cpp {
        1..=4 => Some([16, 4]),
        8 => Some([8, 4]),
        16 => Some([4, 4]),
        32 => Some([4, 2]),
        _ => None,
    }
}

/// Lays out one plane. An explicit row pitch (an imported linear or UBWC
/// image, `VK_EXT_image_drm_format_modifier`) must meet the alignment;
/// `explicit` is (offset, pitch).
pub fn layout(
    p: &LayoutParams,
    gpu: &UbwcFacts,
    explicit: Option<(u64, u32)>,
) -> Result<Layout, LayoutError> {
    if p.width == 0 || p.height == 0 || p.depth == 0 || p.levels == 0 || p.layers == 0 {
        return Err(LayoutError(format!("an empty image: {p:?}")));
    }
    if p.samples == 0 || !p.samples.is_power_of_two() {
        return Err(LayoutError(format!("{} samples", p.samples)));
    }
    let cpp = p.block_bytes * p.samples;
    let pow2 = cpp.is_power_of_two();
    let depth_stencil = p.kind == PlaneKind::DepthStencil;
    let two_by_eight = p.kind == PlaneKind::TwoByEight;

    let mut tiled = p.tiling == Tiling::Tiled;
    let mut ubwc = p.ubwc && tiled;
    let block = if pow2 { ubwc_block(p, cpp) } else { None };
    if block.is_none() || (p.depth > 1 && p.levels > 1) {
        ubwc = false;
    }
    if p.width < MIN_TILED_WIDTH {
        ubwc = false;
        if !depth_stencil {
            tiled = false;
        }
    }
    if tiled && !pow2 {
        return Err(LayoutError(format!("{cpp}-byte texels cannot be tiled")));
    }
    // Depth/stencil cannot be linear; UBWC levels cannot fall back to
    // linear without the GPU's fallback.
    let tile_all = depth_stencil || (ubwc && !gpu.linear_mipmap_fallback);

    let cpp_shift = if pow2 {
        cpp.trailing_zeros()
    } else {
        cpp.next_power_of_two().trailing_zeros()
    };
    let (pitch_shift, height_align, base_align) = if tiled {
        let (shift, rows) = if two_by_eight || cpp == 1 {
            (1, TILE_HEIGHT_8BIT)
        } else if cpp == 2 {
            (2, TILE_HEIGHT)
        } else {
            (cpp_shift, TILE_HEIGHT)
        };
        let base = if ubwc || depth_stencil || two_by_eight {
            4096
        } else {
            match cpp {
                1 => 64,
                2 => 128,
                _ => 256,
            }
        };
        (shift, rows, base)
    } else {
        // An explicit linear pitch needs only 64-byte alignment; the
        // driver's own linear images get the texel size's worth more.
        let shift = if explicit.is_some() && pow2 {
            if cpp > 4 {
                cpp_shift - 2
            } else {
                0
            }
        } else {
            cpp_shift
        };
        (shift, 1, 64)
    };
    let pitch_align_log2 = pitch_shift + 6;
    let blocks_x = p.width.div_ceil(p.block[0]);
    let mut pitch0 = align(blocks_x * cpp, 1 << pitch_align_log2);
    let mut offset = 0;
    if let Some((off, pitch)) = explicit {
        if !pitch.is_multiple_of(1 << pitch_align_log2) || pitch < blocks_x * cpp {
            return Err(LayoutError(format!(
                "row pitch {pitch} is not a multiple of {} at least {}",
                1u32 << pitch_align_log2,
                blocks_x * cpp
            )));
        }
        pitch0 = pitch;
        offset = off;
    }
    let pitch_of = |level: u32| align(minify(pitch0, level), 1 << pitch_align_log2);

    let (ubwc_width0, ubwc_height0, ubwc_row_align) = match block {
        Some([bw, bh]) if ubwc => {
            let (w, h, rows) = if p.levels > 1 {
                (
                    p.width.next_power_of_two(),
                    p.height.next_power_of_two(),
                    UBWC_HEIGHT_ALIGN_MIPMAPPED,
                )
            } else {
                (p.width, p.height, UBWC_HEIGHT_ALIGN)
            };
            (
                align(w.div_ceil(bw), UBWC_PITCH_ALIGN),
                align(h.div_ceil(bh), rows),
                rows,
            )
        }
        _ => (0, 0, 1),
    };

    let layer_first = !p.is_3d;
    let layers_in_level = if layer_first { 1 } else { p.layers };
    let mut size: u64 = 0;
    let mut ubwc_layer_size: u64 = 0;
    let mut min_3d: u64 = 0;
    let mut levels: Vec<Level> = Vec::with_capacity(p.levels as usize);
    for level in 0..p.levels {
        let depth = minify(p.depth, level);
        let linear_level = !tile_all && minify(p.width, level) < MIN_TILED_WIDTH;
        let tile_mode = if tiled && !linear_level {
            A6xxTileMode::TILE6_3
        } else {
            A6xxTileMode::TILE6_LINEAR
        };
        let pitch = pitch_of(level);
        let blocks_y = minify(p.height, level).div_ceil(p.block[1]);
        let mut rows = blocks_y;
        if tile_mode != A6xxTileMode::TILE6_LINEAR {
            rows = align(rows, height_align);
        }
        if level == p.levels - 1 {
            rows = align(rows, 4);
        }
        let natural = u64::from(rows) * u64::from(pitch);
        let slice = if !p.is_3d {
            natural
        } else if level == 0 {
            align64(natural, PAGE)
        } else if min_3d != 0 {
            min_3d
        } else {
            let mut s = levels[0].size >> (2 * level);
            if pitch != pitch_of(level - 1) / 2 || s < natural {
                s = natural;
                min_3d = s;
            }
            if !s.is_multiple_of(PAGE) {
                s = align64(s, PAGE);
                min_3d = s;
            }
            s
        };
        let level_offset = offset + size;
        size += slice * u64::from(depth) * u64::from(layers_in_level);
        let mut ubwc_level = None;
        if ubwc && tile_mode != A6xxTileMode::TILE6_LINEAR {
            size = align64(size, PAGE);
            let meta_pitch = align(minify(ubwc_width0, level), UBWC_PITCH_ALIGN);
            let meta_height = align(minify(ubwc_height0, level), ubwc_row_align);
            let meta_size = align64(u64::from(meta_pitch) * u64::from(meta_height), PAGE);
            ubwc_level = Some(UbwcLevel {
                offset: offset + ubwc_layer_size,
                pitch: meta_pitch,
                size: meta_size,
            });
            ubwc_layer_size += meta_size;
        }
        levels.push(Level {
            offset: level_offset,
            size: slice,
            pitch,
            tile_mode,
            ubwc: ubwc_level,
            width: minify(p.width, level).div_ceil(p.block[0]),
            height: blocks_y,
            depth,
        });
    }
    let mut layer_size = 0;
    if layer_first {
        layer_size = align64(size, PAGE);
        size = layer_size * u64::from(p.layers);
    }
    if ubwc {
        let flags = ubwc_layer_size * u64::from(p.layers) * u64::from(p.depth);
        for l in &mut levels {
            l.offset += flags;
        }
        size += flags;
    }
    Ok(Layout {
        levels,
        cpp,
        layer_first,
        layer_size,
        ubwc_layer_size,
        ubwc,
        size: size + offset,
        base_align,
        pitch_align_log2,
        min_3d_layer_size: min_3d,
        tiled,
        tile_all: tiled && tile_all,
    })
}

impl Layout {
    /// Stride between layers (2D/array) or slices (3D) of `level`.
    pub fn layer_stride(&self, level: u32) -> u64 {
        if self.layer_first {
            self.layer_size
        } else {
            self.levels[level as usize].size
        }
    }

    /// Offset of layer (or slice) `layer` of `level` from the image start.
    pub fn offset(&self, level: u32, layer: u32) -> u64 {
        self.levels[level as usize].offset + self.layer_stride(level) * u64::from(layer)
    }

    /// Offset of the flag surface of `layer` of `level`, if compressed.
    pub fn ubwc_offset(&self, level: u32, layer: u32) -> Option<u64> {
        self.levels[level as usize]
            .ubwc
            .map(|u| u.offset + self.ubwc_layer_size * u64::from(layer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::gpu;

    fn facts(name: &str) -> UbwcFacts {
        gpu::by_name(name).unwrap().ubwc
    }

    fn color(bytes: u32, width: u32, height: u32, levels: u32) -> LayoutParams {
        LayoutParams {
            block_bytes: bytes,
            block: [1, 1],
            kind: PlaneKind::Color,
            samples: 1,
            width,
            height,
            depth: 1,
            levels,
            layers: 1,
            is_3d: false,
            tiling: Tiling::Tiled,
            ubwc: true,
        }
    }

    #[test]
    fn a_64x64_rgba8_attachment_is_tiled_with_its_flags_first() {
        // triangle_sysmem.log (a660 and a740): the colour attachment's
        // RB_2D_DST is BO + 4096, pitch 256, TILE6_3 with FLAGS; the flags
        // at BO + 0 with a 64-byte pitch and a 4096-byte array pitch; the
        // BO is 20480 bytes.
        for gpu in ["a660", "a740"] {
            let l = layout(&color(4, 64, 64, 1), &facts(gpu), None).unwrap();
            assert!(l.ubwc);
            let l0 = l.levels[0];
            assert_eq!(
                (l0.offset, l0.pitch, l0.tile_mode),
                (4096, 256, A6xxTileMode::TILE6_3)
            );
            let u = l0.ubwc.unwrap();
            assert_eq!((u.offset, u.pitch, l.ubwc_layer_size), (0, 64, 4096));
            assert_eq!(l.size, 20480);
        }
    }

    #[test]
    fn a_96x64_attachment_and_its_d16_depth_match_turnip() {
        // lines_sysmem.log / depth_bias_cull_sysmem.log (a660): RGBA8 96x64
        // pitch 512 at BO + 4096 in a 36864-byte BO (4096 of flags, 32768
        // of texels); D16 96x64 pitch 256, RB_DEPTH_BUFFER_ARRAY_PITCH
        // 16384, flags at BO + 0 with pitch 64 and array pitch 4096, depth
        // at BO + 4096.
        let rgba = layout(&color(4, 96, 64, 1), &facts("a660"), None).unwrap();
        assert_eq!((rgba.levels[0].offset, rgba.levels[0].pitch), (4096, 512));
        assert_eq!(rgba.size, 36864);
        let d16 = LayoutParams {
            kind: PlaneKind::DepthStencil,
            ..color(2, 96, 64, 1)
        };
        let d = layout(&d16, &facts("a660"), None).unwrap();
        let l0 = d.levels[0];
        assert_eq!((l0.offset, l0.pitch, l0.size), (4096, 256, 16384));
        assert_eq!((l0.ubwc.unwrap().pitch, d.ubwc_layer_size), (64, 4096));
        // Turnip places its LRZ buffer after the depth, at BO + 20480.
        assert_eq!(d.size, 20480);
    }

    #[test]
    fn storage_images_on_a660_are_tiled_without_flags() {
        // storage_image.log (a660): 16x16 R32_UINT and RGBA8 copy
        // destinations are TILE6_3, pitch 256, FLAGS_PITCH 0.
        let p = LayoutParams {
            ubwc: false,
            ..color(4, 16, 16, 1)
        };
        let l = layout(&p, &facts("a660"), None).unwrap();
        assert_eq!(l.levels[0].tile_mode, A6xxTileMode::TILE6_3);
        assert_eq!((l.levels[0].pitch, l.levels[0].offset), (256, 0));
        assert!(l.levels[0].ubwc.is_none());
        assert_eq!(l.size, 4096);
    }

    #[test]
    fn an_8x8_mipmapped_texture_is_linear_with_turnips_level_offsets() {
        // mip_lod_sysmem.log (a660, a740): the four CP_BLITs of the upload
        // write RB_2D_DST at BO + 0, 2048, 3072 and 3584, all TILE6_LINEAR
        // with pitch 256, into an 8192-byte BO.
        for gpu in ["a660", "a740"] {
            let l = layout(&color(4, 8, 8, 4), &facts(gpu), None).unwrap();
            let offsets: Vec<u64> = l.levels.iter().map(|l| l.offset).collect();
            assert_eq!(offsets, [0, 2048, 3072, 3584]);
            assert!(l.levels.iter().all(|l| l.pitch == 256
                && l.tile_mode == A6xxTileMode::TILE6_LINEAR
                && l.ubwc.is_none()));
            assert_eq!(l.size, 8192);
        }
    }

    #[test]
    fn hand_worked_layouts() {
        // 8-bit tiled: 128-byte pitch alignment, 32-row tiles; a660 has no
        // 8-bit UBWC, a630 does.
        let r8 = color(1, 100, 40, 1);
        let l = layout(&r8, &facts("a660"), None).unwrap();
        assert_eq!((l.levels[0].pitch, l.levels[0].size), (128, 128 * 64));
        assert!(
            !layout(&LayoutParams { ubwc: false, ..r8 }, &facts("a630"), None)
                .unwrap()
                .ubwc
        );

        // Mipmapped RGBA8 32x32 on a660 (linear fallback): levels 0 and 1
        // tiled and compressed, 2.. linear. Flag surfaces are sized for
        // power-of-two extents with 64-row alignment: 64x64 bytes each.
        let l = layout(&color(4, 32, 32, 6), &facts("a660"), None).unwrap();
        let modes: Vec<bool> = l.levels.iter().map(|l| l.ubwc.is_some()).collect();
        assert_eq!(modes, [true, true, false, false, false, false]);
        assert_eq!(l.ubwc_layer_size, 2 * 4096);
        assert_eq!(l.levels[0].offset, 8192);
        // Level 0: 32 rows x 256 = 8192, page aligned; level 1: 16 x 256 =
        // 4096; then linear levels of pitch 256: 8, 4, 2, and 1 row padded
        // to 4.
        let offs: Vec<u64> = l.levels.iter().map(|l| l.offset - 8192).collect();
        assert_eq!(
            offs,
            [0, 8192, 12288, 12288 + 2048, 12288 + 3072, 12288 + 3584]
        );
        // Without the fallback (a630) every level of a UBWC image stays
        // tiled.
        let l = layout(&color(4, 32, 32, 6), &facts("a630"), None).unwrap();
        assert!(l
            .levels
            .iter()
            .all(|l| l.tile_mode == A6xxTileMode::TILE6_3));

        // Array layers are 4 KiB aligned and hold their levels.
        let p = LayoutParams {
            layers: 3,
            ubwc: false,
            ..color(4, 16, 16, 2)
        };
        let l = layout(&p, &facts("a740"), None).unwrap();
        assert_eq!(l.layer_size, 8192);
        assert_eq!(l.offset(1, 2), 2 * 8192 + 4096);
        assert_eq!(l.size, 3 * 8192);
    }

    #[test]
    fn three_d_slices_shrink_until_they_stop_halving() {
        // 64x64x4 RGBA8, 3 levels, tiled, no UBWC (3D with mips): level 0
        // slices 64 rows x 256 = 16384; level 1 pitch 128 → 256 (aligned),
        // so it stops halving at 32 rows x 256 = 8192.
        let p = LayoutParams {
            depth: 4,
            is_3d: true,
            ..color(4, 64, 64, 3)
        };
        let l = layout(&p, &facts("a660"), None).unwrap();
        assert!(!l.ubwc && !l.layer_first);
        assert_eq!(l.levels[0].size, 16384);
        assert_eq!(l.levels[1].size, 8192);
        assert_eq!(l.min_3d_layer_size, 8192);
        assert_eq!(l.levels[1].offset, 4 * 16384);
        assert_eq!(l.levels[2].offset, 4 * 16384 + 2 * 8192);
        assert_eq!(l.offset(0, 3), 3 * 16384);
    }

    #[test]
    fn refusals_and_explicit_pitches() {
        let f = facts("a740");
        assert!(layout(&color(4, 0, 4, 1), &f, None).is_err());
        let rgb = LayoutParams {
            tiling: Tiling::Tiled,
            ..color(3, 64, 4, 1)
        };
        assert!(layout(&rgb, &f, None).is_err());
        let lin = LayoutParams {
            tiling: Tiling::Linear,
            ..color(3, 64, 4, 1)
        };
        // 3-byte texels align their pitch as 4-byte ones do.
        assert_eq!(layout(&lin, &f, None).unwrap().levels[0].pitch, 256);
        let lin4 = LayoutParams {
            tiling: Tiling::Linear,
            ..color(4, 10, 4, 1)
        };
        assert_eq!(
            layout(&lin4, &f, Some((0, 64))).unwrap().levels[0].pitch,
            64
        );
        assert!(layout(&lin4, &f, Some((0, 96))).is_err());
        assert!(layout(&lin4, &f, Some((0, 32))).is_err());
    }
}
