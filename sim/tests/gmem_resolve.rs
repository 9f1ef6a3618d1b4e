//! The resolve engine (BLIT events) on hand-written streams, on a660 and
//! a740: GMEM clears, loads and stores over bins that cover the framebuffer
//! partly (odd sizes, bins past its edge, scissors that cut bins), MSAA
//! resolves, depth and stencil planes, UBWC and swapped destinations, and
//! a7xx's sysmem clears. Expected bytes are worked out by hand from the
//! register meanings (a6xx.xml) and the model's GMEM layout: a bin's pixels
//! row by row, a row being the bin's width of pixels.

mod common;

use std::sync::Arc;

use common::blit_state::{Blit, Src, Surf};
use common::resolve_state::{event, resolve_bin, BlitEvent};
use common::{Rig, Stream, DATA, GPUS};
use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xx2dIfmt, A6xxBlitEventType, A6xxFormat as F, VgtEventType,
};
use parsnip_sim::memory::OwnedBacking;

/// A source image, a destination, a tiled destination, and UBWC flags.
const IMG: u64 = DATA;
const OUT: u64 = DATA + 0x4000;
const TILED: u64 = DATA + 0x8000;
const OUT2: u64 = DATA + 0xc000;
const FLAGS: u64 = 0x1_0020_0000;
const POISON: u32 = 0x7f7f_7f7f;

fn new_rig(gpu: &str) -> Rig {
    let rig = Rig::new(gpu);
    rig.gpu
        .memory()
        .map(FLAGS, Arc::new(OwnedBacking::zeroed(0x1000).unwrap()))
        .unwrap();
    rig
}

fn fill_words(rig: &Rig, at: u64, n: usize, f: impl Fn(usize) -> u32) {
    let bytes: Vec<u8> = (0..n).flat_map(|i| f(i).to_le_bytes()).collect();
    rig.gpu.memory().write(at, &bytes).unwrap();
}

fn gmem_u32(rig: &Rig, offset: u64) -> u32 {
    let mut b = [0u8; 4];
    rig.gpu.gmem().read(offset, &mut b).unwrap();
    u32::from_le_bytes(b)
}

fn linear_rgba8(base: u64) -> Surf {
    Surf::linear(base, F::FMT6_8_8_8_8_UNORM, 256)
}

fn run(rig: &mut Rig, f: impl FnOnce(&mut Stream)) {
    let mut s = rig.stream();
    f(&mut s);
    rig.run(&s).unwrap();
}

#[test]
fn a_clear_writes_gmem_where_the_scissor_meets_the_bin() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        // A 32x16 bin at (32, 16); the scissor (40, 20)-(100, 100) keeps
        // its pixels from (40, 20), which are (8, 4) in bin coordinates.
        run(&mut rig, |s| {
            resolve_bin(s, 32, 16, 32, 16);
            BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0x2000, [0x1122_3344, 0, 0, 0])
                .scissor(40, 20, 100, 100)
                .emit(s);
        });
        let at = |x: u64, y: u64| 0x2000 + y * 32 * 4 + x * 4;
        assert_eq!(gmem_u32(&rig, at(8, 4)), 0x1122_3344, "{gpu}");
        assert_eq!(gmem_u32(&rig, at(31, 15)), 0x1122_3344, "{gpu}");
        // Left of and above the scissor: untouched.
        assert_eq!(gmem_u32(&rig, at(7, 4)), 0, "{gpu}");
        assert_eq!(gmem_u32(&rig, at(8, 3)), 0, "{gpu}");
        // Past the bin: the next surface's bytes, untouched.
        assert_eq!(gmem_u32(&rig, at(0, 16)), 0, "{gpu}");
        assert_eq!(gmem_u32(&rig, 0x1ffc), 0, "{gpu}");
    }
}

/// The pattern of the source image: a different word at each pixel.
fn pattern(x: u32, y: u32) -> u32 {
    0xab00_0000 | (y << 16) | (x << 8) | (x ^ y)
}

