//! The visibility stream compressor: what the binning pass records of each
//! draw, and what bin rendering reads back to skip draws.
//!
//! State (a6xx.xml): VSC_BIN_SIZE (a bin's pixels), VSC_BIN_COUNT (bins
//! across and down), VSC_PIPE_CONFIG[p] (the rectangle of bins pipe p
//! covers), and VSC_DRAW_STRM_ADDRESS / _PITCH / _LIMIT (pipe p's draw
//! stream at ADDRESS + p * PITCH, of at most LIMIT bytes), with the size
//! buffer at VSC_DRAW_STRM_SIZE_ADDRESS (a dword a pipe). Bins are counted
//! from the framebuffer's origin; within a pipe a bin's slot is its index
//! in the pipe's rectangle, row by row (Turnip's CP_SET_BIN_DATA5 VSC_N).
//!
//! The stream's format is not public, and drivers treat it as opaque; the
//! model's: one dword a draw (each draw of the pass that uses the
//! visibility stream, in order), bit `slot` set when the draw covers a
//! sample of that bin of the pipe. The binning pass also sets bit `slot`
//! of VSC_STATE[p] for each bin something covers (drivers skip the loads
//! and stores of empty bins on it) and writes the bytes a pipe's stream
//! holds to the size buffer and, on a6xx, to VSC_DRAW_STRM_SIZE[p]. The
//! model does not write primitive streams (VSC_PRIM_STRM_*): a draw is
//! skipped or drawn whole.

use parsnip_registers::regs::{self, ArrayRegister, Register};

use crate::draw_context::DrawError;
use crate::gras::coverage::Quad;
use crate::gras::setup::PrimitiveSetup;
use crate::gras::FragmentSink;
use crate::register_file::RegisterFile;
use crate::report::{Unit, UnitProblem};

/// Pipes the VSC has.
pub const PIPES: usize = 32;

/// One pipe's rectangle of bins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pipe {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

/// The bins of a binning pass and the pipes that group them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BinGrid {
    bin_w: u32,
    bin_h: u32,
    nx: u32,
    ny: u32,
    pipes: Vec<Pipe>,
}

fn err(e: crate::register_file::RegisterReadError) -> DrawError {
    DrawError::Unit {
        unit: Unit::Vsc,
        problem: UnitProblem::Register(e),
    }
}

fn read<R: Register>(regs: &RegisterFile) -> Result<u32, DrawError> {
    regs.programmed::<R>().map(|v| v as u32).map_err(err)
}

impl BinGrid {
    pub fn read(regs: &RegisterFile) -> Result<BinGrid, DrawError> {
        let size = regs::VscBinSize::from_raw(read::<regs::VscBinSize>(regs)?);
        let count = regs::VscBinCount::from_raw(read::<regs::VscBinCount>(regs)?);
        if size.width == 0 || size.height == 0 {
            return Err(DrawError::bad_state(
                Unit::Vsc,
                format!(
                    "VSC_BIN_SIZE is {}x{}: a binning pass needs bins",
                    size.width, size.height
                ),
            ));
        }
        let mut pipes = Vec::new();
        for p in 0..PIPES as u32 {
            let c = regs::VscPipeConfigReg::from_raw(
                regs.programmed_at::<regs::VscPipeConfigReg>(p)
                    .map_err(err)? as u32,
            );
            pipes.push(Pipe {
                x: c.x,
                y: c.y,
                w: c.w,
                h: c.h,
            });
        }
        Ok(BinGrid {
            bin_w: size.width,
            bin_h: size.height,
            nx: count.nx,
            ny: count.ny,
            pipes,
        })
    }

    /// The pipe and slot of the bin that holds pixel (x, y), if a pipe
    /// covers it.
    fn bin_of(&self, x: i32, y: i32) -> Option<(usize, u32)> {
        let (bx, by) = (
            u32::try_from(x).ok()? / self.bin_w,
            u32::try_from(y).ok()? / self.bin_h,
        );
        if bx >= self.nx || by >= self.ny {
            return None;
        }
        self.pipes.iter().enumerate().find_map(|(i, p)| {
            let inside = (p.x..p.x + p.w).contains(&bx) && (p.y..p.y + p.h).contains(&by);
            inside.then(|| (i, (by - p.y) * p.w + (bx - p.x)))
        })
    }

    /// The pipes that hold bins.
    pub fn used_pipes(&self) -> impl Iterator<Item = usize> + '_ {
        self.pipes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.w * p.h > 0)
            .map(|(i, _)| i)
    }
}

/// Which bins of each pipe one draw covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawVisibility {
    pub pipes: [u32; PIPES],
}

/// Where the binning pass's rasterizer puts its quads: the bins they are
/// in. Nothing is shaded and nothing is written.
pub(crate) struct BinningSink<'a> {
    pub grid: &'a BinGrid,
    pub visibility: DrawVisibility,
}

impl FragmentSink for BinningSink<'_> {
    fn primitive(
        &mut self,
        _setup: &PrimitiveSetup,
        _vertices: [&[u32]; 3],
        _provoking: &[u32],
    ) -> Result<(), DrawError> {
        Ok(())
    }

    fn quad(&mut self, quad: Quad) -> Result<(), DrawError> {
        for p in 0..4 {
            if quad.coverage[p] == 0 {
                continue;
            }
            let (x, y) = quad.pixel(p);
            if let Some((pipe, slot)) = self.grid.bin_of(x, y) {
                self.visibility.pipes[pipe] |= 1 << slot;
            }
        }
        Ok(())
    }
}

/// VSC_DRAW_STRM_PITCH and VSC_DRAW_STRM_LIMIT: the bytes between pipes'
/// draw streams, and the bytes one may hold.
pub fn stream_pitch_and_limit(regs: &RegisterFile) -> Result<(u32, u32), DrawError> {
    Ok((
        read::<regs::VscDrawStrmPitch>(regs)?,
        read::<regs::VscDrawStrmLimit>(regs)?,
    ))
}

/// VSC_STATE[p]'s offset, for the CP to update.
pub fn state_register(regs: &RegisterFile, pipe: usize) -> Option<u32> {
    <regs::VscStateReg as ArrayRegister>::offset(regs.chip(), pipe as u32).ok()
}
