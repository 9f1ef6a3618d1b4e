//! Draws recorded in secondary command buffers that continue a render
//! pass's subpass (RENDER_PASS_CONTINUE) and run with
//! `vkCmdExecuteCommands`, alone and between the primary's own draws in
//! other subpasses of the same pass. A secondary binds its own state (it
//! inherits none), and the primary binds again after running one (its
//! state is undefined then), as Vulkan's "Command Buffer Recording" says.

use super::draws::{
    floats, full, probe, quad, target, unorm8, Scene, ATTRIBUTES, CLEAR, COLOR_LAYOUT, SIZE,
};
use super::render_passes::{color, read_back};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Continues, GraphicsDesc, Harness};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.secondary_draws",
        run: secondary_draws,
    },
    Case {
        name: "draws.two_secondaries_and_primary_draws",
        run: |h| two_secondaries_and_primary_draws(h, false),
    },
    Case {
        name: "queries.occlusion_across_secondaries",
        run: query_across_secondaries,
    },
];

const RED: [f32; 3] = [1.0, 0.0, 0.0];
const GREEN: [f32; 3] = [0.0, 1.0, 0.0];
const BLUE: [f32; 3] = [0.0, 0.0, 1.0];
const WHITE: [f32; 3] = [1.0, 1.0, 1.0];

fn opaque(c: [f32; 3]) -> [u8; 4] {
    unorm8([c[0], c[1], c[2], 1.0])
}

