//! The binning pass and bin rendering as the command processor sees them.
//!
//! - A draw while RB_BIN_CONTROL.RENDER_MODE is BINNING_PASS renders
//!   nothing: if it uses the visibility stream (VIS_CULL = USE_VISIBILITY)
//!   its vertices are shaded and its primitives rasterized against the
//!   bins ([`crate::vsc`]), and its dword is appended to each pipe's draw
//!   stream; a draw that ignores visibility is not binned. CP_SET_MARKER
//!   RM6_BIN_VISIBILITY starts a pass: its draws count from 0 and
//!   VSC_STATE starts empty.
//! - The streams are where VSC_DRAW_STRM_ADDRESS and
//!   VSC_DRAW_STRM_SIZE_ADDRESS say on a6xx; on a7xx drivers give them
//!   with CP_SET_PSEUDO_REG DRAW_STRM_ADDRESS and DRAW_STRM_SIZE_ADDRESS
//!   instead (Turnip's tu6_emit_binning_pass), which take precedence.
//! - CP_SET_BIN_DATA5 (the stream's address) and CP_SET_BIN_DATA5_OFFSET
//!   (an offset from the draw stream address) pick the draw stream of the
//!   pipe of the bin about to be rendered, and VSC_N its slot; its draws
//!   count from 0 again.
//! - Then each draw that uses the visibility stream reads its dword and is
//!   skipped when the slot's bit is clear, unless CP_SET_VISIBILITY_OVERRIDE
//!   is set (as drivers set it for sysmem passes and unbinned GMEM passes).
//!
//! Not modelled, each an error naming it: a7xx's ABS_MASK forms (masks of
//! concurrent binning), and a pass with more draws than a draw stream's
//! VSC_DRAW_STRM_LIMIT holds (hardware then marks the overflow for the
//! driver to re-run the pass with more room; how it fills the stream then
//! is not public).

use parsnip_registers::enums::{A6xxRenderMode, A7xxAbsMaskMode, PseudoReg};
use parsnip_registers::packets::{
    CpSetBinData5Dw0, CpSetBinData5Dw1NoAbsMask, CpSetBinData5Dw2NoAbsMask, CpSetBinData5OffsetDw0,
    CpSetBinData5OffsetDw1NoAbsMask, CpSetPseudoRegDw0, CpSetPseudoRegDw1, CpSetPseudoRegDw2,
};
use parsnip_registers::regs::{self, a6xx, a7xx, ArrayRegister, Register};
use parsnip_registers::Chip;

use super::CommandProcessor;
use crate::pc::{run_binning_draw, DrawCall};
use crate::report::{GpuError, StreamProblem};
use crate::vsc::{self, BinGrid};

/// The draw stream bin rendering reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BinStream {
    base: u64,
    slot: u32,
    /// The next draw's number in the stream.
    next: u32,
}

/// What the CP keeps of the binning pass and the bin being rendered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Visibility {
    /// Draws binned since the pass started.
    binned: u32,
    stream: Option<BinStream>,
    /// CP_SET_PSEUDO_REG DRAW_STRM_ADDRESS and DRAW_STRM_SIZE_ADDRESS.
    draw_strm: Option<u64>,
    draw_strm_size: Option<u64>,
}

