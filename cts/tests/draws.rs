//! The draw cases on Parsnip's simulated a660 and a740, through the loader,
//! against lavapipe, with every render pass in sysmem and then in GMEM
//! bins (`PARSNIP_DEBUG=sysmem`, `gmem`, and `gmem,forcebin` with a
//! binning pass in every pass, `gmem,nobin` with none): each passes its own probes on
//! every driver, and each image equals lavapipe's in every interior pixel
//! with at most `EDGE_PIXELS` edge pixels apart; every exact
//! output (occlusion query counts) equals lavapipe's byte for byte. Turnip's triangle scene
//! also equals the reference image lavapipe rendered of triangle.c
//! (`turnip/expected/triangle_lvp.png`). And a GMEM run's `.rd` trace,
//! decoded, really renders in bins: a draw per bin in RM6_BIN_RENDER_START,
//! clears and stores as blit events, with the bin, blit and CCU writes of
//! Turnip's own GMEM triangle (`turnip/<gpu>/triangle_gmem.log`); a
//! forcebin run's trace holds the binning pass, the VSC setup and a
//! CP_SET_BIN_DATA5_OFFSET per bin, and replayed on the model its bins
//! skip the draws outside them.

mod drivers;

use std::path::PathBuf;
use std::process::Command;

use drivers::{check_image, lavapipe, parsnip, run_cts_filtered, scratch, Run};
use parsnip_cts::cases;
use parsnip_cts::results::{read_outputs, Status};
use parsnip_sim::SimOptions;
use parsnip_tools::decode::{decode_trace, DecodeOptions};
use parsnip_tools::replay::Replay;

/// Most differing pixels allowed, all on edges (as the compiler's and
/// the replay tool's draw tests allow).
const EDGE_PIXELS: usize = 8;
const SIZE: usize = 64;
/// The render modes every case runs in: sysmem, GMEM bins (binned by the
/// default rule), GMEM with a binning pass in every pass and at least 2x2
/// bins, and GMEM never binned.
const MODES: [&str; 4] = ["sysmem", "gmem", "gmem,forcebin", "gmem,nobin"];

/// The dynamic rendering scene split by suspending and resuming.
const SPLIT_SCENES: [&str; 5] = [
    "draws.dynamic_rendering_suspended_in_one_buffer",
    "draws.dynamic_rendering_split_over_2",
    "draws.dynamic_rendering_split_over_3",
    "draws.dynamic_rendering_split_over_2_submit2",
    "draws.dynamic_rendering_split_with_query",
];

/// Each simulated GPU in each render mode.
fn gpus_and_modes() -> impl Iterator<Item = (&'static str, &'static str)> {
    ["a660", "a740"]
        .into_iter()
        .flat_map(|g| MODES.map(|m| (g, m)))
}

/// The cases `filter` selects on Parsnip's simulated `gpu` in render
/// `mode`, in a scratch directory named after `what`.
fn run_in_mode(gpu: &str, mode: &str, what: &str, filter: &str) -> Run {
    run_cts_filtered(
        &parsnip(),
        &[("PARSNIP_SIM", gpu), ("PARSNIP_DEBUG", mode)],
        &scratch(&format!("{what}_{gpu}_{mode}")),
        &[filter],
    )
}

fn draw_cases() -> Vec<&'static str> {
    cases::all()
        .into_iter()
        .map(|c| c.name)
        .filter(|n| n.starts_with("draws."))
        .collect()
}

/// The case's RGBA8 image and its size: `rgba8` is 64x64, `rgba8_WxH` W
/// by H.
fn image(run: &Run, case: &str) -> (Vec<u8>, (usize, usize)) {
    let outputs = read_outputs(&run.out, case).unwrap_or_else(|e| panic!("{e}"));
    let (o, size) = outputs
        .iter()
        .find_map(|o| {
            let size = match o.name.strip_prefix("rgba8") {
                Some("") => (SIZE, SIZE),
                Some(wh) => {
                    let (w, h) = wh.strip_prefix('_')?.split_once('x')?;
                    (w.parse().ok()?, h.parse().ok()?)
                }
                None => return None,
            };
            Some((o, size))
        })
        .unwrap_or_else(|| panic!("{case} keeps no rgba8 image"));
    assert_eq!(o.bytes.len(), size.0 * size.1 * 4, "{case}");
    (o.bytes.clone(), size)
}

fn check_against(reference: &[u8], got: &[u8], size: (usize, usize), what: &str) {
    check_image(reference, got, size, EDGE_PIXELS, what);
}

