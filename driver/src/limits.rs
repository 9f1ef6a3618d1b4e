//! `VkPhysicalDeviceLimits`, and the driver-wide constants they come from.
//!
//! Compute limits follow from the hardware (catalogue facts and register
//! field widths in a6xx.xml); the graphics-only limits are the values
//! Turnip reports for these GPUs, since they describe the same hardware,
//! even though this driver does not have the graphics path yet.

use ash::vk;

use crate::gpu_info::GpuInfo;
use crate::image::multisample;

/// Descriptor sets a pipeline may bind. The hardware has 5 bindless bases
/// on a6xx (SP_BINDLESS_BASE[0..5], a6xx.xml); one is kept for the driver's
/// internal shaders, as Turnip keeps one for dynamic descriptors.
pub const MAX_SETS: u32 = 4;
/// The bindless base the driver's internal shaders use, past the
/// application's sets.
pub const INTERNAL_SET: u32 = MAX_SETS;
/// Descriptors a push descriptor layout may hold (`maxPushDescriptors`):
/// 32, what Turnip reports (the spec's minimum).
pub const MAX_PUSH_DESCRIPTORS: u32 = 32;
/// Push constant bytes: 128, the Vulkan minimum, uploaded to the const file.
pub const MAX_PUSH_CONSTANTS_SIZE: u32 = 128;
/// A UBO is read through its 64-byte descriptor, whose SIZE field counts
/// vec4s; 64 KiB is what Turnip offers.
pub const MAX_UNIFORM_BUFFER_RANGE: u32 = 1 << 16;
/// A storage buffer descriptor counts elements in 15+15 bits
/// (TEX_CONST WIDTH and HEIGHT, a6xx.xml); 128 MiB as Turnip.
pub const MAX_STORAGE_BUFFER_RANGE: u32 = 1 << 27;
/// Texel buffer elements: the same descriptor fields.
pub const MAX_TEXEL_BUFFER_ELEMENTS: u32 = 1 << 27;
/// Dynamic uniform and storage buffers per pipeline layout.
pub const MAX_DYNAMIC_UNIFORM_BUFFERS: u32 = 16;
pub const MAX_DYNAMIC_STORAGE_BUFFERS: u32 = 8;
/// Descriptors of one set (and of one stage): bounded only by memory on
/// bindless hardware; this keeps a set's size within 64 MiB.
pub const MAX_DESCRIPTORS_PER_SET: u32 = 1 << 20;
/// Bytes of one descriptor: every kind takes a 16-dword slot, the size
/// SP_BINDLESS_BASE's BINDLESS_DESCRIPTOR_64B selects.
pub const DESCRIPTOR_SIZE: u64 = 64;
/// Buffer offsets in descriptors and views must be multiples of this: the
/// descriptors hold base addresses with their low bits dropped.
pub const MIN_BUFFER_OFFSET_ALIGNMENT: u64 = 64;
/// The limits of inline uniform blocks (VK_EXT_inline_uniform_block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InlineUniformBlockLimits {
    /// Bytes of one block.
    pub max_block_size: u32,
    /// Blocks per stage and per set.
    pub max_blocks: u32,
    /// Bytes of all the blocks of a pipeline layout.
    pub max_total_size: u32,
}

/// What Turnip offers: blocks of up to 256 bytes, four per stage and set
/// (descriptor/inline_block.rs keeps each in its set's memory).
pub const INLINE_UNIFORM_BLOCKS: InlineUniformBlockLimits = InlineUniformBlockLimits {
    max_block_size: 256,
    max_blocks: 4,
    max_total_size: 4 * 256,
};

/// How texel buffer views' offsets must be aligned
/// (VK_EXT_texel_buffer_alignment), for uniform and storage texel buffers
/// alike: they are the same descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelBufferAlignment {
    pub alignment_bytes: u64,
    /// Whether an offset that is a multiple of the texel's size is enough.
    pub single_texel: bool,
}

