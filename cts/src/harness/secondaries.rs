//! Secondary command buffers: recorded to continue a render pass's
//! subpass, and executed from a primary.

use super::commands::Recorder;
use super::Harness;
use crate::case::{OrStop, Stop};
use ash::vk;

/// The subpass a secondary continues: the pass, its subpass index, the
/// framebuffer if the secondary names it (it may leave it null), and
/// whether occlusion queries may be active in the primary while it runs.
#[derive(Clone, Copy)]
pub struct Continues {
    pub pass: vk::RenderPass,
    pub subpass: u32,
    pub framebuffer: vk::Framebuffer,
    pub occlusion_query: bool,
}

impl Harness {
    /// A secondary command buffer recorded by `body`, continuing
    /// `continues`' subpass (RENDER_PASS_CONTINUE).
    pub fn record_secondary(
        &mut self,
        continues: Continues,
        body: impl FnOnce(&Recorder<'_>),
    ) -> Result<vk::CommandBuffer, Stop> {
        let inheritance = vk::CommandBufferInheritanceInfo::default()
            .render_pass(continues.pass)
            .subpass(continues.subpass)
            .framebuffer(continues.framebuffer)
            .occlusion_query_enable(continues.occlusion_query);
        self.record_continuing(&inheritance, body)
    }

    /// A secondary command buffer recorded by `body`, continuing dynamic
    /// rendering into attachments of `colors` formats and the depth
    /// format `depth` (`UNDEFINED` for none), one sample
    /// (RENDER_PASS_CONTINUE with a `VkCommandBufferInheritanceRenderingInfo`).
    pub fn record_rendering_secondary(
        &mut self,
        colors: &[vk::Format],
        depth: vk::Format,
        body: impl FnOnce(&Recorder<'_>),
    ) -> Result<vk::CommandBuffer, Stop> {
        let mut rendering = vk::CommandBufferInheritanceRenderingInfo::default()
            .color_attachment_formats(colors)
            .depth_attachment_format(depth)
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let inheritance = vk::CommandBufferInheritanceInfo::default().push_next(&mut rendering);
        self.record_continuing(&inheritance, body)
    }

    /// A secondary command buffer recorded by `body` with
    /// RENDER_PASS_CONTINUE and `inheritance`.
    fn record_continuing(
        &mut self,
        inheritance: &vk::CommandBufferInheritanceInfo<'_>,
        body: impl FnOnce(&Recorder<'_>),
    ) -> Result<vk::CommandBuffer, Stop> {
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.command_pool)
            .level(vk::CommandBufferLevel::SECONDARY)
            .command_buffer_count(1);
        // SAFETY: the pool is alive and used from this thread only; command
        // buffers are freed with it at tear-down.
        let cmd = unsafe { self.device.allocate_command_buffers(&alloc) }
            .or_stop("vkAllocateCommandBuffers")?[0];
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE)
            .inheritance_info(inheritance);
        // SAFETY: a fresh command buffer from this device; the inheritance's
        // handles are alive.
        unsafe { self.device.begin_command_buffer(cmd, &begin) }.or_stop("vkBeginCommandBuffer")?;
        body(&Recorder::of(&self.device, cmd));
        // SAFETY: the command buffer is recording.
        unsafe { self.device.end_command_buffer(cmd) }.or_stop("vkEndCommandBuffer")?;
        Ok(cmd)
    }
}

impl Recorder<'_> {
    /// The next subpass, its contents inline or in secondaries.
    pub fn next_subpass_with(&self, contents: vk::SubpassContents) {
        // SAFETY: the command buffer is recording inside a pass.
        unsafe {
            self.device()
                .cmd_next_subpass(self.command_buffer(), contents)
        };
    }

    /// `vkCmdExecuteCommands`.
    pub fn execute(&self, secondaries: &[vk::CommandBuffer]) {
        // SAFETY: the command buffer is recording; the secondaries are
        // executable.
        unsafe {
            self.device()
                .cmd_execute_commands(self.command_buffer(), secondaries)
        };
    }
}
