//! The 2D engine (CP_BLIT) on hand-written streams, on a660 and a740: every
//! blit form Turnip uses, with expected bytes worked out by hand from the
//! layout rules and Vulkan's conversion rules.

mod common;

use std::sync::Arc;

use common::blit_state::{Blit, Src, Surf};
use common::resolve_state::ccu_flush_color;
use common::{Rig, Stream, DATA, GPUS};
use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xx2dIfmt, A6xxFormat as F, A6xxRotation, CpBlitCmd,
};
use parsnip_registers::packets::CpBlitDw0;
use parsnip_registers::regs::{self, Register};
use parsnip_sim::memory::OwnedBacking;
use parsnip_sim::report::{ErrorKind, StreamProblem};
use parsnip_sim::surface::ubwc::COMPRESSED;

/// A linear buffer, an image and its flags, and a second buffer.
const BUF: u64 = DATA;
const IMG: u64 = DATA + 0x4000;
const OUT: u64 = DATA + 0x8000;
const FLAGS: u64 = 0x1_0020_0000;

fn rig(gpu: &str) -> Rig {
    let rig = Rig::new(gpu);
    rig.gpu
        .memory()
        .map(FLAGS, Arc::new(OwnedBacking::zeroed(0x1000).unwrap()))
        .unwrap();
    rig
}

fn write_words(rig: &Rig, at: u64, words: &[u32]) {
    for (i, w) in words.iter().enumerate() {
        rig.write_u32(at + 4 * i as u64, *w);
    }
}

fn read_bytes(rig: &Rig, at: u64, n: usize) -> Vec<u8> {
    let mut b = vec![0; n];
    rig.gpu.memory().read(at, &mut b).unwrap();
    b
}

fn src(surf: Surf, w: u32, h: u32) -> Src {
    Src {
        surf,
        size: (w, h),
        rect: (0, 0, w as i32 - 1, h as i32 - 1),
        filter: false,
        average: false,
        buffer_offset: None,
    }
}

/// A copy of a w x h rectangle from (0, 0) to (0, 0).
fn copy(ifmt: A6xx2dIfmt, from: Surf, to: Surf, w: u32, h: u32) -> Blit {
    Blit::copy(ifmt, src(from, w, h), to, (0, 0, w - 1, h - 1))
}

/// Runs `blits` in one submit, with the CCU colour flush a driver puts
/// between one writing a surface and the next reading it (the 2D engine
/// writes through the CCU: adreno_pm4.xml).
fn run(rig: &mut Rig, blits: &[Blit]) {
    let mut s = rig.stream();
    for b in blits {
        b.emit(&mut s);
        ccu_flush_color(&mut s);
    }
    rig.run(&s).unwrap();
}

#[test]
fn a_buffer_goes_into_a_tiled_image_and_back() {
    for gpu in GPUS {
        for ubwc in [false, true] {
            let mut rig = rig(gpu);
            let words: Vec<u32> = (0..256)
                .map(|i| 0xab00_0000 | ((i / 16) << 12) | (i % 16))
                .collect();
            write_words(&rig, BUF, &words);
            let buffer = Surf::linear(BUF, F::FMT6_32_UINT, 64);
            let image = Surf::tiled(IMG, F::FMT6_32_UINT, 256, ubwc.then_some((FLAGS, 64)));
            let out = Surf::linear(OUT, F::FMT6_32_UINT, 64);
            let mut up = copy(A6xx2dIfmt::R2D_INT32, buffer, image, 16, 16);
            up.dst_integer = (false, true);
            let mut down = copy(A6xx2dIfmt::R2D_INT32, image, out, 16, 16);
            down.dst_integer = (false, true);
            run(&mut rig, &[up]);
            // Texel (5, 6): tile (0, 1) is tile 6 of its macrotile (y0 sets
            // b1 and b2); within it (5, 2) is index x0 + y1 + x2 = 1 + 8 +
            // 16 = 25.
            assert_eq!(rig.read_u32(IMG + 6 * 256 + 25 * 4), 0xab00_6005, "{gpu}");
            if ubwc {
                // 16x4 blocks: 4 flag bytes, one a row of 64.
                for by in 0..4 {
                    let at = FLAGS + by * 64;
                    assert_eq!(read_bytes(&rig, at, 2), [COMPRESSED, 0], "{gpu}");
                }
            }
            run(&mut rig, &[down]);
            let back: Vec<u32> = (0..256).map(|i| rig.read_u32(OUT + 4 * i)).collect();
            assert_eq!(back, words, "{gpu} ubwc={ubwc}");
        }
    }
}

