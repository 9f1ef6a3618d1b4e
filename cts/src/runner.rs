//! Running one case in the current process: create the harness, run the
//! body, tear everything down, and fold in what the validation layer said.

use crate::case::{Case, Outcome, Output, Stop};
use crate::harness::Harness;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// What running a case gave.
#[derive(Clone, Debug)]
pub struct CaseReport {
    pub outcome: Outcome,
    pub outputs: Vec<Output>,
    pub duration: Duration,
}

/// Runs `case` on the driver the loader picks for this process.
pub fn run_in_process(case: &Case) -> CaseReport {
    let start = Instant::now();
    let mut harness = match Harness::new() {
        Ok(h) => h,
        Err(stop) => {
            return CaseReport {
                outcome: Outcome::Fail(format!("setting up the device: {stop}")),
                outputs: Vec::new(),
                duration: start.elapsed(),
            }
        }
    };
    let result = catch_unwind(AssertUnwindSafe(|| (case.run)(&mut harness)));
    let log = harness.finish();
    let (mut outcome, outputs) = match result {
        Ok(Ok(result)) => (result.outcome(), result.outputs().to_vec()),
        Ok(Err(Stop::NotSupported(why))) => (Outcome::NotSupported(why), Vec::new()),
        Ok(Err(Stop::Error(why))) => (Outcome::Fail(why), Vec::new()),
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown payload".into());
            (
                Outcome::Fail(format!("the case panicked: {why}")),
                Vec::new(),
            )
        }
    };

    let (unexpected, missing) = log.unexpected();
    let mut problems: Vec<String> = unexpected
        .iter()
        .map(|e| format!("validation error {}: {}", e.id, e.message))
        .collect();
    problems.extend(
        missing
            .iter()
            .map(|id| format!("the validation layer did not report {id}, which the case commits")),
    );
    if !problems.is_empty() {
        let mut why = problems.join("; ");
        match &outcome {
            Outcome::Pass => {}
            Outcome::Fail(w) | Outcome::NotSupported(w) => why = format!("{w}; {why}"),
        }
        outcome = Outcome::Fail(why);
    }
    CaseReport {
        outcome: one_line(outcome),
        outputs,
        duration: start.elapsed(),
    }
}

/// Results are printed one line per case: messages lose their line breaks.
fn one_line(outcome: Outcome) -> Outcome {
    let flatten = |s: String| s.split_whitespace().collect::<Vec<_>>().join(" ");
    match outcome {
        Outcome::Pass => Outcome::Pass,
        Outcome::Fail(w) => Outcome::Fail(flatten(w)),
        Outcome::NotSupported(w) => Outcome::NotSupported(flatten(w)),
    }
}
