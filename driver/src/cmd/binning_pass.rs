//! The binning pass of a GMEM pass (`PARSNIP_DEBUG=forcebin`, or the cost
//! rule of `crate::tiling::render_mode`): the pass's draw stream run once
//! in BINNING render mode, so that the VSC writes, per pipe, a dword a
//! draw saying which of the pipe's bins the draw covers. Each bin then
//! selects its pipe's stream and its bit (CP_SET_BIN_DATA5_OFFSET) and
//! skips the draws that do not cover it, every draw carrying VIS_CULL =
//! USE_VISIBILITY.
//!
//! The draws run their full vertex shader, the fragment stage being off in
//! the binning render mode: the driver compiles no position-only variant,
//! and the full shader computes the same positions (it costs the varyings'
//! work, which the binning pass throws away).
//!
//! The streams are sized from the pass's draw count, so they can never
//! overflow: a dword a draw per pipe (a counted indirect draw counting as
//! its maximum), in memory of the command buffer's upload buffer, zeroed
//! when recorded. A pass whose streams would exceed
//! [`MAX_STREAM_BYTES`] is not binned.

use parsnip_hw_state::binning_pass::{
    begin_binning_pass, end_binning_pass, BEGIN_BINNING_DWORDS, END_BINNING_DWORDS,
};
use parsnip_hw_state::events::{call_ib, CALL_IB_DWORDS};
use parsnip_hw_state::vsc::{DrawStreams, VscLayout, VSC_PIPE_ENTRIES};

use super::buffer::Recording;
use super::gmem_pass::GmemPass;
use crate::error::VkResult;
use crate::tiling::bin_layout::Bin;

/// The most bytes a pass's visibility streams may take.
pub const MAX_STREAM_BYTES: u64 = 16 << 20;

/// The streams' alignment and the least a pipe's stream takes.
const STREAM_ALIGN: u64 = 64;

/// The pitch of each pipe's stream for `draws` draws, if the streams of
/// `pipes` pipes fit [`MAX_STREAM_BYTES`].
pub fn stream_pitch(draws: u64, pipes: u32) -> Option<u32> {
    let pitch = (4 * draws.max(1)).next_multiple_of(STREAM_ALIGN);
    let total = pitch.checked_mul(u64::from(pipes))?;
    (total <= MAX_STREAM_BYTES).then_some(pitch as u32)
}

/// A bin's VSC pipe and its slot in the pipe, and the pipe's bin count.
pub struct BinPipe {
    pub pipe: u32,
    pub slot: u32,
    pub pipe_bins: u32,
}

impl GmemPass<'_> {
    /// Where `bin`'s visibility is in the streams.
    pub fn bin_pipe(&self, bin: &Bin) -> BinPipe {
        let b = &self.tiling.bins;
        let (column, row) = (bin.x / b.bin_width, bin.y / b.bin_height);
        let (px, py) = (column / b.pipe_width, row / b.pipe_height);
        let pipe = py * b.pipe_columns + px;
        let (x0, y0) = (px * b.pipe_width, py * b.pipe_height);
        let width = b.pipe_width.min(b.columns - x0);
        let height = b.pipe_height.min(b.rows - y0);
        BinPipe {
            pipe,
            slot: (row - y0) * width + (column - x0),
            pipe_bins: width * height,
        }
    }
}

impl Recording {
    /// Records the binning pass of `p`, with streams of `pitch` bytes a
    /// pipe; returns where they are.
    pub(super) fn binning_pass(&mut self, p: &GmemPass<'_>, pitch: u32) -> VkResult<DrawStreams> {
        let pipes = p.tiling.bins.pipes();
        let stream_bytes = u64::from(pitch) * pipes.len() as u64;
        let dwords = (stream_bytes / 4) as usize + VSC_PIPE_ENTRIES as usize;
        let (base, memory) = self.upload.alloc(dwords, STREAM_ALIGN)?;
        memory.fill(0);
        let streams = DrawStreams {
            base,
            sizes: base + stream_bytes,
            pitch,
        };
        let b = &p.tiling.bins;
        let layout = VscLayout {
            bin_width: b.bin_width,
            bin_height: b.bin_height,
            columns: b.columns,
            rows: b.rows,
            pipes: &pipes,
        };
        let (w, h) = (p.framebuffer.width, p.framebuffer.height);
        self.cs.emit(BEGIN_BINNING_DWORDS, |r| {
            begin_binning_pass(r, &layout, &streams, w, h)
        })?;
        for ib in p.draws {
            let iova = ib.bo.iova() + ib.offset;
            self.cs
                .emit(CALL_IB_DWORDS, |r| call_ib(r, iova, ib.dwords))?;
        }
        self.cs.emit(END_BINNING_DWORDS, |r| end_binning_pass(r))?;
        Ok(streams)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_hold_a_dword_a_draw_or_the_pass_is_not_binned() {
        assert_eq!(stream_pitch(0, 32), Some(64));
        assert_eq!(stream_pitch(16, 32), Some(64));
        assert_eq!(stream_pitch(17, 32), Some(128));
        assert_eq!(stream_pitch(u64::from(u32::MAX), 32), None);
    }
}
