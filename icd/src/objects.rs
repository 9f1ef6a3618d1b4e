//! What the ICD keeps beside a driver object: the handles that belong to
//! it, so that destroying or resetting it also retires them (a pool's sets
//! and command buffers, a device's queues, an instance's physical devices,
//! a swapchain's images).

use std::sync::{Arc, OnceLock};

use ash::vk;
use parking_lot::Mutex;
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::descriptor::pool::DescriptorPool;
use parsnip_driver::device::Device;
use parsnip_driver::instance::Instance;
use parsnip_driver::wsi::swapchain::Swapchain;

pub struct InstanceObject {
    pub instance: Arc<Instance>,
    /// Handles of the physical devices, made on first enumeration.
    pub physical_devices: OnceLock<Vec<vk::PhysicalDevice>>,
}

pub struct DeviceObject {
    pub device: Arc<Device>,
    /// (family, index, handle) of every queue.
    pub queues: Vec<(u32, u32, vk::Queue)>,
}

pub struct DescriptorPoolObject {
    pub pool: Arc<DescriptorPool>,
    pub sets: Mutex<Vec<vk::DescriptorSet>>,
}

pub struct CommandPoolObject {
    pub pool: Arc<CommandPool>,
    pub buffers: Mutex<Vec<vk::CommandBuffer>>,
}

pub struct SwapchainObject {
    pub swapchain: Arc<Swapchain>,
    /// Handles of its images, in index order.
    pub images: Vec<vk::Image>,
}
