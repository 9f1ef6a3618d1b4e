//! Dynamic state: Vulkan 1.0's (depth bias, depth bounds, blend constants
//! and line width), VK_EXT_extended_dynamic_state's (cull mode, front
//! face, topology, viewport and scissor with count, vertex strides
//! through vkCmdBindVertexBuffers2, the depth and stencil tests) and
//! VK_EXT_extended_dynamic_state2's (rasterizer discard, depth bias
//! enable, primitive restart), each set between draws of one pipeline
//! whose own values differ, and vkCmdClearAttachments of colour and depth
//! in part of the pass. The probes are worked out here; the images are
//! compared with lavapipe's by cts/tests/draws.rs.

use super::draws::{floats, quad, unorm8, Scene, ATTRIBUTES, CLEAR};
use super::stencil::{
    clear_rect, face, probed, rgb, stencil_scene, stencil_state, BLUE, GREEN, RED, YELLOW,
};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.dynamic_depth_bias",
        run: depth_bias,
    },
    Case {
        name: "dynamic_state.depth_bounds",
        run: depth_bounds,
    },
    Case {
        name: "draws.dynamic_blend_constants_and_line_width",
        run: blend_constants,
    },
    Case {
        name: "draws.dynamic_cull_front_face_topology",
        run: cull_front_face_topology,
    },
    Case {
        name: "draws.dynamic_depth_and_stencil_tests",
        run: depth_and_stencil_tests,
    },
    Case {
        name: "draws.dynamic_discard_bias_enable_restart",
        run: discard_bias_enable_restart,
    },
    Case {
        name: "draws.bind_vertex_buffers2_strides",
        run: vertex_buffers2,
    },
    Case {
        name: "draws.dynamic_viewport_scissor_with_count",
        run: viewport_scissor_with_count,
    },
    Case {
        name: "draws.clear_attachments_colour_and_depth",
        run: clear_colour_and_depth,
    },
];

/// The whole target at depth `z`.
fn all(z: f32, c: [f32; 3]) -> Vec<f32> {
    quad(-1.0, -1.0, 1.0, 1.0, z, c)
}

fn eds(h: &Harness) -> Result<ash::ext::extended_dynamic_state::Device, Stop> {
    if !h.caps().extended_dynamic_state {
        return Err(Stop::NotSupported(
            "no VK_EXT_extended_dynamic_state".into(),
        ));
    }
    Ok(ash::ext::extended_dynamic_state::Device::new(
        h.instance(),
        h.device(),
    ))
}

fn eds2(h: &Harness) -> Result<ash::ext::extended_dynamic_state2::Device, Stop> {
    if !h.caps().extended_dynamic_state2 {
        return Err(Stop::NotSupported(
            "no VK_EXT_extended_dynamic_state2".into(),
        ));
    }
    Ok(ash::ext::extended_dynamic_state2::Device::new(
        h.instance(),
        h.device(),
    ))
}

/// A blue quad at z 0.5 (depth LESS, D16 cleared to 1.0), then green
/// halves at the same depth through a pipeline whose depth bias is
/// dynamic: the left with no bias fails LESS, the right with a constant
/// bias of -1000 (units of the D16 resolution, 2^-16) passes.
fn depth_bias(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = [
        all(0.5, BLUE),
        quad(-1.0, -1.0, 0.0, 1.0, 0.5, GREEN),
        quad(0.0, -1.0, 1.0, 1.0, 0.5, GREEN),
    ]
    .concat();
    let scene = Scene::new(h, &v, true)?;
    let mut desc = scene.desc();
    desc.depth = Some(vk::CompareOp::LESS);
    let plain = h.graphics_pipeline(&desc)?;
    // The pipeline's own bias would pass everywhere.
    desc.depth_bias = Some([-4000.0, 0.0, 0.0]);
    desc.dynamic_states = &[vk::DynamicState::DEPTH_BIAS];
    let biased = h.graphics_pipeline(&desc)?;
    let device = h.device().clone();
    let img = scene.draw(h, plain, |r| {
        r.draw(6, 1, 0, 0);
        r.bind_graphics(biased);
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            device.cmd_set_depth_bias(r.command_buffer(), 0.0, 0.0, 0.0);
            r.draw(6, 1, 6, 0);
            device.cmd_set_depth_bias(r.command_buffer(), -1000.0, 0.0, 0.0);
            r.draw(6, 1, 12, 0);
        }
    })?;
    probed(
        img,
        &[
            (8, 8, rgb(BLUE)),
            (28, 50, rgb(BLUE)),
            (36, 8, rgb(GREEN)),
            (60, 60, rgb(GREEN)),
        ],
    )
}

