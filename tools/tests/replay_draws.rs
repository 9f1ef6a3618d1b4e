//! Turnip's sysmem graphics streams (reference/turnip/{a660,a740}/
//! *_sysmem.rd.gz) replayed whole on the model: clears and copies through
//! the 2D engine, every draw through the pipeline. The result buffer each
//! leaves must hold lavapipe's image of the same workload
//! (expected/*_lvp.png): interior pixels exactly, and only a few pixels on
//! primitive edges may differ, where the two rasterizers' sub-pixel
//! precision may part (turnip/README.md).

use std::io::Read;
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

/// The RGBA8 pixels of a PNG image (8-bit RGB or RGBA, not interlaced, as
/// the reference images are), row 0 first.
fn decode_png(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let mut at = 8;
    let (mut width, mut height, mut channels) = (0, 0, 0);
    let mut compressed = Vec::new();
    while at < bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                assert_eq!(data[8], 8, "8-bit channels");
                channels = match data[9] {
                    2 => 3,
                    6 => 4,
                    other => panic!("PNG colour type {other}"),
                };
                assert_eq!(data[12], 0, "not interlaced");
            }
            b"IDAT" => compressed.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&compressed[..])
        .read_to_end(&mut raw)
        .unwrap();
    // Undo each row's filter (PNG specification, section 9).
    let stride = width * channels;
    let mut rows = vec![0u8; height * stride];
    for y in 0..height {
        let line = &raw[y * (stride + 1)..(y + 1) * (stride + 1)];
        let (filter, line) = (line[0], &line[1..]);
        for x in 0..stride {
            let a = if x >= channels {
                rows[y * stride + x - channels]
            } else {
                0
            };
            let b = if y > 0 { rows[(y - 1) * stride + x] } else { 0 };
            let c = if x >= channels && y > 0 {
                rows[(y - 1) * stride + x - channels]
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                other => panic!("PNG filter {other}"),
            };
            rows[y * stride + x] = line[x].wrapping_add(predicted);
        }
    }
    let rgba = rows
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2], if channels == 4 { p[3] } else { 255 }])
        .collect();
    (width, height, rgba)
}

/// Replays `trace` and returns `size` bytes at `result` and what its one
/// submit did, or the error.
fn replay(trace: &Path, result: u64, size: usize) -> Result<(Vec<u8>, SubmitStats), String> {
    let trace = parsnip_rd::Trace::open(trace).map_err(|e| e.to_string())?;
    let mut replay = Replay::new(trace, SimOptions::default()).map_err(|e| e.to_string())?;
    let stats = replay.run_all().map_err(|e| e.to_string())?;
    assert_eq!(stats.len(), 1, "each trace holds one submit");
    Ok((replay.read(result, size as u64)?, stats[0]))
}

/// The pixels where `got` differs from `expected`, split into those inside
/// a region of one colour in `expected` (its 3x3 neighbourhood is all the
/// same) and those on an edge.
fn compare(expected: &[u8], got: &[u8], w: usize, h: usize) -> (Vec<(usize, usize)>, usize) {
    let px = |b: &[u8], x: usize, y: usize| -> [u8; 4] {
        b[4 * (y * w + x)..4 * (y * w + x) + 4].try_into().unwrap()
    };
    let mut interior = Vec::new();
    let mut edge = 0;
    for y in 0..h {
        for x in 0..w {
            if px(expected, x, y) == px(got, x, y) {
                continue;
            }
            let flat = (y.saturating_sub(1)..(y + 2).min(h)).all(|ny| {
                (x.saturating_sub(1)..(x + 2).min(w))
                    .all(|nx| px(expected, nx, ny) == px(expected, x, y))
            });
            if flat {
                interior.push((x, y));
            } else {
                edge += 1;
            }
        }
    }
    (interior, edge)
}

/// What the model's counts say of a `mode` stream of `workload`.
fn check_stats(mode: &str, workload: &str, stats: &SubmitStats) -> Result<(), String> {
    println!(
        "{mode} {workload}: {} draws, {} binned, {} skipped",
        stats.draws, stats.binned_draws, stats.skipped_draws
    );
    if mode != "gmem-forcebin" {
        return match stats.binned_draws + stats.skipped_draws {
            0 => Ok(()),
            _ => Err(format!(
                "{workload}: a {mode} stream binned or skipped draws"
            )),
        };
    }
    // Two bins (turnip/README.md): each binned draw is drawn or skipped in
    // each of them.
    if stats.binned_draws == 0 || stats.draws + stats.skipped_draws != 2 * stats.binned_draws {
        return Err(format!(
            "{workload}: {stats:?} is not two bins of the binned draws"
        ));
    }
    // lines draws a line list above y = 32 and two line strips below it
    // (turnip/README.md's vertices): each is skipped in the other bin.
    if workload == "lines" && (stats.binned_draws, stats.skipped_draws) != (3, 3) {
        return Err(format!(
            "lines: {stats:?}, expected 3 draws binned and 3 skipped"
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
        let (width, height, expected) = decode_png(&png);
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
            let (interior, edge) = compare(&expected, &got, width, height);
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
    let (w, h, rgba) =
        decode_png(&std::fs::read(dir.join("turnip/expected/triangle_lvp.png")).unwrap());
    let ppm = std::fs::read(dir.join("turnip/expected/triangle_lvp.ppm")).unwrap();
    let header = format!("P6\n{w} {h}\n255\n");
    assert_eq!(&ppm[..header.len()], header.as_bytes());
    let rgb: Vec<u8> = rgba.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    assert_eq!(&ppm[header.len()..], &rgb[..]);
}
