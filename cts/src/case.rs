//! A conformance case: a name, a body that drives the device through a
//! [`Harness`], and the structured result it hands back.
//!
//! A case computes what the device should produce on the CPU, independently
//! of the device, and checks every output buffer against it. The checked
//! buffers are also kept as [`Output`]s, so that two drivers' runs can be
//! compared byte for byte: an output marked exact holds only values the
//! Vulkan specification defines to the bit (integer arithmetic, correctly
//! rounded float operations, copies); values the specification bounds only by
//! a tolerance (a division, `exp2`) are marked approximate and compared with
//! the CPU within that tolerance instead. Outputs never hold values that vary
//! from run to run (timestamps, the order atomics were served in).

use crate::bytes::{to_bytes, Word};
use crate::harness::Harness;
use ash::vk;
use std::fmt;

/// What a case concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(String),
    /// The device lacks a feature, extension or format the case needs.
    NotSupported(String),
}

impl Outcome {
    /// The status word deqp uses for the outcome.
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Pass => "Pass",
            Outcome::Fail(_) => "Fail",
            Outcome::NotSupported(_) => "NotSupported",
        }
    }
}

impl Outcome {
    /// Reads back what `Display` wrote.
    pub fn parse(text: &str) -> Option<Outcome> {
        if text == "Pass" {
            Some(Outcome::Pass)
        } else if let Some(why) = text.strip_prefix("Fail: ") {
            Some(Outcome::Fail(why.to_owned()))
        } else {
            text.strip_prefix("NotSupported: ")
                .map(|why| Outcome::NotSupported(why.to_owned()))
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Pass => write!(f, "Pass"),
            Outcome::Fail(why) => write!(f, "Fail: {why}"),
            Outcome::NotSupported(why) => write!(f, "NotSupported: {why}"),
        }
    }
}

/// Why a case body stopped before reaching its checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    NotSupported(String),
    /// A Vulkan call failed, or the harness could not do what was asked.
    Error(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::NotSupported(why) | Stop::Error(why) => f.write_str(why),
        }
    }
}

/// Turns a failed Vulkan call into a [`Stop`] naming the call.
pub trait OrStop<T> {
    fn or_stop(self, call: &str) -> Result<T, Stop>;
}

impl<T> OrStop<T> for Result<T, vk::Result> {
    fn or_stop(self, call: &str) -> Result<T, Stop> {
        self.map_err(|r| Stop::Error(format!("{call} returned {r:?}")))
    }
}

/// A buffer's contents as the case read them back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// A file-name-safe name, unique within the case.
    pub name: String,
    pub bytes: Vec<u8>,
    /// Whether the specification defines every byte (see the module doc).
    pub exact: bool,
}

/// The outputs of a case and every check that failed.
#[derive(Clone, Debug, Default)]
pub struct CaseResult {
    outputs: Vec<Output>,
    failures: Vec<String>,
}

/// How many mismatching elements a failure message lists.
const SHOWN_MISMATCHES: usize = 4;

impl CaseResult {
    pub fn new() -> CaseResult {
        CaseResult::default()
    }

    /// A result with one failure and no outputs.
    pub fn failed(why: impl Into<String>) -> CaseResult {
        CaseResult {
            outputs: Vec::new(),
            failures: vec![why.into()],
        }
    }

