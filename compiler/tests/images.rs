//! Images compile to the instructions freedreno's ir3 uses for them on a6xx and a7xx:
//! typed `ldib.b`/`stib.b`/`atomic.b` with one coordinate per dimension and the layer
//! (`.2d`, `.3d`) and `resinfo.b` for storage images; `isaml` for a fetch at a level,
//! `saml` for an explicit-LOD sample (`.a` for arrays, `.3d` for 3D, the layer moved to
//! the nearest one by adding 0.5), `getsize` at a level and `getinfo`'s `.z` for the
//! levels of sampled ones. The texture and sampler are the descriptors the layout puts
//! them in: a combined image sampler's element `i` is descriptors `2i` (texture) and
//! `2i + 1` (sampler) past its binding's first. What the compiler does not take is
//! refused by name. (The driver's tests run such shaders through the loader.)

mod common;

use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::{compile, CompileOptions};

use DescriptorKind::{
    CombinedImageSampler as Combined, SampledImage as Sampled, Sampler, StorageBuffer,
    StorageImage as Storage, UniformTexelBuffer,
};

fn options(gpu: &str, bindings: &[(u32, u32, DescriptorKind, u32)]) -> CompileOptions {
    CompileOptions {
        gpu: gpu.into(),
        layout: DescriptorLayout::packed(bindings),
        ..CompileOptions::default()
    }
}

fn disassembly(name: &str, source: &str, bindings: &[(u32, u32, DescriptorKind, u32)]) -> String {
    let spirv = common::spirv_of(name, source);
    let mut out = String::new();
    for gpu in ["a660", "a740"] {
        let text = compile(&spirv, &options(gpu, bindings))
            .unwrap_or_else(|e| panic!("{name} on {gpu}: {e}"))
            .disassembly;
        out.push_str(&text);
    }
    out
}

fn compile_error(name: &str, source: &str, bindings: &[(u32, u32, DescriptorKind, u32)]) -> String {
    match compile(&common::spirv_of(name, source), &options("a660", bindings)) {
        Ok(_) => panic!("{name} compiled"),
        Err(e) => e.message,
    }
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

/// The instructions (of both GPUs' programs) starting with `prefix`.
fn lines<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines()
        .map(body)
        .filter(|l| l.starts_with(prefix))
        .collect()
}

#[test]
fn storage_images_use_typed_image_instructions_with_a_coordinate_per_dimension() {
    let source = "#version 450
        layout(local_size_x = 1) in;
        layout(set = 0, binding = 0, rgba8) uniform writeonly image2D plane;
        layout(set = 0, binding = 1, r32f) uniform readonly image2DArray layers;
        layout(set = 0, binding = 2, r32ui) uniform uimage3D volume;
        layout(set = 0, binding = 3, rgba16f) uniform writeonly imageCube cube;
        layout(std430, set = 0, binding = 4) buffer Out { ivec4 size; };
        void main() {
            ivec3 p = ivec3(gl_GlobalInvocationID);
            float v = imageLoad(layers, p).x;
            imageStore(plane, p.xy, vec4(v));
            imageAtomicMax(volume, p, 7u);
            imageStore(cube, p, vec4(1.0));
            size = ivec4(imageSize(layers), 0);
        }";
    let bindings = [
        (0, 0, Storage, 1),
        (0, 1, Storage, 1),
        (0, 2, Storage, 1),
        (0, 3, Storage, 1),
        (0, 4, StorageBuffer, 1),
    ];
    let text = disassembly("storage_images", source, &bindings);
    // Per GPU: a 2D store of four components, a 2D array load (x, y, layer) of the one
    // the format has, a 3D atomic, a cube store as a 2D array (x, y, face), and the
    // array's size with three coordinates.
    for (form, descriptor, n) in [
        ("stib.b.typed.2d.f32.4.imm.base0", ", 0", 2),
        ("ldib.b.typed.3d.f32.1.imm.base0", ", 1", 2),
        ("atomic.b.max.typed.3d.u32.1.imm.base0", ", 2", 2),
        ("stib.b.typed.3d.f32.4.imm.base0", ", 3", 2),
        ("resinfo.b.untyped.3d.u32.1.imm.base0", ", 1", 2),
    ] {
        let found = lines(&text, form);
        assert_eq!(found.len(), n, "{form}\n{text}");
        assert!(
            found.iter().all(|l| l.ends_with(descriptor)),
            "{form} of descriptor{descriptor}\n{text}"
        );
    }
}

