//! Required subgroup sizes (subgroupSizeControl, computeFullSubgroups): a
//! compute pipeline made for the smallest and for the largest size the
//! device reports runs in subgroups of that size, its built-ins, reductions,
//! scans and ballots checked against the CPU; one allowed a varying size
//! runs at a size within the range. The outputs depend on the device's
//! sizes, so they are checked here and not compared between drivers.

use super::pseudo_random::Sequence;
use super::subgroup_size_expectation::{expected, GROUP, WORDS};
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "subgroups.required_sizes",
    run: required_sizes,
}];

const GROUPS: u32 = 2;
const N: usize = GROUP * GROUPS as usize;

/// The shader's outputs with `size` required (or none) and `flags`.
fn run(
    h: &mut Harness,
    input: &[u32],
    size: Option<u32>,
    flags: vk::PipelineShaderStageCreateFlags,
) -> Result<Vec<u32>, Stop> {
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let input = h.host_buffer_with(usage, &to_bytes(input))?;
    let output = h.host_buffer((N * WORDS * 4) as u64, usage)?;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE, Slot::STORAGE]];
    let desc = PipelineDesc {
        stage_flags: flags,
        required_subgroup_size: size,
        ..PipelineDesc::new(&shaders::SUBGROUP_SIZE_CONTROL, sets)
    };
    let pipeline = h.pipeline(&desc)?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&input), Bind::whole(&output)])?;
    h.dispatch_and_wait(&pipeline, &[set], [GROUPS, 1, 1])?;
    Ok(from_bytes(&h.read(&output)?))
}

fn required_sizes(h: &mut Harness) -> Result<CaseResult, Stop> {
    let Some(control) = h.subgroup_size_control() else {
        return Err(Stop::NotSupported("subgroupSizeControl".into()));
    };
    let (_, stages, ops) = h.subgroup_properties();
    let needed = vk::SubgroupFeatureFlags::BASIC
        | vk::SubgroupFeatureFlags::ARITHMETIC
        | vk::SubgroupFeatureFlags::BALLOT;
    if !stages.contains(vk::ShaderStageFlags::COMPUTE) || !ops.contains(needed) {
        return Err(Stop::NotSupported(format!(
            "subgroup operations {needed:?} in compute shaders"
        )));
    }
    let mut result = CaseResult::new();
    let (min, max) = (control.min_subgroup_size, control.max_subgroup_size);
    result.require(
        control
            .required_subgroup_size_stages
            .contains(vk::ShaderStageFlags::COMPUTE),
        "requiredSubgroupSizeStages has COMPUTE",
    );
    result.require(
        min.is_power_of_two() && max.is_power_of_two() && min <= max && max <= 128,
        format!("subgroup sizes {min}..={max} are powers of two up to 128"),
    );
    if !result.failures().is_empty() {
        return Ok(result);
    }
    let input: Vec<u32> = Sequence::new(47)
        .u32s(N)
        .iter()
        .map(|x| x % 100_000)
        .collect();
    // A work group of 256 is whole subgroups of every size up to 128.
    let full = if h.caps().compute_full_subgroups {
        vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS
    } else {
        vk::PipelineShaderStageCreateFlags::empty()
    };
    for (name, size) in [("smallest", min), ("largest", max)] {
        let got = run(h, &input, Some(size), full)?;
        result.check_unshared(name, &got, &expected(&input, size as usize));
    }
    let got = run(
        h,
        &input,
        None,
        vk::PipelineShaderStageCreateFlags::ALLOW_VARYING_SUBGROUP_SIZE,
    )?;
    let size = got[0];
    if (min..=max).contains(&size) && size.is_power_of_two() {
        result.check_unshared("varying", &got, &expected(&input, size as usize));
    } else {
        result.require(false, format!("a varying subgroup size of {size}"));
    }
    Ok(result)
}
