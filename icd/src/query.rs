//! Query pool entry points.

use std::ffi::c_void;

use ash::vk;
use parsnip_driver::query_pool::QueryPool;

use crate::ffi;
use crate::guard;
use crate::handles;

pub unsafe extern "system" fn vkCreateQueryPool(
    device: vk::Device,
    p_info: *const vk::QueryPoolCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pool: *mut vk::QueryPool,
) -> vk::Result {
    guard::success(
        "vkCreateQueryPool",
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let device = unsafe { handles::device(device) }?;
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            let pool = QueryPool::new(&device.device, info.query_type, info.query_count)?;
            // SAFETY: pQueryPool is valid for a write.
            unsafe { ffi::write(p_pool, handles::new_query_pool(pool)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyQueryPool(
    _device: vk::Device,
    pool: vk::QueryPool,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyQueryPool", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_query_pool(pool) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetQueryPoolResults(
    _device: vk::Device,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
    data_size: usize,
    p_data: *mut c_void,
    stride: vk::DeviceSize,
    flags: vk::QueryResultFlags,
) -> vk::Result {
    guard::result(
        "vkGetQueryPoolResults",
        vk::Result::ERROR_DEVICE_LOST,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pool = unsafe { handles::query_pool(pool) }?;
            if p_data.is_null() {
                return Err(vk::Result::ERROR_UNKNOWN);
            }
            // SAFETY: pData holds dataSize writable bytes.
            let out = unsafe { std::slice::from_raw_parts_mut(p_data.cast::<u8>(), data_size) };
            pool.results(first, count, out, stride, flags)
        },
    )
}

pub unsafe extern "system" fn vkResetQueryPool(
    _device: vk::Device,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
) {
    guard::void("vkResetQueryPool", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        unsafe { handles::query_pool(pool) }?.host_reset(first, count)
    })
}
