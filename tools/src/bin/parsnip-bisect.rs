//! parsnip-bisect BAD --good-trace GOOD --region IOVA:SIZE
//! parsnip-bisect BAD --good-image REF.png --region IOVA [--tolerance N] [--out DIR]
//!
//! Finds where a trace (`.rd[.gz]` or `parsnip-decompile` text) goes wrong.
//! Against a good trace of the same capture: the first draw or dispatch
//! after which the region of GPU memory (a render target, a result buffer)
//! differs on the model, then the smallest set of the register writes the
//! texts disagree on that makes the bad one's region right. Against a
//! reference image (an 8-bit RGBA render target, linear, rows of
//! `width * 4` bytes at IOVA): the first draw that writes a pixel its
//! final wrong value (channels may differ by `--tolerance`, default 0);
//! the render target before and after that draw is written as PNG into
//! `--out` (default the current directory). Progress goes to standard
//! error. Bad arguments exit with status 2, a failed bisection with
//! status 1.

use std::path::PathBuf;
use std::process::ExitCode;

use parsnip_tools::bisect::image::{bisect_image, Image};
use parsnip_tools::bisect::{bisect, text_of};
use parsnip_tools::decompile::number;

const USAGE: &str = "usage: parsnip-bisect BAD --good-trace GOOD --region IOVA:SIZE\n       \
                     parsnip-bisect BAD --good-image REF.png --region IOVA [--tolerance N] [--out DIR]";

enum Good {
    Trace(String),
    Image(PathBuf),
}

struct Args {
    bad: String,
    good: Good,
    region: String,
    tolerance: u8,
    out: PathBuf,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let [bad, rest @ ..] = args else {
        return Err("no trace".into());
    };
    let (mut good, mut region, mut tolerance, mut out) = (None, None, 0u8, PathBuf::from("."));
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} wants a value"))?;
        match flag.as_str() {
            "--good-trace" => good = Some(Good::Trace(value.clone())),
            "--good-image" => good = Some(Good::Image(PathBuf::from(value))),
            "--region" => region = Some(value.clone()),
            "--tolerance" => {
                tolerance = value
                    .parse()
                    .map_err(|_| format!("--tolerance {value} is not 0..255"))?
            }
            "--out" => out = PathBuf::from(value),
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(Args {
        bad: bad.clone(),
        good: good.ok_or("--good-trace or --good-image is needed")?,
        region: region.ok_or("--region is needed")?,
        tolerance,
        out,
    })
}

fn against_trace(bad: &str, good: &str, iova: u64, size: u64) -> Result<(), String> {
    let (bad_text, good_text) = (text_of(bad)?, text_of(good)?);
    let found = bisect(&bad_text, &good_text, iova, size, |p| {
        eprintln!("parsnip-bisect: {p}")
    })?;
    match found.first_bad_work {
        Some((k, line)) => {
            println!(
                "first draw/dispatch after which {iova:#x}+{size:#x} differs: {k} (line {line})"
            )
        }
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
}

fn against_image(args: &Args, reference: &std::path::Path, iova: u64) -> Result<(), String> {
    let bad_text = text_of(&args.bad)?;
    let reference = Image::read_png(reference)?;
    let found = bisect_image(&bad_text, &reference, iova, args.tolerance, |p| {
        eprintln!("parsnip-bisect: {p}")
    })?;
    println!(
        "pixels differing from the reference: {}",
        found.wrong_pixels
    );
    match (found.first_bad_work, &found.before, &found.after) {
        (Some((k, line)), Some(before), Some(after)) => {
            println!("first draw/dispatch writing wrong pixels: {k} (line {line})");
            for (name, image) in [("before", before), ("after", after)] {
                let path = args.out.join(format!("bisect-draw-{k}-{name}.png"));
                image.write_png(&path)?;
                println!("wrote {}", path.display());
            }
        }
        _ if found.wrong_pixels == 0 => println!("the replay matches the reference"),
        _ => println!("no draw or dispatch wrote the wrong pixels"),
    }
    Ok(())
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if parsnip_tools::cli_help::asks_for_help(&raw) {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let args = match parse(&raw) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("parsnip-bisect: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let run = match &args.good {
        Good::Trace(good) => {
            let Some((iova, size)) = args
                .region
                .split_once(':')
                .and_then(|(i, s)| Some((number(i)?, number(s)?)))
            else {
                eprintln!(
                    "parsnip-bisect: --region {} is not IOVA:SIZE\n{USAGE}",
                    args.region
                );
                return ExitCode::from(2);
            };
            against_trace(&args.bad, good, iova, size)
        }
        Good::Image(reference) => {
            let Some(iova) = number(&args.region) else {
                eprintln!(
                    "parsnip-bisect: --region {} is not IOVA\n{USAGE}",
                    args.region
                );
                return ExitCode::from(2);
            };
            against_image(&args, reference, iova)
        }
    };
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parsnip-bisect: {e}");
            ExitCode::FAILURE
        }
    }
}
