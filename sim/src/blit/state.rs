//! The 2D engine's control state, read through strict mode when a CP_BLIT
//! runs: RB_2D_BLIT_CNTL and its GRAS copy, SP_2D_DST_FORMAT,
//! RB_2D_UNKNOWN_8C01, the destination rectangle (GRAS_2D_DST_TL/BR), and
//! either the solid colour (RB_2D_SRC_SOLID_C0-3) or the source rectangle
//! (GRAS_2D_SRC_*), with GRAS_2D_RESOLVE_CNTL_1/2 when SCISSOR is set.
//!
//! Facts (a6xx.xml, and what Turnip's tu_clear_blit.cc programs):
//! - IFMT is the internal format the engine works in, chosen from the
//!   destination: 8-bit normalized (and sRGB), half and single floats,
//!   8/16/32-bit integers, or raw bits.
//! - The solid colour is per component, in IFMT's terms: an 8-bit value
//!   for the UNORM8 paths (signed for SNORM destinations), a half for
//!   FLOAT16, the 32-bit value for FLOAT32 and the integer paths.
//! - ROTATE flips (HFLIP, VFLIP, and ROTATE_180 as both; Turnip maps
//!   mirrored vkCmdBlitImage regions onto them).
//! - RB_2D_UNKNOWN_8C01 is 0, or one of the two values Turnip writes to
//!   clear only D24S8's depth (0x08000041, keeping the stencil byte) or only
//!   its stencil (0x00084001).
//! - GRAS_2D_SRC_* are integers in bits 8-24 ("apparently signed").
//!
//! What is not public stops with an error naming it: MASK other than 0xf,
//! the UNK fields and OVERWRITEEN set, 90 and 270 degree rotations, other
//! RB_2D_UNKNOWN_8C01 values, the low 8 bits of GRAS_2D_SRC_*, and RB and
//! GRAS copies of BLIT_CNTL that differ. RASTER_MODE (the order the engine
//! walks the destination in) and D24S8 (which marks a depth/stencil blit
//! through the RGBA8 alias, for the hardware's compressor) change nothing
//! the model writes.

use parsnip_registers::enums::{A6xx2dIfmt, A6xxRotation};
use parsnip_registers::regs::{self, a6xx, a7xx, Register};
use parsnip_registers::Chip;

use crate::register_file::RegisterFile;
use crate::surface::SurfaceError;

/// An inclusive rectangle of pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x0: i64,
    pub y0: i64,
    pub x1: i64,
    pub y1: i64,
}

impl Rect {
    pub fn width(&self) -> i64 {
        self.x1 - self.x0 + 1
    }

    pub fn height(&self) -> i64 {
        self.y1 - self.y0 + 1
    }
}

/// The precision of the float path (IFMT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Precision {
    /// 8-bit normalized (the solid colour is 8-bit values; with `srgb`,
    /// sRGB-encoded ones).
    Unorm8 {
        srgb: bool,
    },
    /// Values round through 16-bit floats.
    Half,
    Single,
}

/// How the engine carries values from source to destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pipeline {
    /// Normalized and float formats.
    Float(Precision),
    Integer,
    Raw,
}

/// What the source is, when there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    Solid([u32; 4]),
    Surface(Rect),
}

/// The 2D engine's state for one CP_BLIT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlitState {
    pub pipeline: Pipeline,
    pub hflip: bool,
    pub vflip: bool,
    pub dst: Rect,
    pub scissor: Option<Rect>,
    pub source: Source,
    /// Destination components written (bit 0 for X).
    pub write_mask: u8,
    /// SP_2D_DST_FORMAT's integer flags: (SINT, UINT).
    pub dst_integer: (bool, bool),
}

fn read<R: Register>(regs: &RegisterFile) -> Result<u32, SurfaceError> {
    Ok(regs.programmed::<R>()? as u32)
}

fn not_public(what: String) -> SurfaceError {
    SurfaceError::NotModelled(what)
}

/// The fields of the BLIT_CNTL registers both chips have.
struct BlitCntl {
    rotate: A6xxRotation,
    overwrite: bool,
    unknown: u32,
    solid: bool,
    scissor: bool,
    mask: u32,
    ifmt: A6xx2dIfmt,
}

