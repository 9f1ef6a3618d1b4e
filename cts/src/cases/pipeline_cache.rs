//! Pipeline caches: the data header the specification defines, creating a
//! cache from saved data, merging, and data from another driver build.

use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{ComputePipeline, Dependency, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "pipeline_cache.round_trip",
        run: round_trip,
    },
    Case {
        name: "pipeline_cache.stale_uuid",
        run: stale_uuid,
    },
];

/// `VK_PIPELINE_CACHE_HEADER_VERSION_ONE`: a 32-byte header of length,
/// version, vendorID, deviceID and pipelineCacheUUID.
const HEADER_BYTES: usize = 32;

fn cache(h: &mut Harness, data: &[u8]) -> Result<vk::PipelineCache, Stop> {
    let info = vk::PipelineCacheCreateInfo::default().initial_data(data);
    // SAFETY: the device is alive; `data` outlives the call.
    let cache = unsafe { h.device().create_pipeline_cache(&info, None) }
        .or_stop("vkCreatePipelineCache")?;
    Ok(h.own(cache))
}

fn data(h: &Harness, cache: vk::PipelineCache) -> Result<Vec<u8>, Stop> {
    // SAFETY: the cache is alive.
    unsafe { h.device().get_pipeline_cache_data(cache) }.or_stop("vkGetPipelineCacheData")
}

/// What is wrong with a cache data header, if anything.
fn header_problems(h: &Harness, data: &[u8]) -> Vec<String> {
    if data.len() < HEADER_BYTES {
        return vec![format!("cache data of {} bytes has no header", data.len())];
    }
    let word = |k: usize| {
        u32::from_le_bytes([
            data[4 * k],
            data[4 * k + 1],
            data[4 * k + 2],
            data[4 * k + 3],
        ])
    };
    let props = h.properties();
    let mut problems = Vec::new();
    if (word(0) as usize) < HEADER_BYTES {
        problems.push(format!("header length {}", word(0)));
    }
    if word(1) != vk::PipelineCacheHeaderVersion::ONE.as_raw() as u32 {
        problems.push(format!("header version {}", word(1)));
    }
    if word(2) != props.vendor_id || word(3) != props.device_id {
        problems.push(format!(
            "vendor/device {:#x}/{:#x}, the device reports {:#x}/{:#x}",
            word(2),
            word(3),
            props.vendor_id,
            props.device_id
        ));
    }
    if data[16..32] != props.pipeline_cache_uuid {
        problems.push("the UUID is not pipelineCacheUUID".into());
    }
    problems
}

fn step_pipeline(h: &mut Harness, cache: vk::PipelineCache) -> Result<ComputePipeline, Stop> {
    let sets: &[&[Slot]] = &[&[Slot::STORAGE, Slot::STORAGE]];
    h.pipeline(
        &PipelineDesc::new(&shaders::STEP, sets)
            .push_constants(4)
            .cache(cache),
    )
}

/// Runs one step with `pipeline` and returns the output.
fn run_step(
    h: &mut Harness,
    pipeline: &ComputePipeline,
    seed: u64,
) -> Result<(Vec<u32>, Vec<u32>), Stop> {
    let initial = Sequence::new(seed).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let set = step::set(h, pipeline, &a, &b)?;
    h.run(|r| {
        step::record(r, pipeline, set, 5);
        r.barrier(Dependency::TO_HOST);
    })?;
    Ok((h.read_as::<u32>(&b)?, step(&initial, 5)))
}

/// A cache filled by a pipeline, saved, loaded into a second cache that
/// builds a working pipeline, and both merged into a third.
fn round_trip(h: &mut Harness) -> Result<CaseResult, Stop> {
    let first = cache(h, &[])?;
    step_pipeline(h, first)?;
    let saved = data(h, first)?;
    let second = cache(h, &saved)?;
    let pipeline = step_pipeline(h, second)?;
    let (got, want) = run_step(h, &pipeline, 91)?;
    let merged = cache(h, &[])?;
    // SAFETY: the three caches are alive and distinct.
    unsafe { h.device().merge_pipeline_caches(merged, &[first, second]) }
        .or_stop("vkMergePipelineCaches")?;
    let merged_data = data(h, merged)?;
    let mut result = CaseResult::new();
    for problem in header_problems(h, &saved) {
        result.require(false, format!("saved data: {problem}"));
    }
    for problem in header_problems(h, &merged_data) {
        result.require(false, format!("merged data: {problem}"));
    }
    result.check("output", &got, &want);
    Ok(result)
}

/// Saved data whose UUID belongs to another driver build is ignored: the
/// cache starts empty (its data carries the device's own UUID) and works.
fn stale_uuid(h: &mut Harness) -> Result<CaseResult, Stop> {
    let first = cache(h, &[])?;
    step_pipeline(h, first)?;
    let mut stale = data(h, first)?;
    if stale.len() < HEADER_BYTES {
        return Ok(CaseResult::failed(format!(
            "cache data of {} bytes has no header",
            stale.len()
        )));
    }
    for byte in &mut stale[16..32] {
        *byte ^= 0x5a;
    }
    let reloaded = cache(h, &stale)?;
    let pipeline = step_pipeline(h, reloaded)?;
    let (got, want) = run_step(h, &pipeline, 92)?;
    let reloaded_data = data(h, reloaded)?;
    let mut result = CaseResult::new();
    for problem in header_problems(h, &reloaded_data) {
        result.require(false, format!("data of the reloaded cache: {problem}"));
    }
    result.check("output", &got, &want);
    Ok(result)
}
