//! The GPU's virtual address space: buffer objects mapped at iovas.
//!
//! Everything the model reads or writes goes through here, so an access that
//! touches an address no buffer object covers is caught and reported the way
//! the kernel reports an SMMU/iova fault, instead of reading garbage.
//!
//! Buffer objects are mapped and unmapped while the GPU runs (a driver
//! allocates memory while an earlier submit executes, as it does on
//! hardware), so the table of mappings sits behind a lock and every method
//! takes `&self`. An access holds the lock only for its own copy.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use parking_lot::RwLock;

use crate::surface::ubwc::CompressedTiles;

/// Host memory behind one buffer object.
///
/// The kernel interface's buffer objects (host memory the CPU also maps) and
/// the replay tool's captured buffers both provide this.
pub trait Backing: Send + Sync {
    /// Start of the host memory. It must stay valid and fixed for as long as
    /// the backing lives, and be at least [`Backing::len`] bytes long.
    fn as_ptr(&self) -> *mut u8;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Anonymous host memory owned by the model (used by replay and tests).
pub struct OwnedBacking {
    map: memmap2::MmapMut,
    ptr: *mut u8,
}

// SAFETY: the mapping is plain memory owned by this value; the GPU model and
// the CPU access it through raw pointers the way hardware and a CPU share a
// buffer object, and neither keeps a Rust reference into it across calls.
unsafe impl Send for OwnedBacking {}
// SAFETY: as above; accesses are byte copies through the raw pointer.
unsafe impl Sync for OwnedBacking {}

impl OwnedBacking {
    /// A zero-filled buffer of `len` bytes.
    pub fn zeroed(len: usize) -> std::io::Result<Self> {
        let mut map = memmap2::MmapMut::map_anon(len.max(1))?;
        let ptr = map.as_mut_ptr();
        Ok(Self { map, ptr })
    }

    /// A buffer holding a copy of `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> std::io::Result<Self> {
        let mut b = Self::zeroed(bytes.len())?;
        b.map[..bytes.len()].copy_from_slice(bytes);
        Ok(b)
    }
}

impl Backing for OwnedBacking {
    fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
    fn len(&self) -> usize {
        self.map.len()
    }
}

/// An access to an address no buffer object covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub iova: u64,
    pub len: u64,
    pub write: bool,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The msm kernel driver prints "*** gpu fault: ttbr0=... iova=... dir=READ".
        write!(
            f,
            "gpu fault: iova={:#018x} dir={} len={}",
            self.iova,
            if self.write { "WRITE" } else { "READ" },
            self.len
        )
    }
}

impl std::error::Error for Fault {}

/// Why a mapping could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    Overlap { iova: u64, len: u64, existing: u64 },
    Empty { iova: u64 },
    Wraps { iova: u64, len: u64 },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::Overlap {
                iova,
                len,
                existing,
            } => write!(
                f,
                "mapping {iova:#x}+{len:#x} overlaps the buffer at {existing:#x}"
            ),
            MapError::Empty { iova } => write!(f, "empty mapping at {iova:#x}"),
            MapError::Wraps { iova, len } => {
                write!(f, "mapping {iova:#x}+{len:#x} wraps the address space")
            }
        }
    }
}

impl std::error::Error for MapError {}

struct Mapping {
    len: u64,
    backing: Arc<dyn Backing>,
}

/// The set of buffer objects visible to the GPU, by iova; or a view of one
/// through a write-back cache ([`crate::ccu`]), which holds its writes
/// until it is flushed.
#[derive(Default)]
pub struct AddressSpace {
    mappings: RwLock<BTreeMap<u64, Mapping>>,
    cache: Option<crate::cache_lines::CacheLines>,
    /// Which data tiles hold UBWC-compressed blocks (see
    /// [`crate::surface::ubwc`]): what the model knows of its own encoding.
    compressed: CompressedTiles,
}

impl AddressSpace {
    pub fn new() -> Self {
        Self::default()
    }

    /// `memory` seen through a write-back cache of its own.
    pub(crate) fn cached(memory: Arc<AddressSpace>) -> Self {
        Self {
            cache: Some(crate::cache_lines::CacheLines::new(memory)),
            ..Self::default()
        }
    }

    /// The write-back cache this view has, if it is one.
    pub(crate) fn cache(&self) -> Option<&crate::cache_lines::CacheLines> {
        self.cache.as_ref()
    }

    /// Makes `backing` visible at `iova`.
    pub fn map(&self, iova: u64, backing: Arc<dyn Backing>) -> Result<(), MapError> {
        let len = backing.len() as u64;
        if len == 0 {
            return Err(MapError::Empty { iova });
        }
        let end = iova.checked_add(len).ok_or(MapError::Wraps { iova, len })?;
        let mut mappings = self.mappings.write();
        if let Some((&start, m)) = mappings.range(..end).next_back() {
            if start + m.len > iova {
                return Err(MapError::Overlap {
                    iova,
                    len,
                    existing: start,
                });
            }
        }
        mappings.insert(iova, Mapping { len, backing });
        Ok(())
    }

    /// Removes the buffer object mapped at `iova`; returns whether one was.
    pub fn unmap(&self, iova: u64) -> bool {
        match self.mappings.write().remove(&iova) {
            Some(m) => {
                self.compressed.forget_range(iova, iova + m.len);
                true
            }
            None => false,
        }
    }

    /// The record of UBWC-compressed data in this address space.
    pub fn compressed_tiles(&self) -> &CompressedTiles {
        match &self.cache {
            Some(c) => c.under.compressed_tiles(),
            None => &self.compressed,
        }
    }

