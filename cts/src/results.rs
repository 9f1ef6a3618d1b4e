//! A run's results on disk: `results.csv` in deqp-runner's form (one
//! `name,status,seconds` line per case) and each case's output buffers as
//! `<case>/<output>.bin` (exact outputs) or `<case>/<output>.approx.bin`
//! (outputs the specification bounds by a tolerance), so that two drivers'
//! runs can be compared.

use crate::case::{Outcome, Output};
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// A case's status in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    NotSupported,
    /// The case's process died (a signal, or an exit without a result).
    Crash,
    Timeout,
}

impl Status {
    /// The status as deqp-runner's results.csv spells it.
    pub fn csv_name(self) -> &'static str {
        match self {
            Status::Pass => "Pass",
            Status::Fail => "Fail",
            Status::NotSupported => "Skip",
            Status::Crash => "Crash",
            Status::Timeout => "Timeout",
        }
    }

    pub fn from_csv_name(name: &str) -> Option<Status> {
        Some(match name {
            "Pass" => Status::Pass,
            "Fail" => Status::Fail,
            "Skip" => Status::NotSupported,
            "Crash" => Status::Crash,
            "Timeout" => Status::Timeout,
            _ => return None,
        })
    }

    /// Whether the run as a whole fails with this status in it.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Fail | Status::Crash | Status::Timeout)
    }
}

/// One case's result in a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub name: String,
    pub status: Status,
    /// Why, for anything but a pass.
    pub detail: String,
    pub duration: Duration,
}

impl Record {
    pub fn from_outcome(name: &str, outcome: &Outcome, duration: Duration) -> Record {
        let (status, detail) = match outcome {
            Outcome::Pass => (Status::Pass, String::new()),
            Outcome::Fail(w) => (Status::Fail, w.clone()),
            Outcome::NotSupported(w) => (Status::NotSupported, w.clone()),
        };
        Record {
            name: name.to_owned(),
            status,
            detail,
            duration,
        }
    }
}

impl fmt::Display for Record {
    /// The runner's line for the case: `name: Pass`, `name: Fail: why`,
    /// `name: NotSupported: why`, `name: Crash: why`, `name: Timeout: why`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.status {
            Status::NotSupported => "NotSupported",
            s => s.csv_name(),
        };
        if self.detail.is_empty() {
            write!(f, "{}: {word}", self.name)
        } else {
            write!(f, "{}: {word}: {}", self.name, self.detail)
        }
    }
}

/// Writes `results.csv` lines for `records`, in deqp-runner's form.
pub fn write_csv(path: &Path, records: &[Record]) -> Result<(), String> {
    let text: String = records
        .iter()
        .map(|r| {
            format!(
                "{},{},{:.3}\n",
                r.name,
                r.status.csv_name(),
                r.duration.as_secs_f64()
            )
        })
        .collect();
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads a `results.csv`: `(case name, status)` per line.
pub fn read_csv(path: &Path) -> Result<Vec<(String, Status)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            let status = fields.get(1).and_then(|s| Status::from_csv_name(s));
            match (fields.len(), status) {
                (3, Some(status)) => Ok((fields[0].to_owned(), status)),
                _ => Err(format!(
                    "{}:{}: expected `name,status,seconds`, found {line:?}",
                    path.display(),
                    i + 1
                )),
            }
        })
        .collect()
}

fn file_name(output: &Output) -> String {
    if output.exact {
        format!("{}.bin", output.name)
    } else {
        format!("{}.approx.bin", output.name)
    }
}

