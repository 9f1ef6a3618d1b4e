//! Every vertex and fragment shader of the outside corpora (glslang's test suite, Turnip's
//! reference apps) either compiles for a660 and a740 or is refused with an error, never a
//! panic; the count of each is printed. The reference apps' shaders that use only what the
//! compiler supports must compile, with the interfaces their pipelines need.

mod common;

use parsnip_compiler::backend::CompiledShader;
use parsnip_compiler::descriptor_layout::DescriptorLayout;
use parsnip_compiler::spirv::{declared_bindings, FrontEndOptions};
use parsnip_compiler::stage_info::{Interpolation, RegId, StageInfo, VaryingSlot};
use parsnip_compiler::{compile, CompileOptions};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

const GPUS: [&str; 2] = ["a660", "a740"];

fn compile_for(words: &[u32], gpu: &str) -> Result<CompiledShader, String> {
    let fe = FrontEndOptions {
        entry: "main".into(),
        ..FrontEndOptions::default()
    };
    let declared = declared_bindings(words, &fe).map_err(|e| e.to_string())?;
    let layout = DescriptorLayout::matching(&declared).map_err(|e| e.to_string())?;
    let options = CompileOptions {
        gpu: gpu.into(),
        layout,
        ..CompileOptions::default()
    };
    compile(words, &options).map_err(|e| e.to_string())
}

fn graphics_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| {
        matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("vert") | Some("frag")
        )
    });
    files.sort();
    files
}

#[derive(Default)]
struct Tally {
    compiled: usize,
    refused: Vec<(String, String)>,
    panicked: Vec<String>,
}

/// Compiles `files` for both GPUs, prints the tally under `label` and fails on a panic.
fn run(label: &str, files: &[PathBuf]) -> Tally {
    let t = tally(files);
    println!(
        "{label}: {} vertex/fragment shaders, {} compile for a660 and a740, {} refused",
        files.len(),
        t.compiled,
        t.refused.len()
    );
    for (name, why) in &t.refused {
        println!("  refused {name}: {why}");
    }
    assert!(t.panicked.is_empty(), "panicked: {:?}", t.panicked);
    t
}

fn tally(files: &[PathBuf]) -> Tally {
    let mut t = Tally::default();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(words) = common::try_spirv_path(f) else {
            // Not Vulkan GLSL for this glslang: not part of the corpus.
            continue;
        };
        let mut ok = true;
        for gpu in GPUS {
            match catch_unwind(AssertUnwindSafe(|| compile_for(&words, gpu))) {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    assert!(!e.is_empty(), "{name}: an empty error");
                    t.refused.push((format!("{name} ({gpu})"), e));
                    ok = false;
                    break;
                }
                Err(_) => {
                    t.panicked.push(format!("{name} ({gpu})"));
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            t.compiled += 1;
        }
    }
    t
}

#[test]
fn glslang_vertex_and_fragment_shaders_compile_or_are_refused() {
    let Some(dir) = parsnip_reference::reference_dir("glslang_vertex_and_fragment_shaders") else {
        return;
    };
    let files = graphics_files(&dir.join("glslang-tests"));
    let t = run("glslang-tests", &files);
    assert!(t.compiled > 0);
}

fn reference_app(file: &str) -> Option<Vec<u32>> {
    let dir = parsnip_reference::reference_dir("reference app shaders")?;
    let apps = dir.join("turnip/apps");
    let path = [apps.join(file), apps.join("newref-shaders").join(file)]
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{file} is not among Turnip's apps"));
    Some(common::try_spirv_path(&path).unwrap_or_else(|e| panic!("{file}: {e}")))
}

fn compiled_app(file: &str, gpu: &str) -> Option<CompiledShader> {
    let words = reference_app(file)?;
    Some(compile_for(&words, gpu).unwrap_or_else(|e| panic!("{file} on {gpu}: {e}")))
}

