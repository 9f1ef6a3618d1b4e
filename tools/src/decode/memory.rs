//! The GPU memory a command stream is decoded against: which captured
//! buffer holds an address, from where, and where its bytes sit in the
//! trace file.
//!
//! The decoder needs more than "the bytes at this address": freedreno's
//! decoder names the buffer an address register points into
//! (`base=..., offset=..., size=...`), reads a shader to the end of the buffer
//! that holds it, and its `--once` mode remembers which IB offsets of a buffer
//! it has walked. So memory is seen as buffers, as the trace dumped them.
//! [`CapturedBuffers`] follows freedreno's rules for a submit's buffers;
//! anything else that can say which buffer holds an address (a replay's live
//! memory, say) can implement [`GpuMemory`] and be decoded the same way.

use std::collections::BTreeMap;

/// A buffer of GPU memory and where its bytes came from.
#[derive(Clone, Copy, Debug)]
pub struct BufferView<'a> {
    /// GPU address of the buffer's first byte.
    pub base: u64,
    pub bytes: &'a [u8],
    /// Offset of the buffer's first byte in the (uncompressed) trace file,
    /// when it came from one.
    pub file_offset: Option<u64>,
}

impl<'a> BufferView<'a> {
    pub fn contains(&self, iova: u64) -> bool {
        iova >= self.base && iova - self.base < self.bytes.len() as u64
    }

    /// The bytes from `iova` to the end of the buffer.
    pub fn from(&self, iova: u64) -> &'a [u8] {
        let start = usize::try_from(iova.saturating_sub(self.base)).unwrap_or(usize::MAX);
        self.bytes.get(start..).unwrap_or(&[])
    }

    /// The trace file offset of the byte at `iova`.
    pub fn file_offset_of(&self, iova: u64) -> Option<u64> {
        self.file_offset.map(|f| f + (iova - self.base))
    }

    /// Up to `count` little-endian dwords from `iova`, fewer where the buffer
    /// ends first.
    pub fn dwords(&self, iova: u64, count: usize) -> Vec<u32> {
        self.from(iova)
            .chunks_exact(4)
            .take(count)
            .map(|d| u32::from_le_bytes([d[0], d[1], d[2], d[3]]))
            .collect()
    }
}

/// Captured GPU memory, as buffers.
pub trait GpuMemory {
    /// The buffer that holds the byte at `iova`, if any was captured.
    fn buffer_at(&self, iova: u64) -> Option<BufferView<'_>>;
}

#[derive(Clone, Debug)]
struct Captured {
    bytes: Vec<u8>,
    file_offset: Option<u64>,
}

/// The buffers dumped for one submit, under freedreno's rules: a buffer
/// dumped again at the same address replaces the earlier dump, and a dump
/// that falls inside a buffer already known is taken as a sub-range of it
/// and adds nothing (the kernel dumps a command buffer's BO, then again the
/// part of it that was submitted).
#[derive(Clone, Debug, Default)]
pub struct CapturedBuffers {
    buffers: BTreeMap<u64, Captured>,
}

impl CapturedBuffers {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a dump of `bytes` at `iova`, whose bytes start at `file_offset`
    /// in the trace.
    pub fn add(&mut self, iova: u64, bytes: Vec<u8>, file_offset: Option<u64>) {
        if self.buffers.contains_key(&iova) || self.buffer_at(iova).is_none() {
            self.buffers.insert(iova, Captured { bytes, file_offset });
        }
    }

    /// Forgets every buffer: the next submit brings its own.
    pub fn clear(&mut self) {
        self.buffers.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.buffers.is_empty()
    }
}

impl GpuMemory for CapturedBuffers {
    fn buffer_at(&self, iova: u64) -> Option<BufferView<'_>> {
        // Address 0 is never a buffer (freedreno's lookups agree).
        if iova == 0 {
            return None;
        }
        // Dumps may overlap; the nearest start below that still reaches
        // `iova` holds it.
        self.buffers
            .range(..=iova)
            .rev()
            .map(|(&base, c)| BufferView {
                base,
                bytes: &c.bytes,
                file_offset: c.file_offset,
            })
            .find(|view| view.contains(iova))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dump_inside_a_known_buffer_adds_nothing_and_one_at_its_start_replaces_it() {
        let mut memory = CapturedBuffers::new();
        memory.add(0x1000, vec![1; 64], Some(100));
        memory.add(0x1010, vec![2; 8], Some(500));
        let view = memory.buffer_at(0x1010).unwrap();
        assert_eq!((view.base, view.bytes.len()), (0x1000, 64));
        assert_eq!(view.file_offset_of(0x1010), Some(116));
        memory.add(0x1000, vec![3; 16], Some(900));
        let view = memory.buffer_at(0x1004).unwrap();
        assert_eq!(
            (view.base, view.bytes.len(), view.bytes[0]),
            (0x1000, 16, 3)
        );
        assert!(memory.buffer_at(0x1010).is_none());
        assert!(memory.buffer_at(0).is_none());
    }

    #[test]
    fn dwords_stop_at_the_end_of_the_buffer() {
        let mut memory = CapturedBuffers::new();
        memory.add(0x2000, (0u8..10).collect(), None);
        let view = memory.buffer_at(0x2000).unwrap();
        assert_eq!(view.dwords(0x2000, 100), vec![0x0302_0100, 0x0706_0504]);
        assert_eq!(view.dwords(0x2004, 1), vec![0x0706_0504]);
        assert!(view.from(0x2009).len() == 1);
    }
}
