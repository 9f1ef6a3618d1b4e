//! Strict caches (PARSNIP_SIM_STRICT_CACHES, `SimOptions::strict_caches`):
//! a colour target the RB wrote and a shader then samples, in one submit.
//! The RB's writes stay in the CCU until a CCU colour flush
//! (`ccu_flush_color`: PC_CCU_FLUSH_COLOR_TS on a6xx, CCU_CLEAN_COLOR on
//! a7xx, as Turnip's tu6_emit_flushes emits them), and the texture unit reads memory: without
//! the flush it samples what memory held before the draw, as the hardware
//! would, and strict mode reports the read and the missing flush; with
//! it, what the draw wrote. Without strict caches the model is coherent
//! and the missing flush goes unseen.

mod common;

use common::draw_rig::DrawRig;
use common::graphics_state::{draw_auto, program, xy_pipeline, FLAT_FS, XY_VS};
use common::resolve_state::ccu_flush_color;
use common::textured_quad::{fs, pixel, sampler, texture, Sampling, TexturedQuad};
use common::{test_options, GPUS};
use parsnip_registers::enums::{A6xxTexFilter, PcDiPrimtype};
use parsnip_sim::SimOptions;

const SIZE: (u32, u32) = (16, 16);
/// 16 RGBA8 pixels a row.
const PITCH: u32 = 64;
const BLUE: [u8; 4] = [0, 0, 255, 255];
/// FLAT_FS's colour as RGBA8.
const FLAT: [u8; 4] = [255, 128, 64, 255];
const SAM: &str = "sam (f32)(xyzw)r2.x, r1.x, s#0, t#0";

/// Paints the blue texture with FLAT_FS as a colour target, then (`flush`)
/// flushes the CCU's colour part, then draws a quad sampling the texture;
/// returns that quad's image.
fn paint_then_sample(gpu: &str, options: SimOptions, flush: bool) -> Vec<u8> {
    paint_and_sample(gpu, options, flush).draw()
}

/// The quad of [`paint_then_sample`], its stream painting first.
fn paint_and_sample(gpu: &str, options: SimOptions, flush: bool) -> TexturedQuad {
    let rig = DrawRig::with_options(gpu, options);
    let texels = BLUE.repeat((PITCH / 4 * SIZE.1) as usize);
    let mut quad = TexturedQuad::new(
        rig,
        SIZE,
        &Sampling {
            texels: &texels,
            descriptor: &|chip, base| texture(chip, base, SIZE, PITCH, 1),
            sampler: sampler(A6xxTexFilter::A6XX_TEX_NEAREST, false, 0.0),
            shader: &fs(SAM),
            prefetch: None,
        },
    );
    let image = quad.image;
    let square: [f32; 12] = [
        -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
    ];
    let vb = quad.rig.floats(&square);
    let vs = quad.rig.program(XY_VS);
    let fsh = quad.rig.program(FLAT_FS);
    let paint = xy_pipeline(vs, fsh, vb, 48, image, SIZE.0, SIZE.1);
    let mut s = quad.rig.stream();
    program(&mut s, &paint);
    draw_auto(&mut s, PcDiPrimtype::DI_PT_TRILIST, 6, 1);
    if flush {
        ccu_flush_color(&mut s);
    }
    s.dwords.extend_from_slice(&quad.stream.dwords);
    quad.stream = s;
    quad
}

fn strict() -> SimOptions {
    SimOptions {
        strict_caches: true,
        ..test_options()
    }
}

/// Strict caches without strict mode: stale reads go unreported.
fn lax() -> SimOptions {
    SimOptions {
        strict: false,
        ..strict()
    }
}

fn coherent() -> SimOptions {
    SimOptions {
        strict_caches: false,
        ..test_options()
    }
}

#[test]
fn a_shader_reading_a_colour_target_before_the_ccu_flush_reads_stale_data() {
    for gpu in GPUS {
        let img = paint_then_sample(gpu, lax(), false);
        assert_eq!(
            pixel(&img, SIZE.0, 5, 5),
            BLUE,
            "{gpu}: memory's old texels"
        );
        // Strict mode stops at the sampling draw, naming the cache and the
        // missing flush.
        let mut quad = paint_and_sample(gpu, strict(), false);
        let s = quad.stream.clone();
        let e = quad.rig.run(&s).unwrap_err().to_string();
        let want = format!(
            "strict caches: this packet's work read {:#x} through UCHE, which the CCU's colour \
             part holds newer (the RB or the 2D engine wrote it): a CCU colour flush \
             (PC_CCU_FLUSH_COLOR_TS, a7xx CCU_CLEAN_COLOR) is missing before it",
            quad.image
        );
        assert!(e.contains(&want), "{gpu}: {e}");
        assert!(e.contains("CP_DRAW_INDX_OFFSET"), "{gpu}: {e}");
        // Coherent, the missing flush is not seen.
        let img = paint_then_sample(gpu, coherent(), false);
        assert_eq!(pixel(&img, SIZE.0, 5, 5), FLAT, "{gpu}");
    }
}

#[test]
fn with_the_ccu_colour_flush_the_shader_reads_what_the_rb_wrote() {
    for gpu in GPUS {
        let img = paint_then_sample(gpu, strict(), true);
        for (x, y) in [(0, 0), (5, 5), (15, 15)] {
            assert_eq!(pixel(&img, SIZE.0, x, y), FLAT, "{gpu} ({x}, {y})");
        }
    }
}

#[test]
fn the_end_of_a_submit_writes_the_ccu_back_for_the_cpu() {
    // The painted texture itself, read by the host after the submit, holds
    // the draw's colour with or without the flush.
    for gpu in GPUS {
        let mut rig = DrawRig::with_options(gpu, strict());
        let target = rig.buffer(&BLUE.repeat((PITCH / 4 * SIZE.1) as usize));
        let square: [f32; 12] = [
            -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
        ];
        let vb = rig.floats(&square);
        let vs = rig.program(XY_VS);
        let fsh = rig.program(FLAT_FS);
        let p = xy_pipeline(vs, fsh, vb, 48, target, SIZE.0, SIZE.1);
        let mut s = rig.stream();
        program(&mut s, &p);
        draw_auto(&mut s, PcDiPrimtype::DI_PT_TRILIST, 6, 1);
        rig.run(&s).unwrap();
        assert_eq!(&rig.read(target + 4 * 17, 4)[..], FLAT, "{gpu}");
    }
}