#[test]
fn linear_to_tiled_to_linear_round_trips_every_format_class() {
    // One format per size and number class, with bytes every format keeps
    // through a decode and encode (no NaNs, no -128 SNORMs), copied with the
    // IFMT Turnip picks for it (tu_clear_blit.cc's format_to_ifmt).
    let cases: &[(F, A6xx2dIfmt, u32, (bool, bool))] = &[
        (F::FMT6_8_UNORM, A6xx2dIfmt::R2D_UNORM8, 1, (false, false)),
        (F::FMT6_8_UINT, A6xx2dIfmt::R2D_INT8, 1, (false, true)),
        (F::FMT6_8_8_UNORM, A6xx2dIfmt::R2D_UNORM8, 2, (false, false)),
        (
            F::FMT6_5_6_5_UNORM,
            A6xx2dIfmt::R2D_UNORM8,
            2,
            (false, false),
        ),
        (
            F::FMT6_4_4_4_4_UNORM,
            A6xx2dIfmt::R2D_UNORM8,
            2,
            (false, false),
        ),
        (F::FMT6_16_SINT, A6xx2dIfmt::R2D_INT16, 2, (true, false)),
        (
            F::FMT6_8_8_8_8_UNORM,
            A6xx2dIfmt::R2D_UNORM8,
            4,
            (false, false),
        ),
        (
            F::FMT6_10_10_10_2_UNORM,
            A6xx2dIfmt::R2D_FLOAT16,
            4,
            (false, false),
        ),
        (
            F::FMT6_16_16_UNORM,
            A6xx2dIfmt::R2D_FLOAT32,
            4,
            (false, false),
        ),
        (F::FMT6_32_FLOAT, A6xx2dIfmt::R2D_FLOAT32, 4, (false, false)),
        (
            F::FMT6_16_16_16_16_FLOAT,
            A6xx2dIfmt::R2D_FLOAT16,
            8,
            (false, false),
        ),
        (F::FMT6_32_32_UINT, A6xx2dIfmt::R2D_INT32, 8, (false, true)),
        (
            F::FMT6_32_32_32_32_SINT,
            A6xx2dIfmt::R2D_INT32,
            16,
            (true, false),
        ),
    ];
    for gpu in GPUS {
        for &(format, ifmt, cpp, integer) in cases {
            for ubwc in [false, true] {
                let mut rig = rig(gpu);
                // 32x8 texels; bytes that are valid for every class above:
                // floats keep their exponent below all ones.
                let row = (32 * cpp) as usize;
                let pitch = (32 * cpp).next_multiple_of(64);
                let n = (pitch * 8) as usize;
                let bytes: Vec<u8> = (0..n)
                    .map(|i| {
                        let b = (i * 37 % 251) as u8;
                        if matches!(format, F::FMT6_32_FLOAT) && i % 4 == 3 {
                            b & 0x3f
                        } else if matches!(format, F::FMT6_16_16_16_16_FLOAT) && i % 2 == 1 {
                            b & 0x3b
                        } else {
                            b
                        }
                    })
                    .collect();
                rig.gpu.memory().write(BUF, &bytes).unwrap();
                let tiled_pitch = (32 * cpp).next_multiple_of(256);
                let image = Surf::tiled(IMG, format, tiled_pitch, ubwc.then_some((FLAGS, 64)));
                let mut up = copy(ifmt, Surf::linear(BUF, format, pitch), image, 32, 8);
                up.dst_integer = integer;
                let mut down = copy(ifmt, image, Surf::linear(OUT, format, pitch), 32, 8);
                down.dst_integer = integer;
                run(&mut rig, &[up, down]);
                let out = read_bytes(&rig, OUT, n);
                let rows = |b: &[u8]| -> Vec<u8> {
                    b.chunks(pitch as usize)
                        .flat_map(|r| r[..row].to_vec())
                        .collect()
                };
                assert_eq!(
                    rows(&out),
                    rows(&bytes),
                    "{gpu} {} ubwc={ubwc}",
                    format.name(rig.chip()).unwrap()
                );
            }
        }
    }
}

