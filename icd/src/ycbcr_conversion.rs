//! `VkSamplerYcbcrConversion`: core in Vulkan 1.1, usable only with the
//! `samplerYcbcrConversion` feature, which Parsnip does not offer (the
//! texture unit's multi-planar sampling is not built). The commands exist,
//! as every core command must; creating one is refused with
//! `VK_ERROR_FEATURE_NOT_PRESENT` and a message, and no conversion can
//! exist to be destroyed.

use ash::vk;

use crate::ffi;
use crate::guard;

pub unsafe extern "system" fn vkCreateSamplerYcbcrConversion(
    _device: vk::Device,
    _p_info: *const vk::SamplerYcbcrConversionCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_conversion: *mut vk::SamplerYcbcrConversion,
) -> vk::Result {
    guard::success(
        "vkCreateSamplerYcbcrConversion",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: pYcbcrConversion is valid for a write.
            unsafe { ffi::write(p_conversion, vk::SamplerYcbcrConversion::null()) }?;
            eprintln!(
                "parsnip: vkCreateSamplerYcbcrConversion: samplerYcbcrConversion is not offered"
            );
            Err(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        },
    )
}

pub unsafe extern "system" fn vkDestroySamplerYcbcrConversion(
    _device: vk::Device,
    conversion: vk::SamplerYcbcrConversion,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroySamplerYcbcrConversion", || {
        if vk::Handle::as_raw(conversion) != 0 {
            eprintln!(
                "parsnip: vkDestroySamplerYcbcrConversion: {:#x} was never created",
                vk::Handle::as_raw(conversion)
            );
        }
        Ok(())
    })
}
