//! The visibility stream compressor's view of a GMEM pass: the bin size,
//! how many bins there are across and down, and which rectangle of bins
//! each VSC pipe covers (VSC_BIN_SIZE, VSC_BIN_COUNT, VSC_PIPE_CONFIG).
//!
//! A binning pass writes one draw stream per pipe, a bit per bin of the
//! pipe for every draw; a bin's rendering then selects its pipe's stream
//! and its bit within it. Every entry of VSC_PIPE_CONFIG is written, the
//! pipes the pass does not use as 0 x 0, as Turnip's `*_gmem-forcebin`
//! streams do (a660 triangle_gmem-forcebin.log: VSC_BIN_SIZE 96 x 32,
//! VSC_BIN_COUNT 1 x 2, pipes 0 and 1 a bin each, 2 to 31 empty).

use parsnip_registers::enums::PseudoReg;
use parsnip_registers::packets;
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs;
use parsnip_registers::Chip;

use crate::sink::{lo_hi, PacketSink};

/// The entries of VSC_PIPE_CONFIG.
pub const VSC_PIPE_ENTRIES: u32 = 32;

/// Dwords [`program_vsc_layout`] takes.
pub const VSC_LAYOUT_DWORDS: usize = 2 * 2 + VSC_PIPE_ENTRIES as usize * 2;

/// One VSC pipe: its first bin's column and row, and how many bins it
/// covers across and down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VscPipe {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// A GMEM pass's bins as the binning pass sees them.
#[derive(Clone, Copy, Debug)]
pub struct VscLayout<'a> {
    pub bin_width: u32,
    pub bin_height: u32,
    /// Bins across and down.
    pub columns: u32,
    pub rows: u32,
    /// The pipes in use, pipe 0 first: no more than VSC_PIPE_CONFIG has
    /// entries (a layout with more fails to encode).
    pub pipes: &'a [VscPipe],
}

/// Programs `layout`'s bins and pipes.
pub fn program_vsc_layout<S: PacketSink>(s: &mut S, layout: &VscLayout) -> Result<(), S::Error> {
    s.reg(&regs::VscBinSize {
        width: layout.bin_width,
        height: layout.bin_height,
    })?;
    s.reg(&regs::VscBinCount {
        nx: layout.columns,
        ny: layout.rows,
    })?;
    let entries = VSC_PIPE_ENTRIES.max(layout.pipes.len() as u32);
    for p in 0..entries {
        let pipe = layout.pipes.get(p as usize).copied().unwrap_or_default();
        s.array_reg(
            &regs::VscPipeConfigReg {
                x: pipe.x,
                y: pipe.y,
                w: pipe.width,
                h: pipe.height,
            },
            p,
        )?;
    }
    Ok(())
}

/// Where the binning pass writes its draw streams: pipe p's at `base` +
/// p * `pitch`, each holding `pitch` bytes (a dword a draw), and a dword a
/// pipe at `sizes`, the bytes each stream holds.
#[derive(Clone, Copy, Debug)]
pub struct DrawStreams {
    pub base: u64,
    pub sizes: u64,
    pub pitch: u32,
}

/// Dwords [`program_draw_streams`] takes at most.
pub const DRAW_STREAMS_DWORDS: usize = 2 * 3 + 7;

