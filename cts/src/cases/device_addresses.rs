//! Buffers reached through device addresses (bufferDeviceAddress): an array
//! read and an array written through addresses in push constants, and a
//! linked list whose nodes hold the next one's address, and atomics through
//! an address, mirrored in Rust.

use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Dependency, Harness, PipelineDesc};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "device_addresses.arrays_and_list",
    run: arrays_and_list,
}];

const N: usize = 256;
/// Nodes of the list: {value, pad, next address}, 16 bytes each.
const NODES: usize = 4;

fn arrays_and_list(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().buffer_device_address {
        return Err(Stop::NotSupported("bufferDeviceAddress".into()));
    }
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
    let pairs = Sequence::new(77).u32s(2 * N);
    let src = h.host_buffer_with(usage, &to_bytes(&pairs))?;
    let dst = h.host_buffer((2 * N * 4) as u64, usage)?;
    let list = h.host_buffer((NODES * 16) as u64, usage)?;
    let counters = h.host_buffer_with(usage, &to_bytes(&[0u32, 0]))?;
    let list_address = h.device_address(&list)?;
    let values = [5u32, 70, 900, 13];
    let mut nodes: Vec<u32> = Vec::new();
    for (k, v) in values.iter().enumerate() {
        let next = if k + 1 < NODES {
            list_address + 16 * (k as u64 + 1)
        } else {
            0
        };
        nodes.extend_from_slice(&[*v, 0, next as u32, (next >> 32) as u32]);
    }
    h.write(&list, 0, &to_bytes(&nodes))?;
    let addresses = [
        h.device_address(&src)?,
        h.device_address(&dst)?,
        list_address,
        h.device_address(&counters)?,
    ];
    let pipeline =
        h.pipeline(&PipelineDesc::new(&shaders::DEVICE_ADDRESSES, &[]).push_constants(32))?;
    h.run(|r| {
        r.bind(&pipeline, &[]);
        r.push_constants(&pipeline, 0, &to_bytes(&addresses));
        r.dispatch((N / 64) as u32, 1, 1);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want: Vec<u32> = (0..N)
        .map(|i| pairs[2 * i].wrapping_mul(3).wrapping_add(pairs[2 * i + 1]))
        .collect();
    want.extend((0..N).map(|i| {
        values[..=i % 4]
            .iter()
            .fold(0u32, |a, v| a.wrapping_add(v * (i as u32 + 1)))
    }));
    let mut result = CaseResult::new();
    result.check("results", &h.read_as::<u32>(&dst)?, &want);
    let top = (0..N).map(|i| pairs[2 * i]).max().unwrap_or(0);
    result.check("counters", &h.read_as::<u32>(&counters)?, &[N as u32, top]);
    Ok(result)
}