/// Two quads drawn by a secondary that names no framebuffer (the
/// inheritance may leave it null): red over window [16, 32)^2, green over
/// [32, 48)^2.
fn secondary_draws(h: &mut Harness) -> Result<CaseResult, Stop> {
    let v = [
        quad(-0.5, -0.5, 0.0, 0.0, 0.5, RED),
        quad(0.0, 0.0, 0.5, 0.5, 0.5, GREEN),
    ]
    .concat();
    let scene = Scene::new(h, &v, false)?;
    let pipeline = h.graphics_pipeline(&scene.desc())?;
    let continues = Continues {
        pass: scene.t.pass,
        subpass: 0,
        framebuffer: vk::Framebuffer::null(),
        occlusion_query: false,
    };
    let secondary = h.record_secondary(continues, |r| {
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
        r.draw(12, 1, 0, 0);
    })?;
    h.run(|r| {
        r.begin_pass_with(
            scene.t.pass,
            scene.t.fb,
            full(),
            &[color(CLEAR)],
            vk::SubpassContents::SECONDARY_COMMAND_BUFFERS,
        );
        r.execute(&[secondary]);
        r.end_pass();
    })?;
    let img = read_back(h, &scene.t.attachments[0].image, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    for (x, y, want) in [
        (16, 16, opaque(RED)),
        (31, 31, opaque(RED)),
        (20, 28, opaque(RED)),
        (32, 32, opaque(GREEN)),
        (47, 47, opaque(GREEN)),
        (40, 35, opaque(GREEN)),
        (15, 15, unorm8(CLEAR)),
        (40, 20, unorm8(CLEAR)),
        (20, 40, unorm8(CLEAR)),
        (48, 48, unorm8(CLEAR)),
    ] {
        probe(&mut result, &img, x, y, want);
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A pass of three subpasses over one colour attachment: the primary
/// draws a red quad in the first; two secondaries draw a green and a blue
/// one in the second (the second names the framebuffer, the first does
/// not); the primary binds again and draws a white one in the third.
/// `with_query`: an occlusion query begun before the pass counts every
/// quad's samples, the secondaries' included (inheritedQueries): four
/// quads of 16x16 pixels that do not overlap, 1024 samples.
fn two_secondaries_and_primary_draws(
    h: &mut Harness,
    with_query: bool,
) -> Result<CaseResult, Stop> {
    let t = target(h, false)?;
    // Before the vertex buffers: the validation layer appears to take the draws
    // instance-rate reads as reaching past the offsets buffer's 64 bytes
    // (Parsnip's allocation of it) into the memory allocated next.
    let counts = h.host_buffer(8, vk::BufferUsageFlags::TRANSFER_DST)?;
    let attachments = &t.attachments;
    let pass = h.render_pass(attachments, &[&[0], &[0], &[0]], &[None, None, None], false)?;
    let fb = h.framebuffer(pass, attachments)?;
    let quads = [
        quad(-1.0, -1.0, -0.5, -0.5, 0.5, RED),
        quad(-0.5, -0.5, 0.0, 0.0, 0.5, GREEN),
        quad(0.0, 0.0, 0.5, 0.5, 0.5, BLUE),
        quad(0.5, 0.5, 1.0, 1.0, 0.5, WHITE),
    ]
    .concat();
    let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&quads))?;
    let offsets = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&[0.0; 2]))?;
    let mut pipelines = Vec::new();
    for subpass in 0..3 {
        let mut desc =
            GraphicsDesc::new(&shaders::ATTRIBUTES_VERT, &shaders::COLOUR_FRAG, pass, SIZE);
        desc.bindings = &ATTRIBUTES;
        desc.subpass = subpass;
        pipelines.push(h.graphics_pipeline(&desc)?);
    }
    let pool = if with_query {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::OCCLUSION)
            .query_count(1);
        // SAFETY: the device is alive; the pool is owned from here on.
        let pool =
            unsafe { h.device().create_query_pool(&info, None) }.or_stop("vkCreateQueryPool")?;
        Some(h.own(pool))
    } else {
        None
    };
    let mut secondaries = Vec::new();
    for (first_vertex, framebuffer) in [(6, vk::Framebuffer::null()), (12, fb)] {
        let continues = Continues {
            pass,
            subpass: 1,
            framebuffer,
            occlusion_query: with_query,
        };
        let pipeline = pipelines[1];
        secondaries.push(h.record_secondary(continues, |r| {
            r.bind_graphics(pipeline);
            r.bind_vertex_buffers(&[&vb, &offsets]);
            r.draw(6, 1, first_vertex, 0);
        })?);
    }
    h.run(|r| {
        let (d, cmd) = (r.device(), r.command_buffer());
        if let Some(pool) = pool {
            // SAFETY: the command buffer is recording outside a pass; the pool is alive.
            unsafe {
                d.cmd_reset_query_pool(cmd, pool, 0, 1);
                d.cmd_begin_query(cmd, pool, 0, vk::QueryControlFlags::PRECISE);
            }
        }
        r.begin_pass(pass, fb, full(), &[color(CLEAR)]);
        r.bind_graphics(pipelines[0]);
        r.bind_vertex_buffers(&[&vb, &offsets]);
        r.draw(6, 1, 0, 0);
        r.next_subpass_with(vk::SubpassContents::SECONDARY_COMMAND_BUFFERS);
        r.execute(&secondaries);
        r.next_subpass_with(vk::SubpassContents::INLINE);
        r.bind_graphics(pipelines[2]);
        r.bind_vertex_buffers(&[&vb, &offsets]);
        r.draw(6, 1, 18, 0);
        r.end_pass();
        if let Some(pool) = pool {
            // SAFETY: as above; the query is active.
            unsafe {
                d.cmd_end_query(cmd, pool, 0);
                d.cmd_copy_query_pool_results(
                    cmd,
                    pool,
                    0,
                    1,
                    counts.handle,
                    0,
                    8,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                );
            }
        }
        r.barrier(crate::harness::Dependency::TO_HOST);
    })?;
    let img = read_back(h, &attachments[0].image, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    for (x, y, want) in [
        (0, 0, opaque(RED)),
        (15, 15, opaque(RED)),
        (16, 16, opaque(GREEN)),
        (31, 31, opaque(GREEN)),
        (32, 32, opaque(BLUE)),
        (47, 47, opaque(BLUE)),
        (48, 48, opaque(WHITE)),
        (63, 63, opaque(WHITE)),
        (40, 20, unorm8(CLEAR)),
        (20, 40, unorm8(CLEAR)),
        (63, 0, unorm8(CLEAR)),
    ] {
        probe(&mut result, &img, x, y, want);
    }
    if pool.is_some() {
        let got = h.read_as::<u64>(&counts)?;
        result.check("samples_passed", &got, &[4 * 16 * 16]);
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The pass above with its occlusion query active across the secondaries,
/// which needs inheritedQueries (lavapipe 22.3 lacks it).
fn query_across_secondaries(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().inherited_queries {
        return Err(Stop::NotSupported("inheritedQueries".into()));
    }
    two_secondaries_and_primary_draws(h, true)
}
