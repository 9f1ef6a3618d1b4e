//! `parsnip-cts [--driver FILE.json] [--list] [--filter PATTERN]... [--out DIR]
//!              [--jobs N] [--timeout SECONDS] [--in-process]`
//!
//! Runs the conformance cases on the driver whose ICD manifest `--driver`
//! names (through `VK_DRIVER_FILES`; without it, on whatever the loader finds
//! first), each case in a child process, and prints one line per case:
//! `name: Pass`, `name: Fail: why`, `name: NotSupported: why`, `name: Crash:
//! why` or `name: Timeout: why`. With `--out DIR` it writes `DIR/results.csv`
//! (deqp-runner's `name,status,seconds`) and each case's output buffers under
//! `DIR/<case>/`. Exits 1 when any case fails, crashes or times out.

use parsnip_cts::cases;
use parsnip_cts::isolation::{Children, CHILD_FLAG, OUTCOME_PREFIX};
use parsnip_cts::results::{write_csv, write_outputs, Record, Status};
use parsnip_cts::runner::run_in_process;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: parsnip-cts [--driver FILE.json] [--list] [--filter PATTERN]... \
[--out DIR] [--jobs N] [--timeout SECONDS] [--in-process]
  --driver FILE.json  the ICD manifest of the driver to test (sets VK_DRIVER_FILES)
  --list              print the case names and exit
  --filter PATTERN    run the cases matching PATTERN ('*' matches anything; without
                      '*', any name containing PATTERN); repeatable
  --out DIR           write DIR/results.csv and each case's output buffers to DIR/<case>/
  --jobs N            run N cases at a time (default 1)
  --timeout SECONDS   call a case hung after SECONDS (default 120)
  --in-process        run the cases in this process (for a debugger); a crash ends the run";

struct Options {
    driver: Option<PathBuf>,
    list: bool,
    filters: Vec<String>,
    out: Option<PathBuf>,
    jobs: usize,
    timeout: Duration,
    in_process: bool,
    run_one: Option<String>,
}

fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        driver: None,
        list: false,
        filters: Vec::new(),
        out: None,
        jobs: 1,
        timeout: Duration::from_secs(120),
        in_process: false,
        run_one: None,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or_else(|| format!("{arg} needs {what}"));
        match arg.as_str() {
            "--driver" => options.driver = Some(PathBuf::from(value("a manifest file")?)),
            "--list" => options.list = true,
            "--filter" => options.filters.push(value("a pattern")?),
            "--out" => options.out = Some(PathBuf::from(value("a directory")?)),
            "--jobs" => {
                let v = value("a count")?;
                options.jobs = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--jobs {v}: not a positive count"))?;
            }
            "--timeout" => {
                let v = value("a number of seconds")?;
                let secs: u64 = v
                    .parse()
                    .map_err(|_| format!("--timeout {v}: not a number of seconds"))?;
                options.timeout = Duration::from_secs(secs);
            }
            "--in-process" => options.in_process = true,
            CHILD_FLAG => options.run_one = Some(value("a case name")?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("parsnip-cts: {why}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(options) {
        Ok(code) => code,
        Err(why) => {
            eprintln!("parsnip-cts: {why}");
            ExitCode::from(2)
        }
    }
}

fn run(options: Options) -> Result<ExitCode, String> {
    if let Some(name) = &options.run_one {
        return run_child(name, options.out.as_deref());
    }
    let selected = cases::select(&cases::all(), &options.filters);
    if options.list {
        for case in &selected {
            println!("{}", case.name);
        }
        return Ok(ExitCode::SUCCESS);
    }
    if selected.is_empty() {
        return Err(format!("no case matches {:?}", options.filters));
    }
    let driver = match &options.driver {
        Some(path) => Some(
            std::fs::canonicalize(path).map_err(|e| format!("--driver {}: {e}", path.display()))?,
        ),
        None => None,
    };
    if let Some(out) = &options.out {
        std::fs::create_dir_all(out)
            .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    }
    let start = Instant::now();
    let records = if options.in_process {
        if let Some(driver) = &driver {
            // Before the loader is loaded, while this process has one thread.
            std::env::set_var("VK_DRIVER_FILES", driver);
            std::env::remove_var("VK_ICD_FILENAMES");
        }
        let mut records = Vec::new();
        for case in &selected {
            let report = run_in_process(case);
            let mut record = Record::from_outcome(case.name, &report.outcome, report.duration);
            if let Some(out) = &options.out {
                if let Err(e) = write_outputs(out, case.name, &report.outputs) {
                    record.status = Status::Fail;
                    record.detail = e;
                }
            }
            println!("{record}");
            records.push(record);
        }
        records
    } else {
        let scratch = match &options.out {
            Some(out) => out.join("logs"),
            None => std::env::temp_dir().join(format!("parsnip-cts-{}", std::process::id())),
        };
        std::fs::create_dir_all(&scratch)
            .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
        let children = Children {
            exe: std::env::current_exe().map_err(|e| format!("cannot find myself: {e}"))?,
            driver,
            out: options.out.clone(),
            timeout: options.timeout,
            scratch: scratch.clone(),
        };
        let records = run_children(&children, &selected, options.jobs);
        // Left only if it is empty: the logs of failed cases stay.
        let _ = std::fs::remove_dir(&scratch);
        records
    };

    let count = |s: Status| records.iter().filter(|r| r.status == s).count();
    println!(
        "{} cases in {:.1} s: {} Pass, {} Fail, {} NotSupported, {} Crash, {} Timeout",
        records.len(),
        start.elapsed().as_secs_f64(),
        count(Status::Pass),
        count(Status::Fail),
        count(Status::NotSupported),
        count(Status::Crash),
        count(Status::Timeout)
    );
    if let Some(out) = &options.out {
        write_csv(&out.join("results.csv"), &records)?;
    }
    Ok(if records.iter().any(|r| r.status.is_failure()) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs `selected` in children, `jobs` at a time, printing each line as its
/// case ends; returns the records in case order.
fn run_children(
    children: &Children,
    selected: &[parsnip_cts::case::Case],
    jobs: usize,
) -> Vec<Record> {
    let next = AtomicUsize::new(0);
    let records: Mutex<Vec<Option<Record>>> = Mutex::new(vec![None; selected.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(selected.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = selected.get(i) else { break };
                let record = children.run(case.name);
                println!("{record}");
                records.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(record);
            });
        }
    });
    records
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// The child's side: run one case here, write its outputs, print the outcome.
fn run_child(name: &str, out: Option<&std::path::Path>) -> Result<ExitCode, String> {
    let all = cases::all();
    let case = all
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("no case named {name}"))?;
    let report = run_in_process(case);
    let mut outcome = report.outcome;
    if let Some(out) = out {
        if let Err(e) = write_outputs(out, name, &report.outputs) {
            outcome = parsnip_cts::case::Outcome::Fail(e);
        }
    }
    println!("{OUTCOME_PREFIX}{outcome}");
    Ok(ExitCode::SUCCESS)
}
