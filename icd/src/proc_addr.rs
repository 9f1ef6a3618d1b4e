//! Which entry point a name resolves to, at which level, and when it is
//! available: the table behind `vkGetInstanceProcAddr`,
//! `vkGetDeviceProcAddr` and `vk_icdGetPhysicalDeviceProcAddr`.
//!
//! The table is generated at build time from the Vulkan registry
//! (codegen/dispatch.rs): every command a Vulkan version or an extension
//! brings whose entry point the ICD has, tagged with what brings it. What
//! is offered is decided here from what the driver reports: commands of
//! the reported version and below, and commands of the extensions the
//! driver lists (for device-level lookups, those the device enabled). An
//! unknown or unoffered name resolves to NULL.

use std::ffi::CStr;
use std::sync::LazyLock;

use ash::vk;
use parsnip_driver::extensions::{Extension, DEVICE_EXTENSIONS, INSTANCE_EXTENSIONS};
use parsnip_driver::physical_device::API_VERSION;

/// The object an entry point dispatches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Callable with no instance (`vkCreateInstance` and friends).
    Global,
    /// Dispatched on an instance.
    Instance,
    /// Dispatched on a physical device.
    PhysicalDevice,
    /// Dispatched on a device, queue or command buffer.
    Device,
}

/// What brings a command into the API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Core Vulkan 1.x, by minor version.
    Version(u32),
    /// An extension (device or instance), with the registry's `depends`
    /// expression for the commands it brings only alongside something else.
    Extension {
        name: &'static CStr,
        device: bool,
        depends: Option<&'static str>,
    },
}

pub struct Entry {
    pub name: &'static CStr,
    pub scope: Scope,
    pub origin: Origin,
    pub pfn: unsafe extern "system" fn(),
}

impl Entry {
    /// # Safety
    /// `pfn` points at a `pub unsafe extern "system" fn`, the entry point
    /// of `name`.
    unsafe fn new(name: &'static CStr, scope: Scope, origin: Origin, pfn: *const ()) -> Entry {
        Entry {
            name,
            scope,
            origin,
            // SAFETY: the caller's promise: `pfn` is a function pointer,
            // which has the size of a data pointer on every platform the
            // loader runs on; the loader casts it back to the command's own
            // type before calling.
            pfn: unsafe { std::mem::transmute::<*const (), unsafe extern "system" fn()>(pfn) },
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/dispatch_table.rs"));

static TABLE: LazyLock<Vec<Entry>> = LazyLock::new(generated_entries);

/// Every (name, origin) the ICD implements.
pub fn entries() -> &'static [Entry] {
    &TABLE
}

/// What a lookup may see: the API version, and the extensions whose
/// commands are offered.
pub struct Offered<'a> {
    pub minor_version: u32,
    pub instance_extensions: &'a [Extension],
    pub device_extensions: &'a [Extension],
}

impl Offered<'static> {
    /// Everything the driver reports: the lookups of an instance.
    pub fn driver() -> Offered<'static> {
        Offered {
            minor_version: vk::api_version_minor(API_VERSION),
            instance_extensions: INSTANCE_EXTENSIONS,
            device_extensions: DEVICE_EXTENSIONS,
        }
    }
}

impl Offered<'_> {
    fn has(&self, name: &str) -> bool {
        if let Some(minor) = name.strip_prefix("VK_VERSION_1_") {
            return minor.parse().is_ok_and(|m: u32| m <= self.minor_version);
        }
        self.instance_extensions
            .iter()
            .chain(self.device_extensions)
            .any(|e| e.name.to_bytes() == name.as_bytes())
    }

    /// Whether an origin's commands are offered.
    pub fn offers(&self, origin: Origin) -> bool {
        match origin {
            Origin::Version(minor) => minor <= self.minor_version,
            Origin::Extension { name, depends, .. } => {
                name.to_str().is_ok_and(|n| self.has(n))
                    && depends.is_none_or(|d| depends_holds(d, &|n| self.has(n)))
            }
        }
    }
}

/// Evaluates a registry `depends` expression: names joined by `+` (and)
/// and `,` (or), `+` binding tighter, with parentheses.
pub fn depends_holds(expression: &str, has: &dyn Fn(&str) -> bool) -> bool {
    fn any(s: &mut &str, has: &dyn Fn(&str) -> bool) -> bool {
        let mut value = all(s, has);
        while let Some(rest) = s.strip_prefix(',') {
            *s = rest;
            value |= all(s, has);
        }
        value
    }
    fn all(s: &mut &str, has: &dyn Fn(&str) -> bool) -> bool {
        let mut value = term(s, has);
        while let Some(rest) = s.strip_prefix('+') {
            *s = rest;
            value &= term(s, has);
        }
        value
    }
    fn term(s: &mut &str, has: &dyn Fn(&str) -> bool) -> bool {
        if let Some(rest) = s.strip_prefix('(') {
            *s = rest;
            let value = any(s, has);
            *s = s.strip_prefix(')').unwrap_or(s);
            return value;
        }
        let end = s.find([',', '+', ')']).unwrap_or(s.len());
        let (name, rest) = s.split_at(end);
        *s = rest;
        has(name.trim())
    }
    let mut s = expression;
    any(&mut s, has)
}

