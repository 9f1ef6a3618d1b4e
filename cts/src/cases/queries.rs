//! Timestamp queries: ordering, valid bits, availability and resets.

use super::pseudo_random::Sequence;
use super::step::{self, WORDS};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Dependency, Harness};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "queries.timestamps",
        run: timestamps,
    },
    Case {
        name: "queries.availability",
        run: availability,
    },
    Case {
        name: "queries.host_reset",
        run: host_reset,
    },
];

fn timestamp_pool(h: &mut Harness, count: u32) -> Result<vk::QueryPool, Stop> {
    if h.caps().timestamp_valid_bits == 0 {
        return Err(Stop::NotSupported(
            "timestamps on the compute queue (timestampValidBits is 0)".into(),
        ));
    }
    let info = vk::QueryPoolCreateInfo::default()
        .query_type(vk::QueryType::TIMESTAMP)
        .query_count(count);
    // SAFETY: the device is alive; the pool is owned from here on.
    let pool = unsafe { h.device().create_query_pool(&info, None) }.or_stop("vkCreateQueryPool")?;
    Ok(h.own(pool))
}

/// Four timestamps around two dispatches. Those written at the bottom of
/// the pipe come after everything before them; none has bits beyond
/// timestampValidBits; the span converts to a plausible duration.
fn timestamps(h: &mut Harness) -> Result<CaseResult, Stop> {
    let pool = timestamp_pool(h, 4)?;
    let initial = Sequence::new(81).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let pipeline = step::pipeline(h)?;
    let a_to_b = step::set(h, &pipeline, &a, &b)?;
    let b_to_a = step::set(h, &pipeline, &b, &a)?;
    h.run(|r| {
        let (d, cmd) = (r.device(), r.command_buffer());
        // SAFETY: the command buffer is recording; the pool is alive.
        unsafe {
            d.cmd_reset_query_pool(cmd, pool, 0, 4);
            d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::TOP_OF_PIPE, pool, 0);
        }
        step::record(r, &pipeline, a_to_b, 1);
        // SAFETY: as above.
        unsafe { d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 1) };
        r.barrier(Dependency::COMPUTE_TO_COMPUTE);
        step::record(r, &pipeline, b_to_a, 2);
        // SAFETY: as above.
        unsafe {
            d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::COMPUTE_SHADER, pool, 2);
            d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 3);
        }
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut t = [0u64; 4];
    // SAFETY: the pool is alive; its queries were written by completed work.
    unsafe {
        h.device().get_query_pool_results(
            pool,
            0,
            &mut t,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
    }
    .or_stop("vkGetQueryPoolResults")?;
    let bits = h.caps().timestamp_valid_bits;
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let period = f64::from(h.properties().limits.timestamp_period);
    let span_s = t[3].wrapping_sub(t[0]) as f64 * period / 1e9;
    let facts = [
        u32::from(t.iter().all(|v| v & !mask == 0)),
        u32::from(t[0] <= t[3] && t[1] <= t[3] && t[2] <= t[3]),
        u32::from(period > 0.0 && span_s < 60.0),
    ];
    let mut result = CaseResult::new();
    result.require(
        facts[0] == 1,
        format!("timestamps {t:x?} exceed {bits} valid bits"),
    );
    result.require(facts[1] == 1, format!("timestamps {t:?} out of order"));
    result.require(
        facts[2] == 1,
        format!("period {period} ns and span {span_s} s are implausible"),
    );
    result.check("facts", &facts, &[1, 1, 1]);
    Ok(result)
}

/// What `vkGetQueryPoolResults` returned for the first `count` queries,
/// with each one's availability as 0 or 1.
fn results_with_availability(
    h: &Harness,
    pool: vk::QueryPool,
    count: usize,
    wait: bool,
) -> (i32, Vec<u32>) {
    let mut flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY;
    if wait {
        flags |= vk::QueryResultFlags::WAIT;
    }
    let mut results = vec![[0u64; 2]; count];
    // SAFETY: the pool is alive; the callers wait only for written queries.
    let code = match unsafe {
        h.device()
            .get_query_pool_results(pool, 0, &mut results, flags)
    } {
        Ok(()) => vk::Result::SUCCESS,
        Err(e) => e,
    };
    (
        code.as_raw(),
        results.iter().map(|q| u32::from(q[1] != 0)).collect(),
    )
}

/// Resets both queries of a pool of two and writes the first only.
fn write_first_of_two(h: &mut Harness) -> Result<vk::QueryPool, Stop> {
    let pool = timestamp_pool(h, 2)?;
    h.run(|r| {
        let (d, cmd) = (r.device(), r.command_buffer());
        // SAFETY: the command buffer is recording; the pool is alive.
        unsafe {
            d.cmd_reset_query_pool(cmd, pool, 0, 2);
            d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 0);
        }
    })?;
    Ok(pool)
}

/// Of two queries only the first is written: without WAIT the results are
/// NOT_READY with availability 1 and 0; waiting for the first succeeds.
fn availability(h: &mut Harness) -> Result<CaseResult, Stop> {
    let pool = write_first_of_two(h)?;
    let (code_both, available_both) = results_with_availability(h, pool, 2, false);
    let (code_first, available_first) = results_with_availability(h, pool, 1, true);
    let mut result = CaseResult::new();
    result.check(
        "codes",
        &[code_both, code_first],
        &[vk::Result::NOT_READY.as_raw(), vk::Result::SUCCESS.as_raw()],
    );
    result.check(
        "available",
        &[available_both, available_first].concat(),
        &[1, 0, 1],
    );
    Ok(result)
}

/// vkResetQueryPool from the host makes a written query unavailable again.
fn host_reset(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().host_query_reset {
        return Err(Stop::NotSupported(
            "hostQueryReset (Vulkan 1.2 or VK_EXT_host_query_reset)".into(),
        ));
    }
    let pool = write_first_of_two(h)?;
    let (_, before) = results_with_availability(h, pool, 1, true);
    if vk::api_version_minor(h.caps().api_version) >= 2 {
        // SAFETY: the pool is alive and no pending work uses it.
        unsafe { h.device().reset_query_pool(pool, 0, 1) };
    } else {
        let ext = ash::ext::host_query_reset::Device::new(h.instance(), h.device());
        // SAFETY: as above; the entry point was loaded for this device.
        unsafe { (ext.fp().reset_query_pool_ext)(ext.device(), pool, 0, 1) };
    }
    let (code, after) = results_with_availability(h, pool, 1, false);
    let mut result = CaseResult::new();
    result.check("codes", &[code], &[vk::Result::NOT_READY.as_raw()]);
    result.check("available", &[before, after].concat(), &[1, 0]);
    Ok(result)
}
