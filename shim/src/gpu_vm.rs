//! A GPU address space: what one msm file (the kernel's per-process page
//! tables) or one kgsl file has. It owns a model of the GPU over its own
//! address space, and the iovas objects are mapped at.
//!
//! A mapping lives as long as someone holds it: the file, for as long as
//! the handle is open and the address set, and every submit that uses the
//! object, until it retires, as the kernel keeps a VMA pinned by a submit.

use std::sync::Arc;

use parking_lot::Mutex;
use parsnip_kernel_if::va_allocator::VaAllocator;
use parsnip_registers::gpu::GpuInfo;
use parsnip_sim::{Gpu, SimOptions};

use crate::gem::{GemObject, ModelBacking, PAGE};

/// Where per-process address spaces start (a6xx_create_private_address_space
/// in the kernel's adreno driver: 4 GiB, so no iova has a zero high word).
pub const VA_START: u64 = 0x1_0000_0000;

/// The size of a per-process address space: 16 GiB on the a650 family and
/// newer (their catalogue entries' address_space_size), 4 GiB before.
pub fn va_size(gpu: &GpuInfo) -> u64 {
    let large = matches!((gpu.chip.generation(), gpu.gen), (6, 3..) | (7, _));
    if large {
        16 << 30
    } else {
        4 << 30
    }
}

pub struct GpuVm {
    pub gpu: Gpu,
    pub va_start: u64,
    pub va_size: u64,
    va: Mutex<VaAllocator>,
}

pub struct VmMapping {
    vm: Arc<GpuVm>,
    pub iova: u64,
    pub object: Arc<GemObject>,
}

impl GpuVm {
    pub fn new(gpu: &'static GpuInfo, options: SimOptions) -> Result<Arc<Self>, String> {
        let size = va_size(gpu);
        Ok(Arc::new(Self {
            gpu: parsnip_kernel_if::sim::with_gmem_aperture(
                Gpu::new(gpu, options),
                parsnip_kernel_if::sim::gpu_facts(gpu).gmem_base,
            )
            .map_err(|e| e.to_string())?,
            va_start: VA_START,
            va_size: size,
            va: Mutex::new(VaAllocator::new(VA_START, size).map_err(|e| e.to_string())?),
        }))
    }

    /// Maps `object` at `at`, or where the allocator finds room. `ENOSPC`
    /// when the range is taken, unaligned or outside the address space (as
    /// drm_mm_insert_node_in_range answers the kernel).
    pub fn map(
        self: &Arc<Self>,
        object: &Arc<GemObject>,
        at: Option<u64>,
    ) -> Result<Arc<VmMapping>, i32> {
        let iova = {
            let mut va = self.va.lock();
            match at {
                Some(iova) if iova % PAGE != 0 => return Err(libc::ENOSPC),
                Some(iova) => va.alloc_at(iova, object.size).map(|()| iova),
                None => va.alloc(object.size, PAGE),
            }
            .map_err(|_| libc::ENOSPC)?
        };
        if self
            .gpu
            .memory()
            .map(iova, Arc::new(ModelBacking(object.clone())))
            .is_err()
        {
            let _ = self.va.lock().free(iova);
            return Err(libc::ENOSPC);
        }
        Ok(Arc::new(VmMapping {
            vm: self.clone(),
            iova,
            object: object.clone(),
        }))
    }
}

impl Drop for VmMapping {
    fn drop(&mut self) {
        self.vm.gpu.memory().unmap(self.iova);
        let _ = self.vm.va.lock().free(self.iova);
    }
}
