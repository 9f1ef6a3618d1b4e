//! The vertex and fragment shader state a graphics pipeline programs, from
//! Parsnip's compiler's stage information and varying linkage, against
//! Turnip's for the same shaders: the triangle app's tri.vert and tri.frag
//! (reference/turnip/apps), whose interface registers Turnip writes in
//! triangle_sysmem.log on a660 and a740 alike.

mod common;

use std::collections::HashMap;

use parsnip_compiler::varying_linkage::link;
use parsnip_compiler::CompileOptions;
use parsnip_driver::gpu_info::GpuInfo;
use parsnip_driver::pipeline::shader_stages::{program_shaders, StageCode};
use parsnip_hw_state::graphics::{self, Pipeline, Target};
use parsnip_hw_state::StateWriter;
use parsnip_registers::enums::A6xxFormat;
use parsnip_registers::regs::{self, ArrayRegister, Register};
use parsnip_registers::{gpu, Chip};

/// glslang's SPIR-V of a reference shader, compiled from a copy (the
/// reference directory is not ours to write to).
fn spirv(name: &str) -> Option<Vec<u32>> {
    let source =
        parsnip_reference::reference_file("graphics_shaders", &format!("turnip/apps/{name}"))?;
    let copy = std::env::temp_dir().join(format!("parsnip-{}-{name}", std::process::id()));
    std::fs::copy(&source, &copy).unwrap();
    let bytes = common::glslang(&copy);
    let _ = std::fs::remove_file(&copy);
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
    )
}

#[test]
fn the_triangles_shader_interface_is_turnips() {
    let (Some(vert), Some(frag)) = (spirv("tri.vert"), spirv("tri.frag")) else {
        return;
    };
    for name in ["a660", "a740"] {
        let entry = gpu::by_name(name).unwrap();
        let info = GpuInfo::new(entry, u64::from(entry.kernel_chip_id), 19_200_000);
        let options = CompileOptions {
            gpu: name.into(),
            ..Default::default()
        };
        let vs = parsnip_compiler::compile(&vert, &options).unwrap();
        let fs = parsnip_compiler::compile(&frag, &options).unwrap();
        let linkage = link(vs.stage.vertex().unwrap(), fs.stage.fragment().unwrap()).unwrap();
        let target = Target::new(A6xxFormat::FMT6_8_8_8_8_UNORM, 0);
        let mut p = Pipeline::new(0, None, Some(target));
        program_shaders(
            &mut p,
            &info,
            StageCode {
                shader: &vs,
                iova: 0x1000,
            },
            StageCode {
                shader: &fs,
                iova: 0x2000,
            },
            &linkage,
            &[],
        )
        .unwrap();
        let chip = info.chip();
        let mut w = StateWriter::new(chip);
        graphics::program_vertex_input(&mut w, &p).unwrap();
        graphics::program_vs(&mut w, &p).unwrap();
        graphics::program_varyings(&mut w, &p).unwrap();
        graphics::program_fs(&mut w, &p).unwrap();
        graphics::program_output(&mut w, &p).unwrap();
        let got: HashMap<u32, u32> = w.register_writes().into_iter().collect();
        let at = |offset: Option<u32>| got.get(&offset.unwrap()).copied();
        let at_index = |offset: u32| got.get(&offset).copied();
        // triangle_sysmem.log (a660 and a740): the varying vColor at VPC
        // locations 0-2, the position at 3, seven locations a vertex.
        assert_eq!(
            at(regs::VpcVsPack::offset(chip)),
            Some(0x00ff_0307),
            "{name}"
        );
        assert_eq!(
            at(regs::VpcCntl0::offset(chip)),
            Some(0xff01_ff03),
            "{name}"
        );
        let stride = match chip {
            Chip::A6xx => at(regs::a6xx::PcVsOutCntl::offset(chip)),
            Chip::A7xx => at(regs::a7xx::PcVsOutCntl::offset(chip)),
        };
        assert_eq!(stride, Some(7), "{name}");
        assert_eq!(
            at_index(regs::VpcVarDisable::offset(chip, 0).unwrap()),
            Some(0xffff_fff8),
            "{name}"
        );
        for i in 1..4 {
            assert_eq!(
                at_index(regs::VpcVarDisable::offset(chip, i).unwrap()),
                Some(0xffff_ffff),
                "{name}"
            );
        }
        assert_eq!(
            at_index(regs::VpcVaryingInterpMode::offset(chip, 0).unwrap()),
            Some(0),
            "{name}"
        );
        // Two outputs (vColor and the position), gl_VertexIndex in r0.x,
        // the perspective ij pair in r0.x, nothing else fixed.
        assert_eq!(
            at(regs::SpVsPrimitiveCntl::offset(chip)).map(|v| v & 0x3f),
            Some(2),
            "{name}"
        );
        assert_eq!(
            at(regs::VfdControl1::offset(chip)),
            Some(0xfcfc_fc00),
            "{name}"
        );
        assert_eq!(
            at(regs::HlsqControl3Reg::offset(chip)),
            Some(0xfcfc_fc00),
            "{name}"
        );
        assert_eq!(
            at(regs::HlsqControl2Reg::offset(chip)),
            Some(0xfcfc_fcfc),
            "{name}"
        );
        assert_eq!(
            at(regs::HlsqControl4Reg::offset(chip)),
            Some(0xfcfc_fcfc),
            "{name}"
        );
        assert_eq!(
            at_index(regs::SpFsMrtReg::offset(chip, 0).unwrap()),
            Some(0x30),
            "{name}"
        );
        // The colour output is where the compiler left it.
        let out = fs.stage.fragment().unwrap().color_output(0).unwrap().reg;
        assert_eq!(
            at_index(regs::SpFsOutputReg::offset(chip, 0).unwrap()).map(|v| v & 0xff),
            Some(u32::from(out.0)),
            "{name}"
        );
        // The code's length in the registers' units, and where it is.
        assert_eq!(
            at(regs::SpVsInstrlen::offset(chip)),
            Some(info.instrlen(vs.instr_count)),
            "{name}"
        );
        assert_eq!(at(regs::SpFsObjStart::offset(chip)), Some(0x2000), "{name}");
    }
}
