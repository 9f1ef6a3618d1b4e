//! Stencil tests on a D24S8 attachment (cleared by the pass to depth 1.0
//! and stencil 0): masks drawn and tested, each stencil op, the dynamic
//! reference and masks, and stencil cleared by vkCmdClearAttachments.
//! Each case probes its interior pixels against values worked out here
//! and keeps its image for cts/tests/draws.rs to compare with lavapipe's.

use super::draws::{
    floats, probe, quad, unorm8, Scene, Target, CLEAR, COLOR_LAYOUT, DEPTH_LAYOUT, RGBA8, SIZE,
};
use super::render_passes::{color, prepared_of_size};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Harness, ImageShape, PassAttachment};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.stencil_mask_outline",
        run: mask_outline,
    },
    Case {
        name: "draws.stencil_ops",
        run: stencil_ops,
    },
    Case {
        name: "draws.stencil_dynamic_reference_and_masks",
        run: dynamic_reference_and_masks,
    },
    Case {
        name: "draws.stencil_clear_attachments",
        run: clear_stencil,
    },
];

const D24S8: vk::Format = vk::Format::D24_UNORM_S8_UINT;

/// A face testing `compare` against `reference`, `pass` where it passes,
/// keeping the value where it fails, all 8 bits read and written.
pub(crate) fn face(
    compare: vk::CompareOp,
    pass: vk::StencilOp,
    reference: u32,
) -> vk::StencilOpState {
    vk::StencilOpState {
        fail_op: vk::StencilOp::KEEP,
        pass_op: pass,
        depth_fail_op: vk::StencilOp::KEEP,
        compare_op: compare,
        compare_mask: 0xff,
        write_mask: 0xff,
        reference,
    }
}

/// Stencil on, the same state for both faces, no depth test.
pub(crate) fn stencil_state(
    f: vk::StencilOpState,
) -> vk::PipelineDepthStencilStateCreateInfo<'static> {
    vk::PipelineDepthStencilStateCreateInfo::default()
        .stencil_test_enable(true)
        .front(f)
        .back(f)
}

/// attributes.vert's scene over the 64x64 colour target and a D24S8
/// attachment (only an attachment: D24S8 need not be copyable), both
/// cleared by the pass.
pub(crate) fn stencil_scene(h: &mut Harness, vertices: &[f32]) -> Result<Scene, Stop> {
    let c = prepared_of_size(h, RGBA8, SIZE, color([0.0; 4]), COLOR_LAYOUT)?;
    let shape = ImageShape::two_d(D24S8, SIZE.0, SIZE.1, vk::ImageTiling::OPTIMAL);
    let d = h.depth_stencil_image(shape)?;
    h.run(|r| {
        let barrier = [vk::ImageMemoryBarrier::default()
            .dst_access_mask(
                vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
                    | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
            )
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(DEPTH_LAYOUT)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(d.handle)
            .subresource_range(d.range())];
        // SAFETY: the command buffer is recording; the image is alive.
        unsafe {
            r.device().cmd_pipeline_barrier(
                r.command_buffer(),
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                    | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier,
            )
        };
    })?;
    let attachments = vec![
        PassAttachment {
            image: c,
            load: vk::AttachmentLoadOp::CLEAR,
            layout: COLOR_LAYOUT,
        },
        PassAttachment {
            image: d,
            load: vk::AttachmentLoadOp::CLEAR,
            layout: DEPTH_LAYOUT,
        },
    ];
    let pass = h.render_pass(&attachments, &[&[0]], &[Some(1)], false)?;
    let fb = h.framebuffer(pass, &attachments)?;
    let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(vertices))?;
    let offsets = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&[0.0; 2]))?;
    Ok(Scene {
        t: Target {
            pass,
            fb,
            attachments,
        },
        vb,
        offsets,
    })
}

pub(crate) const RED: [f32; 3] = [1.0, 0.0, 0.0];
pub(crate) const GREEN: [f32; 3] = [0.0, 1.0, 0.0];
pub(crate) const BLUE: [f32; 3] = [0.0, 0.0, 1.0];
pub(crate) const YELLOW: [f32; 3] = [1.0, 1.0, 0.0];

