//! VK_EXT_inline_uniform_block (core in Vulkan 1.3): uniform blocks whose
//! data lives in the descriptor set, written by the updates themselves.
//! A set's first block (80 bytes: uvec4 a[4], uint scale) is written in
//! two pieces, the first by a `VkWriteDescriptorSetInlineUniformBlock`,
//! the second by an update template; its second block (16 bytes) is copied
//! from another set's, written there; a shader reads both as uniform
//! buffers. The pool says how many block bindings its sets hold
//! (`VkDescriptorPoolInlineUniformBlockCreateInfo`).

use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Buffer, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "inline_uniform_block.write_copy_template",
        run: write_copy_template,
    },
    Case {
        name: "inline_uniform_block.update_after_bind",
        run: update_after_bind,
    },
];

const FIRST: u32 = 80;
const SECOND: u32 = 16;
/// Where the template writes the first block, and how much.
const TEMPLATE_AT: u32 = 48;

const INLINE: vk::DescriptorType = vk::DescriptorType::INLINE_UNIFORM_BLOCK;

/// The set INLINE_BLOCKS reads: its two blocks, then its output buffer.
const SLOTS: &[Slot] = &[
    Slot {
        ty: INLINE,
        count: FIRST,
    },
    Slot {
        ty: INLINE,
        count: SECOND,
    },
    Slot::STORAGE,
];
/// SLOTS' output binding.
const OUTPUT_BINDING: u32 = 2;

/// `count` sets of `layout`, from a pool of their own created with
/// `flags` that holds exactly their blocks and buffers
/// (`VkDescriptorPoolInlineUniformBlockCreateInfo` counting the blocks).
fn block_sets(
    h: &mut Harness,
    layout: vk::DescriptorSetLayout,
    flags: vk::DescriptorPoolCreateFlags,
    count: u32,
) -> Result<Vec<vk::DescriptorSet>, Stop> {
    let device = h.device().clone();
    let sizes = [
        vk::DescriptorPoolSize {
            ty: INLINE,
            descriptor_count: count * (FIRST + SECOND),
        },
        vk::DescriptorPoolSize {
            ty: vk::DescriptorType::STORAGE_BUFFER,
            descriptor_count: count,
        },
    ];
    let mut blocks = vk::DescriptorPoolInlineUniformBlockCreateInfo::default()
        .max_inline_uniform_block_bindings(2 * count);
    let pool_info = vk::DescriptorPoolCreateInfo::default()
        .flags(flags)
        .max_sets(count)
        .pool_sizes(&sizes)
        .push_next(&mut blocks);
    // SAFETY: the device is alive; the info and its chain are valid.
    let pool = unsafe { device.create_descriptor_pool(&pool_info, None) }
        .or_stop("vkCreateDescriptorPool")?;
    let pool = h.own(pool);
    let layouts = vec![layout; count as usize];
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(&layouts);
    // SAFETY: the pool and layout are alive.
    unsafe { device.allocate_descriptor_sets(&alloc) }.or_stop("vkAllocateDescriptorSets")
}

/// Writes `bytes` into inline block `binding` of `set`, from byte `at`
/// (`VkWriteDescriptorSetInlineUniformBlock`).
fn write_block(device: &ash::Device, set: vk::DescriptorSet, binding: u32, at: u32, bytes: &[u8]) {
    let mut block = vk::WriteDescriptorSetInlineUniformBlock::default().data(bytes);
    let write = vk::WriteDescriptorSet {
        dst_set: set,
        dst_binding: binding,
        dst_array_element: at,
        descriptor_count: bytes.len() as u32,
        descriptor_type: INLINE,
        ..Default::default()
    }
    .push_next(&mut block);
    // SAFETY: the set is alive and no pending work reads it; the write and
    // its chain are valid.
    unsafe { device.update_descriptor_sets(&[write], &[]) };
}

/// Points `set`'s output binding at the whole of `output`.
fn write_output(device: &ash::Device, set: vk::DescriptorSet, output: &Buffer) {
    let out_info = [vk::DescriptorBufferInfo {
        buffer: output.handle,
        offset: 0,
        range: vk::WHOLE_SIZE,
    }];
    let out_write = vk::WriteDescriptorSet::default()
        .dst_set(set)
        .dst_binding(OUTPUT_BINDING)
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .buffer_info(&out_info);
    // SAFETY: the set and buffer are alive; the write is valid.
    unsafe { device.update_descriptor_sets(&[out_write], &[]) };
}

