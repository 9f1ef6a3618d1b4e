//! The core commands that need a graphics queue family, which Parsnip does
//! not offer until the graphics work lands: every one exists (applications
//! and the CTS call core commands without checking), and each fails
//! cleanly.
//!
//! - `vkCreateGraphicsPipelines` returns `VK_ERROR_OUT_OF_DEVICE_MEMORY`,
//!   one of the errors the spec allows it, with a message saying why, and
//!   leaves every pipeline `VK_NULL_HANDLE`.
//! - A `vkCmd*` that only a graphics queue can execute (dynamic state,
//!   vertex and index buffers, draws, render passes, attachment clears,
//!   queries begun and ended, which on a compute queue only pipeline
//!   statistics could be and that feature is not offered) marks the command
//!   buffer failed: `vkEndCommandBuffer` returns
//!   `VK_ERROR_FEATURE_NOT_PRESENT`, so the buffer never becomes executable
//!   and cannot be submitted as if it had worked.

use ash::vk;

use crate::ffi;
use crate::guard;
use crate::handles;

/// Marks `command_buffer` failed by `entry`, which no queue family of the
/// device can execute.
fn needs_graphics_queue(entry: &str, command_buffer: vk::CommandBuffer) {
    guard::void(entry, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let cmd = unsafe { handles::command_buffer(command_buffer) }?;
        eprintln!(
            "parsnip: {entry}: needs a graphics queue, which Parsnip does not offer yet; the \
             command buffer cannot be ended"
        );
        cmd.record(|_| Err(vk::Result::ERROR_FEATURE_NOT_PRESENT));
        Ok(())
    })
}

pub unsafe extern "system" fn vkCreateGraphicsPipelines(
    _device: vk::Device,
    _cache: vk::PipelineCache,
    count: u32,
    _p_infos: *const vk::GraphicsPipelineCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pipelines: *mut vk::Pipeline,
) -> vk::Result {
    guard::success(
        "vkCreateGraphicsPipelines",
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        || {
            for i in 0..count as usize {
                // SAFETY: pPipelines holds createInfoCount handles.
                unsafe { ffi::write(p_pipelines.add(i), vk::Pipeline::null()) }?;
            }
            eprintln!(
                "parsnip: vkCreateGraphicsPipelines: graphics pipelines need the graphics work \
                 (Parsnip has no graphics queue family yet)"
            );
            Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        },
    )
}