/// The left half is drawn red at z 0.25 (the right keeps the cleared
/// 1.0); then two whole quads without a depth test, through a pipeline
/// with the depth bounds and their test's enable dynamic (the pipeline's
/// own: off): green within [0.2, 0.3] (the left half) and blue within
/// [0.9, 1.0] (the right).
fn depth_bounds(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().depth_bounds {
        return Err(Stop::NotSupported("no depthBounds".into()));
    }
    let ext = eds(h)?;
    let v = [
        quad(-1.0, -1.0, 0.0, 1.0, 0.25, RED),
        all(0.5, GREEN),
        all(0.5, BLUE),
    ]
    .concat();
    let scene = Scene::new(h, &v, true)?;
    let mut desc = scene.desc();
    desc.depth = Some(vk::CompareOp::LESS);
    let write = h.graphics_pipeline(&desc)?;
    desc.depth = None;
    desc.depth_stencil = Some(
        vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_bounds_test_enable(false)
            .min_depth_bounds(0.0)
            .max_depth_bounds(1.0),
    );
    desc.dynamic_states = &[
        vk::DynamicState::DEPTH_BOUNDS,
        vk::DynamicState::DEPTH_BOUNDS_TEST_ENABLE,
    ];
    let bounded = h.graphics_pipeline(&desc)?;
    let device = h.device().clone();
    let img = scene.draw(h, write, |r| {
        r.draw(6, 1, 0, 0);
        r.bind_graphics(bounded);
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            ext.cmd_set_depth_bounds_test_enable(cb, true);
            device.cmd_set_depth_bounds(cb, 0.2, 0.3);
            r.draw(6, 1, 6, 0);
            device.cmd_set_depth_bounds(cb, 0.9, 1.0);
            r.draw(6, 1, 12, 0);
        }
    })?;
    probed(
        img,
        &[
            (4, 4, rgb(GREEN)),
            (28, 60, rgb(GREEN)),
            (36, 4, rgb(BLUE)),
            (60, 40, rgb(BLUE)),
        ],
    )
}

/// White halves blended as CONSTANT_COLOR * source + 0 * destination,
/// with the constants (and the line width) set dynamically: the left with
/// (0.25, 0.5, 0.75), the right with (1, 0, 0.5); the pipeline's own
/// constants are 0.
fn blend_constants(h: &mut Harness) -> Result<CaseResult, Stop> {
    let white = [1.0; 3];
    let v = [
        quad(-1.0, -1.0, 0.0, 1.0, 0.5, white),
        quad(0.0, -1.0, 1.0, 1.0, 0.5, white),
    ]
    .concat();
    let scene = Scene::new(h, &v, false)?;
    let mut desc = scene.desc();
    desc.blend = Some(vk::PipelineColorBlendAttachmentState {
        blend_enable: vk::TRUE,
        src_color_blend_factor: vk::BlendFactor::CONSTANT_COLOR,
        dst_color_blend_factor: vk::BlendFactor::ZERO,
        color_blend_op: vk::BlendOp::ADD,
        src_alpha_blend_factor: vk::BlendFactor::ONE,
        dst_alpha_blend_factor: vk::BlendFactor::ZERO,
        alpha_blend_op: vk::BlendOp::ADD,
        color_write_mask: vk::ColorComponentFlags::RGBA,
    });
    desc.dynamic_states = &[
        vk::DynamicState::BLEND_CONSTANTS,
        vk::DynamicState::LINE_WIDTH,
    ];
    let pipeline = h.graphics_pipeline(&desc)?;
    let device = h.device().clone();
    let img = scene.draw(h, pipeline, |r| {
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            device.cmd_set_line_width(cb, 1.0);
            device.cmd_set_blend_constants(cb, &[0.25, 0.5, 0.75, 1.0]);
            r.draw(6, 1, 0, 0);
            device.cmd_set_blend_constants(cb, &[1.0, 0.0, 0.5, 1.0]);
            r.draw(6, 1, 6, 0);
        }
    })?;
    let left = unorm8([0.25, 0.5, 0.75, 1.0]);
    let right = unorm8([1.0, 0.0, 0.5, 1.0]);
    probed(
        img,
        &[
            (4, 4, left),
            (28, 60, left),
            (36, 4, right),
            (60, 40, right),
        ],
    )
}

