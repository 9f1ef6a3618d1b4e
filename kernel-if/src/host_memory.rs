//! Buffer objects in host memory, for the back ends that have no kernel
//! driver behind them (null, and the simulator).
//!
//! Each BO is its own anonymous mapping: its address never moves, and the
//! mapping is the CPU pointer the driver writes through, while the simulator
//! reads and writes the same bytes as the GPU would. Page-granular mappings
//! also give the fresh BO the zeroed contents the kernel gives a GEM object.

use std::ptr::NonNull;
use std::sync::Arc;

use memmap2::{MmapOptions, MmapRaw};
use parking_lot::Mutex;

use crate::bo::{Bo, BoBacking, BoDesc};
use crate::error::{Error, Result};
use crate::va_allocator::VaAllocator;

/// The page size BOs are rounded to, as the kernel's GEM objects are.
pub const PAGE_SIZE: u64 = 4096;

/// Zero-filled host memory at a fixed address.
pub struct HostMemory {
    map: MmapRaw,
    ptr: NonNull<u8>,
}

impl HostMemory {
    /// `len` bytes (rounded up to a page), zero-filled.
    pub fn new(len: u64) -> Result<Self> {
        let bytes = round_to_page(len.max(1))
            .and_then(|b| usize::try_from(b).ok())
            .ok_or_else(|| {
                Error::InvalidArgument(format!("host BO of {len:#x} bytes is too large"))
            })?;
        let map: MmapRaw = MmapOptions::new()
            .len(bytes)
            .map_anon()
            .map_err(|source| Error::Io {
                what: format!("mapping {bytes:#x} bytes of anonymous memory"),
                source,
            })?
            .into();
        let ptr = NonNull::new(map.as_mut_ptr()).ok_or_else(|| Error::Io {
            what: "anonymous mapping".into(),
            source: std::io::Error::other("mmap returned a null address"),
        })?;
        Ok(Self { map, ptr })
    }

    /// The first byte; valid for [`HostMemory::len`] bytes while `self` lives.
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Bytes mapped (a whole number of pages).
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.len() == 0
    }
}

// The mapping is plain memory: `MmapRaw` is Send and Sync, and `ptr` only
// caches its address.
//
// SAFETY: the pointer points into memory owned by `map`, which moves with the
// value and is unmapped only on drop.
unsafe impl Send for HostMemory {}
// SAFETY: no `&`/`&mut` into the mapping is ever handed out; every access is a
// copy through the raw pointer, as CPU and GPU share memory on hardware.
unsafe impl Sync for HostMemory {}

/// Rounds up to a whole number of pages; `None` on overflow.
pub fn round_to_page(len: u64) -> Option<u64> {
    Some(len.checked_add(PAGE_SIZE - 1)? & !(PAGE_SIZE - 1))
}

/// Allocates what a software back end's BO needs, as `desc` asks: its size
/// rounded to pages, an iova (the fixed one, page-aligned, or one `va`
/// picks) and zeroed host memory. On failure nothing stays allocated.
pub fn allocate_host_bo(va: &Mutex<VaAllocator>, desc: &BoDesc) -> Result<(u64, Arc<HostMemory>)> {
    let size = round_to_page(desc.size).filter(|&s| s > 0).ok_or_else(|| {
        Error::InvalidArgument(format!("BO size {:#x} is zero or too large", desc.size))
    })?;
    let iova = match desc.fixed_iova {
        Some(iova) if iova % PAGE_SIZE != 0 => {
            return Err(Error::InvalidArgument(format!(
                "fixed iova {iova:#x} is not page-aligned"
            )))
        }
        Some(iova) => {
            va.lock().alloc_at(iova, size)?;
            iova
        }
        None => va.lock().alloc(size, PAGE_SIZE)?,
    };
    match HostMemory::new(size) {
        Ok(memory) => Ok((iova, Arc::new(memory))),
        Err(e) => {
            let _ = va.lock().free(iova);
            Err(e)
        }
    }
}

/// Runs when a host BO is freed: gives its iova back and tells the back end.
pub type HostBoRelease = Box<dyn FnOnce() -> Result<()> + Send + Sync>;

/// A [`Bo`] backed by [`HostMemory`]. The back end keeps its own `Arc` of
/// the memory where it must stay alive past the free (a simulator job still
/// running on it).
pub struct HostBo {
    memory: Arc<HostMemory>,
    on_release: Option<HostBoRelease>,
}

impl HostBo {
    /// A BO named `handle` at `iova` over `memory`; `on_release` runs once,
    /// when it is freed or dropped.
    pub fn new_bo(
        handle: u32,
        iova: u64,
        memory: Arc<HostMemory>,
        on_release: HostBoRelease,
    ) -> Bo {
        let size = memory.len() as u64;
        Bo::new(
            handle,
            iova,
            size,
            Box::new(HostBo {
                memory,
                on_release: Some(on_release),
            }),
        )
    }
}

impl BoBacking for HostBo {
    fn map(&self) -> Result<NonNull<u8>> {
        Ok(self.memory.ptr)
    }

    fn release(&mut self) -> Result<()> {
        match self.on_release.take() {
            Some(release) => release(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn memory_is_page_rounded_and_zeroed() {
        let mem = HostMemory::new(5000).unwrap();
        assert_eq!(mem.len(), 8192);
        let mut bytes = vec![0xffu8; 8192];
        // SAFETY: reading the whole live mapping into a local buffer.
        unsafe { std::ptr::copy_nonoverlapping(mem.as_ptr(), bytes.as_mut_ptr(), 8192) };
        assert!(bytes.iter().all(|&b| b == 0));
    }

    #[test]
    fn a_host_bo_writes_through_its_mapping_and_frees_once() {
        static RELEASES: AtomicU32 = AtomicU32::new(0);
        let mem = Arc::new(HostMemory::new(4096).unwrap());
        let bo = HostBo::new_bo(
            7,
            0x1_0000_0000,
            mem.clone(),
            Box::new(|| {
                RELEASES.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
        );
        bo.write(0x100, &0xdead_beefu32.to_le_bytes()).unwrap();
        // The mapping is the memory: a raw read of the shared pages sees it.
        // SAFETY: offset 0x100 + 4 is inside the 4096-byte live mapping.
        let raw = unsafe { std::ptr::read_unaligned(mem.as_ptr().add(0x100) as *const u32) };
        assert_eq!(raw, 0xdead_beef);
        assert_eq!(bo.map().unwrap().as_ptr(), mem.as_ptr());

        let mut back = [0u8; 4];
        bo.read(0x100, &mut back).unwrap();
        assert_eq!(u32::from_le_bytes(back), 0xdead_beef);
        assert!(bo.write(4094, &[0; 4]).is_err(), "past the end");
        assert!(bo.read(u64::MAX, &mut back).is_err());

        bo.free().unwrap();
        assert_eq!(RELEASES.load(Ordering::SeqCst), 1);
    }
}
