//! The bin a render pass draws: which rectangle of the framebuffer the
//! hardware renders, and whether into GMEM (a bin of a tiled pass) or
//! straight into memory (sysmem).
//!
//! The size goes to GRAS_BIN_CONTROL and RB_BIN_CONTROL (the rasterizer
//! and the render backend) and to RB_BIN_CONTROL2 (the resolve engine);
//! the bin's top-left pixel to RB_WINDOW_OFFSET (rendering),
//! RB_WINDOW_OFFSET2 (resolves), SP_WINDOW_OFFSET and SP_TP_WINDOW_OFFSET
//! (the shader and texture units, for GMEM reads of input attachments)
//! and on a7xx SP_PS_2D_WINDOW_OFFSET; the window scissor and
//! GRAS_2D_RESOLVE_CNTL clip rendering and resolves to the bin. This is
//! the register set Turnip's `*_gmem` streams write before each bin
//! (a660 triangle_gmem.log: GRAS/RB_BIN_CONTROL BINW 96 BINH 64
//! RENDERING_PASS BUFFERS_IN_GMEM, the window scissor 0,0-95,63). A
//! sysmem pass programs a bin of size 0 (a6xx also BUFFERS_IN_SYSMEM) at
//! offset 0 with the framebuffer as the window scissor, as Turnip's
//! `*_sysmem` streams do.

use parsnip_registers::enums::{A6xxBuffersLocation, A6xxRenderMode};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use crate::sink::PacketSink;

/// A rectangle of framebuffer pixels: its top-left pixel and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinWindow {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// The bin size registers: `width` x `height` in GMEM, or 0 x 0 in
/// memory.
fn bin_size<S: PacketSink>(
    s: &mut S,
    width: u32,
    height: u32,
    location: A6xxBuffersLocation,
    render_mode: A6xxRenderMode,
) -> Result<(), S::Error> {
    match s.chip() {
        Chip::A6xx => {
            s.reg(&a6xx::GrasBinControl {
                binw: width,
                binh: height,
                render_mode,
                buffers_location: location,
                ..Default::default()
            })?;
            s.reg(&a6xx::RbBinControl {
                binw: width,
                binh: height,
                render_mode,
                buffers_location: location,
                ..Default::default()
            })?;
        }
        Chip::A7xx => {
            s.reg(&a7xx::GrasBinControl {
                binw: width,
                binh: height,
                render_mode,
                ..Default::default()
            })?;
            s.reg(&a7xx::RbBinControl {
                binw: width,
                binh: height,
                render_mode,
                ..Default::default()
            })?;
        }
    }
    s.reg(&regs::RbBinControl2 {
        binw: width,
        binh: height,
    })
}

/// The window offsets of every unit that has one.
fn window_offset<S: PacketSink>(s: &mut S, x: u32, y: u32) -> Result<(), S::Error> {
    s.reg(&regs::RbWindowOffset { x, y })?;
    s.reg(&regs::RbWindowOffset2 { x, y })?;
    s.reg(&regs::SpWindowOffset { x, y })?;
    s.reg(&regs::SpTpWindowOffset { x, y })?;
    if s.chip() == Chip::A7xx {
        s.reg(&regs::SpPs2dWindowOffset { x, y })?;
    }
    Ok(())
}

/// The window scissor and the resolve engine's clip: `w` in pixels
/// (inclusive corners).
fn window_scissor<S: PacketSink>(s: &mut S, w: &BinWindow) -> Result<(), S::Error> {
    let (x1, y1) = (w.x + w.width.max(1) - 1, w.y + w.height.max(1) - 1);
    s.reg(&regs::GrasScWindowScissorTl { x: w.x, y: w.y })?;
    s.reg(&regs::GrasScWindowScissorBr { x: x1, y: y1 })?;
    s.reg(&regs::Gras2dResolveCntl1 { x: w.x, y: w.y })?;
    s.reg(&regs::Gras2dResolveCntl2 { x: x1, y: y1 })
}

/// The window is the whole `width` x `height` framebuffer, at no offset.
fn whole_framebuffer<S: PacketSink>(s: &mut S, width: u32, height: u32) -> Result<(), S::Error> {
    let whole = BinWindow {
        x: 0,
        y: 0,
        width,
        height,
    };
    window_scissor(s, &whole)?;
    window_offset(s, 0, 0)
}

