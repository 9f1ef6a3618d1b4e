//! What Vulkan 1.2 brings into core and requires of every device: its
//! commands resolving by their core names, uniform buffers in the std430
//! layout (uniformBufferStandardLayout) and subgroup broadcasts from a
//! dynamically uniform lane (subgroupBroadcastDynamicId, SPIR-V 1.5), and
//! subgroup operations on 16- and 64-bit values (shaderSubgroupExtendedTypes).

use super::one_dispatch::one_dispatch;
use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Harness, Slot};
use crate::shaders;
use ash::vk;
use std::ffi::CStr;

pub const CASES: &[Case] = &[
    Case {
        name: "vulkan12.core_commands",
        run: core_commands,
    },
    Case {
        name: "vulkan12.uniform_buffer_standard_layout",
        run: uniform_buffer_standard_layout,
    },
    Case {
        name: "vulkan12.subgroup_broadcast_dynamic_id",
        run: subgroup_broadcast_dynamic_id,
    },
    Case {
        name: "vulkan12.subgroup_extended_types",
        run: subgroup_extended_types,
    },
];

/// Every command VK_VERSION_1_2 adds (the registry's vk.xml).
const COMMANDS: [&CStr; 13] = [
    c"vkCmdDrawIndirectCount",
    c"vkCmdDrawIndexedIndirectCount",
    c"vkCreateRenderPass2",
    c"vkCmdBeginRenderPass2",
    c"vkCmdNextSubpass2",
    c"vkCmdEndRenderPass2",
    c"vkResetQueryPool",
    c"vkGetSemaphoreCounterValue",
    c"vkWaitSemaphores",
    c"vkSignalSemaphore",
    c"vkGetBufferDeviceAddress",
    c"vkGetBufferOpaqueCaptureAddress",
    c"vkGetDeviceMemoryOpaqueCaptureAddress",
];

fn needs_vulkan12(h: &Harness) -> Result<(), Stop> {
    let api = h.caps().api_version;
    if vk::api_version_major(api) == 1 && vk::api_version_minor(api) < 2 {
        return Err(Stop::NotSupported("Vulkan 1.2".into()));
    }
    Ok(())
}

/// vkGetDeviceProcAddr and vkGetInstanceProcAddr give every 1.2 command
/// by its core name; a name no version or extension has gives NULL
/// from vkGetDeviceProcAddr.
fn core_commands(h: &mut Harness) -> Result<CaseResult, Stop> {
    needs_vulkan12(h)?;
    let mut result = CaseResult::new();
    let device = h.device().handle();
    let instance = h.instance();
    // SAFETY (the lookups): the device and instance are alive; the names
    // are NUL-terminated.
    let by_device = |name: &CStr| unsafe {
        (instance.fp_v1_0().get_device_proc_addr)(device, name.as_ptr()).is_some()
    };
    let mut resolved: Vec<u32> = COMMANDS
        .iter()
        .map(|name| u32::from(by_device(name)) | u32::from(h.instance_proc_addr(name)) << 1)
        .collect();
    // The loader answers vkGetInstanceProcAddr for names it does not know
    // with its own trampolines; the driver's vkGetDeviceProcAddr is asked.
    resolved.push(u32::from(by_device(c"vkNotACommandOfAnyVersion")));
    let mut want = vec![3u32; COMMANDS.len()];
    want.push(0);
    result.check("resolved", &resolved, &want);
    Ok(result)
}

/// A std430 uniform block: float f[8] at 0 (stride 4), uvec3 u at 32, uint
/// w at 44, vec2 pair[4] at 48 (stride 8).
fn uniform_buffer_standard_layout(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().uniform_buffer_standard_layout || !h.caps().scalar_block_layout {
        // glslang writes std430 uniform blocks only under
        // GL_EXT_scalar_block_layout, which needs the module to be allowed.
        return Err(Stop::NotSupported(
            "uniformBufferStandardLayout with scalarBlockLayout".into(),
        ));
    }
    const N: usize = 64;
    let f: Vec<f32> = (0..8).map(|k| (k * 3 + 1) as f32).collect();
    let u = [100u32, 200, 300];
    let w = 7u32;
    let pair: Vec<[f32; 2]> = (0..4).map(|k| [k as f32 * 0.5, 16.0 + k as f32]).collect();
    let mut block: Vec<u32> = f.iter().map(|x| x.to_bits()).collect();
    block.extend(u);
    block.push(w);
    block.extend(pair.iter().flatten().map(|x| x.to_bits()));
    let mut want = Vec::new();
    for i in 0..N {
        want.push((f[i % 8] + pair[i % 4][i % 2]).to_bits());
        want.push(u[i % 3] + w * i as u32);
    }
    let params = h.host_buffer_with(vk::BufferUsageFlags::UNIFORM_BUFFER, &to_bytes(&block))?;
    let output = h.host_buffer(
        (want.len() * 4) as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER,
    )?;
    let pipeline = h.compute(
        &shaders::UBO_STANDARD_LAYOUT,
        &[&[Slot::UNIFORM, Slot::STORAGE]],
    )?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&params), Bind::whole(&output)])?;
    h.dispatch_and_wait(&pipeline, &[set], [1, 1, 1])?;
    let got = h.read(&output)?;
    let mut result = CaseResult::new();
    result.check("results", &from_bytes::<u32>(&got), &want);
    Ok(result)
}

