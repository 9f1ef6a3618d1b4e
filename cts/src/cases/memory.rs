//! Device memory shared by several buffers, bound at offsets, and mapped
//! in parts.

use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Dependency, Harness, POISON};
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
    let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let (buffers, stride) = h.suballocated_buffers(size, &[storage; 3])?;
    let memory = buffers[0].memory;

    let initial = Sequence::new(101).u32s(WORDS);
    let mut image = vec![POISON; 3 * stride as usize];
    image[stride as usize..(stride + size) as usize].copy_from_slice(&to_bytes(&initial));
    // Writes the whole allocation through a full mapping.
    h.map_memory(memory, 0, image.len() as u64, |m| m.copy_from_slice(&image))?;

    let pipeline = step::pipeline(h)?;
    let set = step::set(h, &pipeline, &buffers[1], &buffers[2])?;
    h.run(|r| {
        step::record(r, &pipeline, set, 4);
        r.barrier(Dependency::TO_HOST);
    })?;

    // Reads `len` bytes at `offset` through a mapping of just that range.
    let read = |offset: u64, len: u64| h.map_memory(memory, offset, len, |m| m.to_vec());
    let tail = read(2 * stride, size)?;
    let untouched = read(0, stride)?;
    let mut result = CaseResult::new();
    result.check("output", &from_bytes::<u32>(&tail), &step(&initial, 4));
    result.check("untouched", &untouched, &vec![POISON; stride as usize]);
    Ok(result)
}
