//! Descriptor indexing (Vulkan 1.2, VK_EXT_descriptor_indexing) of storage
//! buffers: a runtime array of storage buffers read with a `nonuniformEXT`
//! index that differs from one invocation to the next, in a set allocated
//! with a variable descriptor count (8 of the layout's 64) from an
//! update-after-bind pool. Only elements 0, 1, 3, 5 and 6 are ever written
//! (the binding is partially bound); element 6 and the output buffer are
//! written after the command buffer binding the set is recorded, before it
//! is submitted (update after bind), and element 5 is rewritten between
//! two submits of the same command buffer.
//!
//! The same for runtime arrays of combined image samplers, uniform and
//! storage texel buffers and storage images, each read with a per-invocation
//! `nonuniformEXT` index, in a set whose array elements are all written
//! after the commands were recorded, the last array with a variable count.

use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Harness, HostImage, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "descriptor_indexing.nonuniform_storage_buffers",
        run: nonuniform_storage_buffers,
    },
    Case {
        name: "descriptor_indexing.nonuniform_images_and_texel_buffers",
        run: nonuniform_images_and_texel_buffers,
    },
];

/// The elements the shader reads (its `USED`).
const USED: [u32; 5] = [0, 1, 3, 5, 6];
const LAYOUT_COUNT: u32 = 64;
const ALLOCATED: u32 = 8;
const INVOCATIONS: u32 = 256;

/// A set of `layout` whose variable count binding holds `count`
/// descriptors, from an UPDATE_AFTER_BIND pool of its own holding `sizes`.
fn variable_count_set(
    h: &mut Harness,
    layout: vk::DescriptorSetLayout,
    sizes: &[vk::DescriptorPoolSize],
    count: u32,
) -> Result<vk::DescriptorSet, Stop> {
    let device = h.device().clone();
    let pool_info = vk::DescriptorPoolCreateInfo::default()
        .flags(vk::DescriptorPoolCreateFlags::UPDATE_AFTER_BIND)
        .max_sets(1)
        .pool_sizes(sizes);
    // SAFETY: the device is alive; the info is valid.
    let pool = unsafe { device.create_descriptor_pool(&pool_info, None) }
        .or_stop("vkCreateDescriptorPool")?;
    let pool = h.own(pool);
    let layouts = [layout];
    let counts = [count];
    let mut variable =
        vk::DescriptorSetVariableDescriptorCountAllocateInfo::default().descriptor_counts(&counts);
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(&layouts)
        .push_next(&mut variable);
    // SAFETY: the pool and layout are alive; the chain is valid.
    let sets =
        unsafe { device.allocate_descriptor_sets(&alloc) }.or_stop("vkAllocateDescriptorSets")?;
    Ok(sets[0])
}

