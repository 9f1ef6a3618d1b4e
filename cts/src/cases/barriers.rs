//! Pipeline barriers between dispatches and transfers: chains where each
//! step reads what another workgroup of the previous step wrote.

use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, Placement};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "barriers.dispatch_chain",
        run: dispatch_chain,
    },
    Case {
        name: "barriers.write_after_read",
        run: write_after_read,
    },
    Case {
        name: "barriers.buffer_range",
        run: buffer_range,
    },
    Case {
        name: "barriers.across_command_buffers",
        run: across_command_buffers,
    },
    Case {
        name: "barriers.transfer_compute_transfer",
        run: transfer_compute_transfer,
    },
];

/// Six dispatches ping-ponging between two buffers, a barrier between each.
fn dispatch_chain(h: &mut Harness) -> Result<CaseResult, Stop> {
    let initial = Sequence::new(41).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let pipeline = step::pipeline(h)?;
    let a_to_b = step::set(h, &pipeline, &a, &b)?;
    let b_to_a = step::set(h, &pipeline, &b, &a)?;
    h.run(|r| {
        for round in 0..6 {
            if round > 0 {
                r.barrier(Dependency::COMPUTE_TO_COMPUTE);
            }
            let set = if round % 2 == 0 { a_to_b } else { b_to_a };
            step::record(r, &pipeline, set, round);
        }
        r.barrier(Dependency::TO_HOST);
    })?;
    let want = (0..6).fold(initial, |words, round| step(&words, round));
    let mut result = CaseResult::new();
    result.check("chain", &h.read_as::<u32>(&a)?, &want);
    Ok(result)
}

/// A dispatch reads A; the next overwrites A: the second must not start
/// before the first has read (an execution dependency is enough).
fn write_after_read(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(42);
    let (first, other) = (seq.u32s(WORDS), seq.u32s(WORDS));
    let a = step::buffer(h, Some(&first))?;
    let b = step::buffer(h, None)?;
    let c = step::buffer(h, Some(&other))?;
    let pipeline = step::pipeline(h)?;
    let a_to_b = step::set(h, &pipeline, &a, &b)?;
    let c_to_a = step::set(h, &pipeline, &c, &a)?;
    h.run(|r| {
        step::record(r, &pipeline, a_to_b, 1);
        r.barrier(Dependency::COMPUTE_READ_TO_COMPUTE_WRITE);
        step::record(r, &pipeline, c_to_a, 2);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut result = CaseResult::new();
    result.check("read_first", &h.read_as::<u32>(&b)?, &step(&first, 1));
    result.check("overwritten", &h.read_as::<u32>(&a)?, &step(&other, 2));
    Ok(result)
}

/// Two dispatches on sub-ranges of one buffer, ordered by a buffer memory
/// barrier on exactly the range written.
fn buffer_range(h: &mut Harness) -> Result<CaseResult, Stop> {
    let align = h
        .properties()
        .limits
        .min_storage_buffer_offset_alignment
        .max(256);
    let bytes = 4 * WORDS as u64;
    let initial = Sequence::new(43).u32s(WORDS);
    // One buffer: [input | pad | middle | pad | output], each part aligned.
    let slot = bytes.div_ceil(align) * align + align;
    let (input_at, middle_at, output_at) = (0, slot, 2 * slot);
    let whole = h.host_buffer(3 * slot, vk::BufferUsageFlags::STORAGE_BUFFER)?;
    h.write(&whole, input_at, &to_bytes(&initial))?;
    let pipeline = step::pipeline(h)?;
    let first = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::range(&whole, input_at, bytes),
            Bind::range(&whole, middle_at, bytes),
        ],
    )?;
    let second = h.descriptor_set(
        &pipeline,
        0,
        &[
            Bind::range(&whole, middle_at, bytes),
            Bind::range(&whole, output_at, bytes),
        ],
    )?;
    h.run(|r| {
        step::record(r, &pipeline, first, 5);
        r.buffer_barrier(Dependency::COMPUTE_TO_COMPUTE, &whole, middle_at, bytes);
        step::record(r, &pipeline, second, 6);
        r.barrier(Dependency::TO_HOST);
    })?;
    let all = h.read_as::<u32>(&whole)?;
    let at = |offset: u64| &all[offset as usize / 4..offset as usize / 4 + WORDS];
    let mut result = CaseResult::new();
    result.check("output", at(output_at), &step(&step(&initial, 5), 6));
    Ok(result)
}

/// A chain split over three command buffers: two in one batch, one in a
/// second submission. Each later command buffer starts with a barrier,
/// whose first scope reaches back to earlier submissions.
fn across_command_buffers(h: &mut Harness) -> Result<CaseResult, Stop> {
    let chain = step::chain(h, 44, true)?;
    let [first, second, third] = chain.commands;
    h.submit_and_wait(&[first, second])?;
    h.submit_and_wait(&[third])?;
    let mut result = CaseResult::new();
    result.check("chain", &h.read_as::<u32>(&chain.a)?, &chain.want);
    Ok(result)
}

/// Fill, then a dispatch reads the fill, then a copy reads the dispatch's
/// output into device-local memory and a second copy brings it back.
fn transfer_compute_transfer(h: &mut Harness) -> Result<CaseResult, Stop> {
    let bytes = 4 * WORDS as u64;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let a = h.buffer(bytes, usage, Placement::Device)?;
    let b = h.buffer(bytes, usage, Placement::Device)?;
    let c = h.buffer(bytes, usage, Placement::Device)?;
    let readback = h.host_buffer(bytes, usage)?;
    let pipeline = step::pipeline(h)?;
    let a_to_b = step::set(h, &pipeline, &a, &b)?;
    h.run(|r| {
        r.fill(&a, 0, bytes / 2, 0x0102_0304);
        r.fill(&a, bytes / 2, vk::WHOLE_SIZE, 0xfeed_f00d);
        r.barrier(Dependency::TRANSFER_TO_COMPUTE);
        step::record(r, &pipeline, a_to_b, 7);
        r.barrier(Dependency::COMPUTE_TO_TRANSFER);
        r.copy(
            &b,
            &c,
            &[vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: bytes,
            }],
        );
        r.barrier(Dependency::TRANSFER_TO_TRANSFER);
        r.copy(
            &c,
            &readback,
            &[vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: bytes,
            }],
        );
        r.barrier(Dependency::TO_HOST);
    })?;
    let filled: Vec<u32> = (0..WORDS)
        .map(|i| {
            if i < WORDS / 2 {
                0x0102_0304
            } else {
                0xfeed_f00d
            }
        })
        .collect();
    let mut result = CaseResult::new();
    result.check("readback", &h.read_as::<u32>(&readback)?, &step(&filled, 7));
    Ok(result)
}
