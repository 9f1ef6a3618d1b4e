//! Entry points that are core in a newer Vulkan and an extension before it.
//!
//! A driver may report Vulkan 1.1 with `VK_KHR_timeline_semaphore` and
//! `VK_KHR_synchronization2`, or 1.3 with both in core; the cases call the
//! same methods either way.

use ash::prelude::VkResult;
use ash::vk;

/// `vkWaitSemaphores`, `vkSignalSemaphore`, `vkGetSemaphoreCounterValue`:
/// core in Vulkan 1.2, `VK_KHR_timeline_semaphore` before.
#[derive(Clone)]
pub enum TimelineSemaphores {
    Core(Box<ash::Device>),
    Khr(ash::khr::timeline_semaphore::Device),
}

impl TimelineSemaphores {
    /// Waits for every (`all`) or any of `semaphores[i]` to reach `values[i]`.
    pub fn wait(
        &self,
        semaphores: &[vk::Semaphore],
        values: &[u64],
        all: bool,
        timeout_ns: u64,
    ) -> VkResult<()> {
        let flags = if all {
            vk::SemaphoreWaitFlags::empty()
        } else {
            vk::SemaphoreWaitFlags::ANY
        };
        let info = vk::SemaphoreWaitInfo::default()
            .flags(flags)
            .semaphores(semaphores)
            .values(values);
        // SAFETY: the semaphores are timeline semaphores owned by the harness
        // and alive; `info` outlives the call.
        unsafe {
            match self {
                TimelineSemaphores::Core(d) => d.wait_semaphores(&info, timeout_ns),
                TimelineSemaphores::Khr(d) => d.wait_semaphores(&info, timeout_ns),
            }
        }
    }

    pub fn signal(&self, semaphore: vk::Semaphore, value: u64) -> VkResult<()> {
        let info = vk::SemaphoreSignalInfo::default()
            .semaphore(semaphore)
            .value(value);
        // SAFETY: as for `wait`.
        unsafe {
            match self {
                TimelineSemaphores::Core(d) => d.signal_semaphore(&info),
                TimelineSemaphores::Khr(d) => d.signal_semaphore(&info),
            }
        }
    }

    pub fn value(&self, semaphore: vk::Semaphore) -> VkResult<u64> {
        // SAFETY: as for `wait`.
        unsafe {
            match self {
                TimelineSemaphores::Core(d) => d.get_semaphore_counter_value(semaphore),
                TimelineSemaphores::Khr(d) => d.get_semaphore_counter_value(semaphore),
            }
        }
    }
}

/// `vkQueueSubmit2`: core in Vulkan 1.3, `VK_KHR_synchronization2` before.
#[derive(Clone)]
pub enum Synchronization2 {
    Core(Box<ash::Device>),
    Khr(ash::khr::synchronization2::Device),
}

impl Synchronization2 {
    /// # Safety
    /// Every handle the submits name must be alive and usable as the
    /// specification requires for `vkQueueSubmit2`.
    pub unsafe fn submit(
        &self,
        queue: vk::Queue,
        submits: &[vk::SubmitInfo2<'_>],
        fence: vk::Fence,
    ) -> VkResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe {
            match self {
                Synchronization2::Core(d) => d.queue_submit2(queue, submits, fence),
                Synchronization2::Khr(d) => d.queue_submit2(queue, submits, fence),
            }
        }
    }

    /// # Safety
    /// `cmd` is recording and every handle in `dependency` is alive.
    pub unsafe fn pipeline_barrier(
        &self,
        cmd: vk::CommandBuffer,
        dependency: &vk::DependencyInfo<'_>,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match self {
                Synchronization2::Core(d) => d.cmd_pipeline_barrier2(cmd, dependency),
                Synchronization2::Khr(d) => d.cmd_pipeline_barrier2(cmd, dependency),
            }
        }
    }
}

/// `vkCreateRenderPass2`, `vkCmdBeginRenderPass2`, `vkCmdNextSubpass2`,
/// `vkCmdEndRenderPass2`: core in Vulkan 1.2, `VK_KHR_create_renderpass2`
/// before.
#[derive(Clone)]
pub enum RenderPasses2 {
    Core(Box<ash::Device>),
    Khr(ash::khr::create_renderpass2::Device),
}

impl RenderPasses2 {
    pub fn create(&self, info: &vk::RenderPassCreateInfo2<'_>) -> VkResult<vk::RenderPass> {
        // SAFETY: `info` and what it points at are valid for the call.
        unsafe {
            match self {
                RenderPasses2::Core(d) => d.create_render_pass2(info, None),
                RenderPasses2::Khr(d) => d.create_render_pass2(info, None),
            }
        }
    }

    pub fn begin(&self, cmd: vk::CommandBuffer, info: &vk::RenderPassBeginInfo<'_>) {
        let subpass = vk::SubpassBeginInfo::default().contents(vk::SubpassContents::INLINE);
        // SAFETY: the command buffer is recording; `info` is valid for the call.
        unsafe {
            match self {
                RenderPasses2::Core(d) => d.cmd_begin_render_pass2(cmd, info, &subpass),
                RenderPasses2::Khr(d) => d.cmd_begin_render_pass2(cmd, info, &subpass),
            }
        }
    }

    pub fn next(&self, cmd: vk::CommandBuffer) {
        let begin = vk::SubpassBeginInfo::default().contents(vk::SubpassContents::INLINE);
        let end = vk::SubpassEndInfo::default();
        // SAFETY: the command buffer is recording inside a pass.
        unsafe {
            match self {
                RenderPasses2::Core(d) => d.cmd_next_subpass2(cmd, &begin, &end),
                RenderPasses2::Khr(d) => d.cmd_next_subpass2(cmd, &begin, &end),
            }
        }
    }

    pub fn end(&self, cmd: vk::CommandBuffer) {
        let end = vk::SubpassEndInfo::default();
        // SAFETY: the command buffer is recording inside a pass.
        unsafe {
            match self {
                RenderPasses2::Core(d) => d.cmd_end_render_pass2(cmd, &end),
                RenderPasses2::Khr(d) => d.cmd_end_render_pass2(cmd, &end),
            }
        }
    }
}

/// `vkCmdBeginRendering` and `vkCmdEndRendering`: core in Vulkan 1.3,
/// `VK_KHR_dynamic_rendering` before (its commands, enabled whenever the
/// extension is offered).
#[derive(Clone)]
pub enum DynamicRendering {
    Core(Box<ash::Device>),
    Khr(ash::khr::dynamic_rendering::Device),
}

impl DynamicRendering {
    /// # Safety
    /// `cmd` is recording and every view `info` names is alive.
    pub unsafe fn begin(&self, cmd: vk::CommandBuffer, info: &vk::RenderingInfo<'_>) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match self {
                DynamicRendering::Core(d) => d.cmd_begin_rendering(cmd, info),
                DynamicRendering::Khr(d) => d.cmd_begin_rendering(cmd, info),
            }
        }
    }

    /// # Safety
    /// `cmd` is recording inside dynamic rendering.
    pub unsafe fn end(&self, cmd: vk::CommandBuffer) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match self {
                DynamicRendering::Core(d) => d.cmd_end_rendering(cmd),
                DynamicRendering::Khr(d) => d.cmd_end_rendering(cmd),
            }
        }
    }
}
