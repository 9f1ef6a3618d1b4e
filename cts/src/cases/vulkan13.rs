//! What Vulkan 1.3 gathers, reported truthfully whichever structure asks:
//! each member of `VkPhysicalDeviceVulkan13Features` (on a 1.3 device) and
//! of its extension's feature structure (where the extension is offered)
//! agree, a device enabling an offered one is made, and one enabling a
//! feature not offered is refused with VK_ERROR_FEATURE_NOT_PRESENT; the
//! 1.3 properties equal the extension structures' and reach the minimums
//! the specification sets for the features offered.
//!
//! Every output is a flag per feature or per check, 1 when the driver is
//! consistent, so that a driver offering less than lavapipe writes the same
//! bytes.

use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;
use std::ffi::CStr;

pub const CASES: &[Case] = &[
    Case {
        name: "vulkan13.features",
        run: features,
    },
    Case {
        name: "vulkan13.properties",
        run: properties,
    },
];

/// One member of `VkPhysicalDeviceVulkan13Features` and the extension
/// structure that carried it before 1.3.
struct Feature {
    name: &'static str,
    extension: &'static CStr,
    core: for<'a> fn(&'a mut vk::PhysicalDeviceVulkan13Features<'static>) -> &'a mut vk::Bool32,
    /// Whether the extension's structure reports the member.
    query: fn(&Harness) -> bool,
    /// Makes a device enabling the member through the extension's
    /// structure (and the extension): what vkCreateDevice returns.
    enable: fn(&Harness, &CStr) -> vk::Result,
}

/// Whether the member `get` picks of the extension structure `T` is true.
fn query_extension<T>(h: &Harness, get: fn(&mut T) -> &mut vk::Bool32) -> bool
where
    T: vk::ExtendsPhysicalDeviceFeatures2 + Default,
{
    let mut s = T::default();
    let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut s);
    // SAFETY: a query on the live physical device with a valid chain.
    unsafe {
        h.instance()
            .get_physical_device_features2(h.physical_device(), &mut features)
    };
    *get(&mut s) == vk::TRUE
}

/// What vkCreateDevice returns for a device enabling only `extensions`
/// and the features of `chained`; a device made is destroyed at once.
fn try_device<T>(h: &Harness, extensions: &[&CStr], chained: &mut T) -> vk::Result
where
    T: vk::ExtendsDeviceCreateInfo,
{
    let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(h.queue_family())
        .queue_priorities(&priorities)];
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&names)
        .push_next(chained);
    // SAFETY: creating a device on the live physical device from a valid
    // create info; one that is made is destroyed before anything uses it.
    match unsafe { h.instance().create_device(h.physical_device(), &info, None) } {
        Ok(device) => {
            // SAFETY: the device was just made and holds no objects.
            unsafe { device.destroy_device(None) };
            vk::Result::SUCCESS
        }
        Err(e) => e,
    }
}

/// Enables the member `get` picks of `T` through `T` and `extension`.
fn enable_extension<T>(
    h: &Harness,
    extension: &CStr,
    get: fn(&mut T) -> &mut vk::Bool32,
) -> vk::Result
where
    T: vk::ExtendsDeviceCreateInfo + Default,
{
    let mut s = T::default();
    *get(&mut s) = vk::TRUE;
    try_device(h, &[extension], &mut s)
}

macro_rules! feature {
    ($name:literal, $ext:expr, $ty:ty, $field:ident) => {
        Feature {
            name: $name,
            extension: $ext,
            core: |f| &mut f.$field,
            query: |h| query_extension::<$ty>(h, |s| &mut s.$field),
            enable: |h, e| enable_extension::<$ty>(h, e, |s| &mut s.$field),
        }
    };
}

