//! Blending, logic operations, write masks, sRGB and several colour
//! targets at the RB. Each test paints the target with a first colour,
//! then draws a second with the state under test; the expected bytes are
//! worked out here from Vulkan's blend equations, logic operations and
//! format conversions (UNORM8 is round(c * 255)).

mod common;

use common::draw_rig::DrawRig;
use common::graphics_state::{regid, rgba8_buffer, rgba8_target, ColorBuffer, Target};
use common::scene::{rgba, vertex, Scene, Vertex, COLOUR_FS};
use common::textured_quad::pitch;
use common::GPUS;
use parsnip_registers::enums::{
    A3xxRbBlendOpcode as Op, A3xxRopCode, A6xxFormat, AdrenoRbBlendFactor as F, PcDiPrimtype,
};

const SIZE: (u32, u32) = (8, 8);

/// The whole target in one colour (and a second varying).
fn fill(a: [f32; 4], b: [f32; 4]) -> Vec<Vertex> {
    let v = |x, y| vertex(SIZE, x, y, 0.5, a, b);
    vec![
        v(0.0, 0.0),
        v(8.0, 0.0),
        v(8.0, 8.0),
        v(0.0, 0.0),
        v(8.0, 8.0),
        v(0.0, 8.0),
    ]
}

/// Paints `first` with no blending, then draws `second` after `setup`
/// changes the pipeline; returns pixel (3, 3).
fn two_passes(gpu: &str, first: [f32; 4], second: [f32; 4], setup: impl Fn(&mut Scene)) -> [u8; 4] {
    let mut scene = Scene::new(gpu, SIZE, &fill(first, [0.0; 4]), COLOUR_FS);
    let s = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6);
    scene.run(&s);
    scene.set_vertices(&fill(second, [0.0; 4]));
    setup(&mut scene);
    let s = scene.stream(PcDiPrimtype::DI_PT_TRILIST, 6);
    let img = scene.run(&s);
    rgba(&img, SIZE.0, 3, 3)
}

/// The colours most tests draw: `DST` painted first (stored exactly, as
/// (204, 102, 153, 51)), then `SRC` under the state being tested. Every
/// expected byte below is c * 255 with a fraction well away from 0.5, so
/// the result does not hang on how a tie rounds.
const DST: [f32; 4] = [0.8, 0.4, 0.6, 0.2];
const SRC: [f32; 4] = [0.4, 0.2, 0.6, 0.6];

/// "Over": the source weighted by its alpha, the destination by the rest.
const OVER: (Op, F, F) = (
    Op::BLEND_DST_PLUS_SRC,
    F::FACTOR_SRC_ALPHA,
    F::FACTOR_ONE_MINUS_SRC_ALPHA,
);

/// One blend equation (op, source factor, destination factor) for rgb and
/// another for alpha.
fn blend(s: &mut Scene, rgb: (Op, F, F), alpha: (Op, F, F)) {
    s.pipeline.targets[0].blend = Some([rgb, alpha]);
}

#[test]
fn source_alpha_blending_mixes_by_the_sources_alpha() {
    // Blue at alpha 0.25 over opaque red: rgb = 0.25 blue + 0.75 red =
    // (191.25, 0, 63.75) -> (191, 0, 64); alpha ONE + ONE_MINUS_SRC_ALPHA:
    // 0.25 + 0.75 = 1.
    for gpu in GPUS {
        let got = two_passes(gpu, [1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.25], |s| {
            blend(
                s,
                OVER,
                (
                    Op::BLEND_DST_PLUS_SRC,
                    F::FACTOR_ONE,
                    F::FACTOR_ONE_MINUS_SRC_ALPHA,
                ),
            );
        });
        assert_eq!(got, [191, 0, 64, 255], "{gpu}");
    }
}

