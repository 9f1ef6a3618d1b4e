//! Device memory shared by several buffers, bound at offsets, and mapped
//! in parts.

use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Buffer, Dependency, Harness, Placement, POISON};
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "memory.suballocated_buffers",
    run: suballocated_buffers,
}];

/// Three buffers in one allocation at aligned offsets; a dispatch reads the
/// second and writes the third; the first must keep its bytes. The memory
/// is mapped three times, at different offsets.
fn suballocated_buffers(h: &mut Harness) -> Result<CaseResult, Stop> {
    let size = 4 * WORDS as u64;
    let info = vk::BufferCreateInfo::default()
        .size(size)
        .usage(vk::BufferUsageFlags::STORAGE_BUFFER)
        .sharing_mode(vk::SharingMode::EXCLUSIVE);
    let mut handles = Vec::new();
    for _ in 0..3 {
        // SAFETY: the device is alive; the buffer is owned at once.
        let buffer = unsafe { h.device().create_buffer(&info, None) }.or_stop("vkCreateBuffer")?;
        handles.push(buffer);
    }
    // SAFETY: a live buffer of this device.
    let requirements = unsafe { h.device().get_buffer_memory_requirements(handles[0]) };
    let stride = requirements.size.div_ceil(requirements.alignment) * requirements.alignment;
    let memory_type = h.memory_type(requirements.memory_type_bits, Placement::Host)?;
    let alloc = vk::MemoryAllocateInfo::default()
        .allocation_size(3 * stride)
        .memory_type_index(memory_type);
    // SAFETY: a valid allocation of a type the buffers allow.
    let memory = unsafe { h.device().allocate_memory(&alloc, None) }.or_stop("vkAllocateMemory")?;
    h.own(memory);
    let mut buffers = Vec::new();
    for (k, handle) in handles.iter().enumerate() {
        h.own(*handle);
        // SAFETY: offset k * stride is aligned and leaves room for the buffer.
        unsafe {
            h.device()
                .bind_buffer_memory(*handle, memory, k as u64 * stride)
        }
        .or_stop("vkBindBufferMemory")?;
        buffers.push(Buffer {
            handle: *handle,
            memory,
            size,
        });
    }

    let initial = Sequence::new(101).u32s(WORDS);
    let mut image = vec![POISON; 3 * stride as usize];
    image[stride as usize..(stride + size) as usize].copy_from_slice(&to_bytes(&initial));
    // Writes the whole allocation through a full mapping.
    let d = h.device().clone();
    // SAFETY: host-visible, coherent memory, mapped once at a time; the
    // mapping covers `image.len()` bytes and is unmapped before any submit.
    unsafe {
        let ptr = d
            .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            .or_stop("vkMapMemory")?;
        std::ptr::copy_nonoverlapping(image.as_ptr(), ptr.cast::<u8>(), image.len());
        d.unmap_memory(memory);
    }

    let pipeline = step::pipeline(h)?;
    let set = step::set(h, &pipeline, &buffers[1], &buffers[2])?;
    h.run(|r| {
        step::record(r, &pipeline, set, 4);
        r.barrier(Dependency::TO_HOST);
    })?;

    // Reads `len` bytes at `offset` through a mapping of just that range.
    let read = |offset: u64, len: u64| -> Result<Vec<u8>, Stop> {
        let mut out = vec![0u8; len as usize];
        // SAFETY: as above; the submitted work has completed.
        unsafe {
            let ptr = d
                .map_memory(memory, offset, len, vk::MemoryMapFlags::empty())
                .or_stop("vkMapMemory")?;
            std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), out.as_mut_ptr(), out.len());
            d.unmap_memory(memory);
        }
        Ok(out)
    };
    let tail = read(2 * stride, size)?;
    let untouched = read(0, stride)?;
    let mut result = CaseResult::new();
    result.check("output", &from_bytes::<u32>(&tail), &step(&initial, 4));
    result.check("untouched", &untouched, &vec![POISON; stride as usize]);
    Ok(result)
}
