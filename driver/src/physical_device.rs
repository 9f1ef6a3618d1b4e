//! A physical device: one GPU the kernel interface opened, with everything
//! Vulkan reports about it (properties and limits, features, memory, queue
//! families, formats).

use std::sync::Arc;

use ash::vk;
use parsnip_kernel_if::KernelDevice;

use crate::build_id::derived_uuid;
use crate::debug_flags::DebugFlags;
use crate::extensions::{Extension, DEVICE_EXTENSIONS};
use crate::formats;
use crate::gpu_info::{GpuInfo, QUALCOMM_VENDOR_ID};
use crate::limits;
use crate::memory_types::MemoryLayout;

/// The Vulkan version devices report: 1.3, with the header version this
/// driver was built against as its patch level. Every 1.3 command resolves
/// (icd/tests/registry.rs) and every feature and limit 1.3 requires is
/// offered (icd/tests/version_requirements.rs, the cts's vulkan12 and
/// vulkan13 cases).
pub const API_VERSION: u32 = vk::make_api_version(0, 1, 3, vk::HEADER_VERSION);

/// The driver version: this crate's version, in Vulkan's packing.
pub fn driver_version() -> u32 {
    let part = |s: &str| s.parse::<u32>().unwrap_or(0);
    vk::make_api_version(
        0,
        part(env!("CARGO_PKG_VERSION_MAJOR")),
        part(env!("CARGO_PKG_VERSION_MINOR")),
        part(env!("CARGO_PKG_VERSION_PATCH")),
    )
}

pub use crate::features::ExtraFeatures;

/// The one queue family: compute and transfer. The driver has no graphics
/// pipeline yet, so it does not claim graphics.
pub const QUEUE_FAMILY_COUNT: u32 = 1;
/// Queues in that family: one per kernel submit queue the driver creates.
pub const QUEUES_PER_FAMILY: u32 = 1;

pub struct PhysicalDevice {
    pub kernel: Arc<dyn KernelDevice>,
    pub gpu: GpuInfo,
    pub memory: MemoryLayout,
    pub debug: DebugFlags,
}

impl PhysicalDevice {
    pub fn new(
        kernel: Arc<dyn KernelDevice>,
        gpu: GpuInfo,
        ram: u64,
        debug: DebugFlags,
    ) -> PhysicalDevice {
        let memory = MemoryLayout::new(kernel.info(), ram);
        PhysicalDevice {
            kernel,
            gpu,
            memory,
            debug,
        }
    }

    /// UUID of the driver build (`driverUUID`).
    pub fn driver_uuid(&self) -> [u8; 16] {
        derived_uuid(b"parsnip driver")
    }

    /// UUID of this device under this build (`deviceUUID`).
    pub fn device_uuid(&self) -> [u8; 16] {
        derived_uuid(
            &[
                b"parsnip device ".as_slice(),
                &self.gpu.chip_id.to_le_bytes(),
            ]
            .concat(),
        )
    }

    /// `pipelineCacheUUID`: a cache is only valid for the same build and the
    /// same GPU, since it holds that GPU's machine code.
    pub fn pipeline_cache_uuid(&self) -> [u8; 16] {
        derived_uuid(
            &[
                b"parsnip cache ".as_slice(),
                &self.gpu.chip_id.to_le_bytes(),
            ]
            .concat(),
        )
    }

    /// The header this device's pipeline cache data starts with.
    pub fn pipeline_cache_header(&self) -> crate::pipeline::cache::CacheHeader {
        crate::pipeline::cache::CacheHeader {
            vendor_id: QUALCOMM_VENDOR_ID,
            device_id: self.gpu.device_id(),
            uuid: self.pipeline_cache_uuid(),
            build_id: crate::build_id::build_id(),
            chip_id: self.gpu.chip_id,
        }
    }

    pub fn properties(&self) -> vk::PhysicalDeviceProperties {
        let mut p = vk::PhysicalDeviceProperties {
            api_version: API_VERSION,
            driver_version: driver_version(),
            vendor_id: QUALCOMM_VENDOR_ID,
            device_id: self.gpu.device_id(),
            device_type: vk::PhysicalDeviceType::INTEGRATED_GPU,
            limits: limits::limits(&self.gpu),
            pipeline_cache_uuid: self.pipeline_cache_uuid(),
            sparse_properties: vk::PhysicalDeviceSparseProperties::default(),
            ..Default::default()
        };
        let name = self.gpu.device_name.as_bytes();
        let room = p.device_name.len() - 1;
        for (dst, src) in p.device_name.iter_mut().zip(&name[..name.len().min(room)]) {
            *dst = *src as std::ffi::c_char;
        }
        p
    }

