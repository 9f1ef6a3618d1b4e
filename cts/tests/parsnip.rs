//! The cases on Parsnip's simulated a660 and a740, through the loader:
//! each passes (so matches the CPU's expectation), and every exact output
//! equals lavapipe's byte for byte.

mod drivers;

use drivers::{lavapipe, parsnip, run_cts, scratch, Run};
use parsnip_cts::results::{compare_outputs, Status};
use std::sync::OnceLock;

/// Cases whose feature Parsnip may leave unexposed: the issue does not
/// require shaderInt64 or hostQueryReset; blits and depth copies and clears
/// need a queue family with graphics, which Parsnip does not offer before
/// the graphics work.
const MAY_BE_UNSUPPORTED: &[&str] = &[
    "arithmetic.int64",
    "queries.host_reset",
    "images.blits",
    "images.round_trip_depth",
    "images.clear_depth",
];

fn reference() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| run_cts(&lavapipe(), &[], &scratch("parsnip_reference_lavapipe")))
}

fn matches_lavapipe(gpu: &str) {
    let manifest = parsnip();
    let run = run_cts(
        &manifest,
        &[("PARSNIP_SIM", gpu)],
        &scratch(&format!("parsnip_{gpu}")),
    );
    let reference = reference();
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
            if let Err(e) = compare_outputs(&reference.out, &run.out, case) {
                problems.push(format!("differs from lavapipe: {e}"));
            }
        }
    }
    assert_eq!(run.results.len(), reference.results.len(), "{}", run.stdout);
    assert!(
        problems.is_empty(),
        "on the simulated {gpu}:\n{}",
        problems.join("\n")
    );
}

#[test]
fn cases_match_lavapipe_on_a660() {
    matches_lavapipe("a660");
}

#[test]
fn cases_match_lavapipe_on_a740() {
    matches_lavapipe("a740");
}
