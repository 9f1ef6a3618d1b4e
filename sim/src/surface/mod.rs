//! Image memory as the hardware lays it out: one surface (a level and layer
//! of an image, a render target, a 2D engine source or destination) and
//! its texels, shared by every unit that reads or writes images.
//!
//! The API (stable; the render backend, the texture unit and the 2D engine
//! use it):
//! - [`SurfaceDesc`]: what the registers or a descriptor say about a
//!   surface (base, format and swap, sRGB, tile mode, pitch, samples,
//!   optional size, UBWC flag buffer, a7xx's MUTABLEEN); [`Surface::new`]
//!   checks it against what the hardware can lay out and fixes its
//!   geometry for the GPU (TILE6_3 depends on the kernel's bank setup).
//! - [`registers`]: surfaces built from the registers that describe them,
//!   read through strict mode: the 2D engine's destination
//!   (`RB_2D_DST_*`) and source (`SP_PS_2D_SRC_*`), colour targets
//!   (`RB_MRT[i]`), the depth and separate stencil buffers.
//! - [`texture`]: the levels and layers of an image an `A6XX_TEX_CONST`
//!   (or storage) descriptor describes, by the rules the texture unit uses
//!   to find them (fdl6's).
//! - [`Surface::read_texel`] / [`Surface::write_texel`] (with a component
//!   mask), and [`Surface::read_element`] / [`Surface::write_element`] for
//!   raw elements (compressed blocks, copies without conversion), at
//!   element coordinates and a sample index. They handle tiling, the split
//!   R8G8 layout and UBWC ([`ubwc`]: every unit that goes through here
//!   agrees on compressed data, and a read without flags of compressed
//!   data is an error).
//! - [`format`]: texel formats (every `a6xx_format`, depth formats, swaps,
//!   sRGB); [`tiling`]: element addresses per tile mode.
//!
//! Errors are [`SurfaceError`]s: a fault, a strict-mode register, state the
//! hardware cannot have, a UBWC misuse, or behaviour that is not public.

pub mod format;
pub mod registers;
pub mod texture;
pub mod tiling;
pub mod ubwc;

use std::fmt;

use parsnip_registers::enums::{A3xxColorSwap, A3xxMsaaSamples, A6xxFormat, A6xxTileMode};
use parsnip_registers::gpu::GpuInfo;

use crate::memory::{AddressSpace, Fault};
use crate::register_file::RegisterReadError;

use format::{element_layout, ElementLayout, FormatError, Texel, TexelFormat};
use tiling::{BankConfig, Macrotiled};
use ubwc::{FlagBuffer, Plain, COMPRESSED};

/// Why a surface could not be described, read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurfaceError {
    /// An access no buffer object covers.
    Fault(Fault),
    /// A register the surface's unit reads: strict mode, or a model bug.
    Register(RegisterReadError),
    /// State the hardware cannot have (a pitch a tiled layout cannot use,
    /// UBWC on a linear surface, a format that does not exist).
    Invalid(String),
    /// Compressed data accessed inconsistently with its flags.
    Compression(String),
    /// What the hardware does here is not public, or the model does not do
    /// it yet.
    NotModelled(String),
}

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SurfaceError::Fault(fault) => fault.fmt(f),
            SurfaceError::Register(e) => e.fmt(f),
            SurfaceError::Invalid(why)
            | SurfaceError::Compression(why)
            | SurfaceError::NotModelled(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SurfaceError {}

impl From<Fault> for SurfaceError {
    fn from(f: Fault) -> Self {
        SurfaceError::Fault(f)
    }
}

impl From<RegisterReadError> for SurfaceError {
    fn from(e: RegisterReadError) -> Self {
        SurfaceError::Register(e)
    }
}

impl From<FormatError> for SurfaceError {
    fn from(e: FormatError) -> Self {
        SurfaceError::NotModelled(e.0)
    }
}

/// The sample count an `a3xx_msaa_samples` value stands for.
pub fn sample_count(samples: A3xxMsaaSamples) -> u32 {
    1 << (samples.0 & 3)
}

/// What a unit's registers or descriptor say about one surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceDesc {
    pub base: u64,
    pub format: A6xxFormat,
    pub swap: A3xxColorSwap,
    pub srgb: bool,
    pub tile_mode: A6xxTileMode,
    /// Bytes from one row of elements to the next.
    pub pitch: u64,
    pub samples: u32,
    /// Width and height in texels, where the unit knows them (a 2D
    /// engine destination has no size register).
    pub extent: Option<(u32, u32)>,
    /// The UBWC flag buffer and its pitch, when the surface is compressed.
    pub flags: Option<(u64, u64)>,
    /// a7xx's MUTABLEEN: the image may be viewed in other formats, which
    /// turns off R8G8's split layout.
    pub mutable: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Linear,
    Tiled(Macrotiled),
    /// Single-sampled tiled R8G8: an R8 surface of twice the width, each
    /// 16-pixel block's red in the left half of its 32-pixel R8 block.
    SplitR8g8(Macrotiled),
}

