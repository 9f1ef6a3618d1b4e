//! Texturing through the whole pipeline: a full-screen quad whose
//! fragment shader samples a linear RGBA8 texture with the coordinates
//! (0, 0) at the top-left corner to (1, 1) at the bottom-right, from
//! hand-assembled shaders and a hand-written stream. The expected texels
//! are worked out here from Vulkan's texel filtering rules: which texel a
//! pixel centre's coordinates fall in, the bilinear weights, and the
//! level the scale factor of a W-pixel quad over an N-texel image selects
//! (log2(N / W)).

mod common;

use common::graphics_state::{regid, PrefetchCmd};
use common::textured_quad::{draw, fs, pixel, sampler, texture, Sampling};
use common::GPUS;
use parsnip_registers::enums::A6xxTexFilter;

/// Texel (i, j) of the 4x4 test image.
fn checker(i: u32, j: u32) -> [u8; 4] {
    [(i * 60) as u8, (j * 60) as u8, 100, 255]
}

/// Rows of texels 64 bytes apart (the pitch alignment PITCHALIGN 0 gives).
fn rows(texels: &[Vec<[u8; 4]>]) -> Vec<u8> {
    let mut bytes = vec![0u8; 64 * texels.len()];
    for (j, row) in texels.iter().enumerate() {
        for (i, t) in row.iter().enumerate() {
            bytes[64 * j + 4 * i..64 * j + 4 * i + 4].copy_from_slice(t);
        }
    }
    bytes
}

fn checker_image() -> Vec<u8> {
    let texels: Vec<Vec<[u8; 4]>> = (0..4)
        .map(|j| (0..4).map(|i| checker(i, j)).collect())
        .collect();
    rows(&texels)
}

const SAM: &str = "sam (f32)(xyzw)r2.x, r1.x, s#0, t#0";

