//! Mutated SPIR-V must give an error or a shader, never a panic: the same property the fuzz
//! target (compiler/fuzz) checks at length, run here on every test run.

mod common;

use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::spirv::{translate, FrontEndOptions};
use parsnip_compiler::stage_info::Stage;
use parsnip_compiler::{backend, passes, target};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Seeds: real modules covering loops, memory, atomics, functions and GLSL.std.450.
fn seeds() -> &'static Vec<Vec<u32>> {
    static SEEDS: OnceLock<Vec<Vec<u32>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        [
            "loops",
            "atomics_shared",
            "structs_functions",
            "transcendental",
            "switch",
            "int64",
        ]
        .iter()
        .map(|n| common::spirv(n))
        .chain(GRAPHICS_SEEDS.iter().map(|f| common::spirv_file(f)))
        .collect()
    })
}

/// Vertex and fragment shaders: inputs, outputs, built-ins and interpolation modes.
const GRAPHICS_SEEDS: [&str; 2] = ["varyings.vert", "varyings.frag"];

#[derive(Debug, Clone)]
enum Mutation {
    /// Replace word `at` (modulo the length) by `value`.
    Set(usize, u32),
    /// Flip bit `bit` of word `at`.
    Flip(usize, u8),
    /// Cut the module at `at`.
    Truncate(usize),
    /// Copy `len` words from `from` over `to`.
    Splice(usize, usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (
            any::<usize>(),
            prop_oneof![any::<u32>(), 0u32..64, Just(u32::MAX)]
        )
            .prop_map(|(a, v)| Mutation::Set(a, v)),
        (any::<usize>(), 0u8..32).prop_map(|(a, b)| Mutation::Flip(a, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>(), 1usize..8).prop_map(|(f, t, l)| Mutation::Splice(f, t, l)),
    ]
}

fn apply(words: &mut Vec<u32>, m: &Mutation) {
    if words.len() <= 5 {
        return;
    }
    // Leave the header's magic number alone so that the mutation reaches the instructions.
    let body = |i: usize, len: usize| 1 + i % (len - 1);
    match *m {
        Mutation::Set(at, v) => {
            let i = body(at, words.len());
            words[i] = v;
        }
        Mutation::Flip(at, bit) => {
            let i = body(at, words.len());
            words[i] ^= 1 << bit;
        }
        Mutation::Truncate(at) => {
            let i = body(at, words.len());
            words.truncate(i);
        }
        Mutation::Splice(from, to, len) => {
            let n = words.len();
            for k in 0..len {
                let (f, t) = (body(from + k, n), body(to + k, n));
                words[t] = words[f];
            }
        }
    }
}

fn layout() -> DescriptorLayout {
    let list: Vec<_> = (0..4)
        .map(|b| (0, b, DescriptorKind::StorageBuffer, 1))
        .collect();
    DescriptorLayout::packed(&list)
}

proptest! {
    // 300 cases by default; PROPTEST_CASES raises it for a longer search.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_modules_never_panic(seed in 0usize..8, muts in prop::collection::vec(mutation(), 1..4)) {
        let mut words = seeds()[seed].clone();
        for m in &muts {
            apply(&mut words, m);
        }
        let opts = FrontEndOptions { entry: "main".into(), ..Default::default() };
        if let Ok(mut shader) = translate(&words, &opts) {
            let graphics = shader.stage != Stage::Compute;
            if passes::run_all(&mut shader, &layout(), &mut |_, _| {}).is_ok() && graphics {
                // The graphics back end is new: run it too.
                let _ = backend::compile(&shader, target::model("a660").unwrap().as_ref());
            }
        }
    }
}

#[test]
fn errors_name_the_instruction() {
    let mut words = common::spirv("loops");
    // Find an OpIAdd (opcode 128) and make its second operand a non-existent id.
    let mut i = 5;
    while i < words.len() {
        let (count, op) = (words[i] >> 16, words[i] & 0xffff);
        if op == 128 {
            words[i + 4] = 0x00ff_ffff;
            break;
        }
        i += count.max(1) as usize;
    }
    let opts = FrontEndOptions {
        entry: "main".into(),
        ..Default::default()
    };
    let err = translate(&words, &opts).expect_err("an undefined operand must be refused");
    assert!(err.message.contains("OpIAdd"), "{}", err.message);
}

#[test]
fn unsupported_features_are_refused_by_name() {
    // A module whose entry point is not a compute shader.
    let mut words = common::spirv("double");
    let mut i = 5;
    while i < words.len() {
        let (count, op) = (words[i] >> 16, words[i] & 0xffff);
        if op == 15 {
            // OpEntryPoint: execution model GLCompute (5) -> Geometry (3).
            words[i + 1] = 3;
            break;
        }
        i += count.max(1) as usize;
    }
    let opts = FrontEndOptions {
        entry: "main".into(),
        ..Default::default()
    };
    let err = translate(&words, &opts).expect_err("a geometry shader must be refused");
    assert!(
        err.message.contains("Geometry shader; only compute"),
        "{}",
        err.message
    );
    let opts = FrontEndOptions {
        entry: "other".into(),
        ..Default::default()
    };
    let err = translate(&common::spirv("double"), &opts).expect_err("missing entry point");
    assert!(err.message.contains("\"other\""), "{}", err.message);
}