/// Runs a load / partial clear / store over every 32x16 bin of a 50x37
/// framebuffer (bins past its right and bottom edges), storing to `dst`.
fn tiled_pass(rig: &mut Rig, dst: Surf) {
    fill_words(rig, IMG, 64 * 40, |i| pattern(i as u32 % 64, i as u32 / 64));
    let src = linear_rgba8(IMG);
    run(rig, |s| {
        for by in 0..3 {
            for bx in 0..2 {
                resolve_bin(s, bx * 32, by * 16, 32, 16);
                BlitEvent::load(0, src).scissor(0, 0, 49, 36).emit(s);
                // Red only, in a rectangle crossing all six bins' edges.
                let mut clear = BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0x0000_00ee, 0, 0, 0])
                    .scissor(10, 10, 40, 33);
                clear.clear_mask = 0x1;
                clear.emit(s);
                BlitEvent::store(0, dst).scissor(0, 0, 49, 36).emit(s);
            }
        }
    });
}

/// What the tiled pass leaves at (x, y) of the framebuffer.
fn expected(x: u32, y: u32) -> u32 {
    let p = pattern(x, y);
    if (10..=40).contains(&x) && (10..=33).contains(&y) {
        p & !0xff | 0xee
    } else {
        p
    }
}

#[test]
fn loads_clears_and_stores_cover_an_odd_framebuffer_bin_by_bin() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        fill_words(&rig, OUT, 64 * 40, |_| POISON);
        tiled_pass(&mut rig, linear_rgba8(OUT));
        for y in 0..40u32 {
            for x in 0..64u32 {
                let got = rig.read_u32(OUT + u64::from(y * 256 + x * 4));
                let want = if x < 50 && y < 37 {
                    expected(x, y)
                } else {
                    POISON
                };
                assert_eq!(got, want, "{gpu} ({x}, {y})");
            }
        }
    }
}

#[test]
fn a_store_to_a_ubwc_image_reads_back_through_the_2d_engine() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        let image = Surf::tiled(TILED, F::FMT6_8_8_8_8_UNORM, 256, Some((FLAGS, 64)));
        tiled_pass(&mut rig, image);
        // The 2D engine copies the compressed image out: it reads the same
        // flags the resolve engine wrote.
        fill_words(&rig, OUT2, 64 * 40, |_| POISON);
        let copy = Blit::copy(
            A6xx2dIfmt::R2D_UNORM8,
            Src {
                surf: image,
                size: (50, 37),
                rect: (0, 0, 49, 36),
                filter: false,
                average: false,
                buffer_offset: None,
            },
            linear_rgba8(OUT2),
            (0, 0, 49, 36),
        );
        run(&mut rig, |s| copy.emit(s));
        for y in 0..37u32 {
            for x in 0..50u32 {
                let got = rig.read_u32(OUT2 + u64::from(y * 256 + x * 4));
                assert_eq!(got, expected(x, y), "{gpu} ({x}, {y})");
            }
        }
    }
}

/// Sample `s` of every pixel of the MSAA test: (40s, 255 - 40s, 10s + 1,
/// 255).
fn sample_word(s: u32) -> u32 {
    (40 * s) | (255 - 40 * s) << 8 | (10 * s + 1) << 16 | 0xff << 24
}

