//! VK_EXT_image_robustness (core in Vulkan 1.3), robustImageAccess: a
//! compute shader's storage image accesses outside the image (past each
//! edge, at negative and far coordinates) load texels of zero colour
//! components and an alpha of 0 or 1, and their stores and atomics write
//! nothing: every texel inside keeps its value.

use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "image_robustness.storage_out_of_bounds",
    run: storage_out_of_bounds,
}];

const EXTENT: [u32; 2] = [16, 8];
const INVOCATIONS: usize = 64;

fn storage_out_of_bounds(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().robust_image_access {
        return Err(Stop::NotSupported("robustImageAccess".into()));
    }
    let usage = vk::ImageUsageFlags::STORAGE;
    let features =
        vk::FormatFeatureFlags::STORAGE_IMAGE | vk::FormatFeatureFlags::STORAGE_IMAGE_ATOMIC;
    let image = h.host_image(vk::Format::R32_UINT, EXTENT, 4, usage, features)?;
    let mut seq = Sequence::new(41);
    let start: Vec<u32> = (0..EXTENT[0] * EXTENT[1]).map(|_| seq.next_u32()).collect();
    h.write_image(&image, &to_bytes(&start))?;
    let output = h.host_buffer(8 * INVOCATIONS as u64, vk::BufferUsageFlags::STORAGE_BUFFER)?;
    let pipeline = h.compute(
        &shaders::IMAGE_OUT_OF_BOUNDS,
        &[&[Slot::STORAGE_IMAGE, Slot::STORAGE]],
    )?;
    let view = h.image_view(&image.image, vk::ImageViewType::TYPE_2D)?;
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
        ],
    )?;
    h.run(|r| {
        r.for_shaders(&[&image]);
        r.bind(&pipeline, &[set]);
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![0u32; INVOCATIONS];
    want.extend(vec![1u32; INVOCATIONS]);
    let mut result = CaseResult::new();
    result.check("loads", &h.read_as::<u32>(&output)?, &want);
    result.check("image", &from_bytes::<u32>(&h.read_image(&image)?), &start);
    Ok(result)
}
