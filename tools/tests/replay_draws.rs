//! Turnip's sysmem graphics streams (reference/turnip/{a660,a740}/
//! *_sysmem.rd.gz) replayed whole on the model: clears and copies through
//! the 2D engine, every draw through the pipeline. The result buffer each
//! leaves must hold lavapipe's image of the same workload
//! (expected/*_lvp.png): interior pixels exactly, and only a few pixels on
//! primitive edges may differ, where the two rasterizers' sub-pixel
//! precision may part (turnip/README.md).

use std::path::Path;

use parsnip_sim::{SimOptions, SubmitStats};
use parsnip_tools::replay::Replay;

/// A workload, its result buffer on a660 and on a740 (turnip/README.md),
/// and the image's size.
struct Workload {
    name: &'static str,
    result: [u64; 2],
    size: (usize, usize),
}

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "triangle",
        result: [0x1_0002_b000; 2],
        size: (64, 64),
    },
    Workload {
        name: "lines",
        result: [0x1_0002_f000; 2],
        size: (96, 64),
    },
    Workload {
        name: "points",
        result: [0x1_0002_f000; 2],
        size: (96, 64),
    },
    Workload {
        name: "strip_restart",
        result: [0x1_0002_f000; 2],
        size: (96, 64),
    },
    Workload {
        name: "depth_bias_cull",
        result: [0x1_0003_5000, 0x1_0003_6000],
        size: (96, 64),
    },
    Workload {
        name: "writemask_logicop",
        result: [0x1_0002_f000; 2],
        size: (96, 64),
    },
    Workload {
        name: "instanced_attrs",
        result: [0x1_0002_f000; 2],
        size: (96, 64),
    },
    Workload {
        name: "mip_lod",
        result: [0x1_0002_f000; 2],
        size: (96, 64),
    },
    Workload {
        name: "input_attachment",
        result: [0x1_0003_8000; 2],
        size: (96, 64),
    },
];

/// Most differing pixels allowed, all on edges.
const EDGE_PIXELS: usize = 8;

/// Replays `trace` and returns `size` bytes at `result` and what its one
/// submit did, or the error.
fn replay(trace: &Path, result: u64, size: usize) -> Result<(Vec<u8>, SubmitStats), String> {
    let trace = parsnip_rd::Trace::open(trace).map_err(|e| e.to_string())?;
    // Strict caches: Turnip's streams must flush the CCU where they read
    // what the RB wrote.
    let options = SimOptions {
        strict_caches: true,
        ..SimOptions::default()
    };
    let mut replay = Replay::new(trace, options).map_err(|e| e.to_string())?;
    let stats = replay.run_all().map_err(|e| e.to_string())?;
    assert_eq!(stats.len(), 1, "each trace holds one submit");
    Ok((replay.read(result, size as u64)?, stats[0]))
}

/// What the model's counts say of a `mode` stream of `workload`.
fn check_stats(mode: &str, workload: &str, stats: &SubmitStats) -> Result<(), String> {
    println!(
        "{mode} {workload}: {} draws, {} binned, {} skipped; {} fragments shaded, {} rejected by \
         LRZ",
        stats.draws,
        stats.binned_draws,
        stats.skipped_draws,
        stats.fragments_shaded,
        stats.lrz_rejected
    );
    // depth_bias_cull draws nearer geometry over farther with LRZ enabled
    // (GRAS_LRZ_CNTL.ENABLE and LRZ_WRITE in its logs): the image above is
    // unchanged by LRZ, and LRZ must have rejected something.
    if workload == "depth_bias_cull" && stats.lrz_rejected == 0 {
        return Err(format!("{mode} depth_bias_cull: LRZ rejected no fragment"));
    }
    if mode != "gmem-forcebin" {
        return match stats.binned_draws + stats.skipped_draws {
            0 => Ok(()),
            _ => Err(format!(
                "{workload}: a {mode} stream binned or skipped draws"
            )),
        };
    }
    // Two bins (turnip/README.md): each binned draw is drawn or skipped in
    // each of them, unless IB2 skipping (armed around each bin's draws)
    // ended the bin's draw IB after its last visible draw.
    let seen = stats.draws + stats.skipped_draws;
    if stats.binned_draws == 0
        || seen > 2 * stats.binned_draws
        || (seen < 2 * stats.binned_draws) != (stats.ib2_skips > 0)
    {
        return Err(format!(
            "{workload}: {stats:?} is not two bins of the binned draws"
        ));
    }
    // lines draws a line list above y = 32 and two line strips below it
    // (turnip/README.md's vertices): the top bin draws the list and, seeing
    // nothing more, leaves its draw IB; the bottom one skips the list and
    // draws the strips.
    if workload == "lines"
        && (
            stats.binned_draws,
            stats.draws,
            stats.skipped_draws,
            stats.ib2_skips,
        ) != (3, 3, 1, 1)
    {
        return Err(format!(
            "lines: {stats:?}, expected 3 draws binned, 3 drawn, 1 skipped and 1 IB2 left early"
        ));
    }
    Ok(())
}

