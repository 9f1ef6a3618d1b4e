//! A BO a command buffer fills on the CPU through its mapping: a command
//! stream chunk or upload memory. Recording writes straight into it, as
//! Turnip's `tu_cs` writes into its BOs, instead of building dwords
//! elsewhere and copying them.

use std::ptr::NonNull;
use std::sync::Arc;

use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::{internal, VkResult};

pub struct Chunk {
    bo: Arc<DeviceBo>,
    /// The BO's CPU mapping, `dwords` long.
    ptr: NonNull<u32>,
    dwords: usize,
}

// SAFETY: the mapping is plain memory owned by `bo` (which is Send and
// Sync); the pointer only caches its address, and `&mut self` is required
// to write through it.
unsafe impl Send for Chunk {}
// SAFETY: as above: `&Chunk` gives no access to the memory.
unsafe impl Sync for Chunk {}

impl Chunk {
    /// A new BO of at least `dwords` dwords.
    pub fn new(device: &Device, dwords: usize, kind: BoKind) -> VkResult<Chunk> {
        let bo = device.allocate_bo(dwords as u64 * 4, kind)?;
        let ptr = bo
            .bo()
            .map()
            .map_err(|e| internal("mapping a command buffer BO", e))?
            .cast::<u32>();
        let dwords = (bo.size() / 4) as usize;
        Ok(Chunk { bo, ptr, dwords })
    }

    pub fn bo(&self) -> &Arc<DeviceBo> {
        &self.bo
    }

    pub fn iova(&self) -> u64 {
        self.bo.iova()
    }

    /// Its size in dwords.
    pub fn capacity(&self) -> usize {
        self.dwords
    }

    /// The chunk's memory, for the CPU to fill.
    pub fn dwords_mut(&mut self) -> &mut [u32] {
        // SAFETY: `ptr` is the mapping of `bo`, which stays mapped while
        // `bo` lives (kernel-if's `Bo::map` contract), is page-aligned and
        // `dwords` long, and holds initialised memory (a new BO is zeroed).
        // The BO was allocated for this chunk alone and nothing else
        // writes it; the GPU reads it only once a submit that uses it runs,
        // and the spec forbids recording into (or resetting) a command
        // buffer while such a submit is pending. `&mut self` keeps the
        // slice unique on the CPU side.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.dwords) }
    }
}