/// Every exact output of `case` in `run` is lavapipe's, and it has each
/// of lavapipe's.
fn exact_outputs_match(lvp: &Run, run: &Run, case: &str, gpu: &str) {
    let outputs = |r: &Run| read_outputs(&r.out, case).unwrap_or_else(|e| panic!("{e}"));
    let got = outputs(run);
    for want in outputs(lvp).iter().filter(|o| o.exact) {
        let o = got.iter().find(|o| o.name == want.name);
        assert_eq!(
            o.map(|o| &o.bytes),
            Some(&want.bytes),
            "{gpu} {case}: output {} differs from lavapipe's",
            want.name
        );
    }
}

#[test]
fn draws_match_lavapipe_on_a660_and_a740_in_sysmem_and_gmem() {
    let names = draw_cases();
    assert!(names.len() >= 3, "{names:?}");
    let lvp = run_cts_filtered(&lavapipe(), &[], &scratch("draws_lavapipe"), &["draws."]);
    let reference = parsnip_reference::reference_dir("the triangle's reference image")
        .map(|dir| dir.join("turnip/expected/triangle_lvp.png"));
    for (gpu, mode) in gpus_and_modes() {
        let run = run_in_mode(gpu, mode, "draws", "draws.");
        let gpu = format!("{gpu} {mode}");
        for case in &names {
            for (driver, r) in [("lavapipe", &lvp), (gpu.as_str(), &run)] {
                assert_eq!(
                    r.status(case),
                    Some(Status::Pass),
                    "{driver}: {}",
                    r.line(case)
                );
            }
            let (want, size) = image(&lvp, case);
            let (got, got_size) = image(&run, case);
            assert_eq!(size, got_size, "{gpu} {case}");
            check_against(&want, &got, size, &format!("{gpu} {case}"));
            exact_outputs_match(&lvp, &run, case, &gpu);
        }
        // Suspended and resumed, in one command buffer or over several,
        // the scene renders exactly as when it is rendered whole.
        let (whole, _) = image(&run, "draws.dynamic_rendering_unsplit");
        for case in SPLIT_SCENES {
            let (split, _) = image(&run, case);
            assert!(split == whole, "{gpu} {case}: not the unsplit image");
        }
        if let Some(png) = &reference {
            let bytes = std::fs::read(png).expect("the reference image");
            let (w, h, want) = parsnip_reference::image::decode_png(&bytes);
            assert_eq!((w, h), (SIZE, SIZE));
            let (got, size) = image(&run, "draws.triangle");
            check_against(
                &want,
                &got,
                size,
                &format!("{gpu} draws.triangle vs triangle_lvp.png"),
            );
        }
    }
}

/// Buffer markers around and inside a render pass (`markers.graphics`,
/// which lavapipe cannot run) land with their values in every render
/// mode, where a GMEM pass replays the markers inside it once per bin and
/// in the binning pass, and the triangle they surround is lavapipe's.
#[test]
fn graphics_markers_land_in_every_render_mode() {
    let lvp = run_cts_filtered(
        &lavapipe(),
        &[],
        &scratch("markers_lavapipe"),
        &["draws.triangle"],
    );
    let (want, size) = image(&lvp, "draws.triangle");
    for (gpu, mode) in gpus_and_modes() {
        let run = run_in_mode(gpu, mode, "markers", "markers.graphics");
        let case = "markers.graphics";
        assert_eq!(
            run.status(case),
            Some(Status::Pass),
            "{gpu} {mode}: {}",
            run.line(case)
        );
        let (got, got_size) = image(&run, case);
        assert_eq!(size, got_size);
        check_against(&want, &got, size, &format!("{gpu} {mode} {case}"));
    }
}

/// `case` run alone with `PARSNIP_DEBUG=gmem`, its trace decoded: the
/// decoder's text, and its draws (packet and detail, render mode).
fn gmem_trace(gpu: &str, case: &str) -> (String, Vec<(String, String)>) {
    let (text, draws, _) = trace_in(gpu, case, "gmem");
    (text, draws)
}

/// `case` run alone with `PARSNIP_DEBUG=<debug>`, its trace decoded, and
/// the trace.
fn trace_in(gpu: &str, case: &str, debug: &str) -> (String, Vec<(String, String)>, PathBuf) {
    let dir = scratch(&format!("draws_rd_{gpu}_{case}_{debug}"));
    let trace = dir.join("gmem.rd");
    let output = Command::new(env!("CARGO_BIN_EXE_parsnip-cts"))
        .arg("--driver")
        .arg(parsnip())
        .args(["--in-process", "--filter", case])
        .env("PARSNIP_SIM", gpu)
        .env("PARSNIP_DEBUG", debug)
        .env("PARSNIP_RD_DUMP", &trace)
        .output()
        .expect("run parsnip-cts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains(": Pass"),
        "{gpu}: {stdout}"
    );
    let file = std::fs::File::open(&trace).expect("the run's trace");
    let decoded = decode_trace(file, DecodeOptions::default(), Vec::new())
        .unwrap_or_else(|e| panic!("{gpu}: {e:?}"));
    let draws = decoded
        .draws
        .iter()
        .map(|d| (format!("{} {}", d.packet, d.detail), d.mode.clone()))
        .collect();
    (
        String::from_utf8_lossy(&decoded.output).into_owned(),
        draws,
        trace,
    )
}

