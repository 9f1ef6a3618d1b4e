//! The dynamic-state commands but `vkCmdSetViewport` and `vkCmdSetScissor`
//! (icd/src/graphics.rs): Vulkan 1.0's, `VK_EXT_extended_dynamic_state`'s
//! (with `vkCmdBindVertexBuffers2`) and `VK_EXT_extended_dynamic_state2`'s,
//! each recorded by driver/src/cmd/dynamic_state.rs. The extensions'
//! `*EXT` names resolve to these (the registry's aliases).

use ash::vk;

use crate::commands::{record, record_with};
use crate::ffi;
use crate::graphics::needs_graphics_pipelines;
use crate::handles;

pub unsafe extern "system" fn vkCmdSetLineWidth(command_buffer: vk::CommandBuffer, width: f32) {
    record("vkCmdSetLineWidth", command_buffer, |rec| {
        rec.set_line_width(width)
    });
}

pub unsafe extern "system" fn vkCmdSetDepthBias(
    command_buffer: vk::CommandBuffer,
    constant: f32,
    clamp: f32,
    slope: f32,
) {
    record("vkCmdSetDepthBias", command_buffer, |rec| {
        rec.set_depth_bias(constant, clamp, slope)
    });
}

pub unsafe extern "system" fn vkCmdSetBlendConstants(
    command_buffer: vk::CommandBuffer,
    constants: *const [f32; 4],
) {
    record_with(
        "vkCmdSetBlendConstants",
        command_buffer,
        // SAFETY: blendConstants points at four floats.
        || {
            unsafe { ffi::slice(constants, 1) }
                .first()
                .copied()
                .ok_or(vk::Result::ERROR_UNKNOWN)
        },
        |rec, c| rec.set_blend_constants(c),
    );
}

pub unsafe extern "system" fn vkCmdSetDepthBounds(
    command_buffer: vk::CommandBuffer,
    min: f32,
    max: f32,
) {
    record("vkCmdSetDepthBounds", command_buffer, |rec| {
        rec.set_depth_bounds(min, max)
    });
}

pub unsafe extern "system" fn vkCmdSetStencilCompareMask(
    command_buffer: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    mask: u32,
) {
    record("vkCmdSetStencilCompareMask", command_buffer, |rec| {
        rec.set_stencil_compare_mask(faces, mask)
    });
}

pub unsafe extern "system" fn vkCmdSetStencilWriteMask(
    command_buffer: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    mask: u32,
) {
    record("vkCmdSetStencilWriteMask", command_buffer, |rec| {
        rec.set_stencil_write_mask(faces, mask)
    });
}

pub unsafe extern "system" fn vkCmdSetStencilReference(
    command_buffer: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    reference: u32,
) {
    record("vkCmdSetStencilReference", command_buffer, |rec| {
        rec.set_stencil_reference(faces, reference)
    });
}

pub unsafe extern "system" fn vkCmdSetCullMode(
    command_buffer: vk::CommandBuffer,
    mode: vk::CullModeFlags,
) {
    record("vkCmdSetCullMode", command_buffer, |rec| {
        rec.set_cull_mode(mode)
    });
}

pub unsafe extern "system" fn vkCmdSetFrontFace(
    command_buffer: vk::CommandBuffer,
    face: vk::FrontFace,
) {
    record("vkCmdSetFrontFace", command_buffer, |rec| {
        rec.set_front_face(face)
    });
}

pub unsafe extern "system" fn vkCmdSetPrimitiveTopology(
    command_buffer: vk::CommandBuffer,
    topology: vk::PrimitiveTopology,
) {
    record("vkCmdSetPrimitiveTopology", command_buffer, |rec| {
        rec.set_primitive_topology(topology)
    });
}

pub unsafe extern "system" fn vkCmdSetViewportWithCount(
    command_buffer: vk::CommandBuffer,
    count: u32,
    p_viewports: *const vk::Viewport,
) {
    record_with(
        "vkCmdSetViewportWithCount",
        command_buffer,
        // SAFETY: pViewports holds viewportCount viewports.
        || Ok(unsafe { ffi::slice(p_viewports, count) }.to_vec()),
        |rec, v| rec.set_viewport(0, &v),
    );
}

pub unsafe extern "system" fn vkCmdSetScissorWithCount(
    command_buffer: vk::CommandBuffer,
    count: u32,
    p_scissors: *const vk::Rect2D,
) {
    record_with(
        "vkCmdSetScissorWithCount",
        command_buffer,
        // SAFETY: pScissors holds scissorCount rectangles.
        || Ok(unsafe { ffi::slice(p_scissors, count) }.to_vec()),
        |rec, s| rec.set_scissor(0, &s),
    );
}

