//! `VkDescriptorPool`: one BO holding the descriptors of its sets, handed
//! out in 64-byte slots by a first-fit free list.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;

use super::inline_block;
use super::set_layout::slots_per_descriptor;
use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;
use crate::limits::DESCRIPTOR_SIZE;

/// Free ranges of a pool, in bytes, sorted and merged.
#[derive(Debug, Default)]
pub struct FreeList {
    ranges: Vec<(u64, u64)>,
}

impl FreeList {
    pub fn new(size: u64) -> FreeList {
        FreeList {
            ranges: if size > 0 {
                vec![(0, size)]
            } else {
                Vec::new()
            },
        }
    }

    /// The offset of `size` bytes, or `None` when no free range holds them.
    pub fn take(&mut self, size: u64) -> Option<u64> {
        let i = self.ranges.iter().position(|&(_, len)| len >= size)?;
        let (start, len) = self.ranges[i];
        if len == size {
            self.ranges.remove(i);
        } else {
            self.ranges[i] = (start + size, len - size);
        }
        Some(start)
    }

    pub fn give(&mut self, start: u64, size: u64) {
        let i = self.ranges.partition_point(|&(s, _)| s < start);
        self.ranges.insert(i, (start, size));
        // Merge with the next, then with the previous.
        if i + 1 < self.ranges.len() && self.ranges[i].0 + self.ranges[i].1 == self.ranges[i + 1].0
        {
            self.ranges[i].1 += self.ranges[i + 1].1;
            self.ranges.remove(i + 1);
        }
        if i > 0 && self.ranges[i - 1].0 + self.ranges[i - 1].1 == self.ranges[i].0 {
            self.ranges[i - 1].1 += self.ranges[i].1;
            self.ranges.remove(i);
        }
    }

    pub fn total(&self) -> u64 {
        self.ranges.iter().map(|r| r.1).sum()
    }
}

struct PoolState {
    free: FreeList,
    live_sets: u32,
}

pub struct DescriptorPool {
    pub device: Arc<Device>,
    pub bo: Option<Arc<DeviceBo>>,
    size: u64,
    max_sets: u32,
    state: Mutex<PoolState>,
    /// Bumped by every reset: sets of an older generation are gone.
    generation: AtomicU64,
}

impl DescriptorPool {
    /// A pool for `max_sets` sets holding the descriptors `sizes` counts
    /// (each in the slots its type takes in a set).
    pub fn new(
        device: &Arc<Device>,
        max_sets: u32,
        sizes: &[(vk::DescriptorType, u32)],
    ) -> VkResult<Arc<DescriptorPool>> {
        DescriptorPool::with_inline_blocks(device, max_sets, sizes, 0)
    }

    /// [`DescriptorPool::new`] for sets holding up to `inline_blocks`
    /// inline uniform block bindings in all (what
    /// `VkDescriptorPoolInlineUniformBlockCreateInfo` says): each takes a
    /// descriptor slot and rounds its bytes up to whole slots, beyond the
    /// bytes the pool sizes count.
    pub fn with_inline_blocks(
        device: &Arc<Device>,
        max_sets: u32,
        sizes: &[(vk::DescriptorType, u32)],
        inline_blocks: u32,
    ) -> VkResult<Arc<DescriptorPool>> {
        let slots: u64 = sizes
            .iter()
            .map(|&(ty, n)| {
                if ty == inline_block::TYPE {
                    u64::from(n).div_ceil(DESCRIPTOR_SIZE)
                } else {
                    u64::from(n) * u64::from(slots_per_descriptor(ty))
                }
            })
            .sum::<u64>()
            + 2 * u64::from(inline_blocks);
        let size = slots * DESCRIPTOR_SIZE;
        let bo = if size > 0 {
            Some(device.allocate_bo(size, BoKind::Descriptors)?)
        } else {
            None
        };
        Ok(Arc::new(DescriptorPool {
            device: device.clone(),
            bo,
            size,
            max_sets,
            state: Mutex::new(PoolState {
                free: FreeList::new(size),
                live_sets: 0,
            }),
            generation: AtomicU64::new(0),
        }))
    }

    /// Takes room for a set of `size` bytes: its offset and the pool
    /// generation it belongs to.
    pub(crate) fn allocate(&self, size: u64) -> VkResult<(u64, u64)> {
        let mut state = self.state.lock();
        if state.live_sets >= self.max_sets {
            return Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY);
        }
        let offset = if size == 0 {
            0
        } else {
            match state.free.take(size) {
                Some(o) => o,
                None if state.free.total() >= size => {
                    return Err(vk::Result::ERROR_FRAGMENTED_POOL)
                }
                None => return Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY),
            }
        };
        state.live_sets += 1;
        Ok((offset, self.generation.load(Ordering::Acquire)))
    }

    /// Gives a set's room back, unless a reset already did.
    pub(crate) fn release(&self, offset: u64, size: u64, generation: u64) {
        let mut state = self.state.lock();
        if generation != self.generation.load(Ordering::Acquire) {
            return;
        }
        if size > 0 {
            state.free.give(offset, size);
        }
        state.live_sets -= 1;
    }

    /// `vkResetDescriptorPool`: every set is freed.
    pub fn reset(&self) {
        let mut state = self.state.lock();
        self.generation.fetch_add(1, Ordering::AcqRel);
        state.free = FreeList::new(self.size);
        state.live_sets = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_free_list_takes_first_fit_and_merges_neighbours() {
        let mut f = FreeList::new(640);
        let a = f.take(128).unwrap();
        let b = f.take(64).unwrap();
        let c = f.take(256).unwrap();
        assert_eq!((a, b, c), (0, 128, 192));
        assert_eq!(f.take(256), None);
        f.give(b, 64);
        f.give(a, 128);
        assert_eq!(f.ranges, vec![(0, 192), (448, 192)]);
        f.give(c, 256);
        assert_eq!(f.ranges, vec![(0, 640)]);
    }

    #[test]
    fn pools_run_out_of_sets_and_memory_and_reset() {
        let device = crate::device::tests::null_device("a660");
        let pool =
            DescriptorPool::new(&device, 2, &[(vk::DescriptorType::STORAGE_BUFFER, 3)]).unwrap();
        let (a, gen) = pool.allocate(128).unwrap();
        assert_eq!(
            pool.allocate(128),
            Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY)
        );
        let (b, _) = pool.allocate(64).unwrap();
        assert_eq!(pool.allocate(0), Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY));
        pool.release(a, 128, gen);
        pool.release(b, 64, gen);
        let (c, _) = pool.allocate(192).unwrap();
        assert_eq!(c, 0);
        pool.reset();
        // A release from before the reset changes nothing.
        pool.release(c, 192, gen);
        assert_eq!(pool.allocate(192).unwrap(), (0, gen + 1));
    }
}
