//! The loader interface: the three functions the Khronos loader looks up by
//! name in the shared object, and the `vkGet*ProcAddr` entry points.
//!
//! Interface version 5 (the loader interface document, "Loader and ICD
//! interface version negotiation"): the loader calls
//! `vk_icdGetInstanceProcAddr` for everything, `vk_icdGetPhysicalDeviceProcAddr`
//! for physical-device functions it does not know, and the ICD accepts
//! any application `apiVersion`. Dispatchable handles start with
//! `ICD_LOADER_MAGIC` (handles.rs).

use std::ffi::c_char;

use ash::vk;

use crate::ffi;
use crate::guard;
use crate::handles;
use crate::proc_addr::{self, Offered, Scope};

/// The newest loader interface version this ICD implements.
pub const LOADER_INTERFACE_VERSION: u32 = 5;

/// Agrees on the interface version: the smaller of the loader's and ours.
///
/// # Safety
/// `p_version` is valid for reads and writes.
#[no_mangle]
pub unsafe extern "system" fn vk_icdNegotiateLoaderICDInterfaceVersion(
    p_version: *mut u32,
) -> vk::Result {
    guard::success(
        "vk_icdNegotiateLoaderICDInterfaceVersion",
        vk::Result::ERROR_INCOMPATIBLE_DRIVER,
        || {
            // SAFETY: the loader passes a valid pointer.
            let version =
                unsafe { p_version.as_mut() }.ok_or(vk::Result::ERROR_INCOMPATIBLE_DRIVER)?;
            *version = (*version).min(LOADER_INTERFACE_VERSION);
            Ok(())
        },
    )
}

/// The entry point `name` names, if `offered` offers it at a level
/// `allowed` accepts.
///
/// # Safety
/// `name` is null or a valid string.
unsafe fn lookup(
    name: *const c_char,
    offered: &Offered<'_>,
    allowed: impl Fn(Scope) -> bool,
) -> vk::PFN_vkVoidFunction {
    // SAFETY: the caller's promise.
    let name = unsafe { ffi::cstr(name) }?;
    proc_addr::find(name, offered, allowed).and_then(proc_addr::void_function)
}

/// # Safety
/// `p_name` is a valid string.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetInstanceProcAddr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    // SAFETY: forwarded unchanged.
    unsafe { vkGetInstanceProcAddr(instance, p_name) }
}

/// # Safety
/// `p_name` is a valid string.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetPhysicalDeviceProcAddr(
    _instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    guard::value("vk_icdGetPhysicalDeviceProcAddr", None, || {
        // SAFETY: the loader passes a valid string.
        unsafe { lookup(p_name, &Offered::driver(), |s| s == Scope::PhysicalDevice) }
    })
}

/// Without an instance, the global functions; with one, every function
/// the driver offers (device-level ones included, as the loader builds its
/// trampolines from them).
///
/// # Safety
/// `p_name` is a valid string.
pub unsafe extern "system" fn vkGetInstanceProcAddr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    guard::value("vkGetInstanceProcAddr", None, || {
        let global = vk::Handle::is_null(instance);
        // SAFETY: the caller passes a valid string.
        unsafe {
            lookup(p_name, &Offered::driver(), |s| {
                !global || s == Scope::Global
            })
        }
    })
}

/// Device-level functions only (the spec: NULL for instance-level and
/// physical-device-level ones), those of device extensions only when the
/// device enabled the extension.
///
/// # Safety
/// `p_name` is a valid string.
pub unsafe extern "system" fn vkGetDeviceProcAddr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    guard::value("vkGetDeviceProcAddr", None, || {
        // No device, no device functions (a failed initialisation asks this
        // on its way out): NULL, quietly, as Mesa's drivers answer.
        if vk::Handle::is_null(device) {
            return None;
        }
        // SAFETY: a handle the application passed; valid usage keeps it live for the call.
        let device = unsafe { handles::device(device) }.ok()?;
        let offered = Offered {
            device_extensions: &device.device.extensions,
            ..Offered::driver()
        };
        // SAFETY: the caller passes a valid string.
        unsafe { lookup(p_name, &offered, |s| s == Scope::Device) }
    })
}
