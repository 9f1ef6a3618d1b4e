//! The features beyond Vulkan 1.0's structure, and checking the features an
//! application enables against those offered.

use ash::vk;

/// Declares [`ExtraFeatures`]: one flag per member of the promoted and
/// extension feature structures, with the name the spec gives it.
macro_rules! extra_features {
    ($($field:ident: $name:literal,)*) => {
        /// Features beyond `VkPhysicalDeviceFeatures`: the members of
        /// Vulkan 1.1's feature structures and of the extensions' ones.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct ExtraFeatures {
            $(pub $field: bool,)*
        }

        impl ExtraFeatures {
            /// Every feature as `(spec name, enabled)`.
            pub fn list(&self) -> Vec<(&'static str, bool)> {
                vec![$(($name, self.$field),)*]
            }
        }
    };
}

extra_features! {
    storage_buffer16_bit_access: "storageBuffer16BitAccess",
    uniform_and_storage_buffer16_bit_access: "uniformAndStorageBuffer16BitAccess",
    storage_push_constant16: "storagePushConstant16",
    storage_input_output16: "storageInputOutput16",
    multiview: "multiview",
    multiview_geometry_shader: "multiviewGeometryShader",
    multiview_tessellation_shader: "multiviewTessellationShader",
    variable_pointers_storage_buffer: "variablePointersStorageBuffer",
    variable_pointers: "variablePointers",
    protected_memory: "protectedMemory",
    sampler_ycbcr_conversion: "samplerYcbcrConversion",
    shader_draw_parameters: "shaderDrawParameters",
    timeline_semaphore: "timelineSemaphore",
    synchronization2: "synchronization2",
    host_query_reset: "hostQueryReset",
    pipeline_executable_info: "pipelineExecutableInfo",
    shader_float16: "shaderFloat16",
    shader_int8: "shaderInt8",
    scalar_block_layout: "scalarBlockLayout",
    buffer_device_address: "bufferDeviceAddress",
    buffer_device_address_capture_replay: "bufferDeviceAddressCaptureReplay",
    buffer_device_address_multi_device: "bufferDeviceAddressMultiDevice",
    extended_dynamic_state: "extendedDynamicState",
    extended_dynamic_state2: "extendedDynamicState2",
    extended_dynamic_state2_logic_op: "extendedDynamicState2LogicOp",
    extended_dynamic_state2_patch_control_points: "extendedDynamicState2PatchControlPoints",
    private_data: "privateData",
    maintenance4: "maintenance4",
    // The rest of VkPhysicalDeviceVulkan12Features.
    sampler_mirror_clamp_to_edge: "samplerMirrorClampToEdge",
    draw_indirect_count: "drawIndirectCount",
    storage_buffer8_bit_access: "storageBuffer8BitAccess",
    uniform_and_storage_buffer8_bit_access: "uniformAndStorageBuffer8BitAccess",
    storage_push_constant8: "storagePushConstant8",
    shader_buffer_int64_atomics: "shaderBufferInt64Atomics",
    shader_shared_int64_atomics: "shaderSharedInt64Atomics",
    descriptor_indexing: "descriptorIndexing",
    shader_input_attachment_array_dynamic_indexing: "shaderInputAttachmentArrayDynamicIndexing",
    shader_uniform_texel_buffer_array_dynamic_indexing:
        "shaderUniformTexelBufferArrayDynamicIndexing",
    shader_storage_texel_buffer_array_dynamic_indexing:
        "shaderStorageTexelBufferArrayDynamicIndexing",
    shader_uniform_buffer_array_non_uniform_indexing: "shaderUniformBufferArrayNonUniformIndexing",
    shader_sampled_image_array_non_uniform_indexing: "shaderSampledImageArrayNonUniformIndexing",
    shader_storage_buffer_array_non_uniform_indexing: "shaderStorageBufferArrayNonUniformIndexing",
    shader_storage_image_array_non_uniform_indexing: "shaderStorageImageArrayNonUniformIndexing",
    shader_input_attachment_array_non_uniform_indexing:
        "shaderInputAttachmentArrayNonUniformIndexing",
    shader_uniform_texel_buffer_array_non_uniform_indexing:
        "shaderUniformTexelBufferArrayNonUniformIndexing",
    shader_storage_texel_buffer_array_non_uniform_indexing:
        "shaderStorageTexelBufferArrayNonUniformIndexing",
    descriptor_binding_uniform_buffer_update_after_bind:
        "descriptorBindingUniformBufferUpdateAfterBind",
    descriptor_binding_sampled_image_update_after_bind:
        "descriptorBindingSampledImageUpdateAfterBind",
    descriptor_binding_storage_image_update_after_bind:
        "descriptorBindingStorageImageUpdateAfterBind",
    descriptor_binding_storage_buffer_update_after_bind:
        "descriptorBindingStorageBufferUpdateAfterBind",
    descriptor_binding_uniform_texel_buffer_update_after_bind:
        "descriptorBindingUniformTexelBufferUpdateAfterBind",
    descriptor_binding_storage_texel_buffer_update_after_bind:
        "descriptorBindingStorageTexelBufferUpdateAfterBind",
    descriptor_binding_update_unused_while_pending: "descriptorBindingUpdateUnusedWhilePending",
    descriptor_binding_partially_bound: "descriptorBindingPartiallyBound",
    descriptor_binding_variable_descriptor_count: "descriptorBindingVariableDescriptorCount",
    runtime_descriptor_array: "runtimeDescriptorArray",
    sampler_filter_minmax: "samplerFilterMinmax",
    imageless_framebuffer: "imagelessFramebuffer",
    uniform_buffer_standard_layout: "uniformBufferStandardLayout",
    shader_subgroup_extended_types: "shaderSubgroupExtendedTypes",
    separate_depth_stencil_layouts: "separateDepthStencilLayouts",
    vulkan_memory_model: "vulkanMemoryModel",
    vulkan_memory_model_device_scope: "vulkanMemoryModelDeviceScope",
    vulkan_memory_model_availability_visibility_chains:
        "vulkanMemoryModelAvailabilityVisibilityChains",
    shader_output_viewport_index: "shaderOutputViewportIndex",
    shader_output_layer: "shaderOutputLayer",
    subgroup_broadcast_dynamic_id: "subgroupBroadcastDynamicId",
    shader_zero_initialize_workgroup_memory: "shaderZeroInitializeWorkgroupMemory",
    subgroup_size_control: "subgroupSizeControl",
    compute_full_subgroups: "computeFullSubgroups",
    shader_terminate_invocation: "shaderTerminateInvocation",
    shader_demote_to_helper_invocation: "shaderDemoteToHelperInvocation",
    shader_integer_dot_product: "shaderIntegerDotProduct",
}