/// One triangle-list pipeline with the cull mode, front face and topology
/// dynamic: four vertices drawn as a strip (no culling) make the left
/// square red; a counter-clockwise square is kept green in the middle
/// with back faces culled and counter-clockwise fronts, and culled in the
/// right with clockwise fronts.
fn cull_front_face_topology(h: &mut Harness) -> Result<CaseResult, Stop> {
    let ext = eds(h)?;
    let p = |x: f32, y: f32, c: [f32; 3]| [x, y, 0.5, c[0], c[1], c[2], 1.0];
    // A strip over window x [4, 20), y [24, 40).
    let (x0, x1, y0, y1) = (-0.875, -0.375, -0.25, 0.25);
    let strip = [
        p(x0, y0, RED),
        p(x0, y1, RED),
        p(x1, y0, RED),
        p(x1, y1, RED),
    ]
    .concat();
    let v = [
        strip,
        quad(-0.25, -0.25, 0.25, 0.25, 0.5, GREEN),
        quad(0.375, -0.25, 0.875, 0.25, 0.5, BLUE),
    ]
    .concat();
    let scene = Scene::new(h, &v, false)?;
    let mut desc = scene.desc();
    desc.cull = vk::CullModeFlags::FRONT_AND_BACK;
    desc.dynamic_states = &[
        vk::DynamicState::CULL_MODE,
        vk::DynamicState::FRONT_FACE,
        vk::DynamicState::PRIMITIVE_TOPOLOGY,
    ];
    let pipeline = h.graphics_pipeline(&desc)?;
    let img = scene.draw(h, pipeline, |r| {
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            ext.cmd_set_primitive_topology(cb, vk::PrimitiveTopology::TRIANGLE_STRIP);
            ext.cmd_set_cull_mode(cb, vk::CullModeFlags::NONE);
            ext.cmd_set_front_face(cb, vk::FrontFace::COUNTER_CLOCKWISE);
            r.draw(4, 1, 0, 0);
            ext.cmd_set_primitive_topology(cb, vk::PrimitiveTopology::TRIANGLE_LIST);
            ext.cmd_set_cull_mode(cb, vk::CullModeFlags::BACK);
            r.draw(6, 1, 4, 0);
            ext.cmd_set_front_face(cb, vk::FrontFace::CLOCKWISE);
            r.draw(6, 1, 10, 0);
        }
    })?;
    probed(
        img,
        &[
            (5, 25, rgb(RED)),
            (18, 38, rgb(RED)),
            (12, 32, rgb(RED)),
            (26, 26, rgb(GREEN)),
            (37, 37, rgb(GREEN)),
            (50, 32, unorm8(CLEAR)),
            (58, 26, unorm8(CLEAR)),
            (12, 10, unorm8(CLEAR)),
        ],
    )
}

