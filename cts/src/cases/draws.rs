//! Draws through graphics pipelines in a render pass. Each case checks
//! what it draws at probe pixels worked out here (the rasterisation rule
//! and barycentric interpolation, by hand, away from edges), and keeps the
//! whole image as an approximate output: edges may differ between
//! implementations within the specification's limits, and the tests
//! compare the images across drivers (interior exact, a few edge pixels
//! apart).

pub(crate) use super::render_passes::read_back_layers;
use super::render_passes::{color, depth, prepared_of_size, read_back};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{GraphicsDesc, Harness, PassAttachment, VertexBinding};
use crate::shaders;
use ash::vk;

pub mod dynamic_rendering;
pub mod imageless_framebuffer;
pub mod indirect_count;
pub mod multiview;
pub mod separate_depth_stencil_layouts;
pub mod terminate_and_demote;

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
    Case {
        name: "draws.viewport_and_scissor",
        run: viewport_and_scissor,
    },
    Case {
        name: "draws.blending",
        run: blending,
    },
    Case {
        name: "draws.cull_back_faces",
        run: |h| culling(h, vk::FrontFace::COUNTER_CLOCKWISE),
    },
    Case {
        name: "draws.cull_back_faces_clockwise",
        run: |h| culling(h, vk::FrontFace::CLOCKWISE),
    },
    Case {
        name: "draws.triangle_strip",
        run: triangle_strip,
    },
    Case {
        name: "draws.indexed_32_first_index",
        run: indexed_32,
    },
    Case {
        name: "draws.first_vertex_and_two_pipelines",
        run: first_vertex_and_two_pipelines,
    },
    Case {
        name: "draws.colour_write_mask",
        run: colour_write_mask,
    },
    Case {
        name: "draws.indirect",
        run: indirect,
    },
    Case {
        name: "draws.multi_draw_indirect",
        run: multi_draw_indirect,
    },
    Case {
        name: "draws.push_constants_and_instance_index",
        run: push_constants_and_instance_index,
    },
];

/// Turnip's triangle scene (apps/triangle.c): 64x64 RGBA8.
pub(crate) const SIZE: (u32, u32) = (64, 64);
pub(crate) const RGBA8: vk::Format = vk::Format::R8G8B8A8_UNORM;
pub(crate) const COLOR_LAYOUT: vk::ImageLayout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
pub(crate) const DEPTH_LAYOUT: vk::ImageLayout = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
/// triangle.c's clear colour.
pub(crate) const CLEAR: [f32; 4] = [0.1, 0.2, 0.3, 1.0];

