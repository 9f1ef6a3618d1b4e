//! The registers and packets that program a compute shader, built once per
//! pipeline into its BO and run from command buffers as the compute
//! program draw-state group (Turnip calls the same state as an IB2; the
//! register list and order follow its compute streams, compute.log for
//! a660 and a740):
//!
//! - which SP state is invalid (HLSQ_INVALIDATE_CMD CS_STATE | CS_IBO);
//! - SP_CS_CONFIG: bindless descriptors only (textures when the shader reads
//!   them, and always on a7xx, as compute.log has it);
//! - HLSQ_CS_CNTL: the const file length;
//! - SP_CS_CTRL_REG0: wave size, merged registers, the register footprint
//!   and branch stack depth;
//! - SP_CS_INSTRLEN, SP_CS_OBJ_START (the code), private memory;
//! - CP_LOAD_STATE6 of the code into the SP's instruction cache (as much as
//!   it holds);
//! - shared memory size (SP_CS_UNKNOWN_A9B1, and HLSQ_CS_UNKNOWN_B9D0 on
//!   a6xx, in 1 KiB units minus one, at least one unit);
//! - where the hardware writes the built-ins (HLSQ_CS_CNTL_0/1 on a6xx,
//!   SP_CS_CNTL_0/1 on both).

use ash::vk;
use parsnip_hw_state::PacketSink as _;
use parsnip_registers::enums::{A3xxThreadmode, A6xxStateType, A6xxThreadsize};
use parsnip_registers::regs::{self};
use parsnip_registers::Chip;

use super::binary::{RegId, ShaderBinary};
use crate::cmd::init_state::hlsq_invalidate;
use crate::cmd::load_state::{load_cs_state, Source};
use crate::cmd::packets::PacketWriter;
use crate::error::VkResult;
use crate::gpu_info::GpuInfo;

/// Bytes of shared memory per SHARED_SIZE unit (a6xx.xml: the field counts
/// KiB, minus one).
const SHARED_UNIT: u32 = 1024;

pub(crate) fn threadsize(wave_size: u32) -> A6xxThreadsize {
    if wave_size == 128 {
        A6xxThreadsize::THREAD128
    } else {
        A6xxThreadsize::THREAD64
    }
}

/// SHARED_SIZE for `bytes` of shared memory: Turnip programs 1 (2 KiB
/// allowed) for a shader that uses none, as compute.log shows.
pub fn shared_size_field(bytes: u32) -> u32 {
    bytes.div_ceil(SHARED_UNIT).saturating_sub(1).max(1)
}

/// A shader's private memory (its spills and local arrays): each fiber
/// (hardware thread slot) gets `per_fiber` bytes, each SP `per_sp` bytes
/// for all its fibers, the SPs' areas one after the other from `iova`. The
/// sizes are in the units SP_CS_PVT_MEM_PARAM and SP_CS_PVT_MEM_SIZE store
/// (512 bytes and 4 KiB, a6xx.xml), as Turnip lays them out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrivateMemory {
    pub iova: u64,
    pub per_fiber: u32,
    pub per_sp: u32,
}