fn nonuniform_storage_buffers(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().storage_buffer_indexing {
        return Err(Stop::NotSupported(
            "the storage buffer descriptor-indexing features".into(),
        ));
    }
    type F = vk::DescriptorBindingFlags;
    let array_flags = F::UPDATE_AFTER_BIND
        | F::PARTIALLY_BOUND
        | F::UPDATE_UNUSED_WHILE_PENDING
        | F::VARIABLE_DESCRIPTOR_COUNT;
    let flags: &[&[F]] = &[&[F::UPDATE_AFTER_BIND, array_flags]];
    let slots: &[Slot] = &[
        Slot::STORAGE,
        Slot {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            count: LAYOUT_COUNT,
        },
    ];
    let sets: &[&[Slot]] = &[slots];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::NONUNIFORM_BUFFERS, sets).binding_flags(flags))?;
    let device = h.device().clone();

    let sizes = [vk::DescriptorPoolSize {
        ty: vk::DescriptorType::STORAGE_BUFFER,
        descriptor_count: 1 + ALLOCATED,
    }];
    let set = variable_count_set(h, pipeline.set_layouts[0], &sizes, ALLOCATED)?;

    // Buffer k holds k * 100000 + i at element i; a second version of
    // buffer 5 holds 5 * 100000 + 7 i.
    let mut inputs = Vec::new();
    for k in USED.iter().copied().chain([5]) {
        let second = inputs.len() == USED.len();
        let values: Vec<u32> = (0..INVOCATIONS)
            .map(|i| k * 100_000 + if second { 7 * i } else { i })
            .collect();
        let b = h.host_buffer(
            u64::from(4 * INVOCATIONS),
            vk::BufferUsageFlags::STORAGE_BUFFER,
        )?;
        h.write(&b, 0, &to_bytes(&values))?;
        inputs.push(b);
    }
    let output = h.host_buffer(
        u64::from(4 * INVOCATIONS),
        vk::BufferUsageFlags::STORAGE_BUFFER,
    )?;
    let write = |binding: u32, element: u32, buffer: vk::Buffer| {
        let info = [vk::DescriptorBufferInfo {
            buffer,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }];
        let w = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(binding)
            .dst_array_element(element)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&info);
        // SAFETY: the set and buffer are alive; the write is valid.
        unsafe { device.update_descriptor_sets(&[w], &[]) };
    };
    for (n, k) in USED.iter().enumerate().take(4) {
        write(1, *k, inputs[n].handle);
    }

    let groups = INVOCATIONS / 64;
    let cmd = h.record(|r| {
        r.bind(&pipeline, &[set]);
        r.dispatch(groups, 1, 1);
    })?;
    // Written after the set was bound in the recording.
    write(0, 0, output.handle);
    write(1, 6, inputs[4].handle);
    h.submit_and_wait(&[cmd])?;
    let want = |fifth: u32| -> Vec<u32> {
        (0..INVOCATIONS)
            .map(|i| {
                let k = USED[((7 * i) % 5) as usize];
                let element = if k == 5 { fifth * i } else { i };
                k * 100_000 + element + 1000 * k
            })
            .collect()
    };
    let mut result = CaseResult::new();
    let got: Vec<u32> = from_bytes(&h.read(&output)?);
    result.check("first submit", &got, &want(1));

    // Rewritten while no work uses the set, then the same commands again.
    write(1, 5, inputs[5].handle);
    h.submit_and_wait(&[cmd])?;
    let got: Vec<u32> = from_bytes(&h.read(&output)?);
    result.check("after element 5 was rewritten", &got, &want(7));
    Ok(result)
}

/// Elements of each image and texel buffer array the shader reads.
const KINDS_USED: u32 = 3;
/// Texels of each image (8 by 8) and texel buffer, one per invocation.
const TEXELS: u32 = 64;

/// The value texel `t` of element `k` of array `array` holds: distinct
/// scales, so that the sum the shader writes says which texel of which
/// element of each array it read.
fn texel_value(array: u32, k: u32, t: u32) -> u32 {
    const SCALES: [(u32, u32); 4] = [(1, 1000), (2, 100_000), (3, 10_000_000), (5, 200_000_000)];
    let (per_texel, per_element) = SCALES[array as usize];
    per_texel * t + per_element * k
}

