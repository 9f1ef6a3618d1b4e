//! parsnip-decompile TRACE.rd[.gz] [-o FILE]
//!
//! Writes a trace as editable text (to standard output, or FILE): one
//! `record` per section, buffer contents holding IBs as PM4 packets and
//! register writes named through the register database, everything else as
//! hex. `parsnip-replay --override FILE` assembles the text back (byte for
//! byte when unedited) and replays it. Bad arguments exit with status 2, an
//! unreadable trace with status 1.

use std::process::ExitCode;

use parsnip_rd::Trace;
use parsnip_tools::decompile::decompile;

const USAGE: &str = "usage: parsnip-decompile TRACE.rd[.gz] [-o FILE]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if parsnip_tools::cli_help::asks_for_help(&args) {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (trace, out) = match args.as_slice() {
        [t] => (t, None),
        [t, o, f] if o == "-o" => (t, Some(f)),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let trace = match Trace::open(trace) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("parsnip-decompile: {trace}: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "parsnip-decompile: {} sections, {} submits",
        trace.records().len(),
        trace.submits().len()
    );
    let text = decompile(&trace);
    let written = match out {
        Some(path) => std::fs::write(path, text),
        None => {
            use std::io::Write;
            std::io::stdout().write_all(text.as_bytes())
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parsnip-decompile: writing the text: {e}");
            ExitCode::FAILURE
        }
    }
}
