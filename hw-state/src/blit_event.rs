//! The resolve engine's blit events: clearing a surface in GMEM, loading
//! it from memory (a restore) and storing it to memory (a resolve).
//!
//! A blit event works on the GMEM surface at RB_BLIT_BASE_GMEM with
//! RB_BLIT_GMEM_MSAA_CNTL's samples, laid out for the bin of
//! RB_BIN_CONTROL2 at RB_WINDOW_OFFSET2, the memory surface of
//! RB_BLIT_DST_INFO / RB_BLIT_DST / RB_BLIT_DST_PITCH (and its UBWC flags),
//! and the pixels of RB_BLIT_SCISSOR inside the bin; RB_BLIT_INFO says
//! which (a6xx.xml). A clear takes its value from RB_BLIT_CLEAR_COLOR_DW0-3
//! (the GMEM element's bits), and writes the components of CLEAR_MASK (for
//! a depth surface, RB_BLIT_INFO.DEPTH: 1 depth, 2 stencil). The event is
//! CP_EVENT_WRITE BLIT, on a7xx CP_EVENT_WRITE7 BLIT with a 32-bit user
//! write to RAM, as Turnip's streams emit it (a740 triangle_gmem.log).
//! Before a clear Turnip writes RB_UNKNOWN_88D0 = 0 and, on a7xx,
//! RB_BLIT_CLEAR_MODE = CLEAR_MODE_GMEM.

use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xxBlitEventType, A6xxFormat, A6xxTileMode, A7xxBlitClearMode,
    VgtEventType,
};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use crate::events::event;
use crate::sink::PacketSink;

/// One attachment's surface in GMEM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GmemSurface {
    /// Its GMEM offset (a multiple of 4 KiB: RB_BLIT_BASE_GMEM keeps bits
    /// 12-31).
    pub base: u32,
    pub format: A6xxFormat,
    pub samples: A3xxMsaaSamples,
    /// A depth/stencil surface (its clear mask names depth and stencil,
    /// and a store takes sample 0: depth is not averaged).
    pub depth: bool,
}

/// The attachment's surface in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemorySurface {
    pub base: u64,
    pub pitch: u32,
    pub tile_mode: A6xxTileMode,
    pub swap: A3xxColorSwap,
    /// UBWC flags: their address and pitch.
    pub flags: Option<(u64, u32)>,
}

/// What a blit event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlitOp {
    /// Fill the GMEM surface's `mask` components with `value` (the
    /// element's bits, little-endian from DW0).
    Clear { value: [u32; 4], mask: u32 },
    /// Memory into GMEM.
    Load(MemorySurface),
    /// GMEM into memory.
    Store(MemorySurface),
}

/// Pixels a blit event covers, inclusive corners in framebuffer pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlitScissor {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

/// Dwords [`blit_event`] takes at most: 15 register writes of at most 3
/// dwords, and the event.
pub const BLIT_EVENT_DWORDS: usize = 15 * 3 + 2;

