//! LRZ (low-resolution Z) programming: the buffer a pass uses and its
//! clear, the per-draw control, and the flush at the end of a pass.
//!
//! What a pass does is what Turnip's streams show (a660 and a740
//! depth_bias_cull_sysmem.log): the LRZ buffer's base and pitch and the
//! fast-clear buffer's base, the depth view the buffer belongs to (and on
//! a7xx the depth format and the clear depth), GRAS_LRZ_CNTL enabled with
//! fast clear and no direction, then LRZ_CLEAR, which zeroes the
//! fast-clear bits and, with direction tracking, sets the direction byte
//! to "not set". Each draw then programs GRAS_LRZ_CNTL (and a7xx's
//! GRAS_LRZ_CNTL2) with its direction, and RB_LRZ_CNTL. At the end of the
//! pass GRAS_LRZ_CNTL returns to the clear's value and LRZ_FLUSH writes the
//! LRZ unit's caches back.

use parsnip_registers::enums::{
    A6xxDepthFormat, A6xxLrzDirStatus, AdrenoCompareFunc, VgtEventType,
};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use crate::events::event;
use crate::sink::PacketSink;

/// The LRZ buffer of a pass's depth attachment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LrzBuffer {
    pub base: u64,
    /// LRZ pixels a row.
    pub pitch: u32,
    /// Bytes a layer.
    pub layer_size: u32,
    /// The fast-clear buffer (and direction metadata), when the GPU has
    /// one.
    pub fast_clear_base: Option<u64>,
    /// Whether the fast-clear bits are used.
    pub fast_clear: bool,
    /// The GPU tracks the draws' direction in the buffer's metadata.
    pub track_direction: bool,
    pub depth_format: A6xxDepthFormat,
    pub base_layer: u32,
    pub layer_count: u32,
    pub base_mip_level: u32,
    /// a7xx: the depth fast-cleared blocks hold.
    pub clear_depth: f32,
}

/// One draw's LRZ control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LrzDraw {
    /// Test against LRZ (false: LRZ off for the draw).
    pub enable: bool,
    /// Update LRZ with the draw's depths.
    pub write: bool,
    /// The GREATER direction (else LESS).
    pub greater: bool,
    pub depth_write: bool,
    /// a7xx: the draw's depth compare op.
    pub depth_func: AdrenoCompareFunc,
}

/// GRAS_LRZ_CNTL (and GRAS_LRZ_CNTL2) for `draw` with `buffer`'s fast
/// clear and direction tracking; no direction when `draw` is the clear.
fn control<S: PacketSink>(
    s: &mut S,
    buffer: &LrzBuffer,
    draw: &LrzDraw,
    with_direction: bool,
) -> Result<(), S::Error> {
    let dir = match (with_direction && draw.enable, draw.greater) {
        (false, _) => A6xxLrzDirStatus::default(),
        (true, false) => A6xxLrzDirStatus::LRZ_DIR_LE,
        (true, true) => A6xxLrzDirStatus::LRZ_DIR_GE,
    };
    let dir_write = with_direction && draw.enable && buffer.track_direction;
    match s.chip() {
        Chip::A6xx => s.reg(&a6xx::GrasLrzCntl {
            enable: draw.enable,
            lrz_write: draw.write,
            greater: draw.greater,
            fc_enable: buffer.fast_clear,
            z_write_enable: draw.depth_write,
            dir,
            dir_write,
            disable_on_wrong_dir: buffer.track_direction,
            ..Default::default()
        }),
        Chip::A7xx => {
            s.reg(&a7xx::GrasLrzCntl {
                enable: draw.enable,
                lrz_write: draw.write,
                greater: draw.greater,
                z_write_enable: draw.depth_write,
                dir,
                dir_write,
                z_func: draw.depth_func,
                ..Default::default()
            })?;
            s.reg(&regs::GrasLrzCntl2 {
                disable_on_wrong_dir: buffer.track_direction,
                fc_enable: buffer.fast_clear,
            })
        }
    }
}

/// The clear's control: LRZ enabled, no direction, no writes.
const CLEAR: LrzDraw = LrzDraw {
    enable: true,
    write: false,
    greater: false,
    depth_write: false,
    depth_func: AdrenoCompareFunc::FUNC_NEVER,
};

/// Programs `buffer` for a pass and clears it (LRZ_CLEAR).
pub fn begin_pass<S: PacketSink>(s: &mut S, buffer: &LrzBuffer) -> Result<(), S::Error> {
    s.reg(&regs::GrasLrzBufferBase(buffer.base))?;
    s.reg(&regs::GrasLrzBufferPitch {
        pitch: buffer.pitch,
        array_pitch: buffer.layer_size,
    })?;
    s.reg(&regs::GrasLrzFastClearBufferBase(
        buffer.fast_clear_base.unwrap_or(0),
    ))?;
    if s.chip() == Chip::A7xx {
        s.reg(&regs::GrasLrzDepthBufferInfo {
            depth_format: buffer.depth_format,
            ..Default::default()
        })?;
    }
    s.reg(&regs::GrasLrzDepthView {
        base_layer: buffer.base_layer,
        layer_count: buffer.layer_count,
        base_mip_level: buffer.base_mip_level,
    })?;
    control(s, buffer, &CLEAR, false)?;
    if s.chip() == Chip::A7xx {
        s.reg(&regs::GrasLrzClearDepthF32(buffer.clear_depth))?;
    }
    event(s, VgtEventType::LRZ_CLEAR)
}

