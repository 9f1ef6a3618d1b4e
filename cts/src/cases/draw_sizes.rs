//! Draws into framebuffers of sizes a tiler gets wrong first: a single
//! pixel, sizes that are no multiple of any alignment, and a framebuffer
//! wider than the largest bin (more than one bin), loaded rather than
//! cleared, with a render area that leaves part of it untouched. Each
//! case draws the shape of Turnip's triangle over the whole viewport in
//! one pushed colour (no interpolation, so no rounding ties between
//! drivers) and checks pixels whose coverage is certain: inside the
//! triangle its colour, outside it the cleared or loaded colour, outside
//! the render area what the image held before the pass.
//! The image is kept as `rgba8_<width>x<height>`, for the draw tests to
//! compare across drivers.

use super::draws::{barycentric, floats};
use super::render_passes::{color, prepared_of_size, read_back};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{GraphicsDesc, Harness, PassAttachment, VertexBinding};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.size_1x1",
        run: |h| sized(h, (1, 1), (1, 1), vk::AttachmentLoadOp::CLEAR, None),
    },
    Case {
        name: "draws.size_65x33",
        run: |h| sized(h, (65, 33), (65, 33), vk::AttachmentLoadOp::CLEAR, None),
    },
    Case {
        // Wider than a bin may be on the a660 and the a740 (1024 and 1728
        // pixels), and a render area on the 16x4 store grid inside it.
        name: "draws.wide_loaded_render_area",
        run: |h| {
            let area = Some(rect(32, 4, 1728, 16));
            sized(h, (1800, 24), (1800, 24), vk::AttachmentLoadOp::LOAD, area)
        },
    },
    Case {
        name: "draws.wide_cleared_render_area",
        run: |h| {
            let area = Some(rect(32, 4, 1728, 16));
            sized(h, (1800, 24), (1800, 24), vk::AttachmentLoadOp::CLEAR, area)
        },
    },
];

const RGBA8: vk::Format = vk::Format::R8G8B8A8_UNORM;
const COLOR_LAYOUT: vk::ImageLayout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
/// triangle.c's clear colour.
const CLEAR: [f32; 4] = [0.1, 0.2, 0.3, 1.0];
/// What the image holds before the pass.
const BEFORE: [f32; 4] = [0.5, 0.25, 0.75, 1.0];
/// The triangle's colour: 255, 153, 51 in UNORM8, no rounding tie.
const COLOUR: [f32; 4] = [1.0, 0.6, 0.2, 1.0];
/// tri.vert's vertices (NDC x, y and a depth).
const TRIANGLE: [[f32; 3]; 3] = [[0.0, -0.75, 0.5], [0.75, 0.75, 0.5], [-0.75, 0.75, 0.5]];
/// push.vert's positions.
const POSITIONS: [VertexBinding; 1] = [VertexBinding {
    stride: 12,
    per_instance: false,
    attributes: &[(0, vk::Format::R32G32B32_SFLOAT, 0)],
}];

fn rect(x: i32, y: i32, width: u32, height: u32) -> vk::Rect2D {
    vk::Rect2D {
        offset: vk::Offset2D { x, y },
        extent: vk::Extent2D { width, height },
    }
}