    /// Checks that `got` equals `want` element for element and keeps `got`
    /// as an exact output named `name`.
    pub fn check<T: Word + PartialEq + fmt::Debug>(
        &mut self,
        name: &str,
        got: &[T],
        want: &[T],
    ) -> &mut CaseResult {
        let mut wrong = Vec::new();
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            // Floats are compared by bits: -0.0 is not 0.0 for an exact output.
            if to_bytes(&[*g]) != to_bytes(&[*w]) {
                wrong.push(format!("[{i}] = {g:?}, expected {w:?}"));
            }
        }
        self.report_mismatches(name, got.len(), want.len(), wrong);
        self.keep(name, to_bytes(got), true);
        self
    }

    /// [`CaseResult::check`] for an output that depends on a property of the
    /// device (such as its subgroup size): checked here, kept as an output
    /// that is not compared with another driver's.
    pub fn check_unshared<T: Word + PartialEq + fmt::Debug>(
        &mut self,
        name: &str,
        got: &[T],
        want: &[T],
    ) -> &mut CaseResult {
        self.check(name, got, want);
        if let Some(o) = self.outputs.iter_mut().find(|o| o.name == name) {
            o.exact = false;
        }
        self
    }

    /// Checks that each `got[i]` is within `tolerance[i]` of `want[i]` and
    /// keeps `got` as an approximate output named `name`.
    pub fn check_within(
        &mut self,
        name: &str,
        got: &[f32],
        want: &[f64],
        tolerance: &[f64],
    ) -> &mut CaseResult {
        let mut wrong = Vec::new();
        for (i, ((g, w), t)) in got.iter().zip(want).zip(tolerance).enumerate() {
            let error = (f64::from(*g) - w).abs();
            if error.is_nan() || error > *t {
                wrong.push(format!("[{i}] = {g:e}, expected {w:e} within {t:e}"));
            }
        }
        self.report_mismatches(name, got.len(), want.len(), wrong);
        self.keep(name, to_bytes(got), false);
        self
    }

    /// Keeps `bytes` as an exact output named `name` that the case checked
    /// piece by piece with [`CaseResult::require`] (compared across
    /// drivers byte for byte).
    pub fn keep_exact(&mut self, name: &str, bytes: Vec<u8>) -> &mut CaseResult {
        self.keep(name, bytes, true);
        self
    }

    /// Keeps `bytes` as an approximate output named `name`: what the
    /// specification leaves to the implementation within limits (a
    /// rendered image's edges), checked by the case where it is defined
    /// and compared across drivers with a tolerance.
    pub fn keep_approximate(&mut self, name: &str, bytes: Vec<u8>) -> &mut CaseResult {
        self.keep(name, bytes, false);
        self
    }

    /// Records a failure unless `condition` holds; `what` says what was
    /// expected.
    pub fn require(&mut self, condition: bool, what: impl Into<String>) -> &mut CaseResult {
        if !condition {
            self.failures.push(what.into());
        }
        self
    }

    fn report_mismatches(&mut self, name: &str, got: usize, want: usize, wrong: Vec<String>) {
        if got != want {
            self.failures
                .push(format!("{name}: {got} elements read, {want} expected"));
        }
        if !wrong.is_empty() {
            let shown: Vec<&str> = wrong
                .iter()
                .take(SHOWN_MISMATCHES)
                .map(String::as_str)
                .collect();
            self.failures.push(format!(
                "{name}{} ({} of {} elements differ)",
                shown.join(", "),
                wrong.len(),
                want
            ));
        }
    }

    fn keep(&mut self, name: &str, bytes: Vec<u8>, exact: bool) {
        debug_assert!(
            !self.outputs.iter().any(|o| o.name == name),
            "output {name} kept twice"
        );
        self.outputs.push(Output {
            name: name.to_owned(),
            bytes,
            exact,
        });
    }

    pub fn outputs(&self) -> &[Output] {
        &self.outputs
    }

    pub fn failures(&self) -> &[String] {
        &self.failures
    }

    /// Pass when every check held, otherwise the failures joined.
    pub fn outcome(&self) -> Outcome {
        if self.failures.is_empty() {
            Outcome::Pass
        } else {
            Outcome::Fail(self.failures.join("; "))
        }
    }
}

/// The body of a case.
pub type CaseFn = fn(&mut Harness) -> Result<CaseResult, Stop>;

/// A named case. Names are `area.what`, such as `atomics.counter_add`.
#[derive(Clone, Copy)]
pub struct Case {
    pub name: &'static str,
    pub run: CaseFn,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_checks_compare_bits_and_keep_the_output() {
        let mut r = CaseResult::new();
        r.check("same", &[1u32, 2, 3], &[1, 2, 3]);
        assert_eq!(r.outcome(), Outcome::Pass);
        r.check("zero", &[-0.0f32], &[0.0]);
        let Outcome::Fail(why) = r.outcome() else {
            panic!("-0.0 passed as 0.0")
        };
        assert!(why.contains("zero[0] = -0.0, expected 0.0"), "{why}");
        assert_eq!(r.outputs()[0].bytes, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
        assert!(r.outputs()[0].exact);
    }

    #[test]
    fn outcomes_print_and_parse_back() {
        for o in [
            Outcome::Pass,
            Outcome::Fail("a: b".into()),
            Outcome::NotSupported("no int64".into()),
        ] {
            assert_eq!(Outcome::parse(&o.to_string()), Some(o));
        }
        assert_eq!(Outcome::Fail("x".into()).to_string(), "Fail: x");
        assert_eq!(Outcome::parse("Passed"), None);
    }

    #[test]
    fn short_reads_and_tolerances_are_failures() {
        let mut r = CaseResult::new();
        r.check("short", &[1u32], &[1, 2]);
        assert!(
            matches!(r.outcome(), Outcome::Fail(w) if w.contains("1 elements read, 2 expected"))
        );

        let mut r = CaseResult::new();
        r.check_within(
            "q",
            &[0.333_333_3, f32::NAN],
            &[1.0 / 3.0, 1.0],
            &[1e-6, 1.0],
        );
        assert!(matches!(r.outcome(), Outcome::Fail(w) if w.contains("1 of 2 elements differ")));
        assert!(!r.outputs()[0].exact);
    }
}
