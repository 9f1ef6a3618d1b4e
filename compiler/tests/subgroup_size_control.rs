//! Required subgroup sizes (VK_EXT_subgroup_size_control) on the simulated a660 and
//! a740: compiled for waves of 64 and of 128 (the double wave size both have), the
//! shader runs at that wave size and its built-ins, reductions, scans and ballots are
//! those of subgroups of that size, against the CPU.

mod common;
mod corpus;

use corpus::{Case, Expect};

const GROUP: usize = 256;
const GROUPS: usize = 2;
const N: usize = GROUP * GROUPS;

/// What invocation `i` writes with subgroups of `size` cut from the local index.
fn expected(v: &[u32], size: usize) -> Vec<u32> {
    let mut o = Vec::with_capacity(N * 8);
    for i in 0..N {
        let (start, lane) = (i / size * size, i % size);
        let sg = &v[start..start + size];
        let mut ballot = [0u32; 4];
        for (l, x) in sg.iter().enumerate() {
            if x & 1 != 0 {
                ballot[l / 32] |= 1 << (l % 32);
            }
        }
        o.extend_from_slice(&[
            size as u32,
            lane as u32,
            ((i % GROUP) / size) as u32,
            (GROUP / size) as u32,
            sg.iter().fold(0u32, |a, x| a.wrapping_add(*x)),
            sg[..lane].iter().copied().max().unwrap_or(0),
            ballot.iter().map(|w| w.count_ones()).sum(),
            ballot[0] ^ ballot[1] ^ ballot[2] ^ ballot[3],
        ]);
    }
    o
}

fn required_size_on(gpu: &str, size: u32) {
    let v: Vec<u32> = corpus::random(17, N).iter().map(|x| x % 100_000).collect();
    let case = Case::new("subgroup_size_control", GROUPS as u32)
        .subgroup_size(size)
        .ssbo(0, common::u32s_to_bytes(&v))
        .ssbo(1, vec![0; N * 8 * 4])
        .expect(Expect::U32(expected(&v, size as usize)));
    let spirv = common::spirv(case.shader);
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
    let spirv = common::spirv("subgroup_size_control");
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
