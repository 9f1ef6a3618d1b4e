//! Texel buffers compile to the instructions freedreno's ir3 uses for them on a6xx and
//! a7xx (the corpus runs them on the simulator; this checks the forms): `isam` fetching
//! just the components read, one per texel, and `getbuf` for a uniform texel buffer;
//! typed 1D `ldib.b`/`stib.b`/`atomic.b` of the image's sampled type and `resinfo.b` for
//! a storage one. A binding the layout gives another kind gets an error saying so (images
//! and what the compiler refuses of them are `images.rs`'s).

mod common;
mod corpus;

use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::{compile, CompileOptions};

fn disassembly(shader: &str, gpu: &str) -> String {
    let case = corpus::all()
        .into_iter()
        .find(|c| c.shader == shader)
        .unwrap();
    let options = CompileOptions {
        gpu: gpu.into(),
        layout: case.layout(),
        ..CompileOptions::default()
    };
    compile(&common::spirv(shader), &options)
        .unwrap_or_else(|e| panic!("{shader} on {gpu}: {e}"))
        .disassembly
}

/// An instruction without its sync and join flags (`(sy)`, `(ss)`, `(jp)`).
fn body(line: &str) -> &str {
    let mut l = line;
    while let Some(rest) = ["(sy)", "(ss)", "(jp)"]
        .iter()
        .find_map(|f| l.strip_prefix(f))
    {
        l = rest;
    }
    l
}

/// How many instructions start with `prefix`.
fn count(text: &str, prefix: &str) -> usize {
    text.lines().filter(|l| body(l).starts_with(prefix)).count()
}

#[test]
fn uniform_texel_buffers_fetch_with_isam_and_size_with_getbuf() {
    for gpu in ["a660", "a740"] {
        let text = disassembly("texel_fetch", gpu);
        // One fetch per view, enabling the components from the first the shader reads
        // to the last: all of RGBA8 and of RG16I; x to w of R32UI, which reads x, y and w
        // (the constants it lacks), the hole filled; x and y of RG16F. The bindless
        // descriptor index is in the instruction.
        for fetch in [
            "isam.base0 (f32)(xyzw)",
            "isam.base0 (s32)(xyzw)",
            "isam.base0 (u32)(xyzw)",
            "isam.base0 (f32)(xy)",
        ] {
            assert_eq!(count(&text, fetch), 1, "{gpu}: {fetch}\n{text}");
        }
        assert_eq!(count(&text, "isam"), 4, "{gpu}\n{text}");
        for tex in ["t#0", "t#1", "t#2", "t#3"] {
            let sized = text
                .lines()
                .any(|l| body(l).starts_with("getbuf.base0 (u32)(x)") && l.ends_with(tex));
            assert!(sized, "{gpu}: no getbuf of {tex}\n{text}");
        }
        assert_eq!(count(&text, "getbuf"), 4, "{gpu}");
        assert_eq!(count(&text, "getsize"), 0, "{gpu}");
    }
}

#[test]
fn storage_texel_buffers_use_typed_image_instructions() {
    for gpu in ["a660", "a740"] {
        let text = disassembly("texel_storage", gpu);
        let expect = [
            // Loads of RGBA32F, RGBA16F (as f32: the format converts) and RGBA8UI.
            ("ldib.b.typed.1d.f32.4.imm.base0", 2),
            ("ldib.b.typed.1d.u32.4.imm.base0", 1),
            // Stores of four components to RGBA32F, RGBA16F and RGBA8.
            ("stib.b.typed.1d.f32.4.imm.base0", 3),
            // Atomics: unsigned on the R32UI view, signed min/max on the R32I one.
            ("atomic.b.add.typed.1d.u32.1.imm.base0", 2),
            ("atomic.b.or.typed.1d.u32.1.imm.base0", 1),
            ("atomic.b.xor.typed.1d.u32.1.imm.base0", 1),
            ("atomic.b.and.typed.1d.u32.1.imm.base0", 1),
            ("atomic.b.max.typed.1d.u32.1.imm.base0", 1),
            ("atomic.b.min.typed.1d.u32.1.imm.base0", 1),
            ("atomic.b.xchg.typed.1d.u32.1.imm.base0", 1),
            ("atomic.b.cmpxchg.typed.1d.u32.1.imm.base0", 1),
            ("atomic.b.min.typed.1d.s32.1.imm.base0", 1),
            ("atomic.b.max.typed.1d.s32.1.imm.base0", 1),
            // One size query per view.
            ("resinfo.b.untyped.1d.u32.1.imm.base0", 6),
        ];
        for (form, n) in expect {
            assert_eq!(count(&text, form), n, "{gpu}: {form}\n{text}");
        }
        assert_eq!(count(&text, "isam"), 0, "{gpu}");
    }
}

#[test]
fn descriptors_beyond_sixteen_go_through_a_register_pair() {
    // tables[17] and tables[16] (textureSize) in texel_arrays: the bindless immediate
    // form holds four bits of texture number.
    let text = disassembly("texel_arrays", "a660");
    assert_eq!(
        count(&text, "getbuf.s2en.nonuniform.base0 (u32)(x)"),
        1,
        "{text}"
    );
    assert_eq!(count(&text, "isam.s2en.nonuniform.base0"), 3, "{text}");
}

fn compile_error(name: &str, source: &str, layout: DescriptorLayout) -> String {
    let options = CompileOptions {
        layout,
        ..CompileOptions::default()
    };
    match compile(&common::spirv_of(name, source), &options) {
        Ok(_) => panic!("{name} compiled"),
        Err(e) => e.message,
    }
}

#[test]
fn a_texel_buffer_of_another_kind_in_the_layout_is_refused_by_name() {
    let layout = DescriptorLayout::packed(&[
        (0, 0, DescriptorKind::UniformTexelBuffer, 1),
        (0, 1, DescriptorKind::StorageBuffer, 1),
        (0, 2, DescriptorKind::StorageBuffer, 1),
    ]);
    // A texel buffer the pipeline layout calls a storage buffer.
    let fetch = "#version 450
        layout(local_size_x = 1) in;
        layout(set = 0, binding = 1) uniform textureBuffer t;
        layout(std430, set = 0, binding = 2) buffer Out { vec4 o; };
        void main() { o = texelFetch(t, 3); }";
    let e = compile_error("fetch", fetch, layout);
    assert!(
        e.contains("binding 1 is a StorageBuffer in the layout but the shader uses it as a UniformTexelBuffer"),
        "{e}"
    );
}
