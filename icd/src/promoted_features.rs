//! The Vulkan 1.2 feature structure and the structures of the extensions
//! Vulkan 1.2 promoted that the older code does not handle: filled from
//! the device's [`ExtraFeatures`] in `vkGetPhysicalDeviceFeatures2`, and
//! read into them from a `VkDeviceCreateInfo` chain, so that every member
//! is reported and checked under one name whichever structure carries it.
//! The structures' members are named as `ExtraFeatures`' fields.

use std::ffi::c_void;

use ash::vk;
use ash::vk::TaggedStructure;
use parsnip_driver::physical_device::ExtraFeatures;

/// Declares [`fill`] and [`enable`] over the listed structures and members.
macro_rules! promoted {
    ($($ty:ty => [$($field:ident),* $(,)?],)*) => {
        /// Fills the structure at `ptr`, of type `ty`, if it is one of the
        /// listed ones; whether it was.
        ///
        /// # Safety
        /// `ptr` points at a writable structure of the type `ty` names.
        pub unsafe fn fill(ty: vk::StructureType, ptr: *mut c_void, x: &ExtraFeatures) -> bool {
            let b = |v: bool| if v { vk::TRUE } else { vk::FALSE };
            $(
                if ty == <$ty>::STRUCTURE_TYPE {
                    // SAFETY: the caller's promise; `ty` names this type.
                    let s = unsafe { &mut *ptr.cast::<$ty>() };
                    $( s.$field = b(x.$field); )*
                    return true;
                }
            )*
            false
        }

        /// Adds what the structure at `ptr`, of type `ty`, enables to `x`,
        /// if it is one of the listed ones; whether it was.
        ///
        /// # Safety
        /// `ptr` points at a structure of the type `ty` names.
        pub unsafe fn enable(ty: vk::StructureType, ptr: *const c_void, x: &mut ExtraFeatures) -> bool {
            $(
                if ty == <$ty>::STRUCTURE_TYPE {
                    // SAFETY: the caller's promise; `ty` names this type.
                    let s = unsafe { &*ptr.cast::<$ty>() };
                    $( x.$field |= s.$field != vk::FALSE; )*
                    return true;
                }
            )*
            false
        }
    };
}

promoted! {
    vk::PhysicalDeviceVulkan12Features<'_> => [
        sampler_mirror_clamp_to_edge,
        draw_indirect_count,
        storage_buffer8_bit_access,
        uniform_and_storage_buffer8_bit_access,
        storage_push_constant8,
        shader_buffer_int64_atomics,
        shader_shared_int64_atomics,
        shader_float16,
        shader_int8,
        descriptor_indexing,
        shader_input_attachment_array_dynamic_indexing,
        shader_uniform_texel_buffer_array_dynamic_indexing,
        shader_storage_texel_buffer_array_dynamic_indexing,
        shader_uniform_buffer_array_non_uniform_indexing,
        shader_sampled_image_array_non_uniform_indexing,
        shader_storage_buffer_array_non_uniform_indexing,
        shader_storage_image_array_non_uniform_indexing,
        shader_input_attachment_array_non_uniform_indexing,
        shader_uniform_texel_buffer_array_non_uniform_indexing,
        shader_storage_texel_buffer_array_non_uniform_indexing,
        descriptor_binding_uniform_buffer_update_after_bind,
        descriptor_binding_sampled_image_update_after_bind,
        descriptor_binding_storage_image_update_after_bind,
        descriptor_binding_storage_buffer_update_after_bind,
        descriptor_binding_uniform_texel_buffer_update_after_bind,
        descriptor_binding_storage_texel_buffer_update_after_bind,
        descriptor_binding_update_unused_while_pending,
        descriptor_binding_partially_bound,
        descriptor_binding_variable_descriptor_count,
        runtime_descriptor_array,
        sampler_filter_minmax,
        scalar_block_layout,
        imageless_framebuffer,
        uniform_buffer_standard_layout,
        shader_subgroup_extended_types,
        separate_depth_stencil_layouts,
        host_query_reset,
        timeline_semaphore,
        buffer_device_address,
        buffer_device_address_capture_replay,
        buffer_device_address_multi_device,
        vulkan_memory_model,
        vulkan_memory_model_device_scope,
        vulkan_memory_model_availability_visibility_chains,
        shader_output_viewport_index,
        shader_output_layer,
        subgroup_broadcast_dynamic_id,
    ],
    vk::PhysicalDevice8BitStorageFeatures<'_> => [
        storage_buffer8_bit_access,
        uniform_and_storage_buffer8_bit_access,
        storage_push_constant8,
    ],
    vk::PhysicalDeviceShaderAtomicInt64Features<'_> => [
        shader_buffer_int64_atomics,
        shader_shared_int64_atomics,
    ],
    vk::PhysicalDeviceDescriptorIndexingFeatures<'_> => [
        shader_input_attachment_array_dynamic_indexing,
        shader_uniform_texel_buffer_array_dynamic_indexing,
        shader_storage_texel_buffer_array_dynamic_indexing,
        shader_uniform_buffer_array_non_uniform_indexing,
        shader_sampled_image_array_non_uniform_indexing,
        shader_storage_buffer_array_non_uniform_indexing,
        shader_storage_image_array_non_uniform_indexing,
        shader_input_attachment_array_non_uniform_indexing,
        shader_uniform_texel_buffer_array_non_uniform_indexing,
        shader_storage_texel_buffer_array_non_uniform_indexing,
        descriptor_binding_uniform_buffer_update_after_bind,
        descriptor_binding_sampled_image_update_after_bind,
        descriptor_binding_storage_image_update_after_bind,
        descriptor_binding_storage_buffer_update_after_bind,
        descriptor_binding_uniform_texel_buffer_update_after_bind,
        descriptor_binding_storage_texel_buffer_update_after_bind,
        descriptor_binding_update_unused_while_pending,
        descriptor_binding_partially_bound,
        descriptor_binding_variable_descriptor_count,
        runtime_descriptor_array,
    ],
    vk::PhysicalDeviceImagelessFramebufferFeatures<'_> => [imageless_framebuffer],
    vk::PhysicalDeviceUniformBufferStandardLayoutFeatures<'_> => [uniform_buffer_standard_layout],
    vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures<'_> => [shader_subgroup_extended_types],
    vk::PhysicalDeviceSeparateDepthStencilLayoutsFeatures<'_> => [separate_depth_stencil_layouts],
    vk::PhysicalDevicePrivateDataFeatures<'_> => [private_data],
    vk::PhysicalDeviceMaintenance4Features<'_> => [maintenance4],
    vk::PhysicalDeviceShaderTerminateInvocationFeatures<'_> => [shader_terminate_invocation],
    vk::PhysicalDeviceShaderDemoteToHelperInvocationFeatures<'_> => [
        shader_demote_to_helper_invocation,
    ],
    vk::PhysicalDeviceShaderIntegerDotProductFeatures<'_> => [shader_integer_dot_product],
    vk::PhysicalDeviceSubgroupSizeControlFeatures<'_> => [
        subgroup_size_control,
        compute_full_subgroups,
    ],
    vk::PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures<'_> => [
        shader_zero_initialize_workgroup_memory,
    ],
    vk::PhysicalDeviceVulkanMemoryModelFeatures<'_> => [
        vulkan_memory_model,
        vulkan_memory_model_device_scope,
        vulkan_memory_model_availability_visibility_chains,
    ],
}
