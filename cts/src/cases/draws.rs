//! Draws through graphics pipelines in a render pass. Each case checks
//! what it draws at probe pixels worked out here (the rasterisation rule
//! and barycentric interpolation, by hand, away from edges), and keeps the
//! whole image as an approximate output: edges may differ between
//! implementations within the specification's limits, and the tests
//! compare the images across drivers (interior exact, a few edge pixels
//! apart).

use super::render_passes::{color, depth, prepared_of_size, read_back};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{GraphicsDesc, Harness, PassAttachment, VertexBinding};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.triangle",
        run: triangle,
    },
    Case {
        name: "draws.indexed_instanced",
        run: indexed_instanced,
    },
    Case {
        name: "draws.depth_test",
        run: depth_test,
    },
];

/// Turnip's triangle scene (apps/triangle.c): 64x64 RGBA8.
const SIZE: (u32, u32) = (64, 64);
const RGBA8: vk::Format = vk::Format::R8G8B8A8_UNORM;
const COLOR_LAYOUT: vk::ImageLayout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
const DEPTH_LAYOUT: vk::ImageLayout = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
/// triangle.c's clear colour.
const CLEAR: [f32; 4] = [0.1, 0.2, 0.3, 1.0];

fn full() -> vk::Rect2D {
    vk::Rect2D {
        offset: vk::Offset2D { x: 0, y: 0 },
        extent: vk::Extent2D {
            width: SIZE.0,
            height: SIZE.1,
        },
    }
}

/// A float colour as UNORM8 stores it (round to nearest; a value exactly
/// between two codes may go either way, which the probes' tolerance of 1
/// covers).
fn unorm8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// Window position of an NDC point on the 64x64 viewport.
fn window(ndc: [f32; 2]) -> [f32; 2] {
    [
        (ndc[0] + 1.0) * SIZE.0 as f32 / 2.0,
        (ndc[1] + 1.0) * SIZE.1 as f32 / 2.0,
    ]
}

/// The barycentric weights of pixel (x, y)'s centre in triangle `t`
/// (window coordinates); all positive inside.
fn barycentric(t: [[f32; 2]; 3], x: u32, y: u32) -> [f32; 3] {
    let p = [x as f32 + 0.5, y as f32 + 0.5];
    let area = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
        (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
    };
    let whole = area(t[0], t[1], t[2]);
    [
        area(p, t[1], t[2]) / whole,
        area(t[0], p, t[2]) / whole,
        area(t[0], t[1], p) / whole,
    ]
}

/// Pixel (x, y) of a tightly packed RGBA8 image.
fn pixel(img: &[u8], x: u32, y: u32) -> [u8; 4] {
    let i = ((y * SIZE.0 + x) * 4) as usize;
    img.get(i..i + 4)
        .map_or([0; 4], |p| p.try_into().expect("four bytes"))
}

/// Checks pixel (x, y) is `want` within 1 in each channel.
fn probe(result: &mut CaseResult, img: &[u8], x: u32, y: u32, want: [u8; 4]) {
    let got = pixel(img, x, y);
    let close = got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 1);
    result.require(
        close,
        format!("pixel ({x}, {y}) is {got:?}, expected {want:?} within 1"),
    );
}

/// A colour pass over a cleared 64x64 RGBA8 image (and a D16 depth
/// attachment cleared to 1.0 if `with_depth`).
struct Target {
    pass: vk::RenderPass,
    fb: vk::Framebuffer,
    attachments: Vec<PassAttachment>,
}