#[test]
fn solid_fills_take_the_colour_as_turnip_packs_it() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        // RGBA8 in TILE6_3 with UBWC, UNORM8: 8-bit values per component.
        let image = Surf::tiled(IMG, F::FMT6_8_8_8_8_UNORM, 256, Some((FLAGS, 64)));
        let clear = Blit::fill(
            A6xx2dIfmt::R2D_UNORM8,
            [0x1a, 0x33, 0x4d, 0xff],
            image,
            (0, 0, 31, 7),
        );
        let out = Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 128);
        run(
            &mut rig,
            &[clear, copy(A6xx2dIfmt::R2D_UNORM8, image, out, 32, 8)],
        );
        let bytes = read_bytes(&rig, OUT, 128 * 8);
        assert!(
            bytes.chunks(4).all(|p| p == [0x1a, 0x33, 0x4d, 0xff]),
            "{gpu}"
        );

        // D16 through FLOAT32 (Turnip's depth clears): 1.0 and 0.5 (32767.5
        // rounds to even, 0x8000).
        let depth = Surf::tiled(IMG, F::FMT6_16_UNORM, 256, None);
        run(
            &mut rig,
            &[Blit::fill(
                A6xx2dIfmt::R2D_FLOAT32,
                [1.0f32.to_bits(), 0, 0, 0],
                depth,
                (0, 0, 0, 0),
            )],
        );
        assert_eq!(read_bytes(&rig, IMG, 2), [0xff, 0xff], "{gpu}");
        run(
            &mut rig,
            &[Blit::fill(
                A6xx2dIfmt::R2D_FLOAT32,
                [0.5f32.to_bits(), 0, 0, 0],
                depth,
                (0, 0, 0, 0),
            )],
        );
        assert_eq!(read_bytes(&rig, IMG, 2), [0x00, 0x80], "{gpu}");

        // SNORM through UNORM8: signed 8-bit values (-127 is -1.0).
        let snorm = Surf::linear(OUT, F::FMT6_8_8_8_8_SNORM, 64);
        let colour = [(-127i32) as u32, 64, 0, 127];
        run(
            &mut rig,
            &[Blit::fill(
                A6xx2dIfmt::R2D_UNORM8,
                colour,
                snorm,
                (0, 0, 0, 0),
            )],
        );
        assert_eq!(read_bytes(&rig, OUT, 4), [0x81, 0x40, 0, 0x7f], "{gpu}");

        // sRGB: the colour is already encoded and lands as it is.
        let mut srgb = Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 64);
        srgb.srgb = true;
        run(
            &mut rig,
            &[Blit::fill(
                A6xx2dIfmt::R2D_UNORM8_SRGB,
                [188, 0, 255, 128],
                srgb,
                (0, 0, 0, 0),
            )],
        );
        assert_eq!(read_bytes(&rig, OUT, 4), [188, 0, 255, 128], "{gpu}");

        // Halves for FLOAT16, integers for INT32 (vkCmdFillBuffer's path:
        // a buffer as an R32_UINT row).
        let half = Surf::linear(OUT, F::FMT6_16_16_16_16_FLOAT, 64);
        run(
            &mut rig,
            &[Blit::fill(
                A6xx2dIfmt::R2D_FLOAT16,
                [0x3c00, 0xc000, 0, 0x3800],
                half,
                (0, 0, 0, 0),
            )],
        );
        assert_eq!(
            read_bytes(&rig, OUT, 8),
            [0, 0x3c, 0, 0xc0, 0, 0, 0, 0x38],
            "{gpu}"
        );
        let mut fill = Blit::fill(
            A6xx2dIfmt::R2D_INT32,
            [0xdead_beef, 0, 0, 0],
            Surf::linear(OUT, F::FMT6_32_UINT, 4096),
            (0, 0, 99, 0),
        );
        fill.dst_integer = (false, true);
        run(&mut rig, &[fill]);
        assert!((0..100).all(|i| rig.read_u32(OUT + 4 * i) == 0xdead_beef));
        assert_ne!(
            rig.read_u32(OUT + 400),
            0xdead_beef,
            "{gpu}: one past the rectangle"
        );
    }
}

