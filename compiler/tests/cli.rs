//! The parsnip-compile command on a real shader.

mod common;

/// The `--stats` lines, in order.
const STAT_NAMES: [&str; 8] = [
    "instructions",
    "nops",
    "ss",
    "sy",
    "full_regs",
    "half_regs",
    "spills",
    "max_waves",
];

#[test]
fn stats_print_one_name_value_line_per_statistic() {
    let words = common::spirv("double");
    let out = compile_command(
        &words,
        &[
            "--gpu",
            "a740",
            "--stats",
            "--disasm",
            "--binding",
            "0:0:ssbo",
        ],
    )
    .unwrap();
    let stats: Vec<(&str, u32)> = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter_map(|(k, v)| v.parse().ok().map(|v| (k, v)))
        .collect();
    let names: Vec<&str> = stats.iter().map(|s| s.0).collect();
    assert_eq!(names, STAT_NAMES);
    assert!(out.contains("stib.b.untyped.1d.u32.1.imm.base0"), "{out}");
    assert!(out.contains("\nend\n"), "{out}");
    // Turnip compiles the same source (turnip/apps/double.comp) for a740: ours must need
    // no more registers and reach as many waves.
    let test = "stats_print_one_name_value_line_per_statistic";
    let Some(report) =
        parsnip_reference::reference_file(test, "turnip/a740/compute.pipeline-executable.txt")
    else {
        return;
    };
    let text = std::fs::read_to_string(report).unwrap();
    let turnip = |name: &str| -> u32 {
        text.lines()
            .find_map(|l| {
                let (k, v) = l.strip_prefix("stat ")?.split_once('=')?;
                (k.trim() == name).then(|| v.trim().parse().ok())?
            })
            .unwrap()
    };
    let ours = |name: &str| stats.iter().find(|s| s.0 == name).unwrap().1;
    assert!(ours("full_regs") <= turnip("Registers used"), "{out}");
    assert_eq!(ours("max_waves"), turnip("Max Waves Per Core"), "{out}");
}

/// Two sets holding storage buffers, an array of uniform buffers and texel buffers of both
/// kinds, with gaps in the binding numbers and a storage buffer that is declared but never
/// used.
const TWO_SETS: &str = r#"
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; } outp;
layout(set = 0, binding = 2) uniform Params { uint scale; uint bias; } params[3];
layout(set = 0, binding = 5) uniform usamplerBuffer lut;
layout(set = 1, binding = 1) readonly buffer In { uint data[]; } inp;
layout(set = 1, binding = 0) buffer Unused { uint data[]; } unused;
layout(set = 1, binding = 4) uniform writeonly uimageBuffer texout;
uint load_input(uint i) { return inp.data[i]; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = load_input(i) * params[2].scale + params[1].bias;
    outp.data[i] = v + texelFetch(lut, int(i)).x;
    imageStore(texout, int(i), uvec4(v));
}
"#;

/// Runs parsnip-compile on `words` written to a file, with `options` after the file name.
fn compile_command(words: &[u32], options: &[&str]) -> Result<String, String> {
    // Tests run in parallel: each call gets its own file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "parsnip-cli-layout-{}-{call}.spv",
        std::process::id()
    ));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let mut args = vec![path.to_str().unwrap().to_string()];
    args.extend(options.iter().map(|s| s.to_string()));
    let out = parsnip_compiler::cli::run(&args);
    let _ = std::fs::remove_file(&path);
    out
}

/// The descriptor each bindless access of a disassembly names, sorted: (opcode, set, i).
/// The set is the instruction's `.baseN`; the index is `t#N` for cat5 texture
/// instructions and the last source of the cat6 forms (ldc, ldib, stib).
fn descriptors(disasm: &str) -> Vec<(String, u32, u32)> {
    let mut out: Vec<(String, u32, u32)> = disasm
        .lines()
        .filter_map(|line| {
            let (mnemonic, operands) = line.trim().split_once(' ')?;
            let set = mnemonic
                .split('.')
                .find_map(|m| m.strip_prefix("base"))?
                .parse()
                .ok()?;
            // Sync flags such as "(sy)" come before the opcode.
            let opcode = mnemonic.rsplit(')').next()?.split('.').next()?.to_string();
            let index = match operands.split(", ").find_map(|o| o.strip_prefix("t#")) {
                Some(t) => t.parse().ok()?,
                None => operands.rsplit(", ").next()?.parse().ok()?,
            };
            Some((opcode, set, index))
        })
        .collect();
    out.sort();
    out
}

fn expect(list: &[(&str, u32, u32)]) -> Vec<(String, u32, u32)> {
    let mut v: Vec<_> = list
        .iter()
        .map(|&(o, s, i)| (o.to_string(), s, i))
        .collect();
    v.sort();
    v
}

/// The accesses TWO_SETS makes, given the first descriptor the layout gives outp,
/// params, lut (set 0), inp and texout (set 1): params[2] and params[1] are read.
fn two_sets_accesses(
    outp: u32,
    params: u32,
    lut: u32,
    inp: u32,
    texout: u32,
) -> Vec<(String, u32, u32)> {
    expect(&[
        ("ldc", 0, params + 2),
        ("ldc", 0, params + 1),
        ("isam", 0, lut),
        ("stib", 0, outp),
        ("ldib", 1, inp),
        ("stib", 1, texout),
    ])
}