/// Through one pipeline whose depth test, writes, compare op, stencil
/// test and stencil ops are dynamic (its own: all off or NEVER), on
/// D24S8: red everywhere at z 0.5 (test LESS, writing); green at z 0.75
/// on the left half (GREATER, not writing); blue on the top right
/// quarter with the depth test off (so not writing depth) and stencil
/// REPLACE 5; a yellow quad at z 1.0 with the stencil EQUAL 5 and the
/// depth test GREATER: over the blue alone.
fn depth_and_stencil_tests(h: &mut Harness) -> Result<CaseResult, Stop> {
    let ext = eds(h)?;
    let v = [
        all(0.5, RED),
        quad(-1.0, -1.0, 0.0, 1.0, 0.75, GREEN),
        quad(0.0, -1.0, 1.0, 0.0, 0.25, BLUE),
        all(1.0, YELLOW),
    ]
    .concat();
    let scene = stencil_scene(h, &v)?;
    let mut desc = scene.desc();
    let mut never = face(vk::CompareOp::NEVER, vk::StencilOp::ZERO, 5);
    never.fail_op = vk::StencilOp::ZERO;
    desc.depth_stencil = Some(stencil_state(never).stencil_test_enable(false));
    desc.dynamic_states = &[
        vk::DynamicState::DEPTH_TEST_ENABLE,
        vk::DynamicState::DEPTH_WRITE_ENABLE,
        vk::DynamicState::DEPTH_COMPARE_OP,
        vk::DynamicState::STENCIL_TEST_ENABLE,
        vk::DynamicState::STENCIL_OP,
    ];
    let pipeline = h.graphics_pipeline(&desc)?;
    let both = vk::StencilFaceFlags::FRONT_AND_BACK;
    let keep = vk::StencilOp::KEEP;
    let img = scene.draw(h, pipeline, |r| {
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            ext.cmd_set_stencil_test_enable(cb, false);
            ext.cmd_set_depth_test_enable(cb, true);
            ext.cmd_set_depth_write_enable(cb, true);
            ext.cmd_set_depth_compare_op(cb, vk::CompareOp::LESS);
            r.draw(6, 1, 0, 0);
            ext.cmd_set_depth_write_enable(cb, false);
            ext.cmd_set_depth_compare_op(cb, vk::CompareOp::GREATER);
            r.draw(6, 1, 6, 0);
            ext.cmd_set_depth_test_enable(cb, false);
            ext.cmd_set_stencil_test_enable(cb, true);
            let (always, replace) = (vk::CompareOp::ALWAYS, vk::StencilOp::REPLACE);
            ext.cmd_set_stencil_op(cb, both, keep, replace, keep, always);
            r.draw(6, 1, 12, 0);
            ext.cmd_set_depth_test_enable(cb, true);
            ext.cmd_set_stencil_op(cb, both, keep, keep, keep, vk::CompareOp::EQUAL);
            r.draw(6, 1, 18, 0);
        }
    })?;
    probed(
        img,
        &[
            (4, 4, rgb(GREEN)),
            (28, 60, rgb(GREEN)),
            (36, 4, rgb(YELLOW)),
            (60, 28, rgb(YELLOW)),
            (36, 36, rgb(RED)),
            (60, 60, rgb(RED)),
        ],
    )
}