impl CommandProcessor<'_> {
    /// Whether the RB and GRAS are in a binning pass.
    pub(super) fn in_binning_pass(&self) -> bool {
        let mode = match self.chip() {
            Chip::A6xx if self.regs.register_written_at::<a6xx::RbBinControl>() != 0 => {
                a6xx::RbBinControl::from_raw(self.typed::<a6xx::RbBinControl>()).render_mode
            }
            Chip::A7xx if self.regs.register_written_at::<a7xx::RbBinControl>() != 0 => {
                a7xx::RbBinControl::from_raw(self.typed::<a7xx::RbBinControl>()).render_mode
            }
            _ => A6xxRenderMode::RENDERING_PASS,
        };
        mode == A6xxRenderMode::BINNING_PASS
    }

    /// A 32-bit register's value, known to be written.
    fn typed<R: Register>(&self) -> u32 {
        self.regs.programmed::<R>().map_or(0, |v| v as u32)
    }

    /// CP_SET_MARKER RM6_BIN_VISIBILITY: a binning pass starts.
    pub(super) fn begin_binning_pass(&mut self) {
        self.cp.visibility.binned = 0;
        for p in 0..vsc::PIPES as u32 {
            if let Ok(offset) = <regs::VscStateReg as ArrayRegister>::offset(self.chip(), p) {
                self.write_register(offset, 0);
            }
        }
    }

    /// One draw of the binning pass.
    pub(super) fn binning_draw(&mut self, call: &DrawCall) -> Result<(), GpuError> {
        if !call.uses_visibility {
            return Ok(());
        }
        let (visibility, grid) = {
            let ctx = self.draw_context(self.stats.draws);
            let grid = BinGrid::read(self.regs).map_err(|e| self.draw_error(e))?;
            let (_, visibility) =
                run_binning_draw(&ctx, call, &grid).map_err(|e| self.draw_error(e))?;
            (visibility, grid)
        };
        let k = self.cp.visibility.binned;
        self.cp.visibility.binned += 1;
        self.stats.binned_draws += 1;
        let end = 4 * (k + 1);
        for p in grid.used_pipes() {
            let (base, limit) = self.draw_stream(p)?;
            if end > limit {
                return Err(self.stream_error(StreamProblem::NotModelled {
                    what: format!(
                        "a binning pass of more than {} draws overflows pipe {p}'s draw stream \
                         (VSC_DRAW_STRM_LIMIT {limit:#x}): how the hardware fills it then is not \
                         public",
                        limit / 4
                    ),
                }));
            }
            let bits = visibility.pipes[p];
            self.write_u32(base + 4 * u64::from(k), bits)?;
            let size_at = self.size_buffer()? + 4 * p as u64;
            self.write_u32(size_at, end)?;
            if let Ok(offset) =
                <regs::VscDrawStrmSizeReg as ArrayRegister>::offset(self.chip(), p as u32)
            {
                self.write_register(offset, end);
            }
            if let Some(offset) = vsc::state_register(self.regs, p) {
                let state = self.regs.read(offset);
                self.write_register(offset, state | bits);
            }
        }
        Ok(())
    }

    /// Whether the bin being rendered sees the next draw that uses the
    /// visibility stream.
    pub(super) fn bin_sees_draw(&mut self) -> Result<bool, GpuError> {
        let Some(stream) = &mut self.cp.visibility.stream else {
            return Err(self.stream_error(StreamProblem::BadState {
                why: "a draw uses the visibility stream (VIS_CULL = USE_VISIBILITY), but no \
                      CP_SET_BIN_DATA5 gave one and CP_SET_VISIBILITY_OVERRIDE is off"
                    .into(),
            }));
        };
        let at = stream.base + 4 * u64::from(stream.next);
        let slot = stream.slot;
        stream.next += 1;
        let word = self.read_u32(at)?;
        Ok(word >> slot & 1 != 0)
    }

    /// Whether a bin is rendered against a visibility stream and none of
    /// the last pass's draws from the next one on is visible in it.
    pub(super) fn nothing_left_visible(&self) -> Result<bool, GpuError> {
        let Some(stream) = self.cp.visibility.stream else {
            return Ok(false);
        };
        for k in stream.next..self.cp.visibility.binned {
            if self.read_u32(stream.base + 4 * u64::from(k))? >> stream.slot & 1 != 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn set_stream(&mut self, base: u64, slot: u32) {
        self.cp.visibility.stream = Some(BinStream {
            base,
            slot,
            next: 0,
        });
    }

    /// CP_SET_BIN_DATA5: the draw stream's address and the bin's slot.
    pub(super) fn set_bin_data5(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let dw0 = CpSetBinData5Dw0::from_raw(payload[0]);
        if dw0.abs_mask == A7xxAbsMaskMode::ABS_MASK {
            return Err(self.abs_mask());
        }
        let lo = CpSetBinData5Dw1NoAbsMask::from_raw(payload[1]).bin_data_addr_lo;
        let hi = CpSetBinData5Dw2NoAbsMask::from_raw(payload[2]).bin_data_addr_hi;
        self.set_stream(u64::from(lo) | u64::from(hi) << 32, dw0.vsc_n);
        Ok(())
    }

    /// CP_SET_BIN_DATA5_OFFSET: the draw stream at an offset from
    /// VSC_DRAW_STRM_ADDRESS, and the bin's slot.
    pub(super) fn set_bin_data5_offset(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 2)?;
        let dw0 = CpSetBinData5OffsetDw0::from_raw(payload[0]);
        if dw0.abs_mask == A7xxAbsMaskMode::ABS_MASK {
            return Err(self.abs_mask());
        }
        let offset = CpSetBinData5OffsetDw1NoAbsMask::from_raw(payload[1]).bin_data_offset;
        let base = self.draw_streams()?;
        self.set_stream(base + u64::from(offset), dw0.vsc_n);
        Ok(())
    }

    /// CP_SET_PSEUDO_REG: (register, address) pairs. The visibility
    /// streams' are kept; the others are the save areas and SMMU state of
    /// preemption, which the model never does.
    pub(super) fn set_pseudo_reg(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        if !payload.len().is_multiple_of(3) {
            return Err(self.bad_payload(format!(
                "payload of {} dwords: CP_SET_PSEUDO_REG takes groups of 3",
                payload.len()
            )));
        }
        for group in payload.chunks(3) {
            let reg = CpSetPseudoRegDw0::from_raw(group[0]).pseudo_reg;
            let lo = CpSetPseudoRegDw1::from_raw(group[1]).lo;
            let hi = CpSetPseudoRegDw2::from_raw(group[2]).hi;
            let address = u64::from(lo) | u64::from(hi) << 32;
            match reg {
                PseudoReg::DRAW_STRM_ADDRESS => self.cp.visibility.draw_strm = Some(address),
                PseudoReg::DRAW_STRM_SIZE_ADDRESS => {
                    self.cp.visibility.draw_strm_size = Some(address)
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The first pipe's draw stream.
    fn draw_streams(&self) -> Result<u64, GpuError> {
        self.stream_address::<regs::VscDrawStrmAddress>(self.cp.visibility.draw_strm)
    }

    /// The size buffer: a dword a pipe.
    fn size_buffer(&self) -> Result<u64, GpuError> {
        self.stream_address::<regs::VscDrawStrmSizeAddress>(self.cp.visibility.draw_strm_size)
    }

    /// The address CP_SET_PSEUDO_REG gave, else register `R`'s.
    fn stream_address<R: Register>(&self, pseudo: Option<u64>) -> Result<u64, GpuError> {
        match pseudo {
            Some(a) => Ok(a),
            None => self
                .regs
                .programmed::<R>()
                .map_err(|e| self.register_error(e)),
        }
    }

    /// Pipe `pipe`'s draw stream and its limit in bytes: the draw stream
    /// address + pipe * VSC_DRAW_STRM_PITCH, VSC_DRAW_STRM_LIMIT bytes.
    fn draw_stream(&self, pipe: usize) -> Result<(u64, u32), GpuError> {
        let base = self.draw_streams()?;
        let (pitch, limit) =
            vsc::stream_pitch_and_limit(self.regs).map_err(|e| self.draw_error(e))?;
        Ok((base + pipe as u64 * u64::from(pitch), limit))
    }

    fn abs_mask(&self) -> GpuError {
        self.stream_error(StreamProblem::NotModelled {
            what: "CP_SET_BIN_DATA5 with ABS_MASK (a7xx concurrent binning's masks) is not \
                   modelled"
                .into(),
        })
    }
}
