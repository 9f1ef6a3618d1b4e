//! Running each case in a child process of the runner.
//!
//! The loader reads `VK_DRIVER_FILES` once per process, and a driver under
//! development may crash or hang: a child per case gets the driver from its
//! environment, and a crash or a hang costs one case, reported as `Crash` or
//! `Timeout`, not the run. The child is the runner itself, invoked as
//! `parsnip-cts --run-one CASE [--out DIR]`; it prints its outcome on a line
//! starting with [`OUTCOME_PREFIX`].

use crate::case::Outcome;
use crate::results::{Record, Status};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The runner's flag that makes it the child for one case.
pub const CHILD_FLAG: &str = "--run-one";
/// Starts the child's outcome line on its standard output.
pub const OUTCOME_PREFIX: &str = "parsnip-cts outcome: ";

/// How to run children.
#[derive(Clone, Debug)]
pub struct Children {
    /// The runner executable.
    pub exe: PathBuf,
    /// The ICD manifest to put in `VK_DRIVER_FILES`, if any.
    pub driver: Option<PathBuf>,
    /// Where the child writes the case's outputs, if anywhere.
    pub out: Option<PathBuf>,
    pub timeout: Duration,
    /// A directory for the children's captured standard output and error.
    pub scratch: PathBuf,
}

/// How long the parent sleeps between looks at a running child.
const POLL: Duration = Duration::from_millis(2);
/// How many lines of a crashed child's standard error go in its record.
const STDERR_LINES: usize = 3;

impl Children {
    /// Runs case `name` in a child and reports it.
    pub fn run(&self, name: &str) -> Record {
        let start = Instant::now();
        let record = |status, detail: String| Record {
            name: name.to_owned(),
            status,
            detail,
            duration: start.elapsed(),
        };
        let stdout_path = self.scratch.join(format!("{name}.stdout"));
        let stderr_path = self.scratch.join(format!("{name}.stderr"));
        let files = std::fs::File::create(&stdout_path)
            .and_then(|o| Ok((o, std::fs::File::create(&stderr_path)?)));
        let (stdout, stderr) = match files {
            Ok(f) => f,
            Err(e) => {
                return record(
                    Status::Fail,
                    format!("cannot create files in {}: {e}", self.scratch.display()),
                )
            }
        };
        let mut command = Command::new(&self.exe);
        command
            .arg(CHILD_FLAG)
            .arg(name)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr);
        if let Some(out) = &self.out {
            command.arg("--out").arg(out);
        }
        if let Some(driver) = &self.driver {
            command
                .env("VK_DRIVER_FILES", driver)
                .env_remove("VK_ICD_FILENAMES");
        }
        let mut child = match command.spawn() {
            Ok(c) => c,
            Err(e) => {
                return record(
                    Status::Fail,
                    format!("cannot start {}: {e}", self.exe.display()),
                )
            }
        };
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if start.elapsed() > self.timeout => {
                    // Killing may race with a natural exit; either way it ends.
                    let _ = child.kill();
                    let _ = child.wait();
                    return record(
                        Status::Timeout,
                        format!("no result after {} s", self.timeout.as_secs()),
                    );
                }
                Ok(None) => std::thread::sleep(POLL),
                Err(e) => return record(Status::Fail, format!("cannot wait for the case: {e}")),
            }
        };
        let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
        let outcome = stdout
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix(OUTCOME_PREFIX))
            .and_then(Outcome::parse);
        let stderr_tail = tail(&stderr_path);
        // The captured streams are kept only when something went wrong.
        let keep = !matches!(outcome, Some(Outcome::Pass | Outcome::NotSupported(_)));
        if !keep {
            let _ = std::fs::remove_file(&stdout_path);
            let _ = std::fs::remove_file(&stderr_path);
        }
        let mut rec = match outcome {
            Some(outcome) => Record::from_outcome(name, &outcome, start.elapsed()),
            None => record(
                Status::Crash,
                format!(
                    "{} without a result; stderr: {stderr_tail}",
                    describe_exit(&status)
                ),
            ),
        };
        if keep {
            rec.detail = format!(
                "{} (output in {} and .stderr)",
                rec.detail,
                stdout_path.display()
            );
        }
        rec
    }
}

fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(STDERR_LINES);
    lines[start..].join(" | ")
}

fn describe_exit(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "ended".to_owned(),
    }
}