impl ExtraFeatures {
    /// The name of the first feature `self` asks for that `offered` does
    /// not have.
    pub fn missing_from(&self, offered: &ExtraFeatures) -> Option<&'static str> {
        self.list()
            .into_iter()
            .zip(offered.list())
            .find(|((_, asked), (_, has))| *asked && !*has)
            .map(|((name, _), _)| name)
    }
}

/// Calls `f` with the name and value of every member of
/// `VkPhysicalDeviceFeatures`, in declaration order.
macro_rules! core_features {
    ($features:expr, $f:expr, [$($name:ident),* $(,)?]) => {{
        let features: &vk::PhysicalDeviceFeatures = $features;
        $( $f(stringify!($name), features.$name); )*
    }};
}

/// Every Vulkan 1.0 feature as `(name, enabled)`.
pub fn core_feature_list(features: &vk::PhysicalDeviceFeatures) -> Vec<(&'static str, bool)> {
    let mut out = Vec::with_capacity(55);
    let mut push = |name: &'static str, value: vk::Bool32| out.push((name, value != vk::FALSE));
    core_features!(
        features,
        push,
        [
            robust_buffer_access,
            full_draw_index_uint32,
            image_cube_array,
            independent_blend,
            geometry_shader,
            tessellation_shader,
            sample_rate_shading,
            dual_src_blend,
            logic_op,
            multi_draw_indirect,
            draw_indirect_first_instance,
            depth_clamp,
            depth_bias_clamp,
            fill_mode_non_solid,
            depth_bounds,
            wide_lines,
            large_points,
            alpha_to_one,
            multi_viewport,
            sampler_anisotropy,
            texture_compression_etc2,
            texture_compression_astc_ldr,
            texture_compression_bc,
            occlusion_query_precise,
            pipeline_statistics_query,
            vertex_pipeline_stores_and_atomics,
            fragment_stores_and_atomics,
            shader_tessellation_and_geometry_point_size,
            shader_image_gather_extended,
            shader_storage_image_extended_formats,
            shader_storage_image_multisample,
            shader_storage_image_read_without_format,
            shader_storage_image_write_without_format,
            shader_uniform_buffer_array_dynamic_indexing,
            shader_sampled_image_array_dynamic_indexing,
            shader_storage_buffer_array_dynamic_indexing,
            shader_storage_image_array_dynamic_indexing,
            shader_clip_distance,
            shader_cull_distance,
            shader_float64,
            shader_int64,
            shader_int16,
            shader_resource_residency,
            shader_resource_min_lod,
            sparse_binding,
            sparse_residency_buffer,
            sparse_residency_image2_d,
            sparse_residency_image3_d,
            sparse_residency2_samples,
            sparse_residency4_samples,
            sparse_residency8_samples,
            sparse_residency16_samples,
            sparse_residency_aliased,
            variable_multisample_rate,
            inherited_queries,
        ]
    );
    out
}

