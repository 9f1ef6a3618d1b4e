//! The LRZ unit through hand-written streams: the buffer it writes, the
//! fragments it rejects before the fragment shader, and what a stale or
//! wrong-direction LRZ buffer does to the image (the model rejects what
//! the hardware would, so a driver's LRZ bug shows).
//!
//! The scene: a 16x16 RGBA8 target, a D16 depth buffer cleared to 1.0,
//! LESS with depth writes, the depth test late
//! (A6XX_EARLY_LRZ_LATE_Z: LRZ before the fragment shader, the depth test
//! after it), so every fragment LRZ does not reject is shaded. 16x16
//! pixels are 2x2 LRZ pixels of 8x8; a full-screen rectangle is two
//! triangles split along the diagonal, so only LRZ pixels (1, 0) (above
//! the diagonal: x 8..15, y 0..7) and (0, 1) are covered whole by one
//! triangle, and only they are written (a6xx.xml: LRZ keeps a bound per
//! block; a partly covered block cannot tighten it).

mod common;

use common::draw_rig::DrawRig;
use common::graphics_state::{program, regid, rgba8_buffer, rgba8_target, Depth, DepthBuffer};
use common::resolve_state::event;
use common::scene::{rgba, vertex, Scene, Vertex, COLOUR_FS};
use common::textured_quad::pitch;
use common::{test_options, Stream, GPUS};
use parsnip_registers::enums::{
    A6xxDepthFormat, A6xxLrzDirStatus, A6xxTileMode, A6xxZtestMode, AdrenoCompareFunc as F,
    PcDiPrimtype, VgtEventType,
};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;
use parsnip_sim::{SimOptions, SubmitStats};

const SIZE: (u32, u32) = (16, 16);
const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
/// LRZ pitch in LRZ pixels (Turnip aligns it to 32) and bytes a layer.
const LRZ_PITCH: u32 = 32;
const LRZ_LAYER: u32 = LRZ_PITCH * 32 * 2;
/// What the LRZ buffer holds before anything writes it: not a value any
/// step of these tests writes.
const UNTOUCHED: u16 = 0xaaaa;
/// The depth view the tests clear and draw with.
const VIEW: regs::GrasLrzDepthView = regs::GrasLrzDepthView {
    base_layer: 0,
    layer_count: 1,
    base_mip_level: 0,
};

fn rect(z: f32, colour: [f32; 4]) -> Vec<Vertex> {
    let v = |x, y| vertex(SIZE, x, y, z, colour, [0.0; 4]);
    vec![
        v(0.0, 0.0),
        v(16.0, 0.0),
        v(16.0, 16.0),
        v(0.0, 0.0),
        v(16.0, 16.0),
        v(0.0, 16.0),
    ]
}

/// How a draw programs LRZ.
#[derive(Clone, Copy)]
struct LrzDraw {
    write: bool,
    greater: bool,
    fast_clear: bool,
    track: bool,
    dir: A6xxLrzDirStatus,
}

const LESS_WRITE: LrzDraw = LrzDraw {
    write: true,
    greater: false,
    fast_clear: true,
    track: true,
    dir: A6xxLrzDirStatus::LRZ_DIR_LE,
};

struct Lrz {
    buffer: u64,
    fast_clear: u64,
}

fn lrz_cntl(s: &mut Stream, d: LrzDraw) {
    match s.chip {
        Chip::A6xx => s.reg(&a6xx::GrasLrzCntl {
            enable: true,
            lrz_write: d.write,
            greater: d.greater,
            fc_enable: d.fast_clear,
            z_write_enable: d.write,
            dir: d.dir,
            dir_write: d.track,
            disable_on_wrong_dir: d.track,
            ..Default::default()
        }),
        Chip::A7xx => s
            .reg(&a7xx::GrasLrzCntl {
                enable: true,
                lrz_write: d.write,
                greater: d.greater,
                z_write_enable: d.write,
                dir: d.dir,
                dir_write: d.track,
                z_func: if d.greater {
                    F::FUNC_GREATER
                } else {
                    F::FUNC_LESS
                },
                ..Default::default()
            })
            .reg(&regs::GrasLrzCntl2 {
                disable_on_wrong_dir: d.track,
                fc_enable: d.fast_clear,
            }),
    };
}