/// A view's descriptor holds a 64-byte aligned base address and the texels
/// from there to the view's first (STARTOFFSETTEXELS), so an offset that
/// is a multiple of the texel is enough, as Turnip reports.
pub const TEXEL_BUFFER_ALIGNMENT: TexelBufferAlignment = TexelBufferAlignment {
    alignment_bytes: MIN_BUFFER_OFFSET_ALIGNMENT,
    single_texel: true,
};
/// Valid bits of a timestamp, as Turnip reports for the CP's always-on
/// counter.
pub const TIMESTAMP_VALID_BITS: u32 = 48;
/// Workgroups per dispatch in each dimension.
pub const MAX_WORKGROUP_COUNT: u32 = 65535;
/// Workgroup size in each dimension.
pub const MAX_WORKGROUP_SIZE: [u32; 3] = [1024, 1024, 64];
/// Memory allocations: BOs are kernel objects with no fixed limit.
pub const MAX_MEMORY_ALLOCATION_COUNT: u32 = u32::MAX;
/// Framebuffer width and height, and layers (what Turnip reports).
pub const MAX_FRAMEBUFFER_SIZE: u32 = 1 << 14;
pub const MAX_FRAMEBUFFER_LAYERS: u32 = 1 << 10;
/// Views of a multiview render pass, and the largest instance index a
/// multiview draw may reach: Turnip's MAX_VIEWS (16) and INT32_MAX.
pub const MAX_MULTIVIEW_VIEW_COUNT: u32 = 16;
pub const MAX_MULTIVIEW_INSTANCE_INDEX: u32 = i32::MAX as u32;

