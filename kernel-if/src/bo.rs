//! Buffer objects: memory the GPU sees at an iova and the CPU sees through a
//! mapping.
//!
//! Lifetime rule: a [`Bo`] owns its memory. Dropping it frees the memory and
//! its GPU address; [`Bo::free`] does the same and returns the back end's
//! error, for callers that want to report one (a drop can only ignore it).
//! A back end that may still be executing work that uses a freed BO keeps
//! what that work needs alive itself (the msm kernel keeps the GEM object
//! until the submit retires, and msm keeps the address reserved until then).

use std::ptr::NonNull;

use crate::error::{Error, Result};

/// How the CPU mapping is cached. The GPU side is the same for all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CpuCaching {
    /// Uncached, write-combined: streaming CPU writes (command streams,
    /// uploads), slow CPU reads.
    #[default]
    WriteCombined,
    /// CPU-cached and not coherent with the GPU: CPU reads are fast, but the
    /// driver must clean/invalidate caches around GPU access.
    Cached,
    /// CPU-cached and kept coherent by the hardware (I/O coherence, a6xx on
    /// kernels that offer it: [`crate::DeviceInfo::cached_coherent`]).
    CachedCoherent,
}

/// What to allocate.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BoDesc {
    /// Bytes; rounded up to the page size by the back end.
    pub size: u64,
    pub caching: CpuCaching,
    /// The GPU may only read it (the kernel maps it read-only in the SMMU).
    pub gpu_read_only: bool,
    /// Place the BO at exactly this iova (replaying a trace, capture/replay
    /// of buffer device addresses). Only where
    /// [`crate::DeviceInfo::userspace_iova`] is true.
    pub fixed_iova: Option<u64>,
}

impl BoDesc {
    /// A write-combined BO of `size` bytes at an address the back end picks.
    pub fn new(size: u64) -> Self {
        Self {
            size,
            ..Self::default()
        }
    }
}

/// The back-end half of a [`Bo`]: its CPU mapping and how it is freed.
pub trait BoBacking: Send + Sync {
    /// The start of the CPU mapping, valid for [`Bo::size`] bytes until the
    /// BO is freed. May map on first use; later calls return the same address.
    fn map(&self) -> Result<NonNull<u8>>;
    /// Frees the memory and its GPU address. Called once.
    fn release(&mut self) -> Result<()>;
}

/// A buffer object.
pub struct Bo {
    handle: u32,
    iova: u64,
    size: u64,
    backing: Box<dyn BoBacking>,
    released: bool,
}

impl Bo {
    /// Called by back ends once the memory exists at `iova`.
    pub fn new(handle: u32, iova: u64, size: u64, backing: Box<dyn BoBacking>) -> Self {
        Self {
            handle,
            iova,
            size,
            backing,
            released: false,
        }
    }

    /// The back end's name for it (the GEM handle on msm).
    pub fn handle(&self) -> u32 {
        self.handle
    }

    /// The GPU virtual address of its first byte.
    pub fn iova(&self) -> u64 {
        self.iova
    }

    /// Its size in bytes (a multiple of the page size).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The CPU address of its first byte, stable while the BO lives.
    pub fn map(&self) -> Result<NonNull<u8>> {
        self.backing.map()
    }

    /// Copies `bytes` into the BO at `offset`.
    pub fn write(&self, offset: u64, bytes: &[u8]) -> Result<()> {
        let start = self.checked_range(offset, bytes.len(), "write")?;
        let dst = self.map()?;
        // SAFETY: `checked_range` proved offset..offset+len lies inside the
        // mapping, which stays valid while `self` lives. The GPU may access
        // the same bytes concurrently, as it does on hardware; this is a plain
        // byte copy and keeps no reference into the mapping.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.as_ptr().add(start), bytes.len());
        }
        Ok(())
    }

    /// Copies `out.len()` bytes from the BO at `offset`.
    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<()> {
        let start = self.checked_range(offset, out.len(), "read")?;
        let src = self.map()?;
        // SAFETY: as in `write`: the range is inside the live mapping.
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr().add(start), out.as_mut_ptr(), out.len());
        }
        Ok(())
    }

    /// Frees it now, reporting the back end's error if freeing failed.
    pub fn free(mut self) -> Result<()> {
        self.released = true;
        self.backing.release()
    }

    fn checked_range(&self, offset: u64, len: usize, what: &str) -> Result<usize> {
        match offset.checked_add(len as u64) {
            Some(end) if end <= self.size => Ok(offset as usize),
            _ => Err(Error::InvalidArgument(format!(
                "BO {} {what} of {len} bytes at offset {offset:#x} is outside its {:#x} bytes",
                self.handle, self.size
            ))),
        }
    }
}

impl Drop for Bo {
    fn drop(&mut self) {
        if !self.released {
            // Nothing to return an error to; `Bo::free` is the way to see it.
            let _ = self.backing.release();
        }
    }
}

impl std::fmt::Debug for Bo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bo")
            .field("handle", &self.handle)
            .field("iova", &format_args!("{:#x}", self.iova))
            .field("size", &format_args!("{:#x}", self.size))
            .finish()
    }
}