/// The LRZ buffer's registers, and (`clear`) LRZ_CLEAR with fast clear
/// and direction tracking, as Turnip starts a render pass.
fn lrz_setup(s: &mut Stream, lrz: &Lrz, clear: bool) {
    s.reg(&regs::GrasLrzBufferBase(lrz.buffer))
        .reg(&regs::GrasLrzBufferPitch {
            pitch: LRZ_PITCH,
            array_pitch: LRZ_LAYER,
        })
        .reg(&regs::GrasLrzFastClearBufferBase(lrz.fast_clear))
        .reg(&VIEW);
    if clear {
        lrz_clear(s, 1.0);
    }
}

/// LRZ_CLEAR with fast clear and direction tracking, the depth buffer's
/// clear value `depth` given on a7xx (GRAS_LRZ_CLEAR_DEPTH_F32).
fn lrz_clear(s: &mut Stream, depth: f32) {
    lrz_cntl(
        s,
        LrzDraw {
            write: false,
            greater: false,
            fast_clear: true,
            track: true,
            dir: A6xxLrzDirStatus(0),
        },
    );
    if s.chip == Chip::A7xx {
        s.reg(&regs::GrasLrzClearDepthF32(depth));
    }
    event(s, VgtEventType::LRZ_CLEAR);
}

fn late_z(s: &mut Stream) {
    s.reg(&regs::GrasSuDepthPlaneCntl {
        z_mode: A6xxZtestMode::A6XX_EARLY_LRZ_LATE_Z,
    })
    .reg(&regs::RbDepthPlaneCntl {
        z_mode: A6xxZtestMode::A6XX_EARLY_LRZ_LATE_Z,
    });
}

/// A scene with a D16 depth buffer cleared to 1.0 and an LRZ buffer
/// whose every value is `lrz_fill`, its fast-clear buffer (with the
/// direction byte) 0xff; and a stream that points LRZ at them and
/// (`clear`) clears it.
fn lrz_scene(gpu: &str, lrz_fill: u16, clear: bool) -> (Scene, Lrz, Stream) {
    lrz_scene_with(gpu, lrz_fill, clear, test_options())
}

/// [`lrz_scene`] on a model run with `options`.
fn lrz_scene_with(
    gpu: &str,
    lrz_fill: u16,
    clear: bool,
    options: SimOptions,
) -> (Scene, Lrz, Stream) {
    let mut rig = DrawRig::with_options(gpu, options);
    let target = rig.buffer(&vec![0u8; (pitch(SIZE.0) * SIZE.1) as usize]);
    let depth = rig.buffer(&[0xff; 0x4000]);
    let buffer = rig.buffer(&lrz_fill.to_le_bytes().repeat(LRZ_LAYER as usize / 2));
    let fast_clear = rig.buffer(&[0xff; 0x2000]);
    let mut scene = Scene::with_target(
        rig,
        SIZE,
        &rect(0.5, RED),
        COLOUR_FS,
        rgba8_target(regid(1, 0)),
        rgba8_buffer(target, pitch(SIZE.0)),
    );
    scene.framebuffer.depth = Some(DepthBuffer {
        base: depth,
        pitch: 256,
        array_pitch: 0x4000,
        format: A6xxDepthFormat::DEPTH6_16,
        // a6xx's depth is TILE6_3 whatever this says.
        tile_mode: A6xxTileMode::TILE6_LINEAR,
        flags: None,
    });
    scene.pipeline.depth = Some(Depth {
        format: A6xxDepthFormat::DEPTH6_16,
        test: true,
        write: true,
        func: F::FUNC_LESS,
        bounds: None,
        clamp: None,
    });
    let lrz = Lrz { buffer, fast_clear };
    let mut s = scene.rig.stream();
    lrz_setup(&mut s, &lrz, clear);
    (scene, lrz, s)
}

