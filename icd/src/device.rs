//! Device, queue retrieval, memory, buffer and buffer view entry points.

use std::ffi::c_void;

use ash::vk;
use parsnip_driver::buffer::{Buffer, BufferView};
use parsnip_driver::device_memory::DeviceMemory;

use crate::ffi;
use crate::guard;
use crate::handles;

pub unsafe extern "system" fn vkDestroyDevice(
    device: vk::Device,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyDevice", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        if let Some(object) = unsafe { handles::drop_device(device) } {
            for (_, _, q) in &object.queues {
                // SAFETY: a child handle its parent retires; valid usage ends its use before the parent is destroyed or reset.
                unsafe { handles::drop_queue(*q) };
            }
            object.device.wait_idle()?;
        }
        Ok(())
    })
}

fn queue_handle(device: vk::Device, family: u32, index: u32) -> Result<vk::Queue, vk::Result> {
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    let object = unsafe { handles::device(device) }?;
    object
        .queues
        .iter()
        .find(|(f, i, _)| *f == family && *i == index)
        .map(|(_, _, q)| *q)
        .ok_or_else(|| {
            eprintln!("parsnip: queue {index} of family {family} was not created with the device");
            vk::Result::ERROR_UNKNOWN
        })
}

pub unsafe extern "system" fn vkGetDeviceQueue(
    device: vk::Device,
    family: u32,
    index: u32,
    p_queue: *mut vk::Queue,
) {
    guard::void("vkGetDeviceQueue", || {
        let q = queue_handle(device, family, index)?;
        // SAFETY: pQueue is valid for a write.
        unsafe { ffi::write(p_queue, q) }
    })
}

pub unsafe extern "system" fn vkGetDeviceQueue2(
    device: vk::Device,
    p_info: *const vk::DeviceQueueInfo2<'_>,
    p_queue: *mut vk::Queue,
) {
    guard::void("vkGetDeviceQueue2", || {
        // SAFETY: the application's structure.
        let info = unsafe { ffi::input(p_info) }?;
        let q = queue_handle(device, info.queue_family_index, info.queue_index)?;
        // SAFETY: pQueue is valid for a write.
        unsafe { ffi::write(p_queue, q) }
    })
}

pub unsafe extern "system" fn vkDeviceWaitIdle(device: vk::Device) -> vk::Result {
    guard::success("vkDeviceWaitIdle", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::device(device) }?.device.wait_idle()
    })
}

pub unsafe extern "system" fn vkGetDeviceGroupPeerMemoryFeatures(
    _device: vk::Device,
    _heap: u32,
    _local: u32,
    _remote: u32,
    p_features: *mut vk::PeerMemoryFeatureFlags,
) {
    guard::void("vkGetDeviceGroupPeerMemoryFeatures", || {
        // One device: local and remote are the same device, which may do
        // everything with its own memory.
        // SAFETY: pPeerMemoryFeatures is valid for a write.
        unsafe {
            ffi::write(
                p_features,
                vk::PeerMemoryFeatureFlags::COPY_SRC
                    | vk::PeerMemoryFeatureFlags::COPY_DST
                    | vk::PeerMemoryFeatureFlags::GENERIC_SRC
                    | vk::PeerMemoryFeatureFlags::GENERIC_DST,
            )
        }
    })
}

pub unsafe extern "system" fn vkAllocateMemory(
    device: vk::Device,
    p_info: *const vk::MemoryAllocateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_memory: *mut vk::DeviceMemory,
) -> vk::Result {
    guard::success(
        "vkAllocateMemory",
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?.device.clone();
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            let memory =
                DeviceMemory::allocate(&device, info.allocation_size, info.memory_type_index)?;
            // SAFETY: pMemory is valid for a write.
            unsafe { ffi::write(p_memory, handles::new_memory(memory)) }
        },
    )
}

pub unsafe extern "system" fn vkFreeMemory(
    _device: vk::Device,
    memory: vk::DeviceMemory,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkFreeMemory", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_memory(memory) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkMapMemory(
    _device: vk::Device,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    _flags: vk::MemoryMapFlags,
    pp_data: *mut *mut c_void,
) -> vk::Result {
    guard::success("vkMapMemory", vk::Result::ERROR_MEMORY_MAP_FAILED, || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let memory = unsafe { handles::memory(memory) }?;
        let ptr = memory.map(offset, size)?;
        // SAFETY: ppData is valid for a write.
        unsafe { ffi::write(pp_data, ptr.as_ptr().cast()) }
    })
}

