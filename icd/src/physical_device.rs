//! Physical-device entry points: properties, features, formats, memory,
//! queue families, extensions, and device creation.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use ash::vk;
use parsnip_driver::device::{Device, DeviceDesc, QueueRequest};
use parsnip_driver::limits::{
    MAX_DESCRIPTORS_PER_SET, MAX_MULTIVIEW_INSTANCE_INDEX, MAX_MULTIVIEW_VIEW_COUNT,
    MAX_PUSH_DESCRIPTORS,
};
use parsnip_driver::physical_device::{ExtraFeatures, PhysicalDevice};

use crate::ffi;
use crate::guard;
use crate::handles;
use crate::objects::DeviceObject;
use crate::{promoted_features, promoted_properties};

pub unsafe extern "system" fn vkGetPhysicalDeviceProperties(
    pd: vk::PhysicalDevice,
    p: *mut vk::PhysicalDeviceProperties,
) {
    guard::void("vkGetPhysicalDeviceProperties", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure is valid for a write.
        unsafe { ffi::write(p, pd.properties()) }
    })
}

/// Fills the structures of a `VkPhysicalDeviceProperties2` chain the
/// driver knows; others are left as they are.
///
/// # Safety
/// `p_next` starts a valid chain of writable structures.
unsafe fn fill_property_chain(pd: &PhysicalDevice, p_next: *mut c_void) {
    let (subgroup_size, stages, operations) = pd.subgroup_properties();
    let max_allocation = pd.memory.heap_size;
    // SAFETY: the caller's promise; each structure is filled as the type
    // its sType names.
    unsafe {
        ffi::walk_out_chain(p_next, |ty, ptr| match ty {
            vk::StructureType::PHYSICAL_DEVICE_ID_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDeviceIDProperties<'_>>(ptr, |s| {
                    s.device_uuid = pd.device_uuid();
                    s.driver_uuid = pd.driver_uuid();
                    s.device_luid = [0; vk::LUID_SIZE];
                    s.device_node_mask = 0;
                    s.device_luid_valid = vk::FALSE;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDeviceMaintenance3Properties<'_>>(ptr, |s| {
                    s.max_per_set_descriptors = MAX_DESCRIPTORS_PER_SET;
                    s.max_memory_allocation_size = max_allocation;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES => {
                // vkCreateBuffer takes any size up to the heap.
                ffi::fill_out::<vk::PhysicalDeviceMaintenance4Properties<'_>>(ptr, |s| {
                    s.max_buffer_size = max_allocation;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDeviceMultiviewProperties<'_>>(ptr, |s| {
                    s.max_multiview_view_count = MAX_MULTIVIEW_VIEW_COUNT;
                    s.max_multiview_instance_index = MAX_MULTIVIEW_INSTANCE_INDEX;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDevicePointClippingProperties<'_>>(ptr, |s| {
                    s.point_clipping_behavior = vk::PointClippingBehavior::ALL_CLIP_PLANES;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDeviceProtectedMemoryProperties<'_>>(ptr, |s| {
                    s.protected_no_fault = vk::FALSE;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR => {
                ffi::fill_out::<vk::PhysicalDevicePushDescriptorPropertiesKHR<'_>>(ptr, |s| {
                    s.max_push_descriptors = MAX_PUSH_DESCRIPTORS;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_SUBGROUP_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDeviceSubgroupProperties<'_>>(ptr, |s| {
                    s.subgroup_size = subgroup_size;
                    s.supported_stages = stages;
                    s.supported_operations = operations;
                    s.quad_operations_in_all_stages = vk::FALSE;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDeviceTimelineSemaphoreProperties<'_>>(ptr, |s| {
                    s.max_timeline_semaphore_value_difference =
                        promoted_properties::MAX_TIMELINE_SEMAPHORE_VALUE_DIFFERENCE;
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES => {
                ffi::fill_out::<vk::PhysicalDeviceVulkan11Properties<'_>>(ptr, |s| {
                    s.device_uuid = pd.device_uuid();
                    s.driver_uuid = pd.driver_uuid();
                    s.device_luid_valid = vk::FALSE;
                    s.subgroup_size = subgroup_size;
                    s.subgroup_supported_stages = stages;
                    s.subgroup_supported_operations = operations;
                    s.subgroup_quad_operations_in_all_stages = vk::FALSE;
                    s.point_clipping_behavior = vk::PointClippingBehavior::ALL_CLIP_PLANES;
                    s.max_multiview_view_count = MAX_MULTIVIEW_VIEW_COUNT;
                    s.max_multiview_instance_index = MAX_MULTIVIEW_INSTANCE_INDEX;
                    s.protected_no_fault = vk::FALSE;
                    s.max_per_set_descriptors = MAX_DESCRIPTORS_PER_SET;
                    s.max_memory_allocation_size = max_allocation;
                })
            }
            _ => {
                promoted_properties::fill(ty, ptr, pd);
            }
        });
    }
}