/// Programs `streams`: VSC_DRAW_STRM_PITCH and VSC_DRAW_STRM_LIMIT (the
/// whole pitch: the driver sized the streams so that the pass's draws fit),
/// and the addresses, on a6xx in VSC_DRAW_STRM_ADDRESS and
/// VSC_DRAW_STRM_SIZE_ADDRESS, on a7xx with CP_SET_PSEUDO_REG
/// DRAW_STRM_ADDRESS and DRAW_STRM_SIZE_ADDRESS, as Turnip's a740 stream
/// gives them.
pub fn program_draw_streams<S: PacketSink>(
    s: &mut S,
    streams: &DrawStreams,
) -> Result<(), S::Error> {
    s.reg(&regs::VscDrawStrmPitch(streams.pitch))?;
    s.reg(&regs::VscDrawStrmLimit(streams.pitch))?;
    match s.chip() {
        Chip::A6xx => {
            s.reg(&regs::VscDrawStrmAddress(streams.base))?;
            s.reg(&regs::VscDrawStrmSizeAddress(streams.sizes))
        }
        Chip::A7xx => {
            let entry = |reg, at| -> Result<[u32; 3], S::Error> {
                let [lo, hi] = lo_hi(at);
                let dw0 = S::field(packets::CpSetPseudoRegDw0 { pseudo_reg: reg }.try_to_raw())?;
                Ok([dw0, lo, hi])
            };
            let [a0, a1, a2] = entry(PseudoReg::DRAW_STRM_ADDRESS, streams.base)?;
            let [b0, b1, b2] = entry(PseudoReg::DRAW_STRM_SIZE_ADDRESS, streams.sizes)?;
            s.packet(Opcode::CP_SET_PSEUDO_REG, &[a0, a1, a2, b0, b1, b2]);
            Ok(())
        }
    }
}

/// Dwords [`bin_stream`] takes.
pub const BIN_STREAM_DWORDS: usize = 5;

/// CP_SET_BIN_DATA5_OFFSET: the bin about to be rendered is bin `slot` of
/// `pipe` (whose rectangle holds `pipe_bins` bins); its draws read that
/// pipe's draw stream, `pipe` pitches from the first, and its size dword.
/// There is no primitive stream (BIN_DATA2_OFFSET 0): the driver's
/// binning pass keeps visibility per draw only.
pub fn bin_stream<S: PacketSink>(
    s: &mut S,
    streams: &DrawStreams,
    pipe: u32,
    slot: u32,
    pipe_bins: u32,
) -> Result<(), S::Error> {
    let dw0 = S::field(
        packets::CpSetBinData5OffsetDw0 {
            vsc_mask: 1 << slot,
            vsc_size: pipe_bins,
            vsc_n: slot,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    s.packet(
        Opcode::CP_SET_BIN_DATA5_OFFSET,
        &[dw0, pipe * streams.pitch, 4 * pipe, 0],
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;
    use parsnip_registers::Chip;

    #[test]
    fn more_pipes_than_the_hardware_has_fail_to_encode() {
        let pipes = vec![VscPipe::default(); VSC_PIPE_ENTRIES as usize + 1];
        let layout = VscLayout {
            bin_width: 96,
            bin_height: 32,
            columns: 33,
            rows: 1,
            pipes: &pipes,
        };
        let mut w = StateWriter::new(Chip::A6xx);
        assert!(program_vsc_layout(&mut w, &layout).is_err());
    }

    #[test]
    fn a_bin_selects_its_pipes_stream_as_turnip_does() {
        // a660 triangle_gmem-forcebin.log, the second bin (pipe 1, slot 0
        // of a one-bin pipe): 70ae0004 00010001 00001040 00000004 ..., a
        // draw stream pitch of 0x1040 (its BIN_DATA2_OFFSET, the primitive
        // stream's, is one this driver does not write).
        let streams = DrawStreams {
            base: 0x1_0000_0000,
            sizes: 0x1_0000_8000,
            pitch: 0x1040,
        };
        let mut w = StateWriter::new(Chip::A6xx);
        bin_stream(&mut w, &streams, 1, 0, 1).unwrap();
        assert_eq!(w.dwords.len(), BIN_STREAM_DWORDS);
        assert_eq!(&w.dwords[..4], &[0x70ae0004, 0x00010001, 0x1040, 4]);
        let mut w = StateWriter::new(Chip::A7xx);
        program_draw_streams(&mut w, &streams).unwrap();
        assert!(w.dwords.len() <= DRAW_STREAMS_DWORDS);
        // a740's stream: CP_SET_PSEUDO_REG (0x56), DRAW_STRM_ADDRESS (8)
        // and DRAW_STRM_SIZE_ADDRESS (9), each with its address.
        let at = w.dwords.len() - 7;
        assert_eq!(w.dwords[at] >> 16 & 0x7f, 0x56);
        assert_eq!(&w.dwords[at + 1..], &[8, 0, 1, 9, 0x8000, 1]);
    }
}