/// One draw's LRZ state: `draw` against `buffer`, or LRZ off.
pub fn draw<S: PacketSink>(
    s: &mut S,
    buffer: &LrzBuffer,
    draw: Option<&LrzDraw>,
) -> Result<(), S::Error> {
    let off = LrzDraw::default();
    let d = draw.unwrap_or(&off);
    control(s, buffer, d, true)?;
    s.reg(&regs::RbLrzCntl { enable: d.enable })
}

/// LRZ off for a draw of a pass that has no LRZ buffer.
pub fn off<S: PacketSink>(s: &mut S) -> Result<(), S::Error> {
    match s.chip() {
        Chip::A6xx => s.reg(&a6xx::GrasLrzCntl::default())?,
        Chip::A7xx => {
            s.reg(&a7xx::GrasLrzCntl::default())?;
            s.reg(&regs::GrasLrzCntl2::default())?;
        }
    }
    s.reg(&regs::RbLrzCntl { enable: false })
}

/// The end of a pass that used `buffer`: the clear's control back, and
/// LRZ_FLUSH.
pub fn end_pass<S: PacketSink>(s: &mut S, buffer: &LrzBuffer) -> Result<(), S::Error> {
    control(s, buffer, &CLEAR, false)?;
    event(s, VgtEventType::LRZ_FLUSH)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;

    /// The 96x64 D16 attachment of Turnip's depth_bias_cull traces.
    fn buffer() -> LrzBuffer {
        LrzBuffer {
            base: 0x1_0003_4000,
            pitch: 32,
            layer_size: 2048,
            fast_clear_base: Some(0x1_0003_4800),
            fast_clear: true,
            track_direction: true,
            depth_format: A6xxDepthFormat::DEPTH6_16,
            base_layer: 0,
            layer_count: 1,
            base_mip_level: 0,
            clear_depth: 1.0,
        }
    }

    const LESS: LrzDraw = LrzDraw {
        enable: true,
        write: true,
        greater: false,
        depth_write: true,
        depth_func: AdrenoCompareFunc::FUNC_LESS,
    };

    /// Both traces' GRAS_LRZ_BUFFER_BASE, _PITCH and
    /// GRAS_LRZ_FAST_CLEAR_BUFFER_BASE, as (offset, value) writes.
    const BUFFER_WRITES: [(u32, u32); 5] = [
        (0x8103, 0x0003_4000),
        (0x8104, 1),
        (0x8105, 0x2001),
        (0x8106, 0x0003_4800),
        (0x8107, 1),
    ];

    /// The writes `begin_pass` makes on `chip`.
    fn begin(chip: Chip) -> (Vec<(u32, u32)>, u32) {
        let mut w = StateWriter::new(chip);
        begin_pass(&mut w, &buffer()).unwrap();
        (w.register_writes(), w.dwords[w.dwords.len() - 1])
    }

    #[test]
    fn a660_pass_and_draw_are_turnips() {
        // a660 depth_bias_cull_sysmem.log: 48810385 00034000 00000001
        // 00002001 00034800 00000001, 48810a01 00010000, 48810001
        // 00000209, then CP_EVENT_WRITE of LRZ_CLEAR (0x25).
        let (writes, event) = begin(Chip::A6xx);
        assert_eq!(writes[..5], BUFFER_WRITES);
        assert_eq!(writes[5..], [(0x810a, 0x0001_0000), (0x8100, 0x209)]);
        assert_eq!(event, 0x25);
        // The LESS draw: GRAS_LRZ_CNTL 0x35b, RB_LRZ_CNTL ENABLE.
        let mut w = StateWriter::new(Chip::A6xx);
        draw(&mut w, &buffer(), Some(&LESS)).unwrap();
        assert_eq!(w.register_writes(), [(0x8100, 0x35b), (0x8898, 1)]);
        let mut w = StateWriter::new(Chip::A6xx);
        end_pass(&mut w, &buffer()).unwrap();
        assert_eq!(w.register_writes(), [(0x8100, 0x209)]);
        assert_eq!(w.dwords[w.dwords.len() - 1], 0x26);
    }

    #[test]
    fn a740_pass_and_draw_are_turnips() {
        // a740 depth_bias_cull_sysmem.log.
        let (writes, event) = begin(Chip::A7xx);
        assert_eq!(writes[..5], BUFFER_WRITES);
        assert_eq!(event, 0x25);
        assert_eq!(
            writes[5..],
            [
                (0x8113, 1),
                (0x810a, 0x0001_0000),
                (0x8100, 1),
                (0x810b, 3),
                (0x8111, 0x3f80_0000),
            ]
        );
        let mut w = StateWriter::new(Chip::A7xx);
        draw(&mut w, &buffer(), Some(&LESS)).unwrap();
        assert_eq!(
            w.register_writes(),
            [(0x8100, 0x953), (0x810b, 3), (0x8898, 1)]
        );
        // LRZ off for a draw.
        let mut w = StateWriter::new(Chip::A7xx);
        draw(&mut w, &buffer(), None).unwrap();
        assert_eq!(w.register_writes(), [(0x8100, 0), (0x810b, 3), (0x8898, 0)]);
    }
}
