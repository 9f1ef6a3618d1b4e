//! The instance: the extensions the application enabled, and the physical
//! devices, found once (on first enumeration) through the kernel interface.

use std::ffi::CStr;
use std::sync::{Arc, OnceLock};

use ash::vk;
use parsnip_kernel_if::KernelDevice;

use crate::debug_flags::DebugFlags;
use crate::error::VkResult;
use crate::extensions::{self, INSTANCE_EXTENSIONS};
use crate::gpu_info::GpuInfo;
use crate::memory_types::system_memory;
use crate::physical_device::{PhysicalDevice, API_VERSION};

/// The instance version `vkEnumerateInstanceVersion` reports.
pub const INSTANCE_VERSION: u32 = API_VERSION;

/// Opens the GPU devices an instance offers.
pub type DeviceOpener =
    Box<dyn Fn() -> parsnip_kernel_if::Result<Arc<dyn KernelDevice>> + Send + Sync>;

pub struct Instance {
    /// The version the application asked for (1.0 when it gave none).
    pub app_api_version: u32,
    pub debug: DebugFlags,
    opener: DeviceOpener,
    physical_devices: OnceLock<Vec<Arc<PhysicalDevice>>>,
}

impl Instance {
    /// An instance on the devices the process environment selects
    /// (`PARSNIP_SIM`, `PARSNIP_NULL`, or a real msm GPU).
    pub fn new(app_api_version: u32, extension_names: &[&CStr]) -> VkResult<Arc<Instance>> {
        Instance::with_opener(
            app_api_version,
            extension_names,
            Box::new(parsnip_kernel_if::open_device),
        )
    }

    /// An instance whose devices come from `opener`.
    pub fn with_opener(
        app_api_version: u32,
        extension_names: &[&CStr],
        opener: DeviceOpener,
    ) -> VkResult<Arc<Instance>> {
        for name in extension_names {
            if extensions::find(INSTANCE_EXTENSIONS, name).is_none() {
                return Err(vk::Result::ERROR_EXTENSION_NOT_PRESENT);
            }
        }
        let app_api_version = if app_api_version == 0 {
            vk::API_VERSION_1_0
        } else {
            app_api_version
        };
        Ok(Arc::new(Instance {
            app_api_version,
            debug: DebugFlags::from_env(),
            opener,
            physical_devices: OnceLock::new(),
        }))
    }

    /// The physical devices. A machine with no GPU the driver can use has
    /// none: that is not an error for the instance (another driver may have
    /// one), and `PARSNIP_DEBUG=startup` says why.
    pub fn physical_devices(&self) -> &[Arc<PhysicalDevice>] {
        self.physical_devices.get_or_init(|| self.open_devices())
    }

    fn open_devices(&self) -> Vec<Arc<PhysicalDevice>> {
        let kernel = match (self.opener)() {
            Ok(k) => k,
            Err(e) => {
                if self.debug.startup {
                    eprintln!("parsnip: no device: {e}");
                }
                return Vec::new();
            }
        };
        let gpu = match GpuInfo::from_device(kernel.info()) {
            Ok(g) => g,
            Err(e) => {
                if self.debug.startup {
                    eprintln!("parsnip: {e}");
                }
                return Vec::new();
            }
        };
        if self.debug.startup {
            eprintln!(
                "parsnip: found {} (chip id {:#x}) on the {:?} back end",
                gpu.device_name,
                gpu.chip_id,
                kernel.info().backend
            );
        }
        // Without /proc/meminfo, assume the smallest phone Turnip targets.
        let ram = system_memory().unwrap_or(4 << 30);
        vec![Arc::new(PhysicalDevice::new(kernel, gpu, ram, self.debug))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_kernel_if::null::NullDevice;
    use parsnip_kernel_if::GpuFacts;

    fn null_a660() -> DeviceOpener {
        Box::new(|| {
            let facts = GpuFacts {
                gpu_id: 660,
                chip_id: 0x0606_0001,
                gmem_size: 0x18_0000,
                gmem_base: 0x10_0000,
            };
            Ok(Arc::new(NullDevice::new(facts)?) as Arc<dyn KernelDevice>)
        })
    }

    #[test]
    fn an_instance_finds_its_device_once() {
        let instance = Instance::with_opener(0, &[], null_a660()).unwrap();
        assert_eq!(instance.app_api_version, vk::API_VERSION_1_0);
        let first = instance.physical_devices();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].gpu.entry.name, "a660");
        assert!(Arc::ptr_eq(&first[0], &instance.physical_devices()[0]));
    }

    #[test]
    fn no_device_is_an_empty_list_and_unknown_extensions_are_refused() {
        let none: DeviceOpener =
            Box::new(|| Err(parsnip_kernel_if::Error::NoDevice("nothing here".into())));
        let instance = Instance::with_opener(0, &[], none).unwrap();
        assert!(instance.physical_devices().is_empty());
        let err = Instance::with_opener(0, &[c"VK_KHR_xcb_surface"], null_a660()).err();
        assert_eq!(err, Some(vk::Result::ERROR_EXTENSION_NOT_PRESENT));
        assert!(Instance::with_opener(
            0,
            &[c"VK_KHR_get_physical_device_properties2"],
            null_a660()
        )
        .is_ok());
    }
}
