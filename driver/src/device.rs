//! The logical device: its queues, its buffer objects and heap accounting,
//! and the state every object of the device shares.

use std::ffi::CStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ash::vk;
use parsnip_kernel_if::{BoDesc, KernelDevice};

use crate::breadcrumbs::{BreadcrumbOptions, Breadcrumbs};
use crate::debug_flags::DebugFlags;
use crate::device_bo::{BoKind, BoRegistry, DeviceBo};
use crate::error::{from_kernel, LostReport, VkResult};
use crate::extensions::{self, Extension};
use crate::features;
use crate::gpu_info::GpuInfo;
use crate::internal_shaders::InternalShaders;
use crate::physical_device::{
    ExtraFeatures, PhysicalDevice, QUEUES_PER_FAMILY, QUEUE_FAMILY_COUNT,
};
use crate::queue::Queue;
use crate::rd_dump::RdDump;

/// The queues an application asks for in one family.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueRequest {
    pub family: u32,
    pub priorities: Vec<f32>,
}

/// What `vkCreateDevice` asks for.
#[derive(Clone, Debug, Default)]
pub struct DeviceDesc<'a> {
    pub queues: Vec<QueueRequest>,
    pub features: vk::PhysicalDeviceFeatures,
    pub extra_features: ExtraFeatures,
    pub extensions: Vec<&'a CStr>,
}

pub struct Device {
    pub physical: Arc<PhysicalDevice>,
    pub kernel: Arc<dyn KernelDevice>,
    pub gpu: GpuInfo,
    pub debug: DebugFlags,
    pub enabled: ExtraFeatures,
    /// The device extensions the application enabled.
    pub extensions: Vec<Extension>,
    pub bos: Arc<BoRegistry>,
    /// Bytes of the heap allocated with `vkAllocateMemory`.
    heap_used: AtomicU64,
    queues: Vec<Arc<Queue>>,
    pub internal: InternalShaders,
    pub rd_dump: Option<RdDump>,
    /// `PARSNIP_BREADCRUMBS`, when set.
    pub breadcrumbs: Option<Breadcrumbs>,
    /// Prints this device's lost report once.
    lost: LostReport,
}

/// The kernel priority for a Vulkan queue priority: 1.0 is the kernel's
/// highest (0), 0.0 its lowest.
fn kernel_priority(priority: f32, kernel_priorities: u32) -> u32 {
    let levels = kernel_priorities.max(1) - 1;
    let p = priority.clamp(0.0, 1.0);
    ((1.0 - p) * levels as f32).round() as u32
}

impl Device {
    /// A device, with breadcrumbs if `PARSNIP_BREADCRUMBS` asks for them.
    pub fn new(physical: &Arc<PhysicalDevice>, desc: &DeviceDesc<'_>) -> VkResult<Arc<Device>> {
        Device::with_breadcrumbs(physical, desc, BreadcrumbOptions::from_env())
    }

    /// A device streaming breadcrumbs as `breadcrumbs` says (none: off).
    pub fn with_breadcrumbs(
        physical: &Arc<PhysicalDevice>,
        desc: &DeviceDesc<'_>,
        breadcrumbs: Option<BreadcrumbOptions>,
    ) -> VkResult<Arc<Device>> {
        let mut enabled_extensions = Vec::new();
        for name in &desc.extensions {
            match extensions::find(physical.extensions(), name) {
                Some(e) => enabled_extensions.push(e),
                None => return Err(vk::Result::ERROR_EXTENSION_NOT_PRESENT),
            }
        }
        if let Some(missing) = features::first_missing(&desc.features, &physical.features()) {
            let missing = features::spec_name(missing);
            eprintln!("parsnip: vkCreateDevice: feature {missing} is not supported");
            return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
        }
        if let Some(missing) = desc.extra_features.missing_from(&physical.extra_features()) {
            eprintln!("parsnip: vkCreateDevice: feature {missing} is not supported");
            return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
        }
        // Each device its own kernel context (Turnip opens the render node
        // again for each VkDevice): a hang in one device's work loses that
        // device, not the others nor those created after it.
        let kernel = physical
            .kernel
            .open_context()
            .map_err(|e| from_kernel("opening a kernel context", e))?;
        let priorities = kernel.info().priorities;
        let mut kernel_queues = Vec::new();
        for request in &desc.queues {
            if request.family >= QUEUE_FAMILY_COUNT
                || request.priorities.len() as u32 > QUEUES_PER_FAMILY
            {
                eprintln!(
                    "parsnip: vkCreateDevice: {} queues of family {} asked for",
                    request.priorities.len(),
                    request.family
                );
                return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
            }
            for (index, p) in request.priorities.iter().enumerate() {
                let id = kernel
                    .queue_new(kernel_priority(*p, priorities))
                    .map_err(|e| from_kernel("creating a submit queue", e))?;
                kernel_queues.push((request.family, index as u32, id));
            }
        }
        let bos = BoRegistry::new();
        let gpu = physical.gpu.clone();
        let internal = InternalShaders::new(&gpu, &kernel, &bos)?;
        let rd_dump = RdDump::from_env(gpu.chip_id)?;
        let breadcrumbs = breadcrumbs
            .map(|o| Breadcrumbs::start(o, &gpu, &kernel, &bos))
            .transpose()?;
        Ok(Arc::new_cyclic(|weak| Device {
            physical: physical.clone(),
            kernel: kernel.clone(),
            gpu,
            debug: physical.debug,
            enabled: desc.extra_features,
            extensions: enabled_extensions,
            bos,
            heap_used: AtomicU64::new(0),
            queues: kernel_queues
                .into_iter()
                .map(|(family, index, id)| Arc::new(Queue::new(weak.clone(), family, index, id)))
                .collect(),
            internal,
            rd_dump,
            breadcrumbs,
            lost: LostReport::default(),
        }))
    }