/// One surface: where its elements are and what they hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    pub desc: SurfaceDesc,
    pub element: ElementLayout,
    /// The texel format, or why the model does not read this format's
    /// texels (they can still be copied as elements).
    texel: Result<TexelFormat, FormatError>,
    layout: Layout,
    flags: Option<FlagBuffer>,
}

impl Surface {
    /// The surface `desc` describes on a GPU with `info`'s bank setup.
    pub fn new(desc: SurfaceDesc, info: &GpuInfo) -> Result<Surface, SurfaceError> {
        let element = element_layout(desc.format)?;
        let texel = TexelFormat::new(desc.format, desc.swap).and_then(|t| t.with_srgb(desc.srgb));
        if !matches!(desc.samples, 1 | 2 | 4 | 8) {
            return Err(SurfaceError::Invalid(format!(
                "{} samples a pixel",
                desc.samples
            )));
        }
        let cpp = element.bytes * desc.samples;
        let r8g8 = desc.samples == 1
            && !desc.mutable
            && matches!(
                desc.format,
                A6xxFormat::FMT6_8_8_UNORM
                    | A6xxFormat::FMT6_8_8_SNORM
                    | A6xxFormat::FMT6_8_8_UINT
                    | A6xxFormat::FMT6_8_8_SINT
                    | A6xxFormat::FMT6_NV12_UV
            );
        let banks = BankConfig::of(info);
        let layout = match desc.tile_mode {
            A6xxTileMode::TILE6_LINEAR => Layout::Linear,
            A6xxTileMode::TILE6_3 if r8g8 => Layout::SplitR8g8(
                Macrotiled::new(1, desc.pitch, banks).map_err(SurfaceError::Invalid)?,
            ),
            A6xxTileMode::TILE6_3 => Layout::Tiled(
                Macrotiled::new(cpp, desc.pitch, banks).map_err(SurfaceError::Invalid)?,
            ),
            // TILE6_2 is the layout of surfaces in GMEM, which is not public:
            // the model lays them out row by row (see `crate::gmem`).
            A6xxTileMode::TILE6_2 if desc.flags.is_some() => {
                return Err(SurfaceError::Invalid(
                    "UBWC flags on a TILE6_2 (GMEM) surface: GMEM is never compressed".into(),
                ))
            }
            A6xxTileMode::TILE6_2 => Layout::Linear,
            other => {
                return Err(SurfaceError::Invalid(format!(
                    "tile mode {}: the hardware has no such layout",
                    other.0
                )))
            }
        };
        let flags = match desc.flags {
            None => None,
            Some(_) if layout == Layout::Linear => {
                return Err(SurfaceError::Invalid(
                    "UBWC flags on a linear surface: UBWC needs TILE6_3".into(),
                ))
            }
            Some((base, pitch)) => {
                let block = ubwc::block_extent(
                    cpp,
                    desc.samples,
                    r8g8,
                    desc.format == A6xxFormat::FMT6_NV12_Y,
                )
                .ok_or_else(|| {
                    SurfaceError::Invalid(format!(
                        "UBWC for {cpp}-byte pixels: the hardware compresses up to 32"
                    ))
                })?;
                Some(FlagBuffer { base, pitch, block })
            }
        };
        Ok(Surface {
            desc,
            element,
            texel,
            layout,
            flags,
        })
    }

