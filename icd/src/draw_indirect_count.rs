//! `vkCmdDrawIndirectCount` and `vkCmdDrawIndexedIndirectCount` (Vulkan
//! 1.2, `VK_KHR_draw_indirect_count`): indirect draws whose number the GPU
//! reads from a buffer when it runs them.

use ash::vk;

use crate::commands::record_with;
use crate::handles;

pub unsafe extern "system" fn vkCmdDrawIndirectCount(
    command_buffer: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    count_buffer: vk::Buffer,
    count_offset: vk::DeviceSize,
    max_draws: u32,
    stride: u32,
) {
    record_with(
        "vkCmdDrawIndirectCount",
        command_buffer,
        // SAFETY: handles the application passed; valid usage keeps them live for the call.
        || unsafe {
            Ok((
                handles::buffer(buffer)?.clone(),
                handles::buffer(count_buffer)?.clone(),
            ))
        },
        |rec, (b, c)| rec.draw_indirect_count(false, b, offset, c, count_offset, max_draws, stride),
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
    record_with(
        "vkCmdDrawIndexedIndirectCount",
        command_buffer,
        // SAFETY: handles the application passed; valid usage keeps them live for the call.
        || unsafe {
            Ok((
                handles::buffer(buffer)?.clone(),
                handles::buffer(count_buffer)?.clone(),
            ))
        },
        |rec, (b, c)| rec.draw_indirect_count(true, b, offset, c, count_offset, max_draws, stride),
    );
}