#[test]
fn nearest_magnification_takes_the_texel_each_pixel_centre_is_in() {
    // A 4x4 image on 8x8 pixels: pixel centre (x + 0.5) / 8 in texels is
    // (x + 0.5) / 2, texel x / 2.
    for gpu in GPUS {
        let img = draw(
            gpu,
            (8, 8),
            &Sampling {
                texels: &checker_image(),
                descriptor: &|chip, base| texture(chip, base, (4, 4), 64, 1),
                sampler: sampler(A6xxTexFilter::A6XX_TEX_NEAREST, false, 0.0),
                shader: &fs(SAM),
                prefetch: None,
            },
        );
        for y in 0..8 {
            for x in 0..8 {
                assert_eq!(
                    pixel(&img, 8, x, y),
                    checker(x / 2, y / 2),
                    "{gpu}: ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn the_fragment_stage_prefetch_samples_before_the_shader_starts() {
    // The same lookup as an SP_FS_PREFETCH command: the coordinates from
    // varying locations 4 and 5, the result in r2, a shader that only ends.
    let prefetch = PrefetchCmd {
        src: 4,
        samp: 0,
        tex: 0,
        dst: regid(2, 0),
        wrmask: 0xf,
        half: false,
    };
    for gpu in GPUS {
        let img = draw(
            gpu,
            (8, 8),
            &Sampling {
                texels: &checker_image(),
                descriptor: &|chip, base| texture(chip, base, (4, 4), 64, 1),
                sampler: sampler(A6xxTexFilter::A6XX_TEX_NEAREST, false, 0.0),
                shader: "end\n",
                prefetch: Some(prefetch),
            },
        );
        for y in 0..8 {
            for x in 0..8 {
                assert_eq!(
                    pixel(&img, 8, x, y),
                    checker(x / 2, y / 2),
                    "{gpu}: ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn linear_magnification_weighs_the_two_nearest_texel_centres() {
    // A black and a white texel (rows repeated) on 4 pixels: u - 0.5 in
    // texels is -0.25, 0.25, 0.75, 1.25, so white weighs 0 (clamped to
    // the edge), 0.25, 0.75 and 1: 0, 63.75 -> 64, 191.25 -> 191, 255.
    let row = vec![[0, 0, 0, 255], [255, 255, 255, 255]];
    let texels = rows(&[row.clone(), row]);
    for gpu in GPUS {
        let img = draw(
            gpu,
            (4, 2),
            &Sampling {
                texels: &texels,
                descriptor: &|chip, base| texture(chip, base, (2, 2), 64, 1),
                sampler: sampler(A6xxTexFilter::A6XX_TEX_LINEAR, false, 0.0),
                shader: &fs(SAM),
                prefetch: None,
            },
        );
        for y in 0..2 {
            for (x, v) in [0u8, 64, 191, 255].into_iter().enumerate() {
                assert_eq!(
                    pixel(&img, 4, x as u32, y),
                    [v, v, v, 255],
                    "{gpu}: ({x}, {y})"
                );
            }
        }
    }
}

/// An 8x8 image with 4 levels, each one colour, laid out as a linear
/// image's levels are (each level's rows 64 bytes apart, the pitch
/// alignment PITCHALIGN 0 gives; levels one after another: 0, 512, 768,
/// 896), and the colours.
fn mip_image() -> (Vec<u8>, [[u8; 4]; 4]) {
    let colours = [
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 255],
    ];
    let mut bytes = vec![0u8; 1024];
    for (level, (offset, rows)) in [(0, 8), (512, 4), (768, 2), (896, 1)]
        .into_iter()
        .enumerate()
    {
        let width = 8 >> level;
        for r in 0..rows {
            for c in 0..width {
                let at = offset + r * 64 + c * 4;
                bytes[at..at + 4].copy_from_slice(&colours[level]);
            }
        }
    }
    (bytes, colours)
}

#[test]
fn the_quads_scale_factor_selects_the_level() {
    // 8 texels over 8, 4 and 2 pixels: lambda 0, 1 and 2. With biases
    // (samb) and explicit levels (saml) the level moves accordingly.
    let (texels, colours) = mip_image();
    let cases: [(u32, &str, usize); 6] = [
        (8, SAM, 0),
        (4, SAM, 1),
        (2, SAM, 2),
        // Bias 1 in r1.z: lambda 1 + 1.
        (
            4,
            "mov.u32u32 r1.z, 0x3f800000\n    samb (f32)(xyzw)r2.x, r1.x, r1.z, s#0, t#0",
            2,
        ),
        // Level of detail 3, whatever the quad.
        (
            8,
            "mov.u32u32 r1.z, 0x40400000\n    saml (f32)(xyzw)r2.x, r1.x, r1.z, s#0, t#0",
            3,
        ),
        // 2.5 rounds down (nearest mip: ceil(2.5 + 0.5) - 1).
        (
            8,
            "mov.u32u32 r1.z, 0x40200000\n    saml (f32)(xyzw)r2.x, r1.x, r1.z, s#0, t#0",
            2,
        ),
    ];
    for gpu in GPUS {
        for (size, lookup, level) in cases {
            let img = draw(
                gpu,
                (size, size),
                &Sampling {
                    texels: &texels,
                    descriptor: &|chip, base| texture(chip, base, (8, 8), 64, 4),
                    sampler: sampler(A6xxTexFilter::A6XX_TEX_NEAREST, false, 15.0),
                    shader: &fs(lookup),
                    prefetch: None,
                },
            );
            for y in 0..size {
                for x in 0..size {
                    assert_eq!(
                        pixel(&img, size, x, y),
                        colours[level],
                        "{gpu}: {size}x{size} with `{lookup}`: ({x}, {y})"
                    );
                }
            }
        }
    }
}

#[test]
fn linear_mips_blend_two_levels() {
    // Level of detail 0.25 between red level 0 and green level 1:
    // 0.75 * 255 = 191.25 -> 191 red, 63.75 -> 64 green.
    let (texels, _) = mip_image();
    let lookup = "mov.u32u32 r1.z, 0x3e800000\n    saml (f32)(xyzw)r2.x, r1.x, r1.z, s#0, t#0";
    for gpu in GPUS {
        let img = draw(
            gpu,
            (8, 8),
            &Sampling {
                texels: &texels,
                descriptor: &|chip, base| texture(chip, base, (8, 8), 64, 4),
                sampler: sampler(A6xxTexFilter::A6XX_TEX_NEAREST, true, 15.0),
                shader: &fs(lookup),
                prefetch: None,
            },
        );
        assert_eq!(pixel(&img, 8, 3, 5), [191, 64, 0, 255], "{gpu}");
    }
}
