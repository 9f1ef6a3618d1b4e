//! Dynamic rendering (Vulkan 1.3's `vkCmdBeginRendering`, or
//! VK_KHR_dynamic_rendering): draws with no `VkRenderPass`, into the
//! views a `VkRenderingInfo` names, with pipelines made for their formats
//! (`VkPipelineRenderingCreateInfo`): a clear and a draw; a depth test; a
//! multisampled draw resolved by the attachment's resolve view; draws in
//! a secondary that inherits the formats
//! (`VkCommandBufferInheritanceRenderingInfo`).
//!
//! And one scene (three overlapping depth-tested quads, one per piece)
//! rendered whole, and suspended and resumed
//! (`VK_RENDERING_SUSPENDING_BIT`, `RESUMING_BIT`): within one command
//! buffer, and across two and three command buffers of one submit (by
//! `vkQueueSubmit`, and by `vkQueueSubmit2` for two). Every
//! piece's info asks for the same clears (the spec has them match); the
//! chain is one render pass instance, cleared once at its start, so each
//! split renders the unsplit image, which the draw tests check on
//! Parsnip in every render mode besides comparing each with lavapipe.

use super::{
    color, depth, full, opaque, probe, quad, read_back, unorm8, Scene, BLUE, CLEAR, COLOR_LAYOUT,
    DEPTH_LAYOUT, GREEN, RED, RGBA8,
};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::cases::multisample;
use crate::harness::{DynamicRendering, GraphicsDesc, Harness, Recorder, Submission};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.dynamic_rendering_clear_and_draw",
        run: clear_and_draw,
    },
    Case {
        name: "draws.dynamic_rendering_depth",
        run: depth_test,
    },
    Case {
        name: "draws.dynamic_rendering_msaa_resolve",
        run: msaa_resolve,
    },
    Case {
        name: "draws.dynamic_rendering_secondary",
        run: in_secondary,
    },
    Case {
        name: "draws.dynamic_rendering_unsplit",
        run: |h| split_scene(h, Split::Whole),
    },
    Case {
        name: "draws.dynamic_rendering_suspended_in_one_buffer",
        run: |h| split_scene(h, Split::OneBuffer),
    },
    Case {
        name: "draws.dynamic_rendering_split_over_2",
        run: |h| split_scene(h, Split::Buffers(2)),
    },
    Case {
        name: "draws.dynamic_rendering_split_over_3",
        run: |h| split_scene(h, Split::Buffers(3)),
    },
    Case {
        name: "draws.dynamic_rendering_split_over_2_submit2",
        run: |h| split_scene(h, Split::Submit2(2)),
    },
    Case {
        name: "draws.dynamic_rendering_split_with_query",
        run: |h| split_scene(h, Split::Query),
    },
];

const D16: vk::Format = vk::Format::D16_UNORM;

/// An attachment of `view` in `layout`, loaded by `load` (cleared to
/// `clear`) and stored.
fn attachment(
    view: vk::ImageView,
    layout: vk::ImageLayout,
    load: vk::AttachmentLoadOp,
    clear: vk::ClearValue,
) -> vk::RenderingAttachmentInfo<'static> {
    vk::RenderingAttachmentInfo::default()
        .image_view(view)
        .image_layout(layout)
        .load_op(load)
        .store_op(vk::AttachmentStoreOp::STORE)
        .clear_value(clear)
}

/// The scene's colour attachment (cleared to CLEAR) and, when it has
/// one, its depth attachment (cleared to 1.0).
fn scene_attachments(
    h: &mut Harness,
    scene: &Scene,
) -> Result<Vec<vk::RenderingAttachmentInfo<'static>>, Stop> {
    let clear = vk::AttachmentLoadOp::CLEAR;
    let mut out = Vec::new();
    for (i, a) in scene.t.attachments.iter().enumerate() {
        let view = h.image_view(&a.image, vk::ImageViewType::TYPE_2D)?;
        out.push(if i == 0 {
            attachment(view, COLOR_LAYOUT, clear, color(CLEAR))
        } else {
            attachment(view, DEPTH_LAYOUT, clear, depth(1.0))
        });
    }
    Ok(out)
}

/// attributes.vert and colour.frag for dynamic rendering into the
/// scene's formats (RGBA8, and D16 with a depth test if it has depth).
fn scene_pipeline(h: &mut Harness, scene: &Scene) -> Result<vk::Pipeline, Stop> {
    let with_depth = scene.t.attachments.len() > 1;
    let mut desc: GraphicsDesc<'_> = scene.desc();
    desc.pass = vk::RenderPass::null();
    desc.rendering = Some((
        &[RGBA8],
        if with_depth {
            D16
        } else {
            vk::Format::UNDEFINED
        },
    ));
    if with_depth {
        desc.depth = Some(vk::CompareOp::LESS);
    }
    h.graphics_pipeline(&desc)
}