    /// The core features. Only what is implemented and tested is true:
    /// robust buffer access, which every Vulkan version requires: the
    /// driver sizes each buffer descriptor to its range and the hardware
    /// bounds-checks against it (the model does: out-of-range loads give 0,
    /// stores and atomics are dropped, which the robustness rules allow;
    /// the cts's robustness cases check it); 64-bit integers, which the
    /// compiler lowers to 32-bit halves (the cts's arithmetic.int64 case
    /// covers them); and storage texel buffer loads and stores without a
    /// format in the shader: typed `ldib`/`stib` convert through the view's
    /// format in its descriptor (tests/texel_buffers.rs runs every storage
    /// format so); 16-bit integers, in half registers (the compiler's int16
    /// and storage16 tests, the cts's sixteen_bit case); stores and atomics
    /// in vertex and fragment shaders, which bind buffers and images
    /// bindless like compute (fragment shaders that write run late-Z, and
    /// their helper invocations write nothing: the cts's
    /// draws.storage_buffer_in_vertex_shader, _in_fragment_shader and
    /// draws.texel_buffer_and_storage_image_in_fragment_shader); the depth
    /// bounds test, RB_Z_BOUNDS against the stored depth (the cts's
    /// dynamic_state.depth_bounds case). Occlusion queries are exact (the RB
    /// counts every sample that passes, ZPASS_DONE reads the count), so
    /// precise ones are offered, and they may be active while secondaries
    /// run (the count runs across the secondaries' IBs): the cts's
    /// draws.occlusion_query_counts and draws.two_secondaries_and_primary_draws
    /// cases. Indirect draws of several commands: one CP_DRAW_INDIRECT or
    /// CP_DRAW_INDX_INDIRECT per command, `stride` apart (the cts's
    /// draws.multi_draw_indirect case).
    pub fn features(&self) -> vk::PhysicalDeviceFeatures {
        vk::PhysicalDeviceFeatures::default()
            .robust_buffer_access(true)
            .depth_bounds(true)
            .occlusion_query_precise(true)
            .inherited_queries(true)
            .multi_draw_indirect(true)
            .shader_int64(true)
            .shader_int16(true)
            .shader_storage_image_read_without_format(true)
            .shader_storage_image_write_without_format(true)
            // RB_BLEND_CNTL.ALPHA_TO_ONE (pipeline/multisample.rs; the cts's
            // draws.msaa_alpha_to_coverage_and_one case).
            .alpha_to_one(true)
            .fragment_stores_and_atomics(true)
            .vertex_pipeline_stores_and_atomics(true)
            // A register index into an array of storage buffers, sampled or
            // storage images (the cts's descriptor_indexing.* cases).
            .shader_storage_buffer_array_dynamic_indexing(true)
            .shader_sampled_image_array_dynamic_indexing(true)
            .shader_storage_image_array_dynamic_indexing(true)
    }

