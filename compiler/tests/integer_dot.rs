//! Integer dot products (SPV_KHR_integer_dot_product), every signedness with and
//! without saturating accumulation, on packed 4x8-bit scalars and 32- and 64-bit vectors,
//! compiled for the simulated a660 and a740 and run there against the exact values
//! the CPU computes in 128 bits. The shader is SPIR-V assembly (glslang 12 has no
//! GL_EXT_integer_dot_product), the cts's, assembled by spirv-as from SPIRV-Tools.

mod common;
mod corpus;
#[path = "../../cts/src/cases/integer_dot_expectation.rs"]
mod integer_dot_expectation;

use corpus::Case;
use integer_dot_expectation::{expected, inputs, WORDS};
use std::path::PathBuf;
use std::process::Command;

const N: usize = 128;

fn assemble(name: &str, tag: &str) -> Vec<u32> {
    // The cts's shader, which this test shares with its integer_dot.all_forms case.
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cts/shaders")
        .join(format!("{name}.spvasm"));
    let out = std::env::temp_dir().join(format!("parsnip-{}-{tag}-{name}.spv", std::process::id()));
    let status = Command::new("spirv-as")
        .args(["--target-env", "vulkan1.2", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .expect("spirv-as (SPIRV-Tools) runs");
    assert!(status.success(), "spirv-as failed on {}", src.display());
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn dot_products_on(gpu: &str) {
    let v = inputs(&corpus::random(29, 4 * N));
    let want = expected(&v);
    // The defined results reach the saturating forms' bounds.
    for bound in [i32::MAX as u32, i32::MIN as u32, u32::MAX] {
        assert!(want.contains(&Some(bound)), "no result at {bound:#x}");
    }
    let case = Case::new("integer_dot", (N / 64) as u32)
        .ssbo(0, common::u32s_to_bytes(&v))
        .ssbo(1, vec![0; N * WORDS * 4]);
    let run = corpus::on_simulator::run(gpu, &case, &assemble("integer_dot", gpu)).unwrap();
    let got: Vec<u32> = run.results[1]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if let Some(w) = w {
            assert_eq!(
                g,
                w,
                "{gpu}: word {i} (invocation {}, result {})",
                i / 15,
                i % 15
            );
        }
    }
}

#[test]
fn integer_dot_products_match_the_cpu_on_a660() {
    dot_products_on("a660");
}

#[test]
fn integer_dot_products_match_the_cpu_on_a740() {
    dot_products_on("a740");
}