#[test]
fn msaa_stores_average_take_sample_0_or_copy_every_sample() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        // A 4-sample 8x4 image: pixels of 16 bytes, samples in order.
        let mut msaa = Surf::linear(IMG, F::FMT6_8_8_8_8_UNORM, 128);
        msaa.samples = A3xxMsaaSamples::MSAA_FOUR;
        fill_words(&rig, IMG, 8 * 4 * 4, |i| sample_word(i as u32 % 4));
        fill_words(&rig, OUT, 0x3000 / 4, |_| POISON);
        let copy = {
            let mut c = Surf::linear(OUT + 0x1000, F::FMT6_8_8_8_8_UNORM, 128);
            c.samples = A3xxMsaaSamples::MSAA_FOUR;
            c
        };
        run(&mut rig, |s| {
            resolve_bin(s, 0, 0, 32, 16);
            let four = A3xxMsaaSamples::MSAA_FOUR;
            BlitEvent::load(0, msaa)
                .samples(four)
                .scissor(0, 0, 7, 3)
                .emit(s);
            BlitEvent::store(0, linear_rgba8(OUT))
                .samples(four)
                .scissor(0, 0, 7, 3)
                .emit(s);
            let mut first = BlitEvent::store(0, linear_rgba8(OUT + 0x2000))
                .samples(four)
                .scissor(0, 0, 7, 3);
            first.sample_0 = true;
            first.emit(s);
            BlitEvent::store(0, copy)
                .samples(four)
                .scissor(0, 0, 7, 3)
                .emit(s);
        });
        // Means: (0 + 40 + 80 + 120) / 4 = 60, (255 + 215 + 175 + 135) / 4 =
        // 195, (1 + 11 + 21 + 31) / 4 = 16, 255.
        let mean = 60 | 195 << 8 | 16 << 16 | 0xff << 24;
        for y in 0..4u64 {
            for x in 0..8u64 {
                let at = y * 256 + x * 4;
                assert_eq!(rig.read_u32(OUT + at), mean, "{gpu} ({x}, {y})");
                assert_eq!(rig.read_u32(OUT + 0x2000 + at), sample_word(0), "{gpu}");
                for s in 0..4u32 {
                    let at = OUT + 0x1000 + y * 128 + x * 16 + u64::from(s) * 4;
                    assert_eq!(rig.read_u32(at), sample_word(s), "{gpu} sample {s}");
                }
            }
        }
        // Column 8 was outside the scissor.
        assert_eq!(rig.read_u32(OUT + 8 * 4), POISON, "{gpu}");
    }
}

#[test]
fn depth_and_stencil_clears_keep_the_other_plane() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        fill_words(&rig, OUT, 0x100, |_| POISON);
        run(&mut rig, |s| {
            resolve_bin(s, 0, 0, 32, 16);
            let z24s8 = F::FMT6_Z24_UNORM_S8_UINT;
            let depth_clear = |value: u32, mask: u32| {
                let mut c = BlitEvent::clear(z24s8, 0x1000, [value, 0, 0, 0]);
                c.depth = true;
                c.clear_mask = mask;
                c
            };
            depth_clear(0x8012_3456, 3).emit(s);
            // Depth only: the stencil byte stays 0x80.
            depth_clear(0x00ab_cdef, 1).emit(s);
            // Stencil only: the depth stays 0xabcdef.
            depth_clear(0x4400_0000, 2).emit(s);
            // Turnip's form: the RGBA8 alias, stencil as component 3.
            let mut alias = BlitEvent::clear(
                F::FMT6_Z24_UNORM_S8_UINT_AS_R8G8B8A8,
                0x1000,
                [0x9900_0000, 0, 0, 0],
            );
            alias.clear_mask = 0x8;
            alias.emit(s);
            let mut store =
                BlitEvent::store(0x1000, Surf::linear(OUT, z24s8, 64)).scissor(0, 0, 1, 0);
            store.depth = true;
            store.emit(s);
            // The D16 clear of Turnip's depth_bias_cull streams.
            BlitEvent::clear(F::FMT6_16_UNORM, 0x2000, [0xffff, 0, 0, 0]).emit(s);
            BlitEvent::store(0x2000, Surf::linear(OUT + 0x100, F::FMT6_16_UNORM, 64))
                .scissor(0, 0, 2, 0)
                .emit(s);
        });
        assert_eq!(rig.read_u32(OUT), 0x99ab_cdef, "{gpu}");
        assert_eq!(rig.read_u32(OUT + 4), 0x99ab_cdef, "{gpu}");
        assert_eq!(rig.read_u32(OUT + 8), POISON, "{gpu}");
        assert_eq!(rig.read_u32(OUT + 0x100), 0xffff_ffff, "{gpu}");
        assert_eq!(rig.read_u32(OUT + 0x104), 0x7f7f_ffff, "{gpu}");
    }
}

