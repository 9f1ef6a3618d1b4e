//! The Vulkan memory model (VK_KHR_vulkan_memory_model with device scope): the last of
//! the dispatch's invocations to arrive at a device-scope acquire-release counter sums
//! what every work group wrote before its release, on the simulated a660 and a740; and
//! the barriers are the instructions Mesa's ir3 gives the hardware for them: `fence.g`
//! with `.r.w.l` for a release, and on a7xx, whose shader caches other work groups'
//! writes do not reach, a device-scope acquire as `fence.g.w` then `ccinv`.

mod common;
mod corpus;

use corpus::{Case, Expect};
use parsnip_isa::{decode, Instr, IsaGen, Op, Opcode};

const GROUPS: u32 = 4;
const N: u32 = 64 * GROUPS;

fn instructions(gpu: &str, code: &[u32]) -> Vec<Instr> {
    let gen = if gpu.starts_with("a7") {
        IsaGen::A7xx
    } else {
        IsaGen::A6xx
    };
    code.chunks_exact(2)
        .map(|w| decode(u64::from(w[0]) | u64::from(w[1]) << 32, gen).unwrap())
        .collect()
}

/// The barrier-class instructions in program order, as text: `fence.glrw`, `ccinv`,
/// `bar.g`.
fn barriers(code: &[Instr]) -> Vec<String> {
    code.iter()
        .filter_map(|i| match &i.op {
            Op::Barrier(b) => {
                let flags: String = [(b.g, 'g'), (b.l, 'l'), (b.r, 'r'), (b.w, 'w')]
                    .iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, c)| *c)
                    .collect();
                Some(format!("{}.{flags}", b.op.name()))
            }
            Op::Bare(Opcode::Ccinv) => Some("ccinv".into()),
            _ => None,
        })
        .collect()
}

fn last_group_sums_on(gpu: &str) {
    let want: u32 = (0..N).map(|i| i * 3 + 1).sum();
    let case = Case::new("memory_model_last_group", GROUPS)
        .ssbo(0, vec![0; N as usize * 4])
        .ssbo(1, vec![0; 8])
        .expect(Expect::U32(vec![N, want]));
    let spirv = common::spirv(case.shader);
    let run = corpus::on_simulator::run(gpu, &case, &spirv).unwrap();
    case.check(&run.results)
        .unwrap_or_else(|e| panic!("{gpu}: {e}\n{}", run.shader.disassembly));
    let code = instructions(gpu, &run.shader.code);
    let got = barriers(&code);
    // The release barrier, the atomic's release half, its acquire half, the atomic
    // store's release half.
    let want = if gpu.starts_with("a7") {
        [
            "fence.glrw",
            "fence.glrw",
            "fence.gw",
            "ccinv",
            "fence.glrw",
        ]
        .as_slice()
    } else {
        ["fence.glrw", "fence.glrw", "fence.glrw", "fence.glrw"].as_slice()
    };
    assert_eq!(got, want, "{gpu}:\n{}", run.shader.disassembly);
}

#[test]
fn the_last_group_sees_every_release_on_a660() {
    last_group_sums_on("a660");
}

#[test]
fn the_last_group_sees_every_release_on_a740() {
    last_group_sums_on("a740");
}

#[test]
fn work_group_barriers_are_bar_g_after_a_shared_fence() {
    let spirv = common::spirv("memory_barrier");
    for gpu in ["a660", "a740"] {
        let options = parsnip_compiler::CompileOptions {
            gpu: gpu.into(),
            layout: Case::new("memory_barrier", 1)
                .ssbo(0, vec![0; 128])
                .layout(),
            ..Default::default()
        };
        let shader = parsnip_compiler::compile(&spirv, &options).unwrap();
        let got = barriers(&instructions(gpu, &shader.code));
        // memoryBarrierShared(): fence.rw (no .g, no .l for shared memory alone);
        // barrier(): its own shared fence, then bar.g; the second barrier() the same.
        let round = ["fence.rw", "fence.rw", "bar.g", "fence.rw", "bar.g"];
        assert!(
            !got.is_empty() && got.len().is_multiple_of(round.len()),
            "{gpu}: {got:?}"
        );
        for chunk in got.chunks(round.len()) {
            assert_eq!(chunk, round, "{gpu}: {got:?}");
        }
    }
}
