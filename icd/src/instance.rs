//! Global and instance-level entry points.

use std::ffi::c_char;
use std::sync::Arc;

use ash::vk;
use parsnip_driver::extensions::INSTANCE_EXTENSIONS;
use parsnip_driver::instance::{Instance, INSTANCE_VERSION};

use crate::ffi;
use crate::guard;
use crate::handles;
use crate::objects::InstanceObject;

pub unsafe extern "system" fn vkCreateInstance(
    p_create_info: *const vk::InstanceCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_instance: *mut vk::Instance,
) -> vk::Result {
    guard::success(
        "vkCreateInstance",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            // SAFETY: the application's create info, valid for this call.
            let info = unsafe { ffi::input(p_create_info) }?;
            // SAFETY: pApplicationInfo is null or valid, per the spec.
            let api = unsafe { ffi::opt_ref(info.p_application_info) }.map_or(0, |a| a.api_version);
            // SAFETY: ppEnabledExtensionNames holds enabledExtensionCount strings.
            let names = unsafe {
                ffi::cstrs(
                    info.pp_enabled_extension_names,
                    info.enabled_extension_count,
                )
            };
            let instance = Instance::new(api, &names)?;
            let handle = handles::new_instance(Arc::new(InstanceObject {
                instance,
                physical_devices: Default::default(),
            }));
            // SAFETY: pInstance is valid for a write.
            unsafe { ffi::write(p_instance, handle) }
        },
    )
}

pub unsafe extern "system" fn vkDestroyInstance(
    instance: vk::Instance,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroyInstance", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        if let Some(object) = unsafe { handles::drop_instance(instance) } {
            for pd in object.physical_devices.get().into_iter().flatten() {
                // SAFETY: a child handle its parent retires; valid usage ends its use before the parent is destroyed or reset.
                unsafe { handles::drop_physical_device(*pd) };
            }
        }
        Ok(())
    })
}

pub unsafe extern "system" fn vkEnumerateInstanceExtensionProperties(
    p_layer_name: *const c_char,
    p_property_count: *mut u32,
    p_properties: *mut vk::ExtensionProperties,
) -> vk::Result {
    guard::result(
        "vkEnumerateInstanceExtensionProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            if !p_layer_name.is_null() {
                return Err(vk::Result::ERROR_LAYER_NOT_PRESENT);
            }
            let list: Vec<vk::ExtensionProperties> =
                INSTANCE_EXTENSIONS.iter().map(|e| e.properties()).collect();
            // SAFETY: the two-call idiom's pointers, as the spec requires them.
            unsafe { ffi::fill(p_property_count, p_properties, &list) }
        },
    )
}

/// The ICD has no layers: the loader lists the installed ones itself.
pub unsafe extern "system" fn vkEnumerateInstanceLayerProperties(
    p_property_count: *mut u32,
    p_properties: *mut vk::LayerProperties,
) -> vk::Result {
    guard::result(
        "vkEnumerateInstanceLayerProperties",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_property_count, p_properties, &[]) }
        },
    )
}

pub unsafe extern "system" fn vkEnumerateInstanceVersion(p_api_version: *mut u32) -> vk::Result {
    guard::success(
        "vkEnumerateInstanceVersion",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: pApiVersion is valid for a write.
            unsafe { ffi::write(p_api_version, INSTANCE_VERSION) }
        },
    )
}

/// The physical device handles of an instance, made once.
pub fn physical_device_handles(
    instance: vk::Instance,
) -> Result<Vec<vk::PhysicalDevice>, vk::Result> {
    // SAFETY: a handle the application passed; valid usage keeps it live for the call.
    let object = unsafe { handles::instance(instance) }?;
    Ok(object
        .physical_devices
        .get_or_init(|| {
            object
                .instance
                .physical_devices()
                .iter()
                .map(|pd| handles::new_physical_device(pd.clone()))
                .collect()
        })
        .clone())
}

pub unsafe extern "system" fn vkEnumeratePhysicalDevices(
    instance: vk::Instance,
    p_count: *mut u32,
    p_devices: *mut vk::PhysicalDevice,
) -> vk::Result {
    guard::result(
        "vkEnumeratePhysicalDevices",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            let list = physical_device_handles(instance)?;
            // SAFETY: the two-call idiom's pointers.
            unsafe { ffi::fill(p_count, p_devices, &list) }
        },
    )
}

pub unsafe extern "system" fn vkEnumeratePhysicalDeviceGroups(
    instance: vk::Instance,
    p_count: *mut u32,
    p_groups: *mut vk::PhysicalDeviceGroupProperties<'_>,
) -> vk::Result {
    guard::result(
        "vkEnumeratePhysicalDeviceGroups",
        vk::Result::ERROR_INITIALIZATION_FAILED,
        || {
            let list = physical_device_handles(instance)?;
            // SAFETY: pCount is valid.
            let count = unsafe { p_count.as_mut() }.ok_or(vk::Result::ERROR_UNKNOWN)?;
            if p_groups.is_null() {
                *count = list.len() as u32;
                return Ok(vk::Result::SUCCESS);
            }
            let n = (*count as usize).min(list.len());
            for (i, pd) in list.iter().take(n).enumerate() {
                // SAFETY: pGroups holds *count structures the application
                // initialised (sType, pNext); only the outputs are written.
                let group = unsafe { &mut *p_groups.add(i) };
                group.physical_device_count = 1;
                group.physical_devices = [vk::PhysicalDevice::null(); vk::MAX_DEVICE_GROUP_SIZE];
                group.physical_devices[0] = *pd;
                group.subset_allocation = vk::FALSE;
            }
            *count = n as u32;
            Ok(if n < list.len() {
                vk::Result::INCOMPLETE
            } else {
                vk::Result::SUCCESS
            })
        },
    )
}
