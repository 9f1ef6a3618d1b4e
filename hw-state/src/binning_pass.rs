//! The binning pass's framing: what goes before a GMEM pass's draw stream
//! is run once in BINNING render mode, and after it, before the bins are
//! rendered against the visibility it wrote.
//!
//! Before: the bins and pipes ([`crate::vsc`]), where the draw streams
//! go, the bin controls in BINNING_PASS over the whole framebuffer
//! ([`crate::bin::program_binning_window`]), VFD_MODE_CNTL BINNING_PASS
//! and CP_SET_MARKER RM6_BIN_VISIBILITY, in the order Turnip's
//! `*_gmem-forcebin` streams have them. The draws then run their full
//! vertex shader; the binning render mode keeps the fragment stage off.
//! After: VFD_MODE_CNTL back to RENDERING_PASS, and a wait for idle and
//! for the CP's prefetch, so that the visibility streams are in memory
//! before the first bin's CP_SET_BIN_DATA5 is read.

use parsnip_registers::enums::{A6xxMarker, A6xxRenderMode};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs;

use crate::bin::{program_binning_window, BIN_DWORDS};
use crate::draw::set_marker;
use crate::sink::PacketSink;
use crate::vsc::{
    program_draw_streams, program_vsc_layout, DrawStreams, VscLayout, DRAW_STREAMS_DWORDS,
    VSC_LAYOUT_DWORDS,
};

/// Dwords [`begin_binning_pass`] takes at most.
pub const BEGIN_BINNING_DWORDS: usize =
    VSC_LAYOUT_DWORDS + DRAW_STREAMS_DWORDS + BIN_DWORDS + 2 + 2;

/// Dwords [`end_binning_pass`] takes.
pub const END_BINNING_DWORDS: usize = 2 + 1 + 1;

/// Starts the binning pass of a `width` x `height` framebuffer cut as
/// `layout` says, writing its visibility to `streams`.
pub fn begin_binning_pass<S: PacketSink>(
    s: &mut S,
    layout: &VscLayout,
    streams: &DrawStreams,
    width: u32,
    height: u32,
) -> Result<(), S::Error> {
    program_vsc_layout(s, layout)?;
    program_draw_streams(s, streams)?;
    program_binning_window(s, layout.bin_width, layout.bin_height, width, height)?;
    s.reg(&regs::VfdModeCntl {
        render_mode: A6xxRenderMode::BINNING_PASS,
    })?;
    set_marker(s, A6xxMarker::RM6_BIN_VISIBILITY)
}

/// Ends the binning pass: the vertex fetcher renders again, and the
/// streams are written before anything reads them.
pub fn end_binning_pass<S: PacketSink>(s: &mut S) -> Result<(), S::Error> {
    s.reg(&regs::VfdModeCntl {
        render_mode: A6xxRenderMode::RENDERING_PASS,
    })?;
    s.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);
    s.packet(Opcode::CP_WAIT_FOR_ME, &[]);
    Ok(())
}
