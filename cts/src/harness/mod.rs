//! What a case drives the device through: an instance with the validation
//! layer, the first physical device the loader offers, a device with one
//! compute queue, and helpers that create buffers, pipelines, descriptor sets
//! and command buffers and submit them.
//!
//! Every object a case creates through the harness, or hands to
//! [`Harness::own`], is destroyed by the harness at the end of the case, in
//! reverse order of creation, before the device: the validation layer then
//! reports any object the driver or the case leaked as an error.

mod commands;
mod graphics_pipelines;
mod graphics_sets;
mod images;
mod memory;
mod pipelines;
mod presentation;
mod promoted;
mod render_passes;
mod secondaries;
mod setup;

pub use commands::{Dependency, Recorder, Submission};
pub use graphics_pipelines::{GraphicsDesc, VertexBinding};
pub use graphics_sets::{GraphicsLayout, Texture, GRAPHICS_STAGES};
pub use images::{HostImage, Image, ImageShape};
pub use memory::{Buffer, Placement, POISON, POISON_WORD};
pub use pipelines::{Bind, ComputePipeline, PipelineDesc, Slot};
pub use presentation::Swapchain;
pub use promoted::{DynamicRendering, RenderPasses2, Synchronization2, TimelineSemaphores};
pub use render_passes::{subpass_dependencies, PassAttachment};
pub use secondaries::Continues;
pub use setup::Capabilities;

use crate::case::{OrStop, Stop};
use crate::validation::ValidationLog;
use ash::vk;
use std::collections::HashMap;

/// How long the harness waits for a fence or semaphore before calling the
/// device hung: generous, because the simulated GPU is slow.
pub const WAIT_TIMEOUT_NS: u64 = 60_000_000_000;

/// Declares [`Owned`], one variant per handle type, and makes each handle
/// type [`Ownable`].
macro_rules! owned_handles {
    ($($variant:ident($t:ty)),* $(,)?) => {
        /// An object the harness destroys at the end of the case.
        #[derive(Clone, Copy, Debug)]
        pub enum Owned {
            $($variant($t)),*
        }
        $(
            impl Ownable for $t {
                fn owned(self) -> Owned {
                    Owned::$variant(self)
                }
            }
        )*
    };
}

/// A handle type the harness can own.
pub trait Ownable: Copy {
    fn owned(self) -> Owned;
}

owned_handles!(
    Buffer(vk::Buffer),
    Memory(vk::DeviceMemory),
    BufferView(vk::BufferView),
    Image(vk::Image),
    ImageView(vk::ImageView),
    Sampler(vk::Sampler),
    ShaderModule(vk::ShaderModule),
    DescriptorSetLayout(vk::DescriptorSetLayout),
    DescriptorPool(vk::DescriptorPool),
    DescriptorUpdateTemplate(vk::DescriptorUpdateTemplate),
    PipelineLayout(vk::PipelineLayout),
    Pipeline(vk::Pipeline),
    PipelineCache(vk::PipelineCache),
    Fence(vk::Fence),
    Semaphore(vk::Semaphore),
    Event(vk::Event),
    QueryPool(vk::QueryPool),
    CommandPool(vk::CommandPool),
    RenderPass(vk::RenderPass),
    Framebuffer(vk::Framebuffer),
    Surface(vk::SurfaceKHR),
    Swapchain(vk::SwapchainKHR),
);

/// A mapped range of host-visible memory.
struct Mapping {
    ptr: *mut u8,
    size: usize,
}

pub struct Harness {
    // The messenger callback points into this log; `Drop` destroys the
    // instance before any field is dropped.
    validation: ValidationLog,
    // Kept so the loader stays loaded while the instance lives.
    _entry: ash::Entry,
    instance: ash::Instance,
    debug_utils: ash::ext::debug_utils::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
    physical: vk::PhysicalDevice,
    properties: vk::PhysicalDeviceProperties,
    memory_properties: vk::PhysicalDeviceMemoryProperties,
    caps: Capabilities,
    device: ash::Device,
    queue: vk::Queue,
    queue_family: u32,
    command_pool: vk::CommandPool,
    timeline: Option<TimelineSemaphores>,
    synchronization2: Option<Synchronization2>,
    render_pass2: Option<RenderPasses2>,
    dynamic_rendering: Option<DynamicRendering>,
    presentation: Option<presentation::Presentation>,
    owned: Vec<Owned>,
    mappings: HashMap<vk::DeviceMemory, Mapping>,
    torn_down: bool,
}

impl Harness {
    pub fn instance(&self) -> &ash::Instance {
        &self.instance
    }