fn target(h: &mut Harness, with_depth: bool) -> Result<Target, Stop> {
    let c = prepared_of_size(h, RGBA8, SIZE, color([0.0; 4]), COLOR_LAYOUT)?;
    let mut attachments = vec![PassAttachment {
        image: c,
        load: vk::AttachmentLoadOp::CLEAR,
        layout: COLOR_LAYOUT,
    }];
    if with_depth {
        let d = prepared_of_size(h, vk::Format::D16_UNORM, SIZE, depth(0.0), DEPTH_LAYOUT)?;
        attachments.push(PassAttachment {
            image: d,
            load: vk::AttachmentLoadOp::CLEAR,
            layout: DEPTH_LAYOUT,
        });
    }
    let depth_index = with_depth.then_some(1);
    let pass = h.render_pass(&attachments, &[&[0]], &[depth_index], false)?;
    let fb = h.framebuffer(pass, &attachments)?;
    Ok(Target {
        pass,
        fb,
        attachments,
    })
}

/// Turnip's triangle: a red, green and blue vertex from gl_VertexIndex,
/// over triangle.c's clear colour.
fn triangle(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, false)?;
    let desc = GraphicsDesc::new(&shaders::TRIANGLE_VERT, &shaders::COLOUR_FRAG, t.pass, SIZE);
    let pipeline = h.graphics_pipeline(&desc)?;
    h.run(|r| {
        r.begin_pass(t.pass, t.fb, full(), &[color(CLEAR)]);
        r.bind_graphics(pipeline);
        r.draw(3, 1, 0, 0);
        r.end_pass();
    })?;
    let img = read_back(h, &t.attachments[0].image, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    // tri.vert's vertices, in window coordinates: (32, 8), (56, 56), (8, 56).
    let tri = [[0.0, -0.75], [0.75, 0.75], [-0.75, 0.75]].map(window);
    let colours = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for (x, y) in [(32, 40), (32, 20), (20, 50), (45, 50), (32, 16)] {
        let w = barycentric(tri, x, y);
        assert!(w.iter().all(|&k| k > 0.05), "({x}, {y}) is inside");
        let c = |k: usize| (0..3).map(|v| w[v] * colours[v][k]).sum::<f32>();
        probe(&mut result, &img, x, y, unorm8([c(0), c(1), c(2), 1.0]));
    }
    for (x, y) in [(0, 0), (63, 63), (0, 63), (63, 0), (10, 10), (55, 20)] {
        probe(&mut result, &img, x, y, unorm8(CLEAR));
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// attributes.vert's vertex input: a position (x, y, z) and a colour
/// (r, g, b, a) per vertex, 28 bytes apart; an offset (x, y) per instance.
const ATTRIBUTES: [VertexBinding; 2] = [
    VertexBinding {
        stride: 28,
        per_instance: false,
        attributes: &[
            (0, vk::Format::R32G32B32_SFLOAT, 0),
            (1, vk::Format::R32G32B32A32_SFLOAT, 12),
        ],
    },
    VertexBinding {
        stride: 8,
        per_instance: true,
        attributes: &[(2, vk::Format::R32G32_SFLOAT, 0)],
    },
];

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// A quad of two indexed triangles (16-bit indices, a vertex offset of
/// 1 over a leading unused vertex), drawn twice as two instances whose
/// per-instance attribute moves each copy.
fn indexed_instanced(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, false)?;
    // Position (x, y, z) and colour per vertex; vertex 0 is never used.
    let (a, b) = (-0.75f32, -0.25f32);
    #[rustfmt::skip]
    let vertices = floats(&[
        9.0, 9.0, 0.0, 1.0, 1.0, 1.0, 1.0,
        a, a, 0.5, 1.0, 0.0, 0.0, 1.0,
        b, a, 0.5, 1.0, 0.0, 0.0, 1.0,
        b, b, 0.5, 1.0, 0.0, 0.0, 1.0,
        a, b, 0.5, 1.0, 0.0, 0.0, 1.0,
    ]);
    // Per instance: no offset, then (1, 1) (to the bottom right quarter).
    let offsets = floats(&[0.0, 0.0, 1.0, 1.0]);
    let indices: Vec<u8> = [0u16, 1, 2, 0, 2, 3]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &vertices)?;
    let ib = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &offsets)?;
    let idx = h.host_buffer_with(vk::BufferUsageFlags::INDEX_BUFFER, &indices)?;
    let mut desc = GraphicsDesc::new(
        &shaders::ATTRIBUTES_VERT,
        &shaders::COLOUR_FRAG,
        t.pass,
        SIZE,
    );
    desc.bindings = &ATTRIBUTES;
    let pipeline = h.graphics_pipeline(&desc)?;
    h.run(|r| {
        r.begin_pass(t.pass, t.fb, full(), &[color(CLEAR)]);
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&vb, &ib]);
        r.bind_index_buffer(&idx, 0, vk::IndexType::UINT16);
        r.draw_indexed(6, 2, 0, 1);
        r.end_pass();
    })?;
    let img = read_back(h, &t.attachments[0].image, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    // The quad covers window x, y in [8, 24); the second copy [40, 56).
    let red = unorm8([1.0, 0.0, 0.0, 1.0]);
    for (x, y) in [(8, 8), (23, 23), (15, 9), (40, 40), (55, 55), (47, 41)] {
        probe(&mut result, &img, x, y, red);
    }
    for (x, y) in [
        (7, 7),
        (24, 24),
        (40, 8),
        (8, 40),
        (39, 39),
        (56, 56),
        (30, 30),
    ] {
        probe(&mut result, &img, x, y, unorm8(CLEAR));
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Two overlapping rectangles with a depth test (LESS, D16 cleared to
/// 1.0): the nearer is drawn second at the left and first at the right,
/// and wins in both.
fn depth_test(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, true)?;
    let rect = |x0: f32, x1: f32, z: f32, c: [f32; 3]| {
        let v = |x: f32, y: f32| [x, y, z, c[0], c[1], c[2], 1.0];
        [
            v(x0, -0.5),
            v(x1, -0.5),
            v(x1, 0.5),
            v(x0, -0.5),
            v(x1, 0.5),
            v(x0, 0.5),
        ]
    };
    let (near, far) = (0.25, 0.75);
    let green = [0.0, 1.0, 0.0];
    let blue = [0.0, 0.0, 1.0];
    let mut v = Vec::new();
    // Drawn in order: far blue over [-0.75, 0.25], near green over
    // [-0.25, 0.75] ... then far blue again over [0.25, 0.75] after green.
    for r in [
        rect(-0.75, 0.25, far, blue),
        rect(-0.25, 0.75, near, green),
        rect(0.25, 0.75, far, blue),
    ] {
        for vertex in r {
            v.extend(vertex);
        }
    }
    let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&v))?;
    let offsets = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&[0.0; 2]))?;
    let mut desc = GraphicsDesc::new(
        &shaders::ATTRIBUTES_VERT,
        &shaders::COLOUR_FRAG,
        t.pass,
        SIZE,
    );
    desc.bindings = &ATTRIBUTES;
    desc.depth = Some(vk::CompareOp::LESS);
    let pipeline = h.graphics_pipeline(&desc)?;
    h.run(|r| {
        r.begin_pass(t.pass, t.fb, full(), &[color(CLEAR), depth(1.0)]);
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&vb, &offsets]);
        r.draw(18, 1, 0, 0);
        r.end_pass();
    })?;
    let img = read_back(h, &t.attachments[0].image, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    // Window x: blue [8, 40), green [24, 56); y [16, 48).
    let (g8, b8) = (unorm8([0.0, 1.0, 0.0, 1.0]), unorm8([0.0, 0.0, 1.0, 1.0]));
    for (x, y, want) in [
        (10, 20, b8),
        (30, 30, g8),
        (45, 40, g8),
        (54, 46, g8),
        (20, 47, b8),
        (4, 30, unorm8(CLEAR)),
        (30, 10, unorm8(CLEAR)),
        (60, 30, unorm8(CLEAR)),
    ] {
        probe(&mut result, &img, x, y, want);
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}
