//! Triangles through the whole pipeline, from a hand-written command stream
//! and hand-assembled shaders into a linear RGBA8 target: which pixels
//! they cover (checked against Vulkan's polygon rasterization rule worked
//! out here, in floating point), culling and front faces, and colours
//! interpolated from the vertices.

mod common;

use common::draw_rig::DrawRig;
use common::graphics_state::{draw_auto, program, xy_pipeline, Setup, FLAT_FS, XY_VS};
use common::GPUS;
use parsnip_registers::enums::PcDiPrimtype;

const W: u32 = 16;
const H: u32 = 16;

/// Window coordinates to normalized device ones for a W x H viewport.
fn ndc(x: f32, y: f32) -> [f32; 2] {
    [x / (W as f32 / 2.0) - 1.0, y / (H as f32 / 2.0) - 1.0]
}

/// Vulkan's rule, worked out independently: a pixel centre is covered
/// when it is inside all three edges, or on an edge that is a top edge (a
/// horizontal edge above the inside) or a left edge (the inside to its
/// right), in framebuffer coordinates with y down.
fn covered(tri: [[f64; 2]; 3], px: u32, py: u32) -> bool {
    let (x, y) = (f64::from(px) + 0.5, f64::from(py) + 0.5);
    let area = (tri[1][0] - tri[0][0]) * (tri[2][1] - tri[0][1])
        - (tri[2][0] - tri[0][0]) * (tri[1][1] - tri[0][1]);
    if area == 0.0 {
        return false;
    }
    (0..3).all(|k| {
        let (mut a, mut b) = (tri[k], tri[(k + 1) % 3]);
        if area < 0.0 {
            std::mem::swap(&mut a, &mut b);
        }
        // Positive on the inside for this orientation.
        let e = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        // Moving along the edge in +x with the inside below it: a top edge;
        // moving in -y with the inside to the right: a left edge.
        let top_left = (dy == 0.0 && dx > 0.0) || dy < 0.0;
        e > 0.0 || (e == 0.0 && top_left)
    })
}

struct Scene {
    rig: DrawRig,
    target: u64,
    pipeline: Setup,
}

fn scene(gpu: &str, triangles: &[[[f32; 2]; 3]], fs: &str) -> Scene {
    let mut rig = DrawRig::new(gpu);
    let mut verts = Vec::new();
    for t in triangles {
        for v in t {
            verts.extend_from_slice(&ndc(v[0], v[1]));
        }
    }
    let vb = rig.floats(&verts);
    let vs = rig.program(XY_VS);
    let fs = rig.program(fs);
    let target = rig.buffer(&vec![0u8; (W * H * 4) as usize]);
    let pipeline = xy_pipeline(vs, fs, vb, verts.len() as u32 * 4, target, W, H);
    Scene {
        rig,
        target,
        pipeline,
    }
}

impl Scene {
    fn draw(&mut self, count: u32) -> Vec<u8> {
        let mut s = self.rig.stream();
        program(&mut s, &self.pipeline);
        draw_auto(&mut s, PcDiPrimtype::DI_PT_TRILIST, count, 1);
        self.rig.run(&s).unwrap_or_else(|e| panic!("{e}"));
        self.rig.read(self.target, (W * H * 4) as usize)
    }
}

fn pixel(img: &[u8], x: u32, y: u32) -> [u8; 4] {
    let i = ((y * W + x) * 4) as usize;
    img[i..i + 4].try_into().unwrap()
}

#[test]
fn triangles_cover_the_pixel_centres_of_the_top_left_rule() {
    // Two triangles sharing a diagonal, one with vertices off the grid and
    // edges through pixel centres, and a thin sliver.
    let tris: [[[f32; 2]; 3]; 4] = [
        [[2.0, 2.0], [10.0, 2.0], [10.0, 10.0]],
        [[2.0, 2.0], [10.0, 10.0], [2.0, 10.0]],
        [[11.5, 0.5], [15.5, 4.5], [11.5, 8.5]],
        [[0.25, 12.0], [15.75, 12.5], [0.25, 13.125]],
    ];
    for gpu in GPUS {
        let mut sc = scene(gpu, &tris, FLAT_FS);
        let img = sc.draw(3 * tris.len() as u32);
        let mut count = 0;
        for y in 0..H {
            for x in 0..W {
                let hits = tris
                    .iter()
                    .filter(|t| covered(t.map(|v| v.map(f64::from)), x, y))
                    .count();
                assert!(hits <= 1, "these triangles do not overlap");
                let want = if hits == 1 {
                    [255, 128, 64, 255]
                } else {
                    [0; 4]
                };
                assert_eq!(pixel(&img, x, y), want, "{gpu}: pixel ({x}, {y})");
                count += hits;
            }
        }
        // 8x8 square, the diamond's 2*(1+3)+... centres, the sliver's row.
        println!("{gpu}: {count} pixels covered, all as the top-left rule says");
        assert_eq!(count, 64 + 16 + 16);
    }
}