fn write_copy_template(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().inline_uniform_block {
        return Err(Stop::NotSupported("inlineUniformBlock".into()));
    }
    let pipeline = h.pipeline(&PipelineDesc::new(&shaders::INLINE_BLOCKS, &[SLOTS]))?;
    let layout = pipeline.set_layouts[0];
    let device = h.device().clone();
    let sets = block_sets(h, layout, vk::DescriptorPoolCreateFlags::empty(), 2)?;
    let (set, other) = (sets[0], sets[1]);

    // The blocks' contents, as std140 lays them out.
    let a: Vec<u32> = (0..16).map(|k| 3 * k + 1).collect();
    let scale = 7u32;
    let mut first = a.clone();
    first.extend([scale, 0, 0, 0]);
    let first = to_bytes(&first);
    let add = [100u32, 200, 300, 400];
    let second = to_bytes(&add);
    let output = h.host_buffer(4 * 64, vk::BufferUsageFlags::STORAGE_BUFFER)?;

    write_block(&device, set, 0, 0, &first[..TEMPLATE_AT as usize]);
    write_block(&device, other, 1, 0, &second);
    write_output(&device, set, &output);
    let copy = vk::CopyDescriptorSet::default()
        .src_set(other)
        .src_binding(1)
        .dst_set(set)
        .dst_binding(1)
        .descriptor_count(SECOND);
    // SAFETY: both sets are alive; the copy is valid.
    unsafe { device.update_descriptor_sets(&[], &[copy]) };

    let entries = [vk::DescriptorUpdateTemplateEntry {
        dst_binding: 0,
        dst_array_element: TEMPLATE_AT,
        descriptor_count: FIRST - TEMPLATE_AT,
        descriptor_type: INLINE,
        offset: 0,
        stride: 0,
    }];
    let template_info = vk::DescriptorUpdateTemplateCreateInfo::default()
        .descriptor_update_entries(&entries)
        .template_type(vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET)
        .descriptor_set_layout(layout);
    // SAFETY: the layout is alive; the info is valid.
    let template = unsafe { device.create_descriptor_update_template(&template_info, None) }
        .or_stop("vkCreateDescriptorUpdateTemplate")?;
    let rest = &first[TEMPLATE_AT as usize..];
    // SAFETY: the set and template are alive; `rest` holds the entry's
    // bytes at offset 0.
    unsafe {
        device.update_descriptor_set_with_template(set, template, rest.as_ptr().cast());
    }

    h.dispatch_and_wait(&pipeline, &[set], [1, 1, 1])?;
    // SAFETY: nothing uses the template any more.
    unsafe { device.destroy_descriptor_update_template(template, None) };
    let got: Vec<u32> = from_bytes(&h.read(&output)?);
    let mut result = CaseResult::new();
    result.check("results", &got, &expected(&a, scale, &add));
    Ok(result)
}

/// What INLINE_BLOCKS writes: output i is a[i % 4][(i / 4) % 4] * scale
/// + add[i % 4], `a` given as its 16 words.
fn expected(a: &[u32], scale: u32, add: &[u32; 4]) -> Vec<u32> {
    (0..64)
        .map(|i| a[(i % 4) * 4 + (i / 4) % 4] * scale + add[i % 4])
        .collect()
}

/// Both blocks in UPDATE_AFTER_BIND bindings of a set from an
/// UPDATE_AFTER_BIND pool: the dispatch is recorded with the set bound
/// before any block is written, the blocks are written, and the work
/// submitted reads them; the second block and the scale are then
/// rewritten, and a second submit of the same command buffer reads the
/// new values (descriptorBindingInlineUniformBlockUpdateAfterBind).
fn update_after_bind(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().inline_block_update_after_bind {
        return Err(Stop::NotSupported(
            "descriptorBindingInlineUniformBlockUpdateAfterBind".into(),
        ));
    }
    type F = vk::DescriptorBindingFlags;
    let flags: &[&[F]] = &[&[F::UPDATE_AFTER_BIND, F::UPDATE_AFTER_BIND, F::empty()]];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::INLINE_BLOCKS, &[SLOTS]).binding_flags(flags))?;
    let device = h.device().clone();
    let set = block_sets(
        h,
        pipeline.set_layouts[0],
        vk::DescriptorPoolCreateFlags::UPDATE_AFTER_BIND,
        1,
    )?[0];
    let output = h.host_buffer(4 * 64, vk::BufferUsageFlags::STORAGE_BUFFER)?;

    // The output binding is not UPDATE_AFTER_BIND (lavapipe has no
    // storage buffers updated after bind): written before recording.
    write_output(&device, set, &output);
    let cmd = h.record(|r| {
        r.bind(&pipeline, &[set]);
        r.dispatch(1, 1, 1);
    })?;

    let a: Vec<u32> = (0..16).map(|k| 5 * k + 2).collect();
    let mut first = a.clone();
    first.extend([3, 0, 0, 0]);
    write_block(&device, set, 0, 0, &to_bytes(&first));
    let add = [11u32, 22, 33, 44];
    write_block(&device, set, 1, 0, &to_bytes(&add));
    h.submit_and_wait(&[cmd])?;
    let mut result = CaseResult::new();
    let got: Vec<u32> = from_bytes(&h.read(&output)?);
    result.check("first submit", &got, &expected(&a, 3, &add));

    // The scale (bytes 64..68 of the first block) and the second block,
    // rewritten after the first submit has completed.
    write_block(&device, set, 0, 64, &to_bytes(&[9u32]));
    let add2 = [1000u32, 2000, 3000, 4000];
    write_block(&device, set, 1, 0, &to_bytes(&add2));
    h.submit_and_wait(&[cmd])?;
    let got: Vec<u32> = from_bytes(&h.read(&output)?);
    result.check("second submit", &got, &expected(&a, 9, &add2));
    Ok(result)
}
