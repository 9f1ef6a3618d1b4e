//! LRZ, the low-resolution Z unit: a buffer of one depth per block of
//! pixels that rejects fragments before the fragment shader runs
//! (freedreno docs, lrz.rst). With a depth test of direction LESS the
//! buffer holds, per block, a depth no nearer than any the depth buffer
//! holds there, so a fragment farther than it cannot pass; GREATER keeps
//! the other bound ("update MAX instead of MIN", GRAS_LRZ_CNTL.GREATER,
//! a6xx.xml).
//!
//! Per draw, when GRAS_LRZ_CNTL.ENABLE is set and the depth test is not
//! late (GRAS_SU_DEPTH_PLANE_CNTL.Z_MODE A6XX_LATE_Z disables "early z-test
//! and early-lrz test", a6xx.xml):
//! - direction tracking (GRAS_LRZ_CNTL.DISABLE_ON_WRONG_DIR on a6xx,
//!   GRAS_LRZ_CNTL2 on a7xx): the direction byte and depth view the last
//!   LRZ_CLEAR left decide whether LRZ works at all: a depth view other
//!   than GRAS_LRZ_DEPTH_VIEW, a disabled direction, or a draw whose
//!   GRAS_LRZ_CNTL.DIR is the other direction or LRZ_DIR_INVALID turns it
//!   off; with DIR_WRITE the draw's direction is stored, or "in case of
//!   mismatched direction writes 0 (disables LRZ)" (a6xx.xml);
//! - the test: each covered sample farther (nearer, for GREATER) than its
//!   LRZ pixel's value by more than one LRZ step is dropped; a pixel
//!   with no sample left is a fragment LRZ rejected, and counted. The one
//!   step of slack is the model's: it keeps rounding of the depth to the
//!   depth buffer's format from ever letting LRZ reject a fragment the
//!   depth test keeps (lrz.rst finds the hardware's comparison has slack);
//! - the write (GRAS_LRZ_CNTL.LRZ_WRITE, unless GRAS_BIN_CONTROL.
//!   FORCE_LRZ_WRITE_DIS): an LRZ pixel a primitive covers entirely takes
//!   the primitive's farthest depth there, rounded away from the viewer,
//!   if that is nearer than its value. A partly covered one keeps its
//!   value, which stays a bound.
//! - fast clear (GRAS_LRZ_CNTL.FC_ENABLE on a6xx, GRAS_LRZ_CNTL2 on a7xx):
//!   an LRZ pixel whose fast-clear bit is 0 holds the clear value, 1.0
//!   for LESS and 0.0 for GREATER on a6xx, GRAS_LRZ_CLEAR_DEPTH_F32 on
//!   a7xx; the first write to a block fills it with that value and sets
//!   its bit (lrz.rst, "LRZ Fast-Clear").
//!
//! LRZ_CLEAR zeroes the fast-clear bits when FC_ENABLE is set and, with
//! direction tracking, sets the direction to "not set" and stores the
//! depth view (how Turnip's tu_lrz.cc relies on the event, with those two
//! bits, at the start of a render pass). LRZ_FLUSH writes the LRZ unit's
//! own caches back (lrz.rst, "LRZ Caches"); the model's LRZ unit keeps
//! none, reading and writing memory as the other units do (through UCHE
//! with strict caches), so it has nothing to do.
//!
//! Not modelled: LRZ in the binning pass (the hardware builds the buffer
//! there too; the model builds it while rendering, which gives a bound
//! that is as correct, only later), LRZ feedback from draws without
//! LRZ_WRITE (GRAS_BIN_CONTROL.LRZ_FEEDBACK_ZMODE_MASK), depth bounds
//! (Z_BOUNDS_ENABLE) and a7xx's second-direction buffer.

pub(crate) mod layout;

use std::collections::HashMap;

use parsnip_registers::enums::{A6xxLrzDirStatus, A6xxZtestMode};
use parsnip_registers::regs::{self, a6xx, a7xx, Register};
use parsnip_registers::Chip;

use crate::draw_context::{DrawContext, DrawError};
use crate::gras::coverage::Quad;
use crate::gras::samples::SamplePattern;
use crate::gras::setup::PrimitiveSetup;
use crate::memory::AddressSpace;
use crate::register_file::RegisterFile;
use crate::report::Unit;
use layout::{direction, lrz_pixel_size, FastClearLayout, LrzLayout, FC_BLOCK};