impl PrivateMemory {
    /// The layout for `bytes` per invocation on `gpu`, at an address given
    /// later; `None` when the shader needs none. More than MEMSIZEPERITEM
    /// holds is refused: the compiler's limit
    /// (`parsnip_compiler::target::max_private_bytes`) is the hardware's.
    pub fn layout(gpu: &GpuInfo, bytes: u32) -> VkResult<Option<PrivateMemory>> {
        if bytes == 0 {
            return Ok(None);
        }
        let limit = parsnip_compiler::target::max_private_bytes();
        if bytes > limit {
            eprintln!(
                "parsnip: a shader needs {bytes} bytes of private memory per invocation; \
                 SP_CS_PVT_MEM_PARAM.MEMSIZEPERITEM holds at most {limit}"
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let per_fiber = bytes.next_multiple_of(512);
        let per_sp = (per_fiber * gpu.entry.fibers_per_sp).next_multiple_of(4096);
        Ok(Some(PrivateMemory {
            iova: 0,
            per_fiber,
            per_sp,
        }))
    }

    /// Bytes of the whole area: every SP's.
    pub fn total(&self, gpu: &GpuInfo) -> u64 {
        u64::from(self.per_sp) * u64::from(gpu.entry.num_sp_cores)
    }
}

/// The program state of `binary`, whose code is at `code_iova`.
pub fn packets(
    gpu: &GpuInfo,
    binary: &ShaderBinary,
    code_iova: u64,
    private: PrivateMemory,
) -> VkResult<PacketWriter> {
    let chip = gpu.chip();
    let mut w = PacketWriter::new(chip);
    if chip == Chip::A6xx {
        w.reg(&regs::HlsqSharedConsts { enable: false })?;
    }
    hlsq_invalidate(&mut w, true, 0)?;
    w.reg(&regs::SpCsConfig {
        bindless_tex: chip == Chip::A7xx || binary.bindless_tex,
        bindless_samp: binary.bindless_samp,
        bindless_ibo: true,
        enabled: true,
        ..Default::default()
    })?;
    match chip {
        Chip::A6xx => w.reg(&regs::a6xx::HlsqCsCntl {
            constlen: binary.const_len,
            enabled: true,
        })?,
        Chip::A7xx => w.reg(&regs::a7xx::HlsqCsCntl {
            constlen: binary.const_len,
            enabled: true,
            ..Default::default()
        })?,
    }
    w.reg(&regs::SpCsCtrlReg0 {
        threadsize: threadsize(binary.wave_size),
        mergedregs: true,
        threadmode: A3xxThreadmode::MULTI,
        halfregfootprint: binary.half_regs,
        fullregfootprint: binary.full_regs,
        branchstack: binary.branch_stack,
        ..Default::default()
    })?;
    let instrlen = gpu.instrlen(binary.instructions());
    w.reg(&regs::SpCsInstrlen(instrlen))?;
    w.reg(&regs::SpCsObjFirstExecOffset(0))?;
    w.reg(&regs::SpCsObjStart(code_iova))?;
    w.reg(&regs::SpCsPvtMemParam {
        memsizeperitem: private.per_fiber,
        hwstacksizeperthread: 0,
    })?;
    w.reg(&regs::SpCsPvtMemAddr(private.iova))?;
    w.reg(&regs::SpCsPvtMemSize {
        totalpvtmemsize: private.per_sp,
        perwavememlayout: false,
    })?;
    w.reg(&regs::SpCsPvtMemHwStackOffset { offset: 0 })?;
    if chip == Chip::A7xx {
        w.reg(&regs::SpCsVgprConfig(0))?;
    }
    // The SP fetches the part of a long program not preloaded as it runs;
    // Turnip preloads at most the instruction cache (tu_shader.cc, on a6xx;
    // freedreno_devices.py's instr_cache_size counts SP_CS_INSTRLEN units),
    // and NUM_UNIT could not say more than 1023 anyway.
    load_cs_state(
        &mut w,
        A6xxStateType::ST6_SHADER,
        0,
        instrlen.min(gpu.entry.instr_cache_size),
        Source::Indirect(code_iova),
    )?;

    let shared = shared_size_field(binary.shared_bytes);
    w.reg(&regs::SpCsUnknownA9b1 {
        shared_size: shared,
        unk5: false,
        unk6: true,
    })?;
    if chip == Chip::A6xx {
        w.reg(&regs::HlsqCsUnknownB9d0 {
            shared_size: shared,
            unk5: false,
            unk6: true,
        })?;
    }
    let wg = u32::from(binary.work_group_id.0);
    let local = u32::from(binary.local_id.0);
    let none = u32::from(RegId::NONE.0);
    let ids = regs::SpCsCntl0 {
        wgidconstid: wg,
        wgsizeconstid: none,
        wgoffsetconstid: none,
        localidregid: local,
    };
    let threads = threadsize(binary.wave_size);
    match chip {
        Chip::A6xx => {
            w.reg(&regs::HlsqCsCntl0 {
                wgidconstid: ids.wgidconstid,
                wgsizeconstid: ids.wgsizeconstid,
                wgoffsetconstid: ids.wgoffsetconstid,
                localidregid: ids.localidregid,
            })?;
            w.reg(&regs::a6xx::HlsqCsCntl1 {
                linearlocalidregid: none,
                threadsize: threads,
                ..Default::default()
            })?;
            w.reg(&ids)?;
            w.reg(&regs::a6xx::SpCsCntl1 {
                linearlocalidregid: none,
                threadsize: threads,
                ..Default::default()
            })?;
        }
        Chip::A7xx => {
            w.reg(&regs::a7xx::HlsqCsCntl1 {
                linearlocalidregid: none,
                threadsize: threads,
                ..Default::default()
            })?;
            w.reg(&ids)?;
            w.reg(&regs::a7xx::SpCsCntl1 {
                linearlocalidregid: none,
                threadsize: threads,
                ..Default::default()
            })?;
            w.reg(&regs::SpCsUnknownA9be(0))?;
        }
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::super::binary::tests::sample;
    use super::super::binary::ShaderBinary;
    use super::*;
    use parsnip_registers::gpu;

    fn find(words: &[u32], header: u32) -> Option<&[u32]> {
        words.windows(3).find(|w| w[0] == header).map(|w| &w[1..])
    }

    #[test]
    fn turnips_a660_program_registers_for_the_same_shader_facts() {
        // The a660 compute.log programs, for a 1-register, 64-wide shader
        // with 4 vec4s of consts, wgid in r48.x and the local id in r0.x:
        let g = GpuInfo::new(gpu::by_name("a660").unwrap(), 0x0606_0001, 19_200_000);
        let w = packets(&g, &sample(), 0x1_0000_5680, PrivateMemory::default()).unwrap();
        let d = &w.dwords;
        assert_eq!(find(d, 0x48a9_bb01).unwrap()[0], 0x104, "SP_CS_CONFIG");
        // A shader reading uniform texel buffers also sets BINDLESS_TEX (bit 0).
        let textures = ShaderBinary {
            bindless_tex: true,
            ..sample()
        };
        let with_textures =
            packets(&g, &textures, 0x1_0000_5680, PrivateMemory::default()).unwrap();
        assert_eq!(
            find(&with_textures.dwords, 0x48a9_bb01).unwrap()[0],
            0x105,
            "SP_CS_CONFIG"
        );
        // One that samples sets BINDLESS_SAMP (bit 1) too (a6xx.xml).
        let samplers = ShaderBinary {
            bindless_tex: true,
            bindless_samp: true,
            ..sample()
        };
        let with_samplers =
            packets(&g, &samplers, 0x1_0000_5680, PrivateMemory::default()).unwrap();
        assert_eq!(
            find(&with_samplers.dwords, 0x48a9_bb01).unwrap()[0],
            0x107,
            "SP_CS_CONFIG"
        );
        assert_eq!(find(d, 0x40b9_8701).unwrap()[0], 0x101, "HLSQ_CS_CNTL");
        assert_eq!(
            find(d, 0x40a9_b001).unwrap()[0],
            0x8000_0080,
            "SP_CS_CTRL_REG0"
        );
        assert_eq!(find(d, 0x48a9_b101).unwrap()[0], 0x41, "SP_CS_UNKNOWN_A9B1");
        assert_eq!(
            find(d, 0x48b9_d001).unwrap()[0],
            0x41,
            "HLSQ_CS_UNKNOWN_B9D0"
        );
        assert_eq!(
            find(d, 0x40bb_0801).unwrap()[0],
            0x60,
            "HLSQ_INVALIDATE_CMD"
        );
        // HLSQ_CS_CNTL_0/1 and SP_CS_CNTL_0/1: 00fcfcc0, 000000fc.
        let cntl0 = d.iter().position(|&x| x == 0x00fc_fcc0).unwrap();
        assert_eq!(d[cntl0 - 1], 0x48b9_9701);
        assert!(d.contains(&0x40a9_c201));
        assert!(d.contains(&0x0000_00fc));
        // CP_LOAD_STATE6_FRAG of the code: 70348003 00760000 00005680 00000001
        // (instrlen 1 at 0x100005680).
        assert_eq!(find(d, 0x7034_8003).unwrap(), &[0x0076_0000, 0x0000_5680]);
        assert_eq!(shared_size_field(0), 1);
        // No private memory: SP_CS_PVT_MEM_* all zero, as in the capture
        // (40a9b307 00000000 00005680 00000001 00000000 00000000 00000000
        // 00000000 written as one packet there, register by register here).
        assert_eq!(find(d, 0x40a9_b601).unwrap()[0], 0, "SP_CS_PVT_MEM_PARAM");
        assert_eq!(shared_size_field(16 * 1024), 15);
    }

    #[test]
    fn private_memory_stops_where_memsizeperitem_does() {
        let g = GpuInfo::new(gpu::by_name("a660").unwrap(), 0x0606_0001, 19_200_000);
        // 255 units of 512 bytes fit the field (a6xx.xml: bits 0-7, shr 9); a660 has
        // 128 * 2 * 16 fibers per SP (freedreno_devices.py).
        let most = PrivateMemory::layout(&g, 130_560).unwrap().unwrap();
        assert_eq!((most.per_fiber, most.per_sp), (130_560, 130_560 * 4096));
        let w = packets(&g, &sample(), 0x1_0000_5680, most).unwrap();
        assert_eq!(
            find(&w.dwords, 0x40a9_b601).unwrap()[0],
            0xff,
            "MEMSIZEPERITEM"
        );
        // One byte more was the "262144 is outside 0..=130560" at pipeline
        // creation; now the layout refuses it, saying why.
        assert_eq!(
            PrivateMemory::layout(&g, 130_561),
            Err(vk::Result::ERROR_UNKNOWN)
        );
        assert_eq!(PrivateMemory::layout(&g, 0), Ok(None));
    }

    #[test]
    fn long_programs_preload_only_the_instruction_cache() {
        // a660's instruction cache holds 127 units of 16 instructions
        // (freedreno_devices.py); CP_LOAD_STATE6's NUM_UNIT is bits 22-31.
        let g = GpuInfo::new(gpu::by_name("a660").unwrap(), 0x0606_0001, 19_200_000);
        let long = ShaderBinary {
            code: vec![0; 2 * 16 * 2000],
            ..sample()
        };
        let w = packets(&g, &long, 0x1_0000_5680, PrivateMemory::default()).unwrap();
        let load = find(&w.dwords, 0x7034_8003).unwrap()[0];
        assert_eq!(load >> 22, 127);
        use parsnip_registers::{pm4, Register};
        let instrlen = regs::SpCsInstrlen::offset(Chip::A6xx).unwrap();
        let header = pm4::pkt4(instrlen, 1);
        let at = w.dwords.iter().position(|&x| x == header).unwrap();
        assert_eq!(
            w.dwords[at + 1],
            2000,
            "SP_CS_INSTRLEN is the whole program"
        );
    }
}
