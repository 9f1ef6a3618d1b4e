//! VK_EXT_private_data's commands (core in Vulkan 1.3): slots are created
//! and destroyed like any device child, and set and read one value per
//! object. The values are kept by object (driver's private_data.rs), and
//! retiring any handle drops its values (handles.rs).

use std::sync::Arc;

use ash::vk;
use parsnip_driver::private_data::{PrivateDataSlot, PrivateValues};

use crate::{ffi, guard, handles};

/// The private data of every object of every device: handles are
/// addresses, distinct among live objects of all devices.
pub static VALUES: PrivateValues = PrivateValues::new();

/// A slot's storage grows as objects are set, so the
/// `VkDevicePrivateDataCreateInfo` reservation needs nothing in advance.
pub unsafe extern "system" fn vkCreatePrivateDataSlot(
    device: vk::Device,
    _p_info: *const vk::PrivateDataSlotCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_slot: *mut vk::PrivateDataSlot,
) -> vk::Result {
    guard::success(
        "vkCreatePrivateDataSlot",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            unsafe { handles::device(device) }?;
            let slot = handles::new_private_data_slot(Arc::new(PrivateDataSlot::new()));
            // SAFETY: pPrivateDataSlot is valid for a write.
            unsafe { ffi::write(p_slot, slot) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyPrivateDataSlot(
    _device: vk::Device,
    slot: vk::PrivateDataSlot,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyPrivateDataSlot", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        if let Some(slot) = unsafe { handles::drop_private_data_slot(slot) } {
            VALUES.forget_slot(&slot);
        }
        Ok(())
    })
}

pub unsafe extern "system" fn vkSetPrivateData(
    _device: vk::Device,
    _object_type: vk::ObjectType,
    object: u64,
    slot: vk::PrivateDataSlot,
    data: u64,
) -> vk::Result {
    guard::success(
        "vkSetPrivateData",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let slot = unsafe { handles::private_data_slot(slot) }?;
            VALUES.set(slot, object, data);
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkGetPrivateData(
    _device: vk::Device,
    _object_type: vk::ObjectType,
    object: u64,
    slot: vk::PrivateDataSlot,
    p_data: *mut u64,
) {
    guard::void("vkGetPrivateData", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let slot = unsafe { handles::private_data_slot(slot) }?;
        // SAFETY: pData is valid for a write.
        unsafe { ffi::write(p_data, VALUES.get(slot, object)) }
    })
}
