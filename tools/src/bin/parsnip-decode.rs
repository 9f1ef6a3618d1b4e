//! `parsnip-decode TRACE...`: decodes the command streams of `.rd` / `.rd.gz`
//! traces into text, in the layout of freedreno's decoder (`cffdump`), with
//! its options.
//!
//! Notes about malformed or missing input go to stderr after each trace; a
//! trace that is corrupt from some point on is decoded up to there, then the
//! error (with its file offset) is reported and the exit status is 1.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use parsnip_tools::decode::{decode_trace, DecodeError, DecodeOptions};

const USAGE: &str = "\
Usage: parsnip-decode [OPTIONS] TRACE...

Decodes the command streams of .rd or .rd.gz traces (a6xx and a7xx).

Options:
  -F, --frame N        decode only command stream N (counted from 0)
  -S, --start N        decode command streams from N
  -E, --end N          decode command streams up to N
      --once           decode an IB only once per render mode (binning, GMEM,
                       sysmem): an IB run for every tile is shown for the
                       first tile only
      --not-once       decode every IB every time (default)
  -D, --draw N         show only what happens for draw N
  -s, --summary        one line per command stream and per draw, dispatch
                       or blit
  -a, --allregs        list every register written so far at each draw, not
                       only those written since the previous one
      --color          colour opcode and register names (default on a
                       terminal)
      --no-color       no colour
      --unit-test      omit the 'Reading TRACE...' line
      --show-compositor
                       also decode submits of compositors (fdperf, chrome,
                       surfaceflinger, X...), which are skipped by default
  -e, --exe NAME       decode only submits of the process NAME
  -h, --help           this help
";

struct Args {
    options: DecodeOptions,
    unit_test: bool,
    traces: Vec<String>,
}

fn number(flag: &str, value: Option<String>) -> Result<u32, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a number"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: `{value}` is not a number"))
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut options = DecodeOptions {
        color: io::stdout().is_terminal(),
        ..DecodeOptions::default()
    };
    let mut unit_test = false;
    let mut traces = Vec::new();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        // `--frame=3` as well as `--frame 3`.
        let (flag, mut inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || inline.take().or_else(|| args.next());
        match flag.as_str() {
            "-F" | "--frame" => {
                let n = number(&flag, value())?;
                options.start = n;
                options.end = n;
            }
            "-S" | "--start" => options.start = number(&flag, value())?,
            "-E" | "--end" => options.end = number(&flag, value())?,
            "-D" | "--draw" => options.draw = Some(number(&flag, value())?),
            "--once" => options.once = true,
            "--not-once" => options.once = false,
            "-s" | "--summary" => options.summary = true,
            "-a" | "--allregs" => options.all_registers = true,
            "--color" => options.color = true,
            "--no-color" => options.color = false,
            "--unit-test" => unit_test = true,
            "--show-compositor" => options.show_compositor = true,
            "-e" | "--exe" => {
                options.exe = Some(value().ok_or_else(|| format!("{flag} needs a name"))?);
            }
            "-h" | "--help" => return Ok(None),
            f if f.starts_with('-') && f.len() > 1 => return Err(format!("unknown option {f}")),
            _ => traces.push(arg),
        }
    }
    if traces.is_empty() {
        return Err("no trace given".to_string());
    }
    Ok(Some(Args {
        options,
        unit_test,
        traces,
    }))
}

/// Decodes one trace to `out`; false when it could not be decoded whole.
fn decode_file(path: &str, args: &Args, out: &mut dyn Write) -> Result<bool, io::Error> {
    if !args.unit_test {
        writeln!(out, "Reading {path}...")?;
    }
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("parsnip-decode: {path}: {e}");
            return Ok(false);
        }
    };
    let result = match decode_trace(file, args.options.clone(), &mut *out) {
        Ok(r) => (r.notes, r.read_error),
        Err(DecodeError::Output(e)) => return Err(e),
        Err(e) => {
            eprintln!("parsnip-decode: {path}: {e}");
            return Ok(false);
        }
    };
    let (notes, read_error) = result;
    out.flush()?;
    for note in &notes {
        eprintln!("parsnip-decode: {path}: note: {note}");
    }
    if let Some(e) = &read_error {
        eprintln!("parsnip-decode: {path}: {e}; the rest of the trace was not decoded");
        return Ok(false);
    }
    Ok(true)
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("parsnip-decode: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut ok = true;
    for path in &args.traces {
        match decode_file(path, &args, &mut out) {
            Ok(whole) => ok &= whole,
            // Piped into `head`: stop quietly.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("parsnip-decode: writing the output: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("parsnip-decode: writing the output: {e}");
            ExitCode::FAILURE
        }
        _ if ok => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}