#[test]
fn constant_colour_and_the_destination_factors() {
    for gpu in GPUS {
        // White times the constant (0.4, 0.2, 1, 0.6) (CONSTANT_COLOR
        // takes the constant's alpha for alpha), plus nothing of the
        // destination: (102, 51, 255, 153).
        let got = two_passes(gpu, DST, [1.0; 4], |s| {
            s.pipeline.blend_constant = [0.4, 0.2, 1.0, 0.6];
            let eq = (
                Op::BLEND_DST_PLUS_SRC,
                F::FACTOR_CONSTANT_COLOR,
                F::FACTOR_ZERO,
            );
            blend(s, eq, eq);
        });
        assert_eq!(got, [102, 51, 255, 153], "{gpu}");
        // rgb: S * DST_COLOR + D * SRC_COLOR = 2 S D = (0.64, 0.16, 0.72)
        // -> (163.2, 40.8, 183.6) -> (163, 41, 184); alpha: S * ONE - D *
        // DST_ALPHA = 0.6 - 0.04 = 0.56 -> 142.8 -> 143.
        let got = two_passes(gpu, DST, SRC, |s| {
            blend(
                s,
                (
                    Op::BLEND_DST_PLUS_SRC,
                    F::FACTOR_DST_COLOR,
                    F::FACTOR_SRC_COLOR,
                ),
                (Op::BLEND_SRC_MINUS_DST, F::FACTOR_ONE, F::FACTOR_DST_ALPHA),
            );
        });
        assert_eq!(got, [163, 41, 184, 143], "{gpu}");
        // SRC_ALPHA_SATURATE is min(0.6, 1 - 0.2) = 0.6 for rgb:
        // 0.6 S + 0.8 D (ONE_MINUS_DST_ALPHA) = (0.88, 0.44, 0.84) ->
        // (224.4, 112.2, 214.2); alpha ONE_MINUS_DST_ALPHA * 0.6 + 0 =
        // 0.48 -> 122.4.
        let got = two_passes(gpu, DST, SRC, |s| {
            blend(
                s,
                (
                    Op::BLEND_DST_PLUS_SRC,
                    F::FACTOR_SRC_ALPHA_SATURATE,
                    F::FACTOR_ONE_MINUS_DST_ALPHA,
                ),
                (
                    Op::BLEND_DST_PLUS_SRC,
                    F::FACTOR_ONE_MINUS_DST_ALPHA,
                    F::FACTOR_ZERO,
                ),
            );
        });
        assert_eq!(got, [224, 112, 214, 122], "{gpu}");
    }
}

#[test]
fn subtraction_clamps_and_min_max_ignore_the_factors() {
    for gpu in GPUS {
        // Destination minus source at factor ONE: (0.4, 0.2, 0, -0.4),
        // the last clamped to 0 -> (102, 51, 0, 0).
        let got = two_passes(gpu, DST, SRC, |s| {
            let eq = (Op::BLEND_DST_MINUS_SRC, F::FACTOR_ONE, F::FACTOR_ONE);
            blend(s, eq, eq);
        });
        assert_eq!(got, [102, 51, 0, 0], "{gpu}");
        // MIN for rgb, MAX for alpha, with factors of ZERO that would give
        // 0 if they applied: (0.4, 0.2, 0.6) and 0.6.
        let got = two_passes(gpu, DST, SRC, |s| {
            blend(
                s,
                (Op::BLEND_MIN_DST_SRC, F::FACTOR_ZERO, F::FACTOR_ZERO),
                (Op::BLEND_MAX_DST_SRC, F::FACTOR_ZERO, F::FACTOR_ZERO),
            );
        });
        assert_eq!(got, [102, 51, 153, 153], "{gpu}");
    }
}

#[test]
fn logic_ops_and_write_masks_work_on_the_stored_bits() {
    // DST is stored as (204, 102, 153, 51); SRC converts to (102, 51, 153,
    // 153) before the operation.
    let (d, s) = ([204u8, 102, 153, 51], [102u8, 51, 153, 153]);
    for gpu in GPUS {
        let and = two_passes(gpu, DST, SRC, |p| {
            p.pipeline.targets[0].rop = Some(A3xxRopCode::ROP_AND)
        });
        assert_eq!(and, [68, 34, 153, 17], "{gpu}");
        assert_eq!(and, std::array::from_fn(|c| d[c] & s[c]), "{gpu}");
        let nor = two_passes(gpu, DST, SRC, |p| {
            p.pipeline.targets[0].rop = Some(A3xxRopCode::ROP_NOR)
        });
        assert_eq!(nor, std::array::from_fn(|c| !(d[c] | s[c])), "{gpu}");
        // Only red and alpha written: green and blue keep the first pass.
        let masked = two_passes(gpu, DST, SRC, |p| p.pipeline.targets[0].write_mask = 0x9);
        assert_eq!(masked, [s[0], d[1], d[2], s[3]], "{gpu}");
    }
}