/// The entry point `name` names at a level `allowed` accepts, if what
/// brings it is offered.
pub fn find(
    name: &CStr,
    offered: &Offered<'_>,
    allowed: impl Fn(Scope) -> bool,
) -> Option<&'static Entry> {
    TABLE
        .iter()
        .find(|e| e.name == name && allowed(e.scope) && offered.offers(e.origin))
}

/// The entry point as the loader's void function type.
pub fn void_function(entry: &Entry) -> vk::PFN_vkVoidFunction {
    Some(entry.pfn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_tied_to_what_brings_them() {
        let all = |_| true;
        let offered = Offered::driver();
        let dispatch = find(c"vkCmdDispatch", &offered, all).unwrap();
        assert_eq!(dispatch.scope, Scope::Device);
        assert_eq!(dispatch.origin, Origin::Version(0));
        assert_eq!(
            find(c"vkEnumeratePhysicalDeviceGroups", &offered, all)
                .unwrap()
                .scope,
            Scope::Instance
        );
        assert_eq!(
            find(c"vkCreateInstance", &offered, all).unwrap().scope,
            Scope::Global
        );
        // A command of the reported version (1.3) is offered by its core
        // name and by its extension's, which the device offers; so is a
        // 1.2 one.
        assert!(find(c"vkCmdPipelineBarrier2", &offered, all).is_some());
        assert!(find(c"vkCmdPipelineBarrier2KHR", &offered, all).is_some());
        assert!(find(c"vkCmdBeginRendering", &offered, all).is_some());
        assert!(find(c"vkGetSemaphoreCounterValue", &offered, all).is_some());
        let khr = find(c"vkGetSemaphoreCounterValueKHR", &offered, all).unwrap();
        assert!(matches!(khr.origin, Origin::Extension { device: true, .. }));
        // Implemented by the same function, offered under no extension
        // the driver lists.
        assert!(find(c"vkCmdDispatchBaseKHR", &offered, all).is_none());
        let none = Offered {
            device_extensions: &[],
            ..Offered::driver()
        };
        assert!(find(c"vkGetSemaphoreCounterValueKHR", &none, all).is_none());
        // Presentation: the surface commands at instance and physical-device
        // level, the swapchain's at device level, and those only with the
        // device extension.
        let scope = |name: &CStr| find(name, &offered, all).map(|e| e.scope);
        assert_eq!(scope(c"vkCreateHeadlessSurfaceEXT"), Some(Scope::Instance));
        assert_eq!(
            scope(c"vkGetPhysicalDeviceSurfaceFormats2KHR"),
            Some(Scope::PhysicalDevice)
        );
        assert_eq!(
            scope(c"vkGetPhysicalDevicePresentRectanglesKHR"),
            Some(Scope::PhysicalDevice)
        );
        assert_eq!(scope(c"vkQueuePresentKHR"), Some(Scope::Device));
        assert_eq!(
            scope(c"vkGetDeviceGroupPresentCapabilitiesKHR"),
            Some(Scope::Device)
        );
        assert!(find(c"vkAcquireNextImage2KHR", &none, all).is_none());
        assert!(find(c"vkCreateXcbSurfaceKHR", &offered, all).is_none());
        // The synchronization2 form of the buffer marker: with the marker
        // extension alone on a 1.3 device, where synchronization2 is core,
        // or with both on a 1.2 one; never with the marker alone on 1.2.
        let marker_only = [Extension {
            name: ash::amd::buffer_marker::NAME,
            spec_version: ash::amd::buffer_marker::SPEC_VERSION,
        }];
        let on = |minor_version, device_extensions| Offered {
            minor_version,
            device_extensions,
            ..Offered::driver()
        };
        let marker2 = c"vkCmdWriteBufferMarker2AMD";
        assert!(find(marker2, &on(3, &marker_only), all).is_some());
        assert!(find(marker2, &on(2, &marker_only), all).is_none());
        assert!(find(marker2, &on(2, DEVICE_EXTENSIONS), all).is_some());
        assert!(find(marker2, &on(3, &[]), all).is_none());
    }

    #[test]
    fn depends_expressions_follow_the_registry_grammar() {
        let has = |n: &str| ["A", "B", "VK_VERSION_1_1"].contains(&n);
        assert!(depends_holds("A", &has));
        assert!(!depends_holds("C", &has));
        assert!(depends_holds("A+B", &has));
        assert!(!depends_holds("A+C", &has));
        assert!(depends_holds("C,A", &has));
        assert!(depends_holds("(C,A)+VK_VERSION_1_1", &has));
        assert!(!depends_holds("(C,D)+A", &has));
        assert!(depends_holds("C+D,B", &has), "+ binds tighter than ,");
    }
}
