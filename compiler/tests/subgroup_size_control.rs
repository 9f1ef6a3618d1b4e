//! Required subgroup sizes (VK_EXT_subgroup_size_control) on the simulated a660 and
//! a740: compiled for waves of 64 and of 128 (the double wave size both have), the
//! shader runs at that wave size and its built-ins, reductions, scans and ballots are
//! those of subgroups of that size, against the CPU.

mod common;
mod corpus;
#[path = "../../cts/src/cases/subgroup_size_expectation.rs"]
mod subgroup_size_expectation;

use corpus::{Case, Expect};
use subgroup_size_expectation::{expected, GROUP, WORDS};

const GROUPS: usize = 2;
const N: usize = GROUP * GROUPS;

/// The cts's shader, which this test shares with its subgroups.required_sizes case.
fn spirv() -> Vec<u32> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cts/shaders/subgroup_size_control.comp");
    common::try_spirv_path(&path).unwrap()
}

fn required_size_on(gpu: &str, size: u32) {
    let v: Vec<u32> = corpus::random(17, N).iter().map(|x| x % 100_000).collect();
    let case = Case::new("subgroup_size_control", GROUPS as u32)
        .subgroup_size(size)
        .ssbo(0, common::u32s_to_bytes(&v))
        .ssbo(1, vec![0; N * WORDS * 4])
        .expect(Expect::U32(expected(&v, size as usize)));
    let spirv = spirv();
    let run = corpus::on_simulator::run(gpu, &case, &spirv).unwrap();
    assert_eq!(run.shader.wave_size, size, "{gpu}");
    case.check(&run.results)
        .unwrap_or_else(|e| panic!("{gpu}, size {size}: {e}"));
}

#[test]
fn required_subgroup_sizes_run_on_a660() {
    required_size_on("a660", 64);
    required_size_on("a660", 128);
}

#[test]
fn required_subgroup_sizes_run_on_a740() {
    required_size_on("a740", 64);
    required_size_on("a740", 128);
}

#[test]
fn sizes_the_gpu_does_not_have_are_refused() {
    let spirv = spirv();
    for size in [32, 256] {
        let options = parsnip_compiler::CompileOptions {
            gpu: "a660".into(),
            layout: Case::new("subgroup_size_control", 1)
                .ssbo(0, Vec::new())
                .ssbo(1, Vec::new())
                .layout(),
            required_subgroup_size: Some(size),
            ..Default::default()
        };
        let e = parsnip_compiler::compile(&spirv, &options).unwrap_err();
        assert!(e.message.contains("[64, 128]"), "{}", e.message);
    }
}
