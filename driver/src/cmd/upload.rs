//! Memory a command buffer fills on the CPU for the GPU to read while it
//! runs: descriptor set copies with dynamic offsets applied, data for
//! internal dispatches. A bump allocator over BOs of 64 KiB or more, kept
//! until the command buffer is reset, and then kept for reuse.

use std::sync::Arc;

use super::chunk::Chunk;
use crate::device::Device;
use crate::device_bo::BoKind;
use crate::error::VkResult;

const CHUNK_DWORDS: usize = 16 * 1024;

pub struct UploadBuffer {
    device: Arc<Device>,
    /// The chunk being filled is the last.
    chunks: Vec<Chunk>,
    spare: Vec<Chunk>,
    /// Bytes used of the last chunk.
    used: u64,
}

impl UploadBuffer {
    pub fn new(device: &Arc<Device>) -> UploadBuffer {
        UploadBuffer {
            device: device.clone(),
            chunks: Vec::new(),
            spare: Vec::new(),
            used: 0,
        }
    }

    /// `dwords` dwords of fresh memory aligned to `align` bytes, to fill in
    /// place, and their GPU address.
    #[inline]
    pub fn alloc(&mut self, dwords: usize, align: u64) -> VkResult<(u64, &mut [u32])> {
        let size = (dwords as u64 * 4).max(4);
        let start = self.used.next_multiple_of(align);
        let fits = self
            .chunks
            .last()
            .is_some_and(|c| start + size <= c.capacity() as u64 * 4);
        let offset = if fits {
            start
        } else {
            self.add_chunk(dwords, size)?;
            0
        };
        self.used = offset + size;
        let chunk = self
            .chunks
            .last_mut()
            .expect("a chunk was just checked or added");
        let iova = chunk.iova() + offset;
        let at = (offset / 4) as usize;
        Ok((iova, &mut chunk.dwords_mut()[at..at + dwords]))
    }

    /// Makes a chunk of at least `size` bytes (`dwords` dwords) the one
    /// allocations come from: a spare one, or a new one.
    #[cold]
    fn add_chunk(&mut self, dwords: usize, size: u64) -> VkResult<()> {
        let chunk = match self
            .spare
            .iter()
            .position(|c| c.capacity() as u64 * 4 >= size)
        {
            Some(i) => self.spare.swap_remove(i),
            None => Chunk::new(&self.device, dwords.max(CHUNK_DWORDS), BoKind::DriverData)?,
        };
        self.chunks.push(chunk);
        Ok(())
    }

    /// Copies `dwords` to fresh memory aligned to `align` bytes and returns
    /// its GPU address.
    pub fn upload(&mut self, dwords: &[u32], align: u64) -> VkResult<u64> {
        let (iova, room) = self.alloc(dwords.len(), align)?;
        room.copy_from_slice(dwords);
        Ok(iova)
    }

    pub fn reset(&mut self) {
        self.spare.append(&mut self.chunks);
        self.used = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uploads_are_aligned_and_spill_into_new_chunks() {
        let device = crate::device::tests::null_device("a660");
        let mut up = UploadBuffer::new(&device);
        let a = up.upload(&[1, 2, 3], 64).unwrap();
        let b = up.upload(&[4], 64).unwrap();
        assert_eq!(b - a, 64);
        let big = up.upload(&vec![9; 20000], 64).unwrap();
        assert_eq!(big % 64, 0);
        assert_eq!(up.chunks.len(), 2);
        let mut word = [0u8; 4];
        up.chunks[0].bo().read(64, &mut word).unwrap();
        assert_eq!(u32::from_le_bytes(word), 4);
    }
}
