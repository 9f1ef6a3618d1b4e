//! Compute shaders reading and writing images through descriptor sets:
//! storage images loaded, stored, updated atomically and sized; sampled
//! images fetched through a combined image sampler array with immutable
//! samplers and through a separate image and sampler, written by
//! vkUpdateDescriptorSets, by a descriptor update template and by a
//! descriptor copy.
//!
//! The images are linear and live in host-visible memory, so the host
//! writes and reads them through a mapping: no transfer command is
//! involved. Every expectation is computed on the CPU.

use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Bind, Dependency, Harness, HostImage, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "image_shaders.storage",
        run: storage,
    },
    Case {
        name: "image_shaders.fetch",
        run: fetch,
    },
];

const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;
/// The images' size: 16 x 8 texels, two 8 x 8 work groups.
const EXTENT: [u32; 2] = [16, 8];
const TEXELS: usize = (EXTENT[0] * EXTENT[1]) as usize;

fn words(seed: u64) -> Vec<u32> {
    let mut seq = Sequence::new(seed);
    (0..TEXELS).map(|_| seq.next_u32()).collect()
}

/// An image view's descriptor info in the GENERAL layout.
fn view_info(view: vk::ImageView, sampler: vk::Sampler) -> vk::DescriptorImageInfo {
    vk::DescriptorImageInfo {
        sampler,
        image_view: view,
        image_layout: vk::ImageLayout::GENERAL,
    }
}

