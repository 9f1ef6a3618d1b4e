//! Buffer objects the device allocated, and the list of them every submit
//! hands the kernel.
//!
//! Descriptors are bindless: the driver cannot tell which buffers a shader
//! will reach, so, as Turnip does on msm, every submit lists every live BO of
//! the device. Each [`DeviceBo`] registers itself when created and leaves
//! the registry when dropped.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use parking_lot::Mutex;
use parsnip_kernel_if::{Bo, BoDesc, KernelDevice};

use crate::error::{from_kernel, VkResult};

/// What a BO holds, for debugging and trace dumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoKind {
    /// Application memory (`vkAllocateMemory`).
    Memory,
    /// Command stream chunks.
    Commands,
    /// Shader code and pipeline state.
    Pipeline,
    /// Descriptor pool memory.
    Descriptors,
    /// Query results, events and other small driver-owned data.
    DriverData,
}

/// Dwords [`DeviceBo::write_dwords`] and [`DeviceBo::read_dwords`] stage on
/// the stack at a time.
const STAGING_DWORDS: usize = 64;

/// A BO of the device.
pub struct DeviceBo {
    bo: Bo,
    kind: BoKind,
    registry: Weak<BoRegistry>,
}

impl DeviceBo {
    pub fn bo(&self) -> &Bo {
        &self.bo
    }

    pub fn kind(&self) -> BoKind {
        self.kind
    }

    pub fn iova(&self) -> u64 {
        self.bo.iova()
    }

    pub fn size(&self) -> u64 {
        self.bo.size()
    }

    /// Writes `bytes` at `offset`; an out-of-bounds write is a driver bug,
    /// reported as an internal error.
    pub fn write(&self, offset: u64, bytes: &[u8]) -> VkResult<()> {
        self.bo
            .write(offset, bytes)
            .map_err(|e| crate::error::internal("BO write", e))
    }

    /// Writes `dwords` (little-endian, as the GPU reads them) at `offset`,
    /// straight into the CPU mapping: no allocation, no copy in between.
    pub fn write_dwords(&self, offset: u64, dwords: &[u32]) -> VkResult<()> {
        let len = dwords.len() as u64 * 4;
        if offset.checked_add(len).is_none_or(|end| end > self.size()) {
            return Err(crate::error::internal(
                "BO write",
                format!(
                    "{len} bytes at {offset:#x} are outside the BO's {:#x}",
                    self.size()
                ),
            ));
        }
        let base = self
            .bo
            .map()
            .map_err(|e| crate::error::internal("mapping a BO", e))?;
        // SAFETY: the range was checked to lie inside the mapping, which
        // stays valid while `self.bo` lives (kernel-if's `Bo::map`). Each
        // dword is a plain unaligned store through the raw pointer, keeping
        // no reference into memory the GPU may access concurrently, as it
        // does on hardware.
        unsafe {
            let dst = base.as_ptr().add(offset as usize).cast::<u32>();
            for (i, d) in dwords.iter().enumerate() {
                dst.add(i).write_unaligned(d.to_le());
            }
        }
        Ok(())
    }

    /// Reads `out.len()` dwords from `offset`.
    pub fn read_dwords(&self, offset: u64, out: &mut [u32]) -> VkResult<()> {
        let mut at = offset;
        for chunk in out.chunks_mut(STAGING_DWORDS) {
            let mut bytes = [0u8; STAGING_DWORDS * 4];
            let len = chunk.len() * 4;
            self.read(at, &mut bytes[..len])?;
            for (d, b) in chunk.iter_mut().zip(bytes.chunks_exact(4)) {
                *d = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            at += len as u64;
        }
        Ok(())
    }

    /// Sets `len` bytes from `offset` to `byte`.
    pub fn fill(&self, offset: u64, len: u64, byte: u8) -> VkResult<()> {
        let bytes = [byte; STAGING_DWORDS * 4];
        let mut at = offset;
        let end = offset.saturating_add(len);
        while at < end {
            let n = (end - at).min(bytes.len() as u64);
            self.write(at, &bytes[..n as usize])?;
            at += n;
        }
        Ok(())
    }

    pub fn read(&self, offset: u64, out: &mut [u8]) -> VkResult<()> {
        self.bo
            .read(offset, out)
            .map_err(|e| crate::error::internal("BO read", e))
    }
}

impl Drop for DeviceBo {
    fn drop(&mut self) {
        if let Some(registry) = self.registry.upgrade() {
            registry.live.lock().remove(&self.bo.handle());
        }
    }
}

/// The device's live BOs.
#[derive(Default)]
pub struct BoRegistry {
    live: Mutex<HashMap<u32, Weak<DeviceBo>>>,
}

impl BoRegistry {
    pub fn new() -> Arc<BoRegistry> {
        Arc::new(BoRegistry::default())
    }

    /// Allocates a BO on `kernel` and registers it.
    pub fn allocate(
        self: &Arc<Self>,
        kernel: &dyn KernelDevice,
        desc: &BoDesc,
        kind: BoKind,
    ) -> VkResult<Arc<DeviceBo>> {
        let bo = kernel
            .bo_new(desc)
            .map_err(|e| from_kernel("allocating a buffer object", e))?;
        let handle = bo.handle();
        let device_bo = Arc::new(DeviceBo {
            bo,
            kind,
            registry: Arc::downgrade(self),
        });
        self.live.lock().insert(handle, Arc::downgrade(&device_bo));
        Ok(device_bo)
    }

    /// Every live BO, kept alive for the caller's use (a submit).
    pub fn snapshot(&self) -> Vec<Arc<DeviceBo>> {
        let mut out: Vec<Arc<DeviceBo>> = self
            .live
            .lock()
            .values()
            .filter_map(Weak::upgrade)
            .collect();
        out.sort_by_key(|b| b.iova());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_kernel_if::null::NullDevice;
    use parsnip_kernel_if::GpuFacts;

    #[test]
    fn bos_are_listed_while_they_live() {
        let kernel = NullDevice::new(GpuFacts {
            gpu_id: 660,
            chip_id: 0x0606_0001,
            gmem_size: 0,
            gmem_base: 0,
        })
        .unwrap();
        let registry = BoRegistry::new();
        let a = registry
            .allocate(&kernel, &BoDesc::new(4096), BoKind::Memory)
            .unwrap();
        let b = registry
            .allocate(&kernel, &BoDesc::new(100), BoKind::Commands)
            .unwrap();
        assert_eq!(b.size(), 4096);
        let listed: Vec<u64> = registry.snapshot().iter().map(|b| b.iova()).collect();
        assert_eq!(listed.len(), 2);
        assert!(listed.contains(&a.iova()) && listed.contains(&b.iova()));
        drop(a);
        let listed = registry.snapshot();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].kind(), BoKind::Commands);
        b.write_dwords(8, &[0x1234_5678]).unwrap();
        let mut back = [0u8; 4];
        b.read(8, &mut back).unwrap();
        assert_eq!(u32::from_le_bytes(back), 0x1234_5678);
    }
}
