//! The GPU a shader is compiled for, and what differs between a6xx and a7xx for the
//! compiler: delay slots, the const file's size, register file and wave facts. Per-GPU
//! numbers come from parsnip-registers' `GpuInfo` (itself from Mesa's
//! freedreno_devices.py); per-generation rules are in the [`ShaderModel`] implementations.

use crate::error::{CompileError, Result};
use parsnip_registers::chip::Chip;
use parsnip_registers::gpu::{self, GpuInfo};
use parsnip_registers::regs::SpCsPvtMemParam;

/// Questions the back end asks about the generation.
pub trait ShaderModel: Send + Sync {
    fn gpu(&self) -> &'static GpuInfo;

    /// Nops needed between an ALU instruction and an ALU instruction reading its result
    /// (Mesa's ir3_compiler.c `delay_slots.alu_to_alu`).
    fn alu_to_alu_delay(&self) -> u32;

    /// Nops needed between an ALU instruction and a flow, SFU, texture or memory
    /// instruction reading its result (`delay_slots.non_alu`).
    fn alu_to_non_alu_delay(&self) -> u32;

    /// Cycles after issue at which a cat3 instruction (mad) reads its third source, which
    /// may therefore come that much later (`delay_slots.cat3_src2_read`).
    fn cat3_src2_read_delay(&self) -> u32;

    /// Extra delay when a value written as a full register is read as a half one, or the
    /// other way round, in the merged register file of a6xx and later (ir3_delay.c).
    fn half_full_mismatch_penalty(&self) -> u32 {
        3
    }

    /// vec4s of the const file a compute shader may use (ir3_compiler.c
    /// `max_const_compute`).
    fn max_const_vec4(&self) -> u32;

    /// Waves an SP can hold given the shader's footprint in full vec4 registers, as Mesa's
    /// ir3_get_reg_dependent_max_waves computes it, capped by the GPU's wave slots.
    fn max_waves(&self, full_regs_vec4: u32, double_threadsize: bool) -> u32 {
        let g = self.gpu();
        if full_regs_vec4 == 0 {
            return g.max_waves;
        }
        let per = full_regs_vec4 * if double_threadsize { 2 } else { 1 };
        (g.reg_size_vec4 / per * g.wave_granularity).min(g.max_waves)
    }

    /// Invocations per wave.
    fn wave_size(&self, double_threadsize: bool) -> u32 {
        let base = self.gpu().threadsize_base;
        if double_threadsize && self.gpu().supports_double_threadsize {
            base * 2
        } else {
            base
        }
    }

    /// Bytes of private memory per fiber are allocated in units of this (ir3_compiler.c
    /// `pvtmem_per_fiber_align`).
    fn private_memory_align(&self) -> u32 {
        512
    }
}

/// The most private memory one invocation can have, in bytes: what
/// SP_CS_PVT_MEM_PARAM.MEMSIZEPERITEM holds (8 bits of 512-byte units, a6xx.xml), read
/// from the register database. The driver programs each fiber's size there, with either
/// PERWAVEMEMLAYOUT, so the hardware gives no more; the compiler refuses shaders that
/// need more and the driver refuses binaries that claim more.
pub fn max_private_bytes() -> u32 {
    SpCsPvtMemParam::from_raw(u32::MAX).memsizeperitem
}

pub struct A6xx(&'static GpuInfo);
pub struct A7xx(&'static GpuInfo);

impl ShaderModel for A6xx {
    fn gpu(&self) -> &'static GpuInfo {
        self.0
    }
    fn alu_to_alu_delay(&self) -> u32 {
        3
    }
    fn alu_to_non_alu_delay(&self) -> u32 {
        6
    }
    fn cat3_src2_read_delay(&self) -> u32 {
        2
    }
    fn max_const_vec4(&self) -> u32 {
        256
    }
}

impl ShaderModel for A7xx {
    fn gpu(&self) -> &'static GpuInfo {
        self.0
    }
    fn alu_to_alu_delay(&self) -> u32 {
        2
    }
    fn alu_to_non_alu_delay(&self) -> u32 {
        5
    }
    fn cat3_src2_read_delay(&self) -> u32 {
        1
    }
    fn max_const_vec4(&self) -> u32 {
        512
    }
}

/// The wave sizes the GPU runs, smallest first: the base size, and twice it where the
/// GPU has double-size waves (freedreno_devices.py's threadsize_base and
/// supports_double_threadsize), the minSubgroupSize and maxSubgroupSize Turnip reports.
pub fn subgroup_sizes(model: &dyn ShaderModel) -> Vec<u32> {
    let mut sizes = vec![model.wave_size(false)];
    if model.gpu().supports_double_threadsize {
        sizes.push(model.wave_size(true));
    }
    sizes
}

/// The shader model of a GPU named like "a660" or "a740".
pub fn model(name: &str) -> Result<Box<dyn ShaderModel>> {
    let g = gpu::by_name(name).map_err(|e| CompileError::new(e.to_string()))?;
    Ok(match g.chip {
        Chip::A6xx => Box::new(A6xx(g)),
        Chip::A7xx => Box::new(A7xx(g)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statistic from Turnip's pipeline-executable report (`stat NAME = VALUE`).
    fn turnip_stat(text: &str, name: &str) -> u32 {
        text.lines()
            .find_map(|l| {
                let rest = l.strip_prefix("stat ")?;
                let (k, v) = rest.split_once('=')?;
                (k.trim() == name).then(|| v.trim().parse().ok())?
            })
            .unwrap_or_else(|| panic!("no statistic {name}"))
    }

    #[test]
    fn max_waves_matches_turnips_report() {
        for name in ["a660", "a740"] {
            let test = "max_waves_matches_turnips_report";
            let rel = format!("turnip/{name}/compute.pipeline-executable.txt");
            let Some(path) = parsnip_reference::reference_file(test, &rel) else {
                return;
            };
            let text = std::fs::read_to_string(path).unwrap();
            let regs = turnip_stat(&text, "Registers used");
            let waves = turnip_stat(&text, "Max Waves Per Core");
            let m = model(name).unwrap();
            assert_eq!(m.max_waves(regs, false), waves, "{name}");
            // "executable 0: CS -- compute (subgroup 64)".
            assert!(text.contains(&format!("(subgroup {})", m.wave_size(false))));
        }
    }

    #[test]
    fn max_waves_falls_with_register_footprint() {
        // a660: 64 vec4 per wave slot, waves granted in pairs (freedreno_devices.py).
        let m = model("a660").unwrap();
        assert_eq!(m.max_waves(8, false), 16);
        assert_eq!(m.max_waves(16, false), 8);
        assert_eq!(m.max_waves(16, true), 4);
        assert_eq!(m.max_waves(48, false), 2);
    }

    #[test]
    fn private_memory_ends_where_memsizeperitem_does() {
        // 255 units of 512 bytes (a6xx.xml: bits 0-7, shr 9), the bound the driver's
        // register write reported as "outside 0..=130560".
        assert_eq!(max_private_bytes(), 130_560);
        assert_eq!(
            max_private_bytes() % model("a660").unwrap().private_memory_align(),
            0
        );
    }

    #[test]
    fn unknown_gpus_are_refused_with_the_known_ones_named() {
        let e = model("a999").err().unwrap();
        assert!(e.message.contains("a660"), "{}", e.message);
    }
}