const U: Unit = Unit::Lrz;

/// One LRZ step: Z16_UNORM ("LRZ always uses Z16_UNORM", lrz.rst).
const STEP: f64 = 65535.0;

/// GRAS_LRZ_CNTL (and a7xx's GRAS_LRZ_CNTL2) as one generation-neutral
/// value. A context that never wrote them has LRZ off (reset value 0),
/// so they are read without the strict check.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LrzControl {
    pub enable: bool,
    pub write: bool,
    pub greater: bool,
    pub fast_clear: bool,
    pub dir: A6xxLrzDirStatus,
    pub dir_write: bool,
    pub track_direction: bool,
}

impl LrzControl {
    pub fn read(regs: &RegisterFile) -> LrzControl {
        let raw = |offset: Option<u32>| offset.map_or(0, |o| regs.read(o));
        match regs.chip() {
            Chip::A6xx => {
                let c = a6xx::GrasLrzCntl::from_raw(raw(a6xx::GrasLrzCntl::offset(Chip::A6xx)));
                LrzControl {
                    enable: c.enable,
                    write: c.lrz_write,
                    greater: c.greater,
                    fast_clear: c.fc_enable,
                    dir: c.dir,
                    dir_write: c.dir_write,
                    track_direction: c.disable_on_wrong_dir,
                }
            }
            Chip::A7xx => {
                let c = a7xx::GrasLrzCntl::from_raw(raw(a7xx::GrasLrzCntl::offset(Chip::A7xx)));
                let c2 = regs::GrasLrzCntl2::from_raw(raw(regs::GrasLrzCntl2::offset(Chip::A7xx)));
                LrzControl {
                    enable: c.enable,
                    write: c.lrz_write,
                    greater: c.greater,
                    fast_clear: c2.fc_enable,
                    dir: c.dir,
                    dir_write: c.dir_write,
                    track_direction: c2.disable_on_wrong_dir,
                }
            }
        }
    }
}

/// What LRZ_CLEAR does, with the registers as they are.
pub(crate) fn clear_event(regs: &RegisterFile, memory: &AddressSpace) -> Result<(), DrawError> {
    let c = LrzControl::read(regs);
    if !(c.fast_clear || c.track_direction) {
        return Ok(());
    }
    let fc_base = programmed::<regs::GrasLrzFastClearBufferBase>(regs)?;
    let fc = FastClearLayout::of(regs.chip());
    let write = |at: u64, bytes: &[u8]| {
        memory
            .write(fc_base + at, bytes)
            .map_err(|f| DrawError::fault(U, f))
    };
    if c.fast_clear {
        write(0, &vec![0u8; fc.bits as usize])?;
        for &(at, len) in fc.other_bits {
            write(at, &vec![0u8; len as usize])?;
        }
        if let Some(at) = fc.clear_depth {
            let depth = programmed::<regs::GrasLrzClearDepthF32>(regs)? as u32;
            write(at, &depth.to_le_bytes())?;
        }
    }
    if c.track_direction {
        let view = programmed::<regs::GrasLrzDepthView>(regs)? as u32;
        write(fc.direction, &[direction::NOT_SET])?;
        write(fc.depth_view, &view.to_le_bytes())?;
    }
    Ok(())
}

fn register_error(e: crate::register_file::RegisterReadError) -> DrawError {
    DrawError::Unit {
        unit: U,
        problem: crate::report::UnitProblem::Register(e),
    }
}

fn programmed<R: Register>(regs: &RegisterFile) -> Result<u64, DrawError> {
    regs.programmed::<R>().map_err(register_error)
}

/// The farthest (LESS) or nearest (GREATER) depth of a primitive's
/// samples in one LRZ pixel, and how many of its pixels it covers whole.
#[derive(Clone, Copy, Debug)]
struct Pending {
    pixels: u32,
    extreme: f64,
}

/// The LRZ unit of one draw.
pub(crate) struct Lrz {
    layout: LrzLayout,
    greater: bool,
    write: bool,
    fast_clear: Option<(u64, u16)>,
    samples: SamplePattern,
    full: u32,
    /// Values read or written in this draw, by address.
    values: HashMap<u64, u16>,
    /// The current primitive's fully covered pixels, by LRZ pixel.
    pending: HashMap<(u32, u32, u32), Pending>,
    /// Fragments (pixels) the test rejected.
    pub rejected: u64,
}