/// Records dynamic rendering of `attachments` (the first colour, the
/// second depth) with `flags` around `body`.
fn render(
    dr: &DynamicRendering,
    r: &Recorder<'_>,
    attachments: &[vk::RenderingAttachmentInfo<'_>],
    flags: vk::RenderingFlags,
    body: impl FnOnce(&Recorder<'_>),
) {
    let mut info = vk::RenderingInfo::default()
        .flags(flags)
        .render_area(full())
        .layer_count(1)
        .color_attachments(&attachments[..1]);
    if let Some(d) = attachments.get(1) {
        info = info.depth_attachment(d);
    }
    // SAFETY: the command buffer is recording; the views are alive.
    unsafe { dr.begin(r.command_buffer(), &info) };
    body(r);
    // SAFETY: the command buffer is recording inside the rendering.
    unsafe { dr.end(r.command_buffer()) };
}

/// Draws all of `vertices` in one dynamic rendering of the scene (with
/// its depth attachment if `with_depth`), inline or, `in_secondary`, from
/// a secondary that continues it (RENDER_PASS_CONTINUE with the formats
/// in a `VkCommandBufferInheritanceRenderingInfo`) executed in a
/// rendering begun with CONTENTS_SECONDARY_COMMAND_BUFFERS; returns the
/// colour image.
fn draw_quads(
    h: &mut Harness,
    vertices: &[f32],
    with_depth: bool,
    in_secondary: bool,
) -> Result<Vec<u8>, Stop> {
    let dr = h.dynamic_rendering()?.clone();
    let scene = Scene::new(h, vertices, with_depth)?;
    let attachments = scene_attachments(h, &scene)?;
    let pipeline = scene_pipeline(h, &scene)?;
    let count = (vertices.len() / 7) as u32;
    let draw = |r: &Recorder<'_>| {
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
        r.draw(count, 1, 0, 0);
    };
    let cmd = if in_secondary {
        let secondary = h.record_rendering_secondary(&[RGBA8], vk::Format::UNDEFINED, draw)?;
        let flags = vk::RenderingFlags::CONTENTS_SECONDARY_COMMAND_BUFFERS;
        h.record(|r| render(&dr, r, &attachments, flags, |r| r.execute(&[secondary])))?
    } else {
        h.record(|r| render(&dr, r, &attachments, vk::RenderingFlags::empty(), draw))?
    };
    h.submit_and_wait(&[cmd])?;
    read_back(h, &scene.t.attachments[0].image, COLOR_LAYOUT, 4)
}

/// The result of probing `img` at `probes` (x, y, texel), keeping it.
fn probed(img: Vec<u8>, probes: &[(u32, u32, [u8; 4])]) -> CaseResult {
    let mut result = CaseResult::new();
    for &(x, y, want) in probes {
        probe(&mut result, &img, x, y, want);
    }
    result.keep_approximate("rgba8", img);
    result
}

/// A red and a green quad.
fn two_quads() -> Vec<f32> {
    [
        quad(-0.75, -0.75, 0.0, 0.0, 0.5, RED),
        quad(0.25, 0.25, 0.75, 0.75, 0.5, GREEN),
    ]
    .concat()
}

/// `two_quads`' probes over CLEAR.
fn two_quads_probes() -> [(u32, u32, [u8; 4]); 7] {
    [
        (8, 8, opaque(RED)),
        (31, 31, opaque(RED)),
        (40, 40, opaque(GREEN)),
        (55, 55, opaque(GREEN)),
        (4, 4, unorm8(CLEAR)),
        (36, 20, unorm8(CLEAR)),
        (60, 60, unorm8(CLEAR)),
    ]
}

/// `two_quads` drawn in dynamic rendering cleared to CLEAR.
fn clear_and_draw(h: &mut Harness) -> Result<CaseResult, Stop> {
    let img = draw_quads(h, &two_quads(), false, false)?;
    Ok(probed(img, &two_quads_probes()))
}

/// `two_quads` drawn by a secondary.
fn in_secondary(h: &mut Harness) -> Result<CaseResult, Stop> {
    let img = draw_quads(h, &two_quads(), false, true)?;
    Ok(probed(img, &two_quads_probes()))
}

/// A near green quad drawn before a far red one overlapping it, depth
/// tested (LESS) against a depth attachment cleared to 1.0: the green
/// stays in front.
fn depth_test(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = [
        quad(-0.5, -0.5, 0.5, 0.5, 0.25, GREEN),
        quad(-1.0, -1.0, 0.0, 0.0, 0.75, RED),
    ]
    .concat();
    let img = draw_quads(h, &v, true, false)?;
    Ok(probed(
        img,
        &[
            (20, 20, opaque(GREEN)),
            (30, 30, opaque(GREEN)),
            (40, 40, opaque(GREEN)),
            (4, 4, opaque(RED)),
            (12, 28, opaque(RED)),
            (60, 60, unorm8(CLEAR)),
            (60, 4, unorm8(CLEAR)),
        ],
    ))
}

/// multisample.rs's scene drawn at 4 samples into a multisampled colour
/// attachment whose resolve view (AVERAGE) is the 64x64 image read back.
fn msaa_resolve(h: &mut Harness) -> Result<CaseResult, Stop> {
    let dr = h.dynamic_rendering()?.clone();
    let samples = multisample::SAMPLES;
    let msaa = multisample::multisampled(h, RGBA8, COLOR_LAYOUT, samples)?;
    let scene = Scene::new(h, &multisample::scene(multisample::RED), false)?;
    let resolved = &scene.t.attachments[0].image;
    let msaa_view = h.image_view(&msaa, vk::ImageViewType::TYPE_2D)?;
    let resolved_view = h.image_view(resolved, vk::ImageViewType::TYPE_2D)?;
    let black = color(multisample::BLACK);
    let attachments = [
        attachment(msaa_view, COLOR_LAYOUT, vk::AttachmentLoadOp::CLEAR, black)
            .resolve_mode(vk::ResolveModeFlags::AVERAGE)
            .resolve_image_view(resolved_view)
            .resolve_image_layout(COLOR_LAYOUT),
    ];
    let mut desc = scene.desc();
    desc.pass = vk::RenderPass::null();
    desc.rendering = Some((&[RGBA8], vk::Format::UNDEFINED));
    desc.samples = samples;
    let pipeline = h.graphics_pipeline(&desc)?;
    let vertices = (multisample::scene(multisample::RED).len() / 7) as u32;
    let cmd = h.record(|r| {
        render(&dr, r, &attachments, vk::RenderingFlags::empty(), |r| {
            r.bind_graphics(pipeline);
            r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
            r.draw(vertices, 1, 0, 0);
        });
    })?;
    h.submit_and_wait(&[cmd])?;
    let img = read_back(h, resolved, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    let red = multisample::RED;
    multisample::probe_scene(
        &mut result,
        &img,
        multisample::covered(red, 4),
        multisample::covered(red, 2),
    );
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// How the scene's rendering is cut.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    /// One rendering.
    Whole,
    /// Suspended after each quad and resumed, in one command buffer.
    OneBuffer,
    /// Over this many command buffers of one submit, each rendering
    /// suspending (but the last) and resuming (but the first).
    Buffers(usize),
    /// The same, submitted by `vkQueueSubmit2`.
    Submit2(usize),
    /// Over two command buffers, with a precise occlusion query around
    /// the first piece's draws (red, then green in front: 2 x 32 x 32
    /// samples), ended in that piece and copied after the chain.
    Query,
}

/// The split scene: a red quad over window [8, 40)^2 at depth 0.5, a
/// green one over [24, 56)^2 at 0.3 (in front of the red where they
/// overlap), a blue band over x [0, 64), y [44, 60) at 0.7 (behind the
/// green), each drawn by its own draw, into RGBA8 and D16 cleared once.
fn split_scene(h: &mut Harness, split: Split) -> Result<CaseResult, Stop> {
    let dr = h.dynamic_rendering()?.clone();
    let n = |w: f32| w / 32.0 - 1.0;
    let v = [
        quad(n(8.0), n(8.0), n(40.0), n(40.0), 0.5, RED),
        quad(n(24.0), n(24.0), n(56.0), n(56.0), 0.3, GREEN),
        quad(n(0.0), n(44.0), n(64.0), n(60.0), 0.7, BLUE),
    ]
    .concat();
    let scene = Scene::new(h, &v, true)?;
    let attachments = scene_attachments(h, &scene)?;
    let pipeline = scene_pipeline(h, &scene)?;
    let draws = |r: &Recorder<'_>, quads: std::ops::Range<u32>| {
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
        for q in quads {
            r.draw(6, 1, 6 * q, 0);
        }
    };
    let suspending = vk::RenderingFlags::SUSPENDING;
    let resuming = vk::RenderingFlags::RESUMING;
    // The flags of piece `i` of `pieces`.
    let flags = |i: usize, pieces: usize| {
        let mut f = vk::RenderingFlags::empty();
        if i > 0 {
            f |= resuming;
        }
        if i + 1 < pieces {
            f |= suspending;
        }
        f
    };
    let query = if split == Split::Query {
        if !h.caps().occlusion_query_precise {
            return Err(Stop::NotSupported("occlusionQueryPrecise".into()));
        }
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::OCCLUSION)
            .query_count(1);
        // SAFETY: the device is alive; the pool is owned from here on.
        let pool =
            unsafe { h.device().create_query_pool(&info, None) }.or_stop("vkCreateQueryPool")?;
        let counts = h.host_buffer(8, vk::BufferUsageFlags::TRANSFER_DST)?;
        Some((h.own(pool), counts))
    } else {
        None
    };
    let mut buffers = Vec::new();
    match split {
        Split::Whole => buffers
            .push(h.record(|r| render(&dr, r, &attachments, flags(0, 1), |r| draws(r, 0..3)))?),
        Split::OneBuffer => buffers.push(h.record(|r| {
            for q in 0..3 {
                render(&dr, r, &attachments, flags(q, 3), |r| {
                    draws(r, q as u32..q as u32 + 1)
                });
            }
        })?),
        Split::Query => {
            let (pool, counts) = query.as_ref().expect("made above");
            let pool = *pool;
            buffers.push(h.record(|r| {
                let (d, cmd) = (r.device(), r.command_buffer());
                // SAFETY: the command buffer is recording outside a pass;
                // the pool is alive.
                unsafe { d.cmd_reset_query_pool(cmd, pool, 0, 1) };
                render(&dr, r, &attachments, flags(0, 2), |r| {
                    // SAFETY: recording inside the rendering; the query
                    // was reset.
                    unsafe { d.cmd_begin_query(cmd, pool, 0, vk::QueryControlFlags::PRECISE) };
                    draws(r, 0..2);
                    // SAFETY: the query is active.
                    unsafe { d.cmd_end_query(cmd, pool, 0) };
                });
            })?);
            buffers.push(h.record(|r| {
                render(&dr, r, &attachments, flags(1, 2), |r| draws(r, 2..3));
                let wait = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
                // SAFETY: recording outside a pass; the pool and buffer are
                // alive, the copy inside the buffer.
                unsafe {
                    r.device().cmd_copy_query_pool_results(
                        r.command_buffer(),
                        pool,
                        0,
                        1,
                        counts.handle,
                        0,
                        8,
                        wait,
                    )
                };
                r.barrier(crate::harness::Dependency::TO_HOST);
            })?);
        }
        Split::Buffers(pieces) | Split::Submit2(pieces) => {
            // The quads each piece draws: the first takes what the
            // others leave (two quads over two buffers).
            let first = 3 - (pieces as u32 - 1);
            for i in 0..pieces {
                let quads = if i == 0 {
                    0..first
                } else {
                    first + i as u32 - 1..first + i as u32
                };
                buffers.push(h.record(|r| {
                    render(&dr, r, &attachments, flags(i, pieces), |r| draws(r, quads))
                })?);
            }
        }
    }
    let fence = h.fence(false)?;
    if let Split::Submit2(_) = split {
        let infos: Vec<_> = buffers
            .iter()
            .map(|&b| vk::CommandBufferSubmitInfo::default().command_buffer(b))
            .collect();
        let submits = [vk::SubmitInfo2::default().command_buffer_infos(&infos)];
        // SAFETY: the command buffers and the fence are alive and owned by
        // the harness; every array outlives the call.
        unsafe { h.synchronization2()?.submit(h.queue(), &submits, fence) }
            .or_stop("vkQueueSubmit2")?;
    } else {
        h.submit(
            &[Submission {
                commands: &buffers,
                ..Default::default()
            }],
            fence,
        )?;
    }
    h.wait_for(fence)?;
    let samples = match &query {
        Some((_, counts)) => Some(h.read_as::<u64>(counts)?),
        None => None,
    };
    let img = read_back(h, &scene.t.attachments[0].image, COLOR_LAYOUT, 4)?;
    let mut result = probed(
        img,
        &[
            (10, 10, opaque(RED)),
            (12, 30, opaque(RED)),
            (30, 12, opaque(RED)),
            (30, 30, opaque(GREEN)),
            (38, 38, opaque(GREEN)),
            (50, 30, opaque(GREEN)),
            (40, 50, opaque(GREEN)),
            (4, 50, opaque(BLUE)),
            (60, 58, opaque(BLUE)),
            (2, 2, unorm8(CLEAR)),
            (60, 4, unorm8(CLEAR)),
            (4, 62, unorm8(CLEAR)),
            (4, 40, unorm8(CLEAR)),
        ],
    );
    if let Some(got) = samples {
        result.check("samples_passed", &got, &[2 * 32 * 32]);
    }
    Ok(result)
}
