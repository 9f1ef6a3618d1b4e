//! The levels and layers of an image as a texture (or storage) descriptor
//! describes it: the descriptor gives level 0's base, pitch and size, and
//! the texture unit finds the other levels by fixed rules, which drivers
//! lay images out by. The rules (Mesa's fdl6 layout, fd6_layout.c and
//! freedreno_layout.h; the code is the model's):
//! - Level L is max(size >> L, 1) texels; its pitch is level 0's halved L
//!   times (at least 1) and aligned to 2^(PITCHALIGN + 6) bytes.
//! - A TILE6_3 image's levels narrower than 16 texels are linear, unless
//!   TILE_ALL; tiled levels have their rows of blocks aligned to 16 (32 for
//!   1-byte pixels and R8G8).
//! - 1D, 2D and cube images are "layer first": each layer (ARRAY_PITCH
//!   apart) holds all its levels one after another; with UBWC a tiled
//!   level ends on a 4 KiB boundary.
//! - 3D images hold each level's slices together, slice size halving twice
//!   a level from ARRAY_PITCH down to MIN_LAYERSZ.
//! - UBWC flags: level 0's at FLAG, its pitch FLAG_BUFFER_PITCH; for mipmaps
//!   each tiled level's flags follow the previous level's, their pitch the
//!   level-0 pitch halved L times and aligned to 64, their rows 2^LOGH
//!   blocks aligned to 64 then halved L times and aligned to 64, each level
//!   aligned to 4 KiB; layers FLAG_BUFFER_ARRAY_PITCH * 4 bytes apart
//!   (Mesa writes the layer size >> 2 there).

use parsnip_registers::descriptors::{a6xx, a7xx};
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat, A6xxTexType, A6xxTileMode};
use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::Chip;

use super::format::element_layout;
use super::{sample_count, Surface, SurfaceDesc, SurfaceError};

/// An image as its descriptor describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureImage {
    pub ty: A6xxTexType,
    pub format: A6xxFormat,
    pub swap: A3xxColorSwap,
    pub srgb: bool,
    pub tile_mode: A6xxTileMode,
    pub samples: u32,
    pub width: u32,
    pub height: u32,
    /// Layers (1D, 2D, cube faces) or slices (3D).
    pub depth: u32,
    pub levels: u32,
    pub base: u64,
    pub pitch: u64,
    pub pitch_align_log2: u32,
    pub array_pitch: u64,
    pub min_layer_size: u64,
    pub tile_all: bool,
    pub mutable: bool,
    pub flags: Option<TextureFlags>,
}

/// Where a texture's UBWC flags are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureFlags {
    pub base: u64,
    pub pitch: u64,
    pub array_pitch: u64,
    pub log_w: u32,
    pub log_h: u32,
}

