//! Buffer objects the device allocated, and the list of them every submit
//! hands the kernel.
//!
//! Descriptors are bindless: the driver cannot tell which buffers a shader
//! will reach, so, as Turnip does on msm, every submit lists every live BO of
//! the device. Each [`DeviceBo`] registers itself when created and leaves
//! the registry when dropped.

use std::collections::HashMap;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicPtr, Ordering};
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

/// Dwords [`DeviceBo::fill`] stages on the stack at a time.
const STAGING_DWORDS: usize = 64;

/// A BO of the device.
pub struct DeviceBo {
    bo: Bo,
    kind: BoKind,
    registry: Weak<BoRegistry>,
    /// The CPU mapping's address once something asked for it (null
    /// before): a write is then plain stores, with no call into the kernel
    /// back end to find the mapping again.
    mapping: AtomicPtr<u8>,
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

    /// The start of the CPU mapping (kernel-if's `Bo::map`, asked once).
    #[inline]
    fn mapping(&self) -> VkResult<NonNull<u8>> {
        match NonNull::new(self.mapping.load(Ordering::Acquire)) {
            Some(p) => Ok(p),
            None => self.map_first(),
        }
    }

    #[cold]
    fn map_first(&self) -> VkResult<NonNull<u8>> {
        let p = self
            .bo
            .map()
            .map_err(|e| crate::error::internal("mapping a BO", e))?;
        // A racing first use stores the same address: `Bo::map` returns
        // one mapping for the BO's life.
        self.mapping.store(p.as_ptr(), Ordering::Release);
        Ok(p)
    }

    /// Checks that `len` bytes at `offset` lie inside the BO.
    #[inline]
    fn check_range(&self, what: &str, offset: u64, len: u64) -> VkResult<()> {
        if offset.checked_add(len).is_none_or(|end| end > self.size()) {
            return Err(self.out_of_range(what, offset, len));
        }
        Ok(())
    }

    #[cold]
    fn out_of_range(&self, what: &str, offset: u64, len: u64) -> ash::vk::Result {
        crate::error::internal(
            what,
            format!(
                "{len} bytes at {offset:#x} are outside the BO's {:#x}",
                self.size()
            ),
        )
    }

    /// Writes `dwords` (little-endian, as the GPU reads them) at `offset`,
    /// straight into the CPU mapping: no allocation, no copy in between.
    #[inline]
    pub fn write_dwords(&self, offset: u64, dwords: &[u32]) -> VkResult<()> {
        self.check_range("BO write", offset, dwords.len() as u64 * 4)?;
        let base = self.mapping()?;
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

    /// Reads `out.len()` dwords from `offset`, straight from the CPU
    /// mapping.
    #[inline]
    pub fn read_dwords(&self, offset: u64, out: &mut [u32]) -> VkResult<()> {
        self.check_range("BO read", offset, out.len() as u64 * 4)?;
        let base = self.mapping()?;
        // SAFETY: as in `write_dwords`: the range is inside the live
        // mapping, read with plain unaligned loads through the raw pointer.
        unsafe {
            let src = base.as_ptr().add(offset as usize).cast::<u32>();
            for (i, d) in out.iter_mut().enumerate() {
                *d = u32::from_le(src.add(i).read_unaligned());
            }
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
            mapping: AtomicPtr::new(std::ptr::null_mut()),
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

    fn a660() -> NullDevice {
        NullDevice::new(GpuFacts {
            gpu_id: 660,
            chip_id: 0x0606_0001,
            gmem_size: 0,
            gmem_base: 0,
        })
        .unwrap()
    }

    #[test]
    fn bos_are_listed_while_they_live() {
        let kernel = a660();
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

    #[test]
    fn dwords_go_through_the_mapping_and_stay_inside_the_bo() {
        let kernel = a660();
        let registry = BoRegistry::new();
        let bo = registry
            .allocate(&kernel, &BoDesc::new(4096), BoKind::Descriptors)
            .unwrap();
        // Before and after the first mapping, and at an odd dword offset.
        bo.write(0, &0xaabb_ccddu32.to_le_bytes()).unwrap();
        bo.write_dwords(4092, &[7]).unwrap();
        bo.write_dwords(4, &[1, 2, 3]).unwrap();
        let mut bytes = [0u8; 16];
        bo.read(0, &mut bytes).unwrap();
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(words, [0xaabb_ccdd, 1, 2, 3]);
        let mut back = [0u32; 2];
        bo.read_dwords(4088, &mut back).unwrap();
        assert_eq!(back, [0, 7]);
        // Past the end, or wrapping around, is refused and writes nothing.
        assert!(bo.write_dwords(4092, &[1, 2]).is_err());
        assert!(bo.write_dwords(u64::MAX - 3, &[1, 2]).is_err());
        assert!(bo.read_dwords(4094, &mut back).is_err());
        bo.read_dwords(4088, &mut back).unwrap();
        assert_eq!(back, [0, 7]);
    }
}