const FEATURES: &[Feature] = &[
    feature!(
        "robustImageAccess",
        ash::ext::image_robustness::NAME,
        vk::PhysicalDeviceImageRobustnessFeatures<'static>,
        robust_image_access
    ),
    feature!(
        "inlineUniformBlock",
        ash::ext::inline_uniform_block::NAME,
        vk::PhysicalDeviceInlineUniformBlockFeatures<'static>,
        inline_uniform_block
    ),
    feature!(
        "descriptorBindingInlineUniformBlockUpdateAfterBind",
        ash::ext::inline_uniform_block::NAME,
        vk::PhysicalDeviceInlineUniformBlockFeatures<'static>,
        descriptor_binding_inline_uniform_block_update_after_bind
    ),
    feature!(
        "pipelineCreationCacheControl",
        ash::ext::pipeline_creation_cache_control::NAME,
        vk::PhysicalDevicePipelineCreationCacheControlFeatures<'static>,
        pipeline_creation_cache_control
    ),
    feature!(
        "privateData",
        ash::ext::private_data::NAME,
        vk::PhysicalDevicePrivateDataFeatures<'static>,
        private_data
    ),
    feature!(
        "shaderDemoteToHelperInvocation",
        ash::ext::shader_demote_to_helper_invocation::NAME,
        vk::PhysicalDeviceShaderDemoteToHelperInvocationFeatures<'static>,
        shader_demote_to_helper_invocation
    ),
    feature!(
        "shaderTerminateInvocation",
        ash::khr::shader_terminate_invocation::NAME,
        vk::PhysicalDeviceShaderTerminateInvocationFeatures<'static>,
        shader_terminate_invocation
    ),
    feature!(
        "subgroupSizeControl",
        ash::ext::subgroup_size_control::NAME,
        vk::PhysicalDeviceSubgroupSizeControlFeatures<'static>,
        subgroup_size_control
    ),
    feature!(
        "computeFullSubgroups",
        ash::ext::subgroup_size_control::NAME,
        vk::PhysicalDeviceSubgroupSizeControlFeatures<'static>,
        compute_full_subgroups
    ),
    feature!(
        "synchronization2",
        ash::khr::synchronization2::NAME,
        vk::PhysicalDeviceSynchronization2Features<'static>,
        synchronization2
    ),
    feature!(
        "textureCompressionASTC_HDR",
        ash::ext::texture_compression_astc_hdr::NAME,
        vk::PhysicalDeviceTextureCompressionASTCHDRFeatures<'static>,
        texture_compression_astc_hdr
    ),
    feature!(
        "shaderZeroInitializeWorkgroupMemory",
        ash::khr::zero_initialize_workgroup_memory::NAME,
        vk::PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures<'static>,
        shader_zero_initialize_workgroup_memory
    ),
    feature!(
        "dynamicRendering",
        ash::khr::dynamic_rendering::NAME,
        vk::PhysicalDeviceDynamicRenderingFeatures<'static>,
        dynamic_rendering
    ),
    feature!(
        "shaderIntegerDotProduct",
        ash::khr::shader_integer_dot_product::NAME,
        vk::PhysicalDeviceShaderIntegerDotProductFeatures<'static>,
        shader_integer_dot_product
    ),
    feature!(
        "maintenance4",
        ash::khr::maintenance4::NAME,
        vk::PhysicalDeviceMaintenance4Features<'static>,
        maintenance4
    ),
];

/// Whether two structures hold the same values in the members named.
macro_rules! members_equal {
    ($a:expr, $b:expr, [$($field:ident),* $(,)?]) => {
        true $(&& $a.$field == $b.$field)*
    };
}

fn is_vulkan13(h: &Harness) -> bool {
    let api = h.caps().api_version;
    vk::api_version_major(api) > 1 || vk::api_version_minor(api) >= 3
}

/// Whether a device asking for a feature got the answer its offer
/// implies.
fn answered_as_offered(offered: bool, code: vk::Result) -> bool {
    if offered {
        code == vk::Result::SUCCESS
    } else {
        code == vk::Result::ERROR_FEATURE_NOT_PRESENT
    }
}