    /// Multiview, which Vulkan 1.1 requires, is the render pass side:
    /// render passes and framebuffers take view masks (render_pass.rs).
    /// 16-bit storage in storage and uniform buffers and push constants, and
    /// 16-bit float arithmetic (the compiler's lower_narrow_buffer_access and
    /// half registers; not 16-bit shader inputs and outputs, not 8-bit).
    /// The scalar block layout: the compiler reads every member at the
    /// offset the module gives it, in dwords or half dwords, whatever the
    /// layout rules that chose it (the cts's scalar_layout case), so
    /// std430 uniform blocks too (vulkan12.uniform_buffer_standard_layout).
    /// Subgroup broadcasts compare the fiber id with the lane whatever
    /// computes it (vulkan12.subgroup_broadcast_dynamic_id).
    /// Indirect draws with a count in memory: CP_DRAW_INDIRECT_MULTI
    /// (the cts's draws.indirect_count case). Imageless framebuffers:
    /// the views come with each pass instance (framebuffer.rs, the cts's
    /// draws.imageless_framebuffer case). Depth-only and stencil-only
    /// layouts: an image's memory is laid out the same in every layout
    /// (draws.separate_depth_stencil_layouts).
    /// The extended dynamic states (VK_EXT_extended_dynamic_state and the
    /// base of _2; not _2's logic op or patch control points): draws emit
    /// them as groups (cmd/dynamic_state.rs, the cts's draws.dynamic_*
    /// cases). Private data: slots kept on the host (private_data.rs, the
    /// cts's private_data.* cases). Maintenance4: requirements asked from a
    /// create info (the cts's maintenance4.device_requirements), LocalSizeId
    /// (the compiler's spirv/module.rs), pipeline layouts that objects made
    /// from them hold on to. Pipeline creation cache control: a pipeline
    /// the cache does not hold fails instead of compiling when asked (the
    /// cts's pipeline_cache_control.* cases). Texel buffer views at any
    /// multiple of their texel (descriptor/encoding.rs's texel_buffer, the
    /// cts's texel_buffer_alignment.single_texel_offsets). Inline uniform
    /// blocks, not updated after bind (descriptor/inline_block.rs, the
    /// cts's inline_uniform_block.* cases).
    /// Dynamic rendering: a one-subpass pass of the
    /// rendering info (rendering.rs, cmd/rendering.rs), suspended passes
    /// rendered at submit (cmd/pass_chain.rs; the cts's
    /// dynamic_rendering.* cases).
    /// The Vulkan memory model with device scope: the
    /// compiler turns scopes and semantics into `fence`, `bar` and, on a7xx,
    /// `ccinv` as ir3 does (compiler/src/spirv/memory_semantics.rs, the cts's
    /// memory_model.* cases); not availability and visibility chains.
    /// Null-initialised workgroup variables: the compiler zeroes shared
    /// memory at the start of the work group (spirv/shared_zeroing.rs, the
    /// cts's shared_memory.null_initializers). Subgroup size control: a
    /// required size is the compiler's wave size (64 or 128), and waves are
    /// filled in local index order, so full when the application makes x a
    /// multiple of the size (the cts's subgroups.required_sizes).
    /// OpTerminateInvocation is `kill` and an early end; demotion is `kill`
    /// with the fiber running on as a helper that derivatives see (the
    /// cts's draws.terminate_and_demote). Integer dot products: every
    /// form as integer arithmetic (the compiler's spirv/integer_dot.rs, the
    /// cts's integer_dot.all_forms), none accelerated. Descriptor indexing
    /// of storage buffers: runtime arrays sized by the layout, per-fiber
    /// indices (the `.nonuniform` bindless mode), sets read by the GPU from
    /// their memory when the work runs (so updated after bind, or while
    /// pending where unused), unwritten elements left as zeros, and a
    /// variable count binding allocated at the size asked
    /// (descriptor/set_layout.rs; the cts's
    /// descriptor_indexing.nonuniform_storage_buffers), and the same for
    /// sampled and storage images and uniform and storage texel buffers
    /// (descriptor_indexing.nonuniform_images_and_texel_buffers): every
    /// feature Vulkan 1.2 requires of `descriptorIndexing`, and the inline
    /// uniform block updated after bind Vulkan 1.3 adds to it (its bytes
    /// live in the set's memory like any descriptor;
    /// inline_uniform_block.update_after_bind): so
    /// `descriptorIndexing` and VK_EXT_descriptor_indexing are offered.
    /// Uniform buffer and input attachment arrays' non-uniform and
    /// update-after-bind features are not offered yet.
    pub fn extra_features(&self) -> ExtraFeatures {
        ExtraFeatures {
            draw_indirect_count: true,
            imageless_framebuffer: true,
            separate_depth_stencil_layouts: true,
            uniform_buffer_standard_layout: true,
            subgroup_broadcast_dynamic_id: true,
            shader_subgroup_extended_types: true,
            scalar_block_layout: true,
            buffer_device_address: true,
            storage_buffer16_bit_access: true,
            uniform_and_storage_buffer16_bit_access: true,
            storage_push_constant16: true,
            shader_float16: true,
            multiview: true,
            timeline_semaphore: true,
            synchronization2: true,
            host_query_reset: true,
            pipeline_executable_info: true,
            extended_dynamic_state: true,
            extended_dynamic_state2: true,
            private_data: true,
            maintenance4: true,
            pipeline_creation_cache_control: true,
            texel_buffer_alignment: true,
            inline_uniform_block: true,
            robust_image_access: true,
            dynamic_rendering: true,
            vulkan_memory_model: true,
            vulkan_memory_model_device_scope: true,
            shader_zero_initialize_workgroup_memory: true,
            subgroup_size_control: true,
            compute_full_subgroups: true,
            shader_terminate_invocation: true,
            shader_demote_to_helper_invocation: true,
            shader_integer_dot_product: true,
            runtime_descriptor_array: true,
            shader_storage_buffer_array_non_uniform_indexing: true,
            descriptor_binding_storage_buffer_update_after_bind: true,
            descriptor_binding_partially_bound: true,
            descriptor_binding_update_unused_while_pending: true,
            descriptor_binding_variable_descriptor_count: true,
            shader_uniform_texel_buffer_array_dynamic_indexing: true,
            shader_storage_texel_buffer_array_dynamic_indexing: true,
            shader_sampled_image_array_non_uniform_indexing: true,
            shader_storage_image_array_non_uniform_indexing: true,
            shader_uniform_texel_buffer_array_non_uniform_indexing: true,
            shader_storage_texel_buffer_array_non_uniform_indexing: true,
            descriptor_binding_sampled_image_update_after_bind: true,
            descriptor_binding_storage_image_update_after_bind: true,
            descriptor_binding_uniform_texel_buffer_update_after_bind: true,
            descriptor_binding_storage_texel_buffer_update_after_bind: true,
            descriptor_binding_inline_uniform_block_update_after_bind: true,
            descriptor_indexing: true,
            ..Default::default()
        }
    }

