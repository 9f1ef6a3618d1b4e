//! Occlusion queries in a render pass: the samples that passed the depth
//! test in each query, read with `vkGetQueryPoolResults` and copied with
//! `vkCmdCopyQueryPoolResults`, with and without WAIT, 64-bit, the
//! availability and PARTIAL. The scene's quads have edges on pixel
//! boundaries, so each covers an exact number of pixel centres and every
//! conforming driver counts the same: the counts are exact outputs.

use super::draws::{full, probe, quad, unorm8, Scene, CLEAR};
use super::render_passes::{color, depth, read_back};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Continues, Dependency, Harness};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.occlusion_query_counts",
        run: counts,
    },
    Case {
        name: "draws.occlusion_query_copy",
        run: copies,
    },
];

/// Queries the scene uses, and the one reset but never begun.
const QUERIES: u32 = 5;
const NEVER_BEGUN: u32 = 4;

/// Samples each of the first four queries counts: a near quad of 32x32;
/// a far one of 32x32 with a quarter behind the first; a far one of
/// 16x16 wholly behind it; a nearer one of 16x16 off it.
const SAMPLES: [u64; 4] = [1024, 768, 0, 256];

/// Which queries are precise: the others may count any non-zero number
/// when samples passed (Vulkan's "Occlusion Queries").
const PRECISE: [bool; 4] = [true, false, true, true];

fn query_pool(h: &mut Harness) -> Result<vk::QueryPool, Stop> {
    if !h.caps().occlusion_query_precise {
        return Err(Stop::NotSupported("occlusionQueryPrecise".into()));
    }
    let info = vk::QueryPoolCreateInfo::default()
        .query_type(vk::QueryType::OCCLUSION)
        .query_count(QUERIES);
    // SAFETY: the device is alive; the pool is owned from here on.
    let pool = unsafe { h.device().create_query_pool(&info, None) }.or_stop("vkCreateQueryPool")?;
    Ok(h.own(pool))
}

/// Draws the scene (depth test LESS over depth 1.0) with query `i` around
/// quad `i`, in the primary or in a secondary that also begins and ends
/// the queries; the queries are reset first. `after` records what follows
/// the pass. Returns the image, checked.
fn draw_scene(
    h: &mut Harness,
    pool: vk::QueryPool,
    in_secondary: bool,
    result: &mut CaseResult,
    after: impl FnOnce(&crate::harness::Recorder<'_>),
) -> Result<(), Stop> {
    let red = [1.0, 0.0, 0.0];
    let green = [0.0, 1.0, 0.0];
    let blue = [0.0, 0.0, 1.0];
    let white = [1.0, 1.0, 1.0];
    let v = [
        quad(-0.5, -0.5, 0.5, 0.5, 0.25, red),
        quad(-1.0, -1.0, 0.0, 0.0, 0.75, green),
        quad(0.0, 0.0, 0.5, 0.5, 0.75, blue),
        quad(0.5, 0.5, 1.0, 1.0, 0.1, white),
    ]
    .concat();
    let scene = Scene::new(h, &v, true)?;
    let mut desc = scene.desc();
    desc.depth = Some(vk::CompareOp::LESS);
    let pipeline = h.graphics_pipeline(&desc)?;
    let draws = |r: &crate::harness::Recorder<'_>| {
        let (d, cmd) = (r.device(), r.command_buffer());
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
        for (i, precise) in PRECISE.iter().enumerate() {
            let flags = if *precise {
                vk::QueryControlFlags::PRECISE
            } else {
                vk::QueryControlFlags::empty()
            };
            // SAFETY: the command buffer is recording in the pass; the pool is alive.
            unsafe { d.cmd_begin_query(cmd, pool, i as u32, flags) };
            r.draw(6, 1, 6 * i as u32, 0);
            // SAFETY: as above; the query is active.
            unsafe { d.cmd_end_query(cmd, pool, i as u32) };
        }
    };
    let secondary = if in_secondary {
        let continues = Continues {
            pass: scene.t.pass,
            subpass: 0,
            framebuffer: scene.t.fb,
            occlusion_query: false,
        };
        Some(h.record_secondary(continues, draws)?)
    } else {
        None
    };
    let clears = [color(CLEAR), depth(1.0)];
    h.run(|r| {
        // SAFETY: the command buffer is recording outside a pass; the pool is alive.
        unsafe {
            r.device()
                .cmd_reset_query_pool(r.command_buffer(), pool, 0, QUERIES)
        };
        match secondary {
            Some(s) => {
                r.begin_pass_with(
                    scene.t.pass,
                    scene.t.fb,
                    full(),
                    &clears,
                    vk::SubpassContents::SECONDARY_COMMAND_BUFFERS,
                );
                r.execute(&[s]);
            }
            None => {
                r.begin_pass(scene.t.pass, scene.t.fb, full(), &clears);
                draws(r);
            }
        }
        r.end_pass();
        after(r);
    })?;
    let img = read_back(
        h,
        &scene.t.attachments[0].image,
        super::draws::COLOR_LAYOUT,
        4,
    )?;
    for (x, y, want) in [
        (20, 20, [255, 0, 0, 255]),
        (40, 40, [255, 0, 0, 255]),
        (8, 8, [0, 255, 0, 255]),
        (8, 30, [0, 255, 0, 255]),
        (50, 50, [255, 255, 255, 255]),
        (50, 8, unorm8(CLEAR)),
    ] {
        probe(result, &img, x, y, want);
    }
    result.keep_approximate("rgba8", img);
    Ok(())
}

