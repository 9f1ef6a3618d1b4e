//! The core graphics commands: graphics pipelines, vertex and index
//! buffers, the viewport and scissor, and draws (driver/src/cmd/draw.rs,
//! driver/src/pipeline/graphics.rs), with render passes and their clears
//! in icd/src/render_pass.rs and the rest of the dynamic state in
//! icd/src/dynamic_state.rs.
//!
//! Every core command exists (applications and the CTS call core commands
//! without checking). What is not built yet fails cleanly:
//! `vkCreateGraphicsPipelines` refuses state it cannot draw with
//! `VK_ERROR_UNKNOWN` and a message naming it, leaving that pipeline
//! `VK_NULL_HANDLE`; a `vkCmd*` that needs what does not exist yet
//! (dynamic states not built) marks the command buffer failed: `vkEndCommandBuffer`
//! returns `VK_ERROR_FEATURE_NOT_PRESENT`, so the buffer never becomes
//! executable and cannot be submitted as if it had worked.

use std::sync::Arc;

use ash::vk;
use parsnip_driver::attachment_formats::AttachmentFormats;
use parsnip_driver::pipeline::graphics::{GraphicsPipeline, GraphicsPipelineDesc, StageDesc};
use parsnip_driver::pipeline::multisample::Multisample;
use parsnip_driver::pipeline::AnyPipeline;

use crate::commands::{record, record_with};
use crate::ffi;
use crate::guard;
use crate::handles;
use crate::pipeline::specialization;
use crate::pipeline_creation::{self, Feedback, Made};
use crate::render_pass::RENDER_PASSES;

/// Marks `command_buffer` failed by `entry`, which is not built yet.
pub(crate) fn needs_graphics_pipelines(entry: &str, command_buffer: vk::CommandBuffer) {
    guard::void(entry, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let cmd = unsafe { handles::command_buffer(command_buffer) }?;
        eprintln!(
            "parsnip: {entry}: is not supported yet (the command is not built); the command \
             buffer cannot be ended"
        );
        cmd.record(|_| Err(vk::Result::ERROR_FEATURE_NOT_PRESENT));
        Ok(())
    })
}