    pub fn extensions(&self) -> &'static [Extension] {
        DEVICE_EXTENSIONS
    }

    /// The tools active in the driver (VK_EXT_tooling_info): none. Parsnip
    /// has no layer, tracer or profiler of its own; the rd dumps
    /// (rd_dump.rs) and breadcrumbs are debug switches that do not act on
    /// the application's commands, so they are not tools in the spec's sense.
    pub fn tools(&self) -> &'static [vk::PhysicalDeviceToolProperties<'static>] {
        &[]
    }

    pub fn queue_families(&self) -> Vec<vk::QueueFamilyProperties> {
        vec![vk::QueueFamilyProperties {
            queue_flags: vk::QueueFlags::GRAPHICS
                | vk::QueueFlags::COMPUTE
                | vk::QueueFlags::TRANSFER,
            queue_count: QUEUES_PER_FAMILY,
            timestamp_valid_bits: limits::TIMESTAMP_VALID_BITS,
            min_image_transfer_granularity: vk::Extent3D {
                width: 1,
                height: 1,
                depth: 1,
            },
        }]
    }

    pub fn memory_properties(&self) -> vk::PhysicalDeviceMemoryProperties {
        self.memory.properties()
    }

    pub fn format_properties(&self, format: vk::Format) -> vk::FormatProperties {
        formats::format_properties(format, true)
    }

    /// The same as `VkFormatProperties3` (VK_KHR_format_feature_flags2).
    pub fn format_properties3(&self, format: vk::Format) -> vk::FormatProperties3<'static> {
        formats::format_properties3(format, true)
    }

    /// `vkGetPhysicalDeviceImageFormatProperties` (see
    /// [`crate::image::format_properties`]).
    pub fn image_format_properties(
        &self,
        format: vk::Format,
        image_type: vk::ImageType,
        tiling: vk::ImageTiling,
        usage: vk::ImageUsageFlags,
        flags: vk::ImageCreateFlags,
    ) -> Result<vk::ImageFormatProperties, vk::Result> {
        crate::image::format_properties(format, image_type, tiling, usage, flags)
    }

    /// Subgroup properties (Vulkan 1.1): the wave is the subgroup (a shader
    /// using subgroups is compiled for the base wave size). The operations the
    /// compiler implements in compute shaders are claimed: basic, vote,
    /// ballot, arithmetic (reductions and scans, not clustered), shuffle and
    /// shuffle relative (spirv/subgroup_shuffle.rs) and quad; not clustered
    /// operations.
    /// VK_EXT_subgroup_size_control's properties: the wave sizes, the most
    /// subgroups a work group of the largest size has (in the smallest
    /// waves), and the stages a size can be required for: compute, the only
    /// stage with subgroup operations.
    pub fn subgroup_size_control(
        &self,
    ) -> vk::PhysicalDeviceSubgroupSizeControlProperties<'static> {
        let (min, max) = self.gpu.wave_sizes();
        vk::PhysicalDeviceSubgroupSizeControlProperties {
            min_subgroup_size: min,
            max_subgroup_size: max,
            max_compute_workgroup_subgroups: self.gpu.max_workgroup_invocations() / min,
            required_subgroup_size_stages: vk::ShaderStageFlags::COMPUTE,
            ..Default::default()
        }
    }

    pub fn subgroup_properties(&self) -> (u32, vk::ShaderStageFlags, vk::SubgroupFeatureFlags) {
        (
            self.gpu.wave_size(),
            vk::ShaderStageFlags::COMPUTE,
            vk::SubgroupFeatureFlags::BASIC
                | vk::SubgroupFeatureFlags::VOTE
                | vk::SubgroupFeatureFlags::BALLOT
                | vk::SubgroupFeatureFlags::ARITHMETIC
                | vk::SubgroupFeatureFlags::SHUFFLE
                | vk::SubgroupFeatureFlags::SHUFFLE_RELATIVE
                | vk::SubgroupFeatureFlags::QUAD,
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use parsnip_kernel_if::null::NullDevice;
    use parsnip_kernel_if::GpuFacts;
    use parsnip_registers::gpu;

    pub(crate) fn null_physical(name: &str) -> PhysicalDevice {
        let entry = gpu::by_name(name).unwrap();
        let facts = GpuFacts {
            gpu_id: entry.gpu_id,
            chip_id: u64::from(entry.kernel_chip_id),
            gmem_size: u64::from(entry.gmem_bytes),
            gmem_base: 0x10_0000,
        };
        let kernel: Arc<dyn KernelDevice> = Arc::new(NullDevice::new(facts).unwrap());
        let gpu = GpuInfo::from_device(kernel.info()).unwrap();
        PhysicalDevice::new(kernel, gpu, 8 << 30, DebugFlags::default())
    }

    #[test]
    fn properties_name_the_gpu_with_qualcomms_vendor_id_and_its_chip_id() {
        let pd = null_physical("a740");
        let p = pd.properties();
        assert_eq!(p.vendor_id, 0x5143);
        assert_eq!(p.device_id, 0x4305_0a01);
        assert_eq!(p.device_name_as_c_str().unwrap(), c"Parsnip Adreno 740");
        assert_eq!(vk::api_version_minor(p.api_version), 3);
        assert_ne!(
            pd.pipeline_cache_uuid(),
            null_physical("a660").pipeline_cache_uuid()
        );
    }

    #[test]
    fn every_catalogue_gpu_is_a_physical_device_with_its_name_and_chip_id() {
        // The device ids the kernel reports for each (a6xx_catalog.c).
        let expected = [
            ("a618", "Parsnip Adreno 618", 0x0601_0800),
            ("a630", "Parsnip Adreno 630", 0x0603_0001),
            ("a640", "Parsnip Adreno 640", 0x0604_0001),
            ("a650", "Parsnip Adreno 650", 0x0605_0002),
            ("a660", "Parsnip Adreno 660", 0x0606_0001),
            ("a690", "Parsnip Adreno 690", 0x0609_0000),
            ("a730", "Parsnip Adreno 730", 0x0703_0001),
            ("a740", "Parsnip Adreno 740", 0x4305_0a01),
            ("a750", "Parsnip Adreno 750", 0x4305_1401),
        ];
        assert_eq!(expected.len(), gpu::GPUS.len());
        for (name, device_name, chip_id) in expected {
            let pd = null_physical(name);
            let p = pd.properties();
            assert_eq!(
                p.device_name_as_c_str().unwrap().to_str().unwrap(),
                device_name
            );
            assert_eq!(p.device_id, chip_id, "{name}");
            assert_eq!(p.vendor_id, 0x5143);
            assert_eq!(
                p.limits.max_compute_shared_memory_size,
                gpu::by_name(name).unwrap().cs_shared_mem_bytes
            );
            let families = pd.queue_families();
            assert_eq!(families.len(), 1);
            assert!(families[0].queue_flags.contains(
                vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER
            ));
        }
    }

    #[test]
    fn images_are_refused_for_what_their_format_cannot_do() {
        let pd = null_physical("a618");
        let query = |usage| {
            pd.image_format_properties(
                vk::Format::R8G8B8A8_UNORM,
                vk::ImageType::TYPE_2D,
                vk::ImageTiling::OPTIMAL,
                usage,
                vk::ImageCreateFlags::empty(),
            )
        };
        assert!(query(vk::ImageUsageFlags::TRANSFER_DST).is_ok());
        assert!(query(vk::ImageUsageFlags::COLOR_ATTACHMENT).is_ok());
        // Input attachments are not read yet.
        assert_eq!(
            query(vk::ImageUsageFlags::INPUT_ATTACHMENT).err(),
            Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED)
        );
    }
}