pub unsafe extern "system" fn vkCmdSetViewport(
    command_buffer: vk::CommandBuffer,
    _first: u32,
    _count: u32,
    _p_viewports: *const vk::Viewport,
) {
    needs_graphics_queue("vkCmdSetViewport", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetScissor(
    command_buffer: vk::CommandBuffer,
    _first: u32,
    _count: u32,
    _p_scissors: *const vk::Rect2D,
) {
    needs_graphics_queue("vkCmdSetScissor", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetLineWidth(command_buffer: vk::CommandBuffer, _width: f32) {
    needs_graphics_queue("vkCmdSetLineWidth", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetDepthBias(
    command_buffer: vk::CommandBuffer,
    _constant: f32,
    _clamp: f32,
    _slope: f32,
) {
    needs_graphics_queue("vkCmdSetDepthBias", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetBlendConstants(
    command_buffer: vk::CommandBuffer,
    _constants: *const [f32; 4],
) {
    needs_graphics_queue("vkCmdSetBlendConstants", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetDepthBounds(
    command_buffer: vk::CommandBuffer,
    _min: f32,
    _max: f32,
) {
    needs_graphics_queue("vkCmdSetDepthBounds", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetStencilCompareMask(
    command_buffer: vk::CommandBuffer,
    _faces: vk::StencilFaceFlags,
    _mask: u32,
) {
    needs_graphics_queue("vkCmdSetStencilCompareMask", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetStencilWriteMask(
    command_buffer: vk::CommandBuffer,
    _faces: vk::StencilFaceFlags,
    _mask: u32,
) {
    needs_graphics_queue("vkCmdSetStencilWriteMask", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetStencilReference(
    command_buffer: vk::CommandBuffer,
    _faces: vk::StencilFaceFlags,
    _reference: u32,
) {
    needs_graphics_queue("vkCmdSetStencilReference", command_buffer);
}

pub unsafe extern "system" fn vkCmdBindIndexBuffer(
    command_buffer: vk::CommandBuffer,
    _buffer: vk::Buffer,
    _offset: vk::DeviceSize,
    _ty: vk::IndexType,
) {
    needs_graphics_queue("vkCmdBindIndexBuffer", command_buffer);
}

pub unsafe extern "system" fn vkCmdBindVertexBuffers(
    command_buffer: vk::CommandBuffer,
    _first: u32,
    _count: u32,
    _p_buffers: *const vk::Buffer,
    _p_offsets: *const vk::DeviceSize,
) {
    needs_graphics_queue("vkCmdBindVertexBuffers", command_buffer);
}

pub unsafe extern "system" fn vkCmdDraw(
    command_buffer: vk::CommandBuffer,
    _vertices: u32,
    _instances: u32,
    _first_vertex: u32,
    _first_instance: u32,
) {
    needs_graphics_queue("vkCmdDraw", command_buffer);
}

pub unsafe extern "system" fn vkCmdDrawIndexed(
    command_buffer: vk::CommandBuffer,
    _indices: u32,
    _instances: u32,
    _first_index: u32,
    _vertex_offset: i32,
    _first_instance: u32,
) {
    needs_graphics_queue("vkCmdDrawIndexed", command_buffer);
}

pub unsafe extern "system" fn vkCmdDrawIndirect(
    command_buffer: vk::CommandBuffer,
    _buffer: vk::Buffer,
    _offset: vk::DeviceSize,
    _draws: u32,
    _stride: u32,
) {
    needs_graphics_queue("vkCmdDrawIndirect", command_buffer);
}

pub unsafe extern "system" fn vkCmdDrawIndexedIndirect(
    command_buffer: vk::CommandBuffer,
    _buffer: vk::Buffer,
    _offset: vk::DeviceSize,
    _draws: u32,
    _stride: u32,
) {
    needs_graphics_queue("vkCmdDrawIndexedIndirect", command_buffer);
}

pub unsafe extern "system" fn vkCmdClearAttachments(
    command_buffer: vk::CommandBuffer,
    _attachment_count: u32,
    _p_attachments: *const vk::ClearAttachment,
    _rect_count: u32,
    _p_rects: *const vk::ClearRect,
) {
    needs_graphics_queue("vkCmdClearAttachments", command_buffer);
}

pub unsafe extern "system" fn vkCmdBeginQuery(
    command_buffer: vk::CommandBuffer,
    _pool: vk::QueryPool,
    _query: u32,
    _flags: vk::QueryControlFlags,
) {
    needs_graphics_queue("vkCmdBeginQuery", command_buffer);
}

pub unsafe extern "system" fn vkCmdEndQuery(
    command_buffer: vk::CommandBuffer,
    _pool: vk::QueryPool,
    _query: u32,
) {
    needs_graphics_queue("vkCmdEndQuery", command_buffer);
}

pub unsafe extern "system" fn vkCmdBeginRenderPass(
    command_buffer: vk::CommandBuffer,
    _p_begin: *const vk::RenderPassBeginInfo<'_>,
    _contents: vk::SubpassContents,
) {
    needs_graphics_queue("vkCmdBeginRenderPass", command_buffer);
}

pub unsafe extern "system" fn vkCmdNextSubpass(
    command_buffer: vk::CommandBuffer,
    _contents: vk::SubpassContents,
) {
    needs_graphics_queue("vkCmdNextSubpass", command_buffer);
}

pub unsafe extern "system" fn vkCmdEndRenderPass(command_buffer: vk::CommandBuffer) {
    needs_graphics_queue("vkCmdEndRenderPass", command_buffer);
}
