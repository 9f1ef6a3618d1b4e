//! Where the drivers under test are, and running the `parsnip-cts` runner
//! on one of them in a child process (the loader reads its environment once
//! per process).
//!
//! Each test binary uses part of this module.
#![allow(dead_code)]

use parsnip_cts::results::{read_csv, Status};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Overrides where lavapipe's ICD manifest is.
pub const LAVAPIPE_VAR: &str = "PARSNIP_CTS_LAVAPIPE";
/// Where Debian's mesa-vulkan-drivers installs lavapipe's manifest.
const LAVAPIPE_MANIFEST: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
/// The manifest the ICD build leaves next to the library.
const PARSNIP_MANIFEST: &str = "parsnip_icd.x86_64.json";
/// The simulated GPUs the Parsnip tests run on.
pub const SIMULATED: [&str; 2] = ["a660", "a740"];

/// lavapipe's ICD manifest; panics, saying what to install, when absent.
pub fn lavapipe() -> PathBuf {
    let path = std::env::var_os(LAVAPIPE_VAR)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(LAVAPIPE_MANIFEST));
    assert!(
        path.is_file(),
        "lavapipe's ICD manifest {} is missing: install Debian's mesa-vulkan-drivers \
         (scripts/install-deps does) or set {LAVAPIPE_VAR}",
        path.display()
    );
    path
}

/// The build's profile directory (`<target dir>/<profile>`), found from
/// this test binary's own path, `<target dir>/<profile>/deps/<test>`.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("test binaries live in <target>/<profile>/deps")
        .to_path_buf()
}

/// Parsnip's ICD manifest; panics with what to build when it is absent.
pub fn parsnip() -> PathBuf {
    let path = profile_dir().join(PARSNIP_MANIFEST);
    assert!(
        path.is_file(),
        "Parsnip's ICD manifest {} does not exist: the ICD (issue 8, icd/) must be built \
         into this target directory and profile before these tests can run",
        path.display()
    );
    path
}

/// The preloadable userspace Adreno the shim build leaves next to the
/// ICD; panics with what to build when it is absent.
pub fn shim() -> PathBuf {
    let path = profile_dir().join("deps/libparsnip_shim.so");
    assert!(
        path.is_file(),
        "{} does not exist: build the shim (cargo build -p parsnip-shim) into this target \
         directory and profile",
        path.display()
    );
    path
}

/// Cases whose feature Parsnip may leave unexposed: the issue does not
/// require shaderInt64 or hostQueryReset.
pub const MAY_BE_UNSUPPORTED: &[&str] = &["arithmetic.int64", "queries.host_reset"];

/// What is wrong with a Parsnip `run` against lavapipe's `reference`: any
/// case that did not pass (bar [`MAY_BE_UNSUPPORTED`] ones reporting so),
/// and any exact output that differs from lavapipe's.
pub fn problems_against(reference: &Run, run: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    for (case, status) in &run.results {
        match status {
            Status::Pass => {}
            Status::NotSupported if MAY_BE_UNSUPPORTED.contains(&case.as_str()) => continue,
            _ => {
                problems.push(run.line(case).to_owned());
                continue;
            }
        }
        if reference.status(case) == Some(Status::Pass) {
            if let Err(e) = parsnip_cts::results::compare_outputs(&reference.out, &run.out, case) {
                problems.push(format!("differs from lavapipe: {e}"));
            }
        }
    }
    problems
}

/// A fresh directory for this test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear the scratch directory");
    }
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// One run of the cts on one driver.
pub struct Run {
    pub out: PathBuf,
    pub stdout: String,
    pub succeeded: bool,
    pub results: Vec<(String, Status)>,
}

impl Run {
    pub fn status(&self, case: &str) -> Option<Status> {
        self.results
            .iter()
            .find(|(n, _)| n == case)
            .map(|(_, s)| *s)
    }

    /// The runner's line for `case`, for failure messages.
    pub fn line(&self, case: &str) -> &str {
        let prefix = format!("{case}: ");
        self.stdout
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or("(no line)")
    }
}

/// Runs every case on `driver` with `env` added, writing to `out`.
pub fn run_cts(driver: &Path, env: &[(&str, &str)], out: &Path) -> Run {
    run_cts_filtered(driver, env, out, &[])
}

/// Runs the cases `filters` select (all for none) on `driver`.
pub fn run_cts_filtered(driver: &Path, env: &[(&str, &str)], out: &Path, filters: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parsnip-cts"));
    command
        .arg("--driver")
        .arg(driver)
        .arg("--out")
        .arg(out)
        .arg("--jobs")
        .arg("1");
    for f in filters {
        command.arg("--filter").arg(f);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("run parsnip-cts");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let results = read_csv(&out.join("results.csv")).unwrap_or_else(|e| {
        panic!(
            "{e}\nparsnip-cts stdout:\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    // The summary line, as the test's printed figures.
    if let Some(summary) = stdout.lines().last() {
        eprintln!("{}: {summary}", driver.display());
    }
    Run {
        out: out.to_path_buf(),
        stdout,
        succeeded: output.status.success(),
        results,
    }
}

/// Runs `program` (`what`, for messages) with `args` in `dir`; panics
/// with its output unless it succeeds.
pub fn run_tool(
    program: &Path,
    what: &str,
    args: &[std::ffi::OsString],
    dir: &Path,
) -> std::process::Output {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what} ({}): {e}", program.display()));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Checks that the `width`x`height` RGBA8 image `got` equals `reference`
/// in every interior pixel (one whose 3x3 neighbourhood is one colour in
/// the reference), with at most `edge_pixels` others apart.
pub fn check_image(
    reference: &[u8],
    got: &[u8],
    (width, height): (usize, usize),
    edge_pixels: usize,
    what: &str,
) {
    let (interior, edge) = parsnip_reference::image::compare(reference, got, width, height);
    println!(
        "{what}: {edge} edge and {} interior pixels differ",
        interior.len()
    );
    assert!(
        interior.is_empty() && edge <= edge_pixels,
        "{what}: {} interior pixels differ (first at {:?}), {edge} edge pixels",
        interior.len(),
        interior.first()
    );
}