fn nonuniform_images_and_texel_buffers(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !(h.caps().storage_buffer_indexing && h.caps().image_indexing) {
        return Err(Stop::NotSupported(
            "the image and texel buffer descriptor-indexing features".into(),
        ));
    }
    type F = vk::DescriptorBindingFlags;
    let array = F::UPDATE_AFTER_BIND | F::PARTIALLY_BOUND;
    let flags: &[&[F]] = &[&[
        F::UPDATE_AFTER_BIND,
        array,
        array,
        array,
        array | F::VARIABLE_DESCRIPTOR_COUNT,
    ]];
    let arrays = [
        vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        vk::DescriptorType::STORAGE_IMAGE,
    ];
    let mut slots = vec![Slot::STORAGE];
    slots.extend(arrays.iter().map(|&ty| Slot { ty, count: 8 }));
    let sets: &[&[Slot]] = &[&slots];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::NONUNIFORM_IMAGES, sets).binding_flags(flags))?;
    let device = h.device().clone();

    let mut sizes = vec![vk::DescriptorPoolSize {
        ty: vk::DescriptorType::STORAGE_BUFFER,
        descriptor_count: 1,
    }];
    sizes.extend(arrays.iter().map(|&ty| vk::DescriptorPoolSize {
        ty,
        descriptor_count: 8,
    }));
    let set = variable_count_set(h, pipeline.set_layouts[0], &sizes, KINDS_USED)?;

    let values = |array: u32, k: u32| -> Vec<u32> {
        (0..TEXELS).map(|t| texel_value(array, k, t)).collect()
    };
    let r32 = vk::Format::R32_UINT;
    let mut sampled: Vec<HostImage> = Vec::new();
    let mut storage: Vec<HostImage> = Vec::new();
    let mut uniform_views = Vec::new();
    let mut storage_views = Vec::new();
    for k in 0..KINDS_USED {
        let image = h.host_image(
            r32,
            [8, 8],
            4,
            vk::ImageUsageFlags::SAMPLED,
            vk::FormatFeatureFlags::SAMPLED_IMAGE,
        )?;
        h.write_image(&image, &to_bytes(&values(0, k)))?;
        sampled.push(image);
        let image = h.host_image(
            r32,
            [8, 8],
            4,
            vk::ImageUsageFlags::STORAGE,
            vk::FormatFeatureFlags::STORAGE_IMAGE,
        )?;
        h.write_image(&image, &to_bytes(&values(3, k)))?;
        storage.push(image);
        for (array, usage, feature, views) in [
            (
                1,
                vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER,
                vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
                &mut uniform_views,
            ),
            (
                2,
                vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER,
                vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
                &mut storage_views,
            ),
        ] {
            let buffer = h.host_buffer(u64::from(4 * TEXELS), usage)?;
            h.write(&buffer, 0, &to_bytes(&values(array, k)))?;
            views.push(h.buffer_view(&buffer, r32, 0, vk::WHOLE_SIZE, feature)?);
        }
    }
    let mut sampled_views = Vec::new();
    let mut storage_image_views = Vec::new();
    for (images, views) in [
        (&sampled, &mut sampled_views),
        (&storage, &mut storage_image_views),
    ] {
        for image in images {
            views.push(h.image_view(&image.image, vk::ImageViewType::TYPE_2D)?);
        }
    }
    let nearest = h.sampler(
        &vk::SamplerCreateInfo::default()
            .mag_filter(vk::Filter::NEAREST)
            .min_filter(vk::Filter::NEAREST),
    )?;
    let output = h.host_buffer(u64::from(4 * TEXELS), vk::BufferUsageFlags::STORAGE_BUFFER)?;

    let cmd = h.record(|r| {
        r.for_shaders(&sampled.iter().chain(&storage).collect::<Vec<_>>());
        r.bind(&pipeline, &[set]);
        r.dispatch(1, 1, 1);
    })?;
    // Every descriptor is written after the commands binding the set were
    // recorded; elements 3..8 of the arrays are never written.
    let image_info = |view, sampler| {
        [vk::DescriptorImageInfo {
            sampler,
            image_view: view,
            image_layout: vk::ImageLayout::GENERAL,
        }]
    };
    let out_info = [vk::DescriptorBufferInfo {
        buffer: output.handle,
        offset: 0,
        range: vk::WHOLE_SIZE,
    }];
    let mut infos = Vec::new();
    for k in 0..KINDS_USED as usize {
        infos.push((
            image_info(sampled_views[k], nearest),
            [uniform_views[k]],
            [storage_views[k]],
            image_info(storage_image_views[k], vk::Sampler::null()),
        ));
    }
    let mut writes = vec![vk::WriteDescriptorSet::default()
        .dst_set(set)
        .dst_binding(0)
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .buffer_info(&out_info)];
    for (k, (sampled, uniform, storage_texel, storage_image)) in infos.iter().enumerate() {
        let at = |binding: u32| {
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(binding)
                .dst_array_element(k as u32)
                .descriptor_type(arrays[binding as usize - 1])
        };
        writes.push(at(1).image_info(sampled));
        writes.push(at(2).texel_buffer_view(uniform));
        writes.push(at(3).texel_buffer_view(storage_texel));
        writes.push(at(4).image_info(storage_image));
    }
    // SAFETY: the set and every view, sampler and buffer are alive.
    unsafe { device.update_descriptor_sets(&writes, &[]) };
    h.submit_and_wait(&[cmd])?;

    let want: Vec<u32> = (0..TEXELS)
        .map(|i| {
            (0..4)
                .map(|array| texel_value(array, i % KINDS_USED, i))
                .sum()
        })
        .collect();
    let mut result = CaseResult::new();
    let got: Vec<u32> = from_bytes(&h.read(&output)?);
    result.check("results", &got, &want);
    Ok(result)
}