/// Kept, per feature: whether the 1.3 structure and the extension's agree
/// (where both can be asked); whether enabling it through each structure
/// that can carry it was answered as its offer implies.
fn features(h: &mut Harness) -> Result<CaseResult, Stop> {
    let core = is_vulkan13(h);
    let mut all = vk::PhysicalDeviceVulkan13Features::default();
    if core {
        let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut all);
        // SAFETY: a query on the live 1.3 physical device.
        unsafe {
            h.instance()
                .get_physical_device_features2(h.physical_device(), &mut query)
        };
        all.p_next = std::ptr::null_mut();
    }
    let mut agree = Vec::new();
    let mut answers = Vec::new();
    let mut result = CaseResult::new();
    for f in FEATURES {
        let extension = h.offers_extension(f.extension)?;
        let by_extension = extension && (f.query)(h);
        let by_core = core && *(f.core)(&mut all) == vk::TRUE;
        let consistent = !(core && extension) || by_core == by_extension;
        result.require(consistent, format!("{}: the two structures differ", f.name));
        agree.push(u32::from(consistent));
        let offered = by_core || by_extension;
        let mut answered = true;
        if core {
            let mut one = vk::PhysicalDeviceVulkan13Features::default();
            *(f.core)(&mut one) = vk::TRUE;
            let code = try_device(h, &[], &mut one);
            answered &= answered_as_offered(offered, code);
            result.require(
                answered,
                format!("{} through the 1.3 structure: {code}", f.name),
            );
        }
        if extension {
            let code = (f.enable)(h, f.extension);
            let ok = answered_as_offered(offered, code);
            result.require(ok, format!("{} through its extension: {code}", f.name));
            answered &= ok;
        }
        answers.push(u32::from(answered));
    }
    result.check("structures_agree", &agree, &vec![1u32; agree.len()]);
    result.check("answered_as_offered", &answers, &vec![1u32; answers.len()]);
    Ok(result)
}

/// Fills the property structure `T` if `extension` is offered.
fn query_properties<T>(h: &Harness, extension: &CStr) -> Result<Option<T>, Stop>
where
    T: vk::ExtendsPhysicalDeviceProperties2 + Default,
{
    if !h.offers_extension(extension)? {
        return Ok(None);
    }
    let mut s = T::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut s);
    // SAFETY: a query on the live physical device with a valid chain.
    unsafe {
        h.instance()
            .get_physical_device_properties2(h.physical_device(), &mut properties)
    };
    Ok(Some(s))
}