impl Lrz {
    /// The LRZ unit of a draw, `None` when LRZ is off for it. Direction
    /// tracking updates the direction byte here, as the hardware does when
    /// the draw's GRAS_LRZ_CNTL is used.
    pub fn read(ctx: &DrawContext, samples: SamplePattern) -> Result<Option<Lrz>, DrawError> {
        let c = LrzControl::read(ctx.regs);
        if !c.enable {
            return Ok(None);
        }
        let z_mode = regs::GrasSuDepthPlaneCntl::from_raw(
            ctx.reg32::<regs::GrasSuDepthPlaneCntl>(Unit::Gras)?,
        )
        .z_mode;
        if z_mode == A6xxZtestMode::A6XX_LATE_Z {
            return Ok(None);
        }
        let fc = FastClearLayout::of(ctx.chip());
        let fc_base = if c.fast_clear || c.track_direction {
            Some(ctx.reg::<regs::GrasLrzFastClearBufferBase>(U)?)
        } else {
            None
        };
        if let (true, Some(base)) = (c.track_direction, fc_base) {
            if !Self::direction_allows(ctx, &c, base, &fc)? {
                return Ok(None);
            }
        }
        let pitch = regs::GrasLrzBufferPitch::from_raw(ctx.reg32::<regs::GrasLrzBufferPitch>(U)?);
        if pitch.pitch == 0 {
            return Err(DrawError::bad_state(U, "GRAS_LRZ_BUFFER_PITCH.PITCH is 0"));
        }
        let layout = LrzLayout {
            base: ctx.reg::<regs::GrasLrzBufferBase>(U)?,
            pitch: pitch.pitch,
            array_pitch: pitch.array_pitch,
            pixel: lrz_pixel_size(samples.count),
        };
        let fast_clear = match (c.fast_clear, fc_base) {
            (true, Some(base)) => {
                let value = match fc.clear_depth {
                    Some(at) => {
                        let z = f64::from(f32::from_bits(read_u32(ctx.memory, base + at)?));
                        quantize(z, !c.greater)
                    }
                    None if c.greater => 0,
                    None => u16::MAX,
                };
                Some((base, value))
            }
            _ => None,
        };
        // Unwritten, GRAS_BIN_CONTROL is its reset value 0 (sysmem).
        let force_write_off = match ctx.chip() {
            Chip::A6xx => a6xx::GrasBinControl::offset(Chip::A6xx)
                .map(|o| a6xx::GrasBinControl::from_raw(ctx.regs.read(o)).force_lrz_write_dis),
            Chip::A7xx => a7xx::GrasBinControl::offset(Chip::A7xx)
                .map(|o| a7xx::GrasBinControl::from_raw(ctx.regs.read(o)).force_lrz_write_dis),
        }
        .unwrap_or(false);
        let (w, h) = layout.pixel;
        Ok(Some(Lrz {
            layout,
            greater: c.greater,
            write: c.write && !force_write_off,
            fast_clear,
            samples,
            full: w * h,
            values: HashMap::new(),
            pending: HashMap::new(),
            rejected: 0,
        }))
    }

    /// Direction tracking: whether LRZ works for this draw, storing the
    /// direction it leaves.
    fn direction_allows(
        ctx: &DrawContext,
        c: &LrzControl,
        base: u64,
        fc: &FastClearLayout,
    ) -> Result<bool, DrawError> {
        let view = ctx.reg32::<regs::GrasLrzDepthView>(U)?;
        let mut byte = [0u8];
        ctx.memory
            .read(base + fc.direction, &mut byte)
            .map_err(|f| DrawError::fault(U, f))?;
        let stored = byte[0];
        let stored_view = read_u32(ctx.memory, base + fc.depth_view)?;
        let drawn = match c.dir {
            A6xxLrzDirStatus::LRZ_DIR_LE => Some(direction::LESS),
            A6xxLrzDirStatus::LRZ_DIR_GE => Some(direction::GREATER),
            A6xxLrzDirStatus::LRZ_DIR_INVALID => Some(direction::DISABLED),
            _ => None,
        };
        let (allowed, next) = if stored_view != view {
            (false, stored)
        } else {
            match (stored, drawn) {
                (direction::DISABLED, _) => (false, direction::DISABLED),
                (_, Some(direction::DISABLED)) => (false, direction::DISABLED),
                (direction::NOT_SET, Some(d)) => (true, d),
                (s, Some(d)) if s != d => (false, direction::DISABLED),
                (s, _) if s > direction::NOT_SET => (false, s),
                (s, _) => (true, s),
            }
        };
        if c.dir_write && next != stored {
            ctx.memory
                .write(base + fc.direction, &[next])
                .map_err(|f| DrawError::fault(U, f))?;
        }
        Ok(allowed)
    }