#[test]
fn depth_stencil_clears_keep_the_other_aspect() {
    // Turnip clears one aspect of D24S8 through the RGBA8 alias with
    // RB_2D_UNKNOWN_8C01: 0x08000041 keeps the stencil byte, 0x00084001
    // keeps the depth bytes.
    for gpu in GPUS {
        let mut rig = rig(gpu);
        rig.write_u32(IMG, 0x5a12_3456);
        let ds = Surf::tiled(IMG, F::FMT6_Z24_UNORM_S8_UINT_AS_R8G8B8A8, 256, None);
        let mut depth = Blit::fill(
            A6xx2dIfmt::R2D_UNORM8,
            [0xff, 0xff, 0xff, 0],
            ds,
            (0, 0, 0, 0),
        );
        depth.unknown_8c01 = 0x0800_0041;
        run(&mut rig, &[depth]);
        assert_eq!(rig.read_u32(IMG), 0x5aff_ffff, "{gpu}");
        let mut stencil = Blit::fill(A6xx2dIfmt::R2D_UNORM8, [0, 0, 0, 7], ds, (0, 0, 0, 0));
        stencil.unknown_8c01 = 0x0008_4001;
        run(&mut rig, &[stencil]);
        assert_eq!(rig.read_u32(IMG), 0x07ff_ffff, "{gpu}");
    }
}

#[test]
fn copies_convert_between_formats() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        // RGBA8 to RGBA16F through FLOAT16: 255 is 1.0 (0x3c00), 128/255
        // rounds to the half 0x3804 (0.5 * (1 + 4/1024)), 64/255 to 0x3404.
        rig.gpu.memory().write(BUF, &[255, 128, 0, 64]).unwrap();
        let c = copy(
            A6xx2dIfmt::R2D_FLOAT16,
            Surf::linear(BUF, F::FMT6_8_8_8_8_UNORM, 64),
            Surf::linear(OUT, F::FMT6_16_16_16_16_FLOAT, 64),
            1,
            1,
        );
        run(&mut rig, &[c]);
        assert_eq!(
            read_bytes(&rig, OUT, 8),
            [0x00, 0x3c, 0x04, 0x38, 0, 0, 0x04, 0x34],
            "{gpu}"
        );

        // B8G8R8A8 to R8G8B8A8: the swap moves the components.
        rig.gpu.memory().write(BUF, &[1, 2, 3, 4]).unwrap();
        let mut bgra = Surf::linear(BUF, F::FMT6_8_8_8_8_UNORM, 64);
        bgra.swap = A3xxColorSwap::WXYZ;
        run(
            &mut rig,
            &[copy(
                A6xx2dIfmt::R2D_UNORM8,
                bgra,
                Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 64),
                1,
                1,
            )],
        );
        assert_eq!(read_bytes(&rig, OUT, 4), [3, 2, 1, 4], "{gpu}");

        // Linear to sRGB: 128/255 encodes to 188 (1.055 * 0.50196^(1/2.4) -
        // 0.055 = 0.73665, * 255 = 187.85); alpha stays.
        rig.gpu.memory().write(BUF, &[128, 0, 255, 128]).unwrap();
        let mut srgb = Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 64);
        srgb.srgb = true;
        run(
            &mut rig,
            &[copy(
                A6xx2dIfmt::R2D_UNORM8_SRGB,
                Surf::linear(BUF, F::FMT6_8_8_8_8_UNORM, 64),
                srgb,
                1,
                1,
            )],
        );
        assert_eq!(read_bytes(&rig, OUT, 4), [188, 0, 255, 128], "{gpu}");

        // sRGB to sRGB keeps every value.
        let row: Vec<u8> = (0..=255u8).flat_map(|v| [v, v, v, v]).collect();
        rig.gpu.memory().write(BUF, &row).unwrap();
        let mut from = Surf::linear(BUF, F::FMT6_8_8_8_8_UNORM, 1024);
        from.srgb = true;
        let mut to = Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 1024);
        to.srgb = true;
        run(
            &mut rig,
            &[copy(A6xx2dIfmt::R2D_UNORM8_SRGB, from, to, 256, 1)],
        );
        assert_eq!(read_bytes(&rig, OUT, 1024), row, "{gpu}");

        // 10:10:10:2 to RGBA16F: 1023 is 1.0, 512/1023 the half 0x3801,
        // alpha 1/3 the half 0x3555 (0.25 * (1 + 341/1024)).
        rig.write_u32(BUF, 1023 | 512 << 10 | 1 << 30);
        run(
            &mut rig,
            &[copy(
                A6xx2dIfmt::R2D_FLOAT16,
                Surf::linear(BUF, F::FMT6_10_10_10_2_UNORM, 64),
                Surf::linear(OUT, F::FMT6_16_16_16_16_FLOAT, 64),
                1,
                1,
            )],
        );
        assert_eq!(
            read_bytes(&rig, OUT, 8),
            [0x00, 0x3c, 0x01, 0x38, 0, 0, 0x55, 0x35],
            "{gpu}"
        );
    }
}

