//! Requests the specification lets a driver refuse, and the error it must
//! then return: memory beyond a heap, images of formats or usages the
//! device lacks, features it does not have.

use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Harness, Placement};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "rejections.allocation_beyond_heap",
        run: allocation_beyond_heap,
    },
    Case {
        name: "rejections.unsupported_image_usage",
        run: unsupported_image_usage,
    },
    Case {
        name: "rejections.unsupported_format",
        run: unsupported_format,
    },
    Case {
        name: "rejections.unsupported_feature",
        run: unsupported_feature,
    },
];

const OUT_OF_DEVICE_MEMORY: i32 = vk::Result::ERROR_OUT_OF_DEVICE_MEMORY.as_raw();
const FORMAT_NOT_SUPPORTED: i32 = vk::Result::ERROR_FORMAT_NOT_SUPPORTED.as_raw();

/// An allocation far beyond its heap fails with
/// VK_ERROR_OUT_OF_DEVICE_MEMORY. The size is also beyond any process's
/// address space (4 PiB), so that drivers whose device memory is host
/// memory (lavapipe) cannot satisfy it through overcommit. Asking for more
/// than the heap breaks a valid-usage rule, so the validation layer must
/// report that rule too.
fn allocation_beyond_heap(h: &mut Harness) -> Result<CaseResult, Stop> {
    let memory_type = h.memory_type(u32::MAX, Placement::Device)?;
    let props = h.memory_properties();
    let heap = props.memory_heaps[props.memory_types[memory_type as usize].heap_index as usize];
    let size = heap.size.saturating_mul(2).max(1 << 52);
    h.validation()
        .expect("VUID-vkAllocateMemory-pAllocateInfo-01713");
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(size)
        .memory_type_index(memory_type);
    // SAFETY: a plain allocation on a live device; if it succeeds, the
    // memory is owned and freed by the harness.
    let code = match unsafe { h.device().allocate_memory(&info, None) } {
        Ok(memory) => {
            h.own(memory);
            vk::Result::SUCCESS.as_raw()
        }
        Err(e) => e.as_raw(),
    };
    let mut result = CaseResult::new();
    result.check("codes", &[code], &[OUT_OF_DEVICE_MEMORY]);
    Ok(result)
}

/// `vkGetPhysicalDeviceImageFormatProperties` and its `2` form for a 2-D
/// optimal image of `format` with `usage`: both result codes.
fn image_format_codes(h: &Harness, format: vk::Format, usage: vk::ImageUsageFlags) -> [i32; 2] {
    let (instance, physical) = (h.instance(), h.physical_device());
    let code = |r: ash::prelude::VkResult<()>| match r {
        Ok(()) => vk::Result::SUCCESS.as_raw(),
        Err(e) => e.as_raw(),
    };
    // SAFETY: queries on the live physical device.
    let first = unsafe {
        instance.get_physical_device_image_format_properties(
            physical,
            format,
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            usage,
            vk::ImageCreateFlags::empty(),
        )
    };
    let info = vk::PhysicalDeviceImageFormatInfo2::default()
        .format(format)
        .ty(vk::ImageType::TYPE_2D)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage);
    let mut out = vk::ImageFormatProperties2::default();
    // SAFETY: as above; `info` and `out` outlive the call.
    let second =
        unsafe { instance.get_physical_device_image_format_properties2(physical, &info, &mut out) };
    [code(first.map(|_| ())), code(second)]
}

fn format_properties(h: &Harness, format: vk::Format) -> vk::FormatProperties {
    // SAFETY: a query on the live physical device.
    unsafe {
        h.instance()
            .get_physical_device_format_properties(h.physical_device(), format)
    }
}

/// A format whose optimal tiling lacks storage-image support, asked for a
/// storage image: VK_ERROR_FORMAT_NOT_SUPPORTED.
fn unsupported_image_usage(h: &mut Harness) -> Result<CaseResult, Stop> {
    let candidates = [
        vk::Format::R8G8B8A8_SRGB,
        vk::Format::D16_UNORM,
        vk::Format::D32_SFLOAT,
        vk::Format::E5B9G9R9_UFLOAT_PACK32,
        vk::Format::BC1_RGB_UNORM_BLOCK,
    ];
    let Some(format) = candidates.into_iter().find(|f| {
        !format_properties(h, *f)
            .optimal_tiling_features
            .contains(vk::FormatFeatureFlags::STORAGE_IMAGE)
    }) else {
        return Err(Stop::NotSupported(
            "every candidate format supports storage images".into(),
        ));
    };
    let mut result = CaseResult::new();
    result.check(
        "codes",
        &image_format_codes(h, format, vk::ImageUsageFlags::STORAGE),
        &[FORMAT_NOT_SUPPORTED; 2],
    );
    Ok(result)
}