/// The direction byte after the fast-clear bits (freedreno_lrz.h).
fn direction_byte(scene: &Scene, lrz: &Lrz) -> u8 {
    let at = match scene.rig.chip() {
        Chip::A6xx => 512,
        Chip::A7xx => 2048,
    };
    scene.rig.read(lrz.fast_clear + at, 1)[0]
}

/// Appends a draw of `v` with depth test `func` and LRZ programmed `d`.
fn draw(scene: &mut Scene, s: &mut Stream, v: &[Vertex], func: F, d: Option<LrzDraw>) {
    scene.set_vertices(v);
    scene.pipeline.depth.as_mut().unwrap().func = func;
    program(s, &scene.setup());
    late_z(s);
    if let Some(d) = d {
        lrz_cntl(s, d);
    }
    common::graphics_state::draw_auto(s, PcDiPrimtype::DI_PT_TRILIST, 6, 1);
}

fn run(scene: &mut Scene, s: &Stream) -> (Vec<u8>, SubmitStats) {
    let stats = scene.rig.run(s).unwrap_or_else(|e| panic!("{e}"));
    (scene.pixels(), stats)
}

fn lrz_value(scene: &Scene, lrz: &Lrz, lx: u32, ly: u32) -> u16 {
    let at = lrz.buffer + u64::from((ly * LRZ_PITCH + lx) * 2);
    let b = scene.rig.read(at, 2);
    u16::from_le_bytes([b[0], b[1]])
}

/// The model without strict mode, which reports an LRZ rejection the depth
/// test disagrees with.
fn lax() -> SimOptions {
    SimOptions {
        strict: false,
        ..test_options()
    }
}

/// Runs `s`, expecting strict mode's LRZ report.
fn lrz_report(scene: &mut Scene, s: &Stream) -> String {
    let e = scene.rig.run(s).unwrap_err().to_string();
    assert!(e.contains("LRZ: strict mode: LRZ rejected pixel"), "{e}");
    e
}

/// Whether every pixel of the target is `colour`, and if not the first
/// that is not.
fn first_not(img: &[u8], colour: [u8; 4]) -> Option<(u32, u32)> {
    (0..SIZE.1)
        .flat_map(|y| (0..SIZE.0).map(move |x| (x, y)))
        .find(|&(x, y)| rgba(img, SIZE.0, x, y) != colour)
}

#[test]
fn lrz_rejects_fragments_behind_a_nearer_draw_before_they_are_shaded() {
    // Red at z 0.25, then green at 0.75 behind it. LRZ pixels (1, 0) and
    // (0, 1) take 0.25 as Z16 rounded away from the viewer:
    // ceil(0.25 * 65535) = ceil(16383.75) = 16384. Their 128 pixels of the
    // green draw are rejected; the other 128 pass LRZ (their LRZ pixels
    // hold the fast clear's 1.0) and fail the late depth test. Shaded:
    // 256 red and 128 green fragments.
    for gpu in GPUS {
        let (mut scene, lrz, mut s) = lrz_scene(gpu, UNTOUCHED, true);
        draw(
            &mut scene,
            &mut s,
            &rect(0.25, RED),
            F::FUNC_LESS,
            Some(LESS_WRITE),
        );
        draw(
            &mut scene,
            &mut s,
            &rect(0.75, GREEN),
            F::FUNC_LESS,
            Some(LESS_WRITE),
        );
        let (img, stats) = run(&mut scene, &s);
        assert_eq!(first_not(&img, [255, 0, 0, 255]), None, "{gpu}: all red");
        assert_eq!(stats.lrz_rejected, 128, "{gpu}");
        assert_eq!(stats.fragments_shaded, 256 + 128, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 1, 0), 16384, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 0, 1), 16384, "{gpu}");
        // The two split by the diagonal were never covered whole: they hold
        // the clear value the first write filled the fast-clear block
        // (16x4 LRZ pixels) with.
        assert_eq!(lrz_value(&scene, &lrz, 0, 0), 0xffff, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 1, 1), 0xffff, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 15, 3), 0xffff, "{gpu}");
        // Outside the written block nothing was touched.
        assert_eq!(lrz_value(&scene, &lrz, 16, 0), UNTOUCHED, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 0, 4), UNTOUCHED, "{gpu}");
        // Block 0's fast-clear bit alone is set; the direction is LESS (1).
        let fc = scene.rig.read(lrz.fast_clear, 1);
        assert_eq!(fc[0], 0x01, "{gpu}");
        assert_eq!(direction_byte(&scene, &lrz), 1, "{gpu}");
    }
}