/// VK_EXT_extended_dynamic_state2 on D16 (test LESS): blue everywhere at
/// z 0.5; a red quad nearer with rasterizer discard on draws nothing;
/// green halves at z 0.5 through the pipeline's constant depth bias of
/// -1000, its enable dynamic: off on the top (fails LESS), on at the
/// bottom. Then a triangle strip pipeline with primitive restart dynamic
/// draws two squares from one indexed strip with 16-bit indices cut by
/// 0xffff (nothing between them).
fn discard_bias_enable_restart(h: &mut Harness) -> Result<CaseResult, Stop> {
    let ext = eds2(h)?;
    let p = |x: f32, y: f32| [x, y, 0.25, 1.0, 1.0, 0.0, 1.0];
    // Two strips: window x [8, 24) and [40, 56), y [40, 56).
    let (y0, y1) = (0.25, 0.75);
    let strips = [
        p(-0.75, y0),
        p(-0.75, y1),
        p(-0.25, y0),
        p(-0.25, y1),
        p(0.25, y0),
        p(0.25, y1),
        p(0.75, y0),
        p(0.75, y1),
    ]
    .concat();
    let v = [
        all(0.5, BLUE),
        all(0.1, RED),
        quad(-1.0, -1.0, 1.0, 0.0, 0.5, GREEN),
        quad(-1.0, 0.0, 1.0, 1.0, 0.5, GREEN),
        strips,
    ]
    .concat();
    let scene = Scene::new(h, &v, true)?;
    let indices: Vec<u8> = [24u16, 25, 26, 27, 0xffff, 28, 29, 30, 31]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let idx = h.host_buffer_with(vk::BufferUsageFlags::INDEX_BUFFER, &indices)?;
    let mut desc = scene.desc();
    desc.depth = Some(vk::CompareOp::LESS);
    desc.depth_bias = Some([-1000.0, 0.0, 0.0]);
    desc.dynamic_states = &[
        vk::DynamicState::RASTERIZER_DISCARD_ENABLE,
        vk::DynamicState::DEPTH_BIAS_ENABLE,
    ];
    let pipeline = h.graphics_pipeline(&desc)?;
    let mut strip_desc = scene.desc();
    strip_desc.depth = Some(vk::CompareOp::LESS);
    strip_desc.topology = vk::PrimitiveTopology::TRIANGLE_STRIP;
    strip_desc.dynamic_states = &[vk::DynamicState::PRIMITIVE_RESTART_ENABLE];
    let strip = h.graphics_pipeline(&strip_desc)?;
    let img = scene.draw(h, pipeline, |r| {
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            ext.cmd_set_rasterizer_discard_enable(cb, false);
            ext.cmd_set_depth_bias_enable(cb, false);
            r.draw(6, 1, 0, 0);
            ext.cmd_set_rasterizer_discard_enable(cb, true);
            r.draw(6, 1, 6, 0);
            ext.cmd_set_rasterizer_discard_enable(cb, false);
            r.draw(6, 1, 12, 0);
            ext.cmd_set_depth_bias_enable(cb, true);
            r.draw(6, 1, 18, 0);
            r.bind_graphics(strip);
            ext.cmd_set_primitive_restart_enable(cb, true);
            r.bind_index_buffer(&idx, 0, vk::IndexType::UINT16);
            r.draw_indexed(9, 1, 0, 0);
        }
    })?;
    let yellow = rgb(YELLOW);
    probed(
        img,
        &[
            (4, 4, rgb(BLUE)),
            (60, 28, rgb(BLUE)),
            (4, 36, rgb(GREEN)),
            (60, 60, rgb(GREEN)),
            (32, 48, rgb(GREEN)),
            (9, 41, yellow),
            (22, 54, yellow),
            (41, 41, yellow),
            (54, 54, yellow),
        ],
    )
}

/// The vertices 40 bytes apart (the pipeline's binding says 28, its
/// stride dynamic) after 40 bytes of padding, bound by
/// vkCmdBindVertexBuffers2 with the stride, the offset and a size of
/// exactly the six vertices: a green square.
fn vertex_buffers2(h: &mut Harness) -> Result<CaseResult, Stop> {
    let ext = eds(h)?;
    let mut padded = vec![9.0f32; 10];
    for vertex in quad(-0.5, -0.5, 0.5, 0.5, 0.5, GREEN).chunks(7) {
        padded.extend_from_slice(vertex);
        padded.extend_from_slice(&[9.0; 3]);
    }
    let scene = Scene::new(h, &all(0.5, RED), false)?;
    let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&padded))?;
    let mut desc = scene.desc();
    desc.bindings = &ATTRIBUTES;
    desc.dynamic_states = &[vk::DynamicState::VERTEX_INPUT_BINDING_STRIDE];
    let pipeline = h.graphics_pipeline(&desc)?;
    let offsets = scene.offsets.handle;
    let img = scene.draw(h, pipeline, |r| {
        // SAFETY: the command buffer is recording, in the pass; the
        // buffers are alive.
        unsafe {
            ext.cmd_bind_vertex_buffers2(
                r.command_buffer(),
                0,
                &[vb.handle, offsets],
                &[40, 0],
                Some(&[6 * 40, 8]),
                Some(&[40, 8]),
            );
        }
        r.draw(6, 1, 0, 0);
    })?;
    probed(
        img,
        &[
            (16, 16, rgb(GREEN)),
            (47, 47, rgb(GREEN)),
            (32, 20, rgb(GREEN)),
            (8, 8, unorm8(CLEAR)),
            (56, 30, unorm8(CLEAR)),
        ],
    )
}

