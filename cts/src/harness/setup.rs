//! Creating the instance (with the validation layer and its messenger) and
//! the device (with the optional features the cases use, when offered).

use super::presentation::Presentation;
use super::promoted::{DynamicRendering, RenderPasses2, Synchronization2, TimelineSemaphores};
use super::Harness;
use crate::case::{OrStop, Stop};
use crate::validation::{ValidationLog, LAYER_NAME};
use ash::vk;
use std::collections::HashMap;
use std::ffi::CStr;

/// What the device offers and the harness enabled, for cases to consult
/// before using anything optional.
#[derive(Clone, Debug, Default)]
pub struct Capabilities {
    /// The device's `apiVersion`.
    pub api_version: u32,
    pub timeline_semaphore: bool,
    pub synchronization2: bool,
    pub host_query_reset: bool,
    pub shader_int64: bool,
    /// `fragmentStoresAndAtomics` and `vertexPipelineStoresAndAtomics`,
    /// enabled when offered.
    pub fragment_stores_and_atomics: bool,
    pub vertex_pipeline_stores_and_atomics: bool,
    /// 16-bit integer and float arithmetic and 16-bit storage in storage and
    /// uniform buffers and push constants (shaderInt16, shaderFloat16 and
    /// the three 16-bit storage features), all enabled when all are offered.
    pub sixteen_bit: bool,
    /// `scalarBlockLayout` (Vulkan 1.2 or VK_EXT_scalar_block_layout).
    pub scalar_block_layout: bool,
    /// SPIR-V 1.4 modules (Vulkan 1.2, or VK_KHR_spirv_1_4 with the
    /// VK_KHR_shader_float_controls it requires).
    pub spirv_1_4: bool,
    /// `bufferDeviceAddress` (Vulkan 1.2 or VK_KHR_buffer_device_address):
    /// when enabled every allocation can hold buffers with device addresses.
    pub buffer_device_address: bool,
    /// Modules with non-semantic instructions (Vulkan 1.3 or
    /// VK_KHR_shader_non_semantic_info).
    pub non_semantic_info: bool,
    /// `robustBufferAccess`, enabled when offered (every conforming device
    /// offers it).
    pub robust_buffer_access: bool,
    /// `alphaToOne`, enabled when offered.
    pub alpha_to_one: bool,
    /// `vkCmdDispatchBase` (Vulkan 1.1).
    pub dispatch_base: bool,
    /// `VK_KHR_pipeline_executable_properties` with `pipelineExecutableInfo`.
    pub pipeline_executable_info: bool,
    /// `occlusionQueryPrecise` and `inheritedQueries`, enabled when offered.
    pub occlusion_query_precise: bool,
    pub inherited_queries: bool,
    /// `timestampValidBits` of the queue family the harness uses.
    pub timestamp_valid_bits: u32,
    /// Whether that queue family has graphics (blits, depth/stencil
    /// aspects in copies and clears need it).
    pub graphics_queue: bool,
    /// `VK_AMD_buffer_marker`, enabled when offered.
    pub buffer_marker: bool,
    /// `VK_KHR_push_descriptor`, enabled when offered.
    pub push_descriptor: bool,
    /// `vkCreateRenderPass2` and the `*2` pass commands (Vulkan 1.2 or
    /// `VK_KHR_create_renderpass2`).
    pub render_pass2: bool,
    /// Headless surfaces (`VK_EXT_headless_surface`) and swapchains
    /// (`VK_KHR_swapchain`), enabled when both are offered.
    pub headless_swapchain: bool,
    /// `VK_EXT_extended_dynamic_state` and `_2` (without `_2`'s logic op
    /// and patch control points), each enabled with its feature when
    /// offered; the cases call their commands through the extensions'
    /// loaders, which every version resolves.
    pub extended_dynamic_state: bool,
    pub extended_dynamic_state2: bool,
    /// `depthBounds`, enabled when offered.
    pub depth_bounds: bool,
    /// `multiDrawIndirect`, enabled when offered.
    pub multi_draw_indirect: bool,
    /// Vulkan 1.2's `imagelessFramebuffer` (or VK_KHR_imageless_framebuffer).
    pub imageless_framebuffer: bool,
    /// Vulkan 1.1's `multiview` (render passes and dynamic rendering with
    /// view masks), enabled when offered.
    pub multiview: bool,
    /// Vulkan 1.2's `separateDepthStencilLayouts` (or
    /// VK_KHR_separate_depth_stencil_layouts).
    pub separate_depth_stencil_layouts: bool,
    /// Vulkan 1.2's `uniformBufferStandardLayout` (or
    /// VK_KHR_uniform_buffer_standard_layout).
    pub uniform_buffer_standard_layout: bool,
    /// Vulkan 1.2's `shaderSubgroupExtendedTypes` (or
    /// VK_KHR_shader_subgroup_extended_types).
    pub shader_subgroup_extended_types: bool,
    /// Vulkan 1.3's `pipelineCreationCacheControl`, `inlineUniformBlock`
    /// and `robustImageAccess` (or their extensions), each enabled when
    /// offered.
    pub pipeline_creation_cache_control: bool,
    pub inline_uniform_block: bool,
    /// With `inline_uniform_block`: blocks in UPDATE_AFTER_BIND bindings
    /// (descriptorBindingInlineUniformBlockUpdateAfterBind).
    pub inline_block_update_after_bind: bool,
    pub robust_image_access: bool,
    /// `VkPipelineCreationFeedbackCreateInfo` may be chained (Vulkan 1.3 or
    /// VK_EXT_pipeline_creation_feedback, enabled when offered).
    pub pipeline_creation_feedback: bool,
    /// Texel buffer views at the offsets VkPhysicalDeviceTexelBufferAlignment
    /// Properties allows (Vulkan 1.3, or VK_EXT_texel_buffer_alignment
    /// with its feature, enabled when offered).
    pub texel_buffer_alignment: bool,
    /// `dynamicRendering` (Vulkan 1.3 or VK_KHR_dynamic_rendering, whose
    /// extension is enabled whenever offered).
    pub dynamic_rendering: bool,
    /// Vulkan 1.2's `vulkanMemoryModel` with `vulkanMemoryModelDeviceScope`
    /// (or VK_KHR_vulkan_memory_model), enabled when both are offered.
    pub vulkan_memory_model: bool,
    /// Vulkan 1.3's `shaderZeroInitializeWorkgroupMemory` (or
    /// VK_KHR_zero_initialize_workgroup_memory).
    pub zero_initialize_workgroup_memory: bool,
    /// Vulkan 1.3's `subgroupSizeControl` and `computeFullSubgroups` (or
    /// VK_EXT_subgroup_size_control), each enabled when offered.
    pub subgroup_size_control: bool,
    pub compute_full_subgroups: bool,
    /// Vulkan 1.3's `shaderTerminateInvocation` and
    /// `shaderDemoteToHelperInvocation` (or their extensions), each enabled
    /// when offered.
    pub shader_terminate_invocation: bool,
    pub shader_demote_to_helper_invocation: bool,
    /// Vulkan 1.3's `shaderIntegerDotProduct` (or
    /// VK_KHR_shader_integer_dot_product).
    pub shader_integer_dot_product: bool,
    /// Descriptor indexing of storage buffers (Vulkan 1.2's
    /// descriptor-indexing features, or VK_EXT_descriptor_indexing):
    /// dynamic and non-uniform indexing of storage buffer arrays, runtime
    /// descriptor arrays, storage buffers updated after bind, partially
    /// bound bindings, updates of unused descriptors while pending and
    /// variable descriptor counts, all enabled when all are offered.
    pub storage_buffer_indexing: bool,
    /// With `storage_buffer_indexing`, the same for every image and texel
    /// buffer kind: dynamic and non-uniform indexing of sampled and storage
    /// image arrays and of uniform and storage texel buffer arrays, and each
    /// of them updated after bind (with the storage buffer features, every
    /// feature `descriptorIndexing` requires), enabled when all are offered.
    pub image_indexing: bool,
    /// The device extensions the harness enabled.
    pub enabled_extensions: Vec<String>,
}