pub unsafe extern "system" fn vkGetPhysicalDeviceProperties2(
    pd: vk::PhysicalDevice,
    p: *mut vk::PhysicalDeviceProperties2<'_>,
) {
    guard::void("vkGetPhysicalDeviceProperties2", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure and its chain are valid.
        let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        out.properties = pd.properties();
        // SAFETY: as above.
        unsafe { fill_property_chain(pd, out.p_next) };
        Ok(())
    })
}

/// Fills the feature structures of a chain with what the device offers.
///
/// # Safety
/// `p_next` starts a valid chain of writable structures.
unsafe fn fill_feature_chain(extra: ExtraFeatures, p_next: *mut c_void) {
    let b = |v: bool| if v { vk::TRUE } else { vk::FALSE };
    // SAFETY: the caller's promise; each structure is filled as its sType
    // says.
    unsafe {
        ffi::walk_out_chain(p_next, |ty, ptr| match ty {
            vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceTimelineSemaphoreFeatures<'_>>(ptr, |s| {
                    s.timeline_semaphore = b(extra.timeline_semaphore)
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT => {
                ffi::fill_out::<vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT<'_>>(ptr, |s| {
                    s.extended_dynamic_state = b(extra.extended_dynamic_state)
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT => {
                ffi::fill_out::<vk::PhysicalDeviceExtendedDynamicState2FeaturesEXT<'_>>(ptr, |s| {
                    s.extended_dynamic_state2 = b(extra.extended_dynamic_state2);
                    s.extended_dynamic_state2_logic_op = b(extra.extended_dynamic_state2_logic_op);
                    s.extended_dynamic_state2_patch_control_points =
                        b(extra.extended_dynamic_state2_patch_control_points);
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceSynchronization2Features<'_>>(ptr, |s| {
                    s.synchronization2 = b(extra.synchronization2)
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceHostQueryResetFeatures<'_>>(ptr, |s| {
                    s.host_query_reset = b(extra.host_query_reset)
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR => {
                ffi::fill_out::<vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR<'_>>(
                    ptr,
                    |s| s.pipeline_executable_info = b(extra.pipeline_executable_info),
                )
            }
            vk::StructureType::PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES => {
                ffi::fill_out::<vk::PhysicalDevice16BitStorageFeatures<'_>>(ptr, |s| {
                    s.storage_buffer16_bit_access = b(extra.storage_buffer16_bit_access);
                    s.uniform_and_storage_buffer16_bit_access =
                        b(extra.uniform_and_storage_buffer16_bit_access);
                    s.storage_push_constant16 = b(extra.storage_push_constant16);
                    s.storage_input_output16 = b(extra.storage_input_output16);
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceBufferDeviceAddressFeatures<'_>>(ptr, |s| {
                    s.buffer_device_address = b(extra.buffer_device_address);
                    s.buffer_device_address_capture_replay =
                        b(extra.buffer_device_address_capture_replay);
                    s.buffer_device_address_multi_device =
                        b(extra.buffer_device_address_multi_device);
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceScalarBlockLayoutFeatures<'_>>(ptr, |s| {
                    s.scalar_block_layout = b(extra.scalar_block_layout);
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceShaderFloat16Int8Features<'_>>(ptr, |s| {
                    s.shader_float16 = b(extra.shader_float16);
                    s.shader_int8 = b(extra.shader_int8);
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_MULTIVIEW_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceMultiviewFeatures<'_>>(ptr, |s| {
                    s.multiview = b(extra.multiview);
                    s.multiview_geometry_shader = b(extra.multiview_geometry_shader);
                    s.multiview_tessellation_shader = b(extra.multiview_tessellation_shader);
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceProtectedMemoryFeatures<'_>>(ptr, |s| {
                    s.protected_memory = b(extra.protected_memory)
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceSamplerYcbcrConversionFeatures<'_>>(ptr, |s| {
                    s.sampler_ycbcr_conversion = b(extra.sampler_ycbcr_conversion)
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceShaderDrawParametersFeatures<'_>>(ptr, |s| {
                    s.shader_draw_parameters = b(extra.shader_draw_parameters)
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceVariablePointersFeatures<'_>>(ptr, |s| {
                    s.variable_pointers_storage_buffer = b(extra.variable_pointers_storage_buffer);
                    s.variable_pointers = b(extra.variable_pointers);
                })
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_FEATURES => {
                ffi::fill_out::<vk::PhysicalDeviceVulkan11Features<'_>>(ptr, |s| {
                    s.storage_buffer16_bit_access = b(extra.storage_buffer16_bit_access);
                    s.uniform_and_storage_buffer16_bit_access =
                        b(extra.uniform_and_storage_buffer16_bit_access);
                    s.storage_push_constant16 = b(extra.storage_push_constant16);
                    s.storage_input_output16 = b(extra.storage_input_output16);
                    s.multiview = b(extra.multiview);
                    s.multiview_geometry_shader = b(extra.multiview_geometry_shader);
                    s.multiview_tessellation_shader = b(extra.multiview_tessellation_shader);
                    s.variable_pointers_storage_buffer = b(extra.variable_pointers_storage_buffer);
                    s.variable_pointers = b(extra.variable_pointers);
                    s.protected_memory = b(extra.protected_memory);
                    s.sampler_ycbcr_conversion = b(extra.sampler_ycbcr_conversion);
                    s.shader_draw_parameters = b(extra.shader_draw_parameters);
                })
            }
            _ => {
                promoted_features::fill(ty, ptr, &extra);
            }
        });
    }
}