/// Dwords [`program_bin`], [`program_binning_window`] and
/// [`program_sysmem_window`] take at most.
pub const BIN_DWORDS: usize = 2 * 3 + 3 + 5 * 3 + 4 * 3;

/// Rendering into GMEM, bin `bin` (its size a multiple of the bin
/// alignment the registers store: 32 x 16 pixels).
pub fn program_bin<S: PacketSink>(s: &mut S, bin: &BinWindow) -> Result<(), S::Error> {
    bin_size(
        s,
        bin.width,
        bin.height,
        A6xxBuffersLocation::BUFFERS_IN_GMEM,
        A6xxRenderMode::RENDERING_PASS,
    )?;
    window_scissor(s, bin)?;
    window_offset(s, bin.x, bin.y)
}

/// The binning pass of a framebuffer of `width` x `height` cut into
/// `bin_width` x `bin_height` bins: BINNING_PASS in the bin controls, the
/// whole framebuffer as the window and no window offset, so that the
/// draws' primitives land in framebuffer coordinates for the VSC to sort
/// into bins (as Turnip's forcebin streams program it: GRAS_BIN_CONTROL
/// BINW 96 BINH 32 BINNING_PASS, the window scissor 0,0 - 63,63).
pub fn program_binning_window<S: PacketSink>(
    s: &mut S,
    bin_width: u32,
    bin_height: u32,
    width: u32,
    height: u32,
) -> Result<(), S::Error> {
    bin_size(
        s,
        bin_width,
        bin_height,
        A6xxBuffersLocation::BUFFERS_IN_GMEM,
        A6xxRenderMode::BINNING_PASS,
    )?;
    whole_framebuffer(s, width, height)
}

/// Rendering straight into memory, a framebuffer of `width` x `height`.
pub fn program_sysmem_window<S: PacketSink>(
    s: &mut S,
    width: u32,
    height: u32,
) -> Result<(), S::Error> {
    bin_size(
        s,
        0,
        0,
        A6xxBuffersLocation::BUFFERS_IN_SYSMEM,
        A6xxRenderMode::RENDERING_PASS,
    )?;
    whole_framebuffer(s, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;

    /// The value written to register `offset`, as a stream decoder sees it.
    fn written(w: &StateWriter, offset: u32) -> Option<u32> {
        let mut at = 0;
        let mut last = None;
        while at < w.dwords.len() {
            let header = w.dwords[at];
            let count = (header & 0x7f) as usize;
            let reg = header >> 8 & 0x3ffff;
            for i in 0..count {
                if reg + i as u32 == offset {
                    last = Some(w.dwords[at + 1 + i]);
                }
            }
            at += 1 + count;
        }
        last
    }

    #[test]
    fn a_bin_writes_turnips_values() {
        // a660 triangle_gmem-forcebin.log's rendering pass: GRAS_BIN_CONTROL
        // (80a1) BINW 96 (3 << 0), BINH 32 (2 << 8), RENDERING_PASS and
        // BUFFERS_IN_GMEM (both 0), and LRZ feedback bits this leaves 0.
        let mut w = StateWriter::new(Chip::A6xx);
        let bin = BinWindow {
            x: 0,
            y: 32,
            width: 96,
            height: 32,
        };
        program_bin(&mut w, &bin).unwrap();
        assert!(w.dwords.len() <= BIN_DWORDS);
        assert_eq!(written(&w, 0x80a1), Some(3 | 2 << 8));
        assert_eq!(written(&w, 0x8800), Some(3 | 2 << 8));
        assert_eq!(written(&w, 0x88d3), Some(3 | 2 << 8));
        // RB_WINDOW_OFFSET (8890) { X = 0 | Y = 32 }, the window scissor
        // 0,32 - 95,63 (forcebin's second bin).
        assert_eq!(written(&w, 0x8890), Some(32 << 16));
        assert_eq!(written(&w, 0x80f1), Some(95 | 63 << 16));
        assert_eq!(written(&w, 0xb4d1), Some(32 << 16));

        let mut w = StateWriter::new(Chip::A7xx);
        program_sysmem_window(&mut w, 65, 33).unwrap();
        assert!(w.dwords.len() <= BIN_DWORDS);
        assert_eq!(written(&w, 0x8800), Some(0));
        assert_eq!(written(&w, 0x80f1), Some(64 | 32 << 16));
        assert_eq!(written(&w, 0xab21), Some(0));
        assert_eq!(written(&w, 0xb2d1), Some(0));
    }
}