#[test]
fn sampled_images_fetch_sample_and_query_through_the_texture_unit() {
    let source = "#version 450
        layout(local_size_x = 1) in;
        layout(set = 0, binding = 0) uniform sampler2D pair[2];
        layout(set = 0, binding = 1) uniform texture2DArray layers;
        layout(set = 0, binding = 2) uniform sampler samp;
        layout(set = 0, binding = 3) uniform sampler3D volume;
        layout(set = 0, binding = 4) uniform sampler1D line;
        layout(std430, set = 0, binding = 5) buffer Out { vec4 o[5]; ivec4 size; int levels; };
        void main() {
            ivec2 p = ivec2(gl_GlobalInvocationID.xy);
            o[0] = texelFetch(pair[1], p, 2);
            o[1] = textureLod(sampler2DArray(layers, samp), vec3(0.5, 0.5, 2.0), 1.0);
            o[2] = textureLod(volume, vec3(0.25), 0.0);
            o[3] = texelFetch(line, p.x, 0);
            o[4] = textureLod(pair[0], vec2(0.5), 0.0);
            size = ivec4(textureSize(sampler2DArray(layers, samp), 1), 0);
            levels = textureQueryLevels(volume);
        }";
    // Descriptors: pair 0-3 (texture, sampler, texture, sampler), layers 4, samp 5,
    // volume 6-7, line 8-9.
    let bindings = [
        (0, 0, Combined, 2),
        (0, 1, Sampled, 1),
        (0, 2, Sampler, 1),
        (0, 3, Combined, 1),
        (0, 4, Combined, 1),
        (0, 5, StorageBuffer, 1),
    ];
    let text = disassembly("sampled_images", source, &bindings);
    // Per GPU, with the texture and sampler each names.
    for (form, names, n) in [
        // A fetch at level 2 of pair[1], whose texture is descriptor 2; fetches use
        // sampler 0.
        ("isaml.base0 (f32)(xyzw)", "s#0, t#2", 1),
        // A fetch of the 1D view: x then a y of 0.
        ("isaml.base0 (f32)(xyzw)", "s#0, t#8", 1),
        // Samples: the array through the separate sampler, the 3D view and pair[0].
        ("saml.a.base0 (f32)(xyzw)", "s#5, t#4", 1),
        ("saml.3d.base0 (f32)(xyzw)", "s#7, t#6", 1),
        ("saml.base0 (f32)(xyzw)", "s#1, t#0", 1),
        ("getsize.a.base0 (u32)(xyzw)", "t#4", 1),
        ("getinfo.base0 (u32)(z)", "t#6", 1),
    ] {
        let found: Vec<&str> = lines(&text, form)
            .into_iter()
            .filter(|l| l.ends_with(names))
            .collect();
        assert_eq!(found.len(), 2 * n, "{form} {names}\n{text}");
    }
    // The layer 2.0 is sampled as 2.5 (the hardware rounds down) and the 1D view's y
    // is 0 for the fetch.
    assert!(text.contains(", 0x40200000"), "layer 2.5\n{text}");
    assert!(!text.contains("0x40000000"), "layer 2.0 unadjusted\n{text}");
}

