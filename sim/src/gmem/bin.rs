//! The bin: which rectangle of the framebuffer GMEM holds now, and where a
//! surface's pixels are in GMEM.
//!
//! The resolve engine (blit events) takes the bin from `RB_BIN_CONTROL2`
//! (its size) and `RB_WINDOW_OFFSET2` (its top-left pixel in the
//! framebuffer); rendering takes it from `RB_BIN_CONTROL` and
//! `RB_WINDOW_OFFSET`. Drivers write the same bin to both pairs (Turnip's
//! tu6_emit_bin_size and tu6_emit_window_offset). Widths are multiples of
//! 32 pixels and heights of 16 (the fields are stored >> 5 and >> 4,
//! a6xx.xml).

use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat, A6xxTileMode};
use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::regs::{self, a6xx, a7xx, Register};
use parsnip_registers::Chip;

use crate::register_file::RegisterFile;
use crate::surface::format::element_layout;
use crate::surface::{Surface, SurfaceDesc, SurfaceError};

/// An inclusive rectangle of framebuffer pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelRect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl PixelRect {
    /// The pixels both rectangles cover, if any.
    pub fn intersect(&self, other: &PixelRect) -> Option<PixelRect> {
        let r = PixelRect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        };
        (r.x0 <= r.x1 && r.y0 <= r.y1).then_some(r)
    }

    /// Each pixel, row by row.
    pub fn pixels(&self) -> impl Iterator<Item = (u32, u32)> {
        let (x0, x1) = (self.x0, self.x1);
        (self.y0..=self.y1).flat_map(move |y| (x0..=x1).map(move |x| (x, y)))
    }
}

/// One bin: its top-left pixel in the framebuffer and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bin {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

fn read<R: Register>(regs: &RegisterFile) -> Result<u32, SurfaceError> {
    Ok(regs.programmed::<R>()? as u32)
}

/// Whether the render backend draws into GMEM, and the bin it holds.
///
/// On a6xx RB_BIN_CONTROL.BUFFERS_LOCATION says where the buffers are. a7xx
/// has no such field; the model takes a bin of nonzero size as a bin pass,
/// which is how Turnip tells them apart (a sysmem pass programs BINW = BINH
/// = 0 on both chips). A context that never programmed RB_BIN_CONTROL
/// renders to memory, as after reset. Memory rendering with a window
/// offset is not modelled.
pub fn render_bin(regs: &RegisterFile) -> Result<Option<Bin>, SurfaceError> {
    use parsnip_registers::enums::A6xxBuffersLocation;
    let programmed = match regs.chip() {
        Chip::A6xx => regs.register_written_at::<a6xx::RbBinControl>() != 0,
        Chip::A7xx => regs.register_written_at::<a7xx::RbBinControl>() != 0,
    };
    let in_gmem = programmed
        && match regs.chip() {
            Chip::A6xx => {
                let c = a6xx::RbBinControl::from_raw(read::<a6xx::RbBinControl>(regs)?);
                match c.buffers_location {
                    A6xxBuffersLocation::BUFFERS_IN_GMEM => true,
                    A6xxBuffersLocation::BUFFERS_IN_SYSMEM => false,
                    other => {
                        return Err(SurfaceError::Invalid(format!(
                            "RB_BIN_CONTROL.BUFFERS_LOCATION {}: no such location",
                            other.0
                        )))
                    }
                }
            }
            Chip::A7xx => {
                let c = a7xx::RbBinControl::from_raw(read::<a7xx::RbBinControl>(regs)?);
                c.binw != 0 && c.binh != 0
            }
        };
    if in_gmem {
        return Bin::for_render(regs).map(Some);
    }
    if regs.register_written_at::<regs::RbWindowOffset>() != 0 {
        let w = regs::RbWindowOffset::from_raw(read::<regs::RbWindowOffset>(regs)?);
        if w.x != 0 || w.y != 0 {
            return Err(SurfaceError::NotModelled(format!(
                "rendering to memory with a window offset of ({}, {}) (RB_WINDOW_OFFSET)",
                w.x, w.y
            )));
        }
    }
    Ok(None)
}

impl Bin {
    /// The bin the resolve engine works on.
    pub fn for_resolve(regs: &RegisterFile) -> Result<Bin, SurfaceError> {
        let size = regs::RbBinControl2::from_raw(read::<regs::RbBinControl2>(regs)?);
        let at = regs::RbWindowOffset2::from_raw(read::<regs::RbWindowOffset2>(regs)?);
        Self::checked(at.x, at.y, size.binw, size.binh, "RB_BIN_CONTROL2")
    }

    /// The bin the render backend draws into.
    pub fn for_render(regs: &RegisterFile) -> Result<Bin, SurfaceError> {
        let (w, h) = match regs.chip() {
            Chip::A6xx => {
                let c = a6xx::RbBinControl::from_raw(read::<a6xx::RbBinControl>(regs)?);
                (c.binw, c.binh)
            }
            Chip::A7xx => {
                let c = a7xx::RbBinControl::from_raw(read::<a7xx::RbBinControl>(regs)?);
                (c.binw, c.binh)
            }
        };
        let at = regs::RbWindowOffset::from_raw(read::<regs::RbWindowOffset>(regs)?);
        Self::checked(at.x, at.y, w, h, "RB_BIN_CONTROL")
    }

    fn checked(x: u32, y: u32, width: u32, height: u32, what: &str) -> Result<Bin, SurfaceError> {
        if width == 0 || height == 0 {
            return Err(SurfaceError::Invalid(format!(
                "{what} gives a {width}x{height} bin: GMEM holds no pixel of it"
            )));
        }
        Ok(Bin {
            x,
            y,
            width,
            height,
        })
    }

    /// The framebuffer pixels the bin covers.
    pub fn rect(&self) -> PixelRect {
        PixelRect {
            x0: self.x,
            y0: self.y,
            x1: self.x + self.width - 1,
            y1: self.y + self.height - 1,
        }
    }

    /// Framebuffer pixel (x, y) in bin coordinates (it must be in the bin).
    pub fn local(&self, x: u32, y: u32) -> (u32, u32) {
        (x - self.x, y - self.y)
    }

    /// A surface of `format` (sRGB-encoded when `srgb`) with `samples`
    /// samples a pixel at GMEM offset `base`, laid out for this bin (see [`crate::gmem`]): addressed in bin
    /// coordinates, and never swapped (drivers program WZYX for GMEM;
    /// Turnip: "must be WZYX; other values are ignored").
    pub fn surface(
        &self,
        format: A6xxFormat,
        samples: u32,
        base: u64,
        srgb: bool,
        info: &GpuInfo,
    ) -> Result<Surface, SurfaceError> {
        let element = element_layout(format)?;
        if element.block != (1, 1) {
            return Err(SurfaceError::Invalid(format!(
                "a GMEM surface of {}, a block-compressed format: GMEM holds render targets",
                crate::surface::format::format_name(format)
            )));
        }
        Surface::new(
            SurfaceDesc {
                base,
                format,
                swap: A3xxColorSwap::WZYX,
                srgb,
                tile_mode: A6xxTileMode::TILE6_2,
                pitch: u64::from(self.width) * u64::from(element.bytes * samples),
                samples,
                extent: Some((self.width, self.height)),
                flags: None,
                mutable: false,
            },
            info,
        )
    }

    /// The bytes a surface of `bytes_per_pixel` (all samples) takes in GMEM
    /// for this bin.
    pub fn footprint(&self, bytes_per_pixel: u32) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(bytes_per_pixel)
    }
}
