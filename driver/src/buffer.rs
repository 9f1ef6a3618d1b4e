//! `VkBuffer` and `VkBufferView`.

use std::sync::{Arc, OnceLock};

use ash::vk;

use crate::descriptor::encoding::{self, Descriptor};
use crate::device::Device;
use crate::device_memory::DeviceMemory;
use crate::error::VkResult;
use crate::formats;
use crate::limits::{MAX_TEXEL_BUFFER_ELEMENTS, MIN_BUFFER_OFFSET_ALIGNMENT};

/// A buffer's placement: its memory and the offset in it.
pub struct BufferBinding {
    pub memory: Arc<DeviceMemory>,
    pub offset: u64,
}

pub struct Buffer {
    pub size: u64,
    pub usage: vk::BufferUsageFlags,
    binding: OnceLock<BufferBinding>,
}

impl Buffer {
    pub fn new(size: u64, usage: vk::BufferUsageFlags) -> VkResult<Arc<Buffer>> {
        if size == 0 {
            eprintln!("parsnip: vkCreateBuffer: size 0");
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        Ok(Arc::new(Buffer {
            size,
            usage,
            binding: OnceLock::new(),
        }))
    }

    /// `vkCreateBuffer` on `device`: a buffer larger than the device's heap
    /// could never be bound (and near `UINT64_MAX` its memory requirements
    /// would not fit a `VkDeviceSize`), so it is refused with
    /// `VK_ERROR_OUT_OF_DEVICE_MEMORY`, one of the two results the spec
    /// allows (dEQP's `api.buffer.basic.size_max_uint64`).
    pub fn create(
        device: &Device,
        size: u64,
        usage: vk::BufferUsageFlags,
    ) -> VkResult<Arc<Buffer>> {
        let heap = device.physical.memory.heap_size;
        if size > heap {
            eprintln!(
                "parsnip: vkCreateBuffer: {size:#x} bytes is more than the {heap:#x}-byte heap"
            );
            return Err(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY);
        }
        Buffer::new(size, usage)
    }

    /// `VkMemoryRequirements`: any memory type, 64-byte alignment (the
    /// descriptors' base alignment), and a size rounded to it so that the
    /// driver's dword-granular copies never reach past the allocation.
    pub fn memory_requirements(&self, device: &Device) -> vk::MemoryRequirements {
        Buffer::requirements_for(device, self.size)
    }

    /// The requirements of a buffer of `size` bytes, which depend on its
    /// size alone (`vkGetDeviceBufferMemoryRequirements` asks before any
    /// buffer exists).
    pub fn requirements_for(device: &Device, size: u64) -> vk::MemoryRequirements {
        vk::MemoryRequirements {
            size: size.next_multiple_of(MIN_BUFFER_OFFSET_ALIGNMENT),
            alignment: MIN_BUFFER_OFFSET_ALIGNMENT,
            memory_type_bits: device.physical.memory.all_types_mask(),
        }
    }

    /// `vkBindBufferMemory`.
    pub fn bind(&self, memory: Arc<DeviceMemory>, offset: u64) -> VkResult<()> {
        if !offset.is_multiple_of(MIN_BUFFER_OFFSET_ALIGNMENT) || offset + self.size > memory.size {
            eprintln!(
                "parsnip: vkBindBufferMemory: {:#x} bytes at offset {offset:#x} do not fit the \
                 {:#x}-byte allocation with 64-byte alignment",
                self.size, memory.size
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        self.binding
            .set(BufferBinding { memory, offset })
            .map_err(|_| {
                eprintln!("parsnip: vkBindBufferMemory: the buffer is already bound");
                vk::Result::ERROR_UNKNOWN
            })
    }

    pub fn binding(&self) -> Option<&BufferBinding> {
        self.binding.get()
    }

    /// The GPU address of byte `offset`; an unbound buffer is at 0, which
    /// faults if the GPU uses it (as it would on hardware).
    #[inline]
    pub fn iova(&self, offset: u64) -> u64 {
        self.binding
            .get()
            .map_or(0, |b| b.memory.iova() + b.offset + offset)
    }

    /// The size of a range that may be `VK_WHOLE_SIZE`.
    #[inline]
    pub fn range(&self, offset: u64, range: u64) -> u64 {
        if range == vk::WHOLE_SIZE {
            self.size.saturating_sub(offset)
        } else {
            range
        }
    }
}

pub struct BufferView {
    pub buffer: Arc<Buffer>,
    pub format: vk::Format,
    pub offset: u64,
    pub range: u64,
    /// The descriptor a texel buffer binding of this view holds.
    pub descriptor: Descriptor,
}

impl BufferView {
    pub fn new(
        device: &Device,
        buffer: Arc<Buffer>,
        format: vk::Format,
        offset: u64,
        range: u64,
    ) -> VkResult<Arc<BufferView>> {
        let Some(hw) = formats::buffer_format(format) else {
            eprintln!("parsnip: vkCreateBufferView: format {format:?} is not supported in buffers");
            return Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED);
        };
        let range = buffer.range(offset, range);
        let elements = range / u64::from(hw.bytes);
        // A multiple of the texel is enough (VK_EXT_texel_buffer_alignment's
        // single-texel alignment): the descriptor counts the texels from
        // the 64-byte boundary below (descriptor/encoding.rs).
        if !offset.is_multiple_of(u64::from(hw.bytes))
            || elements > u64::from(MAX_TEXEL_BUFFER_ELEMENTS)
            || offset + range > buffer.size
        {
            eprintln!(
                "parsnip: vkCreateBufferView: offset {offset:#x} range {range:#x} is misaligned \
                 or outside the {:#x}-byte buffer",
                buffer.size
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let descriptor =
            encoding::texel_buffer(device.gpu.chip(), hw, buffer.iova(offset), elements)?;
        Ok(Arc::new(BufferView {
            buffer,
            format,
            offset,
            range,
            descriptor,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::tests::null_device;
    use parsnip_registers::descriptors::a7xx;

    #[test]
    fn buffers_bind_once_and_report_their_address() {
        let device = null_device("a660");
        let memory = DeviceMemory::allocate(&device, 4096, 0).unwrap();
        let buffer = Buffer::new(100, vk::BufferUsageFlags::STORAGE_BUFFER).unwrap();
        let device = crate::device::tests::null_device("a660");
        let heap = device.physical.memory.heap_size;
        for size in [u64::MAX, u64::MAX - 63, heap + 1] {
            assert_eq!(
                Buffer::create(&device, size, vk::BufferUsageFlags::STORAGE_BUFFER).err(),
                Some(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY),
                "{size:#x}"
            );
        }
        let largest = Buffer::create(&device, heap, vk::BufferUsageFlags::STORAGE_BUFFER).unwrap();
        assert!(largest.memory_requirements(&device).size >= heap);
        let req = buffer.memory_requirements(&device);
        assert_eq!(
            (req.size, req.alignment, req.memory_type_bits),
            (128, 64, 0b11)
        );
        assert_eq!(buffer.iova(0), 0);
        assert!(buffer.bind(memory.clone(), 4).is_err());
        buffer.bind(memory.clone(), 64).unwrap();
        assert_eq!(buffer.iova(8), memory.iova() + 72);
        assert!(buffer.bind(memory, 128).is_err());
        assert_eq!(buffer.range(40, vk::WHOLE_SIZE), 60);
    }

    #[test]
    fn views_need_a_buffer_format() {
        let device = null_device("a740");
        let memory = DeviceMemory::allocate(&device, 4096, 0).unwrap();
        let buffer = Buffer::new(256, vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER).unwrap();
        buffer.bind(memory, 0).unwrap();
        let view = BufferView::new(
            &device,
            buffer.clone(),
            vk::Format::R32_UINT,
            64,
            vk::WHOLE_SIZE,
        )
        .unwrap();
        assert_eq!(view.range, 192);
        let decoded = |d: &Descriptor| a7xx::TextureDescriptor::from_raw(d);
        assert_eq!(decoded(&view.descriptor).width, 48);
        // One texel in: the same base, one texel skipped, one fewer seen.
        let view = BufferView::new(
            &device,
            buffer.clone(),
            vk::Format::R32_UINT,
            68,
            vk::WHOLE_SIZE,
        )
        .unwrap();
        let t = decoded(&view.descriptor);
        assert_eq!((t.width, t.startoffsettexels), (47, 1));
        assert_eq!(
            BufferView::new(&device, buffer.clone(), vk::Format::R32_UINT, 66, 4).err(),
            Some(vk::Result::ERROR_UNKNOWN)
        );
        assert_eq!(
            BufferView::new(&device, buffer, vk::Format::D16_UNORM, 0, 4).err(),
            Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED)
        );
    }
}
