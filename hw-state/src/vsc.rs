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

use parsnip_registers::regs;

use crate::sink::PacketSink;

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
}
