//! VK_EXT_image_robustness (core in Vulkan 1.3), robustImageAccess: a
//! compute shader's accesses outside an image (past each edge, at negative
//! and far coordinates), as a storage image and fetched as a sampled one,
//! load texels of zero colour components and an alpha of 0 or 1, and the
//! stores and atomics write nothing: every texel inside keeps its value.

use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "image_robustness.out_of_bounds",
    run: out_of_bounds,
}];

const EXTENT: [u32; 2] = [16, 8];
const INVOCATIONS: usize = 64;

fn out_of_bounds(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().robust_image_access {
        return Err(Stop::NotSupported("robustImageAccess".into()));
    }
    let usage = vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::SAMPLED;
    let features = vk::FormatFeatureFlags::STORAGE_IMAGE
        | vk::FormatFeatureFlags::STORAGE_IMAGE_ATOMIC
        | vk::FormatFeatureFlags::SAMPLED_IMAGE;
    let image = h.host_image(vk::Format::R32_UINT, EXTENT, 4, usage, features)?;
    let mut seq = Sequence::new(41);
    let start: Vec<u32> = (0..EXTENT[0] * EXTENT[1]).map(|_| seq.next_u32()).collect();
    h.write_image(&image, &to_bytes(&start))?;
    let output = h.host_buffer(
        16 * INVOCATIONS as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER,
    )?;
    let pipeline = h.compute(
        &shaders::IMAGE_OUT_OF_BOUNDS,
        &[&[
            Slot::STORAGE_IMAGE,
            Slot::STORAGE,
            Slot {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                count: 1,
            },
        ]],
    )?;
    let view = h.image_view(&image.image, vk::ImageViewType::TYPE_2D)?;
    let nearest = h.sampler(&vk::SamplerCreateInfo::default())?;
    let set = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::Image(vk::DescriptorImageInfo {
                sampler: vk::Sampler::null(),
                image_view: view,
                image_layout: vk::ImageLayout::GENERAL,
            }),
            Bind::whole(&output),
            Bind::Image(vk::DescriptorImageInfo {
                sampler: nearest,
                image_view: view,
                image_layout: vk::ImageLayout::GENERAL,
            }),
        ],
    )?;
    h.run(|r| {
        r.for_shaders(&[&image]);
        r.bind(&pipeline, &[set]);
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    // Per access kind: the colour components ORed (0), then whether alpha
    // is 0 or 1 (1).
    let mut want = Vec::new();
    for _ in 0..2 {
        want.extend(vec![0u32; INVOCATIONS]);
        want.extend(vec![1u32; INVOCATIONS]);
    }
    let mut result = CaseResult::new();
    result.check("loads", &h.read_as::<u32>(&output)?, &want);
    result.check("image", &from_bytes::<u32>(&h.read_image(&image)?), &start);
    Ok(result)
}