    fn value(
        &mut self,
        memory: &AddressSpace,
        layer: u32,
        lx: u32,
        ly: u32,
    ) -> Result<u16, DrawError> {
        let Some(at) = self.layout.address(layer, lx, ly) else {
            // Past the buffer's pitch: no bound is known.
            return Ok(if self.greater { 0 } else { u16::MAX });
        };
        if let Some(&v) = self.values.get(&at) {
            return Ok(v);
        }
        let v = match self.fast_clear {
            Some((base, clear)) if !self.fast_clear_bit(memory, base, layer, lx, ly)? => clear,
            _ => {
                let mut b = [0u8; 2];
                memory
                    .read(at, &mut b)
                    .map_err(|f| DrawError::fault(U, f))?;
                u16::from_le_bytes(b)
            }
        };
        self.values.insert(at, v);
        Ok(v)
    }

    fn fast_clear_bit(
        &self,
        memory: &AddressSpace,
        base: u64,
        layer: u32,
        lx: u32,
        ly: u32,
    ) -> Result<bool, DrawError> {
        let (byte, bit) = self.layout.fast_clear_bit(layer, lx, ly);
        let mut b = [0u8];
        memory
            .read(base + byte, &mut b)
            .map_err(|f| DrawError::fault(U, f))?;
        Ok(b[0] >> bit & 1 != 0)
    }

    /// Writes LRZ pixel (lx, ly): a fast-cleared block is first filled
    /// with its clear value and marked written.
    fn store(
        &mut self,
        memory: &AddressSpace,
        layer: u32,
        lx: u32,
        ly: u32,
        v: u16,
    ) -> Result<(), DrawError> {
        let Some(at) = self.layout.address(layer, lx, ly) else {
            return Ok(());
        };
        if let Some((base, clear)) = self.fast_clear {
            if !self.fast_clear_bit(memory, base, layer, lx, ly)? {
                let (bx, by) = (lx / FC_BLOCK.0 * FC_BLOCK.0, ly / FC_BLOCK.1 * FC_BLOCK.1);
                for y in by..by + FC_BLOCK.1 {
                    for x in bx..bx + FC_BLOCK.0 {
                        if let Some(a) = self.layout.address(layer, x, y) {
                            memory
                                .write(a, &clear.to_le_bytes())
                                .map_err(|f| DrawError::fault(U, f))?;
                            self.values.insert(a, clear);
                        }
                    }
                }
                let (byte, bit) = self.layout.fast_clear_bit(layer, lx, ly);
                let mut b = [0u8];
                memory
                    .read(base + byte, &mut b)
                    .map_err(|f| DrawError::fault(U, f))?;
                memory
                    .write(base + byte, &[b[0] | 1 << bit])
                    .map_err(|f| DrawError::fault(U, f))?;
            }
        }
        memory
            .write(at, &v.to_le_bytes())
            .map_err(|f| DrawError::fault(U, f))?;
        self.values.insert(at, v);
        Ok(())
    }

