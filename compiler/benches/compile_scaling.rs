//! How compile time grows with the length of a shader: the straight-line chains of
//! dependent multiply-adds of `tests/common/mad_chain.rs` (14 values live, one constant
//! per step) of 1,000, 8,000 and 20,000 steps, compiled for a660. Prints, per length, the
//! front end and IR passes' time, the back end's, the time per step and the result's
//! size, footprint and spills. Run with `cargo bench -p parsnip-compiler --bench
//! compile_scaling`.

#[path = "../tests/common/mad_chain.rs"]
mod mad_chain;

use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::{backend, compile_to_ir, target, CompileOptions};
use std::time::Instant;

fn main() {
    let options = CompileOptions {
        gpu: "a660".into(),
        layout: DescriptorLayout::packed(&[(0, 0, DescriptorKind::StorageBuffer, 1)]),
        ..CompileOptions::default()
    };
    let model = target::model(&options.gpu).expect("a660 is known");
    for steps in [1000, 8000, 20000] {
        let spirv = mad_chain::spirv(steps);
        let start = Instant::now();
        let ir = compile_to_ir(&spirv, &options).expect("the chain compiles");
        let front = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let shader = backend::compile(&ir, model.as_ref()).expect("the chain compiles");
        let back = start.elapsed().as_secs_f64();
        println!(
            "{steps:>6} steps: front end and passes {front:.3} s, back end {back:.3} s, \
             {:.2} us per step; {} instructions, {} registers, {} spills",
            (front + back) / steps as f64 * 1e6,
            shader.stats.instructions,
            shader.full_regs,
            shader.stats.spills
        );
    }
}