/// The distinct decoded writes of `registers` (and the render-mode
/// markers) in decoder text, leaving out the register dumps at draws.
fn writes_of(text: &str, registers: &[&str]) -> std::collections::BTreeSet<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| {
            registers.iter().any(|r| l.starts_with(&format!("{r}: ")))
                || l.starts_with("{ MARKER_MODE = SET_RENDER_MODE")
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_gmem_triangle_programs_the_bin_and_blit_events_turnip_does() {
    // Turnip's triangle_gmem.log and Parsnip's draws.triangle in GMEM
    // draw the same pass: the bin, the clear, the store of the UBWC
    // attachment and (a660) the CCU's places are the same writes. Parsnip
    // also returns to a sysmem window after the pass, which Turnip leaves
    // to the next pass.
    let Some(dir) = parsnip_reference::reference_dir("the Turnip GMEM triangle") else {
        return;
    };
    for gpu in ["a660", "a740"] {
        let mut registers = vec![
            "RB_BIN_CONTROL2",
            "RB_BLIT_SCISSOR_TL",
            "RB_BLIT_SCISSOR_BR",
            "RB_BLIT_GMEM_MSAA_CNTL",
            "RB_BLIT_DST_INFO",
            "RB_BLIT_DST_PITCH",
            "RB_BLIT_INFO",
            "RB_BLIT_BASE_GMEM",
            "RB_BLIT_CLEAR_COLOR_DW0",
            "GRAS_2D_RESOLVE_CNTL_2",
        ];
        if gpu == "a660" {
            registers.push("RB_CCU_CNTL");
        }
        let log = dir.join(format!("turnip/{gpu}/triangle_gmem.log"));
        let turnip = std::fs::read_to_string(&log).expect("Turnip's decoded trace");
        let turnip = writes_of(&turnip, &registers);
        assert!(turnip.len() > 10, "{gpu}: {turnip:#?}");
        let (ours, _) = gmem_trace(gpu, "draws.triangle");
        let ours = writes_of(&ours, &registers);
        let missing: Vec<_> = turnip.difference(&ours).collect();
        assert!(
            missing.is_empty(),
            "{gpu}: Turnip writes, Parsnip does not: {missing:#?}"
        );
        assert!(ours.len() > 10, "{gpu}: {ours:#?}");
    }
}

#[test]
fn a_gmem_run_of_a_wide_pass_renders_each_bin_with_blit_events() {
    // 1800x24 is two bins across on both GPUs (a bin is at most 1024
    // pixels wide on the a660, 1728 on the a740); the pass clears its
    // render area and stores it: per bin, a clear in RM6_BIN_RENDER_START,
    // the triangle, and a store in RM6_BIN_RESOLVE.
    for gpu in ["a660", "a740"] {
        let (_, draws) = gmem_trace(gpu, "draws.wide_cleared_render_area");
        let count = |packet: &str, mode: &str| {
            draws
                .iter()
                .filter(|(p, m)| p.starts_with(packet) && m.starts_with(mode))
                .count()
        };
        let listing = || format!("{gpu}: {draws:?}");
        assert_eq!(
            count("CP_DRAW_INDX_OFFSET", "RM6_BIN_RENDER_START"),
            2,
            "{}",
            listing()
        );
        assert_eq!(
            count("CP_EVENT_WRITE BLIT", "RM6_BIN_RENDER_START"),
            2,
            "{}",
            listing()
        );
        assert_eq!(
            count("CP_EVENT_WRITE BLIT", "RM6_BIN_RESOLVE"),
            2,
            "{}",
            listing()
        );
        assert_eq!(count("CP_DRAW", "RM6_DIRECT_RENDER"), 0, "{}", listing());
    }
}

#[test]
fn a_forcebin_triangle_runs_a_binning_pass_and_selects_a_stream_per_bin() {
    // draws.triangle's 64x64 pass in forcebin is Turnip's forcebin
    // triangle's 1x2 bins of 96x32 (turnip/<gpu>/triangle_gmem-forcebin
    // .log): one run of the draw in RM6_BIN_VISIBILITY, then per bin a
    // CP_SET_BIN_DATA5_OFFSET naming its pipe's stream and the draw with
    // VIS_CULL = USE_VISIBILITY.
    for gpu in ["a660", "a740"] {
        let (text, draws, _) = trace_in(gpu, "draws.triangle", "gmem,forcebin");
        let listing = || format!("{gpu}: {draws:?}");
        let count = |packet: &str, mode: &str| {
            draws
                .iter()
                .filter(|(p, m)| p.starts_with(packet) && m.starts_with(mode))
                .count()
        };
        assert_eq!(count("CP_DRAW", "RM6_BIN_VISIBILITY"), 1, "{}", listing());
        assert_eq!(count("CP_DRAW", "RM6_BIN_RENDER_START"), 2, "{}", listing());
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let has = |l: &str| lines.iter().any(|x| x.starts_with(l));
        assert!(has("VSC_BIN_SIZE: { WIDTH = 96 | HEIGHT = 32 }"), "{gpu}");
        assert!(has("VSC_BIN_COUNT: { NX = 1 | NY = 2 }"), "{gpu}");
        assert!(
            has("VSC_PIPE_CONFIG[0x1].REG: { X = 0 | Y = 1 | W = 1 | H = 1 }"),
            "{gpu}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("MODE = RM6_BIN_VISIBILITY")),
            "{gpu}: no binning marker"
        );
        let bin_data = lines
            .iter()
            .filter(|l| l.starts_with("opcode: CP_SET_BIN_DATA5_OFFSET"))
            .count();
        assert_eq!(bin_data, 2, "{gpu}: a CP_SET_BIN_DATA5_OFFSET per bin");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("BIN_DATA_OFFSET = ") && !l.contains("BIN_DATA_OFFSET = 0 ")),
            "{gpu}: the second bin reads the second pipe's stream"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("VIS_CULL = USE_VISIBILITY")),
            "{gpu}: the draw uses visibility"
        );
    }
}