/// A `VkPhysicalDeviceFeatures` member's name as the spec spells it
/// (`shader_float64` is `shaderFloat64`, `sparse_residency_image2_d` is
/// `sparseResidencyImage2D`).
pub fn spec_name(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut upper = false;
    for c in field.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The first feature `asked` enables that `offered` does not have.
pub fn first_missing(
    asked: &vk::PhysicalDeviceFeatures,
    offered: &vk::PhysicalDeviceFeatures,
) -> Option<&'static str> {
    core_feature_list(asked)
        .into_iter()
        .zip(core_feature_list(offered))
        .find(|((_, a), (_, o))| *a && !*o)
        .map(|((name, _), _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_covers_every_member_of_the_structure() {
        // VkPhysicalDeviceFeatures is 55 VkBool32s and nothing else.
        assert_eq!(
            core_feature_list(&vk::PhysicalDeviceFeatures::default()).len() * 4,
            std::mem::size_of::<vk::PhysicalDeviceFeatures>()
        );
    }

    #[test]
    fn a_missing_extra_feature_is_named_as_the_spec_names_it() {
        let offered = ExtraFeatures {
            timeline_semaphore: true,
            multiview: true,
            ..Default::default()
        };
        let asked = ExtraFeatures {
            multiview: true,
            storage_buffer16_bit_access: true,
            ..Default::default()
        };
        assert_eq!(
            asked.missing_from(&offered),
            Some("storageBuffer16BitAccess")
        );
        assert_eq!(offered.missing_from(&offered), None);
    }

    #[test]
    fn a_missing_feature_is_named() {
        let offered = vk::PhysicalDeviceFeatures::default().shader_int64(true);
        let asked = vk::PhysicalDeviceFeatures::default()
            .shader_int64(true)
            .shader_float64(true);
        assert_eq!(first_missing(&asked, &offered), Some("shader_float64"));
        assert_eq!(spec_name("shader_float64"), "shaderFloat64");
        assert_eq!(
            spec_name("sparse_residency_image2_d"),
            "sparseResidencyImage2D"
        );
        assert_eq!(first_missing(&offered, &offered), None);
    }
}