fn unorm8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// The triangle in a `viewport` at the top left of a `size` framebuffer
/// whose colour attachment loads with `load`, within `area` (the whole
/// framebuffer if `None`).
fn sized(
    h: &mut Harness,
    size: (u32, u32),
    viewport: (u32, u32),
    load: vk::AttachmentLoadOp,
    area: Option<vk::Rect2D>,
) -> Result<CaseResult, Stop> {
    let whole = rect(0, 0, size.0, size.1);
    let area = area.unwrap_or(whole);
    let image = prepared_of_size(h, RGBA8, size, color(BEFORE), COLOR_LAYOUT)?;
    let attachments = [PassAttachment {
        image,
        load,
        layout: COLOR_LAYOUT,
    }];
    let pass = h.render_pass(&attachments, &[&[0]], &[None], false)?;
    let fb = h.framebuffer(pass, &attachments)?;
    let mut desc = GraphicsDesc::new(&shaders::PUSH_VERT, &shaders::PUSH_FRAG, pass, size);
    desc.dynamic_viewport = true;
    desc.bindings = &POSITIONS;
    desc.push_constant_bytes = 32;
    let (pipeline, layout) = h.graphics_pipeline_and_layout(&desc)?;
    let vb = h.host_buffer_with(
        vk::BufferUsageFlags::VERTEX_BUFFER,
        &floats(&TRIANGLE.concat()),
    )?;
    // push.vert's offset (none), then push.frag's colour at byte 16.
    let mut push = floats(&[0.0; 4]);
    push.extend(floats(&COLOUR));
    h.run(|r| {
        r.begin_pass(pass, fb, area, &[color(CLEAR)]);
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&vb]);
        r.push_graphics_constants(layout, 0, &push);
        r.set_viewport(vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: viewport.0 as f32,
            height: viewport.1 as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        });
        r.set_scissor(area);
        r.draw(3, 1, 0, 0);
        r.end_pass();
    })?;
    let img = read_back(h, &attachments[0].image, COLOR_LAYOUT, 4)?;

    let mut result = CaseResult::new();
    let (w, hgt) = (viewport.0 as f32, viewport.1 as f32);
    let window = |n: [f32; 2]| [(n[0] + 1.0) * w / 2.0, (n[1] + 1.0) * hgt / 2.0];
    let tri = TRIANGLE.map(|v| window([v[0], v[1]]));
    let background = if load == vk::AttachmentLoadOp::CLEAR {
        CLEAR
    } else {
        BEFORE
    };
    let in_area = |x: u32, y: u32| {
        let (x, y) = (x as i32, y as i32);
        x >= area.offset.x
            && y >= area.offset.y
            && x < area.offset.x + area.extent.width as i32
            && y < area.offset.y + area.extent.height as i32
    };
    // Corners, edges' middles, the centre and the triangle's centroid,
    // of the framebuffer and of the render area.
    let (x1, y1) = (size.0 - 1, size.1 - 1);
    let (ax0, ay0) = (area.offset.x as u32, area.offset.y as u32);
    let (ax1, ay1) = (ax0 + area.extent.width - 1, ay0 + area.extent.height - 1);
    let mut probes = vec![
        (0, 0),
        (x1, 0),
        (0, y1),
        (x1, y1),
        (size.0 / 2, size.1 / 2),
        (size.0 / 2, size.1 * 2 / 3),
        (ax0, ay0),
        (ax1, ay1),
        (ax0, ay1),
        (ax1, ay0),
        (size.0 / 4, size.1 / 2),
        (size.0 * 3 / 4, size.1 / 2),
    ];
    if ax0 > 0 {
        probes.extend([(ax0 - 1, ay0), (ax1 + 1, ay1)]);
    }
    for (x, y) in probes {
        let want = if !in_area(x, y) {
            Some(unorm8(BEFORE))
        } else {
            let b = barycentric(tri, x, y);
            if b.iter().all(|&k| k > 0.02) {
                Some(unorm8(COLOUR))
            } else if b.iter().any(|&k| k < -0.02) {
                Some(unorm8(background))
            } else {
                // On an edge: either.
                None
            }
        };
        let Some(want) = want else {
            continue;
        };
        let i = ((y * size.0 + x) * 4) as usize;
        let got: [u8; 4] = img[i..i + 4].try_into().expect("four bytes");
        let close = got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 1);
        result.require(
            close,
            format!("pixel ({x}, {y}) is {got:?}, expected {want:?} within 1"),
        );
    }
    result.keep_approximate(&format!("rgba8_{}x{}", size.0, size.1), img);
    Ok(result)
}