/// Kept: whether the 1.3 structure equals each extension structure the
/// device offers (subgroup size control, inline uniform blocks, texel
/// buffer alignment, maintenance4); whether the values reach the
/// specification's minimums for the features offered.
fn properties(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut core = vk::PhysicalDeviceVulkan13Properties::default();
    let is_core = is_vulkan13(h);
    if is_core {
        let mut query = vk::PhysicalDeviceProperties2::default().push_next(&mut core);
        // SAFETY: a query on the live 1.3 physical device.
        unsafe {
            h.instance()
                .get_physical_device_properties2(h.physical_device(), &mut query)
        };
    }
    let subgroups: Option<vk::PhysicalDeviceSubgroupSizeControlProperties> =
        query_properties(h, ash::ext::subgroup_size_control::NAME)?;
    let inline: Option<vk::PhysicalDeviceInlineUniformBlockProperties> =
        query_properties(h, ash::ext::inline_uniform_block::NAME)?;
    let texel: Option<vk::PhysicalDeviceTexelBufferAlignmentProperties> =
        query_properties(h, ash::ext::texel_buffer_alignment::NAME)?;
    let maintenance4: Option<vk::PhysicalDeviceMaintenance4Properties> =
        query_properties(h, ash::khr::maintenance4::NAME)?;
    let mut result = CaseResult::new();
    // One flag per comparison and per minimum, 1 also where it does not
    // apply (no 1.3 structure, the extension or the feature not offered),
    // so that every driver keeps as many.
    let mut equal = Vec::new();
    let mut same = |what: &str, applies: bool, ok: bool| {
        result.require(!applies || ok, format!("{what}: the 1.3 structure differs"));
        equal.push(u32::from(!applies || ok));
    };
    same(
        "subgroup size control",
        is_core && subgroups.is_some(),
        subgroups.is_some_and(|s| {
            members_equal!(
                s,
                core,
                [
                    min_subgroup_size,
                    max_subgroup_size,
                    max_compute_workgroup_subgroups,
                    required_subgroup_size_stages
                ]
            )
        }),
    );
    same(
        "inline uniform blocks",
        is_core && inline.is_some(),
        inline.is_some_and(|s| {
            members_equal!(
                s,
                core,
                [
                    max_inline_uniform_block_size,
                    max_per_stage_descriptor_inline_uniform_blocks,
                    max_per_stage_descriptor_update_after_bind_inline_uniform_blocks,
                    max_descriptor_set_inline_uniform_blocks,
                    max_descriptor_set_update_after_bind_inline_uniform_blocks
                ]
            )
        }),
    );
    same(
        "texel buffer alignment",
        is_core && texel.is_some(),
        texel.is_some_and(|s| {
            members_equal!(
                s,
                core,
                [
                    storage_texel_buffer_offset_alignment_bytes,
                    storage_texel_buffer_offset_single_texel_alignment,
                    uniform_texel_buffer_offset_alignment_bytes,
                    uniform_texel_buffer_offset_single_texel_alignment
                ]
            )
        }),
    );
    same(
        "maintenance4",
        is_core && maintenance4.is_some(),
        maintenance4.is_some_and(|s| s.max_buffer_size == core.max_buffer_size),
    );
    // The specification's minimums, for what is offered.
    let limits = h.properties().limits;
    let (subgroup_size, _, _) = h.subgroup_properties();
    let mut minimums = Vec::new();
    let mut reach = |what: &str, applies: bool, ok: bool| {
        result.require(
            !applies || ok,
            format!("{what} is below the specification's minimum"),
        );
        minimums.push(u32::from(!applies || ok));
    };
    let sizes = if is_core {
        Some((core.min_subgroup_size, core.max_subgroup_size))
    } else {
        subgroups.map(|s| (s.min_subgroup_size, s.max_subgroup_size))
    };
    reach(
        "the subgroup sizes",
        sizes.is_some(),
        sizes.is_some_and(|(min, max)| {
            min.is_power_of_two()
                && max.is_power_of_two()
                && min <= subgroup_size
                && subgroup_size <= max
        }),
    );
    let block = if is_core {
        Some(core.max_inline_uniform_block_size)
    } else {
        inline.map(|s| s.max_inline_uniform_block_size)
    };
    reach(
        "maxInlineUniformBlockSize",
        block.is_some() && offers_inline_uniform_block(h)?,
        block.is_some_and(|size| size >= 256),
    );
    let alignments = if is_core {
        Some((
            core.storage_texel_buffer_offset_alignment_bytes,
            core.uniform_texel_buffer_offset_alignment_bytes,
        ))
    } else {
        texel.map(|s| {
            (
                s.storage_texel_buffer_offset_alignment_bytes,
                s.uniform_texel_buffer_offset_alignment_bytes,
            )
        })
    };
    // At most minTexelBufferOffsetAlignment, and a power of two.
    let fits = |a: u64| a.is_power_of_two() && a <= limits.min_texel_buffer_offset_alignment;
    reach(
        "the texel buffer alignments",
        alignments.is_some(),
        alignments.is_some_and(|(storage, uniform)| fits(storage) && fits(uniform)),
    );
    result.check("equal_to_extensions", &equal, &vec![1u32; equal.len()]);
    result.check("minimums", &minimums, &vec![1u32; minimums.len()]);
    Ok(result)
}

/// Whether the device offers inlineUniformBlock, by either structure.
fn offers_inline_uniform_block(h: &Harness) -> Result<bool, Stop> {
    let by_extension = h.offers_extension(ash::ext::inline_uniform_block::NAME)?
        && query_extension::<vk::PhysicalDeviceInlineUniformBlockFeatures>(h, |s| {
            &mut s.inline_uniform_block
        });
    if by_extension || !is_vulkan13(h) {
        return Ok(by_extension);
    }
    let mut all = vk::PhysicalDeviceVulkan13Features::default();
    let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut all);
    // SAFETY: a query on the live 1.3 physical device.
    unsafe {
        h.instance()
            .get_physical_device_features2(h.physical_device(), &mut query)
    };
    Ok(all.inline_uniform_block == vk::TRUE)
}
