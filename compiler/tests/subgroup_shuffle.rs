//! Subgroup shuffles (shuffle, xor, up, down, and in a divergent branch) compiled for
//! waves of 64 and of 128 and run on the simulated a660 and a740, against the CPU.
//! The shader and the expectation are the cts's subgroups.shuffles case's.

mod common;
mod corpus;
#[path = "../../cts/src/cases/subgroup_shuffle_expectation.rs"]
mod subgroup_shuffle_expectation;

use corpus::{Case, Expect};
use subgroup_shuffle_expectation::{expected, WORDS};

const N: usize = 256;

fn shuffles_on(gpu: &str, size: u32) {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cts/shaders/subgroup_shuffle.comp");
    let spirv = common::try_spirv_path(&path).unwrap();
    let v: Vec<u32> = corpus::random(61, N).iter().map(|x| x % 100_000).collect();
    let case = Case::new("subgroup_shuffle", (N / 128) as u32)
        .subgroup_size(size)
        .ssbo(0, common::u32s_to_bytes(&v))
        .ssbo(1, vec![0; N * WORDS * 4])
        .expect(Expect::U32(expected(&v, size as usize)));
    let run = corpus::on_simulator::run(gpu, &case, &spirv).unwrap();
    case.check(&run.results)
        .unwrap_or_else(|e| panic!("{gpu}, size {size}: {e}"));
}

#[test]
fn shuffles_match_the_cpu_on_a660() {
    shuffles_on("a660", 64);
    shuffles_on("a660", 128);
}

#[test]
fn shuffles_match_the_cpu_on_a740() {
    shuffles_on("a740", 64);
    shuffles_on("a740", 128);
}
