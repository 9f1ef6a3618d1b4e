//! The reported `apiVersion` is a promise: each version makes some features
//! and limits mandatory (the spec's "Feature Requirements" and "Required
//! Limits"), and a device reporting that version must offer them, on every
//! GPU of the catalogue. Through the real loader on the null back end.
//! One test per process, since the loader reads the environment once.

mod common;

use ash::vk;

use common::null_instance;

/// `(name, offered)` for the features Vulkan 1.2 makes mandatory.
fn required_by_1_2(v12: &vk::PhysicalDeviceVulkan12Features) -> Vec<(&'static str, vk::Bool32)> {
    vec![
        (
            "subgroupBroadcastDynamicId",
            v12.subgroup_broadcast_dynamic_id,
        ),
        ("imagelessFramebuffer", v12.imageless_framebuffer),
        (
            "uniformBufferStandardLayout",
            v12.uniform_buffer_standard_layout,
        ),
        (
            "shaderSubgroupExtendedTypes",
            v12.shader_subgroup_extended_types,
        ),
        (
            "separateDepthStencilLayouts",
            v12.separate_depth_stencil_layouts,
        ),
        ("hostQueryReset", v12.host_query_reset),
        ("timelineSemaphore", v12.timeline_semaphore),
    ]
}

/// `(name, offered)` for the features Vulkan 1.3 makes mandatory, including
/// the 1.2 members it promotes from optional.
fn required_by_1_3(
    v12: &vk::PhysicalDeviceVulkan12Features,
    v13: &vk::PhysicalDeviceVulkan13Features,
) -> Vec<(&'static str, vk::Bool32)> {
    let mut out = vec![
        ("vulkanMemoryModel", v12.vulkan_memory_model),
        (
            "vulkanMemoryModelDeviceScope",
            v12.vulkan_memory_model_device_scope,
        ),
        ("bufferDeviceAddress", v12.buffer_device_address),
        ("robustImageAccess", v13.robust_image_access),
        ("inlineUniformBlock", v13.inline_uniform_block),
        (
            "pipelineCreationCacheControl",
            v13.pipeline_creation_cache_control,
        ),
        ("privateData", v13.private_data),
        (
            "shaderDemoteToHelperInvocation",
            v13.shader_demote_to_helper_invocation,
        ),
        ("shaderTerminateInvocation", v13.shader_terminate_invocation),
        ("subgroupSizeControl", v13.subgroup_size_control),
        ("computeFullSubgroups", v13.compute_full_subgroups),
        ("synchronization2", v13.synchronization2),
        (
            "shaderZeroInitializeWorkgroupMemory",
            v13.shader_zero_initialize_workgroup_memory,
        ),
        ("dynamicRendering", v13.dynamic_rendering),
        ("shaderIntegerDotProduct", v13.shader_integer_dot_product),
        ("maintenance4", v13.maintenance4),
    ];
    if v12.descriptor_indexing != vk::FALSE {
        out.push((
            "descriptorBindingInlineUniformBlockUpdateAfterBind",
            v13.descriptor_binding_inline_uniform_block_update_after_bind,
        ));
    }
    out
}

/// `(name, offered)` for the features the spec requires of a device that
/// offers `descriptorIndexing` (or VK_EXT_descriptor_indexing).
fn required_by_descriptor_indexing(
    f: &vk::PhysicalDeviceFeatures,
    v12: &vk::PhysicalDeviceVulkan12Features,
) -> Vec<(&'static str, vk::Bool32)> {
    vec![
        (
            "shaderSampledImageArrayDynamicIndexing",
            f.shader_sampled_image_array_dynamic_indexing,
        ),
        (
            "shaderStorageBufferArrayDynamicIndexing",
            f.shader_storage_buffer_array_dynamic_indexing,
        ),
        (
            "shaderUniformTexelBufferArrayDynamicIndexing",
            v12.shader_uniform_texel_buffer_array_dynamic_indexing,
        ),
        (
            "shaderStorageTexelBufferArrayDynamicIndexing",
            v12.shader_storage_texel_buffer_array_dynamic_indexing,
        ),
        (
            "shaderSampledImageArrayNonUniformIndexing",
            v12.shader_sampled_image_array_non_uniform_indexing,
        ),
        (
            "shaderStorageBufferArrayNonUniformIndexing",
            v12.shader_storage_buffer_array_non_uniform_indexing,
        ),
        (
            "shaderUniformTexelBufferArrayNonUniformIndexing",
            v12.shader_uniform_texel_buffer_array_non_uniform_indexing,
        ),
        (
            "descriptorBindingSampledImageUpdateAfterBind",
            v12.descriptor_binding_sampled_image_update_after_bind,
        ),
        (
            "descriptorBindingStorageImageUpdateAfterBind",
            v12.descriptor_binding_storage_image_update_after_bind,
        ),
        (
            "descriptorBindingStorageBufferUpdateAfterBind",
            v12.descriptor_binding_storage_buffer_update_after_bind,
        ),
        (
            "descriptorBindingUniformTexelBufferUpdateAfterBind",
            v12.descriptor_binding_uniform_texel_buffer_update_after_bind,
        ),
        (
            "descriptorBindingStorageTexelBufferUpdateAfterBind",
            v12.descriptor_binding_storage_texel_buffer_update_after_bind,
        ),
        (
            "descriptorBindingUpdateUnusedWhilePending",
            v12.descriptor_binding_update_unused_while_pending,
        ),
        (
            "descriptorBindingPartiallyBound",
            v12.descriptor_binding_partially_bound,
        ),
        ("runtimeDescriptorArray", v12.runtime_descriptor_array),
    ]
}