/// Writes a case's outputs under `dir/<case>/`, replacing earlier ones.
pub fn write_outputs(dir: &Path, case: &str, outputs: &[Output]) -> Result<(), String> {
    let case_dir = dir.join(case);
    if case_dir.exists() {
        std::fs::remove_dir_all(&case_dir)
            .map_err(|e| format!("cannot clear {}: {e}", case_dir.display()))?;
    }
    std::fs::create_dir_all(&case_dir)
        .map_err(|e| format!("cannot create {}: {e}", case_dir.display()))?;
    for output in outputs {
        let path = case_dir.join(file_name(output));
        std::fs::write(&path, &output.bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Reads back what [`write_outputs`] wrote for `case`, sorted by name.
pub fn read_outputs(dir: &Path, case: &str) -> Result<Vec<Output>, String> {
    let case_dir = dir.join(case);
    let entries = std::fs::read_dir(&case_dir)
        .map_err(|e| format!("cannot list {}: {e}", case_dir.display()))?;
    let mut outputs = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", case_dir.display()))?
            .path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()) else {
            continue;
        };
        let (name, exact) = if let Some(n) = file.strip_suffix(".approx.bin") {
            (n, false)
        } else if let Some(n) = file.strip_suffix(".bin") {
            (n, true)
        } else {
            continue;
        };
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        outputs.push(Output {
            name: name.to_owned(),
            bytes,
            exact,
        });
    }
    outputs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(outputs)
}

/// Compares `case`'s outputs in two runs: the same outputs, and exact ones
/// equal byte for byte. Returns what differs.
pub fn compare_outputs(reference: &Path, candidate: &Path, case: &str) -> Result<(), String> {
    let want = read_outputs(reference, case)?;
    let got = read_outputs(candidate, case)?;
    let names = |outputs: &[Output]| outputs.iter().map(|o| o.name.clone()).collect::<Vec<_>>();
    if names(&want) != names(&got) {
        return Err(format!(
            "{case}: outputs {:?}, the reference has {:?}",
            names(&got),
            names(&want)
        ));
    }
    let mut differences = Vec::new();
    for (w, g) in want.iter().zip(&got) {
        if w.exact != g.exact {
            differences.push(format!("{}: exact in one run only", w.name));
        } else if w.exact && w.bytes != g.bytes {
            let first = w
                .bytes
                .iter()
                .zip(&g.bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(w.bytes.len().min(g.bytes.len()));
            differences.push(format!(
                "{}: {} bytes vs {} in the reference, first difference at byte {first}",
                w.name,
                g.bytes.len(),
                w.bytes.len()
            ));
        }
    }
    if differences.is_empty() {
        Ok(())
    } else {
        Err(format!("{case}: {}", differences.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("parsnip-cts-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn csv_round_trips_in_deqp_runner_form() {
        let dir = scratch("csv");
        let records = [
            Record {
                name: "a.b".into(),
                status: Status::Pass,
                detail: String::new(),
                duration: Duration::from_millis(1500),
            },
            Record {
                name: "a.c".into(),
                status: Status::NotSupported,
                detail: "no int64".into(),
                duration: Duration::ZERO,
            },
        ];
        let path = dir.join("results.csv");
        write_csv(&path, &records).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "a.b,Pass,1.500\na.c,Skip,0.000\n"
        );
        assert_eq!(
            read_csv(&path).unwrap(),
            vec![
                ("a.b".into(), Status::Pass),
                ("a.c".into(), Status::NotSupported)
            ]
        );
        assert_eq!(records[1].to_string(), "a.c: NotSupported: no int64");
        std::fs::write(&path, "a.b,Bogus,1\n").unwrap();
        assert!(read_csv(&path).unwrap_err().contains(":1: expected"));
    }

    #[test]
    fn outputs_compare_exact_bytes_only() {
        let (a, b) = (scratch("a"), scratch("b"));
        let out = |name: &str, bytes: &[u8], exact| Output {
            name: name.into(),
            bytes: bytes.to_vec(),
            exact,
        };
        write_outputs(&a, "c", &[out("x", &[1, 2], true), out("q", &[3], false)]).unwrap();
        write_outputs(&b, "c", &[out("x", &[1, 2], true), out("q", &[4], false)]).unwrap();
        assert_eq!(compare_outputs(&a, &b, "c"), Ok(()));
        write_outputs(&b, "c", &[out("x", &[1, 3], true), out("q", &[3], false)]).unwrap();
        let err = compare_outputs(&a, &b, "c").unwrap_err();
        assert!(
            err.contains("x: 2 bytes vs 2 in the reference, first difference at byte 1"),
            "{err}"
        );
        write_outputs(&b, "c", &[out("x", &[1, 2], true)]).unwrap();
        assert!(compare_outputs(&a, &b, "c")
            .unwrap_err()
            .contains("outputs [\"x\"]"));
    }
}
