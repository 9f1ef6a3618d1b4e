//! The CCU (the render backend's colour and depth cache) between the two
//! ways of rendering. The CCU keeps its caches in GMEM, where RB_CCU_CNTL
//! places them: rendering to memory, the depth cache from offset 0 and
//! the colour cache after it, each its whole size (sysmem_per_ccu_*_cache
//! of freedreno's device table, times the CCUs); rendering to GMEM, the
//! attachments are there, and the colour cache shrinks to its
//! gmem_ccu_color_cache_fraction at the end of GMEM (a660
//! triangle_gmem.log: sysmem COLOR_OFFSET 0x30000, GMEM COLOR_CACHE_SIZE
//! QUARTER at 0x174000, 48 KiB before the end of its 1.5 MiB). Switching
//! between the two writes the caches back and empties them first.
//!
//! a7xx places them with RB_CCU_CNTL2, where Turnip's a740 streams put the
//! GMEM colour cache at 0x1f4000 of a 3 MiB GMEM: not at its end, for a
//! reason that is not public, so [`program_ccu`] does not program a7xx
//! (its CCU stays where the kernel and the start-up state leave it).

use parsnip_registers::enums::{A6xxCcuCacheSize, VgtEventType};
use parsnip_registers::gpu::GpuInfo;
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs::a6xx;
use parsnip_registers::Chip;

use crate::events::{a6xx_event_ts, event};
use crate::sink::PacketSink;

/// Dwords [`ccu_mode_switch`] takes.
pub const CCU_SWITCH_DWORDS: usize = 2 * 5 + 2 * 2 + 1;

/// The CCU's colour and depth parts written back and emptied, and the GPU
/// idle: what the CCU needs between rendering to memory and rendering to
/// GMEM, whose caches sit in GMEM at offsets that differ per mode. This
/// is the sequence Turnip's GMEM streams start and end a GMEM pass with
/// (a660 triangle_gmem.log: PC_CCU_FLUSH_COLOR_TS, PC_CCU_FLUSH_DEPTH_TS,
/// PC_CCU_INVALIDATE_COLOR, PC_CCU_INVALIDATE_DEPTH, CP_WAIT_FOR_IDLE;
/// a740: CCU_CLEAN_COLOR, CCU_CLEAN_DEPTH and the same invalidates).
/// `scratch` is an address the a6xx timestamps may write.
pub fn ccu_mode_switch<S: PacketSink>(s: &mut S, scratch: u64) -> Result<(), S::Error> {
    match s.chip() {
        Chip::A6xx => {
            a6xx_event_ts(s, VgtEventType::PC_CCU_FLUSH_COLOR_TS, scratch)?;
            a6xx_event_ts(s, VgtEventType::PC_CCU_FLUSH_DEPTH_TS, scratch)?;
        }
        Chip::A7xx => {
            event(s, VgtEventType::CCU_CLEAN_COLOR)?;
            event(s, VgtEventType::CCU_CLEAN_DEPTH)?;
        }
    }
    event(s, VgtEventType::PC_CCU_INVALIDATE_COLOR)?;
    event(s, VgtEventType::PC_CCU_INVALIDATE_DEPTH)?;
    s.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);
    Ok(())
}

/// Where the CCU is to cache: for rendering to memory or to GMEM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcuMode {
    Sysmem,
    Gmem,
}

/// Dwords [`program_ccu`] takes at most.
pub const CCU_CNTL_DWORDS: usize = 2;

/// The colour cache's size field for 1 / 2^`log2` of the whole.
fn fraction(log2: u32) -> A6xxCcuCacheSize {
    A6xxCcuCacheSize(log2.min(3))
}

/// RB_CCU_CNTL for `mode` on `gpu` (a6xx; nothing on a7xx, see the module
/// doc).
pub fn program_ccu<S: PacketSink>(s: &mut S, gpu: &GpuInfo, mode: CcuMode) -> Result<(), S::Error> {
    if s.chip() != Chip::A6xx {
        return Ok(());
    }
    let depth_bytes = gpu.sysmem_ccu_depth_cache_bytes * gpu.num_ccu;
    let color_bytes = gpu.sysmem_ccu_color_cache_bytes * gpu.num_ccu;
    let (offset, size) = match mode {
        CcuMode::Sysmem => (depth_bytes, A6xxCcuCacheSize::CCU_CACHE_SIZE_FULL),
        CcuMode::Gmem => {
            let log2 = gpu.gmem_ccu_color_cache_fraction_log2;
            (gpu.gmem_bytes - (color_bytes >> log2), fraction(log2))
        }
    };
    // COLOR_OFFSET holds bits 12-20 of the offset, COLOR_OFFSET_HI bit 21.
    s.reg(&a6xx::RbCcuCntl {
        color_offset: offset & 0x1f_f000,
        color_offset_hi: offset >> 21,
        color_cache_size: size,
        depth_cache_size: A6xxCcuCacheSize::CCU_CACHE_SIZE_FULL,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;
    use parsnip_registers::gpu;

    #[test]
    fn the_ccu_switch_and_its_places_are_turnips() {
        // a660 triangle_gmem.log: 70460004 0000001d <addr> 00000000
        // (PC_CCU_FLUSH_COLOR_TS), ... 70460001 00000019
        // (PC_CCU_INVALIDATE_COLOR), 70268000 (CP_WAIT_FOR_IDLE).
        let mut w = StateWriter::new(Chip::A6xx);
        ccu_mode_switch(&mut w, 0x1_0000_4000).unwrap();
        assert_eq!(w.dwords.len(), CCU_SWITCH_DWORDS);
        assert_eq!(&w.dwords[..5], &[0x7046_0004, 0x1d, 0x4000, 1, 0]);
        assert_eq!(&w.dwords[5..7], &[0x7046_0004, 0x1c]);
        assert_eq!(&w.dwords[10..12], &[0x7046_0001, 0x19]);
        assert_eq!(w.dwords[14], 0x7026_8000);
        // The same log: RB_CCU_CNTL (8e07) 0x18000000 rendering to memory,
        // 0xba400000 to GMEM.
        let a660 = gpu::by_name("a660").unwrap();
        for (mode, value) in [(CcuMode::Sysmem, 0x1800_0000), (CcuMode::Gmem, 0xba40_0000)] {
            let mut w = StateWriter::new(Chip::A6xx);
            program_ccu(&mut w, a660, mode).unwrap();
            assert_eq!(w.dwords.len(), CCU_CNTL_DWORDS);
            assert_eq!(w.dwords[1], value, "{mode:?}");
        }
        let mut w = StateWriter::new(Chip::A7xx);
        program_ccu(&mut w, gpu::by_name("a740").unwrap(), CcuMode::Gmem).unwrap();
        assert!(w.dwords.is_empty());
    }
}
