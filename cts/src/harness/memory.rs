//! Buffers, their memory, host access to it, and buffer views.

use super::{Harness, Mapping};
use crate::bytes::{from_bytes, Word};
use crate::case::{OrStop, Stop};
use ash::vk;

/// A buffer bound to a memory allocation of its own, at offset 0.
#[derive(Clone, Copy, Debug)]
pub struct Buffer {
    pub handle: vk::Buffer,
    pub memory: vk::DeviceMemory,
    /// The size the buffer was created with.
    pub size: u64,
}

/// Where a buffer's memory lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Host-visible and host-coherent, mapped for the whole case. The
    /// specification guarantees such a memory type exists.
    Host,
    /// Device-local, preferably not host-visible (a discrete GPU's VRAM;
    /// on Adreno and lavapipe all memory is both), never mapped.
    Device,
}

/// The byte fresh host buffers are filled with, so that a dispatch that
/// writes nothing cannot pass as one that writes zeros.
pub const POISON: u8 = 0xa5;
/// A 32-bit word of [`POISON`] bytes.
pub const POISON_WORD: u32 = u32::from_ne_bytes([POISON; 4]);

impl Harness {
    /// The index of a memory type allowed by `type_bits` for `placement`.
    pub fn memory_type(&self, type_bits: u32, placement: Placement) -> Result<u32, Stop> {
        let props = &self.memory_properties;
        let types = &props.memory_types[..props.memory_type_count as usize];
        let allowed = |i: usize| type_bits & (1 << i) != 0;
        let has = |i: usize, f: vk::MemoryPropertyFlags| types[i].property_flags.contains(f);
        let local = vk::MemoryPropertyFlags::DEVICE_LOCAL;
        let visible = vk::MemoryPropertyFlags::HOST_VISIBLE;
        let host = visible | vk::MemoryPropertyFlags::HOST_COHERENT;
        let found = match placement {
            Placement::Host => (0..types.len()).find(|&i| allowed(i) && has(i, host)),
            Placement::Device => (0..types.len())
                .find(|&i| allowed(i) && has(i, local) && !has(i, visible))
                .or_else(|| (0..types.len()).find(|&i| allowed(i) && has(i, local)))
                .or_else(|| (0..types.len()).find(|&i| allowed(i))),
        };
        found.map(|i| i as u32).ok_or_else(|| {
            Stop::Error(format!(
                "no memory type for {placement:?} among type bits {type_bits:#x}"
            ))
        })
    }

    /// Memory for an object with `requirements`, in `placement`.
    pub(super) fn allocate(
        &self,
        requirements: &vk::MemoryRequirements,
        placement: Placement,
    ) -> Result<vk::DeviceMemory, Stop> {
        let memory_type_index = self.memory_type(requirements.memory_type_bits, placement)?;
        let mut flags =
            vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let mut alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(requirements.size)
            .memory_type_index(memory_type_index);
        if self.caps.buffer_device_address {
            alloc = alloc.push_next(&mut flags);
        }
        // SAFETY: a valid allocation of a type the object allows.
        unsafe { self.device.allocate_memory(&alloc, None) }.or_stop("vkAllocateMemory")
    }

