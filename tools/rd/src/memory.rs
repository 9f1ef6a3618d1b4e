//! A view of GPU memory as a trace captured it: GPU address to bytes.
//!
//! Captured buffers may overlap, and a buffer may be dumped again within a
//! submit (the kernel dumps a command buffer's BO and then the submitted
//! range of it; the blob re-dumps everything per submit). The rule here:
//! each byte comes from the latest dump that covers it. freedreno's decoder
//! also lets a later dump at the same address replace an earlier one; for a
//! later dump that covers only part of an earlier one it keeps the earlier
//! one's bytes elsewhere, as here. Dumps taken at one submit hold the same
//! bytes where they overlap, so on real traces the rules agree.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// A range an `RD_GPUADDR` declared but whose contents were not dumped; kept
/// to explain a failed lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uncaptured {
    pub iova: u64,
    pub size: u32,
    /// File offset of the `RD_GPUADDR`.
    pub offset: u64,
}

impl Uncaptured {
    fn contains(&self, iova: u64) -> bool {
        iova >= self.iova && u128::from(iova) < u128::from(self.iova) + u128::from(self.size)
    }
}

/// A run of bytes from one dump, at `start`. Runs never overlap.
#[derive(Clone, Copy, Debug)]
struct Run<'a> {
    start: u64,
    bytes: &'a [u8],
}

impl Run<'_> {
    /// Exclusive end; bytes that would lie past the top of the 64-bit
    /// address space are cut off when the run is made.
    fn end(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }
}

/// GPU memory resolved from captured dumps.
#[derive(Clone, Debug, Default)]
pub struct Memory<'a> {
    /// Sorted by start.
    runs: Vec<Run<'a>>,
    uncaptured: Vec<Uncaptured>,
}

impl<'a> Memory<'a> {
    /// Builds the view from dumps `(iova, bytes)` in the order they were
    /// taken; later dumps win where they overlap earlier ones.
    pub fn from_dumps(dumps: impl IntoIterator<Item = (u64, &'a [u8])>) -> Self {
        let dumps: Vec<_> = dumps.into_iter().collect();
        // Paint from the latest dump back, keeping only what no later dump
        // covered. `covered` maps start -> end of disjoint, merged ranges.
        let mut covered: BTreeMap<u64, u64> = BTreeMap::new();
        let mut runs = Vec::new();
        for &(iova, bytes) in dumps.iter().rev() {
            let room = u64::MAX - iova;
            let bytes = &bytes[..bytes.len().min(usize::try_from(room).unwrap_or(usize::MAX))];
            if bytes.is_empty() {
                continue;
            }
            let (start, end) = (iova, iova + bytes.len() as u64);
            // Covered ranges that touch [start, end), in address order.
            let mut touching: Vec<(u64, u64)> = covered
                .range(..end)
                .rev()
                .take_while(|&(_, &e)| e > start)
                .map(|(&s, &e)| (s, e))
                .collect();
            touching.reverse();
            let mut cursor = start;
            for &(s, e) in &touching {
                if s > cursor {
                    runs.push(Run {
                        start: cursor,
                        bytes: &bytes[(cursor - start) as usize..(s - start) as usize],
                    });
                }
                cursor = cursor.max(e);
            }
            if cursor < end {
                runs.push(Run {
                    start: cursor,
                    bytes: &bytes[(cursor - start) as usize..],
                });
            }
            let merged_start = touching.first().map_or(start, |&(s, _)| s.min(start));
            let merged_end = touching.last().map_or(end, |&(_, e)| e.max(end));
            for (s, _) in touching {
                covered.remove(&s);
            }
            covered.insert(merged_start, merged_end);
        }
        runs.sort_by_key(|run| run.start);
        Self {
            runs,
            uncaptured: Vec::new(),
        }
    }

    /// Adds declared-but-not-dumped ranges, named in lookup errors.
    pub fn with_uncaptured(mut self, uncaptured: impl IntoIterator<Item = Uncaptured>) -> Self {
        self.uncaptured.extend(uncaptured);
        self
    }

    fn run_at(&self, iova: u64) -> Option<&Run<'a>> {
        let after = self.runs.partition_point(|run| run.start <= iova);
        let run = self.runs.get(after.checked_sub(1)?)?;
        (iova < run.end()).then_some(run)
    }

    pub fn contains(&self, iova: u64) -> bool {
        self.run_at(iova).is_some()
    }

