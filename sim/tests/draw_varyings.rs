//! Varyings from the vertex shader to the fragment shader through the VPC:
//! perspective-correct and linear interpolation (expected values from
//! Vulkan's interpolation formulas, computed here in f64 from the pixel
//! centre's screen-space barycentrics), flat shading from the first or
//! the last vertex, and gl_FragCoord.

mod common;

use common::graphics_state::{regid, NONE};
use common::scene::{clip, rgba, unorm8, Scene, Vertex, COLOUR_FS};
use common::GPUS;
use parsnip_registers::enums::PcDiPrimtype;

const SIZE: (u32, u32) = (16, 16);

/// Screen-space barycentrics of pixel centre (px, py) in the triangle
/// `t` (window coordinates), or None outside it.
fn barycentrics(t: [[f64; 2]; 3], px: u32, py: u32) -> Option<[f64; 3]> {
    let (x, y) = (f64::from(px) + 0.5, f64::from(py) + 0.5);
    let area = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
    };
    let total = area(t[0], t[1], t[2]);
    let l0 = area([x, y], t[1], t[2]) / total;
    let l1 = area(t[0], [x, y], t[2]) / total;
    let l2 = area(t[0], t[1], [x, y]) / total;
    // Strictly inside only: the edges are the rasterizer's business.
    (l0 > 1e-9 && l1 > 1e-9 && l2 > 1e-9).then_some([l0, l1, l2])
}

/// A triangle with its corners at window positions `at`, w values `w`,
/// and red, green and blue at its corners.
fn triangle(at: [[f32; 2]; 3], w: [f32; 3]) -> Vec<Vertex> {
    let colours = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
    ];
    (0..3)
        .map(|k| {
            [
                clip(SIZE, at[k][0], at[k][1], 0.5, w[k]),
                colours[k],
                [0.0; 4],
            ]
        })
        .collect()
}

const AT: [[f32; 2]; 3] = [[1.0, 1.0], [15.0, 2.0], [3.0, 15.0]];
const W: [f32; 3] = [1.0, 4.0, 2.0];

/// Checks every pixel strictly inside the triangle against `expected`
/// (channel by channel, one unit of rounding allowed: the model
/// interpolates in f32); returns how many were checked.
fn check(gpu: &str, img: &[u8], expected: impl Fn([f64; 3]) -> [f64; 3]) -> u32 {
    let t = AT.map(|p| p.map(f64::from));
    let mut n = 0;
    for y in 0..SIZE.1 {
        for x in 0..SIZE.0 {
            let Some(l) = barycentrics(t, x, y) else {
                continue;
            };
            let want = expected(l);
            let got = rgba(img, SIZE.0, x, y);
            for c in 0..3 {
                let w = unorm8(want[c] as f32);
                assert!(
                    got[c].abs_diff(w) <= 1,
                    "{gpu}: ({x}, {y}) channel {c}: {} for {w} ({:?})",
                    got[c],
                    want
                );
            }
            n += 1;
        }
    }
    n
}

#[test]
fn smooth_varyings_interpolate_with_perspective() {
    for gpu in GPUS {
        let mut scene = Scene::new(gpu, SIZE, &triangle(AT, W), COLOUR_FS);
        let img = scene.draw(PcDiPrimtype::DI_PT_TRILIST, 3);
        // Each colour channel is one corner's weight: l_k / w_k over the
        // sum of l_i / w_i.
        let n = check(gpu, &img, |l| {
            let d: f64 = (0..3).map(|i| l[i] / f64::from(W[i])).sum();
            [0, 1, 2].map(|k| l[k] / f64::from(W[k]) / d)
        });
        assert!(n > 60, "{gpu}: {n} pixels inside");
    }
}

#[test]
fn noperspective_varyings_interpolate_linearly_in_screen_space() {
    for gpu in GPUS {
        let mut scene = Scene::new(gpu, SIZE, &triangle(AT, W), COLOUR_FS);
        // The linear ij pair where the shader reads its weights.
        scene.pipeline.ij_persp_pixel = NONE;
        scene.pipeline.ij_linear_pixel = regid(0, 0);
        let img = scene.draw(PcDiPrimtype::DI_PT_TRILIST, 3);
        let n = check(gpu, &img, |l| l);
        assert!(n > 60, "{gpu}: {n} pixels inside");
    }
}

#[test]
fn flat_varyings_take_the_provoking_vertex() {
    // flat.b reads the provoking vertex's value as it is, with the
    // locations' interpolation mode flat (VPC_VARYING_INTERP_MODE 1 per
    // location, two bits each).
    const FLAT_FS: &str = "
        (rpt3)flat.b r1.x, (r)4, (r)4
        end
    ";
    for gpu in GPUS {
        for (last, colour) in [(false, [255, 0, 0, 255]), (true, [0, 0, 255, 255])] {
            let mut scene = Scene::new(gpu, SIZE, &triangle(AT, W), FLAT_FS);
            scene.pipeline.interp[0] = 0x55 << 8;
            scene.pipeline.provoking_last = last;
            let img = scene.draw(PcDiPrimtype::DI_PT_TRILIST, 3);
            assert_eq!(rgba(&img, SIZE.0, 5, 5), colour, "{gpu}: last {last}");
            assert_eq!(rgba(&img, SIZE.0, 0, 15), [0; 4], "{gpu}: outside");
        }
    }
}

#[test]
fn frag_coord_is_the_pixel_centre_in_sixteenths() {
    // gl_FragCoord.xy arrives as integers in 1/16 pixel (HLSQ_CONTROL_4's
    // XYCOORDREGID; ir3 converts with cov.u32f32 and a multiply by 1/16):
    // the shader writes x*16 and y*16 to red and green as UNORM8 of
    // value/255, so pixel (x, y) reads 16x + 8 and 16y + 8.
    const COORD_FS: &str = "
        cov.u32f32 r1.x, r2.x
        cov.u32f32 r1.y, r2.y
        mov.u32u32 r3.x, 0x3b808081
        mul.f r1.x, r1.x, r3.x
        mul.f r1.y, r1.y, r3.x
        mov.u32u32 r1.z, 0
        mov.u32u32 r1.w, 0x3f800000
        end
    ";
    let quad: Vec<Vertex> = [[0.0, 0.0], [16.0, 0.0], [0.0, 16.0]]
        .iter()
        .map(|p| [clip(SIZE, p[0], p[1], 0.5, 1.0), [0.0; 4], [0.0; 4]])
        .collect();
    for gpu in GPUS {
        let mut scene = Scene::new(gpu, SIZE, &quad, COORD_FS);
        scene.pipeline.xy = regid(2, 0);
        let img = scene.draw(PcDiPrimtype::DI_PT_TRILIST, 3);
        for (x, y) in [(0, 0), (3, 7), (10, 2)] {
            assert_eq!(
                &rgba(&img, SIZE.0, x, y)[..2],
                &[(16 * x + 8) as u8, (16 * y + 8) as u8],
                "{gpu}: ({x}, {y})"
            );
        }
    }
}
