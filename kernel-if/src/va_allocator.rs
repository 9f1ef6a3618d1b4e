//! A GPU virtual address allocator: hands out aligned, non-overlapping iova
//! ranges from one window and takes them back.
//!
//! Used by every back end that chooses iovas itself: the software back ends
//! always, msm when the kernel lets userspace choose (MSM_INFO_SET_IOVA).
//! It is a plain value; back ends that share it between threads put it in a
//! mutex.
//!
//! Free space is a map from start to length, so the first fit is found in
//! address order and a freed range merges with free neighbours at once: a
//! freed range is reusable at the next allocation, and fragmentation never
//! outlives the allocations that caused it.

use std::collections::BTreeMap;

use crate::error::{Error, Result};

#[derive(Debug)]
pub struct VaAllocator {
    start: u64,
    end: u64,
    /// Free holes: start -> length. Never adjacent (merged on free).
    free: BTreeMap<u64, u64>,
    /// Live allocations: start -> length, to check frees.
    used: BTreeMap<u64, u64>,
}

impl VaAllocator {
    /// An allocator for `[start, start + size)`.
    pub fn new(start: u64, size: u64) -> Result<Self> {
        let end = start.checked_add(size).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "VA window {start:#x} + {size:#x} overflows 64 bits"
            ))
        })?;
        let mut free = BTreeMap::new();
        if size > 0 {
            free.insert(start, size);
        }
        Ok(Self {
            start,
            end,
            free,
            used: BTreeMap::new(),
        })
    }

    /// The lowest range of `size` bytes starting at a multiple of `align`
    /// (a power of two).
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<u64> {
        if size == 0 || !align.is_power_of_two() {
            return Err(Error::InvalidArgument(format!(
                "VA allocation of {size:#x} bytes aligned to {align:#x}: the size must be \
                 non-zero and the alignment a power of two"
            )));
        }
        let found = self.free.iter().find_map(|(&hole, &len)| {
            let at = hole.checked_add(align - 1)? & !(align - 1);
            let end = at.checked_add(size)?;
            (end <= hole + len).then_some(at)
        });
        let at = found.ok_or(Error::OutOfVa { size, align })?;
        self.take(at, size);
        Ok(at)
    }

    /// Reserves exactly `[iova, iova + size)`, for a BO whose address is
    /// given (a trace's, or a captured buffer device address).
    pub fn alloc_at(&mut self, iova: u64, size: u64) -> Result<()> {
        let end = iova.checked_add(size);
        let hole = self.free.range(..=iova).next_back();
        let fits = match (hole, end) {
            (Some((&h, &len)), Some(end)) => size > 0 && end <= h + len,
            _ => false,
        };
        if !fits {
            return Err(Error::InvalidArgument(format!(
                "VA range {iova:#x} + {size:#x} is empty, outside {:#x}..{:#x} or already in use",
                self.start, self.end
            )));
        }
        self.take(iova, size);
        Ok(())
    }

    /// Returns a range [`VaAllocator::alloc`] or [`VaAllocator::alloc_at`]
    /// gave out.
    pub fn free(&mut self, iova: u64) -> Result<()> {
        let size = self.used.remove(&iova).ok_or_else(|| {
            Error::InvalidArgument(format!("VA {iova:#x} is not the start of an allocation"))
        })?;
        let mut start = iova;
        let mut len = size;
        if let Some((&prev, &prev_len)) = self.free.range(..iova).next_back() {
            if prev + prev_len == iova {
                self.free.remove(&prev);
                start = prev;
                len += prev_len;
            }
        }
        if let Some(next_len) = self.free.remove(&(iova + size)) {
            len += next_len;
        }
        self.free.insert(start, len);
        Ok(())
    }

    /// Bytes not allocated.
    pub fn free_bytes(&self) -> u64 {
        self.free.values().sum()
    }

    /// Carves `[at, at + size)` out of the hole containing it.
    fn take(&mut self, at: u64, size: u64) {
        let (&hole, &len) = self
            .free
            .range(..=at)
            .next_back()
            .expect("callers found a hole containing the range");
        self.free.remove(&hole);
        if at > hole {
            self.free.insert(hole, at - hole);
        }
        let tail = hole + len - (at + size);
        if tail > 0 {
            self.free.insert(at + size, tail);
        }
        self.used.insert(at, size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: u64 = 0x1_0000_0000;

    #[test]
    fn allocations_are_aligned_and_disjoint() {
        let mut va = VaAllocator::new(START + 0x1000, 0x100_0000).unwrap();
        let a = va.alloc(0x1000, 0x1000).unwrap();
        let b = va.alloc(0x3000, 0x10000).unwrap();
        let c = va.alloc(0x10, 0x1000).unwrap();
        assert_eq!(a, START + 0x1000);
        assert_eq!(b, START + 0x10000, "the next 64 KiB boundary");
        assert_eq!(c, START + 0x2000, "the gap left before b is reused");
        assert_eq!(va.free_bytes(), 0x100_0000 - 0x1000 - 0x3000 - 0x10);
    }

    #[test]
    fn a_freed_range_is_reused_and_merges_with_its_neighbours() {
        let mut va = VaAllocator::new(START, 0x4000).unwrap();
        let a = va.alloc(0x1000, 0x1000).unwrap();
        let b = va.alloc(0x1000, 0x1000).unwrap();
        let c = va.alloc(0x2000, 0x1000).unwrap();
        assert!(matches!(
            va.alloc(0x1000, 0x1000),
            Err(Error::OutOfVa { .. })
        ));
        va.free(a).unwrap();
        va.free(b).unwrap();
        // Only a merged a+b hole holds 0x2000 bytes.
        assert_eq!(va.alloc(0x2000, 0x1000).unwrap(), START);
        va.free(c).unwrap();
        assert_eq!(va.alloc(0x2000, 0x2000).unwrap(), START + 0x2000);
    }

    #[test]
    fn exhaustion_and_bad_frees_are_errors() {
        let mut va = VaAllocator::new(START, 0x10000).unwrap();
        let err = va.alloc(0x20000, 0x1000).unwrap_err();
        assert!(err.to_string().contains("0x20000"), "{err}");
        assert!(va.alloc(0x1000, 3).is_err(), "alignment not a power of two");
        assert!(va.alloc(0, 0x1000).is_err());
        let a = va.alloc(0x1000, 0x1000).unwrap();
        assert!(va.free(a + 0x10).is_err());
        va.free(a).unwrap();
        assert!(va.free(a).is_err(), "double free");
        assert_eq!(va.free_bytes(), 0x10000);
    }

    #[test]
    fn fixed_placements_are_honoured_or_refused() {
        let mut va = VaAllocator::new(START, 0x10000).unwrap();
        va.alloc_at(START + 0x4000, 0x2000).unwrap();
        assert!(va.alloc_at(START + 0x5000, 0x1000).is_err(), "overlap");
        assert!(va.alloc_at(START + 0xf000, 0x2000).is_err(), "past the end");
        assert!(
            va.alloc_at(START - 0x1000, 0x1000).is_err(),
            "before the start"
        );
        assert_eq!(va.alloc(0x5000, 0x1000).unwrap(), START + 0x6000);
        va.free(START + 0x4000).unwrap();
        assert_eq!(va.alloc(0x4000, 0x1000).unwrap(), START);
    }
}