#[test]
fn without_lrz_the_same_draws_shade_every_fragment_and_give_the_same_image() {
    for gpu in GPUS {
        let (mut scene, lrz, mut s) = lrz_scene(gpu, UNTOUCHED, false);
        draw(&mut scene, &mut s, &rect(0.25, RED), F::FUNC_LESS, None);
        draw(&mut scene, &mut s, &rect(0.75, GREEN), F::FUNC_LESS, None);
        let (img, stats) = run(&mut scene, &s);
        assert_eq!(first_not(&img, [255, 0, 0, 255]), None, "{gpu}");
        assert_eq!(
            (stats.lrz_rejected, stats.fragments_shaded),
            (0, 512),
            "{gpu}"
        );
        assert_eq!(lrz_value(&scene, &lrz, 1, 0), UNTOUCHED, "{gpu}");
    }
}

#[test]
fn a_stale_lrz_buffer_rejects_fragments_the_depth_test_would_keep() {
    // A driver that enables LRZ without clearing it: the buffer still
    // holds 0.0 everywhere, the farthest bound a LESS test can have, so
    // red at z 0.5 is rejected everywhere although the depth buffer (1.0)
    // would keep it. The target stays as it was; strict mode names the
    // rejection the depth test disagrees with.
    let stale = LrzDraw {
        write: false,
        fast_clear: false,
        track: false,
        ..LESS_WRITE
    };
    for gpu in GPUS {
        let (mut scene, _, mut s) = lrz_scene(gpu, 0, false);
        draw(
            &mut scene,
            &mut s,
            &rect(0.5, RED),
            F::FUNC_LESS,
            Some(stale),
        );
        let e = lrz_report(&mut scene, &s);
        assert!(e.contains("pixel (0, 0) at depth 0.5"), "{e}");
        assert!(
            e.contains("LRZ pixel (0, 0) holds 0.000000 (0x0000)"),
            "{e}"
        );

        let (mut scene, _, mut s) = lrz_scene_with(gpu, 0, false, lax());
        draw(
            &mut scene,
            &mut s,
            &rect(0.5, RED),
            F::FUNC_LESS,
            Some(stale),
        );
        let (img, stats) = run(&mut scene, &s);
        assert_eq!(first_not(&img, [0, 0, 0, 0]), None, "{gpu}: nothing drawn");
        assert_eq!(
            (stats.lrz_rejected, stats.fragments_shaded),
            (256, 0),
            "{gpu}"
        );
    }
}

