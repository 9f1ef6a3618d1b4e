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
//! - the GPU's "debug/eco/chicken" register values, whatever the GPU
//!   catalogue gives for the GPU (`parsnip_registers::gpu::magic_regs`);
//! - no draw state groups (CP_SET_DRAW_STATE with DISABLE_ALL_GROUPS).

use parsnip_hw_state::descriptors::all_bases;
use parsnip_hw_state::PacketSink as _;
use parsnip_registers::enums::{A6xxCoordRound, A6xxIsamMode, A6xxNearestMode, CpThread};
use parsnip_registers::packets::{CpSetDrawStateDw0, CpThreadControlDw0};
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs;
use parsnip_registers::Chip;

use super::cache::{self, CacheOps};
use super::packets::{field, PacketSink, PacketWriter};
use crate::device::Device;
use crate::error::VkResult;
use crate::gpu_info::GpuInfo;

/// HLSQ_INVALIDATE_CMD invalidating every stage's state, IBOs and bindless
/// bases, or only compute's (`compute_only`).
pub fn hlsq_invalidate(w: &mut impl PacketSink, compute_only: bool, bindless: u32) -> VkResult<()> {
    let gfx = !compute_only;
    match w.chip() {
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

/// The GPU's debug/eco/chicken values from the catalogue, one register
/// write each as Turnip emits them. They go through the catalogue's one
/// whole-dword path (`MagicReg::write`), which does not check the values
/// against the database's fields: the table sets bits a6xx.xml does not
/// describe.
fn magic_regs(w: &mut impl PacketSink, gpu: &GpuInfo) -> VkResult<()> {
    for m in gpu.entry.magic_regs.in_write_order() {
        let write = m.write(w.chip()).map_err(|e| {
            crate::error::internal("the catalogue's magic registers", format!("{m}: {e}"))
        })?;
        w.writes(&[write]);
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
    hlsq_invalidate(&mut w, false, all_bases(chip))?;
    w.packet(Opcode::CP_WAIT_FOR_IDLE, &[]);

    magic_regs(&mut w, gpu)?;
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
        assert_eq!(all_bases(Chip::A6xx), 0x1f);
        // a740 compute.log: TPL1_DBG_ECO_CNTL 0x11100000, which sets bits
        // above the 0-25 a6xx.xml gives the register; UCHE_CACHE_WAYS
        // (0e17) 0x00040004, from the GPU's list of other registers.
        assert_eq!(
            find(&w.dwords, parsnip_registers::pm4::pkt4(0xb600, 1)),
            Some(&[0x1110_0000][..]),
            "TPL1_DBG_ECO_CNTL"
        );
        assert_eq!(
            find(&w.dwords, parsnip_registers::pm4::pkt4(0x0e17, 1)),
            Some(&[0x0004_0004][..]),
            "UCHE_CACHE_WAYS"
        );
    }

    #[test]
    fn every_gpu_gets_each_magic_register_the_catalogue_gives_it() {
        for entry in parsnip_registers::gpu::GPUS {
            let device = crate::device::tests::null_device(entry.name);
            let w = packets(&device).unwrap();
            for m in entry.magic_regs.in_write_order() {
                let offset = m.write(entry.chip).unwrap().offset;
                let header = parsnip_registers::pm4::pkt4(offset, 1);
                assert_eq!(
                    find(&w.dwords, header),
                    Some(&[m.value][..]),
                    "{}: {m}",
                    entry.name
                );
            }
        }
    }
}