#[test]
fn forcebin_bins_skip_the_draws_the_binning_pass_saw_outside_them() {
    // The forcebin traces replayed on the model, which counts the draws
    // it binned, the draws bins drew and the draws bins skipped. Both
    // framebuffers (64x64, 65x33) are 1x2 bins of 96x32 in forcebin, so
    // each binned draw is drawn or skipped once in each bin; and some draw
    // of each covers only one bin (its image, equal to lavapipe's in
    // draws_match_lavapipe_..., shows the skip lost nothing).
    for gpu in ["a660", "a740"] {
        for case in ["draws.size_65x33", "draws.occlusion_query_counts"] {
            let (_, _, trace) = trace_in(gpu, case, "gmem,forcebin");
            let trace = parsnip_rd::Trace::open(&trace).unwrap_or_else(|e| panic!("{e}"));
            let mut replay =
                Replay::new(trace, SimOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
            let stats = replay.run_all().unwrap_or_else(|e| panic!("{e:?}"));
            let binned: Vec<_> = stats.iter().filter(|s| s.binned_draws > 0).collect();
            assert_eq!(binned.len(), 1, "{gpu} {case}: {stats:?}");
            let s = binned[0];
            assert_eq!(
                s.draws + s.skipped_draws,
                2 * s.binned_draws,
                "{gpu} {case}: {s:?}"
            );
            assert!(
                s.skipped_draws > 0,
                "{gpu} {case}: no bin skipped a draw: {s:?}"
            );
        }
    }
}

#[test]
fn a_scene_split_over_command_buffers_renders_as_one_pass_in_its_trace() {
    // The split scene's colour and depth attachments are stored once a
    // bin for the whole chain (a BLIT event each in RM6_BIN_RESOLVE), not
    // once a piece; with forcebin one binning pass runs each of the three
    // draws once, and each of the 1x2 bins replays all three; the counts
    // are the unsplit scene's.
    for gpu in ["a660", "a740"] {
        for (debug, bins) in [("gmem", 1), ("gmem,forcebin", 2)] {
            let counts = |case: &str| {
                let (_, draws, _) = trace_in(gpu, case, debug);
                let count = |packet: &str, mode: &str| {
                    draws
                        .iter()
                        .filter(|(p, m)| p.starts_with(packet) && m.starts_with(mode))
                        .count()
                };
                [
                    count("CP_EVENT_WRITE BLIT", "RM6_BIN_RESOLVE"),
                    count("CP_DRAW", "RM6_BIN_RENDER_START"),
                    count("CP_DRAW", "RM6_BIN_VISIBILITY"),
                    count("CP_DRAW", "RM6_DIRECT_RENDER"),
                ]
            };
            let visibility = if bins > 1 { 3 } else { 0 };
            let want = [2 * bins, 3 * bins, visibility, 0];
            assert_eq!(
                counts("draws.dynamic_rendering_unsplit"),
                want,
                "{gpu} {debug}"
            );
            for case in [
                "draws.dynamic_rendering_split_over_2",
                "draws.dynamic_rendering_split_over_3",
            ] {
                assert_eq!(counts(case), want, "{gpu} {debug} {case}");
            }
        }
    }
}