#[test]
fn reference_app_shaders_compile() {
    let Some(dir) = parsnip_reference::reference_dir("reference app shaders") else {
        return;
    };
    let apps = dir.join("turnip/apps");
    let mut files = graphics_files(&apps);
    files.extend(graphics_files(&apps.join("newref-shaders")));
    let t = run("turnip apps", &files);
    for must in [
        "tri.vert",
        "tri.frag",
        "vcol.vert",
        "vcol.frag",
        "vflat.vert",
        "flat.frag",
        "points.vert",
        "instanced.vert",
        "fullscreen.vert",
    ] {
        assert!(
            !t.refused.iter().any(|(n, _)| n.starts_with(must)),
            "{must} was refused"
        );
    }
}

/// points.vert reads three attributes and writes the position, the point size and a flat
/// colour: the stage information names each (Turnip: VFD_DEST_CNTL writemasks 0x7, 0xf,
/// 0x1; SP_VS_OUT for POS, PSIZ, VAR0).
#[test]
fn points_vertex_shader_describes_its_interface() {
    for gpu in GPUS {
        let Some(c) = compiled_app("points.vert", gpu) else {
            return;
        };
        let StageInfo::Vertex(v) = &c.stage else {
            panic!("points.vert is a vertex shader: {:?}", c.stage)
        };
        let inputs: Vec<(u32, u8)> = v
            .inputs
            .iter()
            .map(|i| (i.location, i.components))
            .collect();
        assert_eq!(inputs, [(0, 3), (1, 4), (2, 1)], "{gpu}");
        assert_eq!(v.vertex_id_reg, None);
        assert_eq!(v.instance_id_reg, None);
        assert!(v.position_reg.is_some() && v.point_size_reg.is_some());
        assert_eq!(
            v.output(VaryingSlot::Location(0)).map(|o| o.mask),
            Some(0xf)
        );
        assert_eq!(v.output(VaryingSlot::Position).map(|o| o.mask), Some(0xf));
        assert_eq!((v.clip_distances, v.cull_distances), (0, 0));
        // Input registers hold their attributes: no two overlap.
        let mut regs: Vec<u8> = v
            .inputs
            .iter()
            .flat_map(|i| (0..i.components).map(move |k| i.reg.offset(k).0))
            .collect();
        regs.sort_unstable();
        regs.dedup();
        assert_eq!(regs.len(), 8);
    }
}

/// tri.frag interpolates vColor (three components, perspective-correct at the pixel
/// centre) and writes colour 0: Turnip's FRAG has the ij pair IJ_PERSP_PIXEL and one
/// input of cm=7 (triangle.ir3-stderr.txt).
#[test]
fn triangle_fragment_shader_describes_its_interface() {
    for gpu in GPUS {
        let Some(c) = compiled_app("tri.frag", gpu) else {
            return;
        };
        let f = c.stage.fragment().expect("a fragment shader");
        assert_eq!(f.inputs.len(), 1);
        let i = &f.inputs[0];
        assert_eq!(
            (i.location, i.component, i.components, i.inloc),
            (0, 0, 3, 0)
        );
        assert_eq!(i.interpolation, Interpolation::Smooth);
        assert_eq!(f.barycentrics.persp_pixel, Some(RegId::new(0, 0)));
        assert_eq!(f.barycentrics.linear_pixel, None);
        assert_eq!(f.color_outputs.len(), 1);
        assert_eq!(f.color_outputs[0].location, 0);
        assert!(!f.reads_frag_coord() && !f.discards);
        assert!(c.disassembly.contains("(ei)"), "{}", c.disassembly);
    }
}

/// Turnip's "<STAGE> prog ...: N instr, M nops, K non-nops" line for `stage` in
/// `<gpu>/triangle.ir3-stderr.txt`: (instructions, nops, non-nops).
fn turnip_counts(text: &str, stage: &str) -> Option<(u32, u32, u32)> {
    let line = text
        .lines()
        .find(|l| l.contains(&format!("; {stage} prog")) && l.contains(" instr,"))?;
    // "MESA: info: ; VERT prog 18/1: 28 instr, 13 nops, 15 non-nops, ...".
    let after = line.rsplit(": ").next()?;
    let n: Vec<u32> = after
        .split(", ")
        .take(3)
        .map(|f| f.split(' ').next().and_then(|v| v.parse().ok()))
        .collect::<Option<_>>()?;
    Some((n[0], n[1], n[2]))
}

