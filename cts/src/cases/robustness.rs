//! robustBufferAccess, which every Vulkan version requires: accesses past
//! the range a descriptor binds. The spec lets a load there return zero
//! (or (0,0,0,1)-style values) or any value from the memory bound to the
//! buffer, and a store there modify only memory bound to the buffer; no
//! other memory may change and the device must not be lost.

use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, Slot, POISON};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "robustness.buffer_bounds",
    run: buffer_bounds,
}];

/// Words bound in each buffer (64 bytes: four vec4s for the uniform one).
const BOUND: usize = 16;
/// Invocations, each loading one word and storing one past the end.
const INVOCATIONS: usize = 64;

/// Whether `got` is a value a robust out-of-bounds load of a 32-bit word
/// from `bound` may give: zero, one or the largest value (the spec's
/// (0,0,0,x) choices), or a word of the buffer's memory (its padding up to
/// the next buffer repeats its words, so that those are words of it too).
fn allowed_load(got: u32, bound: &[u32]) -> bool {
    matches!(got, 0 | 1 | u32::MAX) || bound.contains(&got)
}

/// Four buffers of 64 bytes in one allocation, each at its own aligned
/// offset: the storage and uniform buffers read, the target written past
/// its end, and a guard right after the target that must keep its bytes.
fn buffer_bounds(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().robust_buffer_access {
        return Err(Stop::NotSupported(
            "robustBufferAccess is not enabled".into(),
        ));
    }
    let size = 4 * BOUND as u64;
    let storage_usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let usages = [
        storage_usage,
        vk::BufferUsageFlags::UNIFORM_BUFFER,
        storage_usage,
        storage_usage,
    ];
    let (buffers, stride) = h.suballocated_buffers(size, &usages)?;
    let memory = buffers[0].memory;
    let storage = Sequence::new(301).u32s(BOUND);
    let uniform = Sequence::new(302).u32s(BOUND);
    let target: Vec<u32> = (0..BOUND as u32).map(|k| 0xaaaa_0000 + k).collect();
    // Each buffer's words, repeated over its padding up to the next one;
    // the guard is poison.
    let mut image = vec![POISON; 4 * stride as usize];
    for (k, words) in [&storage, &uniform, &target].into_iter().enumerate() {
        let at = k * stride as usize;
        let bytes = to_bytes(words);
        for (dst, src) in image[at..at + stride as usize]
            .iter_mut()
            .zip(bytes.iter().cycle())
        {
            *dst = *src;
        }
    }
    h.map_memory(memory, 0, image.len() as u64, |m| m.copy_from_slice(&image))?;

    let output = h.host_buffer(8 * INVOCATIONS as u64, vk::BufferUsageFlags::STORAGE_BUFFER)?;
    let slots: &[Slot] = &[Slot::STORAGE, Slot::UNIFORM, Slot::STORAGE, Slot::STORAGE];
    let pipeline = h.compute(&shaders::ROBUST_BUFFERS, &[slots])?;
    let set = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::whole(&buffers[0]),
            Bind::whole(&buffers[1]),
            Bind::whole(&buffers[2]),
            Bind::whole(&output),
        ],
    )?;
    h.run(|r| {
        r.bind(&pipeline, &[set]);
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;

    let loads = h.read_as::<u32>(&output)?;
    let (storage_loads, uniform_loads) = loads.split_at(INVOCATIONS);
    let after = h.map_memory(memory, 0, 4 * stride, |m| m.to_vec())?;
    let target_after = from_bytes::<u32>(&after[2 * stride as usize..][..size as usize]);
    let written = |w: u32| (0x5eed_0000..0x5eed_0000 + INVOCATIONS as u32).contains(&w);

    // Outputs that are the same on every conforming driver: in-range loads
    // exactly, and for each out-of-range access whether it was allowed.
    let mut result = CaseResult::new();
    result.check("storage_in_range", &storage_loads[..BOUND], &storage);
    result.check("uniform_in_range", &uniform_loads[..BOUND], &uniform);
    let verdict = |ok: bool| u32::from(ok);
    let storage_ok: Vec<u32> = storage_loads[BOUND..]
        .iter()
        .map(|&w| verdict(allowed_load(w, &storage)))
        .collect();
    let uniform_ok: Vec<u32> = uniform_loads[BOUND..]
        .iter()
        .map(|&w| verdict(allowed_load(w, &uniform)))
        .collect();
    let target_ok: Vec<u32> = target_after
        .iter()
        .zip(&target)
        .map(|(&got, &was)| verdict(got == was || written(got)))
        .collect();
    let ones = vec![1u32; INVOCATIONS - BOUND];
    result.check("storage_past_the_end", &storage_ok, &ones);
    result.check("uniform_past_the_end", &uniform_ok, &ones);
    result.check(
        "target_keeps_or_takes_a_stored_word",
        &target_ok,
        &[1; BOUND],
    );
    // The target's padding may take stored words too; every other byte of
    // the allocation, the guard included, is as it was. (Checked without
    // an output: the padding's size differs between drivers.)
    let (target_at, next_at) = (2 * stride as usize, 3 * stride as usize);
    let padding_ok = from_bytes::<u32>(&after[target_at + size as usize..next_at])
        .iter()
        .zip(from_bytes::<u32>(
            &image[target_at + size as usize..next_at],
        ))
        .all(|(&got, was)| got == was || written(got));
    result.require(
        padding_ok,
        "the target's padding took a value nobody stored",
    );
    let untouched =
        after[..target_at] == image[..target_at] && after[next_at..] == image[next_at..];
    result.require(untouched, "a store past the target changed other memory");
    Ok(result)
}
