//! The core graphics commands that need graphics pipelines, which Parsnip
//! does not build yet (its queue family has graphics, and render passes
//! with their clears work: icd/src/render_pass.rs): every one exists
//! (applications and the CTS call core commands without checking), and
//! each fails cleanly.
//!
//! - `vkCreateGraphicsPipelines` returns `VK_ERROR_OUT_OF_DEVICE_MEMORY`,
//!   one of the errors the spec allows it, with a message saying why, and
//!   leaves every pipeline `VK_NULL_HANDLE`.
//! - A `vkCmd*` that only a graphics pipeline gives meaning to (dynamic
//!   state, vertex and index buffers, draws), and queries begun and ended
//!   (occlusion queries and pipeline statistics count draws), marks the command
//!   buffer failed: `vkEndCommandBuffer` returns
//!   `VK_ERROR_FEATURE_NOT_PRESENT`, so the buffer never becomes executable
//!   and cannot be submitted as if it had worked.

use ash::vk;

use crate::ffi;
use crate::guard;
use crate::handles;

/// Marks `command_buffer` failed by `entry`, which needs graphics
/// pipelines.
fn needs_graphics_pipelines(entry: &str, command_buffer: vk::CommandBuffer) {
    guard::void(entry, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let cmd = unsafe { handles::command_buffer(command_buffer) }?;
        eprintln!(
            "parsnip: {entry}: needs graphics pipelines, which Parsnip does not build yet; \
             the command buffer cannot be ended"
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
                "parsnip: vkCreateGraphicsPipelines: Parsnip does not build graphics pipelines \
                 yet (its compiler has no vertex or fragment shaders)"
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
    needs_graphics_pipelines("vkCmdSetViewport", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetScissor(
    command_buffer: vk::CommandBuffer,
    _first: u32,
    _count: u32,
    _p_scissors: *const vk::Rect2D,
) {
    needs_graphics_pipelines("vkCmdSetScissor", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetLineWidth(command_buffer: vk::CommandBuffer, _width: f32) {
    needs_graphics_pipelines("vkCmdSetLineWidth", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetDepthBias(
    command_buffer: vk::CommandBuffer,
    _constant: f32,
    _clamp: f32,
    _slope: f32,
) {
    needs_graphics_pipelines("vkCmdSetDepthBias", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetBlendConstants(
    command_buffer: vk::CommandBuffer,
    _constants: *const [f32; 4],
) {
    needs_graphics_pipelines("vkCmdSetBlendConstants", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetDepthBounds(
    command_buffer: vk::CommandBuffer,
    _min: f32,
    _max: f32,
) {
    needs_graphics_pipelines("vkCmdSetDepthBounds", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetStencilCompareMask(
    command_buffer: vk::CommandBuffer,
    _faces: vk::StencilFaceFlags,
    _mask: u32,
) {
    needs_graphics_pipelines("vkCmdSetStencilCompareMask", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetStencilWriteMask(
    command_buffer: vk::CommandBuffer,
    _faces: vk::StencilFaceFlags,
    _mask: u32,
) {
    needs_graphics_pipelines("vkCmdSetStencilWriteMask", command_buffer);
}

pub unsafe extern "system" fn vkCmdSetStencilReference(
    command_buffer: vk::CommandBuffer,
    _faces: vk::StencilFaceFlags,
    _reference: u32,
) {
    needs_graphics_pipelines("vkCmdSetStencilReference", command_buffer);
}

pub unsafe extern "system" fn vkCmdBindIndexBuffer(
    command_buffer: vk::CommandBuffer,
    _buffer: vk::Buffer,
    _offset: vk::DeviceSize,
    _ty: vk::IndexType,
) {
    needs_graphics_pipelines("vkCmdBindIndexBuffer", command_buffer);
}

pub unsafe extern "system" fn vkCmdBindVertexBuffers(
    command_buffer: vk::CommandBuffer,
    _first: u32,
    _count: u32,
    _p_buffers: *const vk::Buffer,
    _p_offsets: *const vk::DeviceSize,
) {
    needs_graphics_pipelines("vkCmdBindVertexBuffers", command_buffer);
}

pub unsafe extern "system" fn vkCmdDraw(
    command_buffer: vk::CommandBuffer,
    _vertices: u32,
    _instances: u32,
    _first_vertex: u32,
    _first_instance: u32,
) {
    needs_graphics_pipelines("vkCmdDraw", command_buffer);
}

pub unsafe extern "system" fn vkCmdDrawIndexed(
    command_buffer: vk::CommandBuffer,
    _indices: u32,
    _instances: u32,
    _first_index: u32,
    _vertex_offset: i32,
    _first_instance: u32,
) {
    needs_graphics_pipelines("vkCmdDrawIndexed", command_buffer);
}

pub unsafe extern "system" fn vkCmdDrawIndirect(
    command_buffer: vk::CommandBuffer,
    _buffer: vk::Buffer,
    _offset: vk::DeviceSize,
    _draws: u32,
    _stride: u32,
) {
    needs_graphics_pipelines("vkCmdDrawIndirect", command_buffer);
}

pub unsafe extern "system" fn vkCmdDrawIndexedIndirect(
    command_buffer: vk::CommandBuffer,
    _buffer: vk::Buffer,
    _offset: vk::DeviceSize,
    _draws: u32,
    _stride: u32,
) {
    needs_graphics_pipelines("vkCmdDrawIndexedIndirect", command_buffer);
}

pub unsafe extern "system" fn vkCmdBeginQuery(
    command_buffer: vk::CommandBuffer,
    _pool: vk::QueryPool,
    _query: u32,
    _flags: vk::QueryControlFlags,
) {
    needs_graphics_pipelines("vkCmdBeginQuery", command_buffer);
}

pub unsafe extern "system" fn vkCmdEndQuery(
    command_buffer: vk::CommandBuffer,
    _pool: vk::QueryPool,
    _query: u32,
) {
    needs_graphics_pipelines("vkCmdEndQuery", command_buffer);
}