    /// The texel format, or why the model does not read this format's
    /// texels.
    pub fn texel_format(&self) -> Result<TexelFormat, SurfaceError> {
        self.texel.clone().map_err(SurfaceError::from)
    }

    /// Whether the surface is UBWC-compressed.
    pub fn is_compressed(&self) -> bool {
        self.flags.is_some()
    }

    /// The flag buffer, for a compressed surface.
    pub fn flag_buffer(&self) -> Option<FlagBuffer> {
        self.flags
    }

    /// Bytes of one element, all samples together.
    fn pixel_bytes(&self) -> u64 {
        u64::from(self.element.bytes * self.desc.samples)
    }

    /// The address of element (x, y)'s sample `sample`, or an error for the
    /// split R8G8 layout, whose components are apart.
    pub fn element_address(&self, x: u32, y: u32, sample: u32) -> Result<u64, SurfaceError> {
        match self.runs(x, y, sample) {
            [(at, _), (_, 0)] => Ok(at),
            _ => Err(SurfaceError::NotModelled(
                "the address of a split R8G8 texel: its two bytes are apart".into(),
            )),
        }
    }

    /// The addresses of the element's bytes, as (address, length) runs.
    fn runs(&self, x: u32, y: u32, sample: u32) -> [(u64, usize); 2] {
        let base = self.desc.base;
        let within = u64::from(sample * self.element.bytes);
        let whole = |offset: u64| {
            [
                (base + offset + within, self.element.bytes as usize),
                (0, 0),
            ]
        };
        match self.layout {
            Layout::Linear => {
                whole(u64::from(y) * self.desc.pitch + u64::from(x) * self.pixel_bytes())
            }
            Layout::Tiled(t) => whole(t.offset(x, y)),
            Layout::SplitR8g8(t) => {
                // Block 16x8 of R8G8 is an R8 block of 32x8: red left.
                let rx = (x & !15) * 2 + (x & 15);
                [
                    (base + t.offset(rx, y), 1),
                    (base + t.offset(rx + 16, y), 1),
                ]
            }
        }
    }

    fn check_sample(&self, sample: u32) -> Result<(), SurfaceError> {
        if sample >= self.desc.samples {
            return Err(SurfaceError::Invalid(format!(
                "sample {sample} of a {}-sample surface",
                self.desc.samples
            )));
        }
        Ok(())
    }

    /// Reads the raw bytes of element (x, y)'s sample into `out` (at least
    /// an element long).
    pub fn read_element(
        &self,
        memory: &AddressSpace,
        x: u32,
        y: u32,
        sample: u32,
        out: &mut [u8],
    ) -> Result<(), SurfaceError> {
        self.check_sample(sample)?;
        let runs = self.runs(x, y, sample);
        match self.flags {
            Some(flags) => self.check_compressed_read(memory, flags, x, y, runs[0].0)?,
            None => {
                for &(at, len) in runs.iter().filter(|r| r.1 > 0) {
                    check_plain_read(memory, at, len)?;
                }
            }
        }
        let mut done = 0;
        for (at, len) in runs.into_iter().filter(|r| r.1 > 0) {
            memory.read(at, &mut out[done..done + len])?;
            done += len;
        }
        Ok(())
    }

    /// Writes the raw bytes of element (x, y)'s sample.
    pub fn write_element(
        &self,
        memory: &AddressSpace,
        x: u32,
        y: u32,
        sample: u32,
        bytes: &[u8],
    ) -> Result<(), SurfaceError> {
        self.check_sample(sample)?;
        let runs = self.runs(x, y, sample);
        let mut done = 0;
        for (at, len) in runs.into_iter().filter(|r| r.1 > 0) {
            memory.write(at, &bytes[done..done + len])?;
            done += len;
            match self.flags {
                Some(_) => {}
                None => note_plain_write(memory, at, len)?,
            }
        }
        if let Some(flags) = self.flags {
            let flag = flags.byte_address(x, y);
            memory.write(flag, &[COMPRESSED])?;
            memory
                .compressed_tiles()
                .mark_compressed(ubwc::tile_of(runs[0].0), flag);
        }
        Ok(())
    }

