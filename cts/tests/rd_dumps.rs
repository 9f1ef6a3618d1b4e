//! Every trace the cts leaves with `PARSNIP_RD_DUMP` decompiles to text
//! that assembles back to the identical bytes (issue 22's round trip, on
//! the streams our own driver writes rather than Turnip's): a user editing
//! such a trace with `parsnip-decompile` and replaying it with
//! `parsnip-replay --override` starts from exactly what was submitted.
//!
//! The cases run in one process (`--in-process`), so each case's device
//! writes its own trace (`dump.rd`, `dump.device1.rd`, ...).

mod drivers;

use std::path::{Path, PathBuf};
use std::process::Command;

use drivers::{parsnip, scratch};
use parsnip_rd::Trace;
use parsnip_tools::decompile::{assemble, decompile};

fn dumps_of_every_case(gpu: &str) -> (Vec<PathBuf>, String) {
    let dir = scratch(&format!("rd_dumps_{gpu}"));
    let output = Command::new(env!("CARGO_BIN_EXE_parsnip-cts"))
        .arg("--driver")
        .arg(parsnip())
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--in-process")
        .env("PARSNIP_SIM", gpu)
        .env("PARSNIP_RD_DUMP", dir.join("dump.rd"))
        .output()
        .expect("run parsnip-cts");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "parsnip-cts on {gpu}:\n{stdout}");
    let mut dumps: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rd"))
        .collect();
    dumps.sort();
    (dumps, stdout)
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

fn round_trips(gpu: &str) {
    let (dumps, stdout) = dumps_of_every_case(gpu);
    let cases = stdout.lines().filter(|l| l.contains(": Pass")).count();
    // One device per case at least (some cases make several).
    assert!(
        cases > 50 && dumps.len() >= cases,
        "{} traces for {cases} passing cases on {gpu}",
        dumps.len()
    );
    let (mut submits, mut bytes) = (0, 0);
    for path in &dumps {
        let original = std::fs::read(path).unwrap();
        let trace = Trace::open(path).unwrap_or_else(|e| panic!("{}: {e}", name(path)));
        submits += trace.submits().len();
        bytes += original.len();
        let text = decompile(&trace);
        let assembled = assemble(&text).unwrap_or_else(|e| panic!("{}: {e}", name(path)));
        assert!(
            assembled == original,
            "{gpu} {}: assembled differs from byte {:?} of {}",
            name(path),
            assembled.iter().zip(&original).position(|(a, b)| a != b),
            original.len()
        );
    }
    // The cases submit work: most traces hold submits, named packets.
    assert!(
        submits >= cases,
        "{submits} submits in {} traces",
        dumps.len()
    );
    println!(
        "{gpu}: {} traces of {cases} cases, {submits} submits, {bytes} bytes: all identical",
        dumps.len()
    );
}

#[test]
fn every_cts_trace_assembles_back_byte_for_byte_on_a660() {
    round_trips("a660");
}

#[test]
fn every_cts_trace_assembles_back_byte_for_byte_on_a740() {
    round_trips("a740");
}
