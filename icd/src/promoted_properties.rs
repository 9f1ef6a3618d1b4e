//! The Vulkan 1.2 and 1.3 properties structures and the property
//! structures of the extensions they promoted (driver properties, float
//! controls' values, descriptor indexing limits, depth/stencil resolve,
//! min/max filtering; subgroup sizes, inline uniform blocks, texel buffer
//! alignment, integer dot products), each from one source so that the core
//! structures and the extension ones agree.

use std::ffi::c_void;

use ash::vk;
use ash::vk::TaggedStructure;
use parsnip_driver::limits::{
    INLINE_UNIFORM_BLOCKS, MAX_DESCRIPTORS_PER_SET, MAX_DYNAMIC_STORAGE_BUFFERS,
    MAX_DYNAMIC_UNIFORM_BUFFERS, TEXEL_BUFFER_ALIGNMENT,
};
use parsnip_driver::physical_device::PhysicalDevice;

use crate::ffi;

/// Parsnip has no driver ID in the Khronos registry (`VkDriverId`): it
/// reports a value the registry does not assign, so that no application
/// takes it for another driver and applies that driver's workarounds.
pub const DRIVER_ID: vk::DriverId = vk::DriverId::from_raw(0x5143_0001);

pub const DRIVER_NAME: &str = "Parsnip";

/// The float-control execution modes offered: none. The compiler refuses
/// DenormPreserve, DenormFlushToZero, SignedZeroInfNanPreserve and the
/// rounding-mode execution modes, so every flag is false and the
/// independence NONE (which `Default` gives).
pub fn float_controls() -> vk::PhysicalDeviceFloatControlsProperties<'static> {
    vk::PhysicalDeviceFloatControlsProperties {
        denorm_behavior_independence: vk::ShaderFloatControlsIndependence::NONE,
        rounding_mode_independence: vk::ShaderFloatControlsIndependence::NONE,
        ..Default::default()
    }
}

/// The descriptor-indexing limits. A set updated after bind is an ordinary
/// set (the GPU reads its descriptors from the set's memory when the work
/// runs), so its limits are those of ordinary sets, which the specification
/// requires them to be at least. A storage or uniform buffer descriptor
/// written after bind carries its range as any other, which the hardware
/// bounds-checks, so robustBufferAccess holds for it. No non-uniform index
/// is reported native: the compiler has not been checked against the
/// hardware for every kind.
fn descriptor_indexing(
    pd: &PhysicalDevice,
) -> vk::PhysicalDeviceDescriptorIndexingProperties<'static> {
    let l = pd.properties().limits;
    vk::PhysicalDeviceDescriptorIndexingProperties {
        max_update_after_bind_descriptors_in_all_pools: MAX_DESCRIPTORS_PER_SET,
        shader_uniform_buffer_array_non_uniform_indexing_native: vk::FALSE,
        shader_sampled_image_array_non_uniform_indexing_native: vk::FALSE,
        shader_storage_buffer_array_non_uniform_indexing_native: vk::FALSE,
        shader_storage_image_array_non_uniform_indexing_native: vk::FALSE,
        shader_input_attachment_array_non_uniform_indexing_native: vk::FALSE,
        robust_buffer_access_update_after_bind: vk::TRUE,
        quad_divergent_implicit_lod: vk::FALSE,
        max_per_stage_descriptor_update_after_bind_samplers: l.max_per_stage_descriptor_samplers,
        max_per_stage_descriptor_update_after_bind_uniform_buffers: l
            .max_per_stage_descriptor_uniform_buffers,
        max_per_stage_descriptor_update_after_bind_storage_buffers: l
            .max_per_stage_descriptor_storage_buffers,
        max_per_stage_descriptor_update_after_bind_sampled_images: l
            .max_per_stage_descriptor_sampled_images,
        max_per_stage_descriptor_update_after_bind_storage_images: l
            .max_per_stage_descriptor_storage_images,
        max_per_stage_descriptor_update_after_bind_input_attachments: l
            .max_per_stage_descriptor_input_attachments,
        max_per_stage_update_after_bind_resources: l.max_per_stage_resources,
        max_descriptor_set_update_after_bind_samplers: l.max_descriptor_set_samplers,
        max_descriptor_set_update_after_bind_uniform_buffers: l.max_descriptor_set_uniform_buffers,
        max_descriptor_set_update_after_bind_uniform_buffers_dynamic: MAX_DYNAMIC_UNIFORM_BUFFERS,
        max_descriptor_set_update_after_bind_storage_buffers: l.max_descriptor_set_storage_buffers,
        max_descriptor_set_update_after_bind_storage_buffers_dynamic: MAX_DYNAMIC_STORAGE_BUFFERS,
        max_descriptor_set_update_after_bind_sampled_images: l.max_descriptor_set_sampled_images,
        max_descriptor_set_update_after_bind_storage_images: l.max_descriptor_set_storage_images,
        max_descriptor_set_update_after_bind_input_attachments: l
            .max_descriptor_set_input_attachments,
        ..Default::default()
    }
}

