//! The bridge to the compiler: what a pipeline asks it to compile, and its
//! answer turned into the driver's [`ShaderBinary`].

use std::collections::HashMap;

use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::descriptor_layout::DescriptorLayout;
use parsnip_compiler::ir::DriverParam as CompilerParam;
use parsnip_compiler::CompileOptions;

use super::binary::{ConstLayout, DriverParam, RegId, ShaderBinary, Statistic};
use crate::gpu_info::GpuInfo;

/// A specialisation constant's id and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    pub id: u32,
    pub bytes: Vec<u8>,
}

/// Everything that decides the machine code of a shader.
pub struct CompileRequest<'a> {
    pub spirv: &'a [u32],
    pub entry_point: &'a str,
    pub specialization: &'a [SpecConstant],
    pub layout: &'a DescriptorLayout,
    pub gpu: &'a GpuInfo,
    /// The subgroup size the stage requires (VK_EXT_subgroup_size_control).
    pub required_subgroup_size: Option<u32>,
}

/// The bit pattern of a specialisation constant: its bytes, little-endian,
/// as the SPIR-V constant of that width holds them.
fn spec_bits(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(b)
}

/// HLSQ_CS_CNTL.CONSTLEN counts vec4s in units of 4 (a6xx.xml: the field is
/// stored shifted right by 2).
pub(crate) fn const_len(dwords: u32) -> u32 {
    dwords.div_ceil(4).next_multiple_of(4)
}

fn statistics(c: &CompiledShader) -> Vec<Statistic> {
    let s = &c.stats;
    let stat = |name: &str, description: &str, value: u32| Statistic {
        name: name.into(),
        description: description.into(),
        value: u64::from(value),
    };
    vec![
        stat(
            "Max Waves Per Core",
            "Waves an SP holds at once at this register footprint",
            s.max_waves,
        ),
        stat(
            "Instruction Count",
            "Instructions up to and including end",
            s.instructions,
        ),
        stat(
            "Code size",
            "Dwords of machine code, padding included",
            c.code.len() as u32,
        ),
        stat("NOPs Count", "nop instructions", s.nops),
        stat("Registers used", "Full registers, in vec4s", s.full_regs),
        stat(
            "Half-registers used",
            "Half registers, in vec4s",
            s.half_regs,
        ),
        stat(
            "Instructions with SS sync bit",
            "Instructions waiting for shared-resource results",
            s.ss,
        ),
        stat(
            "Instructions with SY sync bit",
            "Instructions waiting for memory and texture results",
            s.sy,
        ),
        stat("Spills", "Values spilled to private memory", s.spills),
        stat(
            "Shared memory",
            "Bytes of workgroup-shared memory",
            c.stage.compute().map_or(0, |k| k.shared_bytes),
        ),
        stat(
            "Private memory",
            "Bytes of private memory per invocation",
            c.private_bytes,
        ),
    ]
}

/// The driver's record of what the compiler produced.
pub fn binary_from_compiled(c: &CompiledShader) -> ShaderBinary {
    // Graphics stages have no work group: their binaries carry none.
    let compute = c.stage.compute();
    ShaderBinary {
        code: c.code.clone(),
        full_regs: c.full_regs,
        half_regs: c.half_regs,
        branch_stack: 0,
        const_len: const_len(c.consts.dwords),
        shared_bytes: compute.map_or(0, |k| k.shared_bytes),
        private_bytes: c.private_bytes,
        wave_size: c.wave_size,
        bindless_tex: c.bindless_textures,
        bindless_samp: c.bindless_samplers,
        local_size: compute.map_or([0; 3], |k| k.local_size),
        work_group_id: compute
            .and_then(|k| k.workgroup_id_reg)
            .map_or(RegId::NONE, |r| RegId(r.0)),
        local_id: compute
            .and_then(|k| k.local_id_reg)
            .map_or(RegId::NONE, |r| RegId(r.0)),
        consts: ConstLayout {
            push_constants: c.consts.push_constants,
            driver_params: c
                .consts
                .driver_params
                .iter()
                .map(|(p, dword)| {
                    let param = match *p {
                        CompilerParam::NumWorkgroups(i) => DriverParam::NumWorkgroups(i),
                        CompilerParam::BaseWorkgroup(i) => DriverParam::BaseWorkgroup(i),
                        CompilerParam::BaseVertex => DriverParam::BaseVertex,
                        CompilerParam::BaseInstance => DriverParam::BaseInstance,
                        CompilerParam::ViewIndex => DriverParam::ViewIndex,
                    };
                    (param, *dword)
                })
                .collect(),
            dwords: c.consts.dwords,
        },
        statistics: statistics(c),
        disassembly: c.disassembly.clone(),
    }
}

/// Compiles one stage to the compiler's output, or says why not (the
/// compiler names the SPIR-V instruction where there is one).
pub fn compile_stage(request: &CompileRequest<'_>) -> Result<CompiledShader, String> {
    let spec_constants: HashMap<u32, u64> = request
        .specialization
        .iter()
        .map(|s| (s.id, spec_bits(&s.bytes)))
        .collect();
    let options = CompileOptions {
        gpu: request.gpu.entry.name.to_string(),
        entry: request.entry_point.to_string(),
        spec_constants,
        layout: request.layout.clone(),
        required_subgroup_size: request.required_subgroup_size,
    };
    parsnip_compiler::compile(request.spirv, &options).map_err(|e| e.to_string())
}

/// Compiles, or says why not.
pub fn compile(request: &CompileRequest<'_>) -> Result<ShaderBinary, String> {
    Ok(binary_from_compiled(&compile_stage(request)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_constants_keep_their_bit_patterns() {
        assert_eq!(spec_bits(&7u32.to_le_bytes()), 7);
        assert_eq!(spec_bits(&(-1i32).to_le_bytes()), 0xffff_ffff);
        assert_eq!(spec_bits(&1.5f64.to_le_bytes()), 1.5f64.to_bits());
        assert_eq!(spec_bits(&[1]), 1);
    }

    #[test]
    fn constlen_is_whole_groups_of_four_vec4s() {
        // Turnip's double.comp: 8 dwords of driver params, CONSTLEN 4.
        assert_eq!(const_len(8), 4);
        assert_eq!(const_len(0), 0);
        assert_eq!(const_len(17), 8);
    }
}
