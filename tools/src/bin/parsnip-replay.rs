//! parsnip-replay (TRACE.rd[.gz] | --override FILE) [--stats] [--draw-images DIR]
//!                [--gmem-base IOVA|none] [--dump IOVA:SIZE:FILE]...
//!
//! Replays a trace's submits on Parsnip's model of the GPU the trace names,
//! then writes the requested ranges of GPU memory to files. With
//! `--override FILE`, the trace is FILE, a trace `parsnip-decompile` wrote
//! as text (and a person may have edited), assembled back. `--stats`
//! prints what each compute dispatch executed: instructions (once per
//! wave), nop cycles, `(ss)`/`(sy)` waits and the cycle estimate of
//! parsnip-sim's `sp::cycle_estimate` table. `--draw-images DIR` writes
//! every bound colour target as a PNG after each draw and blit
//! (`s<submit>-<step>-<work>-rt<target>.png`, resolved from GMEM in a bin
//! pass). `--gmem-base` maps GMEM's aperture where the traced driver's
//! kernel said it is (MSM_PARAM_GMEM_BASE; a trace does not record it),
//! `none` for a kernel that reported 0; the default is 0x100000, where the
//! reference traces' drm-shim put it. A fault, hang or
//! bad stream prints the model's report and exits with status 1; bad
//! arguments exit with status 2.

use std::process::ExitCode;

use parsnip_tools::decompile::assemble;
use parsnip_tools::replay::{DrawImages, DumpRequest, Replay, TRACE_GMEM_BASE};

const USAGE: &str = "usage: parsnip-replay (TRACE.rd[.gz] | --override FILE) [--stats] \
                     [--draw-images DIR] [--gmem-base IOVA|none] [--dump IOVA:SIZE:FILE]...";

/// Where the trace comes from.
enum Source {
    Trace(String),
    /// A decompiled (perhaps edited) text.
    Override(String),
}

/// What the command line asks for.
struct Args {
    source: Source,
    dumps: Vec<DumpRequest>,
    stats: bool,
    draw_images: Option<String>,
    gmem_base: Option<u64>,
}

/// `--gmem-base`'s value: an address (hex with 0x, or decimal) or `none`.
fn parse_gmem_base(value: &str) -> Result<Option<u64>, String> {
    if value == "none" {
        return Ok(None);
    }
    let parsed = match value.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => value.parse(),
    };
    parsed
        .map(Some)
        .map_err(|_| format!("--gmem-base {value} is neither an address nor `none`"))
}

/// `None` for `-h`/`--help`.
fn parse_args(args: &[String]) -> Result<Option<Args>, String> {
    let mut trace = None;
    let mut text = None;
    let mut dumps = Vec::new();
    let mut stats = false;
    let mut draw_images = None;
    let mut gmem_base = Some(TRACE_GMEM_BASE);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--stats" => stats = true,
            "--draw-images" => {
                draw_images = Some(it.next().ok_or("--draw-images needs a DIR")?.to_string());
            }
            "--dump" => {
                let spec = it.next().ok_or("--dump needs IOVA:SIZE:FILE")?;
                dumps.push(DumpRequest::parse(spec).map_err(|e| e.to_string())?);
            }
            "--gmem-base" => {
                gmem_base = parse_gmem_base(it.next().ok_or("--gmem-base needs IOVA or none")?)?;
            }
            "--override" => {
                text = Some(it.next().ok_or("--override needs a FILE")?.to_string());
            }
            "-h" | "--help" => return Ok(None),
            a if a.starts_with('-') => return Err(format!("unknown option {a}")),
            a if trace.is_none() => trace = Some(a.to_string()),
            a => return Err(format!("a second trace {a}: replay one at a time")),
        }
    }
    let source = match (trace, text) {
        (Some(t), None) => Source::Trace(t),
        (None, Some(f)) => Source::Override(f),
        (None, None) => return Err("no trace given".into()),
        (Some(_), Some(_)) => return Err("a trace and --override: give one".into()),
    };
    Ok(Some(Args {
        source,
        dumps,
        stats,
        draw_images,
        gmem_base,
    }))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Args {
        source,
        dumps,
        stats: print_stats,
        draw_images,
        gmem_base,
    } = match parse_args(&args) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(why) => {
            eprintln!("parsnip-replay: {why}");
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let options = parsnip_sim::SimOptions::from_env()?;
        let (path, trace) = match &source {
            Source::Trace(path) => (
                path,
                parsnip_rd::Trace::open(path).map_err(|e| format!("{path}: {e}"))?,
            ),
            Source::Override(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                let bytes = assemble(&text).map_err(|e| format!("{path}: {e}"))?;
                let trace = parsnip_rd::Trace::read(&bytes[..])
                    .map_err(|e| format!("{path}: the assembled trace: {e}"))?;
                (path, trace)
            }
        };
        let mut replay = Replay::with_gmem_base(trace, options, gmem_base)?;
        let images = match &draw_images {
            Some(dir) => Some(DrawImages::new(std::path::Path::new(dir))?),
            None => None,
        };
        println!(
            "{path}: {} ({}), {} submits",
            replay.gpu().info().name,
            replay.gpu().info().marketing_name,
            replay.submits()
        );
        for i in 0..replay.submits() {
            replay.load_submit(i)?;
            if let Some(images) = &images {
                images.observe_submit(replay.gpu(), i);
            }
            let stats = replay.run_submit(i)?;
            println!(
                "submit {i}: {} packets, {} register writes, {} dispatches",
                stats.packets, stats.register_writes, stats.dispatches
            );
            if print_stats {
                for (d, s) in replay.dispatch_stats().iter().enumerate() {
                    println!(
                        "  dispatch {d}: {} work groups, {} waves, {} instructions, {} nop cycles, \
                         {} (ss) waits, {} (sy) waits, ~{} cycles",
                        s.work_groups,
                        s.waves,
                        s.instructions,
                        s.nop_cycles,
                        s.ss_waits,
                        s.sy_waits,
                        s.estimated_cycles
                    );
                }
            }
        }
        if let (Some(images), Some(dir)) = (&images, &draw_images) {
            let files = images.files()?;
            println!("wrote {} images to {dir}", files.len());
        }
        for d in &dumps {
            replay.dump(d)?;
            println!("wrote {:#x}+{:#x} to {}", d.iova, d.size, d.path.display());
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parsnip-replay: {e}");
            ExitCode::FAILURE
        }
    }
}
