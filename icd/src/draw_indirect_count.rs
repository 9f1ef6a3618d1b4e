//! `vkCmdDrawIndirectCount` and `vkCmdDrawIndexedIndirectCount` (Vulkan
//! 1.2, `VK_KHR_draw_indirect_count`): indirect draws whose number the GPU
//! reads from a buffer when it runs them.

use ash::vk;

use crate::commands::record_with;
use crate::handles;

/// Both commands, `indexed` or not.
#[allow(clippy::too_many_arguments)]
fn draw_indirect_count(
    entry: &'static str,
    indexed: bool,
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    count_buffer: vk::Buffer,
    count_offset: vk::DeviceSize,
    max_draws: u32,
    stride: u32,
) {
    record_with(
        entry,
        command_buffer,
        // SAFETY: handles the application passed; valid usage keeps them live for the call.
        || unsafe {
            Ok((
                handles::buffer(buffer)?.clone(),
                handles::buffer(count_buffer)?.clone(),
            ))
        },
        |rec, (b, c)| {
            rec.draw_indirect_count(indexed, b, offset, c, count_offset, max_draws, stride)
        },
    );
}

pub unsafe extern "system" fn vkCmdDrawIndirectCount(
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    count_buffer: vk::Buffer,
    count_offset: vk::DeviceSize,
    max_draws: u32,
    stride: u32,
) {
    draw_indirect_count(
        "vkCmdDrawIndirectCount",
        false,
        command_buffer,
        buffer,
        offset,
        count_buffer,
        count_offset,
        max_draws,
        stride,
    );
}

pub unsafe extern "system" fn vkCmdDrawIndexedIndirectCount(
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    count_buffer: vk::Buffer,
    count_offset: vk::DeviceSize,
    max_draws: u32,
    stride: u32,
) {
    draw_indirect_count(
        "vkCmdDrawIndexedIndirectCount",
        true,
        command_buffer,
        buffer,
        offset,
        count_buffer,
        count_offset,
        max_draws,
        stride,
    );
}