#[test]
fn scaling_filters_nearest_and_bilinear() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        // Nearest 2x2 to 4x4: each texel covers 2x2 pixels.
        write_words(
            &rig,
            BUF,
            &[1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 4],
        );
        let mut up = Blit::copy(
            A6xx2dIfmt::R2D_INT32,
            src(Surf::linear(BUF, F::FMT6_32_UINT, 64), 2, 2),
            Surf::linear(OUT, F::FMT6_32_UINT, 64),
            (0, 0, 3, 3),
        );
        up.dst_integer = (false, true);
        run(&mut rig, &[up]);
        let got: Vec<u32> = (0..4)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .map(|(x, y)| rig.read_u32(OUT + 64 * y + 4 * x))
            .collect();
        assert_eq!(
            got,
            [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4],
            "{gpu}"
        );

        // Bilinear 4x4 to 2x2: each pixel centre falls between four texels,
        // which it averages: (10 + 20 + 50 + 60) / 4 = 35, (30 + 40 + 70 +
        // 80) / 4 = 55.
        let reds = [10u8, 20, 30, 40, 50, 60, 70, 80];
        for (i, r) in reds.iter().enumerate() {
            let at = BUF + 64 * (i as u64 / 4) + 4 * (i as u64 % 4);
            rig.gpu.memory().write(at, &[*r, 0, 0, 255]).unwrap();
        }
        let mut down = Blit::copy(
            A6xx2dIfmt::R2D_UNORM8,
            src(Surf::linear(BUF, F::FMT6_8_8_8_8_UNORM, 64), 4, 2),
            Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 64),
            (0, 0, 1, 0),
        );
        down.src.as_mut().unwrap().filter = true;
        run(&mut rig, &[down]);
        assert_eq!(
            read_bytes(&rig, OUT, 8),
            [35, 0, 0, 255, 55, 0, 0, 255],
            "{gpu}"
        );

        // Bilinear 2x1 to 4x1 clamps at the edges: centres at source x
        // 0.25, 0.75, 1.25, 1.75 blend texels 0 and 255 by 0, 1/4, 3/4, 1.
        rig.gpu
            .memory()
            .write(BUF, &[0, 0, 0, 0, 255, 0, 0, 0])
            .unwrap();
        let mut stretch = Blit::copy(
            A6xx2dIfmt::R2D_UNORM8,
            src(Surf::linear(BUF, F::FMT6_8_8_8_8_UNORM, 64), 2, 1),
            Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 64),
            (0, 0, 3, 0),
        );
        stretch.src.as_mut().unwrap().filter = true;
        run(&mut rig, &[stretch]);
        let reds: Vec<u8> = read_bytes(&rig, OUT, 16).chunks(4).map(|p| p[0]).collect();
        assert_eq!(reds, [0, 64, 191, 255], "{gpu}");
    }
}