fn refuse<T>(what: &str) -> Result<T, vk::Result> {
    eprintln!("parsnip: vkCreateGraphicsPipelines: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

/// What the pipeline renders to: its render pass's subpass, or with no
/// render pass (dynamic rendering) the formats of the
/// `VkPipelineRenderingCreateInfo` in its chain (none without one).
///
/// # Safety
/// `info` is a valid create info with a valid chain, its handles live.
unsafe fn attachment_formats(
    info: &vk::GraphicsPipelineCreateInfo<'_>,
    samples: vk::SampleCountFlags,
) -> Result<AttachmentFormats, vk::Result> {
    let command = "vkCreateGraphicsPipelines";
    if info.render_pass != vk::RenderPass::null() {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pass = unsafe { RENDER_PASSES.get(vk::Handle::as_raw(info.render_pass)) }?;
        return AttachmentFormats::of_subpass(pass, info.subpass, command);
    }
    // SAFETY: the caller's promise.
    let rendering =
        unsafe { ffi::find_in_chain::<vk::PipelineRenderingCreateInfo<'_>>(info.p_next) };
    let undefined = vk::Format::UNDEFINED;
    let Some(r) = rendering else {
        return AttachmentFormats::of_rendering(&[], undefined, undefined, samples, 0, command);
    };
    // SAFETY: pColorAttachmentFormats holds colorAttachmentCount formats.
    let colors = unsafe { ffi::slice(r.p_color_attachment_formats, r.color_attachment_count) };
    AttachmentFormats::of_rendering(
        colors,
        r.depth_attachment_format,
        r.stencil_attachment_format,
        samples,
        r.view_mask,
        command,
    )
}

/// `info` read out of its structures and created.
///
/// # Safety
/// `info` is a valid create info, its handles live.
unsafe fn create(
    device: &Arc<parsnip_driver::device::Device>,
    info: &vk::GraphicsPipelineCreateInfo<'_>,
) -> Result<Arc<GraphicsPipeline>, vk::Result> {
    if info.flags.contains(vk::PipelineCreateFlags::LIBRARY_KHR) {
        return refuse("pipeline libraries are not supported");
    }
    // SAFETY: pStages holds stageCount stages.
    let stages = unsafe { ffi::slice(info.p_stages, info.stage_count) };
    let mut vs = None;
    let mut fs = None;
    for st in stages {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let module = unsafe { handles::shader_module(st.module) }?;
        // SAFETY: pName is a valid string.
        let entry = unsafe { ffi::cstr(st.p_name) }
            .and_then(|s| s.to_str().ok())
            .unwrap_or("main");
        let desc = StageDesc {
            module,
            entry_point: entry,
            // SAFETY: pSpecializationInfo is null or valid.
            specialization: unsafe { specialization(st.p_specialization_info) },
        };
        match st.stage {
            vk::ShaderStageFlags::VERTEX => vs = Some(desc),
            vk::ShaderStageFlags::FRAGMENT => fs = Some(desc),
            other => return refuse(&format!("{other:?} shaders are not supported yet")),
        }
    }
    let (Some(vs), Some(fs)) = (vs, fs) else {
        return refuse("a vertex and a fragment shader are needed (others are not built yet)");
    };
    // SAFETY: the state pointers are null or valid, as the spec says when.
    let (vertex, assembly, viewport, raster, multisample, depth, blend, dynamic) = unsafe {
        (
            ffi::opt_ref(info.p_vertex_input_state),
            ffi::opt_ref(info.p_input_assembly_state),
            ffi::opt_ref(info.p_viewport_state),
            ffi::opt_ref(info.p_rasterization_state),
            ffi::opt_ref(info.p_multisample_state),
            ffi::opt_ref(info.p_depth_stencil_state),
            ffi::opt_ref(info.p_color_blend_state),
            ffi::opt_ref(info.p_dynamic_state),
        )
    };
    let (Some(assembly), Some(raster)) = (assembly, raster) else {
        return refuse("no input assembly or rasterization state");
    };
    // SAFETY: the arrays hold their counts.
    let (bindings, attributes) = match vertex {
        Some(v) => unsafe {
            (
                ffi::slice(
                    v.p_vertex_binding_descriptions,
                    v.vertex_binding_description_count,
                )
                .to_vec(),
                ffi::slice(
                    v.p_vertex_attribute_descriptions,
                    v.vertex_attribute_description_count,
                )
                .to_vec(),
            )
        },
        None => (Vec::new(), Vec::new()),
    };
    // SAFETY: the arrays hold their counts (null when the state is dynamic).
    let dynamic = dynamic.map_or(Vec::new(), |d| unsafe {
        ffi::slice(d.p_dynamic_states, d.dynamic_state_count).to_vec()
    });
    let (viewports, scissors) = match viewport {
        // SAFETY: as above.
        Some(v) => unsafe {
            let viewports = if dynamic.contains(&vk::DynamicState::VIEWPORT) {
                Vec::new()
            } else {
                ffi::slice(v.p_viewports, v.viewport_count).to_vec()
            };
            let scissors = if dynamic.contains(&vk::DynamicState::SCISSOR) {
                Vec::new()
            } else {
                ffi::slice(v.p_scissors, v.scissor_count).to_vec()
            };
            if v.viewport_count > 1 || v.scissor_count > 1 {
                return refuse("more than one viewport or scissor is not supported yet");
            }
            (viewports, scissors)
        },
        None => (Vec::new(), Vec::new()),
    };
    let blend = blend.map(|b| {
        (
            b.logic_op_enable == vk::TRUE,
            b.logic_op,
            // SAFETY: pAttachments holds attachmentCount states.
            unsafe { ffi::slice(b.p_attachments, b.attachment_count) }.to_vec(),
            b.blend_constants,
        )
    });
    let samples = multisample.map_or(vk::SampleCountFlags::TYPE_1, |m| m.rasterization_samples);
    // SAFETY: the info's chain and handles are valid.
    let formats = unsafe { attachment_formats(info, samples) }?;
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    let layout = unsafe { handles::pipeline_layout(info.layout) }?;
    let desc = GraphicsPipelineDesc {
        vs,
        fs,
        bindings,
        attributes,
        input_assembly: *assembly,
        rasterization: *raster,
        multisample: multisample.map_or_else(Multisample::default, |m| Multisample {
            samples: m.rasterization_samples,
            // SAFETY: pSampleMask, when given, holds one word per 32 samples.
            sample_mask: unsafe { m.p_sample_mask.as_ref() }
                .copied()
                .unwrap_or(u32::MAX),
            alpha_to_coverage: m.alpha_to_coverage_enable == vk::TRUE,
            alpha_to_one: m.alpha_to_one_enable == vk::TRUE,
            sample_shading: m.sample_shading_enable == vk::TRUE,
        }),
        depth_stencil: depth.copied(),
        blend,
        viewports,
        scissors,
        dynamic,
        formats,
        layout: layout.clone(),
    };
    GraphicsPipeline::new(device, &desc)
}

pub unsafe extern "system" fn vkCreateGraphicsPipelines(
    device: vk::Device,
    _cache: vk::PipelineCache,
    count: u32,
    p_infos: *const vk::GraphicsPipelineCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pipelines: *mut vk::Pipeline,
) -> vk::Result {
    guard::result(
        "vkCreateGraphicsPipelines",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: pCreateInfos holds createInfoCount structures.
            let infos = unsafe { ffi::slice(p_infos, count) };
            let make = |info: &vk::GraphicsPipelineCreateInfo<'_>| {
                // Graphics shaders are not kept in pipeline caches: every
                // graphics pipeline is compiled.
                if pipeline_creation::must_not_compile(info) {
                    return Err(vk::Result::PIPELINE_COMPILE_REQUIRED);
                }
                // SAFETY: the application's structure and handles.
                let p = unsafe { create(&device.device, info) }?;
                // SAFETY: pStages holds stageCount stages (create read them).
                let stages = unsafe { ffi::slice(info.p_stages, info.stage_count) }
                    .iter()
                    .map(|s| Feedback {
                        cache_hit: false,
                        duration: if s.stage == vk::ShaderStageFlags::VERTEX {
                            p.compile_times.vertex
                        } else {
                            p.compile_times.fragment
                        },
                    })
                    .collect();
                Ok(Made {
                    pipeline: handles::new_pipeline(Arc::new(AnyPipeline::Graphics(p))),
                    cache_hit: false,
                    stages,
                })
            };
            // SAFETY: pPipelines holds createInfoCount handles; the infos'
            // chains are valid.
            unsafe { pipeline_creation::create_batch(infos, p_pipelines, make) }
        },
    )
}

pub unsafe extern "system" fn vkCmdSetViewport(
    command_buffer: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_viewports: *const vk::Viewport,
) {
    record_with(
        "vkCmdSetViewport",
        command_buffer,
        // SAFETY: pViewports holds viewportCount viewports.
        || Ok(unsafe { ffi::slice(p_viewports, count) }.to_vec()),
        |rec, v| rec.set_viewport(first, &v),
    );
}

pub unsafe extern "system" fn vkCmdSetScissor(
    command_buffer: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_scissors: *const vk::Rect2D,
) {
    record_with(
        "vkCmdSetScissor",
        command_buffer,
        // SAFETY: pScissors holds scissorCount rectangles.
        || Ok(unsafe { ffi::slice(p_scissors, count) }.to_vec()),
        |rec, s| rec.set_scissor(first, &s),
    );
}

pub unsafe extern "system" fn vkCmdBindIndexBuffer(
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    ty: vk::IndexType,
) {
    record_with(
        "vkCmdBindIndexBuffer",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::buffer(buffer) }.cloned(),
        |rec, b| rec.bind_index_buffer(b, offset, ty),
    );
}

