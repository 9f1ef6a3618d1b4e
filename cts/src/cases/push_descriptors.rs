//! VK_KHR_push_descriptor: descriptors written into the command buffer
//! instead of a set. What a push must do, from the spec: each dispatch
//! reads the descriptors pushed before it (a later push must not change
//! what an earlier dispatch read), pushes update the set incrementally
//! (bindings a push leaves out keep what was pushed before), the template
//! form reads the application's data as the template lays it out, and a
//! push set lives beside ordinary sets without disturbing them.
//!
//! The expected values are computed here (the chain step of `step.comp`,
//! and `sets.comp`'s multiply-add); lavapipe runs the same cases.

use super::pseudo_random::Sequence;
use super::step::{self, WORDS};
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Bind, Buffer, Dependency, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "push_descriptors.incremental_and_template",
        run: incremental_and_template,
    },
    Case {
        name: "push_descriptors.beside_sets",
        run: beside_sets,
    },
];

/// A storage buffer write of `info` to `binding` of the pushed set.
fn storage_write(binding: u32, info: &[vk::DescriptorBufferInfo]) -> vk::WriteDescriptorSet<'_> {
    vk::WriteDescriptorSet::default()
        .dst_binding(binding)
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .buffer_info(info)
}

fn buffer_info(b: &Buffer) -> vk::DescriptorBufferInfo {
    vk::DescriptorBufferInfo {
        buffer: b.handle,
        offset: 0,
        range: vk::WHOLE_SIZE,
    }
}