/// A pipeline with the viewport and scissor given with their count: a
/// whole-target quad into the top left quarter's viewport, cut by the
/// scissor x [8, 24) (red); then the whole target's viewport cut by the
/// scissor y [48, 60) (green).
fn viewport_scissor_with_count(h: &mut Harness) -> Result<CaseResult, Stop> {
    let ext = eds(h)?;
    let v = [all(0.5, RED), all(0.5, GREEN)].concat();
    let scene = Scene::new(h, &v, false)?;
    let mut desc = scene.desc();
    desc.dynamic_states = &[
        vk::DynamicState::VIEWPORT_WITH_COUNT,
        vk::DynamicState::SCISSOR_WITH_COUNT,
    ];
    let pipeline = h.graphics_pipeline(&desc)?;
    let viewport = |x: f32, y: f32, w: f32, h: f32| vk::Viewport {
        x,
        y,
        width: w,
        height: h,
        min_depth: 0.0,
        max_depth: 1.0,
    };
    let rect = |x, y, w, h| vk::Rect2D {
        offset: vk::Offset2D { x, y },
        extent: vk::Extent2D {
            width: w,
            height: h,
        },
    };
    let img = scene.draw(h, pipeline, |r| {
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording, in the pass.
        unsafe {
            ext.cmd_set_viewport_with_count(cb, &[viewport(0.0, 0.0, 32.0, 32.0)]);
            ext.cmd_set_scissor_with_count(cb, &[rect(8, 0, 16, 64)]);
            r.draw(6, 1, 0, 0);
            ext.cmd_set_viewport_with_count(cb, &[viewport(0.0, 0.0, 64.0, 64.0)]);
            ext.cmd_set_scissor_with_count(cb, &[rect(0, 48, 64, 12)]);
            r.draw(6, 1, 6, 0);
        }
    })?;
    probed(
        img,
        &[
            (8, 0, rgb(RED)),
            (23, 31, rgb(RED)),
            (4, 16, unorm8(CLEAR)),
            (28, 16, unorm8(CLEAR)),
            (16, 40, unorm8(CLEAR)),
            (0, 48, rgb(GREEN)),
            (63, 59, rgb(GREEN)),
            (30, 62, unorm8(CLEAR)),
        ],
    )
}

/// Inside the pass: red everywhere at z 0.5 (D16, LESS, writing); then
/// vkCmdClearAttachments of the colour (to green) and the depth (to 0) in
/// two rectangles; then blue everywhere at z 0.25, which fails only in
/// the cleared rectangles.
fn clear_colour_and_depth(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = [all(0.5, RED), all(0.25, BLUE)].concat();
    let scene = Scene::new(h, &v, true)?;
    let mut desc = scene.desc();
    desc.depth = Some(vk::CompareOp::LESS);
    let pipeline = h.graphics_pipeline(&desc)?;
    let clears = [
        vk::ClearAttachment {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            color_attachment: 0,
            clear_value: vk::ClearValue {
                color: vk::ClearColorValue {
                    float32: [0.0, 1.0, 0.0, 1.0],
                },
            },
        },
        vk::ClearAttachment {
            aspect_mask: vk::ImageAspectFlags::DEPTH,
            color_attachment: 0,
            clear_value: vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: 0.0,
                    stencil: 0,
                },
            },
        },
    ];
    let img = scene.draw(h, pipeline, |r| {
        r.draw(6, 1, 0, 0);
        r.clear_attachments(
            &clears,
            &[clear_rect(8, 8, 16, 16), clear_rect(36, 30, 20, 26)],
        );
        r.draw(6, 1, 6, 0);
    })?;
    probed(
        img,
        &[
            (8, 8, rgb(GREEN)),
            (23, 23, rgb(GREEN)),
            (36, 30, rgb(GREEN)),
            (55, 55, rgb(GREEN)),
            (30, 30, rgb(BLUE)),
            (4, 60, rgb(BLUE)),
            (35, 40, rgb(BLUE)),
            (60, 4, rgb(BLUE)),
        ],
    )
}