    /// Tests a quad of `setup`'s primitive, noting first what it covers for
    /// the write; returns the quad without the samples LRZ rejected.
    pub fn quad(
        &mut self,
        ctx: &DrawContext,
        setup: &PrimitiveSetup,
        mut quad: Quad,
    ) -> Result<Quad, DrawError> {
        let all = (1u32 << self.samples.count) - 1;
        for p in 0..4 {
            let cov = quad.coverage[p];
            if cov == 0 {
                continue;
            }
            let (x, y) = quad.pixel(p);
            let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) else {
                continue;
            };
            let (lx, ly) = self.layout.lrz_pixel(x, y);
            let mut extreme = if self.greater { f64::MAX } else { f64::MIN };
            let mut kept = cov;
            let bound = f64::from(self.value(ctx.memory, setup.layer, lx, ly)?);
            for s in 0..self.samples.count {
                if cov >> s & 1 == 0 {
                    continue;
                }
                let (sx, sy) = self.samples.positions[s];
                let z = setup.depth(f64::from(x) + f64::from(sx), f64::from(y) + f64::from(sy));
                extreme = if self.greater {
                    extreme.min(z)
                } else {
                    extreme.max(z)
                };
                let beyond = if self.greater {
                    z * STEP < bound - 1.0
                } else {
                    z * STEP > bound + 1.0
                };
                if beyond {
                    kept &= !(1 << s);
                }
            }
            if self.write && cov & all == all {
                let e = self
                    .pending
                    .entry((setup.layer, lx, ly))
                    .or_insert(Pending { pixels: 0, extreme });
                e.pixels += 1;
                e.extreme = if self.greater {
                    e.extreme.min(extreme)
                } else {
                    e.extreme.max(extreme)
                };
            }
            if kept == 0 {
                self.rejected += 1;
            }
            quad.coverage[p] = kept;
        }
        Ok(quad)
    }

    /// Strict mode: every sample LRZ took from `before` (leaving `after`)
    /// must be one the depth test drops too (`keeps(x, y, sample, z)` says
    /// whether it would keep it); otherwise LRZ's buffer or direction
    /// disagrees with the depth test, which on hardware silently drops
    /// visible fragments.
    pub fn check_rejections(
        &mut self,
        ctx: &DrawContext,
        setup: &PrimitiveSetup,
        before: &Quad,
        after: &Quad,
        mut keeps: impl FnMut(i32, i32, usize, f32) -> Result<bool, DrawError>,
    ) -> Result<(), DrawError> {
        for p in 0..4 {
            let rejected = before.coverage[p] & !after.coverage[p];
            if rejected == 0 {
                continue;
            }
            let (x, y) = before.pixel(p);
            for s in 0..self.samples.count {
                if rejected >> s & 1 == 0 {
                    continue;
                }
                let (sx, sy) = self.samples.positions[s];
                let z = setup.depth(f64::from(x) + f64::from(sx), f64::from(y) + f64::from(sy));
                if keeps(x, y, s, z as f32)? {
                    let (lx, ly) = self.layout.lrz_pixel(x as u32, y as u32);
                    let v = self.value(ctx.memory, setup.layer, lx, ly)?;
                    return Err(DrawError::bad_state(
                        U,
                        format!(
                            "strict mode: LRZ rejected pixel ({x}, {y}) at depth {z}, which the \
                             depth test keeps: LRZ pixel ({lx}, {ly}) holds {:.6} ({v:#06x}), a \
                             bound for a {} depth test (GRAS_LRZ_CNTL.GREATER {}). The LRZ buffer \
                             is stale or was built in the other direction: a driver must clear \
                             LRZ (LRZ_CLEAR or a clear of the buffer) before it is used, and \
                             disable it (or let direction tracking do so) when the depth test \
                             turns around",
                            f64::from(v) / STEP,
                            if self.greater { "GREATER" } else { "LESS" },
                            self.greater
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The end of a primitive: the LRZ pixels it covered whole take its
    /// bound where that is nearer.
    pub fn end_primitive(&mut self, memory: &AddressSpace) -> Result<(), DrawError> {
        let pending: Vec<_> = self.pending.drain().collect();
        for ((layer, lx, ly), p) in pending {
            if p.pixels < self.full {
                continue;
            }
            let old = self.value(memory, layer, lx, ly)?;
            let new = quantize(p.extreme, !self.greater);
            let v = if self.greater {
                old.max(new)
            } else {
                old.min(new)
            };
            if v != old {
                self.store(memory, layer, lx, ly, v)?;
            }
        }
        Ok(())
    }
}

/// A depth as an LRZ value, rounded up (`up`) or down.
fn quantize(z: f64, up: bool) -> u16 {
    let v = z.clamp(0.0, 1.0) * STEP;
    (if up { v.ceil() } else { v.floor() }) as u16
}

fn read_u32(memory: &AddressSpace, at: u64) -> Result<u32, DrawError> {
    memory.read_u32(at).map_err(|f| DrawError::fault(U, f))
}