/// Synchronization validation checks the barriers of every case: a missing
/// barrier that lavapipe forgives would be a hang or stale data on a tiler.
const SYNCHRONIZATION_VALIDATION: [vk::ValidationFeatureEnableEXT; 1] =
    [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];

fn names(list: &[vk::ExtensionProperties]) -> Vec<String> {
    list.iter()
        .filter_map(|e| e.extension_name_as_c_str().ok())
        .map(|n| n.to_string_lossy().into_owned())
        .collect()
}

impl Harness {
    /// Loads the Vulkan loader and creates the instance, device and queue.
    /// The loader picks the driver from the process environment
    /// (`VK_DRIVER_FILES`), which is why the runner runs each driver in a
    /// process of its own.
    pub fn new() -> Result<Harness, Stop> {
        // SAFETY: loading libvulkan.so.1 runs its initialisers; the loader is
        // a well-behaved shared library.
        let entry = unsafe { ash::Entry::load() }
            .map_err(|e| Stop::Error(format!("cannot load the Vulkan loader: {e}")))?;

        // SAFETY: global queries with no handles.
        let layers = unsafe { entry.enumerate_instance_layer_properties() }
            .or_stop("vkEnumerateInstanceLayerProperties")?;
        if !layers
            .iter()
            .any(|l| l.layer_name_as_c_str() == Ok(LAYER_NAME))
        {
            return Err(Stop::Error(format!(
                "the Khronos validation layer {} is not installed (Debian package \
                 vulkan-validationlayers; scripts/install-deps installs it)",
                LAYER_NAME.to_string_lossy()
            )));
        }
        // SAFETY: as above.
        let global_extensions = names(
            &unsafe { entry.enumerate_instance_extension_properties(None) }
                .or_stop("vkEnumerateInstanceExtensionProperties")?,
        );
        // SAFETY: as above; the layer name is NUL-terminated.
        let layer_extensions = names(
            &unsafe { entry.enumerate_instance_extension_properties(Some(LAYER_NAME)) }
                .or_stop("vkEnumerateInstanceExtensionProperties (validation layer)")?,
        );
        let offered = |name: &CStr| {
            let name = name.to_string_lossy();
            global_extensions
                .iter()
                .chain(&layer_extensions)
                .any(|e| *e == name)
        };
        if !offered(ash::ext::debug_utils::NAME) {
            return Err(Stop::Error("VK_EXT_debug_utils is not offered".into()));
        }
        let mut extensions = vec![ash::ext::debug_utils::NAME.as_ptr()];
        // Presentation without a display, where the driver offers it.
        let headless =
            offered(ash::khr::surface::NAME) && offered(ash::ext::headless_surface::NAME);
        if headless {
            extensions.push(ash::khr::surface::NAME.as_ptr());
            extensions.push(ash::ext::headless_surface::NAME.as_ptr());
        }
        let surface_capabilities2 = headless && offered(ash::khr::get_surface_capabilities2::NAME);
        if surface_capabilities2 {
            extensions.push(ash::khr::get_surface_capabilities2::NAME.as_ptr());
        }
        let validation_features = offered(ash::ext::validation_features::NAME);
        if validation_features {
            extensions.push(ash::ext::validation_features::NAME.as_ptr());
        }

        // SAFETY: a global query.
        let loader_version = unsafe { entry.try_enumerate_instance_version() }
            .or_stop("vkEnumerateInstanceVersion")?
            .unwrap_or(vk::API_VERSION_1_0);
        let app = vk::ApplicationInfo::default()
            .application_name(c"parsnip-cts")
            .engine_name(c"parsnip-cts")
            .api_version(loader_version.min(vk::API_VERSION_1_3));
        let layer_names = [LAYER_NAME.as_ptr()];
        let validation = ValidationLog::default();
        let mut messenger_info = validation.messenger_info();
        let mut features = vk::ValidationFeaturesEXT::default()
            .enabled_validation_features(&SYNCHRONIZATION_VALIDATION);
        let mut instance_info = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layer_names)
            .enabled_extension_names(&extensions)
            .push_next(&mut messenger_info);
        if validation_features {
            instance_info = instance_info.push_next(&mut features);
        }
        // SAFETY: every pointer in `instance_info` refers to locals that
        // outlive the call; the messenger's user data is `validation`, which
        // the harness keeps until the instance is destroyed.
        let instance =
            unsafe { entry.create_instance(&instance_info, None) }.or_stop("vkCreateInstance")?;
        let debug_utils = ash::ext::debug_utils::Instance::new(&entry, &instance);
        // SAFETY: as above.
        let messenger = match unsafe {
            debug_utils.create_debug_utils_messenger(&validation.messenger_info(), None)
        } {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: nothing else was created from the instance.
                unsafe { instance.destroy_instance(None) };
                return Err(Stop::Error(format!(
                    "vkCreateDebugUtilsMessengerEXT returned {e:?}"
                )));
            }
        };

        let mut partial = PartialHarness {
            entry,
            instance,
            debug_utils,
            messenger,
            validation,
            headless,
            surface_capabilities2,
        };
        match partial.create_device() {
            Ok(device) => Ok(partial.complete(device)),
            Err(stop) => {
                partial.destroy();
                Err(stop)
            }
        }
    }
}