fn missing(list: Vec<(&'static str, vk::Bool32)>) -> Vec<&'static str> {
    list.into_iter()
        .filter(|(_, offered)| *offered == vk::FALSE)
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn the_reported_version_offers_what_it_requires() {
    let (_entry, instance, physical) = null_instance("version-requirements", "a660");

    // SAFETY: Vulkan queries with output structures alive for each call.
    unsafe {
        let props = instance.get_physical_device_properties(physical);
        let minor = vk::api_version_minor(props.api_version);
        assert!(minor >= 2, "Parsnip reports at least Vulkan 1.2");

        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut v12);
        if minor >= 3 {
            f2 = f2.push_next(&mut v13);
        }
        instance.get_physical_device_features2(physical, &mut f2);
        let core = f2.features;
        assert_eq!(core.robust_buffer_access, vk::TRUE);
        assert_eq!(v11.multiview, vk::TRUE, "Vulkan 1.1 requires multiview");
        assert_eq!(missing(required_by_1_2(&v12)), Vec::<&str>::new());
        if v12.descriptor_indexing == vk::TRUE {
            assert_eq!(
                missing(required_by_descriptor_indexing(&core, &v12)),
                Vec::<&str>::new()
            );
        }

        let mut p11 = vk::PhysicalDeviceVulkan11Properties::default();
        let mut p12 = vk::PhysicalDeviceVulkan12Properties::default();
        let mut p13 = vk::PhysicalDeviceVulkan13Properties::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut p11)
            .push_next(&mut p12);
        if minor >= 3 {
            p2 = p2.push_next(&mut p13);
        }
        instance.get_physical_device_properties2(physical, &mut p2);
        // Vulkan 1.1's subgroup minimum: 1 lane, compute stages, basic ops.
        assert!(p11.subgroup_size >= 1);
        assert!(p11
            .subgroup_supported_stages
            .contains(vk::ShaderStageFlags::COMPUTE));
        assert!(p11
            .subgroup_supported_operations
            .contains(vk::SubgroupFeatureFlags::BASIC));

        if minor >= 3 {
            assert_eq!(missing(required_by_1_3(&v12, &v13)), Vec::<&str>::new());
            // The spec's required limits for 1.3.
            assert!(p13.max_inline_uniform_block_size >= 256);
            assert!(p13.max_per_stage_descriptor_inline_uniform_blocks >= 4);
            assert!(p13.max_descriptor_set_inline_uniform_blocks >= 4);
            assert!(p13.max_inline_uniform_total_size >= 256);
            assert!(p13.max_buffer_size >= 1 << 30);
            assert!(p13.min_subgroup_size >= 1);
            assert!(p13.max_subgroup_size >= p13.min_subgroup_size);
            assert!(p13.min_subgroup_size.is_power_of_two());
            assert!(p13.max_subgroup_size.is_power_of_two());
            assert!(
                (p13.min_subgroup_size..=p13.max_subgroup_size).contains(&p11.subgroup_size),
                "the default subgroup size lies between the sizes offered"
            );
            assert!(p13
                .required_subgroup_size_stages
                .contains(vk::ShaderStageFlags::COMPUTE));
            // Enabling every mandatory 1.3 feature at once is accepted.
            let priorities = [1.0];
            let queues = [vk::DeviceQueueCreateInfo::default().queue_priorities(&priorities)];
            let mut enable = v13;
            enable.p_next = std::ptr::null_mut();
            enable.texture_compression_astc_hdr = vk::FALSE;
            let info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queues)
                .push_next(&mut enable);
            let device = instance
                .create_device(physical, &info, None)
                .expect("a device with every mandatory Vulkan 1.3 feature");
            device.destroy_device(None);
        }
    }
}
