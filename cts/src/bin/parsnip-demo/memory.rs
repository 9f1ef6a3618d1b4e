//! The demo's memory: host-visible buffers it fills and reads, device
//! memory for its images, the barrier before the host reads, and how a
//! failed call reads.

use ash::vk;

pub fn check(what: &str, r: Result<(), vk::Result>) -> Result<(), String> {
    r.map_err(|e| format!("{what} failed: {e:?}"))
}

/// Records that the host's reads wait for `access` by `stage` before it.
///
/// # Safety
/// `cmd` is recording, outside a render pass.
pub unsafe fn barrier_to_host(
    device: &ash::Device,
    cmd: vk::CommandBuffer,
    stage: vk::PipelineStageFlags,
    access: vk::AccessFlags,
) {
    let to_host = [vk::MemoryBarrier::default()
        .src_access_mask(access)
        .dst_access_mask(vk::AccessFlags::HOST_READ)];
    // SAFETY: the caller's promise.
    unsafe {
        device.cmd_pipeline_barrier(
            cmd,
            stage,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &to_host,
            &[],
            &[],
        )
    };
}

/// Memory for `req`: host-visible and coherent if `host`, any type
/// otherwise.
pub fn memory(
    device: &ash::Device,
    props: &vk::PhysicalDeviceMemoryProperties,
    req: &vk::MemoryRequirements,
    host: bool,
) -> Result<vk::DeviceMemory, String> {
    let wanted = if host {
        vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT
    } else {
        vk::MemoryPropertyFlags::empty()
    };
    let type_index = (0..props.memory_type_count)
        .find(|&i| {
            req.memory_type_bits & (1 << i) != 0
                && props.memory_types[i as usize]
                    .property_flags
                    .contains(wanted)
        })
        .ok_or("no suitable memory type")?;
    // SAFETY: the device is live; the allocate info refers to locals.
    unsafe {
        device.allocate_memory(
            &vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(type_index),
            None,
        )
    }
    .map_err(|e| format!("vkAllocateMemory failed: {e:?}"))
}

/// A buffer in host-visible memory of its own.
#[derive(Clone, Copy)]
pub struct Allocation {
    pub buffer: vk::Buffer,
    pub memory: vk::DeviceMemory,
    pub size: u64,
}

pub fn allocate(
    device: &ash::Device,
    props: &vk::PhysicalDeviceMemoryProperties,
    size: u64,
    usage: vk::BufferUsageFlags,
) -> Result<Allocation, String> {
    // SAFETY: the device is live; the create info refers to locals.
    unsafe {
        let buffer = device
            .create_buffer(
                &vk::BufferCreateInfo::default().size(size).usage(usage),
                None,
            )
            .map_err(|e| format!("vkCreateBuffer failed: {e:?}"))?;
        let req = device.get_buffer_memory_requirements(buffer);
        let memory = match memory(device, props, &req, true) {
            Ok(m) => m,
            Err(e) => {
                device.destroy_buffer(buffer, None);
                return Err(e);
            }
        };
        let a = Allocation {
            buffer,
            memory,
            size,
        };
        if let Err(e) = check(
            "vkBindBufferMemory",
            device.bind_buffer_memory(buffer, memory, 0),
        ) {
            a.destroy(device);
            return Err(e);
        }
        Ok(a)
    }
}

impl Allocation {
    /// Copies `bytes` to the start of the buffer.
    pub fn write(&self, device: &ash::Device, bytes: &[u8]) -> Result<(), String> {
        let len = bytes.len().min(self.size as usize);
        // SAFETY: host-visible memory of at least `size` bytes, not in use
        // by the device while mapped.
        unsafe {
            let ptr = device
                .map_memory(self.memory, 0, self.size, vk::MemoryMapFlags::empty())
                .map_err(|e| format!("vkMapMemory failed: {e:?}"))?;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr.cast::<u8>(), len);
            device.unmap_memory(self.memory);
        }
        Ok(())
    }

    /// The first `len` bytes of the buffer.
    pub fn read(&self, device: &ash::Device, len: usize) -> Result<Vec<u8>, String> {
        let len = len.min(self.size as usize);
        let mut out = vec![0u8; len];
        // SAFETY: as for `write`; the device finished writing (the caller
        // waited for its fence).
        unsafe {
            let ptr = device
                .map_memory(self.memory, 0, self.size, vk::MemoryMapFlags::empty())
                .map_err(|e| format!("vkMapMemory failed: {e:?}"))?;
            std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), out.as_mut_ptr(), len);
            device.unmap_memory(self.memory);
        }
        Ok(out)
    }

    /// # Safety
    /// The buffer is of `device` and no longer in use.
    pub unsafe fn destroy(&self, device: &ash::Device) {
        // SAFETY: the caller's promise.
        unsafe {
            device.destroy_buffer(self.buffer, None);
            device.free_memory(self.memory, None);
        }
    }
}
