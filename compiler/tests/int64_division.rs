//! 64-bit division and remainder (shaderInt64 is advertised, and Taichi's i64 loops and
//! Kompute's int64 division failed with "64-bit sdiv is not supported"). UDiv, UMod, SDiv
//! and SMod on the edge cases run in the corpus (`int64_division`) on the IR interpreter
//! after every pass and on both simulated GPUs; here they run on 256 pairs of every sign
//! on the simulators, and OpSRem, which glslang never emits for GLSL's %, with the shape
//! of the code: a loop, not 64 unrolled steps.

mod common;
mod corpus;

use corpus::types::division_pairs;
use corpus::{bytes, on_simulator, Case, Expect};

const GPUS: [&str; 2] = ["a660", "a740"];

/// `x % y` on int64_t compiled by glslang (OpSMod), with every OpSMod turned into
/// OpSRem: walks the module's instructions (SPIR-V's physical layout: a five-word
/// header, then each instruction's word count and opcode in its first word).
fn srem_module() -> Vec<u32> {
    const OP_SMOD: u32 = 139;
    const OP_SREM: u32 = 138;
    let mut words = common::spirv_of(
        "int64_srem",
        "#version 450\n#extension GL_ARB_gpu_shader_int64 : require\n\
         layout(local_size_x = 64) in;\n\
         layout(binding = 0) readonly buffer In { int64_t v[]; };\n\
         layout(binding = 1) writeonly buffer Out { int64_t o[]; };\n\
         void main() {\n    uint i = gl_GlobalInvocationID.x;\n\
         \x20   o[i] = v[2u * i] % v[2u * i + 1u];\n}\n",
    );
    let mut at = 5;
    let mut patched = 0;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if words[at] & 0xffff == OP_SMOD {
            words[at] = (words[at] & 0xffff_0000) | OP_SREM;
            patched += 1;
        }
        at += count.max(1);
    }
    assert_eq!(patched, 1, "one OpSMod in the module");
    words
}

/// `division_pairs` with the signs of the operands in every combination, in turn.
fn mixed_pairs(n: usize) -> Vec<(u64, u64)> {
    let neg = |v: u64| (v as i64).wrapping_neg() as u64;
    division_pairs(n)
        .into_iter()
        .enumerate()
        .map(|(k, (a, b))| {
            let a = if k % 2 == 1 { neg(a) } else { a };
            let b = if k % 4 >= 2 { neg(b) } else { b };
            if a == i64::MIN as u64 && b == u64::MAX {
                (a, 3)
            } else {
                (a, b)
            }
        })
        .collect()
}

fn words_of(pairs: &[(u64, u64)]) -> Vec<u32> {
    pairs
        .iter()
        .flat_map(|&(a, b)| [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32])
        .collect()
}

/// The corpus shader over 256 pairs, on the simulator only.
#[test]
fn udiv_umod_sdiv_smod_match_the_cpu() {
    let spirv = common::spirv("int64_division");
    let pairs = mixed_pairs(256);
    let mut want = Vec::new();
    for &(a, b) in &pairs {
        let (x, y) = (a as i64, b as i64);
        let q = [a / b, a % b, x.wrapping_div(y) as u64];
        for v in q.into_iter().chain([corpus::types::smod(x, y) as u64]) {
            want.extend_from_slice(&[v as u32, (v >> 32) as u32]);
        }
    }
    let case = Case::new("int64_division", 16)
        .ssbo(0, bytes(&words_of(&pairs)))
        .ssbo(1, vec![0; 256 * 32])
        .expect(Expect::U32(want));
    for gpu in GPUS {
        let run = on_simulator::run(gpu, &case, &spirv).unwrap_or_else(|e| panic!("{gpu}: {e}"));
        case.check(&run.results)
            .unwrap_or_else(|e| panic!("{gpu}: {e}\n{}", run.shader.disassembly));
    }
}

#[test]
fn srem_takes_the_sign_of_the_dividend() {
    let spirv = srem_module();
    let pairs = mixed_pairs(128);
    let want: Vec<u32> = pairs
        .iter()
        .flat_map(|&(a, b)| {
            let r = (a as i64).wrapping_rem(b as i64) as u64;
            [r as u32, (r >> 32) as u32]
        })
        .collect();
    // The sign rule matters: in at least a quarter of the pairs SMod would differ.
    let smod_differs = pairs
        .iter()
        .filter(|&&(a, b)| {
            corpus::types::smod(a as i64, b as i64) != (a as i64).wrapping_rem(b as i64)
        })
        .count();
    assert!(smod_differs >= 32, "{smod_differs}");
    let case = Case::new("int64_srem", 2)
        .ssbo(0, bytes(&words_of(&pairs)))
        .ssbo(1, vec![0; 128 * 8])
        .expect(Expect::U32(want));
    for gpu in GPUS {
        let run = on_simulator::run(gpu, &case, &spirv).unwrap_or_else(|e| panic!("{gpu}: {e}"));
        case.check(&run.results)
            .unwrap_or_else(|e| panic!("{gpu}: {e}\n{}", run.shader.disassembly));
        // 64 steps of about 25 instructions each would be 1,600 unrolled.
        let s = &run.shader.stats;
        assert!(
            s.instructions < 400,
            "{gpu}: {} instructions",
            s.instructions
        );
        println!("{gpu}: {} instructions", s.instructions);
    }
}