#[test]
fn a_store_reorders_components_for_a_swapped_destination() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        let mut bgra = linear_rgba8(OUT);
        bgra.swap = A3xxColorSwap::WXYZ;
        run(&mut rig, |s| {
            resolve_bin(s, 0, 0, 32, 16);
            // GMEM holds R, G, B, A = 1, 2, 3, 4.
            BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0x0403_0201, 0, 0, 0]).emit(s);
            BlitEvent::store(0, bgra).scissor(0, 0, 0, 0).emit(s);
            // And back: a load of the BGRA image puts RGBA in GMEM at 0x800.
            BlitEvent::load(0x1000, bgra).scissor(0, 0, 0, 0).emit(s);
        });
        assert_eq!(
            rig.read_u32(OUT),
            0x0401_0203,
            "{gpu}: stored as B, G, R, A"
        );
        assert_eq!(gmem_u32(&rig, 0x1000), 0x0403_0201, "{gpu}");
    }
}

#[test]
fn store_and_clear_stores_first() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        run(&mut rig, |s| {
            resolve_bin(s, 0, 0, 32, 16);
            BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0x0102_0304, 0, 0, 0]).emit(s);
            let mut both = BlitEvent::store(0, linear_rgba8(OUT)).scissor(0, 0, 3, 0);
            both.kind = A6xxBlitEventType::BLIT_EVENT_STORE_AND_CLEAR;
            both.clear = [0xa0b0_c0d0, 0, 0, 0];
            both.emit(s);
        });
        assert_eq!(rig.read_u32(OUT + 12), 0x0102_0304, "{gpu}");
        assert_eq!(gmem_u32(&rig, 12), 0xa0b0_c0d0, "{gpu}");
        // Outside the scissor the first clear stays.
        assert_eq!(gmem_u32(&rig, 16), 0x0102_0304, "{gpu}");
    }
}

#[test]
fn an_a7xx_sysmem_clear_fills_memory_and_needs_no_bin() {
    let mut rig = new_rig("a740");
    fill_words(&rig, OUT, 64 * 8, |_| POISON);
    run(&mut rig, |s| {
        // No RB_BIN_CONTROL2 or window offset: strict mode would name them
        // if the clear read them.
        let mut c =
            BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0xff4c_331a, 0, 0, 0]).scissor(3, 2, 9, 5);
        c.mem = Some(linear_rgba8(OUT));
        c.sysmem_clear = true;
        c.emit(s);
    });
    for y in 0..8u32 {
        for x in 0..16u32 {
            let inside = (3..=9).contains(&x) && (2..=5).contains(&y);
            let want = if inside { 0xff4c_331a } else { POISON };
            assert_eq!(
                rig.read_u32(OUT + u64::from(y * 256 + x * 4)),
                want,
                "({x}, {y})"
            );
        }
    }
    assert_eq!(gmem_u32(&rig, 0), 0, "GMEM untouched");
}

#[test]
fn a_scissor_that_misses_the_bin_does_nothing_and_resolve_groups_end() {
    for gpu in GPUS {
        let mut rig = new_rig(gpu);
        fill_words(&rig, OUT, 64, |_| POISON);
        let stats = {
            let mut s = rig.stream();
            resolve_bin(&mut s, 32, 0, 32, 16);
            BlitEvent::store(0, linear_rgba8(OUT))
                .scissor(0, 0, 31, 15)
                .emit(&mut s);
            // a7xx closes its groups of resolves; the event is a7xx's only.
            if gpu == "a740" {
                event(&mut s, VgtEventType::CCU_END_RESOLVE_GROUP);
            }
            rig.run(&s).unwrap()
        };
        assert_eq!(stats.blit_events, 1, "{gpu}");
        assert_eq!(rig.read_u32(OUT), POISON, "{gpu}");
    }
}

