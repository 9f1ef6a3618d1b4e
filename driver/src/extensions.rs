//! The instance and device extensions the driver offers. An extension is
//! listed only once it is implemented and a test covers it.

use ash::vk;
use std::ffi::CStr;

/// One extension: its name and the spec version implemented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extension {
    pub name: &'static CStr,
    pub spec_version: u32,
}

impl Extension {
    pub fn properties(&self) -> vk::ExtensionProperties {
        let mut p = vk::ExtensionProperties {
            spec_version: self.spec_version,
            ..Default::default()
        };
        for (dst, src) in p.extension_name.iter_mut().zip(self.name.to_bytes()) {
            *dst = *src as std::ffi::c_char;
        }
        p
    }
}

/// Instance extensions.
pub static INSTANCE_EXTENSIONS: &[Extension] = &[
    Extension {
        name: ash::khr::get_physical_device_properties2::NAME,
        spec_version: ash::khr::get_physical_device_properties2::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::device_group_creation::NAME,
        spec_version: ash::khr::device_group_creation::SPEC_VERSION,
    },
    // Presentation without a display (wsi/).
    Extension {
        name: ash::khr::surface::NAME,
        spec_version: ash::khr::surface::SPEC_VERSION,
    },
    Extension {
        name: ash::ext::headless_surface::NAME,
        spec_version: ash::ext::headless_surface::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::get_surface_capabilities2::NAME,
        spec_version: ash::khr::get_surface_capabilities2::SPEC_VERSION,
    },
];