    /// The components of texel (x, y)'s sample.
    pub fn read_texel(
        &self,
        memory: &AddressSpace,
        x: u32,
        y: u32,
        sample: u32,
    ) -> Result<Texel, SurfaceError> {
        let format = self.texel_format()?;
        let mut bytes = [0u8; 16];
        self.read_element(memory, x, y, sample, &mut bytes)?;
        Ok(format.decode(&bytes))
    }

    /// Writes components `mask` (bit 0 for X) of `texel` to texel (x, y)'s
    /// sample, keeping the others.
    pub fn write_texel(
        &self,
        memory: &AddressSpace,
        x: u32,
        y: u32,
        sample: u32,
        texel: Texel,
        mask: u8,
    ) -> Result<(), SurfaceError> {
        let format = self.texel_format()?;
        let mut bytes = [0u8; 16];
        let all = (0..4)
            .filter(|&c| format.has_component(c))
            .all(|c| mask >> c & 1 != 0);
        if all {
            format.encode(texel, &mut bytes);
        } else {
            self.read_element(memory, x, y, sample, &mut bytes)?;
            format.encode_masked(texel, mask, &mut bytes);
        }
        self.write_element(memory, x, y, sample, &bytes[..self.element.bytes as usize])
    }

    /// A compressed read: the flag byte must be one the model wrote, for a
    /// block not overwritten without flags since.
    fn check_compressed_read(
        &self,
        memory: &AddressSpace,
        flags: FlagBuffer,
        x: u32,
        y: u32,
        data: u64,
    ) -> Result<(), SurfaceError> {
        let at = flags.byte_address(x, y);
        let mut flag = [0u8];
        memory.read(at, &mut flag)?;
        match flag[0] {
            0 => Ok(()),
            COMPRESSED => match memory.compressed_tiles().record(ubwc::tile_of(data)) {
                Some((_, true)) => Err(SurfaceError::Compression(format!(
                    "UBWC read of ({x}, {y}) in the surface at {:#x}: its flags at {at:#x} say \
                     compressed, but the data tile at {:#x} was written without flags since",
                    self.desc.base,
                    ubwc::tile_of(data)
                ))),
                _ => Ok(()),
            },
            other => Err(SurfaceError::NotModelled(format!(
                "UBWC flag byte {other:#04x} at {at:#x} (for ({x}, {y}) in the surface at {:#x}) \
                 was not written by the model: the hardware's compressed encoding is not public",
                self.desc.base
            ))),
        }
    }
}

/// The data tiles in `at..at + len` that still hold compressed blocks: on
/// record, and with their flag byte still saying so (records whose flag
/// byte changed are dropped: the memory was reused).
fn compressed_tiles_in(
    memory: &AddressSpace,
    at: u64,
    len: usize,
) -> Result<Vec<(u64, u64)>, SurfaceError> {
    let tiles = memory.compressed_tiles();
    let mut found = Vec::new();
    let mut tile = ubwc::tile_of(at);
    while tile < at + len as u64 {
        if let Plain::Compressed { flag } = tiles.plain_access(tile) {
            let mut byte = [0u8];
            memory.read(flag, &mut byte)?;
            if byte[0] == COMPRESSED {
                found.push((tile, flag));
            } else {
                tiles.forget(tile);
            }
        }
        tile += 0x100;
    }
    Ok(found)
}

/// A read without flags of `len` bytes at `at`: an error where a compressed
/// block lives.
fn check_plain_read(memory: &AddressSpace, at: u64, len: usize) -> Result<(), SurfaceError> {
    match compressed_tiles_in(memory, at, len)?.first() {
        Some((_, flag)) => Err(SurfaceError::Compression(format!(
            "a read without UBWC flags of {at:#x}, which holds UBWC-compressed data (its flag \
             byte is at {flag:#x}): the surface must be read with its flags or decompressed \
             first"
        ))),
        None => Ok(()),
    }
}

/// A write without flags over a compressed block marks it overwritten.
fn note_plain_write(memory: &AddressSpace, at: u64, len: usize) -> Result<(), SurfaceError> {
    for (tile, _) in compressed_tiles_in(memory, at, len)? {
        memory.compressed_tiles().mark_overwritten(tile);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