pub unsafe extern "system" fn vkCmdBindVertexBuffers2(
    command_buffer: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_buffers: *const vk::Buffer,
    p_offsets: *const vk::DeviceSize,
    p_sizes: *const vk::DeviceSize,
    p_strides: *const vk::DeviceSize,
) {
    let entry = "vkCmdBindVertexBuffers2";
    // SAFETY: pBuffers and pOffsets hold bindingCount entries, and pSizes
    // and pStrides too unless null.
    let (buffers, offsets, sizes, strides) = unsafe {
        (
            ffi::slice(p_buffers, count),
            ffi::slice(p_offsets, count),
            (!p_sizes.is_null()).then(|| ffi::slice(p_sizes, count)),
            (!p_strides.is_null()).then(|| ffi::slice(p_strides, count)),
        )
    };
    record(entry, command_buffer, |rec| {
        for (i, (b, o)) in buffers.iter().zip(offsets).enumerate() {
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            let buffer = unsafe { handles::buffer(*b) }?;
            let size = sizes.map_or(vk::WHOLE_SIZE, |s| s[i]);
            let stride = strides.map(|s| s[i]);
            let slot = first.wrapping_add(i as u32);
            rec.bind_vertex_buffer(entry, slot, buffer, *o, size, stride)?;
        }
        Ok(())
    });
}

pub unsafe extern "system" fn vkCmdSetDepthTestEnable(
    command_buffer: vk::CommandBuffer,
    enable: vk::Bool32,
) {
    record("vkCmdSetDepthTestEnable", command_buffer, |rec| {
        rec.set_depth_test_enable(enable == vk::TRUE)
    });
}

pub unsafe extern "system" fn vkCmdSetDepthWriteEnable(
    command_buffer: vk::CommandBuffer,
    enable: vk::Bool32,
) {
    record("vkCmdSetDepthWriteEnable", command_buffer, |rec| {
        rec.set_depth_write_enable(enable == vk::TRUE)
    });
}

pub unsafe extern "system" fn vkCmdSetDepthCompareOp(
    command_buffer: vk::CommandBuffer,
    op: vk::CompareOp,
) {
    record("vkCmdSetDepthCompareOp", command_buffer, |rec| {
        rec.set_depth_compare_op(op)
    });
}

pub unsafe extern "system" fn vkCmdSetDepthBoundsTestEnable(
    command_buffer: vk::CommandBuffer,
    enable: vk::Bool32,
) {
    record("vkCmdSetDepthBoundsTestEnable", command_buffer, |rec| {
        rec.set_depth_bounds_test_enable(enable == vk::TRUE)
    });
}

pub unsafe extern "system" fn vkCmdSetStencilTestEnable(
    command_buffer: vk::CommandBuffer,
    enable: vk::Bool32,
) {
    record("vkCmdSetStencilTestEnable", command_buffer, |rec| {
        rec.set_stencil_test_enable(enable == vk::TRUE)
    });
}

pub unsafe extern "system" fn vkCmdSetStencilOp(
    command_buffer: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    fail_op: vk::StencilOp,
    pass_op: vk::StencilOp,
    depth_fail_op: vk::StencilOp,
    compare_op: vk::CompareOp,
) {
    let ops = vk::StencilOpState {
        fail_op,
        pass_op,
        depth_fail_op,
        compare_op,
        ..Default::default()
    };
    record("vkCmdSetStencilOp", command_buffer, |rec| {
        rec.set_stencil_op(faces, ops)
    });
}

pub unsafe extern "system" fn vkCmdSetRasterizerDiscardEnable(
    command_buffer: vk::CommandBuffer,
    enable: vk::Bool32,
) {
    record("vkCmdSetRasterizerDiscardEnable", command_buffer, |rec| {
        rec.set_rasterizer_discard_enable(enable == vk::TRUE)
    });
}

pub unsafe extern "system" fn vkCmdSetDepthBiasEnable(
    command_buffer: vk::CommandBuffer,
    enable: vk::Bool32,
) {
    record("vkCmdSetDepthBiasEnable", command_buffer, |rec| {
        rec.set_depth_bias_enable(enable == vk::TRUE)
    });
}

pub unsafe extern "system" fn vkCmdSetPrimitiveRestartEnable(
    command_buffer: vk::CommandBuffer,
    enable: vk::Bool32,
) {
    record("vkCmdSetPrimitiveRestartEnable", command_buffer, |rec| {
        rec.set_primitive_restart_enable(enable == vk::TRUE)
    });
}

/// extendedDynamicState2LogicOp is not offered: a valid application never
/// calls it, and the command buffer is failed if one does.
pub unsafe extern "system" fn vkCmdSetLogicOpEXT(
    command_buffer: vk::CommandBuffer,
    _op: vk::LogicOp,
) {
    needs_graphics_pipelines("vkCmdSetLogicOpEXT", command_buffer);
}

/// extendedDynamicState2PatchControlPoints is not offered (there is no
/// tessellation): as above.
pub unsafe extern "system" fn vkCmdSetPatchControlPointsEXT(
    command_buffer: vk::CommandBuffer,
    _points: u32,
) {
    needs_graphics_pipelines("vkCmdSetPatchControlPointsEXT", command_buffer);
}