    /// A device of a case's own, for features or extensions the shared
    /// device was not made with: one queue of family 0, and `info`'s chain
    /// and extensions. The case destroys it.
    pub fn create_device(&self, info: vk::DeviceCreateInfo<'_>) -> Result<ash::Device, Stop> {
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(0)
            .queue_priorities(&priorities)];
        let mut info = info;
        info.queue_create_info_count = 1;
        info.p_queue_create_infos = queues.as_ptr();
        // SAFETY: the create info, its chain and the queue infos are alive
        // for the call.
        unsafe { self.instance.create_device(self.physical, &info, None) }
            .map_err(|e| Stop::Error(format!("vkCreateDevice: {e}")))
    }

    /// Whether the physical device lists the device extension `name`.
    pub fn offers_extension(&self, name: &std::ffi::CStr) -> Result<bool, Stop> {
        // SAFETY: the physical device belongs to the live instance.
        let list = unsafe {
            self.instance
                .enumerate_device_extension_properties(self.physical)
        }
        .map_err(|e| Stop::Error(format!("vkEnumerateDeviceExtensionProperties: {e}")))?;
        Ok(list.iter().any(|e| e.extension_name_as_c_str() == Ok(name)))
    }

    /// The loader's entry, for a case loading an instance extension's
    /// commands.
    pub fn entry(&self) -> &ash::Entry {
        &self._entry
    }

    /// Whether vkGetInstanceProcAddr on the harness's instance gives an
    /// entry point for `name`.
    pub fn instance_proc_addr(&self, name: &std::ffi::CStr) -> bool {
        // SAFETY: the instance is alive and the name NUL-terminated.
        unsafe {
            (self._entry.static_fn().get_instance_proc_addr)(self.instance.handle(), name.as_ptr())
        }
        .is_some()
    }

    pub fn device(&self) -> &ash::Device {
        &self.device
    }

    pub fn physical_device(&self) -> vk::PhysicalDevice {
        self.physical
    }

    pub fn properties(&self) -> &vk::PhysicalDeviceProperties {
        &self.properties
    }

    pub fn memory_properties(&self) -> &vk::PhysicalDeviceMemoryProperties {
        &self.memory_properties
    }

    /// What the device offers and the harness enabled.
    pub fn caps(&self) -> &Capabilities {
        &self.caps
    }

    /// The device's subgroup size, stages and operations (Vulkan 1.1's
    /// `VkPhysicalDeviceSubgroupProperties`; nothing before 1.1).
    pub fn subgroup_properties(&self) -> (u32, vk::ShaderStageFlags, vk::SubgroupFeatureFlags) {
        if vk::api_version_minor(self.caps.api_version) < 1 {
            return (
                0,
                vk::ShaderStageFlags::empty(),
                vk::SubgroupFeatureFlags::empty(),
            );
        }
        let mut sub = vk::PhysicalDeviceSubgroupProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut sub);
        // SAFETY: a 1.1 device, and the chain holds one structure it knows,
        // alive for the call.
        unsafe {
            self.instance
                .get_physical_device_properties2(self.physical, &mut props)
        };
        (
            sub.subgroup_size,
            sub.supported_stages,
            sub.supported_operations,
        )
    }

    /// VK_EXT_subgroup_size_control's properties (Vulkan 1.3's), when
    /// subgroupSizeControl is enabled.
    pub fn subgroup_size_control(
        &self,
    ) -> Option<vk::PhysicalDeviceSubgroupSizeControlProperties<'static>> {
        if !self.caps.subgroup_size_control {
            return None;
        }
        let mut control = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut control);
        // SAFETY: the device has the structure (the feature is enabled), and
        // the chain holds only it, alive for the call.
        unsafe {
            self.instance
                .get_physical_device_properties2(self.physical, &mut props)
        };
        Some(vk::PhysicalDeviceSubgroupSizeControlProperties {
            p_next: std::ptr::null_mut(),
            ..control
        })
    }

    pub fn queue(&self) -> vk::Queue {
        self.queue
    }

    pub fn queue_family(&self) -> u32 {
        self.queue_family
    }

    pub fn validation(&self) -> &ValidationLog {
        &self.validation
    }

    /// The timeline semaphore entry points, or `NotSupported`.
    pub fn timeline(&self) -> Result<&TimelineSemaphores, Stop> {
        self.timeline.as_ref().ok_or_else(|| {
            Stop::NotSupported(
                "timeline semaphores (Vulkan 1.2 or VK_KHR_timeline_semaphore)".into(),
            )
        })
    }

    /// `vkQueueSubmit2` and `vkCmdPipelineBarrier2`, or `NotSupported`.
    pub fn synchronization2(&self) -> Result<&Synchronization2, Stop> {
        self.synchronization2.as_ref().ok_or_else(|| {
            Stop::NotSupported("synchronization2 (Vulkan 1.3 or VK_KHR_synchronization2)".into())
        })
    }

    /// `vkCreateRenderPass2` and the `*2` pass commands, or `NotSupported`.
    pub fn render_pass2(&self) -> Result<&RenderPasses2, Stop> {
        self.render_pass2.as_ref().ok_or_else(|| {
            Stop::NotSupported("render pass 2 (Vulkan 1.2 or VK_KHR_create_renderpass2)".into())
        })
    }

    /// `vkCmdBeginRendering` and `vkCmdEndRendering`, or `NotSupported`.
    pub fn dynamic_rendering(&self) -> Result<&DynamicRendering, Stop> {
        self.dynamic_rendering.as_ref().ok_or_else(|| {
            Stop::NotSupported("dynamic rendering (Vulkan 1.3 or VK_KHR_dynamic_rendering)".into())
        })
    }

    /// Makes the harness destroy `handle` at the end of the case.
    pub fn own<T: Ownable>(&mut self, handle: T) -> T {
        self.owned.push(handle.owned());
        handle
    }

    pub fn fence(&mut self, signaled: bool) -> Result<vk::Fence, Stop> {
        let flags = if signaled {
            vk::FenceCreateFlags::SIGNALED
        } else {
            vk::FenceCreateFlags::empty()
        };
        let info = vk::FenceCreateInfo::default().flags(flags);
        // SAFETY: the device is alive; the fence is owned from here on.
        let fence = unsafe { self.device.create_fence(&info, None) }.or_stop("vkCreateFence")?;
        Ok(self.own(fence))
    }

    pub fn binary_semaphore(&mut self) -> Result<vk::Semaphore, Stop> {
        let info = vk::SemaphoreCreateInfo::default();
        // SAFETY: the device is alive; the semaphore is owned from here on.
        let semaphore =
            unsafe { self.device.create_semaphore(&info, None) }.or_stop("vkCreateSemaphore")?;
        Ok(self.own(semaphore))
    }

    pub fn timeline_semaphore(&mut self, initial: u64) -> Result<vk::Semaphore, Stop> {
        self.timeline()?;
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(initial);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut kind);
        // SAFETY: the device is alive and has timeline semaphores enabled.
        let semaphore = unsafe { self.device.create_semaphore(&info, None) }
            .or_stop("vkCreateSemaphore (timeline)")?;
        Ok(self.own(semaphore))
    }

    pub fn event(&mut self) -> Result<vk::Event, Stop> {
        let info = vk::EventCreateInfo::default();
        // SAFETY: the device is alive; the event is owned from here on.
        let event = unsafe { self.device.create_event(&info, None) }.or_stop("vkCreateEvent")?;
        Ok(self.own(event))
    }

    /// Destroys everything the case created, then the device, the
    /// messenger and the instance, and returns the validation log, complete.
    pub fn finish(mut self) -> ValidationLog {
        self.tear_down();
        self.validation.clone()
    }

    fn tear_down(&mut self) {
        if self.torn_down {
            return;
        }
        self.torn_down = true;
        // SAFETY: every handle below was created from this device or instance
        // and is destroyed once: `owned` holds each handle once, and
        // `torn_down` keeps a second call from running. Waiting for idle first
        // means no submitted work still uses them.
        unsafe {
            // A device lost here is already a failure the case reported.
            let _ = self.device.device_wait_idle();
            for owned in self.owned.drain(..).rev() {
                destroy(&self.device, self.presentation.as_ref(), owned);
            }
            self.device.destroy_command_pool(self.command_pool, None);
            self.device.destroy_device(None);
            self.debug_utils
                .destroy_debug_utils_messenger(self.messenger, None);
            self.instance.destroy_instance(None);
        }
        self.mappings.clear();
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.tear_down();
    }
}