/// Broadcasts from the lane the subgroup's first value names and from
/// lanes a loop counter names, checked for the device's subgroup size.
fn subgroup_broadcast_dynamic_id(h: &mut Harness) -> Result<CaseResult, Stop> {
    needs_vulkan12(h)?;
    let size = subgroup_size(
        h,
        vk::SubgroupFeatureFlags::BASIC | vk::SubgroupFeatureFlags::BALLOT,
    )?;
    let input = Sequence::new(12).u32s(N);
    let mut want = Vec::with_capacity(2 * N);
    for i in 0..N {
        let sg = &input[i / size * size..][..size];
        want.push(sg[sg[0] as usize % size]);
        want.push((0..4).fold(0u32, |a, k| {
            a.wrapping_mul(31).wrapping_add(sg[3 * k % size])
        }));
    }
    per_subgroup(h, &shaders::SUBGROUP_BROADCAST_DYNAMIC, &input, &want)
}

/// 16- and 64-bit subgroup operations, checked for the device's subgroup
/// size against the same operations done here in the same types.
fn subgroup_extended_types(h: &mut Harness) -> Result<CaseResult, Stop> {
    let caps = h.caps();
    if !caps.shader_subgroup_extended_types || !caps.sixteen_bit || !caps.shader_int64 {
        return Err(Stop::NotSupported(
            "shaderSubgroupExtendedTypes with 16-bit and 64-bit arithmetic".into(),
        ));
    }
    let size = subgroup_size(
        h,
        vk::SubgroupFeatureFlags::BASIC
            | vk::SubgroupFeatureFlags::BALLOT
            | vk::SubgroupFeatureFlags::ARITHMETIC,
    )?;
    let mut seq = Sequence::new(16);
    let input: Vec<u32> = (0..N).map(|_| seq.below(400)).collect();
    let mut want = Vec::with_capacity(8 * N);
    for i in 0..N {
        let (start, lane) = (i / size * size, i % size);
        let sg = &input[start..start + size];
        let sum16 = sg
            .iter()
            .fold(0i16, |a, &x| a.wrapping_add((x as i16).wrapping_sub(200)));
        let max16 = sg
            .iter()
            .map(|&x| x.wrapping_mul(300) as u16)
            .max()
            .unwrap_or(0);
        let scan_f16: u32 = sg[..=lane].iter().map(|&x| x & 15).sum();
        let sum64 = sg
            .iter()
            .fold(0i64, |a, &x| a.wrapping_add(i64::from(x) << 33));
        let scan64 = sg[..lane].iter().fold(0u64, |a, &x| {
            a.wrapping_add(u64::from(x).wrapping_mul(0x1_0000_0001))
        });
        let min64 = sg.iter().map(|&x| i64::from(x) - 1000).min().unwrap_or(0);
        want.extend_from_slice(&[
            ((u64::from(sg[1]) << 20) >> 16) as u32,
            i32::from(sum16) as u32,
            u32::from(max16),
            u32::from(sg[2] as u16),
            scan_f16,
            (sum64 >> 32) as u32,
            (scan64 >> 20) as u32,
            (min64 >> 1) as u32,
        ]);
    }
    per_subgroup(h, &shaders::SUBGROUP_EXTENDED_TYPES, &input, &want)
}

/// Work groups of the subgroup cases, two of them.
const GROUP: usize = 128;
const N: usize = 2 * GROUP;

/// The subgroup size, if compute shaders have the operations `needed`.
fn subgroup_size(h: &Harness, needed: vk::SubgroupFeatureFlags) -> Result<usize, Stop> {
    let (size, stages, ops) = h.subgroup_properties();
    if !stages.contains(vk::ShaderStageFlags::COMPUTE) || !ops.contains(needed) {
        return Err(Stop::NotSupported(format!(
            "subgroup operations {needed:?} in compute shaders"
        )));
    }
    let size = size as usize;
    if size < 4 || !GROUP.is_multiple_of(size) {
        return Err(Stop::Error(format!(
            "subgroupSize {size} is below 4 or does not divide a work group of {GROUP}"
        )));
    }
    Ok(size)
}

/// Runs `shader` over the N `input` values and checks its output against
/// `want`, which depends on the subgroup size (so is not compared between
/// drivers).
fn per_subgroup(
    h: &mut Harness,
    shader: &shaders::Shader,
    input: &[u32],
    want: &[u32],
) -> Result<CaseResult, Stop> {
    let got = one_dispatch(
        h,
        shader,
        &to_bytes(input),
        (want.len() * 4) as u64,
        (N / GROUP) as u32,
    )?;
    let mut result = CaseResult::new();
    result.check_unshared("results", &from_bytes::<u32>(&got), want);
    Ok(result)
}