/// Device extensions.
pub static DEVICE_EXTENSIONS: &[Extension] = &[
    Extension {
        name: ash::khr::timeline_semaphore::NAME,
        spec_version: ash::khr::timeline_semaphore::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::synchronization2::NAME,
        spec_version: ash::khr::synchronization2::SPEC_VERSION,
    },
    Extension {
        name: ash::ext::host_query_reset::NAME,
        spec_version: ash::ext::host_query_reset::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::pipeline_executable_properties::NAME,
        spec_version: ash::khr::pipeline_executable_properties::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::copy_commands2::NAME,
        spec_version: ash::khr::copy_commands2::SPEC_VERSION,
    },
    // CP_DRAW_INDIRECT_MULTI reads the count (cmd/draw.rs).
    Extension {
        name: ash::khr::draw_indirect_count::NAME,
        spec_version: ash::khr::draw_indirect_count::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::create_renderpass2::NAME,
        spec_version: ash::khr::create_renderpass2::SPEC_VERSION,
    },
    // Framebuffers whose views each render pass instance names
    // (framebuffer.rs).
    Extension {
        name: ash::khr::imageless_framebuffer::NAME,
        spec_version: ash::khr::imageless_framebuffer::SPEC_VERSION,
    },
    // Layouts are a promise about use only: an image's memory layout is the
    // same in every one, so depth-only and stencil-only layouts need nothing.
    Extension {
        name: ash::khr::separate_depth_stencil_layouts::NAME,
        spec_version: ash::khr::separate_depth_stencil_layouts::SPEC_VERSION,
    },
    // The compiler reads every member at the offset the module gives.
    Extension {
        name: ash::khr::uniform_buffer_standard_layout::NAME,
        spec_version: ash::khr::uniform_buffer_standard_layout::SPEC_VERSION,
    },
    // 16- and 64-bit subgroup operations from 32-bit ones (the compiler's
    // spirv/subgroup_wide.rs).
    Extension {
        name: ash::khr::shader_subgroup_extended_types::NAME,
        spec_version: ash::khr::shader_subgroup_extended_types::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::image_format_list::NAME,
        spec_version: ash::khr::image_format_list::SPEC_VERSION,
    },
    Extension {
        name: ash::ext::image_drm_format_modifier::NAME,
        spec_version: ash::ext::image_drm_format_modifier::SPEC_VERSION,
    },
    Extension {
        name: ash::amd::buffer_marker::NAME,
        spec_version: ash::amd::buffer_marker::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::push_descriptor::NAME,
        spec_version: ash::khr::push_descriptor::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::swapchain::NAME,
        spec_version: ash::khr::swapchain::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::storage_buffer_storage_class::NAME,
        spec_version: ash::khr::storage_buffer_storage_class::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::_16bit_storage::NAME,
        spec_version: ash::khr::_16bit_storage::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::buffer_device_address::NAME,
        spec_version: ash::khr::buffer_device_address::SPEC_VERSION,
    },
    Extension {
        name: ash::ext::scalar_block_layout::NAME,
        spec_version: ash::ext::scalar_block_layout::SPEC_VERSION,
    },
    // Float controls with no execution mode offered (every property false,
    // independence NONE): the compiler refuses the float-control
    // capabilities. SPIR-V 1.4 needs it.
    Extension {
        name: ash::khr::shader_float_controls::NAME,
        spec_version: ash::khr::shader_float_controls::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::spirv_1_4::NAME,
        spec_version: ash::khr::spirv_1_4::SPEC_VERSION,
    },
    // The compiler ignores every instruction of a NonSemantic.* set.
    Extension {
        name: ash::khr::shader_non_semantic_info::NAME,
        spec_version: ash::khr::shader_non_semantic_info::SPEC_VERSION,
    },
    Extension {
        name: ash::khr::shader_float16_int8::NAME,
        spec_version: ash::khr::shader_float16_int8::SPEC_VERSION,
    },
    Extension {
        name: ash::ext::extended_dynamic_state::NAME,
        spec_version: ash::ext::extended_dynamic_state::SPEC_VERSION,
    },
    Extension {
        name: ash::ext::extended_dynamic_state2::NAME,
        spec_version: ash::ext::extended_dynamic_state2::SPEC_VERSION,
    },
    // Memory requirements from create infos (buffer.rs, icd's image.rs),
    // maxBufferSize (the heap, as vkCreateBuffer accepts), LocalSizeId.
    Extension {
        name: ash::khr::maintenance4::NAME,
        spec_version: ash::khr::maintenance4::SPEC_VERSION,
    },
    // vkCmdBeginRendering as a one-subpass render pass (rendering.rs),
    // suspended passes rendered whole at submit (cmd/pass_chain.rs).
    Extension {
        name: ash::khr::dynamic_rendering::NAME,
        spec_version: ash::khr::dynamic_rendering::SPEC_VERSION,
    },
    // Slots of 64-bit values per object, kept on the host (private_data.rs).
    Extension {
        name: ash::ext::private_data::NAME,
        spec_version: ash::ext::private_data::SPEC_VERSION,
    },
    // Scopes and semantics compiled to fence, bar and ccinv (the compiler's
    // spirv/memory_semantics.rs and backend/isel/barrier.rs).
    Extension {
        name: ash::khr::vulkan_memory_model::NAME,
        spec_version: ash::khr::vulkan_memory_model::SPEC_VERSION,
    },
    // The compiler zeroes shared memory before the entry point's body when a
    // workgroup variable has a null initializer (spirv/shared_zeroing.rs).
    Extension {
        name: ash::khr::zero_initialize_workgroup_memory::NAME,
        spec_version: ash::khr::zero_initialize_workgroup_memory::SPEC_VERSION,
    },
    // A required subgroup size is the compiler's wave size, 64 or 128
    // (CompileOptions::required_subgroup_size).
    Extension {
        name: ash::ext::subgroup_size_control::NAME,
        spec_version: ash::ext::subgroup_size_control::SPEC_VERSION,
    },
    // OpTerminateInvocation ends the fragment with `kill`; a demoted one is
    // killed and runs on as a helper (the compiler's spirv/function.rs).
    Extension {
        name: ash::khr::shader_terminate_invocation::NAME,
        spec_version: ash::khr::shader_terminate_invocation::SPEC_VERSION,
    },
    Extension {
        name: ash::ext::shader_demote_to_helper_invocation::NAME,
        spec_version: ash::ext::shader_demote_to_helper_invocation::SPEC_VERSION,
    },
    // Every OpSDot/OpUDot/OpSUDot form as integer arithmetic
    // (spirv/integer_dot.rs); none reported accelerated.
    Extension {
        name: ash::khr::shader_integer_dot_product::NAME,
        spec_version: ash::khr::shader_integer_dot_product::SPEC_VERSION,
    },
    // The driver has no tools of its own (no layer, tracer or profiler
    // inside it): vkGetPhysicalDeviceToolPropertiesEXT reports none.
    Extension {
        name: ash::ext::tooling_info::NAME,
        spec_version: ash::ext::tooling_info::SPEC_VERSION,
    },
    // FAIL_ON_PIPELINE_COMPILE_REQUIRED and EARLY_RETURN_ON_FAILURE
    // (icd's pipeline_creation.rs, pipeline/compute.rs's OnCacheMiss); a
    // cache created externally synchronized is locked all the same.
    Extension {
        name: ash::ext::pipeline_creation_cache_control::NAME,
        spec_version: ash::ext::pipeline_creation_cache_control::SPEC_VERSION,
    },
    // VkFormatProperties3 from the format table (formats.rs's
    // format_properties3), with the storage-without-format bits.
    Extension {
        name: ash::khr::format_feature_flags2::NAME,
        spec_version: ash::khr::format_feature_flags2::SPEC_VERSION,
    },
    // Texel buffer views at a multiple of their texel: the descriptor's
    // STARTOFFSETTEXELS (descriptor/encoding.rs).
    Extension {
        name: ash::ext::texel_buffer_alignment::NAME,
        spec_version: ash::ext::texel_buffer_alignment::SPEC_VERSION,
    },
    // Uniform data in the set's own memory, read through a UBO descriptor
    // in the set (descriptor/inline_block.rs).
    Extension {
        name: ash::ext::inline_uniform_block::NAME,
        spec_version: ash::ext::inline_uniform_block::SPEC_VERSION,
    },
    // Descriptor arrays indexed per fiber, updated after bind, partly
    // bound and of variable count (descriptor/set_layout.rs, set.rs): the
    // GPU reads a set's descriptors from its memory when the work runs.
    Extension {
        name: ash::ext::descriptor_indexing::NAME,
        spec_version: ash::ext::descriptor_indexing::SPEC_VERSION,
    },
    // Out-of-bounds image loads give zeros, stores and atomics write
    // nothing: the texture unit and the SP bounds-check every image access
    // against its descriptor (sim/src/sp/texture.rs, buffer_ops.rs), as
    // Turnip relies on, exposing robustImageAccess with no shader lowering.
    Extension {
        name: ash::ext::image_robustness::NAME,
        spec_version: ash::ext::image_robustness::SPEC_VERSION,
    },
    // Each pipeline's and stage's creation time and cache hit.
    Extension {
        name: ash::ext::pipeline_creation_feedback::NAME,
        spec_version: ash::ext::pipeline_creation_feedback::SPEC_VERSION,
    },
];

/// Whether `name` is in `list`; an unknown name is the caller's
/// `VK_ERROR_EXTENSION_NOT_PRESENT`.
pub fn find(list: &[Extension], name: &CStr) -> Option<Extension> {
    list.iter().copied().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_carry_the_nul_terminated_name() {
        let p = DEVICE_EXTENSIONS[0].properties();
        assert_eq!(
            p.extension_name_as_c_str().unwrap(),
            c"VK_KHR_timeline_semaphore"
        );
        assert_eq!(p.spec_version, 2);
        assert!(find(DEVICE_EXTENSIONS, c"VK_KHR_swapchain").is_some());
        assert!(find(INSTANCE_EXTENSIONS, c"VK_KHR_xcb_surface").is_none());
    }
}
