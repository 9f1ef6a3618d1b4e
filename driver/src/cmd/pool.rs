//! `VkCommandPool`: the command buffers allocated from it. Their memory is
//! each buffer's own chunks, so the pool only keeps the list (for reset).

use std::sync::{Arc, Weak};

use ash::vk;
use parking_lot::Mutex;

use super::buffer::{CommandBuffer, Level};
use crate::device::Device;
use crate::error::VkResult;

pub struct CommandPool {
    pub device: Arc<Device>,
    pub family: u32,
    pub flags: vk::CommandPoolCreateFlags,
    buffers: Mutex<Vec<Weak<CommandBuffer>>>,
}

impl CommandPool {
    pub fn new(
        device: &Arc<Device>,
        family: u32,
        flags: vk::CommandPoolCreateFlags,
    ) -> VkResult<Arc<CommandPool>> {
        if family >= crate::physical_device::QUEUE_FAMILY_COUNT {
            eprintln!("parsnip: vkCreateCommandPool: queue family {family} does not exist");
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        Ok(Arc::new(CommandPool {
            device: device.clone(),
            family,
            flags,
            buffers: Mutex::new(Vec::new()),
        }))
    }

    pub fn allocate(self: &Arc<Self>, level: Level) -> Arc<CommandBuffer> {
        let cmd = Arc::new(CommandBuffer::new(&self.device, level));
        let mut list = self.buffers.lock();
        list.retain(|w| w.strong_count() > 0);
        list.push(Arc::downgrade(&cmd));
        cmd
    }

    /// `vkResetCommandPool`: every buffer goes back to the initial state.
    pub fn reset(&self) {
        for cmd in self.buffers.lock().iter().filter_map(Weak::upgrade) {
            cmd.reset();
        }
    }

    /// `vkTrimCommandPool`: recorded memory is freed by reset already.
    pub fn trim(&self) {
        self.buffers.lock().retain(|w| w.strong_count() > 0);
    }
}
