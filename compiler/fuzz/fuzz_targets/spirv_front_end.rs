//! Feeds arbitrary bytes, read as SPIR-V words, to the front end and, when it accepts them,
//! to the passes. Any panic is a bug: invalid input must come back as an error.
//!
//! Seed the corpus with real modules (for example `glslangValidator -V` output of
//! `../tests/shaders/*.comp`) so that mutations reach deep into the front end.

#![no_main]

use libfuzzer_sys::fuzz_target;
use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::passes;
use parsnip_compiler::spirv::{translate, FrontEndOptions};

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let opts = FrontEndOptions {
        entry: "main".into(),
        ..Default::default()
    };
    if let Ok(mut shader) = translate(&words, &opts) {
        let bindings: Vec<_> = (0..4)
            .map(|b| (0, b, DescriptorKind::StorageBuffer, 2))
            .collect();
        let _ = passes::run_all(
            &mut shader,
            &DescriptorLayout::packed(&bindings),
            &mut |_, _| {},
        );
    }
});