fn align(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

fn minify(x: u64, level: u32) -> u64 {
    (x >> level).max(1)
}

impl TextureImage {
    /// The image of the 16-dword descriptor `raw` on `chip`.
    pub fn from_descriptor(raw: &[u32; 16], chip: Chip) -> TextureImage {
        macro_rules! from_layout {
            ($t:expr, $mutable:expr) => {{
                let t = $t;
                TextureImage {
                    ty: t.r#type,
                    format: t.fmt,
                    swap: t.swap,
                    srgb: t.srgb,
                    tile_mode: t.tile_mode,
                    samples: sample_count(t.samples),
                    width: t.width,
                    height: t.height,
                    depth: t.depth,
                    levels: t.miplvls + 1,
                    base: u64::from(t.base_lo) | u64::from(t.base_hi) << 32,
                    pitch: u64::from(t.pitch),
                    pitch_align_log2: t.pitchalign + 6,
                    array_pitch: t.array_pitch,
                    min_layer_size: u64::from(t.min_layersz),
                    tile_all: t.tile_all,
                    mutable: $mutable(&t),
                    flags: t.flag.then(|| TextureFlags {
                        base: u64::from(t.flag_lo) | u64::from(t.flag_hi) << 32,
                        pitch: u64::from(t.flag_buffer_pitch),
                        array_pitch: u64::from(t.flag_buffer_array_pitch) * 4,
                        log_w: t.flag_buffer_logw,
                        log_h: t.flag_buffer_logh,
                    }),
                }
            }};
        }
        match chip {
            Chip::A6xx => from_layout!(a6xx::TextureDescriptor::from_raw(raw), |_: &_| false),
            Chip::A7xx => from_layout!(
                a7xx::TextureDescriptor::from_raw(raw),
                |t: &a7xx::TextureDescriptor| t.mutableen
            ),
        }
    }

    fn is_3d(&self) -> bool {
        self.ty == A6xxTexType::A6XX_TEX_3D
    }

    /// Bytes of a pixel, all samples.
    fn cpp(&self) -> Result<u64, SurfaceError> {
        Ok(u64::from(element_layout(self.format)?.bytes * self.samples))
    }

    /// Whether level `level` is tiled.
    pub fn level_tiled(&self, level: u32) -> bool {
        self.tile_mode != A6xxTileMode::TILE6_LINEAR
            && (self.tile_all || minify(u64::from(self.width), level) >= 16)
    }

    /// Level `level`'s pitch in bytes.
    pub fn level_pitch(&self, level: u32) -> u64 {
        align(minify(self.pitch, level), 1 << self.pitch_align_log2)
    }

    /// Bytes of one layer (or slice) of level `level`.
    fn level_size(&self, level: u32) -> Result<u64, SurfaceError> {
        if self.is_3d() {
            let shrunk = self.array_pitch >> (2 * level);
            return Ok(shrunk.max(self.min_layer_size));
        }
        let layout = element_layout(self.format)?;
        let rows = minify(u64::from(self.height), level).div_ceil(u64::from(layout.block.1));
        let rows = if self.level_tiled(level) {
            let cpp = self.cpp()?;
            let r8g8 = cpp == 2 && self.samples == 1 && !self.mutable && self.is_r8g8();
            align(rows, if cpp == 1 || r8g8 { 32 } else { 16 })
        } else {
            rows
        };
        Ok(rows * self.level_pitch(level))
    }

    fn is_r8g8(&self) -> bool {
        matches!(
            self.format,
            A6xxFormat::FMT6_8_8_UNORM
                | A6xxFormat::FMT6_8_8_SNORM
                | A6xxFormat::FMT6_8_8_UINT
                | A6xxFormat::FMT6_8_8_SINT
                | A6xxFormat::FMT6_NV12_UV
        )
    }

    /// The offset of level `level`'s first layer from the base.
    pub fn level_offset(&self, level: u32) -> Result<u64, SurfaceError> {
        let mut offset = 0;
        for l in 0..level {
            let slices = if self.is_3d() {
                minify(u64::from(self.depth), l)
            } else {
                1
            };
            offset += self.level_size(l)? * slices;
            if self.flags.is_some() && self.level_tiled(l) {
                offset = align(offset, 4096);
            }
        }
        Ok(offset)
    }

    /// The offset of level `level`'s flags from the flag base, and their
    /// pitch.
    fn level_flags(&self, flags: TextureFlags, level: u32) -> (u64, u64) {
        let pitch = |l: u32| align(minify(flags.pitch, l), 64);
        let rows0 = align(1 << flags.log_h, 64);
        let mut offset = 0;
        for l in 0..level {
            if self.level_tiled(l) {
                offset += align(pitch(l) * align(minify(rows0, l), 64), 4096);
            }
        }
        (offset, pitch(level))
    }

    /// The surface of level `level`, layer (or 3D slice) `layer`.
    pub fn surface(&self, level: u32, layer: u32, info: &GpuInfo) -> Result<Surface, SurfaceError> {
        if matches!(
            self.ty,
            A6xxTexType::A6XX_TEX_BUFFER | A6xxTexType::A6XX_TEX_IMG_BUFFER
        ) {
            return Err(SurfaceError::Invalid(
                "a buffer texture has no levels or layers: it is read as texels in a row".into(),
            ));
        }
        if level >= self.levels {
            return Err(SurfaceError::Invalid(format!(
                "level {level} of a texture with {} levels",
                self.levels
            )));
        }
        let mut base = self.base + self.level_offset(level)?;
        base += u64::from(layer)
            * if self.is_3d() {
                self.level_size(level)?
            } else {
                self.array_pitch
            };
        let tiled = self.level_tiled(level);
        let flags = match self.flags {
            Some(f) if tiled => {
                let (offset, pitch) = self.level_flags(f, level);
                let layer_offset = if self.is_3d() {
                    0
                } else {
                    u64::from(layer) * f.array_pitch
                };
                Some((f.base + offset + layer_offset, pitch))
            }
            _ => None,
        };
        Surface::new(
            SurfaceDesc {
                base,
                format: self.format,
                swap: self.swap,
                srgb: self.srgb,
                tile_mode: if tiled {
                    self.tile_mode
                } else {
                    A6xxTileMode::TILE6_LINEAR
                },
                pitch: self.level_pitch(level),
                samples: self.samples,
                extent: Some((
                    minify(u64::from(self.width), level) as u32,
                    minify(u64::from(self.height), level) as u32,
                )),
                flags,
                mutable: self.mutable,
            },
            info,
        )
    }
}