#[test]
fn bad_blit_events_are_reported_at_their_packet() {
    for gpu in GPUS {
        let packet = if gpu == "a660" {
            "CP_EVENT_WRITE"
        } else {
            "CP_EVENT_WRITE7"
        };
        // A surface past the end of GMEM.
        let mut rig = new_rig(gpu);
        let end = rig.gpu.gmem().bytes();
        let mut s = rig.stream();
        resolve_bin(&mut s, 0, 0, 64, 32);
        BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, end - 0x1000, [0; 4]).emit(&mut s);
        let err = rig.run_expecting(&s, "past the GPU's");
        assert_eq!(err.site.packet().unwrap().packet, packet, "{gpu}");

        // Strict mode names what the event read and nothing wrote.
        let mut rig = new_rig(gpu);
        let mut s = rig.stream();
        event(&mut s, VgtEventType::BLIT);
        rig.run_expecting(&s, "RB_BLIT_INFO");

        // A bin of no pixels.
        let mut rig = new_rig(gpu);
        let mut s = rig.stream();
        resolve_bin(&mut s, 0, 0, 0, 16);
        BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0; 4]).emit(&mut s);
        rig.run_expecting(&s, "0x16 bin");
    }
}

/// Writes part of a stream.
type Emit = Box<dyn Fn(&mut Stream)>;

/// Every place where what the hardware does is not public: each stops with
/// an error naming it.
#[test]
fn what_is_not_public_stops_with_an_error_naming_it() {
    for gpu in GPUS {
        let cases: Vec<(&str, Emit)> = vec![
            (
                "UNK15",
                Box::new(|s| {
                    let mut c = BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0; 4]);
                    c.unk15 = true;
                    c.emit(s);
                }),
            ),
            (
                "RB_UNKNOWN_88D0",
                Box::new(|s| {
                    let mut c = BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0; 4]);
                    c.unknown_88d0 = 1;
                    c.emit(s);
                }),
            ),
            (
                "averaging the samples of FMT6_8_8_8_8_UINT",
                Box::new(|s| {
                    BlitEvent::store(0, Surf::linear(OUT, F::FMT6_8_8_8_8_UINT, 256))
                        .samples(A3xxMsaaSamples::MSAA_TWO)
                        .emit(s)
                }),
            ),
            (
                "a load of a 1-sample surface into 2-sample GMEM",
                Box::new(|s| {
                    BlitEvent::load(0, linear_rgba8(OUT))
                        .samples(A3xxMsaaSamples::MSAA_TWO)
                        .emit(s)
                }),
            ),
            (
                "a depth clear with CLEAR_MASK 0x4",
                Box::new(|s| {
                    let mut c = BlitEvent::clear(F::FMT6_Z24_UNORM_S8_UINT, 0, [0; 4]);
                    c.depth = true;
                    c.clear_mask = 4;
                    c.emit(s);
                }),
            ),
        ];
        for (text, emit) in cases {
            let mut rig = new_rig(gpu);
            let mut s = rig.stream();
            resolve_bin(&mut s, 0, 0, 32, 16);
            emit(&mut s);
            rig.run_expecting(&s, text);
        }
    }
    // a7xx: a sysmem clear of a swapped surface.
    let mut rig = new_rig("a740");
    let mut s = rig.stream();
    let mut c = BlitEvent::clear(F::FMT6_8_8_8_8_UNORM, 0, [0; 4]);
    let mut bgra = linear_rgba8(OUT);
    bgra.swap = A3xxColorSwap::WXYZ;
    c.mem = Some(bgra);
    c.sysmem_clear = true;
    c.emit(&mut s);
    rig.run_expecting(&s, "CLEAR_MODE_SYSMEM clear of a swapped surface");
}