#[test]
fn a_depth_test_turned_around_without_disabling_lrz_draws_a_wrong_image() {
    // Red at 0.25 with LESS, then green at 0.5 with GREATER: the depth test
    // keeps all of green. A driver that leaves LRZ on in the LESS
    // direction for the second draw has LRZ reject green in LRZ pixels
    // (1, 0) and (0, 1) (bound 0.25): those stay red. Programmed as it
    // should be, DIR = GE, direction tracking sees the reversal, disables
    // LRZ, and the image is all green.
    for gpu in GPUS {
        for (dir, wrong) in [
            (A6xxLrzDirStatus::LRZ_DIR_LE, true),
            (A6xxLrzDirStatus::LRZ_DIR_GE, false),
        ] {
            let second = LrzDraw {
                write: false,
                greater: !wrong,
                dir,
                ..LESS_WRITE
            };
            let frame = |options| {
                let (mut scene, lrz, mut s) = lrz_scene_with(gpu, UNTOUCHED, true, options);
                let red = rect(0.25, RED);
                draw(&mut scene, &mut s, &red, F::FUNC_LESS, Some(LESS_WRITE));
                let green = rect(0.5, GREEN);
                draw(&mut scene, &mut s, &green, F::FUNC_GREATER, Some(second));
                (scene, lrz, s)
            };
            if wrong {
                // Strict mode names the first rejected pixel: (8, 0), the
                // top-left of LRZ pixel (1, 0) (bound 16384 / 65535).
                let (mut scene, _, s) = frame(test_options());
                let e = lrz_report(&mut scene, &s);
                assert!(e.contains("pixel (8, 0) at depth 0.5"), "{e}");
                assert!(e.contains("(0x4000), a bound for a LESS depth test"), "{e}");
            }
            let (mut scene, lrz, s) = frame(if wrong { lax() } else { test_options() });
            let (img, stats) = run(&mut scene, &s);
            if wrong {
                assert_eq!(rgba(&img, 16, 12, 3), [255, 0, 0, 255], "{gpu}");
                assert_eq!(rgba(&img, 16, 3, 12), [255, 0, 0, 255], "{gpu}");
                assert_eq!(rgba(&img, 16, 3, 3), [0, 255, 0, 255], "{gpu}");
                assert_eq!(stats.lrz_rejected, 128, "{gpu}");
            } else {
                assert_eq!(first_not(&img, [0, 255, 0, 255]), None, "{gpu}");
                assert_eq!(stats.lrz_rejected, 0, "{gpu}");
                // The mismatch disabled LRZ: direction byte 0.
                assert_eq!(direction_byte(&scene, &lrz), 0, "{gpu}");
            }
        }
    }
}

#[test]
fn greater_keeps_the_nearest_bound_and_rejects_fragments_below_it() {
    // The depth buffer cleared to 0.0 and LRZ to its GREATER clear value
    // (0.0: a6xx's fast clear for GREATER, a7xx's clear depth). Red at z
    // 0.75 with GREATER, then green at 0.25 behind it: LRZ pixels (1, 0)
    // and (0, 1) take 0.75 rounded away from the viewer, which for GREATER
    // is down: floor(0.75 * 65535) = floor(49151.25) = 49151, and reject
    // the green draw's 128 pixels there.
    for gpu in GPUS {
        let (mut scene, lrz, mut s) = lrz_scene(gpu, UNTOUCHED, false);
        let depth = scene.framebuffer.depth.unwrap().base;
        scene
            .rig
            .rig
            .gpu
            .memory()
            .write(depth, &[0; 0x4000])
            .unwrap();
        lrz_clear(&mut s, 0.0);
        let greater = LrzDraw {
            greater: true,
            dir: A6xxLrzDirStatus::LRZ_DIR_GE,
            ..LESS_WRITE
        };
        let red = rect(0.75, RED);
        draw(&mut scene, &mut s, &red, F::FUNC_GREATER, Some(greater));
        let green = rect(0.25, GREEN);
        draw(&mut scene, &mut s, &green, F::FUNC_GREATER, Some(greater));
        let (img, stats) = run(&mut scene, &s);
        assert_eq!(first_not(&img, [255, 0, 0, 255]), None, "{gpu}: all red");
        assert_eq!(stats.lrz_rejected, 128, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 1, 0), 49151, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 0, 1), 49151, "{gpu}");
        assert_eq!(lrz_value(&scene, &lrz, 0, 0), 0, "{gpu}: the clear value");
        assert_eq!(direction_byte(&scene, &lrz), 2, "{gpu}: GREATER");
    }
}