/// Depth/stencil resolve: SAMPLE_ZERO, which Vulkan 1.2 requires. Every
/// attachment is single-sampled (the framebuffer sample counts are 1), so
/// no render pass can ask for a resolve and none is refused for its mode.
fn depth_stencil_resolve() -> vk::PhysicalDeviceDepthStencilResolveProperties<'static> {
    vk::PhysicalDeviceDepthStencilResolveProperties {
        supported_depth_resolve_modes: vk::ResolveModeFlags::SAMPLE_ZERO,
        supported_stencil_resolve_modes: vk::ResolveModeFlags::SAMPLE_ZERO,
        independent_resolve_none: vk::FALSE,
        independent_resolve: vk::FALSE,
        ..Default::default()
    }
}

/// The driver's identity (`VkPhysicalDeviceDriverProperties`). It has not
/// passed the Khronos conformance tests: conformanceVersion is 0.0.0.0.
fn driver(p: &mut vk::PhysicalDeviceDriverProperties<'_>) {
    p.driver_id = DRIVER_ID;
    ffi::copy_str(&mut p.driver_name, DRIVER_NAME);
    ffi::copy_str(
        &mut p.driver_info,
        &format!("Parsnip {}", env!("CARGO_PKG_VERSION")),
    );
    p.conformance_version = vk::ConformanceVersion::default();
}

/// Inline uniform blocks (`limits::INLINE_UNIFORM_BLOCKS`).
fn inline_uniform_block() -> vk::PhysicalDeviceInlineUniformBlockProperties<'static> {
    let l = INLINE_UNIFORM_BLOCKS;
    vk::PhysicalDeviceInlineUniformBlockProperties {
        max_inline_uniform_block_size: l.max_block_size,
        max_per_stage_descriptor_inline_uniform_blocks: l.max_blocks,
        max_per_stage_descriptor_update_after_bind_inline_uniform_blocks: l.max_blocks,
        max_descriptor_set_inline_uniform_blocks: l.max_blocks,
        max_descriptor_set_update_after_bind_inline_uniform_blocks: l.max_blocks,
        ..Default::default()
    }
}

/// Texel buffer views' offsets (`limits::TEXEL_BUFFER_ALIGNMENT`).
fn texel_buffer_alignment() -> vk::PhysicalDeviceTexelBufferAlignmentProperties<'static> {
    let t = TEXEL_BUFFER_ALIGNMENT;
    vk::PhysicalDeviceTexelBufferAlignmentProperties {
        storage_texel_buffer_offset_alignment_bytes: t.alignment_bytes,
        storage_texel_buffer_offset_single_texel_alignment: vk::Bool32::from(t.single_texel),
        uniform_texel_buffer_offset_alignment_bytes: t.alignment_bytes,
        uniform_texel_buffer_offset_single_texel_alignment: vk::Bool32::from(t.single_texel),
        ..Default::default()
    }
}