#[test]
fn dynamically_indexed_images_name_texture_and_sampler_in_a_register_pair() {
    let source = "#version 450
        layout(local_size_x = 1) in;
        layout(set = 0, binding = 0) uniform sampler2D many[8];
        layout(std430, set = 0, binding = 1) buffer Out { vec4 o; int i; };
        void main() { o = textureLod(many[i], vec2(0.5), 0.0); }";
    let text = disassembly(
        "indexed_images",
        source,
        &[(0, 0, Combined, 8), (0, 1, StorageBuffer, 1)],
    );
    assert_eq!(
        lines(&text, "saml.s2en.nonuniform.base0 (f32)(xyzw)").len(),
        2,
        "{text}"
    );
    // Element i's texture is descriptor 2i (i shifted left once) and its sampler the
    // next (plus one), the pair the instruction's register names.
    for (op, form) in [("shl.b", "shl.b 2i"), ("add.u", "add.u 2i + 1")] {
        assert!(
            text.lines()
                .any(|l| body(l).starts_with(op) && l.ends_with(", 1")),
            "{form}\n{text}"
        );
    }
}

#[test]
fn what_the_compiler_does_not_take_is_refused_by_name() {
    let out = "layout(std430, set = 0, binding = 3) buffer Out { vec4 o; };";
    let refused =
        |name: &str, decl: &str, body: &str, bindings: &[(u32, u32, DescriptorKind, u32)]| {
            let source = format!(
            "#version 450\nlayout(local_size_x = 1) in;\n{decl}\n{out}\nvoid main() {{ {body} }}"
        );
            compile_error(name, &source, bindings)
        };
    let with_out = |b: &[(u32, u32, DescriptorKind, u32)]| {
        let mut v = b.to_vec();
        v.push((0, 3, StorageBuffer, 1));
        v
    };
    let e = refused(
        "cube_array_sample",
        "layout(set = 0, binding = 0) uniform samplerCubeArray c;",
        "o = textureLod(c, vec4(1.0), 0.0);",
        &with_out(&[(0, 0, Combined, 1)]),
    );
    assert!(e.contains("SampledCubeArray is not supported"), "{e}");

    let e = refused(
        "fetch_offset",
        "layout(set = 0, binding = 0) uniform sampler2D t;",
        "o = texelFetchOffset(t, ivec2(0), 0, ivec2(1));",
        &with_out(&[(0, 0, Combined, 1)]),
    );
    assert!(
        e.contains("image operands") && e.contains("not supported"),
        "{e}"
    );

    let e = refused(
        "gather_offsets",
        "layout(set = 0, binding = 0) uniform sampler2D t;",
        "o = textureGatherOffsets(t, vec2(0.5), ivec2[4](ivec2(0), ivec2(1), ivec2(2), ivec2(3)));",
        &with_out(&[(0, 0, Combined, 1)]),
    );
    assert!(
        e.contains("image operands") && e.contains("not supported"),
        "{e}"
    );

    let e = refused(
        "other_set",
        "layout(set = 0, binding = 0) uniform texture2D t;\
         layout(set = 1, binding = 0) uniform sampler s;",
        "o = textureLod(sampler2D(t, s), vec2(0.5), 0.0);",
        &[
            (0, 0, Sampled, 1),
            (1, 0, Sampler, 1),
            (0, 3, StorageBuffer, 1),
        ],
    );
    assert!(e.contains("in different sets are not supported"), "{e}");

    let e = refused(
        "multisampled",
        "layout(set = 0, binding = 0) uniform sampler2DMS t;",
        "o = texelFetch(t, ivec2(0), 1);",
        &with_out(&[(0, 0, Combined, 1)]),
    );
    assert!(e.contains("multisampled images are not supported"), "{e}");

    // An image the pipeline layout calls a texel buffer.
    let e = refused(
        "kind",
        "layout(set = 0, binding = 0) uniform sampler2D t;",
        "o = texelFetch(t, ivec2(0), 0);",
        &with_out(&[(0, 0, UniformTexelBuffer, 1)]),
    );
    assert!(
        e.contains("binding 0 is a UniformTexelBuffer in the layout but the shader uses it as a SampledImage or CombinedImageSampler"),
        "{e}"
    );
}