/// An opaque colour as UNORM8 stores it.
pub(crate) fn rgb(c: [f32; 3]) -> [u8; 4] {
    unorm8([c[0], c[1], c[2], 1.0])
}

/// The result of probing `img` at each (x, y, expected), keeping the
/// image for the comparison with lavapipe's.
pub(crate) fn probed(img: Vec<u8>, probes: &[(u32, u32, [u8; 4])]) -> Result<CaseResult, Stop> {
    let mut result = CaseResult::new();
    for &(x, y, want) in probes {
        probe(&mut result, &img, x, y, want);
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A vkCmdClearAttachments rectangle of layer 0.
pub(crate) fn clear_rect(x: i32, y: i32, width: u32, height: u32) -> vk::ClearRect {
    vk::ClearRect {
        rect: vk::Rect2D {
            offset: vk::Offset2D { x, y },
            extent: vk::Extent2D { width, height },
        },
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// A blue square (window [24, 40)) writes 1 where it is drawn; a yellow
/// one over it (window [8, 56)) is drawn only where the stencil is not 1:
/// a yellow outline around the blue square.
fn mask_outline(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = [
        quad(-0.25, -0.25, 0.25, 0.25, 0.5, BLUE),
        quad(-0.75, -0.75, 0.75, 0.75, 0.5, YELLOW),
    ]
    .concat();
    let scene = stencil_scene(h, &v)?;
    let mut desc = scene.desc();
    desc.depth_stencil = Some(stencil_state(face(
        vk::CompareOp::ALWAYS,
        vk::StencilOp::REPLACE,
        1,
    )));
    let write = h.graphics_pipeline(&desc)?;
    desc.depth_stencil = Some(stencil_state(face(
        vk::CompareOp::NOT_EQUAL,
        vk::StencilOp::KEEP,
        1,
    )));
    let test = h.graphics_pipeline(&desc)?;
    let img = scene.draw(h, write, |r| {
        r.draw(6, 1, 0, 0);
        r.bind_graphics(test);
        r.draw(6, 1, 6, 0);
    })?;
    probed(
        img,
        &[
            (30, 30, rgb(BLUE)),
            (25, 38, rgb(BLUE)),
            (10, 10, rgb(YELLOW)),
            (20, 30, rgb(YELLOW)),
            (45, 50, rgb(YELLOW)),
            (4, 4, unorm8(CLEAR)),
            (60, 30, unorm8(CLEAR)),
        ],
    )
}

/// Three overlapping bands count up with INCREMENT_AND_CLAMP (0 to 3),
/// one is inverted, one zeroed and one decremented; then full-screen
/// quads colour each stencil value: EQUAL 1 red, 2 green, 3 blue, 0xfc
/// (0x03 inverted) yellow.
fn stencil_ops(h: &mut Harness) -> Result<CaseResult, Stop> {
    // Window x bands: [8, 40), [16, 48), [24, 56): counts 1, 2, 3, 2, 1
    // at x 8-15, 16-23, 24-39, 40-47, 48-55.
    let band = |x0: f32, x1: f32| quad(x0, -0.5, x1, 0.5, 0.5, [0.0; 3]);
    let all = |c| quad(-1.0, -1.0, 1.0, 1.0, 0.5, c);
    let v = [
        band(-0.75, 0.25),
        band(-0.5, 0.5),
        band(-0.25, 0.75),
        // y [16, 24) of x [24, 32): INVERT (3 to 0xfc).
        quad(-0.25, -0.5, 0.0, -0.25, 0.5, [0.0; 3]),
        // y [40, 48) of x [24, 32): ZERO.
        quad(-0.25, 0.25, 0.0, 0.5, 0.5, [0.0; 3]),
        // y [16, 48) of x [48, 56): DECREMENT_AND_CLAMP (1 to 0).
        quad(0.5, -0.5, 0.75, 0.5, 0.5, [0.0; 3]),
        all(RED),
        all(GREEN),
        all(BLUE),
        all(YELLOW),
    ]
    .concat();
    let scene = stencil_scene(h, &v)?;
    let mut desc = scene.desc();
    let mut with = |h: &mut Harness, f: vk::StencilOpState| {
        desc.depth_stencil = Some(stencil_state(f));
        h.graphics_pipeline(&desc)
    };
    let always = |op| face(vk::CompareOp::ALWAYS, op, 0);
    let incr = with(h, always(vk::StencilOp::INCREMENT_AND_CLAMP))?;
    let invert = with(h, always(vk::StencilOp::INVERT))?;
    let zero = with(h, always(vk::StencilOp::ZERO))?;
    let decr = with(h, always(vk::StencilOp::DECREMENT_AND_CLAMP))?;
    let equal: Vec<vk::Pipeline> = [1, 2, 3, 0xfc]
        .into_iter()
        .map(|r| with(h, face(vk::CompareOp::EQUAL, vk::StencilOp::KEEP, r)))
        .collect::<Result<_, _>>()?;
    let img = scene.draw(h, incr, |r| {
        r.draw(18, 1, 0, 0);
        for (i, p) in [invert, zero, decr].into_iter().enumerate() {
            r.bind_graphics(p);
            r.draw(6, 1, 18 + 6 * i as u32, 0);
        }
        for (i, &p) in equal.iter().enumerate() {
            r.bind_graphics(p);
            r.draw(6, 1, 36 + 6 * i as u32, 0);
        }
    })?;
    probed(
        img,
        &[
            (10, 30, rgb(RED)),
            (20, 30, rgb(GREEN)),
            (30, 30, rgb(BLUE)),
            (36, 20, rgb(BLUE)),
            (28, 20, rgb(YELLOW)),
            // Zeroed and decremented to 0: the bands' black, no test passes.
            (28, 44, rgb([0.0; 3])),
            (44, 30, rgb(GREEN)),
            (52, 30, rgb([0.0; 3])),
            (4, 30, unorm8(CLEAR)),
            (30, 8, unorm8(CLEAR)),
        ],
    )
}

/// One pipeline with the reference and both masks dynamic: the left
/// half is written REPLACE with reference 0xff through write mask 0x0f
/// (storing 0x0f), the right half with reference 0x35 through 0xff; a
/// full-screen quad then tests EQUAL against reference 0x3f through
/// compare mask 0x0f (passing where the low nibble is 0xf: the left
/// half) and another against 0x35 through 0xff (the right half).
fn dynamic_reference_and_masks(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = [
        quad(-0.75, -0.5, 0.0, 0.5, 0.5, [0.0; 3]),
        quad(0.0, -0.5, 0.75, 0.5, 0.5, [0.0; 3]),
        quad(-1.0, -1.0, 1.0, 1.0, 0.5, GREEN),
        quad(-1.0, -1.0, 1.0, 1.0, 0.5, BLUE),
    ]
    .concat();
    let scene = stencil_scene(h, &v)?;
    let mut desc = scene.desc();
    desc.dynamic_states = &[
        vk::DynamicState::STENCIL_REFERENCE,
        vk::DynamicState::STENCIL_COMPARE_MASK,
        vk::DynamicState::STENCIL_WRITE_MASK,
    ];
    // The pipeline's own (static-looking) values must not be what draws.
    let mut f = face(vk::CompareOp::ALWAYS, vk::StencilOp::REPLACE, 0x77);
    f.write_mask = 0;
    f.compare_mask = 0;
    desc.depth_stencil = Some(stencil_state(f));
    let write = h.graphics_pipeline(&desc)?;
    desc.depth_stencil = Some(stencil_state(face(
        vk::CompareOp::EQUAL,
        vk::StencilOp::KEEP,
        0,
    )));
    let test = h.graphics_pipeline(&desc)?;
    let device = h.device().clone();
    let both = vk::StencilFaceFlags::FRONT_AND_BACK;
    let img = scene.draw(h, write, |r| {
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            device.cmd_set_stencil_compare_mask(cb, both, 0xff);
            device.cmd_set_stencil_write_mask(cb, both, 0x0f);
            device.cmd_set_stencil_reference(cb, both, 0xff);
            r.draw(6, 1, 0, 0);
            device.cmd_set_stencil_write_mask(cb, both, 0xff);
            device.cmd_set_stencil_reference(cb, both, 0x35);
            r.draw(6, 1, 6, 0);
            r.bind_graphics(test);
            device.cmd_set_stencil_compare_mask(cb, both, 0x0f);
            device.cmd_set_stencil_reference(cb, both, 0x3f);
            r.draw(6, 1, 12, 0);
            device.cmd_set_stencil_compare_mask(cb, both, 0xff);
            device.cmd_set_stencil_reference(cb, both, 0x35);
            r.draw(6, 1, 18, 0);
        }
    })?;
    probed(
        img,
        &[
            (12, 30, rgb(GREEN)),
            (30, 20, rgb(GREEN)),
            (34, 30, rgb(BLUE)),
            (54, 40, rgb(BLUE)),
            (4, 30, unorm8(CLEAR)),
            (60, 30, unorm8(CLEAR)),
            (30, 8, unorm8(CLEAR)),
        ],
    )
}

/// The stencil of the whole attachment is set to 1 by a draw, then
/// vkCmdClearAttachments clears the stencil alone to 2 in two rectangles
/// (the depth aspect kept: the draw after tests depth LESS_OR_EQUAL
/// against what the first draw wrote); a quad tests EQUAL 1 in red and
/// another EQUAL 2 in green.
fn clear_stencil(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = [
        quad(-1.0, -1.0, 1.0, 1.0, 0.25, [0.0; 3]),
        quad(-1.0, -1.0, 1.0, 1.0, 0.25, RED),
        quad(-1.0, -1.0, 1.0, 1.0, 0.25, GREEN),
    ]
    .concat();
    let scene = stencil_scene(h, &v)?;
    let mut desc = scene.desc();
    let depth_and = |f| {
        stencil_state(f)
            .depth_test_enable(true)
            .depth_write_enable(true)
            .depth_compare_op(vk::CompareOp::LESS_OR_EQUAL)
    };
    desc.depth_stencil = Some(depth_and(face(
        vk::CompareOp::ALWAYS,
        vk::StencilOp::REPLACE,
        1,
    )));
    let write = h.graphics_pipeline(&desc)?;
    desc.depth_stencil = Some(depth_and(face(
        vk::CompareOp::EQUAL,
        vk::StencilOp::KEEP,
        1,
    )));
    let red = h.graphics_pipeline(&desc)?;
    desc.depth_stencil = Some(depth_and(face(
        vk::CompareOp::EQUAL,
        vk::StencilOp::KEEP,
        2,
    )));
    let green = h.graphics_pipeline(&desc)?;
    let clear = [vk::ClearAttachment {
        aspect_mask: vk::ImageAspectFlags::STENCIL,
        color_attachment: 0,
        clear_value: vk::ClearValue {
            depth_stencil: vk::ClearDepthStencilValue {
                // Not cleared: the aspect mask has no depth.
                depth: 0.0,
                stencil: 2,
            },
        },
    }];
    let img = scene.draw(h, write, |r| {
        r.draw(6, 1, 0, 0);
        r.clear_attachments(
            &clear,
            &[clear_rect(8, 8, 16, 16), clear_rect(40, 32, 16, 24)],
        );
        r.bind_graphics(red);
        r.draw(6, 1, 6, 0);
        r.bind_graphics(green);
        r.draw(6, 1, 12, 0);
    })?;
    probed(
        img,
        &[
            (8, 8, rgb(GREEN)),
            (23, 23, rgb(GREEN)),
            (40, 32, rgb(GREEN)),
            (55, 55, rgb(GREEN)),
            (30, 30, rgb(RED)),
            (4, 60, rgb(RED)),
            (39, 40, rgb(RED)),
            (60, 4, rgb(RED)),
        ],
    )
}