/// One blit event of `op` on `gmem` within `scissor`.
pub fn blit_event<S: PacketSink>(
    s: &mut S,
    scissor: BlitScissor,
    gmem: &GmemSurface,
    op: BlitOp,
) -> Result<(), S::Error> {
    let chip = s.chip();
    s.reg(&regs::RbBlitScissorTl {
        x: scissor.x0,
        y: scissor.y0,
    })?;
    s.reg(&regs::RbBlitScissorBr {
        x: scissor.x1,
        y: scissor.y1,
    })?;
    s.reg(&regs::RbBlitGmemMsaaCntl {
        samples: gmem.samples,
    })?;
    let (kind, clear_mask, memory) = match op {
        BlitOp::Clear { mask, .. } => (A6xxBlitEventType::BLIT_EVENT_CLEAR, mask, None),
        BlitOp::Load(m) => (A6xxBlitEventType::BLIT_EVENT_LOAD, 0, Some(m)),
        BlitOp::Store(m) => (A6xxBlitEventType::BLIT_EVENT_STORE, 0, Some(m)),
    };
    // A clear has no memory side; its info still names the format.
    let m = memory.unwrap_or(MemorySurface {
        base: 0,
        pitch: 0,
        tile_mode: A6xxTileMode::TILE6_LINEAR,
        swap: A3xxColorSwap::WZYX,
        flags: None,
    });
    // Loads and stores move the attachment's own samples (a store into a
    // single-sample surface would be a resolve, which this does not ask).
    let samples = gmem.samples;
    match chip {
        Chip::A6xx => s.reg(&a6xx::RbBlitDstInfo {
            tile_mode: m.tile_mode,
            flags: m.flags.is_some(),
            samples,
            color_swap: m.swap,
            color_format: gmem.format,
            ..Default::default()
        })?,
        Chip::A7xx => s.reg(&a7xx::RbBlitDstInfo {
            tile_mode: m.tile_mode,
            flags: m.flags.is_some(),
            samples,
            color_swap: m.swap,
            color_format: gmem.format,
            ..Default::default()
        })?,
    }
    s.reg(&regs::RbBlitInfo {
        r#type: kind,
        depth: gmem.depth,
        sample_0: gmem.depth && matches!(op, BlitOp::Store(_)),
        clear_mask,
        ..Default::default()
    })?;
    s.reg(&regs::RbBlitBaseGmem(gmem.base))?;
    if let Some(m) = memory {
        s.reg(&regs::RbBlitDst(m.base))?;
        s.reg(&regs::RbBlitDstPitch(m.pitch))?;
        if let Some((base, pitch)) = m.flags {
            s.reg(&regs::RbBlitFlagDst(base))?;
            s.reg(&regs::RbBlitFlagDstPitch {
                pitch,
                ..Default::default()
            })?;
        }
    }
    if let BlitOp::Clear { value, .. } = op {
        s.reg(&regs::RbUnknown88d0::default())?;
        if chip == Chip::A7xx {
            s.reg(&regs::RbBlitClearMode {
                clear_mode: A7xxBlitClearMode::CLEAR_MODE_GMEM,
            })?;
        }
        s.reg(&regs::RbBlitClearColorDw0(value[0]))?;
        s.reg(&regs::RbBlitClearColorDw1(value[1]))?;
        s.reg(&regs::RbBlitClearColorDw2(value[2]))?;
        s.reg(&regs::RbBlitClearColorDw3(value[3]))?;
    }
    event(s, VgtEventType::BLIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;

    #[test]
    fn a_clear_and_a_store_write_turnips_registers() {
        // a660 triangle_gmem.log: the clear of the RGBA8 attachment:
        // RB_BLIT_DST_INFO 0x00001800, RB_BLIT_INFO 0x000000f2, the value
        // 0xff4c331a; its store: RB_BLIT_DST_INFO 0x00001807 (TILE6_3,
        // FLAGS), RB_BLIT_INFO 0 (STORE), then CP_EVENT_WRITE BLIT
        // (70460001 0000001e).
        let gmem = GmemSurface {
            base: 0,
            format: A6xxFormat::FMT6_8_8_8_8_UNORM,
            samples: A3xxMsaaSamples::MSAA_ONE,
            depth: false,
        };
        let scissor = BlitScissor {
            x0: 0,
            y0: 0,
            x1: 63,
            y1: 63,
        };
        let mut w = StateWriter::new(Chip::A6xx);
        let value = [0xff4c_331a, 0, 0, 0];
        blit_event(&mut w, scissor, &gmem, BlitOp::Clear { value, mask: 0xf }).unwrap();
        assert!(w.dwords.len() <= BLIT_EVENT_DWORDS);
        let find = |w: &StateWriter, offset: u32| {
            let at = w
                .dwords
                .iter()
                .position(|d| d >> 8 & 0x3ffff == offset && d >> 28 == 4)
                .unwrap_or_else(|| panic!("{offset:#x} written"));
            w.dwords[at + 1]
        };
        assert_eq!(find(&w, 0x88d7), 0x1800);
        assert_eq!(find(&w, 0x88e3), 0xf2);
        assert_eq!(find(&w, 0x88df), 0xff4c_331a);
        assert_eq!(&w.dwords[w.dwords.len() - 2..], &[0x7046_0001, 0x1e]);

        let mut w = StateWriter::new(Chip::A6xx);
        let memory = MemorySurface {
            base: 0x1_0002_7000,
            pitch: 256,
            tile_mode: A6xxTileMode::TILE6_3,
            swap: A3xxColorSwap::WZYX,
            flags: Some((0x1_0002_6000, 64)),
        };
        blit_event(&mut w, scissor, &gmem, BlitOp::Store(memory)).unwrap();
        assert!(w.dwords.len() <= BLIT_EVENT_DWORDS);
        assert_eq!(find(&w, 0x88d7), 0x1807);
        assert_eq!(find(&w, 0x88e3), 0);
        assert_eq!(find(&w, 0x88da), 256 >> 6);
    }
}