#[test]
fn stats_need_no_layout_on_the_command_line() {
    // Issue 7's command line: `parsnip-compile SHADER.spv --stats`.
    let words = common::spirv_of("two_sets", TWO_SETS);
    let out = compile_command(&words, &["--stats"]).unwrap();
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(names, STAT_NAMES, "{out}");
}

#[test]
fn the_default_layout_packs_the_shaders_bindings_per_set() {
    // Packed by hand in binding order, as a pipeline layout holding the shader's
    // declarations is: set 0 = outp (0), params[3] (1-3), lut (4); set 1 = unused (0,
    // declared and named by the SPIR-V 1.5 entry point), inp (1), texout (2).
    let words = common::spirv_of("two_sets", TWO_SETS);
    for gpu in ["a660", "a740"] {
        let out = compile_command(&words, &["--gpu", gpu, "--disasm"]).unwrap();
        assert_eq!(
            descriptors(&out),
            two_sets_accesses(0, 1, 4, 1, 2),
            "{gpu}:\n{out}"
        );
    }
}

#[test]
fn the_default_layout_of_a_spirv_1_0_module_holds_what_its_functions_use() {
    // SPIR-V 1.0 entry points list no buffers: the layout holds what main and the
    // function it calls reference (inp is read in load_input), not the unused buffer.
    // Storage buffers are BufferBlock uniforms there, and must still be storage buffers.
    let words = common::spirv_for("two_sets_1_0", TWO_SETS, "vulkan1.0");
    let out = compile_command(&words, &["--disasm"]).unwrap();
    assert_eq!(descriptors(&out), two_sets_accesses(0, 1, 4, 0, 1), "{out}");
}

#[test]
fn binding_options_override_the_shaders_layout() {
    let words = common::spirv_of("two_sets", TWO_SETS);
    // An application layout with a binding the shader does not declare (set 0 binding 1,
    // two descriptors) and a larger array at set 1 binding 0: everything after moves.
    let out = compile_command(
        &words,
        &[
            "--disasm",
            "--binding",
            "0:1:ubo:2",
            "--binding",
            "1:0:ssbo:4",
        ],
    )
    .unwrap();
    assert_eq!(descriptors(&out), two_sets_accesses(0, 3, 6, 4, 5), "{out}");
    // An override replaces the shader's own entry, so a wrong kind is the shader's error.
    let err = compile_command(&words, &["--binding", "0:0:ubo"]).unwrap_err();
    assert!(
        err.contains("set 0 binding 0 is a UniformBuffer in the layout but the shader uses it as a StorageBuffer"),
        "{err}"
    );
}

#[test]
fn arrays_and_aliases_in_the_default_layout() {
    // glslang sizes `arr[]` by the largest constant index used (3 elements), so the
    // binding after it starts 3 descriptors later.
    let sized = common::spirv_of(
        "implicit_array",
        "#version 450\nlayout(local_size_x = 1) in;\n\
         layout(set = 0, binding = 1) buffer A { uint a[]; } arr[];\n\
         layout(set = 0, binding = 2) buffer B { uint b[]; } after;\n\
         void main() { after.b[0] = arr[2].a[0]; }\n",
    );
    let out = compile_command(&sized, &["--disasm"]).unwrap();
    assert_eq!(
        descriptors(&out),
        expect(&[("ldib", 0, 2), ("stib", 0, 3)]),
        "{out}"
    );
    // Two variables over one binding must agree on what its descriptor is.
    let aliased = common::spirv_of(
        "aliased",
        "#version 450\nlayout(local_size_x = 1) in;\n\
         layout(set = 0, binding = 0) buffer A { uint a[]; };\n\
         layout(set = 0, binding = 0) uniform B { uint b; };\n\
         void main() { a[0] = b; }\n",
    );
    let err = compile_command(&aliased, &["--stats"]).unwrap_err();
    assert!(
        err.contains("set 0 binding 0 is declared as StorageBuffer[1] by %")
            && err.contains("and as UniformBuffer[1] by %"),
        "{err}"
    );
}

/// A vertex and a fragment shader: the summary is followed by the stage information the
/// driver programs from.
#[test]
fn graphics_shaders_print_their_stage_information() {
    let vs = compile_command(&common::spirv_file("varyings.vert"), &[]).unwrap();
    assert!(vs.contains("stage: vertex\n"), "{vs}");
    // Four attributes, from r0.x on, each as wide as the shader reads it.
    assert!(vs.contains("input: location 0 -> r0.x x3 float\n"), "{vs}");
    assert!(vs.contains("input: location 2 -> r1.y x2 int\n"), "{vs}");
    assert!(
        vs.contains("vertex_id: r") && vs.contains("instance_id: r"),
        "{vs}"
    );
    assert!(vs.contains("output: PointSize <- "), "{vs}");
    assert!(
        vs.contains("clip_distances: 1\ncull_distances: 0\n"),
        "{vs}"
    );
    let frag = common::spirv_file("varyings.frag");
    let e = compile_command(&frag, &["--stage", "vert"]).unwrap_err();
    assert!(e.contains("is a fragment shader, not vertex"), "{e}");
    let fs = compile_command(&frag, &["--gpu", "a740", "--stage", "frag"]).unwrap();
    assert!(fs.contains("stage: fragment\n"), "{fs}");
    assert!(
        fs.contains("input: location 1 component 0 x2 Flat Center int -> inloc 2\n"),
        "{fs}"
    );
    assert!(fs.contains("ij: persp_pixel r0.x"), "{fs}");
    assert!(
        fs.contains("color: 1 <- ") && fs.contains(" x2 uint\n"),
        "{fs}"
    );
}