/// `VkPhysicalDeviceVulkan13Properties`, from the same sources as the
/// structures of the extensions it gathers. No integer dot product is
/// accelerated (the compiler lowers every form to multiplies and adds), so
/// every one of those flags is false, as `Default` gives.
fn vulkan13(pd: &PhysicalDevice) -> vk::PhysicalDeviceVulkan13Properties<'static> {
    let g = pd.subgroup_size_control();
    let i = inline_uniform_block();
    let t = texel_buffer_alignment();
    vk::PhysicalDeviceVulkan13Properties {
        min_subgroup_size: g.min_subgroup_size,
        max_subgroup_size: g.max_subgroup_size,
        max_compute_workgroup_subgroups: g.max_compute_workgroup_subgroups,
        required_subgroup_size_stages: g.required_subgroup_size_stages,
        max_inline_uniform_block_size: i.max_inline_uniform_block_size,
        max_per_stage_descriptor_inline_uniform_blocks: i
            .max_per_stage_descriptor_inline_uniform_blocks,
        max_per_stage_descriptor_update_after_bind_inline_uniform_blocks: i
            .max_per_stage_descriptor_update_after_bind_inline_uniform_blocks,
        max_descriptor_set_inline_uniform_blocks: i.max_descriptor_set_inline_uniform_blocks,
        max_descriptor_set_update_after_bind_inline_uniform_blocks: i
            .max_descriptor_set_update_after_bind_inline_uniform_blocks,
        max_inline_uniform_total_size: INLINE_UNIFORM_BLOCKS.max_total_size,
        storage_texel_buffer_offset_alignment_bytes: t.storage_texel_buffer_offset_alignment_bytes,
        storage_texel_buffer_offset_single_texel_alignment: t
            .storage_texel_buffer_offset_single_texel_alignment,
        uniform_texel_buffer_offset_alignment_bytes: t.uniform_texel_buffer_offset_alignment_bytes,
        uniform_texel_buffer_offset_single_texel_alignment: t
            .uniform_texel_buffer_offset_single_texel_alignment,
        // vkCreateBuffer takes any size up to the heap (maintenance4).
        max_buffer_size: pd.memory.heap_size,
        ..Default::default()
    }
}

/// Copies the members two structures share, by name.
macro_rules! copy_members {
    ($dst:expr, $src:expr, [$($field:ident),* $(,)?]) => {
        $( $dst.$field = $src.$field; )*
    };
}

