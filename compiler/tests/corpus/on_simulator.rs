//! Running a case on the simulated GPU: compiled for `gpu` with the case's layout and
//! specialisation, dispatched by the test fixture in `common::dispatch`.

use super::Case;
use crate::common::dispatch::{Binding, Dispatch, SimGpu};
use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::{compile, CompileOptions};

/// What a run produced: the compiled shader and the case's buffers afterwards.
pub struct Run {
    pub shader: CompiledShader,
    pub results: Vec<Vec<u8>>,
}

/// Compiles `case` (its SPIR-V given) for `gpu` and runs it on a fresh model of that GPU.
pub fn run(gpu: &str, case: &Case, spirv: &[u32]) -> Result<Run, String> {
    let layout = case.layout();
    let options = CompileOptions {
        gpu: gpu.into(),
        layout: layout.clone(),
        spec_constants: case.spec_constants.clone(),
        required_subgroup_size: case.subgroup_size,
        ..CompileOptions::default()
    };
    let shader = compile(spirv, &options).map_err(|e| format!("compile: {e}"))?;
    let bindings = case
        .buffers
        .iter()
        .map(|b| {
            let l = layout
                .find(b.set, b.binding)
                .ok_or_else(|| format!("set {} binding {} not in the layout", b.set, b.binding))?;
            Ok(Binding {
                set: b.set,
                descriptor: l.first_descriptor + b.element,
                kind: b.kind,
                format: b.format,
                data: &b.data,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let dispatch = Dispatch {
        shader: &shader,
        groups: case.groups,
        base_group: case.base_group,
        bindings,
        push_constants: &case.push_constants,
    };
    // A fresh model per run: a fault loses the device, and must not hide later runs.
    let results = SimGpu::new(gpu)
        .run(&dispatch)
        .map_err(|e| format!("{e}\n{}", shader.disassembly))?;
    Ok(Run { shader, results })
}