    /// The bytes from `iova` to the end of the dump that holds it (or to
    /// where a later dump takes over).
    pub fn resolve(&self, iova: u64) -> Result<&'a [u8], MemoryError> {
        let run = self
            .run_at(iova)
            .ok_or_else(|| self.missing(iova, 1, iova))?;
        Ok(&run.bytes[(iova - run.start) as usize..])
    }

    /// `len` bytes at `iova`; borrowed when one dump holds them all, copied
    /// when they span adjacent dumps.
    pub fn bytes(&self, iova: u64, len: u64) -> Result<Cow<'a, [u8]>, MemoryError> {
        let end = iova
            .checked_add(len)
            .ok_or_else(|| self.past_top(iova, len))?;
        // Find every piece before copying anything: the length may come from
        // a corrupted trace, and only bytes that exist may be allocated.
        let mut pieces = Vec::new();
        let mut cursor = iova;
        while cursor < end {
            let run = self
                .resolve(cursor)
                .map_err(|_| self.missing(iova, len, cursor))?;
            let take = run
                .len()
                .min(usize::try_from(end - cursor).unwrap_or(usize::MAX));
            pieces.push(&run[..take]);
            cursor += take as u64;
        }
        Ok(match pieces.as_slice() {
            [] => Cow::Borrowed(&[]),
            [one] => Cow::Borrowed(one),
            _ => Cow::Owned(pieces.concat()),
        })
    }

    pub fn read_u32(&self, iova: u64) -> Result<u32, MemoryError> {
        let bytes = self.bytes(iova, 4)?;
        let mut value = [0; 4];
        value.copy_from_slice(&bytes);
        Ok(u32::from_le_bytes(value))
    }

    pub fn read_u64(&self, iova: u64) -> Result<u64, MemoryError> {
        let bytes = self.bytes(iova, 8)?;
        let mut value = [0; 8];
        value.copy_from_slice(&bytes);
        Ok(u64::from_le_bytes(value))
    }

    /// `count` little-endian dwords at `iova`, such as an IB.
    pub fn dwords(&self, iova: u64, count: u32) -> Result<Vec<u32>, MemoryError> {
        let bytes = self.bytes(iova, u64::from(count) * 4)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|d| u32::from_le_bytes([d[0], d[1], d[2], d[3]]))
            .collect())
    }

    /// The captured bytes as disjoint runs `(iova, bytes)` in address order:
    /// what a replay loads.
    pub fn runs(&self) -> impl Iterator<Item = (u64, &'a [u8])> + '_ {
        self.runs.iter().map(|run| (run.start, run.bytes))
    }

    fn missing(&self, start: u64, len: u64, missing: u64) -> MemoryError {
        MemoryError {
            start,
            len,
            kind: MemoryErrorKind::NotCaptured {
                missing,
                declared: self
                    .uncaptured
                    .iter()
                    .find(|u| u.contains(missing))
                    .copied(),
            },
        }
    }

    fn past_top(&self, start: u64, len: u64) -> MemoryError {
        MemoryError {
            start,
            len,
            kind: MemoryErrorKind::PastAddressSpace,
        }
    }
}

/// A read of GPU memory the trace has no bytes for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryError {
    /// The read that failed: `len` bytes at `start`.
    pub start: u64,
    pub len: u64,
    pub kind: MemoryErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryErrorKind {
    /// Nothing was captured at `missing`, the first address of the read the
    /// trace has no bytes for; `declared` is the `RD_GPUADDR` that named the
    /// range without dumping it, if one did.
    NotCaptured {
        missing: u64,
        declared: Option<Uncaptured>,
    },
    /// The read runs past the top of the 64-bit address space.
    PastAddressSpace,
}

impl MemoryError {
    /// The first address the trace has no bytes for.
    pub fn missing(&self) -> u64 {
        match self.kind {
            MemoryErrorKind::NotCaptured { missing, .. } => missing,
            MemoryErrorKind::PastAddressSpace => self.start,
        }
    }
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            MemoryErrorKind::NotCaptured { missing, declared } => {
                write!(f, "nothing was captured at GPU address {missing:#x}")?;
                if (self.start, self.len) != (*missing, 1) {
                    write!(f, " (reading {} bytes at {:#x})", self.len, self.start)?;
                }
                if let Some(declared) = declared {
                    write!(
                        f,
                        "; the RD_GPUADDR at offset {:#x} declared {} bytes at {:#x} \
                         but its contents were not dumped",
                        declared.offset, declared.size, declared.iova
                    )?;
                }
                Ok(())
            }
            MemoryErrorKind::PastAddressSpace => write!(
                f,
                "reading {} bytes at GPU address {:#x} runs past the top of the address space",
                self.len, self.start
            ),
        }
    }
}