/// Checks counts `got` of the first four queries: exact for the precise
/// ones, non-zero exactly when samples passed for the others.
fn check_counts(result: &mut CaseResult, got: &[u64], what: &str) {
    check_counts_of(result, got, 0, what);
}

/// [`check_counts`] of queries from `first` on.
fn check_counts_of(result: &mut CaseResult, got: &[u64], first: usize, what: &str) {
    for (i, (&g, &want)) in got.iter().zip(&SAMPLES[first..]).enumerate() {
        let i = first + i;
        let ok = if PRECISE[i] {
            g == want
        } else {
            (g != 0) == (want != 0)
        };
        result.require(
            ok,
            format!("{what}: query {i} counted {g}, expected {want}"),
        );
    }
}

/// The counts read on the host: with WAIT as 64 bits; then all five with
/// their availability as 32 bits and no WAIT (the never begun one is not
/// ready, its value left as it was); then with PARTIAL (the available
/// ones give their final count).
fn counts(h: &mut Harness) -> Result<CaseResult, Stop> {
    let pool = query_pool(h)?;
    let mut result = CaseResult::new();
    draw_scene(h, pool, false, &mut result, |_| {})?;
    let device = h.device();
    let mut waited = [0u64; 4];
    // SAFETY: the pool is alive and the four queries were submitted.
    unsafe {
        device.get_query_pool_results(
            pool,
            0,
            &mut waited,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
    }
    .or_stop("vkGetQueryPoolResults")?;
    check_counts(&mut result, &waited, "WAIT | 64");
    // Five (value, availability) pairs of 32 bits, the unavailable value
    // left as this poison.
    let mut pairs = [[0xdead_beef_u32; 2]; QUERIES as usize];
    // SAFETY: as above; the array holds QUERIES pairs.
    let ready = unsafe {
        device.get_query_pool_results(pool, 0, &mut pairs, vk::QueryResultFlags::WITH_AVAILABILITY)
    };
    result.require(
        ready == Err(vk::Result::NOT_READY),
        format!("the never begun query gives NOT_READY, not {ready:?}"),
    );
    let narrow: Vec<u64> = pairs[..4].iter().map(|p| u64::from(p[0])).collect();
    check_counts(&mut result, &narrow, "32 bits with availability");
    for (i, p) in pairs.iter().enumerate() {
        let available = i as u32 != NEVER_BEGUN;
        result.require(
            p[1] == u32::from(available),
            format!("query {i}'s availability is {}", p[1]),
        );
    }
    result.require(
        pairs[NEVER_BEGUN as usize][0] == 0xdead_beef,
        "the unavailable value is not written",
    );
    let mut partial = [0u64; 4];
    // SAFETY: as above.
    unsafe {
        device.get_query_pool_results(
            pool,
            0,
            &mut partial,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::PARTIAL,
        )
    }
    .or_stop("vkGetQueryPoolResults")?;
    check_counts(&mut result, &partial, "PARTIAL | 64");
    let mut counts: Vec<u8> = waited
        .iter()
        .chain(&partial)
        .flat_map(|c| c.to_le_bytes())
        .collect();
    counts.extend(pairs.iter().flatten().flat_map(|c| c.to_le_bytes()));
    result.keep_exact("counts", counts);
    Ok(result)
}

/// Bytes of the copies' destination buffer, filled with poison first.
const COPY_BYTES: usize = 256;

/// The counts copied by the GPU after the pass (the queries begun and
/// ended in a secondary, so their availability comes from the primary's
/// pass end): the four with WAIT as 64 bits, 8 bytes apart; all five with
/// their availability as 32 bits, 8 bytes apart, from byte 64; the last two with their availability
/// as 64 bits, 16 bytes apart, from byte 160; and the first with
/// PARTIAL at byte 240.
fn copies(h: &mut Harness) -> Result<CaseResult, Stop> {
    let pool = query_pool(h)?;
    let poison = vec![0xa5u8; COPY_BYTES];
    let dst = h.host_buffer_with(vk::BufferUsageFlags::TRANSFER_DST, &poison)?;
    let mut result = CaseResult::new();
    draw_scene(h, pool, true, &mut result, |r| {
        let (d, cmd) = (r.device(), r.command_buffer());
        let wide = vk::QueryResultFlags::TYPE_64;
        let with = vk::QueryResultFlags::WITH_AVAILABILITY;
        // SAFETY: the command buffer is recording outside a pass; the
        // pool and buffer are alive, the copies inside the buffer.
        unsafe {
            d.cmd_copy_query_pool_results(
                cmd,
                pool,
                0,
                4,
                dst.handle,
                0,
                8,
                wide | vk::QueryResultFlags::WAIT,
            );
            d.cmd_copy_query_pool_results(cmd, pool, 0, QUERIES, dst.handle, 64, 8, with);
            d.cmd_copy_query_pool_results(cmd, pool, 3, 2, dst.handle, 160, 16, wide | with);
            d.cmd_copy_query_pool_results(
                cmd,
                pool,
                0,
                1,
                dst.handle,
                240,
                8,
                wide | vk::QueryResultFlags::PARTIAL,
            );
        }
        r.barrier(Dependency::TO_HOST);
    })?;
    let bytes = h.read(&dst)?;
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let waited: Vec<u64> = (0..4).map(|i| u64_at(8 * i)).collect();
    check_counts(&mut result, &waited, "WAIT | 64");
    let narrow: Vec<u64> = (0..4).map(|i| u64::from(u32_at(64 + 8 * i))).collect();
    check_counts(&mut result, &narrow, "32 bits with availability");
    for i in 0..QUERIES as usize {
        let available = u32_at(64 + 8 * i + 4);
        result.require(
            available == u32::from(i as u32 != NEVER_BEGUN),
            format!("query {i}'s copied availability is {available}"),
        );
    }
    let query3 = [u64_at(160)];
    check_counts_of(&mut result, &query3, 3, "64 bits with availability");
    result.require(u64_at(168) == 1, "query 3's 64-bit availability is 1");
    result.require(u64_at(184) == 0, "query 4's 64-bit availability is 0");
    check_counts(&mut result, &[u64_at(240)], "PARTIAL | 64");
    // What a copy writes for an unavailable query's value is not defined
    // (lavapipe writes 0, Parsnip nothing): those bytes are left out.
    let mut kept = bytes.clone();
    let never = 64 + 8 * NEVER_BEGUN as usize;
    kept[never..never + 4].fill(0);
    kept[176..184].fill(0);
    result.keep_exact("copied", kept);
    Ok(result)
}
