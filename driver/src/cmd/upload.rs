//! Memory a command buffer fills on the CPU for the GPU to read while it
//! runs: descriptor set copies with dynamic offsets applied, data for
//! internal dispatches. A bump allocator over BOs of 64 KiB or more, kept
//! until the command buffer is reset.

use std::sync::Arc;

use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;

const CHUNK_BYTES: u64 = 64 * 1024;

pub struct UploadBuffer {
    device: Arc<Device>,
    chunks: Vec<Arc<DeviceBo>>,
    used: u64,
}

impl UploadBuffer {
    pub fn new(device: &Arc<Device>) -> UploadBuffer {
        UploadBuffer {
            device: device.clone(),
            chunks: Vec::new(),
            used: 0,
        }
    }

    /// Copies `dwords` to fresh memory aligned to `align` bytes and returns
    /// its GPU address.
    pub fn upload(&mut self, dwords: &[u32], align: u64) -> VkResult<u64> {
        let size = (dwords.len() as u64 * 4).max(4);
        let start = self.used.next_multiple_of(align);
        let fits = self
            .chunks
            .last()
            .is_some_and(|bo| start + size <= bo.size());
        let (bo, offset) = if fits {
            (self.chunks.last().expect("checked").clone(), start)
        } else {
            let bo = self
                .device
                .allocate_bo(size.max(CHUNK_BYTES), BoKind::DriverData)?;
            self.chunks.push(bo.clone());
            (bo, 0)
        };
        bo.write_dwords(offset, dwords)?;
        self.used = offset + size;
        Ok(bo.iova() + offset)
    }

    pub fn reset(&mut self) {
        self.chunks.clear();
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
        up.chunks[0].read(64, &mut word).unwrap();
        assert_eq!(u32::from_le_bytes(word), 4);
    }
}
