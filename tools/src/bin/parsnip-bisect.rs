//! parsnip-bisect BAD --good-trace GOOD --region IOVA:SIZE
//!
//! Finds where a trace (`.rd[.gz]` or `parsnip-decompile` text) goes wrong
//! against a good one of the same capture: the first draw or dispatch
//! after which the region of GPU memory (a render target, a result buffer)
//! differs on the model, then the smallest set of the register writes the
//! texts disagree on that makes the bad one's region right. Progress goes
//! to standard error. Bad arguments exit with status 2, a failed bisection
//! with status 1.

use std::process::ExitCode;

use parsnip_tools::bisect::{bisect, text_of};

const USAGE: &str = "usage: parsnip-bisect BAD --good-trace GOOD --region IOVA:SIZE";

fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => text.parse().ok(),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (bad, good, region) = match args.as_slice() {
        [b, g, gp, r, rp] if g == "--good-trace" && r == "--region" => (b, gp, rp),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let Some((iova, size)) = region
        .split_once(':')
        .and_then(|(i, s)| Some((number(i)?, number(s)?)))
    else {
        eprintln!("parsnip-bisect: --region {region} is not IOVA:SIZE\n{USAGE}");
        return ExitCode::from(2);
    };
    let run = || -> Result<(), String> {
        let (bad_text, good_text) = (text_of(bad)?, text_of(good)?);
        let found = bisect(&bad_text, &good_text, iova, size, |p| {
            eprintln!("parsnip-bisect: {p}")
        })?;
        match found.first_bad_work {
            Some((k, line)) => println!(
                "first draw/dispatch after which {iova:#x}+{size:#x} differs: {k} (line {line})"
            ),
            None => println!("{iova:#x}+{size:#x} never differs after a draw or dispatch"),
        }
        println!(
            "register writes that make the difference: {}",
            found.edits.len()
        );
        for e in &found.edits {
            println!(
                "  line {}: {} {} -> {}",
                e.line + 1,
                e.register,
                e.bad,
                e.good
            );
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parsnip-bisect: {e}");
            ExitCode::FAILURE
        }
    }
}