/// The instance-level half of a harness, while the device is being made.
struct PartialHarness {
    entry: ash::Entry,
    instance: ash::Instance,
    debug_utils: ash::ext::debug_utils::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
    validation: ValidationLog,
    /// Whether VK_KHR_surface and VK_EXT_headless_surface are enabled.
    headless: bool,
    /// Whether VK_KHR_get_surface_capabilities2 is enabled.
    surface_capabilities2: bool,
}

struct DeviceParts {
    physical: vk::PhysicalDevice,
    properties: vk::PhysicalDeviceProperties,
    memory_properties: vk::PhysicalDeviceMemoryProperties,
    caps: Capabilities,
    device: ash::Device,
    queue_family: u32,
    queue: vk::Queue,
    command_pool: vk::CommandPool,
}

impl PartialHarness {
    fn destroy(self) {
        // SAFETY: the messenger and instance were created here and nothing
        // else derived from them survives.
        unsafe {
            self.debug_utils
                .destroy_debug_utils_messenger(self.messenger, None);
            self.instance.destroy_instance(None);
        }
    }

    fn create_device(&mut self) -> Result<DeviceParts, Stop> {
        let instance = &self.instance;
        // SAFETY: the instance is alive.
        let physical_devices = unsafe { instance.enumerate_physical_devices() }
            .or_stop("vkEnumeratePhysicalDevices")?;
        let Some(&physical) = physical_devices.first() else {
            return Err(Stop::Error("the loader found no physical device".into()));
        };
        // SAFETY: `physical` was just enumerated from the live instance, as
        // are the queries below.
        let (properties, memory_properties, families, offered) = unsafe {
            (
                instance.get_physical_device_properties(physical),
                instance.get_physical_device_memory_properties(physical),
                instance.get_physical_device_queue_family_properties(physical),
                names(
                    &instance
                        .enumerate_device_extension_properties(physical)
                        .or_stop("vkEnumerateDeviceExtensionProperties")?,
                ),
            )
        };
        let Some(queue_family) = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        else {
            return Err(Stop::Error("no queue family supports compute".into()));
        };
        let api = properties.api_version;
        let at_least = |minor: u32| at_least(api, minor);
        let has = |name: &CStr| offered.iter().any(|e| *e == *name.to_string_lossy());

        // Each optional feature: core from some version, or an extension.
        let timeline_ext = !at_least(2) && has(ash::khr::timeline_semaphore::NAME);
        // Core in 1.3, but registries before 1.3.2xx (Debian 12's, which
        // the validation layer follows) bring vkCmdWriteBufferMarker2AMD
        // with the extension only, so it stays enabled beside the marker.
        let buffer_marker = has(ash::amd::buffer_marker::NAME);
        let sync2_ext = (!at_least(3) || buffer_marker) && has(ash::khr::synchronization2::NAME);
        let host_reset_ext = !at_least(2) && has(ash::ext::host_query_reset::NAME);
        let executable_ext = has(ash::khr::pipeline_executable_properties::NAME);
        let push_descriptor = has(ash::khr::push_descriptor::NAME);
        let render_pass2_ext = !at_least(2) && has(ash::khr::create_renderpass2::NAME);
        let headless_swapchain = self.headless && has(ash::khr::swapchain::NAME);
        let float16_ext = !at_least(2) && has(ash::khr::shader_float16_int8::NAME);
        let float16_known = at_least(2) || float16_ext;
        let scalar_ext = !at_least(2) && has(ash::ext::scalar_block_layout::NAME);
        let scalar_known = at_least(2) || scalar_ext;
        let non_semantic_ext = !at_least(3) && has(ash::khr::shader_non_semantic_info::NAME);
        let address_ext = !at_least(2) && has(ash::khr::buffer_device_address::NAME);
        let address_known = at_least(2) || address_ext;
        let spirv14_ext = !at_least(2)
            && has(ash::khr::spirv_1_4::NAME)
            && has(ash::khr::shader_float_controls::NAME);
        let eds_ext = has(ash::ext::extended_dynamic_state::NAME);
        let dynamic_rendering_ext = has(ash::khr::dynamic_rendering::NAME);
        let dynamic_rendering_known = at_least(3) || dynamic_rendering_ext;
        let eds2_ext = has(ash::ext::extended_dynamic_state2::NAME);
        // Vulkan 1.2 features with a structure of their own, core or by
        // their extension: (structure queried, extension to enable).
        let promoted12 = |name: &CStr| (at_least(2) || has(name), !at_least(2) && has(name));
        let imageless_ext = promoted12(ash::khr::imageless_framebuffer::NAME);
        let ds_layouts_ext = promoted12(ash::khr::separate_depth_stencil_layouts::NAME);
        let std_layout_ext = promoted12(ash::khr::uniform_buffer_standard_layout::NAME);
        let extended_types_ext = promoted12(ash::khr::shader_subgroup_extended_types::NAME);
        // The same for Vulkan 1.3's.
        let promoted13 = |name: &CStr| (at_least(3) || has(name), !at_least(3) && has(name));
        let cache_control_ext = promoted13(ash::ext::pipeline_creation_cache_control::NAME);
        let inline_ext = promoted13(ash::ext::inline_uniform_block::NAME);
        let image_robustness_ext = promoted13(ash::ext::image_robustness::NAME);
        let feedback_ext = promoted13(ash::ext::pipeline_creation_feedback::NAME);
        // Core in 1.3, but the validation layer still wants the
        // extension's feature enabled where it is offered.
        let texel_alignment_ext = has(ash::ext::texel_buffer_alignment::NAME);
        let memory_model_ext = promoted12(ash::khr::vulkan_memory_model::NAME);
        let zero_init_ext = promoted13(ash::khr::zero_initialize_workgroup_memory::NAME);
        let size_control_ext = promoted13(ash::ext::subgroup_size_control::NAME);
        let terminate_ext = promoted13(ash::khr::shader_terminate_invocation::NAME);
        let demote_ext = promoted13(ash::ext::shader_demote_to_helper_invocation::NAME);
        let dot_ext = promoted13(ash::khr::shader_integer_dot_product::NAME);
        let indexing_ext = promoted12(ash::ext::descriptor_indexing::NAME);
        let timeline_known = at_least(2) || timeline_ext;
        let sync2_known = at_least(3) || sync2_ext;
        let host_reset_known = at_least(2) || host_reset_ext;

        let mut timeline = vk::PhysicalDeviceTimelineSemaphoreFeatures::default();
        let mut sync2 = vk::PhysicalDeviceSynchronization2Features::default();
        let mut host_reset = vk::PhysicalDeviceHostQueryResetFeatures::default();
        let mut executable = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
        let mut storage16 = vk::PhysicalDevice16BitStorageFeatures::default();
        let mut float16 = vk::PhysicalDeviceShaderFloat16Int8Features::default();
        let mut scalar = vk::PhysicalDeviceScalarBlockLayoutFeatures::default();
        let mut address = vk::PhysicalDeviceBufferDeviceAddressFeatures::default();
        let mut eds = vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default();
        let mut eds2 = vk::PhysicalDeviceExtendedDynamicState2FeaturesEXT::default();
        let mut imageless = vk::PhysicalDeviceImagelessFramebufferFeatures::default();
        let mut multiview = vk::PhysicalDeviceMultiviewFeatures::default();
        let mut ds_layouts = vk::PhysicalDeviceSeparateDepthStencilLayoutsFeatures::default();
        let mut std_layout = vk::PhysicalDeviceUniformBufferStandardLayoutFeatures::default();
        let mut extended_types = vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures::default();
        let mut cache_control = vk::PhysicalDevicePipelineCreationCacheControlFeatures::default();
        let mut inline = vk::PhysicalDeviceInlineUniformBlockFeatures::default();
        let mut image_robustness = vk::PhysicalDeviceImageRobustnessFeatures::default();
        let mut texel_alignment = vk::PhysicalDeviceTexelBufferAlignmentFeaturesEXT::default();
        let mut dynamic_rendering = vk::PhysicalDeviceDynamicRenderingFeatures::default();
        let mut memory_model = vk::PhysicalDeviceVulkanMemoryModelFeatures::default();
        let mut zero_init = vk::PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures::default();
        let mut size_control = vk::PhysicalDeviceSubgroupSizeControlFeatures::default();
        let mut terminate = vk::PhysicalDeviceShaderTerminateInvocationFeatures::default();
        let mut demote = vk::PhysicalDeviceShaderDemoteToHelperInvocationFeatures::default();
        let mut dot = vk::PhysicalDeviceShaderIntegerDotProductFeatures::default();
        let mut indexing = vk::PhysicalDeviceDescriptorIndexingFeatures::default();
        let mut query = vk::PhysicalDeviceFeatures2::default();
        if texel_alignment_ext {
            query = query.push_next(&mut texel_alignment);
        }
        if cache_control_ext.0 {
            query = query.push_next(&mut cache_control);
        }
        if inline_ext.0 {
            query = query.push_next(&mut inline);
        }
        if image_robustness_ext.0 {
            query = query.push_next(&mut image_robustness);
        }
        if dynamic_rendering_known {
            query = query.push_next(&mut dynamic_rendering);
        }
        if eds_ext {
            query = query.push_next(&mut eds);
        }
        if eds2_ext {
            query = query.push_next(&mut eds2);
        }
        if imageless_ext.0 {
            query = query.push_next(&mut imageless);
        }
        if at_least(1) {
            query = query.push_next(&mut multiview);
        }
        if ds_layouts_ext.0 {
            query = query.push_next(&mut ds_layouts);
        }
        if std_layout_ext.0 {
            query = query.push_next(&mut std_layout);
        }
        if extended_types_ext.0 {
            query = query.push_next(&mut extended_types);
        }
        if memory_model_ext.0 {
            query = query.push_next(&mut memory_model);
        }
        if zero_init_ext.0 {
            query = query.push_next(&mut zero_init);
        }
        if size_control_ext.0 {
            query = query.push_next(&mut size_control);
        }
        if terminate_ext.0 {
            query = query.push_next(&mut terminate);
        }
        if demote_ext.0 {
            query = query.push_next(&mut demote);
        }
        if dot_ext.0 {
            query = query.push_next(&mut dot);
        }
        if indexing_ext.0 {
            query = query.push_next(&mut indexing);
        }
        if at_least(1) {
            query = query.push_next(&mut storage16);
        }
        if float16_known {
            query = query.push_next(&mut float16);
        }
        if scalar_known {
            query = query.push_next(&mut scalar);
        }
        if address_known {
            query = query.push_next(&mut address);
        }
        if timeline_known {
            query = query.push_next(&mut timeline);
        }
        if sync2_known {
            query = query.push_next(&mut sync2);
        }
        if host_reset_known {
            query = query.push_next(&mut host_reset);
        }
        if executable_ext {
            query = query.push_next(&mut executable);
        }
        // SAFETY: `query` chains only structures valid for this device's
        // version and extensions, all alive for the call.
        unsafe { instance.get_physical_device_features2(physical, &mut query) };
        let supported = query.features;
        let caps = Capabilities {
            api_version: api,
            timeline_semaphore: timeline.timeline_semaphore == vk::TRUE,
            synchronization2: sync2.synchronization2 == vk::TRUE,
            host_query_reset: host_reset.host_query_reset == vk::TRUE,
            shader_int64: supported.shader_int64 == vk::TRUE,
            fragment_stores_and_atomics: supported.fragment_stores_and_atomics == vk::TRUE,
            vertex_pipeline_stores_and_atomics: supported.vertex_pipeline_stores_and_atomics
                == vk::TRUE,
            sixteen_bit: supported.shader_int16 == vk::TRUE
                && float16.shader_float16 == vk::TRUE
                && storage16.storage_buffer16_bit_access == vk::TRUE
                && storage16.uniform_and_storage_buffer16_bit_access == vk::TRUE
                && storage16.storage_push_constant16 == vk::TRUE,
            scalar_block_layout: scalar.scalar_block_layout == vk::TRUE,
            spirv_1_4: at_least(2) || spirv14_ext,
            buffer_device_address: address.buffer_device_address == vk::TRUE,
            non_semantic_info: at_least(3) || non_semantic_ext,
            robust_buffer_access: supported.robust_buffer_access == vk::TRUE,
            alpha_to_one: supported.alpha_to_one == vk::TRUE,
            dispatch_base: at_least(1),
            pipeline_executable_info: executable.pipeline_executable_info == vk::TRUE,
            occlusion_query_precise: supported.occlusion_query_precise == vk::TRUE,
            inherited_queries: supported.inherited_queries == vk::TRUE,
            timestamp_valid_bits: families[queue_family].timestamp_valid_bits,
            graphics_queue: families[queue_family]
                .queue_flags
                .contains(vk::QueueFlags::GRAPHICS),
            buffer_marker,
            push_descriptor,
            render_pass2: at_least(2) || render_pass2_ext,
            headless_swapchain,
            extended_dynamic_state: eds.extended_dynamic_state == vk::TRUE,
            extended_dynamic_state2: eds2.extended_dynamic_state2 == vk::TRUE,
            depth_bounds: supported.depth_bounds == vk::TRUE,
            multi_draw_indirect: supported.multi_draw_indirect == vk::TRUE,
            imageless_framebuffer: imageless.imageless_framebuffer == vk::TRUE,
            multiview: multiview.multiview == vk::TRUE,
            separate_depth_stencil_layouts: ds_layouts.separate_depth_stencil_layouts == vk::TRUE,
            uniform_buffer_standard_layout: std_layout.uniform_buffer_standard_layout == vk::TRUE,
            shader_subgroup_extended_types: extended_types.shader_subgroup_extended_types
                == vk::TRUE,
            pipeline_creation_cache_control: cache_control.pipeline_creation_cache_control
                == vk::TRUE,
            inline_uniform_block: inline.inline_uniform_block == vk::TRUE,
            inline_block_update_after_bind: inline.inline_uniform_block == vk::TRUE
                && inline.descriptor_binding_inline_uniform_block_update_after_bind == vk::TRUE,
            robust_image_access: image_robustness.robust_image_access == vk::TRUE,
            pipeline_creation_feedback: feedback_ext.0,
            texel_buffer_alignment: texel_alignment.texel_buffer_alignment == vk::TRUE
                || (at_least(3) && !texel_alignment_ext),
            dynamic_rendering: dynamic_rendering.dynamic_rendering == vk::TRUE,
            vulkan_memory_model: memory_model.vulkan_memory_model == vk::TRUE
                && memory_model.vulkan_memory_model_device_scope == vk::TRUE,
            zero_initialize_workgroup_memory: zero_init.shader_zero_initialize_workgroup_memory
                == vk::TRUE,
            subgroup_size_control: size_control.subgroup_size_control == vk::TRUE,
            compute_full_subgroups: size_control.compute_full_subgroups == vk::TRUE,
            shader_terminate_invocation: terminate.shader_terminate_invocation == vk::TRUE,
            shader_demote_to_helper_invocation: demote.shader_demote_to_helper_invocation
                == vk::TRUE,
            shader_integer_dot_product: dot.shader_integer_dot_product == vk::TRUE,
            storage_buffer_indexing: supported.shader_storage_buffer_array_dynamic_indexing
                == vk::TRUE
                && [
                    indexing.shader_storage_buffer_array_non_uniform_indexing,
                    indexing.runtime_descriptor_array,
                    indexing.descriptor_binding_storage_buffer_update_after_bind,
                    indexing.descriptor_binding_partially_bound,
                    indexing.descriptor_binding_update_unused_while_pending,
                    indexing.descriptor_binding_variable_descriptor_count,
                ]
                .iter()
                .all(|f| *f == vk::TRUE),
            image_indexing: supported.shader_sampled_image_array_dynamic_indexing == vk::TRUE
                && supported.shader_storage_image_array_dynamic_indexing == vk::TRUE
                && [
                    indexing.shader_uniform_texel_buffer_array_dynamic_indexing,
                    indexing.shader_storage_texel_buffer_array_dynamic_indexing,
                    indexing.shader_sampled_image_array_non_uniform_indexing,
                    indexing.shader_storage_image_array_non_uniform_indexing,
                    indexing.shader_uniform_texel_buffer_array_non_uniform_indexing,
                    indexing.shader_storage_texel_buffer_array_non_uniform_indexing,
                    indexing.descriptor_binding_sampled_image_update_after_bind,
                    indexing.descriptor_binding_storage_image_update_after_bind,
                    indexing.descriptor_binding_uniform_texel_buffer_update_after_bind,
                    indexing.descriptor_binding_storage_texel_buffer_update_after_bind,
                ]
                .iter()
                .all(|f| *f == vk::TRUE),
            enabled_extensions: Vec::new(),
        };

        // Enable exactly what was found, through the same structures.
        let mut enabled = caps.clone();
        let mut extensions: Vec<&CStr> = Vec::new();
        let mut enable_timeline =
            vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
        let mut enable_sync2 =
            vk::PhysicalDeviceSynchronization2Features::default().synchronization2(true);
        let mut enable_host_reset =
            vk::PhysicalDeviceHostQueryResetFeatures::default().host_query_reset(true);
        let mut enable_executable =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
                .pipeline_executable_info(true);
        let mut enable_storage16 = vk::PhysicalDevice16BitStorageFeatures::default()
            .storage_buffer16_bit_access(true)
            .uniform_and_storage_buffer16_bit_access(true)
            .storage_push_constant16(true);
        let mut enable_float16 =
            vk::PhysicalDeviceShaderFloat16Int8Features::default().shader_float16(true);
        let mut enable_address =
            vk::PhysicalDeviceBufferDeviceAddressFeatures::default().buffer_device_address(true);
        let mut enable_scalar =
            vk::PhysicalDeviceScalarBlockLayoutFeatures::default().scalar_block_layout(true);
        let mut enable_dynamic_rendering =
            vk::PhysicalDeviceDynamicRenderingFeatures::default().dynamic_rendering(true);
        let mut enable_eds = vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default()
            .extended_dynamic_state(true);
        let mut enable_eds2 = vk::PhysicalDeviceExtendedDynamicState2FeaturesEXT::default()
            .extended_dynamic_state2(true);
        let mut enable_imageless =
            vk::PhysicalDeviceImagelessFramebufferFeatures::default().imageless_framebuffer(true);
        let mut enable_multiview = vk::PhysicalDeviceMultiviewFeatures::default().multiview(true);
        let mut enable_ds_layouts =
            vk::PhysicalDeviceSeparateDepthStencilLayoutsFeatures::default()
                .separate_depth_stencil_layouts(true);
        let mut enable_std_layout =
            vk::PhysicalDeviceUniformBufferStandardLayoutFeatures::default()
                .uniform_buffer_standard_layout(true);
        let mut enable_extended_types =
            vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures::default()
                .shader_subgroup_extended_types(true);
        let mut enable_cache_control =
            vk::PhysicalDevicePipelineCreationCacheControlFeatures::default()
                .pipeline_creation_cache_control(true);
        let mut enable_inline = vk::PhysicalDeviceInlineUniformBlockFeatures::default()
            .inline_uniform_block(true)
            .descriptor_binding_inline_uniform_block_update_after_bind(
                caps.inline_block_update_after_bind,
            );
        let mut enable_image_robustness =
            vk::PhysicalDeviceImageRobustnessFeatures::default().robust_image_access(true);
        let mut enable_texel_alignment =
            vk::PhysicalDeviceTexelBufferAlignmentFeaturesEXT::default()
                .texel_buffer_alignment(true);
        let mut enable_memory_model = vk::PhysicalDeviceVulkanMemoryModelFeatures::default()
            .vulkan_memory_model(true)
            .vulkan_memory_model_device_scope(true);
        let mut enable_zero_init =
            vk::PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures::default()
                .shader_zero_initialize_workgroup_memory(true);
        let mut enable_size_control = vk::PhysicalDeviceSubgroupSizeControlFeatures::default()
            .subgroup_size_control(caps.subgroup_size_control)
            .compute_full_subgroups(caps.compute_full_subgroups);
        let mut enable_terminate = vk::PhysicalDeviceShaderTerminateInvocationFeatures::default()
            .shader_terminate_invocation(true);
        let mut enable_demote = vk::PhysicalDeviceShaderDemoteToHelperInvocationFeatures::default()
            .shader_demote_to_helper_invocation(true);
        let mut enable_dot = vk::PhysicalDeviceShaderIntegerDotProductFeatures::default()
            .shader_integer_dot_product(true);
        let mut enable_indexing = vk::PhysicalDeviceDescriptorIndexingFeatures::default()
            .shader_storage_buffer_array_non_uniform_indexing(true)
            .runtime_descriptor_array(true)
            .descriptor_binding_storage_buffer_update_after_bind(true)
            .descriptor_binding_partially_bound(true)
            .descriptor_binding_update_unused_while_pending(true)
            .descriptor_binding_variable_descriptor_count(true)
            .shader_uniform_texel_buffer_array_dynamic_indexing(caps.image_indexing)
            .shader_storage_texel_buffer_array_dynamic_indexing(caps.image_indexing)
            .shader_sampled_image_array_non_uniform_indexing(caps.image_indexing)
            .shader_storage_image_array_non_uniform_indexing(caps.image_indexing)
            .shader_uniform_texel_buffer_array_non_uniform_indexing(caps.image_indexing)
            .shader_storage_texel_buffer_array_non_uniform_indexing(caps.image_indexing)
            .descriptor_binding_sampled_image_update_after_bind(caps.image_indexing)
            .descriptor_binding_storage_image_update_after_bind(caps.image_indexing)
            .descriptor_binding_uniform_texel_buffer_update_after_bind(caps.image_indexing)
            .descriptor_binding_storage_texel_buffer_update_after_bind(caps.image_indexing);
        let features = vk::PhysicalDeviceFeatures::default()
            .depth_bounds(caps.depth_bounds)
            .multi_draw_indirect(caps.multi_draw_indirect)
            .shader_int64(caps.shader_int64)
            .fragment_stores_and_atomics(caps.fragment_stores_and_atomics)
            .vertex_pipeline_stores_and_atomics(caps.vertex_pipeline_stores_and_atomics)
            .shader_int16(caps.sixteen_bit)
            .robust_buffer_access(caps.robust_buffer_access)
            .alpha_to_one(caps.alpha_to_one)
            .occlusion_query_precise(caps.occlusion_query_precise)
            .inherited_queries(caps.inherited_queries)
            .shader_storage_buffer_array_dynamic_indexing(caps.storage_buffer_indexing)
            .shader_sampled_image_array_dynamic_indexing(caps.image_indexing)
            .shader_storage_image_array_dynamic_indexing(caps.image_indexing);
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family as u32)
            .queue_priorities(&priorities)];
        let mut device_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&features);
        if caps.timeline_semaphore {
            device_info = device_info.push_next(&mut enable_timeline);
            if timeline_ext {
                extensions.push(ash::khr::timeline_semaphore::NAME);
            }
        }
        if caps.synchronization2 {
            device_info = device_info.push_next(&mut enable_sync2);
            if sync2_ext {
                extensions.push(ash::khr::synchronization2::NAME);
            }
        }
        if caps.host_query_reset {
            device_info = device_info.push_next(&mut enable_host_reset);
            if host_reset_ext {
                extensions.push(ash::ext::host_query_reset::NAME);
            }
        }
        if caps.pipeline_executable_info {
            device_info = device_info.push_next(&mut enable_executable);
            extensions.push(ash::khr::pipeline_executable_properties::NAME);
        }
        if caps.buffer_marker {
            extensions.push(ash::amd::buffer_marker::NAME);
        }
        if caps.push_descriptor {
            extensions.push(ash::khr::push_descriptor::NAME);
        }
        // vkCmdDraw*IndirectCount may be used with the extension enabled
        // whatever the version (the drawIndirectCount feature is the other
        // way, on Vulkan 1.2).
        if has(ash::khr::draw_indirect_count::NAME) {
            extensions.push(ash::khr::draw_indirect_count::NAME);
        }
        if caps.sixteen_bit {
            device_info = device_info
                .push_next(&mut enable_storage16)
                .push_next(&mut enable_float16);
            if float16_ext {
                extensions.push(ash::khr::shader_float16_int8::NAME);
            }
        }
        if caps.buffer_device_address {
            device_info = device_info.push_next(&mut enable_address);
            if address_ext {
                extensions.push(ash::khr::buffer_device_address::NAME);
            }
        }
        if non_semantic_ext {
            extensions.push(ash::khr::shader_non_semantic_info::NAME);
        }
        if spirv14_ext {
            extensions.push(ash::khr::shader_float_controls::NAME);
            extensions.push(ash::khr::spirv_1_4::NAME);
        }
        if caps.scalar_block_layout {
            device_info = device_info.push_next(&mut enable_scalar);
            if scalar_ext {
                extensions.push(ash::ext::scalar_block_layout::NAME);
            }
        }
        if render_pass2_ext {
            extensions.push(ash::khr::create_renderpass2::NAME);
        }
        if caps.dynamic_rendering {
            device_info = device_info.push_next(&mut enable_dynamic_rendering);
            if dynamic_rendering_ext {
                extensions.push(ash::khr::dynamic_rendering::NAME);
            }
        }
        if caps.extended_dynamic_state {
            device_info = device_info.push_next(&mut enable_eds);
            extensions.push(ash::ext::extended_dynamic_state::NAME);
        }
        if caps.extended_dynamic_state2 {
            device_info = device_info.push_next(&mut enable_eds2);
            extensions.push(ash::ext::extended_dynamic_state2::NAME);
        }
        if caps.imageless_framebuffer {
            device_info = device_info.push_next(&mut enable_imageless);
            if imageless_ext.1 {
                // It depends on VK_KHR_image_format_list before 1.2.
                extensions.push(ash::khr::image_format_list::NAME);
                extensions.push(ash::khr::imageless_framebuffer::NAME);
            }
        }
        if caps.multiview {
            device_info = device_info.push_next(&mut enable_multiview);
        }
        if caps.separate_depth_stencil_layouts {
            device_info = device_info.push_next(&mut enable_ds_layouts);
            if ds_layouts_ext.1 {
                extensions.push(ash::khr::separate_depth_stencil_layouts::NAME);
            }
        }
        if caps.uniform_buffer_standard_layout {
            device_info = device_info.push_next(&mut enable_std_layout);
            if std_layout_ext.1 {
                extensions.push(ash::khr::uniform_buffer_standard_layout::NAME);
            }
        }
        if caps.shader_subgroup_extended_types {
            device_info = device_info.push_next(&mut enable_extended_types);
            if extended_types_ext.1 {
                extensions.push(ash::khr::shader_subgroup_extended_types::NAME);
            }
        }
        if caps.pipeline_creation_cache_control {
            device_info = device_info.push_next(&mut enable_cache_control);
            if cache_control_ext.1 {
                extensions.push(ash::ext::pipeline_creation_cache_control::NAME);
            }
        }
        if caps.texel_buffer_alignment && texel_alignment_ext {
            device_info = device_info.push_next(&mut enable_texel_alignment);
            extensions.push(ash::ext::texel_buffer_alignment::NAME);
        }
        if feedback_ext.1 {
            extensions.push(ash::ext::pipeline_creation_feedback::NAME);
        }
        if caps.inline_uniform_block {
            device_info = device_info.push_next(&mut enable_inline);
            if inline_ext.1 {
                extensions.push(ash::ext::inline_uniform_block::NAME);
            }
        }
        if caps.robust_image_access {
            device_info = device_info.push_next(&mut enable_image_robustness);
            if image_robustness_ext.1 {
                extensions.push(ash::ext::image_robustness::NAME);
            }
        }
        if caps.vulkan_memory_model {
            device_info = device_info.push_next(&mut enable_memory_model);
            if memory_model_ext.1 {
                extensions.push(ash::khr::vulkan_memory_model::NAME);
            }
        }
        if caps.zero_initialize_workgroup_memory {
            device_info = device_info.push_next(&mut enable_zero_init);
            if zero_init_ext.1 {
                extensions.push(ash::khr::zero_initialize_workgroup_memory::NAME);
            }
        }
        if caps.subgroup_size_control || caps.compute_full_subgroups {
            device_info = device_info.push_next(&mut enable_size_control);
            if size_control_ext.1 {
                extensions.push(ash::ext::subgroup_size_control::NAME);
            }
        }
        if caps.shader_terminate_invocation {
            device_info = device_info.push_next(&mut enable_terminate);
            if terminate_ext.1 {
                extensions.push(ash::khr::shader_terminate_invocation::NAME);
            }
        }
        if caps.shader_demote_to_helper_invocation {
            device_info = device_info.push_next(&mut enable_demote);
            if demote_ext.1 {
                extensions.push(ash::ext::shader_demote_to_helper_invocation::NAME);
            }
        }
        if caps.shader_integer_dot_product {
            device_info = device_info.push_next(&mut enable_dot);
            if dot_ext.1 {
                extensions.push(ash::khr::shader_integer_dot_product::NAME);
            }
        }
        if caps.storage_buffer_indexing {
            device_info = device_info.push_next(&mut enable_indexing);
            if indexing_ext.1 {
                extensions.push(ash::ext::descriptor_indexing::NAME);
            }
        }
        if headless_swapchain {
            extensions.push(ash::khr::swapchain::NAME);
        }
        let extension_ptrs: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
        device_info = device_info.enabled_extension_names(&extension_ptrs);
        enabled.enabled_extensions = extensions
            .iter()
            .map(|e| e.to_string_lossy().into_owned())
            .collect();
        // SAFETY: `device_info` and its chain point at locals alive for the
        // call; the features and extensions were reported by this device.
        let device = unsafe { instance.create_device(physical, &device_info, None) }
            .or_stop("vkCreateDevice")?;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER)
            .queue_family_index(queue_family as u32);
        // SAFETY: the device was just created with this queue family.
        let (queue, command_pool) = unsafe {
            let queue = device.get_device_queue(queue_family as u32, 0);
            match device.create_command_pool(&pool_info, None) {
                Ok(pool) => (queue, pool),
                Err(e) => {
                    device.destroy_device(None);
                    return Err(Stop::Error(format!("vkCreateCommandPool returned {e:?}")));
                }
            }
        };
        Ok(DeviceParts {
            physical,
            properties,
            memory_properties,
            caps: enabled,
            device,
            queue_family: queue_family as u32,
            queue,
            command_pool,
        })
    }

    fn complete(self, parts: DeviceParts) -> Harness {
        let timeline = match (
            parts.caps.timeline_semaphore,
            at_least(parts.caps.api_version, 2),
        ) {
            (false, _) => None,
            (true, true) => Some(TimelineSemaphores::Core(Box::new(parts.device.clone()))),
            (true, false) => Some(TimelineSemaphores::Khr(
                ash::khr::timeline_semaphore::Device::new(&self.instance, &parts.device),
            )),
        };
        let synchronization2 = match (
            parts.caps.synchronization2,
            at_least(parts.caps.api_version, 3),
        ) {
            (false, _) => None,
            (true, true) => Some(Synchronization2::Core(Box::new(parts.device.clone()))),
            (true, false) => Some(Synchronization2::Khr(
                ash::khr::synchronization2::Device::new(&self.instance, &parts.device),
            )),
        };
        let render_pass2 = match (parts.caps.render_pass2, at_least(parts.caps.api_version, 2)) {
            (false, _) => None,
            (true, true) => Some(RenderPasses2::Core(Box::new(parts.device.clone()))),
            (true, false) => Some(RenderPasses2::Khr(
                ash::khr::create_renderpass2::Device::new(&self.instance, &parts.device),
            )),
        };
        let offered = |name: &std::ffi::CStr| {
            parts
                .caps
                .enabled_extensions
                .iter()
                .any(|e| *e == *name.to_string_lossy())
        };
        let dynamic_rendering = match (
            parts.caps.dynamic_rendering,
            offered(ash::khr::dynamic_rendering::NAME),
        ) {
            (false, _) => None,
            (true, true) => Some(DynamicRendering::Khr(
                ash::khr::dynamic_rendering::Device::new(&self.instance, &parts.device),
            )),
            (true, false) => Some(DynamicRendering::Core(Box::new(parts.device.clone()))),
        };
        let presentation = parts.caps.headless_swapchain.then(|| {
            Presentation::new(
                &self.entry,
                &self.instance,
                &parts.device,
                self.surface_capabilities2,
            )
        });
        Harness {
            validation: self.validation,
            _entry: self.entry,
            instance: self.instance,
            debug_utils: self.debug_utils,
            messenger: self.messenger,
            physical: parts.physical,
            properties: parts.properties,
            memory_properties: parts.memory_properties,
            caps: parts.caps,
            device: parts.device,
            queue: parts.queue,
            queue_family: parts.queue_family,
            command_pool: parts.command_pool,
            timeline,
            synchronization2,
            render_pass2,
            dynamic_rendering,
            presentation,
            owned: Vec::new(),
            mappings: HashMap::new(),
            torn_down: false,
        }
    }
}

/// Whether a Vulkan version is at least 1.`minor`.
fn at_least(api: u32, minor: u32) -> bool {
    vk::api_version_major(api) > 1 || vk::api_version_minor(api) >= minor
}
