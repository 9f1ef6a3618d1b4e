//! The state a primary command buffer programs before anything else, so that
//! nothing it runs depends on what an earlier submit (or another process)
//! left in the registers. This is the compute half of what Turnip emits at
//! the start of every command buffer (compute.log for a660 and a740):
//!
//! - invalidate the caches, and the SP/HLSQ's copies of shader state and
//!   descriptors (HLSQ_INVALIDATE_CMD), then wait for idle;
//! - on a7xx, select the BR thread of the CP (CP_THREAD_CONTROL);
//! - the shader-processor modes compute depends on: SP_MODE_CONTROL and
//!   SP_TP_MODE_CNTL (GL-style isam, constant demotion), SP_FLOAT_CNTL,
//!   the performance counters' enable, no shared consts, no graphics IBOs;
//! - the GPU's "debug/eco" control values (`chicken_bits`), for the GPUs a
//!   capture gives them for;
//! - no draw state groups (CP_SET_DRAW_STATE with DISABLE_ALL_GROUPS).

use parsnip_registers::enums::{A6xxCoordRound, A6xxIsamMode, A6xxNearestMode, CpThread};
use parsnip_registers::packets::{CpSetDrawStateDw0, CpThreadControlDw0};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs::{self, ArrayRegister};
use parsnip_registers::{Chip, RegWrite, Register};

use super::cache::{self, CacheOps};
use super::packets::{field, PacketWriter};
use crate::device::Device;
use crate::error::VkResult;
use crate::gpu_info::GpuInfo;

/// A mask with one bit per bindless base the chip has (5 on a6xx, 8 on
/// a7xx: the length of SP_BINDLESS_BASE in a6xx.xml).
pub fn all_bindless_bases(chip: Chip) -> u32 {
    regs::SpBindlessBaseDescriptor::layout(chip).map_or(0, |(_, _, len)| (1 << len) - 1)
}

/// HLSQ_INVALIDATE_CMD invalidating every stage's state, IBOs and bindless
/// bases, or only compute's (`compute_only`).
pub fn hlsq_invalidate(w: &mut PacketWriter, compute_only: bool, bindless: u32) -> VkResult<()> {
    let gfx = !compute_only;
    match w.chip {
        Chip::A6xx => w.reg(&regs::a6xx::HlsqInvalidateCmd {
            vs_state: gfx,
            hs_state: gfx,
            ds_state: gfx,
            gs_state: gfx,
            fs_state: gfx,
            cs_state: compute_only || gfx,
            cs_ibo: true,
            gfx_ibo: gfx,
            cs_shared_const: gfx,
            gfx_shared_const: gfx,
            cs_bindless: bindless,
            gfx_bindless: if gfx { bindless } else { 0 },
        }),
        Chip::A7xx => w.reg(&regs::a7xx::HlsqInvalidateCmd {
            vs_state: gfx,
            hs_state: gfx,
            ds_state: gfx,
            gs_state: gfx,
            fs_state: gfx,
            cs_state: true,
            cs_ibo: true,
            gfx_ibo: gfx,
            cs_bindless: bindless,
            gfx_bindless: if gfx { bindless } else { 0 },
        }),
    }
}

/// HLSQ_INVALIDATE_CMD of compute's bindless bases in `mask` only, after
/// SP_CS_BINDLESS_BASE changes (Turnip invalidates every base).
pub fn hlsq_invalidate_bindless(w: &mut PacketWriter, mask: u32) -> VkResult<()> {
    match w.chip {
        Chip::A6xx => w.reg(&regs::a6xx::HlsqInvalidateCmd {
            cs_bindless: mask,
            ..Default::default()
        }),
        Chip::A7xx => w.reg(&regs::a7xx::HlsqInvalidateCmd {
            cs_bindless: mask,
            ..Default::default()
        }),
    }
}

/// TPL1_DBG_ECO_CNTL as a whole dword: the database gives it bits 0-25
/// (as a6xx.xml does), but Turnip writes bits above them (0x05008000 on
/// a660), so the value is written at the register's offset unchecked.
fn tpl1_dbg_eco_cntl(w: &mut PacketWriter, value: u32) -> VkResult<()> {
    let offset = <regs::Tpl1DbgEcoCntl as Register>::offset(w.chip).ok_or_else(|| {
        crate::error::internal(
            "TPL1_DBG_ECO_CNTL",
            "the register is not in the database for this chip",
        )
    })?;
    w.writes(&[RegWrite {
        offset,
        value: u64::from(value),
        is_64: false,
    }]);
    Ok(())
}

/// The GPU's debug/eco control values, as Turnip programs them (from
/// freedreno's device table, seen in the compute captures of a660 and
/// a740). Other GPUs keep what the kernel programmed at power-up.
fn chicken_bits(w: &mut PacketWriter, gpu: &GpuInfo) -> VkResult<()> {
    match gpu.entry.name {
        "a660" => {
            w.reg(&regs::RbDbgEcoCntl(0x0410_0000))?;
            w.reg(&regs::SpDbgEcoCntl(0x0100_0000))?;
            tpl1_dbg_eco_cntl(w, 0x0500_8000)?;
            w.reg(&regs::SpChickenBits(0x0000_1400))?;
            w.reg(&regs::UcheUnknown0e12(0x1))?;
        }
        "a740" => {
            w.reg(&regs::RbDbgEcoCntl(0))?;
            w.reg(&regs::SpDbgEcoCntl(0x1000_0000))?;
            tpl1_dbg_eco_cntl(w, 0x1110_0000)?;
            w.reg(&regs::SpChickenBits(0x1000_1400))?;
            w.reg(&regs::UcheUnknown0e12(0))?;
        }
        _ => {}
    }
    Ok(())
}