/// # Safety
/// `owned` was created from `device` (or its instance, through
/// `presentation`) and is no longer in use.
unsafe fn destroy(
    device: &ash::Device,
    presentation: Option<&presentation::Presentation>,
    owned: Owned,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match owned {
            Owned::Buffer(h) => device.destroy_buffer(h, None),
            Owned::Memory(h) => device.free_memory(h, None),
            Owned::BufferView(h) => device.destroy_buffer_view(h, None),
            Owned::Image(h) => device.destroy_image(h, None),
            Owned::ImageView(h) => device.destroy_image_view(h, None),
            Owned::Sampler(h) => device.destroy_sampler(h, None),
            Owned::ShaderModule(h) => device.destroy_shader_module(h, None),
            Owned::DescriptorSetLayout(h) => device.destroy_descriptor_set_layout(h, None),
            Owned::DescriptorPool(h) => device.destroy_descriptor_pool(h, None),
            Owned::DescriptorUpdateTemplate(h) => {
                device.destroy_descriptor_update_template(h, None)
            }
            Owned::PipelineLayout(h) => device.destroy_pipeline_layout(h, None),
            Owned::Pipeline(h) => device.destroy_pipeline(h, None),
            Owned::PipelineCache(h) => device.destroy_pipeline_cache(h, None),
            Owned::Fence(h) => device.destroy_fence(h, None),
            Owned::Semaphore(h) => device.destroy_semaphore(h, None),
            Owned::Event(h) => device.destroy_event(h, None),
            Owned::QueryPool(h) => device.destroy_query_pool(h, None),
            Owned::CommandPool(h) => device.destroy_command_pool(h, None),
            Owned::RenderPass(h) => device.destroy_render_pass(h, None),
            Owned::Framebuffer(h) => device.destroy_framebuffer(h, None),
            Owned::Surface(h) => {
                if let Some(p) = presentation {
                    p.surface.destroy_surface(h, None);
                }
            }
            Owned::Swapchain(h) => {
                if let Some(p) = presentation {
                    p.swapchain.destroy_swapchain(h, None);
                }
            }
        }
    }
}
