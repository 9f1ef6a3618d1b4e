//! `VkDeviceMemory`: one buffer object per allocation, mapped for the CPU
//! on request. Every memory type is host-visible and coherent, so mapping is
//! the BO's permanent CPU mapping and flush/invalidate have nothing to do.

use std::ptr::NonNull;
use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;
use parsnip_kernel_if::BoDesc;

use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::{internal, VkResult};

pub struct DeviceMemory {
    pub device: Arc<Device>,
    pub bo: Arc<DeviceBo>,
    /// The size the application asked for.
    pub size: u64,
    pub type_index: u32,
    /// The range mapped by `vkMapMemory`, while mapped.
    mapped: Mutex<Option<(u64, u64)>>,
}

impl DeviceMemory {
    pub fn allocate(
        device: &Arc<Device>,
        size: u64,
        type_index: u32,
    ) -> VkResult<Arc<DeviceMemory>> {
        let memory_type = *device
            .physical
            .memory
            .types
            .get(type_index as usize)
            .ok_or_else(|| {
                eprintln!("parsnip: vkAllocateMemory: memory type {type_index} does not exist");
                vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
            })?;
        if size == 0 || size > device.physical.memory.heap_size {
            return Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY);
        }
        device.reserve_heap(size)?;
        let desc = BoDesc {
            size,
            caching: memory_type.caching,
            ..Default::default()
        };
        let bo = match device.bos.allocate(&*device.kernel, &desc, BoKind::Memory) {
            Ok(bo) => bo,
            Err(e) => {
                device.release_heap(size);
                return Err(e);
            }
        };
        Ok(Arc::new(DeviceMemory {
            device: device.clone(),
            bo,
            size,
            type_index,
            mapped: Mutex::new(None),
        }))
    }

    /// The CPU address of byte `offset` (`vkMapMemory`). `size` may be
    /// `VK_WHOLE_SIZE`.
    pub fn map(&self, offset: u64, size: u64) -> VkResult<NonNull<u8>> {
        let size = if size == vk::WHOLE_SIZE {
            self.size.saturating_sub(offset)
        } else {
            size
        };
        if offset >= self.size || size == 0 || offset + size > self.size {
            eprintln!(
                "parsnip: vkMapMemory: range {offset:#x}+{size:#x} is outside the {:#x}-byte allocation",
                self.size
            );
            return Err(vk::Result::ERROR_MEMORY_MAP_FAILED);
        }
        let mut mapped = self.mapped.lock();
        if mapped.is_some() {
            eprintln!("parsnip: vkMapMemory: the memory is already mapped");
            return Err(vk::Result::ERROR_MEMORY_MAP_FAILED);
        }
        let base = self
            .bo
            .bo()
            .map()
            .map_err(|e| internal("mapping a BO", e))?;
        let ptr = base.as_ptr().wrapping_add(offset as usize);
        *mapped = Some((offset, size));
        NonNull::new(ptr).ok_or(vk::Result::ERROR_MEMORY_MAP_FAILED)
    }

    pub fn unmap(&self) {
        *self.mapped.lock() = None;
    }

    #[inline]
    pub fn iova(&self) -> u64 {
        self.bo.iova()
    }
}

impl Drop for DeviceMemory {
    fn drop(&mut self) {
        self.device.release_heap(self.size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::tests::null_device;

    #[test]
    fn memory_maps_and_counts_against_the_heap() {
        let device = null_device("a660");
        let memory = DeviceMemory::allocate(&device, 1000, 0).unwrap();
        assert_eq!(device.heap_used(), 1000);
        let ptr = memory.map(16, vk::WHOLE_SIZE).unwrap();
        assert_eq!(
            ptr.as_ptr() as usize - memory.bo.bo().map().unwrap().as_ptr() as usize,
            16
        );
        assert_eq!(
            memory.map(0, 4).err(),
            Some(vk::Result::ERROR_MEMORY_MAP_FAILED)
        );
        memory.unmap();
        assert_eq!(
            memory.map(1000, 4).err(),
            Some(vk::Result::ERROR_MEMORY_MAP_FAILED)
        );
        drop(memory);
        assert_eq!(device.heap_used(), 0);
    }

    #[test]
    fn allocations_beyond_the_heap_are_out_of_device_memory() {
        let device = null_device("a660");
        let heap = device.physical.memory.heap_size;
        assert_eq!(
            DeviceMemory::allocate(&device, heap + 1, 0).err(),
            Some(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        );
        assert_eq!(
            DeviceMemory::allocate(&device, 64, 7).err(),
            Some(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        );
    }
}
