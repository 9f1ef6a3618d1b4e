//! Descriptor indexing (Vulkan 1.2, VK_EXT_descriptor_indexing) of storage
//! buffers: a runtime array of storage buffers read with a `nonuniformEXT`
//! index that differs from one invocation to the next, in a set allocated
//! with a variable descriptor count (8 of the layout's 64) from an
//! update-after-bind pool. Only elements 0, 1, 3, 5 and 6 are ever written
//! (the binding is partially bound); element 6 and the output buffer are
//! written after the command buffer binding the set is recorded, before it
//! is submitted (update after bind), and element 5 is rewritten between
//! two submits of the same command buffer.

use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "descriptor_indexing.nonuniform_storage_buffers",
    run: nonuniform_storage_buffers,
}];

/// The elements the shader reads (its `USED`).
const USED: [u32; 5] = [0, 1, 3, 5, 6];
const LAYOUT_COUNT: u32 = 64;
const ALLOCATED: u32 = 8;
const INVOCATIONS: u32 = 256;

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
    let pool_info = vk::DescriptorPoolCreateInfo::default()
        .flags(vk::DescriptorPoolCreateFlags::UPDATE_AFTER_BIND)
        .max_sets(1)
        .pool_sizes(&sizes);
    // SAFETY: the device is alive; the info is valid.
    let pool = unsafe { device.create_descriptor_pool(&pool_info, None) }
        .or_stop("vkCreateDescriptorPool")?;
    let pool = h.own(pool);
    let layouts = [pipeline.set_layouts[0]];
    let counts = [ALLOCATED];
    let mut variable =
        vk::DescriptorSetVariableDescriptorCountAllocateInfo::default().descriptor_counts(&counts);
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(&layouts)
        .push_next(&mut variable);
    // SAFETY: the pool and layout are alive; the chain is valid.
    let set =
        unsafe { device.allocate_descriptor_sets(&alloc) }.or_stop("vkAllocateDescriptorSets")?[0];

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