#[test]
fn flips_mirror_the_source() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        write_words(&rig, BUF, &[1, 2]);
        write_words(&rig, BUF + 64, &[3, 4]);
        for (rotate, want) in [
            (A6xxRotation::ROTATE_HFLIP, [2, 1, 4, 3]),
            (A6xxRotation::ROTATE_VFLIP, [3, 4, 1, 2]),
            (A6xxRotation::ROTATE_180, [4, 3, 2, 1]),
        ] {
            // 2x2 texels in rows of 64 bytes.
            let mut b = copy(
                A6xx2dIfmt::R2D_INT32,
                Surf::linear(BUF, F::FMT6_32_UINT, 64),
                Surf::linear(OUT, F::FMT6_32_UINT, 64),
                2,
                2,
            );
            b.rotate = rotate;
            b.dst_integer = (false, true);
            run(&mut rig, &[b]);
            let got: Vec<u32> = [0, 4, 64, 68]
                .iter()
                .map(|o| rig.read_u32(OUT + o))
                .collect();
            assert_eq!(got, want, "{gpu} {rotate:?}");
        }
    }
}

#[test]
fn multisampled_sources_resolve_or_read_sample_0() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        // One pixel of 4 samples, red 10, 20, 30, 40: averaged 25.
        let samples: Vec<u8> = [10u8, 20, 30, 40]
            .iter()
            .flat_map(|r| [*r, 0, 0, 255])
            .collect();
        rig.gpu.memory().write(BUF, &samples).unwrap();
        let mut ms = Surf::linear(BUF, F::FMT6_8_8_8_8_UNORM, 64);
        ms.samples = A3xxMsaaSamples::MSAA_FOUR;
        for (average, red) in [(true, 25), (false, 10)] {
            let mut b = copy(
                A6xx2dIfmt::R2D_UNORM8,
                ms,
                Surf::linear(OUT, F::FMT6_8_8_8_8_UNORM, 64),
                1,
                1,
            );
            b.src.as_mut().unwrap().average = average;
            run(&mut rig, &[b]);
            assert_eq!(
                read_bytes(&rig, OUT, 4),
                [red, 0, 0, 255],
                "{gpu} average={average}"
            );
        }
    }
}

#[test]
fn a7xx_reads_a_buffer_from_a_texel_offset() {
    // TPL1_2D_SRC_CNTL's A6XX_TEX_IMG_BUFFER: the source starts
    // START_OFFSET_TEXELS texels past its 64-byte aligned address.
    let mut rig = rig("a740");
    write_words(&rig, BUF, &[0, 0, 0, 7, 8, 9, 10]);
    let mut b = copy(
        A6xx2dIfmt::R2D_INT32,
        Surf::linear(BUF, F::FMT6_32_UINT, 64),
        Surf::linear(OUT, F::FMT6_32_UINT, 64),
        4,
        1,
    );
    b.src.as_mut().unwrap().buffer_offset = Some(3);
    b.dst_integer = (false, true);
    run(&mut rig, &[b]);
    let got: Vec<u32> = (0..4).map(|i| rig.read_u32(OUT + 4 * i)).collect();
    assert_eq!(got, [7, 8, 9, 10]);
}

#[test]
fn the_scissor_limits_what_is_written() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        let mut b = Blit::fill(
            A6xx2dIfmt::R2D_INT32,
            [5, 0, 0, 0],
            Surf::linear(OUT, F::FMT6_32_UINT, 64),
            (0, 0, 3, 0),
        );
        b.scissor = Some((1, 0, 2, 0));
        b.dst_integer = (false, true);
        run(&mut rig, &[b]);
        let got: Vec<u32> = (0..4).map(|i| rig.read_u32(OUT + 4 * i)).collect();
        assert_eq!(got, [0, 5, 5, 0], "{gpu}");
    }
}

/// Removes the type 4 write of register `R` from the stream.
fn without<R: Register>(s: &mut Stream) {
    let offset = R::offset(s.chip).unwrap();
    let mut pos = 0;
    while pos < s.dwords.len() {
        let h = parsnip_registers::pm4::Pm4Header::parse(s.dwords[pos]).unwrap();
        let n = 1 + h.payload_dwords() as usize;
        if matches!(h, parsnip_registers::pm4::Pm4Header::Type4 { offset: o, .. } if o == offset) {
            s.dwords.drain(pos..pos + n);
            return;
        }
        pos += n;
    }
    panic!("no write of {}", R::NAME);
}