    /// The buffer objects mapped, as `(iova, length)` in address order.
    pub fn mappings(&self) -> Vec<(u64, u64)> {
        self.mappings
            .read()
            .iter()
            .map(|(&iova, m)| (iova, m.len))
            .collect()
    }

    /// Whether `iova..iova+len` is entirely backed.
    pub fn is_mapped(&self, iova: u64, len: u64) -> bool {
        if let Some(c) = &self.cache {
            return c.under.is_mapped(iova, len);
        }
        self.walk(iova, len, false, |_, _| {}).is_ok()
    }

    /// Calls `f(host_ptr, offset_in_request, chunk_len)` for each piece of the
    /// range, in order, or faults at the first byte no buffer covers. Ranges
    /// that span adjacent buffer objects are allowed: the GPU's page tables map
    /// them contiguously too.
    fn walk(
        &self,
        iova: u64,
        len: u64,
        write: bool,
        mut f: impl FnMut(*mut u8, std::ops::Range<usize>),
    ) -> Result<(), Fault> {
        let fault = |at: u64| Fault {
            iova: at,
            len,
            write,
        };
        let end = iova.checked_add(len).ok_or(fault(iova))?;
        let mappings = self.mappings.read();
        let mut at = iova;
        while at < end {
            let (&start, m) = mappings
                .range(..=at)
                .next_back()
                .filter(|(&s, m)| at < s + m.len)
                .ok_or(fault(at))?;
            let chunk_end = end.min(start + m.len);
            let offset = (at - start) as usize;
            // SAFETY: `offset < m.len` and `chunk_end - start <= m.len`, which
            // is the backing's length, so the pointer stays inside it; the
            // read lock keeps the backing mapped while `f` copies.
            let ptr = unsafe { m.backing.as_ptr().add(offset) };
            f(ptr, (at - iova) as usize..(chunk_end - iova) as usize);
            at = chunk_end;
        }
        Ok(())
    }

    /// Reads `out.len()` bytes at `iova`.
    pub fn read(&self, iova: u64, out: &mut [u8]) -> Result<(), Fault> {
        if let Some(c) = &self.cache {
            return c.read(iova, out);
        }
        self.walk(iova, out.len() as u64, false, |ptr, r| {
            let dst = &mut out[r];
            // SAFETY: `walk` hands out pointers to at least `dst.len()` valid
            // bytes of a live backing; `dst` is a distinct Rust buffer.
            unsafe { std::ptr::copy_nonoverlapping(ptr, dst.as_mut_ptr(), dst.len()) }
        })
    }

    /// Writes `data` at `iova`.
    pub fn write(&self, iova: u64, data: &[u8]) -> Result<(), Fault> {
        if let Some(c) = &self.cache {
            return c.write(iova, data);
        }
        self.walk(iova, data.len() as u64, true, |ptr, r| {
            let src = &data[r];
            // SAFETY: as in `read`, with the copy going the other way.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), ptr, src.len()) }
        })
    }

    pub fn read_u32(&self, iova: u64) -> Result<u32, Fault> {
        let mut b = [0; 4];
        self.read(iova, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn read_u64(&self, iova: u64) -> Result<u64, Fault> {
        let mut b = [0; 8];
        self.read(iova, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    pub fn write_u32(&self, iova: u64, value: u32) -> Result<(), Fault> {
        self.write(iova, &value.to_le_bytes())
    }

    pub fn write_u64(&self, iova: u64, value: u64) -> Result<(), Fault> {
        self.write(iova, &value.to_le_bytes())
    }

    /// Reads `count` dwords at `iova`.
    pub fn read_dwords(&self, iova: u64, count: usize) -> Result<Vec<u32>, Fault> {
        let mut bytes = vec![0; count * 4];
        self.read(iova, &mut bytes)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(len: usize) -> Arc<dyn Backing> {
        Arc::new(OwnedBacking::zeroed(len).unwrap())
    }

    #[test]
    fn reads_back_what_was_written() {
        let a = AddressSpace::new();
        a.map(0x1000, buf(0x100)).unwrap();
        a.write_u32(0x1010, 0xdead_beef).unwrap();
        assert_eq!(a.read_u32(0x1010).unwrap(), 0xdead_beef);
        assert_eq!(a.read_u64(0x1010).unwrap(), 0xdead_beef);
    }

    #[test]
    fn access_outside_any_buffer_faults_at_the_first_unbacked_byte() {
        let a = AddressSpace::new();
        a.map(0x1000, buf(0x100)).unwrap();
        let err = a.read_u32(0x10fe).unwrap_err();
        assert_eq!(
            err,
            Fault {
                iova: 0x1100,
                len: 4,
                write: false
            }
        );
        assert!(a.write_u32(0x0ffc, 1).unwrap_err().write);
        assert!(a.read_u32(u64::MAX - 1).is_err());
    }

    #[test]
    fn adjacent_buffers_read_as_one_range() {
        let a = AddressSpace::new();
        a.map(0x1000, buf(0x10)).unwrap();
        a.map(0x1010, buf(0x10)).unwrap();
        a.write(0x100c, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        assert_eq!(a.read_u32(0x100c).unwrap(), 0x0403_0201);
        assert_eq!(a.read_u32(0x1010).unwrap(), 0x0807_0605);
    }

    #[test]
    fn overlapping_maps_are_refused() {
        let a = AddressSpace::new();
        a.map(0x1000, buf(0x100)).unwrap();
        assert!(matches!(
            a.map(0x10f0, buf(0x100)),
            Err(MapError::Overlap { .. })
        ));
        assert!(a.map(0x0f00, buf(0x100)).is_ok());
        assert!(a.unmap(0x1000));
        assert!(a.read_u32(0x1000).is_err());
    }
}