/// Replays every workload's stream of render `mode` on both GPUs and
/// checks its image against lavapipe's.
fn streams_render_lavapipes_images(mode: &str) {
    let Some(dir) = parsnip_reference::reference_dir(&format!("turnip_{mode}_draws")) else {
        return;
    };
    let mut failures = Vec::new();
    for w in WORKLOADS {
        let png = std::fs::read(dir.join(format!("turnip/expected/{}_lvp.png", w.name))).unwrap();
        let (width, height, expected) = parsnip_reference::image::decode_png(&png);
        assert_eq!((width, height), w.size, "{}", w.name);
        for (g, gpu) in ["a660", "a740"].into_iter().enumerate() {
            let trace = dir.join(format!("turnip/{gpu}/{}_{mode}.rd.gz", w.name));
            let (got, stats) = match replay(&trace, w.result[g], expected.len()) {
                Ok(got) => got,
                Err(e) => {
                    failures.push(format!("{gpu} {}: {e}", w.name));
                    continue;
                }
            };
            check_stats(mode, w.name, &stats)
                .unwrap_or_else(|e| failures.push(format!("{gpu} {e}")));
            let (interior, edge) =
                parsnip_reference::image::compare(&expected, &got, width, height);
            println!(
                "{gpu} {}: {} of {} pixels as lavapipe's; {edge} edge pixels and {} interior \
                 pixels differ",
                w.name,
                width * height - interior.len() - edge,
                width * height,
                interior.len()
            );
            if !interior.is_empty() || edge > EDGE_PIXELS {
                failures.push(format!(
                    "{gpu} {}: {} interior pixels differ (first at {:?}), {edge} edge pixels",
                    w.name,
                    interior.len(),
                    interior.first()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn turnips_sysmem_streams_render_lavapipes_images() {
    streams_render_lavapipes_images("sysmem");
}

#[test]
fn turnips_gmem_streams_render_lavapipes_images() {
    streams_render_lavapipes_images("gmem");
}

#[test]
fn turnips_forcebin_streams_render_lavapipes_images() {
    streams_render_lavapipes_images("gmem-forcebin");
}

#[test]
fn the_png_decoder_reads_the_reference_images_as_the_ppm_has_them() {
    // expected/triangle_lvp.ppm is the same image as triangle_lvp.png, as
    // a binary PPM: an outside check of the decoder's filters.
    let Some(dir) = parsnip_reference::reference_dir("turnip_png_decoder") else {
        return;
    };
    let (w, h, rgba) = parsnip_reference::image::decode_png(
        &std::fs::read(dir.join("turnip/expected/triangle_lvp.png")).unwrap(),
    );
    let ppm = std::fs::read(dir.join("turnip/expected/triangle_lvp.ppm")).unwrap();
    let header = format!("P6\n{w} {h}\n255\n");
    assert_eq!(&ppm[..header.len()], header.as_bytes());
    let rgb: Vec<u8> = rgba.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    assert_eq!(&ppm[header.len()..], &rgb[..]);
}
