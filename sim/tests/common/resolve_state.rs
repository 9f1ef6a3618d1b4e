//! A blit event's state, written by register name as Turnip writes it
//! (tu_clear_blit.cc's clear_gmem_attachment and tu_emit_blit, and
//! tu_cmd_buffer.cc's tu6_emit_bin_size and tu6_emit_window_offset).

use parsnip_registers::enums::{
    A3xxMsaaSamples, A6xxBlitEventType, A6xxFormat, A7xxBlitClearMode, VgtEventType,
};
use parsnip_registers::packets::{CpEventWrite7Dw0, CpEventWriteDw0};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use super::blit_state::Surf;
use super::Stream;

/// The bin the resolve engine works on: RB_BIN_CONTROL2 and
/// RB_WINDOW_OFFSET2.
pub fn resolve_bin(s: &mut Stream, x: u32, y: u32, w: u32, h: u32) {
    s.reg(&regs::RbBinControl2 { binw: w, binh: h });
    s.reg(&regs::RbWindowOffset2 { x, y });
}

/// One blit event and its state.
#[derive(Clone, Copy, Debug)]
pub struct BlitEvent {
    pub kind: A6xxBlitEventType,
    /// RB_BLIT_DST_INFO's format (both sides).
    pub format: A6xxFormat,
    pub gmem_base: u32,
    pub gmem_samples: A3xxMsaaSamples,
    /// The memory side, for stores, loads and sysmem clears.
    pub mem: Option<Surf>,
    /// Inclusive: (x0, y0, x1, y1).
    pub scissor: (u32, u32, u32, u32),
    pub clear: [u32; 4],
    pub clear_mask: u32,
    pub depth: bool,
    pub sample_0: bool,
    /// a7xx: RB_BLIT_CLEAR_MODE = CLEAR_MODE_SYSMEM.
    pub sysmem_clear: bool,
    pub unk15: bool,
    pub unknown_88d0: u32,
}

impl BlitEvent {
    fn new(kind: A6xxBlitEventType, format: A6xxFormat, gmem_base: u32) -> Self {
        Self {
            kind,
            format,
            gmem_base,
            gmem_samples: A3xxMsaaSamples::MSAA_ONE,
            mem: None,
            scissor: (0, 0, 0x3fff, 0x3fff),
            clear: [0; 4],
            clear_mask: 0xf,
            depth: false,
            sample_0: false,
            sysmem_clear: false,
            unk15: false,
            unknown_88d0: 0,
        }
    }

    /// A GMEM clear to `value` (the packed element, DW0 first).
    pub fn clear(format: A6xxFormat, gmem_base: u32, value: [u32; 4]) -> Self {
        Self {
            clear: value,
            ..Self::new(A6xxBlitEventType::BLIT_EVENT_CLEAR, format, gmem_base)
        }
    }

    /// A store of GMEM to `mem`.
    pub fn store(gmem_base: u32, mem: Surf) -> Self {
        Self {
            mem: Some(mem),
            ..Self::new(A6xxBlitEventType::BLIT_EVENT_STORE, mem.format, gmem_base)
        }
    }

    /// A load of `mem` into GMEM.
    pub fn load(gmem_base: u32, mem: Surf) -> Self {
        Self {
            mem: Some(mem),
            ..Self::new(A6xxBlitEventType::BLIT_EVENT_LOAD, mem.format, gmem_base)
        }
    }

    pub fn scissor(mut self, x0: u32, y0: u32, x1: u32, y1: u32) -> Self {
        self.scissor = (x0, y0, x1, y1);
        self
    }

    pub fn samples(mut self, samples: A3xxMsaaSamples) -> Self {
        self.gmem_samples = samples;
        self
    }