pub unsafe extern "system" fn vkCmdBindVertexBuffers(
    command_buffer: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_buffers: *const vk::Buffer,
    p_offsets: *const vk::DeviceSize,
) {
    // SAFETY: pBuffers and pOffsets hold bindingCount entries.
    let (buffers, offsets) =
        unsafe { (ffi::slice(p_buffers, count), ffi::slice(p_offsets, count)) };
    record("vkCmdBindVertexBuffers", command_buffer, |rec| {
        for (i, (b, o)) in buffers.iter().zip(offsets).enumerate() {
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            let buffer = unsafe { handles::buffer(*b) }?;
            let slot = first.wrapping_add(i as u32);
            rec.bind_vertex_buffer(
                "vkCmdBindVertexBuffers",
                slot,
                buffer,
                *o,
                vk::WHOLE_SIZE,
                None,
            )?;
        }
        Ok(())
    });
}

pub unsafe extern "system" fn vkCmdDraw(
    command_buffer: vk::CommandBuffer,
    vertices: u32,
    instances: u32,
    first_vertex: u32,
    first_instance: u32,
) {
    record_with(
        "vkCmdDraw",
        command_buffer,
        || Ok(()),
        |rec, ()| rec.draw(vertices, instances, first_vertex, first_instance),
    );
}

pub unsafe extern "system" fn vkCmdDrawIndexed(
    command_buffer: vk::CommandBuffer,
    indices: u32,
    instances: u32,
    first_index: u32,
    vertex_offset: i32,
    first_instance: u32,
) {
    record_with(
        "vkCmdDrawIndexed",
        command_buffer,
        || Ok(()),
        |rec, ()| {
            rec.draw_indexed(
                indices,
                instances,
                first_index,
                vertex_offset,
                first_instance,
            )
        },
    );
}

pub unsafe extern "system" fn vkCmdDrawIndirect(
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    draws: u32,
    stride: u32,
) {
    record_with(
        "vkCmdDrawIndirect",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::buffer(buffer) }.cloned(),
        |rec, b| rec.draw_indirect(false, b, offset, draws, stride),
    );
}

pub unsafe extern "system" fn vkCmdDrawIndexedIndirect(
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    draws: u32,
    stride: u32,
) {
    record_with(
        "vkCmdDrawIndexedIndirect",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::buffer(buffer) }.cloned(),
        |rec, b| rec.draw_indirect(true, b, offset, draws, stride),
    );
}

pub unsafe extern "system" fn vkCmdBeginQuery(
    command_buffer: vk::CommandBuffer,
    pool: vk::QueryPool,
    query: u32,
    _flags: vk::QueryControlFlags,
) {
    record_with(
        "vkCmdBeginQuery",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::query_pool(pool) },
        |rec, p| rec.begin_query(p, query),
    );
}

pub unsafe extern "system" fn vkCmdEndQuery(
    command_buffer: vk::CommandBuffer,
    pool: vk::QueryPool,
    query: u32,
) {
    record_with(
        "vkCmdEndQuery",
        command_buffer,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || unsafe { handles::query_pool(pool) },
        |rec, p| rec.end_query(p, query),
    );
}