#[test]
fn srgb_targets_encode_and_blend_in_linear() {
    for gpu in GPUS {
        // Linear 0.5 encodes to 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536 ->
        // 187.52 -> 188; alpha stays linear (0.6 -> 153).
        let got = two_passes(gpu, [0.0; 4], [0.5, 0.5, 0.5, 0.6], |s| {
            s.pipeline.targets[0].srgb = true;
        });
        assert_eq!(got, [188, 188, 188, 153], "{gpu}");
        // Red at alpha 0.5 over white (stored 255, linear 1): the blend
        // works on decoded values, r = 0.5 + 0.5 = 1 -> 255, g = b = 0.5
        // -> 188. Blending the stored bytes would give 128 for g and b.
        let got = two_passes(gpu, [1.0; 4], [1.0, 0.0, 0.0, 0.5], |s| {
            s.pipeline.targets[0].srgb = true;
            blend(s, OVER, OVER);
        });
        assert_eq!(&got[..3], &[255, 188, 188], "{gpu}");
        // Half of linear 0.5 over black: 0.25 -> 1.055 * 0.25^(1/2.4) -
        // 0.055 = 0.53710 -> 136.96 -> 137.
        let got = two_passes(gpu, [0.0; 4], [0.5, 0.5, 0.5, 0.5], |s| {
            s.pipeline.targets[0].srgb = true;
            blend(s, OVER, OVER);
        });
        assert_eq!(&got[..3], &[137, 137, 137], "{gpu}");
    }
}

#[test]
fn two_targets_take_their_own_outputs_and_formats() {
    // Target 0 RGBA8 from r1 (the first varying): (1, 0.4, 0, 1) ->
    // (255, 102, 0, 255); target 1 RGBA16F from r2 (the second): (0.1,
    // 0.2, 0.3, 0.4) rounded to the nearest halves, 0x2e66, 0x3266, 0x34cd,
    // 0x3666.
    const TWO_FS: &str = "
        (rpt3)bary.f r1.x, (r)4, r0.x
        (rpt3)bary.f r2.x, (r)8, r0.x
        end
    ";
    for gpu in GPUS {
        let mut rig = DrawRig::new(gpu);
        let t0 = rig.buffer(&vec![0u8; (pitch(SIZE.0) * SIZE.1) as usize]);
        let t1_pitch = (SIZE.0 * 8).div_ceil(64) * 64;
        let t1 = rig.buffer(&vec![0u8; (t1_pitch * SIZE.1) as usize]);
        let verts = fill([1.0, 0.4, 0.0, 1.0], [0.1, 0.2, 0.3, 0.4]);
        let mut scene = Scene::with_target(
            rig,
            SIZE,
            &verts,
            TWO_FS,
            rgba8_target(regid(1, 0)),
            rgba8_buffer(t0, pitch(SIZE.0)),
        );
        let format = A6xxFormat::FMT6_16_16_16_16_FLOAT;
        scene
            .pipeline
            .targets
            .push(Target::new(format, regid(2, 0)));
        scene
            .framebuffer
            .colors
            .push(ColorBuffer::linear(t1, t1_pitch, SIZE.1, format));
        let img = scene.draw(PcDiPrimtype::DI_PT_TRILIST, 6);
        assert_eq!(rgba(&img, SIZE.0, 2, 5), [255, 102, 0, 255], "{gpu}");
        let at = (5 * t1_pitch + 2 * 8) as usize;
        let half = scene.rig.read(t1 + at as u64, 8);
        let halves: Vec<u16> = half
            .chunks(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(halves, [0x2e66, 0x3266, 0x34cd, 0x3666], "{gpu}");
    }
}
