//! The shape most cases share: one input buffer at binding 0, one output
//! buffer at binding 1, one dispatch, read back.

use crate::bytes::{from_bytes, Word};
use crate::case::{CaseResult, Stop};
use crate::harness::{Bind, Harness, Slot};
use crate::shaders::Shader;
use ash::vk;
use std::fmt::Debug;

/// Runs `shader` over `groups` workgroups with `input` at binding 0 and an
/// output of `output_bytes` (poisoned) at binding 1; returns the output.
pub fn one_dispatch(
    h: &mut Harness,
    shader: &Shader,
    input: &[u8],
    output_bytes: u64,
    groups: u32,
) -> Result<Vec<u8>, Stop> {
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let input = h.host_buffer_with(usage, input)?;
    let output = h.host_buffer(output_bytes, usage)?;
    let pipeline = h.compute(shader, &[&[Slot::STORAGE, Slot::STORAGE]])?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&input), Bind::whole(&output)])?;
    h.dispatch_and_wait(&pipeline, &[set], [groups, 1, 1])?;
    h.read(&output)
}

/// [`one_dispatch`] with an output the size of `want`, checked against it
/// as the output named `results`.
pub fn check_one_dispatch<T: Word + PartialEq + Debug>(
    h: &mut Harness,
    shader: &Shader,
    input: &[u8],
    want: &[T],
    groups: u32,
) -> Result<CaseResult, Stop> {
    let got = one_dispatch(h, shader, input, (want.len() * T::SIZE) as u64, groups)?;
    let mut result = CaseResult::new();
    result.check("results", &from_bytes::<T>(&got), want);
    Ok(result)
}
