//! The cases on Parsnip's simulated a660 and a740, through the loader:
//! each passes (so matches the CPU's expectation), and every exact output
//! equals lavapipe's byte for byte.

mod drivers;

use drivers::{lavapipe, parsnip, problems_against, run_cts, scratch, Run};
use std::sync::OnceLock;

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
    let problems = problems_against(reference, &run);
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