pub(crate) fn full() -> vk::Rect2D {
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
pub(crate) fn unorm8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// Window position of an NDC point on the 64x64 viewport.
pub(crate) fn window(ndc: [f32; 2]) -> [f32; 2] {
    [
        (ndc[0] + 1.0) * SIZE.0 as f32 / 2.0,
        (ndc[1] + 1.0) * SIZE.1 as f32 / 2.0,
    ]
}

/// The barycentric weights of pixel (x, y)'s centre in triangle `t`
/// (window coordinates); all positive inside.
pub(crate) fn barycentric(t: [[f32; 2]; 3], x: u32, y: u32) -> [f32; 3] {
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
pub(crate) fn pixel(img: &[u8], x: u32, y: u32) -> [u8; 4] {
    let i = ((y * SIZE.0 + x) * 4) as usize;
    img.get(i..i + 4)
        .map_or([0; 4], |p| p.try_into().expect("four bytes"))
}

/// Checks pixel (x, y) is `want` within 1 in each channel.
pub(crate) fn probe(result: &mut CaseResult, img: &[u8], x: u32, y: u32, want: [u8; 4]) {
    let got = pixel(img, x, y);
    let close = got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 1);
    result.require(
        close,
        format!("pixel ({x}, {y}) is {got:?}, expected {want:?} within 1"),
    );
}

/// A colour pass over a cleared 64x64 RGBA8 image (and a D16 depth
/// attachment cleared to 1.0 if `with_depth`).
pub(crate) struct Target {
    pub(crate) pass: vk::RenderPass,
    pub(crate) fb: vk::Framebuffer,
    pub(crate) attachments: Vec<PassAttachment>,
}

pub(crate) fn target(h: &mut Harness, with_depth: bool) -> Result<Target, Stop> {
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

/// Draws three vertices with the pipeline `desc` makes over `t` cleared to
/// `clear`, and reads the colour target back.
pub(crate) fn draw_three_vertices(
    h: &mut Harness,
    t: &Target,
    desc: &GraphicsDesc<'_>,
    clear: [f32; 4],
) -> Result<Vec<u8>, Stop> {
    let pipeline = h.graphics_pipeline(desc)?;
    h.run(|r| {
        r.begin_pass(t.pass, t.fb, full(), &[color(clear)]);
        r.bind_graphics(pipeline);
        r.draw(3, 1, 0, 0);
        r.end_pass();
    })?;
    read_back(h, &t.attachments[0].image, COLOR_LAYOUT, 4)
}

/// Turnip's triangle: a red, green and blue vertex from gl_VertexIndex,
/// over triangle.c's clear colour.
fn triangle(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, false)?;
    let desc = GraphicsDesc::new(&shaders::TRIANGLE_VERT, &shaders::COLOUR_FRAG, t.pass, SIZE);
    let img = draw_three_vertices(h, &t, &desc, CLEAR)?;
    let mut result = CaseResult::new();
    probe_triangle(&mut result, &img);
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Probes Turnip's triangle drawn over triangle.c's clear colour: the
/// interpolated colour inside, the clear colour outside.
pub(crate) fn probe_triangle(result: &mut CaseResult, img: &[u8]) {
    // tri.vert's vertices, in window coordinates: (32, 8), (56, 56), (8, 56).
    let tri = [[0.0, -0.75], [0.75, 0.75], [-0.75, 0.75]].map(window);
    let colours = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for (x, y) in [(32, 40), (32, 20), (20, 50), (45, 50), (32, 16)] {
        let w = barycentric(tri, x, y);
        assert!(w.iter().all(|&k| k > 0.05), "({x}, {y}) is inside");
        let c = |k: usize| (0..3).map(|v| w[v] * colours[v][k]).sum::<f32>();
        probe(result, img, x, y, unorm8([c(0), c(1), c(2), 1.0]));
    }
    for (x, y) in [(0, 0), (63, 63), (0, 63), (63, 0), (10, 10), (55, 20)] {
        probe(result, img, x, y, unorm8(CLEAR));
    }
}

/// attributes.vert's vertex input: a position (x, y, z) and a colour
/// (r, g, b, a) per vertex, 28 bytes apart; an offset (x, y) per instance.
pub(crate) const ATTRIBUTES: [VertexBinding; 2] = [
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

pub(crate) fn floats(v: &[f32]) -> Vec<u8> {
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
    let scene = Scene::new(h, &v, true)?;
    let mut desc = scene.desc();
    desc.depth = Some(vk::CompareOp::LESS);
    let pipeline = h.graphics_pipeline(&desc)?;
    let img = scene.draw(h, pipeline, |r| r.draw(18, 1, 0, 0))?;
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

/// An axis-aligned rectangle of NDC x in [x0, x1), y in [y0, y1) at depth
/// `z` in colour `c`, as two counter-clockwise (in framebuffer
/// coordinates, y down) triangles of attributes.vert's vertices.
pub(crate) fn quad(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, c: [f32; 3]) -> Vec<f32> {
    let v = |x: f32, y: f32| [x, y, z, c[0], c[1], c[2], 1.0];
    [
        v(x0, y0),
        v(x0, y1),
        v(x1, y1),
        v(x0, y0),
        v(x1, y1),
        v(x1, y0),
    ]
    .concat()
}

/// attributes.vert's scene: the 64x64 target (with a D16 depth
/// attachment if asked), a vertex buffer of `vertices` and the offset
/// buffer of one instance at no offset.
pub(crate) struct Scene {
    pub(crate) t: Target,
    pub(crate) vb: crate::harness::Buffer,
    pub(crate) offsets: crate::harness::Buffer,
}

impl Scene {
    pub(crate) fn new(h: &mut Harness, vertices: &[f32], with_depth: bool) -> Result<Scene, Stop> {
        let t = target(h, with_depth)?;
        let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(vertices))?;
        let offsets =
            h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&[0.0; 2]))?;
        Ok(Scene { t, vb, offsets })
    }

    /// attributes.vert and colour.frag into the scene's pass.
    pub(crate) fn desc(&self) -> GraphicsDesc<'static> {
        let mut desc = GraphicsDesc::new(
            &shaders::ATTRIBUTES_VERT,
            &shaders::COLOUR_FRAG,
            self.t.pass,
            SIZE,
        );
        desc.bindings = &ATTRIBUTES;
        desc
    }

    /// Records `body` in the scene's pass (cleared to CLEAR, depth 1.0)
    /// after binding `pipeline` and the vertex buffers; returns the image.
    pub(crate) fn draw(
        &self,
        h: &mut Harness,
        pipeline: vk::Pipeline,
        body: impl FnOnce(&crate::harness::Recorder<'_>),
    ) -> Result<Vec<u8>, Stop> {
        let clears = [color(CLEAR), depth(1.0)];
        let n = self.t.attachments.len();
        h.run(|r| {
            r.begin_pass(self.t.pass, self.t.fb, full(), &clears[..n]);
            r.bind_graphics(pipeline);
            r.bind_vertex_buffers(&[&self.vb, &self.offsets]);
            body(r);
            r.end_pass();
        })?;
        read_back(h, &self.t.attachments[0].image, COLOR_LAYOUT, 4)
    }
}

/// Draws `count` of `vertices` with the pipeline `edit` makes of the
/// scene's description, after `before` (dynamic state); returns the image.
pub(crate) fn draw_attributes(
    h: &mut Harness,
    vertices: &[f32],
    edit: impl FnOnce(&mut GraphicsDesc<'_>),
    before: impl FnOnce(&crate::harness::Recorder<'_>),
    count: u32,
) -> Result<Vec<u8>, Stop> {
    let scene = Scene::new(h, vertices, false)?;
    let mut desc = scene.desc();
    edit(&mut desc);
    let pipeline = h.graphics_pipeline(&desc)?;
    scene.draw(h, pipeline, |r| {
        before(r);
        r.draw(count, 1, 0, 0);
    })
}

pub(crate) const RED: [f32; 3] = [1.0, 0.0, 0.0];
pub(crate) const GREEN: [f32; 3] = [0.0, 1.0, 0.0];
pub(crate) const BLUE: [f32; 3] = [0.0, 0.0, 1.0];

pub(crate) fn opaque(c: [f32; 3]) -> [u8; 4] {
    unorm8([c[0], c[1], c[2], 1.0])
}

/// A full-screen red quad through a dynamic viewport of the top-right
/// quarter (x from 32, y 0 to 32) and a scissor of x 40 to 56, y 8 to 48:
/// red only where both allow, x 40 to 56, y 8 to 32.
fn viewport_and_scissor(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = quad(-1.0, -1.0, 1.0, 1.0, 0.5, RED);
    let img = draw_attributes(
        h,
        &v,
        |d| d.dynamic_viewport = true,
        |r| {
            r.set_viewport(vk::Viewport {
                x: 32.0,
                y: 0.0,
                width: 32.0,
                height: 32.0,
                min_depth: 0.0,
                max_depth: 1.0,
            });
            r.set_scissor(vk::Rect2D {
                offset: vk::Offset2D { x: 40, y: 8 },
                extent: vk::Extent2D {
                    width: 16,
                    height: 40,
                },
            });
        },
        6,
    )?;
    let mut result = CaseResult::new();
    for (x, y) in [(40, 8), (55, 31), (48, 20)] {
        probe(&mut result, &img, x, y, opaque(RED));
    }
    for (x, y) in [
        (39, 8),
        (56, 20),
        (48, 32),
        (48, 7),
        (10, 10),
        (33, 1),
        (48, 47),
    ] {
        probe(&mut result, &img, x, y, unorm8(CLEAR));
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A green quad at alpha 0.5 over the clear colour, blended
/// src * alpha + dst * (1 - alpha) (alpha too): half of each, alpha 0.75.
fn blending(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = quad(-0.5, -0.5, 0.5, 0.5, 0.5, GREEN);
    let scene = Scene::new(h, &v, false)?;
    let mut desc = scene.desc();
    desc.fs = &shaders::TRANSLUCENT_FRAG;
    desc.blend = Some(
        vk::PipelineColorBlendAttachmentState::default()
            .blend_enable(true)
            .src_color_blend_factor(vk::BlendFactor::SRC_ALPHA)
            .dst_color_blend_factor(vk::BlendFactor::ONE_MINUS_SRC_ALPHA)
            .color_blend_op(vk::BlendOp::ADD)
            .src_alpha_blend_factor(vk::BlendFactor::SRC_ALPHA)
            .dst_alpha_blend_factor(vk::BlendFactor::ONE_MINUS_SRC_ALPHA)
            .alpha_blend_op(vk::BlendOp::ADD)
            .color_write_mask(vk::ColorComponentFlags::RGBA),
    );
    let pipeline = h.graphics_pipeline(&desc)?;
    let img = scene.draw(h, pipeline, |r| r.draw(6, 1, 0, 0))?;
    let mut result = CaseResult::new();
    // The destination is what the clear stored (0.1 and 0.3 lie between
    // two UNORM8 codes): read it outside the quad.
    let dst = pixel(&img, 0, 0).map(|b| f32::from(b) / 255.0);
    let src = [0.0, 1.0, 0.0, 0.5];
    let want = [0, 1, 2, 3].map(|k| src[k] * 0.5 + dst[k] * 0.5);
    for (x, y) in [(16, 16), (47, 47), (32, 32)] {
        probe(&mut result, &img, x, y, unorm8(want));
    }
    probe(&mut result, &img, 15, 15, unorm8(CLEAR));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Back faces culled: a red quad wound counter-clockwise on the left and
/// a blue one wound clockwise on the right (in framebuffer coordinates);
/// with `front` counter-clockwise the red is drawn, clockwise the blue.
fn culling(h: &mut Harness, front: vk::FrontFace) -> Result<CaseResult, Stop> {
    let mut v = quad(-0.75, -0.5, -0.25, 0.5, 0.5, RED);
    // The same shape reflected in x, moved right: its winding reversed.
    let mut right = quad(-0.75, -0.5, -0.25, 0.5, 0.5, BLUE);
    for vertex in right.chunks_mut(7) {
        vertex[0] = -vertex[0];
    }
    v.extend(right);
    let img = draw_attributes(
        h,
        &v,
        |d| {
            d.cull = vk::CullModeFlags::BACK;
            d.front_face = front;
        },
        |_| {},
        12,
    )?;
    let ccw = front == vk::FrontFace::COUNTER_CLOCKWISE;
    let (left, right) = if ccw {
        (opaque(RED), unorm8(CLEAR))
    } else {
        (unorm8(CLEAR), opaque(BLUE))
    };
    let mut result = CaseResult::new();
    // Left quad x 8 to 24, right 40 to 56; y 16 to 48.
    for (x, y) in [(8, 16), (23, 47), (16, 30)] {
        probe(&mut result, &img, x, y, left);
        probe(&mut result, &img, x + 32, y, right);
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A quad as a four-vertex triangle strip, colours per corner: its
/// centre is their average.
fn triangle_strip(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = |x: f32, y: f32, c: [f32; 3]| [x, y, 0.5, c[0], c[1], c[2], 1.0];
    let white = [1.0, 1.0, 1.0];
    let vertices = [
        v(-0.5, -0.5, RED),
        v(-0.5, 0.5, GREEN),
        v(0.5, -0.5, BLUE),
        v(0.5, 0.5, white),
    ]
    .concat();
    let img = draw_attributes(
        h,
        &vertices,
        |d| d.topology = vk::PrimitiveTopology::TRIANGLE_STRIP,
        |_| {},
        4,
    )?;
    let mut result = CaseResult::new();
    // Window (16, 16) to (48, 48). Pixel (17, 46): in the first triangle
    // (red (16, 16), green (16, 48), blue (48, 16)), by its barycentrics.
    let tri = [[16.0, 16.0], [16.0, 48.0], [48.0, 16.0]];
    let w = barycentric(tri, 17, 46);
    let c = |k: usize| w[0] * RED[k] + w[1] * GREEN[k] + w[2] * BLUE[k];
    probe(&mut result, &img, 17, 46, unorm8([c(0), c(1), c(2), 1.0]));
    // Pixel (46, 46), in the second (green, blue, white).
    let tri = [[16.0, 48.0], [48.0, 16.0], [48.0, 48.0]];
    let w = barycentric(tri, 46, 46);
    let c = |k: usize| w[0] * GREEN[k] + w[1] * BLUE[k] + w[2] * white[k];
    probe(&mut result, &img, 46, 46, unorm8([c(0), c(1), c(2), 1.0]));
    probe(&mut result, &img, 15, 30, unorm8(CLEAR));
    probe(&mut result, &img, 48, 30, unorm8(CLEAR));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// 32-bit indices from index 2 of the buffer (the first two are never
/// read), at an offset of 8 bytes into it.
fn indexed_32(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = quad(-0.5, -0.25, 0.25, 0.75, 0.5, BLUE);
    // Vertices 0..6 in reverse, behind two junk indices and 8 bytes.
    let indices: Vec<u8> = [7u32, 7, 99, 99, 5, 4, 3, 2, 1, 0]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let scene = Scene::new(h, &v, false)?;
    let idx = h.host_buffer_with(vk::BufferUsageFlags::INDEX_BUFFER, &indices)?;
    let pipeline = h.graphics_pipeline(&scene.desc())?;
    let img = scene.draw(h, pipeline, |r| {
        r.bind_index_buffer(&idx, 8, vk::IndexType::UINT32);
        r.draw_indexed(6, 1, 2, 0);
    })?;
    let mut result = CaseResult::new();
    // Window x 16 to 40, y 24 to 56.
    for (x, y) in [(16, 24), (39, 55), (28, 40)] {
        probe(&mut result, &img, x, y, opaque(BLUE));
    }
    for (x, y) in [(15, 24), (40, 40), (28, 23), (28, 56)] {
        probe(&mut result, &img, x, y, unorm8(CLEAR));
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Two draws in one pass from one vertex buffer, with different
/// pipelines: a red quad from vertex 0 with the opaque pipeline, then a
/// green one from vertex 6 (firstVertex) culling front faces, which
/// draws nothing of it, then the same green quad from vertex 6 with the
/// first pipeline again.
fn first_vertex_and_two_pipelines(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut v = quad(-0.75, -0.75, -0.25, -0.25, 0.5, RED);
    v.extend(quad(0.25, 0.25, 0.75, 0.75, 0.5, GREEN));
    v.extend(quad(-0.75, 0.25, -0.25, 0.75, 0.5, BLUE));
    let scene = Scene::new(h, &v, false)?;
    let mut desc = scene.desc();
    let plain = h.graphics_pipeline(&desc)?;
    desc.cull = vk::CullModeFlags::FRONT;
    let culling = h.graphics_pipeline(&desc)?;
    let img = scene.draw(h, plain, |r| {
        r.draw(6, 1, 0, 0);
        r.bind_graphics(culling);
        r.draw(6, 1, 12, 0);
        r.bind_graphics(plain);
        r.draw(6, 1, 6, 0);
    })?;
    let mut result = CaseResult::new();
    // Red at window 8..24 x 8..24, green at 40..56 x 40..56, no blue at
    // 8..24 x 40..56.
    probe(&mut result, &img, 16, 16, opaque(RED));
    probe(&mut result, &img, 48, 48, opaque(GREEN));
    probe(&mut result, &img, 16, 48, unorm8(CLEAR));
    probe(&mut result, &img, 48, 16, unorm8(CLEAR));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A white quad written through a colour write mask of red and alpha:
/// green and blue keep the clear colour's.
fn colour_write_mask(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = quad(-0.5, -0.5, 0.5, 0.5, 0.5, [1.0, 1.0, 1.0]);
    let mask = vk::ColorComponentFlags::R | vk::ColorComponentFlags::A;
    let img = draw_attributes(
        h,
        &v,
        |d| d.blend = Some(vk::PipelineColorBlendAttachmentState::default().color_write_mask(mask)),
        |_| {},
        6,
    )?;
    let mut result = CaseResult::new();
    let clear = pixel(&img, 0, 0);
    probe(&mut result, &img, 32, 32, [255, clear[1], clear[2], 255]);
    probe(&mut result, &img, 15, 32, clear);
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// vkCmdDrawIndirect of the second of three quads (firstVertex 6 from the
/// command), then vkCmdDrawIndexedIndirect of the third through indices
/// 0..6 and a vertex offset of 12 (both from their commands, at an offset
/// into one buffer).
/// Several commands in one indirect draw (multiDrawIndirect), at a stride
/// larger than a command: three quads from one vkCmdDrawIndirect of 3
/// commands 20 bytes apart, and two from one vkCmdDrawIndexedIndirect of 2
/// commands 24 bytes apart; a fourth command past the count draws nothing.
fn multi_draw_indirect(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().multi_draw_indirect {
        return Err(Stop::NotSupported("multiDrawIndirect".into()));
    }
    // Five quads in a row of cells 10 pixels apart, and one more (red) that
    // only a command past the count would draw.
    let colours = [RED, GREEN, BLUE, GREEN, BLUE, RED];
    let mut v = Vec::new();
    for (i, c) in colours.iter().enumerate() {
        let x0 = -0.875 + 0.3125 * i as f32;
        v.extend(quad(x0, -0.25, x0 + 0.25, 0.25, 0.5, *c));
    }
    // VkDrawIndirectCommand x4 at stride 20 (vertices, instances, first
    // vertex, first instance, a padding word): quads 1, 2 and 3, then 5.
    let mut words: Vec<u32> = Vec::new();
    for first in [6u32, 12, 18, 30] {
        words.extend([6, 1, first, 0, 0xdead]);
    }
    let indexed_at = words.len() as u64 * 4;
    // VkDrawIndexedIndirectCommand x2 at stride 24 (indices, instances,
    // first index, vertex offset, first instance, padding): quads 4 and 0.
    for vertex_offset in [24u32, 0] {
        words.extend([6, 1, 0, vertex_offset, 0, 0xbeef]);
    }
    let commands: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let indices: Vec<u8> = (0u16..6).flat_map(|i| i.to_le_bytes()).collect();
    let scene = Scene::new(h, &v, false)?;
    let args = h.host_buffer_with(vk::BufferUsageFlags::INDIRECT_BUFFER, &commands)?;
    let idx = h.host_buffer_with(vk::BufferUsageFlags::INDEX_BUFFER, &indices)?;
    let pipeline = h.graphics_pipeline(&scene.desc())?;
    let img = scene.draw(h, pipeline, |r| {
        r.bind_index_buffer(&idx, 0, vk::IndexType::UINT16);
        // SAFETY: the command buffer is recording inside a pass; the
        // buffer is alive and holds every command drawn.
        unsafe {
            r.device()
                .cmd_draw_indirect(r.command_buffer(), args.handle, 0, 3, 20);
            r.device().cmd_draw_indexed_indirect(
                r.command_buffer(),
                args.handle,
                indexed_at,
                2,
                24,
            );
        }
    })?;
    let mut result = CaseResult::new();
    // Quad i covers window x 4 + 10 i .. 12 + 10 i, y 24..40.
    for (i, c) in colours.iter().enumerate() {
        let x = 8 + 10 * i as u32;
        let want = if i == 5 { unorm8(CLEAR) } else { opaque(*c) };
        probe(&mut result, &img, x, 32, want);
    }
    probe(&mut result, &img, 8, 8, unorm8(CLEAR));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

fn indirect(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut v = quad(-0.75, -0.75, -0.25, -0.25, 0.5, RED);
    v.extend(quad(0.25, 0.25, 0.75, 0.75, 0.5, GREEN));
    v.extend(quad(-0.75, 0.25, -0.25, 0.75, 0.5, BLUE));
    // VkDrawIndirectCommand at 0: 6 vertices, 1 instance, from vertex 6;
    // VkDrawIndexedIndirectCommand at 16: 6 indices, 1 instance, from
    // index 0, vertex offset 12, first instance 0.
    let commands: Vec<u8> = [6u32, 1, 6, 0, 6, 1, 0, 12, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let indices: Vec<u8> = (0u16..6).flat_map(|i| i.to_le_bytes()).collect();
    let scene = Scene::new(h, &v, false)?;
    let args = h.host_buffer_with(vk::BufferUsageFlags::INDIRECT_BUFFER, &commands)?;
    let idx = h.host_buffer_with(vk::BufferUsageFlags::INDEX_BUFFER, &indices)?;
    let pipeline = h.graphics_pipeline(&scene.desc())?;
    let img = scene.draw(h, pipeline, |r| {
        r.bind_index_buffer(&idx, 0, vk::IndexType::UINT16);
        // SAFETY: the command buffer is recording inside a pass; the
        // buffer is alive and holds both commands.
        unsafe {
            r.device()
                .cmd_draw_indirect(r.command_buffer(), args.handle, 0, 1, 16);
            r.device()
                .cmd_draw_indexed_indirect(r.command_buffer(), args.handle, 16, 1, 20);
        }
    })?;
    let mut result = CaseResult::new();
    // Green at window 40..56 x 40..56, blue at 8..24 x 40..56, no red.
    probe(&mut result, &img, 48, 48, opaque(GREEN));
    probe(&mut result, &img, 16, 48, opaque(BLUE));
    probe(&mut result, &img, 16, 16, unorm8(CLEAR));
    probe(&mut result, &img, 48, 16, unorm8(CLEAR));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Push constants in both stages and gl_InstanceIndex: a quad moved by
/// the vertex stage's pushed offset (0, 0.5), drawn as instances 1 and 2
/// (firstInstance 1), each moved right by half its index, in the fragment
/// stage's pushed colour.
fn push_constants_and_instance_index(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = quad(-0.75, -0.75, -0.25, -0.25, 0.5, RED);
    let scene = Scene::new(h, &v, false)?;
    let positions = [VertexBinding {
        stride: 28,
        per_instance: false,
        attributes: &[(0, vk::Format::R32G32B32_SFLOAT, 0)],
    }];
    let mut desc = scene.desc();
    desc.vs = &shaders::PUSH_VERT;
    desc.fs = &shaders::PUSH_FRAG;
    desc.bindings = &positions;
    desc.push_constant_bytes = 32;
    let (pipeline, layout) = h.graphics_pipeline_and_layout(&desc)?;
    let orange = [1.0f32, 0.5, 0.0, 1.0];
    let mut push = floats(&[0.0, 0.5, 0.0, 0.0]);
    push.extend(floats(&orange));
    let img = scene.draw(h, pipeline, |r| {
        r.push_graphics_constants(layout, 0, &push);
        r.draw(6, 2, 0, 1);
    })?;
    let mut result = CaseResult::new();
    // Window y 24 to 40; instance 1 at x 24 to 40, instance 2 at 40 to 56.
    let want = unorm8(orange);
    for (x, y) in [(24, 24), (39, 39), (40, 24), (55, 39)] {
        probe(&mut result, &img, x, y, want);
    }
    // Instance 0 (x 8 to 24) is not drawn; nothing at the unmoved y.
    for (x, y) in [(16, 32), (32, 16), (48, 45), (60, 32)] {
        probe(&mut result, &img, x, y, unorm8(CLEAR));
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}