    /// Queue `index` of `family`.
    pub fn queue(&self, family: u32, index: u32) -> Option<Arc<Queue>> {
        self.queues
            .iter()
            .find(|q| q.family == family && q.index == index)
            .cloned()
    }

    /// The Vulkan result for a failure of this device's kernel context
    /// during `what`; a lost device's report is printed the first time only.
    pub fn kernel_error(&self, what: &str, error: parsnip_kernel_if::Error) -> vk::Result {
        self.lost.result(what, error)
    }

    /// Waits until every queue is idle.
    pub fn wait_idle(&self) -> VkResult<()> {
        for q in &self.queues {
            q.wait_idle()?;
        }
        Ok(())
    }

    /// Allocates a driver-owned BO (not counted against the heap the
    /// application sees, as Turnip's internal allocations are not).
    pub fn allocate_bo(&self, size: u64, kind: BoKind) -> VkResult<Arc<DeviceBo>> {
        self.bos.allocate(&*self.kernel, &BoDesc::new(size), kind)
    }

    /// Takes `size` bytes of the heap for an application allocation;
    /// beyond the heap the allocation fails as the spec lets it.
    pub fn reserve_heap(&self, size: u64) -> VkResult<()> {
        let heap = self.physical.memory.heap_size;
        self.heap_used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(size).filter(|&total| total <= heap)
            })
            .map(|_| ())
            .map_err(|_| vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
    }

    /// Gives back what [`Device::reserve_heap`] took.
    pub fn release_heap(&self, size: u64) {
        self.heap_used.fetch_sub(size, Ordering::AcqRel);
    }

    pub fn heap_used(&self) -> u64 {
        self.heap_used.load(Ordering::Acquire)
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        for q in &self.queues {
            // Nothing to report to: the device is going away.
            let _ = q.wait_idle();
            let _ = self.kernel.queue_close(q.kernel_queue);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn null_device(name: &str) -> Arc<Device> {
        let physical = Arc::new(crate::physical_device::tests::null_physical(name));
        Device::new(
            &physical,
            &DeviceDesc {
                queues: vec![QueueRequest {
                    family: 0,
                    priorities: vec![1.0],
                }],
                ..Default::default()
            },
        )
        .unwrap()
    }

    #[test]
    fn priorities_map_onto_the_kernels_levels() {
        assert_eq!(kernel_priority(1.0, 3), 0);
        assert_eq!(kernel_priority(0.5, 3), 1);
        assert_eq!(kernel_priority(0.0, 3), 2);
        assert_eq!(kernel_priority(0.0, 1), 0);
    }

    #[test]
    fn the_heap_is_accounted_and_refuses_what_does_not_fit() {
        let device = null_device("a660");
        let heap = device.physical.memory.heap_size;
        device.reserve_heap(heap - 100).unwrap();
        assert_eq!(
            device.reserve_heap(101),
            Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        );
        device.reserve_heap(100).unwrap();
        device.release_heap(heap);
        assert_eq!(device.heap_used(), 0);
    }

    #[test]
    fn unknown_extensions_and_features_are_refused() {
        let physical = Arc::new(crate::physical_device::tests::null_physical("a660"));
        let desc = DeviceDesc {
            extensions: vec![c"VK_KHR_video_queue"],
            ..Default::default()
        };
        assert_eq!(
            Device::new(&physical, &desc).err(),
            Some(vk::Result::ERROR_EXTENSION_NOT_PRESENT)
        );
        let desc = DeviceDesc {
            features: vk::PhysicalDeviceFeatures::default().shader_float64(true),
            ..Default::default()
        };
        assert_eq!(
            Device::new(&physical, &desc).err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );
        let desc = DeviceDesc {
            queues: vec![QueueRequest {
                family: 0,
                priorities: vec![1.0, 1.0],
            }],
            ..Default::default()
        };
        assert!(Device::new(&physical, &desc).is_err());
    }
}