pub unsafe extern "system" fn vkGetPhysicalDeviceFeatures(
    pd: vk::PhysicalDevice,
    p: *mut vk::PhysicalDeviceFeatures,
) {
    guard::void("vkGetPhysicalDeviceFeatures", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure is valid for a write.
        unsafe { ffi::write(p, pd.features()) }
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceFeatures2(
    pd: vk::PhysicalDevice,
    p: *mut vk::PhysicalDeviceFeatures2<'_>,
) {
    guard::void("vkGetPhysicalDeviceFeatures2", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure and its chain are valid.
        let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        out.features = pd.features();
        // SAFETY: as above.
        unsafe { fill_feature_chain(pd.extra_features(), out.p_next) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceFormatProperties(
    pd: vk::PhysicalDevice,
    format: vk::Format,
    p: *mut vk::FormatProperties,
) {
    guard::void("vkGetPhysicalDeviceFormatProperties", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure is valid for a write.
        unsafe { ffi::write(p, pd.format_properties(format)) }
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceFormatProperties2(
    pd: vk::PhysicalDevice,
    format: vk::Format,
    p: *mut vk::FormatProperties2<'_>,
) {
    guard::void("vkGetPhysicalDeviceFormatProperties2", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure is valid.
        let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        out.format_properties = pd.format_properties(format);
        let flags2 = pd.format_properties3(format);
        // SAFETY: the output chain is valid; each structure is filled as
        // its sType says.
        unsafe {
            ffi::walk_out_chain(out.p_next, |ty, ptr| {
                if ty == vk::StructureType::FORMAT_PROPERTIES_3 {
                    ffi::fill_out::<vk::FormatProperties3<'_>>(ptr, |s| {
                        s.linear_tiling_features = flags2.linear_tiling_features;
                        s.optimal_tiling_features = flags2.optimal_tiling_features;
                        s.buffer_features = flags2.buffer_features;
                    })
                }
            })
        };
        // SAFETY: the output chain is valid.
        unsafe { crate::image::drm_modifier_properties(pd, format, out.p_next) };
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceImageFormatProperties(
    pd: vk::PhysicalDevice,
    format: vk::Format,
    ty: vk::ImageType,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
    p: *mut vk::ImageFormatProperties,
) -> vk::Result {
    guard::success(
        "vkGetPhysicalDeviceImageFormatProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pd = unsafe { handles::physical_device(pd) }?;
            let props = pd.image_format_properties(format, ty, tiling, usage, flags)?;
            // SAFETY: the output structure is valid for a write.
            unsafe { ffi::write(p, props) }
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDeviceImageFormatProperties2(
    pd: vk::PhysicalDevice,
    info: *const vk::PhysicalDeviceImageFormatInfo2<'_>,
    p: *mut vk::ImageFormatProperties2<'_>,
) -> vk::Result {
    guard::success(
        "vkGetPhysicalDeviceImageFormatProperties2",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pd = unsafe { handles::physical_device(pd) }?;
            // SAFETY: the loader passes a valid info structure.
            let i = unsafe { info.as_ref() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            let props = pd.image_format_properties(i.format, i.ty, i.tiling, i.usage, i.flags)?;
            // SAFETY: the output structure is valid.
            let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            out.image_format_properties = props;
            Ok(())
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSparseImageFormatProperties(
    _pd: vk::PhysicalDevice,
    _format: vk::Format,
    _ty: vk::ImageType,
    _samples: vk::SampleCountFlags,
    _usage: vk::ImageUsageFlags,
    _tiling: vk::ImageTiling,
    p_count: *mut u32,
    _p: *mut vk::SparseImageFormatProperties,
) {
    guard::void("vkGetPhysicalDeviceSparseImageFormatProperties", || {
        // SAFETY: pPropertyCount is valid for a write.
        unsafe { ffi::write(p_count, 0) }
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceSparseImageFormatProperties2(
    _pd: vk::PhysicalDevice,
    _info: *const vk::PhysicalDeviceSparseImageFormatInfo2<'_>,
    p_count: *mut u32,
    _p: *mut vk::SparseImageFormatProperties2<'_>,
) {
    guard::void("vkGetPhysicalDeviceSparseImageFormatProperties2", || {
        // SAFETY: pPropertyCount is valid for a write.
        unsafe { ffi::write(p_count, 0) }
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceQueueFamilyProperties(
    pd: vk::PhysicalDevice,
    p_count: *mut u32,
    p: *mut vk::QueueFamilyProperties,
) {
    guard::void("vkGetPhysicalDeviceQueueFamilyProperties", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the two-call idiom's pointers.
        unsafe { ffi::fill(p_count, p, &pd.queue_families()) }.map(|_| ())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceQueueFamilyProperties2(
    pd: vk::PhysicalDevice,
    p_count: *mut u32,
    p: *mut vk::QueueFamilyProperties2<'_>,
) {
    guard::void("vkGetPhysicalDeviceQueueFamilyProperties2", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        let families = pd.queue_families();
        // SAFETY: pCount is valid.
        let count = unsafe { p_count.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        if p.is_null() {
            *count = families.len() as u32;
            return Ok(());
        }
        let n = (*count as usize).min(families.len());
        for (i, f) in families.iter().take(n).enumerate() {
            // SAFETY: p holds *count application-initialised structures.
            unsafe { (*p.add(i)).queue_family_properties = *f };
        }
        *count = n as u32;
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceMemoryProperties(
    pd: vk::PhysicalDevice,
    p: *mut vk::PhysicalDeviceMemoryProperties,
) {
    guard::void("vkGetPhysicalDeviceMemoryProperties", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure is valid for a write.
        unsafe { ffi::write(p, pd.memory_properties()) }
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceMemoryProperties2(
    pd: vk::PhysicalDevice,
    p: *mut vk::PhysicalDeviceMemoryProperties2<'_>,
) {
    guard::void("vkGetPhysicalDeviceMemoryProperties2", || {
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let pd = unsafe { handles::physical_device(pd) }?;
        // SAFETY: the output structure is valid.
        let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        out.memory_properties = pd.memory_properties();
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceExternalBufferProperties(
    _pd: vk::PhysicalDevice,
    _info: *const vk::PhysicalDeviceExternalBufferInfo<'_>,
    p: *mut vk::ExternalBufferProperties<'_>,
) {
    guard::void("vkGetPhysicalDeviceExternalBufferProperties", || {
        // SAFETY: the output structure is valid.
        let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        // No external memory handle type is supported.
        out.external_memory_properties = vk::ExternalMemoryProperties::default();
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceExternalFenceProperties(
    _pd: vk::PhysicalDevice,
    _info: *const vk::PhysicalDeviceExternalFenceInfo<'_>,
    p: *mut vk::ExternalFenceProperties<'_>,
) {
    guard::void("vkGetPhysicalDeviceExternalFenceProperties", || {
        // SAFETY: the output structure is valid.
        let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        out.export_from_imported_handle_types = vk::ExternalFenceHandleTypeFlags::empty();
        out.compatible_handle_types = vk::ExternalFenceHandleTypeFlags::empty();
        out.external_fence_features = vk::ExternalFenceFeatureFlags::empty();
        Ok(())
    })
}

pub unsafe extern "system" fn vkGetPhysicalDeviceExternalSemaphoreProperties(
    _pd: vk::PhysicalDevice,
    _info: *const vk::PhysicalDeviceExternalSemaphoreInfo<'_>,
    p: *mut vk::ExternalSemaphoreProperties<'_>,
) {
    guard::void("vkGetPhysicalDeviceExternalSemaphoreProperties", || {
        // SAFETY: the output structure is valid.
        let out = unsafe { p.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
        out.export_from_imported_handle_types = vk::ExternalSemaphoreHandleTypeFlags::empty();
        out.compatible_handle_types = vk::ExternalSemaphoreHandleTypeFlags::empty();
        out.external_semaphore_features = vk::ExternalSemaphoreFeatureFlags::empty();
        Ok(())
    })
}

pub unsafe extern "system" fn vkEnumerateDeviceExtensionProperties(
    pd: vk::PhysicalDevice,
    p_layer_name: *const c_char,
    p_count: *mut u32,
    p: *mut vk::ExtensionProperties,
) -> vk::Result {
    guard::result(
        "vkEnumerateDeviceExtensionProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            if !p_layer_name.is_null() {
                return Err(vk::Result::ERROR_LAYER_NOT_PRESENT);
            }
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pd = unsafe { handles::physical_device(pd) }?;
            let list: Vec<vk::ExtensionProperties> =
                pd.extensions().iter().map(|e| e.properties()).collect();
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_count, p, &list) }
        },
    )
}

pub unsafe extern "system" fn vkGetPhysicalDeviceToolProperties(
    pd: vk::PhysicalDevice,
    p_count: *mut u32,
    p: *mut vk::PhysicalDeviceToolProperties<'_>,
) -> vk::Result {
    guard::result(
        "vkGetPhysicalDeviceToolProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pd = unsafe { handles::physical_device(pd) }?;
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_count, p.cast(), pd.tools()) }
        },
    )
}

/// Device layers are deprecated: none.
pub unsafe extern "system" fn vkEnumerateDeviceLayerProperties(
    _pd: vk::PhysicalDevice,
    p_property_count: *mut u32,
    p_properties: *mut vk::LayerProperties,
) -> vk::Result {
    guard::result(
        "vkEnumerateDeviceLayerProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_property_count, p_properties, &[]) }
        },
    )
}

/// The features a device create info's chain enables: the core ones of a
/// `VkPhysicalDeviceFeatures2`, and every member of the promoted and
/// extension feature structures (so that an unsupported one is refused with
/// `VK_ERROR_FEATURE_NOT_PRESENT`, whichever structure asks for it).
///
/// # Safety
/// `p_next` starts a valid chain.
unsafe fn requested_features(
    p_next: *const c_void,
) -> (Option<vk::PhysicalDeviceFeatures>, ExtraFeatures) {
    let mut core = None;
    let mut x = ExtraFeatures::default();
    let on = |v: vk::Bool32| v != vk::FALSE;
    // SAFETY: the caller's promise; each structure is read as its sType
    // says.
    unsafe {
        ffi::walk_chain(p_next, |ty, ptr| match ty {
            vk::StructureType::PHYSICAL_DEVICE_FEATURES_2 => {
                core = Some((*ptr.cast::<vk::PhysicalDeviceFeatures2<'_>>()).features);
            }
            vk::StructureType::PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDevice16BitStorageFeatures<'_>>();
                x.storage_buffer16_bit_access |= on(s.storage_buffer16_bit_access);
                x.uniform_and_storage_buffer16_bit_access |=
                    on(s.uniform_and_storage_buffer16_bit_access);
                x.storage_push_constant16 |= on(s.storage_push_constant16);
                x.storage_input_output16 |= on(s.storage_input_output16);
            }
            vk::StructureType::PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceBufferDeviceAddressFeatures<'_>>();
                x.buffer_device_address |= on(s.buffer_device_address);
                x.buffer_device_address_capture_replay |=
                    on(s.buffer_device_address_capture_replay);
                x.buffer_device_address_multi_device |= on(s.buffer_device_address_multi_device);
            }
            vk::StructureType::PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceScalarBlockLayoutFeatures<'_>>();
                x.scalar_block_layout |= on(s.scalar_block_layout);
            }
            vk::StructureType::PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceShaderFloat16Int8Features<'_>>();
                x.shader_float16 |= on(s.shader_float16);
                x.shader_int8 |= on(s.shader_int8);
            }
            vk::StructureType::PHYSICAL_DEVICE_MULTIVIEW_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceMultiviewFeatures<'_>>();
                x.multiview |= on(s.multiview);
                x.multiview_geometry_shader |= on(s.multiview_geometry_shader);
                x.multiview_tessellation_shader |= on(s.multiview_tessellation_shader);
            }
            vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceProtectedMemoryFeatures<'_>>();
                x.protected_memory |= on(s.protected_memory);
            }
            vk::StructureType::PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceSamplerYcbcrConversionFeatures<'_>>();
                x.sampler_ycbcr_conversion |= on(s.sampler_ycbcr_conversion);
            }
            vk::StructureType::PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceShaderDrawParametersFeatures<'_>>();
                x.shader_draw_parameters |= on(s.shader_draw_parameters);
            }
            vk::StructureType::PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceVariablePointersFeatures<'_>>();
                x.variable_pointers_storage_buffer |= on(s.variable_pointers_storage_buffer);
                x.variable_pointers |= on(s.variable_pointers);
            }
            vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceVulkan11Features<'_>>();
                x.storage_buffer16_bit_access |= on(s.storage_buffer16_bit_access);
                x.uniform_and_storage_buffer16_bit_access |=
                    on(s.uniform_and_storage_buffer16_bit_access);
                x.storage_push_constant16 |= on(s.storage_push_constant16);
                x.storage_input_output16 |= on(s.storage_input_output16);
                x.multiview |= on(s.multiview);
                x.multiview_geometry_shader |= on(s.multiview_geometry_shader);
                x.multiview_tessellation_shader |= on(s.multiview_tessellation_shader);
                x.variable_pointers_storage_buffer |= on(s.variable_pointers_storage_buffer);
                x.variable_pointers |= on(s.variable_pointers);
                x.protected_memory |= on(s.protected_memory);
                x.sampler_ycbcr_conversion |= on(s.sampler_ycbcr_conversion);
                x.shader_draw_parameters |= on(s.shader_draw_parameters);
            }
            vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceTimelineSemaphoreFeatures<'_>>();
                x.timeline_semaphore |= on(s.timeline_semaphore);
            }
            vk::StructureType::PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT => {
                let s = &*ptr.cast::<vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT<'_>>();
                x.extended_dynamic_state |= on(s.extended_dynamic_state);
            }
            vk::StructureType::PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT => {
                let s = &*ptr.cast::<vk::PhysicalDeviceExtendedDynamicState2FeaturesEXT<'_>>();
                x.extended_dynamic_state2 |= on(s.extended_dynamic_state2);
                x.extended_dynamic_state2_logic_op |= on(s.extended_dynamic_state2_logic_op);
                x.extended_dynamic_state2_patch_control_points |=
                    on(s.extended_dynamic_state2_patch_control_points);
            }
            vk::StructureType::PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceSynchronization2Features<'_>>();
                x.synchronization2 |= on(s.synchronization2);
            }
            vk::StructureType::PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES => {
                let s = &*ptr.cast::<vk::PhysicalDeviceHostQueryResetFeatures<'_>>();
                x.host_query_reset |= on(s.host_query_reset);
            }
            vk::StructureType::PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR => {
                let s =
                    &*ptr.cast::<vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR<'_>>();
                x.pipeline_executable_info |= on(s.pipeline_executable_info);
            }
            _ => {
                promoted_features::enable(ty, ptr, &mut x);
            }
        });
    }
    (core, x)
}

pub unsafe extern "system" fn vkCreateDevice(
    pd: vk::PhysicalDevice,
    p_create_info: *const vk::DeviceCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_device: *mut vk::Device,
) -> vk::Result {
    guard::success(
        "vkCreateDevice",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            // SAFETY: a handle the application passed; valid usage keeps it live for the call.
            let pd = unsafe { handles::physical_device(pd) }?;
            // SAFETY: the application's create info.
            let info = unsafe { ffi::input(p_create_info) }?;
            // SAFETY: pQueueCreateInfos holds queueCreateInfoCount structures.
            let queue_infos =
                unsafe { ffi::slice(info.p_queue_create_infos, info.queue_create_info_count) };
            let queues = queue_infos
                .iter()
                .map(|q| QueueRequest {
                    family: q.queue_family_index,
                    // SAFETY: pQueuePriorities holds queueCount floats.
                    priorities: unsafe { ffi::slice(q.p_queue_priorities, q.queue_count) }.to_vec(),
                })
                .collect();
            // SAFETY: the chain and the optional pEnabledFeatures are valid.
            let (chained, extra) = unsafe { requested_features(info.p_next) };
            // SAFETY: as above.
            let features = unsafe { ffi::opt_ref(info.p_enabled_features) }
                .copied()
                .or(chained)
                .unwrap_or_default();
            // SAFETY: ppEnabledExtensionNames holds enabledExtensionCount strings.
            let extensions = unsafe {
                ffi::cstrs(
                    info.pp_enabled_extension_names,
                    info.enabled_extension_count,
                )
            };
            let device = Device::new(
                pd,
                &DeviceDesc {
                    queues,
                    features,
                    extra_features: extra,
                    extensions,
                },
            )?;
            let mut queue_handles = Vec::new();
            for q in queue_infos {
                for index in 0..q.queue_count {
                    if let Some(queue) = device.queue(q.queue_family_index, index) {
                        queue_handles.push((
                            q.queue_family_index,
                            index,
                            handles::new_queue(queue),
                        ));
                    }
                }
            }
            let handle = handles::new_device(Arc::new(DeviceObject {
                device,
                queues: queue_handles,
            }));
            // SAFETY: pDevice is valid for a write.
            unsafe { ffi::write(p_device, handle) }
        },
    )
}
