//! The memory heaps and types the device offers.
//!
//! Adreno shares system memory with the CPU (UMA): one heap, device-local
//! and host-visible. Its size follows Turnip's rule for system memory (half
//! of RAM up to 4 GiB, three quarters above), bounded by the GPU address
//! space the kernel gives the process. The types differ only in how the CPU
//! mapping is cached:
//!
//! - write-combined and coherent: uploads, command streams;
//! - cached and coherent, where the kernel can keep CPU caches coherent with
//!   the GPU (I/O coherence): fast CPU readback.
//!
//! A cached but non-coherent type would need cache maintenance in
//! vkFlush/InvalidateMappedMemoryRanges, which the kernel interface does not
//! offer yet, so it is not exposed.

use ash::vk;
use parsnip_kernel_if::{CpuCaching, DeviceInfo};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryType {
    pub flags: vk::MemoryPropertyFlags,
    pub caching: CpuCaching,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryLayout {
    pub heap_size: u64,
    pub types: Vec<MemoryType>,
}

impl MemoryLayout {
    /// The layout for a device with `ram` bytes of system memory.
    pub fn new(device: &DeviceInfo, ram: u64) -> MemoryLayout {
        const GIB: u64 = 1 << 30;
        let share = if ram <= 4 * GIB { ram / 2 } else { ram / 4 * 3 };
        let heap_size = if device.va_size != 0 {
            share.min(device.va_size)
        } else {
            share
        };
        let visible = vk::MemoryPropertyFlags::DEVICE_LOCAL
            | vk::MemoryPropertyFlags::HOST_VISIBLE
            | vk::MemoryPropertyFlags::HOST_COHERENT;
        let mut types = vec![MemoryType {
            flags: visible,
            caching: CpuCaching::WriteCombined,
        }];
        if device.cached_coherent {
            types.push(MemoryType {
                flags: visible | vk::MemoryPropertyFlags::HOST_CACHED,
                caching: CpuCaching::CachedCoherent,
            });
        }
        MemoryLayout { heap_size, types }
    }

    /// Every type index, as a `memoryTypeBits` mask.
    pub fn all_types_mask(&self) -> u32 {
        (1u32 << self.types.len()) - 1
    }

    pub fn properties(&self) -> vk::PhysicalDeviceMemoryProperties {
        let mut p = vk::PhysicalDeviceMemoryProperties {
            memory_type_count: self.types.len() as u32,
            memory_heap_count: 1,
            ..Default::default()
        };
        p.memory_heaps[0] = vk::MemoryHeap {
            size: self.heap_size,
            flags: vk::MemoryHeapFlags::DEVICE_LOCAL,
        };
        for (dst, t) in p.memory_types.iter_mut().zip(&self.types) {
            *dst = vk::MemoryType {
                property_flags: t.flags,
                heap_index: 0,
            };
        }
        p
    }
}

/// Bytes of system memory (`MemTotal` of /proc/meminfo), or `None` when it
/// cannot be read.
pub fn system_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_total(&text)
}

fn parse_mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_kernel_if::{Backend, GpuFacts};

    fn device(cached_coherent: bool) -> DeviceInfo {
        let mut d = DeviceInfo::software(
            GpuFacts {
                gpu_id: 660,
                chip_id: 0x0606_0001,
                gmem_size: 0,
                gmem_base: 0,
            },
            Backend::Null,
        );
        d.cached_coherent = cached_coherent;
        d
    }

    #[test]
    fn the_heap_is_a_share_of_ram_bounded_by_the_address_space() {
        const GIB: u64 = 1 << 30;
        assert_eq!(MemoryLayout::new(&device(true), 4 * GIB).heap_size, 2 * GIB);
        assert_eq!(MemoryLayout::new(&device(true), 8 * GIB).heap_size, 6 * GIB);
        // The software address space is 16 GiB.
        assert_eq!(
            MemoryLayout::new(&device(true), 64 * GIB).heap_size,
            16 * GIB
        );
    }

    #[test]
    fn a_cached_type_exists_only_where_the_kernel_keeps_it_coherent() {
        let with = MemoryLayout::new(&device(true), 1 << 33).properties();
        assert_eq!(with.memory_type_count, 2);
        assert!(with.memory_types[1].property_flags.contains(
            vk::MemoryPropertyFlags::HOST_CACHED | vk::MemoryPropertyFlags::HOST_COHERENT
        ));
        let without = MemoryLayout::new(&device(false), 1 << 33);
        assert_eq!(without.types.len(), 1);
        assert_eq!(without.all_types_mask(), 1);
    }

    #[test]
    fn meminfo_is_read_in_kib() {
        let text = "MemTotal:       24576000 kB\nMemFree: 1 kB\n";
        assert_eq!(parse_mem_total(text), Some(24_576_000 * 1024));
        assert_eq!(parse_mem_total("nothing"), None);
    }
}