impl BlitState {
    pub fn read(regs: &RegisterFile) -> Result<BlitState, SurfaceError> {
        let chip = regs.chip();
        let rb = match chip {
            Chip::A6xx => read::<a6xx::Rb2dBlitCntl>(regs)?,
            Chip::A7xx => read::<a7xx::Rb2dBlitCntl>(regs)?,
        };
        let gras = match chip {
            Chip::A6xx => read::<a6xx::Gras2dBlitCntl>(regs)?,
            Chip::A7xx => read::<a7xx::Gras2dBlitCntl>(regs)?,
        };
        if rb != gras {
            return Err(not_public(format!(
                "RB_2D_BLIT_CNTL ({rb:#010x}) and GRAS_2D_BLIT_CNTL ({gras:#010x}) differ: what \
                 the 2D engine does then is not public (drivers write the same value to both)"
            )));
        }
        let cntl = match chip {
            Chip::A6xx => {
                let c = a6xx::Rb2dBlitCntl::from_raw(rb);
                BlitCntl {
                    rotate: c.rotate,
                    overwrite: c.overwriteen,
                    unknown: c.unk4 | c.unk17,
                    solid: c.solid_color,
                    scissor: c.scissor,
                    mask: c.mask,
                    ifmt: c.ifmt,
                }
            }
            Chip::A7xx => {
                let c = a7xx::Rb2dBlitCntl::from_raw(rb);
                BlitCntl {
                    rotate: c.rotate,
                    overwrite: c.overwriteen,
                    unknown: c.unk4 | c.unk17 | u32::from(c.unk30),
                    solid: c.solid_color,
                    scissor: c.scissor,
                    mask: c.mask,
                    ifmt: c.ifmt,
                }
            }
        };
        if cntl.mask != 0xf {
            return Err(not_public(format!(
                "RB_2D_BLIT_CNTL.MASK = {:#x}: a6xx.xml guesses a channel mask, but what it does \
                 is not public (drivers always write 0xf)",
                cntl.mask
            )));
        }
        if cntl.unknown != 0 || cntl.overwrite {
            return Err(not_public(format!(
                "RB_2D_BLIT_CNTL {rb:#010x} sets OVERWRITEEN or an UNK field: what they do is not \
                 public"
            )));
        }
        let (hflip, vflip) = match cntl.rotate {
            A6xxRotation::ROTATE_0 => (false, false),
            A6xxRotation::ROTATE_HFLIP => (true, false),
            A6xxRotation::ROTATE_VFLIP => (false, true),
            A6xxRotation::ROTATE_180 => (true, true),
            other => {
                return Err(not_public(format!(
                    "2D blit rotation {}: which way it turns is not public",
                    other.name(chip).unwrap_or("(unnamed)")
                )))
            }
        };
        let pipeline = match cntl.ifmt {
            A6xx2dIfmt::R2D_UNORM8 => Pipeline::Float(Precision::Unorm8 { srgb: false }),
            A6xx2dIfmt::R2D_UNORM8_SRGB => Pipeline::Float(Precision::Unorm8 { srgb: true }),
            A6xx2dIfmt::R2D_FLOAT16 => Pipeline::Float(Precision::Half),
            A6xx2dIfmt::R2D_FLOAT32 => Pipeline::Float(Precision::Single),
            A6xx2dIfmt::R2D_INT8 | A6xx2dIfmt::R2D_INT16 | A6xx2dIfmt::R2D_INT32 => {
                Pipeline::Integer
            }
            A6xx2dIfmt::R2D_RAW => Pipeline::Raw,
            other => {
                return Err(SurfaceError::Invalid(format!(
                    "RB_2D_BLIT_CNTL.IFMT {:#x}: no such internal format",
                    other.0
                )))
            }
        };

        let sp = regs::Sp2dDstFormat::from_raw(read::<regs::Sp2dDstFormat>(regs)?);
        if sp.mask != 0xf {
            return Err(not_public(format!(
                "SP_2D_DST_FORMAT.MASK = {:#x}: what it does is not public (drivers always write \
                 0xf)",
                sp.mask
            )));
        }
        let write_mask = match read::<regs::Rb2dUnknown8c01>(regs)? {
            0 => 0xf,
            0x0800_0041 => 0b0111,
            0x0008_4001 => 0b1000,
            other => {
                return Err(not_public(format!(
                    "RB_2D_UNKNOWN_8C01 = {other:#010x}: only 0 and Turnip's D24S8 depth-only \
                     (0x08000041) and stencil-only (0x00084001) values are known"
                )))
            }
        };

        let tl = regs::Gras2dDstTl::from_raw(read::<regs::Gras2dDstTl>(regs)?);
        let br = regs::Gras2dDstBr::from_raw(read::<regs::Gras2dDstBr>(regs)?);
        let dst = Rect {
            x0: tl.x.into(),
            y0: tl.y.into(),
            x1: br.x.into(),
            y1: br.y.into(),
        };
        let scissor = if cntl.scissor {
            let a = regs::Gras2dResolveCntl1::from_raw(read::<regs::Gras2dResolveCntl1>(regs)?);
            let b = regs::Gras2dResolveCntl2::from_raw(read::<regs::Gras2dResolveCntl2>(regs)?);
            Some(Rect {
                x0: a.x.into(),
                y0: a.y.into(),
                x1: b.x.into(),
                y1: b.y.into(),
            })
        } else {
            None
        };
        let source = if cntl.solid {
            Source::Solid([
                read::<regs::Rb2dSrcSolidC0>(regs)?,
                read::<regs::Rb2dSrcSolidC1>(regs)?,
                read::<regs::Rb2dSrcSolidC2>(regs)?,
                read::<regs::Rb2dSrcSolidC3>(regs)?,
            ])
        } else {
            // GRAS_2D_SRC_*: signed integers in bits 8-24.
            macro_rules! coordinate {
                ($r:ty) => {{
                    let raw = read::<$r>(regs)?;
                    if raw & 0xff != 0 {
                        return Err(not_public(format!(
                            "{} = {raw:#x}: its low 8 bits (a fraction?) are not public",
                            <$r>::NAME
                        )));
                    }
                    i64::from(<$r>::from_raw(raw).0)
                }};
            }
            Source::Surface(Rect {
                x0: coordinate!(regs::Gras2dSrcTlX),
                y0: coordinate!(regs::Gras2dSrcTlY),
                x1: coordinate!(regs::Gras2dSrcBrX),
                y1: coordinate!(regs::Gras2dSrcBrY),
            })
        };
        Ok(BlitState {
            pipeline,
            hflip,
            vflip,
            dst,
            scissor,
            source,
            write_mask,
            dst_integer: (sp.sint, sp.uint),
        })
    }
}