impl std::error::Error for MemoryError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_dumps_win_byte_by_byte() {
        let old = [1u8; 16];
        let new = [2u8; 4];
        let memory = Memory::from_dumps([(0x1000, &old[..]), (0x1004, &new[..])]);
        let all = memory.bytes(0x1000, 16).unwrap();
        assert_eq!(
            all.as_ref(),
            &[1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]
        );
        // Spanning three runs from two dumps needs a copy.
        assert!(matches!(all, Cow::Owned(_)));
        // Within one run it is borrowed, and ends where the later dump starts.
        assert_eq!(memory.resolve(0x1001).unwrap(), &[1, 1, 1]);
        assert_eq!(memory.resolve(0x1006).unwrap(), &[2, 2]);
        assert!(matches!(memory.bytes(0x1008, 8).unwrap(), Cow::Borrowed(_)));
    }

    #[test]
    fn a_later_larger_dump_hides_an_earlier_one() {
        let small = [7u8; 4];
        let large = [9u8; 32];
        let memory = Memory::from_dumps([(0x2008, &small[..]), (0x2000, &large[..])]);
        assert_eq!(memory.bytes(0x2000, 32).unwrap().as_ref(), &[9u8; 32]);
        assert_eq!(memory.runs().count(), 1);
    }

    #[test]
    fn the_same_address_dumped_shorter_keeps_the_rest_of_the_first() {
        // shadow.rd.gz dumps 0x27ce000 with 8192 bytes and then again with
        // the 1588 bytes of its IB.
        let bo: Vec<u8> = (0..32).collect();
        let ib = [0xaau8; 8];
        let memory = Memory::from_dumps([(0x27ce000, &bo[..]), (0x27ce000, &ib[..])]);
        assert_eq!(memory.read_u64(0x27ce000).unwrap(), 0xaaaa_aaaa_aaaa_aaaa);
        assert_eq!(memory.read_u32(0x27ce008).unwrap(), 0x0b0a_0908);
        assert_eq!(memory.read_u32(0x27ce006).unwrap(), 0x0908_aaaa);
    }

    #[test]
    fn reads_are_little_endian_and_may_straddle_adjacent_dumps() {
        let a = [0x11, 0x22, 0x33, 0x44];
        let b = [0x55, 0x66, 0x77, 0x88];
        let memory = Memory::from_dumps([(0x10, &a[..]), (0x14, &b[..])]);
        assert_eq!(memory.read_u64(0x10).unwrap(), 0x8877_6655_4433_2211);
        assert_eq!(memory.read_u32(0x12).unwrap(), 0x6655_4433);
        assert_eq!(
            memory.dwords(0x10, 2).unwrap(),
            vec![0x4433_2211, 0x8877_6655]
        );
    }

    #[test]
    fn a_gap_names_the_first_missing_address_and_any_declaration() {
        let a = [0u8; 8];
        let memory = Memory::from_dumps([(0x1000, &a[..])]).with_uncaptured([Uncaptured {
            iova: 0x1008,
            size: 0x100,
            offset: 0x40,
        }]);
        let err = memory.bytes(0x1004, 8).unwrap_err();
        assert_eq!(err.missing(), 0x1008);
        assert_eq!(
            err.to_string(),
            "nothing was captured at GPU address 0x1008 (reading 8 bytes at 0x1004); \
             the RD_GPUADDR at offset 0x40 declared 256 bytes at 0x1008 but its \
             contents were not dumped"
        );
        let err = memory.resolve(0x0fff).unwrap_err();
        assert_eq!(err.to_string(), "nothing was captured at GPU address 0xfff");
        assert!(memory.read_u32(0x2000).is_err());
    }

    #[test]
    fn the_top_of_the_address_space_is_an_error_not_a_wrap() {
        let a = [0u8; 16];
        let memory = Memory::from_dumps([(u64::MAX - 8, &a[..])]);
        assert!(memory.read_u32(u64::MAX - 8).is_ok());
        let err = memory.read_u64(u64::MAX - 4).unwrap_err();
        assert_eq!(err.kind, MemoryErrorKind::PastAddressSpace);
        assert!(memory.bytes(0, 4).is_err());
    }

    /// Found by fuzzing: a command stream claiming 1.5 G dwords over a tiny
    /// buffer must fail, not allocate 6 GB first.
    #[test]
    fn a_read_far_past_a_dump_fails_without_allocating_it() {
        let a = [0u8; 16];
        let memory = Memory::from_dumps([(0x1000, &a[..])]);
        let err = memory.dwords(0x1000, 0x5b04_0002).unwrap_err();
        assert_eq!(err.missing(), 0x1010);
        let err = memory.bytes(0x1000, u64::MAX - 0x1000).unwrap_err();
        assert_eq!(err.missing(), 0x1010);
    }

    #[test]
    fn empty_dumps_and_reads() {
        let memory = Memory::from_dumps([(0x1000, &[][..])]);
        assert!(!memory.contains(0x1000));
        assert_eq!(memory.bytes(0x1000, 0).unwrap().as_ref(), &[] as &[u8]);
    }
}