    /// Writes the state and the event.
    // The a7xx registers have fields besides the a6xx ones (MUTABLEEN).
    #[allow(clippy::needless_update)]
    pub fn emit(&self, s: &mut Stream) {
        let chip = s.chip;
        let (x0, y0, x1, y1) = self.scissor;
        s.reg(&regs::RbBlitScissorTl { x: x0, y: y0 });
        s.reg(&regs::RbBlitScissorBr { x: x1, y: y1 });
        s.reg(&regs::RbBlitGmemMsaaCntl {
            samples: self.gmem_samples,
        });
        let mem = self.mem;
        macro_rules! dst_info {
            ($chip:ident) => {
                s.reg(&$chip::RbBlitDstInfo {
                    tile_mode: mem.map_or(Default::default(), |m| m.tile_mode),
                    flags: mem.is_some_and(|m| m.flags.is_some()),
                    samples: mem.map_or(A3xxMsaaSamples::MSAA_ONE, |m| m.samples),
                    color_swap: mem.map_or(Default::default(), |m| m.swap),
                    color_format: self.format,
                    unk15: self.unk15,
                    ..Default::default()
                })
            };
        }
        match chip {
            Chip::A6xx => dst_info!(a6xx),
            Chip::A7xx => dst_info!(a7xx),
        };
        s.reg(&regs::RbBlitInfo {
            r#type: self.kind,
            sample_0: self.sample_0,
            depth: self.depth,
            clear_mask: self.clear_mask,
            ..Default::default()
        });
        s.reg(&regs::RbBlitBaseGmem(self.gmem_base));
        if let Some(m) = mem {
            s.reg(&regs::RbBlitDst(m.base));
            s.reg(&regs::RbBlitDstPitch(m.pitch));
            if let Some((flags, pitch)) = m.flags {
                s.reg(&regs::RbBlitFlagDst(flags));
                s.reg(&regs::RbBlitFlagDstPitch {
                    pitch,
                    array_pitch: 0,
                });
            }
        }
        let clears = matches!(
            self.kind,
            A6xxBlitEventType::BLIT_EVENT_CLEAR | A6xxBlitEventType::BLIT_EVENT_STORE_AND_CLEAR
        );
        if clears {
            s.reg(&regs::RbUnknown88d0::from_raw(self.unknown_88d0));
            s.reg(&regs::RbBlitClearColorDw0(self.clear[0]));
            s.reg(&regs::RbBlitClearColorDw1(self.clear[1]));
            s.reg(&regs::RbBlitClearColorDw2(self.clear[2]));
            s.reg(&regs::RbBlitClearColorDw3(self.clear[3]));
            if chip == Chip::A7xx {
                s.reg(&regs::RbBlitClearMode {
                    clear_mode: if self.sysmem_clear {
                        A7xxBlitClearMode::CLEAR_MODE_SYSMEM
                    } else {
                        A7xxBlitClearMode::CLEAR_MODE_GMEM
                    },
                });
            }
        }
        event(s, VgtEventType::BLIT);
    }
}

/// CP_EVENT_WRITE (a6xx) or CP_EVENT_WRITE7 (a7xx) of `event`, writing
/// nothing.
pub fn event(s: &mut Stream, event: VgtEventType) {
    match s.chip {
        Chip::A6xx => s.pkt(
            "CP_EVENT_WRITE",
            &[CpEventWriteDw0 {
                event,
                ..Default::default()
            }
            .to_raw()],
        ),
        Chip::A7xx => s.pkt(
            "CP_EVENT_WRITE7",
            &[CpEventWrite7Dw0 {
                event,
                ..Default::default()
            }
            .to_raw()],
        ),
    };
}

/// Where [`ccu_flush_color`]'s timestamp goes on a6xx: the last dword of
/// the rig's data buffer.
pub const FLUSH_SCRATCH: u64 = super::DATA + super::DATA_SIZE as u64 - 4;

/// The CCU colour flush Turnip emits between the RB or 2D engine writing a
/// surface and something reading it (tu6_emit_flushes):
/// PC_CCU_FLUSH_COLOR_TS on a6xx (its timestamp to [`FLUSH_SCRATCH`]),
/// CCU_CLEAN_COLOR on a7xx.
pub fn ccu_flush_color(s: &mut Stream) {
    match s.chip {
        Chip::A6xx => {
            let [lo, hi] = super::lo_hi(FLUSH_SCRATCH);
            let dw0 = CpEventWriteDw0 {
                event: VgtEventType::PC_CCU_FLUSH_COLOR_TS,
                ..Default::default()
            };
            s.pkt("CP_EVENT_WRITE", &[dw0.to_raw(), lo, hi, 0]);
        }
        Chip::A7xx => event(s, VgtEventType::CCU_CLEAN_COLOR),
    }
}