/// The packets of a primary command buffer's start.
pub fn packets(device: &Device) -> VkResult<PacketWriter> {
    let gpu = &device.gpu;
    let chip = gpu.chip();
    let mut w = PacketWriter::new(chip);
    if chip == Chip::A7xx {
        let thread = field(
            "CP_THREAD_CONTROL",
            CpThreadControlDw0 {
                thread: CpThread::CP_SET_THREAD_BR,
                concurrent_bin_disable: true,
                sync_threads: false,
            }
            .try_to_raw(),
        )?;
        w.packet(Opcode::CP_THREAD_CONTROL, &[thread]);
    }
    cache::emit(
        &mut w,
        CacheOps {
            invalidate: true,
            ..Default::default()
        },
        device.internal.scratch_iova(),
    )?;
    w.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);
    hlsq_invalidate(&mut w, false, all_bindless_bases(chip))?;
    w.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);

    chicken_bits(&mut w, gpu)?;
    w.reg(&regs::SpFloatCntl::default())?;
    w.reg(&regs::SpPerfctrEnable {
        vs: true,
        hs: true,
        ds: true,
        gs: true,
        fs: true,
        cs: true,
    })?;
    w.reg(&regs::SpIboCount(0))?;
    if chip == Chip::A6xx {
        w.reg(&regs::HlsqSharedConsts { enable: false })?;
    }
    w.reg(&regs::SpModeControl {
        constant_demotion_enable: true,
        isammode: A6xxIsamMode::ISAMMODE_GL,
        shared_consts_enable: false,
    })?;
    w.reg(&regs::SpTpModeCntl {
        isammode: A6xxIsamMode::ISAMMODE_GL,
        texcoordroundmode: A6xxCoordRound::COORD_TRUNCATE,
        nearestmipsnap: A6xxNearestMode::CLAMP_ROUND_TRUNCATE,
        destdatatypeoverride: true,
    })?;
    let draw_state = field(
        "CP_SET_DRAW_STATE",
        CpSetDrawStateDw0 {
            disable_all_groups: true,
            ..Default::default()
        }
        .try_to_raw(),
    )?;
    w.packet(Opcode::CP_SET_DRAW_STATE, &[draw_state, 0, 0]);
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(words: &[u32], header: u32) -> Option<&[u32]> {
        words.windows(2).find(|w| w[0] == header).map(|w| &w[1..])
    }

    #[test]
    fn the_start_matches_turnips_registers_on_a660() {
        let device = crate::device::tests::null_device("a660");
        let w = packets(&device).unwrap();
        // Values from the a660 compute.log: header dword, then value.
        assert_eq!(
            find(&w.dwords, 0x40bb_0801),
            Some(&[0x000f_ffff][..]),
            "HLSQ_INVALIDATE_CMD"
        );
        assert_eq!(
            find(&w.dwords, 0x408e_0401),
            Some(&[0x0410_0000][..]),
            "RB_DBG_ECO_CNTL"
        );
        assert_eq!(
            find(&w.dwords, 0x40ab_0001),
            Some(&[0x5][..]),
            "SP_MODE_CONTROL"
        );
        assert_eq!(
            find(&w.dwords, 0x40b3_0901),
            Some(&[0xa2][..]),
            "SP_TP_MODE_CNTL"
        );
        assert_eq!(
            find(&w.dwords, 0x40ae_0f01),
            Some(&[0x3f][..]),
            "SP_PERFCTR_ENABLE"
        );
        assert_eq!(
            find(&w.dwords, 0x7043_8003),
            Some(&[0x0004_0000][..]),
            "CP_SET_DRAW_STATE"
        );
        assert_eq!(w.dwords[..2], [0x7046_0001, 0x31], "CACHE_INVALIDATE first");
    }

    #[test]
    fn a7xx_selects_the_br_thread_and_invalidates_eight_bindless_bases() {
        let device = crate::device::tests::null_device("a740");
        let w = packets(&device).unwrap();
        // a740 compute.log: CP_THREAD_CONTROL first; HLSQ_INVALIDATE_CMD
        // (ab1f) with CS_BINDLESS = GFX_BINDLESS = 0xff.
        assert_eq!(w.dwords[1], 0x0800_0001);
        let inv = find(&w.dwords, parsnip_registers::pm4::pkt4(0xab1f, 1)).unwrap()[0];
        let decoded = regs::a7xx::HlsqInvalidateCmd::from_raw(inv);
        assert_eq!((decoded.cs_bindless, decoded.gfx_bindless), (0xff, 0xff));
        assert_eq!(all_bindless_bases(Chip::A6xx), 0x1f);
    }
}