/// Three chain steps with set 0 pushed: (A -> B) in round 1; then only
/// binding 1 pushed, so (A -> C) in round 2; then a template push of
/// (B -> D) in round 3, after which B, C and D hold their steps.
fn incremental_and_template(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().push_descriptor {
        return Err(Stop::NotSupported("VK_KHR_push_descriptor".into()));
    }
    let sets: &[&[Slot]] = &[&[Slot::STORAGE, Slot::STORAGE]];
    let pipeline = h.pipeline(
        &PipelineDesc::new(&shaders::STEP, sets)
            .push_constants(4)
            .push_descriptors(0),
    )?;
    let initial = Sequence::new(81).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let c = step::buffer(h, None)?;
    let d = step::buffer(h, None)?;

    // The template: binding 0 then binding 1, one VkDescriptorBufferInfo
    // each, packed in an array.
    let stride = std::mem::size_of::<vk::DescriptorBufferInfo>();
    let entries = [0u32, 1].map(|binding| vk::DescriptorUpdateTemplateEntry {
        dst_binding: binding,
        dst_array_element: 0,
        descriptor_count: 1,
        descriptor_type: vk::DescriptorType::STORAGE_BUFFER,
        offset: binding as usize * stride,
        stride,
    });
    let info = vk::DescriptorUpdateTemplateCreateInfo::default()
        .descriptor_update_entries(&entries)
        .template_type(vk::DescriptorUpdateTemplateType::PUSH_DESCRIPTORS_KHR)
        .pipeline_bind_point(vk::PipelineBindPoint::COMPUTE)
        .pipeline_layout(pipeline.layout)
        .set(0);
    // SAFETY: the device and the pipeline layout are alive; `entries`
    // outlives the call.
    let template = unsafe { h.device().create_descriptor_update_template(&info, None) }
        .or_stop("vkCreateDescriptorUpdateTemplate")?;
    let template = h.own(template);
    let push = ash::khr::push_descriptor::Device::new(h.instance(), h.device());
    let b_to_d = [buffer_info(&b), buffer_info(&d)];

    h.run(|r| {
        let cmd = r.command_buffer();
        let a_info = [buffer_info(&a)];
        let b_info = [buffer_info(&b)];
        let c_info = [buffer_info(&c)];
        let write = storage_write;
        let layout = pipeline.layout;
        let bind = vk::PipelineBindPoint::COMPUTE;
        r.bind(&pipeline, &[]);
        // SAFETY: the command buffer is recording with the pipeline bound;
        // the layout's set 0 is a push descriptor layout; the buffers and
        // the template are alive, and the data the template reads outlives
        // the call.
        unsafe {
            push.cmd_push_descriptor_set(
                cmd,
                bind,
                layout,
                0,
                &[write(0, &a_info), write(1, &b_info)],
            );
        }
        r.push_constants(&pipeline, 0, &to_bytes(&[1u32]));
        r.dispatch(WORDS as u32 / 64, 1, 1);
        // SAFETY: as above.
        unsafe { push.cmd_push_descriptor_set(cmd, bind, layout, 0, &[write(1, &c_info)]) };
        r.push_constants(&pipeline, 0, &to_bytes(&[2u32]));
        r.dispatch(WORDS as u32 / 64, 1, 1);
        // The third step reads B, which the first wrote.
        r.barrier(Dependency::COMPUTE_TO_COMPUTE);
        // SAFETY: as above; `b_to_d` is laid out as the template says.
        unsafe {
            push.cmd_push_descriptor_set_with_template(
                cmd,
                template,
                layout,
                0,
                b_to_d.as_ptr().cast(),
            );
        }
        r.push_constants(&pipeline, 0, &to_bytes(&[3u32]));
        r.dispatch(WORDS as u32 / 64, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let first = step::step(&initial, 1);
    let mut result = CaseResult::new();
    result.check("b_pushed", &h.read_as::<u32>(&b)?, &first);
    result.check(
        "c_incremental",
        &h.read_as::<u32>(&c)?,
        &step::step(&initial, 2),
    );
    result.check("d_template", &h.read_as::<u32>(&d)?, &step::step(&first, 3));
    Ok(result)
}

/// `sets.comp` with its parameters (set 0, a uniform buffer) pushed and
/// its input and output as ordinary sets 1 and 2: pushing set 0 again
/// between dispatches changes only the parameters, and binding other sets
/// keeps the pushed ones.
fn beside_sets(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().push_descriptor {
        return Err(Stop::NotSupported("VK_KHR_push_descriptor".into()));
    }
    const N: usize = 256;
    const UNIFORM: vk::BufferUsageFlags = vk::BufferUsageFlags::UNIFORM_BUFFER;
    const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;
    let values_a: Vec<u32> = (0..N as u32).map(|i| i * 5 + 2).collect();
    let values_c: Vec<u32> = (0..N as u32).map(|i| i ^ 0x3c3c).collect();
    let p1 = h.host_buffer_with(UNIFORM, &to_bytes(&[7u32, 3]))?;
    let p2 = h.host_buffer_with(UNIFORM, &to_bytes(&[40u32, 9]))?;
    let a = h.host_buffer_with(STORAGE, &to_bytes(&values_a))?;
    let c = h.host_buffer_with(STORAGE, &to_bytes(&values_c))?;
    let outs = [
        h.host_buffer(4 * N as u64, STORAGE)?,
        h.host_buffer(4 * N as u64, STORAGE)?,
        h.host_buffer(4 * N as u64, STORAGE)?,
    ];
    let sets: &[&[Slot]] = &[&[Slot::UNIFORM], &[Slot::STORAGE], &[Slot::STORAGE]];
    let pipeline = h.pipeline(&PipelineDesc::new(&shaders::SETS, sets).push_descriptors(0))?;
    let in_a = h.descriptor_set(&pipeline, 1, &[Bind::whole(&a)])?;
    let in_c = h.descriptor_set(&pipeline, 1, &[Bind::whole(&c)])?;
    let mut out_sets = Vec::new();
    for out in &outs {
        out_sets.push(h.descriptor_set(&pipeline, 2, &[Bind::whole(out)])?);
    }
    let push = ash::khr::push_descriptor::Device::new(h.instance(), h.device());
    h.run(|r| {
        let cmd = r.command_buffer();
        let params = |b: &Buffer| [buffer_info(b)];
        let (one, two) = (params(&p1), params(&p2));
        let write = |info| {
            vk::WriteDescriptorSet::default()
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .buffer_info(info)
        };
        let bind = vk::PipelineBindPoint::COMPUTE;
        r.bind(&pipeline, &[]);
        r.bind_sets(&pipeline, 1, &[in_a, out_sets[0]]);
        // SAFETY: the command buffer is recording with the pipeline bound;
        // set 0 of its layout is a push descriptor layout; the buffers are
        // alive.
        unsafe { push.cmd_push_descriptor_set(cmd, bind, pipeline.layout, 0, &[write(&one)]) };
        r.dispatch(N as u32 / 64, 1, 1);
        // New sets 1 and 2; the pushed parameters stay.
        r.bind_sets(&pipeline, 1, &[in_c, out_sets[1]]);
        r.dispatch(N as u32 / 64, 1, 1);
        // New parameters; sets 1 and 2 stay, but for the output.
        // SAFETY: as above.
        unsafe { push.cmd_push_descriptor_set(cmd, bind, pipeline.layout, 0, &[write(&two)]) };
        r.bind_sets(&pipeline, 2, &[out_sets[2]]);
        r.dispatch(N as u32 / 64, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let apply = |v: &[u32], add: u32, mul: u32| v.iter().map(|x| x * mul + add).collect::<Vec<_>>();
    let mut result = CaseResult::new();
    result.check(
        "a_params1",
        &h.read_as::<u32>(&outs[0])?,
        &apply(&values_a, 7, 3),
    );
    result.check(
        "c_params1",
        &h.read_as::<u32>(&outs[1])?,
        &apply(&values_c, 7, 3),
    );
    result.check(
        "c_params2",
        &h.read_as::<u32>(&outs[2])?,
        &apply(&values_c, 40, 9),
    );
    Ok(result)
}