    /// A buffer of `size` bytes for `usage` (transfers always allowed).
    /// Host buffers are mapped and filled with [`POISON`].
    pub fn buffer(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        placement: Placement,
    ) -> Result<Buffer, Stop> {
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage | vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: the device is alive; `info` is valid for the call.
        let handle = unsafe { self.device.create_buffer(&info, None) }.or_stop("vkCreateBuffer")?;
        // SAFETY: `handle` was just created from this device.
        let requirements = unsafe { self.device.get_buffer_memory_requirements(handle) };
        let memory = match self.allocate(&requirements, placement) {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: the buffer is unused.
                unsafe { self.device.destroy_buffer(handle, None) };
                return Err(e);
            }
        };
        // Owned in this order so the buffer is destroyed before its memory.
        self.own(memory);
        self.own(handle);
        // SAFETY: fresh buffer and memory from this device, sized by the
        // buffer's own requirements.
        unsafe { self.device.bind_buffer_memory(handle, memory, 0) }
            .or_stop("vkBindBufferMemory")?;
        if placement == Placement::Host {
            // SAFETY: host-visible memory, not mapped before; the mapping
            // stays valid until the memory is freed at tear-down.
            let ptr = unsafe {
                self.device
                    .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            }
            .or_stop("vkMapMemory")?;
            let size = requirements.size as usize;
            // SAFETY: `ptr` maps `requirements.size` bytes of this memory.
            unsafe { std::ptr::write_bytes(ptr as *mut u8, POISON, size) };
            self.mappings.insert(
                memory,
                Mapping {
                    ptr: ptr as *mut u8,
                    size,
                },
            );
        }
        Ok(Buffer {
            handle,
            memory,
            size,
        })
    }

    /// A host buffer of `size` bytes, filled with [`POISON`].
    pub fn host_buffer(&mut self, size: u64, usage: vk::BufferUsageFlags) -> Result<Buffer, Stop> {
        self.buffer(size, usage, Placement::Host)
    }

    /// The device address of `buffer` (created with SHADER_DEVICE_ADDRESS),
    /// through the core or the KHR command as the device offers it.
    pub fn device_address(&self, buffer: &Buffer) -> Result<u64, Stop> {
        let name: &std::ffi::CStr = if vk::api_version_minor(self.caps.api_version) >= 2 {
            c"vkGetBufferDeviceAddress"
        } else {
            c"vkGetBufferDeviceAddressKHR"
        };
        // SAFETY: a live device, and a command name of an enabled version or
        // extension.
        let f = unsafe {
            self.instance()
                .get_device_proc_addr(self.device.handle(), name.as_ptr())
        }
        .ok_or_else(|| Stop::Error(format!("{name:?} is not offered")))?;
        // SAFETY: the command's own prototype.
        let f: vk::PFN_vkGetBufferDeviceAddress = unsafe { std::mem::transmute(f) };
        let info = vk::BufferDeviceAddressInfo::default().buffer(buffer.handle);
        // SAFETY: a buffer of this device, bound to memory.
        Ok(unsafe { f(self.device.handle(), &info) })
    }

    /// A host buffer holding `bytes`.
    pub fn host_buffer_with(
        &mut self,
        usage: vk::BufferUsageFlags,
        bytes: &[u8],
    ) -> Result<Buffer, Stop> {
        let buffer = self.buffer(bytes.len() as u64, usage, Placement::Host)?;
        self.write(&buffer, 0, bytes)?;
        Ok(buffer)
    }

    fn mapping(&self, buffer: &Buffer, offset: u64, len: usize) -> Result<*mut u8, Stop> {
        let Some(mapping) = self.mappings.get(&buffer.memory) else {
            return Err(Stop::Error(format!(
                "{:?} is not a host buffer of this harness",
                buffer.handle
            )));
        };
        let end = offset as usize + len;
        if end as u64 > buffer.size || end > mapping.size {
            return Err(Stop::Error(format!(
                "host access to bytes {offset}..{end} of a {}-byte buffer",
                buffer.size
            )));
        }
        // SAFETY: `offset + len` is within the mapping (checked above).
        Ok(unsafe { mapping.ptr.add(offset as usize) })
    }

    /// The whole contents of a host buffer. Submitted work that wrote it
    /// must have completed and been made visible to the host.
    pub fn read(&self, buffer: &Buffer) -> Result<Vec<u8>, Stop> {
        let len = buffer.size as usize;
        let src = self.mapping(buffer, 0, len)?;
        let mut out = vec![0u8; len];
        // SAFETY: `src` points at `len` mapped bytes (checked by `mapping`),
        // coherent, and not written by the device while the case reads.
        unsafe { std::ptr::copy_nonoverlapping(src, out.as_mut_ptr(), len) };
        Ok(out)
    }

    /// A host buffer's contents as values of `T`.
    pub fn read_as<T: Word>(&self, buffer: &Buffer) -> Result<Vec<T>, Stop> {
        Ok(from_bytes(&self.read(buffer)?))
    }

    /// Writes `bytes` into a host buffer at `offset`.
    pub fn write(&self, buffer: &Buffer, offset: u64, bytes: &[u8]) -> Result<(), Stop> {
        let dst = self.mapping(buffer, offset, bytes.len())?;
        // SAFETY: `dst` points at `bytes.len()` mapped bytes (checked by
        // `mapping`) that no pending device work uses.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len()) };
        Ok(())
    }

    /// Buffers of `size` bytes, one per usage, back to back in one
    /// host-visible allocation, each at the next offset every buffer's
    /// requirements allow; also the stride between them. Map the memory
    /// with [`Harness::map_memory`]: the buffers are not mapped.
    pub fn suballocated_buffers(
        &mut self,
        size: u64,
        usages: &[vk::BufferUsageFlags],
    ) -> Result<(Vec<Buffer>, u64), Stop> {
        let mut handles = Vec::new();
        for &usage in usages {
            let info = vk::BufferCreateInfo::default()
                .size(size)
                .usage(usage)
                .sharing_mode(vk::SharingMode::EXCLUSIVE);
            // SAFETY: the device is alive; the buffer is owned at once.
            let buffer =
                unsafe { self.device.create_buffer(&info, None) }.or_stop("vkCreateBuffer")?;
            handles.push(self.own(buffer));
        }
        let requirements: Vec<vk::MemoryRequirements> = handles
            .iter()
            // SAFETY: live buffers of this device.
            .map(|b| unsafe { self.device.get_buffer_memory_requirements(*b) })
            .collect();
        let alignment = requirements.iter().map(|r| r.alignment).max().unwrap_or(1);
        let stride = requirements
            .iter()
            .map(|r| r.size.next_multiple_of(alignment))
            .max()
            .unwrap_or(size);
        let type_bits = requirements
            .iter()
            .fold(u32::MAX, |bits, r| bits & r.memory_type_bits);
        let all = vk::MemoryRequirements {
            size: usages.len() as u64 * stride,
            alignment,
            memory_type_bits: type_bits,
        };
        let memory = self.allocate(&all, Placement::Host)?;
        self.own(memory);
        let mut buffers = Vec::new();
        for (k, handle) in handles.iter().enumerate() {
            // SAFETY: offset k * stride is aligned and leaves room for the
            // buffer.
            unsafe {
                self.device
                    .bind_buffer_memory(*handle, memory, k as u64 * stride)
            }
            .or_stop("vkBindBufferMemory")?;
            buffers.push(Buffer {
                handle: *handle,
                memory,
                size,
            });
        }
        Ok((buffers, stride))
    }

    /// Runs `access` on `len` bytes of host-visible, coherent `memory` from
    /// `offset`, mapped for the call (memory the harness did not map).
    /// Submitted work using the range must have completed.
    pub fn map_memory<T>(
        &self,
        memory: vk::DeviceMemory,
        offset: u64,
        len: u64,
        access: impl FnOnce(&mut [u8]) -> T,
    ) -> Result<T, Stop> {
        // SAFETY: the caller's memory is host-visible and not mapped; the
        // mapping covers `len` bytes and is unmapped before returning.
        unsafe {
            let ptr = self
                .device
                .map_memory(memory, offset, len, vk::MemoryMapFlags::empty())
                .or_stop("vkMapMemory")?;
            let out = access(std::slice::from_raw_parts_mut(
                ptr.cast::<u8>(),
                len as usize,
            ));
            self.device.unmap_memory(memory);
            Ok(out)
        }
    }

    /// A view of `range` bytes of `buffer` from `offset` as `format`, after
    /// checking the format supports `feature` in buffers (`NotSupported`
    /// when not).
    pub fn buffer_view(
        &mut self,
        buffer: &Buffer,
        format: vk::Format,
        offset: u64,
        range: u64,
        feature: vk::FormatFeatureFlags,
    ) -> Result<vk::BufferView, Stop> {
        // SAFETY: a query on the live physical device.
        let props = unsafe {
            self.instance
                .get_physical_device_format_properties(self.physical, format)
        };
        if !props.buffer_features.contains(feature) {
            return Err(Stop::NotSupported(format!(
                "{format:?} lacks {feature:?} in buffers"
            )));
        }
        let info = vk::BufferViewCreateInfo::default()
            .buffer(buffer.handle)
            .format(format)
            .offset(offset)
            .range(range);
        // SAFETY: `buffer` is alive; the format supports the view's use.
        let view =
            unsafe { self.device.create_buffer_view(&info, None) }.or_stop("vkCreateBufferView")?;
        Ok(self.own(view))
    }
}