/// The triangle's shaders' instruction counts next to Turnip's for the same SPIR-V.
#[test]
fn triangle_instruction_counts_beside_turnips() {
    let Some(dir) = parsnip_reference::reference_dir("triangle instruction counts") else {
        return;
    };
    for gpu in GPUS {
        let text =
            std::fs::read_to_string(dir.join(format!("turnip/{gpu}/triangle.ir3-stderr.txt")))
                .unwrap();
        for (file, stage) in [("tri.vert", "VERT"), ("tri.frag", "FRAG")] {
            let (t_instr, t_nops, t_real) = turnip_counts(&text, stage)
                .unwrap_or_else(|| panic!("{gpu}: no {stage} counts in Turnip's log"));
            assert_eq!(
                t_instr,
                t_nops + t_real,
                "{gpu} {stage}: Turnip's counts add up"
            );
            let c = compiled_app(file, gpu).unwrap();
            let s = &c.stats;
            println!(
                "{gpu} {file}: Parsnip {} instructions to end ({} nops, {} others, {} full \
                 vec4 registers); Turnip {t_instr} ({t_nops} nops, {t_real} others)",
                s.instructions,
                s.nops,
                s.instructions - s.nops,
                s.full_regs
            );
            assert!(s.instructions > s.nops);
            if stage == "FRAG" {
                // bary.f writes the colour registers itself, as Turnip's does.
                assert!(
                    s.instructions <= t_instr,
                    "{gpu} tri.frag: {} instructions, Turnip {t_instr}\n{}",
                    s.instructions,
                    c.disassembly
                );
            }
            // tri.vert's constant position and colour arrays are compares and selects,
            // not private memory.
            assert_eq!(c.private_bytes, 0, "{gpu} {file}\n{}", c.disassembly);
            assert!(
                !c.disassembly.contains("stp") && !c.disassembly.contains("ldp"),
                "{gpu} {file}\n{}",
                c.disassembly
            );
        }
    }
}

/// texture() in a fragment shader is `sam`, whose level of detail the hardware takes from
/// the quad (no `saml` with a computed one); the stage says it needs derivatives, the
/// sampler is bindless, and the EarlyFragmentTests mode is passed on. Push constants and
/// the uniform buffer go where compute shaders put them.
#[test]
fn implicit_lod_sampling_is_sam() {
    let words = common::spirv_file("sampled.frag");
    for gpu in GPUS {
        let c = compile_for(&words, gpu).unwrap();
        assert!(c.disassembly.contains("sam.base"), "{}", c.disassembly);
        assert!(!c.disassembly.contains("saml"), "{}", c.disassembly);
        let f = c.stage.fragment().unwrap();
        assert!(f.uses_derivatives && f.early_fragment_tests);
        assert!(c.bindless_textures && c.bindless_samplers);
        assert_eq!(c.consts.push_constants, Some((0, 4)));
    }
}

/// Interfaces larger than the hardware's are refused by name: more varying components
/// than the VPC's 128 locations, more attributes than the VFD's 32.
#[test]
fn interfaces_beyond_the_hardware_are_refused() {
    let dir = std::env::temp_dir();
    let cases = [
        (
            "frag",
            "layout(location = 0) in vec4 v[33]; layout(location = 0) out vec4 o;
             void main() { vec4 s = vec4(0); for (int i = 0; i < 33; i++) s += v[i]; o = s; }",
            "the VPC has 128",
        ),
        (
            "vert",
            "layout(location = 0) in float a[33];
             void main() { float s = 0.0; for (int i = 0; i < 33; i++) s += a[i];
                           gl_Position = vec4(s); }",
            "at most 32",
        ),
    ];
    for (k, (ext, body, want)) in cases.into_iter().enumerate() {
        let path = dir.join(format!("parsnip-limits-{}-{k}.{ext}", std::process::id()));
        std::fs::write(&path, format!("#version 450\n{body}\n")).unwrap();
        let words = common::try_spirv_path(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let e = compile_for(&words, "a660").unwrap_err();
        assert!(e.contains(want), "{ext}: {e}");
    }
}
