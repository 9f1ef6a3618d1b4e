//! Turnip's `compute.c` test program (from the reference data), built
//! against the Vulkan loader: on lavapipe it computes what the CPU does;
//! on Parsnip it prints and writes exactly what it does on lavapipe.

mod drivers;

use drivers::{lavapipe, parsnip, run_tool as run, scratch};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const INVOCATIONS: u32 = 256;

/// Builds compute.c once per test binary: the shader header with
/// glslangValidator, the program with cc against libvulkan (libvulkan-dev).
fn compute_program(test: &str) -> Option<&'static PathBuf> {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    let source = parsnip_reference::reference_file(test, "turnip/apps/compute.c")?;
    Some(PROGRAM.get_or_init(|| {
        let apps = source.parent().expect("compute.c is in apps/");
        let dir = scratch("compute_c_build");
        let header = dir.join("double_comp.spv.h");
        let glslang: Vec<OsString> = vec![
            "-V".into(),
            "--vn".into(),
            // The array name compute.c includes.
            "double_comp_spv".into(),
            "-o".into(),
            header.into(),
            apps.join("double.comp").into(),
        ];
        run(
            Path::new("glslangValidator"),
            "glslangValidator",
            &glslang,
            &dir,
        );
        let program = dir.join("compute");
        let cc: Vec<OsString> = vec![
            "-O1".into(),
            "-o".into(),
            program.clone().into(),
            format!("-I{}", dir.display()).into(),
            source.into(),
            "-lvulkan".into(),
        ];
        run(Path::new("cc"), "cc (needs libvulkan-dev)", &cc, &dir);
        program
    }))
}

/// What compute.c printed and wrote when run on `driver`, with the
/// validation layer enabled through the loader's environment.
struct Printed {
    stdout: String,
    values: String,
    executables: Option<String>,
}

fn run_compute(program: &Path, driver: &Path, env: &[(&str, &str)], name: &str) -> Printed {
    let dir = scratch(name);
    let mut command = Command::new(program);
    command
        .arg(dir.join("out"))
        .env("VK_DRIVER_FILES", driver)
        .env_remove("VK_ICD_FILENAMES")
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("run compute");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "compute failed:\n{stdout}{stderr}");
    assert!(
        !stdout.contains("Validation Error") && !stderr.contains("Validation Error"),
        "the validation layer reported errors:\n{stdout}{stderr}"
    );
    Printed {
        stdout,
        values: std::fs::read_to_string(dir.join("out.txt")).expect("compute writes out.txt"),
        executables: std::fs::read_to_string(dir.join("out.exec.txt")).ok(),
    }
}

#[test]
fn compute_c_on_lavapipe() {
    let Some(program) = compute_program("compute_c_on_lavapipe") else {
        return;
    };
    let printed = run_compute(program, &lavapipe(), &[], "compute_c_lavapipe");
    let want_values: String = (0..INVOCATIONS)
        .map(|i| format!("{i} {}\n", 2 * i))
        .collect();
    assert_eq!(printed.values, want_values);
    assert_eq!(
        printed.stdout,
        "data[0..7] = 0 2 4 6 8 10 12 14 ... data[255] = 510\nresult: MATCHES i*2\n"
    );
}

fn matches_lavapipe(gpu: &str) {
    let Some(program) = compute_program(&format!("compute_c_on_parsnip_{gpu}")) else {
        return;
    };
    let reference = run_compute(
        program,
        &lavapipe(),
        &[],
        &format!("compute_c_reference_{gpu}"),
    );
    let printed = run_compute(
        program,
        &parsnip(),
        &[("PARSNIP_SIM", gpu)],
        &format!("compute_c_{gpu}"),
    );
    assert_eq!(printed.stdout, reference.stdout);
    assert_eq!(printed.values, reference.values);
    // Parsnip exposes VK_KHR_pipeline_executable_properties (issue 8):
    // compute.c then writes the statistics and the ir3 disassembly.
    let executables = printed
        .executables
        .expect("out.exec.txt, written when the extension is exposed");
    assert!(executables.contains("=== executable 0"), "{executables}");
    assert!(executables.contains("--- IR"), "{executables}");
}

#[test]
fn compute_c_on_parsnip_a660() {
    matches_lavapipe("a660");
}

#[test]
fn compute_c_on_parsnip_a740() {
    matches_lavapipe("a740");
}
