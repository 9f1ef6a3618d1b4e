//! The compute corpus on the IR interpreter: each shader runs as the front end emits it and
//! again after every pass, and each result must match what the CPU computed, so a pass
//! that breaks a shader is named.

mod common;
mod corpus;

use parsnip_compiler::ir::interp::{self, BufferBinding, Dispatch};
use parsnip_compiler::ir::texel_format::TexelFormat;
use parsnip_compiler::ir::{BitSize, Shader};
use parsnip_compiler::passes;
use parsnip_compiler::spirv::{translate, FrontEndOptions};

fn run(case: &corpus::Case, shader: &Shader, stage: &str) -> Result<(), String> {
    let mut d = Dispatch {
        groups: case.groups,
        base_group: case.base_group,
        buffers: case
            .buffers
            .iter()
            .map(|b| BufferBinding {
                set: b.set,
                binding: b.binding,
                element: b.element,
                data: b.data.clone(),
                format: b.format.and_then(TexelFormat::from_spirv),
            })
            .collect(),
        push_constants: case.push_constants.clone(),
        layout: case.layout(),
        ..Default::default()
    };
    interp::run(shader, &mut d)
        .map_err(|e| format!("{} after {stage}: {e}\n{shader}", case.shader))?;
    let results: Vec<Vec<u8>> = d.buffers.into_iter().map(|b| b.data).collect();
    case.check(&results)
        .map_err(|e| format!("{} after {stage}: {e}\n{shader}", case.shader))
}

#[test]
fn corpus_matches_the_cpu_after_every_pass() {
    let cases = corpus::all();
    let mut failures = Vec::new();
    let mut stages = 0;
    for case in &cases {
        let words = common::spirv(case.shader);
        let opts = FrontEndOptions {
            entry: "main".into(),
            spec_constants: case.spec_constants.clone(),
        };
        let mut shader = match translate(&words, &opts) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: {e}", case.shader));
                continue;
            }
        };
        if let Err(e) = run(case, &shader, "the front end") {
            failures.push(e);
            continue;
        }
        let mut first_error = None;
        let layout = case.layout();
        let result = passes::run_all(&mut shader, &layout, &mut |name, s| {
            stages += 1;
            if first_error.is_none() {
                if let Err(e) = run(case, s, name) {
                    first_error = Some(e);
                }
            }
        });
        if let Err(e) = result {
            failures.push(format!("{}: {e}", case.shader));
        }
        // ir3 has no 64-bit integer registers: nothing 64-bit may be left for the back end.
        for block in &shader.blocks {
            let defs = block
                .phis
                .iter()
                .map(|p| p.dst)
                .chain(block.instrs.iter().filter_map(|i| i.dst));
            for d in defs {
                if shader.value_size(d) == BitSize::B64 {
                    failures.push(format!(
                        "{}: {d} is still 64-bit after the passes",
                        case.shader
                    ));
                }
            }
        }
        if let Some(e) = first_error {
            failures.push(e);
        }
    }
    println!("{} shaders, {stages} pass results checked", cases.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
