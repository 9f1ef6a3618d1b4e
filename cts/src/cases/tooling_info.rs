//! VK_EXT_tooling_info: the device offers it, and
//! vkGetPhysicalDeviceToolPropertiesEXT lists the tools between the
//! application and the driver by the two-call idiom. The driver adds none
//! of its own; the loader adds one entry per layer that reports itself a
//! tool, so the same instance on lavapipe lists the same tools.

use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "tooling_info.tools",
    run: tools,
}];

/// The extension, or Vulkan 1.3 where the command is core (lavapipe lists
/// only the core version).
fn offered(h: &Harness) -> Result<bool, Stop> {
    if vk::api_version_minor(h.caps().api_version) >= 3 {
        return Ok(true);
    }
    h.offers_extension(ash::ext::tooling_info::NAME)
}

/// The tools' count and their names (each NUL-terminated string's bytes,
/// concatenated), kept exact: a layer above the driver (the validation
/// layer reports itself) adds the same entries on either driver, so a tool
/// the driver invented, or a count it got wrong, differs from lavapipe's.
fn tools(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !offered(h)? {
        return Err(Stop::NotSupported("VK_EXT_tooling_info".into()));
    }
    let ext = ash::ext::tooling_info::Instance::new(h.entry(), h.instance());
    let pd = h.physical_device();
    let mut result = CaseResult::new();
    // SAFETY: the instance is alive, and pCount points at a u32.
    let mut count = u32::MAX;
    let first = unsafe {
        (ext.fp().get_physical_device_tool_properties_ext)(pd, &mut count, std::ptr::null_mut())
    };
    result.require(
        first == vk::Result::SUCCESS,
        format!("count query gave {first:?}"),
    );
    result.require(count != u32::MAX, "the count query did not write the count");
    let mut list = vec![vk::PhysicalDeviceToolProperties::default(); count as usize];
    let mut written = count;
    // SAFETY: pProperties holds `written` initialised structures.
    let second = unsafe {
        (ext.fp().get_physical_device_tool_properties_ext)(pd, &mut written, list.as_mut_ptr())
    };
    result.require(
        second == vk::Result::SUCCESS,
        format!("fill gave {second:?}"),
    );
    let mut names: Vec<u8> = Vec::new();
    for t in &list[..written as usize] {
        let name = t
            .name_as_c_str()
            .map_err(|e| Stop::Error(format!("tool name: {e}")))?;
        names.extend(name.to_bytes_with_nul());
    }
    result.check("count_written", &[count, written], &[count, count]);
    result.keep_exact("names", names);
    Ok(result)
}