pub fn limits(gpu: &GpuInfo) -> vk::PhysicalDeviceLimits {
    let per_set = MAX_DESCRIPTORS_PER_SET;
    vk::PhysicalDeviceLimits {
        max_image_dimension1_d: 1 << 14,
        max_image_dimension2_d: 1 << 14,
        max_image_dimension3_d: 1 << 11,
        max_image_dimension_cube: 1 << 14,
        max_image_array_layers: 1 << 11,
        max_texel_buffer_elements: MAX_TEXEL_BUFFER_ELEMENTS,
        max_uniform_buffer_range: MAX_UNIFORM_BUFFER_RANGE,
        max_storage_buffer_range: MAX_STORAGE_BUFFER_RANGE,
        max_push_constants_size: MAX_PUSH_CONSTANTS_SIZE,
        max_memory_allocation_count: MAX_MEMORY_ALLOCATION_COUNT,
        max_sampler_allocation_count: 64 * 1024,
        buffer_image_granularity: 64,
        sparse_address_space_size: 0,
        max_bound_descriptor_sets: MAX_SETS,
        max_per_stage_descriptor_samplers: per_set,
        max_per_stage_descriptor_uniform_buffers: per_set,
        max_per_stage_descriptor_storage_buffers: per_set,
        max_per_stage_descriptor_sampled_images: per_set,
        max_per_stage_descriptor_storage_images: per_set,
        max_per_stage_descriptor_input_attachments: 8,
        max_per_stage_resources: per_set,
        max_descriptor_set_samplers: per_set,
        max_descriptor_set_uniform_buffers: per_set,
        max_descriptor_set_uniform_buffers_dynamic: MAX_DYNAMIC_UNIFORM_BUFFERS,
        max_descriptor_set_storage_buffers: per_set,
        max_descriptor_set_storage_buffers_dynamic: MAX_DYNAMIC_STORAGE_BUFFERS,
        max_descriptor_set_sampled_images: per_set,
        max_descriptor_set_storage_images: per_set,
        max_descriptor_set_input_attachments: 8,
        max_vertex_input_attributes: 32,
        max_vertex_input_bindings: 32,
        max_vertex_input_attribute_offset: 4095,
        max_vertex_input_binding_stride: 2048,
        max_vertex_output_components: 128,
        max_tessellation_generation_level: 64,
        max_tessellation_patch_size: 32,
        max_tessellation_control_per_vertex_input_components: 128,
        max_tessellation_control_per_vertex_output_components: 128,
        max_tessellation_control_per_patch_output_components: 120,
        max_tessellation_control_total_output_components: 4096,
        max_tessellation_evaluation_input_components: 128,
        max_tessellation_evaluation_output_components: 128,
        max_geometry_shader_invocations: 32,
        max_geometry_input_components: 64,
        max_geometry_output_components: 128,
        max_geometry_output_vertices: 256,
        max_geometry_total_output_components: 1024,
        max_fragment_input_components: 124,
        max_fragment_output_attachments: 8,
        max_fragment_dual_src_attachments: 1,
        max_fragment_combined_output_resources: 8 + per_set * 2,
        max_compute_shared_memory_size: gpu.shared_memory_bytes(),
        max_compute_work_group_count: [MAX_WORKGROUP_COUNT; 3],
        max_compute_work_group_invocations: gpu.max_workgroup_invocations(),
        max_compute_work_group_size: MAX_WORKGROUP_SIZE,
        sub_pixel_precision_bits: 8,
        sub_texel_precision_bits: 8,
        mipmap_precision_bits: 8,
        max_draw_indexed_index_value: u32::MAX,
        max_draw_indirect_count: u32::MAX,
        max_sampler_lod_bias: 4095.0 / 256.0,
        max_sampler_anisotropy: 16.0,
        max_viewports: 16,
        max_viewport_dimensions: [1 << 14, 1 << 14],
        viewport_bounds_range: [i16::MIN as f32, i16::MAX as f32],
        viewport_sub_pixel_bits: 8,
        min_memory_map_alignment: 4096,
        min_texel_buffer_offset_alignment: MIN_BUFFER_OFFSET_ALIGNMENT,
        min_uniform_buffer_offset_alignment: MIN_BUFFER_OFFSET_ALIGNMENT,
        min_storage_buffer_offset_alignment: MIN_BUFFER_OFFSET_ALIGNMENT,
        min_texel_offset: -16,
        max_texel_offset: 15,
        min_texel_gather_offset: -32,
        max_texel_gather_offset: 31,
        min_interpolation_offset: -0.5,
        max_interpolation_offset: 0.4375,
        sub_pixel_interpolation_offset_bits: 4,
        max_framebuffer_width: MAX_FRAMEBUFFER_SIZE,
        max_framebuffer_height: MAX_FRAMEBUFFER_SIZE,
        max_framebuffer_layers: MAX_FRAMEBUFFER_LAYERS,
        // What `image::multisample` creates and pipelines rasterize
        // (Turnip's 1, 2 and 4); shaders read no multisampled images.
        framebuffer_color_sample_counts: multisample::SAMPLE_COUNTS,
        framebuffer_depth_sample_counts: multisample::SAMPLE_COUNTS,
        framebuffer_stencil_sample_counts: multisample::SAMPLE_COUNTS,
        framebuffer_no_attachments_sample_counts: vk::SampleCountFlags::TYPE_1,
        max_color_attachments: 8,
        sampled_image_color_sample_counts: vk::SampleCountFlags::TYPE_1,
        sampled_image_integer_sample_counts: vk::SampleCountFlags::TYPE_1,
        sampled_image_depth_sample_counts: vk::SampleCountFlags::TYPE_1,
        sampled_image_stencil_sample_counts: vk::SampleCountFlags::TYPE_1,
        storage_image_sample_counts: vk::SampleCountFlags::TYPE_1,
        max_sample_mask_words: 1,
        timestamp_compute_and_graphics: vk::TRUE,
        timestamp_period: gpu.timestamp_period_ns(),
        max_clip_distances: 8,
        max_cull_distances: 8,
        max_combined_clip_and_cull_distances: 8,
        discrete_queue_priorities: 2,
        point_size_range: [1.0, 4092.0],
        line_width_range: [1.0, 1.0],
        point_size_granularity: 0.0625,
        line_width_granularity: 0.0,
        strict_lines: vk::FALSE,
        standard_sample_locations: vk::TRUE,
        optimal_buffer_copy_offset_alignment: 128,
        optimal_buffer_copy_row_pitch_alignment: 128,
        non_coherent_atom_size: 64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_registers::gpu;

    #[test]
    fn compute_limits_meet_the_vulkan_minimums_and_follow_the_catalogue() {
        for entry in gpu::GPUS {
            let g = GpuInfo::new(entry, u64::from(entry.kernel_chip_id), 19_200_000);
            let l = limits(&g);
            // Vulkan 1.1's required minimums (Table "Required Limits").
            assert!(l.max_compute_shared_memory_size >= 16384);
            assert!(l.max_compute_work_group_invocations >= 128);
            assert!(l.max_compute_work_group_count.iter().all(|&c| c >= 65535));
            assert!(l.max_compute_work_group_size[0] >= 128);
            assert!(l.max_compute_work_group_size[2] >= 64);
            assert!(l.max_push_constants_size >= 128);
            assert!(l.max_bound_descriptor_sets >= 4);
            assert!(l.max_uniform_buffer_range >= 16384);
            assert!(l.max_storage_buffer_range >= 1 << 27);
            assert!(l.min_storage_buffer_offset_alignment <= 256);
            assert_eq!(l.max_compute_shared_memory_size, entry.cs_shared_mem_bytes);
        }
    }
}