/// An R32_UINT storage image read, updated with an atomic and sized, and
/// an RGBA8_UINT one written with the bytes read.
fn storage(h: &mut Harness) -> Result<CaseResult, Stop> {
    let usage = vk::ImageUsageFlags::STORAGE;
    let atomics =
        vk::FormatFeatureFlags::STORAGE_IMAGE | vk::FormatFeatureFlags::STORAGE_IMAGE_ATOMIC;
    let counters = h.host_image(vk::Format::R32_UINT, EXTENT, 4, usage, atomics)?;
    let bytes = h.host_image(
        vk::Format::R8G8B8A8_UINT,
        EXTENT,
        4,
        usage,
        vk::FormatFeatureFlags::STORAGE_IMAGE,
    )?;
    let start = words(7);
    h.write_image(&counters, &to_bytes(&start))?;
    // What the shader does not write must not look written.
    h.write_image(&bytes, &[0xa5; 4 * TEXELS])?;
    let output = h.host_buffer(16 * TEXELS as u64, STORAGE)?;
    let slots = [Slot::STORAGE_IMAGE, Slot::STORAGE_IMAGE, Slot::STORAGE];
    let pipeline = h.compute(&shaders::IMAGE_STORAGE, &[&slots])?;
    let counter_view = h.image_view(&counters.image, vk::ImageViewType::TYPE_2D)?;
    let byte_view = h.image_view(&bytes.image, vk::ImageViewType::TYPE_2D)?;
    let set = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::Image(view_info(counter_view, vk::Sampler::null())),
            Bind::Image(view_info(byte_view, vk::Sampler::null())),
            Bind::whole(&output),
        ],
    )?;
    h.run(|r| {
        r.for_shaders(&[&counters, &bytes]);
        r.bind(&pipeline, &[set]);
        r.dispatch(EXTENT[0] / 8, EXTENT[1] / 8, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let want: Vec<u32> = start
        .iter()
        .flat_map(|&v| [v, v, EXTENT[0], EXTENT[1]])
        .collect();
    let mut result = CaseResult::new();
    result.check("results", &h.read_as::<u32>(&output)?, &want);
    let counted: Vec<u32> = start.iter().map(|v| v.wrapping_add(5)).collect();
    result.check(
        "counters",
        &from_bytes::<u32>(&h.read_image(&counters)?),
        &counted,
    );
    // RGBA8_UINT's bytes are the word's, lowest first.
    result.check("bytes", &h.read_image(&bytes)?, &to_bytes(&start));
    Ok(result)
}

/// The fetch shader's set layout: a combined image sampler array of two
/// with immutable samplers, a sampled image, a sampler, a storage buffer.
fn fetch_layout(h: &mut Harness, nearest: vk::Sampler) -> Result<vk::DescriptorSetLayout, Stop> {
    let immutable = [nearest, nearest];
    let compute = vk::ShaderStageFlags::COMPUTE;
    let binding = |b: u32, ty: vk::DescriptorType| {
        vk::DescriptorSetLayoutBinding::default()
            .binding(b)
            .descriptor_type(ty)
            .descriptor_count(1)
            .stage_flags(compute)
    };
    let bindings = [
        binding(0, vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .descriptor_count(2)
            .immutable_samplers(&immutable),
        binding(1, vk::DescriptorType::SAMPLED_IMAGE),
        binding(2, vk::DescriptorType::SAMPLER),
        binding(3, vk::DescriptorType::STORAGE_BUFFER),
    ];
    let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
    // SAFETY: the device and sampler are alive; `bindings` outlives the call.
    let layout = unsafe { h.device().create_descriptor_set_layout(&info, None) }
        .or_stop("vkCreateDescriptorSetLayout")?;
    Ok(h.own(layout))
}

/// What the template reads for one set: the descriptors in the order and
/// form of its entries.
#[repr(C)]
struct TemplateData {
    pair: [vk::DescriptorImageInfo; 2],
    floats: vk::DescriptorImageInfo,
    sampler: vk::DescriptorImageInfo,
    output: vk::DescriptorBufferInfo,
}

/// A template writing every binding of [`fetch_layout`] from a
/// [`TemplateData`].
fn fetch_template(
    h: &mut Harness,
    layout: vk::DescriptorSetLayout,
) -> Result<vk::DescriptorUpdateTemplate, Stop> {
    let image = std::mem::size_of::<vk::DescriptorImageInfo>();
    let entry = |binding: u32, ty, count, offset| vk::DescriptorUpdateTemplateEntry {
        dst_binding: binding,
        dst_array_element: 0,
        descriptor_count: count,
        descriptor_type: ty,
        offset,
        stride: image,
    };
    let entries = [
        entry(
            0,
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            2,
            std::mem::offset_of!(TemplateData, pair),
        ),
        entry(
            1,
            vk::DescriptorType::SAMPLED_IMAGE,
            1,
            std::mem::offset_of!(TemplateData, floats),
        ),
        entry(
            2,
            vk::DescriptorType::SAMPLER,
            1,
            std::mem::offset_of!(TemplateData, sampler),
        ),
        vk::DescriptorUpdateTemplateEntry {
            stride: std::mem::size_of::<vk::DescriptorBufferInfo>(),
            ..entry(
                3,
                vk::DescriptorType::STORAGE_BUFFER,
                1,
                std::mem::offset_of!(TemplateData, output),
            )
        },
    ];
    let info = vk::DescriptorUpdateTemplateCreateInfo::default()
        .descriptor_update_entries(&entries)
        .template_type(vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET)
        .descriptor_set_layout(layout);
    // SAFETY: the device and layout are alive; `entries` outlives the call.
    let template = unsafe { h.device().create_descriptor_update_template(&info, None) }
        .or_stop("vkCreateDescriptorUpdateTemplate")?;
    Ok(h.own(template))
}

/// Texel fetches from an RGBA8_UINT and an R32_UINT image through a
/// combined image sampler array with immutable samplers, and from an
/// R32_SFLOAT image through a separate sampled image and sampler. Three
/// sets of one layout are written three ways: vkUpdateDescriptorSets, a
/// template (with the pair's views the other way round), and copies of
/// the first set's images and sampler with a buffer of its own.
fn fetch(h: &mut Harness) -> Result<CaseResult, Stop> {
    let sampled = vk::ImageUsageFlags::SAMPLED;
    let feature = vk::FormatFeatureFlags::SAMPLED_IMAGE;
    let mut images: Vec<HostImage> = Vec::new();
    for format in [
        vk::Format::R8G8B8A8_UINT,
        vk::Format::R32_UINT,
        vk::Format::R32_SFLOAT,
    ] {
        images.push(h.host_image(format, EXTENT, 4, sampled, feature)?);
    }
    let rgba = words(11);
    let r32 = words(12);
    let floats: Vec<f32> = (0..TEXELS).map(|i| i as f32 * 0.75 - 40.0).collect();
    h.write_image(&images[0], &to_bytes(&rgba))?;
    h.write_image(&images[1], &to_bytes(&r32))?;
    h.write_image(&images[2], &to_bytes(&floats))?;
    let mut views = Vec::new();
    for image in &images {
        views.push(h.image_view(&image.image, vk::ImageViewType::TYPE_2D)?);
    }
    let nearest = h.sampler(
        &vk::SamplerCreateInfo::default()
            .mag_filter(vk::Filter::NEAREST)
            .min_filter(vk::Filter::NEAREST)
            .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE),
    )?;
    let layout = fetch_layout(h, nearest)?;
    let template = fetch_template(h, layout)?;
    let outputs = [
        h.host_buffer(16 * TEXELS as u64, STORAGE)?,
        h.host_buffer(16 * TEXELS as u64, STORAGE)?,
        h.host_buffer(16 * TEXELS as u64, STORAGE)?,
    ];

    let module = h.shader_module(&shaders::IMAGE_FETCH)?;
    let set_layouts = [layout];
    let layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
    // SAFETY: the set layout is alive; `layout_info` outlives the call.
    let pipeline_layout = unsafe { h.device().create_pipeline_layout(&layout_info, None) }
        .or_stop("vkCreatePipelineLayout")?;
    let pipeline_layout = h.own(pipeline_layout);
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(c"main");
    let info = vk::ComputePipelineCreateInfo::default()
        .stage(stage)
        .layout(pipeline_layout);
    // SAFETY: module and layout are alive.
    let pipeline = unsafe {
        h.device()
            .create_compute_pipelines(vk::PipelineCache::null(), &[info], None)
    }
    .map_err(|(_, e)| Stop::Error(format!("vkCreateComputePipelines returned {e:?}")))?[0];
    let pipeline = h.own(pipeline);

    let sizes = [
        vk::DescriptorPoolSize {
            ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            descriptor_count: 6,
        },
        vk::DescriptorPoolSize {
            ty: vk::DescriptorType::SAMPLED_IMAGE,
            descriptor_count: 3,
        },
        vk::DescriptorPoolSize {
            ty: vk::DescriptorType::SAMPLER,
            descriptor_count: 3,
        },
        vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: 3,
        },
    ];
    let pool_info = vk::DescriptorPoolCreateInfo::default()
        .max_sets(3)
        .pool_sizes(&sizes);
    // SAFETY: the device is alive; `sizes` outlives the call.
    let pool = unsafe { h.device().create_descriptor_pool(&pool_info, None) }
        .or_stop("vkCreateDescriptorPool")?;
    let pool = h.own(pool);
    let layouts = [layout; 3];
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(&layouts);
    // SAFETY: pool and layout are alive.
    let sets = unsafe { h.device().allocate_descriptor_sets(&alloc) }
        .or_stop("vkAllocateDescriptorSets")?;

    let whole = |b: &crate::harness::Buffer| vk::DescriptorBufferInfo {
        buffer: b.handle,
        offset: 0,
        range: vk::WHOLE_SIZE,
    };
    // Set 0 by writes: pair = (RGBA8, R32), immutable samplers (the
    // sampler member is ignored, so it is left null).
    let none = vk::Sampler::null();
    let pair = [view_info(views[0], none), view_info(views[1], none)];
    let float_view = [view_info(views[2], none)];
    let sampler = [vk::DescriptorImageInfo {
        sampler: nearest,
        ..Default::default()
    }];
    let out0 = [whole(&outputs[0])];
    let write = |binding: u32, ty| {
        vk::WriteDescriptorSet::default()
            .dst_set(sets[0])
            .dst_binding(binding)
            .descriptor_type(ty)
    };
    let writes = [
        write(0, vk::DescriptorType::COMBINED_IMAGE_SAMPLER).image_info(&pair),
        write(1, vk::DescriptorType::SAMPLED_IMAGE).image_info(&float_view),
        write(2, vk::DescriptorType::SAMPLER).image_info(&sampler),
        write(3, vk::DescriptorType::STORAGE_BUFFER).buffer_info(&out0),
    ];
    // Set 1 through the template, the pair the other way round (both are
    // unsigned integer views, as the shader's usampler2D takes).
    let data = TemplateData {
        pair: [pair[1], pair[0]],
        floats: float_view[0],
        sampler: sampler[0],
        output: whole(&outputs[1]),
    };
    // Set 2: the images copied from set 0, its own sampler and buffer.
    let copies = [
        vk::CopyDescriptorSet::default()
            .src_set(sets[0])
            .src_binding(0)
            .dst_set(sets[2])
            .dst_binding(0)
            .descriptor_count(2),
        vk::CopyDescriptorSet::default()
            .src_set(sets[0])
            .src_binding(1)
            .dst_set(sets[2])
            .dst_binding(1)
            .descriptor_count(1),
        vk::CopyDescriptorSet::default()
            .src_set(sets[0])
            .src_binding(2)
            .dst_set(sets[2])
            .dst_binding(2)
            .descriptor_count(1),
    ];
    let out2 = [whole(&outputs[2])];
    let write2 = [vk::WriteDescriptorSet::default()
        .dst_set(sets[2])
        .dst_binding(3)
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .buffer_info(&out2)];
    // SAFETY: the sets, views, sampler and buffers are alive; `data` is laid
    // out as the template's entries say; every array outlives its call.
    unsafe {
        h.device().update_descriptor_sets(&writes, &[]);
        h.device().update_descriptor_set_with_template(
            sets[1],
            template,
            (&data as *const TemplateData).cast(),
        );
        h.device().update_descriptor_sets(&write2, &copies);
    }

    h.run(|r| {
        r.for_shaders(&images.iter().collect::<Vec<_>>());
        // SAFETY: the command buffer is recording; pipeline, layout and
        // sets are alive.
        unsafe {
            r.device().cmd_bind_pipeline(
                r.command_buffer(),
                vk::PipelineBindPoint::COMPUTE,
                pipeline,
            );
            for set in &sets {
                r.device().cmd_bind_descriptor_sets(
                    r.command_buffer(),
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline_layout,
                    0,
                    std::slice::from_ref(set),
                    &[],
                );
                r.device()
                    .cmd_dispatch(r.command_buffer(), EXTENT[0] / 8, EXTENT[1] / 8, 1);
            }
        }
        r.barrier(Dependency::TO_HOST);
    })?;

    let [w, hgt] = EXTENT;
    // What a set gives each invocation, with `first` and `second` the views
    // of pair[0] and pair[1]: RGBA8 texels read as their four bytes, R32
    // texels as (v, 0, 0, 1), so the first word packs v | 1 << 24 and the
    // second is an RGBA8 texel's red byte.
    let want = |swapped: bool| -> Vec<u32> {
        (0..TEXELS)
            .flat_map(|i| {
                let (x, y) = (i as u32 % w, i as u32 / w);
                let mirrored = (y * w + (w - 1 - x)) as usize;
                let (a, b) = if swapped {
                    (r32[i] | 1 << 24, rgba[mirrored] & 0xff)
                } else {
                    (rgba[i], r32[mirrored])
                };
                [a, b, (floats[i] * 2.0).to_bits(), w << 16 | hgt]
            })
            .collect()
    };
    let mut result = CaseResult::new();
    result.check("written", &h.read_as::<u32>(&outputs[0])?, &want(false));
    result.check("templated", &h.read_as::<u32>(&outputs[1])?, &want(true));
    result.check("copied", &h.read_as::<u32>(&outputs[2])?, &want(false));
    Ok(result)
}
