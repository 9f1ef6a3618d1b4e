//! Turnip's `triangle.c` test program (from the reference data), built
//! against the Vulkan loader and run on lavapipe and on Parsnip's
//! simulated a660 and a740: the image it writes equals lavapipe's and the
//! reference lavapipe rendered (`turnip/expected/triangle_lvp.png`) in
//! every interior pixel (a pixel whose 3x3 neighbourhood is one colour in
//! the reference), with at most `EDGE_PIXELS` others apart (edges and the
//! interpolated colours may differ by subpixel precision).

mod drivers;

use drivers::{check_image, lavapipe, parsnip, run_tool, scratch};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const SIZE: usize = 64;
/// Most differing pixels allowed outside the interior, as the draw cases
/// allow.
const EDGE_PIXELS: usize = 8;

/// Builds triangle.c once per test binary, as the apps' build.sh builds
/// its programs: the shader headers with glslangValidator, the program
/// with cc against libvulkan (libvulkan-dev) and zlib (zlib1g-dev).
fn triangle_program(test: &str) -> Option<&'static PathBuf> {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    let source = parsnip_reference::reference_file(test, "turnip/apps/triangle.c")?;
    Some(PROGRAM.get_or_init(|| {
        let apps = source.parent().expect("triangle.c is in apps/");
        let dir = scratch("triangle_c_build");
        for stage in ["vert", "frag"] {
            let glslang: Vec<OsString> = vec![
                "-V".into(),
                "--vn".into(),
                // The array names triangle.c includes.
                format!("tri_{stage}_spv").into(),
                "-o".into(),
                dir.join(format!("tri_{stage}.spv.h")).into(),
                apps.join(format!("tri.{stage}")).into(),
            ];
            run_tool(
                Path::new("glslangValidator"),
                "glslangValidator",
                &glslang,
                &dir,
            );
        }
        let program = dir.join("triangle");
        let cc: Vec<OsString> = vec![
            "-std=gnu11".into(),
            "-O1".into(),
            "-o".into(),
            program.clone().into(),
            format!("-I{}", apps.display()).into(),
            format!("-I{}", dir.display()).into(),
            source.into(),
            "-lvulkan".into(),
            "-lz".into(),
        ];
        run_tool(
            Path::new("cc"),
            "cc (needs libvulkan-dev and zlib1g-dev)",
            &cc,
            &dir,
        );
        program
    }))
}

/// The RGBA8 image triangle.c wrote when run on `driver`, with the
/// validation layer enabled through the loader's environment.
fn render(program: &Path, driver: &Path, env: &[(&str, &str)], name: &str) -> Vec<u8> {
    let dir = scratch(name);
    let prefix = dir.join("triangle");
    let mut command = Command::new(program);
    command
        .arg(&prefix)
        .env("VK_DRIVER_FILES", driver)
        .env_remove("VK_ICD_FILENAMES")
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("run triangle");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "triangle failed:\n{stdout}{stderr}"
    );
    assert!(
        !stdout.contains("Validation Error") && !stderr.contains("Validation Error"),
        "the validation layer reported errors:\n{stdout}{stderr}"
    );
    let png = std::fs::read(prefix.with_extension("png")).expect("triangle writes its PNG");
    let (w, h, rgba) = parsnip_reference::image::decode_png(&png);
    assert_eq!((w, h), (SIZE, SIZE), "{name}");
    rgba
}

fn check_against(reference: &[u8], got: &[u8], what: &str) {
    check_image(reference, got, (SIZE, SIZE), EDGE_PIXELS, what);
}

/// lavapipe's reference image.
fn expected(test: &str) -> Option<Vec<u8>> {
    let png = parsnip_reference::reference_file(test, "turnip/expected/triangle_lvp.png")?;
    let bytes = std::fs::read(png).expect("the reference image");
    let (w, h, rgba) = parsnip_reference::image::decode_png(&bytes);
    assert_eq!((w, h), (SIZE, SIZE));
    Some(rgba)
}

#[test]
fn triangle_c_on_lavapipe_renders_the_reference() {
    let test = "triangle_c_on_lavapipe_renders_the_reference";
    let (Some(program), Some(want)) = (triangle_program(test), expected(test)) else {
        return;
    };
    let got = render(program, &lavapipe(), &[], "triangle_c_lavapipe");
    check_against(&want, &got, "lavapipe vs triangle_lvp.png");
}

fn matches_lavapipe(gpu: &str) {
    let test = format!("triangle_c_on_parsnip_{gpu}");
    let (Some(program), Some(want)) = (triangle_program(&test), expected(&test)) else {
        return;
    };
    let reference = render(
        program,
        &lavapipe(),
        &[],
        &format!("triangle_c_reference_{gpu}"),
    );
    let got = render(
        program,
        &parsnip(),
        &[("PARSNIP_SIM", gpu)],
        &format!("triangle_c_{gpu}"),
    );
    check_against(&reference, &got, &format!("{gpu} vs lavapipe"));
    check_against(&want, &got, &format!("{gpu} vs triangle_lvp.png"));
}

#[test]
fn triangle_c_on_parsnip_a660() {
    matches_lavapipe("a660");
}

#[test]
fn triangle_c_on_parsnip_a740() {
    matches_lavapipe("a740");
}