#[test]
fn strict_mode_names_a_2d_register_nothing_wrote() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        let mut s = rig.stream();
        let mut b = copy(
            A6xx2dIfmt::R2D_INT32,
            Surf::linear(BUF, F::FMT6_32_UINT, 64),
            Surf::linear(OUT, F::FMT6_32_UINT, 64),
            4,
            1,
        );
        b.dst_integer = (false, true);
        b.emit(&mut s);
        without::<regs::SpPs2dSrcSize>(&mut s);
        let err = rig.run(&s).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Register(_)), "{err}");
        assert!(
            err.to_string().contains("strict mode: SP_PS_2D_SRC_SIZE"),
            "{err}"
        );
        assert_eq!(err.site.packet().unwrap().packet, "CP_BLIT");
        // A solid fill reads no source register, so none need be written.
        let mut fresh = self::rig(gpu);
        let mut fill = Blit::fill(
            A6xx2dIfmt::R2D_INT32,
            [1, 0, 0, 0],
            Surf::linear(OUT, F::FMT6_32_UINT, 64),
            (0, 0, 0, 0),
        );
        fill.dst_integer = (false, true);
        run(&mut fresh, &[fill]);
        assert_eq!(fresh.read_u32(OUT), 1);
    }
}

#[test]
fn reading_a_compressed_image_without_its_flags_is_an_error() {
    for gpu in GPUS {
        let mut rig = rig(gpu);
        let image = Surf::tiled(IMG, F::FMT6_32_UINT, 256, Some((FLAGS, 64)));
        let mut up = Blit::fill(A6xx2dIfmt::R2D_INT32, [1, 0, 0, 0], image, (0, 0, 15, 3));
        up.dst_integer = (false, true);
        let mut plain = image;
        plain.flags = None;
        let mut down = copy(
            A6xx2dIfmt::R2D_INT32,
            plain,
            Surf::linear(OUT, F::FMT6_32_UINT, 64),
            16,
            4,
        );
        down.dst_integer = (false, true);
        let mut s = rig.stream();
        up.emit(&mut s);
        ccu_flush_color(&mut s);
        down.emit(&mut s);
        let err = rig.run(&s).unwrap_err();
        assert!(
            matches!(
                err.kind,
                ErrorKind::BadStream(StreamProblem::BadState { .. })
            ),
            "{err}"
        );
        assert!(err.to_string().contains("without UBWC flags"), "{err}");
    }
}

#[test]
fn what_is_not_public_stops_with_its_name() {
    for gpu in GPUS {
        let fill = || {
            let mut b = Blit::fill(
                A6xx2dIfmt::R2D_INT32,
                [1, 0, 0, 0],
                Surf::linear(OUT, F::FMT6_32_UINT, 64),
                (0, 0, 0, 0),
            );
            b.dst_integer = (false, true);
            b
        };
        let expect = |b: Blit, text: &str| {
            let mut rig = rig(gpu);
            let mut s = rig.stream();
            b.emit(&mut s);
            let err = rig.run_expecting(&s, text);
            assert!(
                matches!(
                    err.kind,
                    ErrorKind::BadStream(StreamProblem::NotModelled { .. })
                ),
                "{err}"
            );
        };
        let mut b = fill();
        b.rotate = A6xxRotation::ROTATE_90;
        expect(b, "ROTATE_90: which way it turns is not public");
        let mut b = fill();
        b.mask = 0x7;
        expect(b, "RB_2D_BLIT_CNTL.MASK = 0x7");
        let mut b = fill();
        b.unknown_8c01 = 0x1;
        expect(b, "RB_2D_UNKNOWN_8C01 = 0x00000001");
        // A float path into an integer format.
        let mut b = fill();
        b.ifmt = A6xx2dIfmt::R2D_FLOAT32;
        expect(b, "IFMT for float values into FMT6_32_UINT");

        // The older CP_BLIT ops.
        let mut rig = rig(gpu);
        let mut s = rig.stream();
        s.pkt(
            "CP_BLIT",
            &[
                CpBlitDw0 {
                    op: CpBlitCmd::BLIT_OP_COPY,
                }
                .to_raw(),
                0,
                0,
                0,
                0,
            ],
        );
        rig.run_expecting(&s, "CP_BLIT BLIT_OP_COPY");
    }
}