pub unsafe extern "system" fn vkUnmapMemory(_device: vk::Device, memory: vk::DeviceMemory) {
    guard::void("vkUnmapMemory", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::memory(memory) }?.unmap();
        Ok(())
    })
}

/// Every memory type is coherent: flushing and invalidating have nothing to
/// do beyond checking the ranges name live memory.
pub unsafe extern "system" fn vkFlushMappedMemoryRanges(
    _device: vk::Device,
    count: u32,
    p_ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    guard::success(
        "vkFlushMappedMemoryRanges",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: pMemoryRanges holds memoryRangeCount structures.
            for r in unsafe { ffi::slice(p_ranges, count) } {
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::memory(r.memory) }?;
            }
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkInvalidateMappedMemoryRanges(
    device: vk::Device,
    count: u32,
    p_ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    // SAFETY: forwarded with the application's own arguments.
    unsafe { vkFlushMappedMemoryRanges(device, count, p_ranges) }
}

pub unsafe extern "system" fn vkGetDeviceMemoryCommitment(
    _device: vk::Device,
    memory: vk::DeviceMemory,
    p_committed: *mut vk::DeviceSize,
) {
    guard::void("vkGetDeviceMemoryCommitment", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let memory = unsafe { handles::memory(memory) }?;
        // SAFETY: pCommittedMemoryInBytes is valid for a write.
        unsafe { ffi::write(p_committed, memory.size) }
    })
}