/// Fills the structure at `ptr`, of type `ty`, if it is one of these;
/// whether it was.
///
/// # Safety
/// `ptr` points at a writable structure of the type `ty` names.
pub unsafe fn fill(ty: vk::StructureType, ptr: *mut c_void, pd: &PhysicalDevice) -> bool {
    // SAFETY (every cast below): the caller's promise; `ty` names the type.
    if ty == vk::PhysicalDeviceDriverProperties::STRUCTURE_TYPE {
        driver(unsafe { &mut *ptr.cast::<vk::PhysicalDeviceDriverProperties<'_>>() });
    } else if ty == vk::PhysicalDeviceFloatControlsProperties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceFloatControlsProperties<'_>>() };
        *s = vk::PhysicalDeviceFloatControlsProperties {
            p_next: s.p_next,
            ..float_controls()
        };
    } else if ty == vk::PhysicalDeviceDescriptorIndexingProperties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceDescriptorIndexingProperties<'_>>() };
        *s = vk::PhysicalDeviceDescriptorIndexingProperties {
            p_next: s.p_next,
            ..descriptor_indexing(pd)
        };
    } else if ty == vk::PhysicalDeviceDepthStencilResolveProperties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceDepthStencilResolveProperties<'_>>() };
        *s = vk::PhysicalDeviceDepthStencilResolveProperties {
            p_next: s.p_next,
            ..depth_stencil_resolve()
        };
    } else if ty == vk::PhysicalDeviceSubgroupSizeControlProperties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceSubgroupSizeControlProperties<'_>>() };
        *s = vk::PhysicalDeviceSubgroupSizeControlProperties {
            p_next: s.p_next,
            ..pd.subgroup_size_control()
        };
    } else if ty == vk::PhysicalDeviceShaderIntegerDotProductProperties::STRUCTURE_TYPE {
        // No form is accelerated: the compiler does not select dp4acc or
        // dp2acc, and lowers every dot product to multiplies and adds.
        let s =
            unsafe { &mut *ptr.cast::<vk::PhysicalDeviceShaderIntegerDotProductProperties<'_>>() };
        *s = vk::PhysicalDeviceShaderIntegerDotProductProperties {
            p_next: s.p_next,
            ..Default::default()
        };
    } else if ty == vk::PhysicalDeviceSamplerFilterMinmaxProperties::STRUCTURE_TYPE {
        // samplerFilterMinmax is not offered.
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceSamplerFilterMinmaxProperties<'_>>() };
        s.filter_minmax_single_component_formats = vk::FALSE;
        s.filter_minmax_image_component_mapping = vk::FALSE;
    } else if ty == vk::PhysicalDeviceInlineUniformBlockProperties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceInlineUniformBlockProperties<'_>>() };
        *s = vk::PhysicalDeviceInlineUniformBlockProperties {
            p_next: s.p_next,
            ..inline_uniform_block()
        };
    } else if ty == vk::PhysicalDeviceTexelBufferAlignmentProperties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceTexelBufferAlignmentProperties<'_>>() };
        *s = vk::PhysicalDeviceTexelBufferAlignmentProperties {
            p_next: s.p_next,
            ..texel_buffer_alignment()
        };
    } else if ty == vk::PhysicalDeviceVulkan13Properties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceVulkan13Properties<'_>>() };
        *s = vk::PhysicalDeviceVulkan13Properties {
            p_next: s.p_next,
            ..vulkan13(pd)
        };
    } else if ty == vk::PhysicalDeviceVulkan12Properties::STRUCTURE_TYPE {
        let s = unsafe { &mut *ptr.cast::<vk::PhysicalDeviceVulkan12Properties<'_>>() };
        let mut d = vk::PhysicalDeviceDriverProperties::default();
        driver(&mut d);
        copy_members!(
            s,
            d,
            [driver_id, driver_name, driver_info, conformance_version]
        );
        let f = float_controls();
        copy_members!(
            s,
            f,
            [
                denorm_behavior_independence,
                rounding_mode_independence,
                shader_signed_zero_inf_nan_preserve_float16,
                shader_signed_zero_inf_nan_preserve_float32,
                shader_signed_zero_inf_nan_preserve_float64,
                shader_denorm_preserve_float16,
                shader_denorm_preserve_float32,
                shader_denorm_preserve_float64,
                shader_denorm_flush_to_zero_float16,
                shader_denorm_flush_to_zero_float32,
                shader_denorm_flush_to_zero_float64,
                shader_rounding_mode_rte_float16,
                shader_rounding_mode_rte_float32,
                shader_rounding_mode_rte_float64,
                shader_rounding_mode_rtz_float16,
                shader_rounding_mode_rtz_float32,
                shader_rounding_mode_rtz_float64,
            ]
        );
        let i = descriptor_indexing(pd);
        copy_members!(
            s,
            i,
            [
                max_update_after_bind_descriptors_in_all_pools,
                shader_uniform_buffer_array_non_uniform_indexing_native,
                shader_sampled_image_array_non_uniform_indexing_native,
                shader_storage_buffer_array_non_uniform_indexing_native,
                shader_storage_image_array_non_uniform_indexing_native,
                shader_input_attachment_array_non_uniform_indexing_native,
                robust_buffer_access_update_after_bind,
                quad_divergent_implicit_lod,
                max_per_stage_descriptor_update_after_bind_samplers,
                max_per_stage_descriptor_update_after_bind_uniform_buffers,
                max_per_stage_descriptor_update_after_bind_storage_buffers,
                max_per_stage_descriptor_update_after_bind_sampled_images,
                max_per_stage_descriptor_update_after_bind_storage_images,
                max_per_stage_descriptor_update_after_bind_input_attachments,
                max_per_stage_update_after_bind_resources,
                max_descriptor_set_update_after_bind_samplers,
                max_descriptor_set_update_after_bind_uniform_buffers,
                max_descriptor_set_update_after_bind_uniform_buffers_dynamic,
                max_descriptor_set_update_after_bind_storage_buffers,
                max_descriptor_set_update_after_bind_storage_buffers_dynamic,
                max_descriptor_set_update_after_bind_sampled_images,
                max_descriptor_set_update_after_bind_storage_images,
                max_descriptor_set_update_after_bind_input_attachments,
            ]
        );
        let r = depth_stencil_resolve();
        copy_members!(
            s,
            r,
            [
                supported_depth_resolve_modes,
                supported_stencil_resolve_modes,
                independent_resolve_none,
                independent_resolve,
            ]
        );
        s.filter_minmax_single_component_formats = vk::FALSE;
        s.filter_minmax_image_component_mapping = vk::FALSE;
        s.max_timeline_semaphore_value_difference = MAX_TIMELINE_SEMAPHORE_VALUE_DIFFERENCE;
        // Integer colour attachments have the sample counts of any other.
        s.framebuffer_integer_color_sample_counts =
            pd.properties().limits.framebuffer_color_sample_counts;
    } else {
        return false;
    }
    true
}

/// Timeline values are 64-bit counters compared in full.
pub const MAX_TIMELINE_SEMAPHORE_VALUE_DIFFERENCE: u64 = u64::MAX;