/// A format the device supports in no way, asked for a sampled image:
/// VK_ERROR_FORMAT_NOT_SUPPORTED.
fn unsupported_format(h: &mut Harness) -> Result<CaseResult, Stop> {
    let candidates = [
        vk::Format::R64G64B64A64_SFLOAT,
        vk::Format::D16_UNORM_S8_UINT,
        vk::Format::ASTC_12X12_SRGB_BLOCK,
        vk::Format::ETC2_R8G8B8A1_SRGB_BLOCK,
        vk::Format::BC7_SRGB_BLOCK,
    ];
    let Some(format) = candidates.into_iter().find(|f| {
        let p = format_properties(h, *f);
        p.optimal_tiling_features.is_empty() && p.linear_tiling_features.is_empty()
    }) else {
        return Err(Stop::NotSupported(
            "the device supports every candidate format for images".into(),
        ));
    };
    let mut result = CaseResult::new();
    result.check(
        "codes",
        &image_format_codes(h, format, vk::ImageUsageFlags::SAMPLED),
        &[FORMAT_NOT_SUPPORTED; 2],
    );
    Ok(result)
}

/// A feature's name, how to read it and how to ask for it.
type FeatureField = (
    &'static str,
    fn(&vk::PhysicalDeviceFeatures) -> vk::Bool32,
    fn(&mut vk::PhysicalDeviceFeatures),
);

/// A [`FeatureField`] for the `VkPhysicalDeviceFeatures` member `$field`.
macro_rules! feature {
    ($name:literal, $field:ident) => {
        (
            $name,
            |f: &vk::PhysicalDeviceFeatures| f.$field,
            |f: &mut vk::PhysicalDeviceFeatures| f.$field = vk::TRUE,
        )
    };
}

/// Features few compute devices have, to find one this device lacks.
const RARE_FEATURES: [FeatureField; 6] = [
    feature!("sparseBinding", sparse_binding),
    feature!("sparseResidencyAliased", sparse_residency_aliased),
    feature!("shaderResourceMinLod", shader_resource_min_lod),
    feature!("depthBounds", depth_bounds),
    feature!("inheritedQueries", inherited_queries),
    feature!("variableMultisampleRate", variable_multisample_rate),
];

/// A second device asking for a feature this one lacks is refused with
/// VK_ERROR_FEATURE_NOT_PRESENT.
fn unsupported_feature(h: &mut Harness) -> Result<CaseResult, Stop> {
    // SAFETY: a query on the live physical device.
    let supported = unsafe {
        h.instance()
            .get_physical_device_features(h.physical_device())
    };
    let Some((name, _, enable)) = RARE_FEATURES
        .iter()
        .find(|(_, get, _)| get(&supported) == vk::FALSE)
    else {
        return Err(Stop::NotSupported(
            "the device has every candidate feature".into(),
        ));
    };
    let mut features = vk::PhysicalDeviceFeatures::default();
    enable(&mut features);
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(h.queue_family())
        .queue_priorities(&priorities)];
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_features(&features);
    // SAFETY: creating a device on the live physical device; one that is
    // created after all is destroyed at once.
    let code = match unsafe { h.instance().create_device(h.physical_device(), &info, None) } {
        Ok(device) => {
            // SAFETY: the device was just created and nothing uses it.
            unsafe { device.destroy_device(None) };
            vk::Result::SUCCESS.as_raw()
        }
        Err(e) => e.as_raw(),
    };
    let mut result = CaseResult::new();
    result.require(
        code == vk::Result::ERROR_FEATURE_NOT_PRESENT.as_raw(),
        format!("asking for {name}, which the device lacks"),
    );
    result.check(
        "codes",
        &[code],
        &[vk::Result::ERROR_FEATURE_NOT_PRESENT.as_raw()],
    );
    Ok(result)
}