pub unsafe extern "system" fn vkCreateBuffer(
    device: vk::Device,
    p_info: *const vk::BufferCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_buffer: *mut vk::Buffer,
) -> vk::Result {
    guard::success(
        "vkCreateBuffer",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            if info.flags.intersects(
                vk::BufferCreateFlags::SPARSE_BINDING | vk::BufferCreateFlags::PROTECTED,
            ) {
                eprintln!(
                    "parsnip: vkCreateBuffer: flags {:?} are not supported",
                    info.flags
                );
                return Err(vk::Result::ERROR_UNKNOWN);
            }
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            let buffer = Buffer::create(&device.device, info.size, info.usage)?;
            // SAFETY: pBuffer is valid for a write.
            unsafe { ffi::write(p_buffer, handles::new_buffer(buffer)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyBuffer(
    _device: vk::Device,
    buffer: vk::Buffer,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyBuffer", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_buffer(buffer) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetBufferMemoryRequirements(
    device: vk::Device,
    buffer: vk::Buffer,
    p: *mut vk::MemoryRequirements,
) {
    guard::void("vkGetBufferMemoryRequirements", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let device = unsafe { handles::device(device) }?;
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let buffer = unsafe { handles::buffer(buffer) }?;
        // SAFETY: the output structure is valid for a write.
        unsafe { ffi::write(p, buffer.memory_requirements(&device.device)) }
    })
}

/// The buffer's GPU virtual address: what the shader's physical storage
/// buffer pointers hold, as `ldg`/`stg` take it.
pub unsafe extern "system" fn vkGetBufferDeviceAddress(
    _device: vk::Device,
    p_info: *const vk::BufferDeviceAddressInfo<'_>,
) -> vk::DeviceAddress {
    guard::value("vkGetBufferDeviceAddress", 0, || {
        // SAFETY: the application's structure.
        let Ok(info) = (unsafe { ffi::input(p_info) }) else {
            return 0;
        };
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        match unsafe { handles::buffer(info.buffer) } {
            Ok(buffer) => buffer.iova(0),
            Err(_) => 0,
        }
    })
}

/// Capture and replay of addresses is not offered
/// (bufferDeviceAddressCaptureReplay is false): there is no opaque address.
pub unsafe extern "system" fn vkGetBufferOpaqueCaptureAddress(
    _device: vk::Device,
    _p_info: *const vk::BufferDeviceAddressInfo<'_>,
) -> u64 {
    0
}

/// As [`vkGetBufferOpaqueCaptureAddress`].
pub unsafe extern "system" fn vkGetDeviceMemoryOpaqueCaptureAddress(
    _device: vk::Device,
    _p_info: *const vk::DeviceMemoryOpaqueCaptureAddressInfo<'_>,
) -> u64 {
    0
}

pub unsafe extern "system" fn vkGetBufferMemoryRequirements2(
    device: vk::Device,
    p_info: *const vk::BufferMemoryRequirementsInfo2<'_>,
    p: *mut vk::MemoryRequirements2<'_>,
) {
    guard::void("vkGetBufferMemoryRequirements2", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let device = unsafe { handles::device(device) }?;
        // SAFETY: the application's structures.
        let info = unsafe { ffi::input(p_info) }?;
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let buffer = unsafe { handles::buffer(info.buffer) }?;
        // SAFETY: the application's output structure.
        unsafe { write_requirements2(p, buffer.memory_requirements(&device.device)) }
    })
}

/// VK_KHR_maintenance4: what a buffer made from `pCreateInfo` would need,
/// before one exists; the requirements depend on the size alone.
pub unsafe extern "system" fn vkGetDeviceBufferMemoryRequirements(
    device: vk::Device,
    p_info: *const vk::DeviceBufferMemoryRequirements<'_>,
    p: *mut vk::MemoryRequirements2<'_>,
) {
    guard::void("vkGetDeviceBufferMemoryRequirements", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let device = unsafe { handles::device(device) }?;
        // SAFETY: the application's structures.
        let info = unsafe { ffi::input(ffi::input(p_info)?.p_create_info) }?;
        let requirements = Buffer::requirements_for(&device.device, info.size);
        // SAFETY: the application's output structure.
        unsafe { write_requirements2(p, requirements) }
    })
}

/// `vkGet{Buffer,Image}MemoryRequirements2`'s output: `requirements`, and
/// in the chain that no buffer or image needs or prefers a dedicated
/// allocation (each is addressed as any range of a BO is).
///
/// # Safety
/// `p` is null or a valid output structure with a valid chain.
pub(crate) unsafe fn write_requirements2(
    p: *mut vk::MemoryRequirements2<'_>,
    requirements: vk::MemoryRequirements,
) -> Result<(), vk::Result> {
    // SAFETY: the caller's promise.
    let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
    out.memory_requirements = requirements;
    // SAFETY: the caller's promise: the output chain is valid.
    unsafe {
        ffi::walk_out_chain(out.p_next, |ty, ptr| {
            if ty == vk::StructureType::MEMORY_DEDICATED_REQUIREMENTS {
                ffi::fill_out::<vk::MemoryDedicatedRequirements<'_>>(ptr, |s| {
                    s.prefers_dedicated_allocation = vk::FALSE;
                    s.requires_dedicated_allocation = vk::FALSE;
                });
            }
        });
    }
    Ok(())
}

pub unsafe extern "system" fn vkBindBufferMemory(
    _device: vk::Device,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    guard::success(
        "vkBindBufferMemory",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            unsafe { handles::buffer(buffer) }?
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                .bind(unsafe { handles::memory(memory) }?.clone(), offset)
        },
    )
}

pub unsafe extern "system" fn vkBindBufferMemory2(
    _device: vk::Device,
    count: u32,
    p_infos: *const vk::BindBufferMemoryInfo<'_>,
) -> vk::Result {
    guard::success(
        "vkBindBufferMemory2",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: pBindInfos holds bindInfoCount structures.
            for info in unsafe { ffi::slice(p_infos, count) } {
                // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                unsafe { handles::buffer(info.buffer) }?
                    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                    .bind(
                        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
                        unsafe { handles::memory(info.memory) }?.clone(),
                        info.memory_offset,
                    )?;
            }
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkCreateBufferView(
    device: vk::Device,
    p_info: *const vk::BufferViewCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_view: *mut vk::BufferView,
) -> vk::Result {
    guard::success(
        "vkCreateBufferView",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let buffer = unsafe { handles::buffer(info.buffer) }?;
            let view = BufferView::new(
                &device.device,
                buffer.clone(),
                info.format,
                info.offset,
                info.range,
            )?;
            // SAFETY: pView is valid for a write.
            unsafe { ffi::write(p_view, handles::new_buffer_view(view)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyBufferView(
    _device: vk::Device,
    view: vk::BufferView,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyBufferView", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_buffer_view(view) };
        Ok(())
    })
}
