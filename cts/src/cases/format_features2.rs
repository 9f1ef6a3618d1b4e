//! VK_KHR_format_feature_flags2 (core in Vulkan 1.3): for every core
//! format, `VkFormatProperties3`'s 64-bit features hold the 32-bit ones of
//! `VkFormatProperties` in their low bits, and a format a shader may read
//! or write as a storage image or storage texel buffer without naming its
//! format (shaderStorageImageReadWithoutFormat and WriteWithoutFormat) says
//! so with the _WITHOUT_FORMAT bits; DRM format modifiers' 64-bit features
//! agree with their 32-bit ones.
//!
//! Kept: one flag per format and check, 1 when they agree, so that drivers
//! with different formats write the same bytes.

use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "format_features2.properties3",
    run: properties3,
}];

/// The core formats of Vulkan 1.0: `VK_FORMAT_R4G4_UNORM_PACK8` to
/// `VK_FORMAT_ASTC_12x12_SRGB_BLOCK`.
const LAST_CORE_FORMAT: i32 = 184;

/// The bits of `features` that `VkFormatFeatureFlags` has too: the low 31
/// (bit 31 is STORAGE_READ_WITHOUT_FORMAT, which only the 64-bit flags
/// have).
fn low_bits_of(features: vk::FormatFeatureFlags2) -> u32 {
    (features.as_raw() & 0x7fff_ffff) as u32
}

fn properties3(h: &mut Harness) -> Result<CaseResult, Stop> {
    let api = h.caps().api_version;
    let core = vk::api_version_major(api) > 1 || vk::api_version_minor(api) >= 3;
    if !core && !h.offers_extension(ash::khr::format_feature_flags2::NAME)? {
        return Err(Stop::NotSupported("VK_KHR_format_feature_flags2".into()));
    }
    let modifiers = h.offers_extension(ash::ext::image_drm_format_modifier::NAME)?;
    // SAFETY: a query on the live physical device.
    let features = unsafe {
        h.instance()
            .get_physical_device_features(h.physical_device())
    };
    let read = features.shader_storage_image_read_without_format == vk::TRUE;
    let write = features.shader_storage_image_write_without_format == vk::TRUE;
    let mut low_bits = Vec::new();
    let mut without_format = Vec::new();
    let mut modifier_bits = Vec::new();
    let mut result = CaseResult::new();
    for raw in 1..=LAST_CORE_FORMAT {
        let format = vk::Format::from_raw(raw);
        let mut p3 = vk::FormatProperties3::default();
        let mut p = vk::FormatProperties2::default().push_next(&mut p3);
        // SAFETY: a query on the live physical device with a valid chain.
        unsafe {
            h.instance()
                .get_physical_device_format_properties2(h.physical_device(), format, &mut p)
        };
        let old = p.format_properties;
        let pairs = [
            (old.linear_tiling_features, p3.linear_tiling_features),
            (old.optimal_tiling_features, p3.optimal_tiling_features),
            (old.buffer_features, p3.buffer_features),
        ];
        let same = pairs.iter().all(|(o, n)| low_bits_of(*n) == o.as_raw());
        result.require(same, format!("{format:?}: the low bits differ"));
        low_bits.push(u32::from(same));
        let says = pairs.iter().all(|(o, n)| {
            let storage = o.intersects(
                vk::FormatFeatureFlags::STORAGE_IMAGE
                    | vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
            );
            (!storage || !read || n.contains(vk::FormatFeatureFlags2::STORAGE_READ_WITHOUT_FORMAT))
                && (!storage
                    || !write
                    || n.contains(vk::FormatFeatureFlags2::STORAGE_WRITE_WITHOUT_FORMAT))
        });
        result.require(says, format!("{format:?}: no _WITHOUT_FORMAT bits"));
        without_format.push(u32::from(says));
        modifier_bits.push(u32::from(!modifiers || modifiers_agree(h, format)));
    }
    result.check("low_bits", &low_bits, &vec![1; low_bits.len()]);
    result.check(
        "without_format",
        &without_format,
        &vec![1; without_format.len()],
    );
    result.check("modifiers", &modifier_bits, &vec![1; modifier_bits.len()]);
    Ok(result)
}

/// Whether `format`'s DRM format modifiers are the same in both lists, the
/// 64-bit features holding the 32-bit ones.
fn modifiers_agree(h: &Harness, format: vk::Format) -> bool {
    let query = |list: &mut vk::DrmFormatModifierPropertiesListEXT,
                 list2: &mut vk::DrmFormatModifierPropertiesList2EXT| {
        // A chain made afresh each time: push_next links what is already
        // chained from the structure pushed.
        list.p_next = std::ptr::null_mut();
        list2.p_next = std::ptr::null_mut();
        let mut p = vk::FormatProperties2::default()
            .push_next(list)
            .push_next(list2);
        // SAFETY: a query on the live physical device with a valid chain;
        // the lists' arrays hold their counts.
        unsafe {
            h.instance()
                .get_physical_device_format_properties2(h.physical_device(), format, &mut p)
        };
    };
    let mut list = vk::DrmFormatModifierPropertiesListEXT::default();
    let mut list2 = vk::DrmFormatModifierPropertiesList2EXT::default();
    query(&mut list, &mut list2);
    if list.drm_format_modifier_count != list2.drm_format_modifier_count {
        return false;
    }
    let n = list.drm_format_modifier_count as usize;
    let mut old = vec![vk::DrmFormatModifierPropertiesEXT::default(); n];
    let mut new = vec![vk::DrmFormatModifierProperties2EXT::default(); n];
    list.p_drm_format_modifier_properties = old.as_mut_ptr();
    list2.p_drm_format_modifier_properties = new.as_mut_ptr();
    query(&mut list, &mut list2);
    old.iter().zip(&new).all(|(o, n)| {
        o.drm_format_modifier == n.drm_format_modifier
            && low_bits_of(n.drm_format_modifier_tiling_features)
                == o.drm_format_modifier_tiling_features.as_raw()
    })
}
